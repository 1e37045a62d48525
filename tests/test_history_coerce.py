"""history.coerce: message-likes into messages, with errors naming the index and the fault."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import LOCAL_FIXTURES
from messages import AssistantMessage
from messages import AudioBlock
from messages import DecodeError
from messages import DocumentBlock
from messages import FrozenDict
from messages import ImageBlock
from messages import RawBlock
from messages import SystemMessage
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingBlock
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UserMessage
from messages import from_dict
from messages import history
from messages import strategies as ms
from messages import thaw
from messages import to_dict

FIXTURES = LOCAL_FIXTURES / "history"


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text())


# -- strings and pairs --------------------------------------------------------------------


def test_a_string_is_a_user_message() -> None:
    assert history.coerce(["hi"]) == (UserMessage("hi"),)


@pytest.mark.parametrize(
    ("alias", "expected"),
    [
        ("human", UserMessage("x")),
        ("user", UserMessage("x")),
        ("ai", AssistantMessage("x")),
        ("assistant", AssistantMessage("x")),
        ("model", AssistantMessage("x")),
        ("system", SystemMessage("x")),
        ("developer", SystemMessage("x", role="developer")),
    ],
)
def test_role_aliases(alias: str, expected: object) -> None:
    assert history.coerce([(alias, "x")]) == (expected,)
    assert history.coerce([[alias, "x"]]) == (expected,)
    assert history.coerce([{"role": alias, "content": "x"}]) == (expected,)


def test_developer_stays_apart_from_system() -> None:
    (dev,) = history.coerce([("developer", "x")])
    assert isinstance(dev, SystemMessage)
    assert dev.role == "developer"


def test_pair_content_may_be_blocks_strings_and_dicts() -> None:
    image = ImageBlock(url="https://example.com/a.png")
    (m,) = history.coerce([("user", ["look", image, {"type": "text", "text": "now"}])])
    assert m == UserMessage((TextBlock("look"), image, TextBlock("now")))
    assert history.coerce([("user", image)]) == (UserMessage((image,)),)
    assert history.coerce([("assistant", None)]) == (AssistantMessage(()),)
    assert history.coerce([("user", None)]) == (UserMessage(""),)


def test_a_tool_pair_needs_ready_made_results() -> None:
    result = ToolResultBlock("t1", "ok")
    assert history.coerce([("tool", [result])]) == (ToolMessage((result,)),)
    with pytest.raises(DecodeError) as info:
        history.coerce([("tool", "ok")])
    assert str(info.value) == (
        "$[0]: a 'tool' pair cannot say which call it answers; pass ToolResultBlocks,"
        " or a dict {'role': 'tool', 'tool_call_id': ..., 'content': ...}"
    )


def test_messages_pass_through_unchanged() -> None:
    m = AssistantMessage("x", model="m")
    assert history.coerce([m])[0] is m


# -- OpenAI, Anthropic, langchain and native dicts ------------------------------------------


def test_openai_conversation() -> None:
    got = history.coerce(load("openai_chat.json"))
    assert got == (
        SystemMessage("Answer in one line.", role="developer"),
        UserMessage(
            (
                TextBlock("What is in this picture, and what's the weather?"),
                ImageBlock(url="https://example.com/cat.png", extra={"detail": "low"}),
            ),
            extra={"name": "ana"},
        ),
        AssistantMessage(
            (
                ToolUseBlock(
                    "call_1", "get_weather", {"city": "Paris"}, arguments='{"city": "Paris"}'
                ),
                ToolUseBlock("call_2", "describe", {}, arguments='{"url": '),
            ),
            extra={"refusal": None},
        ),
        ToolMessage((ToolResultBlock("call_1", "18C, cloudy"),)),
        ToolMessage((ToolResultBlock("call_2", (TextBlock("a cat"),)),)),
        AssistantMessage("A cat; 18C and cloudy in Paris."),
    )
    assert got[2].tool_uses[1].invalid_arguments


def test_anthropic_conversation() -> None:
    got = history.coerce(load("anthropic_chat.json"))
    assert got[1] == AssistantMessage(
        (
            ThinkingBlock("I should run ls.", signature="c2ln"),
            TextBlock("Listing."),
            ToolUseBlock("toolu_1", "Bash", {"command": "ls"}),
        ),
        stop_reason="tool_use",
        model="claude-sonnet-4-5",
        message_id="msg_01",
        extra={
            "type": "message",
            "stop_sequence": None,
            "usage": {"input_tokens": 12, "output_tokens": 30},
        },
    )
    assert got[2] == UserMessage(
        (ToolResultBlock("toolu_1", "a.txt\nb.txt"), TextBlock("Also count them."))
    )
    assert history.repair(got)[1] == ()


def test_native_dicts() -> None:
    m = AssistantMessage((TextBlock("x"),), usage=None, session_id="s1")
    assert history.coerce([to_dict(m)]) == (m,)
    assert history.coerce([FrozenDict(to_dict(m))]) == (m,)


def test_langchain_dicts() -> None:
    human = {
        "type": "human",
        "data": {
            "content": "hi",
            "additional_kwargs": {},
            "response_metadata": {},
            "type": "human",
            "name": None,
            "id": None,
            "example": False,
        },
    }
    ai = {
        "type": "ai",
        "data": {
            "content": "",
            "tool_calls": [{"name": "f", "args": {"a": 1}, "id": "c1", "type": "tool_call"}],
            "id": "run-1",
        },
    }
    tool = {"type": "tool", "data": {"content": "2", "tool_call_id": "c1", "status": "error"}}
    assert history.coerce([human, ai, tool]) == (
        UserMessage("hi"),
        AssistantMessage((ToolUseBlock("c1", "f", {"a": 1}),), message_id="run-1"),
        ToolMessage((ToolResultBlock("c1", "2", is_error=True),)),
    )


def test_openai_file_parts_are_documents() -> None:
    (m,) = history.coerce(
        [
            {
                "role": "user",
                "content": [
                    {"type": "file", "file": {"file_id": "file-1", "filename": "a.pdf"}},
                    {"type": "input_file", "file_data": "data:application/pdf;base64,JVBERg=="},
                    {"type": "input_file", "file_url": "https://x/b.pdf", "detail": "high"},
                    {"type": "file", "file": {"file_id": 7}},
                ],
            }
        ]
    )
    assert m.content == (
        DocumentBlock(file_id="file-1", filename="a.pdf"),
        DocumentBlock(url="data:application/pdf;base64,JVBERg=="),
        DocumentBlock(url="https://x/b.pdf", extra={"detail": "high"}),
        RawBlock({"type": "file", "file": {"file_id": 7}}),
    )


def test_openai_parts_for_audio_and_responses() -> None:
    (m,) = history.coerce(
        [
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "hear"},
                    {"type": "input_audio", "input_audio": {"data": "AAAA", "format": "mp3"}},
                    {"type": "input_image", "image_url": "https://x/y.png", "detail": "auto"},
                    {"type": "input_image", "file_id": "file_1"},
                    {"type": "image_url", "image_url": "https://x/z.png"},
                    {"type": "document", "source": {"type": "text", "data": "d"}},
                ],
            }
        ]
    )
    assert m == UserMessage(
        (
            TextBlock("hear"),
            AudioBlock(data="AAAA", media_type="audio/mpeg"),
            ImageBlock(url="https://x/y.png", extra={"detail": "auto"}),
            ImageBlock(file_id="file_1"),
            ImageBlock(url="https://x/z.png"),
            DocumentBlock(text="d"),
        )
    )


def test_assistant_extras() -> None:
    (m,) = history.coerce(
        [
            {
                "role": "assistant",
                "content": "Answer.",
                "reasoning_content": "because",
                "function_call": {"name": "lookup", "arguments": "{}"},
            }
        ]
    )
    assert m == AssistantMessage(
        (
            ThinkingBlock("because"),
            TextBlock("Answer."),
            ToolUseBlock("lookup", "lookup", {}, arguments="{}"),
        )
    )


def test_legacy_function_messages_pair_by_name() -> None:
    got = history.coerce(
        [
            {"role": "assistant", "content": None, "function_call": {"name": "f"}},
            {"role": "function", "name": "f", "content": "42"},
        ]
    )
    assert got[1] == ToolMessage((ToolResultBlock("f", "42", name="f"),))
    assert history.repair(got)[1] == ()


def test_tool_dict_fields() -> None:
    (m,) = history.coerce(
        [{"role": "tool", "tool_call_id": "c", "content": "x", "is_error": True, "name": "f"}]
    )
    assert m == ToolMessage((ToolResultBlock("c", "x", is_error=True, name="f"),))
    (m,) = history.coerce([{"role": "tool", "tool_call_id": "c", "status": "success"}])
    assert m == ToolMessage((ToolResultBlock("c", ""),), extra={"status": "success"})


def test_ids_and_models_that_are_not_strings_are_kept_in_extra() -> None:
    (m,) = history.coerce([{"role": "user", "content": "x", "id": 7, "model": None}])
    assert m == UserMessage("x", extra={"id": 7, "model": None})


# -- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("items", "message"),
    [
        (
            [5],
            "$[0]: expected a message, a string, a (role, content) pair or a message dict,"
            " found an integer",
        ),
        (
            [TextBlock("x")],
            "$[0]: expected a message, a string, a (role, content) pair or a"
            " message dict, found TextBlock",
        ),
        (
            ["ok", ("user", "a", "b")],
            "$[1]: expected a (role, content) pair, found a tuple of 3 items",
        ),
        ([(1, "x")], "$[0][0]: expected a role string, found an integer"),
        (
            [("bot", "x")],
            "$[0][0]: unknown role 'bot'; expected one of ai, assistant, developer,"
            " function, human, model, system, tool, user",
        ),
        (
            [("user", 5)],
            "$[0][1]: expected a string, null or an array of content parts, found an integer",
        ),
        (
            [("user", ["a", 5])],
            "$[0][1][1]: expected a content part (a block, a string or an"
            " object), found an integer",
        ),
        (
            [{"content": "x"}],
            "$[0]: expected a message dict with a 'role' (or a native 'kind'),"
            " found keys: 'content'",
        ),
        (
            [{}],
            "$[0]: expected a message dict with a 'role' (or a native 'kind'), found keys: none",
        ),
        ([{"role": None}], "$[0].role: expected a role string, found null"),
        (
            [{"role": "bot"}],
            "$[0].role: unknown role 'bot'; expected one of ai, assistant,"
            " developer, function, human, model, system, tool, user",
        ),
        (
            [{"role": "user", "content": {"a": 1}}],
            "$[0].content: expected a string, null or an array of content parts, found an object",
        ),
        (
            [{"role": "user", "content": [{"type": "text", "text": 5}]}],
            "$[0].content[0].text: expected a string, found an integer",
        ),
        (
            [{"role": "user", "content": [{"type": "image_url", "image_url": {}}]}],
            "$[0].content[0].image_url.url: expected an image URL string, found null",
        ),
        (
            [{"role": "user", "content": [{"type": "image_url"}]}],
            "$[0].content[0].image_url: expected an image URL string, found null",
        ),
        (
            [{"role": "user", "content": [{"type": "input_audio", "input_audio": {"data": 1}}]}],
            "$[0].content[0].input_audio.data: expected base64 audio data, found an integer",
        ),
        (
            [{"role": "user", "content": [{"type": "input_text"}]}],
            "$[0].content[0].text: expected a string, found null",
        ),
        (
            [{"role": "tool", "content": "x"}],
            "$[0].tool_call_id: expected a tool_call_id string, found null",
        ),
        (
            [{"role": "tool", "tool_call_id": "c", "name": 3}],
            "$[0].name: expected a tool name string, found an integer",
        ),
        (
            [{"role": "function", "content": "x"}],
            "$[0].tool_call_id: expected a tool_call_id string, found null",
        ),
        (
            [{"role": "assistant", "tool_calls": {}}],
            "$[0].tool_calls: expected an array of tool calls, found an object",
        ),
        (
            [{"role": "assistant", "tool_calls": ["x"]}],
            "$[0].tool_calls[0]: expected a tool call object, found a string",
        ),
        (
            [{"role": "assistant", "tool_calls": [{"id": 1}]}],
            "$[0].tool_calls[0].id: expected a tool call id string, found an integer",
        ),
        (
            [{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": 2}}]}],
            "$[0].tool_calls[0].function.name: expected a tool name string, found an integer",
        ),
        (
            [{"role": "assistant", "tool_calls": [{"id": "c"}]}],
            "$[0].tool_calls[0]: expected an OpenAI tool call {'id', 'function': {'name',"
            " 'arguments'}} or a {'id', 'name', 'args'} one, found neither 'function' nor 'name'",
        ),
        (
            [{"role": "assistant", "tool_calls": [{"id": "c", "name": "f", "args": 3}]}],
            "$[0].tool_calls[0].args: expected arguments as a JSON string or an object,"
            " found an integer",
        ),
        (
            [{"role": "assistant", "tool_calls": [{"id": "c", "name": None}]}],
            "$[0].tool_calls[0].name: expected a tool name string, found null",
        ),
        (
            [{"role": "assistant", "function_call": "f"}],
            "$[0].function_call: expected a function call object, found a string",
        ),
        (
            [{"role": "assistant", "function_call": {}}],
            "$[0].function_call.name: expected a tool name string, found null",
        ),
        (
            [{"role": "user", "content": "x", "meta": {1, 2}}],
            "$[0].meta: expected a JSON value, found set",
        ),
        ([{"kind": "nope"}], "$[0].kind: unknown message kind 'nope'"),
        (
            [{"type": "robot", "data": {}}],
            "$[0].type: unknown role 'robot'; expected one of ai,"
            " assistant, developer, function, human, model, system, tool, user",
        ),
        (
            [{"type": "tool", "data": {"content": "x"}}],
            "$[0].data.tool_call_id: expected a tool_call_id string, found null",
        ),
    ],
)
def test_errors_name_the_index_and_the_fault(items: list[Any], message: str) -> None:
    with pytest.raises(DecodeError) as info:
        history.coerce(items)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("items", "message"),
    [
        (
            "hi",
            "$: expected a sequence of message-likes, found a string (wrap a single message"
            " in a list, or use coerce_message)",
        ),
        (
            {"role": "user"},
            "$: expected a sequence of message-likes, found an object (wrap a"
            " single message in a list, or use coerce_message)",
        ),
        (
            UserMessage("x"),
            "$: expected a sequence of message-likes, found UserMessage (wrap a"
            " single message in a list, or use coerce_message)",
        ),
        (5, "$: expected a sequence of message-likes, found an integer"),
    ],
)
def test_a_single_item_is_not_a_sequence(items: Any, message: str) -> None:
    with pytest.raises(DecodeError) as info:
        history.coerce(items)
    assert str(info.value) == message


def test_coerce_message_paths_start_at_the_root() -> None:
    assert history.coerce_message("hi") == UserMessage("hi")
    with pytest.raises(DecodeError) as info:
        history.coerce_message({"role": "x"})
    assert info.value.path == "$.role"


def test_coerce_accepts_any_iterable() -> None:
    assert history.coerce(iter(["a", "b"])) == (UserMessage("a"), UserMessage("b"))
    assert history.coerce(()) == ()


def test_input_is_not_changed() -> None:
    data = load("openai_chat.json")
    before = json.dumps(data)
    history.coerce(data)
    assert json.dumps(data) == before


# -- laws ---------------------------------------------------------------------------------


@given(ms.messages())
def test_messages_and_their_native_dicts_coerce_to_themselves(m: Any) -> None:
    assert history.coerce([m]) == (m,)
    assert history.coerce([to_dict(m)]) == (m,)
    assert from_dict(to_dict(m)) == m


def _role_dicts() -> st.SearchStrategy[Any]:
    text = st.text(max_size=10)
    part = st.one_of(
        text,
        st.builds(lambda t: {"type": "text", "text": t}, text),
        st.builds(lambda u: {"type": "image_url", "image_url": {"url": u}}, text),
    )
    content = st.none() | text | st.lists(part, max_size=3)
    call = st.builds(
        lambda i, a: {"id": i, "type": "function", "function": {"name": "f", "arguments": a}},
        text,
        st.sampled_from(['{"a": 1}', "{", "[]", ""]),
    )
    return st.one_of(
        st.builds(
            lambda r, c: {"role": r, "content": c},
            st.sampled_from(["user", "human", "system", "developer", "ai", "model"]),
            content,
        ),
        st.builds(
            lambda c, calls: {"role": "assistant", "content": c, "tool_calls": calls},
            content,
            st.lists(call, max_size=2),
        ),
        st.builds(lambda i, c: {"role": "tool", "tool_call_id": i, "content": c}, text, content),
    )


@given(st.lists(_role_dicts() | st.text(max_size=5) | ms.messages(), max_size=5))
def test_coerce_is_idempotent(items: list[Any]) -> None:
    once = history.coerce(items)
    assert history.coerce(once) == once
    assert history.coerce([thaw(to_dict(m)) for m in once]) == once


@given(st.lists(ms.json_values().map(thaw), max_size=3))
def test_any_json_gives_messages_or_a_decode_error(items: list[Any]) -> None:
    try:
        got = history.coerce(items)
    except DecodeError as exc:
        assert exc.path.startswith("$[")
    else:
        assert len(got) == len(items)


@given(
    st.lists(
        st.fixed_dictionaries(
            {"role": st.sampled_from(["user", "assistant", "tool", "developer"])},
            optional={
                "content": ms.json_values(max_leaves=4).map(thaw),
                "tool_call_id": ms.json_values(max_leaves=1).map(thaw),
                "tool_calls": ms.json_values(max_leaves=4).map(thaw),
                "name": ms.json_values(max_leaves=1).map(thaw),
            },
        ),
        max_size=3,
    )
)
def test_any_message_dict_gives_a_message_or_a_decode_error(items: list[Any]) -> None:
    try:
        got = history.coerce(items)
    except DecodeError as exc:
        assert exc.path.startswith("$[")
    else:
        assert len(got) == len(items)


def test_text_message_kept_as_flat() -> None:
    m = TextMessage("x", role="user")
    assert history.coerce([m, to_dict(m)]) == (m, m)


def test_openai_nulls_and_odd_values_are_kept_in_extra() -> None:
    (m,) = history.coerce(
        [
            {
                "role": "assistant",
                "content": "x",
                "tool_calls": None,
                "function_call": None,
                "reasoning_content": None,
                "stop_reason": 3,
            }
        ]
    )
    assert m == AssistantMessage(
        "x",
        extra={
            "tool_calls": None,
            "function_call": None,
            "reasoning_content": None,
            "stop_reason": 3,
        },
    )


def test_tool_call_details_are_kept() -> None:
    (m,) = history.coerce(
        [
            {
                "role": "assistant",
                "content": [{"type": "text", "text": "x"}],
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "custom",
                        "index": 0,
                        "function": {"name": "f", "arguments": '{"a": NaN}', "strict": True},
                    },
                    {"id": "c2", "name": "g", "args": {"b": [1]}},
                    {"id": "c3", "function": {"name": "h"}},
                ],
            }
        ]
    )
    assert m == AssistantMessage(
        (
            TextBlock("x"),
            ToolUseBlock(
                "c1",
                "f",
                {},
                arguments='{"a": NaN}',
                extra={"type": "custom", "index": 0, "function": {"strict": True}},
            ),
            ToolUseBlock("c2", "g", {"b": [1]}),
            ToolUseBlock("c3", "h"),
        )
    )
    assert m.tool_uses[0].input == {}  # NaN is not JSON: the arguments stay only as written


def test_a_non_boolean_is_error_is_kept_in_extra() -> None:
    (m,) = history.coerce([{"role": "tool", "tool_call_id": "c", "is_error": "yes"}])
    assert m == ToolMessage((ToolResultBlock("c", ""),), extra={"is_error": "yes"})

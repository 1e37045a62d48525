"""Bedrock Converse: the id mapping, Converse's turn rules, and the mapping of each kind.

The laws every provider obeys run in ``tests/contract/test_providers.py``; conversions to and
from the other providers in ``tests/test_provider_matrix.py``; botocore's service model
judges the bodies in ``tests/conformance``. Here: what only Bedrock does.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from messages import AssistantMessage
from messages import DocumentBlock
from messages import ImageBlock
from messages import SystemMessage
from messages import TextBlock
from messages import ThinkingBlock
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UnsupportedContentError
from messages import Usage
from messages import UserMessage
from messages import from_dict
from messages import strategies as ms
from messages import to_dict
from messages.providers import get
from messages.providers.bedrock import original_id
from messages.providers.bedrock import wire_id
from support.provider_checks import check_bedrock
from support.provider_checks import is_paired
from support.provider_checks import load

bedrock: Any = get("bedrock")
FITS = re.compile(r"[a-zA-Z0-9_-]{1,64}")

# ------------------------------------------------------------------------------- tool ids


@given(st.text(max_size=80))
def test_every_id_maps_to_one_converse_takes(original: str) -> None:
    assert FITS.fullmatch(wire_id(original))


@given(st.text(max_size=5) | st.text("abc.:/ ", max_size=20))
def test_a_mapped_id_reads_back_as_the_original(original: str) -> None:
    # Escaped, these always fit in 64 characters (``-xx`` per byte, 4 bytes a character).
    assert original_id(wire_id(original)) == original


@given(st.from_regex(FITS, fullmatch=True))
def test_a_wire_id_maps_back_to_itself(wire: str) -> None:
    # Whatever Bedrock itself sent survives decode and encode unchanged.
    assert wire_id(original_id(wire)) == wire


@given(st.text(max_size=20), st.text(max_size=20))
def test_different_ids_never_share_a_wire_id(a: str, b: str) -> None:
    assert (wire_id(a) == wire_id(b)) == (a == b)


def test_ids_that_fit_are_kept_and_others_escaped_or_hashed() -> None:
    assert wire_id("tooluse_kZJMlvQmRJ6eAyJE5GIl7Q") == "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q"
    assert wire_id("call.1") == "mx-call-2e1"
    long = "x." * 40
    assert wire_id(long).startswith("mh-") and len(wire_id(long)) == 43
    assert original_id(wire_id(long)) == wire_id(long)  # a digest cannot be undone
    assert wire_id(long) == wire_id(long)  # but it is the same every time


@given(st.lists(st.text(max_size=12), min_size=1, max_size=4, unique=True))
def test_results_follow_their_calls_whatever_the_ids(ids: list[str]) -> None:
    calls = tuple(ToolUseBlock(i, "run", {}) for i in ids)
    results = tuple(ToolResultBlock(i, f"out {k}") for k, i in enumerate(ids))
    conversation = [UserMessage("Go."), AssistantMessage(calls), ToolMessage(results)]
    body = bedrock.encode_request(conversation)
    check_bedrock(body, paired=True, known=True)
    back = bedrock.decode_request(body)
    read = [original_id(wire_id(i)) for i in ids]  # the originals, but for hashed ids
    assert [b.id for b in back[1].tool_uses] == read
    assert [b.tool_use_id for b in back[2].tool_results] == read


def test_tool_names_are_mapped_like_ids() -> None:
    body = bedrock.encode_request(
        [UserMessage("Go."), AssistantMessage((ToolUseBlock("c1", "Read a.txt", {}),))]
    )
    use = body["messages"][1]["content"][0]["toolUse"]
    assert use["name"] == "mx-Read-20a-2etxt"
    assert bedrock.decode_request(body)[1].tool_uses[0].name == "Read a.txt"


# ------------------------------------------------------------------------------- turns


@given(ms.conversations(rich=True, max_turns=4), st.sampled_from(["drop", "text"]))
def test_any_conversation_becomes_alternating_turns_with_results_after_calls(
    conversation: list[Any], policy: Any
) -> None:
    body = bedrock.encode_request(conversation, unsupported=policy)
    check_bedrock(body, paired=is_paired(conversation), known=True)
    roles = [m["role"] for m in body["messages"]]
    assert all(a != b for a, b in itertools.pairwise(roles))


@given(ms.conversations(broken=True, rich=True, max_turns=4))
def test_merging_keeps_every_block_in_order_on_its_side(conversation: list[Any]) -> None:
    # Merging turns of one role moves nothing but results (to just after their call).
    # (each opened by a user turn: Converse drops an opening assistant turn under "drop")
    start = UserMessage("\u2022")
    body = bedrock.encode_request([start, *conversation], unsupported="drop")
    check_bedrock(body)
    said = [(m["role"], b["text"]) for m in body["messages"] for b in m["content"] if "text" in b]
    alone = [
        (m["role"], b["text"])
        for turn in conversation
        for m in bedrock.encode_request([start, turn], unsupported="drop")["messages"]
        for b in m["content"]
        if "text" in b
    ]
    first = ("user", "\u2022")
    assert [x for x in said if x != first] == [x for x in alone if x != first]


def test_consecutive_turns_of_one_role_are_merged() -> None:
    body = bedrock.encode_request([UserMessage("a"), UserMessage("b"), AssistantMessage("c")])
    assert body["messages"] == [
        {"role": "user", "content": [{"text": "a"}, {"text": "b"}]},
        {"role": "assistant", "content": [{"text": "c"}]},
    ]


def test_parallel_results_from_separate_messages_share_one_user_turn() -> None:
    conversation = [
        UserMessage("Weather in two cities?"),
        AssistantMessage((ToolUseBlock("a", "w", {"c": "P"}), ToolUseBlock("b", "w", {"c": "L"}))),
        ToolMessage((ToolResultBlock("a", "18C"),)),
        UserMessage("(and hurry)"),
        ToolMessage((ToolResultBlock("b", "20C"),)),
    ]
    body = bedrock.encode_request(conversation)
    assert len(body["messages"]) == 3
    last = body["messages"][2]["content"]
    assert [next(iter(b)) for b in last] == ["toolResult", "toolResult", "text"]


def test_a_late_result_moves_to_just_after_its_call() -> None:
    conversation = [
        UserMessage("Go."),
        AssistantMessage((ToolUseBlock("a", "w", {}),)),
        UserMessage("Meanwhile..."),
        AssistantMessage("Waiting."),
        ToolMessage((ToolResultBlock("a", "done"),)),
    ]
    body = bedrock.encode_request(conversation)
    check_bedrock(body, paired=True)
    assert "toolResult" in body["messages"][2]["content"][0]


def test_blank_text_is_left_out_and_so_is_a_turn_it_empties() -> None:
    body = bedrock.encode_request([UserMessage("Hi"), AssistantMessage(" \n"), UserMessage("?")])
    assert body["messages"] == [{"role": "user", "content": [{"text": "Hi"}, {"text": "?"}]}]


# ------------------------------------------------------------------------------- the kinds


def test_the_fixture_decodes_to_the_kinds_it_holds() -> None:
    conversation = bedrock.decode_request(load("bedrock", "request_agent_loop.json"))
    system, _user, assistant, results = conversation[:4]
    assert isinstance(system, SystemMessage) and system.text == "You are a careful assistant."
    thinking, _, _paris, lyon = assistant.blocks
    assert isinstance(thinking, ThinkingBlock) and thinking.provider == "bedrock"
    assert lyon.id == "functions.get_weather:1"  # mapped on the way out, read back here
    first, second, _ = results.blocks
    assert first.text == '{"temp_c":18,"sky":"clear"}' and first.is_error is False
    assert second.tool_use_id == "functions.get_weather:1" and second.is_error is True
    image, document = conversation[5].blocks[1:3]
    assert isinstance(image, ImageBlock) and image.media_type == "image/png"
    assert isinstance(document, DocumentBlock) and document.url == "s3://weather/forecast.pdf"


def test_anthropic_thinking_is_not_sent_as_bedrocks() -> None:
    signed = ThinkingBlock("hm", signature="c2ln", provider="anthropic")
    conversation = [UserMessage("Hi"), AssistantMessage((signed, TextBlock("Hello")))]
    with pytest.raises(UnsupportedContentError, match="reasoning signed by 'anthropic'"):
        bedrock.encode_request(conversation)
    body = bedrock.encode_request(conversation, unsupported="drop")
    assert body["messages"][1]["content"] == [{"text": "Hello"}]
    unsigned = bedrock.encode_request([UserMessage("Hi"), AssistantMessage((ThinkingBlock("hm"),))])
    assert unsigned["messages"][1]["content"] == [
        {"reasoningContent": {"reasoningText": {"text": "hm"}}}
    ]


def test_media_converse_cannot_fetch_follows_the_policy() -> None:
    by_url = UserMessage((ImageBlock(url="https://example.com/a.png", media_type="image/png"),))
    with pytest.raises(UnsupportedContentError, match="bytes or S3 only, not a URL"):
        bedrock.encode_request([by_url])
    texted = bedrock.encode_request([by_url], unsupported="text")
    assert "https://example.com/a.png" in texted["messages"][0]["content"][0]["text"]
    data_url = ImageBlock(url="data:image/png;base64,iVBORw0KGgo=")
    body = bedrock.encode_request([UserMessage((data_url,))])
    assert body["messages"][0]["content"] == [
        {"image": {"format": "png", "source": {"bytes": "iVBORw0KGgo="}}}
    ]


def test_a_document_name_is_spelled_as_converse_takes_it() -> None:
    document = DocumentBlock(data="JVBERi0=", media_type="application/pdf", filename="q3.v2.pdf")
    body = bedrock.encode_request([UserMessage((document,))])
    assert body["messages"][0]["content"][0]["document"]["name"] == "q3-v2-pdf"


def test_a_json_result_goes_back_as_json_and_reads_as_text_elsewhere() -> None:
    conversation = bedrock.decode_request(load("bedrock", "request_agent_loop.json"))
    anthropic = get("anthropic").encode_request(conversation, unsupported="drop")
    result = anthropic["messages"][2]["content"][0]
    assert result["content"] == [{"type": "text", "text": '{"temp_c":18,"sky":"clear"}'}]


# ------------------------------------------------------------------------------ responses


def test_usage_counts_cache_reads_and_writes_apart_from_input() -> None:
    message = bedrock.decode_response(load("bedrock", "response_tool_use.json"))
    assert message.usage == Usage(412, 58, 1200, 0)
    assert message.usage.total_tokens == 1670
    assert message.extra["metrics"] == {"latencyMs": 1432}
    body = bedrock.encode_response(AssistantMessage("Hi", usage=Usage(3, 2, 5)))
    assert body["usage"] == {
        "inputTokens": 3,
        "outputTokens": 2,
        "totalTokens": 10,
        "cacheReadInputTokens": 5,
    }


@pytest.mark.parametrize(
    ("raw", "spelled"),
    [
        ("stop", "end_turn"),
        ("tool_calls", "tool_use"),
        ("SAFETY", "content_filtered"),
        ("length", "max_tokens"),
        ("guardrail_intervened", "guardrail_intervened"),
    ],
)
def test_stop_reasons_of_other_providers_are_spelled_as_converse_does(
    raw: str, spelled: str
) -> None:
    assert bedrock.encode_response(AssistantMessage("x", stop_reason=raw))["stopReason"] == spelled


def test_a_stream_shows_tool_input_as_far_as_it_came() -> None:
    accumulator = bedrock.accumulator()
    events = load("bedrock", "stream_tool_use.jsonl")
    for event in events[:10]:
        accumulator.feed(event)
    (call,) = accumulator.snapshot().tool_uses
    assert call.input == {"zone": "Eur"}
    for event in events[10:]:
        accumulator.feed(event)
    assert accumulator.message().tool_uses[0].input == {"zone": "Europe/Paris"}


def test_an_exception_event_ends_the_stream_with_what_came() -> None:
    accumulator = bedrock.accumulator()
    for event in load("bedrock", "stream_error.jsonl"):
        accumulator.feed(event)
    message = accumulator.message()
    assert (message.text, message.error) == ("Partial ans", "throttlingException")


def test_anthropic_cache_markers_become_cache_points() -> None:
    claude = get("anthropic").decode_request(
        {
            "system": [
                {
                    "type": "text",
                    "text": "Rules.",
                    "cache_control": {"type": "ephemeral", "ttl": "1h"},
                }
            ],
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "Doc", "cache_control": {"type": "ephemeral"}},
                        {"type": "text", "text": "Q?"},
                    ],
                }
            ],
        }
    )
    body = bedrock.encode_request(claude)
    check_bedrock(body, known=True)
    assert body["system"] == [{"text": "Rules."}, {"cachePoint": {"type": "default", "ttl": "1h"}}]
    assert body["messages"][0]["content"] == [
        {"text": "Doc"},
        {"cachePoint": {"type": "default"}},
        {"text": "Q?"},
    ]


# ----------------------------------------------------------------------- citations (issue 27)

_LOCATION_KEYS = {
    "web": {"url": st.text(max_size=8), "domain": st.text(max_size=8)},
    "documentChar": {"documentIndex": st.integers(0, 5), "start": st.integers(0, 99)},
    "documentPage": {"documentIndex": st.integers(0, 5), "end": st.integers(1, 99)},
    "documentChunk": {"start": st.integers(0, 9), "end": st.integers(0, 9)},
    "searchResultLocation": {"searchResultIndex": st.integers(0, 5), "start": st.integers(0, 9)},
}
_ODD = st.none() | st.booleans() | st.text(max_size=3) | st.integers(-2, 2)


@st.composite
def converse_citations(draw: st.DrawFn) -> dict[str, Any]:
    """A Converse citation object: any location member, some fields, odd values too."""
    tag = draw(st.sampled_from(sorted(_LOCATION_KEYS)))
    where = draw(st.fixed_dictionaries({}, optional=_LOCATION_KEYS[tag]))
    where |= draw(st.dictionaries(st.sampled_from(["start", "end", "zNew"]), _ODD, max_size=2))
    out: dict[str, Any] = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "title": st.text(max_size=6) | _ODD,
                "source": st.text(max_size=6),
                "sourceContent": st.lists(
                    st.fixed_dictionaries({"text": st.text(max_size=6)}), max_size=2
                ),
            },
        )
    )
    return {**out, "location": {tag: where}}


@given(
    text=st.text(max_size=10),
    cited=st.lists(converse_citations(), max_size=3),
    plain=st.text(min_size=1, max_size=5).filter(str.strip),
)
def test_citations_content_reads_as_cited_text_and_goes_back_exactly(
    text: str, cited: list[dict[str, Any]], plain: str
) -> None:
    block = {"citationsContent": {"content": [{"text": text}], "citations": cited}}
    body = {"messages": [{"role": "user", "content": [{"text": "Q"}]},
                         {"role": "assistant", "content": [block, {"text": plain}]}]}  # fmt: skip
    turn = bedrock.decode_request(body)[1]
    got, uncited = turn.blocks
    assert isinstance(got, TextBlock) and got.text == text
    assert got.citations is not None and len(got.citations) == len(cited)
    assert [c.type for c in got.citations] == [next(iter(c["location"])) for c in cited]
    assert uncited == TextBlock(plain)  # a plain text block has no citations at all
    assert bedrock.encode_request(bedrock.decode_request(body)) == body
    response = {"output": {"message": body["messages"][1]}, "stopReason": "end_turn"}
    assert bedrock.encode_response(bedrock.decode_response(response)) == response


def test_a_converse_citation_fills_the_typed_fields() -> None:
    from messages import Citation

    web = {
        "title": "Docs",
        "source": "example.com",
        "sourceContent": [{"text": "ship on Friday"}],
        "location": {"web": {"url": "https://example.com/a", "domain": "example.com"}},
    }
    chunk = {"location": {"documentChunk": {"documentIndex": 1, "start": 2, "end": 4}}}
    block = {"citationsContent": {"content": [{"text": "Friday."}], "citations": [web, chunk]}}
    (turn,) = bedrock.decode_request({"messages": [{"role": "assistant", "content": [block]}]})
    assert turn.blocks[0].citations == (
        Citation(
            "web",
            cited_text="ship on Friday",
            url="https://example.com/a",
            title="Docs",
            extra={"source": "example.com", "location": {"web": {"domain": "example.com"}}},
        ),
        Citation("documentChunk", start=2, end=4, source_index=1),
    )


@pytest.mark.parametrize(
    "value",
    [
        {"content": [{"text": "a"}, {"text": "b"}], "citations": []},  # two texts
        {"content": [{"text": "a"}], "citations": [{"title": "no location"}]},
        {"content": [{"text": "a"}], "citations": [{"location": {"future": {"x": 1}}}]},
        {"content": [{"text": "a"}], "citations": [{"location": {"web": {}, "documentChar": {}}}]},
        {"content": [{"text": "a"}]},
        {"content": [{"text": "a"}], "citations": [], "zNew": 1},
    ],
)
def test_a_citations_block_it_cannot_give_back_exactly_stays_raw(value: dict[str, Any]) -> None:
    from messages import RawBlock

    ask = {"role": "user", "content": [{"text": "When?"}]}
    body = {"messages": [ask, {"role": "assistant", "content": [{"citationsContent": value}]}]}
    _, turn = bedrock.decode_request(body)
    assert turn.blocks == (RawBlock({"citationsContent": value}),)
    assert bedrock.encode_request(bedrock.decode_request(body)) == body


def test_citations_cross_providers_only_under_the_policy() -> None:
    from messages import Citation

    ours = TextBlock("Friday.", citations=(Citation("documentPage", start=1, end=2),))
    anthropic = TextBlock("Friday.", citations=(Citation("page_location", start=1, end=2),))
    conversation = [UserMessage("When?"), AssistantMessage((ours,))]
    for target in ("anthropic", "openai_responses", "openai_chat", "gemini"):
        with pytest.raises(UnsupportedContentError, match="citation"):
            get(target).encode_request(conversation)
        assert "documentPage" not in str(
            get(target).encode_request(conversation, unsupported="drop")
        )
    with pytest.raises(UnsupportedContentError, match="citations"):
        bedrock.encode_request([UserMessage("When?"), AssistantMessage((anthropic,))])
    dropped = bedrock.encode_request([UserMessage("When?"), AssistantMessage((anthropic,))],
                                     unsupported="drop")  # fmt: skip
    assert dropped["messages"][1]["content"] == [{"text": "Friday."}]


def test_the_stream_gathers_citation_deltas_with_their_text() -> None:
    cite = {
        "title": "notes",
        "location": {"documentChar": {"documentIndex": 0, "start": 9, "end": 23}},
    }
    accumulator = bedrock.accumulator()
    for event in [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "On "}}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"citation": cite}}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "Friday."}}},
        {"contentBlockStop": {"contentBlockIndex": 0}},
        {"messageStop": {"stopReason": "end_turn"}},
    ]:
        accumulator.feed(event)
    (block,) = accumulator.message().blocks
    assert isinstance(block, TextBlock) and block.text == "On Friday."
    assert block.citations is not None and block.citations[0].title == "notes"
    assert bedrock.encode_response(accumulator.message())["output"]["message"]["content"] == [
        {"citationsContent": {"content": [{"text": "On Friday."}], "citations": [cite]}}
    ]


def test_citations_stand_only_in_messages() -> None:
    # Converse's system prompt and tool results have no citationsContent member.
    from messages import Citation

    cited = TextBlock("Friday.", citations=(Citation("web", url="https://a.example"),))
    result = ToolResultBlock("t1", (cited,))
    for conversation in (
        [SystemMessage((cited,)), UserMessage("When?")],
        [UserMessage("When?"), AssistantMessage((ToolUseBlock("t1", "f", {}),)),
         UserMessage((result,))],
    ):  # fmt: skip
        with pytest.raises(UnsupportedContentError, match="only in a message"):
            bedrock.encode_request(conversation)
        body = bedrock.encode_request(conversation, unsupported="drop")
        assert "citationsContent" not in str(body) and "Friday." in str(body)
        check_bedrock(body)


def test_a_content_member_newer_than_this_library_goes_back_to_converse() -> None:
    body = {
        "system": [{"text": "Be brief."}, {"futureSystemMember": {"x": 1}}],
        "messages": [
            {"role": "user", "content": [{"text": "Hi"}, {"futureMember": {"id": "f1"}}]},
            {"role": "assistant", "content": [{"futureMember": {"id": "f2"}}, {"text": "Yes"}]},
        ],
    }
    conversation = bedrock.decode_request(body)
    (raw,) = [b for b in conversation[1].blocks if not isinstance(b, TextBlock)]
    assert raw.provider == "bedrock"  # type: ignore[union-attr]
    assert from_dict(to_dict(raw)) == raw  # the mark survives the native format
    assert to_dict(raw)["provider"] == "bedrock"
    assert bedrock.encode_request(conversation) == body
    # by its data alone it would read as a Gemini part of a new kind: Gemini refuses it
    with pytest.raises(UnsupportedContentError, match="not a Gemini part"):
        get("gemini").encode_request(conversation[1:])
    dropped = get("gemini").encode_request(conversation, unsupported="drop")
    assert "futureMember" not in str(dropped)


def test_an_unknown_gemini_part_is_still_not_taken_for_a_converse_member() -> None:
    (turn,) = get("gemini").decode_request(
        {"contents": [{"role": "user", "parts": [{"text": "a"}, {"newPart": {"x": 1}}]}]}
    )
    with pytest.raises(UnsupportedContentError, match="not a Converse content block"):
        bedrock.encode_request([turn])


@pytest.mark.parametrize("system", [[], [SystemMessage("Be brief.")]])
def test_a_conversation_must_start_with_a_user_message(system: list[Any]) -> None:
    conversation = [
        *system,
        AssistantMessage((TextBlock("Hello!"), ToolUseBlock("t1", "now", {}))),
        ToolMessage((ToolResultBlock("t1", "12:00"),)),
        UserMessage("Hi"),
    ]
    where = f"$[{len(system)}].content[0]"
    with pytest.raises(UnsupportedContentError, match="starts with a user message") as raised:
        bedrock.encode_request(conversation)
    assert raised.value.path == where
    dropped = bedrock.encode_request(conversation, unsupported="drop")
    assert dropped["messages"] == [{"role": "user", "content": [{"text": "Hi"}]}]
    told = bedrock.encode_request(conversation, unsupported="text")
    # the text that would have opened it is told; then the call goes as it was
    assert told["messages"][0] == {"role": "user", "content": [{"text": "[assistant: Hello!]"}]}
    assert [m["role"] for m in told["messages"]] == ["user", "assistant", "user"]
    assert "toolUse" in told["messages"][1]["content"][0]
    check_bedrock(told)
    check_bedrock(dropped)


def test_a_call_that_would_open_the_conversation_is_told_with_its_result() -> None:
    conversation = [
        AssistantMessage((ToolUseBlock("t1", "now", {}),)),
        ToolMessage((ToolResultBlock("t1", "12:00"),)),
        UserMessage("Thanks"),
    ]
    with pytest.raises(UnsupportedContentError, match="starts with a user message") as raised:
        bedrock.encode_request(conversation)
    assert raised.value.path == "$[0].content[0]"
    told = bedrock.encode_request(conversation, unsupported="text")["messages"]
    assert len(told) == 1 and told[0]["role"] == "user"
    said = [b["text"] for b in told[0]["content"]]
    assert "now" in said[0] and "t1" in said[0]  # the call, described
    assert "12:00" in said[1] and said[2] == "Thanks"  # its result follows it into text


@given(ms.conversations(rich=True, max_turns=3), st.sampled_from(["drop", "text"]))
def test_every_body_starts_with_a_user_message(conversation: list[Any], policy: Any) -> None:
    messages = bedrock.encode_request(conversation, unsupported=policy)["messages"]
    assert not messages or messages[0]["role"] == "user"

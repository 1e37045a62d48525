"""One rule for JSON text: every reader rejects what JSON cannot hold, every writer too."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from messages import DecodeError
from messages import EncodeError
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import from_dict
from messages import to_dict
from messages._core.jsontext import dump_compact
from messages._core.jsontext import load_strict
from messages._core.jsontext import parse_arguments
from messages._core.jsontext import same_json
from messages._core.make import wrap_owned
from messages.adapters import claude_code
from messages.history import coerce_message
from messages.serialize import dumps
from messages.serialize import loads

NOT_JSON = ['{"a": NaN}', '{"a": Infinity}', '{"a": -Infinity}', '{"a": 1e999}', '{"a": -1e400}']


@pytest.mark.parametrize("text", NOT_JSON)
def test_every_reader_rejects_non_finite_numbers(text: str) -> None:
    with pytest.raises(DecodeError) as info:
        load_strict(text)
    assert info.value.reason.startswith("invalid JSON (")
    assert parse_arguments(text) is None
    # the agent-log line reader and the native reader say the same
    line = f'{{"type":"user","message":{{"role":"user","content":"hi"}},"x":{text}}}'
    with pytest.raises(DecodeError, match="invalid JSON"):
        list(claude_code.iter_decode([line], strict=True))
    with pytest.raises(DecodeError, match="invalid JSON"):
        loads(f'{{"v":1,"kind":"raw","data":{text}}}')


@pytest.mark.parametrize("text", NOT_JSON)
def test_tool_arguments_that_are_not_strict_json_are_invalid(text: str) -> None:
    assert ToolUseBlock("c", "f", arguments=text).invalid_arguments
    assert ToolUseMessage("c", "f", arguments=text).invalid_arguments
    call = coerce_message(
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "c", "type": "function", "function": {"name": "f", "arguments": text}}
            ],
        }
    )
    (block,) = call.content  # type: ignore[union-attr]
    assert isinstance(block, ToolUseBlock)
    assert block.input == {} and block.arguments == text and block.invalid_arguments


def test_valid_arguments_are_not_invalid() -> None:
    assert not ToolUseBlock("c", "f", arguments='{"a": 1.5}').invalid_arguments
    assert ToolUseBlock("c", "f", arguments="[1]").invalid_arguments
    assert not ToolUseBlock("c", "f").invalid_arguments


def test_errors_name_a_character_not_a_parser_line() -> None:
    with pytest.raises(DecodeError) as info:
        load_strict('{"a": }')
    assert str(info.value) == "$: invalid JSON (expecting value at character 6)"
    assert info.value.value == '{"a": }'
    assert "line 1" not in str(info.value)


def test_writers_raise_encode_error_not_value_error() -> None:
    # Only unchecked construction can put infinity into a value; the writer still refuses it
    # with the library's own error, naming the value.
    block = ToolUseBlock("c", "f", wrap_owned({"a": float("inf")}))
    with pytest.raises(EncodeError) as info:
        dumps(block)
    assert info.value.value == float("inf")
    assert "cannot write inf as JSON" in str(info.value)
    with pytest.raises(EncodeError):
        dump_compact([1, {"b": float("nan")}])
    with pytest.raises(EncodeError, match="not JSON"):
        dump_compact({"a": {1, 2}})


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_strict_loading_agrees_with_json_on_json(value: Any) -> None:
    text = json.dumps(value)
    assert load_strict(text) == json.loads(text)
    assert load_strict(dump_compact(value)) == value
    if isinstance(value, dict):
        assert parse_arguments(text) == value


@given(json_values)
def test_native_round_trip_through_text(value: Any) -> None:
    block = ToolUseBlock("c", "f", {"v": value})
    assert loads(dumps(block)) == block
    assert from_dict(to_dict(block)) == block


@pytest.mark.parametrize("arguments", ['{"a":1e999}', '{"a":NaN}', '{"a":Infinity}'])
def test_every_provider_reads_non_json_arguments_the_same_way(arguments: str) -> None:
    # The issue: Responses gave input={'a': inf} where Chat gave {}, and serializing the
    # Responses message then raised a bare ValueError.
    from messages.providers import openai_chat
    from messages.providers import openai_responses

    responses = openai_responses.decode_response(
        {
            "id": "resp_1",
            "object": "response",
            "status": "completed",
            "model": "gpt-5",
            "output": [
                {
                    "type": "function_call",
                    "id": "fc_1",
                    "call_id": "call_1",
                    "name": "f",
                    "arguments": arguments,
                    "status": "completed",
                }
            ],
        }
    )
    chat = openai_chat.decode_response(
        {
            "id": "c1",
            "object": "chat.completion",
            "model": "gpt-5",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": "call_1",
                                "type": "function",
                                "function": {"name": "f", "arguments": arguments},
                            }
                        ],
                    },
                }
            ],
        }
    )
    for message in (responses, chat):
        (call,) = message.tool_uses
        assert call.input == {} and call.arguments == arguments and call.invalid_arguments
        assert from_dict(to_dict(message)) == message
        assert loads(dumps(message)) == message


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([0.5, 1.0, 2.0, -1.5]),
    st.sampled_from(["", "a", "1"]),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("ab"), inner),
    max_leaves=8,
)


@given(_VALUES, _VALUES)
def test_same_json_is_equality_of_the_json_text(a: Any, b: Any) -> None:
    """Two values are the same exactly when they write the same JSON (keys in any order):
    ``1``, ``1.0`` and ``true`` are three values, as on the wire."""
    text = json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert same_json(a, b) is text
    assert same_json(a, json.loads(json.dumps(a)))

"""Claude Code decoding: each fast path against the general path it stands in for.

``adapters/claude_code/decoder.py`` reads the exact shapes Claude Code writes on almost every line
with one key-set comparison (the fast paths) and anything else field by field (the general paths:
``_assistant_any``, ``_user_any``, ``_stream_event_any``, ``_usage_any``). The promise is that both
give the same message, or the same error, for every line. The real captures only hold the common
shapes, so the lines here are built to sit on each side of every fast-path test: a non-null stop
reason, a sub-agent's ``parent_tool_use_id``, explicit nulls for the context fields, the model, the
id and each token count, keys added or missing.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import json_equal
from messages import AssistantMessage
from messages import DecodeError
from messages import RawMessage
from messages import StreamEventMessage
from messages import TextBlock
from messages import ToolResultBlock
from messages import Usage
from messages import UserMessage
from messages.adapters import claude_code as cc
from messages.adapters.claude_code import decoder as cd

SID = "5f0c1d2e-0000-4000-8000-000000000001"
UUID = "a1000000-0000-4000-8000-000000000006"


def usage_object() -> dict[str, Any]:
    """A usage object of the exact shape the fast path reads."""
    return {
        "input_tokens": 12,
        "cache_creation_input_tokens": 2048,
        "cache_read_input_tokens": 1024,
        "cache_creation": {"ephemeral_5m_input_tokens": 2048, "ephemeral_1h_input_tokens": 0},
        "output_tokens": 9,
        "service_tier": "standard",
        "inference_geo": "not_available",
    }


def assistant_line() -> dict[str, Any]:
    """An assistant line of the exact shape the fast path reads (stream-json)."""
    return {
        "type": "assistant",
        "message": {
            "model": "claude-sonnet-4-5-20250929",
            "id": "msg_01A",
            "type": "message",
            "role": "assistant",
            "content": [{"type": "text", "text": "Listing."}],
            "stop_reason": None,
            "stop_sequence": None,
            "stop_details": None,
            "usage": usage_object(),
            "diagnostics": None,
            "context_management": None,
        },
        "parent_tool_use_id": None,
        "session_id": SID,
        "uuid": UUID,
        "request_id": "req_01",
    }


def user_line() -> dict[str, Any]:
    """A user line of the exact shape the fast path reads."""
    return {
        "type": "user",
        "message": {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.txt"}],
        },
        "parent_tool_use_id": None,
        "session_id": SID,
        "uuid": UUID,
    }


def stream_line() -> dict[str, Any]:
    """A stream_event line of the exact shape the fast path reads."""
    return {
        "type": "stream_event",
        "event": {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta"}},
        "session_id": SID,
        "parent_tool_use_id": None,
        "uuid": UUID,
    }


def _outcome(decode: Callable[[Any], Any], obj: dict[str, Any]) -> Any:
    """The message decoded from a deep copy (decoders take over their input), or the error."""
    try:
        return decode(copy.deepcopy(obj))
    except DecodeError as exc:
        return ("error", exc.path, exc.reason, exc.value)


def agree(obj: dict[str, Any], general: Callable[[Any], Any]) -> Any:
    """Decode ``obj`` by the public decoder and by the general path: the same outcome.

    A decoded line also encodes back to exactly the line.
    """
    fast = _outcome(cc.decode, obj)
    slow = _outcome(general, obj)
    assert fast == slow
    if not isinstance(fast, tuple):
        assert json_equal(cc.encode(fast), obj)
    return fast


def _transcript(line: dict[str, Any]) -> None:
    """A session transcript's spelling of the session id."""
    line["sessionId"] = line.pop("session_id")


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(line: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target = line
        for key in parents:
            target = target[key]
        target[last] = value

    return change


def _drop(path: str) -> Callable[[dict[str, Any]], None]:
    def change(line: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target = line
        for key in parents:
            target = target[key]
        del target[last]

    return change


ASSISTANT_CHANGES: dict[str, Callable[[dict[str, Any]], None]] = {
    "as written": lambda line: None,
    "stop reason": _set("message.stop_reason", "end_turn"),
    "stop sequence": _set("message.stop_sequence", "\n\nHuman:"),
    "sub-agent": _set("parent_tool_use_id", "toolu_parent"),
    "null uuid": _set("uuid", None),
    "null session": _set("session_id", None),
    "null model": _set("message.model", None),
    "null id": _set("message.id", None),
    "null usage": _set("message.usage", None),
    "null input tokens": _set("message.usage.input_tokens", None),
    "null output tokens": _set("message.usage.output_tokens", None),
    "null cache reads": _set("message.usage.cache_read_input_tokens", None),
    "null cache writes": _set("message.usage.cache_creation_input_tokens", None),
    "usage without geo": _drop("message.usage.inference_geo"),
    "usage with more": _set("message.usage.server_tool_use", {"web_search_requests": 1}),
    "no request id": _drop("request_id"),
    "timestamp": _set("timestamp", "2026-01-15T10:00:00.000Z"),
    "error": _set("error", "rate_limit"),
    "inner key more": _set("message.container", None),
    "inner key missing": _drop("message.diagnostics"),
    "no usage": _drop("message.usage"),
    "string content": _set("message.content", "plain text"),
    "transcript session": _transcript,
    "empty content": _set("message.content", []),
    # errors: both paths name the same field
    "bad stop reason": _set("message.stop_reason", 5),
    "bad model": _set("message.model", 5),
    "bad id": _set("message.id", ["x"]),
    "bad uuid": _set("uuid", 5),
    "bad session": _set("session_id", 5),
    "bad parent": _set("parent_tool_use_id", 5),
    "bad usage": _set("message.usage", []),
    "bad token count": _set("message.usage.output_tokens", "9"),
    "bad float count": _set("message.usage.input_tokens", 1.0),
    "bad block": _set("message.content", [{"type": "text", "text": 5}]),
    "bad content": _set("message.content", 5),
    "bad error": _set("error", 5),
    "bad message": _set("message", "x"),
}


@pytest.mark.parametrize("change", list(ASSISTANT_CHANGES))
def test_assistant_fast_path_agrees_with_the_general_path(change: str) -> None:
    line = assistant_line()
    ASSISTANT_CHANGES[change](line)
    out = agree(line, cd._assistant_any)
    if change.startswith("bad"):
        assert isinstance(out, tuple), out
    else:
        assert isinstance(out, AssistantMessage)


def test_assistant_fields_on_the_fast_path() -> None:
    line = assistant_line()
    line["message"]["stop_reason"] = "tool_use"
    m = cc.decode(copy.deepcopy(line))
    assert m == AssistantMessage(
        (TextBlock("Listing."),),
        usage=Usage(12, 9, cache_read_tokens=1024, cache_write_tokens=2048, extra=m.usage.extra),  # type: ignore[union-attr]
        stop_reason="tool_use",
        uuid=UUID,
        session_id=SID,
        model="claude-sonnet-4-5-20250929",
        message_id="msg_01A",
        extra=m.extra,
    )
    assert m.extra == {
        "type": "assistant",
        "parent_tool_use_id": None,
        "request_id": "req_01",
        "message": {
            "type": "message",
            "role": "assistant",
            "stop_sequence": None,
            "stop_details": None,
            "diagnostics": None,
            "context_management": None,
        },
    }
    assert m.usage is not None
    assert m.usage.extra == {
        "cache_creation": {"ephemeral_5m_input_tokens": 2048, "ephemeral_1h_input_tokens": 0},
        "service_tier": "standard",
        "inference_geo": "not_available",
    }
    line["message"]["stop_reason"] = None
    assert cc.decode(copy.deepcopy(line)).extra["message"]["stop_reason"] is None  # type: ignore[index]


def test_assistant_errors_on_the_fast_path_name_the_field() -> None:
    line = assistant_line()
    line["message"]["content"] = [{"type": "text", "text": 5}]
    with pytest.raises(DecodeError) as info:
        cc.decode(line)
    assert (info.value.path, info.value.value, info.value.source) == (
        "$.message.content[0].text",
        5,
        "claude_code",
    )
    line = assistant_line()
    line["message"]["usage"]["output_tokens"] = "9"
    with pytest.raises(DecodeError) as info:
        cc.decode(line)
    assert (info.value.path, info.value.value) == ("$.message.usage.output_tokens", "9")
    assert str(info.value) == (
        "claude_code: $.message.usage.output_tokens: expected an integer, found a string"
    )


USER_CHANGES: dict[str, Callable[[dict[str, Any]], None]] = {
    "as written": lambda line: None,
    "string content": _set("message.content", "What files are here?"),
    "sub-agent": _set("parent_tool_use_id", "toolu_parent"),
    "null uuid": _set("uuid", None),
    "null session": _set("session_id", None),
    "no parent": _drop("parent_tool_use_id"),
    "timestamp": _set("timestamp", "2026-01-15T10:00:00.000Z"),
    "numeric timestamp": _set("timestamp", 1736935200),
    "transcript session": _transcript,
    "inner key more": _set("message.id", "msg_1"),
    "no role": _drop("message.role"),
    "bad content": _set("message.content", 5),
    "null content": _set("message.content", None),
    "bad block": _set("message.content", [{"type": "text", "text": 5}]),
    "bad uuid": _set("uuid", 5),
    "bad timestamp": _set("timestamp", []),
    "bad parent": _set("parent_tool_use_id", 5),
}


@pytest.mark.parametrize("change", list(USER_CHANGES))
def test_user_fast_path_agrees_with_the_general_path(change: str) -> None:
    line = user_line()
    USER_CHANGES[change](line)
    out = agree(line, cd._user_any)
    if change.startswith(("bad", "null content")):
        assert isinstance(out, tuple), out
    else:
        assert isinstance(out, UserMessage)


STREAM_CHANGES: dict[str, Callable[[dict[str, Any]], None]] = {
    "as written": lambda line: None,
    "sub-agent": _set("parent_tool_use_id", "toolu_parent"),
    "null uuid": _set("uuid", None),
    "null session": _set("session_id", None),
    "null uuid in a sub-agent": lambda line: line.update(uuid=None, parent_tool_use_id="t"),
    "no parent": _drop("parent_tool_use_id"),
    "no uuid": _drop("uuid"),
    "timestamp": _set("timestamp", "2026-01-15T10:00:00.000Z"),
    "key more": _set("request_id", "req_1"),
    "bad parent": _set("parent_tool_use_id", 5),
    "bad event": _set("event", []),
    "null event": _set("event", None),
    "bad uuid": _set("uuid", 5),
    "bad session": _set("session_id", 5),
}


@pytest.mark.parametrize("change", list(STREAM_CHANGES))
def test_stream_event_fast_paths_agree_with_the_general_path(change: str) -> None:
    line = stream_line()
    STREAM_CHANGES[change](line)
    out = agree(line, cd._stream_event_any)
    assert _outcome(cd._stream_event, line) == out  # the second fast path, behind decode's
    if change.startswith(("bad", "null event")):
        assert isinstance(out, tuple), out
    else:
        assert isinstance(out, StreamEventMessage)


def test_a_stream_event_without_an_event_stays_raw() -> None:
    line = stream_line()
    del line["event"]
    assert isinstance(agree(line, cd._stream_event_any), RawMessage)


def test_sub_agent_stream_events_keep_their_parent() -> None:
    line = stream_line()
    line["parent_tool_use_id"] = "toolu_parent"
    m = cc.decode(copy.deepcopy(line))
    assert m == StreamEventMessage(
        line["event"],
        uuid=UUID,
        session_id=SID,
        parent_tool_use_id="toolu_parent",
        extra={"type": "stream_event"},
    )
    top = cc.decode(stream_line())
    assert top.parent_tool_use_id is None
    assert top.extra == {"type": "stream_event", "parent_tool_use_id": None}


USAGE_CHANGES: dict[str, Callable[[dict[str, Any]], None]] = {
    "as written": lambda usage: None,
    "null input": lambda usage: usage.update(input_tokens=None),
    "null output": lambda usage: usage.update(output_tokens=None),
    "null reads": lambda usage: usage.update(cache_read_input_tokens=None),
    "null writes": lambda usage: usage.update(cache_creation_input_tokens=None),
    "only input": lambda usage: [usage.pop(k) for k in list(usage) if k != "input_tokens"],
    "empty": lambda usage: usage.clear(),
    "bad input": lambda usage: usage.update(input_tokens="1"),
    "bad output": lambda usage: usage.update(output_tokens=True),
    "bad reads": lambda usage: usage.update(cache_read_input_tokens=1.5),
    "bad writes": lambda usage: usage.update(cache_creation_input_tokens=[]),
}


@pytest.mark.parametrize("change", list(USAGE_CHANGES))
def test_usage_fast_path_agrees_with_the_general_path(change: str) -> None:
    usage = usage_object()
    USAGE_CHANGES[change](usage)
    fast = _outcome(cd._usage, usage)
    assert fast == _outcome(cd._usage_any, usage)
    if change.startswith("bad"):
        assert isinstance(fast, tuple)
        bad = next(k for k in cd._USAGE if k in usage and type(usage[k]) is not int)
        assert fast[1] == f"$.{bad}"
    else:
        assert isinstance(fast, Usage)


def _general_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every general path fail, so that only a fast path can decode a line."""

    def refuse(obj: Any) -> Any:
        raise AssertionError("the general path was taken")

    for name in ("_assistant_any", "_user_any", "_stream_event_any", "_usage_any"):
        monkeypatch.setattr(cd, name, refuse)


@pytest.mark.parametrize(
    "line",
    [
        assistant_line(),
        {**assistant_line(), "message": {**assistant_line()["message"], "stop_reason": "x"}},
        user_line(),
        {**user_line(), "message": {"role": "user", "content": "hi"}},
        {**user_line(), "parent_tool_use_id": "toolu_parent", "timestamp": 5},
        stream_line(),
        {**stream_line(), "parent_tool_use_id": "toolu_parent"},
    ],
    ids=["assistant", "stop", "user", "user text", "user context", "stream", "sub-agent stream"],
)
def test_the_shapes_claude_code_writes_take_a_fast_path(
    line: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = cc.decode(copy.deepcopy(line))
    _general_only(monkeypatch)
    assert cc.decode(copy.deepcopy(line)) == expected


# ----------------------------------------------------------------------- the same, fuzzed

_NULLABLE = st.sampled_from([None, None, "x", 5])


@st.composite
def assistant_lines(draw: st.DrawFn) -> dict[str, Any]:
    """Assistant lines near the fast path's shape: a few keys changed, dropped or added."""
    line = assistant_line()
    inner = line["message"]
    usage = inner["usage"]
    for target, keys in (
        (line, ("parent_tool_use_id", "session_id", "uuid", "request_id")),
        (inner, ("model", "id", "stop_reason", "stop_sequence")),
        (usage, ("input_tokens", "output_tokens", "cache_read_input_tokens")),
    ):
        for key in keys:
            choice = draw(st.integers(0, 9))
            if choice == 0:
                del target[key]
            elif choice == 1:
                target[key] = draw(_NULLABLE)
    if draw(st.booleans()):
        line["message"]["content"] = draw(
            st.sampled_from(["text", [], [{"type": "thinking", "thinking": "t", "signature": "s"}]])
        )
    return line


@given(assistant_lines())
def test_fuzzed_assistant_lines_agree(line: dict[str, Any]) -> None:
    agree(line, cd._assistant_any)


@st.composite
def context_lines(draw: st.DrawFn, base: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    line = base()
    for key in ("parent_tool_use_id", "session_id", "uuid"):
        choice = draw(st.integers(0, 5))
        if choice == 0:
            del line[key]
        elif choice == 1:
            line[key] = draw(_NULLABLE)
    if draw(st.integers(0, 4)) == 0:
        line["timestamp"] = draw(st.sampled_from(["2026-01-15T10:00:00Z", 17.5, None, []]))
    return line


@given(context_lines(user_line))
def test_fuzzed_user_lines_agree(line: dict[str, Any]) -> None:
    agree(line, cd._user_any)


@given(context_lines(stream_line))
def test_fuzzed_stream_lines_agree(line: dict[str, Any]) -> None:
    out = agree(line, cd._stream_event_any)
    assert _outcome(cd._stream_event, line) == out


def test_a_tool_result_user_line_decodes_to_its_blocks() -> None:
    m = cc.decode(user_line())
    assert m == UserMessage(
        (ToolResultBlock("toolu_1", "a.txt"),),
        uuid=UUID,
        session_id=SID,
        extra={"type": "user", "parent_tool_use_id": None, "message": {"role": "user"}},
    )


def test_top_level_stream_events_are_decoded_inline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Half of all lines: decode reads them without even a table lookup."""
    line = stream_line()
    expected = cc.decode(copy.deepcopy(line))

    def refuse(obj: Any) -> Any:
        raise AssertionError("the stream_event decoder was called")

    monkeypatch.setitem(cd._DECODERS, "stream_event", refuse)
    assert cc.decode(copy.deepcopy(line)) == expected
    for change in ("sub-agent", "null uuid", "null session"):
        other = stream_line()
        STREAM_CHANGES[change](other)
        with pytest.raises(AssertionError, match="stream_event decoder"):
            cc.decode(other)


# ---------------------------------------------------------------- the general path's own rules


def test_an_assistant_error_is_read_out_of_the_extra() -> None:
    for line in (assistant_line(), {"type": "assistant", "message": {"content": []}}):
        line["error"] = "rate_limit"
        m = cc.decode(copy.deepcopy(line))
        assert isinstance(m, AssistantMessage)
        assert m.error == "rate_limit"
        assert "error" not in m.extra
        assert json_equal(cc.encode(m), line)
    line = {"type": "assistant", "message": {"content": []}, "error": None}
    m = cc.decode(copy.deepcopy(line))
    assert m.error is None  # type: ignore[union-attr]
    assert m.extra["error"] is None  # a null is kept for replay


def test_a_null_message_is_an_error_and_a_missing_one_keeps_the_line_raw() -> None:
    for tag in ("assistant", "user"):
        with pytest.raises(DecodeError) as info:
            cc.decode({"type": tag, "message": None, "uuid": UUID})
        assert (info.value.path, info.value.value) == ("$.message", None)
        m = cc.decode({"type": tag, "uuid": UUID})
        assert m == RawMessage({"type": tag, "uuid": UUID}, uuid=UUID)


def test_raw_lines_keep_their_well_typed_context() -> None:
    line = {
        "type": "future_event",
        "uuid": UUID,
        "session_id": SID,
        "parent_tool_use_id": "toolu_parent",
        "timestamp": "2026-01-15T10:00:00Z",
    }
    m = cc.decode(copy.deepcopy(line))
    assert m == RawMessage(
        line,
        uuid=UUID,
        session_id=SID,
        parent_tool_use_id="toolu_parent",
        timestamp="2026-01-15T10:00:00Z",
    )
    assert m.extra == {}
    assert m.extra is not None
    bad = {**line, "uuid": 5}
    m = cc.decode(copy.deepcopy(bad))
    assert isinstance(m, RawMessage)
    assert (m.uuid, m.session_id, m.parent_tool_use_id, m.timestamp) == (None, None, None, None)
    assert json_equal(cc.encode(m), bad)


@pytest.mark.parametrize("tag", [["assistant"], {"a": 1}, 5, None, True])
def test_a_line_type_of_any_json_type_is_raw(tag: Any) -> None:
    line = {"type": tag, "uuid": UUID}
    m = cc.decode(copy.deepcopy(line))
    assert m == RawMessage(line, uuid=UUID)


def test_a_result_without_structured_output_has_none() -> None:
    m = cc.decode({"type": "result", "subtype": "success"})
    assert m.structured_output is None  # type: ignore[union-attr]
    m = cc.decode({"type": "result", "structured_output": {"a": [1]}})
    assert m.structured_output == {"a": [1]}  # type: ignore[union-attr]

"""Gemini CLI stream-json adapter: conformance, mapping rules, errors, policies, laws."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import json_equal
from conftest import shared_fixtures
from messages import AssistantMessage
from messages import DecodeError
from messages import EncodeError
from messages import ErrorMessage
from messages import ImageMessage
from messages import InitMessage
from messages import InvalidLineMessage
from messages import RawMessage
from messages import ResultMessage
from messages import StreamEventMessage
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingMessage
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import UnsupportedContentError
from messages import Usage
from messages import strategies as ms
from messages.adapters import gemini_cli as g
from support.adapter_files import assert_decode_error
from support.adapter_files import flat_kinds
from support.adapter_files import local
from support.adapter_files import read
from support.adapter_files import wire_objects

REAL = ["gemicord-log.jsonl", "synthetic/caic-gemini-unit-test-lines.jsonl"]


# --- conformance -------------------------------------------------------------------------


@pytest.mark.parametrize("name", REAL)
def test_real_captures_are_detected(name: str) -> None:
    for _, obj in wire_objects(shared_fixtures("gemini_cli", name)):
        assert g.detect(obj) is (obj.get("type") != "unknown_event"), obj


def test_real_capture_decodes_to_the_expected_kinds() -> None:
    messages = read(g, shared_fixtures("gemini_cli", "gemicord-log.jsonl"))
    assert [m.kind for m in messages] == ["init", "text", "text", "tool_use", "tool_result"] + [
        "text"
    ] * 6 + ["result"]
    assert flat_kinds(list(g.merge(messages))) == [
        "text(user)",
        "text(assistant)",
        "tool_use",
        "tool_result",
        "text(assistant)",
    ]


# --- mapping rules -------------------------------------------------------------------------


def test_init() -> None:
    m = g.decode({"type": "init", "timestamp": "t0", "session_id": "s1", "model": "gemini-2.5"})
    assert m == InitMessage(session_id="s1", model="gemini-2.5", timestamp="t0")


def test_init_keeps_unknown_fields() -> None:
    m = g.decode({"type": "init", "session_id": "s", "model": "m", "new_field": "surprise"})
    assert m.extra == {"new_field": "surprise"}


def test_user_and_assistant_messages() -> None:
    user = g.decode({"type": "message", "timestamp": "t", "role": "user", "content": "hi"})
    assert user == TextMessage("hi", role="user", timestamp="t")
    chunk = g.decode({"type": "message", "role": "assistant", "content": "he", "delta": True})
    assert chunk == TextMessage("he", role="assistant", extra={"delta": True})


def test_message_with_an_unknown_role_is_kept_raw() -> None:
    obj = {"type": "message", "role": "model", "content": "x"}
    assert g.decode(obj) == RawMessage(obj)


def test_tool_use() -> None:
    obj = {
        "type": "tool_use",
        "timestamp": "t",
        "tool_name": "read_file",
        "tool_id": "read_file-1-ab",
        "parameters": {"file_path": "/etc/hostname"},
    }
    m = g.decode(obj)
    assert m == ToolUseMessage(
        "read_file-1-ab", "read_file", {"file_path": "/etc/hostname"}, timestamp="t"
    )


def test_tool_result_success_and_error() -> None:
    ok = g.decode({"type": "tool_result", "tool_id": "t1", "status": "success", "output": "x"})
    assert ok == ToolResultMessage("t1", "x", is_error=False)
    err = {"type": "invalid_tool_params", "message": "Path not in workspace"}
    bad = g.decode(
        {"type": "tool_result", "tool_id": "t2", "status": "error", "output": "P", "error": err}
    )
    assert bad == ToolResultMessage("t2", "P", is_error=True, extra={"error": err})


def test_tool_result_keeps_an_unusual_status_and_an_empty_output() -> None:
    obj = {"type": "tool_result", "tool_id": "t", "status": "cancelled", "output": ""}
    m = g.decode(obj)
    assert m.is_error is None and m.content == ""
    assert m.extra == {"status": "cancelled", "output": ""}
    assert json_equal(g.encode(m), obj)
    absent = {"type": "tool_result", "tool_id": "t", "status": "success"}
    assert json_equal(g.encode(g.decode(absent)), absent)


def test_error_event_keeps_its_severity() -> None:
    m = g.decode({"type": "error", "severity": "warning", "message": "Loop detected"})
    assert m == ErrorMessage("Loop detected", extra={"severity": "warning"})


def test_result_usage_mapping() -> None:
    stats = {
        "total_tokens": 13374,
        "input_tokens": 12821,
        "output_tokens": 186,
        "cached": 9598,
        "input": 3223,
        "duration_ms": 5760,
        "tool_calls": 1,
    }
    m = g.decode({"type": "result", "status": "success", "stats": stats})
    assert isinstance(m, ResultMessage)
    assert (m.subtype, m.is_error, m.duration_ms) == ("success", False, 5760)
    assert m.usage == Usage(
        3223, 186, 9598, extra={"total_tokens": 13374, "input_tokens": 12821, "tool_calls": 1}
    )
    assert m.usage.total_input_tokens == 12821


def test_result_error_and_without_stats() -> None:
    err = {"type": "FatalTurnLimitedError", "message": "max turns"}
    m = g.decode({"type": "result", "status": "error", "error": err})
    assert m == ResultMessage(subtype="error", is_error=True, extra={"error": err})
    assert m.usage is None


@pytest.mark.parametrize(
    "obj", [{"type": "unknown_event", "data": "x"}, {"no": "type"}, {"type": ["message"]}]
)
def test_unknown_objects_are_kept_raw(obj: dict[str, Any]) -> None:
    m = g.decode(obj)
    assert m == RawMessage(obj)
    assert json_equal(g.encode(m), obj)


def test_null_fields_are_kept() -> None:
    obj = {"type": "init", "timestamp": None, "session_id": None, "model": "m"}
    m = g.decode(obj)
    assert m.session_id is None and m.timestamp is None
    assert json_equal(g.encode(m), obj)


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("obj", "text"),
    [
        ([1], "gemini_cli: $: expected an object, found an array"),
        (
            {"type": "message", "role": "user"},
            "gemini_cli: $.content: expected a string, found nothing",
        ),
        (
            {"type": "message", "role": 1, "content": "x"},
            "gemini_cli: $.role: expected a string, found an integer",
        ),
        (
            {"type": "tool_use", "tool_name": "a", "tool_id": "b"},
            "gemini_cli: $.parameters: expected an object, found nothing",
        ),
        (
            {"type": "tool_result", "tool_id": "t", "status": "success", "output": 3},
            "gemini_cli: $.output: expected a string, found an integer",
        ),
        (
            {"type": "tool_result", "tool_id": "t"},
            "gemini_cli: $.status: expected a string, found nothing",
        ),
        (
            {"type": "error", "severity": "error"},
            "gemini_cli: $.message: expected a string, found nothing",
        ),
        (
            {"type": "result", "status": "success", "stats": "x"},
            "gemini_cli: $.stats: expected an object, found a string",
        ),
        (
            {"type": "result", "status": "success", "stats": {"input": "3"}},
            "gemini_cli: $.stats.input: expected an integer, found a string",
        ),
        (
            {"type": "init", "timestamp": True},
            "gemini_cli: $.timestamp: expected a string or a number, found a boolean",
        ),
        ({"type": "init", "x": {1, 2}}, "gemini_cli: $.x: expected a JSON value, found set"),
    ],
)
def test_bad_shapes_raise_with_a_path(obj: Any, text: str) -> None:
    assert_decode_error(g, obj, text)


# --- merge ------------------------------------------------------------------------------------


def test_merge_joins_delta_chunks_only() -> None:
    stream = [
        TextMessage("q", role="user"),
        TextMessage("Hel", extra={"delta": True}, timestamp="t1"),
        TextMessage("lo", extra={"delta": True}, timestamp="t2"),
        ToolUseMessage("t", "ls"),
        TextMessage("a", extra={"delta": True}),
        TextMessage("whole"),
    ]
    merged = list(g.merge(stream))
    assert merged == [
        TextMessage("q", role="user"),
        TextMessage("Hello", extra={"delta": True}, timestamp="t1"),
        ToolUseMessage("t", "ls"),
        TextMessage("a", extra={"delta": True}),
        TextMessage("whole"),
    ]


# --- encoding from other sources ---------------------------------------------------------


def test_encode_flat_messages_from_elsewhere() -> None:
    assert g.encode(ToolUseMessage("c1", "shell", {"cmd": "ls"}, session_id="s")) == {
        "type": "tool_use",
        "tool_name": "shell",
        "tool_id": "c1",
        "parameters": {"cmd": "ls"},
    }
    assert g.encode(ToolResultMessage("c1", (TextBlock("a"), TextBlock("b")), is_error=True)) == {
        "type": "tool_result",
        "tool_id": "c1",
        "status": "error",
        "output": "a\nb",
    }
    claude_result = ResultMessage(subtype="error_max_turns", is_error=True, num_turns=3)
    assert g.encode(claude_result) == {"type": "result", "status": "error"}
    assert g.encode(ResultMessage(duration_ms=5)) == {
        "type": "result",
        "status": "success",
        "stats": {"duration_ms": 5},
    }


def test_thinking_is_refused_dropped_or_degraded() -> None:
    m = ThinkingMessage("hmm", signature="sig")
    with pytest.raises(UnsupportedContentError) as info:
        g.encode(m)
    assert str(info.value) == (
        "gemini_cli: $: Gemini CLI has no event for thinking content"
        " (pass unsupported='drop' or 'text')"
    )
    assert g.encode(m, unsupported="drop") is None
    assert g.encode(m, unsupported="text") == {
        "type": "message",
        "role": "assistant",
        "content": "[thinking: hmm]",
    }


def test_images_degrade_to_a_note() -> None:
    m = ImageMessage(url="https://example.com/a.png", media_type="image/png")
    assert g.encode(m, unsupported="text") == {
        "type": "message",
        "role": "user",
        "content": "[image: image/png, https://example.com/a.png]",
    }


def test_stream_events_and_citations() -> None:
    event = StreamEventMessage({"type": "message_stop"})
    with pytest.raises(UnsupportedContentError):
        g.encode(event)
    assert g.encode(event, unsupported="text") is None
    cited = TextMessage("x", citations=({"url": "u"},))
    with pytest.raises(UnsupportedContentError):
        g.encode(cited)
    assert g.encode(cited, unsupported="drop") == {
        "type": "message",
        "role": "assistant",
        "content": "x",
    }


def test_role_messages_need_one_block_or_iter_encode() -> None:
    turn = AssistantMessage((TextBlock("Listing."), ToolUseBlock("t1", "ls", {})))
    with pytest.raises(EncodeError) as info:
        g.encode(turn)
    assert "needs 2 events; use iter_encode" in str(info.value)
    lines = [json.loads(x) for x in g.iter_encode([turn])]
    assert [x["type"] for x in lines] == ["message", "tool_use"]
    assert g.encode(AssistantMessage("Hi")) == {
        "type": "message",
        "role": "assistant",
        "content": "Hi",
    }


def test_iter_encode_applies_the_policy() -> None:
    stream = [TextMessage("a"), ThinkingMessage("b"), TextMessage("c")]
    with pytest.raises(UnsupportedContentError):
        list(g.iter_encode(stream))
    assert len(list(g.iter_encode(stream, unsupported="drop"))) == 2


# --- laws ---------------------------------------------------------------------------------------

_times = st.none() | st.sampled_from(["2026-01-01T00:00:00.000Z", "2025-12-22T23:12:21.385Z"])
_texts = st.text(max_size=20)
_ids = st.text("abcdef0123456789-_", min_size=1, max_size=16)
_counts = st.none() | st.integers(min_value=0, max_value=10**7)


@st.composite
def _carried(draw: st.DrawFn) -> Any:
    kind = draw(st.sampled_from(["text", "tool_use", "tool_result", "init", "error", "result"]))
    ts = draw(_times)
    if kind == "text":
        delta = draw(st.sampled_from([{}, {"delta": True}]))
        role = draw(st.sampled_from(["user", "assistant"]))
        return TextMessage(draw(_texts), role=role, timestamp=ts, extra=delta)
    if kind == "tool_use":
        return ToolUseMessage(draw(_ids), draw(_texts), draw(ms.json_objects()), timestamp=ts)
    if kind == "tool_result":
        return ToolResultMessage(
            draw(_ids), draw(_texts), is_error=draw(st.booleans()), timestamp=ts
        )
    if kind == "init":
        return InitMessage(session_id=draw(st.none() | _ids), model=draw(st.none() | _texts))
    if kind == "error":
        severity = {"severity": draw(st.sampled_from(["warning", "error"]))}
        return ErrorMessage(draw(_texts), timestamp=ts, extra=severity)
    failed = draw(st.booleans())
    usage = draw(st.none() | st.builds(Usage, _counts, _counts, _counts))
    return ResultMessage(
        subtype="error" if failed else "success",
        is_error=failed,
        usage=usage,
        duration_ms=draw(_counts) if usage is not None else None,
        timestamp=ts,
    )


@given(_carried())
def test_carried_messages_survive_a_round_trip(m: Any) -> None:
    wire = g.encode(m)
    assert g.detect(wire)
    assert g.decode(wire) == m
    assert json_equal(g.encode(g.decode(wire)), wire)


@given(st.none() | st.booleans(), _texts)
def test_a_result_without_an_outcome_reads_back_as_success(is_error: Any, text: str) -> None:
    back = g.decode(g.encode(ToolResultMessage("t", text, is_error=is_error)))
    assert back.is_error is bool(is_error)


def test_a_foreign_extra_cannot_change_the_event_type() -> None:
    call = ToolUseMessage("c1", "ls", {}, extra={"type": "function", "x": 1})
    assert g.encode(call) == {
        "type": "tool_use",
        "tool_name": "ls",
        "tool_id": "c1",
        "parameters": {},
        "x": 1,
    }


def test_arguments_that_are_not_an_object_are_refused_or_left_out() -> None:
    call = ToolUseMessage("t", "ls", arguments="{broken")
    with pytest.raises(UnsupportedContentError):
        g.encode(call)
    assert g.encode(call, unsupported="drop")["parameters"] == {}


# --- --output-format json: one document for the whole run --------------------------------

RUN_DOC = local("gemini_cli", "output-json-run.json")
ERROR_DOC = local("gemini_cli", "output-json-error.json")
NOISY_DOC = local("gemini_cli", "output-json-noisy.txt")


def test_a_pretty_printed_document_is_read_as_one_record_of_parts() -> None:
    lines = RUN_DOC.read_text("utf-8").splitlines()
    assert len(lines) > 60
    parts = list(g.iter_decode(lines, strict=True))
    assert [m.kind for m in parts] == ["text", "result", "result", "result"]
    answer, lite, pro, run = parts
    session = "9c2f4e71-5a0d-4b8e-a613-7d1e0b94c2a8"
    assert isinstance(answer, TextMessage) and answer.role == "assistant"
    assert answer.text == '`notes.txt` has 3 lines; the last one reads "ship it".'
    assert {m.session_id for m in parts} == {session}
    assert answer.model == "gemini-2.5-flash-lite"  # the first model named, as wrappers read it
    # prompt counts cached tokens and candidates leave thoughts out; Usage does the opposite
    assert pro.model == "gemini-2.5-pro" and pro.num_turns == 2 and pro.duration_api_ms == 6230
    assert pro.usage is not None and pro.usage.extra == {"total": 15187, "tool": 0}
    assert pro.usage == Usage(
        14877 - 9120, 64 + 246, 9120, reasoning_tokens=246, extra=pro.usage.extra
    )
    assert lite.usage is not None and (lite.usage.input_tokens, lite.num_turns) == (2210, 1)
    assert run.is_error is False and run.usage is None and run.model == "gemini-2.5-flash-lite"
    assert g.tool_counts(run) == {"read_file": (1, 0), "run_shell_command": (1, 1)}
    assert g.tool_counts(pro) is None and g.tool_counts(answer) is None


def test_a_document_is_written_back_json_equal_from_its_parts() -> None:
    for path in (RUN_DOC, ERROR_DOC):
        wire = json.loads(path.read_text("utf-8"))
        parts = list(g.iter_decode(path.read_text("utf-8").splitlines(), strict=True))
        (line,) = g.iter_encode(parts)
        assert json_equal(json.loads(line), wire)
        assert g.detect(wire)


def test_a_failed_run_gives_its_error_typed() -> None:
    parts = list(g.iter_decode(ERROR_DOC.read_text("utf-8").splitlines(), strict=True))
    assert [m.kind for m in parts] == ["result", "error", "result"]
    error = parts[1]
    assert isinstance(error, ErrorMessage) and error.code == "FatalTurnLimitedError"
    assert error.message.startswith("Reached max session turns")
    assert error.extra == {"document": {"error": {"code": 53}}}
    assert parts[-1].is_error is True
    assert g.tool_counts(parts[-1]) == {}


def test_a_lone_decode_gives_the_whole_document_as_one_result() -> None:
    wire = json.loads(RUN_DOC.read_text("utf-8"))
    whole = g.decode(wire)
    assert isinstance(whole, ResultMessage)
    assert whole.result == wire["response"] and whole.session_id == wire["session_id"]
    assert json_equal(g.encode(whole), wire)
    assert g.tool_counts(whole) == {"read_file": (1, 0), "run_shell_command": (1, 1)}


def test_each_part_alone_writes_the_document_it_holds() -> None:
    parts = list(g.iter_decode([RUN_DOC.read_text("utf-8")]))
    assert g.encode(parts[0]) == {
        "session_id": "9c2f4e71-5a0d-4b8e-a613-7d1e0b94c2a8",
        "response": parts[0].text,
    }
    assert list(g.encode(parts[2])["stats"]["models"]) == ["gemini-2.5-pro"]
    # parts that lose their run still make one document, never stream events
    assert [json.loads(x).keys() >= {"session_id"} for x in g.iter_encode(parts[:2])] == [True]


def test_noise_around_a_document_is_reported_by_line() -> None:
    lines = NOISY_DOC.read_text("utf-8").splitlines()
    out = list(g.iter_decode(lines))
    bad = [m for m in out if isinstance(m, InvalidLineMessage)]
    assert [(m.line, m.text) for m in bad] == [
        (1, "Loaded cached credentials."),
        (len(lines), "[WARN] Skipping unreadable directory: /proc/1/fdinfo"),
    ]
    assert [m.kind for m in out if m not in bad] == ["text", "result", "result", "result"]


def test_a_broken_document_is_one_error_naming_the_file_line() -> None:
    lines = RUN_DOC.read_text("utf-8").splitlines()
    lines[7] = lines[7].replace('"totalRequests": 1,', '"totalRequests": 1,,')
    out = list(g.iter_decode(["noise", *lines, '{"type":"init","session_id":"s","model":"m"}']))
    assert [m.kind for m in out] == ["invalid_line", "invalid_line", "init"]
    assert out[1].line == 2  # type: ignore[union-attr]
    reason = out[1].reason  # type: ignore[union-attr]
    assert reason == (
        "$: invalid JSON (expecting property name enclosed in double quotes at line 9, column 30)"
    )
    assert "line 1 column" not in reason
    with pytest.raises(DecodeError) as info:
        list(g.iter_decode(lines, strict=True))
    assert info.value.line == 1


def test_lines_that_open_no_document_are_read_one_by_one() -> None:
    good = '{"type":"init","session_id":"s","model":"m"}'
    # a cut line, then whole records: the reader looks ahead, then gives the lines back
    out = list(g.iter_decode(['{"type":"message","role":"user",', good, good]))
    assert [m.kind for m in out] == ["invalid_line", "init", "init"]
    assert out[0].line == 1  # type: ignore[union-attr]
    out = list(g.iter_decode(['{"a": [', '  "b"', "oops", good]))
    assert [m.kind for m in out] == ["invalid_line", "invalid_line", "invalid_line", "init"]


@given(st.lists(st.sampled_from(["init", "doc", "noise", "blank"]), max_size=8))
def test_documents_and_lines_mix_and_keep_their_line_numbers(kinds: list[str]) -> None:
    doc_lines = json.dumps({"response": "x", "stats": {}}, indent=1).splitlines()
    lines: list[str] = []
    starts = []
    for kind in kinds:
        starts.append((kind, len(lines) + 1))
        lines += {
            "init": ['{"type":"init","session_id":"s"}'],
            "doc": doc_lines,
            "noise": ["warning: x"],
            "blank": [""],
        }[kind]
    out = list(g.iter_decode(lines))
    expected = []
    for kind, start in starts:
        expected += {"init": ["init"], "doc": ["text", "result"], "noise": [f"bad:{start}"]}.get(
            kind, []
        )
    got = [f"bad:{m.line}" if isinstance(m, InvalidLineMessage) else m.kind for m in out]
    assert got == expected

"""Codex adapter (exec events and app-server JSON-RPC): conformance, mapping, errors, laws."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import LOCAL_FIXTURES
from conftest import json_equal
from conftest import shared_fixtures
from messages import AssistantMessage
from messages import DecodeError
from messages import EncodeError
from messages import ErrorMessage
from messages import ImageMessage
from messages import InitMessage
from messages import RawMessage
from messages import ResultMessage
from messages import StreamEventMessage
from messages import SystemMessage
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingMessage
from messages import ToolResultBlock
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import UnsupportedContentError
from messages import Usage
from messages import UserMessage
from messages import strategies as ms
from messages.adapters import claude_code as cc
from messages.adapters import codex as cx
from messages.convert import normalize_messages
from support.adapter_files import assert_decode_error
from support.adapter_files import wire_objects

LOCAL = LOCAL_FIXTURES / "codex"


def _line(name: str, number: int) -> Any:
    return json.loads((LOCAL / name).read_text("utf-8").splitlines()[number - 1])


def _decode_local(name: str) -> list[Any]:
    return list(cx.iter_decode((LOCAL / name).read_text("utf-8").splitlines()))


# -- conformance -----------------------------------------------------------------------------


def test_real_app_server_capture_normalizes_to_text_tool_use_and_result() -> None:
    path = shared_fixtures("codex_app_server", "caic-tool-error.jsonl")
    messages = list(cx.iter_decode(path.read_text("utf-8").splitlines()))
    flat = list(normalize_messages(messages))
    assert {"text", "tool_use", "tool_result", "thinking", "result"} <= {m.kind for m in flat}
    failed = [m for m in flat if isinstance(m, ToolResultMessage)]
    assert [m.is_error for m in failed] == [True]
    # the deltas are previews of the completed agent messages: stream events, not text
    fragments: dict[str, str] = {}
    for m in messages:
        if isinstance(m, StreamEventMessage) and m.event["method"] == "item/agentMessage/delta":
            assert m.message_id is not None
            delta = m.event["params"]["delta"]  # type: ignore[index]
            fragments[m.message_id] = fragments.get(m.message_id, "") + delta
    texts = {
        m.message_id: m.text
        for m in flat
        if isinstance(m, TextMessage) and m.role == "assistant" and m.text
    }
    assert len(fragments) == 2
    assert fragments == texts
    assert list(cx.merge(messages)) == messages


def test_real_exec_sample_kinds() -> None:
    path = shared_fixtures("codex_exec", "openai-codex-docs-exec-md-sample.jsonl")
    kinds = [type(m).__name__ for m in cx.iter_decode(path.read_text("utf-8").splitlines())]
    assert kinds == [
        "InitMessage",
        "RawMessage",
        "ThinkingMessage",
        "ToolUseMessage",
        "ToolResultMessage",
        "ThinkingMessage",
        "TextMessage",
        "ResultMessage",
    ]


@pytest.mark.parametrize("name", ["exec.jsonl", "app_server.jsonl"])
def test_local_fixtures_normalize_to_text_tool_use_and_result(name: str) -> None:
    kinds = {m.kind for m in normalize_messages(_decode_local(name))}
    assert {"text", "thinking", "tool_use", "tool_result", "result", "error", "init"} <= kinds


def test_exec_kinds_in_order() -> None:
    assert [type(m).__name__ for m in _decode_local("exec.jsonl")] == [
        "InitMessage",
        "RawMessage",
        "ThinkingMessage",
        "StreamEventMessage",  # todo list started: the completed list holds it whole
        "ToolUseMessage",
        "ToolResultMessage",  # its start was seen: the result alone
        "StreamEventMessage",  # todo list updated
        "AssistantMessage",  # a file change that only completes: call and result
        "ToolUseMessage",
        "ToolResultMessage",
        "AssistantMessage",
        "AssistantMessage",
        "ToolUseMessage",
        "ToolResultMessage",
        "ErrorMessage",
        "RawMessage",  # todo list completed
        "TextMessage",
        "ResultMessage",
        "RawMessage",
        "ErrorMessage",
        "ResultMessage",
    ]


# -- exec mapping ----------------------------------------------------------------------------


def test_thread_started() -> None:
    m = cx.decode(_line("exec.jsonl", 1))
    assert isinstance(m, InitMessage)
    assert m.session_id == "0199b000-0000-7000-8000-0000000000e1"
    assert m.extra == {"type": "thread.started"}


def test_turn_completed_usage_counts_cached_tokens_apart() -> None:
    m = cx.decode(_line("exec.jsonl", 18))
    assert isinstance(m, ResultMessage)
    assert m.is_error is False
    assert m.usage == Usage(2200, 640, 28800, reasoning_tokens=256)
    assert m.usage is not None and m.usage.total_input_tokens == 31000


def test_turn_failed_and_error_event() -> None:
    failed = cx.decode(_line("exec.jsonl", 21))
    assert isinstance(failed, ResultMessage)
    assert (failed.is_error, failed.result) == (True, "stream disconnected before completion")
    error = cx.decode(_line("exec.jsonl", 20))
    assert isinstance(error, ErrorMessage)
    assert error.message == "stream disconnected before completion"


def test_command_started_and_completed() -> None:
    started = cx.decode(_line("exec.jsonl", 5))
    assert isinstance(started, ToolUseMessage)
    assert (started.id, started.name) == ("item_2", "command_execution")
    assert started.input == {"command": "bash -lc 'pytest -q'"}
    done = cx.decode(_line("exec.jsonl", 6))
    assert isinstance(done, AssistantMessage)
    use, result = done.content
    assert use == ToolUseBlock("item_2", "command_execution", {"command": "bash -lc 'pytest -q'"})
    assert result == ToolResultBlock(
        "item_2", "1 failed, 4 passed\n", is_error=True, name="command_execution"
    )
    assert done.extra == {
        "type": "item.completed",
        "item": {"type": "command_execution", "exit_code": 1, "status": "failed"},
    }
    ok = cx.decode(_line("exec.jsonl", 14))
    assert isinstance(ok, AssistantMessage)
    assert ok.tool_results[0].is_error is False


def test_file_change_mcp_and_web_search() -> None:
    files = cx.decode(_line("exec.jsonl", 8))
    assert isinstance(files, AssistantMessage)
    assert files.tool_uses[0].input == {"changes": ({"path": "src/calc.py", "kind": "update"},)}
    assert files.tool_results[0] == ToolResultBlock(
        "item_3", "", is_error=False, name="file_change"
    )
    mcp = cx.decode(_line("exec.jsonl", 10))
    assert isinstance(mcp, AssistantMessage)
    assert mcp.tool_uses[0] == ToolUseBlock("item_4", "search", {"query": "pytest exit codes"})
    assert mcp.tool_results[0].content == (TextBlock("Exit code 1: tests failed."),)
    assert mcp.tool_results[0].is_error is False
    assert mcp.extra["item"]["result"] == {"structured_content": None}  # type: ignore[index]
    failed = cx.decode(_line("exec.jsonl", 11))
    assert isinstance(failed, AssistantMessage)
    assert failed.tool_uses[0].input == {}
    assert failed.tool_results[0].is_error is True
    search = cx.decode(_line("exec.jsonl", 12))
    assert isinstance(search, AssistantMessage)
    assert search.tool_uses[0].input == {"query": "pytest -q output format"}
    assert search.tool_results[0].is_error is None


def test_text_reasoning_error_and_todo_items() -> None:
    text = cx.decode(_line("exec.jsonl", 17))
    assert isinstance(text, TextMessage)
    assert (text.text, text.message_id, text.role) == (
        "Fixed `calc.py`; all 5 tests pass.",
        "item_9",
        "assistant",
    )
    thinking = cx.decode(_line("exec.jsonl", 3))
    assert isinstance(thinking, ThinkingMessage)
    assert thinking.thinking == "**Looking for the test command**"
    error = cx.decode(_line("exec.jsonl", 15))
    assert isinstance(error, ErrorMessage) and error.message_id == "item_8"
    todo = cx.decode(_line("exec.jsonl", 4))
    assert isinstance(todo, StreamEventMessage) and todo.event == _line("exec.jsonl", 4)
    assert todo.message_id == "item_1"
    done = cx.decode(_line("exec.jsonl", 16))
    assert isinstance(done, RawMessage) and done.data == _line("exec.jsonl", 16)


def test_items_missing_a_needed_key_stay_raw() -> None:
    for item in (
        {"id": "i", "type": "agent_message"},
        {"id": "i", "type": "command_execution", "status": "completed"},
        {"type": "command_execution", "command": "ls"},
        {"id": "i", "type": "command_execution", "command": "ls", "status": "completed"},
        {"id": "i", "type": "mcp_tool_call", "tool": "t"},
        {"id": "i", "type": "future_item"},
    ):
        completed = {"type": "item.completed", "item": item}
        m = cx.decode(json.loads(json.dumps(completed)))
        if item.get("command") == "ls" and "id" in item:
            assert isinstance(m, RawMessage)  # completed command without its output
        assert isinstance(m, RawMessage), item
        assert json_equal(cx.encode(m), completed)


# -- app-server mapping ----------------------------------------------------------------------

THREAD = "019f0000-0000-7000-8000-0000000000a1"


def test_app_thread_started_and_turn_completed() -> None:
    init = cx.decode(_line("app_server.jsonl", 5))
    assert isinstance(init, InitMessage)
    assert (init.session_id, init.cwd) == (THREAD, "/srv/repo")
    done = cx.decode(_line("app_server.jsonl", 30))
    assert isinstance(done, ResultMessage)
    assert (done.subtype, done.is_error, done.duration_ms, done.session_id) == (
        "completed",
        False,
        2310,
        THREAD,
    )


def test_app_user_message_and_reasoning() -> None:
    user = cx.decode(_line("app_server.jsonl", 9))
    assert isinstance(user, UserMessage)
    assert user.text == "Count the lines in main.go"
    assert user.message_id == "6a1c0000-0000-4000-8000-000000000001"
    assert user.session_id == THREAD
    started = cx.decode(_line("app_server.jsonl", 8))  # the same item, before it completes
    assert isinstance(started, StreamEventMessage)
    assert (started.message_id, started.session_id) == (user.message_id, THREAD)
    reasoning = cx.decode(_line("app_server.jsonl", 13))
    assert isinstance(reasoning, ThinkingMessage)
    assert reasoning.thinking == "**Counting lines**"
    delta = cx.decode(_line("app_server.jsonl", 11))
    assert isinstance(delta, StreamEventMessage)
    assert delta.message_id == "rs_0a1"
    assert delta.event == _line("app_server.jsonl", 11)


def test_app_command_execution() -> None:
    ok = cx.decode(_line("app_server.jsonl", 15))
    assert isinstance(ok, AssistantMessage)
    assert ok.tool_uses[0].name == "commandExecution"
    assert ok.tool_results[0].content == "7 main.go\n"
    assert ok.tool_results[0].is_error is False
    assert ok.session_id == THREAD
    failed = cx.decode(_line("app_server.jsonl", 17))
    assert isinstance(failed, AssistantMessage)
    assert failed.tool_results[0].content == ""
    assert failed.tool_results[0].is_error is True
    assert failed.extra["params"]["item"]["aggregatedOutput"] is None  # type: ignore[index]


def test_app_file_change_mcp_and_requests() -> None:
    started = cx.decode(_line("app_server.jsonl", 18))
    assert isinstance(started, ToolUseMessage) and started.name == "fileChange"
    mcp = cx.decode(_line("app_server.jsonl", 22))
    assert isinstance(mcp, AssistantMessage)
    assert mcp.tool_uses[0] == ToolUseBlock("call_mcp04", "lookup", {"topic": "go"})
    assert mcp.tool_results[0].text == "Go files start with a package clause."
    request = cx.decode(_line("app_server.jsonl", 19))
    assert isinstance(request, RawMessage) and request.session_id == THREAD
    for number in (1, 2, 3, 4, 6, 20, 31):
        assert isinstance(cx.decode(_line("app_server.jsonl", number)), RawMessage)


def test_app_deltas_and_error_notification() -> None:
    delta = cx.decode(_line("app_server.jsonl", 24))
    assert isinstance(delta, StreamEventMessage)
    assert (delta.message_id, delta.session_id) == ("msg_0a2", THREAD)
    assert json_equal(cx.encode(delta), _line("app_server.jsonl", 24))
    error = cx.decode(_line("app_server.jsonl", 28))
    assert isinstance(error, ErrorMessage)
    assert (error.message, error.will_retry, error.code) == ("Reconnecting... 1/5", True, None)
    final = cx.decode(
        {
            "method": "error",
            "params": {"error": {"message": "401", "codexErrorInfo": "other"}, "willRetry": False},
        }
    )
    assert isinstance(final, ErrorMessage) and (final.code, final.will_retry) == ("other", False)


def test_the_flat_view_says_each_app_server_item_once() -> None:
    messages = _decode_local("app_server.jsonl")
    merged = list(cx.merge(messages))
    assert merged == messages  # deltas are previews: nothing to join
    flat = list(normalize_messages(merged))
    assert [m.text for m in flat if isinstance(m, TextMessage)] == [
        "Count the lines in main.go",
        "`main.go` has 7 lines.",
    ]
    assert [m.thinking for m in flat if isinstance(m, ThinkingMessage)] == ["**Counting lines**"]
    uses = [m.id for m in flat if isinstance(m, ToolUseMessage)]
    results = [m.tool_use_id for m in flat if isinstance(m, ToolResultMessage)]
    assert uses == results == ["call_wc01", "call_cat02", "call_edit03", "call_mcp04"]


def test_merge_keeps_items_apart() -> None:
    a = cx.decode({"method": "item/agentMessage/delta", "params": {"itemId": "a", "delta": "x"}})
    b = cx.decode({"method": "item/agentMessage/delta", "params": {"itemId": "b", "delta": "y"}})
    assert list(cx.merge([a, b])) == [a, b]


# -- one call, one tool_use: pairing a tool item's events ------------------------------------


def _command(status: str, output: str, code: int | None) -> dict[str, Any]:
    return {
        "id": "item_1",
        "type": "command_execution",
        "command": "bash -lc ls",
        "aggregated_output": output,
        "exit_code": code,
        "status": status,
    }


STARTED = {"type": "item.started", "item": _command("in_progress", "", None)}
COMPLETED = {"type": "item.completed", "item": _command("completed", "a.txt\n", 0)}


def _fresh(obj: Any) -> Any:
    return json.loads(json.dumps(obj))


def test_a_completed_call_whose_start_was_seen_is_its_result_alone() -> None:
    m = cx.decode(_fresh(COMPLETED), started={"item_1"})
    assert isinstance(m, ToolResultMessage)
    assert (m.tool_use_id, m.content, m.is_error, m.name) == (
        "item_1",
        "a.txt\n",
        False,
        "command_execution",
    )
    # the call's input stays in the skeleton, so the completed item is written back whole
    assert m.extra == {
        "type": "item.completed",
        "item": {
            "type": "command_execution",
            "command": "bash -lc ls",
            "exit_code": 0,
            "status": "completed",
        },
    }
    assert json_equal(cx.encode(m), COMPLETED)
    alone = cx.decode(_fresh(COMPLETED))  # no stream context: the call and its result
    assert isinstance(alone, AssistantMessage)
    assert [b.kind for b in alone.content] == ["tool_use", "tool_result"]


def test_a_completed_mcp_call_whose_start_was_seen_keeps_its_arguments_for_replay() -> None:
    line = _line("exec.jsonl", 10)
    m = cx.decode(_fresh(line), started={"item_4"})
    assert isinstance(m, ToolResultMessage)
    assert (m.name, m.content) == ("search", (TextBlock("Exit code 1: tests failed."),))
    assert m.extra["item"]["arguments"] == {"query": "pytest exit codes"}  # type: ignore[index]
    assert json_equal(cx.encode(m), line)
    app = _line("app_server.jsonl", 15)
    result = cx.decode(_fresh(app), started={"call_wc01"})
    assert isinstance(result, ToolResultMessage) and result.session_id == THREAD
    assert (result.content, result.is_error) == ("7 main.go\n", False)
    assert json_equal(cx.encode(result), app)


def test_a_seen_call_started_or_updated_again_is_a_stream_event() -> None:
    for tag in ("item.started", "item.updated"):
        line = {"type": tag, "item": _command("in_progress", "a", None)}
        first = cx.decode(_fresh(line))
        assert isinstance(first, ToolUseMessage) and first.id == "item_1"
        again = cx.decode(_fresh(line), started={"item_1"})
        assert isinstance(again, StreamEventMessage)
        assert again.message_id == "item_1" and again.event == line
        assert json_equal(cx.encode(again), line)


def test_a_call_seen_only_completed_is_not_announced_again() -> None:
    late = {"type": "item.updated", "item": _command("in_progress", "", None)}
    messages = list(cx.iter_decode([json.dumps(COMPLETED), json.dumps(late)]))
    assert [m.kind for m in messages] == ["assistant", "stream_event"]


def test_the_reader_pairs_calls_within_each_exec_run() -> None:
    run = [
        '{"type":"thread.started","thread_id":"t1"}',
        json.dumps(STARTED),
        json.dumps(COMPLETED),
    ]
    messages = list(cx.iter_decode(run + run))  # two runs: item ids start again
    flat = [m.kind for m in normalize_messages(messages) if m.kind.startswith("tool")]
    assert flat == ["tool_use", "tool_result", "tool_use", "tool_result"]
    assert [json.loads(x) for x in cx.iter_encode(messages)] == [json.loads(x) for x in run * 2]


def test_foreign_results_repeat_their_call_like_codex_does() -> None:
    stream = [
        ToolUseMessage("toolu_1", "Read", {"file_path": "a.txt"}),
        ToolResultMessage("toolu_1", "hello"),
        ToolUseMessage("c1", "command_execution", {"command": "ls"}),
        ToolResultMessage("c1", "a.txt\n", is_error=False),
    ]
    lines = [json.loads(x) for x in cx.iter_encode(stream)]
    assert lines[1]["item"]["tool"] == "Read"
    assert lines[1]["item"]["arguments"] == {"file_path": "a.txt"}
    assert lines[3]["item"] == {
        "id": "c1",
        "type": "command_execution",
        "command": "ls",
        "aggregated_output": "a.txt\n",
        "status": "completed",
    }
    back = list(normalize_messages(cx.iter_decode([json.dumps(x) for x in lines])))
    assert [(m.kind, getattr(m, "id", None) or getattr(m, "tool_use_id", None)) for m in back] == [
        ("tool_use", "toolu_1"),
        ("tool_result", "toolu_1"),
        ("tool_use", "c1"),
        ("tool_result", "c1"),
    ]


_KINDS = {
    "command_execution": {"command": "ls", "aggregated_output": "x\n", "exit_code": 0},
    "mcp_tool_call": {"server": "s", "tool": "t", "arguments": {"a": 1}, "error": None},
    "file_change": {"changes": [{"path": "a", "kind": "update"}]},
    "web_search": {"query": "q"},
}


@st.composite
def tool_item_streams(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Exec events of several tool items, each in lifecycle order, interleaved."""
    queues = []
    for n in range(draw(st.integers(1, 4))):
        tag = draw(st.sampled_from(sorted(_KINDS)))
        item = {"id": f"item_{n}", "type": tag, **_KINDS[tag]}
        events = ["item.started"] if draw(st.booleans()) else []
        events += ["item.updated"] * draw(st.integers(0, 2))
        if not events or draw(st.booleans()):
            events.append("item.completed")
        queues.append([{"type": e, "item": item} for e in events])
    out = []
    while queues:
        queue = queues[draw(st.integers(0, len(queues) - 1))]
        out.append(queue.pop(0))
        queues = [q for q in queues if q]
    return out


@given(tool_item_streams())
def test_every_tool_item_reads_as_one_call_and_at_most_one_result(events: Any) -> None:
    lines = [json.dumps(e) for e in events]
    messages = list(cx.iter_decode(lines, strict=True))
    assert [json.loads(x) for x in cx.iter_encode(messages)] == events
    uses: list[str] = []
    results: list[str] = []
    for m in normalize_messages(messages):
        if isinstance(m, ToolUseMessage):
            uses.append(m.id)
        elif isinstance(m, ToolResultMessage):
            assert m.tool_use_id in uses
            results.append(m.tool_use_id)
    ids = {e["item"]["id"] for e in events}
    completed = {e["item"]["id"] for e in events if e["type"] == "item.completed"}
    assert sorted(uses) == sorted(ids)
    assert sorted(results) == sorted(completed)


# -- errors ----------------------------------------------------------------------------------

ERRORS = [
    (
        {"type": "turn.completed", "usage": {"input_tokens": 1.5}},
        "$.usage.input_tokens: expected an integer, found a number",
    ),
    ({"type": "turn.completed", "usage": 3}, "$.usage: expected an object, found an integer"),
    (
        {"type": "item.completed", "item": {"id": "i", "type": "agent_message", "text": 3}},
        "$.item.text: expected a string, found an integer",
    ),
    (
        {
            "type": "item.completed",
            "item": {
                "id": 3,
                "type": "command_execution",
                "command": "ls",
                "aggregated_output": "",
            },
        },
        "$.item.id: expected a string, found an integer",
    ),
    (
        {
            "type": "item.completed",
            "item": {
                "id": "i",
                "type": "command_execution",
                "command": "ls",
                "aggregated_output": 5,
            },
        },
        "$.item.aggregated_output: expected a string, found an integer",
    ),
    (
        {
            "type": "item.completed",
            "item": {
                "id": "i",
                "type": "mcp_tool_call",
                "tool": "t",
                "arguments": {},
                "result": {"content": "x"},
            },
        },
        "$.item.result.content: expected an array of blocks, found a string",
    ),
    (
        {
            "type": "item.started",
            "item": {"id": "i", "type": "mcp_tool_call", "tool": 1, "arguments": {}},
        },
        "$.item.tool: expected a string, found an integer",
    ),
    (
        {"type": "turn.failed", "error": {"message": 4}},
        "$.error.message: expected a string, found an integer",
    ),
    (
        {"type": "thread.started", "thread_id": 4},
        "$.thread_id: expected a string, found an integer",
    ),
    (
        {"method": "item/completed", "params": {"item": {"type": "userMessage", "content": "x"}}},
        "$.params.item.content: expected an array of blocks, found a string",
    ),
    (
        {
            "method": "item/completed",
            "params": {"item": {"type": "userMessage", "content": [{"type": "text", "text": 1}]}},
        },
        "$.params.item.content[0].text: expected a string, found an integer",
    ),
    (
        {"method": "item/agentMessage/delta", "params": {"delta": "x", "itemId": 4}},
        "$.params.itemId: expected a string, found an integer",
    ),
    (
        {"method": "error", "params": {"error": {"message": "m"}, "willRetry": "yes"}},
        "$.params.willRetry: expected a boolean, found a string",
    ),
    (
        {
            "method": "item/completed",
            "params": {"item": {"type": "agentMessage", "text": "x"}, "threadId": 5},
        },
        "$.params.threadId: expected a string, found an integer",
    ),
]


@pytest.mark.parametrize(("obj", "message"), ERRORS)
def test_decode_errors(obj: Any, message: str) -> None:
    assert_decode_error(cx, obj, f"codex: {message}")


# -- encoding messages from elsewhere --------------------------------------------------------


def test_assistant_text_and_thinking_become_items() -> None:
    assert cx.encode(TextMessage("Hi", message_id="m1")) == {
        "type": "item.completed",
        "item": {"id": "m1", "type": "agent_message", "text": "Hi"},
    }
    assert cx.encode(ThinkingMessage("hmm", signature="sig", provider="anthropic")) == {
        "type": "item.completed",
        "item": {"type": "reasoning", "text": "hmm"},
    }


def test_tool_calls_and_results_become_items() -> None:
    assert cx.encode(ToolUseMessage("toolu_1", "Read", {"path": "a"})) == {
        "type": "item.started",
        "item": {
            "id": "toolu_1",
            "type": "mcp_tool_call",
            "server": "",
            "tool": "Read",
            "arguments": {"path": "a"},
            "result": None,
            "error": None,
            "status": "in_progress",
        },
    }
    assert cx.encode(ToolUseMessage("c", "command_execution", {"command": "ls"})) == {
        "type": "item.started",
        "item": {"id": "c", "type": "command_execution", "command": "ls", "status": "in_progress"},
    }
    out = cx.encode(ToolResultMessage("toolu_1", "boom", is_error=True, name="Read"))
    assert out == {
        "type": "item.completed",
        "item": {
            "id": "toolu_1",
            "type": "mcp_tool_call",
            "server": "",
            "tool": "Read",
            "arguments": {},
            "result": {"content": [{"type": "text", "text": "boom"}], "structured_content": None},
            "error": {"message": "boom"},
            "status": "failed",
        },
    }
    back = cx.decode(out)
    assert isinstance(back, AssistantMessage)
    assert back.tool_results[0].is_error is True and back.tool_results[0].text == "boom"


def test_session_messages_become_events() -> None:
    assert cx.encode(ResultMessage(is_error=True, result="x")) == {
        "type": "turn.failed",
        "error": {"message": "x"},
    }
    assert cx.encode(ResultMessage(usage=Usage(10, 5, 20, 3, cost_usd=0.1))) == {
        "type": "turn.completed",
        "usage": {"input_tokens": 33, "cached_input_tokens": 20, "output_tokens": 5},
    }
    assert cx.encode(ErrorMessage("bad", code="x")) == {"type": "error", "message": "bad"}
    assert cx.encode(InitMessage(session_id="t")) == {"type": "thread.started", "thread_id": "t"}
    assert cx.encode(InitMessage()) == {"type": "thread.started"}


def test_unsupported_content_policy() -> None:
    user = TextMessage("hello", role="user")
    with pytest.raises(UnsupportedContentError) as info:
        cx.encode(user)
    assert str(info.value) == (
        "codex: $: codex cannot carry user text messages (pass unsupported='drop' or 'text')"
    )
    assert cx.encode(user, unsupported="drop") is None
    assert cx.encode(user, unsupported="text") is None
    image = ImageMessage(data="iVBORw0KGgo=", media_type="image/png", role="assistant")
    with pytest.raises(UnsupportedContentError, match="assistant image"):
        cx.encode(image)
    assert cx.encode(image, unsupported="text") == {
        "type": "item.completed",
        "item": {"type": "agent_message", "text": "[image: image/png, 8 bytes]"},
    }
    for m in (
        SystemMessage("rules"),
        StreamEventMessage({"type": "ping"}),
        ThinkingMessage("", signature="x", redacted=True),
        RawMessage({"type": "server_tool_use"}, role="assistant"),
    ):
        with pytest.raises(UnsupportedContentError):
            cx.encode(m)
        assert cx.encode(m, unsupported="drop") is None


def test_role_messages_need_iter_encode_for_several_blocks() -> None:
    m = AssistantMessage((TextBlock("a"), ToolUseBlock("t", "Bash", {"command": "ls"})))
    with pytest.raises(EncodeError) as info:
        cx.encode(m)
    assert "has 2 blocks: use iter_encode" in str(info.value)
    lines = [json.loads(line) for line in cx.iter_encode([m])]
    assert [line["type"] for line in lines] == ["item.completed", "item.started"]
    assert cx.encode(AssistantMessage("just text"))["item"]["text"] == "just text"
    assert cx.encode(AssistantMessage(())) is None


def test_claude_stream_converts_to_codex_exec() -> None:
    claude = cc.iter_decode(
        (LOCAL_FIXTURES / "claude_code" / "stream.jsonl").read_text("utf-8").splitlines()
    )
    lines = [json.loads(line) for line in cx.iter_encode(claude, unsupported="drop")]
    types = {line.get("type") for line in lines}
    assert {
        "thread.started",
        "item.started",
        "item.completed",
        "turn.completed",
        "turn.failed",
    } <= types
    for line in lines:
        m = cx.decode(line)
        assert json_equal(cx.encode(m), line)


def test_codex_stream_converts_to_claude_code() -> None:
    codex = _decode_local("exec.jsonl") + _decode_local("app_server.jsonl")
    lines = [
        json.loads(line) for line in cc.iter_encode(normalize_messages(codex), unsupported="drop")
    ]
    assert lines
    for line in lines:
        m = cc.decode(line)
        assert json_equal(cc.encode(m), line)
    assert {line.get("type") for line in lines} >= {"assistant", "user", "result", "system"}


# -- detection -------------------------------------------------------------------------------


def test_detect_accepts_codex_lines() -> None:
    exec_lines = [obj for _, obj in wire_objects(LOCAL / "exec.jsonl")]
    assert all(cx.detect(obj) for obj in exec_lines)
    notifications = [
        obj
        for _, obj in wire_objects(LOCAL / "app_server.jsonl")
        if "method" in obj and "id" not in obj
    ]
    assert [obj["method"] for obj in notifications if not cx.detect(obj)] == ["initialized"]


# -- laws ------------------------------------------------------------------------------------

CARRIED = st.one_of(
    st.builds(TextMessage, st.text(), message_id=st.none() | st.text(min_size=1)),
    st.builds(ThinkingMessage, st.text(), message_id=st.none() | st.text(min_size=1)),
    st.builds(ToolUseMessage, st.text(min_size=1), st.text(), ms.json_objects()),
    st.builds(ErrorMessage, st.text()),
    st.builds(InitMessage, session_id=st.none() | st.text()),
    st.builds(ResultMessage, is_error=st.just(False), usage=st.none() | ms.usages()),
    st.builds(ResultMessage, is_error=st.just(True), result=st.text()),
)


def _usage_after_trip(usage: Usage | None) -> Usage | None:
    """Codex has no cache-write or cost field: cache writes fold into input tokens."""
    if usage is None:
        return None
    inp = usage.input_tokens
    if inp is not None and usage.cache_write_tokens is not None:
        inp += usage.cache_write_tokens
    return Usage(
        inp, usage.output_tokens, usage.cache_read_tokens, reasoning_tokens=usage.reasoning_tokens
    )


@given(CARRIED)
def test_decode_of_encode_keeps_what_codex_carries(m: Any) -> None:
    back = cx.decode(cx.encode(m))
    assert type(back) is type(m)
    match m:
        case TextMessage() | ThinkingMessage():
            assert (back.text if isinstance(m, TextMessage) else back.thinking) == (
                m.text if isinstance(m, TextMessage) else m.thinking
            )
            assert back.message_id == m.message_id
        case ToolUseMessage():
            assert (back.id, back.name, back.input) == (m.id, m.name, m.input)
        case ErrorMessage():
            assert back.message == m.message
        case InitMessage():
            assert back.session_id == m.session_id
        case ResultMessage():
            assert back.is_error == m.is_error
            if m.is_error:
                assert back.result == m.result
            else:
                assert back.usage == _usage_after_trip(m.usage)


@given(CARRIED)
def test_encode_is_stable_after_one_trip(m: Any) -> None:
    once = cx.encode(m)
    assert json_equal(cx.encode(cx.decode(once)), once)


@given(st.sampled_from(["exec.jsonl", "app_server.jsonl"]), st.data())
def test_decoding_mutated_real_lines_never_crashes(name: str, data: st.DataObject) -> None:
    lines = [obj for _, obj in wire_objects(LOCAL / name)]
    obj = data.draw(st.sampled_from(lines))
    value = data.draw(ms.json_values(max_leaves=3))
    path = data.draw(st.sampled_from(["item", "params", "usage", "error", "message"]))
    target = json.loads(json.dumps(obj))
    from messages import thaw

    if isinstance(target.get("params"), dict) and path != "params":
        target["params"][path] = thaw(value)
    else:
        target[path] = thaw(value)
    try:
        m = cx.decode(json.loads(json.dumps(target)))
    except DecodeError:
        return
    assert json_equal(cx.encode(m), target)


def test_a_type_or_item_type_that_is_not_a_string_stays_raw() -> None:
    from messages import RawMessage
    from messages.adapters import codex

    for line in ({"type": []}, {"type": "item.completed", "item": {"type": {"a": 1}, "id": "i"}}):
        message = codex.decode(line)
        assert isinstance(message, RawMessage)
        assert codex.encode(message) == line


@pytest.mark.parametrize(
    "line",
    [
        {"type": "turn.completed", "method": "m", "jsonrpc": "2.0", "usage": {"output_tokens": 2}},
        {"type": "thread.started", "thread_id": "t1", "method": "m"},
        {"type": "item.completed", "method": "m", "item": {"id": "i", "type": "agent_message"}},
    ],
)
def test_an_exec_event_with_a_method_key_is_written_back_whole(line: dict[str, Any]) -> None:
    # found by fuzzing: the decoder reads a line with a ``type`` as an exec event, but the
    # encoder took any ``method`` for an app-server message and lost "jsonrpc" and "method"
    message = cx.decode(json.loads(json.dumps(line)))
    assert json_equal(cx.encode(message), line)


def test_a_reasoning_item_without_text_is_kept_raw_and_written_back() -> None:
    # found by fuzzing: it came back with "text": "" added (an agent message without text
    # was already kept raw)
    line = {"type": "item.completed", "item": {"id": "item_0", "type": "reasoning"}}
    message = cx.decode(json.loads(json.dumps(line)))
    assert isinstance(message, RawMessage)
    assert cx.encode(message) == line

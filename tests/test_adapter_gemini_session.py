"""Gemini CLI saved sessions (``gemini_session``): mapping, documents, edits, the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import json_equal
from conftest import shared_fixtures
from messages import AssistantMessage
from messages import DecodeError
from messages import ErrorMessage
from messages import ImageBlock
from messages import InitMessage
from messages import InvalidLineMessage
from messages import RawMessage
from messages import SystemEventMessage
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingBlock
from messages import ToolResultBlock
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import UserMessage
from messages.adapters import detect
from messages.adapters import gemini_session as g
from messages.cli.io import default_folders
from support.adapter_files import local
from test_cli import run

REAL = ("gemini_cli_session", "session-2025-10-27T19-55-981c87cb.json")
LEGACY = "session-2025-11-04T09-00-3f9a1c2e.json"


def _read(name: str) -> list[Any]:
    return list(g.iter_decode(local("gemini_session", name).read_text("utf-8").splitlines()))


def test_a_legacy_document_reads_as_its_metadata_then_one_message_per_record() -> None:
    out = _read(LEGACY)
    assert [m.kind for m in out] == [
        "init",
        "user",
        "assistant",
        "assistant",
        "system_event",
        "user",
        "error",
        "system_event",
        "assistant",
        "raw",
        "assistant",
    ]
    head = out[0]
    assert isinstance(head, InitMessage)
    assert head.session_id == "3f9a1c2e-8b7d-4e6f-a5c4-2d1e0f9a8b7c"
    assert head.timestamp == "2025-11-04T09:00:00.000Z"
    assert head.extra["summary"] == "Fix a failing sum test"


def test_a_model_turn_holds_thoughts_text_and_each_call_with_its_result() -> None:
    first, second = [m for m in _read(LEGACY) if isinstance(m, AssistantMessage)][:2]
    thought, call, result = first.content
    assert isinstance(thought, ThinkingBlock) and thought.thinking.startswith("Run the build")
    assert thought.extra["subject"] == "Planning"
    assert isinstance(call, ToolUseBlock) and call.name == "run_shell_command"
    assert call.input["command"] == "make test" and call.extra["toolCall"]["status"] == "success"
    assert isinstance(result, ToolResultBlock) and result.tool_use_id == call.id
    assert result.content.startswith("Command: make test") and result.is_error is False
    assert first.model == "gemini-2.5-pro" and first.uuid == "m2"
    # a failed call's error text is its result; a cancelled call has no result at all
    text, failed, failure, cancelled = second.content
    assert isinstance(text, TextBlock) and text.text == "One test fails. Reading it."
    assert isinstance(failed, ToolUseBlock) and isinstance(failure, ToolResultBlock)
    assert failure.is_error is True and failure.content.startswith("File not found")
    assert isinstance(cancelled, ToolUseBlock)
    assert cancelled.extra["toolCall"]["status"] == "cancelled"


def test_tokens_count_the_cache_and_the_tool_prompt_the_gemini_way() -> None:
    turns = [m for m in _read(LEGACY) if isinstance(m, AssistantMessage)]
    first, second = turns[0].usage, turns[1].usage
    assert first is not None and second is not None
    # input 8120 holds the 6000 cached; thoughts 22 are output
    assert (first.input_tokens, first.cache_read_tokens) == (2120, 6000)
    assert (first.output_tokens, first.reasoning_tokens) == (57, 22)
    # the tool-use prompt (40) is input the model read: 8300 - 8000 + 40
    assert second.input_tokens == 340
    assert turns[2].usage is None  # "tokens": null


def test_other_records_are_typed_or_kept_whole() -> None:
    out = _read(LEGACY)
    info, error, warning, unknown = out[4], out[6], out[7], out[9]
    assert isinstance(info, SystemEventMessage) and info.subtype == "info"
    assert isinstance(error, ErrorMessage) and error.message.startswith("[API Error")
    assert isinstance(warning, SystemEventMessage) and warning.subtype == "warning"
    assert isinstance(unknown, RawMessage) and unknown.data["type"] == "compression_notice"
    image_turn = out[5]
    assert isinstance(image_turn, UserMessage)
    said, image = image_turn.content
    assert isinstance(said, TextBlock) and isinstance(image, ImageBlock)
    assert image.media_type == "image/png"
    assert image_turn.extra["displayContent"] == "Here is the failure output: [image]"
    last = out[10]
    assert isinstance(last, AssistantMessage) and last.text.startswith("Done:")


def test_the_json_lines_form_with_re_recorded_messages_and_edits() -> None:
    out = _read("session-7d0e.jsonl")
    assert [m.kind for m in out] == [
        "init",
        "user",
        "assistant",
        "assistant",
        "assistant",
        "system_event",
        "user",
        "system_event",
        "user",
        "invalid_line",
    ]
    assert [m.subtype for m in out if isinstance(m, SystemEventMessage)] == ["$set", "$rewindTo"]
    merged = list(g.merge(out))
    assert len(merged) == len(out) - 1  # the two records of n2 are one message: the last
    turn = merged[2]
    assert isinstance(turn, AssistantMessage) and turn.uuid == "n2"
    assert [b.kind for b in turn.content] == ["tool_use", "tool_result"]
    assert out[8].extra["newField"] is True  # an unknown field is kept
    bad = out[-1]
    assert isinstance(bad, InvalidLineMessage) and bad.line == 10  # the line being written


def test_the_prompt_log_and_checkpoints_read_typed() -> None:
    log = _read("logs.json")
    assert [(m.kind, m.session_id) for m in log] == [("user", log[0].session_id)] * 2
    assert log[1].text == "/chat save build-fix" and log[1].extra["messageId"] == 1
    saved = _read("checkpoint-build-fix.json")
    assert isinstance(saved[0], SystemEventMessage) and saved[0].subtype == "checkpoint"
    assert saved[0].data["authType"] == "oauth-personal"
    model = saved[2]
    assert isinstance(model, AssistantMessage)
    assert [b.kind for b in model.content] == ["thinking", "tool_use"]
    assert [b.kind for b in saved[3].content] == ["tool_result"]
    assert [m.kind for m in _read("checkpoint-old.json")] == ["user", "assistant"]


FILES = sorted(p.name for p in local("gemini_session").iterdir())


@pytest.mark.parametrize("name", FILES)
def test_each_file_is_written_back_json_equal(name: str) -> None:
    lines = local("gemini_session", name).read_text("utf-8").splitlines()
    back = list(g.iter_encode(g.iter_decode(lines)))
    if name.endswith(".json"):
        (one,) = back
        assert json_equal(json.loads(one), json.loads("\n".join(lines)))
    else:
        assert [json.loads(x) for x in back[:-1]] == [json.loads(x) for x in lines[:-1]]
        assert back[-1] == lines[-1]  # the record still being written, as it was


@pytest.mark.parametrize("name", FILES)
def test_the_command_converts_each_file_to_itself(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = local("gemini_session", name)
    code, out, err = run(
        capsys, "convert", "--from", "gemini_session", "--to", "gemini_session", str(path)
    )
    if name.endswith(".json"):
        assert (code, err) == (0, "")
        assert json_equal(json.loads(out), json.loads(path.read_text("utf-8")))
    else:
        assert code == 1 and "invalid JSON" in err  # the unfinished last line, reported
        got = out.splitlines()
        want = path.read_text("utf-8").splitlines()
        assert [json.loads(x) for x in got] == [json.loads(x) for x in want[:-1]]


def test_a_document_still_being_written_loses_nothing() -> None:
    text = local("gemini_session", LEGACY).read_text("utf-8")
    lines = text[: len(text) * 2 // 3].splitlines()
    (out,) = g.iter_decode(lines)  # one bad record, not one per line
    assert isinstance(out, InvalidLineMessage) and out.line == 1
    assert "cut off, or still being written" in out.reason
    back = "\n".join(g.iter_encode([out])).splitlines()
    assert [x.strip() for x in back] == [x.strip() for x in lines if x.strip()]
    with pytest.raises(DecodeError):
        list(g.iter_decode(lines, strict=True))


def test_the_real_capture_reads_typed_and_whole() -> None:
    path = shared_fixtures(*REAL)
    lines = path.read_text("utf-8").splitlines()
    out = list(g.iter_decode(lines))
    assert not [m for m in out if isinstance(m, (InvalidLineMessage, RawMessage))]
    assert detect(json.loads(path.read_text("utf-8"))) == "gemini_session"
    turns = [m for m in out if isinstance(m, AssistantMessage)]
    calls = [b for t in turns for b in t.content if isinstance(b, ToolUseBlock)]
    results = [b for t in turns for b in t.content if isinstance(b, ToolResultBlock)]
    assert len(calls) == len(results) == 13
    status = {c.id: c.extra["toolCall"]["status"] for c in calls}
    # a failed and a cancelled call: each answered with an "error" response
    failed = [status[r.tool_use_id] for r in results if r.is_error]
    assert failed == ["cancelled", "error"]
    assert all(status[r.tool_use_id] == "success" for r in results if not r.is_error)
    assert all(t.usage is not None for t in turns)
    (back,) = g.iter_encode(out)
    assert json_equal(json.loads(back), json.loads(path.read_text("utf-8")))


def test_messages_of_another_source_fold_results_into_the_calling_turn() -> None:
    stream = [
        TextMessage("List it.", role="user"),
        ToolUseMessage("c1", "ls", {"path": "."}),
        ToolResultMessage("c1", "a.py", is_error=False),
        TextMessage("One file.", role="assistant"),
    ]
    lines = [json.loads(x) for x in g.iter_encode(stream)]
    assert [x["type"] for x in lines] == ["user", "gemini", "gemini"]
    (call,) = lines[1]["toolCalls"]
    assert call["status"] == "success"
    assert call["result"][0]["functionResponse"]["response"] == {"output": "a.py"}
    assert all(g.detect(x) for x in lines)


def test_default_folder_follows_gemini_cli_home(tmp_path: Path) -> None:
    home, moved = tmp_path / "home", tmp_path / "elsewhere"
    (home / ".gemini" / "tmp").mkdir(parents=True)
    (moved / ".gemini" / "tmp").mkdir(parents=True)
    assert default_folders({"HOME": str(home)}) == [str(home / ".gemini" / "tmp")]
    env = {"HOME": str(home), "GEMINI_CLI_HOME": str(moved)}
    assert default_folders(env) == [str(moved / ".gemini" / "tmp")]


# -- the session hook -----------------------------------------------------------------------


def test_a_rewind_leaves_an_abandoned_branch_and_a_re_recorded_turn_counts_once() -> None:
    from messages.sessions import load
    from messages.text import text_of

    (s,) = load(local("gemini_session", "session-7d0e.jsonl"))
    assert (s.agent, s.id, s.title) == ("gemini_session", "7d0e", "README summary")
    assert [text_of(m) for m in s.messages if isinstance(m, UserMessage)] == [
        "Summarise README.md",
        "In French, please.",
    ]
    (branch,) = s.branches
    assert [text_of(m) for m in branch.messages] == ["No, in French."]
    assert s.usage.calls == 2  # n2, written twice, is one call


def test_the_hook_reads_session_files_only(tmp_path: Path) -> None:
    from messages.sessions import load

    chats = tmp_path / ".gemini" / "tmp" / "9e2b" / "chats"
    chats.mkdir(parents=True)
    for path in local("gemini_session").iterdir():
        where = chats if path.name.startswith("session-") else chats.parent
        (where / path.name).write_bytes(path.read_bytes())
    found = sorted(s.id for s in load(tmp_path / ".gemini" / "tmp"))
    assert found == ["3f9a1c2e-8b7d-4e6f-a5c4-2d1e0f9a8b7c", "7d0e"]
    from messages.adapters._sessions import hook

    assert hook("gemini_session").roots({"HOME": "/h", "GEMINI_CLI_HOME": "/g"}) == (
        "/g/.gemini/tmp",
    )


def test_stats_do_not_count_the_prompt_log_and_checkpoints_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chats = tmp_path / "9e2b" / "chats"
    chats.mkdir(parents=True)
    (chats / LEGACY).write_bytes(local("gemini_session", LEGACY).read_bytes())
    _, alone, _ = run(capsys, "stats", "--json", str(chats))
    for name in ("logs.json", "checkpoint-build-fix.json", "checkpoint-old.json"):
        (chats.parent / name).write_bytes(local("gemini_session", name).read_bytes())
    code, everything, err = run(capsys, "stats", "--json", str(tmp_path))
    assert (code, err) == (0, "")

    def figures(doc: str) -> list[dict[str, Any]]:
        return [
            {k: v for k, v in s.items() if k not in ("inputs", "project")}
            for s in json.loads(doc)["sessions"]
        ]

    assert figures(everything) == figures(alone)  # one session, its turns not doubled
    assert len(figures(alone)) == 1 and figures(alone)[0]["turns"] == 3


def test_a_call_result_without_a_response_is_written_back_as_it_came() -> None:
    # found by fuzzing (the Gemini part reader this adapter shares with Qwen Code): the
    # result came back with "response": {"output": ""} added
    call = {"id": "c1", "name": "read_file", "args": {}, "status": "success"}
    call["result"] = [{"functionResponse": {"id": "c1", "name": "read_file"}}]
    line = {"id": "n2", "timestamp": "t", "type": "gemini", "content": "", "toolCalls": [call]}
    message = g.decode(json.loads(json.dumps(line)))
    assert [b.kind for b in message.content] == ["tool_use", "tool_result"]  # type: ignore[union-attr]
    assert g.encode(message) == line


def test_a_call_with_a_result_but_no_status_is_written_back_without_one() -> None:
    # found by fuzzing: it came back with "status": "success" added
    reply = {"functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a.py"}}}
    call = {"id": "c1", "name": "ls", "args": {}, "result": [reply]}
    line = {"id": "n2", "timestamp": "t", "type": "gemini", "content": "", "toolCalls": [call]}
    message = g.decode(json.loads(json.dumps(line)))
    assert [b.kind for b in message.content] == ["tool_use", "tool_result"]  # type: ignore[union-attr]
    assert g.encode(message) == line
    with_status = {**line, "toolCalls": [{**call, "status": "error"}]}
    assert g.encode(g.decode(json.loads(json.dumps(with_status)))) == with_status

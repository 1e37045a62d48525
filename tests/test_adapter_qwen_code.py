"""Qwen Code chats (``qwen_code``): mapping, detection against Claude Code, the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import json_equal
from messages import AssistantMessage
from messages import ImageBlock
from messages import InvalidLineMessage
from messages import RawBlock
from messages import RawMessage
from messages import SystemEventMessage
from messages import TextBlock
from messages import ThinkingBlock
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UserMessage
from messages.adapters import claude_code
from messages.adapters import detect
from messages.adapters import qwen_code as q
from messages.cli.io import default_folders
from support.adapter_files import local
from test_cli import run


def _read(name: str) -> list[Any]:
    return list(q.iter_decode(local("qwen_code", name).read_text("utf-8").splitlines()))


def test_a_chat_reads_as_typed_turns() -> None:
    out = _read("chat-session.jsonl")
    assert [m.kind for m in out] == [
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
        "system_event",
        "system_event",
        "system_event",
        "user",
        "assistant",
    ]
    assert {m.session_id for m in out} == {"5b7c2f0e-1d2a-4c1e-9f3e-7a1b2c3d4e5f"}
    assert out[1].extra["parentUuid"] == "a1" and out[1].extra["version"] == "0.0.14"
    thought, text, call = out[1].content
    assert isinstance(thought, ThinkingBlock) and thought.thinking.startswith("The user")
    assert isinstance(text, TextBlock) and text.text == "I'll list the folder."
    assert isinstance(call, ToolUseBlock) and call.id == "call_ls_1"
    assert call.input == {"path": "/home/dev/shop/src"}
    (ok,) = out[2].content
    assert isinstance(out[2], ToolMessage) and isinstance(ok, ToolResultBlock)
    assert (ok.tool_use_id, ok.name, ok.is_error) == ("call_ls_1", "list_directory", False)
    assert out[2].extra["toolCallResult"]["status"] == "success"
    (failed,) = out[4].content
    assert isinstance(failed, ToolResultBlock) and failed.is_error is True
    assert failed.content.startswith("File not found")
    said, image = out[9].content
    assert isinstance(said, TextBlock) and said.text.startswith("What does")
    assert isinstance(image, ImageBlock) and image.media_type == "image/png"


def test_usage_metadata_counts_the_cache_once() -> None:
    first = _read("chat-session.jsonl")[1]
    assert isinstance(first, AssistantMessage) and first.usage is not None
    u = first.usage
    # promptTokenCount 12040 holds the 11000 cached; thoughts 9 are output
    assert (u.input_tokens, u.cache_read_tokens, u.output_tokens, u.reasoning_tokens) == (
        1040,
        11000,
        50,
        9,
    )
    assert u.extra == {"totalTokenCount": 12090}
    assert first.model == "qwen3-coder-plus"


def test_system_records_keep_their_payload() -> None:
    events = [m for m in _read("chat-session.jsonl") if isinstance(m, SystemEventMessage)]
    assert [e.subtype for e in events] == ["ui_telemetry", "slash_command", "chat_compression"]
    assert events[1].data == {"phase": "invocation", "rawCommand": "/compress"}


def test_edges_unknown_parts_types_fields_and_a_line_being_written() -> None:
    out = _read("edges.jsonl")
    assert [m.kind for m in out] == [
        "user",
        "assistant",
        "system_event",
        "raw",
        "assistant",
        "invalid_line",
    ]
    assert out[0].extra["futureField"] == {"x": 1}
    call, code = out[1].content
    assert isinstance(call, ToolUseBlock) and isinstance(code, RawBlock)  # no result: fine
    assert isinstance(out[3], RawMessage) and out[3].data["type"] == "summary_v2"
    (text,) = out[4].content
    assert isinstance(text, TextBlock) and text.extra == {"thoughtSignature": "c2ln"}
    assert out[4].usage is not None and out[4].usage.extra == {
        "totalTokenCount": 307,
        "trafficType": "ON_DEMAND",
    }
    assert isinstance(out[5], InvalidLineMessage) and out[5].line == 6


@pytest.mark.parametrize("name", ["chat-session.jsonl", "edges.jsonl"])
def test_every_line_is_written_back(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = local("qwen_code", name)
    lines = path.read_text("utf-8").splitlines()
    back = list(q.iter_encode(q.iter_decode(lines)))
    assert len(back) == len(lines)
    for a, b in zip(back, lines, strict=True):
        try:
            want = json.loads(b)
        except ValueError:
            assert a == b  # the line still being written, as it was
            continue
        assert json_equal(json.loads(a), want)
    code, out, _ = run(capsys, "convert", "--from", "qwen_code", "--to", "qwen_code", str(path))
    good = [json.loads(x) for x in lines if x.endswith("}")]
    assert [json.loads(x) for x in out.splitlines()] == good
    assert code == (0 if name == "chat-session.jsonl" else 1)


def test_no_qwen_line_is_claude_codes_and_detection_finds_qwen() -> None:
    for name in ("chat-session.jsonl", "edges.jsonl"):
        for line in local("qwen_code", name).read_text("utf-8").splitlines():
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            assert not claude_code.detect(obj), line
            assert detect(obj) == "qwen_code", line


def test_a_qwen_chat_is_no_longer_read_as_claude_code(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The issue's finding: such a file read as Claude Code gave a session with 0 turns."""
    path = local("qwen_code", "chat-session.jsonl")
    code, out, err = run(capsys, "stats", "--json", str(path))
    # Qwen models are not in the price table: the one warning says so, nothing else
    assert code == 0
    assert err == (
        "messages: stats: no estimated cost for the usage of qwen3-coder-plus: no price in the"
        " genai-prices table (shown as -)\n"
    )
    (session,) = json.loads(out)["sessions"]
    assert session["formats"] == ["qwen_code"]
    assert session["turns"] == 4 and session["tool_calls"] == {"list_directory": 1, "read_file": 1}
    assert session["tool_errors"] == 1


def test_messages_of_another_source_become_qwen_records() -> None:
    lines = [json.loads(x) for x in q.iter_encode([UserMessage("hi", uuid="u", session_id="s")])]
    assert lines == [
        {
            "uuid": "u",
            "sessionId": "s",
            "type": "user",
            "message": {"role": "user", "parts": [{"text": "hi"}]},
        }
    ]
    assert q.detect(lines[0]) and not claude_code.detect(lines[0])


def test_default_folders_follow_qwen_home(tmp_path: Path) -> None:
    home, moved = tmp_path / "home", tmp_path / "qwen"
    (home / ".qwen" / "projects").mkdir(parents=True)
    (moved / "projects").mkdir(parents=True)
    (moved / "tmp").mkdir()
    assert default_folders({"HOME": str(home)}) == [str(home / ".qwen" / "projects")]
    env = {"HOME": str(home), "QWEN_HOME": str(moved)}
    assert default_folders(env) == [str(moved / "projects"), str(moved / "tmp")]


# -- the session hook -----------------------------------------------------------------------


def test_a_qwen_chat_is_one_session_linked_by_parent_uuid(tmp_path: Path) -> None:
    from messages.sessions import load

    chats = tmp_path / "projects" / "-home-dev-shop" / "chats"
    chats.mkdir(parents=True)
    for path in local("qwen_code").glob("*.jsonl"):
        (chats / path.name).write_bytes(path.read_bytes())
    sessions = {s.id: s for s in load(tmp_path / "projects")}
    main = sessions["5b7c2f0e-1d2a-4c1e-9f3e-7a1b2c3d4e5f"]
    assert (main.agent, main.project) == ("qwen_code", "-home-dev-shop")
    assert main.title == "Which files are in src? Then read main.py."
    assert main.turns == 2 and not main.branches
    assert main.usage.calls == 4
    edges = sessions["6c1d"]
    assert edges.turns == 1 and not edges.branches  # an unknown record keeps its place


def test_the_headless_stream_is_claude_codes_shape_and_read_by_it() -> None:
    """``qwen -p ... --output-format stream-json`` (its documented example): Claude Code's."""
    lines = local("claude_code", "qwen-headless-stream.jsonl").read_text("utf-8").splitlines()
    assert [detect(json.loads(x)) for x in lines] == ["claude_code"] * 3
    out = list(claude_code.iter_decode(lines))
    assert [m.kind for m in out] == ["system_event", "assistant", "result"]
    assert out[1].text == "The capital of France is Paris." and out[1].model == "qwen3-coder-plus"
    assert [json.loads(x) for x in claude_code.iter_encode(out)] == [json.loads(x) for x in lines]


def test_a_system_record_the_encoder_would_refuse_is_kept_whole() -> None:
    # found by fuzzing: an unknown subtype without a version decoded as a SystemEventMessage
    # that the encoder then refused ("Qwen Code chats have no record for a system_event")
    record = {"uuid": "a8", "sessionId": "s", "type": "system", "subtype": "new_kind"}
    message = q.decode(json.loads(json.dumps(record)))
    assert isinstance(message, RawMessage)
    assert q.encode(message) == record
    own = {**record, "version": "0.0.14", "systemPayload": {"n": 1}}  # Qwen Code's: typed
    assert isinstance(q.decode(own), SystemEventMessage)
    assert q.encode(q.decode(json.loads(json.dumps(own)))) == own


def test_a_function_response_without_a_response_is_kept_whole() -> None:
    # found by fuzzing (the Gemini part reader Qwen Code and Gemini CLI sessions share): it
    # came back with "response": {"output": ""} added
    record = {
        "uuid": "a5",
        "sessionId": "s",
        "type": "tool_result",
        "version": "0.0.14",
        "message": {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "ls"}}]},
    }
    message = q.decode(json.loads(json.dumps(record)))
    assert isinstance(message, ToolMessage)
    assert message.content == (RawBlock({"functionResponse": {"id": "c1", "name": "ls"}}),)
    assert q.encode(message) == record

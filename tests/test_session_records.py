"""Session-file records (issue 24, part 1): every transcript and rollout record typed.

Claude Code ``progress``, ``file-history-snapshot``, ``summary`` and ``queue-operation``
lines; Codex ``turn_context`` lines, turn boundaries, tool reports, ``context_compacted``,
rate-limit-only token counts, ``web_search_call`` and compaction items. Each kind: its
fields, the exact round trip, the native round trip; the edges (unknown subtypes, missing
and ill-typed fields kept in ``extra``); and the real captures, of which at most 2% of lines
may stay raw.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import LOCAL_FIXTURES
from conftest import json_equal
from conftest import shared_fixtures
from messages import AssistantMessage
from messages import CompactBoundaryMessage
from messages import DecodeError
from messages import FileSnapshotMessage
from messages import Message
from messages import ProgressMessage
from messages import QueueOperationMessage
from messages import RateLimitMessage
from messages import RawMessage
from messages import ServerToolResultBlock
from messages import ServerToolUseBlock
from messages import SystemEventMessage
from messages import TitleMessage
from messages import TurnContextMessage
from messages import TurnEventMessage
from messages import UnsupportedContentError
from messages import strategies as ms
from messages.adapters import claude_code as cc
from messages.adapters import codex as cx
from messages.adapters.claude_code import decoder as cd
from messages.adapters.claude_code import records as cr
from messages.convert import normalize_messages
from messages.serialize import from_dict
from messages.serialize import to_dict
from messages.text import summarize
from messages.text import transcript

CLAUDE = LOCAL_FIXTURES / "claude_code" / "records.jsonl"
EDGES = LOCAL_FIXTURES / "claude_code" / "records-edges.jsonl"
CODEX = LOCAL_FIXTURES / "codex" / "records.jsonl"


def _decoded(path: Path, adapter: Any) -> tuple[list[str], list[Message]]:
    lines = path.read_text("utf-8").splitlines()
    return lines, list(adapter.iter_decode(lines))


def _assert_round_trips(lines: list[str], messages: list[Message], adapter: Any) -> None:
    assert len(lines) == len(messages)
    for number, (line, message) in enumerate(zip(lines, messages, strict=True), 1):
        assert json_equal(adapter.encode(message), json.loads(line)), f"line {number}"
        assert from_dict(to_dict(message)) == message, f"line {number}"


# -- Claude Code ------------------------------------------------------------------------------


def test_claude_records_decode_to_their_kinds() -> None:
    _, messages = _decoded(CLAUDE, cc)
    assert [type(m).__name__ for m in messages] == [
        *["ProgressMessage"] * 5,
        "FileSnapshotMessage",
        "TitleMessage",
        "QueueOperationMessage",
        "QueueOperationMessage",
    ]


def test_claude_records_round_trip_exactly_and_natively() -> None:
    _assert_round_trips(*_decoded(CLAUDE, cc), cc)


def test_hook_and_bash_progress_fields() -> None:
    _, messages = _decoded(CLAUDE, cc)
    hook, bash = messages[0], messages[1]
    assert isinstance(hook, ProgressMessage) and isinstance(bash, ProgressMessage)
    assert hook.subtype == "hook_progress" and hook.data is not None
    assert hook.data["hookEvent"] == "PostToolUse" and "type" not in hook.data
    assert hook.tool_use_id == "toolu_01RecordsBash" == hook.progress_id
    assert hook.session_id == "5e550000-0000-4000-8000-0000000000aa"
    assert hook.uuid == "c1000000-0000-4000-8000-000000000002"
    assert hook.timestamp == "2026-02-01T10:00:01.000Z"
    assert hook.extra["parentUuid"] == "c1000000-0000-4000-8000-000000000001"
    assert bash.subtype == "bash_progress" and bash.data is not None
    assert bash.data["elapsedTimeSeconds"] == 3
    assert (bash.tool_use_id, bash.progress_id) == ("toolu_01RecordsBash", "bash-progress-0")
    assert bash.message is None


def test_agent_progress_carries_the_sub_agents_turn() -> None:
    _, messages = _decoded(CLAUDE, cc)
    agent = messages[2]
    assert isinstance(agent, ProgressMessage) and agent.subtype == "agent_progress"
    assert agent.tool_use_id == "toolu_01RecordsTask"
    assert agent.agent_id == "a5b6c7d"
    assert agent.prompt == "Find where the config is loaded."
    turn = agent.message
    assert isinstance(turn, AssistantMessage)
    assert turn.text == "The config lives in app/settings.py."
    assert turn.message_id == "msg_01RecordsSub" and turn.model == "claude-haiku-4-5-20251001"
    assert turn.uuid == "d2000000-0000-4000-8000-000000000001"
    assert agent.data is not None and "message" not in agent.data  # moved, not copied
    assert "The config lives" in summarize(agent, None)


def test_waiting_and_an_unknown_progress_type_keep_their_data() -> None:
    _, messages = _decoded(CLAUDE, cc)
    waiting, future = messages[3], messages[4]
    assert isinstance(waiting, ProgressMessage) and waiting.data is not None
    assert waiting.subtype == "waiting_for_task"
    assert waiting.data["taskDescription"] == "Run the test suite"
    assert isinstance(future, ProgressMessage) and future.data is not None
    assert future.subtype == "mcp_progress" and dict(future.data) == {
        "server": "docs",
        "progress": 0.5,
    }


def test_snapshot_title_and_queue_fields() -> None:
    _, messages = _decoded(CLAUDE, cc)
    snapshot, title, queued, taken = messages[5:]
    assert isinstance(snapshot, FileSnapshotMessage)
    assert snapshot.message_uuid == "c1000000-0000-4000-8000-000000000001"
    assert snapshot.is_update is False and snapshot.tracked_files == ("app/settings.py",)
    assert isinstance(title, TitleMessage)
    assert title.title == "Locate the settings loader"
    assert title.leaf_uuid == "c1000000-0000-4000-8000-000000000006"
    assert isinstance(queued, QueueOperationMessage) and isinstance(taken, QueueOperationMessage)
    assert (queued.operation, queued.content) == ("enqueue", "and add a test for it")
    assert (taken.operation, taken.content) == ("dequeue", None)
    assert taken.session_id == "5e550000-0000-4000-8000-0000000000aa"


def test_claude_edges_keep_what_they_cannot_type_in_extra() -> None:
    lines, messages = _decoded(EDGES, cc)
    _assert_round_trips(lines, messages, cc)
    bare, not_object, odd_type, bad_turn, other_line = messages[:5]
    assert isinstance(bare, ProgressMessage) and (bare.subtype, bare.data) == (None, None)
    assert isinstance(not_object, ProgressMessage) and not_object.data is None
    assert not_object.extra["data"] == "not an object" and not_object.extra["toolUseID"] == 7
    assert not_object.progress_id is None and not_object.tool_use_id is None
    assert isinstance(odd_type, ProgressMessage) and odd_type.subtype is None
    assert odd_type.data is not None and odd_type.data["type"] == 42
    # a sub-agent line that does not decode (ill-typed content) or is no turn stays in data
    assert isinstance(bad_turn, ProgressMessage) and bad_turn.message is None
    assert bad_turn.data is not None and bad_turn.data["message"]["message"]["content"] == 7
    assert isinstance(other_line, ProgressMessage) and other_line.message is None
    assert other_line.data is not None and "message" in other_line.data
    snapshot, title, empty, queue = messages[5:]
    assert isinstance(snapshot, FileSnapshotMessage)
    assert (snapshot.message_uuid, snapshot.snapshot, snapshot.is_update) == (None, None, None)
    assert snapshot.extra["isSnapshotUpdate"] == "no"
    assert isinstance(title, TitleMessage) and title.title is None
    assert title.extra["summary"] == {"text": "not a string"}
    assert isinstance(empty, TitleMessage) and empty.title is None and empty.leaf_uuid is None
    assert isinstance(queue, QueueOperationMessage) and queue.operation is None
    assert queue.extra["content"] == ("a", "b")  # frozen: a JSON array reads as a tuple


def test_records_are_quiet_in_a_transcript_but_a_title_shows() -> None:
    _, messages = _decoded(CLAUDE, cc)
    quiet = transcript(messages)
    assert "Locate the settings loader" in quiet and "bash_progress" not in quiet
    loud = transcript(messages, include_events=True)
    assert "Progress (bash_progress" in loud and "The config lives in app/settings.py." in loud
    assert "File snapshot (files 1)" in loud and "and add a test for it" in loud


def test_normalize_passes_records_through() -> None:
    _, messages = _decoded(CLAUDE, cc)
    assert list(normalize_messages(messages)) == messages


# -- Codex ------------------------------------------------------------------------------------


def test_codex_records_decode_to_their_kinds() -> None:
    _, messages = _decoded(CODEX, cx)
    assert [type(m).__name__ for m in messages] == [
        "InitMessage",
        "TurnEventMessage",
        "TurnContextMessage",
        "RateLimitMessage",
        "ToolUseMessage",
        "ProgressMessage",
        "ToolResultMessage",
        "ProgressMessage",
        "AssistantMessage",
        "ProgressMessage",
        "TurnEventMessage",
        "CompactBoundaryMessage",
        "CompactBoundaryMessage",
        "TurnEventMessage",
        "TurnContextMessage",
        "ProgressMessage",
        "AssistantMessage",
        "RawMessage",  # an event this library does not know stays raw
        "FileSnapshotMessage",
        "TitleMessage",
        "SystemEventMessage",
        "ProgressMessage",
    ]


def test_codex_records_are_written_back_byte_for_byte() -> None:
    lines, messages = _decoded(CODEX, cx)
    _assert_round_trips(lines, messages, cx)
    assert list(cx.iter_encode(messages)) == lines


def test_turn_context_and_turn_events() -> None:
    _, messages = _decoded(CODEX, cx)
    started, context, done, aborted = messages[1], messages[2], messages[10], messages[13]
    assert isinstance(context, TurnContextMessage)
    assert context.turn_id == "019c0000-0000-7000-8000-0000000000b1"
    assert (context.cwd, context.approval_policy, context.effort, context.model) == (
        "/home/dev/app",
        "on-request",
        "high",
        "gpt-5.3-codex",
    )
    assert context.sandbox_policy == {"type": "workspace-write", "network_access": False}
    assert context.extra["payload"]["personality"] == "pragmatic"
    assert isinstance(started, TurnEventMessage) and not started.is_end
    assert started.context_window == 258400 and started.turn_id == context.turn_id
    assert isinstance(done, TurnEventMessage) and done.is_end
    assert done.last_message == "All 12 tests pass." and done.model == "gpt-5.3-codex"
    assert isinstance(aborted, TurnEventMessage) and aborted.is_end
    assert aborted.reason == "interrupted"


def test_tool_reports_link_to_their_call() -> None:
    _, messages = _decoded(CODEX, cx)
    call, run, patch, search = messages[4], messages[5], messages[7], messages[9]
    assert isinstance(run, ProgressMessage) and run.data is not None
    assert run.subtype == "exec_command_end" and run.tool_use_id == call.id  # type: ignore[union-attr]
    assert run.data["exit_code"] == 0 and run.data["stdout"] == "12 passed"
    assert isinstance(patch, ProgressMessage) and patch.data is not None
    assert patch.subtype == "patch_apply_end" and patch.data["success"] is True
    assert isinstance(search, ProgressMessage) and search.tool_use_id == "ws_Records3"


def test_web_search_items_are_server_tool_calls_with_their_result() -> None:
    _, messages = _decoded(CODEX, cx)
    search, with_id = messages[8], messages[16]
    assert isinstance(search, AssistantMessage) and not isinstance(search.content, str)
    use, result = search.content
    assert isinstance(use, ServerToolUseBlock) and isinstance(result, ServerToolResultBlock)
    assert (use.name, use.id, use.provider) == ("web_search", "", "openai")
    assert use.input["action"]["query"] == "pytest 9 changelog"
    assert result.content == {"status": "completed"}
    assert isinstance(with_id, AssistantMessage) and not isinstance(with_id.content, str)
    assert with_id.content[0].id == "ws_Records4"  # type: ignore[union-attr]
    kinds = [m.kind for m in normalize_messages([search])]
    assert kinds == ["server_tool_use", "server_tool_result"]


def test_compaction_item_boundary_and_rate_limits() -> None:
    _, messages = _decoded(CODEX, cx)
    limits, item, boundary = messages[3], messages[11], messages[12]
    assert isinstance(limits, RateLimitMessage) and limits.info is not None
    assert limits.info["limit_id"] == "codex"
    assert isinstance(item, CompactBoundaryMessage) and item.metadata is not None
    assert item.metadata["encrypted_content"] == "gAAAAABpRecordsCompaction"
    assert isinstance(boundary, CompactBoundaryMessage) and boundary.metadata is None


def test_codex_edges_keep_ill_typed_fields_in_the_skeleton() -> None:
    _, messages = _decoded(CODEX, cx)
    context, report = messages[14], messages[15]
    assert isinstance(context, TurnContextMessage)
    assert context.turn_id is None and context.effort is None and context.cwd == "/home/dev/app"
    assert context.extra["payload"] == {"turn_id": 7, "effort": ["high"]}
    assert isinstance(report, ProgressMessage) and report.tool_use_id is None
    assert report.extra["payload"]["call_id"] == 12 and report.data == {"exit_code": 1}


def test_ghost_snapshot_thread_name_and_other_harness_events() -> None:
    _, messages = _decoded(CODEX, cx)
    ghost, name, rolled_back, image = messages[18:]
    assert isinstance(ghost, FileSnapshotMessage) and ghost.snapshot is not None
    assert ghost.snapshot["id"] == "4f1c2d0a9b" and ghost.tracked_files == ()
    assert isinstance(name, TitleMessage) and name.title == "Fix the flaky stock test"
    assert name.session_id == "019c0000-0000-7000-8000-0000000000aa"
    assert isinstance(rolled_back, SystemEventMessage)
    assert (rolled_back.subtype, dict(rolled_back.data)) == ("thread_rolled_back", {"num_turns": 1})
    assert isinstance(image, ProgressMessage) and image.tool_use_id == "ig_Records5"


# -- laws ---------------------------------------------------------------------------------------


@given(ms.session_records())
def test_every_record_round_trips_natively(message: Message) -> None:
    assert from_dict(to_dict(message)) == message
    assert hash(from_dict(to_dict(message))) == hash(message)


@given(ms.session_records())
def test_claude_code_writes_its_records_back(message: Message) -> None:
    if isinstance(message, TurnContextMessage | TurnEventMessage) or cr.unlinked(message):
        # no Claude Code line for them: a turn record, a title without its leaf, a snapshot
        # without the record it belongs to (unless decoded from Claude Code)
        with pytest.raises(UnsupportedContentError):
            cc.encode(message)
        assert cc.encode(message, unsupported="drop") is None
        return
    line = cc.encode(message)
    again = cc.decode(json.loads(json.dumps(line)))
    assert type(again) is type(message)
    assert cc.encode(again) == line


# -- the real captures ------------------------------------------------------------------------

_REAL = [
    (
        "claude_code",
        "transcripts-2.1",
        "-home-marco-spotter",
        "8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl",
    ),
    (
        "claude_code",
        "transcripts-2.1",
        "-home-marco-spotter",
        "8463c716-a2ea-4c14-9efa-87158ebd9f20",
        "subagents",
        "agent-a7be2f0.jsonl",
    ),
    (
        "claude_code",
        "transcripts-2.1",
        "-home-marco-spotter",
        "8463c716-a2ea-4c14-9efa-87158ebd9f20",
        "subagents",
        "agent-acompact-f46190.jsonl",
    ),
    ("codex_rollout", "rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl"),
]


@pytest.mark.parametrize("parts", _REAL, ids=lambda parts: parts[-1][:24])
def test_real_captures_are_typed_and_round_trip(parts: tuple[str, ...]) -> None:
    path = shared_fixtures(*parts)
    adapter = cc if parts[0] == "claude_code" else cx
    lines, messages = _decoded(path, adapter)
    _assert_round_trips(lines, messages, adapter)
    raw = sum(isinstance(m, RawMessage) for m in messages)
    assert raw <= 0.02 * len(lines), f"{raw} of {len(lines)} lines raw"


def test_the_real_transcript_links_sub_agent_reports_to_their_task() -> None:
    path = shared_fixtures(*_REAL[0])
    _, messages = _decoded(path, cc)
    reports = [m for m in messages if isinstance(m, ProgressMessage)]
    agents = [m for m in reports if m.subtype == "agent_progress"]
    assert agents and all(m.message is not None and m.agent_id for m in agents)
    assert {m.agent_id for m in agents} >= {"a7be2f0"}
    assert all(m.tool_use_id is not None for m in agents)
    kinds = {m.subtype for m in reports}
    assert {"hook_progress", "bash_progress", "waiting_for_task"} <= kinds


# -- the progress fast path -------------------------------------------------------------------

_PROGRESS = {
    "parentUuid": "c1",
    "isSidechain": False,
    "sessionId": "s-1",
    "type": "progress",
    "data": {"type": "bash_progress", "output": "", "elapsedTimeSeconds": 2},
    "toolUseID": "bash-progress-0",
    "parentToolUseID": "toolu_1",
    "uuid": "u-1",
    "timestamp": "2026-02-01T10:00:00.000Z",
}
_VARIANTS = st.sampled_from(
    [
        ("uuid", None),
        ("uuid", 3),
        ("timestamp", 1769940000),
        ("sessionId", None),
        ("parentToolUseID", None),
        ("toolUseID", ["x"]),
        ("session_id", "s-2"),
        ("parent_tool_use_id", "toolu_9"),
        ("data", {"output": "no type"}),
        ("data", {"type": 5}),
        ("data", None),
        ("extraKey", {"a": 1}),
    ]
)


@given(st.lists(_VARIANTS, max_size=3))
def test_the_progress_fast_path_gives_what_the_general_path_gives(
    changes: list[tuple[str, Any]],
) -> None:
    line = json.loads(json.dumps(_PROGRESS))
    for key, value in changes:
        line[key] = value
    if "sessionId" in line and "session_id" in line:
        return  # both spellings: the whole line stays raw, before any record path
    general: Message | DecodeError
    try:
        rest, context = cd._split(json.loads(json.dumps(line)))
        general = cr.decode_progress(rest, context, cc.decode)
    except DecodeError as exc:  # the general path raises for an ill-typed context field
        general = exc
    for owned in (False, True):
        copy = json.loads(json.dumps(line))
        fast = cr.decode_usual_progress(copy, owned)
        if fast is not None:
            assert not isinstance(general, DecodeError)
            assert fast == general
            assert json_equal(cc.encode(fast), line)
    # and whichever path it takes, both entry points agree
    if isinstance(general, DecodeError):
        with pytest.raises(DecodeError):
            cc.decode(json.loads(json.dumps(line)))
    else:
        assert cc.decode(json.loads(json.dumps(line))) == general
        assert cd.decode_owned(json.loads(json.dumps(line))) == general

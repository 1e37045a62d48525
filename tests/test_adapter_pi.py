"""What is specific to the pi adapter (the shared contract is in tests/contract)."""

from __future__ import annotations

import json
from collections import Counter

from conftest import LOCAL_FIXTURES
from conftest import shared_fixtures
from messages import AssistantMessage
from messages import ImageBlock
from messages import InitMessage
from messages import InvalidLineMessage
from messages import RawMessage
from messages import SystemEventMessage
from messages import ThinkingBlock
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import Usage
from messages import UserMessage
from messages.adapters import detect
from messages.adapters import pi
from messages.stats import Stats

FOLDER = LOCAL_FIXTURES / "pi"


def _read(name: str) -> list[object]:
    return list(pi.iter_decode((FOLDER / name).read_text("utf-8").splitlines()))


def test_the_newer_generation_reads_every_entry_kind() -> None:
    got = _read("session-v3.jsonl")
    init = got[0]
    assert isinstance(init, InitMessage) and init.cwd == "/home/dev/app"
    assert init.extra["version"] == 3 and "parentSession" in init.extra
    events = [m.subtype for m in got if isinstance(m, SystemEventMessage)]
    assert events == [
        "model_change",
        "thinking_level_change",
        "label",
        "custom",
        "bashExecution",
        "session_info",
    ]
    user = got[3]
    assert isinstance(user, UserMessage) and user.uuid == "a1000003"
    assert isinstance(user.content[1], ImageBlock) and user.content[1].media_type == "image/png"
    turn = got[4]
    assert isinstance(turn, AssistantMessage) and turn.extra["parentId"] == "a1000003"
    thinking, _, call, _ = turn.content
    assert isinstance(thinking, ThinkingBlock) and thinking.signature == "EqQBCkYIBxgCKkB0c2ln"
    assert isinstance(call, ToolUseBlock) and call.input == {"command": "grep -rl login src"}
    assert turn.usage is not None and turn.usage.cost_usd == 0.007275
    assert turn.usage.extra["totalTokens"] == 4685
    result = got[5]
    assert isinstance(result, ToolMessage)
    (block,) = result.content
    assert isinstance(block, ToolResultBlock) and block.is_error is False and block.name == "bash"
    summaries = [m.summary for m in got if isinstance(m, UserMessage) and m.summary]
    assert summaries == ["compaction", "branch"]
    failed = [m for m in got if isinstance(m, AssistantMessage) and m.error]
    assert [m.error for m in failed] == ["429 rate limited"]
    redacted = got[14]
    assert isinstance(redacted, AssistantMessage)
    assert isinstance(redacted.content[0], ThinkingBlock) and redacted.content[0].redacted
    raw = [m for m in got if isinstance(m, RawMessage)]
    assert [m.data["type"] for m in raw] == ["future_entry", "message"]  # unknown kind, role


def test_the_older_generation_reads_without_ids() -> None:
    got = _read("session-v1.jsonl")
    assert all(m.uuid is None for m in got if not isinstance(m, InitMessage))
    assert isinstance(got[1], UserMessage) and got[1].content == "list the files"
    compaction = got[5]
    assert isinstance(compaction, UserMessage) and compaction.summary == "compaction"
    assert compaction.extra["firstKeptEntryIndex"] == 3


def test_a_file_still_being_written_reads_up_to_its_last_whole_line() -> None:
    got = _read("being-written.jsonl")
    assert [type(m).__name__ for m in got] == [
        "InitMessage",
        "UserMessage",
        "AssistantMessage",
        "InvalidLineMessage",
    ]
    bad = got[-1]
    assert isinstance(bad, InvalidLineMessage) and bad.line == 4
    calls = [b for b in got[2].content if isinstance(b, ToolUseBlock)]  # type: ignore[union-attr]
    assert [c.id for c in calls] == ["toolu_t"]  # a call whose result never came


def test_every_line_of_the_shared_capture_is_typed_and_claimed_by_pi() -> None:
    path = shared_fixtures("pi", "before-compaction.jsonl")
    lines = path.read_text("utf-8").splitlines()
    got = list(pi.iter_decode(lines))
    assert len(got) == len(lines) == 1003
    assert not [m for m in got if isinstance(m, (RawMessage, InvalidLineMessage))]
    assert {detect(json.loads(line)) for line in lines} == {"pi"}
    header = got[0]
    assert isinstance(header, InitMessage) and str(header.extra["branchedFrom"]).endswith(".jsonl")
    kinds = Counter(type(m).__name__ for m in got)
    assert kinds["AssistantMessage"] == 484 and kinds["ToolMessage"] == 448


def test_stats_of_the_shared_capture() -> None:
    path = shared_fixtures("pi", "before-compaction.jsonl")
    (session,) = Stats.of_file(str(path)).sessions()
    assert session.session_id == "ffae836b-9420-4060-ac13-7745215f90ff"
    assert session.compactions == 2
    assert session.tool_calls == {"bash": 206, "edit": 125, "read": 107, "write": 16}
    assert session.tokens.cost is not None and round(session.tokens.cost, 4) == 42.5959


def test_a_turn_from_elsewhere_becomes_message_entries() -> None:
    turn = UserMessage(
        (ToolResultBlock("t1", "ok", name="bash"), ToolResultBlock("t2", "no", is_error=True)),
        timestamp="2026-01-01T00:00:00Z",
    )
    lines = [json.loads(line) for line in pi.iter_encode([turn])]
    assert [line["message"]["role"] for line in lines] == ["toolResult", "toolResult"]
    assert lines[1]["message"]["isError"] is True
    assert lines[0]["message"]["content"] == [{"type": "text", "text": "ok"}]
    call = pi.encode(ToolUseMessage("t1", "bash", {"command": "ls"}))
    assert call["message"]["content"] == [
        {"type": "toolCall", "id": "t1", "name": "bash", "arguments": {"command": "ls"}}
    ]


def test_the_session_hook_links_the_tree_and_marks_the_fork_copies() -> None:
    from messages.sessions import load

    (session,) = load([str(FOLDER / "session-v3.jsonl")])
    assert session.agent == "pi" and session.id == "0b7f7c3e-2f4a-4c1b-9d7e-1a2b3c4d5e6f"
    assert session.title == "login form"  # the session_info entry's name
    assert session.parent == "5a6b7c8d-0000-4000-8000-000000000001"
    assert len(session.compactions) == 1
    # the branch summary's parent is a4: the entries after a4 (a5...a10) are another branch
    assert [m.uuid for m in session.messages][:3] == ["a1000003", "a1000004", "a1000011"]
    assert session.branches and session.usage.calls == 3  # a failed call reports zeros


def test_a_forked_old_session_counts_only_its_own_calls() -> None:
    from messages.sessions import load

    path = shared_fixtures("pi", "before-compaction.jsonl")
    (session,) = load([str(path)])
    assert session.parent == "d97339c6-6c10-4827-846b-9ff1d9c3dc37"
    assert len(session.compactions) == 2
    # every entry but the last was written before the fork's header: copied from the session
    # it was forked from, whose calls they are; that session's file is not loaded here, so
    # they count in this one (where both are loaded, they count once, in the first: the
    # sessions tests check that rule)
    assert session.usage.copied == Usage()
    own = session.usage.own.cost_usd
    assert session.usage.calls == 484
    assert own is not None and round(own, 4) == 42.5959

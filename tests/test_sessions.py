"""messages.sessions: sessions assembled from their files, by each agent's rules (issue 24)."""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from pathlib import Path

import pytest

from conftest import shared_fixtures
from messages import AssistantMessage
from messages import CompactBoundaryMessage
from messages import Usage
from messages import UserMessage
from messages.adapters._sessions import LinearHook
from messages.adapters._sessions import SessionFile
from messages.adapters._sessions import hook
from messages.sessions import Session
from messages.sessions import find
from messages.sessions import load
from messages.sessions import roots
from messages.stats import Stats
from messages.text import text_of

HERE = Path(__file__).parent / "fixtures" / "sessions"


def one(path: Path | str) -> Session:
    found = list(load(path))
    assert len(found) == 1, [s.id for s in found]
    return found[0]


def texts(session: Session) -> list[str]:
    return [m.text for m in session.messages if isinstance(m, UserMessage | AssistantMessage)]


# -- Claude Code -----------------------------------------------------------------------------


def test_the_active_branch_after_a_rewind_is_the_newest_one() -> None:
    s = one(HERE / "claude_rewind")
    assert texts(s) == ["Name a colour", "Blue.", "Name a fruit instead", "Pear."]
    assert [(b.fork, [text_of(m) for m in b.messages], b.leaf) for b in s.branches] == [
        ("u2", ["Name a fruit", "Apple."], "u4")
    ]
    assert len(s.records) == 6
    assert s.turns == 2  # the abandoned prompt is not a turn
    assert s.usage.calls == 3  # the abandoned reply was still a call


def test_subagents_are_attached_under_the_call_that_started_them() -> None:
    s = one(HERE / "claude_subagents")
    assert list(s.subagents) == ["toolu_task", "acompact-0f1e2d"]
    sub = s.subagents["toolu_task"]
    assert (sub.agent, sub.id, sub.agent_id) == ("claude_code", "a1b2c3d", "a1b2c3d")
    assert texts(sub) == ["Count the lines", "", "", "3 lines"]
    assert sub.files[0].endswith("s2/subagents/agent-a1b2c3d.jsonl")
    assert s.usage.by_subagent["toolu_task"] == Usage(20, 12)
    assert s.usage.own == Usage(40, 15)
    assert s.usage.total == Usage(70, 38)
    assert s.usage.calls == 7


def test_a_compaction_summary_stays_in_place_and_its_writer_is_attached() -> None:
    s = one(HERE / "claude_subagents")
    kinds = [type(m).__name__ for m in s.messages]
    at = kinds.index("CompactBoundaryMessage")
    summary = s.messages[at + 1]
    assert isinstance(summary, UserMessage) and summary.summary == "compaction"
    assert texts(s)[-2:] == ["Thanks, now stop", "Stopped."]
    (compaction,) = s.compactions
    assert isinstance(compaction.boundary, CompactBoundaryMessage)
    assert compaction.summary is summary
    assert compaction.replaces == "u8"
    assert compaction.agent is s.subagents["acompact-0f1e2d"]
    # the history before the boundary is still on the path (through logicalParentUuid)
    assert texts(s)[0] == "Read both files, then ask a helper"


def test_a_parallel_tool_call_is_one_response_not_a_branch() -> None:
    s = one(HERE / "claude_subagents")
    assert s.branches == ()
    results = [
        b.tool_use_id
        for m in s.messages
        if isinstance(m, UserMessage) and not isinstance(m.content, str)
        for b in m.content
        if hasattr(b, "tool_use_id")
    ]
    assert results == ["toolu_b", "toolu_a", "toolu_task"]
    # the two lines of one response count as one call, with its final counts
    assert s.usage.by_model["claude-sonnet-4-5"].output_tokens == 38


def test_a_summary_line_titles_the_session() -> None:
    assert one(HERE / "claude_subagents").title == "Reading files with a helper"
    assert one(HERE / "claude_rewind").title == "Name a colour"


def test_a_resumed_copy_is_counted_once() -> None:
    first, resumed = load(HERE / "claude_resume")
    assert (first.id, resumed.id) == ("s3a", "s3b")
    assert resumed.parent == "s3a" and first.parent is None
    assert texts(resumed) == ["Start a list", "1.", "Go on", "2.", "And one more", "3."]
    assert resumed.usage.copied == first.usage.own
    assert resumed.usage.own == Usage(10, 5)
    assert first.usage.total + resumed.usage.total == Usage(30, 12)


def test_old_root_level_agent_files_join_their_session() -> None:
    s = one(HERE / "claude_old_agents")
    assert list(s.subagents) == ["0badc0de"]
    assert texts(s.subagents["0badc0de"]) == ["Say hi", "hi"]
    assert s.usage.own == Usage(20, 4)
    assert s.usage.total == Usage(20, 4) + Usage(10, 1)


def test_the_shared_2_1_session() -> None:
    folder = shared_fixtures("claude_code", "transcripts-2.1")
    s = one(folder)
    main = next(folder.rglob("8463c716-*.jsonl"))
    lines = [json.loads(line) for line in main.read_text().splitlines()]
    assert len(s.records) == len(lines) == 1593
    # 8 records fork into two conversation records: each is a parallel tool call
    kids = Counter(
        o["parentUuid"] for o in lines if o.get("type") in ("user", "assistant") and o["parentUuid"]
    )
    assert sum(1 for n in kids.values() if n > 1) == 8
    assert s.branches == ()
    conversation = sum(1 for o in lines if o.get("type") in ("user", "assistant"))
    assert len(s.messages) == conversation + 1  # every one of them, and the boundary
    (compaction,) = s.compactions
    assert compaction.boundary is not None
    at = s.messages.index(compaction.boundary)
    assert s.messages[at + 1] is compaction.summary
    assert compaction.agent is not None and compaction.agent.id == "acompact-f46190"
    sub = s.subagents["toolu_017SvvKc8KLbhGMG3tXkf21Z"]
    assert sub.agent_id == "a7be2f0" and len(sub.records) == 131
    assert s.turns == 2 and s.project == "-home-marco-spotter"
    stats = Stats.merge_all(Stats.of_file(str(p)) for p in sorted(folder.rglob("*.jsonl")))
    tokens = stats.report(by="session", cost="logged").total.tokens
    assert (s.usage.total.input_tokens, s.usage.total.output_tokens) == (
        tokens.input,
        tokens.output,
    )
    assert s.usage.total.cache_read_tokens == tokens.cache_read


# -- Codex ------------------------------------------------------------------------------------


def test_a_codex_fork_is_counted_once() -> None:
    parent, fork = load(HERE / "codex_fork")
    assert fork.parent == parent.id
    assert texts(fork) == ["Say one", "One.", "Now say two", "Two."]
    assert fork.usage.copied.output_tokens == parent.usage.own.output_tokens == 5
    assert fork.usage.own.output_tokens == 4
    assert (parent.usage.total + fork.usage.total).output_tokens == 9


def test_a_codex_subagent_rollout_joins_its_parent_thread() -> None:
    s = one(HERE / "codex_subagent")
    (key,) = s.subagents
    sub = s.subagents[key]
    assert sub.agent_id == key == "0199bbbb-0000-7000-8000-000000000002"
    assert sub.parent == s.id
    assert texts(sub) == ["Check the tests", "Tests pass."]
    assert s.usage.by_subagent[key].output_tokens == 2
    assert s.usage.total.output_tokens == 3 + 2


def test_the_shared_codex_rollout() -> None:
    folder = shared_fixtures("codex_rollout")
    s = one(folder)
    assert s.agent == "codex" and len(s.records) == 2722
    assert len(s.compactions) == 1 and s.compactions[0].summary is not None
    assert s.turns == 38  # the user_message echoes
    stats = Stats.merge_all(Stats.of_file(str(p)) for p in folder.glob("*.jsonl"))
    tokens = stats.report(by="session", cost="logged").total.tokens
    assert s.usage.total.output_tokens == tokens.output
    assert s.usage.total.input_tokens == tokens.input


# -- finding sessions -----------------------------------------------------------------------


def _in_order(part: list[str], whole: list[str]) -> bool:
    """Whether every item of ``part`` is in ``whole``, in the same order."""
    rest = iter(whole)
    return all(any(x == y for y in rest) for x in part)


def test_roots_follow_each_agents_own_variables(tmp_path: Path) -> None:
    env = {
        "HOME": str(tmp_path),
        "CLAUDE_CONFIG_DIR": "/a, /b",
        "CODEX_HOME": "/c",
        "GEMINI_CLI_HOME": "/gem",
        "QWEN_HOME": "/q",
        "OPENCODE_DATA_DIR": "/d,/e",
        "AMP_DATA_DIR": "/f",
        "GOOSE_PATH_ROOT": "/g",
        "DROID_SESSIONS_DIR": "/h",
        "KIMI_DATA_DIR": "/i",
        "KILO_DATA_DIR": "/j",
    }
    found = roots(env, existing=False)
    assert found[:3] == ["/a/projects", "/b/projects", "/c/sessions"]
    assert _in_order(["/gem/.gemini/tmp", "/q/projects", "/q/tmp"], found)
    assert _in_order(
        ["/d", "/e", "/f/threads", "/g/data/sessions", "/h", "/i/sessions", "/j"], found
    )
    assert _in_order(
        [
            str(tmp_path / ".copilot" / "session-state"),
            str(tmp_path / ".copilot" / "history-session-state"),
        ],
        found,
    )
    share = tmp_path / ".local" / "share"
    home = roots({"HOME": str(tmp_path)}, existing=False)
    assert home[:2] == [
        str(tmp_path / ".claude" / "projects"),
        str(tmp_path / ".codex" / "sessions"),
    ]
    assert _in_order(
        [
            str(tmp_path / ".gemini" / "tmp"),
            str(tmp_path / ".qwen" / "projects"),
            str(tmp_path / ".qwen" / "tmp"),
            str(tmp_path / ".pi" / "agent" / "sessions"),
        ],
        home,
    )
    assert _in_order(
        [
            str(share / "opencode"),
            str(share / "amp" / "threads"),
            str(share / "goose" / "sessions"),
            str(tmp_path / "Library" / "Application Support" / "goose" / "sessions"),
            str(share / "Block" / "goose" / "sessions"),
            str(tmp_path / ".factory" / "sessions"),
            str(tmp_path / ".kimi" / "sessions"),
            str(share / "kilo"),
        ],
        home,
    )
    xdg = roots(
        {"HOME": str(tmp_path), "XDG_DATA_HOME": "/x", "XDG_CONFIG_HOME": "/y"}, existing=False
    )
    assert _in_order(["/x/opencode", "/x/amp/threads"], xdg)
    assert roots({"HOME": str(tmp_path)}) == []


def test_find_reads_the_default_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(HERE / "claude_rewind", tmp_path / ".claude" / "projects")
    shutil.copytree(HERE / "codex_fork", tmp_path / ".codex" / "sessions")
    monkeypatch.setenv("HOME", str(tmp_path))
    found = list(find({"HOME": str(tmp_path)}))
    assert [(s.agent, s.id) for s in found] == [
        ("claude_code", "s1"),
        ("codex", "0199aaaa-0000-7000-8000-000000000001"),
        ("codex", "0199aaaa-0000-7000-8000-000000000002"),
    ]


def test_other_formats_are_linear_sessions(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    lines = [
        {"v": 1, "kind": "user", "content": "hi"},
        {"v": 1, "kind": "assistant", "content": "hello", "usage": {"input_tokens": 3}},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    s = one(path)
    assert (s.agent, s.id) == ("native", "chat")
    assert texts(s) == ["hi", "hello"]
    assert s.usage.total == Usage(3)
    assert isinstance(hook("native"), LinearHook)
    assert hook("claude_code").name == "claude_code"


def test_a_file_no_agent_claims_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "notes.json").write_text('{"hello": "world"}\n')
    assert list(load(tmp_path)) == []


def test_locate_tells_a_subagent_file() -> None:
    claude = hook("claude_code")
    path = os.path.join("p", "s9", "subagents", "agent-acompact-1.jsonl")
    assert claude.locate(path, []) == SessionFile(
        path, "s9", role="subagent", agent_id="acompact-1", project="p", compaction=True
    )


def test_a_summary_line_for_another_sessions_leaf_is_not_our_title(tmp_path: Path) -> None:
    lines = (HERE / "claude_rewind" / "-tmp-p" / "s1.jsonl").read_text()
    other = {"type": "summary", "summary": "Someone else's work", "leafUuid": "elsewhere"}
    ours = {"type": "summary", "summary": "Fruit and colours", "leafUuid": "u6"}
    (tmp_path / "s1.jsonl").write_text(lines + json.dumps(other) + "\n")
    assert one(tmp_path).title == "Name a colour"
    (tmp_path / "s1.jsonl").write_text(lines + json.dumps(ours) + "\n" + json.dumps(other) + "\n")
    assert one(tmp_path).title == "Fruit and colours"


def test_a_claude_code_stream_is_one_chain_even_with_placeholder_uuids(tmp_path: Path) -> None:
    """stream-json names no parent, and recorders may write one placeholder ``uuid`` on every
    line: each role line then follows the one before, and none hides another."""
    path = shared_fixtures("claude_code", "caic-read-edit-bash.jsonl")
    lines = path.read_text(encoding="utf-8").splitlines()
    roles = sum(1 for line in lines if '"type":"assistant"' in line or '"type":"user"' in line)
    (session,) = load([str(path)])
    assert len(session.messages) == roles == 12
    assert session.branches == ()
    placeholder = tmp_path / "run.jsonl"
    user = {"type": "user", "uuid": "test-uuid", "session_id": "s"}
    turns = [
        {**user, "message": {"role": "user", "content": "one"}},
        {
            **user,
            "type": "assistant",
            "message": {
                "role": "assistant",
                "id": "m1",
                "content": [{"type": "text", "text": "two"}],
            },
        },
        {**user, "message": {"role": "user", "content": "three"}},
    ]
    placeholder.write_text("".join(json.dumps(t) + "\n" for t in turns))
    (session,) = load([str(placeholder)])
    assert [text_of(m) for m in session.messages] == ["one", "two", "three"]


# Files whose sessions count tokens differently from `messages stats`, and why:
# - cli/stats-claude.jsonl mixes stream-json runs of several sessions whose results restate
#   running totals per process; stats keeps the last result of each input, sessions the most
#   complete one per file;
# - cline/*.jsonl hold a whole task's documents in one file: the Cline hook takes usage from
#   a task folder's UI log, which such a file does not stand for;
# - goose/rows.jsonl and kilo/rows.jsonl are dumps of a database's rows: the hooks read
#   sessions from the database itself (sessions.db, kilo.db), not from a dump of it.
_USAGE_DIFFERS = {"stats-claude.jsonl", "task-documents.jsonl", "written-partly.jsonl"}
_DUMPS = {("goose", "rows.jsonl"), ("kilo", "rows.jsonl")}
_LOGS = sorted(
    p
    for p in (Path(__file__).parent / "fixtures").glob("*/*.jsonl")
    if p.parent.name not in ("sessions", "history", "ccusage")
)


@pytest.mark.parametrize("path", _LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_session_usage_equals_what_stats_counts(path: Path) -> None:
    """Each agent's hook counts a session's API calls the way ``messages stats`` does."""
    if path.name in _USAGE_DIFFERS or (path.parent.name, path.name) in _DUMPS:
        pytest.skip("counted differently on purpose: see _USAGE_DIFFERS")
    found = list(load([str(path)]))
    rows = Stats.of_file(str(path)).report("session").rows
    stats = (sum(r.tokens.input or 0 for r in rows), sum(r.tokens.output or 0 for r in rows))
    ours = (
        sum(s.usage.total.input_tokens or 0 for s in found),
        sum(s.usage.total.output_tokens or 0 for s in found),
    )
    assert ours == stats


def test_a_count_not_reported_ranks_below_any_reported_one() -> None:
    """Of two records of one call, the one that reports a figure wins over one that does
    not, whatever the figure (a negative count included), as ``stats`` ranks them."""
    from messages.sessions._load import _rank
    from messages.stats._engine import Entry
    from messages.stats._engine import Tokens

    for value in (-1, 0, 5):
        assert _rank(Usage(output_tokens=value)) > _rank(Usage())
        assert Entry(Tokens(output=value)).rank() > Entry(Tokens()).rank()
    assert _rank(Usage(1, 5, 3, 4)) > _rank(Usage(1, 5, 3)) > _rank(Usage(1, 5))


@pytest.mark.parametrize("folder", sorted(p.name for p in HERE.iterdir() if p.is_dir()))
def test_the_calls_listed_for_pricing_are_the_calls_the_total_counts(folder: str) -> None:
    """``usage.per_call`` lists each call the total counts (subagents' included, copies
    counted where they came from left out), with the usage its log reports, extras kept."""

    def check(s: Session) -> None:
        assert len(s.usage.per_call) == s.usage.calls
        assert Usage.sum(u for _, u in s.usage.per_call) == s.usage.total
        by_model: dict[str, Usage] = {}
        for model, u in s.usage.per_call:
            by_model[model] = by_model.get(model, Usage()) + u
        assert by_model == dict(s.usage.by_model)
        for sub in s.subagents.values():
            check(sub)

    found = list(load(HERE / folder))
    assert found
    for s in found:
        check(s)

"""The HTML view of real ``messages.sessions`` Sessions, and the commands that write it.

Every agent format the library reads, through ``sessions.load``: the project's fixtures
(rewinds, subagents, compaction, resumes, Codex forks, and the same conversation as each agent
writes it) and the shared real captures. Each page is checked against its Session: every tool
call drawn once, each subagent folded under its call, each branch, each compaction.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import LOCAL_FIXTURES
from tests.conftest import shared_fixtures
from tests.support.pages import Node
from tests.support.pages import parse
from tests.test_view import check_safe

from messages import CompactBoundaryMessage
from messages import Message
from messages import ServerToolUseBlock
from messages import ServerToolUseMessage
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import sessions
from messages.cli import main
from messages.roles import as_blocks
from messages.text import html as view


def _calls(messages: tuple[Message, ...]) -> int:
    count = 0
    for m in messages:
        if isinstance(m, ToolUseMessage | ServerToolUseMessage):
            count += 1
        content = getattr(m, "content", None)
        if isinstance(content, tuple) and m.kind != "tool_result":
            count += sum(
                isinstance(b, ToolUseBlock | ServerToolUseBlock) for b in as_blocks(content)
            )
    return count


def _walk(session: Any) -> Iterator[Any]:
    yield session
    for sub in session.subagents.values():
        yield from _walk(sub)


def _expect(session: Any) -> dict[str, int]:
    everyone = list(_walk(session))
    return {
        "calls": sum(
            _calls(s.messages) + sum(_calls(b.messages) for b in s.branches) for s in everyone
        ),
        "subagents": len(everyone) - 1,
        "branches": sum(len(s.branches) for s in everyone),
        "compactions": sum(
            isinstance(m, CompactBoundaryMessage) for s in everyone for m in s.messages
        ),
    }


def _drawn(root: Node) -> dict[str, int]:
    return {
        "calls": len(root.find("div", "call")),
        "subagents": len(root.find("details", "subagent")),
        "branches": len(root.find("div", "branch")),
        "compactions": len(root.find("div", "compact")),
    }


def _check(session: Any) -> Node:
    page = view.session_page(session)
    root = parse(page)
    check_safe(root)
    assert _drawn(root) == _expect(session)
    assert len(page.encode()) < 3_000_000
    header = {
        dt.all_text(): dd.all_text()
        for dt, dd in zip(root.find("dt"), root.find("dd"), strict=True)
    }
    assert header["Agent"] == session.agent and header["Session"] == session.id
    for result in root.find("details", "result"):  # a result sits under its call, if logged
        calls = [a for a in result.ancestors() if "call" in a.classes()]
        assert calls or not any("call" in n.classes() for n in result.ancestors())
    return root


LOCAL = sorted(
    (s.agent, s.id, folder)
    for folder in ("sessions", "same_conversation")
    for s in sessions.load(str(LOCAL_FIXTURES / folder))
)


@pytest.mark.parametrize(("agent", "sid", "folder"), LOCAL, ids=[f"{a}-{i}" for a, i, _ in LOCAL])
def test_a_page_for_each_session_of_the_fixtures(agent: str, sid: str, folder: str) -> None:
    (session,) = [s for s in sessions.load(str(LOCAL_FIXTURES / folder)) if s.id == sid]
    root = _check(session)
    assert root.find("section", "turn")


def test_the_rewind_fixture_shows_its_branch_at_the_fork() -> None:
    (session,) = sessions.load(str(LOCAL_FIXTURES / "sessions" / "claude_rewind"))
    root = _check(session)
    (branch,) = root.find("div", "branch")
    assert "Name a fruit" in branch.all_text() and "Apple." in branch.all_text()
    kept = [
        t
        for t in root.find("section", "turn")
        if t.find("pre", "prompt") and not any("branch" in a.classes() for a in t.ancestors())
    ]
    prompts = [t.find("pre", "prompt")[0].all_text() for t in kept]
    assert prompts == ["Name a colour", "Name a fruit instead"]


SHARED = [
    "claude_code/transcripts-2.1",
    "codex_rollout",
    "codex_exec",
    "codex_app_server",
    "gemini_cli/gemicord-log.jsonl",
    "acp",
    "claude_code/caic-read-edit-bash.jsonl",
]


@pytest.mark.parametrize("name", SHARED)
def test_a_page_for_each_shared_capture_session(name: str) -> None:
    found = list(sessions.load(str(shared_fixtures(*name.split("/")))))
    assert found
    for session in found:
        _check(session)


def test_the_shared_claude_session_shows_subagent_compaction_agent_and_turn_usage() -> None:
    folder = shared_fixtures("claude_code", "transcripts-2.1")
    (session,) = sessions.load(str(folder))
    root = _check(session)
    kinds = [
        d.find("summary")[0].all_text().split(" · ")[0] for d in root.find("details", "subagent")
    ]
    assert sorted(kinds) == ["Compaction agent", "Subagent"]
    task = [
        d for d in root.find("details", "subagent") if "Subagent" in d.find("summary")[0].all_text()
    ]
    assert (
        next(a for a in task[0].ancestors() if "call" in a.classes())
        .find("span", "name")[0]
        .all_text()
        == "Task"
    )
    heads = [
        t.find("span", "usage")
        for t in root.find("section", "turn")
        if t.attrs["data-role"] == "assistant"
    ]
    assert all(heads)  # every response shows its usage


def test_codex_turns_get_the_token_counts_logged_after_them() -> None:
    (session,) = sessions.load(str(shared_fixtures("codex_rollout")))
    root = _check(session)
    answered = [t for t in root.find("section", "turn") if t.attrs["data-role"] == "assistant"]
    with_usage = [t for t in answered if t.find("span", "usage")]
    assert len(with_usage) >= session.usage.calls * 0.8  # a count per call, on its response
    assert "286 responses" in root.find("dl", "facts")[0].all_text()


def test_show_and_sessions_write_html(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    where = str(LOCAL_FIXTURES / "sessions")
    page = tmp_path / "one.html"
    assert main(["show", "s2", where, "--format", "html", "-o", str(page)]) == 0
    root = parse(page.read_text(encoding="utf-8"))
    check_safe(root)
    assert root.find("details", "subagent")
    assert main(["show", "s2", where, "--format", "html", "--subagents", "none"]) == 0
    printed = parse(capsys.readouterr().out)
    assert printed.find("details", "subagent") == [] and printed.find("section", "turn")
    site = tmp_path / "site"
    assert main(["sessions", where, "--format", "html", "-o", str(site)]) == 0
    assert capsys.readouterr().out.strip() == str(site / "index.html")
    index = parse((site / "index.html").read_text(encoding="utf-8"))
    links = [a.attrs["href"] for a in index.find("tbody")[0].find("a")]
    assert len(links) == len(list(sessions.load(where)))
    assert all((site / link).is_file() for link in links)
    assert main(["sessions", where, "--format", "html"]) == 2
    assert "give -o DIR" in capsys.readouterr().err

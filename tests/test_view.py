"""The HTML view: page structure for every agent format, escaping, Markdown, tools, sizes.

The browser checks (scripts, folding, search, the console) are in test_view_browser.py.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.conftest import LOCAL_FIXTURES
from tests.conftest import shared_fixtures
from tests.support.pages import FileSession
from tests.support.pages import Node
from tests.support.pages import parse
from tests.support.pages import read_session

from messages import AssistantMessage
from messages import CompactBoundaryMessage
from messages import ImageBlock
from messages import Message
from messages import ProgressMessage
from messages import RawMessage
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingBlock
from messages import ThinkingMessage
from messages import ToolResultBlock
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import Usage
from messages import UserMessage
from messages import strategies
from messages.roles import as_blocks
from messages.text import _markup
from messages.text import html as view
from messages.text import transcript
from messages.text._assets import PAGE_SCRIPT
from messages.text._assets import STYLE

PNG = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201e221bc330000000049454e44ae426082"
    )
).decode()
"""A 1x1 PNG."""

PAYLOADS = (
    "<script>window.__pwned=1</script>",
    '<img src=x onerror="window.__pwned=2">',
    '"><svg onload="window.__pwned=3">',
    "</pre></details><iframe src=javascript:window.__pwned=4></iframe>",
)


def hostile_session() -> FileSession:
    """Script and event-handler payloads in every place a log puts text."""
    bad = " ".join(PAYLOADS)
    messages: list[Message] = [
        UserMessage(f"Please look at {bad} \x1b[31mred\x1b[0m"),
        AssistantMessage(
            (
                TextBlock(f"# Title {bad}\n\n[click](javascript:window.__pwned=5) ![i](x.png)"),
                ThinkingBlock(f"thinking {bad}"),
                ToolUseBlock("t1", f"Bash{PAYLOADS[1]}", {"command": f"echo {bad}"}),
                ToolUseBlock(
                    "t2",
                    "Edit",
                    {"file_path": f"/tmp/{PAYLOADS[2]}.py", "old_string": bad, "new_string": "x"},
                ),
                ToolUseBlock("t3", "Read", {"file_path": PAYLOADS[3], bad: bad}),
            ),
            model=f"model {PAYLOADS[0]}",
            timestamp=PAYLOADS[1],
        ),
        UserMessage(
            (
                ToolResultBlock("t1", f"out {bad}", is_error=True),
                ToolResultBlock("t2", (TextBlock(bad), ImageBlock(data=PNG, media_type=bad))),
                ToolResultBlock("t3", (ImageBlock(url=f"javascript:{bad}"),)),
            )
        ),
        UserMessage(
            (ImageBlock(data=f'{PNG}" onerror="window.__pwned=6', media_type="image/png"),)
        ),
        UserMessage((ImageBlock(data=PNG, media_type='image/png" onerror="window.__pwned=7'),)),
        UserMessage((ImageBlock(data=PNG, media_type="image/svg+xml"),)),
    ]
    return FileSession("claude_code", f"id {PAYLOADS[0]}", messages, title=f"title {bad}")


ALLOWED_TAGS = {
    "#document", "html", "head", "meta", "title", "style", "body", "div", "header", "h1", "dl",
    "dt", "dd", "time", "nav", "input", "button", "span", "label", "main", "section", "a", "pre",
    "details", "summary", "figure", "img", "script", "p", "em", "strong", "code", "ul", "ol",
    "li", "blockquote", "h2", "h3", "h4", "h5", "h6", "hr", "br", "table", "thead", "tbody",
    "tr", "th", "td",
}  # fmt: skip
"""Every element the view writes (Markdown's included): a log cannot add another."""


def check_safe(root: Node) -> None:
    """No element, attribute or URL in a page that the view did not write itself."""
    scripts = root.find("script")
    assert len(scripts) == 1
    assert scripts[0].all_text() in (PAGE_SCRIPT, view.INDEX_SCRIPT)
    assert [s.all_text() for s in root.find("style")] == [STYLE]
    for node in root.walk():
        assert node.tag in ALLOWED_TAGS, node.tag
        for name in node.attrs:
            assert not name.startswith("on"), (node.tag, name)
        href = node.attrs.get("href")
        if href is not None:
            assert re.match(r"(?i)(https?:|mailto:|#|[\w.-]+\.html$)", href), href
            if not href.startswith("#"):  # anchors within the page need none
                assert node.attrs.get("rel") == "noopener noreferrer"
        if node.tag == "img":
            assert re.fullmatch(
                r"data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]*", node.attrs["src"]
            )


def test_a_hostile_session_gives_only_the_views_own_markup() -> None:
    page = view.session_page(hostile_session())
    root = parse(page)
    check_safe(root)
    text = root.all_text()
    for payload in PAYLOADS:  # shown as text, where it was written
        assert payload in text
    assert "\x1b" not in page and "[31m" not in page and "red" in text
    assert root.find("img") == []  # bad types, data and SVG are named, never shown
    assert "javascript:" not in "".join(n.attrs.get("href", "") for n in root.walk())
    assert "Image not shown (image/svg+xml" in text


def test_the_page_allows_only_its_own_style_and_script() -> None:
    meta = [
        n
        for n in parse(view.session_page(hostile_session())).find("meta")
        if n.attrs.get("http-equiv") == "Content-Security-Policy"
    ]
    assert len(meta) == 1
    policy = meta[0].attrs["content"]
    assert "default-src 'none'" in policy and "img-src data:" in policy
    assert "unsafe-inline" not in policy and policy.count("'sha256-") == 2


def test_transcript_html_is_a_self_contained_page() -> None:
    chat = [
        UserMessage("What is <here>?"),
        AssistantMessage(
            (TextBlock("Look: **bold**"), ToolUseBlock("t1", "Bash", {"command": "ls"}))
        ),
        ToolResultMessage("t1", "a.txt\nb.txt"),
    ]
    page = transcript(chat, format="html", labels={"user": "Human"}, max_text_length=8)
    root = parse(page)
    check_safe(root)
    turns = root.find("section", "turn")
    assert [t.find("span", "role")[0].all_text() for t in turns] == ["Human", "Assistant"]
    assert "What is\u2026" in turns[0].all_text()  # cut to 8 characters
    call = root.find("div", "call")[0]
    assert call.find("pre", "cmd")[0].all_text() == "$ ls"
    assert call.find("details", "result")[0].all_text().startswith("Result · 2 lines")
    assert "<link" not in page and 'src="http' not in page  # nothing to fetch


def test_markdown_is_rendered_with_raw_html_shown_as_text() -> None:
    html = _markup.markdown(
        "**b** <i>raw</i>\n\n[ok](https://example.com) [bad](javascript:alert(1))"
        " ![pic](https://example.com/p.png)"
    )
    root = parse(html)
    assert [n.all_text() for n in root.find("strong")] == ["b"]
    assert root.find("i") == [] and "<i>raw</i>" in root.all_text()
    links = root.find("a")
    assert [a.attrs["href"] for a in links] == ["https://example.com", "https://example.com/p.png"]
    assert all(a.attrs["rel"] == "noopener noreferrer" for a in links)
    assert root.find("img") == []  # an image in Markdown is a link, never loaded


def test_without_markdown_it_text_is_escaped_and_the_page_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_markup, "_markdown", lambda: None)
    page = view.session_page(hostile_session())
    root = parse(page)
    check_safe(root)
    assert root.find("strong") == [] and root.find("pre", "plain")
    assert view.HINT in root.all_text()


def test_tool_inputs_are_shown_as_commands_diffs_or_json() -> None:
    session = FileSession(
        "claude_code",
        "s",
        [
            AssistantMessage(
                (
                    ToolUseBlock("a", "Bash", {"command": "ls -la", "description": "List"}),
                    ToolUseBlock("b", "exec_command", {"cmd": ["bash", "-lc", "make test"]}),
                    ToolUseBlock(
                        "c",
                        "Edit",
                        {"file_path": "f.py", "old_string": "x = 1", "new_string": "x = 2"},
                    ),
                    ToolUseBlock("d", "apply_patch", {}, arguments="*** Begin Patch\n+new\n-old"),
                    ToolUseBlock("e", "Search", {"query": {"nested": [1, 2]}}),
                )
            ),
            ToolResultMessage("a", "\n".join(f"line {i}" for i in range(100))),
            ToolResultMessage("c", "not found", is_error=True),
            ToolResultMessage("e", "x" * 10_000),
        ],
    )
    root = parse(view.session_page(session))
    calls = {c.attrs["data-call"]: c for c in root.find("div", "call")}
    assert calls["a"].find("pre", "cmd")[0].all_text() == "$ ls -la"
    assert "description: List" in calls["a"].all_text()
    assert calls["b"].find("pre", "cmd")[0].all_text() == "$ make test"
    diff = calls["c"].find("pre", "diff")[0]
    assert [n.all_text() for n in diff.find("span", "d")][-1] == "-x = 1"
    assert [n.all_text() for n in diff.find("span", "a")][-1] == "+x = 2"
    assert calls["d"].find("span", "a")[0].all_text() == "+new"
    assert '"nested"' in calls["e"].find("pre", "json")[0].all_text()
    long = calls["a"].find("details", "result")[0]
    assert long.find("span", "more")[0].attrs.get("hidden") == ""
    assert long.find("button", "show-all")[0].all_text() == "Show all (100 lines)"
    assert "line 99" in long.all_text()  # hidden, not dropped
    error = calls["c"].find("details", "result")
    assert error and "error" in error[0].classes() and error[0].all_text().startswith("Error")
    assert "10,000 characters of encoded data left out" in calls["e"].all_text()
    assert calls["d"].find("details", "result") == []  # no result logged for it


def test_images_inline_from_allowed_base64_and_urls_as_links() -> None:
    session = FileSession(
        "claude_code",
        "s",
        [
            UserMessage(
                (
                    ImageBlock(data=PNG, media_type="image/png"),
                    ImageBlock(data=PNG),  # type sniffed from the data
                    ImageBlock(url="https://example.com/cat.png"),
                    ImageBlock(url=f"data:image/png;base64,{PNG}"),
                    ImageBlock(data="not base64!", media_type="image/png"),
                    ImageBlock(file_id="file_1"),
                )
            )
        ],
    )
    root = parse(view.session_page(session))
    assert [i.attrs["src"][:22] for i in root.find("img")] == ["data:image/png;base64,"] * 3
    links = [a for a in root.find("a") if a.attrs["href"].startswith("https:")]
    assert [a.attrs["href"] for a in links] == ["https://example.com/cat.png"]
    text = root.all_text()
    assert "Image not shown (image/png, 7 bytes)" in text and "file file_1" in text


def _subagent_call(messages: list[Message], agent_id: str) -> str:
    """The Task call whose result or progress names ``agent_id`` (Claude Code's own link)."""
    for m in messages:
        if isinstance(m, ProgressMessage) and m.agent_id == agent_id and m.tool_use_id:
            return m.tool_use_id
        if isinstance(m, RawMessage) and isinstance(m.data, Mapping):
            data = m.data.get("data")
            if isinstance(data, Mapping) and data.get("agentId") == agent_id:
                return str(m.data["parentToolUseID"])
        result = m.tool_use_result if isinstance(m, UserMessage) else None
        if isinstance(result, Mapping) and result.get("agentId") == agent_id:
            for b in as_blocks(m.content):  # type: ignore[union-attr]
                if isinstance(b, ToolResultBlock):
                    return b.tool_use_id
    raise AssertionError(f"no call names {agent_id}")


def claude_session() -> FileSession:
    """The shared Claude Code 2.1 session, its subagent nested under the Task call."""
    folder = shared_fixtures("claude_code", "transcripts-2.1", "-home-marco-spotter")
    main = read_session(next(folder.glob("*.jsonl")), "claude_code")
    sub = read_session(next(folder.glob("*/subagents/agent-a7be2f0.jsonl")), "claude_code")
    call = _subagent_call(list(main.messages), "a7be2f0")
    return FileSession(main.agent, main.id, main.messages, subagents={call: sub})


def test_the_shared_claude_session_nests_its_subagent_and_stays_small() -> None:
    session = claude_session()
    page = view.session_page(session)
    assert len(page.encode()) < 3_000_000  # the budget for a ~3 MB transcript
    root = parse(page)
    check_safe(root)
    (sub,) = root.find("details", "subagent")
    parent = next(a for a in sub.ancestors() if "call" in a.classes())
    assert parent.find("span", "name")[0].all_text() == "Task"
    assert sub.find("section", "turn")  # the subagent's own turns, folded inside
    assert len(root.find("div", "compact")) == 1
    summary = [t for t in root.find("section", "turn") if "summary" in t.classes()]
    assert len(summary) == 1 and "Compaction summary" in summary[0].all_text()
    calls = root.find("div", "call")
    results = root.find("details", "result")
    assert all(any("call" in a.classes() for a in r.ancestors()) for r in results)
    assert len(calls) == sum(
        1 for m in session.messages for b in _blocks(m) if b.kind == "tool_use"
    ) + sum(
        1
        for m in session.subagents[next(iter(session.subagents))].messages
        for b in _blocks(m)
        if b.kind == "tool_use"
    )


def _blocks(m: Message) -> tuple[Any, ...]:
    content = getattr(m, "content", None)
    return (
        as_blocks(content) if isinstance(content, str | tuple) and m.kind != "tool_result" else ()
    )


def test_branches_sit_at_their_fork_behind_the_toggle() -> None:
    kept = [
        UserMessage("start", uuid="u1"),
        AssistantMessage("answer", uuid="a1", message_id="m1"),
        UserMessage("again", uuid="u2"),
    ]
    branch = SimpleNamespace(fork_point="a1", messages=[UserMessage("abandoned try", uuid="x")])
    session = FileSession("claude_code", "s", kept, branches=[branch])
    root = parse(view.session_page(session))
    (box,) = root.find("div", "branch")
    assert "abandoned try" in box.all_text() and "forks after a1" in box.all_text()
    order = [n for n in root.find("*") if n.attrs.get("id", "").startswith("m") or n is box]
    assert order.index(box) == 2  # after the second turn, where it forked
    assert root.find("input")[1].attrs["id"] == "branches"
    assert ".branch{display:none" in STYLE


def test_compaction_boundary_and_summary_are_marked() -> None:
    session = read_session(
        LOCAL_FIXTURES / "claude_code" / "compaction_transcript.jsonl", "claude_code"
    )
    root = parse(view.session_page(session))
    (mark,) = root.find("div", "compact")
    assert "manual" in mark.all_text() and "48,211 tokens before" in mark.all_text()
    summaries = [t for t in root.find("section", "turn") if "summary" in t.classes()]
    assert summaries and summaries[0].find("details")


AGENT_FILES = [
    ("claude_code", "claude_code/transcript.jsonl"),
    ("claude_code", "claude_code/stream.jsonl"),
    ("codex", "codex/exec.jsonl"),
    ("codex", "codex/rollout.jsonl"),
    ("codex", "codex/app_server.jsonl"),
    ("codex", "codex/compaction.jsonl"),
    ("gemini_cli", "gemini_cli/run-with-warnings.jsonl"),
    ("opencode", "opencode/run-read-edit.jsonl"),
    ("copilot", "copilot/run-read-edit.jsonl"),
    ("acp", "acp/session-edit-plan.jsonl"),
]


def _tool_counts(messages: list[Message]) -> tuple[int, int]:
    calls = results = 0
    for m in messages:
        if isinstance(m, ToolUseMessage):
            calls += 1
        elif isinstance(m, ToolResultMessage):
            results += 1
        for b in _blocks(m):
            calls += b.kind in ("tool_use", "server_tool_use")
            results += b.kind == "tool_result"
    return calls, results


def _check_structure(session: FileSession) -> Node:
    page = view.session_page(session)
    root = parse(page)
    check_safe(root)
    turns = root.find("section", "turn")
    assert turns, "no turn shown"
    roles = {t.attrs["data-role"] for t in turns}
    assert roles <= {"user", "assistant", "system", "developer", "tool"}
    calls, _ = _tool_counts(list(session.messages))
    assert len(root.find("div", "call")) == calls
    for result in root.find("details", "result"):  # each result under its call when it has one
        inside = next((a for a in result.ancestors() if "call" in a.classes()), None)
        if inside is not None:
            assert "data-call" in inside.attrs  # a Codex web search call has no id: ""
    ov = view.overview(session)
    assert ov.responses > 0 or "assistant" not in roles
    return root


@pytest.mark.parametrize(("agent", "name"), AGENT_FILES, ids=[n for _, n in AGENT_FILES])
def test_a_page_for_each_agent_format(agent: str, name: str) -> None:
    root = _check_structure(read_session(LOCAL_FIXTURES / name, agent))
    assert root.find("dl", "facts")[0].find("dd")[0].all_text() == agent


SHARED = [
    ("claude_code", "claude_code/caic-read-edit-bash.jsonl"),
    ("claude_code", "claude_code/caic-tool-error.jsonl"),
    ("codex", "codex_rollout"),
    ("codex", "codex_exec/openai-codex-docs-exec-md-sample.jsonl"),
    ("codex", "codex_app_server/caic-read-edit-bash.jsonl"),
    ("gemini_cli", "gemini_cli/gemicord-log.jsonl"),
    ("acp", "acp/caic-opencode-read-edit-bash.jsonl"),
]


@pytest.mark.parametrize(("agent", "name"), SHARED, ids=[n for _, n in SHARED])
def test_a_page_for_each_shared_capture(agent: str, name: str) -> None:
    path = shared_fixtures(*name.split("/"))
    if path.is_dir():
        path = next(path.glob("*.jsonl"))
    session = read_session(path, agent)
    _check_structure(session)
    assert len(view.session_page(session).encode()) < 3_000_000


def test_overview_counts_each_call_once_and_prices_what_has_no_logged_cost() -> None:
    usage = Usage(100, 10, 1000, 50)
    messages: list[Message] = [
        UserMessage("go", timestamp="2026-01-01T10:00:00Z"),
        AssistantMessage((TextBlock("a"),), usage=usage, message_id="m1", model="claude-x"),
        AssistantMessage((ToolUseBlock("t", "Bash", {"command": "ls"}),), usage=usage,
                         message_id="m1", model="claude-x", timestamp="2026-01-01T10:01:30Z"),
        CompactBoundaryMessage({"trigger": "auto"}),
    ]  # fmt: skip
    session = FileSession("claude_code", "s", messages)
    ov = view.overview(session)
    assert ov.usage == usage and ov.responses == 1 and ov.prompts == 1
    assert ov.tool_calls == {"Bash": 1} and ov.compactions == 1 and ov.duration == 90
    assert ov.cost is None and ov.cost_source is None

    def price(model: str | None, u: Usage) -> float:
        assert model == "claude-x"
        return (u.input_tokens or 0) * 1e-3 + (u.output_tokens or 0) * 1e-2

    priced = view.overview(session, price=price)
    assert priced.cost_source == "estimated"
    assert priced.cost == pytest.approx(0.2)
    assert priced.cost_by_kind == pytest.approx({"input": 0.1, "output": 0.1})
    logged = view.overview(
        FileSession("x", "s", [AssistantMessage("a", usage=Usage(1, 1, cost_usd=0.5))])
    )
    assert (logged.cost, logged.cost_source) == (0.5, "logged")


def test_a_session_pages_estimate_is_what_stats_estimates_of_its_calls(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The page of the shared Claude Code 2.1 session (with its subagents) estimates what
    ``messages stats`` estimates, each call priced on its own (one-hour cache writes as
    one-hour writes, the long-context tier per call), and ccusage's $11.66: summing the
    session's usage first and pricing the sum came to $20.27 (the sum's 16M cache reads
    reach the long-context tier that no call reaches). The split by kind adds up to it."""
    pytest.importorskip("genai_prices", reason="the prices extra is not installed")
    import json

    from messages import sessions
    from messages.cli import main
    from messages.cli.view import estimator

    root = shared_fixtures("claude_code", "transcripts-2.1")
    assert main(["stats", "--json", "--no-cache", "--cost", "estimated", str(root)]) == 0
    expected = json.loads(capsys.readouterr().out)["total"]["cost_usd"]
    (session,) = sessions.load(str(root))
    assert session.subagents and len(session.usage.per_call) == session.usage.calls
    assert Usage.sum(u for _, u in session.usage.per_call) == session.usage.total
    ov = view.overview(session, price=estimator(session.started))
    assert ov.cost_source == "estimated"
    assert ov.cost == pytest.approx(expected, abs=1e-6) and round(ov.cost, 2) == 11.66
    assert sum(ov.cost_by_kind.values()) == pytest.approx(ov.cost, rel=1e-12)
    assert set(ov.cost_by_kind) == {"input", "cache read", "cache write", "output"}


def test_each_call_is_priced_on_its_own_and_its_kinds_share_its_price() -> None:
    """Two calls of one model: a price asked of each call, never of their sum, and each
    kind's share in proportion to what its tokens cost alone."""
    calls = [Usage(150_000, 100, 0, 0), Usage(150_000, 300, 0, 0)]
    messages: list[Message] = [
        AssistantMessage("a", usage=calls[0], message_id="m1", model="claude-x"),
        AssistantMessage("b", usage=calls[1], message_id="m2", model="claude-x"),
    ]
    asked: list[Usage] = []

    def tiered(model: str | None, u: Usage) -> float:  # doubles past 200k input tokens
        asked.append(u)
        rate = 2.0 if u.total_input_tokens > 200_000 else 1.0
        return rate * ((u.input_tokens or 0) * 1e-6 + (u.output_tokens or 0) * 1e-5)

    ov = view.overview(FileSession("claude_code", "s", messages), price=tiered)
    assert ov.cost == pytest.approx(0.15 + 0.001 + 0.15 + 0.003)  # no call reaches the tier
    assert not any(u.total_input_tokens > 200_000 for u in asked)
    assert ov.cost_by_kind == pytest.approx({"input": 0.3, "output": 0.004})


def test_the_index_links_every_page_and_can_sort_and_filter(tmp_path: Path) -> None:
    sessions = [
        read_session(LOCAL_FIXTURES / "claude_code" / "transcript.jsonl", "claude_code"),
        read_session(LOCAL_FIXTURES / "codex" / "rollout.jsonl", "codex"),
        hostile_session(),
        hostile_session(),  # the same id twice: two pages all the same
    ]
    index = view.write_pages(sessions, tmp_path / "out")
    assert index.name == "index.html"
    root = parse(index.read_text(encoding="utf-8"))
    check_safe(root)
    rows = root.find("tbody")[0].find("tr")
    links = [r.find("a")[0].attrs["href"] for r in rows]
    assert len(set(links)) == 4
    for link in links:
        assert (index.parent / link).is_file()
        assert "/" not in link and "<" not in link
    assert [th.all_text() for th in root.find("th")] == [
        "Agent", "Project", "Title", "Date", "Prompts / responses", "Tokens", "Cost",
    ]  # fmt: skip
    assert root.find("input")[0].attrs["id"] == "filter"
    assert all(c.attrs.get("data-v") is not None for r in rows for c in r.find("td", "num"))


HOSTILE_TEXT = st.one_of(
    st.text(),
    st.sampled_from(PAYLOADS),
    st.lists(
        st.sampled_from(["<", ">", "&", '"', "'", "\x1b[1m", "javascript:", "`", "*", "\n"])
    ).map("".join),
)


@given(
    st.lists(strategies.messages(), max_size=6),
    st.lists(
        st.tuples(HOSTILE_TEXT, HOSTILE_TEXT, HOSTILE_TEXT).map(
            lambda t: AssistantMessage(
                (
                    TextBlock(t[0]),
                    ToolUseBlock("c", t[1], {t[2]: t[0]}),
                    ImageBlock(data=PNG, media_type=t[1]),
                )
            )
        ),
        max_size=2,
    ),
)
def test_any_messages_give_a_page_with_only_the_views_markup(
    messages: list[Message], hostile: list[Message]
) -> None:
    session = FileSession("claude_code", "s", [*messages, *hostile])
    root = parse(view.session_page(session))
    check_safe(root)
    assert len(root.find("main")) == 1


def test_streamed_chunks_of_a_flat_turn_read_as_one_text() -> None:
    chunks = [ThinkingMessage(piece) for piece in ("Let", " me", " check", " the", " file.")]
    said = [TextMessage("First answer."), TextMessage("Second answer.")]
    root = parse(view.session_page(FileSession("acp", "s", [*chunks, *said])))
    (fold,) = root.find("details", "thinking")
    assert fold.find("div")[0].all_text() == "Let me check the file."
    paragraphs = [p.all_text() for p in root.find("p")]
    assert paragraphs == ["First answer.", "Second answer."]  # whole messages stay paragraphs


def test_a_long_prompt_shows_its_head_and_a_show_all() -> None:
    pasted = "\n".join(f"log line {i} <tag>" for i in range(60))
    root = parse(view.session_page(FileSession("claude_code", "s", [UserMessage(pasted)])))
    (prompt,) = root.find("pre", "prompt")
    assert prompt.find("span", "more")[0].attrs["hidden"] == ""
    assert prompt.all_text() == pasted  # all of it, the tail hidden
    assert root.find("button", "show-all")[0].all_text() == "Show all (60 lines)"


def test_harness_notes_and_other_records_show_only_when_asked() -> None:
    from messages import HookEventMessage

    notes: list[Message] = [
        UserMessage("go"),
        RawMessage({"type": "progress"}),
        RawMessage({"type": "progress"}),
        RawMessage({"type": "file-history-snapshot"}),
        HookEventMessage("hook_started"),
        AssistantMessage("done"),
    ]
    session = FileSession("claude_code", "s", notes)
    quiet = parse(view.session_page(session)).find("main")[0].all_text()
    told = parse(view.session_page(session, include_events=True)).find("main")[0].all_text()
    assert "other records" not in quiet and "Hook" not in quiet and "done" in quiet
    assert "3 other records: progress x2, file-history-snapshot" in told
    assert "Hook: hook_started" in told


def test_a_text_too_long_for_markdown_is_plain_text_with_show_all() -> None:
    long = "**not bold** [x](https://example.com)\n" * 1000
    root = parse(_markup.markdown(long))
    assert root.find("strong") == [] and root.find("a") == []
    assert root.find("pre", "plain")[0].all_text() == long.replace("\r", "")
    assert root.find("button", "show-all")
    assert parse(_markup.markdown("**bold**")).find("strong")


def test_a_call_without_a_price_leaves_the_sessions_cost_unknown() -> None:
    messages: list[Message] = [
        AssistantMessage("a", usage=Usage(100, 10), message_id="m1", model="known"),
        AssistantMessage("b", usage=Usage(100, 10), message_id="m2", model="unknown"),
        AssistantMessage("c", usage=Usage(), message_id="m3", model="unknown"),  # no tokens
    ]

    def price(model: str | None, u: Usage) -> float | None:
        return (u.input_tokens or 0) * 1e-3 if model == "known" else None

    session = FileSession("claude_code", "s", messages)
    assert view.overview(session, price=price).cost is None
    alone = FileSession("claude_code", "s", [messages[0], messages[2]])
    assert view.overview(alone, price=price).cost == pytest.approx(0.1)


@pytest.mark.parametrize(
    "name",
    [
        "claude_code/stream.jsonl",
        "claude_code/documents.jsonl",
        "same_conversation/claude_code.jsonl",
    ],
)
def test_a_runs_page_gives_the_cost_its_result_logs(name: str) -> None:
    """A Claude Code ``stream-json`` run's page gives the cost its result logs, as ``messages
    stats`` does: the result sits among the session's records, not its conversation, and its
    usage was priced as a call of no model, so the page had no cost."""
    from messages import sessions
    from messages.stats import Stats

    path = str(LOCAL_FIXTURES / name)
    (row,) = Stats.of_file(path).report().rows
    (session,) = sessions.load(path)
    ov = view.overview(session)  # no price asked: the cost is the log's own
    assert row.cost_source == "logged" and ov.cost_source == "logged"
    assert ov.cost == pytest.approx(row.cost, rel=1e-9)

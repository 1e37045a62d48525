"""Self-contained HTML pages of agent sessions: one page per session, and an index of them.

A page is one file with its style sheet and script inline: it needs no network and works
from ``file://``. It shows a header (agent, models, project, start and end, turns, tool
calls, tokens and cost), then the conversation: each turn with its role, time and usage,
assistant text as Markdown (with the ``view`` extra), thinking folded, each tool call with
its input (the command of a shell tool, a diff for an edit) and its result folded below,
images inline, subagents folded under the call that started them, compactions marked,
abandoned branches behind a toggle, and a search box. Everything a log says is escaped;
see docs/view.md.

Any object with ``agent``, ``id`` and ``messages`` is a session here (:class:`SessionLike`);
``title``, ``project`` or ``cwd``, ``started``, ``ended``, ``usage``, ``subagents``,
``branches``, ``compactions`` and ``parent`` are read when it has them.

>>> from types import SimpleNamespace
>>> from messages import UserMessage, AssistantMessage
>>> said = [UserMessage("Hi <b>there</b>"), AssistantMessage("**Hello.**")]
>>> chat = SimpleNamespace(agent="claude_code", id="s1", messages=said)
>>> page = session_page(chat)
>>> "Hi &lt;b&gt;there&lt;/b&gt;" in page, "<b>there" in page, page.startswith("<!doctype html>")
(True, False, True)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Final

from ..events.run import ResultMessage
from ..message import Message
from ..message import role_of
from ..usage import Usage
from ._assets import INDEX_SCRIPT
from ._assets import PAGE_SCRIPT
from ._assets import STYLE
from ._assets import policy
from ._html import Options
from ._html import render_messages
from ._markup import esc
from ._markup import markdown_available
from ._markup import usage_words
from ._overview import MAX_DEPTH
from ._overview import Overview
from ._overview import Price
from ._overview import SessionLike
from ._overview import attr
from ._overview import overview
from ._render import LABELS

__all__ = [
    "Overview",
    "Price",
    "SessionLike",
    "index_page",
    "messages_page",
    "overview",
    "page_name",
    "session_page",
    "write_pages",
]

HINT: Final = "Markdown is shown as plain text: pip install 'llm-messages[view]' to render it."
"""The one line a page says when ``markdown-it-py`` is not installed."""

# -- the session page -----------------------------------------------------------------------


def _branch_parts(branch: object) -> tuple[Sequence[Message], str | None]:
    found = getattr(branch, "messages", None)
    messages: Sequence[Message] = (
        found if found is not None else branch if isinstance(branch, Sequence) else ()
    )
    fork = attr(branch, "fork", "fork_point", "fork_uuid", "parent_uuid", "at")
    fork = fork if isinstance(fork, str) else attr(fork, "uuid")
    return messages, fork if isinstance(fork, str) else None


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return ""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min {secs:02d} s"


def _stamp(when: datetime | None) -> str:
    if when is None:
        return ""
    iso = when.isoformat().replace("+00:00", "Z")
    return f'<time datetime="{iso}">{when:%Y-%m-%d %H:%M:%S} UTC</time>'


def _money(value: float) -> str:
    return f"${value:,.2f}" if value >= 1 else f"${value:.4f}"


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def _facts(ov: Overview) -> str:
    rows: list[tuple[str, str]] = [("Agent", esc(ov.agent)), ("Session", esc(ov.id))]
    if ov.models:
        rows.append(("Model" + ("s" if len(ov.models) > 1 else ""), esc(", ".join(ov.models))))
    if ov.project:
        rows.append(("Project", esc(ov.project)))
    if ov.cwd and ov.cwd != ov.project:
        rows.append(("Directory", esc(ov.cwd)))
    if ov.started:
        rows.append(("Started", _stamp(ov.started)))
    if ov.ended:
        rows.append(("Ended", _stamp(ov.ended) + f" ({_duration(ov.duration)})"))
    turns = f"{_count(ov.prompts, 'prompt')} · {_count(ov.responses, 'response')}"
    rows.append(("Turns", turns))
    calls = sum(ov.tool_calls.values())
    top = ", ".join(f"{esc(name)} {n:,}" for name, n in list(ov.tool_calls.items())[:8])
    rows.append(("Tool calls", f"{calls:,}" + (f" ({top})" if top else "")))
    words = usage_words(ov.usage, cost=False)
    rows.append(("Tokens", esc(words or "not reported")))
    if ov.cost is not None:
        cost = f"{_money(ov.cost)} {ov.cost_source}"
        if ov.cost_by_kind:
            cost += " (" + ", ".join(f"{k} {_money(v)}" for k, v in ov.cost_by_kind.items()) + ")"
        rows.append(("Cost", esc(cost)))
    for label, n in (
        ("Subagents", ov.subagents),
        ("Compactions", ov.compactions),
        ("Branches", ov.branches),
    ):
        if n:
            rows.append((label, f"{n:,}"))
    if ov.parent:
        rows.append(("Continues", esc(ov.parent)))
    return "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows)


def _separate_usage(session: object) -> dict[int, Usage] | None:
    """Token counts a session's records log after a response (Codex), by its last message.

    A session's ``messages`` may leave those records out; ``records`` has them in file order.
    """
    records = getattr(session, "records", None)
    if not isinstance(records, Sequence):
        return None
    found: dict[int, Usage] = {}
    last: Message | None = None
    for record in records:
        if isinstance(record, ResultMessage):
            if record.usage is not None and record.result is None and last is not None:
                found[id(last)] = record.usage
            last = None
        elif role_of(record) == "assistant":
            last = record
    return found or None


class _Page:
    """Renders a session and, recursively, its subagents and branches into one main."""

    __slots__ = ("_events", "_labels", "_limit", "_seq", "_thinking")

    def __init__(
        self,
        *,
        include_thinking: bool,
        include_events: bool,
        labels: Mapping[str, str] | None = None,
        limit: int | None = None,
    ) -> None:
        self._thinking = include_thinking
        self._events = include_events
        self._labels = {**LABELS, **(labels or {})}
        self._limit = limit
        self._seq = [0]

    def options(self) -> Options:
        """The rendering options of every conversation on this page (hooks set by the caller)."""
        return Options(
            labels=self._labels,
            include_thinking=self._thinking,
            include_events=self._events,
            limit=self._limit,
        )

    def body(self, session: object, depth: int = 0) -> str:
        subagents = getattr(session, "subagents", None)
        subs: Mapping[str, object] = subagents if isinstance(subagents, Mapping) else {}
        placed: set[str] = set()
        forks: dict[str, list[str]] = {}
        loose: list[str] = []
        for n, branch in enumerate(getattr(session, "branches", None) or (), 1):
            msgs, fork = _branch_parts(branch)
            html = self._branch(msgs, fork, n, depth)
            if fork is None:
                loose.append(html)
            else:
                forks.setdefault(fork, []).append(html)

        def nested(call_id: str) -> str:
            sub = subs.get(call_id)
            if sub is None or depth >= MAX_DEPTH:
                return ""
            placed.add(call_id)
            return self._subagent(sub, depth)

        writers: dict[str, str] = {}  # boundary id -> the key of the agent that summarised
        for compaction in getattr(session, "compactions", None) or ():
            agent, boundary = attr(compaction, "agent"), attr(compaction, "boundary")
            uuid = attr(boundary, "uuid")
            for key, sub in subs.items():
                if agent is not None and isinstance(uuid, str) and sub is agent:
                    writers[uuid] = key

        def after(uuid: str) -> str:
            found = forks.pop(uuid, None)
            html = ""
            if found:
                word = "branch" if len(found) == 1 else "branches"
                html = f'<div class="forks">{len(found)} abandoned {word} fork here</div>'
                html += "".join(found)
            key = writers.pop(uuid, None)
            if key is not None and depth < MAX_DEPTH:
                placed.add(key)
                html += self._subagent(subs[key], depth, "Compaction agent")
            return html

        opts = self.options()
        opts.nested = nested
        opts.after = after
        opts.usage_of = _separate_usage(session)
        out = [render_messages(list(getattr(session, "messages", ())), opts, self._seq)]
        rest = [self._subagent(s, depth) for k, s in subs.items() if k not in placed]
        if rest and depth < MAX_DEPTH:
            out.append('<div class="event">Subagents not tied to a call:</div>')
            out += rest
        for found in forks.values():  # fork points not in the active conversation
            loose += found
        out += loose
        return "".join(out)

    def _subagent(self, sub: object, depth: int, word: str = "Subagent") -> str:
        ov = overview(sub)  # type: ignore[arg-type]
        bits = [ov.title, _count(ov.responses, "response")]
        words = usage_words(ov.usage)
        if words:
            bits.append(words)
        return (
            f'<details class="subagent" data-session="{esc(ov.id)}"><summary>{word} · '
            f"{esc(' · '.join(bits))}</summary>{self.body(sub, depth + 1)}</details>"
        )

    def _branch(self, msgs: Sequence[Message], fork: str | None, n: int, depth: int) -> str:
        where = f" · forks after {esc(fork)}" if fork else ""
        inner = render_messages(list(msgs), self.options(), self._seq)
        return (
            f'<div class="branch"><div class="bhead">Abandoned branch {n} · '
            f"{_count(len(msgs), 'message')}{where}</div>{inner}</div>"
        )


def _document(title: str, body: str, script: str) -> str:
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{policy(script)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{esc(title)}</title><style>{STYLE}</style></head>"
        f'<body><div class="wrap">{body}</div><script>{script}</script></body></html>\n'
    )


def _toolbar(branches: int) -> str:
    toggle = (
        f'<label class="toggle"><input type="checkbox" id="branches"> Show {branches} abandoned'
        f" branch{'es' if branches != 1 else ''}</label>"
        if branches
        else ""
    )
    return (
        '<nav class="bar"><input type="search" id="q" placeholder="Search (press /)"'
        ' aria-label="Search this session" autocomplete="off">'
        '<button type="button" id="prev" title="Previous match">&uarr;</button>'
        '<button type="button" id="next" title="Next match">&darr;</button>'
        '<span id="count" class="count" aria-live="polite"></span>'
        '<button type="button" id="open">Unfold all</button>'
        f'<button type="button" id="close">Fold all</button>{toggle}</nav>'
    )


def session_page(
    session: SessionLike,
    *,
    price: Price | None = None,
    include_thinking: bool = True,
    include_events: bool = False,
) -> str:
    """One session as a self-contained HTML page (inline CSS and script; nothing fetched).

    ``price`` estimates a cost where the log records none (see :data:`Price`);
    ``include_events`` also shows the harness's running notes (hooks, statuses, records).
    """
    return _session_page(
        session,
        _Page(include_thinking=include_thinking, include_events=include_events),
        price=price,
    )


def _session_page(session: SessionLike, page: _Page, *, price: Price | None) -> str:
    ov = overview(session, price=price)
    main = page.body(session)
    hint = "" if markdown_available() else f'<p class="hint">{esc(HINT)}</p>'
    head = f'<header class="top"><h1>{esc(ov.title)}</h1><dl class="facts">{_facts(ov)}</dl>'
    body = f"{head}{hint}</header>{_toolbar(ov.branches)}<main>{main}</main>"
    return _document(f"{ov.title} · {ov.agent}", body, PAGE_SCRIPT)


@dataclass(frozen=True, slots=True)
class _Messages:
    agent: str
    id: str
    messages: Sequence[Message]
    title: str | None


def messages_page(
    messages: Iterable[Message],
    *,
    title: str | None = None,
    labels: Mapping[str, str] | None = None,
    include_thinking: bool = True,
    include_events: bool = False,
    max_text_length: int | None = None,
) -> str:
    """A list of messages as a self-contained page: :func:`session_page` of an unnamed session.

    ``labels`` renames roles, ``max_text_length`` cuts every long text (as in
    :func:`messages.text.transcript`, which gives this page for ``format="html"``).
    """
    page = _Page(
        include_thinking=include_thinking,
        include_events=include_events,
        labels=labels,
        limit=max_text_length,
    )
    return _session_page(_Messages("messages", "", list(messages), title), page, price=None)


# -- the index -------------------------------------------------------------------------------


def index_page(rows: Iterable[tuple[Overview, str]], *, title: str = "Sessions") -> str:
    """An index of sessions (agent, project, title, date, turns, tokens, cost) linking pages.

    Each row is an :func:`overview` and the address of its page (relative to the index).
    Columns sort by a click on their heading; the box filters rows by their text.
    """
    cells = []
    listed = sorted(rows, key=lambda r: r[0].started.timestamp() if r[0].started else 0.0)
    for ov, href in reversed(listed):
        date = f"{ov.started:%Y-%m-%d %H:%M}" if ov.started else ""
        epoch = f"{ov.started.timestamp():.0f}" if ov.started else "0"
        tokens = ov.usage.total_tokens
        cost = "" if ov.cost is None else _money(ov.cost)
        cells.append(
            f'<tr><td class="nowrap">{esc(ov.agent)}</td>'
            f'<td class="wide">{esc(ov.project or "")}</td>'
            f'<td><a href="{esc(href)}" rel="noopener noreferrer">{esc(ov.title)}</a></td>'
            f'<td class="nowrap" data-v="{epoch}">{date}</td>'
            f'<td class="num" data-v="{ov.prompts + ov.responses}">{ov.prompts:,} / '
            f"{ov.responses:,}</td>"
            f'<td class="num" data-v="{tokens}">{tokens:,}</td>'
            f'<td class="num" data-v="{ov.cost or 0}">{cost}</td></tr>'
        )
    body = (
        f'<header class="top"><h1>{esc(title)}</h1><p class="hint">{len(cells):,} sessions; click'
        " a heading to sort.</p></header>"
        '<nav class="bar"><input type="search" id="filter" placeholder="Filter sessions"'
        ' aria-label="Filter sessions" autocomplete="off">'
        '<span id="shown" class="count" aria-live="polite"></span></nav>'
        '<main><table class="sessions"><thead><tr><th>Agent</th><th class="wide">Project</th>'
        '<th>Title</th><th>Date</th><th class="num">Prompts / responses</th>'
        '<th class="num">Tokens</th><th class="num">Cost</th></tr></thead>'
        f"<tbody>{''.join(cells)}</tbody></table></main>"
    )
    return _document(title, body, INDEX_SCRIPT)


_UNSAFE_NAME: Final = re.compile(r"[^A-Za-z0-9._-]+")


def page_name(session: SessionLike) -> str:
    """The file name of a session's page: ``<agent>-<id>.html``, safe on every file system."""
    stem = _UNSAFE_NAME.sub("_", f"{session.agent}-{session.id}").strip("._") or "session"
    return f"{stem[:120]}.html"


def write_pages(
    sessions: Iterable[SessionLike],
    folder: str | Path,
    *,
    price: Price | None = None,
    price_for: Callable[[SessionLike], Price | None] | None = None,
    include_thinking: bool = True,
    include_events: bool = False,
    title: str = "Sessions",
) -> Path:
    """Write one page per session and ``index.html`` linking them into ``folder``.

    ``price`` estimates costs the logs do not record; ``price_for`` instead gives each
    session its own (prices change over time). Returns the index's path. Sessions are
    rendered one at a time (one page in memory).
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    rows: list[tuple[Overview, str]] = []
    used: set[str] = {"index.html"}
    for session in sessions:
        name = page_name(session)
        stem, n = name[:-5], 1
        while name in used:
            n += 1
            name = f"{stem}-{n}.html"
        used.add(name)
        priced = price if price_for is None else price_for(session)
        text = session_page(
            session,
            price=priced,
            include_thinking=include_thinking,
            include_events=include_events,
        )
        (out / name).write_text(text, encoding="utf-8")
        rows.append((overview(session, price=priced), name))
    index = out / "index.html"
    index.write_text(index_page(rows, title=title), encoding="utf-8")
    return index

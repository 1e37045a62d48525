"""``messages sessions`` (list sessions) and ``messages show`` (one session as a conversation).

Both read sessions with :mod:`messages.sessions` from the files or folders given, by default
from the agents' own folders. The output formats of each command are in one table here
(:data:`LIST_FORMATS`, :data:`SHOW_FORMATS`): a new format is one function and one entry.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import replace
from typing import IO
from typing import TYPE_CHECKING
from typing import Any
from typing import Final

from ..adapters import get

if TYPE_CHECKING:  # the session model and the renderers load when a command uses them
    from ..message import Message
    from ..sessions import Session
    from ..usage import Usage

__all__ = [
    "LIST_FORMATS",
    "SHOW_FORMATS",
    "ShowOptions",
    "add_parsers",
    "cost_of",
    "run",
    "summary_of",
]

TITLE_WIDTH: Final = 48
"""How much of a title the table shows."""


@dataclass(frozen=True, slots=True)
class ShowOptions:
    """What ``messages show`` prints besides the active conversation."""

    branches: bool = False
    """``--branches``: the abandoned branches too, after the conversation."""
    subagents: str = "inline"
    """``--subagents``: ``inline`` (under the call that started each) or ``none``."""


def add_parsers(sub: Any) -> None:
    """Add the ``sessions`` and ``show`` commands to the ``messages`` argument parser."""
    listing = sub.add_parser(
        "sessions",
        help="list sessions (agent, id, project, title, turns, subagents, tokens, cost)",
        description="List the sessions under each PATH (default: the agents' own folders).",
    )
    listing.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to read")
    listing.add_argument(
        "--format",
        choices=sorted([*LIST_FORMATS, "html"]),
        default="table",
        help="a table (default), JSON, or html: a page per session and an index, into -o DIR",
    )
    listing.add_argument(
        "-o",
        "--output",
        metavar="DIR",
        help="with --format html: the folder to write index.html and the pages into",
    )
    listing.add_argument(
        "--json", dest="format", action="store_const", const="json", help="same as --format json"
    )
    show = sub.add_parser(
        "show",
        help="print one session as a conversation",
        description="Print one session as a conversation, subagents under the call that"
        " started them. SESSION is an id, a unique id prefix, or a session file.",
    )
    show.add_argument("session", metavar="SESSION", help="an id, a unique id prefix, or a file")
    show.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="where to look (default: the agents' own folders)",
    )
    show.add_argument(
        "--format",
        choices=sorted(SHOW_FORMATS),
        default="text",
        help="text (default), markdown, json (one document), native (JSON Lines) or html"
        " (one self-contained page)",
    )
    show.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE instead of standard output"
    )
    show.add_argument("--branches", action="store_true", help="also print the abandoned branches")
    show.add_argument(
        "--subagents",
        choices=("inline", "none"),
        default="inline",
        help="subagents under the call that started them (default), or left out",
    )


# -- figures ------------------------------------------------------------------------------------


def _epoch(value: object) -> float | None:
    from ..stats._engine import epoch

    return epoch(value)


def cost_of(session: Session) -> float | None:
    """The session's cost in US dollars: logged where its calls say, else estimated.

    Each call is priced on its own (``usage.per_call``): a long-context price tier is
    decided per call, and one-hour cache writes and the service tier are read from what
    the call's log reports. ``None`` when neither is known (``genai-prices`` not
    installed), and when part of the usage has no price (a model the table does not know,
    counts it refuses), as a ``messages stats`` row.
    """
    from .._core.frozen import raw
    from ..stats._engine import Tokens
    from ..stats._engine import price_context
    from ..stats._prices import total as priced

    total = 0.0
    known = False
    when = _epoch(session.started)
    calls = session.usage.per_call or tuple(session.usage.by_model.items())
    asked = []
    for model, usage in calls:
        if usage.cost_usd is not None:
            total += usage.cost_usd
            known = True
        else:
            asked.append((model or None, when, Tokens.of(usage), price_context(raw(usage.extra))))
    if asked:
        estimate, unpriced = priced(asked)
        if unpriced:  # as stats: part unknown is no cost, never a part passed off as all
            return None
        if estimate is not None:
            total += estimate
            known = True
    return total if known else None


def _tokens(usage: Usage) -> int:
    return usage.total_tokens


def summary_of(session: Session) -> dict[str, Any]:
    """The row of ``messages sessions`` for one session, as JSON-ready values."""
    from ..serialize import to_dict

    usage = session.usage
    return {
        "agent": session.agent,
        "id": session.id,
        "project": session.project,
        "cwd": session.cwd,
        "title": session.title,
        "started": session.started,
        "ended": session.ended,
        "turns": session.turns,
        "messages": len(session.messages),
        "records": len(session.records),
        "subagents": len(session.subagents),
        "branches": len(session.branches),
        "compactions": len(session.compactions),
        "parent": session.parent,
        "tokens": _tokens(usage.total),
        "usage": to_dict(usage.total),
        "by_model": {k: to_dict(v) for k, v in usage.by_model.items()},
        "by_subagent": {k: to_dict(v) for k, v in usage.by_subagent.items()},
        "copied": to_dict(usage.copied),
        "calls": usage.calls,
        "cost_usd": cost_of(session),
        "files": list(session.files),
    }


# -- messages sessions ----------------------------------------------------------------------


def _clip(text: str | None, width: int) -> str:
    if not text:
        return "-"
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1] + "…"


def _list_table(sessions: Iterable[Session], out: IO[str]) -> None:
    head = [
        "agent",
        "id",
        "project",
        "title",
        "started",
        "turns",
        "subagents",
        "branches",
        "tokens",
        "cost",
    ]
    rows = [head]
    for s in sessions:
        cost = cost_of(s)
        rows.append(
            [
                s.agent,
                s.id,
                _clip(s.project, 32),
                _clip(s.title, TITLE_WIDTH),
                str(s.started or "-")[:19],
                str(s.turns),
                str(len(s.subagents)),
                str(len(s.branches)),
                f"{_tokens(s.usage.total):,}",
                "-" if cost is None else f"{cost:.2f}",
            ]
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    right = {5, 6, 7, 8, 9}
    for row in rows:
        cells = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        out.write("  ".join(cells).rstrip() + "\n")


def _list_json(sessions: Iterable[Session], out: IO[str]) -> None:
    json.dump([summary_of(s) for s in sessions], out, indent=2, ensure_ascii=False)
    out.write("\n")


LIST_FORMATS: Final[dict[str, Callable[[Iterable[Session], IO[str]], None]]] = {
    "table": _list_table,
    "json": _list_json,
}
"""``messages sessions --format NAME``: how the list is written."""


# -- messages show --------------------------------------------------------------------------


def _calls_in(message: Message) -> list[str]:
    content = getattr(message, "content", None)
    ids = []
    if isinstance(content, tuple):
        ids = [b.id for b in content if getattr(b, "kind", None) == "tool_use"]
    call = getattr(message, "id", None)
    if getattr(message, "kind", None) == "tool_use" and isinstance(call, str):
        ids.append(call)
    return ids


def _segments(
    session: Session, opts: ShowOptions
) -> Iterator[tuple[tuple[Message, ...], Session | None, str]]:
    """The conversation cut after each call that started a subagent: (messages, subagent, key).

    Subagents no call in the conversation names follow at the end.
    """
    inline = opts.subagents == "inline"
    pending = dict(session.subagents) if inline else {}
    chunk: list[Message] = []
    for message in session.messages:
        chunk.append(message)
        for call in _calls_in(message):
            if call in pending:
                yield tuple(chunk), pending.pop(call), call
                chunk = []
    if chunk:
        yield tuple(chunk), None, ""
    for key, sub in pending.items():
        yield (), sub, key


def _header(session: Session) -> list[tuple[str, str]]:
    usage = session.usage.total
    cost = cost_of(session)
    items = [
        ("session", f"{session.agent} {session.id}"),
        ("title", session.title or "-"),
        ("project", session.project or "-"),
        ("cwd", session.cwd or "-"),
        ("time", f"{session.started or '-'} .. {session.ended or '-'}"),
        ("turns", str(session.turns)),
        ("tokens", f"{usage.total_tokens:,}" + ("" if cost is None else f" (${cost:.2f})")),
    ]
    if session.parent:
        items.append(("continues", session.parent))
    if session.compactions:
        items.append(("compactions", str(len(session.compactions))))
    return items


def _indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + line if line else prefix.rstrip() for line in text.splitlines())


def _write_header(session: Session, out: IO[str], line: str) -> None:
    """The header's items, each as ``line`` formats its name and value, then a blank line."""
    for name, value in _header(session):
        out.write(line.format(name, value))
    out.write("\n")


def _show_text(session: Session, opts: ShowOptions, out: IO[str]) -> None:
    _write_header(session, out, "{}: {}\n")
    _text_body(session, opts, out, "")


def _text_body(session: Session, opts: ShowOptions, out: IO[str], prefix: str) -> None:
    from ..text import transcript

    for chunk, sub, key in _segments(session, opts):
        if chunk:
            out.write(_indent(transcript(chunk), prefix) + "\n")
        if sub is not None:
            label = f"subagent {sub.id}" + (f" (call {key})" if key != sub.id else "")
            out.write(f"{prefix}┌ {label}: {sub.title or ''}\n".rstrip() + "\n")
            _text_body(sub, opts, out, prefix + "│ ")
            out.write(f"{prefix}└ end of {label}\n")
    if opts.branches:
        for branch in session.branches:
            out.write(f"{prefix}┌ abandoned branch at {branch.fork or '(a separate root)'}\n")
            out.write(_indent(transcript(branch.messages), prefix + "│ ") + "\n")
            out.write(f"{prefix}└ end of branch\n")


def _show_markdown(session: Session, opts: ShowOptions, out: IO[str]) -> None:
    out.write(f"# {session.title or session.id}\n\n")
    _write_header(session, out, "- **{}**: {}\n")
    _markdown_body(session, opts, out, "")


def _markdown_body(session: Session, opts: ShowOptions, out: IO[str], quote: str) -> None:
    from ..text import transcript

    for chunk, sub, key in _segments(session, opts):
        if chunk:
            out.write(_indent(transcript(chunk, format="markdown"), quote) + "\n\n")
        if sub is not None:
            label = f"Subagent `{sub.id}`" + (f" (call `{key}`)" if key != sub.id else "")
            out.write(f"{quote}> **{label}**: {sub.title or ''}\n{quote}>\n")
            _markdown_body(sub, opts, out, quote + "> ")
            out.write("\n")
    if opts.branches:
        for branch in session.branches:
            fork = f"`{branch.fork}`" if branch.fork else "a separate root"
            out.write(f"{quote}> **Abandoned branch** at {fork}\n{quote}>\n")
            out.write(_indent(transcript(branch.messages, format="markdown"), quote + "> "))
            out.write("\n\n")


def _as_json(session: Session, opts: ShowOptions) -> dict[str, Any]:
    from ..serialize import to_dict

    doc = summary_of(session)
    doc["messages"] = [to_dict(m) for m in session.messages]
    if opts.subagents == "inline":
        doc["subagents"] = {k: _as_json(s, opts) for k, s in session.subagents.items()}
    else:
        doc.pop("subagents")
    if opts.branches:
        doc["branches"] = [
            {"fork": b.fork, "leaf": b.leaf, "messages": [to_dict(m) for m in b.messages]}
            for b in session.branches
        ]
    return doc


def _show_json(session: Session, opts: ShowOptions, out: IO[str]) -> None:
    json.dump(_as_json(session, opts), out, indent=2, ensure_ascii=False)
    out.write("\n")


def _native_messages(session: Session, opts: ShowOptions) -> Iterator[Message]:
    for chunk, sub, key in _segments(session, opts):
        yield from chunk
        if sub is not None:
            for m in _native_messages(sub, opts):
                # a subagent's messages name the call that started it, as stream-json does
                if getattr(m, "parent_tool_use_id", "") is None and key != sub.id:
                    yield replace(m, parent_tool_use_id=key)
                else:
                    yield m
    if opts.branches:
        for branch in session.branches:
            yield from branch.messages


def _show_native(session: Session, opts: ShowOptions, out: IO[str]) -> None:
    for line in get("native").iter_encode(_native_messages(session, opts)):
        out.write(line + "\n")


def _show_html(session: Session, opts: ShowOptions, out: IO[str]) -> None:
    from .view import write_page

    if opts.subagents == "none":
        session = replace(session, subagents={})
    write_page(session, None, out)


SHOW_FORMATS: Final[dict[str, Callable[[Session, ShowOptions, IO[str]], None]]] = {
    "text": _show_text,
    "markdown": _show_markdown,
    "json": _show_json,
    "native": _show_native,
    "html": _show_html,
}
"""``messages show --format NAME``: how one session is written."""


# -- running ----------------------------------------------------------------------------------


def _where(paths: list[str], err: IO[str]) -> list[str] | None:
    from ..sessions import roots

    if paths:
        missing = [p for p in paths if not os.path.exists(p)]
        if missing:
            err.write(f"messages: no such file or folder: {missing[0]}\n")
            return None
        return paths
    found = roots()
    if not found:
        err.write(
            "messages: no PATH given, and no agent session folder found"
            " ($CLAUDE_CONFIG_DIR/projects, ~/.claude/projects, $CODEX_HOME/sessions,"
            " ~/.codex/sessions)\n"
        )
        return None
    return found


def run(args: argparse.Namespace, out: IO[str], err: IO[str] = sys.stderr) -> int:
    """Run ``messages sessions`` or ``messages show``; the exit code (0, 1 not found, 2 usage)."""
    from ..adapters._stores import split
    from ..sessions import load
    from ..sessions import pick

    if args.command == "sessions":
        paths = _where(args.paths, err)
        if paths is None:
            return 2
        if args.format == "html":
            if not args.output:
                err.write("messages: --format html writes a folder of pages: give -o DIR\n")
                return 2
            from .view import write_index

            out.write(f"{write_index(load(paths), args.output)}\n")
            return 0
        found = sorted(load(paths), key=lambda s: str(s.started or ""))
        LIST_FORMATS[args.format](found, out)
        return 0
    opts = ShowOptions(branches=args.branches, subagents=args.subagents)
    paths = args.paths
    alone = split(args.session)[0]  # a database's session path names its database
    if paths or not os.path.isfile(alone):  # a file alone is looked for beside it
        paths = _where(paths, err)
        if paths is None:
            return 2
    try:
        session = pick(args.session, paths)
    except LookupError as exc:
        err.write(f"messages: {exc.args[0]}\n")
        return 1
    if args.output and args.output != "-":
        with open(args.output, "w", encoding="utf-8", newline="\n") as fp:
            SHOW_FORMATS[args.format](session, opts, fp)
        return 0
    SHOW_FORMATS[args.format](session, opts, out)
    return 0

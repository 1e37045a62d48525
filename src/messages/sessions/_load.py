"""Finding session files, grouping them into sessions, and reading each session lazily."""

from __future__ import annotations

import os
from collections.abc import Container
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from typing import IO
from typing import Any
from typing import Final

from .._core.fields import completeness
from .._core.fields import logged_cost
from .._core.frozen import raw
from ..adapters import CLI_NAMES
from ..adapters import NAMES
from ..adapters import detect
from ..adapters import get
from ..adapters._base import iter_decode as decode_lines
from ..adapters._sessions import LOG_SUFFIXES
from ..adapters._sessions import RESULT_CALL
from ..adapters._sessions import Link
from ..adapters._sessions import SessionFile
from ..adapters._sessions import hook
from ..adapters._sessions import walk_files
from ..adapters._stores import SESSION_MARK
from ..adapters._stores import open_rows
from ..adapters._stores import session_paths
from ..adapters._stores import split
from ..adapters.copilot import model_usages
from ..events.run import ErrorMessage
from ..events.run import ResultMessage
from ..flat import RawMessage
from ..limits import current_limits
from ..message import Message
from ..roles import AssistantMessage
from ..usage import Usage
from ._graph import assemble
from ._model import Branch
from ._model import Compaction
from ._model import FrozenMap
from ._model import Session
from ._model import SessionUsage

__all__ = ["Located", "assemble_session", "find", "group", "load", "locate", "pick", "roots"]

STORE_SUFFIXES: Final = (".db", ".sqlite")
"""File endings of stores that hold many sessions (a hook with ``split`` reads them)."""
HEAD_RECORDS: Final = 64
"""How many records of a file are read at most to tell its agent and session."""
TITLE_LENGTH: Final = 120
"""The longest title made from a prompt."""

_NOTHING: Final = RawMessage(None)


@dataclass(frozen=True, slots=True)
class Located:
    """A session file and the agent it belongs to."""

    agent: str
    """The agent's format name."""
    file: SessionFile
    """What the agent's hook says the file is."""


def roots(env: Mapping[str, str] | None = None, *, existing: bool = True) -> list[str]:
    """The folders the agents keep their sessions in, by each agent's own rules.

    With ``existing`` (the default) only the folders that exist.
    """
    env = dict(os.environ) if env is None else env
    out: list[str] = []
    for name in CLI_NAMES:
        for root in hook(name).roots(env):
            if root not in out and (not existing or os.path.isdir(root)):
                out.append(root)
    return out


def _lines(fp: IO[bytes], max_line: int) -> Iterator[bytes]:
    while True:
        line = fp.readline(max_line + 1)
        if not line:
            return
        if len(line) > max_line and not line.endswith(b"\n"):
            while True:  # the adapter reports the cut line as too long; skip the rest
                rest = fp.readline(1 << 20)
                if not rest or rest.endswith(b"\n"):
                    break
        yield line


def _open(path: str) -> IO[bytes]:
    """A session file, or a database's (or one session of it) rows as JSON lines."""
    return open_rows(path) or open(path, "rb")


def _head(path: str) -> tuple[str | None, list[Any]]:
    """The agent that claims the file's first records, and those records (parsed)."""
    kept: list[Any] = []
    found: list[str] = []

    def probe(obj: Any) -> Message:
        kept.append(obj)
        name = detect(obj)
        if name is not None and not found:
            found.append(name)
        return _NOTHING

    max_line = current_limits().max_line
    try:
        with _open(path) as fp:
            for _ in decode_lines(probe, _lines(fp, max_line), source="sessions"):
                if found or len(kept) >= HEAD_RECORDS:
                    break
    except OSError:
        return None, []
    return (found[0] if found else None), kept


def locate(path: str, agent: str | None = None) -> Located | None:
    """What a file is: its agent (detected from its first records unless given) and session."""
    name, head = _head(path)
    name = agent or name
    if name is None or name not in NAMES:
        return None
    file = hook(name).locate(path, head)
    return None if file is None else Located(name, file)


def _files(path: str) -> Iterator[tuple[str, str | None]]:
    """The candidate files a path names, with the agent when the folder says it."""
    if not os.path.isdir(path):
        for one in session_paths(path):  # a database: each of its sessions
            yield one, None
        return
    for name in CLI_NAMES:  # a default root: the agent's own files only
        h = hook(name)
        for root in h.roots(dict(os.environ)):
            if os.path.isdir(root) and os.path.samefile(root, path):
                for found in h.files(path):
                    yield found, name
                return
    for found in walk_files(path, (*LOG_SUFFIXES, *STORE_SUFFIXES), archived=True):
        for one in session_paths(found):  # a Hermes database: each of its sessions
            yield one, None


def _split(path: str, agent: str | None) -> list[Located] | None:
    """The sessions of a file that holds several (a database), by the hook that reads it.

    ``None`` when the file is not such a store (it is then located as a log file); an empty
    list when it is a store no agent reads.
    """
    if not path.endswith(STORE_SUFFIXES):
        return None
    for name in (agent,) if agent is not None else CLI_NAMES:
        split = getattr(hook(name), "split", None)
        found = None if split is None else split(path)
        if found is not None:
            return [Located(name, f) for f in found]
    return []


def group(paths: Iterable[str]) -> list[tuple[tuple[str, str], list[Located]]]:
    """The session files under ``paths``, grouped by (agent, session id), in first-seen order."""
    groups: dict[tuple[str, str], list[Located]] = {}
    seen: set[str] = set()
    for path in paths:
        for file, agent in _files(path):
            real = os.path.realpath(file)
            if real in seen:
                continue
            seen.add(real)
            stored = _split(file, agent)
            if stored is not None:
                for one in stored:
                    groups.setdefault((one.agent, one.file.session), []).append(one)
                continue
            located = locate(file, agent)
            if located is not None:
                groups.setdefault((located.agent, located.file.session), []).append(located)
    return list(groups.items())


def _read(agent: str, path: str) -> Iterator[Message]:
    with _open(path) as fp:
        yield from get(agent).iter_decode(_lines(fp, current_limits().max_line))


@dataclass(slots=True)
class _Part:
    """The records and links of one session's own files, read in order."""

    records: list[Message] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


def _read_part(agent: str, files: Sequence[SessionFile]) -> _Part:
    part = _Part()
    h = hook(agent)
    read = getattr(h, "read", None)
    if read is not None and files:  # the hook reads a session's files together
        linker = h.linker(files[0])
        for file in files:
            if file.path not in part.files:
                part.files.append(file.path)
        for message in read(files):
            part.records.append(message)
            part.links.append(linker.link(message))
        return part
    for file in files:
        linker = h.linker(file)
        part.files.append(file.path)
        for message in _read(agent, file.path):
            part.records.append(message)
            part.links.append(linker.link(message))
    return part


def _model_of(message: Message) -> str:
    return getattr(message, "model", None) or ""


def _named(records: Sequence[Message]) -> str:
    """The first model the records name, a result's or an error's aside.

    ``messages stats`` names a session's model so; it is the model of a call whose own
    record names none.
    """
    for message in records:
        if not isinstance(message, ResultMessage | ErrorMessage) and _model_of(message):
            return _model_of(message)
    return ""


def _rank(usage: Usage) -> tuple[float, ...]:
    """How complete a call's counts are: a streamed response's usage grows, output last."""
    return completeness(
        usage.output_tokens,
        usage.input_tokens,
        usage.cache_read_tokens,
        usage.cache_write_tokens,
    )


def _logged(message: Message, usage: Usage) -> Usage:
    """A call's usage with the cost its record logs where the usage itself has none.

    A run's result logs the run's cost (Claude Code's ``total_cost_usd``), an older Claude
    Code transcript each reply's (``costUSD``): ``messages stats`` reads both. A cost that
    is not one (negative, not finite) is not kept, as ``messages stats`` does not sum it.
    """
    if usage.cost_usd is not None:
        if logged_cost(usage.cost_usd) is not None:
            return usage
        usage = replace(usage, cost_usd=None)  # negative or not finite: as stats, not summed
    if isinstance(message, ResultMessage):
        cost = logged_cost(message.total_cost_usd)
    else:
        cost = logged_cost(raw(message.extra).get("costUSD"))
    return usage if cost is None else replace(usage, cost_usd=cost)


def _usage(
    part: _Part, subagents: Mapping[str, Session], known: Container[str] | None = None
) -> SessionUsage:
    """Each call once, and each copy where it belongs.

    A copy of another session's call counts there, when that session is among those loaded
    (``known``); a copy whose origin was not loaded counts here, so that no call of the files
    read is left out of every total.
    """
    own: dict[str, tuple[Usage, str]] = {}
    split: dict[str, list[tuple[str, Usage]]] = {}
    copied: dict[str, Usage] = {}
    origin = next((link.origin for link in part.links if link.origin), None)
    for message, link in zip(part.records, part.links, strict=True):
        usage = getattr(message, "usage", None)
        if link.call is None or not isinstance(usage, Usage):
            continue
        if not isinstance(message, AssistantMessage | ResultMessage):
            continue
        if link.copied and (known is None or (link.origin or origin) in known):
            if link.call not in copied or _rank(usage) > _rank(copied[link.call]):
                copied[link.call] = usage
        elif link.call not in own or _rank(usage) > _rank(own[link.call][0]):
            own[link.call] = (_logged(message, usage), _model_of(message))
            split[link.call] = model_usages(message)
    if any(call.startswith(RESULT_CALL) for call in own):  # the run's own totals win
        own = {call: v for call, v in own.items() if call.startswith(RESULT_CALL)}
    named = _named(part.records)
    own = {call: (usage, model or named) for call, (usage, model) in own.items()}
    by_model: dict[str, Usage] = {}
    per_call: list[tuple[str, Usage]] = []
    for call, (usage, model) in own.items():
        for name, share in split.get(call) or [(model, usage)]:  # totals per model, if given
            by_model[name] = by_model.get(name, Usage()) + share
            per_call.append((name, share))
    own_total = Usage.sum(u for u, _ in own.values())
    total = own_total
    calls = len(own)
    by_sub: dict[str, Usage] = {}
    for key, sub in subagents.items():
        total = total + sub.usage.total
        calls += sub.usage.calls
        by_sub[key] = sub.usage.total
        for model, usage in sub.usage.by_model.items():
            by_model[model] = by_model.get(model, Usage()) + usage
        per_call += sub.usage.per_call
    return SessionUsage(
        total,
        own=own_total,
        calls=calls,
        by_model=FrozenMap(by_model),
        by_subagent=FrozenMap(by_sub),
        copied=Usage.sum(u for k, u in copied.items() if k not in own),
        per_call=tuple(per_call),
    )


def _title_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= TITLE_LENGTH else line[: TITLE_LENGTH - 1] + "…"


def _text(message: Message) -> str:
    text = getattr(message, "text", None)
    return text if isinstance(text, str) else ""


def _finish(
    agent: str,
    session_id: str,
    part: _Part,
    subagents: Mapping[str, Session],
    *,
    project: str | None = None,
    agent_id: str | None = None,
    summarizers: Sequence[Session] = (),
    known: Container[str] | None = None,
) -> Session:
    records, links = part.records, part.links
    graph = assemble(links)
    title = None
    ids = {link.id for link in links if link.id is not None}
    for link in links:
        # the agent's own title (the last one wins); one naming a leaf must name one of ours
        if link.title is not None and (link.parent is None or link.parent in ids):
            title = link.title
    active = set(graph.active)
    prompts = [
        i
        for i, link in enumerate(links)
        if link.prompt and not link.sidechain and (i in active or not link.conversation)
    ]
    if title is None and prompts:
        first = links[prompts[0]].text or _text(records[prompts[0]])
        title = _title_line(first) or None
    cwd = next((link.cwd for link in links if link.cwd), None)
    if project is None and cwd:
        project = os.path.basename(cwd.rstrip("/\\")) or cwd
    stamps = [t for m in records if (t := getattr(m, "timestamp", None)) is not None]
    parent = next((link.origin for link in links if link.origin), None)
    branches = tuple(
        Branch(fork, tuple(records[i] for i in members), leaf=links[members[-1]].id)
        for fork, members in graph.branches
    )
    writers = iter(summarizers)
    compactions = tuple(
        Compaction(
            None if boundary is None else records[boundary],
            None if summary is None else records[summary],
            replaces=None if boundary is None else links[boundary].logical_parent,
            agent=next(writers, None),
        )
        for boundary, summary in graph.compactions
    )
    return Session(
        agent,
        agent_id or session_id,
        title=title,
        cwd=cwd,
        project=project,
        started=stamps[0] if stamps else None,
        ended=stamps[-1] if stamps else None,
        messages=tuple(records[i] for i in graph.active),
        records=tuple(records),
        branches=branches,
        subagents=FrozenMap(subagents),
        compactions=compactions,
        parent=parent,
        usage=_usage(part, subagents, known),
        files=tuple(part.files),
        agent_id=agent_id,
        prompts=len(prompts),
    )


def assemble_session(
    agent: str,
    session_id: str,
    files: Sequence[SessionFile],
    *,
    known: Container[str] | None = None,
) -> Session:
    """Read one session's ``files`` (main transcripts and subagent files) and assemble it.

    Each file is read once. Subagents are attached under the tool call that started them
    (else under their agent id); a subagent file the hook marks as writing compaction
    summaries is also attached to the session's compactions, in order.
    """
    mains = [f for f in files if f.role == "main"]
    subs: dict[str, list[SessionFile]] = {}
    for f in files:
        if f.role == "subagent":
            subs.setdefault(f.agent_id or f.path, []).append(f)
    part = _read_part(agent, mains)
    starters: dict[str, str] = {}
    for link in part.links:
        if link.subagent is not None and link.subagent[0] is not None:
            starters.setdefault(link.subagent[1], link.subagent[0])
    subagents: dict[str, Session] = {}
    summarizers: list[Session] = []
    for agent_id, sub_files in subs.items():
        sub = _finish(
            agent,
            session_id,
            _read_part(agent, sub_files),
            {},
            project=sub_files[0].project,
            agent_id=agent_id,
        )
        if sub_files[0].compaction and agent_id not in starters:
            summarizers.append(sub)
        subagents[starters.get(agent_id, agent_id)] = sub
    summarizers.sort(key=lambda s: str(s.started or ""))
    project = next((f.project for f in files if f.project), None)
    return _finish(
        agent, session_id, part, subagents, project=project, summarizers=summarizers, known=known
    )


def load(paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> Iterator[Session]:
    """The sessions in ``paths`` (files or folders), one at a time.

    Files are grouped into sessions first (reading the first records of each); then each
    session's files are read whole, once, when the session is reached, and only that
    session's records are held.
    """
    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    groups = group(os.fspath(p) for p in paths)
    known = {session_id for (_, session_id), _ in groups}
    for (agent, session_id), located in groups:
        yield assemble_session(agent, session_id, [x.file for x in located], known=known)


def find(env: Mapping[str, str] | None = None) -> Iterator[Session]:
    """The sessions in the agents' own folders (``~/.claude/projects``, ``~/.codex/sessions``)."""
    return load(roots(env))


def pick(query: str, paths: Iterable[str] = ()) -> Session:
    """One session: the one a file belongs to, or the one whose id is ``query`` or starts so.

    A file is looked for among the files beside it (so a Claude Code transcript finds its
    subagent files), or in ``paths`` when given; a subagent's file gives that subagent's
    session. An id or a unique id prefix is looked for in ``paths`` (default: :func:`roots`).
    Raises :class:`LookupError` when nothing matches, or when a prefix matches several.
    """
    given = list(paths)
    base, part = split(query)  # a database's session: ``<db>#session=<id>``
    if os.path.isfile(query) or part is not None:
        target = os.path.realpath(base) + ("" if part is None else SESSION_MARK + part)
        where = given or [os.path.dirname(os.path.abspath(base))]
        for (agent, session_id), located in group(where):
            files = [x.file for x in located]
            if any(os.path.realpath(f.path) == target for f in files):
                session = assemble_session(agent, session_id, files)
                for sub in session.walk():
                    if any(os.path.realpath(p) == target for p in sub.files):
                        return sub
                return session
        raise LookupError(f"{query}: not a session file of any agent")
    groups = group(given or roots())
    matches = [g for g in groups if g[0][1] == query] or [
        g for g in groups if g[0][1].startswith(query)
    ]
    if not matches:
        raise LookupError(f"no session with id {query!r} (looked in {len(groups)} sessions)")
    if len(matches) > 1:
        shown = ", ".join(f"{a}:{i}" for (a, i), _ in matches[:5])
        more = "" if len(matches) <= 5 else f" and {len(matches) - 5} more"
        raise LookupError(f"session id {query!r} is ambiguous: {shown}{more}")
    (agent, session_id), located = matches[0]
    return assemble_session(agent, session_id, [x.file for x in located])

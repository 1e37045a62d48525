"""The session graph: the active conversation, abandoned branches, compactions, from links.

Everything here works on the :class:`~messages.adapters._sessions.Link` of each record (by
its index in file order) and knows no agent. The rules:

- A record's place is its first occurrence: a record written again with the same id (a resume
  copying history, a second compaction re-appending it) adds no node.
- The active leaf is the last record in file order that the model saw (``conversation``) and
  that is not on a side chain. The active path runs from it to a root through ``parent``, and
  through ``logical_parent`` where a record has no parent (a compaction boundary).
- Pieces of one response (the same ``group``) that sit beside the path belong to it, and so
  does a record hanging from such a piece that ends there (the result of a parallel tool
  call): neither is an abandoned branch.
- Every other conversation record is on an abandoned branch; a branch is named by the record
  where it leaves the active conversation (``None`` for a separate root). A record hanging
  from an id outside the files read (a subagent's records pointing into its parent's history)
  is on no branch: it stays in the records only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field

from ..adapters._sessions import Link

__all__ = ["Graph", "assemble", "path_from"]


@dataclass(slots=True)
class Graph:
    """The result of :func:`assemble`: indices into the records, in file order."""

    active: list[int] = field(default_factory=list)
    """The records of the active conversation (conversation records and compaction markers)."""
    branches: list[tuple[str | None, list[int]]] = field(default_factory=list)
    """Each abandoned branch: the id it forks at, and its conversation records."""
    compactions: list[tuple[int | None, int | None]] = field(default_factory=list)
    """Each compaction: the index of its boundary and of its summary (either may be absent)."""


def _positions(links: Sequence[Link]) -> dict[str, int]:
    pos: dict[str, int] = {}
    for i, link in enumerate(links):
        if link.id is not None and link.id not in pos:
            pos[link.id] = i
    return pos


def _up(link: Link) -> str | None:
    return link.parent if link.parent is not None else link.logical_parent


def path_from(links: Sequence[Link], leaf: int, pos: dict[str, int] | None = None) -> list[int]:
    """The indices from ``leaf`` up to its root, leaf first (a cycle stops the walk)."""
    if pos is None:
        pos = _positions(links)
    out: list[int] = []
    seen: set[int] = set()
    cur: int | None = leaf
    while cur is not None and cur not in seen:
        seen.add(cur)
        out.append(cur)
        up = _up(links[cur])
        cur = None if up is None else pos.get(up)
    return out


def _is_node(links: Sequence[Link], pos: dict[str, int], i: int) -> bool:
    link = links[i]
    return link.id is not None and pos.get(link.id) == i


def assemble(links: Sequence[Link]) -> Graph:
    """The active conversation, the abandoned branches and the compactions of one session."""
    pos = _positions(links)
    graph = Graph()
    seen_conv = [
        i
        for i, link in enumerate(links)
        if link.conversation and not link.sidechain and (link.id is None or _is_node(links, pos, i))
    ]
    leaf = next((i for i in reversed(seen_conv) if links[i].id is not None), None)
    included: set[int] = set()
    if leaf is not None:
        included.update(path_from(links, leaf, pos))
    # Records without an id are not in the graph: they keep their place in file order.
    included.update(i for i in seen_conv if links[i].id is None)
    groups = {links[i].group for i in included if links[i].group is not None}
    if groups:
        pieces = {i for i in seen_conv if links[i].group in groups}
        included |= pieces
        ends = _dead_ends(links, pos, seen_conv)
        for i in seen_conv:
            if i in included or i not in ends:
                continue
            up = _up(links[i])
            p = None if up is None else pos.get(up)
            if p is not None and p in included and links[p].group in groups:
                included.add(i)
    graph.active = sorted(
        i for i in included if links[i].conversation or links[i].compaction or links[i].summary
    )
    graph.active = [i for i in graph.active if not links[i].sidechain]
    graph.branches = _branches(links, pos, seen_conv, included)
    graph.compactions = _compactions(links)
    return graph


def _dead_ends(links: Sequence[Link], pos: dict[str, int], conv: list[int]) -> set[int]:
    """The conversation records with no conversation record below them."""
    below: set[int] = set()  # records with a conversation record somewhere below
    for i in conv:
        seen: set[int] = set()
        up = _up(links[i])
        cur = None if up is None else pos.get(up)
        while cur is not None and cur not in below and cur not in seen:
            seen.add(cur)
            below.add(cur)
            up = _up(links[cur])
            cur = None if up is None else pos.get(up)
    return {i for i in conv if i not in below}


def _branches(
    links: Sequence[Link], pos: dict[str, int], conv: list[int], included: set[int]
) -> list[tuple[str | None, list[int]]]:
    tops: dict[int, tuple[int, str | None]] = {}  # record -> (branch top, fork id)
    grouped: dict[int, tuple[str | None, list[int]]] = {}
    for i in conv:
        if i in included or links[i].id is None:
            continue
        trail: list[int] = []
        cur = i
        fork: str | None = None
        top = i
        while True:
            if cur in tops:
                top, fork = tops[cur]
                break
            trail.append(cur)
            top = cur
            up = _up(links[cur])
            p = None if up is None else pos.get(up)
            if p is None and up is not None:
                top = -1  # hangs from a record outside these files: not a branch
                break
            if p is None or p in trail:
                fork = None
                break
            if p in included:
                fork = links[p].id
                break
            cur = p
        for t in trail:
            tops[t] = (top, fork)
        if top != -1:
            grouped.setdefault(top, (fork, []))[1].append(i)
    return [grouped[k] for k in sorted(grouped, key=lambda k: grouped[k][1][0])]


def _compactions(links: Sequence[Link]) -> list[tuple[int | None, int | None]]:
    out: list[tuple[int | None, int | None]] = []
    for i, link in enumerate(links):
        if link.compaction:
            if out and out[-1][0] is None and out[-1][1] is not None:
                out[-1] = (i, out[-1][1])
            else:
                out.append((i, None))
        elif link.summary:
            if out and out[-1][1] is None and out[-1][0] is not None:
                out[-1] = (out[-1][0], i)
            else:
                out.append((None, i))
    return out

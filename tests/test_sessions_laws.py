"""Laws of the session graph (issue 24): property tests over generated trees and files."""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from messages.adapters._sessions import Link
from messages.sessions import load
from messages.sessions._graph import assemble
from messages.sessions._graph import path_from

HERE = Path(__file__).parent / "fixtures" / "sessions"


@st.composite
def trees(draw: st.DrawFn) -> list[Link]:
    """A record tree in file order: each record's parent comes before it, or it is a root."""
    n = draw(st.integers(1, 40))
    links = []
    for i in range(n):
        parent = draw(st.none() | st.integers(0, i - 1)) if i else None
        links.append(
            Link(
                f"r{i}",
                None if parent is None else f"r{parent}",
                conversation=draw(st.booleans()) or i == n - 1,
            )
        )
    return links


@given(trees())
def test_messages_are_a_root_to_leaf_path(links: list[Link]) -> None:
    graph = assemble(links)
    leaf = max(i for i, link in enumerate(links) if link.conversation)
    path = path_from(links, leaf)[::-1]  # root first
    assert links[path[0]].parent is None
    for up, down in itertools.pairwise(path):
        assert links[down].parent == links[up].id
    assert graph.active == [i for i in path if links[i].conversation]
    assert graph.active[-1] == leaf


@given(trees())
def test_every_conversation_record_is_active_or_on_one_branch(links: list[Link]) -> None:
    graph = assemble(links)
    on_branches = [i for _, members in graph.branches for i in members]
    assert len(on_branches) == len(set(on_branches))
    assert sorted(graph.active + on_branches) == [
        i for i, link in enumerate(links) if link.conversation
    ]
    active_ids = {links[i].id for i in path_from(links, graph.active[-1])}
    for fork, _ in graph.branches:
        assert fork is None or fork in active_ids


@given(trees())
def test_records_written_again_change_nothing(links: list[Link]) -> None:
    once = assemble(links)
    twice = assemble(links + links)  # a resume or a second compaction re-appending them
    assert twice.active == once.active
    assert twice.branches == once.branches


def _calls(draw: st.DrawFn) -> list[dict[str, object]]:
    count = draw(st.integers(1, 6))
    lines: list[dict[str, object]] = []
    parent = None
    for i in range(count):
        uuid = f"u{i}"
        lines.append(
            {
                "type": "user" if i % 2 == 0 else "assistant",
                "uuid": uuid,
                "parentUuid": parent,
                "sessionId": "s",
                "message": {"role": "user", "content": f"p{i}"}
                if i % 2 == 0
                else {
                    "id": f"m{i}",
                    "role": "assistant",
                    "content": [{"type": "text", "text": f"a{i}"}],
                    "usage": {"input_tokens": i, "output_tokens": draw(st.integers(0, 9))},
                },
                "requestId": f"q{i}",
            }
        )
        parent = uuid
    return lines


@given(st.data())
def test_dedup_is_idempotent(tmp_path_factory: object, data: st.DataObject) -> None:
    lines = _calls(data.draw)
    folder = Path(tmp_path_factory.mktemp("dedup"))  # type: ignore[attr-defined]
    once, twice = folder / "a", folder / "b"
    once.mkdir()
    twice.mkdir()
    text = "".join(json.dumps(line) + "\n" for line in lines)
    (once / "s.jsonl").write_text(text)
    (twice / "s.jsonl").write_text(text + text)
    (a,) = load(once)
    (b,) = load(twice)
    assert b.usage == a.usage
    assert b.messages == a.messages
    assert b.branches == a.branches == ()


FILES = sorted(p for p in HERE.rglob("*.jsonl"))


@given(st.permutations(FILES))
def test_loading_a_folder_equals_loading_its_files(order: list[Path]) -> None:
    by_folder = {(s.agent, s.id): s for s in load(HERE)}
    by_file = {(s.agent, s.id): s for s in load(order)}
    assert by_file.keys() == by_folder.keys()
    for key, s in by_folder.items():
        other = by_file[key]
        assert other.messages == s.messages
        assert other.usage.total == s.usage.total
        assert other.subagents.keys() == s.subagents.keys()
        assert other.branches == s.branches
        assert other.parent == s.parent


def test_loading_a_copy_of_a_folder_gives_the_same_sessions(tmp_path: Path) -> None:
    shutil.copytree(HERE, tmp_path / "copy")
    mine = [(s.id, s.messages, s.usage) for s in load(HERE)]
    theirs = [(s.id, s.messages, s.usage) for s in load(tmp_path / "copy")]
    assert mine == theirs

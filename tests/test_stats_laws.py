"""The merge laws of ``messages.stats`` over the shared real captures, and every field of the
JSON a session and a report give.

Each capture's lines are cut at random points into parts; each part is read as an input of
its own. Merging the parts, in any grouping and order of grouping, gives the report that
reading the whole file gives, for every field of the report (the list of inputs aside, which
names the parts).
"""

from __future__ import annotations

import functools
import itertools
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from conftest import shared_fixtures
from messages import Message
from messages.adapters import get
from messages.stats import SessionStats
from messages.stats import Stats
from messages.stats import Tokens
from messages.stats._engine import Entry

CAPTURES = (("claude_code", ("claude_code", "transcripts-2.1")),)
"""Captures whose records name their session (Claude Code transcripts: ``sessionId`` on each
conversation line), so that a fragment is known to be part of its session as long as it
holds one such record (the cuts are drawn so that every part does). A fragment of a
Codex rollout after its ``session_meta`` line names no session and shares no record with the
rest: it is a session of its own (``resolve`` joins a fragment to a session only by a shared
record), so the law holds there only for cuts that keep the session's first line with each
part; a stream whose result lines restate running totals (Claude Code ``stream-json``)
counts the last result of each input, so a cut adds one."""


@functools.cache
def _decoded(name: str, parts: tuple[str, ...]) -> tuple[tuple[str, tuple[Message, ...]], ...]:
    folder = shared_fixtures(*parts)
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in (".jsonl", ".json"))
    adapter = get(name)
    found = []
    for path in files:
        with path.open(encoding="utf-8") as fp:
            found.append((str(path), tuple(adapter.iter_decode(fp))))
    return tuple(found)


def _without_inputs(doc: Any) -> Any:
    if isinstance(doc, dict):
        return {k: _without_inputs(v) for k, v in doc.items() if k != "inputs"}
    if isinstance(doc, list):
        return [_without_inputs(v) for v in doc]
    return doc


def _report(stats: Stats, by: str) -> Any:
    return _without_inputs(stats.report(by, tz=UTC, cost="estimated").to_json())  # type: ignore[arg-type]


@st.composite
def _split(draw: st.DrawFn, n: int) -> list[int]:
    cuts = draw(st.lists(st.integers(0, n), max_size=4))
    return sorted(set(cuts))


def _grouped(parts: list[Stats], draw: st.DrawFn) -> Stats:
    """The parts merged in a random grouping (a random binary tree, order kept)."""
    if len(parts) == 1:
        return parts[0]
    at = draw(st.integers(1, len(parts) - 1))
    return _grouped(parts[:at], draw).merge(_grouped(parts[at:], draw))


@pytest.mark.parametrize(("name", "where"), CAPTURES, ids=[c[0] for c in CAPTURES])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_any_split_merged_in_any_grouping_is_the_whole(
    name: str, where: tuple[str, ...], data: st.DataObject
) -> None:
    files = _decoded(name, where)
    if not files:
        pytest.skip(f"no {name} capture")
    whole = Stats.merge_all(
        Stats.of_messages(messages, label=path, format=name) for path, messages in files
    )
    parts: list[Stats] = []
    for path, messages in files:
        cuts = data.draw(_split(len(messages)), label=f"cuts of {Path(path).name}")
        # a part must name its session somewhere: a fragment of records without a session id
        # (a file-history-snapshot line) and without a record another part holds cannot be
        # told to belong to any session, and would be a session of its own
        cuts = [
            cut
            for cut in cuts
            if any(m.session_id for m in messages[cut:])
            and any(m.session_id for m in messages[:cut])
        ]
        kept = []
        for cut in cuts:
            lo = kept[-1] if kept else 0
            if any(m.session_id for m in messages[lo:cut]):
                kept.append(cut)
        if kept and not any(m.session_id for m in messages[kept[-1] :]):
            kept.pop()
        bounds = [0, *kept, len(messages)]
        for i, (lo, hi) in enumerate(itertools.pairwise(bounds)):
            label = f"{path}.part{i}"
            parts.append(Stats.of_messages(messages[lo:hi], label=label, format=name))
    merged = _grouped(parts, data.draw)
    by = data.draw(st.sampled_from(["session", "day", "model", "subagent", "block", "week"]))
    assert _report(merged, by) == _report(whole, by)
    assert [s.to_json()["tokens"] for s in merged.sessions()] == [
        s.to_json()["tokens"] for s in whole.sessions()
    ]


# -- every field of to_json ------------------------------------------------------------------


def test_session_to_json_gives_every_figure() -> None:
    s = SessionStats(
        "s1",
        inputs=["a.jsonl", "b.jsonl"],
        formats=["claude_code"],
        turn_keys=[frozenset({"m1"}), frozenset({"m2"}), frozenset({"m1", "m3"})],
        calls={"c1": "Bash", "c2": "Read", "c3": "Bash"},
        failed={"c2"},
        errors_seen={"e1", "e2", "e3"},
        turn_usage={
            "m1": Entry(Tokens(1, 2, 3, 4, None, 0.5)),
            "m2": Entry(Tokens(10, 20, None, 40, 7, 0.25)),
        },
        boundaries={"b1"},
        summaries={"x1", "x2"},
    )
    assert s.to_json() == {
        "session_id": "s1",
        "inputs": ["a.jsonl", "b.jsonl"],
        "formats": ["claude_code"],
        "turns": 2,  # m1 and m3 share a record: one turn
        "tool_calls": {"Bash": 2, "Read": 1},
        "tool_errors": 1,
        "errors": 3,
        "compactions": 2,  # the summaries, where there are more than boundaries
        "tokens": {
            "input": 11,
            "output": 22,
            "cache_read": 3,
            "cache_write": 44,
            "reasoning": 7,
            "cache_write_1h": None,
            "web_searches": None,
            "web_fetches": None,
        },
        "cost_usd": 0.75,
    }
    assert SessionStats(None).to_json() == {
        "session_id": None,
        "inputs": [],
        "formats": [],
        "turns": 0,
        "tool_calls": {},
        "tool_errors": 0,
        "errors": 0,
        "compactions": 0,
        "tokens": dict.fromkeys(
            (
                "input",
                "output",
                "cache_read",
                "cache_write",
                "reasoning",
                "cache_write_1h",
                "web_searches",
                "web_fetches",
            )
        ),
        "cost_usd": None,
    }


def test_absorb_keeps_every_part_of_the_other() -> None:
    a = SessionStats("s", inputs=["a"], formats=["claude_code"], model=None, cwd=None)
    b = SessionStats(
        "s",
        inputs=["b"],
        formats=["codex"],
        calls={"c": "Bash"},
        failed={"c"},
        errors_seen={"e"},
        first_time=5.0,
        model="m",
        cwd="/w",
        folder="f",
        boundaries={"x"},
        summaries={"y"},
        bad_costs={"z"},
        turn_keys=[frozenset({"t"})],
    )
    a.absorb(b)
    assert (a.inputs, a.formats) == (["a", "b"], ["claude_code", "codex"])
    assert (a.calls, a.failed, a.errors_seen) == ({"c": "Bash"}, {"c"}, {"e"})
    assert (a.first_time, a.model, a.cwd, a.folder) == (5.0, "m", "/w", "f")
    assert (a.boundaries, a.summaries, a.bad_costs) == ({"x"}, {"y"}, {"z"})
    assert a.turn_keys == [frozenset({"t"})]
    first = SessionStats("s", first_time=3.0, model="k", cwd="/v", folder="g")
    first.absorb(b)
    assert (first.first_time, first.model, first.cwd, first.folder) == (3.0, "k", "/v", "g")
    copied = first.copy()
    assert copied == first and copied is not first
    copied.absorb(SessionStats("s", inputs=["c"], boundaries={"w"}))
    assert first.inputs == ["b"] and first.boundaries == {"x"}  # the copy is its own


def test_tokens_add_adds_every_figure() -> None:
    t = Tokens(1, 2, 3, 4, 5, 0.5, {"web_searches": 1})
    t.add(Tokens(10, 20, 30, 40, 50, 0.25, {"web_searches": 2, "cache_write_1h_tokens": 3}))
    assert (t.input, t.output, t.cache_read, t.cache_write, t.reasoning) == (11, 22, 33, 44, 55)
    assert t.cost == 0.75
    assert t.more == {"web_searches": 3, "cache_write_1h_tokens": 3}
    t.add(Tokens())
    assert t.cost == 0.75 and t.input == 11
    none = Tokens()
    none.add(Tokens(cost=0.5))
    assert none.cost == 0.5 and none.input is None and not none.reported()


def test_per_tool_counts_of_results_add_up() -> None:
    from messages.stats._engine import _Result

    total = _Result()
    total.add(_Result(calls={"Bash": (3, 1)}, turns=2, cost=0.5))
    total.add(_Result(calls={"Bash": (2, 2), "Read": (1, 0)}, turns=1, cost=0.25))
    assert total.calls == {"Bash": (5, 3), "Read": (1, 0)}
    assert (total.turns, total.cost) == (3, 0.75)


def test_absorb_unites_what_both_parts_hold() -> None:
    a = SessionStats(
        "s",
        errors_seen={"e1"},
        boundaries={"b1"},
        summaries={"y1"},
        failed={"c1"},
        bad_costs={"z1"},
    )
    b = SessionStats(
        "s",
        errors_seen={"e2"},
        boundaries={"b2"},
        summaries={"y2"},
        failed={"c2"},
        bad_costs={"z2"},
    )
    a.resets, b.resets = {1.0, 3.0}, {2.0, 3.0}
    a.absorb(b)
    assert a.resets == {1.0, 2.0, 3.0}
    assert (a.errors_seen, a.boundaries, a.summaries) == ({"e1", "e2"}, {"b1", "b2"}, {"y1", "y2"})
    assert (a.failed, a.bad_costs) == ({"c1", "c2"}, {"z1", "z2"})
    assert (a.errors, a.compactions, a.tool_errors) == (2, 2, 2)


def test_of_two_usages_as_complete_the_first_merged_stays() -> None:
    """Equal figures (a copy of the same line): the part merged first keeps its record."""
    first = SessionStats("s", turn_usage={"m1": Entry(Tokens(1, 2), "2026-01-15T10:00:00Z")})
    again = SessionStats("s", turn_usage={"m1": Entry(Tokens(1, 2), "2026-01-16T10:00:00Z")})
    more = SessionStats("s", turn_usage={"m1": Entry(Tokens(1, 3), "2026-01-17T10:00:00Z")})
    first.absorb(again)
    assert first.turn_usage["m1"].timestamp == "2026-01-15T10:00:00Z"
    first.absorb(more)
    assert first.turn_usage["m1"].timestamp == "2026-01-17T10:00:00Z"  # the final usage wins


def test_to_json_rounds_cost_to_ten_places() -> None:
    s = SessionStats("s", turn_usage={"m": Entry(Tokens(1, 1, cost=0.123456789012345))})
    assert s.to_json()["cost_usd"] == 0.123456789


def test_a_fragment_joins_the_one_session_whose_records_it_holds() -> None:
    from messages.stats._engine import resolve

    named = SessionStats("s1", inputs=["whole"], calls={"c1": "Bash"})
    other = SessionStats("s2", inputs=["other"], calls={"c9": "Read"})
    fragment = SessionStats(None, inputs=["part"], calls={"c1": "Bash"}, failed={"c1"})
    stranger = SessionStats(None, inputs=["alone"], calls={"c5": "Edit"})
    found = resolve(
        {
            ("session", "s1"): named,
            ("session", "s2"): other,
            ("input", "part"): fragment,
            ("input", "alone"): stranger,
        }
    )
    assert [(s.session_id, s.inputs) for s in found] == [
        ("s1", ["whole", "part"]),
        ("s2", ["other"]),
        (None, ["alone"]),  # it shares no record with any session: a session of its own
    ]
    assert found[0].tool_errors == 1
    # an input-keyed part is never an owner itself
    lone = resolve(
        {
            ("input", "a"): SessionStats(None, inputs=["a"], calls={"c": "X"}),
            ("input", "b"): SessionStats(None, inputs=["b"], calls={"c": "X"}),
        }
    )
    assert [s.inputs for s in lone] == [["a"], ["b"]]
    assert named.inputs == ["whole"]  # the parts given are left as they were

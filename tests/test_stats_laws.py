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
from messages import AssistantMessage
from messages import InitMessage
from messages import Message
from messages import ToolResultBlock
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import Usage
from messages import UserMessage
from messages.adapters import get
from messages.convert import flatten_assistant
from messages.stats import SessionStats
from messages.stats import Stats
from messages.stats import Tokens
from messages.stats._engine import Entry
from messages.stats._engine import InputStats
from messages.stats._engine import _Result
from messages.stats._report import VIEWS
from messages.strategies import blocks
from messages.strategies import role_messages

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
    by = data.draw(st.sampled_from(VIEWS))
    assert _report(merged, by) == _report(whole, by)
    assert [_digest(s) for s in merged.sessions()] == [_digest(s) for s in whole.sessions()]


def _digest(s: SessionStats) -> dict[str, Any]:
    """Everything a session holds that does not name its inputs: the figures of ``to_json``
    and the records behind them, and what a report reads besides (start, model, place)."""
    doc = s.to_json()
    del doc["inputs"]
    tokens = s.tokens
    return doc | {
        "first_time": s.first_time,
        "model": s.model,
        "cwd": s.cwd,
        "folder": s.folder,
        "project": s.project,
        "calls": s.calls,
        "failed": s.failed,
        "errors_seen": s.errors_seen,
        # each message's final usage, with the time of the line that gave it
        "turn_usage": {
            key: (e.tokens, e.timestamp, e.model, e.context, e.agent, e.request_id)
            for key, e in s.turn_usage.items()
        },
        "results": s.results,
        "reported": s.reported(),
        "reported_parts": s.reported_parts(),
        "boundaries": s.boundaries,
        "summaries": s.summaries,
        "bad_costs": s.bad_costs,
        "resets": s.resets,
        "keys": s.keys(),
        "cost": tokens.cost,
        "assistant_turns": s.assistant_turns,
    }


CUT_AT_TURNS = (
    ("pi", ("pi",)),
    ("codex", ("codex_rollout",)),
    ("codex", ("codex_app_server",)),
    ("codex", ("codex_exec",)),
    ("cursor", ("cursor",)),
    ("acp", ("acp",)),
    ("gemini_cli", ("gemini_cli",)),
    ("gemini_session", ("gemini_cli_session",)),
)
"""Captures whose session is named once, by its opening records (a Codex ``session_meta``,
a pi header, an ACP ``session/new`` answer), and whose streamed assistant output carries no
record id a turn could be known by. Two readers of such a log are honest about a part only
when the part comes with the opening records (as a log read again after it grew is) and
starts where a turn ends (a tool result, the user, a new start): a part cut inside a stream
of anonymous thinking cannot know that the turn began in the part before it."""


def _closes_a_turn(m: Message) -> bool:
    return isinstance(m, ToolResultMessage | UserMessage | InitMessage) or getattr(
        m, "role", None
    ) in ("user", "tool")


@functools.cache
def _whole(name: str, where: tuple[str, ...]) -> Stats:
    return Stats.merge_all(
        Stats.of_messages(messages, label=path, format=name)
        for path, messages in _decoded(name, where)
    )


@pytest.mark.parametrize(
    ("name", "where"), CUT_AT_TURNS, ids=[f"{c[0]}-{c[1][0]}" for c in CUT_AT_TURNS]
)
@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_a_log_cut_where_turns_end_merged_in_any_grouping_is_the_whole(
    name: str, where: tuple[str, ...], data: st.DataObject
) -> None:
    files = _decoded(name, where)
    if not files:
        pytest.skip(f"no {name} capture under {'/'.join(where)}")
    parts: list[Stats] = []
    for path, messages in files:
        named = [i for i, m in enumerate(messages) if m.session_id]
        if len({m.session_id for m in messages if m.session_id}) > 1 or not named:
            # several sessions in one file (unit-test lines), or none named: read whole
            parts.append(Stats.of_messages(messages, label=path, format=name))
            continue
        opening = messages[: named[0] + 1]
        at = [i for i in range(named[0] + 1, len(messages)) if _closes_a_turn(messages[i])]
        cuts = sorted(set(data.draw(st.lists(st.sampled_from(at), max_size=3)))) if at else []
        bounds = [named[0] + 1, *cuts, len(messages)]
        for i, (lo, hi) in enumerate(itertools.pairwise(bounds)):
            piece = (*opening, *messages[lo:hi])
            parts.append(Stats.of_messages(piece, label=f"{path}.part{i}", format=name))
    merged = _grouped(parts, data.draw)
    whole = _whole(name, where)
    by = data.draw(st.sampled_from(VIEWS))
    assert _report(merged, by) == _report(whole, by)
    assert [_digest(s) for s in merged.sessions()] == [_digest(s) for s in whole.sessions()]


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


def _line(when: str, output: int = 5) -> AssistantMessage:
    return AssistantMessage(
        "x",
        usage=Usage(3, output),
        message_id="m",
        session_id="s",
        model="claude-sonnet-4-5",
        timestamp=when,
    )


def test_a_message_whose_lines_straddle_midnight_stays_on_its_day_when_cut() -> None:
    lines = [_line("2026-01-15T23:59:59.900Z"), _line("2026-01-16T00:00:00.100Z")]
    whole = Stats.of_messages(lines, label="a.jsonl")
    split = Stats.of_messages(lines[:1], label="a.jsonl.part0").merge(
        Stats.of_messages(lines[1:], label="a.jsonl.part1")
    )
    assert _report(split, "day") == _report(whole, "day")


def test_the_most_complete_usage_of_a_message_wins_cut_or_not() -> None:
    """A streamed message's usage grows: the final figures count, wherever the cut falls."""
    lines = [_line("2026-01-15T23:59:59.900Z", 1), _line("2026-01-16T00:00:00.100Z", 80)]
    whole = Stats.of_messages(lines, label="a.jsonl")
    for first, second in ((lines[:1], lines[1:]), (lines[1:], lines[:1])):
        split = Stats.of_messages(first, label="p0").merge(Stats.of_messages(second, label="p1"))
        assert _report(split, "day") == _report(whole, "day")
        (s,) = split.sessions()
        assert s.turn_usage["m"].timestamp == "2026-01-16T00:00:00.100Z"
        assert s.to_json()["tokens"]["output"] == 80


def test_session_to_json_gives_the_priced_counts_the_log_reports() -> None:
    more = {"cache_write_1h_tokens": 40, "web_searches": 2, "web_fetches": 1}
    s = SessionStats("s", turn_usage={"m": Entry(Tokens(1, 2, 3, 40, None, None, more))})
    tokens = s.to_json()["tokens"]
    assert (tokens["cache_write_1h"], tokens["web_searches"], tokens["web_fetches"]) == (40, 2, 1)


# -- the merge of two parts of a session, field by field, as laws ----------------------------

_small = st.none() | st.integers(0, 1000)
_costs = st.none() | st.integers(0, 64).map(lambda n: n / 8)  # exact sums in any order
_more = st.none() | st.dictionaries(
    st.sampled_from(["cache_write_1h_tokens", "web_searches", "web_fetches"]),
    st.integers(1, 50),
    min_size=1,
)
_tokens = st.builds(Tokens, _small, _small, _small, _small, _small, _costs, _more)


def _added(*parts: Tokens) -> Tokens:
    total = Tokens()
    for part in parts:
        total.add(part)
    return total


def _sum_of(values: list[Any]) -> Any:
    present = [v for v in values if v is not None]
    return sum(present) if present else None


@given(st.lists(_tokens, max_size=4))
def test_tokens_add_sums_each_figure_that_some_part_reports(parts: list[Tokens]) -> None:
    before = [Tokens(**{f: getattr(p, f) for f in Tokens.__slots__}) for p in parts]
    total = _added(*parts)
    for name in ("input", "output", "cache_read", "cache_write", "reasoning", "cost"):
        assert getattr(total, name) == _sum_of([getattr(p, name) for p in parts]), name
    more: dict[str, int] = {}
    for p in parts:
        for key, n in (p.more or {}).items():
            more[key] = more.get(key, 0) + n
    assert total.more == (more or None)
    assert total.reported() == any(p.reported() for p in parts)
    assert parts == before  # the parts added are left as they were


@given(st.lists(_tokens, max_size=5))
def test_a_rows_counts_add_as_tokens_add_without_the_cost(parts: list[Tokens]) -> None:
    """The report adds each part's counts to its row in place: the same sums as Tokens.add
    of the counts alone, and the parts (their further counts too) left as they were."""
    from messages.stats._report import _add_counts

    before = [Tokens(**{f: getattr(p, f) for f in Tokens.__slots__}) for p in parts]
    before_more = [None if p.more is None else dict(p.more) for p in parts]
    row = Tokens()
    for part in parts:
        _add_counts(row, part)
    expected = _added(
        *[
            Tokens(p.input, p.output, p.cache_read, p.cache_write, p.reasoning, None, p.more)
            for p in parts
        ]
    )
    assert row == expected
    assert parts == before
    assert [p.more for p in parts] == before_more


@given(_tokens, _tokens, _tokens)
def test_tokens_add_is_associative_and_commutative(a: Tokens, b: Tokens, c: Tokens) -> None:
    assert _added(_added(a, b), c) == _added(a, _added(b, c)) == _added(c, b, a)
    assert _added(a, Tokens()) == _added(a)


_calls = st.none() | st.dictionaries(
    st.sampled_from(["Bash", "Read", "Edit"]),
    st.tuples(st.integers(0, 9), st.integers(0, 9)),
    max_size=3,
)
_results = st.builds(
    _Result,
    st.none() | _tokens,
    st.none() | st.integers(0, 9),
    _costs,
    _calls,
)


@given(st.lists(_results, max_size=4))
def test_results_add_up_call_and_failure_counts_per_tool(parts: list[_Result]) -> None:
    total = _Result()
    for part in parts:
        total.add(part)
    expected: dict[str, tuple[int, int]] = {}
    for part in parts:
        for tool, (n, failed) in (part.calls or {}).items():
            had, had_failed = expected.get(tool, (0, 0))
            expected[tool] = (had + n, had_failed + failed)
    assert total.calls == (expected if any(p.calls is not None for p in parts) else None)
    assert total.turns == _sum_of([p.turns for p in parts])
    assert total.cost == _sum_of([p.cost for p in parts])
    reported = [p.tokens for p in parts if p.tokens is not None and p.tokens.reported()]
    assert total.tokens == (_added(*reported) if reported else None)


_keys = st.sets(st.sampled_from(["k1", "k2", "k3", "k4"]), max_size=3)
_names = st.none() | st.sampled_from(["a", "b"])
_entry = st.builds(
    Entry,
    st.builds(Tokens, _small, _small, _small, _small),
    st.none() | st.sampled_from(["2026-01-15T10:00:00Z", "2026-01-16T10:00:00Z"]),
    _names,
)


@st.composite
def _session(draw: st.DrawFn) -> SessionStats:
    return SessionStats(
        "s",
        inputs=draw(st.lists(st.sampled_from(["x", "y", "z"]), unique=True, max_size=2)),
        formats=draw(st.lists(st.sampled_from(["claude_code", "codex"]), unique=True, max_size=2)),
        # a turn is known by its records' keys (a turn of none, flat content without ids,
        # cannot be told from another, so absorbing a part twice would count it twice)
        turn_keys=draw(st.lists(_keys.filter(bool).map(frozenset), max_size=3)),
        calls=draw(st.dictionaries(st.sampled_from(["c1", "c2", "c3"]), st.sampled_from("PQ"))),
        failed=draw(_keys),
        errors_seen=draw(_keys),
        turn_usage=draw(st.dictionaries(st.sampled_from(["m1", "m2", "m3"]), _entry)),
        results=draw(st.dictionaries(st.sampled_from(["r1", "r2"]), _results)),
        running=draw(
            st.dictionaries(
                st.sampled_from(["x", "y"]), st.tuples(st.sampled_from(["r3", "r4"]), _results)
            )
        ),
        first_time=draw(st.none() | st.sampled_from([1.0, 2.0, 3.0])),
        model=draw(_names),
        cwd=draw(_names),
        folder=draw(_names),
        boundaries=draw(_keys),
        summaries=draw(_keys),
        bad_costs=draw(_keys),
        resets=draw(st.sets(st.sampled_from([1.0, 2.0]))),
    )


def _absorbed(a: SessionStats, b: SessionStats) -> SessionStats:
    out = a.copy()
    out.absorb(b)
    return out


@settings(max_examples=40)
@given(_session(), _session())
def test_absorb_keeps_each_field_of_both_parts(a: SessionStats, b: SessionStats) -> None:
    both = _absorbed(a, b)
    assert both.inputs == a.inputs + [x for x in b.inputs if x not in a.inputs]
    assert both.formats == a.formats + [x for x in b.formats if x not in a.formats]
    assert both.turn_keys == a.turn_keys + b.turn_keys
    assert both.calls == b.calls | a.calls  # a call id names one tool: the first part's
    for name in ("failed", "errors_seen", "boundaries", "summaries", "bad_costs", "resets"):
        assert getattr(both, name) == getattr(a, name) | getattr(b, name), name
    assert both.turn_usage.keys() == a.turn_usage.keys() | b.turn_usage.keys()
    for key, entry in both.turn_usage.items():
        held = [s.turn_usage[key] for s in (a, b) if key in s.turn_usage]
        assert entry.rank() == max(e.rank() for e in held)
        assert entry is next(e for e in held if e.rank() == entry.rank())
    assert both.results == a.results | b.results
    assert both.running == a.running | b.running
    times = [t for t in (a.first_time, b.first_time) if t is not None]
    assert both.first_time == (min(times) if times else None)
    for name in ("model", "cwd", "folder"):
        mine = getattr(a, name)
        assert getattr(both, name) == (getattr(b, name) if mine is None else mine), name
    assert both.errors == len(a.errors_seen | b.errors_seen)


@settings(max_examples=40)
@given(_session(), _session(), _session())
def test_absorb_is_associative_with_an_identity(
    a: SessionStats, b: SessionStats, c: SessionStats
) -> None:
    assert _absorbed(_absorbed(a, b), c) == _absorbed(a, _absorbed(b, c))
    assert _absorbed(a, SessionStats("s")) == a == _absorbed(SessionStats("s"), a)
    assert _absorbed(a, a).to_json() == a.to_json()  # a part absorbed again counts once


def _components_by_search(turns: list[frozenset[str]]) -> int:
    """The turns that share a record, joined one by one: how many groups are left."""
    groups: list[set[str] | None] = [set(t) for t in turns]
    count = 0
    for i, start in enumerate(groups):
        if start is None:
            continue
        count += 1
        seen, grew = set(start), True
        groups[i] = None
        while grew:
            grew = False
            for j, other in enumerate(groups):
                if other is not None and other & seen:
                    seen |= other
                    groups[j] = None
                    grew = True
    return count


@given(st.lists(st.sets(st.sampled_from("abcdefg"), max_size=3).map(frozenset), max_size=8))
def test_turns_that_share_a_record_are_one(turns: list[frozenset[str]]) -> None:
    s = SessionStats("s", turn_keys=turns)
    assert s.assistant_turns == _components_by_search(turns)


def test_turns_joined_late_through_a_later_turn_are_one() -> None:
    def count(*turns: str) -> int:
        return SessionStats("s", turn_keys=[frozenset(t) for t in turns]).assistant_turns

    assert count("a", "b", "c", "abc") == 1
    assert count("a", "b", "abx", "x", "b", "xy", "y") == 1
    assert count("a", "b", "c", "d", "ab", "cd", "bc") == 1


_KINDS = {
    "turn": {"turn_keys": [frozenset({"k"})]},
    "call": {"calls": {"k": "Bash"}},
    "failed call": {"failed": {"k"}},
    "error": {"errors_seen": {"k"}},
    "usage": {"turn_usage": {"k": Entry(Tokens(1, 1))}},
    "result": {"results": {"k": _Result(turns=1)}},
    "running total": {"running": {"part": ("k", _Result(turns=1))}},
}


@pytest.mark.parametrize("mine", sorted(_KINDS))
@pytest.mark.parametrize("theirs", sorted(_KINDS))
def test_a_fragment_holding_any_record_of_a_session_joins_it(mine: str, theirs: str) -> None:
    from messages.stats._engine import resolve

    named = SessionStats("s1", inputs=["whole"], **_KINDS[theirs])  # type: ignore[arg-type]
    fragment = SessionStats(None, inputs=["part"], **_KINDS[mine])  # type: ignore[arg-type]
    held = (named.keys(), fragment.keys())
    assert all("k" in keys for keys in held)
    found = resolve({("session", "s1"): named, ("input", "part"): fragment})
    assert [s.inputs for s in found] == [["whole", "part"]]


# -- the block-level pass of a role message ------------------------------------------------------


def _flattened(collected: InputStats, m: Message) -> None:
    """``feed`` as it was written before ``_blocks``: the message's flat parts one by one."""
    original = InputStats._blocks

    def by_parts(self: InputStats, s: Any, message: Any, record: str) -> None:
        for part in flatten_assistant(message):
            self._content(s, part, record)

    InputStats._blocks = by_parts  # type: ignore[method-assign]
    try:
        collected.feed(m)
    finally:
        InputStats._blocks = original  # type: ignore[method-assign]


def _state(collected: InputStats) -> Any:
    collected.finish()
    return [
        (key, s.to_json(), sorted(s.failed), s.calls, s.turn_keys)
        for key, s in collected.sessions.items()
    ]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        role_messages(content=blocks())
        | role_messages(
            content=st.sampled_from(
                [ToolResultBlock("", "x", is_error=True), ToolUseBlock("", "ls", {"a": 1})]
            )
        ),
        max_size=6,
    )
)
def test_reading_a_role_message_off_its_blocks_counts_what_its_flat_parts_count(
    messages: list[Message],
) -> None:
    """``InputStats`` reads turns, calls and failed calls off a role message's blocks; that
    gives what feeding its flat parts (``flatten_assistant``) one by one gives, blocks with
    no id (keyed by their content) and raw blocks (which may wrap any message) included."""
    direct, by_parts = InputStats("in", "claude_code"), InputStats("in", "claude_code")
    for m in messages:
        direct.feed(m)
        _flattened(by_parts, m)
    assert _state(direct) == _state(by_parts)


def _sequences() -> list[list[Message]]:
    from messages import RawBlock
    from messages import ServerToolResultBlock
    from messages import ServerToolUseBlock
    from messages import TextBlock

    raw = RawBlock({"type": "mcp_tool_use", "id": "r1"})
    error = {"type": "web_search_tool_result_error", "error_code": "unavailable"}
    said = AssistantMessage((TextBlock("Looking."),), message_id="m1", session_id="s")
    return [
        [said, AssistantMessage((raw,), message_id="m2", session_id="s")],
        [said, UserMessage((raw,), session_id="s"), said],
        [said, UserMessage("thanks", session_id="s"), AssistantMessage("ok", session_id="s")],
        [said, UserMessage((TextBlock("more"),), session_id="s"), said],
        [
            said,
            UserMessage(
                (
                    ToolResultBlock("t1", "no", is_error=True),
                    ToolResultBlock("", "no", is_error=True),
                ),
                session_id="s",
            ),
        ],
        [
            AssistantMessage(
                (
                    ServerToolUseBlock("", "web_search", {"q": "x"}),
                    ServerToolResultBlock("", "web_search", error),
                    ServerToolResultBlock("s1", "web_search", error),
                    ToolUseBlock("", "ls", {}),
                    ToolUseBlock("c1", "ls", {}),
                ),
                message_id="m3",
                session_id="s",
            ),
            UserMessage((ToolResultBlock("c1", "ok"), raw), session_id="s"),
        ],
    ]


@pytest.mark.parametrize("messages", _sequences())
def test_each_branch_of_the_block_reading_counts_what_the_flat_parts_count(
    messages: list[Message],
) -> None:
    """The block reading, branch by branch: a raw block alone (assistant and user), text
    content, failed results with and without ids, server results, and calls without ids."""
    direct, by_parts = InputStats("in", "claude_code"), InputStats("in", "claude_code")
    for m in messages:
        direct.feed(m)
        _flattened(by_parts, m)
    counted = _state(direct)
    assert counted == _state(by_parts)
    assert counted  # something was counted

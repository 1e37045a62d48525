"""``messages.stats``: the accumulator's laws (merge, identity, pickling) and its reports."""

from __future__ import annotations

import pickle
from datetime import UTC
from datetime import date
from itertools import pairwise
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import EXAMPLES
from messages import AssistantMessage
from messages import ErrorMessage
from messages import InitMessage
from messages import Message
from messages import ResultMessage
from messages import TextBlock
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import Usage
from messages import UserMessage
from messages.stats import Stats
from messages.stats import _prices
from messages.stats._engine import epoch
from messages.strategies import messages as any_message
from support.adapter_files import local

# A small world of ids, so that inputs share messages, calls and sessions often.
_sessions = st.none() | st.sampled_from(["s1", "s2", "s3"])
_ids = st.sampled_from(["m1", "m2", "m3", "m4"])
_count = st.none() | st.integers(min_value=0, max_value=5000)
_times = st.none() | st.sampled_from(
    ["2026-01-15T23:30:00Z", "2026-01-16T00:30:00+01:00", "2026-02-01T12:00:00Z", 1768521600000]
)
_models = st.none() | st.sampled_from(["claude-sonnet-4-5", "claude-haiku-4-5", "no-such-model"])


@st.composite
def _assistant(draw: st.DrawFn) -> Message:
    usage = draw(st.none() | st.builds(Usage, _count, _count, _count, _count))
    content: tuple[Any, ...] = (TextBlock("ok"),)
    if draw(st.booleans()):
        content = (ToolUseBlock(draw(st.sampled_from(["c1", "c2", "c3"])), "Bash", {}),)
    return AssistantMessage(
        content,
        usage=usage,
        message_id=draw(_ids),
        session_id=draw(_sessions),
        model=draw(_models),
        timestamp=draw(_times),
        error=draw(st.none() | st.just("rate_limit")),
    )


_record: st.SearchStrategy[Message] = st.one_of(
    _assistant(),
    st.builds(UserMessage, st.just("go on"), session_id=_sessions, timestamp=_times),
    st.builds(
        ToolResultMessage,
        st.sampled_from(["c1", "c2", "c3"]),
        st.just("out"),
        is_error=st.booleans(),
        session_id=_sessions,
    ),
    st.builds(
        ResultMessage,
        num_turns=st.none() | st.integers(0, 9),
        total_cost_usd=st.none() | st.sampled_from([0.5, 0.25]),
        usage=st.none() | st.builds(Usage, _count, _count),
        session_id=_sessions,
        uuid=st.none() | st.sampled_from(["r1", "r2"]),
        timestamp=_times,
    ),
    st.builds(ErrorMessage, st.just("boom"), session_id=_sessions, uuid=st.sampled_from(["e1"])),
    st.builds(
        InitMessage, cwd=st.none() | st.just("/srv/app"), session_id=_sessions, model=_models
    ),
    any_message(),
)

# an input is a label and its messages; labels repeat, as when one file is read twice
_inputs = st.lists(
    st.tuples(
        st.sampled_from(["a.jsonl", "p/b.jsonl", "q/c.jsonl"]), st.lists(_record, max_size=8)
    ),
    max_size=6,
)


def _stats(inputs: list[tuple[str, list[Message]]]) -> list[Stats]:
    return [Stats.of_messages(ms, label=label, format="native") for label, ms in inputs]


def _report(s: Stats, **kw: Any) -> dict[str, Any]:
    return s.report(tz=UTC, **kw).to_json()


@given(_inputs, st.data())
def test_any_split_merged_equals_the_whole(
    inputs: list[tuple[str, list[Message]]], data: st.DataObject
) -> None:
    parts = _stats(inputs)
    whole = Stats.merge_all(parts)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(parts)), max_size=4)))
    bounds = [0, *cuts, len(parts)]
    shards = [Stats.merge_all(parts[a:b]) for a, b in pairwise(bounds)]
    merged = Stats.merge_all(shards)
    assert merged == whole
    for by in ("session", "day", "model"):
        assert _report(merged, by=by) == _report(whole, by=by)


@given(_inputs)
def test_merge_is_associative_with_an_identity(inputs: list[tuple[str, list[Message]]]) -> None:
    parts = _stats(inputs) + [Stats.empty()] * 3
    a, b, c = parts[0], parts[1], parts[2]
    assert a.merge(b).merge(c) == a.merge(b.merge(c))
    assert Stats.empty().merge(a) == a == a.merge(Stats.empty())


@given(_inputs)
def test_merging_changes_neither_operand(inputs: list[tuple[str, list[Message]]]) -> None:
    parts = _stats(inputs)
    before = pickle.dumps(parts)
    Stats.merge_all(parts).sessions()
    for x in parts:
        for y in parts:
            x.merge(y)
    assert pickle.loads(before) == parts


@given(_inputs)
def test_stats_pickle(inputs: list[tuple[str, list[Message]]]) -> None:
    whole = Stats.merge_all(_stats(inputs))
    again = pickle.loads(pickle.dumps(whole))
    assert again == whole
    assert _report(again, by="month") == _report(whole, by="month")


@given(st.lists(_record, max_size=12))
def test_the_totals_do_not_depend_on_the_view(records: list[Message]) -> None:
    s = Stats.of_messages(records, label="x.jsonl")
    totals = [_report(s, by=by)["total"] for by in ("session", "day", "month", "model", "project")]
    assert all(t == totals[0] for t in totals)


def test_a_message_in_two_shards_counts_once_with_its_final_usage() -> None:
    def line(output: int) -> AssistantMessage:
        return AssistantMessage(
            "x", usage=Usage(3, output, 100, 10), message_id="m", session_id="s"
        )

    early = Stats.of_messages([line(1)], label="fragment.jsonl")
    final = Stats.of_messages([line(1), line(80)], label="whole.jsonl")
    for merged in (early.merge(final), final.merge(early)):
        (s,) = merged.sessions()
        assert (s.tokens.input, s.tokens.output, s.tokens.cache_read) == (3, 80, 100)


def test_of_file_reads_like_the_command() -> None:
    s = Stats.of_file(str(EXAMPLES / "claude_code.jsonl"))
    (session,) = s.report().to_json()["sessions"]
    assert (session["turns"], session["cost_usd"], session["formats"]) == (
        2,
        0.0345315,
        ["claude_code"],
    )
    assert Stats.of_file(str(local("cli", "stats-claude.jsonl")), format="codex") == Stats.empty()


def _turn(
    when: str, output: int, model: str = "claude-sonnet-4-5", mid: str = "", session: str = "s"
) -> Message:
    return AssistantMessage(
        "ok",
        usage=Usage(10, output, 1000, 0),
        model=model,
        message_id=mid or f"m-{when}-{output}",
        session_id=session,
        timestamp=when,
    )


NIGHT = [
    _turn("2026-01-15T22:30:00Z", 10),
    _turn("2026-01-15T23:30:00Z", 20, "claude-haiku-4-5"),
    _turn("2026-01-16T00:30:00Z", 40),
]


def test_days_are_told_in_the_chosen_zone() -> None:
    s = Stats.of_messages(NIGHT, label="night.jsonl")
    utc = s.report(by="day", tz=UTC)
    assert [(r.key, r.tokens.output) for r in utc.rows] == [("2026-01-15", 30), ("2026-01-16", 40)]
    assert utc.rows[0].sessions == 1 and utc.rows[1].sessions == 0  # counted where it started
    paris = s.report(by="day", tz=ZoneInfo("Europe/Paris"))
    assert [(r.key, r.tokens.output) for r in paris.rows] == [
        ("2026-01-15", 10),
        ("2026-01-16", 60),
    ]
    assert paris.tz == "Europe/Paris"
    tokyo_month = s.report(by="month", tz=ZoneInfo("Asia/Tokyo"))
    assert [(r.key, r.tokens.output) for r in tokyo_month.rows] == [("2026-01", 70)]


def test_by_model_splits_a_session_by_the_model_of_each_message() -> None:
    s = Stats.of_messages(NIGHT, label="night.jsonl")
    rows = s.report(by="model", tz=UTC, cost="estimated").rows
    assert [(r.key, r.tokens.output, r.cost_source) for r in rows] == [
        ("claude-haiku-4-5", 20, "estimated"),
        ("claude-sonnet-4-5", 50, "estimated"),
    ]
    haiku, sonnet = rows
    assert haiku.cost is not None and sonnet.cost is not None
    # $1 / $5 / $0.10 per million input / output / cache read tokens (haiku 4.5)
    assert haiku.cost == pytest.approx((10 * 1 + 20 * 5 + 1000 * 0.1) / 1e6)


def test_since_and_until_keep_the_days_between_inclusive() -> None:
    s = Stats.of_messages(NIGHT, label="night.jsonl")
    kept = s.report(by="day", tz=UTC, since=date(2026, 1, 16))
    assert [(r.key, r.tokens.output) for r in kept.rows] == [("2026-01-16", 40)]
    assert kept.to_json()["total"]["sessions"] == 0  # the session started the day before
    until = s.report(by="session", tz=UTC, until=date(2026, 1, 15))
    assert until.total.tokens.output == 30 and until.total.sessions == 1
    assert s.report(tz=UTC, since=date(2027, 1, 1)).rows == []


def test_project_is_the_recorded_cwd_else_the_folder(tmp_path: Path) -> None:
    with_cwd = [
        InitMessage(cwd="/srv/app", session_id="a"),
        _turn("2026-01-15T10:00:00Z", 5, session="a"),
    ]
    a = Stats.of_messages(with_cwd, label=str(tmp_path / "-srv-app" / "a.jsonl"))
    b = Stats.of_messages(
        [_turn("2026-01-15T11:00:00Z", 7, session="b")],
        label=str(tmp_path / "-home-dev-tool" / "b.jsonl"),
    )
    rows = a.merge(b).report(by="project", tz=UTC).rows
    assert [(r.key, r.sessions) for r in rows] == [("-home-dev-tool", 1), ("/srv/app", 1)]


def test_logged_cost_wins_in_auto_and_estimated_fills_the_rest() -> None:
    logged = [
        _turn("2026-01-15T10:00:00Z", 10),
        ResultMessage(total_cost_usd=0.5, session_id="s", uuid="r"),
    ]
    a = Stats.of_messages(logged, label="a.jsonl")
    b = Stats.of_messages(
        [AssistantMessage("x", usage=Usage(10, 10), model="claude-sonnet-4-5", session_id="t")],
        label="b.jsonl",
    )
    doc = a.merge(b).report(tz=UTC).to_json()
    assert [(s["cost_usd"], s["cost_source"]) for s in doc["sessions"]] == [
        (0.5, "logged"),
        ((10 * 3 + 10 * 15) / 1e6, "estimated"),
    ]
    assert doc["total"]["cost_source"] == "mixed"
    estimated = a.report(cost="estimated", tz=UTC).rows[0]
    assert estimated.cost == pytest.approx((10 * 3 + 10 * 15 + 1000 * 0.3) / 1e6)


def test_without_genai_prices_estimates_are_unknown_not_a_crash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_prices, "_module", lambda: None)
    s = Stats.of_messages(NIGHT, label="night.jsonl")
    report = s.report(tz=UTC)
    assert (report.total.cost, report.needs_prices) == (None, True)
    assert s.report(tz=UTC, cost="logged").needs_prices is False


def test_models_without_a_price_are_named() -> None:
    s = Stats.of_messages([_turn("2026-01-15T10:00:00Z", 5, "no-such-model-7")], label="x")
    report = s.report(tz=UTC, cost="estimated")
    assert (report.total.cost, report.unpriced) == (None, ["no-such-model-7"])


def test_report_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="by: expected one of"):
        Stats.empty().report("fortnight")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cost: expected"):
        Stats.empty().report(cost="cheap")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-01-15T10:00:00Z", 1768471200.0),
        ("2026-01-15T11:00:00+01:00", 1768471200.0),
        ("2026-01-15T10:00:00", 1768471200.0),  # no zone: UTC
        (1768471200, 1768471200.0),
        (1768471200000, 1768471200.0),  # milliseconds (OpenCode)
        ("yesterday", None),
        (True, None),
        (float("nan"), None),
        (1e300, None),
        ("0001-01-01T00:00:00+05:00", None),
        (None, None),
    ],
)
def test_timestamps(value: object, expected: float | None) -> None:
    assert epoch(value) == expected


def test_older_claude_code_transcripts_log_a_cost_per_message() -> None:
    from messages.adapters import get

    line = (
        '{"type":"assistant","costUSD":0.0123,"sessionId":"s","uuid":"u1",'
        '"timestamp":"2025-06-01T00:00:00Z","message":{"id":"m","type":"message",'
        '"role":"assistant","model":"claude-sonnet-4-20250514",'
        '"content":[{"type":"text","text":"x"}],"usage":{"input_tokens":1,"output_tokens":2}}}'
    )
    s = Stats.of_messages(get("claude_code").iter_decode([line.encode()]), label="old.jsonl")
    assert (s.report(tz=UTC).total.cost, s.report(tz=UTC).total.cost_source) == (0.0123, "logged")
    estimated = s.report(tz=UTC, cost="estimated").total
    assert estimated.cost == pytest.approx((1 * 3 + 2 * 15) / 1e6)


def test_gemini_thoughts_are_priced_as_output() -> None:
    # Gemini reports thoughts apart from candidates but bills them as output; the estimate
    # must match genai-prices' own figure for candidates + thoughts, not candidates alone.
    genai_prices = pytest.importorskip("genai_prices")
    path = local("gemini_cli", "output-json-run.json")
    rows = Stats.of_file(str(path)).report(by="model", cost="estimated", tz=UTC).rows
    pro = next(r for r in rows if r.key == "gemini-2.5-pro")
    assert (pro.tokens.output, pro.tokens.reasoning) == (64 + 246, 246)

    def price(output: int) -> float:
        usage = genai_prices.Usage(input_tokens=14877, cache_read_tokens=9120, output_tokens=output)
        return float(genai_prices.calc_price(usage, "gemini-2.5-pro").total_price)

    assert pro.cost == pytest.approx(price(64 + 246))
    assert pro.cost != pytest.approx(price(64))


# -- the records behind the figures: results, their parts, and which usage is final ----------


def test_each_result_that_reports_tokens_is_a_part_with_its_own_time_and_model() -> None:
    from messages.stats import Entry
    from messages.stats import Tokens

    records = [
        _turn("2026-01-15T10:00:00Z", 5),
        # a result of its own (a Codex token count), a day after the session began
        ResultMessage(
            usage=Usage(10, 20),
            session_id="s",
            uuid="r1",
            timestamp="2026-01-16T10:00:00Z",
            model="gpt-5",
        ),
        # Claude Code's running totals: one without usage adds no part, the last one counts
        ResultMessage(session_id="s", uuid="r2", extra={"type": "result"}),
    ]
    (s,) = Stats.of_messages(records, label="x.jsonl").sessions()
    assert s.results["r1"].tokens == Tokens(10, 20)
    assert s.running["x.jsonl"][1].tokens is None  # no usage: no tokens, not empty ones
    assert s.reported_parts() == [Entry(Tokens(10, 20), "2026-01-16T10:00:00Z", "gpt-5")]
    running = ResultMessage(
        usage=Usage(7, 8),
        session_id="s",
        uuid="r3",
        extra={"type": "result"},
        timestamp="2026-01-17T10:00:00Z",
        model="claude-sonnet-4-5",
    )
    (s,) = Stats.of_messages([*records, running], label="x.jsonl").sessions()
    assert s.reported_parts() == [
        Entry(Tokens(10, 20), "2026-01-16T10:00:00Z", "gpt-5"),
        Entry(Tokens(7, 8), "2026-01-17T10:00:00Z", "claude-sonnet-4-5"),
    ]
    rows = Stats.of_messages([*records, running], label="x.jsonl").report("day", tz=UTC).rows
    assert [(r.key, r.tokens.input, r.tokens.output) for r in rows] == [
        ("2026-01-15", None, None),  # where the session began: its results count elsewhere
        ("2026-01-16", 10, 20),
        ("2026-01-17", 7, 8),
    ]
    by_model = Stats.of_messages([*records, running], label="x.jsonl").report("model", tz=UTC)
    assert [(r.key, r.tokens.output) for r in by_model.rows] == [
        ("claude-sonnet-4-5", 8),
        ("gpt-5", 20),
    ]


def test_an_unreported_figure_ranks_below_any_count() -> None:
    from messages.stats import Entry
    from messages.stats import SessionStats
    from messages.stats import Tokens

    pairs = [
        (Entry(Tokens(output=0)), Entry(Tokens())),  # 0 output tokens is a count
        (Entry(Tokens(1, 5)), Entry(Tokens(None, 5))),  # the same output, one input more
        (Entry(Tokens(output=-1)), Entry(Tokens())),  # a negative count is still a count
        # every figure counts: cache reads, cache writes and reasoning too
        (Entry(Tokens(1, 5, 3)), Entry(Tokens(1, 5, None))),
        (Entry(Tokens(1, 5, 3, 4)), Entry(Tokens(1, 5, 3, None))),
        (Entry(Tokens(1, 5, 3, 4, 2)), Entry(Tokens(1, 5, 3, 4, None))),
    ]
    for final, partial in pairs:
        assert final.rank() > partial.rank()
        for first, then in ((final, partial), (partial, final)):
            s = SessionStats("s", turn_usage={"m": first})
            s.absorb(SessionStats("s", turn_usage={"m": then}))
            assert s.turn_usage["m"] is final


def test_the_tool_counts_a_gemini_document_reports_add_to_the_calls_seen() -> None:
    doc = local("gemini_cli", "output-json-run.json")
    (s,) = Stats.of_file(str(doc)).sessions()
    assert (s.tool_calls, s.tool_errors) == ({"read_file": 1, "run_shell_command": 1}, 1)
    calls = [
        AssistantMessage(
            (ToolUseBlock("c1", "read_file", {}),), session_id=s.session_id, message_id="a1"
        ),
        ToolResultMessage("c1", "no such file", is_error=True, session_id=s.session_id),
    ]
    both = Stats.of_file(str(doc)).merge(Stats.of_messages(calls, label="more.jsonl"))
    (s,) = both.sessions()
    assert (s.tool_calls, s.tool_errors) == ({"read_file": 2, "run_shell_command": 1}, 2)


def test_a_gemini_checkpoint_restates_history_and_counts_for_nothing() -> None:
    from messages.adapters import get
    from messages.adapters.gemini_session import restates

    checkpoint = (
        '[{"role": "user", "parts": [{"text": "hi"}]},'
        ' {"role": "model", "parts": [{"text": "hello"}, {"functionCall": {"name": "ls"}}]}]'
    )
    records = list(get("gemini_session").iter_decode([checkpoint]))
    assert len(records) == 2 and all(restates(m) for m in records)
    assert Stats.of_messages(records, label="checkpoint-x.json") == Stats.empty()


def test_assistant_output_without_ids_is_one_turn_per_stretch_known_by_its_content() -> None:
    from messages import TextMessage
    from messages import ThinkingMessage

    records = [
        UserMessage("go", session_id="s"),
        ThinkingMessage("hm", session_id="s"),
        TextMessage("looking", session_id="s"),
        ToolResultMessage("c1", "out", session_id="s"),
        TextMessage("done", session_id="s"),
        TextMessage("and more", session_id="s"),
    ]
    (s,) = Stats.of_messages(records, label="flat.jsonl").sessions()
    assert (s.assistant_turns, s.turns) == (2, 2)
    first, second = s.turn_keys
    assert (len(first), len(second)) == (2, 2) and not first & second
    # read again under another name, the same records are the same two turns
    again = Stats.of_messages(records, label="copy.jsonl")
    (both,) = Stats.of_messages(records, label="flat.jsonl").merge(again).sessions()
    assert both.turns == 2


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (100_000_000_000, 100_000_000_000.0),  # the largest count still read as seconds
        (100_000_000_001, 100_000_000.001),  # one more: milliseconds
        ("0001-01-02T00:00:00Z", -62135510400.0),  # the earliest time kept
        ("0001-01-01T23:59:59Z", None),
        ("9999-12-30T23:59:59Z", 253402214399.0),  # the latest
        ("9999-12-31T00:00:00Z", None),
    ],
)
def test_timestamps_at_the_edges(value: object, expected: float | None) -> None:
    assert epoch(value) == expected


def test_a_time_without_a_zone_is_utc_whatever_the_local_zone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import time

    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        assert epoch("2026-01-15T10:00:00") == 1768471200.0
    finally:
        monkeypatch.undo()
        time.tzset()


def test_an_input_named_without_a_folder_has_no_folder_for_a_project() -> None:
    (s,) = Stats.of_messages([_turn("2026-01-15T10:00:00Z", 5)], label="x.jsonl").sessions()
    assert (s.folder, s.project) == (None, None)
    (s,) = Stats.of_messages([_turn("2026-01-15T10:00:00Z", 5)], label="a/b/x.jsonl").sessions()
    assert (s.folder, s.project) == ("b", "b")


def test_records_without_ids_are_told_apart_by_content_and_place() -> None:
    twice = [ErrorMessage("boom", session_id="s"), ErrorMessage("boom", session_id="s")]
    (s,) = Stats.of_messages(twice, label="a.jsonl").sessions()
    assert s.errors == 2  # the same words twice in one log: two errors
    again = Stats.of_messages(twice, label="b.jsonl")
    (s,) = Stats.of_messages(twice, label="a.jsonl").merge(again).sessions()
    assert s.errors == 2  # the same log read twice: still two
    (s,) = Stats.of_messages([*twice, ErrorMessage("bang", session_id="s")], label="c").sessions()
    assert s.errors == 3


def test_a_part_s_counts_pickle_whole_under_every_protocol() -> None:
    """Workers send thousands of ``Tokens`` and ``Entry`` values: each pickles as its fields
    in order, every field included, and comes back equal under every protocol."""
    import dataclasses

    from messages.stats import Tokens
    from messages.stats._engine import Entry

    tokens = Tokens(1, 2, 3, 4, 5, 0.25, {"web_searches": 2})
    entry = Entry(tokens, "2026-02-01T10:00:00.000Z", "m", (("speed", "fast"),), "a", "r", "x")
    for value in (tokens, entry, Tokens()):
        assert len(value.__reduce__()[1]) == len(dataclasses.fields(value))
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            again = pickle.loads(pickle.dumps(value, protocol=protocol))
            assert again == value
            assert type(again) is type(value)


# -- what a Copilot shutdown's per-model totals grew by, and the merge of undated times ----------


def test_a_run_of_per_model_totals_counts_what_each_model_grew_by() -> None:
    """``_grown``: the first totals of a model count whole; later ones count what each figure
    grew by (a figure that shrank adds nothing, one a side lacks is taken as it is); a model
    that did not grow leaves no part; the result's tokens are the sum of its parts, and the
    running totals move on to the latest."""
    from messages.stats import Tokens
    from messages.stats._engine import _grown
    from messages.stats._engine import _Result

    before: dict[str, Tokens] = {}
    first = _Result(parts=(("a", Tokens(10, 5, 100, 7, 2)), ("idle", Tokens(0, 0, 0, 0, 0))))
    _grown(first, before)
    assert first.parts == (("a", Tokens(10, 5, 100, 7, 2)),)
    assert first.tokens == Tokens(10, 5, 100, 7, 2)
    assert before["idle"] == Tokens(0, 0, 0, 0, 0)

    later = _Result(
        parts=(
            ("idle", Tokens(0, 0, 0, 0, 0)),
            ("a", Tokens(15, 4, 130, None, 5)),  # output shrank, cache writes not reported now
            ("b", Tokens(1, 2, None, None, 3)),
        )
    )
    _grown(later, before)
    assert later.parts == (("a", Tokens(5, 0, 30, None, 3)), ("b", Tokens(1, 2, None, None, 3)))
    assert later.tokens == Tokens(6, 2, 30, None, 6)
    assert before["a"] == Tokens(15, 4, 130, None, 5)

    same = _Result(parts=(("a", Tokens(15, 4, 130, None, 5)),))
    _grown(same, before)
    assert (same.parts, same.tokens) == ((), None)

    writes = _Result(parts=(("b", Tokens(1, 2, None, 4, 3)), ("a", Tokens(15, 4, 130, 9, 5))))
    _grown(writes, before)  # only the cache writes grew: from none, and from 7 (a's first)
    assert writes.parts == (("b", Tokens(0, 0, None, 4, 0)), ("a", Tokens(0, 0, 0, 9, 0)))


def test_a_session_merged_keeps_the_earliest_time_its_paths_give() -> None:
    """``absorb`` keeps the earlier of two parts' path-given times (``undated``), and either
    part's where only one has one."""
    from messages.stats import SessionStats

    def part(undated: float | None) -> SessionStats:
        s = SessionStats("s")
        s.undated = undated
        return s

    cases = ((5.0, 3.0, 3.0), (3.0, 5.0, 3.0), (None, 4.0, 4.0), (4.0, None, 4.0))
    for mine, theirs, merged in cases:
        s = part(mine)
        s.absorb(part(theirs))
        assert s.undated == merged


def test_failed_results_without_ids_in_two_inputs_count_by_their_content() -> None:
    """A failed tool result that names no call is known by its content: two different ones
    in two inputs of a session are two failures, the same one in both is one."""

    from messages import ServerToolResultMessage

    def failed(text: str) -> ToolResultMessage:
        return ToolResultMessage("", text, is_error=True, session_id="s")

    def server_failed(code: str) -> ServerToolResultMessage:
        error = {"type": "web_search_tool_result_error", "error_code": code}
        return ServerToolResultMessage("", "web_search", error, session_id="s")

    def errors(*inputs: list[Message]) -> int:
        parts = [Stats.of_messages(ms, label=f"in{i}.jsonl") for i, ms in enumerate(inputs)]
        [session] = Stats.merge_all(parts).sessions()
        return session.tool_errors

    assert errors([failed("a")], [failed("b")]) == 2
    assert errors([failed("a")], [failed("a")]) == 1
    assert errors([server_failed("unavailable")], [server_failed("max_uses_exceeded")]) == 2
    assert errors([server_failed("unavailable")], [server_failed("unavailable")]) == 1


def test_any_one_token_figure_makes_counts_reported() -> None:
    """``Tokens.reported``: counts with any one figure known are reported; none known (a
    cost alone, or further counts alone) is not."""
    from messages.stats import Tokens

    assert not Tokens().reported()
    assert not Tokens(cost=1.5, more={"web_searches": 1}).reported()
    for i in range(5):
        figures: list[int | None] = [None] * 5
        figures[i] = 0
        assert Tokens(*figures).reported(), figures


# -- the collector, record by record: keys, places, path-given facts, restating records ------


def _one(ms: list[Message], **kw: Any) -> Any:
    """The one session ``ms`` make as one input (``kw``: label, format, path)."""
    kw.setdefault("label", "a.jsonl")
    [s] = Stats.of_messages(ms, **kw).sessions()
    return s


def _parts_of(*inputs: list[Message]) -> Any:
    parts = [Stats.of_messages(ms, label=f"in{i}.jsonl") for i, ms in enumerate(inputs)]
    [s] = Stats.merge_all(parts).sessions()
    return s


def _with_ids(kind: str, first: str | None, second: str | None) -> Message:
    """A record of ``kind`` whose key is its ``first`` id, else its ``second``, else content."""
    from messages import CompactBoundaryMessage

    if kind == "assistant error":  # known by its message id, then its record's uuid
        return AssistantMessage("x", error="overloaded", message_id=first, uuid=second)
    ids = {"uuid": first, "message_id": second, "session_id": "s"}
    if kind == "error":
        return ErrorMessage("boom", **ids)
    if kind == "boundary":
        return CompactBoundaryMessage({"trigger": "auto"}, **ids)
    if kind == "summary":
        return UserMessage("what came before", summary="compaction", **ids)
    return ResultMessage(subtype="turn", usage=Usage(10, 1), **ids)


def _counted(kind: str, s: Any) -> int:
    if kind in ("assistant error", "error"):
        return int(s.errors)
    if kind in ("boundary", "summary"):
        return int(s.compactions)
    return int(s.tokens.input) // 10  # each result reports 10 input tokens


KINDS = ("assistant error", "error", "boundary", "summary", "result")


@pytest.mark.parametrize("kind", KINDS)
def test_a_record_is_known_by_its_first_id_then_its_second_then_its_content(kind: str) -> None:
    """Records sharing the first id are one record whatever their second; without a first
    id, the second decides (a record written twice counts once); with neither, each copy in
    one input counts, and the same copies in two inputs count once."""
    session = {"session_id": "s"}
    same_first = [_with_ids(kind, "id1", "x"), _with_ids(kind, "id1", "y")]
    assert _counted(kind, _one([InitMessage(**session), *same_first])) == 1
    twice = [_with_ids(kind, None, "id2"), _with_ids(kind, None, "id2")]
    assert _counted(kind, _one([InitMessage(**session), *twice])) == 1
    two = [_with_ids(kind, None, "id2"), _with_ids(kind, None, "id3")]
    assert _counted(kind, _one([InitMessage(**session), *two])) == 2
    bare = [InitMessage(**session), _with_ids(kind, None, None), _with_ids(kind, None, None)]
    assert _counted(kind, _one(bare)) == 2
    assert _counted(kind, _parts_of(bare, bare)) == 2


def test_a_session_that_comes_back_in_an_input_is_the_same_session() -> None:
    records = [_turn("2026-01-15T10:00:00Z", 1, session="a", mid="m1")]
    records.append(_turn("2026-01-15T10:01:00Z", 2, session="b", mid="m2"))
    records.append(_turn("2026-01-15T10:02:00Z", 4, session="a", mid="m3"))
    a, b = Stats.of_messages(records, label="x.jsonl").sessions()
    assert (a.session_id, a.tokens.output, a.assistant_turns) == ("a", 5, 2)
    assert (b.session_id, b.tokens.output) == ("b", 2)


def test_the_working_folder_is_the_first_text_one_a_record_gives() -> None:
    ms: list[Message] = [
        UserMessage("hi", session_id="s", extra={"cwd": 7}),  # not a folder
        UserMessage("hi", session_id="s", extra={"cwd": ""}),
        UserMessage("hi", session_id="s", extra={"cwd": "/work/first"}),
        UserMessage("hi", session_id="s", extra={"cwd": "/work/second"}),
    ]
    s = _one(ms)
    assert (s.cwd, s.project) == ("/work/first", "/work/first")
    assert _one([InitMessage(cwd="/work/init", session_id="s")]).cwd == "/work/init"


def test_a_session_named_by_its_path_takes_the_path_s_time_for_undated_records() -> None:
    """An input whose records name no session is the session its path names (where the
    agent's hook says so, and only when both the format and the path are given); the path's
    time dates its undated records and does not move a record's own time."""
    chat = "home/manicode/projects/proj/chats/2026-01-02T03-04-05.678Z/chat-messages.json"
    at = epoch("2026-01-02T03:04:05.678Z")
    s = _one([UserMessage("hi")], label=chat, format="codebuff", path=chat)
    assert s.session_id == "manicode/proj/2026-01-02T03-04-05.678Z"
    assert (s.first_time, s.undated) == (at, at)
    dated = _one(
        [UserMessage("hi", timestamp="2026-03-01T00:00:00Z")], format="codebuff", path=chat
    )
    assert (dated.first_time, dated.undated) == (epoch("2026-03-01T00:00:00Z"), at)
    droid = "sessions/proj/abc.settings.json"
    assert _one([UserMessage("hi")], format="droid", path=droid).session_id == "abc"
    assert _one([UserMessage("hi")], format="droid").session_id is None  # no path
    assert _one([UserMessage("hi")], path=droid).session_id is None  # no format
    named = _one([UserMessage("hi", session_id="own")], format="droid", path=droid)
    assert named.session_id == "own"  # the records' own id wins


def test_a_copy_of_a_session_keeps_its_path_given_time() -> None:
    from messages.stats import SessionStats

    s = SessionStats("s", undated=5.0)
    assert s.copy().undated == 5.0


def test_only_records_that_may_restate_history_are_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The restating test (which loads the Gemini CLI and Kimi adapters) is asked of a record
    that holds one of their keys, or of a stream event; of no other."""
    from messages import StreamEventMessage
    from messages.stats import _engine

    asked: list[Message] = []

    def spy(m: Message) -> bool:
        asked.append(m)
        return False

    monkeypatch.setattr(_engine, "_restates", spy)
    plain = [
        UserMessage("hi", session_id="s"),
        UserMessage("hi", session_id="s", extra={"cwd": "/p"}),
        _turn("2026-01-15T10:00:00Z", 1),
    ]
    Stats.of_messages(plain, label="a.jsonl")
    assert asked == []
    restating = [
        UserMessage("hi", session_id="s", extra={"$document": "checkpoint"}),
        UserMessage("hi", session_id="s", extra={"kimi.context": {"role": "user"}}),
        StreamEventMessage({"type": "ping"}, session_id="s"),
    ]
    Stats.of_messages(restating, label="a.jsonl")
    assert asked == restating


def test_kimi_bookkeeping_and_context_records_count_for_nothing() -> None:
    from messages import StreamEventMessage

    records = [
        StreamEventMessage({"role": "_usage", "token_count": 9}, session_id="k"),
        UserMessage("hi", session_id="k", extra={"kimi.context": {"role": "user"}}),
    ]
    assert Stats.of_messages(records, label="context.jsonl").sessions() == []


def test_a_subagent_and_a_request_id_are_kept_only_when_they_are_text() -> None:
    def entry(extra: dict[str, Any], mid: str | None = "m1") -> Any:
        m = AssistantMessage("ok", usage=Usage(1, 1), message_id=mid, uuid="u1", extra=extra)
        [e] = _one([m]).turn_usage.values()
        return e

    assert (entry({"agentId": "a1"}).agent, entry({"agentId": 7}).agent) == ("a1", None)
    assert entry({"requestId": "r1"}).request_id == "r1"
    assert entry({"requestId": 5}).request_id is None
    assert entry({"requestId": "r1"}, mid=None).request_id is None  # no message id to pair


def test_a_rejected_logged_cost_is_kept_by_the_record_s_key() -> None:
    """A negative or non-finite cost is rejected and its record's key kept; a result's usage
    cost is looked at only when the result has no total cost of its own."""
    bad = AssistantMessage(
        "ok", usage=Usage(1, 1), message_id="m1", session_id="s", extra={"costUSD": -1.0}
    )
    assert _one([bad]).bad_costs == {"m1"}
    own_bad = ResultMessage(uuid="r1", session_id="s", total_cost_usd=float("nan"))
    assert _one([own_bad]).bad_costs == {"r1"}
    usage_bad = ResultMessage(uuid="r1", session_id="s", usage=Usage(1, 1, cost_usd=-2.0))
    assert _one([usage_bad]).bad_costs == {"r1"}
    covered = ResultMessage(
        uuid="r1", session_id="s", total_cost_usd=0.5, usage=Usage(1, 1, cost_usd=-2.0)
    )
    assert _one([covered]).bad_costs == set()


def _shutdown(uid: str, n: int, session: str | None) -> ResultMessage:
    """A Copilot ``session.shutdown``: running totals per model."""
    metrics = {"m": {"usage": {"inputTokens": n, "outputTokens": 1}}}
    return ResultMessage(
        subtype="routine", usage=Usage(n, 1), model_usage=metrics, uuid=uid, session_id=session
    )


def test_running_totals_per_model_grow_per_session() -> None:
    """Each session of an input has its own running totals; what an input reported before
    naming its session is that session's, totals included."""
    two = Stats.of_messages([_shutdown("a", 10, "A"), _shutdown("b", 10, "B")], label="x")
    assert [s.tokens.input for s in two.sessions()] == [10, 10]
    late = _one([_shutdown("a", 10, None), _shutdown("b", 15, "A")])
    assert (late.session_id, late.tokens.input) == ("A", 15)


def test_the_further_counts_of_a_usage_are_read_whatever_else_it_holds() -> None:
    from messages.stats._engine import priced_counts

    def counts(extra: dict[str, Any]) -> dict[str, int] | None:
        return priced_counts(Usage(1, 1, extra=extra))

    audio = [{"modality": "AUDIO", "tokenCount": 5}]
    assert counts({"candidatesTokensDetails": audio}) == {"output_audio_tokens": 5}
    assert counts({"server_tool_use": "none", "promptTokensDetails": 5}) is None
    assert counts({"promptTokensDetails": "AUDIO", "server_tool_use": ["web"]}) is None


def test_a_message_with_a_block_kind_not_read_off_directly_counts_the_same() -> None:
    """A role message holding a kind ``_blocks`` does not read off (a raw block) is counted
    off its flat messages: its calls, and its turn."""
    from messages import RawBlock

    call = ToolUseBlock("c1", "Bash", {"command": "ls"})
    m = AssistantMessage([call, RawBlock({"type": "new_kind"})], message_id="m1", session_id="s")
    s = _one([UserMessage("go", session_id="s"), m])
    assert (s.tool_calls, s.assistant_turns) == ({"Bash": 1}, 1)
    assert s.keys() >= {"c1", "m1"}


def test_a_session_named_by_a_path_joins_the_inputs_that_name_it() -> None:
    """A Droid settings file names no session but its path does: it joins the transcript
    whose records name that session."""
    settings = Stats.of_messages(
        [ResultMessage(subtype="session", usage=Usage(7, 1))],
        label="p/abc.settings.json",
        format="droid",
        path="p/abc.settings.json",
    )
    transcript = Stats.of_messages([UserMessage("hi", session_id="abc")], label="p/abc.jsonl")
    [s] = Stats.merge_all([settings, transcript]).sessions()
    assert (s.session_id, s.tokens.input, len(s.inputs)) == ("abc", 7, 2)

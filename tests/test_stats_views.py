"""``messages stats`` views: by ISO week, agent CLI, five-hour block and subagent; and a
resumed session's copy of a request counted once."""

from __future__ import annotations

import itertools
from datetime import UTC
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import shared_fixtures
from messages import AssistantMessage
from messages import Usage
from messages.stats import Stats
from messages.stats._report import BLOCK_SECONDS
from messages.stats._report import _Blocks


def _turn(
    when: str, mid: str, *, session: str = "s", out: int = 10, **extra: Any
) -> AssistantMessage:
    return AssistantMessage(
        "ok",
        usage=Usage(100, out),
        model="claude-sonnet-4-5",
        message_id=mid,
        session_id=session,
        timestamp=when,
        extra=extra,
    )


def _rows(stats: Stats, by: str) -> dict[str | None, tuple[int, int | None]]:
    report = stats.report(by, tz=UTC)  # type: ignore[arg-type]
    return {row.key: (row.sessions, row.tokens.output) for row in report.rows}


def test_by_week_uses_iso_weeks() -> None:
    stats = Stats.of_messages(
        [
            _turn("2026-01-11T10:00:00Z", "m1", session="a"),  # a Sunday: week 2
            _turn("2026-01-12T10:00:00Z", "m2", session="a", out=5),  # Monday: week 3
            _turn("2026-01-15T10:00:00Z", "m3", session="b", out=1),
        ],
        label="x",
    )
    assert _rows(stats, "week") == {"2026-W02": (1, 10), "2026-W03": (1, 6)}


def test_by_block_five_hour_windows_from_the_hour_of_the_first_record() -> None:
    stats = Stats.of_messages(
        [
            _turn("2026-01-15T10:30:00Z", "m1", session="a", out=1),
            _turn("2026-01-15T14:59:00Z", "m2", session="a", out=2),  # same block
            _turn("2026-01-15T15:10:00Z", "m3", session="a", out=4),  # 10:00 + 5 h: next one
            _turn("2026-01-16T03:45:00Z", "m4", session="b", out=8),  # after a gap
        ],
        label="x",
    )
    assert _rows(stats, "block") == {
        "2026-01-15 10:00": (1, 3),
        "2026-01-15 15:00": (0, 4),
        "2026-01-16 03:00": (1, 8),
    }


@given(
    st.lists(st.floats(min_value=1.7e9, max_value=1.8e9), min_size=1, max_size=40),
    st.lists(st.floats(min_value=1.7e9, max_value=1.8e9), max_size=4),
)
def test_blocks_hold_their_records_and_never_overlap(
    times: list[float], resets: list[float]
) -> None:
    blocks = _Blocks(times, resets)
    starts = blocks.starts
    assert starts == sorted(starts) and len(set(starts)) == len(starts)
    for t in times:
        start = blocks.start(t)
        assert start <= t < start + BLOCK_SECONDS
    if not resets:
        assert all(b - a >= BLOCK_SECONDS for a, b in itertools.pairwise(starts))
        assert all(start % 3600 == 0 for start in starts)
        assert starts[0] == min(times) - min(times) % 3600  # the first record's hour


def test_a_logged_reset_time_places_the_block() -> None:
    """Claude Code's rate_limit_event and Codex's rate-limit snapshots say when the current
    five-hour window resets: the block is that window, not the one the first hour gives."""
    from messages import RateLimitMessage

    reset = 1768482000  # 2026-01-15 13:00 UTC: the window ran from 08:00
    event = RateLimitMessage(
        {"status": "allowed", "resetsAt": reset, "rateLimitType": "five_hour"},
        session_id="s",
        timestamp="2026-01-15T10:30:00Z",
    )
    stats = Stats.of_messages(
        [
            event,
            _turn("2026-01-15T10:30:00Z", "m1", out=1),
            _turn("2026-01-15T12:59:00Z", "m2", out=2),
            _turn("2026-01-15T13:10:00Z", "m3", out=4),  # after the reset: a new block
        ],
        label="x",
    )
    assert _rows(stats, "block") == {"2026-01-15 08:00": (1, 3), "2026-01-15 13:00": (0, 4)}
    other = RateLimitMessage({"resetsAt": reset, "rateLimitType": "seven_day"}, session_id="s")
    weekly = Stats.of_messages([other, _turn("2026-01-15T10:30:00Z", "m1")], label="y")
    assert _rows(weekly, "block") == {"2026-01-15 10:00": (1, 10)}  # not a five-hour window


def test_a_codex_rate_limit_snapshot_gives_the_reset() -> None:
    from messages.stats._engine import _codex_reset

    window = {"used_percent": 13.0, "window_minutes": 300, "resets_at": 1771864834}
    weekly = {"used_percent": 4.0, "window_minutes": 10080, "resets_at": 1772355702}
    extra = {
        "payload": {"type": "token_count", "rate_limits": {"primary": window, "secondary": weekly}}
    }
    assert _codex_reset(extra) == 1771864834
    assert _codex_reset({"payload": {"rate_limits": {"primary": weekly}}}) is None
    assert _codex_reset({"rate_limits": {"secondary": window}}) == 1771864834
    assert _codex_reset({}) is None


def test_by_agent_names_the_cli_that_wrote_the_log() -> None:
    a = Stats.of_messages(
        [_turn("2026-01-15T10:00:00Z", "m1", session="a")], label="a", format="claude_code"
    )
    b = Stats.of_messages(
        [_turn("2026-01-15T10:00:00Z", "m2", session="b", out=3)], label="b", format="codex"
    )
    assert _rows(a.merge(b), "agent") == {"claude_code": (1, 10), "codex": (1, 3)}


def test_by_subagent_splits_a_session_by_the_agent_that_made_each_request() -> None:
    stats = Stats.of_messages(
        [
            _turn("2026-01-15T10:00:00Z", "m1", out=1),
            _turn("2026-01-15T10:01:00Z", "m2", out=2, agentId="a7be2f0", isSidechain=True),
            _turn("2026-01-15T10:02:00Z", "m3", out=4, agentId="a7be2f0", isSidechain=True),
        ],
        label="x",
    )
    assert _rows(stats, "subagent") == {"s": (1, 1), "s/a7be2f0": (0, 6)}


def test_the_shared_session_by_subagent_adds_up_to_the_session() -> None:
    folder = shared_fixtures("claude_code", "transcripts-2.1")
    stats = Stats.merge_all(Stats.of_file(str(f)) for f in sorted(folder.rglob("*.jsonl")))
    by_session = stats.report(tz=UTC, cost="estimated")
    by_agent = stats.report("subagent", tz=UTC, cost="estimated")
    keys = [row.key for row in by_agent.rows]
    session = "8463c716-a2ea-4c14-9efa-87158ebd9f20"
    assert keys == [session, f"{session}/a7be2f0", f"{session}/acompact-f46190"]
    assert by_agent.total.tokens.to_json() == by_session.total.tokens.to_json()
    assert by_agent.total.cost == pytest.approx(by_session.total.cost, rel=1e-12)


def test_a_resumed_copy_of_a_request_counts_once() -> None:
    """Claude Code copies the resumed session's records (same message and request ids) into
    the new session's file: the request counts once, in the session that began first."""
    old = [
        _turn("2026-01-15T10:00:00Z", "m1", session="old", out=7, requestId="r1"),
    ]
    new = [
        _turn("2026-01-15T10:00:00Z", "m1", session="new", out=7, requestId="r1"),  # the copy
        _turn("2026-01-15T12:00:00Z", "m2", session="new", out=5, requestId="r2"),
    ]
    a = Stats.of_messages(old, label="old.jsonl")
    b = Stats.of_messages(new, label="new.jsonl")
    for whole in (a.merge(b), b.merge(a)):
        sessions = {s.session_id: s.tokens.output for s in whole.sessions()}
        assert sessions == {"old": 7, "new": 5}
        assert whole.report(tz=UTC).total.tokens.output == 12
    # the same message id without a request id (another format) is not taken for a copy
    plain = Stats.of_messages([_turn("2026-01-15T10:00:00Z", "m1", session="x")], label="x")
    other = Stats.of_messages([_turn("2026-01-15T10:00:00Z", "m1", session="y")], label="y")
    assert plain.merge(other).report(tz=UTC).total.tokens.output == 20


def test_which_session_keeps_a_copied_request() -> None:
    """The session that began the request keeps it: the earlier start; at the same start
    (or none), the shorter (the other resumes it); then the smaller session id."""
    from messages.stats._engine import _order

    def stats(session: str, *mids: str, when: str | None = None) -> Stats:
        turns = [
            AssistantMessage(
                "ok",
                usage=Usage(1, 1),
                message_id=mid,
                session_id=session,
                timestamp=when,
                extra={"requestId": f"r-{mid}"},
            )
            for mid in mids
        ]
        return Stats.of_messages(turns, label=session)

    def owners(*parts: Stats) -> dict[str | None, list[str]]:
        whole = Stats.merge_all(parts)
        return {s.session_id: sorted(s.turn_usage) for s in whole.sessions()}

    # no times: the shorter keeps the shared request, whichever is merged first
    a, b = stats("b-long", "m1", "m2"), stats("a-short", "m1")
    assert owners(a, b) == owners(b, a) == {"b-long": ["m2"], "a-short": ["m1"]}
    # the same length and no times: the smaller session id
    c, d = stats("zz", "m1"), stats("aa", "m1")
    assert owners(c, d) == owners(d, c) == {"zz": [], "aa": ["m1"]}
    # a session with a time began before one without
    e, f = stats("aa", "m1", "m2"), stats("zz", "m1", when="2026-01-15T10:00:00Z")
    assert owners(e, f) == {"aa": ["m2"], "zz": ["m1"]}
    # the earlier start wins over the shorter
    g = stats("late", "m1", when="2026-01-15T11:00:00Z")
    h = stats("early", "m1", "m2", when="2026-01-15T10:00:00Z")
    assert owners(g, h) == {"late": [], "early": ["m1", "m2"]}
    (only,) = stats("x", "m1", "m2").sessions()
    assert _order(only) == (float("inf"), 2, "x")


def test_a_session_without_an_id_sorts_before_named_ones_at_a_tie() -> None:
    def part(session: str | None, label: str) -> Stats:
        turn = AssistantMessage(
            "ok", usage=Usage(1, 1), message_id="m1", session_id=session, extra={"requestId": "r1"}
        )
        return Stats.of_messages([turn], label=label)

    # the fragment holds a record of two sessions, so it joins neither (see resolve)
    whole = Stats.merge_all([part("A0", "a"), part("B0", "b"), part(None, "anonymous")])
    kept = {s.session_id: len(s.turn_usage) for s in whole.sessions()}
    assert kept == {"A0": 0, "B0": 0, None: 1}

"""Cost the way the bill is computed: every priced dimension a log reports, checked against
``genai-prices``' own figure, and the rules for what cannot be priced."""

from __future__ import annotations

import json
import math
from datetime import UTC
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import shared_fixtures
from messages import AssistantMessage
from messages import ResultMessage
from messages import Usage
from messages.cli import main
from messages.stats import Stats
from messages.stats import Tokens
from messages.stats import _prices

genai_prices = pytest.importorskip("genai_prices", reason="the prices extra is not installed")

WHEN = "2026-11-20T10:00:00Z"  # after the tier prices the table dates
AT = datetime(2026, 11, 20, 10, tzinfo=UTC)


def _turn(
    usage: Usage, model: str, *, mid: str = "m1", extra: dict[str, Any] | None = None
) -> AssistantMessage:
    return AssistantMessage(
        "ok",
        usage=usage,
        model=model,
        message_id=mid,
        session_id="s",
        timestamp=WHEN,
        extra=extra or {},
    )


def _estimate(*turns: AssistantMessage) -> float | None:
    return Stats.of_messages(turns, label="x.jsonl").report(cost="estimated", tz=UTC).total.cost


def _theirs(model: str, context: dict[str, str] | None = None, **usage: int) -> float:
    found = genai_prices.calc_price(
        genai_prices.Usage(**usage), model, genai_request_timestamp=AT, price_context=context
    )
    return float(found.total_price)


# -- 1. one-hour cache writes ----------------------------------------------------------------


def test_one_hour_cache_writes_are_priced_as_one_hour_writes() -> None:
    """Claude Code 2.1 writes Opus' cache with a one-hour lifetime: twice the input price,
    not the 1.25x of a five-minute write."""
    split = {"ephemeral_5m_input_tokens": 1000, "ephemeral_1h_input_tokens": 9000}
    usage = Usage(10, 200, 5000, 10000, extra={"cache_creation": split})
    ours = _estimate(_turn(usage, "claude-opus-4-6"))
    expected = _theirs(
        "claude-opus-4-6",
        input_tokens=10 + 5000 + 10000,
        output_tokens=200,
        cache_read_tokens=5000,
        cache_write_tokens=10000,
        cache_write_5m_tokens=1000,
        cache_write_1h_tokens=9000,
    )
    five_minutes = _theirs(
        "claude-opus-4-6",
        input_tokens=10 + 5000 + 10000,
        output_tokens=200,
        cache_read_tokens=5000,
        cache_write_tokens=10000,
    )
    assert ours == pytest.approx(expected, rel=1e-12)
    assert expected > five_minutes  # the fault this guards against
    assert (usage.cache_write_1h_tokens, usage.cache_write_5m_tokens) == (9000, 1000)


def test_the_split_sums_over_messages_and_shows_in_json() -> None:
    one = Usage(1, 1, 0, 300, extra={"cache_creation": {"ephemeral_1h_input_tokens": 300}})
    two = Usage(1, 1, 0, 50, extra={"cache_creation": {"ephemeral_1h_input_tokens": 20}})
    report = Stats.of_messages(
        [_turn(one, "claude-opus-4-6"), _turn(two, "claude-opus-4-6", mid="m2")], label="x"
    ).report(tz=UTC)
    tokens = report.to_json()["total"]["tokens"]
    assert (tokens["cache_write"], tokens["cache_write_1h"]) == (350, 320)


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ({}, (None, None)),  # a source that does not split its writes
        ({"cache_creation": {"ephemeral_1h_input_tokens": 30}}, (30, 70)),
        ({"cache_creation": {"ephemeral_5m_input_tokens": 60}}, (None, 60)),
        ({"input_token_details": {"ephemeral_1h_input_tokens": 100}}, (100, 0)),  # LangChain
        ({"cache_creation": {"ephemeral_1h_input_tokens": -4}}, (None, None)),  # not a count
        ({"cache_creation": {"ephemeral_1h_input_tokens": True}}, (None, None)),
        ({"cache_creation": "odd"}, (None, None)),
    ],
)
def test_usage_reads_the_split_where_the_source_reports_it(
    extra: dict[str, Any], expected: tuple[int | None, int | None]
) -> None:
    u = Usage(1, 1, 0, 100, extra=extra)
    assert (u.cache_write_1h_tokens, u.cache_write_5m_tokens) == expected


def test_the_claude_code_2_1_session_costs_what_genai_prices_says_of_each_response() -> None:
    """The shared Claude Code 2.1 session with its subagents: each response priced by
    ``genai-prices``' own reading of its raw ``usage`` (its Anthropic extractor), summed once
    per message id. ccusage 20 reports $11.66 for these files; before the one-hour writes
    were priced, this library said $10.67."""
    folder = shared_fixtures("claude_code", "transcripts-2.1")
    files = sorted(folder.rglob("*.jsonl"))
    assert any("subagents" in f.parts for f in files)
    final: dict[str, tuple[str, dict[str, Any], str]] = {}
    for f in files:
        for line in f.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            message = record.get("message")
            if record.get("type") != "assistant" or not isinstance(message, dict):
                continue
            if "usage" in message and message.get("model") != "<synthetic>":
                final[message["id"]] = (message["model"], message["usage"], record["timestamp"])
    expected = 0.0
    for model, usage, when in final.values():
        extracted = genai_prices.extract_usage(
            {"model": model, "usage": usage}, provider_id="anthropic"
        )
        at = datetime.fromisoformat(when)
        price = genai_prices.calc_price(extracted.usage, model, genai_request_timestamp=at)
        expected += float(price.total_price)
    whole = Stats.merge_all(Stats.of_file(str(f)) for f in files)
    ours = whole.report(cost="estimated", tz=UTC).total.cost
    assert ours == pytest.approx(expected, rel=1e-9)
    assert round(expected, 2) == 11.66


# -- 2. the other dimensions ------------------------------------------------------------------


def test_web_searches_are_priced() -> None:
    tools = {"web_search_requests": 3, "web_fetch_requests": 2}
    usage = Usage(1500, 10, extra={"server_tool_use": tools})
    ours = _estimate(_turn(usage, "claude-sonnet-4-5"))
    expected = _theirs("claude-sonnet-4-5", input_tokens=1500, output_tokens=10, web_searches=3)
    assert ours == pytest.approx(expected, rel=1e-12)
    assert expected > _theirs("claude-sonnet-4-5", input_tokens=1500, output_tokens=10)
    report = Stats.of_messages([_turn(usage, "claude-sonnet-4-5")], label="x").report(tz=UTC)
    tokens = report.to_json()["total"]["tokens"]
    assert (tokens["web_searches"], tokens["web_fetches"]) == (3, 2)


def test_the_long_context_tier_is_decided_per_request() -> None:
    """Above 200k input tokens a request costs more: a report prices each message on its
    own, so two requests of 150k cost less than one of 300k."""
    big = _estimate(_turn(Usage(300_000, 100), "claude-sonnet-4-5"))
    halves = _estimate(
        _turn(Usage(150_000, 50), "claude-sonnet-4-5"),
        _turn(Usage(150_000, 50), "claude-sonnet-4-5", mid="m2"),
    )
    assert big == pytest.approx(
        _theirs("claude-sonnet-4-5", input_tokens=300_000, output_tokens=100), rel=1e-12
    )
    assert halves == pytest.approx(
        2 * _theirs("claude-sonnet-4-5", input_tokens=150_000, output_tokens=50), rel=1e-12
    )
    assert halves is not None and big is not None and halves < big


@pytest.mark.parametrize(
    ("model", "usage_extra", "extra", "context"),
    [
        ("claude-opus-4-8", {"speed": "fast"}, {}, {"speed": "fast"}),  # Claude Code fast mode
        ("claude-sonnet-4-5", {"service_tier": "batch"}, {}, {"processing": "batch"}),
        ("gpt-5", {}, {"service_tier": "priority"}, {"service_tier": "priority"}),
        ("gpt-5", {}, {"service_tier": "flex"}, {"service_tier": "flex"}),
    ],
)
def test_the_service_tier_is_priced(
    model: str, usage_extra: dict[str, str], extra: dict[str, str], context: dict[str, str]
) -> None:
    usage = Usage(100_000, 1000, extra=usage_extra)
    ours = _estimate(_turn(usage, model, extra=extra))
    expected = _theirs(model, context, input_tokens=100_000, output_tokens=1000)
    assert ours == pytest.approx(expected, rel=1e-12)
    assert expected != _theirs(model, input_tokens=100_000, output_tokens=1000)


def test_the_standard_tier_is_the_default_price() -> None:
    usage = Usage(100_000, 1000, extra={"service_tier": "standard", "speed": "standard"})
    ours = _estimate(_turn(usage, "claude-opus-4-8"))
    assert ours == pytest.approx(
        _theirs("claude-opus-4-8", input_tokens=100_000, output_tokens=1000), rel=1e-12
    )


def test_gemini_audio_input_is_priced_as_audio() -> None:
    details = (
        {"modality": "TEXT", "tokenCount": 500},
        {"modality": "AUDIO", "tokenCount": 1000},
    )
    usage = Usage(1500, 10, extra={"promptTokensDetails": details})
    ours = _estimate(_turn(usage, "gemini-2.5-flash"))
    expected = _theirs(
        "gemini-2.5-flash", input_tokens=1500, input_audio_tokens=1000, output_tokens=10
    )
    assert ours == pytest.approx(expected, rel=1e-12)
    assert expected > _theirs("gemini-2.5-flash", input_tokens=1500, output_tokens=10)


# -- 3. never $0 for unknown ------------------------------------------------------------------


@pytest.mark.parametrize(
    "alias",
    [
        "anthropic/claude-sonnet-4-5",
        "openrouter/anthropic/claude-sonnet-4-5",
        "us.anthropic.claude-sonnet-4-5-v1:0",
        "claude-sonnet-4-5@20250929",
        "claude-sonnet-4-5[1m]",
        "claude-sonnet-4-5-20250929",  # genai-prices' own rule
    ],
)
def test_documented_aliases_are_priced_as_the_model(alias: str) -> None:
    usage = Usage(1000, 100)
    assert _estimate(_turn(usage, alias)) == pytest.approx(
        _estimate(_turn(usage, "claude-sonnet-4-5")), rel=1e-12
    )


def test_an_unknown_model_is_unpriced_never_zero() -> None:
    turns = [
        _turn(Usage(1000, 100), "claude-sonnet-4-5"),
        _turn(Usage(1000, 100), "model-from-the-future-9", mid="m2"),
    ]
    report = Stats.of_messages(turns, label="x").report(by="model", tz=UTC, cost="estimated")
    doc = report.to_json()
    by_model = {row["model"]: row for row in doc["rows"]}
    assert by_model["claude-sonnet-4-5"]["cost_usd"] > 0
    unknown = by_model["model-from-the-future-9"]
    assert unknown["cost_usd"] is None
    assert "model-from-the-future-9" in unknown["cost_note"]
    # a total over an unpriced part is not a price either
    assert doc["total"]["cost_usd"] is None
    assert "model-from-the-future-9" in doc["total"]["cost_note"]
    assert report.unpriced == ["model-from-the-future-9"]


def _write(path: Path, records: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def _cc_line(mid: str, model: str, session: str, **more: Any) -> dict[str, Any]:
    return {
        "type": "assistant",
        "uuid": f"u-{mid}",
        "sessionId": session,
        "timestamp": WHEN,
        "message": {
            "id": mid,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [{"type": "text", "text": "ok"}],
            "usage": {"input_tokens": 100, "output_tokens": 10},
        },
        **more,
    }


def test_the_cli_shows_an_unknown_model_as_unpriced_and_warns_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _write(tmp_path / "a.jsonl", [_cc_line("m1", "brand-new-model", "s1")])
    b = _write(tmp_path / "b.jsonl", [_cc_line("m2", "brand-new-model", "s2")])
    assert main(["stats", a, b]) == 0
    out, err = capsys.readouterr()
    rows = [line.split() for line in out.splitlines()[1:4]]
    assert [row[-2:] for row in rows] == [["-", "-"], ["-", "-"], ["-", "-"]]
    assert "$0" not in out
    assert err.count("brand-new-model") == 1 and len(err.splitlines()) == 1
    assert main(["stats", "--json", a]) == 0
    doc = json.loads(capsys.readouterr()[0])
    (session,) = doc["sessions"]
    assert session["cost_usd"] is None and "brand-new-model" in session["cost_note"]


@pytest.mark.parametrize("bad", [-0.5, math.inf, -math.inf, math.nan])
def test_a_logged_cost_that_is_not_a_cost_is_rejected(bad: float) -> None:
    good = _turn(Usage(10, 1, cost_usd=0.25), "claude-sonnet-4-5")
    wrong = _turn(Usage(10, 1, cost_usd=bad), "claude-sonnet-4-5", mid="m2")
    report = Stats.of_messages([good, wrong], label="x.jsonl").report(tz=UTC, cost="logged")
    assert report.total.cost == 0.25
    assert report.rejected_costs == ["x.jsonl"]
    result = ResultMessage(total_cost_usd=bad, session_id="s", usage=Usage(10, 1))
    report = Stats.of_messages([result], label="r.jsonl").report(tz=UTC, cost="logged")
    assert (report.total.cost, report.rejected_costs) == (None, ["r.jsonl"])


@given(st.floats(allow_nan=True, allow_infinity=True) | st.integers())
def test_only_finite_costs_of_zero_or_more_are_summed(value: float) -> None:
    turn = _turn(Usage(10, 1, cost_usd=value), "claude-sonnet-4-5")  # type: ignore[arg-type]
    report = Stats.of_messages([turn], label="x").report(tz=UTC, cost="logged")
    if math.isfinite(value) and value >= 0:
        assert report.total.cost == float(value)
        assert report.rejected_costs == []
    else:
        assert report.total.cost is None
        assert report.rejected_costs == ["x"]


def test_the_cli_warns_of_a_rejected_logged_cost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path / "c.jsonl", [_cc_line("m1", "claude-sonnet-4-5", "s1", costUSD=-3)])
    assert main(["stats", "--json", path]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["total"]["cost_source"] == "estimated"  # the -3 is not summed
    assert err.splitlines() == [
        f"messages: stats: ignored logged costs that are negative or not finite, in {path}"
    ]


def test_aliases_start_with_the_name_itself() -> None:
    assert _prices.aliases("gpt-5") == ["gpt-5"]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(
                [
                    "claude-sonnet-4-5",
                    "claude-opus-4-6",  # new prices from 2026-03-13
                    "deepseek-chat",  # an off-peak price until 00:30 UTC each day
                    "gpt-5",
                    "no-such-model",
                ]
            ),
            st.integers(0, 400_000),
            st.integers(0, 5000),
            st.integers(0, 100_000),
            st.integers(0, 50_000),
            st.integers(0, 50_000),
            st.sampled_from([(), (("service_tier", "priority"),), (("processing", "batch"),)]),
            st.sampled_from(
                [
                    *(1767225600.0, 1790000000.0, None),
                    # either side of a day's start where prices change, and of 00:30 that day
                    *(1773359999.0, 1773360000.0, 1773361799.0, 1773361800.0),
                ]
            ),
        ),
        max_size=8,
    )
)
def test_requests_priced_together_cost_what_each_costs_alone(
    parts: list[tuple[str, int, int, int, int, int, tuple[tuple[str, str], ...], float | None]],
) -> None:
    """Requests priced alike are added up and priced once (the price is linear within a
    price tier): the sum equals ``genai-prices``' figure for each request on its own,
    tiers, one-hour writes and service tiers included, and prices that change at a day's
    start (looked up once a day) or at a time of day (looked up each time)."""
    items = []
    expected = 0.0
    any_priced = False
    for model, fresh, out, read, write, long, context, when in parts:
        more = {"cache_write_1h_tokens": min(long, write)} if long else None
        tokens = Tokens(fresh, out, read, write, None, None, more)
        items.append((model, when, tokens, context))
        if model == "no-such-model":
            continue
        fields = _prices._fields(tokens)
        at = None if when is None else datetime.fromtimestamp(when, UTC)
        price = genai_prices.calc_price(
            genai_prices.Usage(**fields),
            model,
            genai_request_timestamp=at,
            price_context=dict(context) or None,
        )
        expected += float(price.total_price)
        any_priced = True
    found, unpriced = _prices.total(items)
    if any_priced:
        assert found == pytest.approx(expected, rel=1e-9, abs=1e-12)
    else:
        assert found is None
    assert unpriced == ({"no-such-model"} if any(p[0] == "no-such-model" for p in parts) else set())


_MORE = st.dictionaries(
    st.sampled_from(
        [
            "cache_write_1h_tokens",
            "cache_write_5m_tokens",  # as a log might name it too: the table's own rule holds
            "web_searches",
            "web_fetches",
            "input_audio_tokens",
            "output_tokens",
        ]
    ),
    st.integers(0, 5000),
)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["claude-sonnet-4-5", "claude-opus-4-6", "gemini-2.5-flash"]),
            st.integers(0, 300_000),
            st.integers(0, 5000),
            st.integers(0, 50_000),
            st.integers(0, 50_000),
            _MORE,
        ),
        min_size=1,
        max_size=6,
    )
)
def test_further_counts_of_any_name_are_priced_as_each_request_alone(
    parts: list[tuple[str, int, int, int, int, dict[str, int]]],
) -> None:
    """Requests added up with their further counts (the usual kind, and names that the
    table's own fields also use) cost what each costs alone, as _fields gives them; those
    whose counts contradict each other (audio tokens beyond the input tokens) are refused
    by the table, each on its own, and named with why, never a crash or a made-up price."""
    items = []
    expected: float | None = None
    refused = set()
    for model, fresh, out, read, write, more in parts:
        tokens = Tokens(fresh, out, read, write, None, None, more or None)
        items.append((model, 1790000000.0, tokens, ()))
        try:
            price = genai_prices.calc_price(
                genai_prices.Usage(**_prices._fields(tokens)),
                model,
                genai_request_timestamp=datetime.fromtimestamp(1790000000.0, UTC),
            )
        except ValueError as e:
            why = str(e).removeprefix("Invalid usage data: ")
            refused.add(f"{model} (counts the price table refuses: {why})")
            continue
        expected = (expected or 0.0) + float(price.total_price)
    found, unpriced = _prices.total(items)
    if expected is None:
        assert found is None
    else:
        assert found == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert unpriced == refused


def test_a_groups_mean_never_has_parts_larger_than_their_whole() -> None:
    """Three requests priced alike, all input read from or written to the cache: their
    means (1/3, 3/3, 4/3 of a token) rounded apart came to more than the mean input, which
    the table refused (a crash of the whole report); each whole is now the sum of its
    rounded parts."""
    when = 1790000000.0
    parts = [Tokens(0, 0, 0, 0), Tokens(0, 0, 0, 0), Tokens(0, 0, 1, 3)]
    alone = _prices.total([("claude-sonnet-4-5", when, parts[2], ())])[0]
    found, unpriced = _prices.total([("claude-sonnet-4-5", when, t, ()) for t in parts])
    assert alone is not None and found == pytest.approx(alone, rel=1e-12)
    assert unpriced == set()
    split = {"cache_write_1h_tokens": 2}
    parts = [Tokens(0, 0, 1, 3, None, None, split), Tokens(0, 0, 0, 0), Tokens(0, 0, 0, 1)]
    each = sum(_prices.total([("claude-opus-4-6", when, t, ())])[0] or 0.0 for t in parts)
    found, unpriced = _prices.total([("claude-opus-4-6", when, t, ()) for t in parts])
    assert found == pytest.approx(each, rel=1e-12) and unpriced == set()


def test_counts_the_table_refuses_are_unpriced_in_the_report_with_why() -> None:
    usage = Usage(5, 10, extra={"promptTokensDetails": [{"modality": "AUDIO", "tokenCount": 9}]})
    report = Stats.of_messages([_turn(usage, "gemini-2.5-flash")], label="x").report(tz=UTC)
    why = "input_audio_tokens (9) cannot exceed input_tokens (5)"
    assert report.unpriced == [f"gemini-2.5-flash (counts the price table refuses: {why})"]
    assert report.total.priced_cost is None  # shown as -, never $0.00
    note = report.to_json()["total"]["cost_note"]
    assert note == f"the genai-prices table refuses the counts of gemini-2.5-flash ({why})"
    from messages.cli.stats import notes

    assert notes(report) == [
        "no estimated cost for some usage of gemini-2.5-flash: the genai-prices table refuses"
        f" its counts ({why}) (shown as -)"
    ]
    unknown = _turn(Usage(5, 5), "no-such-model-1", mid="m2")
    both = Stats.of_messages([_turn(usage, "gemini-2.5-flash"), unknown], label="x")
    note = both.report(tz=UTC).to_json()["total"]["cost_note"]
    assert note.startswith("no price for no-such-model-1 in the genai-prices table; the ")


@pytest.mark.parametrize(
    ("model", "times"),
    [
        ("deepseek-chat", [1773361799.0, 1773361800.0]),  # off-peak until 00:30 UTC
        ("claude-opus-4-6", [1773359999.0, 1773360000.0]),  # new prices from 2026-03-13
    ],
)
def test_prices_that_change_within_a_report_are_each_requests_own(
    model: str, times: list[float]
) -> None:
    """A request just before a price change and one just after, in one report, cost what
    ``genai-prices`` says of each: a price set by the time of day is looked up for each
    request, one set by the date once a day."""
    tokens = Tokens(300_000, 1000, 0, 0)
    alone = [
        float(
            genai_prices.calc_price(
                genai_prices.Usage(**_prices._fields(tokens)),
                model,
                genai_request_timestamp=datetime.fromtimestamp(t, UTC),
            ).total_price
        )
        for t in times
    ]
    assert alone[0] != alone[1]  # the change is there to be missed
    found, unpriced = _prices.total([(model, t, tokens, ()) for t in times])
    assert found == pytest.approx(sum(alone), rel=1e-12)
    assert unpriced == set()


def test_without_the_table_lookup_each_request_is_priced_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    turns = [
        _turn(Usage(300_000, 100, 2000, 500), "claude-sonnet-4-5"),
        _turn(Usage(1000, 100), "anthropic/claude-sonnet-4-5", mid="m2"),
    ]
    grouped = _estimate(*turns)
    monkeypatch.setattr(_prices, "_grouped", lambda: False)
    _prices._lookup.cache_clear()
    try:
        assert _estimate(*turns) == pytest.approx(grouped, rel=1e-9)
    finally:
        _prices._lookup.cache_clear()


_SPLIT = {"ephemeral_5m_input_tokens": 100, "ephemeral_1h_input_tokens": 900}


def _anthropic_usage() -> dict[str, Any]:
    return {
        "input_tokens": 5,
        "output_tokens": 7,
        "cache_read_input_tokens": 0,
        "cache_creation_input_tokens": 1000,
        "cache_creation": dict(_SPLIT),
    }


def _body() -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-opus-4-6",
        "content": [{"type": "text", "text": "ok"}],
        "stop_reason": "end_turn",
        "usage": _anthropic_usage(),
    }


def test_every_anthropic_source_carries_the_split() -> None:
    """A response, a stream (``message_start`` carries the split, ``message_delta`` only the
    totals) and a Claude Code transcript line all give the split to ``Usage``."""
    from messages.adapters import get
    from messages.providers.anthropic import accumulator
    from messages.providers.anthropic import decode_response

    response = decode_response(_body())
    acc = accumulator()
    start = {**_body(), "content": [], "stop_reason": None}
    for event in (
        {"type": "message_start", "message": start},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "ok"}},
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn"},
            "usage": {"output_tokens": 9},
        },
        {"type": "message_stop"},
    ):
        acc.feed(event)
    streamed = acc.message()
    line = json.dumps({"type": "assistant", "sessionId": "s", "uuid": "u", "message": _body()})
    (transcript,) = get("claude_code").iter_decode([line])
    for m in (response, streamed, transcript):
        assert isinstance(m, AssistantMessage) and m.usage is not None
        assert (m.usage.cache_write_1h_tokens, m.usage.cache_write_5m_tokens) == (900, 100)
    assert streamed.usage is not None and streamed.usage.output_tokens == 9


def test_only_counts_that_are_counts_are_taken() -> None:
    from messages.stats._engine import _claude_reset
    from messages.stats._engine import priced_counts

    odd = {"web_search_requests": -3, "web_fetch_requests": "2"}
    assert priced_counts(Usage(1, 1, extra={"server_tool_use": odd})) is None
    two = (
        {"modality": "AUDIO", "tokenCount": 300},
        {"modality": "AUDIO", "tokenCount": 200},
        {"modality": "IMAGE", "tokenCount": -1},
    )
    found = priced_counts(Usage(1, 1, extra={"promptTokensDetails": two}))
    assert found == {"input_audio_tokens": 500}
    assert Tokens.of(None, 0.5).cost == 0.5
    assert _claude_reset({"rateLimitType": "five_hour", "resetsAt": "2026-01-15T13:00:00Z"}) is None
    assert _claude_reset({"rateLimitType": "five_hour", "resetsAt": True}) is None
    assert _claude_reset({"rateLimitType": "five_hour", "resetsAt": 1768482000}) == 1768482000


# -- the table loaded without the package's update client --------------------------------------


def test_the_table_loaded_alone_prices_as_the_package_does_and_leaves_it_importable() -> None:
    """In a fresh process stats loads the table modules only (no ``httpx``, no ``asyncio``):
    the same prices as the package's ``calc_price``, and ``import genai_prices`` works after."""
    import subprocess
    import sys

    script = """
import json, sys
from datetime import UTC, datetime
from messages.stats import Tokens, _prices
parts = [
    ("claude-sonnet-4-5", 1.79e9, Tokens(12, 340, 5600, 7800), ()),
    ("claude-sonnet-4-5", 1.79e9, Tokens(250_000, 10, 0, 0), ()),
    ("claude-opus-4-6", 1.79e9, Tokens(3, 5, 7, 11, more={"cache_write_1h_tokens": 4}), ()),
    ("claude-opus-4-6", 1.79e9, Tokens(3, 5, 7, 11), (("speed", "fast"),)),
    ("no-such-model", 1.79e9, Tokens(1, 1), ()),
]
ours = _prices.total(parts)
light = {name: name in sys.modules for name in ("genai_prices", "httpx2", "httpx", "asyncio")}
import genai_prices
at = datetime.fromtimestamp(1.79e9, UTC)
theirs = 0.0
for model, _, t, served in parts[:4]:
    usage = genai_prices.Usage(**_prices._fields(t))
    theirs += float(genai_prices.calc_price(
        usage, model, genai_request_timestamp=at, price_context=dict(served) or None
    ).total_price)
print(json.dumps([ours[0], sorted(ours[1]), theirs, light, _prices.version()]))
"""
    src = str(Path(__file__).resolve().parent.parent / "src")
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={"PYTHONPATH": src, "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    ours, missing, theirs, loaded, version = json.loads(done.stdout)
    assert missing == ["no-such-model"]
    assert ours == pytest.approx(theirs, rel=1e-12) and ours > 0
    assert loaded == {"genai_prices": False, "httpx2": False, "httpx": False, "asyncio": False}
    assert version == genai_prices.__version__

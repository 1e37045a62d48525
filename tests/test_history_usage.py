"""history.total_usage and usage_by_session: run totals win, turns are never counted twice."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from messages import AssistantMessage
from messages import ResultMessage
from messages import TextMessage
from messages import Usage
from messages import UserMessage
from messages import strategies as ms
from messages.history import total_usage
from messages.history import usage_by_session


def turn(i: int, o: int, **kw: Any) -> AssistantMessage:
    return AssistantMessage("x", usage=Usage(i, o), **kw)


def test_turns_add_up_without_a_result() -> None:
    assert total_usage([turn(1, 2), UserMessage("u"), turn(3, 4)]) == Usage(4, 6)


def test_a_result_replaces_its_turns() -> None:
    stream = [turn(1, 2), turn(3, 4), ResultMessage(usage=Usage(10, 20), total_cost_usd=0.5)]
    assert total_usage(stream) == Usage(10, 20, cost_usd=0.5)


def test_a_result_without_usage_takes_tokens_from_turns_and_cost_from_itself() -> None:
    stream = [turn(1, 2), ResultMessage(total_cost_usd=0.25)]
    assert total_usage(stream) == Usage(1, 2, cost_usd=0.25)


def test_cost_falls_back_to_usage_then_turns() -> None:
    r = ResultMessage(usage=Usage(1, 1, cost_usd=0.1))
    assert total_usage([r]).cost_usd == 0.1
    costly = AssistantMessage("x", usage=Usage(1, 1, cost_usd=0.2))
    assert total_usage([costly, ResultMessage(usage=Usage(5, 5))]) == Usage(5, 5, cost_usd=0.2)


def test_runs_after_a_result_count_their_turns() -> None:
    stream = [
        turn(1, 1),
        ResultMessage(usage=Usage(2, 2), total_cost_usd=1.0),
        turn(3, 3),
        ResultMessage(usage=Usage(4, 4), total_cost_usd=2.0),
        turn(5, 5),
    ]
    assert total_usage(stream) == Usage(11, 11, cost_usd=3.0)


def test_fragments_sharing_a_message_id_count_once() -> None:
    stream = [turn(10, 1, message_id="m1"), turn(10, 7, message_id="m1"), turn(2, 2)]
    assert total_usage(stream) == Usage(12, 9)


def test_sessions_are_kept_apart_in_order_of_appearance() -> None:
    stream = [
        TextMessage("hi", session_id="b"),
        turn(1, 1, session_id="a"),
        turn(2, 2, session_id="b"),
        ResultMessage(usage=Usage(9, 9), session_id="a"),
        turn(3, 3),
    ]
    got = usage_by_session(stream)
    assert list(got) == ["b", "a", None]
    assert got == {"b": Usage(2, 2), "a": Usage(9, 9), None: Usage(3, 3)}
    assert total_usage(stream) == Usage(14, 14)


def test_nothing_reported_is_an_empty_usage() -> None:
    assert usage_by_session([UserMessage("x", session_id="s")]) == {"s": Usage()}
    assert total_usage([]) == Usage()


def test_extra_is_not_carried_into_totals() -> None:
    r = ResultMessage(usage=Usage(1, 1, extra={"service_tier": "standard"}))
    assert total_usage([r]).extra == {}


@given(ms.streams(elements=ms.messages()))
def test_total_is_the_sum_of_the_sessions(stream: list[Any]) -> None:
    by_session = usage_by_session(stream)
    assert total_usage(stream) == Usage.sum(by_session.values())
    assert set(by_session) == {m.session_id for m in stream}


@given(st.lists(ms.assistant_messages(), max_size=6))
def test_without_results_and_shared_ids_the_turns_add_up(turns: list[Any]) -> None:
    turns = [t.__class__(t.content, usage=t.usage) for t in turns]  # no ids, one session
    assert total_usage(turns) == Usage.sum(t.usage for t in turns)


@given(st.lists(ms.assistant_messages(), max_size=6), ms.usages())
def test_a_closing_result_is_the_total(turns: list[Any], usage: Usage) -> None:
    turns = [t.__class__(t.content, usage=t.usage) for t in turns]
    stream = [*turns, ResultMessage(usage=usage, total_cost_usd=1.5)]
    got = total_usage(stream)
    assert got == Usage(
        usage.input_tokens,
        usage.output_tokens,
        usage.cache_read_tokens,
        usage.cache_write_tokens,
        reasoning_tokens=usage.reasoning_tokens,
        cost_usd=1.5,
    )

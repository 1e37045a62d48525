"""history.trim and token counting: budgets, tool pairs kept whole, and the counter hooks."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from messages import AssistantMessage
from messages import AudioBlock
from messages import ImageBlock
from messages import ImageMessage
from messages import RawBlock
from messages import ResultMessage
from messages import SystemMessage
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingBlock
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import UserMessage
from messages import strategies as ms
from messages.history import count_tokens_approximately
from messages.history import per_message
from messages.history import trim
from messages.history._pairs import carries_results
from messages.history._pairs import is_system
from support.history_checks import pairing

ONE_EACH = per_message(lambda m: 1)
"""A counter where every message costs one token: budgets read as message counts."""

CHAT = (
    SystemMessage("sys"),
    UserMessage("u1"),
    AssistantMessage((TextBlock("a1"), ToolUseBlock("t1", "Bash"))),
    UserMessage((ToolResultBlock("t1", "r1"),)),
    AssistantMessage("a2"),
    UserMessage("u3"),
)


# -- counting -----------------------------------------------------------------------------


def test_counts_characters_overhead_and_media() -> None:
    assert count_tokens_approximately([]) == 0
    assert count_tokens_approximately([UserMessage("abcd")]) == 1 + 3
    assert count_tokens_approximately([UserMessage("abcde")]) == 2 + 3
    image = ImageBlock(data="A" * 4000, media_type="image/png")
    audio = AudioBlock(url="https://example.com/a.wav")
    assert count_tokens_approximately([UserMessage((image, image, audio))]) == 85 * 3 + 3
    assert count_tokens_approximately([ImageMessage(data="AAAA")]) == 85 + 3
    assert (
        count_tokens_approximately(
            [UserMessage((image, audio))], tokens_per_image=1, tokens_per_audio=10
        )
        == 1 + 10 + 3
    )


def test_counts_tool_calls_results_thinking_and_raw() -> None:
    call = ToolUseBlock("t1", "Bash", {"c": 1})  # "Bash" + '{"c":1}' = 11 chars
    assert count_tokens_approximately([AssistantMessage((call,))], chars_per_token=1) == 11 + 3
    raw_args = ToolUseBlock("t1", "Bash", arguments="{bad")  # 4 + 4
    assert count_tokens_approximately([ToolUseMessage("t1", "Bash", arguments="{bad")]) == 2 + 3
    assert count_tokens_approximately([AssistantMessage((raw_args,))], chars_per_token=1) == 11
    nested = ToolResultBlock("t1", (TextBlock("abcd"), ImageBlock(url="u")))
    assert count_tokens_approximately([ToolMessage((nested,))], chars_per_token=1) == 4 + 85 + 3
    thinking = ThinkingBlock("abcdefgh", signature="x" * 100)
    assert count_tokens_approximately([AssistantMessage((thinking,))]) == 2 + 3
    raw = RawBlock({"type": "x"})  # {"type":"x"} = 12 chars
    assert count_tokens_approximately([AssistantMessage((raw,))], chars_per_token=1) == 15


def test_session_messages_count_nothing() -> None:
    assert count_tokens_approximately([ResultMessage(result="x" * 100)]) == 0


def test_names_count_unless_told_not_to() -> None:
    named = UserMessage("", extra={"name": "abcd"})
    assert count_tokens_approximately([named]) == 1 + 3
    assert count_tokens_approximately([named], count_name=False) == 3


def test_parameters() -> None:
    m = [UserMessage("abcdef")]
    assert count_tokens_approximately(m, chars_per_token=2, extra_tokens_per_message=0) == 3
    assert count_tokens_approximately(m, chars_per_token=2.5, extra_tokens_per_message=1) == 4
    with pytest.raises(ValueError, match="chars_per_token must be positive, found 0"):
        count_tokens_approximately(m, chars_per_token=0)


def test_text_counter_hook() -> None:
    seen: list[str] = []

    def words(text: str) -> int:
        seen.append(text)
        return len(text.split())

    m = AssistantMessage((TextBlock("two words"), ToolUseBlock("t", "f", {"a": 1})))
    assert count_tokens_approximately([m], text_counter=words) == 4 + 3
    assert seen == ['two words\nf\n{"a":1}']


def test_per_message_hook() -> None:
    counter = per_message(lambda m: 5, extra_tokens=2)
    assert counter([]) == 2
    assert counter([UserMessage("a"), UserMessage("b")]) == 12


@given(ms.streams(max_size=6), ms.streams(max_size=6))
def test_counting_is_additive_and_never_negative(a: list[Any], b: list[Any]) -> None:
    total = count_tokens_approximately(a + b)
    assert total == count_tokens_approximately(a) + count_tokens_approximately(b)
    assert total >= 0


# -- trimming -----------------------------------------------------------------------------


def test_last_keeps_the_system_prompt_and_the_newest() -> None:
    assert trim(CHAT, 3, token_counter=ONE_EACH) == (CHAT[0], CHAT[4], CHAT[5])
    assert trim(CHAT, 99, token_counter=ONE_EACH) == CHAT
    assert trim(CHAT, 3, token_counter=ONE_EACH, include_system=False) == (CHAT[4], CHAT[5])


def test_a_call_and_its_result_stay_together() -> None:
    # four messages fit, but starting at the result would orphan it: only three are kept
    assert trim(CHAT, 4, token_counter=ONE_EACH) == (CHAT[0], CHAT[4], CHAT[5])
    assert trim(CHAT, 5, token_counter=ONE_EACH) == (CHAT[0], *CHAT[2:])
    # first: three fit, but ending on the call would leave it without its result
    assert trim(CHAT, 3, strategy="first", token_counter=ONE_EACH) == CHAT[:2]
    assert trim(CHAT, 4, strategy="first", token_counter=ONE_EACH) == CHAT[:4]


def test_flat_pairs_stay_together_too() -> None:
    stream = (
        TextMessage("q", role="user"),
        ToolUseMessage("a", "f"),
        ToolUseMessage("b", "g"),
        ToolResultMessage("a", "1"),
        ToolResultMessage("b", "2"),
        TextMessage("done"),
    )
    assert trim(stream, 3, token_counter=ONE_EACH) == (stream[5],)
    assert trim(stream, 5, token_counter=ONE_EACH) == stream[1:]
    assert trim(stream, 4, strategy="first", token_counter=ONE_EACH) == stream[:1]


def test_never_starts_on_an_orphaned_result() -> None:
    stream = (ToolMessage((ToolResultBlock("gone", "?"),)), AssistantMessage("hi"))
    assert trim(stream, 99) == (stream[1],)


def test_start_on_and_end_on() -> None:
    assert trim(CHAT, 4, token_counter=ONE_EACH, start_on="user") == (CHAT[0], CHAT[5])
    assert trim(CHAT, 99, token_counter=ONE_EACH, end_on="assistant") == CHAT[:5]
    assert trim(CHAT, 99, token_counter=ONE_EACH, end_on=["tool"]) == CHAT[:1]
    assert trim(CHAT, 9, strategy="first", token_counter=ONE_EACH, end_on="assistant") == CHAT[:5]
    assert trim(CHAT, 3, strategy="first", token_counter=ONE_EACH, end_on="assistant") == ()


def test_the_system_prompt_counts_against_the_budget() -> None:
    assert trim(CHAT, 1, token_counter=ONE_EACH) == (CHAT[0],)
    assert trim(CHAT, 0, token_counter=ONE_EACH) == ()
    assert trim([], 10) == ()


def test_a_later_system_message_never_starts_the_kept_part() -> None:
    stream = (SystemMessage("s"), UserMessage("u"), SystemMessage("mid"), UserMessage("v"))
    assert trim(stream, 3, token_counter=ONE_EACH) == (stream[0], stream[3])
    assert trim(stream, 3, token_counter=ONE_EACH, include_system=False) == stream[1:]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_tokens": -1}, "max_tokens must not be negative, found -1"),
        ({"strategy": "middle"}, "strategy must be 'last' or 'first', found 'middle'"),
        ({"strategy": "first", "start_on": "user"}, "start_on only applies to strategy='last'"),
        (
            {"start_on": "human"},
            "start_on: unknown role 'human'; expected one of assistant, developer, system,"
            " tool, user",
        ),
        ({"end_on": ["user", "ai"]}, "end_on: unknown role 'ai'; expected one of"),
    ],
)
def test_bad_arguments(kwargs: dict[str, Any], message: str) -> None:
    args = {"max_tokens": 10, **kwargs}
    with pytest.raises(ValueError) as info:
        trim(CHAT, **args)
    assert str(info.value).startswith(message)


def test_exact_counter_through_partial() -> None:
    counter = functools.partial(count_tokens_approximately, text_counter=lambda s: 0)
    assert trim(CHAT, 3 * 6, token_counter=counter) == CHAT


# -- laws ---------------------------------------------------------------------------------

budgets = st.integers(min_value=0, max_value=400)
strategies_ = st.sampled_from(["last", "first"])


def _is_slice(result: tuple[Any, ...], source: list[Any], head: int) -> bool:
    body = result[head:]
    if not body:
        return True
    n = len(body)
    return any(tuple(source[i : i + n]) == body for i in range(len(source) - n + 1))


@given(ms.streams(), budgets, strategies_, st.booleans())
def test_budget_order_and_idempotence(
    stream: list[Any], budget: int, strategy: Any, include_system: bool
) -> None:
    kept = trim(stream, budget, strategy=strategy, include_system=include_system)
    assert count_tokens_approximately(kept) <= budget
    head = 0
    if strategy == "last" and include_system:
        while head < len(stream) and is_system(stream[head]):
            head += 1
        head = min(head, len(kept))
        assert kept[:head] == tuple(stream[:head])
    assert _is_slice(kept, stream, head)
    again = trim(kept, budget, strategy=strategy, include_system=include_system)
    assert again == kept


@given(ms.conversations(), budgets, strategies_)
def test_pairs_are_never_split(conversation: list[Any], budget: int, strategy: Any) -> None:
    kept = trim(conversation, budget, strategy=strategy)
    assert pairing(kept).ok
    if strategy == "last":
        body = [m for m in kept if not is_system(m)]
        assert not body or not carries_results(body[0])


@given(ms.conversations(broken=True), budgets, strategies_)
def test_no_pair_is_split_in_broken_histories(
    conversation: list[Any], budget: int, strategy: Any
) -> None:
    before = pairing(conversation)
    kept = trim(conversation, budget, strategy=strategy)
    after = pairing(kept)
    answered = set(before.calls) - set(before.dangling)
    assert not (set(after.dangling) & answered)  # no answered call lost its result
    assert set(after.orphans) <= set(before.orphans)  # no result lost its call


@given(ms.conversations(), budgets, budgets, strategies_)
def test_a_bigger_budget_keeps_at_least_as_much(
    conversation: list[Any], a: int, b: int, strategy: Any
) -> None:
    small, big = sorted((a, b))
    assert len(trim(conversation, small, strategy=strategy)) <= len(
        trim(conversation, big, strategy=strategy)
    )


@given(ms.conversations(), st.sampled_from(["user", "assistant"]))
def test_start_and_end_roles_hold(conversation: list[Any], role: Any) -> None:
    kept = trim(conversation, 200, start_on=role)
    body = [m for m in kept if not is_system(m)]
    assert not body or getattr(body[0], "role", None) == role
    kept = trim(conversation, 200, strategy="first", end_on=role)
    assert not kept or getattr(kept[-1], "role", None) == role

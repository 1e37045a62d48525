"""history.merge_runs and history.filter: same-speaker runs, and filters that keep pairs."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from messages import AssistantMessage
from messages import DecodeError
from messages import ImageMessage
from messages import ResultMessage
from messages import SystemMessage
from messages import TextBlock
from messages import TextMessage
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import Usage
from messages import UserMessage
from messages import history
from messages import strategies as ms
from messages.history import filter_messages
from messages.history import merge_runs
from messages.text import stream_text
from support.history_checks import pairing
from support.history_checks import pairs
from support.history_checks import tool_free

# -- merge_runs ---------------------------------------------------------------------------


def test_user_runs_merge_into_blocks() -> None:
    got = merge_runs([UserMessage("a", uuid="u1"), UserMessage((TextBlock("b"),), uuid="u2")])
    assert got == (UserMessage((TextBlock("a"), TextBlock("b")), uuid="u1"),)
    assert got[0].text == "a\nb"


def test_system_and_developer_stay_apart() -> None:
    stream = [SystemMessage("s"), SystemMessage("d", role="developer"), SystemMessage("e")]
    assert merge_runs(stream) == tuple(stream)
    assert merge_runs(stream[:1] * 2) == (SystemMessage((TextBlock("s"), TextBlock("s"))),)


def test_tool_messages_never_merge() -> None:
    stream = [ToolMessage((ToolResultBlock("a", "1"),)), ToolMessage((ToolResultBlock("b", "2"),))]
    assert merge_runs(stream) == tuple(stream)


def test_user_messages_with_results_merge_for_anthropic() -> None:
    stream = [UserMessage((ToolResultBlock("a", "1"),)), UserMessage((ToolResultBlock("b", "2"),))]
    assert merge_runs(stream) == (
        UserMessage((ToolResultBlock("a", "1"), ToolResultBlock("b", "2"))),
    )


def test_different_sessions_subagents_and_names_do_not_merge() -> None:
    assert len(merge_runs([UserMessage("a", session_id="1"), UserMessage("b")])) == 2
    assert len(merge_runs([UserMessage("a", parent_tool_use_id="t"), UserMessage("b")])) == 2
    named = [UserMessage("a", extra={"name": "ana"}), UserMessage("b", extra={"name": "bo"})]
    assert len(merge_runs(named)) == 2


def test_session_messages_break_runs() -> None:
    stream = [UserMessage("a"), ResultMessage(), UserMessage("b")]
    assert merge_runs(stream) == tuple(stream)


def test_assistant_turns_add_usage_and_keep_the_last_stop_reason() -> None:
    a = AssistantMessage("a", usage=Usage(1, 2), stop_reason="tool_use", extra={"x": 1})
    b = AssistantMessage("b", usage=Usage(3, 4), stop_reason="end_turn", extra={"y": 2})
    (m,) = merge_runs([a, b])
    assert m == AssistantMessage(
        (TextBlock("a"), TextBlock("b")),
        usage=Usage(4, 6),
        stop_reason="end_turn",
        extra={"x": 1, "y": 2},
    )
    (m,) = merge_runs([a, AssistantMessage("c", error="boom")])
    assert (m.usage, m.stop_reason, m.error) == (Usage(1, 2), "tool_use", "boom")


def test_fragments_of_one_api_message_do_not_double_count_usage() -> None:
    a = AssistantMessage("a", usage=Usage(10, 1), message_id="msg_1")
    b = AssistantMessage("b", usage=Usage(10, 5), message_id="msg_1")
    assert merge_runs([a, b])[0].usage == Usage(10, 5)
    assert merge_runs([a, AssistantMessage("c", message_id="msg_1")])[0].usage == Usage(10, 1)


def test_context_comes_from_the_first_filled_in_by_later() -> None:
    (m,) = merge_runs([UserMessage("a", uuid="u1"), UserMessage("b", uuid="u2", model="m")])
    assert (m.uuid, m.model) == ("u1", "m")


def test_flat_text_runs_join_with_the_separator() -> None:
    cite = {"url": "x"}
    stream = [
        TextMessage("a", citations=(cite,)),
        TextMessage("b"),
        TextMessage("c", role="user"),
        ImageMessage(url="u"),
        ImageMessage(url="u"),
    ]
    assert merge_runs(stream) == (
        TextMessage("a\nb", citations=(cite,)),
        TextMessage("c", role="user"),
        stream[3],
        stream[4],
    )
    assert merge_runs(stream[:2], separator="")[0].text == "ab"


def test_merge_runs_checks_its_input() -> None:
    with pytest.raises(DecodeError, match=r"^\$\[0\]: expected a message, found an integer$"):
        merge_runs([1])  # type: ignore[list-item]


def _mergeable(a: Any, b: Any) -> bool:
    return len(merge_runs([a, b])) == 1


@given(ms.streams())
def test_merge_runs_is_idempotent_and_leaves_no_run(stream: list[Any]) -> None:
    merged = merge_runs(stream)
    assert merge_runs(merged) == merged
    assert not any(_mergeable(a, b) for a, b in itertools.pairwise(merged))
    assert len(merged) <= len(stream)


def _all_blocks(stream: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    for m in stream:
        if isinstance(m, (SystemMessage, UserMessage, AssistantMessage, ToolMessage)):
            out.extend(() if m.content == "" else m.blocks)
        else:
            out.append(m)
    return out


@given(ms.streams(elements=ms.role_messages() | ms.session_messages()))
def test_merge_runs_keeps_every_block_in_order(stream: list[Any]) -> None:
    assert _all_blocks(merge_runs(stream)) == _all_blocks(stream)


@given(ms.conversations())
def test_merge_runs_keeps_pairs_and_text(conversation: list[Any]) -> None:
    merged = merge_runs(conversation)
    assert pairing(merged) == pairing(conversation)
    assert stream_text(merged) == stream_text(conversation)


# -- filter -------------------------------------------------------------------------------

HISTORY = (
    SystemMessage("sys"),
    UserMessage("list", uuid="u1", extra={"name": "ana"}),
    AssistantMessage((TextBlock("ok"), ToolUseBlock("t1", "Bash")), message_id="m1"),
    UserMessage((ToolResultBlock("t1", "a.txt"), TextBlock("thanks"))),
    ToolUseMessage("t2", "Read"),
    ToolResultMessage("t2", "text"),
    ResultMessage(subtype="success", uuid="r1"),
)


def test_filter_is_reachable_as_history_filter() -> None:
    assert history.filter(HISTORY, include_kinds="result") == (HISTORY[6],)


def test_filter_by_kind_accepts_names_and_classes() -> None:
    assert filter_messages(HISTORY, include_kinds=[UserMessage, "tool_use"]) == (
        HISTORY[1],
        HISTORY[3],
        HISTORY[4],
    )
    assert filter_messages(HISTORY, exclude_kinds=AssistantMessage) == HISTORY[:2] + HISTORY[3:]


def test_filter_by_role() -> None:
    assert filter_messages(HISTORY, include_roles="system") == (HISTORY[0],)
    assert filter_messages(HISTORY, exclude_roles=["user", "tool"]) == (
        HISTORY[0],
        HISTORY[2],
        HISTORY[4],
        HISTORY[6],
    )


def test_filter_by_name_and_id() -> None:
    assert filter_messages(HISTORY, include_names="ana") == (HISTORY[1],)
    assert filter_messages(HISTORY, include_names="Read") == (HISTORY[4],)
    assert filter_messages(HISTORY, include_ids=["u1", "m1", "r1"]) == (
        HISTORY[1],
        HISTORY[2],
        HISTORY[6],
    )
    assert filter_messages(HISTORY, exclude_ids="u1") == HISTORY[:1] + HISTORY[2:]


def test_filters_combine_with_and() -> None:
    assert filter_messages(HISTORY, include_roles="user", include_kinds="user") == (
        HISTORY[1],
        HISTORY[3],
    )
    assert filter_messages(HISTORY, include_roles="user", exclude_ids="u1") == (HISTORY[3],)
    assert filter_messages(HISTORY, include_roles=()) == ()


def test_excluding_all_tool_calls_takes_their_results_too() -> None:
    assert filter_messages(HISTORY, exclude_tool_calls=True) == (
        HISTORY[0],
        HISTORY[1],
        AssistantMessage((TextBlock("ok"),), message_id="m1"),
        UserMessage((TextBlock("thanks"),)),
        HISTORY[6],
    )


def test_excluding_some_tool_calls() -> None:
    assert filter_messages(HISTORY, exclude_tool_calls=["t2"]) == HISTORY[:4] + HISTORY[6:]
    assert filter_messages(HISTORY, exclude_tool_calls="t1")[2:4] == (
        AssistantMessage((TextBlock("ok"),), message_id="m1"),
        UserMessage((TextBlock("thanks"),)),
    )
    only_call = [AssistantMessage((ToolUseBlock("x", "f"),)), ToolMessage((ToolResultBlock("x"),))]
    assert filter_messages(only_call, exclude_tool_calls={"x"}) == ()
    assert filter_messages(HISTORY, exclude_tool_calls=False) == HISTORY


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"include_kinds": "ai"}, "include_kinds: unknown message kind 'ai'; expected one of"),
        ({"exclude_kinds": [int]}, "exclude_kinds: unknown message kind <class 'int'>"),
        (
            {"include_kinds": TextBlock},
            "include_kinds: unknown message kind <class 'messages.blocks.TextBlock'>",
        ),
        ({"include_roles": "human"}, "include_roles: unknown role 'human'; expected one of"),
        ({"exclude_roles": ["bot"]}, "exclude_roles: unknown role 'bot'"),
    ],
)
def test_unknown_kinds_and_roles_are_errors(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as info:
        filter_messages(HISTORY, **kwargs)
    assert str(info.value).startswith(message)


kinds = st.sets(st.sampled_from(["user", "assistant", "text", "tool_use", "result", "tool"]))
roles = st.sets(st.sampled_from(["system", "user", "assistant", "tool"]))


@given(ms.streams(), kinds | st.none(), roles | st.none(), st.booleans())
def test_filter_is_an_idempotent_subsequence(
    stream: list[Any], in_kinds: Any, out_roles: Any, no_tools: bool
) -> None:
    kwargs = {"include_kinds": in_kinds, "exclude_roles": out_roles, "exclude_tool_calls": no_tools}
    kept = filter_messages(stream, **kwargs)
    assert filter_messages(kept, **kwargs) == kept
    if not no_tools:
        it = iter(stream)
        assert all(any(m is s for s in it) for m in kept)


@given(ms.conversations(), st.data())
def test_excluding_tool_calls_never_separates_a_pair(conversation: list[Any], data: Any) -> None:
    ids = sorted(pairing(conversation).calls)
    chosen = data.draw(st.sets(st.sampled_from(ids)) if ids else st.just(set()))
    kept = filter_messages(conversation, exclude_tool_calls=chosen)
    assert pairing(kept).ok
    assert pairs(kept) == pairs(conversation) - chosen
    assert tool_free(kept) == tool_free(conversation)
    everything = filter_messages(conversation, exclude_tool_calls=True)
    assert pairing(everything).calls == []
    assert tool_free(everything) == tool_free(conversation)

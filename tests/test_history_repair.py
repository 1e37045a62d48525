"""history.repair: orphans, duplicates, dangling calls and result order, with change records."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from hypothesis import given

from messages import AssistantMessage
from messages import DecodeError
from messages import ResultMessage
from messages import StreamEventMessage
from messages import TextBlock
from messages import TextMessage
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import UserMessage
from messages import history
from messages import strategies as ms
from messages.history import SYNTHETIC_TEXT
from messages.history import Change
from messages.history import is_synthetic
from messages.history import repair
from support.history_checks import pairing
from support.history_checks import tool_free

CALL = AssistantMessage((TextBlock("Running."), ToolUseBlock("t1", "Bash", {"command": "ls"})))


def synthetic(call_id: str, name: str) -> ToolResultBlock:
    return ToolResultBlock(call_id, SYNTHETIC_TEXT, is_error=True, name=name)


def test_a_well_formed_history_is_unchanged() -> None:
    history_ = [UserMessage("go"), CALL, UserMessage((ToolResultBlock("t1", "a.txt"),))]
    fixed, changes = repair(history_)
    assert fixed == tuple(history_)
    assert changes == ()


def test_orphaned_results_are_dropped() -> None:
    history_ = [
        UserMessage((ToolResultBlock("zz", "?"), TextBlock("hi"))),
        ToolResultMessage("yy", "?"),
        ToolMessage((ToolResultBlock("xx", "?"),)),
    ]
    fixed, changes = repair(history_)
    assert fixed == (UserMessage((TextBlock("hi"),)),)
    assert changes == (
        Change("dropped_orphan_result", 0, "zz"),
        Change("dropped_orphan_result", 1, "yy"),
        Change("dropped_orphan_result", 2, "xx"),
    )


def test_a_result_before_its_call_is_an_orphan() -> None:
    fixed, changes = repair([UserMessage((ToolResultBlock("t1", "early"),)), CALL])
    assert [c.kind for c in changes] == ["dropped_orphan_result", "added_synthetic_result"]
    assert fixed == (CALL, UserMessage((synthetic("t1", "Bash"),)))


def test_duplicate_results_keep_the_first() -> None:
    history_ = [
        CALL,
        UserMessage((ToolResultBlock("t1", "first"),)),
        UserMessage((ToolResultBlock("t1", "second"), TextBlock("and"))),
    ]
    fixed, changes = repair(history_)
    assert fixed == (CALL, history_[1], UserMessage((TextBlock("and"),)))
    assert changes == (Change("dropped_duplicate_result", 2, "t1"),)


def test_a_real_result_wins_over_a_synthetic_one() -> None:
    history_ = [
        CALL,
        UserMessage((synthetic("t1", "Bash"),)),
        UserMessage((ToolResultBlock("t1", "late but real"),)),
    ]
    fixed, changes = repair(history_)
    assert fixed == (CALL, history_[2])
    assert changes == (Change("dropped_duplicate_result", 1, "t1"),)


def test_dangling_call_gets_a_marked_result_in_the_results_message() -> None:
    call = AssistantMessage((ToolUseBlock("t1", "Bash"), ToolUseBlock("t2", "Read")))
    results = UserMessage((ToolResultBlock("t1", "ok"), TextBlock("note")))
    fixed, changes = repair([call, results])
    assert fixed == (
        call,
        UserMessage((ToolResultBlock("t1", "ok"), synthetic("t2", "Read"), TextBlock("note"))),
    )
    assert changes == (Change("added_synthetic_result", 0, "t2"),)
    block = fixed[1].tool_results[1]
    assert block.is_error is True
    assert block.text == "[synthetic] no result was recorded for this tool call"
    assert block.extra == {}  # the mark is the content: no unknown field reaches a provider
    assert is_synthetic(block) and is_synthetic(fixed[1]) and not is_synthetic(call)


def test_a_real_error_result_with_other_text_is_not_synthetic() -> None:
    assert not is_synthetic(ToolResultBlock("t", "boom", is_error=True))
    assert not is_synthetic(ToolResultBlock("t", SYNTHETIC_TEXT, is_error=False))
    assert is_synthetic(ToolResultBlock("t", SYNTHETIC_TEXT, is_error=True))


def test_dangling_call_with_nothing_after_gets_a_new_user_message() -> None:
    call = AssistantMessage((ToolUseBlock("t1", "Bash"),), session_id="s", parent_tool_use_id="p")
    fixed, _ = repair([call, AssistantMessage("more")])
    assert fixed[1] == UserMessage(
        (synthetic("t1", "Bash"),), session_id="s", parent_tool_use_id="p"
    )
    assert fixed[2] == AssistantMessage("more")


def test_several_dangling_calls_share_one_new_user_message() -> None:
    call = AssistantMessage((ToolUseBlock("a", "f"), ToolUseBlock("b", "g")))
    fixed, changes = repair([call])
    assert fixed == (call, UserMessage((synthetic("a", "f"), synthetic("b", "g"))))
    assert len(changes) == 2


def test_openai_style_histories_get_tool_messages() -> None:
    call = AssistantMessage(
        (ToolUseBlock("a", "f"), ToolUseBlock("b", "g"), ToolUseBlock("c", "h"))
    )
    first = ToolMessage((ToolResultBlock("a", "1"),))
    fixed, _ = repair([call, first, UserMessage("next")])
    assert fixed == (
        call,
        first,
        ToolMessage((synthetic("b", "g"),)),
        ToolMessage((synthetic("c", "h"),)),
        UserMessage("next"),
    )
    fixed, _ = repair([first.__class__((ToolResultBlock("z", "1"),)), call])
    assert fixed[1:] == (
        ToolMessage((synthetic("a", "f"),)),
        ToolMessage((synthetic("b", "g"),)),
        ToolMessage((synthetic("c", "h"),)),
    )


def test_flat_dangling_calls_get_flat_results() -> None:
    stream = [
        ToolUseMessage("a", "f", session_id="s"),
        ToolUseMessage("b", "g", session_id="s"),
        ToolResultMessage("a", "1", role="user"),
        TextMessage("next", role="user"),
    ]
    fixed, changes = repair(stream)
    assert fixed == (
        stream[0],
        stream[1],
        stream[2],
        ToolResultMessage(
            "b",
            SYNTHETIC_TEXT,
            is_error=True,
            name="g",
            role="user",
            session_id="s",
        ),
        stream[3],
    )
    assert changes == (Change("added_synthetic_result", 1, "b"),)
    assert is_synthetic(fixed[3])


def test_flat_without_results_uses_the_tool_role() -> None:
    fixed, _ = repair([ToolUseMessage("a", "f")])
    assert isinstance(fixed[1], ToolResultMessage)
    assert fixed[1].role == "tool"


def test_session_messages_inside_a_results_run_are_skipped_over() -> None:
    event = StreamEventMessage({"type": "ping"})
    call = AssistantMessage((ToolUseBlock("a", "f"), ToolUseBlock("b", "g")))
    results = UserMessage((ToolResultBlock("a", "1"),))
    fixed, _ = repair([call, event, results, ResultMessage(subtype="success")])
    assert fixed[2] == UserMessage((ToolResultBlock("a", "1"), synthetic("b", "g")))
    assert fixed[1] is event


def test_close_pending_false_leaves_the_last_turn_open() -> None:
    done = AssistantMessage((ToolUseBlock("old", "f"),))
    pending = AssistantMessage((ToolUseBlock("new", "f"),))
    stream = [done, UserMessage("go on"), pending, StreamEventMessage({"type": "x"})]
    fixed, changes = repair(stream, close_pending=False)
    assert changes == (Change("added_synthetic_result", 0, "old"),)
    assert fixed[-2:] == (pending, stream[-1])
    _, changes = repair(stream)
    assert [c.tool_use_id for c in changes] == ["old", "new"]


def test_results_move_first_in_user_and_tool_messages() -> None:
    call = AssistantMessage((ToolUseBlock("a", "f"), ToolUseBlock("b", "g")))
    user = UserMessage((TextBlock("x"), ToolResultBlock("a", "1"), TextBlock("y")))
    tool = ToolMessage((TextBlock("z"), ToolResultBlock("b", "2")))
    fixed, changes = repair([call, user, tool])
    assert fixed[1].content == (ToolResultBlock("a", "1"), TextBlock("x"), TextBlock("y"))
    assert fixed[2].content == (ToolResultBlock("b", "2"), TextBlock("z"))
    assert changes == (Change("moved_results_first", 1), Change("moved_results_first", 2))
    assert str(changes[0]) == "message 1: moved tool results before the other content"


def test_results_move_first_in_flat_runs() -> None:
    stream = [
        ToolUseMessage("a", "f"),
        TextMessage("x", role="user"),
        ToolResultMessage("a", "1", role="user"),
    ]
    fixed, changes = repair(stream)
    assert fixed == (stream[0], stream[2], stream[1])
    assert changes == (Change("moved_results_first", 2, "a"),)


def test_a_message_holding_calls_is_never_reordered() -> None:
    odd = UserMessage((TextBlock("x"), ToolResultBlock("a", "1"), ToolUseBlock("b", "g")))
    fixed, changes = repair([AssistantMessage((ToolUseBlock("a", "f"),)), odd])
    assert fixed[1].content[:3] == odd.content
    assert [c.kind for c in changes] == ["added_synthetic_result"]


def test_a_repeated_id_in_one_turn_needs_one_result() -> None:
    call = AssistantMessage((ToolUseBlock("a", "f"), ToolUseBlock("a", "f")))
    assert repair([call, UserMessage((ToolResultBlock("a", "1"),))])[1] == ()
    flat = [ToolUseMessage("a", "f"), ToolUseMessage("a", "f"), ToolResultMessage("a", "1")]
    assert repair(flat)[1] == ()


def test_a_repeated_id_in_another_turn_is_a_new_call() -> None:
    first = AssistantMessage((ToolUseBlock("a", "f"),))
    second = AssistantMessage((ToolUseBlock("a", "f"),))
    result = UserMessage((ToolResultBlock("a", "1"),))
    fixed, changes = repair([first, UserMessage("hm"), second, result])
    assert changes == (Change("added_synthetic_result", 0, "a"),)
    assert repair(fixed) == (fixed, ())


def test_session_messages_pass_through() -> None:
    r = ResultMessage(subtype="success")
    fixed, _ = repair([r, ToolResultMessage("x", "?"), r])
    assert fixed == (r, r)
    assert fixed[0] is r


def test_input_must_be_messages() -> None:
    with pytest.raises(DecodeError) as info:
        repair([CALL, "hi"])  # type: ignore[list-item]
    assert str(info.value) == "$[1]: expected a message, found a string"


def test_filter_alias_is_not_exported_by_star() -> None:
    assert history.filter is history.filter_messages
    assert "filter" not in history.__all__
    assert list(history.__all__) == sorted(history.__all__)
    namespace: dict[str, Any] = {}
    exec("from messages.history import *", namespace)
    assert "filter" not in namespace
    for name in history.__all__:
        value = getattr(history, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert inspect.getdoc(value), name


# -- laws ---------------------------------------------------------------------------------


@given(ms.conversations())
def test_well_formed_conversations_need_nothing(conversation: list[Any]) -> None:
    assert repair(conversation) == (tuple(conversation), ())


@given(ms.conversations(broken=True))
def test_repaired_histories_pair_up(conversation: list[Any]) -> None:
    before = pairing(conversation)
    fixed, changes = repair(conversation)
    after = pairing(fixed)
    assert after.ok
    assert after.calls == before.calls  # calls are never touched, nor reordered
    assert tool_free(fixed) == tool_free(conversation)  # nor is other content
    kinds = [c.kind for c in changes]
    assert kinds.count("added_synthetic_result") == len(before.dangling)
    assert kinds.count("dropped_orphan_result") == len(before.orphans)
    assert kinds.count("dropped_duplicate_result") == len(before.duplicates)
    made_up = [m for m in fixed if is_synthetic(m)]
    assert sum(len([b for b in getattr(m, "tool_results", (m,)) if is_synthetic(b)])
               for m in made_up) == len(before.dangling)  # fmt: skip
    assert [c.index for c in changes] == sorted(c.index for c in changes)


@given(ms.conversations(broken=True))
def test_repair_is_idempotent(conversation: list[Any]) -> None:
    fixed, _ = repair(conversation)
    assert repair(fixed) == (fixed, ())
    pending, _ = repair(conversation, close_pending=False)
    assert repair(pending, close_pending=False) == (pending, ())


@given(ms.streams())
def test_repair_is_idempotent_on_any_stream(stream: list[Any]) -> None:
    fixed, _ = repair(stream)
    assert repair(fixed) == (fixed, ())
    assert [m for m in fixed if m.kind in ("result", "error", "init", "stream_event")] == [
        m for m in stream if m.kind in ("result", "error", "init", "stream_event")
    ]


def test_results_held_by_an_assistant_message_get_a_new_message_after_them() -> None:
    call = AssistantMessage((ToolUseBlock("a", "f"), ToolUseBlock("b", "g")))
    odd = AssistantMessage((ToolResultBlock("a", "1"),))
    fixed, changes = repair([call, odd])
    assert fixed == (call, odd, UserMessage((synthetic("b", "g"),)))
    assert changes == (Change("added_synthetic_result", 0, "b"),)

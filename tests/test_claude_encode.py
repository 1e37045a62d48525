"""Claude Code encoding of messages from other sources: every message kind, every policy.

The conformance tests replay Claude Code's own lines; these write what came from elsewhere
(flat messages of each role, system prompts, errors, tool messages, content Claude cannot
carry) and check the line, the context fields on it, and what a refusal says.
"""

from __future__ import annotations

from typing import Any

import pytest

from messages import AssistantMessage
from messages import AudioBlock
from messages import AudioMessage
from messages import EncodeError
from messages import ErrorMessage
from messages import InvalidLineMessage
from messages import ResultMessage
from messages import SystemMessage
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingBlock
from messages import ToolMessage
from messages import ToolResultBlock
from messages import UnsupportedContentError
from messages import UserMessage
from messages.adapters import claude_code as cc

CONTEXT: dict[str, Any] = {
    "uuid": "u1",
    "session_id": "s1",
    "parent_tool_use_id": "toolu_parent",
    "timestamp": "2026-01-15T10:00:00Z",
}
ON_THE_LINE = {
    "uuid": "u1",
    "session_id": "s1",
    "parent_tool_use_id": "toolu_parent",
    "timestamp": "2026-01-15T10:00:00Z",
}
AUDIO = AudioBlock(data="AAAA", media_type="audio/wav")


def test_a_refusal_names_the_content_and_the_format() -> None:
    signed = ThinkingBlock("hmm", signature="sig", provider="openai")
    for block, what in ((AUDIO, "audio blocks"), (signed, "openai thinking blocks")):
        with pytest.raises(UnsupportedContentError) as info:
            cc.encode(AssistantMessage((TextBlock("a"), block)))
        assert info.value.value is block
        assert info.value.source == "claude_code"
        assert info.value.reason == f"claude_code cannot carry {what}"


@pytest.mark.parametrize(
    "message",
    [
        UserMessage((AUDIO,)),
        ToolMessage((AUDIO,)),  # type: ignore[arg-type]
        AudioMessage(data="AAAA", media_type="audio/wav", role="assistant"),
        AudioMessage(data="AAAA", media_type="audio/wav", role="user"),
    ],
    ids=["user", "tool", "flat assistant", "flat user"],
)
def test_every_path_to_a_role_line_applies_the_policy(message: Any) -> None:
    with pytest.raises(UnsupportedContentError, match="audio blocks"):
        cc.encode(message)
    assert cc.encode(message, unsupported="drop") is None  # nothing left to write
    assert cc.encode(message, unsupported="text")["message"]["content"] == [
        {"type": "text", "text": "[audio: audio/wav, 3 bytes]"}
    ]


def test_a_flat_message_keeps_its_own_extra_and_context() -> None:
    m = TextMessage("x", role="user", extra={"cache_control": {"type": "ephemeral"}}, **CONTEXT)
    line = cc.encode(m)
    assert line == {
        "type": "user",
        **ON_THE_LINE,
        "message": {
            "role": "user",
            "content": [{"type": "text", "text": "x", "cache_control": {"type": "ephemeral"}}],
        },
    }
    assistant = cc.encode(TextMessage("y", model="m", message_id="msg_1", **CONTEXT))
    assert assistant == {
        "type": "assistant",
        **ON_THE_LINE,
        "message": {
            "model": "m",
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "content": [{"type": "text", "text": "y"}],
        },
    }


@pytest.mark.parametrize("role", ["system", "developer"])
def test_system_prompts_from_flat_and_role_messages(role: Any) -> None:
    for message, content in (
        (TextMessage("Be brief.", role=role, **CONTEXT), "Be brief."),
        (SystemMessage("Be brief.", role=role, **CONTEXT), "Be brief."),
        (SystemMessage((TextBlock("One."), TextBlock("Two.")), role=role, **CONTEXT), "One.\nTwo."),
    ):
        with pytest.raises(UnsupportedContentError) as info:
            cc.encode(message)
        assert info.value.reason == f"claude_code cannot carry {role} messages"
        assert info.value.value is not None
        assert cc.encode(message, unsupported="drop") is None
        assert cc.encode(message, unsupported="text") == {
            "type": "user",
            **ON_THE_LINE,
            "message": {"role": "user", "content": content},
        }


def test_a_tool_message_is_a_user_line_with_its_context() -> None:
    m = ToolMessage((ToolResultBlock("t1", "out"),), **CONTEXT)
    assert cc.encode(m) == {
        "type": "user",
        **ON_THE_LINE,
        "message": {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "out"}],
        },
    }


def test_an_error_is_a_synthetic_assistant_line_with_its_context() -> None:
    m = ErrorMessage("overloaded", message_id="msg_9", **CONTEXT)
    assert cc.encode(m) == {
        "type": "assistant",
        **ON_THE_LINE,
        "error": "unknown",
        "message": {
            "model": "<synthetic>",
            "id": "msg_9",
            "type": "message",
            "role": "assistant",
            "content": [{"type": "text", "text": "overloaded"}],
        },
    }
    assert cc.encode(ErrorMessage("x", code="529", model="m"))["message"]["model"] == "m"


def test_an_invalid_line_is_refused_by_name() -> None:
    m = InvalidLineMessage("junk", line=3)
    with pytest.raises(UnsupportedContentError) as info:
        cc.encode(m)
    assert info.value.value is m
    assert info.value.source == "claude_code"
    assert (
        info.value.reason
        == "claude_code cannot carry invalid lines (iter_encode writes their text)"
    )


class NotAMessage:
    def __repr__(self) -> str:
        return "<not a message>"


def test_encoding_something_else_is_a_programming_error() -> None:
    with pytest.raises(AssertionError, match="<not a message>"):
        cc.encode(NotAMessage())  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", [UserMessage, ToolMessage, AssistantMessage])
def test_dropping_part_of_the_content_keeps_the_rest(cls: Any) -> None:
    kept = ToolResultBlock("t1", "out") if cls is ToolMessage else TextBlock("a")
    line = cc.encode(cls((kept, AUDIO), **CONTEXT), unsupported="drop")
    assert line["message"]["content"] == cc.encode(cls((kept,)))["message"]["content"]
    assert {k: line[k] for k in ON_THE_LINE} == ON_THE_LINE


@pytest.mark.parametrize(
    ("obj", "error"),
    [
        ({"type": "result", "x": float("inf")}, "cannot write inf as JSON"),
        ({"type": "result", "x": {1j}}, "not JSON"),
    ],
)
def test_a_line_json_cannot_hold_is_an_encode_error_from_iter_encode(
    monkeypatch: pytest.MonkeyPatch, obj: Any, error: str
) -> None:
    """The line loop calls the C encoder unchecked and reports a failure as dump_compact does.

    Valid messages cannot hold such values (the vocabulary refuses them), so the encoder's
    output is replaced here to reach the loop's error path.
    """
    from messages.adapters.claude_code import encoder as _claude_encode

    monkeypatch.setattr(_claude_encode, "encode_message", lambda m, policy: obj)
    with pytest.raises(EncodeError, match=error):
        list(cc.iter_encode([ResultMessage(result="done")]))
    fine = [InvalidLineMessage("kept", reason="invalid JSON", line=1)]
    assert list(cc.iter_encode(fine)) == ["kept"]

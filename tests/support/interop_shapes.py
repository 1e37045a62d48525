"""The reshaping a bridge forces on a conversation, written once for the interop tests."""

from __future__ import annotations

from typing import Any

from messages import ToolMessage
from messages import ToolResultBlock
from messages import UserMessage

CONTEXT = ("uuid", "session_id", "parent_tool_use_id", "model", "message_id", "timestamp")


def one_result_per_tool_message(history: list[Any]) -> list[Any]:
    """Each tool result in a ToolMessage of its own; the rest of a user turn stays user text.

    That is the shape langchain (``ToolMessage``) and pydantic-ai (``ToolReturnPart``) give
    a tool result: the only place either has for one. A tool message with bare text answers
    the call id ``""``; an empty user or tool turn is an empty user turn.
    """
    out: list[Any] = []
    for m in history:
        if not isinstance(m, UserMessage | ToolMessage):
            out.append(m)
            continue
        context = {k: getattr(m, k) for k in CONTEXT}
        content = m.content
        if isinstance(content, str):
            if isinstance(m, UserMessage):
                out.append(m)
                continue
            content = (ToolResultBlock("", content),)
        if not content:
            out.append(UserMessage((), **context, extra=m.extra))
        run: list[Any] = []
        for block in content:
            if isinstance(block, ToolResultBlock):
                if run:
                    out.append(UserMessage(tuple(run), **context, extra=m.extra))
                    run = []
                out.append(ToolMessage((block,), **context, extra=m.extra))
            else:
                run.append(block)
        if run:
            out.append(UserMessage(tuple(run), **context, extra=m.extra))
    return out

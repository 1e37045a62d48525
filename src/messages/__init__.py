"""One immutable, typed vocabulary for LLM conversation messages.

>>> from messages import AssistantMessage, TextBlock
>>> AssistantMessage((TextBlock("Hello."),), model="claude-sonnet-4-5").text
'Hello.'

Importing ``messages`` is cheap: each name is loaded from its module on first use.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing would triple the cost
if TYPE_CHECKING:
    from typing import Any

    from ._json import EMPTY, FrozenDict, JsonValue, freeze, thaw
    from ._model import Role, Timestamp
    from .blocks import (
        AudioBlock,
        Block,
        ImageBlock,
        RawBlock,
        TextBlock,
        ThinkingBlock,
        ToolResultBlock,
        ToolUseBlock,
    )
    from .errors import DecodeError, EncodeError, MessagesError, UnsupportedContentError
    from .flat import (
        AudioMessage,
        FlatMessage,
        ImageMessage,
        RawMessage,
        TextMessage,
        ThinkingMessage,
        ToolResultMessage,
        ToolUseMessage,
    )
    from .message import Context, Message
    from .roles import AssistantMessage, RoleMessage, SystemMessage, ToolMessage, UserMessage
    from .serialize import from_dict, read_jsonl, to_dict, write_jsonl
    from .session import (
        ErrorMessage,
        InitMessage,
        InvalidLineMessage,
        ResultMessage,
        SessionMessage,
        StreamEventMessage,
    )
    from .stop import StopReason, classify_stop_reason
    from .usage import Usage

__version__ = "0.1.0"

_LAZY = {
    "AssistantMessage": "roles",
    "AudioBlock": "blocks",
    "AudioMessage": "flat",
    "Block": "blocks",
    "Context": "message",
    "DecodeError": "errors",
    "EMPTY": "_json",
    "EncodeError": "errors",
    "ErrorMessage": "session",
    "FlatMessage": "flat",
    "FrozenDict": "_json",
    "ImageBlock": "blocks",
    "ImageMessage": "flat",
    "InitMessage": "session",
    "InvalidLineMessage": "session",
    "JsonValue": "_json",
    "Message": "message",
    "MessagesError": "errors",
    "RawBlock": "blocks",
    "RawMessage": "flat",
    "ResultMessage": "session",
    "Role": "_model",
    "RoleMessage": "roles",
    "SessionMessage": "session",
    "StopReason": "stop",
    "StreamEventMessage": "session",
    "SystemMessage": "roles",
    "TextBlock": "blocks",
    "TextMessage": "flat",
    "ThinkingBlock": "blocks",
    "ThinkingMessage": "flat",
    "Timestamp": "_model",
    "ToolMessage": "roles",
    "ToolResultBlock": "blocks",
    "ToolResultMessage": "flat",
    "ToolUseBlock": "blocks",
    "ToolUseMessage": "flat",
    "UnsupportedContentError": "errors",
    "Usage": "usage",
    "UserMessage": "roles",
    "classify_stop_reason": "stop",
    "freeze": "_json",
    "from_dict": "serialize",
    "read_jsonl": "serialize",
    "thaw": "_json",
    "to_dict": "serialize",
    "write_jsonl": "serialize",
}
_SUBMODULES = frozenset(
    ("convert", "errors", "history", "media", "serialize", "stop", "strategies", "text")
)


def __getattr__(name: str) -> Any:
    """Load a public name (or submodule) from its module the first time it is asked for."""
    from importlib import import_module

    module = _LAZY.get(name)
    if module is not None:
        value = getattr(import_module(f"messages.{module}"), name)
    elif name in _SUBMODULES:
        value = import_module(f"messages.{name}")
    else:
        raise AttributeError(f"module 'messages' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "AssistantMessage",
    "AudioBlock",
    "AudioMessage",
    "Block",
    "Context",
    "DecodeError",
    "EMPTY",
    "EncodeError",
    "ErrorMessage",
    "FlatMessage",
    "FrozenDict",
    "ImageBlock",
    "ImageMessage",
    "InitMessage",
    "InvalidLineMessage",
    "JsonValue",
    "Message",
    "MessagesError",
    "RawBlock",
    "RawMessage",
    "ResultMessage",
    "Role",
    "RoleMessage",
    "SessionMessage",
    "StopReason",
    "StreamEventMessage",
    "SystemMessage",
    "TextBlock",
    "TextMessage",
    "ThinkingBlock",
    "ThinkingMessage",
    "Timestamp",
    "ToolMessage",
    "ToolResultBlock",
    "ToolResultMessage",
    "ToolUseBlock",
    "ToolUseMessage",
    "UnsupportedContentError",
    "Usage",
    "UserMessage",
    "__version__",
    "classify_stop_reason",
    "freeze",
    "from_dict",
    "read_jsonl",
    "thaw",
    "to_dict",
    "write_jsonl",
]

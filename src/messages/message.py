"""The ``Message`` union and the context every message carries."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias
from typing import TypedDict

from ._core.fields import Role
from ._core.fields import Timestamp
from ._core.wire import type_name
from .errors import DecodeError
from .events.agent import EVENT_TYPES
from .events.records import RECORD_TYPES
from .events.run import ErrorMessage
from .events.run import InitMessage
from .events.run import InvalidLineMessage
from .events.run import ResultMessage
from .events.run import SessionMessage
from .events.run import StreamEventMessage
from .flat import AudioMessage
from .flat import DocumentMessage
from .flat import FlatMessage
from .flat import ImageMessage
from .flat import RawMessage
from .flat import ServerToolResultMessage
from .flat import ServerToolUseMessage
from .flat import TextMessage
from .flat import ThinkingMessage
from .flat import ToolResultMessage
from .flat import ToolUseMessage
from .flat import VideoMessage
from .roles import AssistantMessage
from .roles import RoleMessage
from .roles import SystemMessage
from .roles import ToolMessage
from .roles import UserMessage

__all__ = [
    "Context",
    "FlatMessage",
    "Message",
    "RoleMessage",
    "SessionMessage",
    "check_messages",
    "role_of",
]

Message: TypeAlias = RoleMessage | FlatMessage | SessionMessage
"""Any message: role (block view), flat (one content kind) or session."""

ROLE_TYPES: tuple[type[RoleMessage], ...] = (
    SystemMessage,
    UserMessage,
    AssistantMessage,
    ToolMessage,
)
FLAT_TYPES: tuple[type[FlatMessage], ...] = (
    TextMessage,
    ThinkingMessage,
    ToolUseMessage,
    ToolResultMessage,
    ImageMessage,
    AudioMessage,
    RawMessage,
    DocumentMessage,
    VideoMessage,
    ServerToolUseMessage,
    ServerToolResultMessage,
)
SESSION_TYPES: tuple[type[SessionMessage], ...] = (
    ResultMessage,
    ErrorMessage,
    InitMessage,
    StreamEventMessage,
    InvalidLineMessage,
    *EVENT_TYPES,
    *RECORD_TYPES,
)
MESSAGE_TYPES: tuple[type[Message], ...] = ROLE_TYPES + FLAT_TYPES + SESSION_TYPES


class Context(TypedDict, total=False):
    """The context a flat message takes from its parent: ``block_to_message(b, **context)``."""

    role: Role
    uuid: str | None
    session_id: str | None
    parent_tool_use_id: str | None
    model: str | None
    message_id: str | None
    timestamp: Timestamp | None


def check_messages(messages: Iterable[Message]) -> tuple[Message, ...]:
    """The messages as a tuple; anything that is not one raises DecodeError at ``$[i]``."""
    out = tuple(messages)
    for i, message in enumerate(out):
        if not isinstance(message, MESSAGE_TYPES):
            raise DecodeError(
                f"expected a message, found {type_name(message)}", path=f"$[{i}]", value=message
            )
    return out


def role_of(message: Message) -> str | None:
    """The role of a role or flat message; ``None`` for session messages and role-less raws."""
    role: str | None = getattr(message, "role", None)  # session messages have none
    return role

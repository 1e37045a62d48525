"""One immutable, typed vocabulary for LLM conversation messages.

>>> from messages import AssistantMessage, TextBlock
>>> AssistantMessage((TextBlock("Hello."),), model="claude-sonnet-4-5").text
'Hello.'

Importing ``messages`` is cheap: each name is loaded from its module on first use.
"""

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing would triple the cost
if TYPE_CHECKING:
    from ._core.fields import Role
    from ._core.fields import Timestamp
    from ._core.frozen import EMPTY
    from ._core.frozen import FrozenDict
    from ._core.frozen import JsonValue
    from ._core.frozen import freeze
    from ._core.frozen import thaw
    from .blocks import AudioBlock
    from .blocks import Block
    from .blocks import DocumentBlock
    from .blocks import ImageBlock
    from .blocks import RawBlock
    from .blocks import ServerToolResultBlock
    from .blocks import ServerToolUseBlock
    from .blocks import TextBlock
    from .blocks import ThinkingBlock
    from .blocks import ToolResultBlock
    from .blocks import ToolUseBlock
    from .blocks import VideoBlock
    from .citations import Citation
    from .errors import DecodeError
    from .errors import EncodeError
    from .errors import MessagesError
    from .errors import UnsupportedContentError
    from .events.agent import TERMINAL_TASK_STATUSES
    from .events.agent import CompactBoundaryMessage
    from .events.agent import ConversationResetMessage
    from .events.agent import HookEventMessage
    from .events.agent import RateLimitMessage
    from .events.agent import StatusMessage
    from .events.agent import SystemEventMessage
    from .events.agent import TaskEventMessage
    from .events.records import TURN_END_SUBTYPES
    from .events.records import FileSnapshotMessage
    from .events.records import ProgressMessage
    from .events.records import QueueOperationMessage
    from .events.records import TitleMessage
    from .events.records import TurnContextMessage
    from .events.records import TurnEventMessage
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
    from .message import Context
    from .message import Message
    from .roles import AssistantMessage
    from .roles import RoleMessage
    from .roles import SystemMessage
    from .roles import ToolMessage
    from .roles import UserMessage
    from .serialize import from_dict
    from .serialize import read_jsonl
    from .serialize import to_dict
    from .serialize import write_jsonl
    from .settings import RequestSettings
    from .settings import ToolChoice
    from .settings import ToolDefinition
    from .usage import StopReason
    from .usage import Usage
    from .usage import classify_stop_reason

__version__ = "0.1.0"

__all__ = [
    "AssistantMessage",
    "AudioBlock",
    "AudioMessage",
    "Block",
    "Citation",
    "CompactBoundaryMessage",
    "Context",
    "ConversationResetMessage",
    "DecodeError",
    "DocumentBlock",
    "DocumentMessage",
    "EMPTY",
    "EncodeError",
    "ErrorMessage",
    "FileSnapshotMessage",
    "FlatMessage",
    "FrozenDict",
    "HookEventMessage",
    "ImageBlock",
    "ImageMessage",
    "InitMessage",
    "InvalidLineMessage",
    "JsonValue",
    "Message",
    "MessagesError",
    "ProgressMessage",
    "QueueOperationMessage",
    "RateLimitMessage",
    "RawBlock",
    "RawMessage",
    "RequestSettings",
    "ResultMessage",
    "Role",
    "RoleMessage",
    "ServerToolResultBlock",
    "ServerToolResultMessage",
    "ServerToolUseBlock",
    "ServerToolUseMessage",
    "SessionMessage",
    "StatusMessage",
    "StopReason",
    "StreamEventMessage",
    "SystemEventMessage",
    "SystemMessage",
    "TERMINAL_TASK_STATUSES",
    "TURN_END_SUBTYPES",
    "TaskEventMessage",
    "TextBlock",
    "TextMessage",
    "ThinkingBlock",
    "ThinkingMessage",
    "Timestamp",
    "TitleMessage",
    "ToolChoice",
    "ToolDefinition",
    "ToolMessage",
    "ToolResultBlock",
    "ToolResultMessage",
    "ToolUseBlock",
    "ToolUseMessage",
    "TurnContextMessage",
    "TurnEventMessage",
    "UnsupportedContentError",
    "Usage",
    "UserMessage",
    "VideoBlock",
    "VideoMessage",
    "__version__",
    "classify_stop_reason",
    "freeze",
    "from_dict",
    "read_jsonl",
    "thaw",
    "to_dict",
    "write_jsonl",
]
"""The public names; each loads from its module on first use (see :func:`__getattr__`)."""

_HOME = {
    "DecodeError": "errors",
    "EncodeError": "errors",
    "MessagesError": "errors",
    "UnsupportedContentError": "errors",
    "EMPTY": "_core.frozen",
    "FrozenDict": "_core.frozen",
    "JsonValue": "_core.frozen",
    "freeze": "_core.frozen",
    "thaw": "_core.frozen",
    "Role": "_core.fields",
    "Timestamp": "_core.fields",
    "Usage": "usage",
    "StopReason": "usage",
    "classify_stop_reason": "usage",
    "Citation": "citations",
    "RequestSettings": "settings",
    "ToolChoice": "settings",
    "ToolDefinition": "settings",
    "AudioBlock": "blocks",
    "Block": "blocks",
    "DocumentBlock": "blocks",
    "ImageBlock": "blocks",
    "RawBlock": "blocks",
    "ServerToolResultBlock": "blocks",
    "ServerToolUseBlock": "blocks",
    "TextBlock": "blocks",
    "ThinkingBlock": "blocks",
    "ToolResultBlock": "blocks",
    "ToolUseBlock": "blocks",
    "VideoBlock": "blocks",
    "AudioMessage": "flat",
    "DocumentMessage": "flat",
    "ImageMessage": "flat",
    "RawMessage": "flat",
    "ServerToolResultMessage": "flat",
    "ServerToolUseMessage": "flat",
    "TextMessage": "flat",
    "ThinkingMessage": "flat",
    "ToolResultMessage": "flat",
    "ToolUseMessage": "flat",
    "VideoMessage": "flat",
    "AssistantMessage": "roles",
    "SystemMessage": "roles",
    "ToolMessage": "roles",
    "UserMessage": "roles",
    "CompactBoundaryMessage": "events",
    "ConversationResetMessage": "events",
    "HookEventMessage": "events",
    "RateLimitMessage": "events",
    "StatusMessage": "events",
    "SystemEventMessage": "events",
    "TERMINAL_TASK_STATUSES": "events",
    "TaskEventMessage": "events",
    "FileSnapshotMessage": "events",
    "ProgressMessage": "events",
    "QueueOperationMessage": "events",
    "TURN_END_SUBTYPES": "events",
    "TitleMessage": "events",
    "TurnContextMessage": "events",
    "TurnEventMessage": "events",
    "ErrorMessage": "events",
    "InitMessage": "events",
    "InvalidLineMessage": "events",
    "ResultMessage": "events",
    "StreamEventMessage": "events",
    "Context": "message",
    "FlatMessage": "message",
    "Message": "message",
    "RoleMessage": "message",
    "SessionMessage": "message",
    "from_dict": "serialize",
    "read_jsonl": "serialize",
    "to_dict": "serialize",
    "write_jsonl": "serialize",
}
"""The module each public name lives in: asking for one imports that module only (a
search through the modules would also import every module before it)."""

_SUBMODULES = (
    "adapters",
    "blocks",
    "citations",
    "convert",
    "errors",
    "events",
    "flat",
    "history",
    "interop",
    "limits",
    "media",
    "message",
    "policy",
    "providers",
    "roles",
    "serialize",
    "settings",
    "strategies",
    "text",
    "usage",
)
"""The public submodules, reachable as attributes after a bare ``import messages``."""


def __getattr__(name: str) -> "object":
    """Load a public name (or submodule) from its module the first time it is asked for."""
    from importlib import import_module

    if name in _SUBMODULES:
        value = import_module(f"messages.{name}")
    elif name in _HOME:
        value = getattr(import_module(f"messages.{_HOME[name]}"), name)
    else:
        raise AttributeError(f"module 'messages' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names and submodules, nothing else."""
    return sorted({*__all__, *_SUBMODULES})

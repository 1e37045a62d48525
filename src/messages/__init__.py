"""One immutable, typed vocabulary for LLM conversation messages.

>>> from messages import AssistantMessage, TextBlock
>>> AssistantMessage((TextBlock("Hello."),), model="claude-sonnet-4-5").text
'Hello.'
"""

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

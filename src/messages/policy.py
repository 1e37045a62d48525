"""The one loss policy: what every codec does with content its target cannot carry.

Adapters (agent-CLI formats), provider codecs and the interop bridges all take the same
``unsupported`` argument and apply it through :class:`Policy`:

- ``"raise"`` (the default): raise :class:`~messages.UnsupportedContentError` naming the
  target, the reason and the path of the content, with the one hint :data:`HINT`;
- ``"drop"``: leave the content out;
- ``"text"``: put in its place the words :func:`describe` gives for it.

:func:`describe` is the only describer: the same block reads the same for every target.

>>> from messages import ImageBlock
>>> describe(ImageBlock(data="iVBORw0KGgo=", media_type="image/png"))
'[image: image/png, 8 bytes]'
>>> Policy("raise", "acp").degrade(ImageBlock(url="https://x/y.png"), "$[0]", "no urls")
Traceback (most recent call last):
  ...
messages.errors.UnsupportedContentError: acp: $[0]: no urls (pass unsupported='drop' or 'text')
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any
from typing import Final
from typing import Literal
from typing import TypeAlias
from typing import TypeVar
from typing import assert_never

from ._core.frozen import FrozenDict
from ._core.frozen import JsonValue
from ._core.frozen import raw
from ._core.wire import encode_each
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
from .errors import HINT
from .errors import EncodeError
from .errors import UnsupportedContentError

__all__ = [
    "HINT",
    "MODES",
    "Policy",
    "Unsupported",
    "check_mode",
    "describe",
    "has_context",
    "server_output",
]

Unsupported: TypeAlias = Literal["raise", "drop", "text"]
"""What an encoder does with content the target cannot carry: raise
:class:`~messages.UnsupportedContentError` (the default), drop it, or degrade it to text."""

MODES: Final[tuple[Unsupported, ...]] = ("raise", "drop", "text")
"""The three choices, in the order the docs list them."""


T = TypeVar("T")


def check_mode(mode: object, source: str | None = None) -> Unsupported:
    """``mode`` if it is one of :data:`MODES`, else :class:`~messages.EncodeError`."""
    if mode in MODES:
        return mode
    raise EncodeError(
        f"expected unsupported='raise', 'drop' or 'text', found {mode!r}",
        source=source,
        value=mode,
    )


_SNIPPET: Final = 200


class Policy:
    """The ``unsupported`` choice of one encode call, with the target's name for errors.

    ``context`` tells the extra rule whether the turn being encoded came from a response or
    an agent log (see :func:`has_context`); encoders set it with :meth:`turn`. ``lost``
    holds the ids of calls the target cannot carry (see :func:`lost_calls`): their results
    follow them. ``left_out`` counts what ``"drop"`` and ``"text"`` left out or replaced,
    so an encoder can tell a turn the policy emptied from one that came empty.
    """

    __slots__ = ("context", "left_out", "lost", "mode", "source")

    def __init__(self, mode: Unsupported, source: str) -> None:
        self.mode = check_mode(mode, source)
        self.source = source
        self.context = False
        self.lost: frozenset[str] = frozenset()
        self.left_out = 0

    def turn(self, message: object) -> None:
        """Start encoding ``message``: note whether it carries response or log metadata."""
        self.context = has_context(message)

    def error(self, reason: str, path: str, value: Any = None) -> UnsupportedContentError:
        """The error raised under ``"raise"``."""
        return UnsupportedContentError(reason, path=path, source=self.source, value=value)

    def refuse(self, reason: str, path: str, value: Any = None) -> None:
        """A field that cannot be carried: raise under ``"raise"``, else leave it out."""
        if self.mode == "raise":
            raise self.error(reason, path, value)
        self.left_out += 1

    def each(
        self, blocks: Iterable[Block], write: Callable[[Block, Policy, str], T | None], path: str
    ) -> list[T]:
        """What ``write`` makes of each block at ``{path}[i]``, less what it dropped (``None``).

        :func:`messages._core.wire.encode_each` with this policy as the context: ``write``
        refuses, drops or degrades a block through it, and a dropped block leaves no item.
        """
        return encode_each(enumerate(blocks), write, self, path)

    def degrade(self, block: Block, path: str, reason: str) -> TextBlock | None:
        """A block that cannot be carried: raise, drop (``None``) or a describing TextBlock."""
        if self.mode == "raise":
            raise self.error(reason, path, block)
        self.left_out += 1
        if self.mode == "drop":
            return None
        return TextBlock(describe(block))


# ------------------------------------------------------------------------------- describe


def _clip(text: str) -> str:
    return text if len(text) <= _SNIPPET else text[: _SNIPPET - 3] + "..."


def _dumps(value: Any, ensure_ascii: bool) -> str:
    import json  # lazy: the describer runs only when something is degraded

    return json.dumps(value, ensure_ascii=ensure_ascii)


def _media(label: str, block: ImageBlock | AudioBlock | VideoBlock | DocumentBlock) -> str:
    from .media import describe_media  # lazy: base64 and struct cost import time

    shown = describe_media(block)
    return f"[{label}: {shown}]" if shown else f"[{label}]"


_NAMED: Final = ("refusal", "title", "name", "filename", "text", "content", "code", "uri", "url")


def _raw_label(data: JsonValue) -> str:
    if not isinstance(data, FrozenDict):
        return f"[raw: {_clip(_dumps(raw(data), ensure_ascii=False))}]"
    kind, role = data.get("type"), data.get("role")
    inner = data
    if isinstance(kind, str):
        label = kind
    elif isinstance(role, str):
        label = f"{role} message"  # a whole message of a role the target does not have
    elif "refusal" in data:
        label = "refusal"
    elif len(data) == 1 and isinstance(next(iter(data.values())), FrozenDict):
        ((label, nested),) = data.items()  # a Gemini part: its one data field
        assert isinstance(nested, FrozenDict)
        inner = nested
    else:
        return f"[raw: {_clip(_dumps(raw(data), ensure_ascii=False))}]"
    places = [inner, *(v for v in inner.values() if isinstance(v, FrozenDict))]
    for place in places:  # a Chat custom call names its tool inside ``custom``
        for key in _NAMED:
            value = place.get(key)
            if isinstance(value, str):
                return f"[{label}: {_clip(value)}]"
    return f"[{label}]"


_OUTPUTS: Final = ("stdout", "output", "stderr", "text", "url", "error_code")
"""Where a server tool's result keeps its words, in the order :func:`server_output` tries."""


def server_output(content: JsonValue) -> str:
    r"""The readable words of a server tool's result: its output text, or the pages it found.

    An execution result gives its ``stdout`` (Anthropic) or ``output`` (Gemini), a search its
    result URLs, an error its ``error_code``; anything else reads as ``""``.

    >>> server_output({"outcome": "OUTCOME_OK", "output": "4\n"})
    '4\n'
    >>> server_output([{"type": "web_search_result", "url": "https://a.example"}])
    'https://a.example'
    """
    if isinstance(content, str):
        return content
    if isinstance(content, (tuple, list)):
        return "\n".join(filter(None, (server_output(item) for item in content)))
    if isinstance(content, Mapping):
        for key in _OUTPUTS:
            value = content.get(key)
            if isinstance(value, str) and value:
                return value
    return ""


def describe(block: Block) -> str:
    """The text a block degrades to under the ``"text"`` policy, the same for every target.

    >>> describe(ImageBlock(data="iVBORw0KGgo=", media_type="image/png"))
    '[image: image/png, 8 bytes]'
    >>> describe(ThinkingBlock("Check the units.", signature="sig", provider="openai"))
    '[thinking: Check the units.]'
    >>> describe(ToolResultBlock("call_1", "boom", is_error=True))
    '[tool result call_1 (error): boom]'
    >>> describe(RawBlock({"executableCode": {"language": "PYTHON", "code": "print(1)"}}))
    '[executableCode: print(1)]'
    >>> describe(DocumentBlock(data="JVBERi0xLjcK", media_type="application/pdf", title="Q3"))
    "[document: 'Q3', application/pdf, 9 bytes]"
    >>> describe(VideoBlock(file_id="files/v1", media_type="video/mp4"))
    '[video: video/mp4, file files/v1]'
    >>> describe(ServerToolResultBlock("srvtoolu_1", "code_execution", {"stdout": "2"}))
    '[server tool result code_execution: 2]'
    """
    match block:
        case TextBlock():
            return block.text
        case ThinkingBlock():
            if block.redacted:
                return "[redacted thinking]"
            return f"[thinking: {block.thinking}]" if block.thinking else "[thinking]"
        case ToolUseBlock():
            arguments = block.arguments
            if arguments is None:
                arguments = _dumps(raw(block.input), ensure_ascii=False)
            return f"[tool call {block.name} ({block.id}): {arguments}]"
        case ToolResultBlock():
            label = f"tool result {block.tool_use_id}" if block.tool_use_id else "tool result"
            status = " (error)" if block.is_error else ""
            return f"[{label}{status}: {block.text}]" if block.text else f"[{label}{status}]"
        case ImageBlock():
            return _media("image", block)
        case AudioBlock():
            return _media("audio", block)
        case DocumentBlock():
            return _media("document", block)
        case VideoBlock():
            return _media("video", block)
        case RawBlock():
            return _raw_label(block.data)
        case ServerToolUseBlock():
            arguments = _dumps(raw(block.input), False)
            return f"[server tool call {block.name} ({block.id}): {_clip(arguments)}]"
        case ServerToolResultBlock():
            status = " (error)" if block.is_error else ""
            label = f"server tool result {block.tool}{status}"
            shown = server_output(block.content)
            return f"[{label}: {_clip(shown)}]" if shown else f"[{label}]"
        case _:
            assert_never(block)


def has_context(message: Any) -> bool:
    """Whether a message carries log or response metadata, so did not come from a request.

    Such messages (decoded from a response or an agent log) keep wire fields of their own
    record in ``extra``; an encoder writes only the fields its request format knows.
    """
    return (
        getattr(message, "uuid", None) is not None
        or getattr(message, "session_id", None) is not None
        or getattr(message, "parent_tool_use_id", None) is not None
        or getattr(message, "model", None) is not None
        or getattr(message, "message_id", None) is not None
        or getattr(message, "timestamp", None) is not None
        or getattr(message, "usage", None) is not None
        or getattr(message, "stop_reason", None) is not None
        or getattr(message, "error", None) is not None
    )

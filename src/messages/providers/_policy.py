"""What an encoder does with what its target cannot carry, shared by the four provider codecs.

:class:`Policy` applies the caller's ``unsupported`` choice: raise
:class:`~messages.UnsupportedContentError` with the path of the content in the conversation,
drop it, or put a short text describing it in its place (:func:`describe`). A field that
cannot be carried (another provider's cache hint, image detail or signature) is raised
about under ``"raise"`` and left out otherwise: a field has no text of its own.

:func:`put_extra` and :func:`carried` decide which ``extra`` fields an encoder writes back,
by the table in ``_formats`` (see its docstring for the rule); :func:`request_turns` gives
the turns of a conversation that a request carries.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, assert_never

from .._json import FrozenDict, JsonValue, raw, thaw
from ..blocks import (
    AudioBlock,
    Block,
    ImageBlock,
    RawBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from ..errors import EncodeError, UnsupportedContentError
from ..flat import RawMessage
from ..media import parse_data_uri
from ..message import FLAT_TYPES, ROLE_TYPES, Message
from ..roles import AssistantMessage, RoleMessage
from ._base import Unsupported, as_turns
from ._formats import Place, fits, owner

__all__ = [
    "Policy",
    "carried",
    "describe",
    "has_context",
    "is_empty",
    "lost_calls",
    "non_null",
    "passthrough_role",
    "put_extra",
    "refusal_text",
    "request_turns",
]

_MODES: Final = ("raise", "drop", "text")
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
        if mode not in _MODES:
            raise EncodeError(
                f"expected unsupported='raise', 'drop' or 'text', found {mode!r}",
                source=source,
                value=mode,
            )
        self.mode = mode
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


def _size(data: str) -> str:
    return f"{len(data) * 3 // 4 - data[-2:].count('=')} bytes"


def _media(label: str, block: ImageBlock | AudioBlock) -> str:
    details: list[str] = []
    if block.data is not None:
        details += [block.media_type or block.resolved_media_type or "", _size(block.data)]
    elif block.url is not None:
        uri = parse_data_uri(block.url)
        if uri is None:
            details += [block.media_type or "", block.url]
        else:
            amount = _size(uri.data) if uri.is_base64 else f"{len(uri.data)} characters"
            details += [uri.media_type, amount]
    elif block.file_id is not None:
        details += [block.media_type or "", f"file {block.file_id}"]
    shown = ", ".join(d for d in details if d)
    return f"[{label}: {shown}]" if shown else f"[{label}]"


_NAMED: Final = ("refusal", "title", "name", "filename", "text", "content", "code", "uri", "url")


def _raw_label(data: JsonValue) -> str:
    if not isinstance(data, FrozenDict):
        return f"[raw: {_clip(json.dumps(raw(data), ensure_ascii=False))}]"
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
        return f"[raw: {_clip(json.dumps(raw(data), ensure_ascii=False))}]"
    places = [inner, *(v for v in inner.values() if isinstance(v, FrozenDict))]
    for place in places:  # a Chat custom call names its tool inside ``custom``
        for key in _NAMED:
            value = place.get(key)
            if isinstance(value, str):
                return f"[{label}: {_clip(value)}]"
    return f"[{label}]"


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
                arguments = json.dumps(raw(block.input), ensure_ascii=False)
            return f"[tool call {block.name} ({block.id}): {arguments}]"
        case ToolResultBlock():
            label = f"tool result {block.tool_use_id}" if block.tool_use_id else "tool result"
            status = " (error)" if block.is_error else ""
            return f"[{label}{status}: {block.text}]"
        case ImageBlock():
            return _media("image", block)
        case AudioBlock():
            return _media("audio", block)
        case RawBlock():
            return _raw_label(block.data)
        case _:
            assert_never(block)


def refusal_text(block: Block) -> str | None:
    """The text of a refusal the model gave, in any shape a decoder keeps it; else ``None``.

    That is Chat's ``refusal`` field (``RawBlock({"refusal": text})``), a refusal part
    (``RawBlock({"type": "refusal", "refusal": text})``) or a Responses refusal part
    (``TextBlock(text, extra={"type": "refusal"})``). A target with no refusal of its own
    carries it as text: the words are what the model said.
    """
    if isinstance(block, TextBlock):
        return block.text if block.extra.get("type") == "refusal" else None
    if isinstance(block, RawBlock) and isinstance(block.data, FrozenDict):
        data = block.data
        text = data.get("refusal")
        if isinstance(text, str) and (
            data.keys() == {"refusal"}
            or (data.keys() == {"type", "refusal"} and data["type"] == "refusal")
        ):
            return text
    return None


# --------------------------------------------------------------------------------- extras


def is_empty(value: Any) -> bool:
    """Whether a wire value carries nothing: null, an empty string, array or object."""
    if value is None:
        return True
    if isinstance(value, str | tuple | list | Mapping):
        return len(value) == 0
    return False


def carried(
    extra: Mapping[str, JsonValue],
    policy: Policy,
    path: str,
    place: Place,
    *,
    written: Mapping[str, Any] | None = None,
    protected: Iterable[str] = (),
    allow: frozenset[str] | None = None,
) -> dict[str, Any]:
    """The ``extra`` fields an encoder writes back, as plain values; the rest is refused.

    ``written`` are the fields the encoder already wrote: an extra value for one of them is
    left out when it is empty or the same, and cannot be carried otherwise (unless it only
    describes another format's record). ``protected`` keys are the encoder's business and
    never taken from ``extra``. ``allow``, when given, limits the target's own keys further
    (Chat requests take fewer message fields than its responses have). Everything else
    follows the rule of ``_formats``: own keys are written, another provider's meaningful
    fields go to the policy, record fields are left out, unknown keys are written only
    when nothing marks them as another format's.
    """
    if not extra:
        return {}
    target = policy.source
    stored = raw(extra)
    kinds = {key: owner(key, target, place) for key in stored}
    marked = policy.context or any(k in ("content", "record") for k in kinds.values())
    out: dict[str, Any] = {}
    skip = frozenset(protected)
    for key, value in stored.items():
        if key in skip:
            continue
        kind = kinds[key]
        if written is not None and key in written:
            if is_empty(value) or _same(value, written[key]) or kind == "record":
                continue
            what = "the field" if kind == "own" else "another provider's field"
            policy.refuse(f"cannot carry {what} {key!r} here", f"{path}.extra.{key}", value)
        elif kind == "own":
            if allow is None or key in allow:
                out[key] = value
        elif kind == "content":
            if not is_empty(value):
                policy.refuse(
                    f"cannot carry another provider's field {key!r}", f"{path}.extra.{key}", value
                )
        elif kind == "unknown" and not policy.context:
            if not marked and fits(key, target):
                out[key] = value
            elif not is_empty(value):
                policy.refuse(
                    f"cannot carry the field {key!r} of another format",
                    f"{path}.extra.{key}",
                    value,
                )
    return out


def put_extra(
    out: dict[str, Any],
    extra: Mapping[str, JsonValue],
    policy: Policy,
    path: str,
    place: Place,
    *,
    protected: Iterable[str] = (),
    allow: frozenset[str] | None = None,
) -> None:
    """Write the carried ``extra`` fields into ``out`` (see :func:`carried`), fresh copies."""
    kept = carried(extra, policy, path, place, written=out, protected=protected, allow=allow)
    for key, value in kept.items():
        out[key] = thaw(value) if isinstance(value, dict | list) else value


def non_null(extra: Mapping[str, Any], keys: Iterable[str]) -> frozenset[str]:
    """Those of ``keys`` whose value in ``extra`` is not null.

    A modelled wire field whose value was null decodes as ``None`` and keeps its null in
    ``extra``; an encoder protects a modelled key from ``extra`` except for that null.
    """
    return frozenset(k for k in keys if extra.get(k, None) is not None)


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return bool(a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a))
    if type(a) is list:
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


# ---------------------------------------------------------------------------------- turns


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


def passthrough_role(message: object) -> str | None:
    """The wire role of a RawMessage that holds a whole request message, else ``None``.

    Decoders keep a message with a role they do not know as ``RawMessage(data)``; encoders
    write it back in place when the role is one the target has (see
    ``_formats.role_is_own``) and hand it to the policy otherwise.
    """
    if isinstance(message, RawMessage) and message.role is None:
        data = message.data
        if isinstance(data, FrozenDict):
            role = data.get("role")
            if isinstance(role, str):
                return role
    return None


def request_turns(conversation: Iterable[Message]) -> list[RoleMessage | RawMessage]:
    """The conversation as role turns (see ``as_turns``), keeping whole raw messages apart.

    One request carries one conversation. An agent log may interleave a sub-agent's
    messages (``parent_tool_use_id`` set: the work of one tool call, which the calling model
    never saw) with the conversation that called it; only the messages at the level of the
    first one go into the request, and the sub-agent's part shows as the tool's result.
    """
    out: list[RoleMessage | RawMessage] = []
    segment: list[Message] = []
    level: str | None = None
    leveled = False
    for message in conversation:
        if isinstance(message, (*ROLE_TYPES, *FLAT_TYPES)):
            parent = message.parent_tool_use_id
            if not leveled:
                level, leveled = parent, True
            elif parent != level:
                continue
        if passthrough_role(message) is not None:
            out.extend(as_turns(segment))
            segment = []
            assert isinstance(message, RawMessage)
            out.append(message)
        else:
            segment.append(message)
    out.extend(as_turns(segment))
    return out


def lost_calls(
    turns: Iterable[RoleMessage | RawMessage], carries: Callable[[RawBlock], bool]
) -> frozenset[str]:
    """The ids of tool calls kept raw (a Chat custom call, say) that the target cannot carry.

    A result answering such a call would answer nothing in the target's request, which
    every provider rejects, so it follows its call: the policy decides for both. ``carries``
    says whether the target writes a raw block; a call is a raw block with a string ``id``
    or ``call_id`` in an assistant turn. Ids that a :class:`ToolUseBlock` also has are not
    lost.
    """
    raws: set[str] = set()
    modelled: set[str] = set()
    for turn in turns:
        if isinstance(turn, RawMessage) or isinstance(turn.content, str):
            continue
        for block in turn.content:
            if isinstance(block, ToolUseBlock):
                modelled.add(block.id)
            elif (
                isinstance(block, RawBlock)
                and isinstance(turn, AssistantMessage)
                and isinstance(block.data, FrozenDict)
                and not carries(block)
            ):
                for key in ("id", "call_id"):
                    value = block.data.get(key)
                    if isinstance(value, str):
                        raws.add(value)
    return frozenset(raws - modelled)

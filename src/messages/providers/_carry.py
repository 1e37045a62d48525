"""What a provider request carries: the ``extra`` rule and the turns of a conversation.

The loss policy itself is :mod:`messages.policy`. A field that cannot be carried (another
provider's cache hint, image detail or signature) is raised about under ``"raise"`` and left
out otherwise: a field has no text of its own.

:func:`put_extra` and :func:`carried` decide which ``extra`` fields an encoder writes back,
by the table in ``_formats`` (see its docstring for the rule); :func:`request_turns` gives
the turns of a conversation that a request carries, :func:`start_request` the policy every
``encode_request`` starts with and :func:`each_turn` the walk over the turns
(:func:`messages._core.wire.encode_each` is the walk over a turn's blocks);
:func:`raw_turn` writes a whole raw message back or hands it to the policy;
:func:`failed_output` gives a failed tool result's words where the target has no error flag.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

from .._core.frozen import FrozenDict
from .._core.frozen import JsonValue
from .._core.frozen import raw
from .._core.frozen import thaw
from .._core.jsontext import same_json
from ..blocks import Block
from ..blocks import RawBlock
from ..blocks import TextBlock
from ..blocks import ToolResultBlock
from ..blocks import ToolUseBlock
from ..flat import RawMessage
from ..message import FLAT_TYPES
from ..message import ROLE_TYPES
from ..message import Message
from ..policy import Policy
from ..policy import Unsupported
from ..policy import describe
from ..roles import AssistantMessage
from ..roles import RoleMessage
from ._formats import Place
from ._formats import fits
from ._formats import owner
from ._formats import role_is_own

__all__ = [
    "carried",
    "each_turn",
    "failed_output",
    "is_empty",
    "lost_calls",
    "non_null",
    "passthrough_role",
    "put_extra",
    "raw_turn",
    "refusal_text",
    "request_turns",
    "start_request",
]


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


def failed_output(call_id: str, output: Any, part_type: str) -> Any:
    """A failed tool result's output, for a target with no error flag, under ``"text"``.

    The words are those :func:`~messages.policy.describe` gives for the failed result, the
    same for every target: a string output becomes ``[tool result <id> (error): <output>]``;
    a list of parts (or a kept null) gets ``[tool result <id> (error)]`` as a first part of
    type ``part_type``, and keeps its parts.
    """
    if isinstance(output, str):
        return describe(ToolResultBlock(call_id, output, is_error=True))
    words = describe(ToolResultBlock(call_id, "", is_error=True))
    return [{"type": part_type, "text": words}, *(output or [])]


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
            if is_empty(value) or same_json(value, written[key]) or kind == "record":
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


# ---------------------------------------------------------------------------------- turns


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


def start_request(
    conversation: Iterable[Message],
    unsupported: Unsupported,
    source: str,
    carries: Callable[[RawBlock], bool],
) -> tuple[Policy, list[RoleMessage | RawMessage]]:
    """The policy of one ``encode_request`` call and the turns it encodes.

    The policy knows from the start which calls the target cannot carry (``carries``
    tells a raw block the target keeps), so their results follow them (see :func:`lost_calls`).
    """
    policy = Policy(unsupported, source)
    turns = request_turns(conversation)
    policy.lost = lost_calls(turns, carries)
    return policy, turns


def each_turn(
    policy: Policy, turns: list[RoleMessage | RawMessage], start: int = 0
) -> Iterator[tuple[int, str, RoleMessage | RawMessage]]:
    """Each turn from ``start`` on, with its index and path; the policy is told of it first.

    Every ``encode_request`` walks its turns this way, so paths in errors and the policy's
    view of what it is encoding (see :meth:`~messages.policy.Policy.turn`) agree.
    """
    for i in range(start, len(turns)):
        turn = turns[i]
        policy.turn(turn)
        yield i, f"$[{i}]", turn


def raw_turn(
    turn: RawMessage,
    policy: Policy,
    path: str,
    reason: str,
    carried_as_is: Callable[[Any], bool] = lambda data: True,
) -> dict[str, Any] | TextBlock | None:
    """A whole raw message in a request (see :func:`passthrough_role`).

    Its wire form when its role is the target's (and ``carried_as_is`` accepts its data);
    else what the policy gives for it: an error, ``None`` (dropped), or the TextBlock that
    describes it. ``reason`` names the role as ``{role}``.
    """
    role = str(passthrough_role(turn))
    if role_is_own(role, policy.source) and carried_as_is(turn.data):
        return thaw(turn.data)  # type: ignore[no-any-return]
    return policy.degrade(RawBlock(turn.data), path, reason.format(role=repr(role)))


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


def as_turns(messages: Iterable[Message]) -> list[RoleMessage]:
    """Role messages for a request: flat content messages are grouped back into turns.

    Role messages pass through. A run of consecutive flat content messages with the same
    role becomes one role message of that role (``developer`` and ``system`` stay apart),
    taking the context fields of the run's first message. Session messages (results,
    errors, init, stream events, invalid lines) are not conversation content and are left
    out, and so is a :class:`RawMessage` without a role: an unknown record of a log, not
    something anyone said (a raw message holding a whole request message of some role is
    kept apart by ``_policy.request_turns`` first). Anything that is not a message raises
    :class:`DecodeError`.
    """
    from ..convert import messages_to_turn
    from ..errors import DecodeError
    from ..flat import FlatMessage
    from ..flat import RawMessage
    from ..message import FLAT_TYPES
    from ..message import ROLE_TYPES
    from ..message import SESSION_TYPES

    turns: list[RoleMessage] = []
    run: list[FlatMessage] = []
    run_role: str | None = None

    def close() -> None:
        if run:
            turns.append(messages_to_turn(run))
            run.clear()

    for i, message in enumerate(messages):
        if isinstance(message, ROLE_TYPES):
            close()
            turns.append(message)
        elif isinstance(message, FLAT_TYPES):
            if isinstance(message, RawMessage) and message.role is None:
                continue
            role = message.role
            if run and role != run_role:
                close()
            run_role = role
            run.append(message)
        elif isinstance(message, SESSION_TYPES):
            continue
        else:
            raise DecodeError(f"expected a message, found {type(message).__name__}", path=f"$[{i}]")
    close()
    return turns

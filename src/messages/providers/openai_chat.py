"""OpenAI Chat Completions (``POST /v1/chat/completions``): requests, responses and streams.

``decode_request`` reads the ``messages`` of a request body; ``encode_request`` writes them
for any conversation, one ``tool`` message per tool result right after the assistant
message that made the call; ``decode_response``/``encode_response`` handle a
``ChatCompletion``; :func:`accumulator` reassembles streamed chunks. See
``docs/providers/openai_chat.md`` for the mapping.

>>> from messages import SystemMessage, UserMessage
>>> encode_request([SystemMessage("Be terse.", role="developer"), UserMessage("Hi")])
{'messages': [{'role': 'developer', 'content': 'Be terse.'}, {'role': 'user', 'content': 'Hi'}]}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final, Literal

from .._core.frozen import FrozenDict, raw, thaw
from .._core.make import copy_json, wrap_owned
from .._core.wire import extra, fail, opt_obj, opt_str, type_name
from ..blocks import AudioBlock, Block, RawBlock, TextBlock, ToolResultBlock
from ..errors import DecodeError
from ..flat import RawMessage
from ..message import Message
from ..policy import Policy, Unsupported
from ..roles import AssistantMessage, SystemMessage, ToolMessage, UserMessage
from ..stop import StopReason, classify_stop_reason
from ._carry import lost_calls, passthrough_role, request_turns
from ._chat_encode import ENVELOPE, Wire, arrange, encode_assistant, encode_turn
from ._chat_parts import NAME, carries, decode_part, decode_tool_call, decode_usage, encode_usage
from ._formats import role_is_own

if TYPE_CHECKING:
    from ._protocols import Accumulator

__all__ = [
    "NAME",
    "accumulator",
    "decode_request",
    "decode_response",
    "encode_request",
    "encode_response",
]

_FINISH_REASONS: Final = frozenset(
    ("stop", "length", "tool_calls", "content_filter", "function_call")
)
_FINISH_FROM: Final = {
    StopReason.END_TURN: "stop",
    StopReason.STOP_SEQUENCE: "stop",
    StopReason.MAX_TOKENS: "length",
    StopReason.TOOL_USE: "tool_calls",
    StopReason.REFUSAL: "content_filter",
}
_ROLE_CONTENT: Final = frozenset(("role", "content"))


# ---------------------------------------------------------------------------- decoding


def _own(body: Any) -> dict[str, Any]:
    if not isinstance(body, Mapping):
        raise DecodeError(f"expected an object, found {type_name(body)}", value=body, source=NAME)
    try:
        owned: dict[str, Any] = copy_json(body, "$", 0, 256)
    except DecodeError as exc:
        exc.source = NAME
        raise
    return owned


def _content(d: dict[str, Any]) -> str | tuple[Block, ...]:
    content = d.get("content")
    if type(content) is str:
        return content
    if type(content) is list:
        return tuple([decode_part(p) for p in content])
    if content is None:
        return ()  # a null is kept in extra and written back
    raise fail("a string or an array of parts", content, "content")


def _assistant(d: dict[str, Any]) -> tuple[str | tuple[Block, ...], FrozenDict]:
    """An owned assistant message: its content and the fields it does not model."""
    known = {"role"}
    blocks: list[Block] = []
    content = d.get("content")
    annotations = d.get("annotations")
    if type(content) is str:
        known.add("content")
        citations = None
        if type(annotations) is list and annotations and all(type(a) is dict for a in annotations):
            known.add("annotations")
            citations = tuple([wrap_owned(a) for a in annotations])
        blocks.append(TextBlock(content, citations=citations))
    elif type(content) is list and content:
        known.add("content")
        blocks.extend(decode_part(p) for p in content)
    elif content is not None and type(content) is not list:
        raise fail("a string or an array of parts", content, "content")
    refusal = d.get("refusal")
    if type(refusal) is str:
        known.add("refusal")
        blocks.append(RawBlock(wrap_owned({"refusal": refusal})))
    elif refusal is not None:
        raise fail("a string", refusal, "refusal")
    calls = d.get("tool_calls")
    if type(calls) is list and calls:
        known.add("tool_calls")
        blocks.extend(decode_tool_call(tc) for tc in calls)
    elif calls is not None and type(calls) is not list:
        raise fail("an array", calls, "tool_calls")
    audio = d.get("audio")
    if (
        type(audio) is dict
        and type(audio.get("id")) is str
        and ("data" not in audio or type(audio["data"]) is str)
    ):
        known.add("audio")
        rest = extra(audio, frozenset(("id", "data")))
        blocks.append(AudioBlock(data=audio.get("data"), file_id=audio["id"], extra=rest))
    rest_ = extra(d, frozenset(known))
    if type(content) is str and len(blocks) == 1 and "annotations" not in known:
        return content, rest_
    return tuple(blocks), rest_


def _message(d: Any) -> Message:
    if type(d) is not dict:
        raise fail("an object", d)
    role = d.get("role")
    if type(role) is not str:
        raise fail("a string", role, "role")
    if role in ("system", "developer"):
        kind: Literal["system", "developer"] = "developer" if role == "developer" else "system"
        return SystemMessage(_content(d), role=kind, extra=extra(d, _ROLE_CONTENT))
    if role == "user":
        return UserMessage(_content(d), extra=extra(d, _ROLE_CONTENT))
    if role == "assistant":
        content, rest = _assistant(d)
        return AssistantMessage(content, extra=rest)
    if role == "tool":
        call_id = d.get("tool_call_id")
        if type(call_id) is not str:
            raise fail("a string", call_id, "tool_call_id")
        rest = extra(d, frozenset(("role", "content", "tool_call_id")))
        return ToolMessage((ToolResultBlock(call_id, _content(d), extra=rest),))
    return RawMessage(wrap_owned(d))


def decode_request(body: Mapping[str, Any]) -> tuple[Message, ...]:
    """The conversation in a request body's ``messages``, in order.

    ``system`` and ``developer`` messages become :class:`SystemMessage` (role kept); each
    ``tool`` message a :class:`ToolMessage` holding one :class:`ToolResultBlock`; assistant
    ``tool_calls`` become :class:`ToolUseBlock` with the raw ``arguments`` string and its
    parsed ``input`` (empty when the string is not a JSON object); the ``refusal`` field a
    ``RawBlock({"refusal": ...})`` (a refusal *part* stays a typed ``RawBlock``); a role
    this library does not know (the deprecated ``function``) a :class:`RawMessage` holding
    the message.

    >>> decode_request({"messages": [{"role": "developer", "content": "Be terse."}]})
    (SystemMessage(content='Be terse.', role='developer'),)
    """
    d = _own(body)
    try:
        messages = d.get("messages")
        if type(messages) is not list:
            raise fail("an array", messages, "messages")
        out = []
        for i, message in enumerate(messages):
            try:
                out.append(_message(message))
            except DecodeError as exc:
                raise exc.within(f".messages[{i}]") from None
    except DecodeError as exc:
        exc.source = NAME
        raise
    return tuple(out)


def _timestamp(d: dict[str, Any]) -> int | float | str | None:
    created = d.get("created")
    if created is None or type(created) in (int, float, str):
        return created
    raise fail("a number", created, "created")


def _decode_response(d: dict[str, Any]) -> AssistantMessage:
    choices = d.get("choices")
    if type(choices) is not list or not choices:
        what = "an empty array" if choices == [] else type_name(choices)
        raise DecodeError(
            f"expected a non-empty array, found {what}", path="$.choices", value=choices
        )
    choice = choices[0]
    if type(choice) is not dict:
        raise fail("an object", choice, "choices[0]")
    message = choice.get("message")
    if type(message) is not dict:
        raise fail("an object", message, "choices[0].message")
    role = message.get("role", "assistant")
    if role != "assistant":
        raise DecodeError(
            f"expected 'assistant', found {role!r}", path="$.choices[0].message.role", value=role
        )
    try:
        content, rest = _assistant(message)
        finish = opt_str(choice, "finish_reason")
    except DecodeError as exc:
        raise exc.within(".choices[0].message") from None
    if ENVELOPE in rest:
        raise DecodeError(
            f"expected no message field named {ENVELOPE!r}: this codec keeps the response there",
            path=f"$.choices[0].message.{ENVELOPE}",
        )
    usage = opt_obj(d, "usage")
    try:
        decoded_usage = None if usage is None else decode_usage(usage)
    except DecodeError as exc:
        raise exc.within(".usage") from None
    envelope = dict(raw(extra(d, frozenset(("id", "model", "created", "usage", "choices")))))
    envelope["choices"] = [
        raw(extra(choice, frozenset(("message", "finish_reason")))),
        *choices[1:],
    ]
    message_extra = {**raw(rest), ENVELOPE: envelope}
    return AssistantMessage(
        content,
        usage=decoded_usage,
        stop_reason=finish,
        model=opt_str(d, "model"),
        message_id=opt_str(d, "id"),
        timestamp=_timestamp(d),
        extra=wrap_owned(message_extra),
    )


def decode_response(body: Mapping[str, Any]) -> AssistantMessage:
    """A ``ChatCompletion`` as an :class:`AssistantMessage` (its first choice).

    ``id`` becomes ``message_id``, ``created`` ``timestamp``, ``finish_reason`` the raw
    ``stop_reason``; ``usage`` a :class:`Usage` whose ``input_tokens`` are the prompt tokens
    less the cached ones. Unknown message fields stay in ``extra``; the rest of the
    completion (``object``, ``system_fingerprint``, the choice's ``index`` and
    ``logprobs``, any further choices) is kept in ``extra["completion"]``.

    >>> m = decode_response({"id": "chatcmpl-1", "object": "chat.completion", "created": 1,
    ...     "model": "gpt-x", "choices": [{"index": 0, "finish_reason": "stop",
    ...     "message": {"role": "assistant", "content": "Hi.", "refusal": None}}],
    ...     "usage": {"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12,
    ...               "prompt_tokens_details": {"cached_tokens": 4}}})
    >>> m.text, m.stop, m.usage.input_tokens, m.usage.cache_read_tokens
    ('Hi.', <StopReason.END_TURN: 'end_turn'>, 5, 4)
    """
    d = _own(body)
    try:
        return _decode_response(d)
    except DecodeError as exc:
        exc.source = NAME
        raise


def encode_request(
    conversation: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> dict[str, Any]:
    """The ``messages`` of a request body for a conversation.

    Flat messages are grouped into turns first. ``system``/``developer`` roles are kept.
    Every tool result (a :class:`ToolMessage`, or a :class:`ToolResultBlock` in a user turn)
    becomes one ``tool`` message, placed right after the assistant message whose
    ``tool_calls`` hold its id. Tool calls keep their raw ``arguments`` string when they
    have one. Content Chat cannot carry (thinking, images in tool results, ``is_error``,
    another format's blocks) follows ``unsupported``: ``"raise"`` an
    :class:`~messages.UnsupportedContentError` with its path, ``"drop"`` it, or replace it
    with a ``"text"`` describing it.

    >>> from messages import ToolResultBlock, ToolUseBlock
    >>> body = encode_request([
    ...     AssistantMessage((ToolUseBlock("call_1", "get_time", {}, arguments="{}"),)),
    ...     UserMessage((ToolResultBlock("call_1", "12:00"),)),
    ... ])
    >>> body["messages"][1]
    {'role': 'tool', 'tool_call_id': 'call_1', 'content': '12:00'}
    """
    policy = Policy(unsupported, NAME)
    wires: list[Wire] = []
    turns = request_turns(conversation)
    policy.lost = lost_calls(turns, carries)
    for i, turn in enumerate(turns):
        path = f"$[{i}]"
        policy.turn(turn)
        if isinstance(turn, RawMessage):
            role = str(passthrough_role(turn))
            if role_is_own(role, NAME):
                wires.append((thaw(turn.data), None))
            else:
                reason = f"cannot carry a {role!r} message"
                text = policy.degrade(RawBlock(turn.data), path, reason)
                if text is not None:
                    wires.append(({"role": "user", "content": text.text}, None))
            continue
        wires.extend(encode_turn(turn, policy, path))
    return {"messages": arrange(wires)}


def _finish_reason(raw_reason: str) -> str:
    if raw_reason in _FINISH_REASONS:
        return raw_reason
    reason = classify_stop_reason(raw_reason)
    return _FINISH_FROM.get(reason, raw_reason) if reason is not None else raw_reason


def encode_response(message: AssistantMessage) -> dict[str, Any]:
    """A ``ChatCompletion`` body for an assistant message: the inverse of decode_response.

    Content Chat cannot carry raises :class:`~messages.UnsupportedContentError`. A message
    from another provider gets ``object``, one choice and a mapped ``finish_reason``; its
    response fields in ``extra`` are left out.
    """
    policy = Policy("raise", NAME)
    envelope_value = message.extra.get(ENVELOPE)
    envelope = thaw(envelope_value) if isinstance(envelope_value, FrozenDict) else None
    out: dict[str, Any] = {}
    if message.message_id is not None:
        out["id"] = message.message_id
    if envelope is None:
        out["object"] = "chat.completion"
    if message.timestamp is not None:
        out["created"] = message.timestamp
    if message.model is not None:
        out["model"] = message.model
    choices = envelope.pop("choices", None) if envelope is not None else None
    if type(choices) is list and choices and type(choices[0]) is dict:
        choice, others = choices[0], choices[1:]
    else:
        choice, others = {"index": 0}, []
    choice["message"] = encode_assistant(message, policy, "$", response=True)
    if message.stop_reason is not None:
        choice["finish_reason"] = _finish_reason(message.stop_reason)
    out["choices"] = [choice, *others]
    if message.usage is not None:
        out["usage"] = encode_usage(message.usage)
    if envelope is not None:
        for key, value in envelope.items():
            out.setdefault(key, value)
    return out


def accumulator() -> Accumulator:
    """A fresh accumulator for one streamed completion (parsed chunk objects, in order).

    Feed it each ``data:`` object (and, optionally, the final ``"[DONE]"``).

    >>> acc = accumulator()
    >>> for chunk in [
    ...     {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-x",
    ...      "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hel"},
    ...                   "finish_reason": None}]},
    ...     {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-x",
    ...      "choices": [{"index": 0, "delta": {"content": "lo"}, "finish_reason": "stop"}]},
    ... ]:
    ...     acc.feed(chunk)
    >>> acc.message().text, acc.message().stop_reason
    ('Hello', 'stop')
    """
    from ._chat_stream import ChatAccumulator

    return ChatAccumulator()

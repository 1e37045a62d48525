"""Decoding OpenAI Chat Completions request and response bodies into messages.

Content parts and ``tool_calls`` entries are read by :mod:`._chat_parts`; this module reads
the messages around them, the completion envelope and the usage.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from typing import Final
from typing import Literal

from ..._core.frozen import EMPTY
from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import decode_each
from ..._core.wire import extra
from ..._core.wire import fail
from ..._core.wire import need_str
from ..._core.wire import opt_int
from ..._core.wire import opt_obj
from ..._core.wire import opt_str
from ..._core.wire import type_name
from ..._shapes.citations import read_citation
from ...blocks import AudioBlock
from ...blocks import Block
from ...blocks import RawBlock
from ...blocks import TextBlock
from ...blocks import ToolResultBlock
from ...errors import DecodeError
from ...flat import RawMessage
from ...message import Message
from ...roles import AssistantMessage
from ...roles import SystemMessage
from ...roles import ToolMessage
from ...roles import UserMessage
from ...usage import Usage
from .._common import copy_body
from .._common import decode_body
from .parts import CONTENT_PART
from .parts import NAME
from .parts import decode_part
from .parts import decode_tool_call
from .reasoning import decode_reasoning

__all__ = ["ENVELOPE", "decode_request", "decode_response", "decode_usage"]

ENVELOPE: Final = "completion"
"""The ``extra`` key under which decode_response keeps the ChatCompletion around the message."""
_ROLE_CONTENT: Final = frozenset(("role", "content"))
_TOOL_KEYS: Final = frozenset(("role", "content", "tool_call_id"))
_AUDIO_KEYS: Final = frozenset(("id", "data"))
# Makers: the decoders below hand over only checked, frozen values (tuples of blocks,
# FrozenDicts over the owned body), which the public constructors would check again.
_new_system: Final = maker(SystemMessage)
_new_user: Final = maker(UserMessage)
_new_assistant: Final = maker(AssistantMessage)
_new_tool: Final = maker(ToolMessage)
_new_text: Final = maker(TextBlock)
_new_result: Final = maker(ToolResultBlock)


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
    blocks: list[Block] = list(decode_reasoning(d, known))
    content = d.get("content")
    annotations = d.get("annotations")
    if type(content) is str:
        known.add("content")
        citations = None
        if type(annotations) is list and annotations and all(type(a) is dict for a in annotations):
            known.add("annotations")
            citations = tuple([read_citation(a) for a in annotations])
        blocks.append(_new_text(content, citations, EMPTY))
    elif type(content) is list and content:
        known.add("content")
        blocks.extend(decode_part(p) for p in content)
    elif content is not None and type(content) is not list:
        raise fail("a string or an array of parts", content, "content")
    refusal = opt_str(d, "refusal")
    if refusal is not None:
        known.add("refusal")
        blocks.append(RawBlock(wrap_owned({"refusal": refusal})))
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
        rest = extra(audio, _AUDIO_KEYS)
        blocks.append(AudioBlock(data=audio.get("data"), file_id=audio["id"], extra=rest))
    rest_ = extra(d, frozenset(known))
    if type(content) is str and len(blocks) == 1 and known == {"role", "content"}:
        return content, rest_
    if type(content) is list and len(content) == 1 and len(blocks) > 1:
        blocks = [_as_part(b) for b in blocks]
    return tuple(blocks), rest_


def _as_part(block: Block) -> Block:
    """A lone text part beside reasoning, calls, audio or a refusal, marked as a part.

    Beside those, one text is written as the string content (what the APIs send); a text
    that came as a one-part list says so in ``extra["content_part"]`` (a Chat record field
    no other format writes), so the message goes back as it came.
    """
    if type(block) is not TextBlock or block.extra or block.citations is not None:
        return block
    return _new_text(block.text, None, _PART)


_PART: Final = FrozenDict({CONTENT_PART: True})


def _message(d: Any) -> Message:
    if type(d) is not dict:
        raise fail("an object", d)
    role = need_str(d, "role")
    if role == "assistant":
        content, rest = _assistant(d)
        return _new_assistant(content, None, None, None, None, None, None, None, None, None, rest)
    if role == "tool":
        call_id = d.get("tool_call_id")
        if type(call_id) is not str:
            raise fail("a string", call_id, "tool_call_id")
        block = _new_result(call_id, _content(d), None, None, extra(d, _TOOL_KEYS))
        return _new_tool((block,), None, None, None, None, None, None, EMPTY)
    if role == "user":
        return _new_user(
            _content(d),
            None,
            None,
            None,
            None,
            None,
            None,
            extra(d, _ROLE_CONTENT),
            None,
            None,
            None,
        )
    if role in ("system", "developer"):
        kind: Literal["system", "developer"] = "developer" if role == "developer" else "system"
        content = _content(d)
        return _new_system(
            content, kind, None, None, None, None, None, None, extra(d, _ROLE_CONTENT)
        )
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
    d = copy_body(body, NAME)
    try:
        messages = d.get("messages")
        if type(messages) is not list:
            raise fail("an array", messages, "messages")
        out = decode_each(messages, _message, ".messages")
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
    return decode_body(body, NAME, _decode_response)


def decode_usage(u: dict[str, Any]) -> Usage:
    """``usage``: prompt tokens less cached (and cache-written) ones are the input tokens."""
    prompt = opt_int(u, "prompt_tokens")
    prompt_details = opt_obj(u, "prompt_tokens_details")
    completion_details = opt_obj(u, "completion_tokens_details")
    rest = dict(
        raw(
            extra(
                u,
                frozenset(
                    (
                        "prompt_tokens",
                        "completion_tokens",
                        "prompt_tokens_details",
                        "completion_tokens_details",
                    )
                ),
            )
        )
    )
    cached = written = reasoning = None
    try:
        if prompt_details is not None:
            cached = opt_int(prompt_details, "cached_tokens")
            written = opt_int(prompt_details, "cache_write_tokens")
            nested = raw(extra(prompt_details, frozenset(("cached_tokens", "cache_write_tokens"))))
            if nested or (cached is None and written is None):
                rest["prompt_tokens_details"] = nested  # else rebuilt from the counts
    except DecodeError as exc:
        raise exc.within(".prompt_tokens_details") from None
    try:
        if completion_details is not None:
            reasoning = opt_int(completion_details, "reasoning_tokens")
            nested = raw(extra(completion_details, frozenset(("reasoning_tokens",))))
            if nested or reasoning is None:
                rest["completion_tokens_details"] = nested
    except DecodeError as exc:
        raise exc.within(".completion_tokens_details") from None
    return Usage(
        None if prompt is None else prompt - (cached or 0) - (written or 0),
        opt_int(u, "completion_tokens"),
        cached,
        written,
        reasoning_tokens=reasoning,
        extra=wrap_owned(rest) if rest else EMPTY,
    )

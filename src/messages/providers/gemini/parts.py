"""Gemini ``Part`` objects, both ways (private to ``gemini``).

A part is a oneof: exactly one data field (``text``, ``inlineData``, ``fileData``,
``functionCall``, ``functionResponse``, ...) plus metadata (``thought``,
``thoughtSignature``...). Part-level keys a block does not model go to its ``extra``; keys
inside the data object that it does not model go to ``extra[<data field>]`` (for example
``extra["functionCall"] = {"willContinue": true}``), and the encoder merges them back in.
A part this module does not model, or one with no or several data fields, is a RawBlock.
"""

from __future__ import annotations

import json
from typing import Any
from typing import Final
from typing import assert_never

from ..._core.frozen import EMPTY
from ..._core.frozen import raw
from ..._core.make import expose_owned
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import extra
from ..._core.wire import fail
from ..._core.wire import opt_str
from ...blocks import AudioBlock
from ...blocks import Block
from ...blocks import DocumentBlock
from ...blocks import ImageBlock
from ...blocks import RawBlock
from ...blocks import ServerToolResultBlock
from ...blocks import ServerToolUseBlock
from ...blocks import TextBlock
from ...blocks import ThinkingBlock
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...blocks import VideoBlock
from ...errors import DecodeError
from ...policy import Policy
from .._carry import carried
from .._carry import refusal_text
from .._formats import GEMINI
from .._formats import raw_block_is_own
from .._gemini_names import SYNTHETIC_ID_PREFIX
from .._gemini_names import CallIds
from .._gemini_names import camel
from .._server_tools import decode_gemini
from .._server_tools import encode_gemini
from .media import decode_media
from .media import degrade
from .media import encode_media
from .media import part
from .media import split

__all__ = [
    "CallIds",
    "DATA_KEYS",
    "SYNTHETIC_ID_PREFIX",
    "camel",
    "decode_part",
    "encode_part",
    "ours",
]


DATA_KEYS: Final = (
    "text",
    "inlineData",
    "fileData",
    "functionCall",
    "functionResponse",
    "executableCode",
    "codeExecutionResult",
    "toolCall",
    "toolResponse",
)


# ---------------------------------------------------------------------------------- decoding


_CALL: Final = frozenset(("id", "name", "args"))
_RESPONSE: Final = frozenset(("id", "name", "response", "parts"))
_RESPONSE_DERIVED: Final = frozenset(("id", "name"))
_CALL_NO_ARGS: Final = _CALL - {"args"}
_TEXT_KEYS: Final = frozenset(("text",))
_THOUGHT_KEYS: Final = frozenset(("text", "thought", "thoughtSignature"))
_DATA_SET: Final = frozenset(DATA_KEYS)
# Makers: the decoders hand over checked, frozen values only (see _core/make.py).
_new_text: Final = maker(TextBlock)
_new_thinking: Final = maker(ThinkingBlock)
_new_tool_use: Final = maker(ToolUseBlock)
_new_result: Final = maker(ToolResultBlock)


def _call(d: dict[str, Any], ids: CallIds) -> Block:
    fc = d["functionCall"]
    if type(fc) is not dict:
        raise fail("an object", fc, "functionCall")
    fc = camel(fc)
    try:
        name = fc.get("name")
        if type(name) is not str:
            raise fail("a string", name, "name")
        args = fc.get("args")
        if args is not None and type(args) is not dict:
            raise fail("an object", args, "args")
        call_id = opt_str(fc, "id")
    except DecodeError as exc:
        raise exc.within(".functionCall") from None
    # ``args`` is written back only when non-empty: an explicit empty object stays in extra.
    ex = split(d, "functionCall", fc, _CALL if args != {} else _CALL_NO_ARGS)
    call_id = call_id if call_id is not None else ids.call(name)
    return _new_tool_use(call_id, name, wrap_owned(args) if args else EMPTY, None, ex)


def _response_text(response: Any) -> tuple[str, bool | None, bool]:
    """The text, error flag and derivability of a ``functionResponse.response``."""
    if type(response) is dict and len(response) == 1:
        ((key, value),) = response.items()
        if key in ("output", "error"):
            flag = True if key == "error" else None
            if type(value) is str:
                return value, flag, True
            return json.dumps(value, ensure_ascii=False), flag, False
    if response is None:
        return "", None, False
    return json.dumps(response, ensure_ascii=False), None, False


def _function_response(d: dict[str, Any], ids: CallIds) -> Block:
    fr = d["functionResponse"]
    if type(fr) is not dict:
        raise fail("an object", fr, "functionResponse")
    fr = camel(fr)
    name = fr.get("name")
    if type(name) is not str or "response" not in fr:
        return RawBlock(wrap_owned({**d, "functionResponse": fr}))
    try:
        call_id = opt_str(fr, "id")
    except DecodeError as exc:
        raise exc.within(".functionResponse") from None
    text, is_error, exact = _response_text(fr.get("response"))
    media: list[Block] = []
    parts = fr.get("parts")
    if parts is not None:
        if type(parts) is list:
            media = [decode_part(p, ids) for p in parts]
        if type(parts) is not list or not all(
            isinstance(b, ImageBlock | AudioBlock | VideoBlock | DocumentBlock) for b in media
        ):
            media, exact = [], False
    ex = split(d, "functionResponse", fr, _RESPONSE if exact else _RESPONSE_DERIVED)
    content: str | tuple[Block, ...] = (_new_text(text, None, EMPTY), *media) if media else text
    return _new_result(
        call_id if call_id is not None else ids.result(name), content, is_error, name, ex
    )


def decode_part(d: Any, ids: CallIds) -> Block:
    """One wire part (owned) as a block."""
    if type(d) is not dict:
        return RawBlock(expose_owned(d))
    d = camel(d)
    present = _DATA_SET.intersection(d)
    if len(present) != 1:
        return RawBlock(wrap_owned(d))
    (key,) = present
    if key == "text":
        text = d["text"]
        if type(text) is not str:
            raise fail("a string", text, "text")
        if d.get("thought") is True:
            signature = opt_str(d, "thoughtSignature")
            provider = None if signature is None else "google"
            return _new_thinking(text, signature, False, provider, extra(d, _THOUGHT_KEYS))
        return _new_text(text, None, EMPTY if len(d) == 1 else extra(d, _TEXT_KEYS))
    if key in ("inlineData", "fileData"):
        return decode_media(d, key)
    if key == "functionCall":
        return _call(d, ids)
    if key == "functionResponse":
        return _function_response(d, ids)
    if key in ("executableCode", "codeExecutionResult", "toolCall", "toolResponse"):
        return decode_gemini(d, key, ids)
    return RawBlock(wrap_owned(d))


# ---------------------------------------------------------------------------------- encoding


def ours(block: RawBlock) -> bool:
    """Whether a RawBlock holds a Gemini part (see ``_formats.raw_is_own``).

    That is an object whose keys are all camelCase names, without ``type`` (Gemini parts
    have none), with a data field besides the known metadata.
    """
    return raw_block_is_own(block, GEMINI)


def _result_part(
    block: ToolResultBlock, names: dict[str, str], policy: Policy, path: str
) -> dict[str, Any] | None:
    if block.tool_use_id in policy.lost:
        return degrade(policy, block, path, "a result for a call Gemini cannot carry")
    name = block.name if block.name is not None else names.get(block.tool_use_id)
    if name is None:
        return degrade(
            policy, block, path, "a Gemini function response needs the tool's name (no call found)"
        )
    content = block.content
    media: list[Any] = []
    if isinstance(content, str):
        text = content
    else:
        texts = []
        for i, inner in enumerate(content):
            at = f"{path}.content[{i}]"
            if isinstance(inner, TextBlock):
                if inner.text:  # an empty block carries nothing; joined it would add "\n"
                    texts.append(inner.text)
            elif isinstance(inner, ImageBlock | AudioBlock | VideoBlock | DocumentBlock):
                encoded = encode_media(inner, policy, at)
                if encoded is not None and "text" in encoded:
                    texts.append(encoded["text"])
                elif encoded is not None:
                    media.append(encoded)
            else:
                degraded = policy.degrade(
                    inner, at, "a Gemini function response carries text and media only"
                )
                if degraded is not None:
                    texts.append(degraded.text)
        text = "\n".join(texts)
    fr: dict[str, Any] = {}
    if not block.tool_use_id.startswith(SYNTHETIC_ID_PREFIX):
        fr["id"] = block.tool_use_id
    fr["name"] = name
    fr["response"] = {"error" if block.is_error else "output": text}
    if media:
        fr["parts"] = media
    return part("functionResponse", fr, block, policy, path)


def _call_part(block: ToolUseBlock, policy: Policy, path: str) -> dict[str, Any]:
    if block.invalid_arguments:
        # The call stays (its result needs it); it goes without the arguments it cannot carry.
        policy.refuse(
            "Gemini function call arguments must be a JSON object",
            f"{path}.arguments",
            block.arguments,
        )
    fc: dict[str, Any] = {}
    if not block.id.startswith(SYNTHETIC_ID_PREFIX):
        fc["id"] = block.id
    fc["name"] = block.name
    if block.input:
        fc["args"] = raw(block.input)
    return part("functionCall", fc, block, policy, path)


def _text_part(block: TextBlock, policy: Policy, path: str) -> dict[str, Any]:
    if block.citations:
        policy.refuse(
            "Gemini parts carry no citations (they are per candidate)",
            path + ".citations",
            block.citations,
        )
    out: dict[str, Any] = {"text": block.text}
    out.update(carried(block.extra, policy, path, "text", written=out, protected=("text",)))
    return out


def encode_part(
    block: Block, names: dict[str, str], policy: Policy, path: str
) -> dict[str, Any] | None:
    """A block as a part; ``names`` maps call ids seen so far to tool names."""
    match block:
        case TextBlock():
            return _text_part(block, policy, path)
        case ThinkingBlock():
            if block.signature is not None and block.provider != "google":
                return degrade(
                    policy, block, path, "Gemini replays only thought signatures Google produced"
                )
            out: dict[str, Any] = {"text": block.thinking, "thought": True}
            if block.signature is not None:
                out["thoughtSignature"] = block.signature
            out.update(carried(block.extra, policy, path, "thinking", written=out))
            return out
        case ToolUseBlock():
            names[block.id] = block.name
            return _call_part(block, policy, path)
        case ToolResultBlock():
            return _result_part(block, names, policy, path)
        case ImageBlock() | AudioBlock() | VideoBlock() | DocumentBlock():
            return encode_media(block, policy, path)
        case RawBlock() if refusal_text(block) is not None:
            return {"text": refusal_text(block)}
        case RawBlock():
            if ours(block):
                return dict(raw(block.data))
            return degrade(policy, block, path, "this raw block is not a Gemini part")
        case ServerToolUseBlock() | ServerToolResultBlock():
            part = encode_gemini(block, policy, path)
            return _text_part(part, policy, path) if isinstance(part, TextBlock) else part
        case _:
            assert_never(block)

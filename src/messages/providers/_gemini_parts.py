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

from .._core.frozen import EMPTY
from .._core.frozen import FrozenDict
from .._core.frozen import raw
from .._core.make import expose_owned
from .._core.make import maker
from .._core.make import wrap_owned
from .._core.slots import Slotted
from .._core.wire import extra
from .._core.wire import fail
from .._core.wire import opt_str
from ..blocks import AudioBlock
from ..blocks import Block
from ..blocks import ImageBlock
from ..blocks import RawBlock
from ..blocks import TextBlock
from ..blocks import ThinkingBlock
from ..blocks import ToolResultBlock
from ..blocks import ToolUseBlock
from ..errors import DecodeError
from ..media import parse_data_uri
from ..policy import Policy
from ._carry import carried
from ._carry import refusal_text
from ._formats import GEMINI
from ._formats import Place
from ._formats import raw_is_own

__all__ = [
    "CallIds",
    "DATA_KEYS",
    "SYNTHETIC_ID_PREFIX",
    "camel",
    "decode_part",
    "encode_part",
    "ours",
]

SYNTHETIC_ID_PREFIX: Final = "gemini_call_"
"""Ids made up for calls and results that came without one; never sent back to Gemini."""

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

_DATA_SET: Final = frozenset(DATA_KEYS)

_SNAKE: Final = {
    name: "".join(w if i == 0 else w.capitalize() for i, w in enumerate(name.split("_")))
    for name in (
        "inline_data",
        "file_data",
        "function_call",
        "function_response",
        "executable_code",
        "code_execution_result",
        "tool_call",
        "tool_response",
        "thought_signature",
        "video_metadata",
        "media_resolution",
        "part_metadata",
        "mime_type",
        "file_uri",
        "display_name",
        "partial_args",
        "will_continue",
        "system_instruction",
        "finish_reason",
        "finish_message",
        "safety_ratings",
        "citation_metadata",
        "grounding_metadata",
        "url_context_metadata",
        "avg_logprobs",
        "logprobs_result",
        "token_count",
        "continuation_token",
        "prompt_feedback",
        "usage_metadata",
        "model_version",
        "response_id",
        "create_time",
        "model_status",
        "prompt_token_count",
        "candidates_token_count",
        "total_token_count",
        "cached_content_token_count",
        "thoughts_token_count",
        "tool_use_prompt_token_count",
        "prompt_tokens_details",
        "candidates_tokens_details",
        "cache_tokens_details",
        "tool_use_prompt_tokens_details",
        "traffic_type",
    )
}


def camel(d: dict[str, Any]) -> dict[str, Any]:
    """``d`` with the known snake_case field names (proto style) renamed to camelCase."""
    if "_" not in "".join(d):  # one C call: no key has an underscore (keys are strings)
        return d
    out: dict[str, Any] = {}
    for k, v in d.items():
        name = _SNAKE.get(k, k)
        if name != k and name in d:
            name = k  # both spellings present: keep each as it is
        out[name] = v
    return out


class CallIds(Slotted):
    """Synthetic ids for the calls and responses of one body that came without ``id``.

    A call gets ``gemini_call_<tag><n>`` (``n`` counts from 0 in the body); a response gets
    the id of the earliest unanswered such call with the same name, or a fresh one.
    """

    __slots__ = ("_count", "_pending", "_tag")

    def __init__(self, tag: str = "") -> None:
        self._tag = tag
        self._count = 0
        self._pending: list[tuple[str, str]] = []

    def call(self, name: str) -> str:
        """A new synthetic id for an unnamed call."""
        made = f"{SYNTHETIC_ID_PREFIX}{self._tag}{self._count}"
        self._count += 1
        self._pending.append((name, made))
        return made

    def result(self, name: str | None) -> str:
        """The synthetic id of the call this id-less response answers (or a fresh one)."""
        for i, (called, made) in enumerate(self._pending):
            if called == name:
                del self._pending[i]
                return made
        made = f"{SYNTHETIC_ID_PREFIX}{self._tag}{self._count}"
        self._count += 1
        return made


# ---------------------------------------------------------------------------------- decoding


def _split(d: dict[str, Any], key: str, inner: dict[str, Any], known: frozenset[str]) -> Any:
    """Part-level extra plus ``{key: inner extra}`` when the data object has unmodelled keys."""
    outer = {k: v for k, v in d.items() if k != key}
    rest = {k: v for k, v in inner.items() if k not in known or v is None}
    if rest:
        outer[key] = rest
    return wrap_owned(outer) if outer else EMPTY


_BY_SUFFIX: Final = {
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
    "heic": "image/heic",
    "heif": "image/heif",
    "wav": "audio/wav",
    "mp3": "audio/mp3",
    "aiff": "audio/aiff",
    "aac": "audio/aac",
    "ogg": "audio/ogg",
    "flac": "audio/flac",
}
_BLOB: Final = frozenset(("mimeType", "data"))
_FILE: Final = frozenset(("mimeType", "fileUri"))
_CALL: Final = frozenset(("id", "name", "args"))
_RESPONSE: Final = frozenset(("id", "name", "response", "parts"))
_RESPONSE_DERIVED: Final = frozenset(("id", "name"))
_CALL_NO_ARGS: Final = _CALL - {"args"}
_TEXT_KEYS: Final = frozenset(("text",))
_THOUGHT_KEYS: Final = frozenset(("text", "thought", "thoughtSignature"))
_new_text: Final = maker(TextBlock)
_new_thinking: Final = maker(ThinkingBlock)
_new_tool_use: Final = maker(ToolUseBlock)
_new_result: Final = maker(ToolResultBlock)


def _media(d: dict[str, Any], key: str) -> Block:
    inner = d[key]
    if type(inner) is not dict:
        raise fail("an object", inner, key)
    inner = camel(inner)
    mime = inner.get("mimeType")
    ref = inner.get("data" if key == "inlineData" else "fileUri")
    if type(mime) is not str or type(ref) is not str:
        return RawBlock(wrap_owned({**d, key: inner}))
    cls: type[ImageBlock] | type[AudioBlock]
    if mime.startswith("image/"):
        cls = ImageBlock
    elif mime.startswith("audio/"):
        cls = AudioBlock
    else:  # video, PDF, text...: kept whole
        return RawBlock(wrap_owned({**d, key: inner}))
    ex = _split(d, key, inner, _BLOB if key == "inlineData" else _FILE)
    if key == "inlineData":
        return cls(data=ref, media_type=mime, extra=ex)
    return cls(file_id=ref, media_type=mime, extra=ex)


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
    ex = _split(d, "functionCall", fc, _CALL if args != {} else _CALL_NO_ARGS)
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
            isinstance(b, ImageBlock | AudioBlock) for b in media
        ):
            media, exact = [], False
    ex = _split(d, "functionResponse", fr, _RESPONSE if exact else _RESPONSE_DERIVED)
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
        return _media(d, key)
    if key == "functionCall":
        return _call(d, ids)
    if key == "functionResponse":
        return _function_response(d, ids)
    return RawBlock(wrap_owned(d))


# ---------------------------------------------------------------------------------- encoding


def ours(block: RawBlock) -> bool:
    """Whether a RawBlock holds a Gemini part (see ``_formats.raw_is_own``).

    That is an object whose keys are all camelCase names, without ``type`` (Gemini parts
    have none), with a data field besides the known metadata.
    """
    return raw_is_own(block.data, GEMINI)


def _inner(block_extra: Any, key: str) -> dict[str, Any]:
    v = block_extra.get(key)
    return dict(raw(v)) if isinstance(v, FrozenDict) else {}


def _part(
    data_key: str,
    inner: dict[str, Any],
    block: ImageBlock | AudioBlock | ToolUseBlock | ToolResultBlock,
    policy: Policy,
    path: str,
) -> dict[str, Any]:
    """A part with one data object: what the block models, then its extra inside and out."""
    place: Place = block.kind  # image, audio, tool_use, tool_result
    out: dict[str, Any] = {data_key: {**inner, **_inner(block.extra, data_key)}}
    out.update(carried(block.extra, policy, path, place, protected=(data_key,)))
    return out


def _media_part(block: ImageBlock | AudioBlock, policy: Policy, path: str) -> dict[str, Any] | None:
    mime = block.media_type
    if block.data is not None:
        mime = mime or block.resolved_media_type
        if mime is None:
            return _degrade(policy, block, path, "Gemini inline data needs a MIME type")
        return _part("inlineData", {"mimeType": mime, "data": block.data}, block, policy, path)
    if block.url is not None:
        uri = parse_data_uri(block.url)
        if uri is not None:
            if not uri.is_base64:
                return _degrade(
                    policy, block, path, "Gemini takes base64 data, not a text data URL"
                )
            inline = {"mimeType": mime or uri.media_type, "data": uri.data}
            return _part("inlineData", inline, block, policy, path)
        ref = block.url
    elif block.file_id is not None and "://" in block.file_id:
        ref = block.file_id
    elif block.file_id is not None:
        return _degrade(
            policy, block, path, "a file id of another provider is not a Gemini file URI"
        )
    else:
        return _degrade(policy, block, path, f"this {block.kind} has no data, URL or file")
    if mime is None:  # a guess from the name (``.png``), so the part decodes as this kind
        suffix = ref.split("?", 1)[0].rsplit("/", 1)[-1].rpartition(".")[2].lower()
        guess = _BY_SUFFIX.get(suffix)
        mime = guess if guess is not None and guess.startswith(block.kind + "/") else None
    inner = {"fileUri": ref} if mime is None else {"mimeType": mime, "fileUri": ref}
    return _part("fileData", inner, block, policy, path)


def _degrade(policy: Policy, block: Block, path: str, reason: str) -> dict[str, Any] | None:
    degraded = policy.degrade(block, path, reason)
    return None if degraded is None else {"text": degraded.text}


def _result_part(
    block: ToolResultBlock, names: dict[str, str], policy: Policy, path: str
) -> dict[str, Any] | None:
    if block.tool_use_id in policy.lost:
        return _degrade(policy, block, path, "a result for a call Gemini cannot carry")
    name = block.name if block.name is not None else names.get(block.tool_use_id)
    if name is None:
        return _degrade(
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
            elif isinstance(inner, ImageBlock | AudioBlock):
                part = _media_part(inner, policy, at)
                if part is not None and "text" in part:
                    texts.append(part["text"])
                elif part is not None:
                    media.append(part)
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
    return _part("functionResponse", fr, block, policy, path)


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
    return _part("functionCall", fc, block, policy, path)


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
                return _degrade(
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
        case ImageBlock() | AudioBlock():
            return _media_part(block, policy, path)
        case RawBlock() if refusal_text(block) is not None:
            return {"text": refusal_text(block)}
        case RawBlock():
            if ours(block):
                return dict(raw(block.data))
            return _degrade(policy, block, path, "this raw block is not a Gemini part")
        case _:
            assert_never(block)

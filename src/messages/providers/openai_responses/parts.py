"""OpenAI Responses items and content parts, both ways (private to ``openai_responses``).

Decoders take owned JSON (a fresh copy of the caller's body) and may wrap parts of it
without copying; encoders return dicts that may share nested values with the blocks. The
model-side items (calls, reasoning, assistant text) are written by ``encoder``.

Representation (see ``docs/providers/openai_responses.md`` for the full table):

- a ``message`` item from the caller's side (user, system, developer) is one role message:
  its item fields (``type``, ``id``, ``status``...) are the message's ``extra``;
- a ``function_call_output`` is a :class:`ToolResultBlock`; other ``*_output`` items and
  ``mcp_approval_response`` are :class:`RawBlock` items on the tool side;
- model-side items (``reasoning``, ``function_call``, assistant ``message`` items, every
  other item type) are blocks of one assistant turn, one block per item, except that an
  assistant message item gives one TextBlock per part; that item's own fields ride on its
  first TextBlock as ``extra["item"]`` (in a request always, even when empty: text without
  a record is written as string content; in a response only where ``{"type": "message"}``
  would not rebuild them);
- an assistant message item the blocks cannot mirror exactly (an unknown or media part,
  string content with other fields, no parts) is kept whole as a :class:`RawBlock`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any
from typing import Final
from typing import Literal

from ..._core.frozen import EMPTY
from ..._core.frozen import FrozenDict
from ..._core.frozen import raw
from ..._core.jsontext import parse_arguments
from ..._core.make import expose_owned
from ..._core.make import maker
from ..._core.make import wrap_owned
from ..._core.wire import encode_each
from ..._core.wire import extra
from ..._core.wire import fail
from ..._core.wire import opt_str
from ..._shapes.citations import read_citation
from ..._shapes.citations import write_citation
from ..._shapes.openai_files import file_document
from ...blocks import AudioBlock
from ...blocks import Block
from ...blocks import DocumentBlock
from ...blocks import ImageBlock
from ...blocks import RawBlock
from ...blocks import TextBlock
from ...blocks import ThinkingBlock
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...citations import Citation
from ...errors import DecodeError
from ...media import parse_data_uri
from ...media import to_data_uri
from ...policy import Policy
from .._carry import carried
from .._carry import failed_output
from .._carry import non_null
from .._formats import RESPONSES
from .._formats import fits
from .._formats import foreign_citations
from .._formats import raw_is_own
from .._formats import role_is_own
from .._openai_files import file_fields
from .._server_tools import decode_responses

__all__ = [
    "CALLER_KEYS",
    "CALL_KEYS",
    "ITEM_RECORD",
    "LOST_REASON",
    "Mode",
    "REASONING_REASON",
    "SIGNED_KEYS",
    "TEXT_TYPES",
    "TYPE_KEYS",
    "decode_fco",
    "decode_model_item",
    "decode_part",
    "decode_parts",
    "default_record",
    "encode_fco",
    "encode_input_parts",
    "encode_part",
    "is_caller_item",
    "item_record",
    "need_str",
    "ours",
    "replayable",
    "summary_parts",
    "text_part",
    "write_caller",
]

Mode = Literal["request", "response"]
"""Requests write minimal items; responses write output items (``type: "message"``)."""

ITEM_RECORD: Final = "item"
REASONING_REASON: Final = "OpenAI Responses replays only reasoning items OpenAI produced (with id)"
LOST_REASON: Final = "a result for a call OpenAI Responses cannot carry"
"""Key, in the first TextBlock of an assistant message item, holding that item's fields."""

TEXT_TYPES: Final = frozenset(("input_text", "output_text", "refusal"))
_TEXT: Final = frozenset(("type", "text", "annotations"))
_REFUSAL: Final = frozenset(("type", "refusal"))
_IMAGE: Final = frozenset(("type", "image_url", "file_id"))
_FILE: Final = frozenset(("type", "file_data", "file_id", "file_url", "filename"))
_REASONING: Final = frozenset(("type", "summary", "encrypted_content"))
CALL_KEYS: Final = frozenset(("type", "call_id", "name", "arguments"))
_OUTPUT: Final = frozenset(("type", "call_id", "output"))
CALLER_KEYS: Final = frozenset(("caller",))
TYPE_KEYS: Final = frozenset(("type",))
SIGNED_KEYS: Final = frozenset(("type", "encrypted_content"))
_ANNOTATIONS: Final = frozenset(("annotations",))
# Never taken from a text block's extra; other modelled keys only as the null of a wire
# field decoded as None (``carried`` leaves out a null the encoder wrote a value for).
_TEXT_OWN: Final = frozenset(("type", "text", "refusal", ITEM_RECORD))
# Makers: the decoders hand over checked, frozen values only (see _core/make.py).
_new_text: Final = maker(TextBlock)
_new_thinking: Final = maker(ThinkingBlock)
_new_tool_use: Final = maker(ToolUseBlock)
_new_result: Final = maker(ToolResultBlock)


def ours(block: RawBlock) -> bool:
    """Whether a RawBlock holds a Responses item or part.

    That is an object with a ``type`` of this format (see ``_formats.raw_is_own``), or an
    untyped message item (``role`` and ``content``) of a role Responses has.
    """
    data = block.data
    if block.provider is not None:
        return block.provider == RESPONSES
    if not isinstance(data, FrozenDict):
        return False
    if "type" not in data:
        role = data.get("role")
        return isinstance(role, str) and "content" in data and role_is_own(role, RESPONSES)
    return raw_is_own(data, RESPONSES)


def item_record(block: TextBlock) -> FrozenDict | None:
    """The fields of the assistant message item a TextBlock opens, when it holds some.

    ``extra["item"]`` is this format's only when it is an object of item fields, spelled
    like them, whose ``type`` (if any) is ``message``: a log's ``item`` record is not one.
    """
    record = block.extra.get(ITEM_RECORD)
    if not isinstance(record, FrozenDict) or record.get("type", "message") != "message":
        return None
    if "role" in record or "content" in record or not all(fits(k, RESPONSES) for k in record):
        return None
    return record


def replayable(block: ThinkingBlock) -> bool:
    """Whether a ThinkingBlock can be sent back as a ``reasoning`` item.

    OpenAI must have made it, and it must still have its item id (``rs_...``, required on
    input).
    """
    return block.provider == "openai" and isinstance(block.extra.get("id"), str)


def is_caller_item(tag: object) -> bool:
    """Item types the caller sends back (tool outputs, approvals): the tool side of a turn."""
    return isinstance(tag, str) and (tag.endswith("_output") or tag == "mcp_approval_response")


def need_str(d: dict[str, Any], key: str) -> str:
    """A required string: missing or anything but a string is a DecodeError."""
    if key not in d:
        raise DecodeError("expected a string, found nothing", path=f"$.{key}")
    v = d[key]
    if type(v) is not str:
        raise fail("a string", v, key)
    return v


# ---------------------------------------------------------------------------------- decoding


def _citations(d: dict[str, Any]) -> tuple[Citation, ...] | None:
    notes = d.get("annotations")
    if notes is None:
        return None
    if type(notes) is not list:
        raise fail("an array", notes, "annotations")
    for i, note in enumerate(notes):
        if type(note) is not dict:
            raise fail("an object", note, f"annotations[{i}]")
    return tuple([read_citation(n) for n in notes])


def _with_type(ex: FrozenDict, tag: str, default: str) -> FrozenDict:
    if tag == default:
        return ex
    return wrap_owned({"type": tag, **raw(ex)})


def decode_part(d: Any, default: str) -> Block:
    """One content part: text kinds to TextBlock, ``input_image`` to ImageBlock, else raw."""
    if type(d) is not dict:
        return RawBlock(expose_owned(d))
    tag = d.get("type")
    if tag in ("input_text", "output_text"):
        text = need_str(d, "text")
        return _new_text(text, _citations(d), _with_type(extra(d, _TEXT), tag, default))
    if tag == "refusal":
        text = need_str(d, "refusal")
        return _new_text(text, None, _with_type(extra(d, _REFUSAL), tag, ""))
    if tag == "input_image":
        ex = extra(d, _IMAGE)
        if "detail" not in d:  # written as it came: without the "auto" the encoder adds
            ex = wrap_owned({"type": tag, **raw(ex)})
        return ImageBlock(url=opt_str(d, "image_url"), file_id=opt_str(d, "file_id"), extra=ex)
    if tag == "input_file":
        return _input_file(d)
    return RawBlock(wrap_owned(d))


def _input_file(d: dict[str, Any]) -> Block:
    """An ``input_file`` part as a document; odd values keep it raw.

    ``file_data`` is a ``data:`` URL (kept in ``url``) or bare base64 (kept in ``data``);
    a part with both a ``data:`` URL and a ``file_url`` stays raw too.
    """
    known = {k: d[k] for k in _FILE if k in d and k != "type"}
    file_data, file_url = known.get("file_data"), known.get("file_url")
    is_uri = type(file_data) is str and parse_data_uri(file_data) is not None
    if (
        not known.keys() & {"file_data", "file_id", "file_url"}
        or any(type(v) is not str for v in known.values())
        or (is_uri and file_url is not None)
    ):
        return RawBlock(wrap_owned(d))
    return file_document(known, extra(d, _FILE))


def _file_part(block: DocumentBlock, policy: Policy, path: str) -> dict[str, Any] | None:
    """An ``input_file`` part; ``None`` when the document is not a file (text, content)."""
    fields = file_fields(block, policy, path, "file_url")
    if fields is None:
        return None
    out: dict[str, Any] = {"type": "input_file", **fields}
    out.update(carried(block.extra, policy, path, "document", written=out, protected=TYPE_KEYS))
    return out


def decode_parts(value: Any, default: str, key: str) -> str | tuple[Block, ...]:
    """A ``content``/``output`` value: a string, or an array of parts."""
    if type(value) is str:
        return value
    if type(value) is not list:
        raise fail("a string or an array", value, key)
    out = []
    for i, part in enumerate(value):
        try:
            out.append(decode_part(part, default))
        except DecodeError as exc:
            raise exc.within(f".{key}[{i}]") from None
    return tuple(out)


def _reasoning(d: dict[str, Any]) -> Block:
    summary = d.get("summary")
    if summary is None and "summary" not in d:
        return RawBlock(wrap_owned(d))  # nothing to rebuild it from: keep it whole
    if type(summary) is not list:
        raise fail("an array", summary, "summary")
    texts = [
        p["text"]
        for p in summary
        if type(p) is dict and p.get("type") == "summary_text" and type(p.get("text")) is str
    ]
    thinking = "\n\n".join(texts)
    ex = extra(d, _REASONING)
    if summary != summary_parts(thinking):
        ex = wrap_owned({**raw(ex), "summary": summary})
    return _new_thinking(thinking, opt_str(d, "encrypted_content"), False, "openai", ex)


def summary_parts(thinking: str) -> list[Any]:
    """The ``summary`` a reasoning item is written with for this thinking text."""
    return [{"type": "summary_text", "text": thinking}] if thinking else []


def _parse_arguments(text: str) -> FrozenDict:
    parsed = parse_arguments(text)
    return EMPTY if parsed is None else wrap_owned(parsed)


def _function_call(d: dict[str, Any]) -> Block:
    arguments = need_str(d, "arguments")
    call_id = need_str(d, "call_id")
    name = need_str(d, "name")
    return _new_tool_use(call_id, name, _parse_arguments(arguments), arguments, extra(d, CALL_KEYS))


def decode_fco(d: dict[str, Any]) -> Block:
    """A ``function_call_output`` item (one without ``call_id`` is kept raw)."""
    if "call_id" not in d or "output" not in d:
        return RawBlock(wrap_owned(d))
    call_id = need_str(d, "call_id")
    output = decode_parts(d["output"], "input_text", "output")
    return _new_result(call_id, output, None, None, extra(d, _OUTPUT))


def _assistant_message(d: dict[str, Any], mode: Mode, after_text: bool) -> list[Block]:
    content = d.get("content")
    if type(content) is not list:
        if type(content) is not str and content is not None:
            raise fail("a string or an array", content, "content")
        return [RawBlock(wrap_owned(d))]
    blocks: list[Block] = []
    for i, part in enumerate(content):
        tag = part.get("type") if type(part) is dict else None
        if type(tag) is not str or tag not in TEXT_TYPES:  # (a list is not hashable)
            return [RawBlock(wrap_owned(d))]
        try:
            blocks.append(decode_part(part, "output_text"))
        except DecodeError as exc:
            raise exc.within(f".content[{i}]") from None
    if not blocks:
        return [RawBlock(wrap_owned(d))]
    record = {k: v for k, v in d.items() if k not in ("role", "content")}
    # In a request, text without a record is written back as string content (the form the
    # SDK accepts): a list of parts keeps its record, even an empty one, to come back as is.
    if mode == "request" or after_text or record != default_record(mode):
        first = blocks[0]
        assert isinstance(first, TextBlock)
        blocks[0] = replace(first, extra=wrap_owned({**raw(first.extra), ITEM_RECORD: record}))
    return blocks


def default_record(mode: Mode) -> dict[str, Any]:
    """The fields of an assistant message item that need no record to be rebuilt."""
    return {"type": "message"} if mode == "response" else {}


def decode_model_item(d: dict[str, Any], mode: Mode, after_text: bool) -> list[Block]:
    """A model-side item as blocks (one, or one per part of an assistant message)."""
    tag = d.get("type")
    if tag == "reasoning":
        return [_reasoning(d)]
    if tag == "function_call":
        return [_function_call(d)]
    if (tag == "message" or (tag is None and "role" in d)) and d.get("role") == "assistant":
        return _assistant_message(d, mode, after_text)
    return decode_responses(d) or [RawBlock(wrap_owned(d))]


# ---------------------------------------------------------------------------------- encoding


def text_part(block: TextBlock, default: str, policy: Policy, path: str) -> dict[str, Any]:
    """A TextBlock as a text part (``default`` type unless it says ``refusal`` or another)."""
    tag = block.extra.get("type")
    if tag not in TEXT_TYPES or (tag == "refusal" and default != "output_text"):
        tag = default  # a refusal is the model's: in a user message it is plain input text
    out: dict[str, Any]
    if tag == "refusal":
        out = {"type": "refusal", "refusal": block.text}
    else:
        out = {"type": tag, "text": block.text}
        citations = block.citations
        if citations is not None and tag == "input_text" and not citations:
            pass  # an input part has no annotations, and there are none to carry
        elif citations is not None:
            if tag == "input_text" or foreign_citations(citations, RESPONSES):
                policy.refuse(
                    "these citations cannot become OpenAI annotations",
                    path + ".citations",
                    citations,
                )
            else:
                out["annotations"] = [write_citation(c, nested=False) for c in citations]
    protected = _TEXT_OWN | non_null(block.extra, _ANNOTATIONS)
    out.update(carried(block.extra, policy, path, "text", written=out, protected=protected))
    return out


def _image_part(block: ImageBlock, policy: Policy, path: str) -> dict[str, Any] | None:
    out: dict[str, Any] = {"type": "input_image"}
    url, file_id = block.url, block.file_id
    if url is None and block.data is not None:
        url = to_data_uri(block.resolved_media_type or "application/octet-stream", block.data)
    if file_id is not None and "://" in file_id and url is None:
        url, file_id = file_id, None  # a URI (Gemini fileUri) is a URL to OpenAI
    if url is None and file_id is None:
        return None
    if url is not None:
        out["image_url"] = url
    if file_id is not None:
        out["file_id"] = file_id
    if "detail" not in block.extra and block.extra.get("type") != "input_image":
        # The SDK requires ``detail``; the API's default is "auto". A part decoded without
        # one carries ``type`` in extra and is written back without it.
        out["detail"] = "auto"
    protected = TYPE_KEYS | non_null(block.extra, _IMAGE)
    out.update(carried(block.extra, policy, path, "image", written=out, protected=protected))
    return out


def encode_part(block: Block, default: str, policy: Policy, path: str) -> dict[str, Any] | None:
    """A block that can be a message part (text, image, one of our raw parts); else policy."""
    match block:
        case TextBlock():
            return text_part(block, default, policy, path)
        case ImageBlock():
            part = _image_part(block, policy, path)
            if part is not None:
                return part
            degraded = policy.degrade(block, path, "an image needs data, a URL or a file id")
        case RawBlock() if ours(block):
            return dict(raw(block.data))
        case DocumentBlock():
            part = _file_part(block, policy, path)
            if part is not None:
                return part
            what = "a text document" if block.text is not None else "this document"
            why = f"OpenAI Responses cannot carry {what} (files only)"
            degraded = policy.degrade(block, path, why)
        case AudioBlock():
            degraded = policy.degrade(block, path, "OpenAI Responses has no audio input part")
        case RawBlock():
            degraded = policy.degrade(block, path, "this raw block is not an OpenAI Responses part")
        case _:
            degraded = policy.degrade(block, path, f"a {block.kind} block cannot be a content part")
    return None if degraded is None else text_part(degraded, default, policy, path)


def encode_input_parts(
    blocks: tuple[Block, ...], default: str, policy: Policy, path: str
) -> list[Any]:
    """Blocks as the parts of one message or one tool output."""
    return encode_each(
        enumerate(blocks), lambda b, p, at: encode_part(b, default, p, at), policy, path
    )


def encode_fco(block: ToolResultBlock, policy: Policy, path: str) -> dict[str, Any]:
    """A ToolResultBlock as a ``function_call_output`` item."""
    content = block.content
    output: Any = (
        content
        if isinstance(content, str)
        else encode_input_parts(content, "input_text", policy, path + ".content")
    )
    if block.is_error:
        policy.refuse(
            "OpenAI Responses cannot mark a tool output as an error",
            path + ".is_error",
            block.is_error,
        )
        if policy.mode == "text":
            output = failed_output(block.tool_use_id, output, "input_text")
    out = {"type": "function_call_output", "call_id": block.tool_use_id, "output": output}
    protected = _OUTPUT | CALLER_KEYS
    out.update(carried(block.extra, policy, path, "tool_result", written=out, protected=protected))
    write_caller(block.extra, out)
    return out


def write_caller(extra: Mapping[str, Any], out: dict[str, Any]) -> None:
    """Write ``caller`` when it is one Responses has.

    That is ``direct``, or ``program`` with its ``caller_id``, or the wire's null.
    Anthropic's ``caller`` (``code_execution_...``) is a record of that format and is left
    out, as its other record fields are.
    """
    if "caller" not in extra:
        return
    value = extra["caller"]
    kind = value.get("type") if isinstance(value, FrozenDict) else None
    if (
        value is None
        or kind == "direct"
        or (kind == "program" and isinstance(value.get("caller_id"), str))
    ):
        out["caller"] = raw(value)

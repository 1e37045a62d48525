"""Test helpers for the provider codecs: fixtures, views and one validator per provider.

The validators (``check_anthropic``, ``check_chat``, ``check_responses``, ``check_gemini``)
check what each API requires of a request: shapes, roles, alternation where required, and
the placement of tool results after their calls; with ``paired=True`` also that every call
is answered and every result answers a call; with ``known=True`` also that every key and
type is one the API documents (the names the fixtures invent for "a field of the future"
aside, see ``INVENTED``). The views reduce a conversation to what a codec must preserve, so
"decode(encode(x)) equals x modulo the documented normalisations" can be stated as
``view(decode(encode(x))) == view(x)``. ``check_unsupported`` and ``check_response_survives``
state the policy and response laws once for the tests that apply them. Strategies live in
``provider_strategies``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from messages import AssistantMessage
from messages import AudioBlock
from messages import Block
from messages import DocumentBlock
from messages import ImageBlock
from messages import Message
from messages import RawBlock
from messages import ServerToolResultBlock
from messages import ServerToolUseBlock
from messages import SystemMessage
from messages import TextBlock
from messages import ThinkingBlock
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UnsupportedContentError
from messages import VideoBlock
from messages import thaw
from messages.errors import HINT
from messages.media import parse_data_uri
from messages.providers import get
from messages.providers._carry import as_turns

FIXTURES = Path(__file__).parents[1] / "fixtures"
SYNTH = "gemini_call_"


def load(area: str, name: str) -> Any:
    """A hand-made fixture: a JSON file, or a JSON Lines file as a list."""
    path = FIXTURES / area / name
    if name.endswith(".jsonl"):
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return json.loads(path.read_text())


def fixture_names(area: str, prefix: str, suffix: str = ".json") -> list[str]:
    """Names of the fixtures of one kind, sorted."""
    return sorted(p.name for p in (FIXTURES / area).glob(f"{prefix}*{suffix}"))


# ------------------------------------------------------------------------------------ views


def _media(block: ImageBlock | AudioBlock | DocumentBlock | VideoBlock) -> tuple[Any, ...]:
    if isinstance(block, DocumentBlock):
        return (*_source(block), block.filename or block.title)
    if isinstance(block, VideoBlock):
        return (*_source(block), block.start_offset, block.end_offset, block.fps)
    return _source(block)


def _source(block: ImageBlock | AudioBlock | DocumentBlock | VideoBlock) -> tuple[Any, ...]:
    if block.data is not None:
        return (block.kind, block.resolved_media_type, block.data)
    if block.url is not None:
        uri = parse_data_uri(block.url)
        if uri is not None and uri.is_base64:
            return (block.kind, block.media_type or uri.media_type, uri.data)
        return (block.kind, block.url)
    return (block.kind, block.file_id)


def _args(block: ToolUseBlock) -> str:
    if block.arguments is not None:
        return block.arguments
    return json.dumps(thaw(block.input), ensure_ascii=False, separators=(",", ":"))


def _summary(block: Block, side: str, *, gemini: bool) -> tuple[Any, ...]:
    match block:
        case TextBlock():
            return ("text", side, block.text)
        case ThinkingBlock():
            return ("thinking", block.thinking, block.signature)
        case ToolUseBlock():
            if gemini:
                return ("call", block.id, block.name, thaw(block.input))
            return ("call", block.id, block.name, _args(block))
        case ToolResultBlock():
            if gemini:  # one output string: empty text blocks carry nothing (no "\n" for them)
                return ("result", block.tool_use_id, _said(block), bool(block.is_error))
            return ("result", block.tool_use_id, block.text)
        case ImageBlock() | AudioBlock() | DocumentBlock() | VideoBlock():
            return _media(block)
        case RawBlock():
            return ("raw", thaw(block.data))
        case ServerToolUseBlock():
            return ("server call", block.id, block.name, thaw(block.input))
        case ServerToolResultBlock():
            return ("server result", block.tool_use_id, block.tool, thaw(block.content))
    raise AssertionError(block)


def _said(result: ToolResultBlock) -> str:
    """A result's text as one string, its empty text blocks left out."""
    if isinstance(result.content, str):
        return result.content
    return "\n".join(b.text for b in result.content if isinstance(b, TextBlock) and b.text)


def view(conversation: list[Message] | tuple[Message, ...], *, gemini: bool) -> list[Any]:
    """What a codec must keep: the blocks in order, with the side that spoke them."""
    out: list[Any] = []
    for turn in as_turns(conversation):
        if isinstance(turn, SystemMessage):
            if gemini:
                out.extend(("system", b.text) for b in turn.blocks if isinstance(b, TextBlock))
            else:  # text blocks joined by newlines, empty ones left out (they carry nothing)
                said = [b.text for b in turn.blocks if isinstance(b, TextBlock) and b.text]
                out.append(("system", turn.role, "\n".join(said)))
            continue
        if gemini:
            side = "model" if isinstance(turn, AssistantMessage) else "user"
        else:
            side = "assistant" if isinstance(turn, AssistantMessage) else "user"
        out.extend(_summary(b, side, gemini=gemini) for b in turn.blocks)
    return out


def texts_in(value: Any) -> Iterator[str]:
    """Every string in a wire body, and every ``text`` of a part in it."""
    if isinstance(value, dict):
        if value.get("type") == "text":
            yield value["text"]
        for inner in value.values():
            yield from texts_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from texts_in(inner)
    elif isinstance(value, str):
        yield value


def check_unsupported(
    name: str, conversation: list[Message], path: str, reason: str, described: str | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """One case of the ``unsupported`` policy, for the provider called ``name``.

    Under ``"raise"``: an UnsupportedContentError at ``path`` saying ``reason`` and the one
    hint. ``"drop"`` and ``"text"`` do not raise; with ``described``, the words
    ``describe()`` gives are nowhere in the dropped body and somewhere in the texted one.
    Returns the two bodies, for the checks a format adds.
    """
    codec = get(name)
    with pytest.raises(UnsupportedContentError) as info:
        codec.encode_request(conversation)
    assert info.value.path == path
    assert str(info.value) == f"{name}: {path}: {reason} {HINT}"
    dropped = codec.encode_request(conversation, unsupported="drop")
    texted = codec.encode_request(conversation, unsupported="text")
    if described is not None:
        assert described not in texts_in(dropped)
        assert described in texts_in(texted)
    return dropped, texted


def check_response_survives(name: str, message: AssistantMessage, usage: tuple[str, ...]) -> None:
    """``decode_response(encode_response(message))`` keeps the content (as :func:`view` sees
    it), the response fields and the ``usage`` counts named."""
    codec = get(name)
    back = codec.decode_response(codec.encode_response(message))
    gemini = name == "gemini"
    assert view([back], gemini=gemini) == view([message], gemini=gemini)
    assert (back.model, back.message_id, back.stop_reason, back.timestamp) == (
        message.model,
        message.message_id,
        message.stop_reason,
        message.timestamp,
    )
    if message.usage is not None:
        assert back.usage is not None
        for field in usage:
            assert getattr(back.usage, field) == getattr(message.usage, field)


# ------------------------------------------------------------------------------- validators

INVENTED = frozenset(
    (
        "x_future_field",
        "future_block_type",
        "future_block",
        "galaxy_brain_call",
        "brand_new_part",
        "future_part",
        "x_future",
        "x_new",
        "meta",
    )
)
"""Names the hand-made fixtures and the test strategies invent for fields and types no API
has yet (``texts()`` here, ``messages.strategies.conversations(rich=True)``). No format's
table lists them, so an encoder takes them for the target's own (the documented rule); a
``known=True`` validator lets exactly these through."""


def _keys(obj: dict[str, Any], allowed: set[str], where: str, known: bool) -> None:
    if known:
        extra = set(obj) - allowed - INVENTED
        assert not extra, f"{where}: unknown keys {sorted(extra)}"


def is_paired(conversation: list[Message] | tuple[Message, ...]) -> bool:
    """Whether every tool call is answered once, later, and every result answers a call.

    Calls kept raw (a Chat custom call) count by their ``id``/``call_id``.
    """
    from messages.providers._carry import request_turns

    calls: list[str] = []
    answered: list[str] = []
    for turn in request_turns(conversation):
        for block in turn.blocks if hasattr(turn, "blocks") else ():
            if isinstance(block, ToolUseBlock):
                calls.append(block.id)
            elif isinstance(block, RawBlock) and isinstance(turn, AssistantMessage):
                data = thaw(block.data)
                ids = [data.get(k) for k in ("id", "call_id")] if isinstance(data, dict) else []
                calls.extend(i for i in ids if isinstance(i, str) and i not in calls)
            elif isinstance(block, ToolResultBlock):
                if block.tool_use_id not in calls or block.tool_use_id in answered:
                    return False
                answered.append(block.tool_use_id)
    tool_calls = {b.id for t in as_turns(conversation) for b in t.blocks if b.kind == "tool_use"}
    return tool_calls <= set(answered) and len(set(calls)) == len(calls)


# Anthropic Messages

_A_CITATIONS = {
    "char_location",
    "page_location",
    "content_block_location",
    "web_search_result_location",
    "search_result_location",
}
_A_BLOCK_KEYS = {
    "text": {"type", "text", "citations", "cache_control"},
    "image": {"type", "source", "cache_control"},
    "thinking": {"type", "thinking", "signature"},
    "redacted_thinking": {"type", "data"},
    "tool_use": {"type", "id", "name", "input", "cache_control", "caller"},
    "tool_result": {"type", "tool_use_id", "content", "is_error", "cache_control"},
}
_A_IMAGE_TYPES = ("image/jpeg", "image/png", "image/gif", "image/webp")
_A_USER = {"text", "image", "document", "search_result", "tool_result", "container_upload"}
_A_ASSISTANT = {"text", "thinking", "redacted_thinking", "tool_use", "server_tool_use"}
_A_ASSISTANT |= {"mcp_tool_use", "mcp_tool_result", "compaction"}


def _a_block(block: Any, role: str, where: str, known: bool) -> None:
    assert isinstance(block, dict) and isinstance(block.get("type"), str), where
    kind = block["type"]
    if known:
        allowed = _A_USER if role == "user" else _A_ASSISTANT
        server_result = role == "assistant" and kind.endswith("_tool_result")
        assert kind in allowed or server_result or kind in INVENTED, f"{where}: {kind} in {role}"
    if kind in _A_BLOCK_KEYS:
        _keys(block, _A_BLOCK_KEYS[kind], where, known)
    if kind == "text":
        assert isinstance(block["text"], str), where
        for citation in block.get("citations") or ():
            assert citation.get("type") in _A_CITATIONS, f"{where}: citation {citation}"
    elif kind == "image" and known:
        source = block["source"]
        assert source.get("type") in ("base64", "url", "file"), where
        if source["type"] == "base64":
            assert source.get("media_type") in _A_IMAGE_TYPES, where
            assert isinstance(source.get("data"), str), where
    elif kind == "tool_use":
        assert isinstance(block["id"], str) and isinstance(block["name"], str), where
        assert isinstance(block["input"], dict), where
    elif kind == "tool_result":
        assert isinstance(block["tool_use_id"], str), where
        content = block.get("content", "")
        if isinstance(content, list):
            for j, inner in enumerate(content):
                _a_block(inner, "user", f"{where}.content[{j}]", known)
                assert inner["type"] in ("text", "image", "search_result", "document"), where
        else:
            assert isinstance(content, str), where
        assert block.get("is_error") in (None, True, False), where


def check_anthropic(body: dict[str, Any], *, paired: bool = False, known: bool = False) -> None:
    """Assert that ``body`` is a valid Messages API request.

    Consecutive turns of one role are merged by the server, so a "turn" is a run of them.
    Tool results open the user turn right after the assistant turn holding their call.
    """
    assert set(body) <= {"system", "messages"}, body.keys()
    system = body.get("system")
    if isinstance(system, list):
        for j, block in enumerate(system):
            assert block.get("type") == "text", f"system[{j}]"
            _a_block(block, "user", f"system[{j}]", known)
    else:
        assert system is None or isinstance(system, str)
    messages = body["messages"]
    assert isinstance(messages, list)
    runs: list[tuple[str, list[Any]]] = []
    for i, message in enumerate(messages):
        where = f"messages[{i}]"
        _keys(message, {"role", "content"}, where, known)
        role = message.get("role")
        if known:
            assert role in ("user", "assistant"), f"{where}: role {role!r}"
        elif role not in ("user", "assistant"):
            continue  # a message of a role the codec writes back as it came
        content = message["content"]
        if isinstance(content, str):
            blocks: list[Any] = [{"type": "text", "text": content}]
        else:
            assert isinstance(content, list), where
            blocks = content
        for j, block in enumerate(blocks):
            _a_block(block, role, f"{where}.content[{j}]", known)
            kind = block["type"]
            if kind in ("tool_use", "thinking", "redacted_thinking"):
                assert role == "assistant", f"{where}: {kind} in {role}"
            if kind in ("tool_result", "image"):
                assert role == "user", f"{where}: {kind} in {role}"
        if runs and runs[-1][0] == role:
            runs[-1][1].extend(blocks)
        else:
            runs.append((role, list(blocks)))
    asked: dict[str, int] = {}
    for r, (role, blocks) in enumerate(runs):
        for block in blocks:
            if block["type"] == "tool_use":
                asked[block["id"]] = r
        if role != "user":
            continue
        kinds = [b["type"] for b in blocks]
        first_other = next((k for k, t in enumerate(kinds) if t != "tool_result"), len(kinds))
        assert "tool_result" not in kinds[first_other:], f"run {r}: results not first: {kinds}"
        for block in blocks:
            if block["type"] == "tool_result":
                call = asked.get(block["tool_use_id"])
                if call is not None or paired:
                    assert call == r - 1, f"run {r}: {block['tool_use_id']} not after its call"
        if paired and r > 0 and runs[r - 1][0] == "assistant":
            calls = {b["id"] for b in runs[r - 1][1] if b["type"] == "tool_use"}
            got = {b["tool_use_id"] for b in blocks if b["type"] == "tool_result"}
            assert calls <= got, f"run {r}: calls {sorted(calls - got)} not answered"
    if paired and runs and runs[-1][0] == "assistant":
        assert not any(b["type"] == "tool_use" for b in runs[-1][1]), "last calls not answered"


# OpenAI Chat Completions

_C_PART_KEYS = {
    "text": {"type", "text", "prompt_cache_breakpoint"},
    "image_url": {"type", "image_url"},
    "input_audio": {"type", "input_audio"},
    "file": {"type", "file"},
    "refusal": {"type", "refusal"},
}
_C_MESSAGE_KEYS = {
    "system": {"role", "content", "name"},
    "developer": {"role", "content", "name"},
    "user": {"role", "content", "name"},
    "assistant": {"role", "content", "name", "refusal", "tool_calls", "audio", "function_call"},
    "tool": {"role", "content", "tool_call_id"},
}
_C_PARTS = {
    "system": {"text"},
    "developer": {"text"},
    "user": {"text", "image_url", "input_audio", "file"},
    "assistant": {"text", "refusal"},
    "tool": {"text"},
}


def _c_parts(content: Any, role: str, where: str, known: bool) -> None:
    if isinstance(content, str) or (content is None and role == "assistant"):
        return
    assert isinstance(content, list), where
    for j, part in enumerate(content):
        at = f"{where}.content[{j}]"
        assert isinstance(part, dict) and isinstance(part.get("type"), str), at
        kind = part["type"]
        if known:
            assert kind in _C_PARTS[role] or kind in INVENTED, f"{at}: {kind} in {role}"
            if kind in _C_PART_KEYS:
                _keys(part, _C_PART_KEYS[kind], at, known)
        if kind == "text":
            assert isinstance(part["text"], str), at
        elif kind == "image_url":
            assert isinstance(part["image_url"]["url"], str), at
            _keys(part["image_url"], {"url", "detail"}, at, known)
        elif kind == "input_audio":
            assert part["input_audio"]["format"] in ("wav", "mp3"), at
            assert isinstance(part["input_audio"]["data"], str), at


def check_chat(body: dict[str, Any], *, paired: bool = False, known: bool = False) -> None:
    """Assert that ``body`` is a valid Chat Completions request.

    Every ``tool`` message sits in the run of tool messages right after the assistant
    message whose ``tool_calls`` hold its id.
    """
    assert set(body) == {"messages"}, body.keys()
    messages = body["messages"]
    pending: set[str] = set()
    last_calls: set[str] = set()
    for i, message in enumerate(messages):
        where = f"messages[{i}]"
        role = message.get("role")
        if role not in _C_MESSAGE_KEYS:
            assert not known, f"{where}: role {role!r}"
            continue
        _keys(message, _C_MESSAGE_KEYS[role], where, known)
        _c_parts(message.get("content"), role, where, known)
        if role != "tool" and paired:
            assert not pending, f"{where}: calls {sorted(pending)} not answered before it"
        if role == "assistant":
            keys = ("content", "tool_calls", "audio", "refusal", "function_call")
            assert any(message.get(k) not in (None, []) for k in keys) or "content" in message
            calls = message.get("tool_calls", [])
            assert isinstance(calls, list) and (calls or "tool_calls" not in message), where
            last_calls = set()
            for call in calls:
                assert isinstance(call["id"], str), where
                if call.get("type") == "function":
                    _keys(call, {"id", "type", "function"}, where, known)
                    assert isinstance(call["function"]["name"], str), where
                    assert isinstance(call["function"]["arguments"], str), where
                else:
                    assert call.get("type") == "custom", where
                last_calls.add(call["id"])
            pending = set(last_calls)
        elif role == "tool":
            call_id = message["tool_call_id"]
            assert isinstance(call_id, str), where
            earlier = any(
                call_id in {c.get("id") for c in m.get("tool_calls", ())}
                for m in messages[:i]
                if m.get("role") == "assistant"
            )
            if earlier or paired:
                assert call_id in last_calls, f"{where}: {call_id} not right after its call"
            pending.discard(call_id)
        else:
            last_calls = set()
    if paired:
        assert not pending, f"calls {sorted(pending)} never answered"


# OpenAI Responses

_R_INPUT_PARTS = {
    "input_text": {"type", "text", "prompt_cache_breakpoint"},
    "input_image": {"type", "image_url", "file_id", "detail"},
    "input_file": {"type", "file_id", "file_data", "file_url", "filename"},
}
_R_OUTPUT_PARTS = {
    "output_text": {"type", "text", "annotations", "logprobs", "prompt_cache_breakpoint"},
    "refusal": {"type", "refusal"},
}
_R_ITEM_KEYS = {
    "message": {"type", "role", "content", "id", "status", "phase"},
    "function_call": {
        *("type", "id", "call_id", "name", "arguments", "status", "namespace", "caller"),
    },
    "function_call_output": {
        *("type", "id", "call_id", "output", "status", "caller", "name", "namespace"),
    },
    "reasoning": {"type", "id", "summary", "encrypted_content", "content", "status"},
}
_R_OTHER_ITEMS = {"web_search_call", "file_search_call", "computer_call", "computer_call_output"}
_R_OTHER_ITEMS |= {"code_interpreter_call", "image_generation_call", "custom_tool_call"}
_R_OTHER_ITEMS |= {"custom_tool_call_output", "mcp_call", "mcp_list_tools", "compaction"}
_R_OTHER_ITEMS |= {"mcp_approval_request", "mcp_approval_response", "item_reference"}
_R_MODEL_ITEMS = {"reasoning", "function_call"}


def _check_input_part(part: Any, where: str, known: bool = False) -> None:
    assert isinstance(part, dict), where
    tag = part.get("type")
    assert isinstance(tag, str), f"{where}: part without type"
    if tag == "input_text":
        assert isinstance(part.get("text"), str), where
    elif tag == "input_image":
        assert isinstance(part.get("image_url"), str) or isinstance(part.get("file_id"), str), where
    assert tag not in ("output_text", "refusal"), f"{where}: output part outside assistant"
    if known:
        assert tag in _R_INPUT_PARTS or tag in INVENTED, f"{where}: part {tag}"
        _keys(part, _R_INPUT_PARTS.get(tag, set(part)), where, known)


def check_responses(body: dict[str, Any], *, paired: bool = False, known: bool = False) -> None:
    """Assert that ``body`` is a valid Responses request (pairing too when ``paired``).

    Outputs answer the calls of the run of model-side items before them, before any other
    input comes.
    """
    assert set(body) <= {"instructions", "input"}, body.keys()
    if "instructions" in body:
        assert isinstance(body["instructions"], str)
    items = body.get("input", [])
    if isinstance(items, str):
        return
    assert isinstance(items, list)
    pending: list[str] = []
    in_model_run = False
    for i, item in enumerate(items):
        where = f"input[{i}]"
        assert isinstance(item, dict), where
        tag = item.get("type")
        message = tag in (None, "message")
        if known:
            kind = "message" if message else tag
            assert kind in _R_ITEM_KEYS or kind in _R_OTHER_ITEMS or kind in INVENTED, where
            _keys(item, _R_ITEM_KEYS.get(kind, set(item)), where, known)
        model_side = tag in _R_MODEL_ITEMS or (message and item.get("role") == "assistant")
        if paired and tag != "function_call_output" and (not model_side or not in_model_run):
            assert not pending, f"{where}: calls {pending} not answered before this item"
        in_model_run = model_side
        if message:
            role = item.get("role")
            assert role in ("user", "assistant", "system", "developer"), where
            content = item.get("content")
            assert isinstance(content, str | list), where
            if isinstance(content, list):
                for j, part in enumerate(content):
                    at = f"{where}.content[{j}]"
                    if role == "assistant":
                        assert isinstance(part, dict), where
                        assert part.get("type") in _R_OUTPUT_PARTS, where
                        _keys(part, _R_OUTPUT_PARTS[part["type"]], at, known)
                        if part["type"] == "output_text":
                            assert isinstance(part.get("text"), str), where
                            notes = part.get("annotations")
                            assert notes is None or isinstance(notes, list), where
                    else:
                        _check_input_part(part, at, known)
        elif tag == "function_call":
            for key in ("call_id", "name", "arguments"):
                assert isinstance(item.get(key), str), f"{where}.{key}"
            pending.append(item["call_id"])
        elif tag == "function_call_output":
            assert isinstance(item.get("call_id"), str), where
            output = item.get("output")
            assert isinstance(output, str | list), where
            if isinstance(output, list):
                for j, part in enumerate(output):
                    _check_input_part(part, f"{where}.output[{j}]", known)
            if paired:
                assert item["call_id"] in pending, f"{where}: output without a pending call"
                pending.remove(item["call_id"])
        elif tag == "reasoning":
            assert isinstance(item.get("id"), str), f"{where}: reasoning without id"
            summary = item.get("summary")
            assert isinstance(summary, list), where
            for part in summary:
                assert part.get("type") == "summary_text" and isinstance(part.get("text"), str)
    if paired:
        assert not pending, f"calls {pending} never answered"


# Gemini

_METADATA = {"thought", "thoughtSignature", "videoMetadata", "mediaResolution", "partMetadata"}
_DATA = (
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
_G_INNER = {
    "inlineData": {"mimeType", "data", "displayName"},
    "fileData": {"mimeType", "fileUri", "displayName"},
    "functionCall": {"id", "name", "args"},
    "functionResponse": {"id", "name", "response", "parts"},
}


def _check_part(part: Any, role: str, where: str, known: bool = False) -> None:
    assert isinstance(part, dict), where
    data = [k for k in _DATA if k in part]
    assert len(data) <= 1, f"{where}: data fields {data}"
    assert [k for k in part if k not in _METADATA], f"{where}: no data field"
    assert all(re.fullmatch(r"[a-z][A-Za-z0-9]*", k) for k in part), f"{where}: {list(part)}"
    assert not any(k in part for k in ("type", "id", "status", "cache_control")), where
    if known:
        assert len(data) == 1, f"{where}: unknown part {list(part)}"
        _keys(part, {*data, *_METADATA}, where, known)
        if data[0] in _G_INNER:
            _keys(part[data[0]], _G_INNER[data[0]], f"{where}.{data[0]}", known)
    if "thoughtSignature" in part:
        assert isinstance(part["thoughtSignature"], str), where
    if "thought" in part:
        assert part["thought"] is True and "text" in part, where
    if "text" in part:
        assert isinstance(part["text"], str), where
    elif "inlineData" in part:
        blob = part["inlineData"]
        assert isinstance(blob.get("mimeType"), str) and isinstance(blob.get("data"), str), where
    elif "fileData" in part:
        assert isinstance(part["fileData"].get("fileUri"), str), where
        assert "://" in part["fileData"]["fileUri"], where
    elif "functionCall" in part:
        assert role == "model", f"{where}: a call in a {role} content"
        call = part["functionCall"]
        assert isinstance(call.get("name"), str), where
        assert isinstance(call.get("args", {}), dict), where
        assert not str(call.get("id", "")).startswith(SYNTH), f"{where}: synthetic id sent"
    elif "functionResponse" in part:
        assert role == "user", f"{where}: a response in a {role} content"
        response = part["functionResponse"]
        assert isinstance(response.get("name"), str), where
        assert isinstance(response.get("response"), dict), where
        assert not str(response.get("id", "")).startswith(SYNTH), f"{where}: synthetic id sent"


def check_gemini(body: dict[str, Any], *, paired: bool = False, known: bool = False) -> None:
    """Assert that ``body`` is a valid Gemini request (pairing too when ``paired``).

    User and model contents alternate; the function responses answering a model content's
    calls are in the next (user) content.
    """
    assert set(body) <= {"systemInstruction", "contents"}, body.keys()
    if "systemInstruction" in body:
        system = body["systemInstruction"]
        _keys(system, {"parts", "role"}, "systemInstruction", known)
        assert system["parts"], "empty systemInstruction"
        for part in system["parts"]:
            assert isinstance(part.get("text"), str), part
            assert not any(k in part for k in _DATA if k != "text"), part
            assert "thought" not in part, part
    contents = body["contents"]
    assert isinstance(contents, list)
    previous = None
    for i, content in enumerate(contents):
        where = f"contents[{i}]"
        _keys(content, {"role", "parts"}, where, known)
        role = content.get("role", "user")
        assert role in ("user", "model"), where
        assert role != previous, f"{where}: two {role} contents in a row"
        previous = role
        parts = content.get("parts")
        assert isinstance(parts, list) and parts, f"{where}: no parts"
        for j, part in enumerate(parts):
            _check_part(part, role, f"{where}.parts[{j}]", known)
        if not paired:
            continue
        calls = [p["functionCall"]["name"] for p in parts if "functionCall" in p]
        answers = [p["functionResponse"]["name"] for p in parts if "functionResponse" in p]
        if answers:
            before = contents[i - 1] if i else {"parts": []}
            asked = [p["functionCall"]["name"] for p in before["parts"] if "functionCall" in p]
            assert Counter(asked) == Counter(answers), f"{where}: answers {answers} for {asked}"
        if calls:
            assert i + 1 < len(contents), f"{where}: calls never answered"
            after = contents[i + 1]["parts"]
            got = [p["functionResponse"]["name"] for p in after if "functionResponse" in p]
            assert Counter(got) == Counter(calls), f"{where}: {calls} answered by {got}"


_BEDROCK_BLOCKS = {
    *("text", "image", "document", "video", "audio", "toolUse", "toolResult", "guardContent"),
    *("cachePoint", "reasoningContent", "citationsContent", "searchResult"),
}
_BEDROCK_ID = re.compile(r"[a-zA-Z0-9_-]{1,64}")


def _bedrock_block(block: Any, where: str, known: bool) -> None:
    assert isinstance(block, dict) and len(block) == 1, f"{where}: not one member: {block}"
    ((key, value),) = block.items()
    if known:
        assert key in _BEDROCK_BLOCKS or key in INVENTED, f"{where}: unknown member {key!r}"
    if key == "text":
        assert isinstance(value, str) and value.strip(), f"{where}: blank text"
    elif key == "toolUse":
        assert _BEDROCK_ID.fullmatch(value["toolUseId"]), f"{where}: id {value['toolUseId']!r}"
        assert isinstance(value["name"], str) and isinstance(value["input"], dict), where
    elif key == "toolResult":
        assert _BEDROCK_ID.fullmatch(value["toolUseId"]), f"{where}: id {value['toolUseId']!r}"
        assert isinstance(value["content"], list), where
        assert value.get("status", "success") in ("success", "error"), where
        for k, inner in enumerate(value["content"]):
            assert isinstance(inner, dict) and len(inner) == 1, f"{where}.content[{k}]"
            if "text" in inner:
                assert inner["text"].strip(), f"{where}.content[{k}]: blank text"
    elif key in ("image", "video", "audio", "document"):
        assert isinstance(value.get("source"), dict) and len(value["source"]) == 1, where
        if key == "document":
            assert isinstance(value.get("name"), str) and value["name"], where
        else:
            assert isinstance(value.get("format"), str), where
    elif key == "reasoningContent":
        assert len(value) == 1 and next(iter(value)) in ("reasoningText", "redactedContent"), where


def check_bedrock(body: dict[str, Any], *, paired: bool = False, known: bool = False) -> None:
    """Assert that ``body`` is a valid Converse request (pairing too when ``paired``).

    User and assistant messages alternate; no content is empty and no text blank; every
    block is one member of the ``ContentBlock`` union; tool ids fit ``[a-zA-Z0-9_-]{1,64}``;
    results answering an assistant message's calls are in the next (user) message.
    """
    assert set(body) <= {"system", "messages"}, body.keys()
    for j, block in enumerate(body.get("system", [])):
        assert isinstance(block, dict) and len(block) == 1, f"system[{j}]"
        assert next(iter(block)) in ("text", "guardContent", "cachePoint"), f"system[{j}]"
        if "text" in block:
            assert block["text"].strip(), f"system[{j}]: blank text"
    messages = body["messages"]
    assert isinstance(messages, list)
    previous = None
    calls: dict[str, int] = {}
    for i, message in enumerate(messages):
        where = f"messages[{i}]"
        assert set(message) <= {"role", "content"}, f"{where}: {set(message)}"
        role = message["role"]
        assert role in ("user", "assistant"), where
        assert role != previous, f"{where}: two {role} messages in a row"
        previous = role
        content = message["content"]
        assert isinstance(content, list) and content, f"{where}: no content"
        for j, block in enumerate(content):
            _bedrock_block(block, f"{where}.content[{j}]", known)
        uses = [b["toolUse"]["toolUseId"] for b in content if "toolUse" in b]
        results = [b["toolResult"]["toolUseId"] for b in content if "toolResult" in b]
        assert not (uses and role == "user"), f"{where}: a call on the user side"
        assert not (results and role == "assistant"), f"{where}: a result on the assistant side"
        for ident in results:
            asked = calls.get(ident)
            if asked is not None or paired:
                assert asked == i - 1, f"{where}: {ident} not answered right after its call"
        kinds = ["toolResult" in b for b in content]
        assert kinds == sorted(kinds, reverse=True), f"{where}: results not first"
        for ident in uses:
            calls[ident] = i
        if paired and uses:
            assert i + 1 < len(messages), f"{where}: calls never answered"
            after = messages[i + 1]["content"]
            got = {b["toolResult"]["toolUseId"] for b in after if "toolResult" in b}
            assert set(uses) <= got, f"{where}: {uses} answered by {got}"

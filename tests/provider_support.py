"""Test helpers for the OpenAI Responses and Gemini codecs: validators, views, strategies.

The validators check what each API requires of a request (item shapes, roles, ordering and
call/result pairing); the views reduce a conversation to what a codec must preserve, so
"decode(encode(x)) equals x modulo the documented normalisations" can be stated as
``view(decode(encode(x))) == view(x)``.
"""

from __future__ import annotations

import base64
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from messages import (
    AssistantMessage,
    AudioBlock,
    Block,
    ImageBlock,
    Message,
    RawBlock,
    SystemMessage,
    TextBlock,
    ThinkingBlock,
    ToolMessage,
    ToolResultBlock,
    ToolUseBlock,
    UserMessage,
    thaw,
)
from messages import strategies as ms
from messages.media import parse_data_uri
from messages.providers._base import as_turns

FIXTURES = Path(__file__).parent / "fixtures"
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


def _media(block: ImageBlock | AudioBlock) -> tuple[Any, ...]:
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
            if gemini:
                return ("result", block.tool_use_id, block.text, bool(block.is_error))
            return ("result", block.tool_use_id, block.text)
        case ImageBlock() | AudioBlock():
            return _media(block)
        case RawBlock():
            return ("raw", thaw(block.data))
    raise AssertionError(block)


def view(conversation: list[Message] | tuple[Message, ...], *, gemini: bool) -> list[Any]:
    """What a codec must keep: the blocks in order, with the side that spoke them."""
    out: list[Any] = []
    for turn in as_turns(conversation):
        if isinstance(turn, SystemMessage):
            if gemini:
                out.extend(("system", b.text) for b in turn.blocks if isinstance(b, TextBlock))
            else:
                out.append(("system", turn.role, turn.text))
            continue
        if gemini:
            side = "model" if isinstance(turn, AssistantMessage) else "user"
        else:
            side = "assistant" if isinstance(turn, AssistantMessage) else "user"
        out.extend(_summary(b, side, gemini=gemini) for b in turn.blocks)
    return out


# ------------------------------------------------------------------------------- validators

_INPUT_PARTS = {"input_text", "input_image", "input_file"}
_MODEL_ITEMS = {"reasoning", "function_call"}


def _check_input_part(part: Any, where: str) -> None:
    assert isinstance(part, dict), where
    tag = part.get("type")
    assert isinstance(tag, str), f"{where}: part without type"
    if tag == "input_text":
        assert isinstance(part.get("text"), str), where
    elif tag == "input_image":
        assert isinstance(part.get("image_url"), str) or isinstance(part.get("file_id"), str), where
    assert tag not in ("output_text", "refusal"), f"{where}: output part outside assistant"


def check_responses(body: dict[str, Any], *, paired: bool = False) -> None:
    """Assert that ``body`` is a valid Responses request (pairing too when ``paired``)."""
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
        model_side = tag in _MODEL_ITEMS or (message and item.get("role") == "assistant")
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
                    if role == "assistant":
                        assert isinstance(part, dict), where
                        assert part.get("type") in ("output_text", "refusal"), where
                        if part["type"] == "output_text":
                            assert isinstance(part.get("text"), str), where
                            notes = part.get("annotations")
                            assert notes is None or isinstance(notes, list), where
                    else:
                        _check_input_part(part, f"{where}.content[{j}]")
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
                    _check_input_part(part, f"{where}.output[{j}]")
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


def _check_part(part: Any, role: str, where: str) -> None:
    assert isinstance(part, dict), where
    data = [k for k in _DATA if k in part]
    assert len(data) <= 1, f"{where}: data fields {data}"
    assert [k for k in part if k not in _METADATA], f"{where}: no data field"
    assert all(re.fullmatch(r"[a-z][A-Za-z0-9]*", k) for k in part), f"{where}: {list(part)}"
    assert not any(k in part for k in ("type", "id", "status", "cache_control")), where
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


def check_gemini(body: dict[str, Any], *, paired: bool = False) -> None:
    """Assert that ``body`` is a valid Gemini request (pairing too when ``paired``)."""
    assert set(body) <= {"systemInstruction", "contents"}, body.keys()
    if "systemInstruction" in body:
        system = body["systemInstruction"]
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
        role = content.get("role", "user")
        assert role in ("user", "model"), where
        assert role != previous, f"{where}: two {role} contents in a row"
        previous = role
        parts = content.get("parts")
        assert isinstance(parts, list) and parts, f"{where}: no parts"
        for j, part in enumerate(parts):
            _check_part(part, role, f"{where}.parts[{j}]")
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


# ------------------------------------------------------------------------------- strategies

_WORDS = st.text("abc xyz\n", max_size=12)
_IDS = st.text("abcdefghij0123456789", min_size=1, max_size=8)
_SIG = st.text("ABCDEFabcdef0123456789+/=", min_size=1, max_size=16)
_INPUTS = st.dictionaries(st.sampled_from(["cmd", "path", "n"]), st.text(max_size=5), max_size=2)


def _b64() -> st.SearchStrategy[str]:
    return st.binary(min_size=1, max_size=12).map(lambda b: base64.b64encode(b).decode())


def texts(*, extras: bool = True) -> st.SearchStrategy[TextBlock]:
    """Text blocks with an occasional unknown wire field that both APIs pass through."""
    extra = (
        st.just({}) | st.fixed_dictionaries({"meta": st.integers(0, 3)}) if extras else st.just({})
    )
    return st.builds(TextBlock, _WORDS, extra=extra)


def responses_images() -> st.SearchStrategy[ImageBlock]:
    """Images Responses carries: data (sent as a data URL), URLs, OpenAI file ids."""
    return st.one_of(
        st.builds(ImageBlock, data=_b64(), media_type=st.sampled_from(["image/png", "image/jpeg"])),
        st.builds(
            ImageBlock,
            url=st.sampled_from(["https://example.com/a.png", "data:image/png;base64,AAAA"]),
        ),
        st.builds(ImageBlock, file_id=_IDS.map(lambda s: "file-" + s)),
    )


def gemini_media() -> st.SearchStrategy[ImageBlock | AudioBlock]:
    """Images and audio Gemini carries: inline data with a MIME type, file URIs."""
    return st.one_of(
        st.builds(ImageBlock, data=_b64(), media_type=st.sampled_from(["image/png", "image/webp"])),
        st.builds(AudioBlock, data=_b64(), media_type=st.sampled_from(["audio/wav", "audio/mp3"])),
        st.builds(
            ImageBlock,
            file_id=_IDS.map(lambda s: "gs://bucket/" + s),
            media_type=st.just("image/png"),
        ),
        st.builds(ImageBlock, url=st.just("data:image/png;base64,AAAA")),
    )


def openai_thinking() -> st.SearchStrategy[ThinkingBlock]:
    """Reasoning as OpenAI returns it: id, summary text, encrypted content or not."""
    return st.builds(
        ThinkingBlock,
        _WORDS,
        signature=st.none() | _SIG,
        provider=st.just("openai"),
        extra=_IDS.map(lambda s: {"id": "rs_" + s}),
    )


def google_thinking() -> st.SearchStrategy[ThinkingBlock]:
    """Thought summaries as Gemini returns them: signed by Google, or unsigned."""
    return st.builds(ThinkingBlock, _WORDS) | st.builds(
        ThinkingBlock, _WORDS, signature=_SIG, provider=st.just("google")
    )


def calls(*, gemini: bool) -> st.SearchStrategy[ToolUseBlock]:
    """Tool calls; OpenAI ones sometimes with their raw (possibly invalid) argument string."""
    arguments = st.none() if gemini else st.none() | st.sampled_from(['{"a": 1}', "{", "", "[]"])
    extra = (
        st.just({}) | st.fixed_dictionaries({"thoughtSignature": _SIG})
        if gemini
        else st.just({}) | st.fixed_dictionaries({"id": _IDS.map(lambda s: "fc_" + s)})
    )
    return st.builds(
        ToolUseBlock,
        _IDS.map(lambda s: "call_" + s),
        st.sampled_from(["shell", "read"]),
        _INPUTS,
        arguments=arguments,
        extra=extra,
    )


def results(*, gemini: bool) -> st.SearchStrategy[ToolResultBlock]:
    """Tool results with text or text-and-media content."""
    media = gemini_media() if gemini else responses_images()
    return st.builds(
        ToolResultBlock,
        _IDS.map(lambda s: "call_" + s),
        _WORDS | st.lists(texts(extras=False) | media, max_size=2).map(tuple),
        is_error=st.none() | (st.booleans() if gemini else st.just(False)),
        name=st.sampled_from(["shell", "read"]) if gemini else st.none() | st.just("shell"),
    )


def raws(*, gemini: bool) -> st.SearchStrategy[RawBlock]:
    """Raw parts/items of the provider's own shape."""
    if gemini:
        return st.builds(
            RawBlock,
            st.fixed_dictionaries({"executableCode": st.fixed_dictionaries({"code": _WORDS})}),
        )
    return st.builds(
        RawBlock,
        st.fixed_dictionaries(
            {"type": st.just("web_search_call"), "id": _IDS, "status": st.just("completed")}
        ),
    )


def _content(blocks: st.SearchStrategy[Block]) -> st.SearchStrategy[Any]:
    return _WORDS | st.lists(blocks, max_size=3).map(tuple)


def conversations(*, gemini: bool) -> st.SearchStrategy[list[Message]]:
    """Conversations made only of content the codec can carry (any order, any pairing)."""
    thinking = google_thinking() if gemini else openai_thinking()
    media = gemini_media() if gemini else responses_images()
    assistant_media = media if gemini else st.nothing()
    user = st.builds(
        UserMessage,
        _content(texts() | media | raws(gemini=gemini) | results(gemini=gemini)),
    )
    assistant = st.builds(
        AssistantMessage,
        _content(texts() | thinking | calls(gemini=gemini) | raws(gemini=gemini) | assistant_media),
    )
    tool = st.builds(
        ToolMessage, st.lists(results(gemini=gemini), min_size=1, max_size=2).map(tuple)
    )
    body = st.lists(user | assistant | tool, max_size=6)
    if gemini:
        system = st.lists(st.builds(SystemMessage, _content(texts(extras=False))), max_size=2)
    else:
        system = st.lists(
            st.builds(
                SystemMessage, _content(texts()), role=st.sampled_from(["system", "developer"])
            ),
            max_size=1,
        )
        body = st.lists(
            user
            | assistant
            | tool
            | st.builds(SystemMessage, _content(texts()), role=st.just("developer")),
            max_size=6,
        )
    return st.tuples(system, body).map(lambda t: [*t[0], *t[1]])


@st.composite
def well_formed(
    draw: st.DrawFn, *, gemini: bool, media: st.SearchStrategy[Block] | None = None
) -> list[Message]:
    """An agent loop: every call answered right after its turn, each round closed by text."""
    thinking = google_thinking() if gemini else openai_thinking()
    if media is None:
        media = gemini_media() if gemini else responses_images()
    out: list[Message] = []
    if draw(st.booleans()):
        out.append(SystemMessage(draw(_WORDS)))
    for r in range(draw(st.integers(1, 3))):
        out.append(UserMessage(tuple(draw(st.lists(texts() | media, min_size=1, max_size=2)))))
        for step in range(draw(st.integers(0, 2))):
            names = draw(st.lists(st.sampled_from(["shell", "read"]), min_size=1, max_size=3))
            tools = [
                ToolUseBlock(f"call_{r}_{step}_{k}", name, draw(_INPUTS))
                for k, name in enumerate(names)
            ]
            lead = draw(st.lists(thinking, max_size=1)) + draw(st.lists(texts(), max_size=1))
            out.append(AssistantMessage((*lead, *tools)))
            answers = tuple(
                ToolResultBlock(t.id, draw(_WORDS), name=t.name if draw(st.booleans()) else None)
                for t in tools
            )
            anthropic_style = draw(st.booleans())
            out.append(UserMessage(answers) if anthropic_style else ToolMessage(answers))
        closing = draw(st.lists(thinking, max_size=1))
        out.append(AssistantMessage((*closing, TextBlock(draw(_WORDS)))))
    return out


def any_conversation() -> st.SearchStrategy[list[Message]]:
    """Anything the library can build: role, flat and session messages, any content."""
    return ms.streams(max_size=6)

"""Hypothesis strategies for conversations a provider codec can carry exactly.

``anthropic_conversations()`` and ``chat_conversations()`` draw conversations that are
already in the target's own shape (turns in the order the API wants, only content and
fields the format has), so ``decode_request(encode_request(c)) == c`` holds for them with
no normalisation at all. ``conversations(gemini=...)`` and ``well_formed(gemini=...)`` draw
what OpenAI Responses or Gemini carries (any order and pairing, or an agent loop);
``any_conversation()`` anything at all, from ``messages.strategies``.
"""

from __future__ import annotations

import base64
import functools
import json
from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from messages import EMPTY
from messages import AssistantMessage
from messages import AudioBlock
from messages import Block
from messages import DocumentBlock
from messages import FrozenDict
from messages import ImageBlock
from messages import Message
from messages import RawBlock
from messages import ServerToolResultBlock
from messages import ServerToolUseBlock
from messages import SystemMessage
from messages import TextBlock
from messages import ThinkingBlock
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UserMessage
from messages import VideoBlock
from messages import strategies as ms
from messages import thaw
from messages.providers.bedrock import original_id
from messages.providers.bedrock import wire_id

_B64 = st.binary(min_size=1, max_size=12).map(lambda b: base64.b64encode(b).decode())
_SIGNATURE = st.text(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=", min_size=1
)
_TEXT = st.text(max_size=20)


def _extras(*choices: dict[str, Any]) -> st.SearchStrategy[FrozenDict]:
    return st.sampled_from([EMPTY, *[FrozenDict(c) for c in choices]])


def split(text: str, cuts: list[int]) -> list[str]:
    """``text`` cut at the given points (taken modulo its length), as a stream sends it."""
    points = sorted({c % (len(text) + 1) for c in cuts})
    pieces, last = [], 0
    for point in [*points, len(text)]:
        pieces.append(text[last:point])
        last = point
    return pieces


# ----------------------------------------------------------------------------- Anthropic

_CITATION = st.fixed_dictionaries(
    {
        "type": st.just("char_location"),
        "cited_text": _TEXT,
        "document_index": st.integers(0, 3),
        "start_char_index": st.integers(0, 50),
        "end_char_index": st.integers(0, 50),
    }
).map(FrozenDict)
_CACHE = {"cache_control": {"type": "ephemeral"}}


def _marked(block: TextBlock) -> TextBlock:
    """An empty text block as Anthropic carries one: marked as decoded from a request (the
    encoder leaves out unmarked ones, which the API rejects)."""
    if block.text:
        return block
    return replace(block, extra={"type": "text", **block.extra})


@functools.cache
def anthropic_text() -> st.SearchStrategy[TextBlock]:
    return st.builds(
        TextBlock,
        _TEXT,
        citations=st.none() | st.lists(_CITATION, min_size=1, max_size=2).map(tuple),
        extra=_extras(_CACHE),
    ).map(_marked)


@functools.cache
def anthropic_thinking() -> st.SearchStrategy[ThinkingBlock]:
    plain = st.builds(
        ThinkingBlock, _TEXT, signature=st.none() | _SIGNATURE, provider=st.just("anthropic")
    )
    redacted = st.builds(
        ThinkingBlock,
        st.just(""),
        signature=_SIGNATURE,
        redacted=st.just(True),
        provider=st.just("anthropic"),
    )
    return plain | redacted


@functools.cache
def anthropic_image() -> st.SearchStrategy[ImageBlock]:
    media = st.sampled_from(["image/png", "image/jpeg", "image/gif", "image/webp"])
    return st.one_of(
        st.builds(ImageBlock, data=_B64, media_type=media, extra=_extras(_CACHE)),
        st.builds(ImageBlock, url=st.just("https://example.com/a.png")),
        st.builds(ImageBlock, file_id=st.just("file_011CNha8")),
    )


@functools.cache
def anthropic_document() -> st.SearchStrategy[DocumentBlock]:
    """Documents Anthropic carries: PDF data, text, content blocks, URL and file sources."""
    source = st.one_of(
        st.fixed_dictionaries({"data": _B64, "media_type": st.just("application/pdf")}),
        st.fixed_dictionaries({"text": _TEXT, "media_type": st.just("text/plain")}),
        st.fixed_dictionaries(
            {
                "content": _TEXT
                | st.lists(st.builds(TextBlock, _TEXT.filter(bool)), max_size=2).map(tuple)
            }
        ),
        st.fixed_dictionaries({"url": st.just("https://example.com/q3.pdf")}),
        st.fixed_dictionaries({"file_id": st.just("file_011CNha8")}),
    )
    return st.builds(
        lambda fields, **named: DocumentBlock(**fields, **named),
        source,
        title=st.none() | _TEXT,
        context=st.none() | _TEXT,
        citations=st.none() | st.booleans(),
        extra=_extras(_CACHE),
    )


@functools.cache
def anthropic_raw() -> st.SearchStrategy[RawBlock]:
    future = st.fixed_dictionaries(
        {"type": st.just("future_block"), "value": ms.json_values(max_leaves=3)}
    )
    return st.builds(RawBlock, future)


@functools.cache
def anthropic_server() -> st.SearchStrategy[tuple[Any, ...]]:
    """A server tool's call and its result, as Anthropic sends them (search or code)."""
    found = st.fixed_dictionaries(
        {
            "type": st.just("web_search_result"),
            "url": st.just("https://tides.example/brest"),
            "title": _TEXT,
            "encrypted_content": _SIGNATURE,
            "page_age": st.none() | st.just("2 hours ago"),
        }
    )
    error = st.fixed_dictionaries(
        {
            "type": st.just("web_search_tool_result_error"),
            "error_code": st.sampled_from(["unavailable", "max_uses_exceeded"]),
        }
    )
    ran = st.fixed_dictionaries(
        {
            "type": st.just("code_execution_result"),
            "stdout": _TEXT,
            "stderr": _TEXT,
            "return_code": st.integers(0, 2),
            "content": st.just([]),
        }
    )
    search = st.tuples(
        st.fixed_dictionaries({"query": _TEXT}), st.lists(found, max_size=2) | error
    ).map(lambda t: ("web_search", t[0], t[1]))
    code = st.tuples(st.fixed_dictionaries({"code": _TEXT}), ran).map(
        lambda t: ("code_execution", t[0], t[1])
    )

    def pair(drawn: tuple[str, Any, Any], ident: str) -> tuple[Any, ...]:
        name, args, content = drawn
        call_id = "srvtoolu_" + ident
        return (
            ServerToolUseBlock(call_id, name, args, provider="anthropic"),
            ServerToolResultBlock(call_id, name, content, provider="anthropic"),
        )

    return st.builds(pair, search | code, st.text("abcdef0123", min_size=1, max_size=8))


@functools.cache
def _tool_input() -> st.SearchStrategy[FrozenDict]:
    return ms.json_objects(keys=st.text("abcdefgh", min_size=1, max_size=5))


@functools.cache
def _anthropic_parts(plain: bool) -> dict[str, st.SearchStrategy[Any]]:
    # Built once, not per draw: a strategy built inside a composite is a new object every
    # example, and Hypothesis validates each new object again (most of this test's time).
    text = st.builds(TextBlock, _TEXT.filter(bool)) if plain else anthropic_text()
    inner = st.lists(
        text if plain else text | anthropic_image() | anthropic_document(), max_size=2
    ).map(tuple)
    user_blocks = (
        text if plain else text | anthropic_image() | anthropic_document() | anthropic_raw()
    )
    blocks = text if plain else text | anthropic_thinking() | anthropic_raw()
    return {
        "system": _TEXT | st.lists(text, max_size=2).map(tuple),
        "extras": st.just(EMPTY) if plain else _extras({"x_future": 1}),
        "result": _TEXT | inner,
        "is_error": st.none() if plain else st.none() | st.booleans(),
        "result_extra": st.just(EMPTY) if plain else _extras(_CACHE),
        "user_blocks": st.lists(user_blocks, max_size=2),
        "tool": st.sampled_from(["Bash", "Read", "get_weather"]),
        "tool_extra": st.just(EMPTY) if plain else _extras({"caller": {"type": "direct"}}),
        "blocks": st.lists(blocks, max_size=2),
        "server": st.just(()) if plain else st.just(()) | anthropic_server(),
    }


@st.composite
def anthropic_conversations(draw: st.DrawFn, *, plain: bool = False) -> list[Any]:
    """A conversation Anthropic carries exactly; ``plain``: text and tools only (no extras)."""
    part = _anthropic_parts(plain)
    conversation: list[Any] = []
    if draw(st.booleans()):
        conversation.append(SystemMessage(draw(part["system"])))
    pending: list[str] = []
    for r in range(draw(st.integers(0, 4))):
        answered = [i for i in pending if draw(st.booleans())]
        results = [
            ToolResultBlock(
                call_id,
                draw(part["result"]),
                is_error=draw(part["is_error"]),
                extra=draw(part["result_extra"]),
            )
            for call_id in answered
        ]
        others = draw(part["user_blocks"])
        content: Any = tuple(results + others)
        if not results and draw(st.booleans()):
            content = draw(_TEXT)
        conversation.append(UserMessage(content, extra=draw(part["extras"])))
        uses = [
            ToolUseBlock(
                f"toolu_{r}_{k}",
                draw(part["tool"]),
                draw(_tool_input()),
                extra=draw(part["tool_extra"]),
            )
            for k in range(draw(st.integers(0, 2)))
        ]
        body = draw(st.permutations(draw(part["blocks"]) + uses))
        assistant: Any = tuple(draw(part["server"])) + tuple(body)
        if not uses and draw(st.booleans()):
            assistant = draw(_TEXT)
        conversation.append(AssistantMessage(assistant, extra=draw(part["extras"])))
        pending = [u.id for u in uses]
    return conversation


def anthropic_response_blocks() -> st.SearchStrategy[list[Any]]:
    """Response content: text, thinking, tool calls and server-tool results."""
    tool = st.builds(
        ToolUseBlock,
        st.text("abcdef0123", min_size=1, max_size=8).map(lambda s: "toolu_" + s),
        st.sampled_from(["Bash", "Read"]),
        _tool_input(),
        extra=_extras({"caller": {"type": "direct"}}),
    )
    text = st.builds(
        TextBlock, _TEXT, citations=st.none() | st.lists(_CITATION, max_size=2).map(tuple)
    )
    blocks = st.lists(text | anthropic_thinking() | tool | anthropic_raw(), max_size=4)
    return st.tuples(st.just(()) | anthropic_server(), blocks).map(lambda t: [*t[0], *t[1]])


# ----------------------------------------------------------------------------- OpenAI Chat

_BREAKPOINT = {"prompt_cache_breakpoint": {"mode": "explicit"}}


@functools.cache
def chat_text() -> st.SearchStrategy[TextBlock]:
    return st.builds(TextBlock, _TEXT, extra=_extras(_BREAKPOINT))


@functools.cache
def chat_user_block() -> st.SearchStrategy[Any]:
    image = st.builds(
        ImageBlock,
        url=st.sampled_from(["https://example.com/a.png", "data:image/png;base64,iVBORw0KGgo="]),
        extra=_extras({"detail": "low"}, {"detail": "high"}),
    )
    audio = st.builds(
        AudioBlock, data=_B64, media_type=st.sampled_from(["audio/wav", "audio/mpeg"])
    )
    file = st.builds(
        lambda source, filename: DocumentBlock(**source, filename=filename),
        st.sampled_from(
            [{"file_id": "file-6F2k"}, {"url": "data:application/pdf;base64,JVBERg=="}]
        ),
        st.none() | st.just("q3.pdf"),
    )
    return chat_text() | image | audio | file


def _arguments(draw: st.DrawFn) -> tuple[FrozenDict, str]:
    if draw(st.integers(0, 4)) == 0:
        return EMPTY, draw(st.sampled_from(["{", "", "[1, 2]", '{"a": ']))
    value = draw(_tool_input())
    return value, json.dumps(thaw(value), indent=draw(st.sampled_from([None, 2])))


@functools.cache
def _chat_parts(plain: bool) -> dict[str, st.SearchStrategy[Any]]:
    # Built once, not per draw (see _anthropic_parts).
    text = st.builds(TextBlock, _TEXT) if plain else chat_text()
    return {
        "named": st.just(EMPTY) if plain else _extras({"name": "ana"}),
        "role": st.just("system") if plain else st.sampled_from(["system", "developer"]),
        "content": _TEXT | st.lists(text, max_size=2).map(tuple),
        "user": _TEXT | st.lists(text if plain else chat_user_block(), max_size=3).map(tuple),
        "name": st.sampled_from(["get_weather", "run"]),
        "refusal": st.lists(_TEXT.map(lambda s: RawBlock({"refusal": s})), max_size=1),
        "audio": st.lists(st.just(AudioBlock(file_id="audio_abc")), max_size=1),
        "texts": st.lists(text, min_size=0, max_size=2),
        "texts1": st.lists(text, min_size=1, max_size=2),
    }


@st.composite
def chat_conversations(draw: st.DrawFn, *, plain: bool = False) -> list[Any]:
    """A conversation OpenAI Chat carries exactly; ``plain``: text and tools only."""
    part = _chat_parts(plain)
    conversation: list[Any] = []
    for _ in range(draw(st.integers(0, 2))):
        role = draw(part["role"])
        content = draw(part["content"])
        conversation.append(SystemMessage(content, role=role, extra=draw(part["named"])))
    for r in range(draw(st.integers(0, 4))):
        user = draw(part["user"])
        conversation.append(UserMessage(user, extra=draw(part["named"])))
        uses = []
        for k in range(draw(st.integers(0, 2))):
            value, arguments = _arguments(draw)
            if plain:
                value = draw(_tool_input())
                arguments = json.dumps(thaw(value))
            name = draw(part["name"])
            uses.append(ToolUseBlock(f"call_{r}_{k}", name, value, arguments=arguments))
        refusal = [] if plain else draw(part["refusal"])
        audio = [] if plain else draw(part["audio"])
        texts = draw(part["texts"] if uses or refusal or audio else part["texts1"])
        assistant: Any = tuple(texts + refusal + uses + audio)
        if len(assistant) == 1 and texts and not texts[0].extra and draw(st.booleans()):
            assistant = texts[0].text
        # a refusal with no text is sent with "content": null, which decodes into extra
        null = FrozenDict({"content": None}) if refusal and not (texts or uses or audio) else EMPTY
        conversation.append(AssistantMessage(assistant, extra=null))
        for use in uses:
            if draw(st.booleans()):
                content = draw(part["content"])
                conversation.append(
                    ToolMessage((ToolResultBlock(use.id, content, extra=draw(part["named"])),))
                )
    return conversation


# ------------------------------------------------------------ OpenAI Responses and Gemini

_WORDS = st.text("abc xyz\n", max_size=12)
_IDS = st.text("abcdefghij0123456789", min_size=1, max_size=8)
_SIG = st.text("ABCDEFabcdef0123456789+/=", min_size=1, max_size=16)
_INPUTS = st.dictionaries(st.sampled_from(["cmd", "path", "n"]), st.text(max_size=5), max_size=2)


@functools.cache
def _b64() -> st.SearchStrategy[str]:
    return st.binary(min_size=1, max_size=12).map(lambda b: base64.b64encode(b).decode())


@functools.cache
def texts(*, extras: bool = True) -> st.SearchStrategy[TextBlock]:
    """Text blocks with an occasional unknown wire field that both APIs pass through."""
    extra = (
        st.just({}) | st.fixed_dictionaries({"meta": st.integers(0, 3)}) if extras else st.just({})
    )
    return st.builds(TextBlock, _WORDS, extra=extra)


@functools.cache
def history_texts(*, gemini: bool) -> st.SearchStrategy[TextBlock]:
    """Assistant text the codec carries exactly.

    Responses writes assistant history as string content, which holds no part fields: a
    text with some is one decoded from a message item of parts, and carries that item's
    record (``extra["item"]``, empty for an item of no other fields) to be written back so.
    """
    if gemini:
        return texts()
    return texts().map(lambda b: replace(b, extra={**b.extra, "item": {}}) if b.extra else b)


@functools.cache
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


@functools.cache
def responses_media() -> st.SearchStrategy[ImageBlock | DocumentBlock]:
    """Images and files Responses carries: ``input_image`` and ``input_file`` parts."""
    source = st.sampled_from(
        [
            {"file_id": "file-6F2k"},
            {"url": "data:application/pdf;base64,JVBERg=="},
            {"url": "https://example.com/q3.pdf"},
        ]
    )
    files = st.builds(
        lambda fields, filename: DocumentBlock(**fields, filename=filename),
        source,
        st.none() | st.just("q3.pdf"),
    )
    return responses_images() | files


@functools.cache
def gemini_clipped_video() -> st.SearchStrategy[VideoBlock]:
    """Video parts with ``videoMetadata`` (Gemini takes it on a part, not in a function
    response)."""
    offsets = st.none() | st.sampled_from(["0s", "1.5s", "90s"])
    return st.builds(
        VideoBlock,
        file_id=st.just("https://www.youtube.com/watch?v=9hE5-98ZeCg"),
        media_type=st.just("video/mp4"),
        start_offset=offsets,
        end_offset=offsets,
        fps=st.none() | st.sampled_from([1, 2.5]),
    )


@functools.cache
def gemini_media() -> st.SearchStrategy[ImageBlock | AudioBlock | DocumentBlock | VideoBlock]:
    """Media Gemini carries: inline data with a MIME type, file URIs; images, audio,
    documents and video."""
    return st.one_of(
        st.builds(
            DocumentBlock,
            data=_b64(),
            media_type=st.sampled_from(["application/pdf", "text/plain"]),
        ),
        st.builds(
            DocumentBlock,
            file_id=_IDS.map(lambda s: "gs://bucket/" + s),
            media_type=st.just("application/pdf"),
        ),
        st.builds(VideoBlock, data=_b64(), media_type=st.sampled_from(["video/mp4", "video/webm"])),
        st.builds(ImageBlock, data=_b64(), media_type=st.sampled_from(["image/png", "image/webp"])),
        st.builds(AudioBlock, data=_b64(), media_type=st.sampled_from(["audio/wav", "audio/mp3"])),
        st.builds(
            ImageBlock,
            file_id=_IDS.map(lambda s: "gs://bucket/" + s),
            media_type=st.just("image/png"),
        ),
        st.builds(ImageBlock, url=st.just("data:image/png;base64,AAAA")),
    )


@functools.cache
def openai_thinking() -> st.SearchStrategy[ThinkingBlock]:
    """Reasoning as OpenAI returns it: id, summary text, encrypted content or not."""
    return st.builds(
        ThinkingBlock,
        _WORDS,
        signature=st.none() | _SIG,
        provider=st.just("openai"),
        extra=_IDS.map(lambda s: {"id": "rs_" + s}),
    )


@functools.cache
def google_thinking() -> st.SearchStrategy[ThinkingBlock]:
    """Thought summaries as Gemini returns them: signed by Google, or unsigned."""
    return st.builds(ThinkingBlock, _WORDS) | st.builds(
        ThinkingBlock, _WORDS, signature=_SIG, provider=st.just("google")
    )


@functools.cache
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


@functools.cache
def results(*, gemini: bool) -> st.SearchStrategy[ToolResultBlock]:
    """Tool results with text or text-and-media content."""
    media = gemini_media() if gemini else responses_media()
    return st.builds(
        ToolResultBlock,
        _IDS.map(lambda s: "call_" + s),
        _WORDS | st.lists(texts(extras=False) | media, max_size=2).map(tuple),
        is_error=st.none() | (st.booleans() if gemini else st.just(False)),
        name=st.sampled_from(["shell", "read"]) if gemini else st.none() | st.just("shell"),
    )


@functools.cache
def raws(*, gemini: bool) -> st.SearchStrategy[RawBlock]:
    """Raw parts/items of the provider's own shape."""
    if gemini:
        return st.builds(
            RawBlock,
            st.fixed_dictionaries(
                {"futurePart": st.fixed_dictionaries({"id": _IDS, "kindOf": st.just("NEW")})}
            ),
        )
    return st.builds(
        RawBlock,
        st.fixed_dictionaries({"type": st.just("item_reference"), "id": _IDS}),
    )


@functools.cache
def server_tools(*, gemini: bool) -> st.SearchStrategy[Block]:
    """Server tool blocks of the provider's own shape (Gemini code execution, OpenAI search).

    A Responses call and its result share one item, so only calls are drawn alone there;
    the pair is pinned by the provider's own tests.
    """
    if gemini:
        code = st.fixed_dictionaries({"language": st.just("PYTHON"), "code": _WORDS})
        outcome = st.sampled_from(["OUTCOME_OK", "OUTCOME_FAILED"])
        return st.builds(
            ServerToolUseBlock,
            st.just("") | _IDS,
            st.just("code_execution"),
            code,
            provider=st.just("google"),
        ) | st.builds(
            ServerToolResultBlock,
            st.just("") | _IDS,
            st.just("code_execution"),
            st.fixed_dictionaries({"outcome": outcome, "output": _WORDS}),
            provider=st.just("google"),
        )
    action = st.fixed_dictionaries({"type": st.just("search"), "query": _WORDS})
    return st.builds(
        ServerToolUseBlock,
        _IDS.map(lambda s: "ws_" + s),
        st.just("web_search"),
        st.fixed_dictionaries({"action": action}),
        provider=st.just("openai"),
    )


def _content(blocks: st.SearchStrategy[Block]) -> st.SearchStrategy[Any]:
    return _WORDS | st.lists(blocks, max_size=3).map(tuple)


def conversations(*, gemini: bool) -> st.SearchStrategy[list[Message]]:
    """Conversations made only of content the codec can carry (any order, any pairing)."""
    thinking = google_thinking() if gemini else openai_thinking()
    media = gemini_media() if gemini else responses_media()
    assistant_media = media if gemini else st.nothing()
    clipped = gemini_clipped_video() if gemini else st.nothing()
    user = st.builds(
        UserMessage,
        _content(texts() | media | clipped | raws(gemini=gemini) | results(gemini=gemini)),
    )
    assistant = st.builds(
        AssistantMessage,
        _content(
            history_texts(gemini=gemini)
            | thinking
            | calls(gemini=gemini)
            | raws(gemini=gemini)
            | server_tools(gemini=gemini)
            | assistant_media
        ),
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


@functools.cache
def _loop_parts(
    gemini: bool, media: st.SearchStrategy[Block] | None
) -> dict[str, st.SearchStrategy[Any]]:
    # Built once per (gemini, media), not per draw (see _anthropic_parts).
    thinking = google_thinking() if gemini else openai_thinking()
    if media is None:
        media = gemini_media() if gemini else responses_media()
    return {
        "prompt": st.lists(texts() | media, min_size=1, max_size=2),
        "names": st.lists(st.sampled_from(["shell", "read"]), min_size=1, max_size=3),
        "thinking": st.lists(thinking, max_size=1),
        "text": st.lists(history_texts(gemini=gemini), max_size=1),
    }


@st.composite
def well_formed(
    draw: st.DrawFn, *, gemini: bool, media: st.SearchStrategy[Block] | None = None
) -> list[Message]:
    """An agent loop: every call answered right after its turn, each round closed by text."""
    part = _loop_parts(gemini, media)
    out: list[Message] = []
    if draw(st.booleans()):
        out.append(SystemMessage(draw(_WORDS)))
    for r in range(draw(st.integers(1, 3))):
        out.append(UserMessage(tuple(draw(part["prompt"]))))
        for step in range(draw(st.integers(0, 2))):
            names = draw(part["names"])
            tools = [
                ToolUseBlock(f"call_{r}_{step}_{k}", name, draw(_INPUTS))
                for k, name in enumerate(names)
            ]
            lead = draw(part["thinking"]) + draw(part["text"])
            out.append(AssistantMessage((*lead, *tools)))
            answers = tuple(
                ToolResultBlock(t.id, draw(_WORDS), name=t.name if draw(st.booleans()) else None)
                for t in tools
            )
            anthropic_style = draw(st.booleans())
            out.append(UserMessage(answers) if anthropic_style else ToolMessage(answers))
        closing = draw(part["thinking"])
        out.append(AssistantMessage((*closing, TextBlock(draw(_WORDS)))))
    return out


def any_conversation() -> st.SearchStrategy[list[Message]]:
    """Anything the library can build: role, flat and session messages, any content."""
    return ms.streams(max_size=6)


def simple_responses() -> st.SearchStrategy[AssistantMessage]:
    """An assistant message of text and tool calls, with any response fields and usage."""
    return ms.assistant_messages(
        content=st.one_of(
            st.builds(TextBlock, st.text(max_size=10)),
            st.builds(ToolUseBlock, st.just("call_1"), st.just("f"), ms.json_objects()),
        )
    )


# ----------------------------------------------------------------------------- Bedrock

_SAID = st.text("abc xyz\n", min_size=1, max_size=12).filter(str.strip)
"""Text Converse carries as it is: never blank (a blank text block is left out)."""
_ANY_IDS = st.one_of(
    _IDS.map(lambda s: "call_" + s),
    st.text(min_size=0, max_size=12),  # dots, colons, spaces, any character: mapped
    st.sampled_from(["functions.get_weather:0", "mx-call", "mx-", "tool use 1"]),
).filter(lambda i: original_id(wire_id(i)) == i)
"""Call ids of any shape whose mapped spelling fits (see ``bedrock.ids``)."""


def bedrock_thinking() -> st.SearchStrategy[ThinkingBlock]:
    """Reasoning as Converse returns it: signed by a Bedrock model, unsigned, or redacted."""
    return st.one_of(
        st.builds(ThinkingBlock, _SAID),
        st.builds(ThinkingBlock, _SAID, signature=_SIG, provider=st.just("bedrock")),
        st.builds(
            ThinkingBlock,
            st.just(""),
            signature=_b64(),
            redacted=st.just(True),
            provider=st.just("bedrock"),
        ),
    )


def bedrock_media() -> st.SearchStrategy[Block]:
    """Images as bytes or in S3, and PDF documents with a Converse name."""
    return st.one_of(
        st.builds(ImageBlock, data=_b64(), media_type=st.sampled_from(["image/png", "image/gif"])),
        st.builds(ImageBlock, url=st.just("s3://bucket/a.png"), media_type=st.just("image/png")),
        st.builds(
            DocumentBlock,
            data=_b64(),
            media_type=st.just("application/pdf"),
            title=st.sampled_from(["report", "Q3 (draft)"]),
        ),
    )


@st.composite
def bedrock_conversations(draw: st.DrawFn) -> list[Message]:
    """Agent loops Converse carries: results answer the turn before, ids of any shape."""
    out: list[Message] = []
    if draw(st.booleans()):
        out.append(SystemMessage(draw(_SAID)))
    used: set[str] = set()
    for _ in range(draw(st.integers(1, 3))):
        prompt = draw(
            st.lists(st.builds(TextBlock, _SAID) | bedrock_media(), min_size=1, max_size=2)
        )
        out.append(UserMessage(tuple(prompt)))
        for _ in range(draw(st.integers(0, 2))):
            ids = draw(
                st.lists(
                    _ANY_IDS.filter(lambda i: i not in used), min_size=1, max_size=3, unique=True
                )
            )
            used.update(ids)
            tools = [
                ToolUseBlock(i, draw(st.sampled_from(["shell", "read"])), draw(_INPUTS))
                for i in ids
            ]
            lead = draw(st.lists(bedrock_thinking(), max_size=1))
            lead += draw(st.lists(st.builds(TextBlock, _SAID), max_size=1))
            out.append(AssistantMessage((*lead, *tools)))
            answers = tuple(
                ToolResultBlock(
                    t.id,
                    draw(st.lists(st.builds(TextBlock, _SAID), min_size=1, max_size=2).map(tuple)),
                    is_error=draw(st.none() | st.booleans()),
                )
                for t in tools
            )
            out.append(ToolMessage(answers))
        out.append(AssistantMessage((TextBlock(draw(_SAID)),)))
    return out

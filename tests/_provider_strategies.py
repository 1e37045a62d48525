"""Hypothesis strategies for conversations a provider codec can carry exactly.

``anthropic_conversations()`` and ``chat_conversations()`` draw conversations that are
already in the target's own shape (turns in the order the API wants, only content and
fields the format has), so ``decode_request(encode_request(c)) == c`` holds for them with
no normalisation at all. Arbitrary conversations come from ``messages.strategies``.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from hypothesis import strategies as st

from messages import (
    EMPTY,
    AssistantMessage,
    AudioBlock,
    FrozenDict,
    ImageBlock,
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


def anthropic_text() -> st.SearchStrategy[TextBlock]:
    return st.builds(
        TextBlock,
        _TEXT,
        citations=st.none() | st.lists(_CITATION, min_size=1, max_size=2).map(tuple),
        extra=_extras(_CACHE),
    )


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


def anthropic_image() -> st.SearchStrategy[ImageBlock]:
    media = st.sampled_from([None, "image/png", "image/jpeg", "image/gif", "image/webp"])
    return st.one_of(
        st.builds(ImageBlock, data=_B64, media_type=media, extra=_extras(_CACHE)),
        st.builds(ImageBlock, url=st.just("https://example.com/a.png")),
        st.builds(ImageBlock, file_id=st.just("file_011CNha8")),
    )


def anthropic_raw() -> st.SearchStrategy[RawBlock]:
    document = st.fixed_dictionaries(
        {
            "type": st.just("document"),
            "source": st.just({"type": "text", "media_type": "text/plain", "data": "x"}),
            "title": _TEXT,
        }
    )
    future = st.fixed_dictionaries(
        {"type": st.just("future_block"), "value": ms.json_values(max_leaves=3)}
    )
    return st.builds(RawBlock, document | future)


def _tool_input() -> st.SearchStrategy[FrozenDict]:
    return ms.json_objects(keys=st.text("abcdefgh", min_size=1, max_size=5))


@st.composite
def anthropic_conversations(draw: st.DrawFn, *, plain: bool = False) -> list[Any]:
    """A conversation Anthropic carries exactly; ``plain``: text and tools only (no extras)."""
    text = st.builds(TextBlock, _TEXT) if plain else anthropic_text()
    extras = st.just(EMPTY) if plain else _extras({"x_future": 1})
    conversation: list[Any] = []
    if draw(st.booleans()):
        conversation.append(SystemMessage(draw(_TEXT | st.lists(text, max_size=2).map(tuple))))
    pending: list[str] = []
    for r in range(draw(st.integers(0, 4))):
        answered = [i for i in pending if draw(st.booleans())]
        inner = st.lists(text if plain else text | anthropic_image(), max_size=2).map(tuple)
        results = [
            ToolResultBlock(
                call_id,
                draw(_TEXT | inner),
                is_error=None if plain else draw(st.none() | st.booleans()),
                extra=draw(st.just(EMPTY) if plain else _extras(_CACHE)),
            )
            for call_id in answered
        ]
        user_blocks = text if plain else text | anthropic_image() | anthropic_raw()
        others = draw(st.lists(user_blocks, max_size=2))
        content: Any = tuple(results + others)
        if not results and draw(st.booleans()):
            content = draw(_TEXT)
        conversation.append(UserMessage(content, extra=draw(extras)))
        uses = [
            ToolUseBlock(
                f"toolu_{r}_{k}",
                draw(st.sampled_from(["Bash", "Read", "get_weather"])),
                draw(_tool_input()),
                extra=draw(st.just(EMPTY) if plain else _extras({"caller": {"type": "direct"}})),
            )
            for k in range(draw(st.integers(0, 2)))
        ]
        blocks = text if plain else text | anthropic_thinking() | anthropic_raw()
        body = draw(st.permutations(draw(st.lists(blocks, max_size=2)) + uses))
        assistant: Any = tuple(body)
        if not uses and draw(st.booleans()):
            assistant = draw(_TEXT)
        conversation.append(AssistantMessage(assistant, extra=draw(extras)))
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
    return st.lists(text | anthropic_thinking() | tool | anthropic_raw(), max_size=4)


# ----------------------------------------------------------------------------- OpenAI Chat

_BREAKPOINT = {"prompt_cache_breakpoint": {"mode": "explicit"}}


def chat_text() -> st.SearchStrategy[TextBlock]:
    return st.builds(TextBlock, _TEXT, extra=_extras(_BREAKPOINT))


def chat_user_block() -> st.SearchStrategy[Any]:
    image = st.builds(
        ImageBlock,
        url=st.sampled_from(["https://example.com/a.png", "data:image/png;base64,iVBORw0KGgo="]),
        extra=_extras({"detail": "low"}, {"detail": "high"}),
    )
    audio = st.builds(
        AudioBlock, data=_B64, media_type=st.sampled_from(["audio/wav", "audio/mpeg"])
    )
    file = st.builds(RawBlock, st.just({"type": "file", "file": {"file_id": "file-6F2k"}}))
    return chat_text() | image | audio | file


def _arguments(draw: st.DrawFn) -> tuple[FrozenDict, str]:
    if draw(st.integers(0, 4)) == 0:
        return EMPTY, draw(st.sampled_from(["{", "", "[1, 2]", '{"a": ']))
    value = draw(_tool_input())
    return value, json.dumps(thaw(value), indent=draw(st.sampled_from([None, 2])))


@st.composite
def chat_conversations(draw: st.DrawFn, *, plain: bool = False) -> list[Any]:
    """A conversation OpenAI Chat carries exactly; ``plain``: text and tools only."""
    text = st.builds(TextBlock, _TEXT) if plain else chat_text()
    named = st.just(EMPTY) if plain else _extras({"name": "ana"})
    conversation: list[Any] = []
    for _ in range(draw(st.integers(0, 2))):
        role = "system" if plain else draw(st.sampled_from(["system", "developer"]))
        content = draw(_TEXT | st.lists(text, max_size=2).map(tuple))
        conversation.append(SystemMessage(content, role=role, extra=draw(named)))
    for r in range(draw(st.integers(0, 4))):
        user_blocks = text if plain else chat_user_block()
        user = draw(_TEXT | st.lists(user_blocks, max_size=3).map(tuple))
        conversation.append(UserMessage(user, extra=draw(named)))
        uses = []
        for k in range(draw(st.integers(0, 2))):
            value, arguments = _arguments(draw)
            if plain:
                value = draw(_tool_input())
                arguments = json.dumps(thaw(value))
            name = draw(st.sampled_from(["get_weather", "run"]))
            uses.append(ToolUseBlock(f"call_{r}_{k}", name, value, arguments=arguments))
        refusal = (
            []
            if plain
            else draw(st.lists(_TEXT.map(lambda s: RawBlock({"refusal": s})), max_size=1))
        )
        audio = (
            [] if plain else draw(st.lists(st.just(AudioBlock(file_id="audio_abc")), max_size=1))
        )
        texts = draw(st.lists(text, min_size=0 if uses or refusal or audio else 1, max_size=2))
        assistant: Any = tuple(texts + refusal + uses + audio)
        if len(assistant) == 1 and texts and not texts[0].extra and draw(st.booleans()):
            assistant = texts[0].text
        # a refusal with no text is sent with "content": null, which decodes into extra
        null = FrozenDict({"content": None}) if refusal and not (texts or uses or audio) else EMPTY
        conversation.append(AssistantMessage(assistant, extra=null))
        for use in uses:
            if draw(st.booleans()):
                content = draw(_TEXT | st.lists(text, max_size=2).map(tuple))
                conversation.append(
                    ToolMessage((ToolResultBlock(use.id, content, extra=draw(named)),))
                )
    return conversation

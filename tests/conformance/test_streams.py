"""Our stream accumulators agree with the SDKs' own accumulation.

Anthropic's SDK folds stream events into a message with ``accumulate_event``; OpenAI's folds
Chat chunks with ``ChatCompletionStreamState`` and Responses events with
``ResponseStreamState``. For the stream fixtures, the real Claude Code captures and streams
cut from drawn responses, feeding the same events to ours and to theirs must give the same
message: ``accumulator().message() == decode_response(<the SDK's final object, dumped>)``.
Gemini's SDK has no accumulator (each chunk is a whole ``GenerateContentResponse``).
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance import oracle
from conftest import LOCAL_FIXTURES
from conftest import shared_fixtures
from messages import AssistantMessage
from messages import RawBlock
from messages import ThinkingBlock
from messages import Usage
from messages.providers import get
from support.provider_strategies import anthropic_response_blocks
from support.provider_strategies import split

anthropic_stream = pytest.importorskip("anthropic.lib.streaming._messages")
chat_stream = pytest.importorskip("openai.lib.streaming.chat")
responses_stream = pytest.importorskip("openai.lib.streaming.responses._responses")
from anthropic.types import RawMessageStreamEvent  # noqa: E402
from openai.types.chat import ChatCompletionChunk  # noqa: E402
from openai.types.responses import ResponseStreamEvent  # noqa: E402
from pydantic import TypeAdapter  # noqa: E402

_ANTHROPIC_EVENT: Any = TypeAdapter(RawMessageStreamEvent)
_RESPONSES_EVENT: Any = TypeAdapter(ResponseStreamEvent)


def _lines(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


# ------------------------------------------------------------------------------ Anthropic


def sdk_events(adapter: Any, events: list[Any]) -> tuple[list[Any], list[Any]]:
    """The events as the SDK validates them (fields newer SDKs require filled in, see
    ``oracle.fill``), and the same dumped back to JSON, for our accumulator: both sides
    see the same, SDK-valid events. Pings and the fixtures' invented event types (no
    SDK has them) are left out."""
    models, dumped = [], []
    for event in events:
        kind = event.get("type", "") if isinstance(event, dict) else ""
        if kind == "ping" or "future" in kind:
            continue
        if not isinstance(event, dict) or event.get("object") == "" or "error" in event:
            # "[DONE]", an Azure content-filter chunk (the SDK's stream skips chunks whose
            # object is not a chunk's), an error chunk: ours sees them, the SDK does not
            dumped.append(event)
            continue
        copy = json.loads(json.dumps(event))
        oracle.fill(adapter.validate_python, copy)
        model = adapter.validate_python(copy)
        models.append(model)
        dumped.append(model.model_dump(mode="json", exclude_unset=True, by_alias=True))
    return models, dumped


def sdk_anthropic(events: list[Any]) -> dict[str, Any]:
    """The SDK's message for ``events`` (SDK event objects), dumped as it holds it."""
    snapshot = None
    buffers: dict[int, bytes] = {}
    for event in events:
        snapshot = anthropic_stream.accumulate_event(
            event=event,
            current_snapshot=snapshot,
            json_bufs=buffers,
        )
    assert snapshot is not None
    dumped: dict[str, Any] = snapshot.model_dump(mode="json", exclude_unset=True)
    for block in dumped["content"]:
        block.pop("parsed_output", None)  # the SDK's own parsing aid, not wire data
    return dumped


def ours(provider: str, events: list[Any]) -> AssistantMessage:
    accumulator = get(provider).accumulator()
    for event in events:
        accumulator.feed(event)
    return accumulator.message()


def _no_nulls(value: Any) -> Any:
    """``value`` without null fields: the SDKs' accumulators set fields a stream never sent
    (``stop_details``, ``annotations``) to None, where ours leaves them out."""
    if isinstance(value, dict):
        return {k: _no_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_no_nulls(v) for v in value]
    return value


def assert_same(provider: str, events: list[Any], theirs: dict[str, Any]) -> None:
    """Our accumulator's message is the one the SDK's final object decodes to.

    Anthropic's ``accumulate_event`` copies only the usage fields it knows from
    ``message_delta`` (a real capture also sends ``iterations``, which ours keeps): there the
    SDK's usage must be contained in ours, field by field. Null fields are not compared
    (see :func:`_no_nulls`).
    """
    oracle.STREAM_COUNTS[provider] += 1
    codec = get(provider)
    mine = _no_nulls(codec.encode_response(ours(provider, events)))
    expected = _no_nulls(codec.encode_response(codec.decode_response(theirs)))
    if provider == "anthropic":
        usage = mine.pop("usage", {})
        for key, value in expected.pop("usage", {}).items():
            assert usage.get(key) == value, f"usage.{key}: {usage.get(key)!r} != {value!r}"
    assert oracle.first_difference(mine, expected) is None, oracle.first_difference(mine, expected)


@pytest.mark.parametrize("name", ["stream_tool_use.jsonl", "stream_citations.jsonl"])
def test_anthropic_stream_fixtures_fold_like_the_sdk(name: str) -> None:
    models, events = sdk_events(_ANTHROPIC_EVENT, _lines(LOCAL_FIXTURES / "anthropic" / name))
    assert_same("anthropic", events, sdk_anthropic(models))


def _claude_code_streams(path: Path) -> list[list[dict[str, Any]]]:
    runs: list[list[dict[str, Any]]] = []
    current: list[dict[str, Any]] = []
    for record in _lines(path):
        if record.get("type") != "stream_event":
            continue
        event = record["event"]
        if event["type"] == "message_start":
            current = []
        current.append(event)
        if event["type"] == "message_stop":
            runs.append(current)
    return runs


@pytest.mark.parametrize(
    "name", ["caic-read-edit-bash.jsonl", "caic-tool-error.jsonl", "caic-ask-user-question.jsonl"]
)
def test_real_claude_code_streams_fold_like_the_sdk(name: str) -> None:
    runs = _claude_code_streams(shared_fixtures("claude_code", name))
    assert runs
    for run in runs:
        models, events = sdk_events(_ANTHROPIC_EVENT, run)
        assert_same("anthropic", events, sdk_anthropic(models))


def anthropic_events(body: dict[str, Any], cuts: list[int]) -> list[dict[str, Any]]:
    """The events a server sends for a response ``body``, deltas cut at ``cuts``."""
    start = {**body, "content": [], "stop_reason": None}
    events: list[dict[str, Any]] = [{"type": "message_start", "message": start}]
    for i, block in enumerate(body["content"]):
        kind = block["type"]
        if kind == "text":
            first = {k: v for k, v in block.items() if k != "citations"} | {"text": ""}
            events.append({"type": "content_block_start", "index": i, "content_block": first})
            for citation in block.get("citations") or ():
                delta = {"type": "citations_delta", "citation": citation}
                events.append({"type": "content_block_delta", "index": i, "delta": delta})
            for piece in split(block["text"], cuts):
                delta = {"type": "text_delta", "text": piece}
                events.append({"type": "content_block_delta", "index": i, "delta": delta})
        elif kind == "thinking":
            first = {**block, "thinking": "", "signature": ""}
            events.append({"type": "content_block_start", "index": i, "content_block": first})
            for piece in split(block["thinking"], cuts):
                delta = {"type": "thinking_delta", "thinking": piece}
                events.append({"type": "content_block_delta", "index": i, "delta": delta})
            delta = {"type": "signature_delta", "signature": block["signature"]}
            events.append({"type": "content_block_delta", "index": i, "delta": delta})
        elif kind == "tool_use":
            first = {**block, "input": {}}
            events.append({"type": "content_block_start", "index": i, "content_block": first})
            for piece in split(json.dumps(block["input"]), cuts):
                delta = {"type": "input_json_delta", "partial_json": piece}
                events.append({"type": "content_block_delta", "index": i, "delta": delta})
        else:
            events.append({"type": "content_block_start", "index": i, "content_block": block})
        events.append({"type": "content_block_stop", "index": i})
    delta = {"stop_reason": body["stop_reason"], "stop_sequence": None}
    events.append({"type": "message_delta", "delta": delta, "usage": body["usage"]})
    events.append({"type": "message_stop"})
    return events


def _streamable(block: Any) -> bool:
    # A server streams thinking with its signature, and only the block types above.
    if isinstance(block, ThinkingBlock):
        return block.signature is not None and not block.redacted
    return not isinstance(block, RawBlock)


@given(anthropic_response_blocks(), st.lists(st.integers(0, 200), max_size=4))
def test_drawn_anthropic_streams_fold_like_the_sdk(content: list[Any], cuts: list[int]) -> None:
    message = AssistantMessage(
        tuple(b for b in content if _streamable(b)),
        usage=Usage(12, 34),
        stop_reason="end_turn",
        model="claude-x",
        message_id="msg_9",
    )
    body = get("anthropic").encode_response(message)
    body = {"type": "message", "role": "assistant", **body}
    models, events = sdk_events(_ANTHROPIC_EVENT, anthropic_events(body, cuts))
    assert_same("anthropic", events, sdk_anthropic(models))


# ------------------------------------------------------------------------------ OpenAI Chat


_CHUNK: Any = TypeAdapter(ChatCompletionChunk)


def sdk_chat(chunks: list[Any]) -> dict[str, Any]:
    """The SDK's completion for ``chunks`` (SDK chunk objects), dumped.

    Left out of the dump: the SDK's parsing aids (``parsed``, ``parsed_arguments``) and
    the stream ``index`` it keeps on each tool call, none of them in a completion; audio
    data, which the SDK joins as strings (each chunk is padded base64 of its own), is given
    as the bytes joined, as ours does.
    """
    state = chat_stream.ChatCompletionStreamState()
    for chunk in chunks:
        state.handle_chunk(chunk)
    # The accumulated snapshot: ``get_final_completion`` adds only parsing, which refuses a
    # choice cut short by the length limit.
    final = state.current_completion_snapshot
    dumped: dict[str, Any] = final.model_dump(mode="json", exclude_unset=True)
    for choice in dumped["choices"]:
        message = choice["message"]
        message.pop("parsed", None)
        for call in message.get("tool_calls") or ():
            call.pop("index", None)
            call["function"].pop("parsed_arguments", None)
        audio = message.get("audio")
        if isinstance(audio, dict) and isinstance(audio.get("data"), str):
            pieces = re.findall(r"[^=]+=*", audio["data"])
            joined = b"".join(base64.b64decode(p) for p in pieces)
            audio["data"] = base64.b64encode(joined).decode()
    return dumped


@pytest.mark.parametrize(
    "name",
    ["stream_text.jsonl", "stream_tools.jsonl", "stream_audio.jsonl", "stream_refusal_n2.jsonl"],
)
def test_chat_stream_fixtures_fold_like_the_sdk(name: str) -> None:
    models, chunks = sdk_events(_CHUNK, _lines(LOCAL_FIXTURES / "openai_chat" / name))
    assert_same("openai_chat", chunks, sdk_chat(models))


@given(
    st.lists(st.text(max_size=12), max_size=3),
    st.lists(
        st.tuples(
            st.sampled_from(["f", "g"]), st.dictionaries(st.sampled_from("ab"), st.integers())
        ),
        max_size=2,
    ),
    st.lists(st.integers(0, 200), max_size=4),
)
def test_drawn_chat_streams_fold_like_the_sdk(
    texts: list[str], calls: list[tuple[str, dict[str, int]]], cuts: list[int]
) -> None:
    head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "m"}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    chunks = [chunk({"role": "assistant", "content": ""})]
    chunks += [chunk({"content": piece}) for text in texts for piece in split(text, cuts)]
    for k, (name, arguments) in enumerate(calls):
        first = {"index": k, "id": f"call_{k}", "type": "function"}
        chunks.append(
            chunk({"tool_calls": [{**first, "function": {"name": name, "arguments": ""}}]})
        )
        for piece in split(json.dumps(arguments), cuts):
            chunks.append(chunk({"tool_calls": [{"index": k, "function": {"arguments": piece}}]}))
    chunks.append(chunk({}, "tool_calls" if calls else "stop"))
    usage = {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}
    chunks.append({**head, "choices": [], "usage": usage})
    models, chunks = sdk_events(_CHUNK, chunks)
    assert_same("openai_chat", chunks, sdk_chat(models))


# ---------------------------------------------------------------------------- OpenAI Responses


def sdk_responses(events: list[Any]) -> dict[str, Any]:
    state = responses_stream.ResponseStreamState(input_tools=[], text_format=chat_stream_omit())
    final = None
    for event in events:
        for emitted in state.handle_event(event):
            if emitted.type == "response.completed":
                final = emitted.response
    assert final is not None
    dumped: dict[str, Any] = final.model_dump(mode="json", exclude_unset=True)
    for item in dumped["output"]:
        item.pop("parsed_arguments", None)
        for part in item.get("content") or ():
            part.pop("parsed", None)
    return dumped


def chat_stream_omit() -> Any:
    from openai import omit

    return omit


@pytest.mark.parametrize("name", ["stream_text.jsonl", "stream_tool_call.jsonl"])
def test_responses_stream_fixtures_fold_like_the_sdk(name: str) -> None:
    events = _lines(LOCAL_FIXTURES / "openai_responses" / name)
    models, events = sdk_events(_RESPONSES_EVENT, events)
    assert_same("openai_responses", events, sdk_responses(models))

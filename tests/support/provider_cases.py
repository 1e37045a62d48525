"""The format-specific inputs of the provider contract's error and policy laws.

``tests/contract/test_providers.py`` runs one law over each list, whatever the provider:
a malformed body or stream event gives a DecodeError whose message names the place; content
a target cannot carry raises with its path under ``"raise"``, and under ``"drop"`` and
``"text"`` is left out or described. The cases differ per wire format, so they are data
here, grouped by provider; messages leave out the ``"<provider>: "`` prefix every error has.
Cases of different providers look alike (a usage count of the wrong type, say): each format
spells its own fields, so each keeps its own case.
"""

from __future__ import annotations

from typing import Any

from messages import AssistantMessage
from messages import AudioBlock
from messages import DocumentBlock
from messages import ImageBlock
from messages import RawBlock
from messages import SystemMessage
from messages import TextBlock
from messages import ThinkingBlock
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UserMessage
from messages import VideoBlock

AUDIO = AudioBlock(data="UklGRg==", media_type="audio/wav")
VIDEO = VideoBlock(file_id="https://youtu.be/x", media_type="video/mp4")
FOREIGN_THINKING = ThinkingBlock("Hmm.", signature="EqQB", provider="anthropic")
UNKNOWN_OPENAI_THINKING = ThinkingBlock("Hmm.", signature="gAAA", provider="openai")
FOREIGN_RAW = RawBlock({"type": "document", "source": {"type": "text", "data": "x"}})

DECODE_ERRORS: list[tuple[str, str, Any, str]] = [
    ("anthropic", "request", 5, "$: expected an object, found an integer"),
    ("anthropic", "request", {}, "$.messages: expected an array, found null"),
    (
        "anthropic",
        "request",
        {"messages": [{"role": "user", "content": 5}]},
        "$.messages[0].content: expected a string or an array of blocks, found an integer",
    ),
    (
        "anthropic",
        "request",
        {"messages": [{"role": 1}]},
        "$.messages[0].role: expected a string, found an integer",
    ),
    (
        "anthropic",
        "request",
        {"messages": [{"role": "user", "content": [{"type": "text", "text": 5}]}]},
        "$.messages[0].content[0].text: expected a string, found an integer",
    ),
    (
        "anthropic",
        "request",
        {"system": 5, "messages": []},
        "$.system: expected a string or an array of blocks, found an integer",
    ),
    (
        "anthropic",
        "request",
        {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "t",
                            "content": [{"type": "text", "text": None}],
                        }
                    ],
                }
            ]
        },
        "$.messages[0].content[0].content[0].text: expected a string, found null",
    ),
    (
        "anthropic",
        "response",
        {"type": "error", "error": {"type": "overloaded_error"}},
        "$.type: expected 'message', found 'error'",
    ),
    (
        "anthropic",
        "response",
        {"content": "Hi"},
        "$.content: expected an array of blocks, found a string",
    ),
    (
        "anthropic",
        "response",
        {"content": [], "usage": {"input_tokens": "9"}},
        "$.usage.input_tokens: expected an integer, found a string",
    ),
    (
        "anthropic",
        "response",
        {"content": [], "usage": {"output_tokens_details": {"thinking_tokens": 1.5}}},
        "$.usage.output_tokens_details.thinking_tokens: expected an integer, found a number",
    ),
    (
        "anthropic",
        "request",
        {"messages": [{"role": "user", "content": "x", "bad": {1, 2}}]},
        "$.messages[0].bad: expected a JSON value, found set",
    ),
    ("openai_chat", "request", [], "$: expected an object, found an array"),
    ("openai_chat", "request", {"messages": 1}, "$.messages: expected an array, found an integer"),
    (
        "openai_chat",
        "request",
        {"messages": [{"role": "tool", "content": "x"}]},
        "$.messages[0].tool_call_id: expected a string, found null",
    ),
    (
        "openai_chat",
        "request",
        {"messages": [{"role": "user", "content": {"text": "x"}}]},
        "$.messages[0].content: expected a string or an array of parts, found an object",
    ),
    (
        "openai_chat",
        "request",
        {"messages": [{"role": "assistant", "refusal": 3}]},
        "$.messages[0].refusal: expected a string, found an integer",
    ),
    (
        "openai_chat",
        "request",
        {"messages": [{"role": "assistant", "tool_calls": {}}]},
        "$.messages[0].tool_calls: expected an array, found an object",
    ),
    (
        "openai_chat",
        "response",
        {"choices": []},
        "$.choices: expected a non-empty array, found an empty array",
    ),
    (
        "openai_chat",
        "response",
        {"choices": [{"message": None}]},
        "$.choices[0].message: expected an object, found null",
    ),
    (
        "openai_chat",
        "response",
        {"choices": [{"message": {"role": "user"}}]},
        "$.choices[0].message.role: expected 'assistant', found 'user'",
    ),
    (
        "openai_chat",
        "response",
        {"choices": [{"message": {"content": 1}}]},
        "$.choices[0].message.content: expected a string or an array of parts, found an integer",
    ),
    (
        "openai_chat",
        "response",
        {"choices": [{"message": {}}], "usage": {"prompt_tokens_details": {"cached_tokens": "3"}}},
        "$.usage.prompt_tokens_details.cached_tokens: expected an integer, found a string",
    ),
    (
        "openai_chat",
        "response",
        {"choices": [{"message": {}, "finish_reason": 1}]},
        "$.choices[0].message.finish_reason: expected a string, found an integer",
    ),
    ("openai_responses", "request", "x", "$: expected an object, found a string"),
    (
        "openai_responses",
        "request",
        {"instructions": 5},
        "$.instructions: expected a string, found an integer",
    ),
    (
        "openai_responses",
        "request",
        {"input": 5},
        "$.input: expected a string or an array, found an integer",
    ),
    (
        "openai_responses",
        "request",
        {"input": [5]},
        "$.input[0]: expected an object, found an integer",
    ),
    (
        "openai_responses",
        "request",
        {"input": [{"role": 5, "content": "x"}]},
        "$.input[0].role: expected a string, found an integer",
    ),
    (
        "openai_responses",
        "request",
        {"input": [{"role": "user", "content": 5}]},
        "$.input[0].content: expected a string or an array, found an integer",
    ),
    (
        "openai_responses",
        "request",
        {"input": [{"role": "user", "content": [{"type": "input_text", "text": None}]}]},
        "$.input[0].content[0].text: expected a string, found null",
    ),
    (
        "openai_responses",
        "request",
        {"input": [{"type": "function_call", "name": "f", "arguments": "{}"}]},
        "$.input[0].call_id: expected a string, found nothing",
    ),
    (
        "openai_responses",
        "request",
        {"input": [{"type": "reasoning", "id": "rs", "summary": "x"}]},
        "$.input[0].summary: expected an array, found a string",
    ),
    (
        "openai_responses",
        "request",
        {
            "input": [
                {
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": "x", "annotations": 3}],
                }
            ]
        },
        "$.input[0].content[0].annotations: expected an array, found an integer",
    ),
    (
        "openai_responses",
        "request",
        {"input": [{"type": "function_call_output", "call_id": "c", "output": 1}]},
        "$.input[0].output: expected a string or an array, found an integer",
    ),
    (
        "openai_responses",
        "request",
        {"input": [{"role": "user", "content": "x", "n": float("nan")}]},
        "$.input[0].n: expected a finite number, found nan",
    ),
    ("openai_responses", "response", {}, "$.output: expected an array, found null"),
    (
        "openai_responses",
        "response",
        {"output": [1]},
        "$.output[0]: expected an object, found an integer",
    ),
    (
        "openai_responses",
        "response",
        {"output": [], "usage": 5},
        "$.usage: expected an object, found an integer",
    ),
    (
        "openai_responses",
        "response",
        {"output": [], "usage": {"input_tokens": "3"}},
        "$.usage.input_tokens: expected an integer, found a string",
    ),
    (
        "openai_responses",
        "response",
        {"output": [], "usage": {"input_tokens_details": {"cached_tokens": 1.5}}},
        "$.usage.input_tokens_details.cached_tokens: expected an integer, found a number",
    ),
    (
        "openai_responses",
        "response",
        {"output": [], "status": 3},
        "$.status: expected a string, found an integer",
    ),
    (
        "openai_responses",
        "response",
        {"output": [], "created_at": {}},
        "$.created_at: expected a number, found an object",
    ),
    (
        "openai_responses",
        "response",
        {"output": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": None}]},
        "$.output[0].arguments: expected a string, found null",
    ),
    ("gemini", "request", "x", "$: expected an object, found a string"),
    ("gemini", "request", {"contents": 5}, "$.contents: expected an array, found an integer"),
    ("gemini", "request", {"contents": [5]}, "$.contents[0]: expected an object, found an integer"),
    (
        "gemini",
        "request",
        {"contents": [{"role": "user"}]},
        "$.contents[0].parts: expected an array, found null",
    ),
    (
        "gemini",
        "request",
        {"contents": [{"parts": [{"text": 5}]}]},
        "$.contents[0].parts[0].text: expected a string, found an integer",
    ),
    (
        "gemini",
        "request",
        {"contents": [{"parts": [{"functionCall": {"args": {}}}]}]},
        "$.contents[0].parts[0].functionCall.name: expected a string, found null",
    ),
    (
        "gemini",
        "request",
        {"contents": [{"parts": [{"functionCall": {"name": "f", "args": []}}]}]},
        "$.contents[0].parts[0].functionCall.args: expected an object, found an array",
    ),
    (
        "gemini",
        "request",
        {"contents": [{"parts": [{"functionResponse": {"name": "f", "id": 3, "response": {}}}]}]},
        "$.contents[0].parts[0].functionResponse.id: expected a string, found an integer",
    ),
    (
        "gemini",
        "request",
        {"contents": [{"parts": [{"inlineData": "x"}]}]},
        "$.contents[0].parts[0].inlineData: expected an object, found a string",
    ),
    (
        "gemini",
        "request",
        {"systemInstruction": "x"},
        "$.systemInstruction: expected an object, found a string",
    ),
    (
        "gemini",
        "request",
        {"systemInstruction": {"parts": [{"text": 1}]}},
        "$.systemInstruction.parts[0].text: expected a string, found an integer",
    ),
    (
        "gemini",
        "request",
        {"contents": [{"parts": [{"text": "x", "thought": True, "thoughtSignature": 5}]}]},
        "$.contents[0].parts[0].thoughtSignature: expected a string, found an integer",
    ),
    ("gemini", "response", {"candidates": 5}, "$.candidates: expected an array, found an integer"),
    (
        "gemini",
        "response",
        {"candidates": [5]},
        "$.candidates[0]: expected an object, found an integer",
    ),
    (
        "gemini",
        "response",
        {"candidates": [{"content": 5}]},
        "$.candidates[0].content: expected an object, found an integer",
    ),
    (
        "gemini",
        "response",
        {"candidates": [{"content": {"parts": 5}}]},
        "$.candidates[0].content.parts: expected an array, found an integer",
    ),
    (
        "gemini",
        "response",
        {"candidates": [{"finishReason": 1}]},
        "$.candidates[0].finishReason: expected a string, found an integer",
    ),
    (
        "gemini",
        "response",
        {"usageMetadata": 3},
        "$.usageMetadata: expected an object, found an integer",
    ),
    (
        "gemini",
        "response",
        {"usageMetadata": {"promptTokenCount": "1"}},
        "$.usageMetadata.promptTokenCount: expected an integer, found a string",
    ),
    ("gemini", "response", {"responseId": 1}, "$.responseId: expected a string, found an integer"),
]
"""(provider, "request" or "response", body, the error's message)."""

STREAM_ERRORS: list[tuple[str, list[Any], str]] = [
    ("anthropic", [5], "$: expected an event object, found an integer"),
    (
        "anthropic",
        [{"type": "content_block_delta", "index": 3, "delta": {"type": "text_delta", "text": "x"}}],
        "$.index: expected a started content block, found none at index 3",
    ),
    (
        "anthropic",
        [
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": 5}},
        ],
        "$.delta.text: expected a string, found an integer",
    ),
    (
        "anthropic",
        [{"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": 1}}],
        "$.content_block.text: expected a string, found an integer",
    ),
    (
        "anthropic",
        [{"type": "message_start", "message": []}],
        "$.message: expected an object, found an array",
    ),
    ("openai_chat", ["x"], "$: expected a chunk object, found a string"),
    ("openai_chat", [{"choices": {}}], "$.choices: expected an array, found an object"),
    (
        "openai_chat",
        [{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": "0"}]}}]}],
        "$.choices[0].delta.tool_calls[0].index: expected an integer, found a string",
    ),
    (
        "openai_chat",
        [{"choices": [{"index": 0, "delta": {"audio": {"data": "!!"}}}]}],
        "$.choices[0].delta.audio.data: expected base64 audio data",
    ),
    ("openai_chat", [{"choices": [5]}], "$.choices[0]: expected an object, found an integer"),
    (
        "openai_chat",
        [{"choices": [{"index": None}]}],
        "$.choices[0].index: expected an integer, found null",
    ),
    ("openai_chat", [{"choices": [], "usage": 3}], "$.usage: expected an object, found an integer"),
    (
        "openai_chat",
        [{"choices": [{"delta": {"tool_calls": {}}}]}],
        "$.choices[0].delta.tool_calls: expected an array, found an object",
    ),
    (
        "openai_chat",
        [{"choices": [{"delta": {"tool_calls": [1]}}]}],
        "$.choices[0].delta.tool_calls[0]: expected an object, found an integer",
    ),
    (
        "openai_chat",
        [{"choices": [{"delta": {"audio": 1}}]}],
        "$.choices[0].delta.audio: expected an object, found an integer",
    ),
    (
        "openai_chat",
        [{"choices": [{"delta": 1}]}],
        "$.choices[0].delta: expected an object, found an integer",
    ),
    ("openai_responses", [3], "$: expected an object, found an integer"),
    (
        "openai_responses",
        [
            {
                "type": "response.output_text.delta",
                "output_index": 0,
                "content_index": 0,
                "delta": "x",
            }
        ],
        "$.output_index: no output item at index 0 yet",
    ),
    (
        "openai_responses",
        [{"type": "response.output_item.added", "output_index": "0", "item": {}}],
        "$.output_index: expected a non-negative integer, found a string",
    ),
    (
        "openai_responses",
        [{"type": "response.output_item.added", "output_index": 0, "item": None}],
        "$.item: expected an object, found null",
    ),
    (
        "openai_responses",
        [
            {
                "type": "response.output_item.added",
                "output_index": 0,
                "item": {"type": "message", "content": []},
            },
            {
                "type": "response.content_part.added",
                "output_index": 0,
                "content_index": 2,
                "part": {},
            },
        ],
        "$.content_index: index 2 skips past the 0 known so far",
    ),
    (
        "openai_responses",
        [
            {
                "type": "response.output_item.added",
                "output_index": 0,
                "item": {"type": "function_call"},
            },
            {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": 5},
        ],
        "$.delta: expected a string, found an integer",
    ),
    (
        "openai_responses",
        [{"type": "response.created", "response": []}],
        "$.response: expected an object, found an array",
    ),
    ("gemini", [[]], "$: expected an object, found an array"),
    ("gemini", [{"candidates": {}}], "$.candidates: expected an array, found an object"),
    ("gemini", [{"candidates": [3]}], "$.candidates[0]: expected an object, found an integer"),
    (
        "gemini",
        [{"candidates": [{"index": "0"}]}],
        "$.candidates[0].index: expected an integer, found a string",
    ),
    (
        "gemini",
        [{"candidates": [{"content": []}]}],
        "$.candidates[0].content: expected an object, found an array",
    ),
    (
        "gemini",
        [{"candidates": [{"content": {"parts": {}}}]}],
        "$.candidates[0].content.parts: expected an array, found an object",
    ),
]
"""(provider, the events fed in order, the error the last one raises)."""

UNSUPPORTED: list[tuple[str, list[Any], str, str, str | None]] = [
    (
        "anthropic",
        [
            UserMessage(
                (TextBlock("hear this"), AudioBlock(data="UklGRg==", media_type="audio/wav"))
            )
        ],
        "$[0].content[1]",
        "cannot carry audio",
        "[audio: audio/wav, 4 bytes]",
    ),
    (
        "anthropic",
        [AssistantMessage((ThinkingBlock("Plan.", signature="enc", provider="openai"),))],
        "$[0].content[0]",
        "cannot carry thinking signed by 'openai'",
        "[thinking: Plan.]",
    ),
    (
        "anthropic",
        [UserMessage((RawBlock({"type": "input_audio", "input_audio": {}}),))],
        "$[0].content[0]",
        "cannot carry a 'input_audio' block",
        "[input_audio]",
    ),
    (
        "anthropic",
        [UserMessage((ThinkingBlock("Plan.", signature="sig", provider="anthropic"),))],
        "$[0].content[0]",
        "cannot carry thinking in a user turn",
        "[thinking: Plan.]",
    ),
    (
        "openai_chat",
        [
            AssistantMessage(
                (ThinkingBlock("Plan.", signature="sig", provider="anthropic"), TextBlock("Hi"))
            )
        ],
        "$[0].content[0]",
        "cannot carry thinking content in an assistant message",
        "[thinking: Plan.]",
    ),
    (
        "openai_chat",
        [ToolMessage((ToolResultBlock("c1", (TextBlock("see"), ImageBlock(file_id="file_1"))),))],
        "$[0].content[0].content[1]",
        "cannot carry image content in a tool result",
        "[image: file file_1]",
    ),
    (
        "openai_chat",
        [UserMessage((RawBlock({"type": "document", "title": "Q3"}),))],
        "$[0].content[0]",
        "cannot carry a 'document' block",
        "[document: Q3]",
    ),
    (
        "openai_chat",
        [UserMessage((AudioBlock(data="ZkxhQw==", media_type="audio/flac"),))],
        "$[0].content[0]",
        "cannot carry audio in audio/flac",
        "[audio: audio/flac, 4 bytes]",
    ),
    (
        "openai_responses",
        [UserMessage((TextBlock("hi"), AUDIO))],
        "$[0].content[1]",
        "OpenAI Responses has no audio input part",
        None,
    ),
    (
        "openai_responses",
        [AssistantMessage((FOREIGN_THINKING,))],
        "$[0].content[0]",
        "OpenAI Responses replays only reasoning items OpenAI produced (with id)",
        None,
    ),
    (
        "openai_responses",
        [AssistantMessage((UNKNOWN_OPENAI_THINKING,))],
        "$[0].content[0]",
        "OpenAI Responses replays only reasoning items OpenAI produced (with id)",
        None,
    ),
    (
        "openai_responses",
        [UserMessage((FOREIGN_RAW,))],
        "$[0].content[0]",
        "this raw block is not an OpenAI Responses part",
        None,
    ),
    (
        "openai_responses",
        [AssistantMessage((ImageBlock(url="https://x/y.png"),))],
        "$[0].content[0]",
        "OpenAI Responses assistant messages cannot carry image",
        None,
    ),
    (
        "openai_responses",
        [ToolMessage((ToolResultBlock("call_1", "boom", is_error=True),))],
        "$[0].content[0].is_error",
        "OpenAI Responses cannot mark a tool output as an error",
        None,
    ),
    (
        "openai_responses",
        [ToolMessage((ToolResultBlock("c", (AUDIO,)),))],
        "$[0].content[0].content[0]",
        "OpenAI Responses has no audio input part",
        None,
    ),
    (
        "openai_responses",
        [
            AssistantMessage(
                (TextBlock("cited", citations=({"type": "char_location", "cited_text": "x"},)),)
            )
        ],
        "$[0].content[0].citations",
        "these citations cannot become OpenAI annotations",
        None,
    ),
    (
        "openai_responses",
        [ToolMessage("plain text")],
        "$[0].content",
        "a tool message needs ToolResultBlocks naming their calls",
        None,
    ),
    (
        "gemini",
        [AssistantMessage((ThinkingBlock("Hmm.", signature="EqQB", provider="anthropic"),))],
        "$[0].content[0]",
        "Gemini replays only thought signatures Google produced",
        None,
    ),
    (
        "gemini",
        [ToolMessage((ToolResultBlock("call_9", "orphan"),))],
        "$[0].content[0]",
        "a Gemini function response needs the tool's name (no call found)",
        None,
    ),
    (
        "gemini",
        [AssistantMessage((ToolUseBlock("c", "f", arguments='{"a": '),))],
        "$[0].content[0].arguments",
        "Gemini function call arguments must be a JSON object",
        None,
    ),
    (
        "gemini",
        [UserMessage((ImageBlock(file_id="file-abc"),))],
        "$[0].content[0]",
        "a file id of another provider is not a Gemini file URI",
        None,
    ),
    (
        "gemini",
        [UserMessage((ImageBlock(data="AAAA"),))],
        "$[0].content[0]",
        "Gemini inline data needs a MIME type",
        None,
    ),
    (
        "gemini",
        [UserMessage((ImageBlock(url="data:text/plain,hello"),))],
        "$[0].content[0]",
        "Gemini takes base64 data, not a text data URL",
        None,
    ),
    (
        "gemini",
        [AssistantMessage((TextBlock("x", citations=({"type": "url_citation"},)),))],
        "$[0].content[0].citations",
        "Gemini parts carry no citations (they are per candidate)",
        None,
    ),
    (
        "gemini",
        [UserMessage((RawBlock({"type": "document"}),))],
        "$[0].content[0]",
        "this raw block is not a Gemini part",
        None,
    ),
    (
        "gemini",
        [UserMessage("hi"), SystemMessage("late")],
        "$[1]",
        "Gemini takes system instructions only at the start",
        None,
    ),
    (
        "gemini",
        [
            AssistantMessage((ToolUseBlock("c", "f"),)),
            ToolMessage((ToolResultBlock("c", (ThinkingBlock("x"),)),)),
        ],
        "$[1].content[0].content[0]",
        "a Gemini function response carries text and media only",
        None,
    ),
    # -- documents and video: what a provider has no counterpart for
    (
        "anthropic",
        [UserMessage((VIDEO,))],
        "$[0].content[0]",
        "cannot carry video",
        "[video: video/mp4, file https://youtu.be/x]",
    ),
    (
        "anthropic",
        [UserMessage((DocumentBlock(data="UEsDBA==", media_type="application/zip"),))],
        "$[0].content[0]",
        "cannot carry a application/zip document (PDF or text only)",
        "[document: application/zip, 4 bytes]",
    ),
    (
        "anthropic",
        [UserMessage((DocumentBlock(file_id="file_1", title="Q3", filename="q3.pdf"),))],
        "$[0].content[0].filename",
        "cannot carry a file name beside a title",
        None,
    ),
    (
        "openai_chat",
        [UserMessage((TextBlock("see"), VIDEO))],
        "$[0].content[1]",
        "cannot carry video",
        "[video: video/mp4, file https://youtu.be/x]",
    ),
    (
        "openai_chat",
        [UserMessage((DocumentBlock(text="hi", title="T"),))],
        "$[0].content[0]",
        "cannot carry a text document (files only)",
        "[document: 'T', 2 characters]",
    ),
    (
        "openai_chat",
        [UserMessage((DocumentBlock(url="https://x/a.pdf"),))],
        "$[0].content[0]",
        "cannot carry a document given by URL",
        "[document: https://x/a.pdf]",
    ),
    (
        "openai_chat",
        [UserMessage((DocumentBlock(file_id="file-1", context="unaudited"),))],
        "$[0].content[0].context",
        "cannot carry a document's context",
        None,
    ),
    (
        "openai_responses",
        [UserMessage((DocumentBlock(content=(TextBlock("a"),)),))],
        "$[0].content[0]",
        "OpenAI Responses cannot carry this document (files only)",
        None,
    ),
    (
        "openai_responses",
        [UserMessage((DocumentBlock(file_id="file-1", citations=True),))],
        "$[0].content[0].citations",
        "cannot carry a document's citations setting",
        None,
    ),
    (
        "openai_responses",
        [UserMessage((TextBlock("see"), VIDEO))],
        "$[0].content[1]",
        "a video block cannot be a content part",
        None,
    ),
    (
        "gemini",
        [UserMessage((DocumentBlock(content=(TextBlock("a"),)),))],
        "$[0].content[0]",
        "Gemini has no document made of content blocks",
        "[document: 1 blocks]",
    ),
    (
        "gemini",
        [UserMessage((DocumentBlock(file_id="file-1", media_type="application/pdf"),))],
        "$[0].content[0]",
        "a file id of another provider is not a Gemini file URI",
        "[document: application/pdf, file file-1]",
    ),
    (
        "gemini",
        [UserMessage((DocumentBlock(data="JVBERg==", media_type="application/pdf", title="Q3"),))],
        "$[0].content[0].title",
        "Gemini parts carry no document title",
        None,
    ),
]
"""(provider, conversation, the path raised at, the reason, the words ``"text"`` leaves)."""

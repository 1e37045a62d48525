"""Which wire keys and types belong to which format, for the encoders written here.

``extra`` holds the source format's own wire fields. An encoder writes them back for exact
replay, except those known to belong to another format at that place: writing those would
make the request invalid. Keys no format is known to use are written back.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "FOREIGN_CITATIONS",
    "GEMINI_BODY_KEYS",
    "OPENAI_BODY_KEYS",
    "gemini_body_key",
    "gemini_key",
    "responses_body_key",
    "responses_key",
    "responses_type",
]

_NOT_RESPONSES_TYPES: Final = frozenset(
    (
        "text",
        "image",
        "audio",
        "document",
        "search_result",
        "thinking",
        "redacted_thinking",
        "tool_use",
        "tool_result",
        "server_tool_use",
        "web_search_tool_result",
        "web_fetch_tool_result",
        "code_execution_tool_result",
        "bash_code_execution_tool_result",
        "text_editor_code_execution_tool_result",
        "tool_search_tool_result",
        "mcp_tool_use",
        "mcp_tool_result",
        "container_upload",
        "image_url",
        "file",
        "function",
    )
)
"""Block and part types of Anthropic and Chat Completions."""

_NOT_RESPONSES_KEYS: Final = frozenset(
    (
        "cache_control",
        "citations",
        "thought",
        "parts",
        "source",
        "title",
        "context",
        "tool_calls",
        "tool_call_id",
        "function_call",
        "reasoning_content",
        "audio",
        "refusal",
        "name",
        "input",
        "is_error",
        "tool_use_id",
        "thinking",
        "data",
        "signature",
        "media_type",
    )
)
"""Fields of the other formats that are not Responses fields where an encoder puts extra."""

FOREIGN_CITATIONS: Final = frozenset(
    (
        "char_location",
        "page_location",
        "content_block_location",
        "web_search_result_location",
        "search_result_location",
    )
)
"""Anthropic citation types: they cannot become OpenAI annotations."""

_NOT_GEMINI_KEYS: Final = frozenset(
    (
        "type",
        "id",
        "status",
        "phase",
        "annotations",
        "logprobs",
        "detail",
        "citations",
        "name",
        "refusal",
        "audio",
        "content",
        "summary",
        "signature",
        "source",
        "title",
        "context",
        "item",
        "input",
        "arguments",
        "output",
        "namespace",
        "caller",
        "data",
        "role",
    )
)
"""Single-word fields of the other formats; snake_case ones are foreign to Gemini anyway."""

OPENAI_BODY_KEYS: Final = frozenset(
    (
        "id",
        "object",
        "status",
        "output",
        "usage",
        "model",
        "error",
        "instructions",
        "tools",
        "text",
        "reasoning",
        "store",
        "metadata",
        "temperature",
        "truncation",
        "user",
        "background",
        "type",
        "role",
        "content",
        "choices",
    )
)
"""Response-body fields of OpenAI and Anthropic, never part of a Gemini body or content."""

GEMINI_BODY_KEYS: Final = frozenset(
    (
        "candidates",
        "choices",
        "stop_reason",
        "stop_sequence",
        "type",
        "role",
        "content",
    )
)
"""Response-body fields of Gemini, Chat and Anthropic, never part of a Responses body."""


def responses_key(key: str) -> bool:
    """Whether an ``extra`` key belongs to another format (camelCase is Gemini's style)."""
    return key in _NOT_RESPONSES_KEYS or key.lower() != key


def responses_type(tag: object) -> bool:
    """Whether a ``type`` is another format's block type, not a Responses item or part."""
    return tag in _NOT_RESPONSES_TYPES


def responses_body_key(key: str) -> bool:
    """Whether a response-level ``extra`` key is another format's response field."""
    return key in GEMINI_BODY_KEYS or key.lower() != key


def gemini_key(key: str) -> bool:
    """Whether an ``extra`` key belongs to another format rather than to a Gemini part."""
    return "_" in key or key in _NOT_GEMINI_KEYS


def gemini_body_key(key: str) -> bool:
    """Whether a response-level ``extra`` key is another format's response field."""
    return "_" in key or key in OPENAI_BODY_KEYS

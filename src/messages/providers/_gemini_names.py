"""Gemini field names: the proto-style snake_case spellings read as the JSON camelCase ones.

Private to the Gemini codec: a body written by a client library in proto style
(``inline_data``) decodes like the JSON API's own (``inlineData``).
"""

from __future__ import annotations

from typing import Any
from typing import Final

__all__ = ["camel"]

_SNAKE: Final = {
    name: "".join(w if i == 0 else w.capitalize() for i, w in enumerate(name.split("_")))
    for name in [
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
    ]
}


def camel(d: dict[str, Any]) -> dict[str, Any]:
    """``d`` with the known snake_case field names (proto style) renamed to camelCase."""
    if not any("_" in k for k in d):
        return d
    out: dict[str, Any] = {}
    for k, v in d.items():
        name = _SNAKE.get(k, k)
        if name != k and name in d:
            name = k  # both spellings present: keep each as it is
        out[name] = v
    return out

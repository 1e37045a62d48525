"""Gemini names: field spellings, and the ids made up for calls that came without one.

Private to the Gemini codec: a body written by a client library in proto style
(``inline_data``) decodes like the JSON API's own (``inlineData``); an id-less function
call or code execution gets a made-up id that pairs it with its result and is never sent
back to Gemini.
"""

from __future__ import annotations

from typing import Any
from typing import Final

from .._core.slots import Slotted

__all__ = ["SYNTHETIC_ID_PREFIX", "CallIds", "camel"]

SYNTHETIC_ID_PREFIX: Final = "gemini_call_"
"""Ids made up for calls and results that came without one; never sent back to Gemini."""

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
    the id of the earliest unanswered such call with the same name, or a fresh one. Code
    execution parts count apart (:attr:`code`), so they never shift a function call's id.
    """

    __slots__ = ("_code", "_count", "_pending", "_tag")

    def __init__(self, tag: str = "") -> None:
        self._tag = tag
        self._count = 0
        self._pending: list[tuple[str, str]] = []
        self._code: CallIds | None = None

    @property
    def code(self) -> CallIds:
        """The ids of id-less code execution parts: ``gemini_call_code_<tag><n>``."""
        if self._code is None:
            self._code = CallIds(f"code_{self._tag}")
        return self._code

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

"""Static typing test: every provider module satisfies the Provider protocol (mypy --strict)."""

from __future__ import annotations

from typing import Any, assert_type

from messages import AssistantMessage, Message, UserMessage
from messages.providers import (
    Accumulator,
    Provider,
    anthropic,
    gemini,
    get,
    openai_chat,
    openai_responses,
)

providers: list[Provider] = [anthropic, openai_chat, openai_responses, gemini]

provider = get("anthropic")
assert_type(provider, Provider)
assert_type(provider.encode_request([UserMessage("hi")], unsupported="text"), dict[str, Any])
assert_type(provider.decode_request({"messages": []}), tuple[Message, ...])
assert_type(provider.accumulator(), Accumulator)


def _responses(body: dict[str, Any]) -> None:
    assert_type(provider.decode_response(body), AssistantMessage)
    assert_type(provider.encode_response(AssistantMessage("hi")), dict[str, Any])

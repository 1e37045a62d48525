"""Static typing test: every provider module satisfies the Provider protocol (mypy --strict)."""

from __future__ import annotations

from typing import Any
from typing import assert_type

from messages import AssistantMessage
from messages import Message
from messages import RequestSettings
from messages import UserMessage
from messages.providers import Accumulator
from messages.providers import Provider
from messages.providers import anthropic
from messages.providers import bedrock
from messages.providers import gemini
from messages.providers import get
from messages.providers import openai_chat
from messages.providers import openai_responses

providers: list[Provider] = [anthropic, openai_chat, openai_responses, gemini, bedrock]

provider = get("anthropic")
assert_type(provider, Provider)
assert_type(provider.encode_request([UserMessage("hi")], unsupported="text"), dict[str, Any])
assert_type(provider.decode_request({"messages": []}), tuple[Message, ...])
assert_type(provider.accumulator(), Accumulator)
assert_type(provider.decode_settings({"model": "m"}), RequestSettings)
assert_type(provider.encode_request([], settings=RequestSettings(max_tokens=8)), dict[str, Any])


def _responses(body: dict[str, Any]) -> None:
    assert_type(provider.decode_response(body), AssistantMessage)
    assert_type(provider.encode_response(AssistantMessage("hi")), dict[str, Any])

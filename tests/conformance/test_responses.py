"""Responses as the official SDKs build and dump them come back from our codecs exactly.

A program that calls a provider through its SDK holds a response object; what it stores or
forwards is that object dumped to JSON (``oracle.dumps``: with or without unset and ``None``
fields). For every response fixture, and for responses our own ``encode_response`` writes
for drawn messages, the SDK's response model must accept the body (``model_validate``),
and each dump must satisfy ``encode_response(decode_response(dump)) == dump``.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from conformance import oracle
from conftest import LOCAL_FIXTURES
from messages import AssistantMessage
from messages import AudioBlock
from messages import FrozenDict
from messages import Message
from messages import RawBlock
from messages import ThinkingBlock
from messages import strategies as ms
from messages.providers import NAMES
from messages.providers import get
from support.provider_checks import INVENTED
from support.provider_strategies import anthropic_response_blocks
from support.provider_strategies import chat_conversations
from support.provider_strategies import conversations as native_conversations

RESPONSES = [
    (provider, path.name)
    for provider in NAMES
    for path in sorted((LOCAL_FIXTURES / provider).glob("*response*.json"))
    if (provider, path.name) != ("openai_responses", "response_odd.json")
    and provider in oracle.RESPONSE_TYPES
]
"""Every response fixture but Responses' ``response_odd.json``, which is odd on purpose in
ways no SDK model takes (null ids, unknown statuses): the provider tests replay it. Bedrock
has no SDK response model: ``test_bedrock.py`` checks its responses against botocore's."""


def _drop_callers(body: Any) -> Any:
    if isinstance(body, dict):
        return {k: _drop_callers(v) for k, v in body.items() if k != "caller"}
    if isinstance(body, list):
        return [_drop_callers(v) for v in body]
    return body


def _null_contents(body: Any) -> Any:
    body = json.loads(json.dumps(body))
    for choice in body.get("choices") or ():
        message = choice.get("message")
        if isinstance(message, dict) and "content" not in message:
            message["content"] = None
    return body


def _joined_contents(body: Any) -> Any:
    body = json.loads(json.dumps(body))
    for choice in body.get("choices") or ():
        message = choice.get("message")
        if isinstance(message, dict) and isinstance(message.get("content"), list):
            message["content"] = "".join(p.get("text", "") for p in message["content"])
    return body


_REPAIRS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "responses-caller": ("openai_responses", _drop_callers),
    "chat-response-content-key": ("openai_chat", _null_contents),
    "chat-response-content-parts": ("openai_chat", _joined_contents),
}
"""For each open response fault: the provider, and the change to a dump that steps around
it. A round trip that is exact once the change is made is that fault showing."""


def round_trip(provider: str, dump: dict[str, Any]) -> str | None:
    """Where ``encode_response(decode_response(dump))`` first differs from ``dump``."""
    codec = get(provider)
    return oracle.first_difference(codec.encode_response(codec.decode_response(dump)), dump)


def assert_round_trips(provider: str, body: dict[str, Any]) -> None:
    """Every SDK dump of ``body`` round-trips, but for what an open fault explains."""
    for name, dump in oracle.dumps(provider, oracle.sdk_response(provider, body)).items():
        oracle.RESPONSE_COUNTS[provider] += 1
        difference = round_trip(provider, dump)
        if difference is None:
            continue
        explained = [
            fault
            for fault, (where, repair) in _REPAIRS.items()
            if fault in oracle.OPEN
            and where == provider
            and round_trip(where, repair(dump)) is None
        ]
        oracle.SEEN.update(explained)
        assert explained, f"{provider} {name} dump: {difference}"


@pytest.mark.parametrize(("provider", "name"), RESPONSES)
def test_every_response_fixture_round_trips_as_the_sdk_dumps_it(provider: str, name: str) -> None:
    body = json.loads((LOCAL_FIXTURES / provider / name).read_text())
    completed, filled = oracle.complete(provider, body)
    assert all(path.count(".") <= 4 for path in filled), filled
    assert_round_trips(provider, completed)


def test_the_fixtures_lack_only_fields_newer_sdks_added() -> None:
    # What ``complete`` fills for the fixtures: fields the SDK requires that the fixtures,
    # written from older API references, do not have. Nothing about content.
    filled = set()
    for provider, name in RESPONSES:
        body = json.loads((LOCAL_FIXTURES / provider / name).read_text())
        filled.update(p for p in oracle.complete(provider, body)[1])
    assert filled == {
        "$.usage.server_tool_use.web_fetch_requests",
        "$.parallel_tool_calls",
        "$.tool_choice",
        "$.tools",
        "$.usage.input_tokens_details.cache_write_tokens",
    }


def _signed(block: Any) -> Any:
    """Anthropic thinking as a response has it: always signed (the drawn blocks may not be)."""
    if isinstance(block, ThinkingBlock) and block.signature is None:
        return replace(block, signature="c2ln")
    return block


def _base64(block: Any) -> Any:
    """Signatures as base64, as every provider sends them (drawn ones are any string)."""

    def encode(text: str) -> str:
        return base64.b64encode(text.encode()).decode()

    if isinstance(block, ThinkingBlock) and block.signature is not None:
        block = replace(block, signature=encode(block.signature))
    signature = block.extra.get("thoughtSignature")
    if isinstance(signature, str):
        block = replace(
            block, extra=FrozenDict({**block.extra, "thoughtSignature": encode(signature)})
        )
    return block


def _assistant_turns(conversations: st.SearchStrategy[list[Message]]) -> Any:
    return conversations.map(lambda c: [m for m in c if isinstance(m, AssistantMessage)]).filter(
        bool
    )


_MESSAGES: dict[str, Any] = {
    "anthropic": anthropic_response_blocks().map(
        lambda blocks: [AssistantMessage(tuple(_signed(b) for b in blocks))]
    ),
    "openai_chat": _assistant_turns(chat_conversations(plain=True)),
    "openai_responses": _assistant_turns(native_conversations(gemini=False)),
    "gemini": _assistant_turns(native_conversations(gemini=True)),
}
_STOPS = {
    "anthropic": ["end_turn", "tool_use", "max_tokens"],
    "openai_chat": ["stop", "tool_calls", "length"],
    "openai_responses": [None, "max_output_tokens"],
    "gemini": ["STOP", "MAX_TOKENS"],
}


@st.composite
def responses(draw: st.DrawFn) -> tuple[str, AssistantMessage]:
    """A provider, and an assistant message in its shape with what a response carries."""
    provider = draw(st.sampled_from([name for name in NAMES if name in _MESSAGES]))
    turn = draw(st.sampled_from(draw(_MESSAGES[provider])))
    # Raw blocks are data the strategies make up (a "document" a response never holds), and
    # audio by reference only is how a request points back at earlier audio: neither is
    # response content, so what the SDK thinks of them says nothing about the encoder.
    # Keys the strategies invent for "a field of the future" (support.provider_checks.INVENTED)
    # are no SDK's either; nor is the record of a request's message item (``item``).
    kept = tuple(
        _base64(
            replace(
                b,
                extra=FrozenDict(
                    {k: v for k, v in b.extra.items() if k not in INVENTED and k != "item"}
                ),
            )
        )
        for b in turn.blocks
        if not isinstance(b, RawBlock) and not (isinstance(b, AudioBlock) and b.data is None)
    )
    turn = replace(turn, content=kept)
    usage = replace(draw(ms.usages()), cost_usd=None)
    stop = draw(st.sampled_from(_STOPS[provider]))
    message = replace(turn, usage=usage, stop_reason=stop, model="model-x", message_id="id_1")
    return provider, message


def accepted(provider: str, body: dict[str, Any]) -> dict[str, Any]:
    """``body`` completed (:func:`oracle.complete`) as the SDK's model accepts it; a body it
    rejects only because of an open fault is taken with that fault stepped around."""
    try:
        return oracle.complete(provider, body)[0]
    except ValidationError:
        for fault, (where, repair) in _REPAIRS.items():
            if fault in oracle.OPEN and where == provider:
                try:
                    completed = oracle.complete(provider, repair(body))[0]
                except ValidationError:
                    continue
                oracle.SEEN[fault] += 1
                return completed
        raise


@given(responses())
def test_encoded_responses_are_what_the_sdk_models_accept_and_dump_back(
    drawn: tuple[str, AssistantMessage],
) -> None:
    provider, message = drawn
    body = get(provider).encode_response(message)
    assert_round_trips(provider, accepted(provider, body))


def test_compaction_items_as_the_sdk_types_them_come_back_exactly() -> None:
    # Issue 27: the compaction item (/v1/responses/compact) against the SDK's own types: the
    # output item, and the input item (with and without its id) in a request.
    from openai.types.responses import ResponseCompactionItem
    from openai.types.responses import ResponseCompactionItemParam

    r = get("openai_responses")
    sdk = ResponseCompactionItem(id="cmp_1", encrypted_content="E1", type="compaction")
    for item in (sdk.model_dump(mode="json", exclude_none=True), sdk.model_dump(mode="json")):
        response = {"id": "resp_1", "object": "response", "status": "completed", "output": [item]}
        back = r.encode_response(r.decode_response(response))
        assert back == response
        ResponseCompactionItem.model_validate(back["output"][0])
    for param in (
        ResponseCompactionItemParam(encrypted_content="E2", type="compaction", id="cmp_2"),
        ResponseCompactionItemParam(encrypted_content="E3", type="compaction"),
    ):
        item = param.model_dump(mode="json", exclude_none=True)
        body = {"input": [{"role": "user", "content": "Hi"}, item]}
        again = r.encode_request(r.decode_request(body))
        assert again == body
        assert not oracle.check_request("openai_responses", again, paired=True)

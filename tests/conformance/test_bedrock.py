"""Bedrock Converse against botocore's own service model: responses and stream events.

Requests are judged with the other providers' in ``test_requests.py`` (``oracle.check_request``
asks botocore's ``ParamValidator`` for Bedrock). Here: every response fixture, every response
``encode_response`` writes for a drawn message or for another provider's response, and every
event of the stream fixtures must fit the ``ConverseResponse`` and ``ConverseStreamOutput``
shapes of the ``bedrock-runtime`` model; responses must round-trip exactly.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance import oracle
from conftest import LOCAL_FIXTURES
from messages import AssistantMessage
from messages import UnsupportedContentError
from messages import strategies as ms
from messages.providers import NAMES
from messages.providers import get
from support.provider_strategies import bedrock_conversations

bedrock: Any = get("bedrock")
_REQUIRED = {
    "metrics": {"latencyMs": 0},
    "stopReason": "end_turn",
    "usage": {"inputTokens": 0, "outputTokens": 0, "totalTokens": 0},
}
"""Members ``ConverseResponse`` requires that a message from elsewhere does not carry."""


def _response_findings(body: dict[str, Any]) -> list[tuple[str, str, str, Any]]:
    oracle.RESPONSE_COUNTS["bedrock"] += 1
    return oracle.bedrock_validate({**_REQUIRED, **body}, "ConverseResponse")


RESPONSES = sorted(p.name for p in (LOCAL_FIXTURES / "bedrock").glob("*response*.json"))


@pytest.mark.parametrize("name", RESPONSES)
def test_every_response_fixture_fits_the_model_and_round_trips(name: str) -> None:
    body = json.loads((LOCAL_FIXTURES / "bedrock" / name).read_text())
    assert not oracle.bedrock_validate(body, "ConverseResponse")
    assert (
        oracle.first_difference(bedrock.encode_response(bedrock.decode_response(body)), body)
        is None
    )


_OTHER_RESPONSES = [
    (provider, path.name)
    for provider in NAMES
    if provider != "bedrock"
    for path in sorted((LOCAL_FIXTURES / provider).glob("response*.json"))
]


@pytest.mark.parametrize(("provider", "name"), _OTHER_RESPONSES)
def test_other_providers_responses_become_bedrock_responses_the_model_accepts(
    provider: str, name: str
) -> None:
    message = get(provider).decode_response(
        json.loads((LOCAL_FIXTURES / provider / name).read_text())
    )
    try:
        body = bedrock.encode_response(message)
    except UnsupportedContentError as exc:
        assert exc.source == "bedrock" and exc.path.startswith("$.content[")
        return
    assert not _response_findings(body), body
    assert bedrock.decode_response(body).text == message.text


@st.composite
def _responses(draw: st.DrawFn) -> AssistantMessage:
    turns = [m for m in draw(bedrock_conversations()) if isinstance(m, AssistantMessage)]
    turn = draw(st.sampled_from(turns))
    usage = replace(draw(ms.usages()), cost_usd=None, extra={})
    stop = draw(st.sampled_from(["end_turn", "tool_use", "max_tokens", "stop", "SAFETY", None]))
    return replace(turn, usage=usage, stop_reason=stop)


@given(_responses())
def test_encoded_responses_fit_the_model_and_decode_back(message: AssistantMessage) -> None:
    body = bedrock.encode_response(message)
    assert not _response_findings(body), body
    back = bedrock.decode_response(body)
    assert back.content == message.content
    assert back.stop == message.stop


STREAMS = sorted(p.name for p in (LOCAL_FIXTURES / "bedrock").glob("stream_*.jsonl"))


@pytest.mark.parametrize("name", STREAMS)
def test_every_stream_event_fits_the_model(name: str) -> None:
    lines = (LOCAL_FIXTURES / "bedrock" / name).read_text().splitlines()
    events = [json.loads(line) for line in lines if line.strip()]
    oracle.STREAM_COUNTS["bedrock"] += 1
    for event in events:
        assert not oracle.bedrock_validate(event, "ConverseStreamOutput"), event
    accumulator = bedrock.accumulator()
    for event in events:
        accumulator.feed(event)
    assert accumulator.snapshot() is not None


def test_the_model_is_the_one_botocore_ships() -> None:
    # The oracle reads botocore's installed service model, offline: no client, no network.
    shape = oracle.bedrock_shape("Converse")
    assert {"messages", "system", "toolConfig", "inferenceConfig"} <= set(shape.members)
    block = oracle.bedrock_shape("ContentBlock")
    assert {"text", "toolUse", "toolResult", "reasoningContent", "cachePoint"} <= set(block.members)


_FIELDS = {
    "web": ("url",),
    "documentChar": ("source_index", "start", "end"),
    "documentPage": ("source_index", "start", "end"),
    "documentChunk": ("source_index", "start", "end"),
    "searchResultLocation": ("source_index", "start", "end"),
}


@st.composite
def _converse_citation(draw: st.DrawFn) -> Any:
    from messages import Citation

    tag = draw(st.sampled_from(sorted(_FIELDS)))
    values = {
        f: draw(st.text(min_size=1, max_size=8) if f == "url" else st.integers(0, 50))
        for f in _FIELDS[tag]
        if draw(st.booleans())
    }
    title = draw(st.none() | st.text(min_size=1, max_size=8))
    quoted = draw(st.none() | st.text(min_size=1, max_size=8))
    return Citation(tag, title=title, cited_text=quoted, **values)


@given(
    text=st.text(min_size=1, max_size=10).filter(str.strip),
    cited=st.lists(_converse_citation(), max_size=3),
)
def test_cited_text_fits_botocores_model_in_requests_and_responses(text: str, cited: Any) -> None:
    # Issue 27: a TextBlock with Converse's citations is a citationsContent block botocore takes.
    from messages import TextBlock
    from messages import UserMessage

    said = AssistantMessage((TextBlock(text, citations=tuple(cited)),))
    body = bedrock.encode_request([UserMessage("Q"), said])
    assert not oracle.check_request("bedrock", body, paired=True)
    assert bedrock.decode_request(body)[1] == said
    response = bedrock.encode_response(said)
    assert not _response_findings(response)
    assert bedrock.decode_response(response).blocks == said.blocks

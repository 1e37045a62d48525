"""The provider contract: the laws every registered provider codec obeys, run for each name.

Every test here is parametrized over ``messages.providers.NAMES``; what differs between the
wire formats comes from ``support/provider_specs.py``. A law that holds for one format only
belongs in that format's file (``tests/test_provider_<name>.py``), and conversions between
providers in ``tests/test_provider_matrix.py``.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import json_equal
from messages import AssistantMessage
from messages import DecodeError
from messages import EncodeError
from messages import FrozenDict
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UnsupportedContentError
from messages import UserMessage
from messages import freeze
from messages import strategies as ms
from messages import thaw
from messages.policy import describe
from messages.providers import NAMES
from messages.providers import Accumulator
from messages.providers import Provider
from messages.providers import UnknownProviderError
from messages.providers import get
from support.provider_cases import DECODE_ERRORS
from support.provider_cases import STREAM_ERRORS
from support.provider_cases import UNSUPPORTED
from support.provider_checks import check_unsupported
from support.provider_specs import SPECS
from support.provider_specs import as_json
from support.provider_strategies import any_conversation

SURFACE = ("NAME", "accumulator", "decode_request", "decode_response", "encode_request")
SURFACE += ("encode_response", "decode_settings")


def _pairs(kind: str) -> list[tuple[str, str]]:
    return [(name, fixture) for name in NAMES for fixture in SPECS[name].fixtures(kind)]


STREAMS = [(name, stream, response) for name in NAMES for stream, response in SPECS[name].streams()]


# ------------------------------------------------------------------------- the registry


def test_every_provider_has_a_spec() -> None:
    assert tuple(SPECS) == NAMES


def test_the_registry_names_every_provider() -> None:
    assert NAMES == ("anthropic", "openai_chat", "openai_responses", "gemini", "bedrock")
    assert all(name == get(name).NAME for name in NAMES)


def test_an_unknown_provider_lists_the_known_ones() -> None:
    with pytest.raises(UnknownProviderError) as info:
        get("openai")
    assert str(info.value).endswith(
        "expected one of: anthropic, openai_chat, openai_responses, gemini, bedrock"
    )
    with pytest.raises(LookupError):
        get("claude_code")  # an adapter's name is not a provider's


def test_importing_the_package_loads_no_codec() -> None:
    code = (
        "import sys, messages.providers\n"
        "loaded = [m for m in sys.modules if m.startswith('messages.providers.')]\n"
        "assert not loaded, loaded\n"
    )
    src = Path(__file__).resolve().parents[2] / "src"
    env = {**os.environ, "PYTHONPATH": str(src)}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


@pytest.mark.parametrize("name", NAMES)
def test_the_surface(name: str) -> None:
    codec: Provider = get(name)
    assert set(SURFACE) <= set(codec.__all__)  # type: ignore[attr-defined]
    for attribute in SURFACE[1:]:
        assert callable(getattr(codec, attribute))
        assert getattr(codec, attribute).__doc__
    accumulator: Accumulator = codec.accumulator()
    assert all(callable(getattr(accumulator, m)) for m in ("feed", "snapshot", "message"))
    assert accumulator is not codec.accumulator()  # a fresh one each time


# ------------------------------------------------------------------------ exact replay


@pytest.mark.parametrize(("name", "fixture"), _pairs("request"))
def test_request_fixtures_replay_exactly(name: str, fixture: str) -> None:
    spec, codec = SPECS[name], get(name)
    body = spec.load(fixture)
    conversation = codec.decode_request(body)
    encoded = codec.encode_request(conversation)
    assert json_equal(encoded, spec.request_part(body))
    assert as_json(encoded) == encoded  # plain JSON, nothing frozen left in it
    assert codec.decode_request(freeze(body)) == conversation  # any mapping will do
    if spec.valid_fixtures:
        spec.check(encoded)


@pytest.mark.parametrize(("name", "fixture"), _pairs("request"))
def test_whole_request_fixtures_replay_exactly_with_their_settings(name: str, fixture: str) -> None:
    spec, codec = SPECS[name], get(name)
    body = spec.load(fixture)
    settings = codec.decode_settings(body)
    assert settings.provider == name
    assert codec.decode_settings(freeze(body)) == settings  # any mapping will do
    encoded = codec.encode_request(codec.decode_request(body), settings=settings)
    assert json_equal(encoded, body)
    assert as_json(encoded) == encoded


@pytest.mark.parametrize("name", NAMES)
@given(value=ms.json_values(max_leaves=12))
def test_settings_of_arbitrary_json_are_read_or_refused_with_decode_error(
    name: str, value: Any
) -> None:
    value = thaw(value)
    try:
        settings = get(name).decode_settings(value)
    except DecodeError as exc:
        assert exc.source == name and not isinstance(value, dict)
    else:
        assert isinstance(value, dict) and settings.provider == name
        again = get(name).encode_request([], settings=settings)
        assert get(name).decode_settings(again) == settings


@pytest.mark.parametrize(("name", "fixture"), _pairs("response"))
def test_response_fixtures_replay_exactly(name: str, fixture: str) -> None:
    body = SPECS[name].load(fixture)
    assert json_equal(get(name).encode_response(get(name).decode_response(body)), body)


# ----------------------------------------------------------------------------- streams


@pytest.mark.parametrize(("name", "stream", "response"), STREAMS)
def test_streams_reassemble_to_the_unstreamed_response(
    name: str, stream: str, response: str
) -> None:
    spec, codec = SPECS[name], get(name)
    expected = codec.decode_response(spec.load(response))
    accumulator = codec.accumulator()
    for event in spec.load(stream):
        accumulator.feed(event)
        snapshot = accumulator.snapshot()
        assert expected.text.startswith(snapshot.text)
        for block in snapshot.tool_uses:
            assert isinstance(block.input, FrozenDict)
    assert accumulator.message() == expected
    assert json_equal(codec.encode_response(accumulator.message()), spec.load(response))


@pytest.mark.parametrize(("name", "stream", "response"), STREAMS)
def test_feeding_frozen_events_leaves_them_as_they_were(
    name: str, stream: str, response: str
) -> None:
    spec, accumulator = SPECS[name], get(name).accumulator()
    events = spec.load(stream)
    frozen = [freeze(event) for event in events]
    for event in frozen:
        accumulator.feed(event)
    assert [thaw(event) for event in frozen] == events
    assert accumulator.message() == get(name).decode_response(spec.load(response))


@pytest.mark.parametrize(("name", "stream", "response"), STREAMS)
def test_an_accumulator_pickled_mid_stream_goes_on_where_it_was(
    name: str, stream: str, response: str
) -> None:
    """A stream half read in one process can be finished in another."""
    spec, accumulator = SPECS[name], get(name).accumulator()
    events = spec.load(stream)
    half = len(events) // 2
    for event in events[:half]:
        accumulator.feed(event)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        moved: Accumulator = pickle.loads(pickle.dumps(accumulator, protocol=protocol))
        assert moved.snapshot() == accumulator.snapshot()
        for event in events[half:]:
            moved.feed(event)
        assert moved.message() == get(name).decode_response(spec.load(response))
    for verb in SURFACE[1:]:  # the codec's functions pickle by reference (a module does not)
        function = getattr(get(name), verb)
        assert pickle.loads(pickle.dumps(function)) is function, verb


@pytest.mark.parametrize("name", NAMES)
def test_an_unfinished_stream_has_no_message(name: str) -> None:
    spec = SPECS[name]
    accumulator = get(name).accumulator()
    accumulator.feed(spec.load("stream_error.jsonl")[0])
    with pytest.raises(DecodeError) as info:
        accumulator.message()
    assert str(info.value) == spec.unfinished
    assert accumulator.snapshot() is not None  # a snapshot is there all along


@pytest.mark.parametrize("name", NAMES)
def test_an_error_event_ends_the_stream_with_the_partial_message(name: str) -> None:
    spec = SPECS[name]
    accumulator = get(name).accumulator()
    for event in spec.load("stream_error.jsonl"):
        accumulator.feed(event)
    message = accumulator.message()
    assert (message.text, message.error, message.stop_reason) == spec.stream_error


# ------------------------------------------------------------------------------ errors


def _cases(cases: list[Any]) -> list[Any]:
    return [pytest.param(*case, id=f"{case[0]}-{i}") for i, case in enumerate(cases)]


@pytest.mark.parametrize(("name", "kind", "body", "message"), _cases(DECODE_ERRORS))
def test_decode_errors_name_the_place(name: str, kind: str, body: Any, message: str) -> None:
    codec = get(name)
    decode = codec.decode_request if kind == "request" else codec.decode_response
    with pytest.raises(DecodeError) as info:
        decode(body)
    assert str(info.value) == f"{name}: {message}"


@pytest.mark.parametrize(("name", "events", "message"), _cases(STREAM_ERRORS))
def test_malformed_events_name_the_place(name: str, events: list[Any], message: str) -> None:
    accumulator = get(name).accumulator()
    with pytest.raises(DecodeError) as info:
        for event in events:
            accumulator.feed(event)
    assert str(info.value) == f"{name}: {message}"
    assert isinstance(accumulator.snapshot(), AssistantMessage)  # still usable


# ------------------------------------------------------------------------------ fuzzing

_KEYS = [
    *("type", "role", "content", "text", "id", "name", "input", "output", "usage", "status"),
    *("messages", "system", "choices", "message", "delta", "tool_calls", "function"),
    *("arguments", "call_id", "summary", "index", "contents", "parts", "thought"),
    *("functionCall", "functionResponse", "args", "response", "inlineData", "candidates"),
    *("usageMetadata",),
]
json_bodies = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.sampled_from(_KEYS), children, max_size=4)
    ),
    max_leaves=15,
)
"""JSON whose keys are ones the decoders look for, so the fuzzing reaches past the first
dispatch."""
any_json = json_bodies | ms.json_values(max_leaves=12).map(
    lambda v: thaw(v) if isinstance(v, FrozenDict) else v
)


@pytest.mark.parametrize("name", NAMES)
@given(value=any_json)
def test_decoding_arbitrary_json_returns_or_raises_decode_error(name: str, value: Any) -> None:
    codec = get(name)
    if isinstance(value, list):
        value = dict.fromkeys(SPECS[name].containers, value)
    for decode in (codec.decode_request, codec.decode_response):
        try:
            result = decode(value)
        except DecodeError as exc:
            assert exc.path.startswith("$")
            assert exc.source == name
        else:
            assert isinstance(result, tuple | AssistantMessage)


@pytest.mark.parametrize("name", NAMES)
@given(events=st.lists(json_bodies, max_size=6))
def test_the_accumulator_survives_arbitrary_events(name: str, events: list[Any]) -> None:
    accumulator = get(name).accumulator()
    for event in events:
        try:
            accumulator.feed({**SPECS[name].event, **event} if isinstance(event, dict) else event)
        except DecodeError as exc:
            assert exc.source == name
        assert isinstance(accumulator.snapshot(), AssistantMessage)  # never raises


def _mutations(value: Any, replacement: Any) -> Iterator[Any]:
    """The value with one node replaced, for every node."""
    yield replacement
    if isinstance(value, dict):
        for key, inner in value.items():
            for changed in _mutations(inner, replacement):
                yield {**value, key: changed}
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            for changed in _mutations(inner, replacement):
                yield [*value[:i], changed, *value[i + 1 :]]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("replacement", [None, 7, "x", [], {}, [{"type": 1}], True])
def test_decoding_damaged_bodies_gives_a_value_or_decode_error(name: str, replacement: Any) -> None:
    spec, codec = SPECS[name], get(name)
    request, response = spec.damaged
    for fixture, decode in ((request, codec.decode_request), (response, codec.decode_response)):
        for body in _mutations(spec.load(fixture), replacement):
            try:
                decode(body)
            except DecodeError as exc:
                assert exc.path.startswith("$")
                assert exc.source == name


# ------------------------------------------------------------------------------ policy


@pytest.mark.parametrize("name", NAMES)
def test_an_unknown_policy_is_an_error(name: str) -> None:
    with pytest.raises(EncodeError, match="expected unsupported='raise', 'drop' or 'text'") as info:
        get(name).encode_request([], unsupported="ignore")  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)


_ANYTHING = st.lists(ms.messages(), max_size=8) | any_conversation()


@pytest.mark.parametrize("name", NAMES)
@given(conversation=_ANYTHING)
def test_encode_raises_only_unsupported_content(name: str, conversation: list[Any]) -> None:
    try:
        body = get(name).encode_request(conversation)
    except UnsupportedContentError as exc:
        assert exc.path.startswith("$[")
        assert exc.source == name
    else:
        SPECS[name].check(body)
        json.dumps(body)  # plain JSON, nothing frozen left in it


@pytest.mark.parametrize("name", NAMES)
@given(conversation=_ANYTHING, policy=st.sampled_from(["drop", "text"]))
def test_drop_and_text_never_raise_and_reach_a_fixed_point(
    name: str, conversation: list[Any], policy: Any
) -> None:
    codec = get(name)
    body = codec.encode_request(conversation, unsupported=policy)
    SPECS[name].check(body)
    json.dumps(body)
    decoded = codec.decode_request(body)
    assert json_equal(codec.encode_request(decoded), body)
    assert codec.decode_request(codec.encode_request(decoded)) == decoded


@pytest.mark.parametrize(
    ("name", "conversation", "path", "reason", "described"), _cases(UNSUPPORTED)
)
def test_unsupported_content_follows_the_policy(
    name: str, conversation: list[Any], path: str, reason: str, described: str | None
) -> None:
    check_unsupported(name, conversation, path, reason, described)


@pytest.mark.parametrize("name", NAMES)
def test_a_failed_result_keeps_its_flag_or_reads_as_describe_says(name: str) -> None:
    failed = ToolResultBlock("call_1", "boom", is_error=True)
    codec = get(name)
    body = codec.encode_request(
        [
            UserMessage("Run it."),  # Converse takes a user message first
            AssistantMessage((ToolUseBlock("call_1", "run", {}),)),
            ToolMessage((failed,)),
        ],
        unsupported="text",
    )
    (result,) = [b for m in codec.decode_request(body) for b in m.tool_results]
    if result.is_error:  # the format has an error flag: nothing to describe
        assert result.text == "boom"
    else:
        assert result.text == describe(failed) == "[tool result call_1 (error): boom]"


# --------------------------------------------------------------------------------- laws


@pytest.mark.parametrize("name", NAMES)
@given(data=st.data())
def test_what_it_can_carry_round_trips(name: str, data: st.DataObject) -> None:
    spec, codec = SPECS[name], get(name)
    conversation = data.draw(spec.carried())
    body = codec.encode_request(conversation)
    spec.check(body)
    decoded = codec.decode_request(as_json(body))
    assert spec.keeps(decoded) == spec.moves(spec.keeps(conversation))

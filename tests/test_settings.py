"""Request settings: the value, its native form, and every provider's reader and writer.

Laws: a whole request body (conversation and settings) read and written by the same
provider is the same JSON, for every request fixture and for settings Hypothesis draws;
the portable settings (model, token limit, sampling, stop, tool definitions, tool choice)
cross to every other provider's keys and read back the same there, but for what that
provider cannot hold, which follows the loss policy; another provider's own keys follow
the loss policy too.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import LOCAL_FIXTURES
from conftest import json_equal
from messages import DecodeError
from messages import EncodeError
from messages import RawBlock
from messages import RequestSettings
from messages import ToolChoice
from messages import ToolDefinition
from messages import UnsupportedContentError
from messages import UserMessage
from messages import from_dict
from messages import strategies as ms
from messages import to_dict
from messages.providers import NAMES
from messages.providers import get

REQUESTS = [
    (name, path)
    for name in NAMES
    for path in sorted(
        [
            *(LOCAL_FIXTURES / name).glob("*request*.json"),
            *(LOCAL_FIXTURES / name).glob("*/*request*.json"),
        ]
    )
]

_EMPTY_SCHEMA = {"type": "object", "properties": {}}


# ------------------------------------------------------------------------------- the value


@given(ms.request_settings())
def test_settings_round_trip_through_the_native_format(settings: RequestSettings) -> None:
    assert from_dict(to_dict(settings)) == settings
    assert from_dict(json.loads(json.dumps(to_dict(settings)))) == settings
    assert pickle.loads(pickle.dumps(settings)) == settings
    assert hash(dataclasses.replace(settings)) == hash(settings)


def test_settings_values_are_frozen_and_checked() -> None:
    settings = RequestSettings(stop=["a"], tools=[ToolDefinition("f", input_schema={"a": [1]})])
    assert settings.stop == ("a",) and isinstance(settings.tools, tuple)
    definition = settings.tools[0]
    assert isinstance(definition, ToolDefinition) and definition.input_schema is not None
    with pytest.raises(TypeError):
        definition.input_schema["a"] = 2  # type: ignore[index]
    with pytest.raises(DecodeError, match=r"expected one of"):
        ToolChoice("sometimes")  # type: ignore[arg-type]
    with pytest.raises(DecodeError, match="ToolDefinition or RawBlock"):
        RequestSettings(tools=("f",))  # type: ignore[arg-type]
    with pytest.raises(DecodeError, match="tool mode"):
        from_dict({"kind": "tool_choice", "mode": "maybe"})
    with pytest.raises(DecodeError, match="tool definition or a raw block"):
        from_dict({"kind": "request_settings", "tools": [{"name": "f"}]})


# --------------------------------------------------------------------- same provider, exact


@pytest.mark.parametrize(("name", "path"), REQUESTS, ids=lambda v: getattr(v, "name", v))
def test_every_request_fixture_round_trips_whole(name: str, path: Path) -> None:
    body = json.loads(path.read_text())
    provider = get(name)
    settings = provider.decode_settings(body)
    assert settings.provider == name
    again = provider.encode_request(provider.decode_request(body), settings=settings)
    assert json_equal(again, body)


def test_fixture_settings_are_read_into_their_fields() -> None:
    bedrock = json.loads((LOCAL_FIXTURES / "bedrock" / "request_agent_loop.json").read_text())
    settings = get("bedrock").decode_settings(bedrock)
    assert (settings.model, settings.max_tokens, settings.temperature) == (
        "anthropic.claude-sonnet-4-5-20250929-v1:0",
        512,
        0.2,
    )
    assert settings.tools == (ToolDefinition("get_weather", input_schema={"type": "object"}),)
    assert not settings.extra  # inferenceConfig and toolConfig are all read
    responses = json.loads(
        (LOCAL_FIXTURES / "openai_responses" / "request_agent_loop.json").read_text()
    )
    read = get("openai_responses").decode_settings(responses)
    assert read.tools is not None and read.tools[0] == ToolDefinition(
        "shell",
        description="Run a command",
        input_schema=responses["tools"][0]["parameters"],
        strict=True,
    )
    assert set(read.extra) == {"store", "include", "reasoning"}


def _drawn_body(name: str, settings: RequestSettings) -> dict[str, Any]:
    return get(name).encode_request([UserMessage("Hi")], settings=settings, unsupported="drop")


@given(st.sampled_from(NAMES), ms.request_settings())
def test_a_body_with_drawn_settings_round_trips_whole(name: str, settings: RequestSettings) -> None:
    provider = get(name)
    body = _drawn_body(name, settings)
    read = provider.decode_settings(body)
    again = provider.encode_request(provider.decode_request(body), settings=read)
    assert json_equal(again, body)
    assert provider.decode_settings(again) == read


# -------------------------------------------------------------------------- across providers


def expected(settings: RequestSettings, target: str) -> RequestSettings:
    """What ``target`` reads back from portable settings it wrote under ``"drop"``: the
    documented table of what each API can hold."""
    tools = None
    if settings.tools is not None:
        tools = tuple(_expected_tool(t, target) for t in settings.tools)
    choice = settings.tool_choice
    if target == "bedrock" and choice is not None and choice.mode == "none":
        choice = None  # Converse has no "none"
    if target in ("bedrock", "openai_chat") and tools == ():
        tools = None  # Converse and Chat take no empty tool list
    if target in ("bedrock", "openai_chat") and not tools and settings.provider != target:
        choice = None  # a choice needs tools there
    sampled = target != "anthropic"  # the current Anthropic API takes no sampling
    return RequestSettings(
        model=settings.model,
        max_tokens=settings.max_tokens,
        temperature=settings.temperature if sampled else None,
        top_p=settings.top_p if sampled else None,
        stop=None if target == "openai_responses" else settings.stop,
        tools=tools,
        tool_choice=choice,
        provider=target,
    )


def _expected_tool(tool: Any, target: str) -> ToolDefinition:
    assert isinstance(tool, ToolDefinition)
    schema = tool.input_schema
    if schema is None and target in ("anthropic", "bedrock", "openai_responses"):
        schema = _EMPTY_SCHEMA  # required there; a function without one takes no arguments
    strict = tool.strict
    if target == "gemini":
        strict = None  # Gemini has no strict definitions
    elif target == "openai_responses" and strict is None:
        strict = False  # the type requires it; other providers' definitions are not strict
    return dataclasses.replace(tool, input_schema=schema, strict=strict)


def _loses(settings: RequestSettings, target: str) -> bool:
    """Whether ``target`` cannot hold something of these portable settings."""
    choice = settings.tool_choice
    return bool(
        (target == "anthropic" and (settings.temperature, settings.top_p) != (None, None))
        or (target == "openai_responses" and settings.stop is not None)
        or (target == "bedrock" and choice is not None and choice.mode == "none")
        or (
            target in ("bedrock", "openai_chat")
            and choice is not None
            and not settings.tools
            and settings.provider != target
        )
        or (
            target == "gemini"
            and any(getattr(t, "strict", None) is not None for t in settings.tools or ())
        )
    )


@given(ms.request_settings(portable=True), st.sampled_from(NAMES), st.sampled_from(NAMES))
def test_portable_settings_cross_to_every_provider(
    settings: RequestSettings, source: str, target: str
) -> None:
    there = get(source).decode_settings(_drawn_body(source, settings))
    assert there == expected(settings, source)
    body = get(target).encode_request([UserMessage("Hi")], settings=there, unsupported="drop")
    assert get(target).decode_settings(body) == expected(there, target)
    if _loses(there, target) and source != target:
        with pytest.raises(UnsupportedContentError) as raised:
            get(target).encode_request([UserMessage("Hi")], settings=there)
        assert raised.value.path is not None and raised.value.path.startswith("settings.")
        assert raised.value.source == target
    else:
        assert get(target).encode_request([UserMessage("Hi")], settings=there) == body


@pytest.mark.parametrize("target", NAMES)
@pytest.mark.parametrize(("name", "path"), REQUESTS, ids=lambda v: getattr(v, "name", v))
def test_a_providers_own_keys_follow_the_loss_policy_elsewhere(
    name: str, path: Path, target: str
) -> None:
    settings = get(name).decode_settings(json.loads(path.read_text()))
    if target == name:
        return
    foreign = bool(settings.extra) or any(
        isinstance(t, RawBlock) or (isinstance(t, ToolDefinition) and t.extra)
        for t in settings.tools or ()
    )
    if foreign:
        with pytest.raises(UnsupportedContentError, match="cannot carry") as raised:
            get(target).encode_request([], settings=settings)
        assert raised.value.path is not None and raised.value.path.startswith("settings.")
    dropped = get(target).encode_request([], settings=settings, unsupported="drop")
    read = get(target).decode_settings(dropped)
    assert not read.extra
    assert (read.model, read.max_tokens) == (settings.model, settings.max_tokens)
    # a definition crosses without its foreign keys; a raw tool does not cross
    kept = [t.name for t in settings.tools or () if isinstance(t, ToolDefinition)]
    assert [t.name for t in read.tools or () if isinstance(t, ToolDefinition)] == kept
    assert get(target).encode_request([], settings=settings, unsupported="text") == dropped


# ------------------------------------------------------------------------- the wire, by rule


def test_each_provider_spells_the_settings_its_way() -> None:
    settings = RequestSettings(
        model="m",
        max_tokens=100,
        temperature=0.5,
        top_p=0.9,
        stop=("END",),
        tools=(
            ToolDefinition("get.weather", description="Weather", input_schema={"type": "object"}),
        ),
        tool_choice=ToolChoice("tool", name="get.weather"),
    )
    body = get("bedrock").encode_request([], settings=settings)
    assert body["modelId"] == "m"
    assert body["inferenceConfig"] == {
        "maxTokens": 100,
        "temperature": 0.5,
        "topP": 0.9,
        "stopSequences": ["END"],
    }
    spec = body["toolConfig"]["tools"][0]["toolSpec"]
    assert spec["name"] == "mx-get-2eweather" and spec["inputSchema"] == {
        "json": {"type": "object"}
    }
    assert body["toolConfig"]["toolChoice"] == {"tool": {"name": "mx-get-2eweather"}}
    assert get("bedrock").decode_settings(body).tool_choice == ToolChoice(
        "tool", name="get.weather"
    )
    gemini = get("gemini").encode_request([], settings=settings)
    assert gemini["generationConfig"] == {
        "maxOutputTokens": 100,
        "temperature": 0.5,
        "topP": 0.9,
        "stopSequences": ["END"],
    }
    assert gemini["toolConfig"] == {
        "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get.weather"]}
    }
    assert gemini["tools"] == [
        {
            "functionDeclarations": [
                {
                    "name": "get.weather",
                    "description": "Weather",
                    "parametersJsonSchema": {"type": "object"},
                }
            ]
        }
    ]
    chat = get("openai_chat").encode_request([], settings=settings)
    assert (chat["max_completion_tokens"], chat["stop"]) == (100, ["END"])
    assert chat["tool_choice"] == {"type": "function", "function": {"name": "get.weather"}}
    responses = get("openai_responses").encode_request(
        [], settings=dataclasses.replace(settings, stop=None)
    )
    assert responses["max_output_tokens"] == 100
    assert responses["tools"] == [
        {
            "type": "function",
            "name": "get.weather",
            "description": "Weather",
            "parameters": {"type": "object"},
            "strict": False,
        }
    ]
    anthropic = get("anthropic").encode_request(
        [], settings=dataclasses.replace(settings, temperature=None, top_p=None)
    )
    assert anthropic["stop_sequences"] == ["END"] and anthropic["max_tokens"] == 100
    assert anthropic["tool_choice"] == {"type": "tool", "name": "get.weather"}


_KEPT_DEFINITION = RequestSettings(tools=(ToolDefinition("f"),))


@pytest.mark.parametrize(
    ("target", "settings", "path", "left"),
    [
        ("anthropic", RequestSettings(temperature=0.3), "settings.temperature", None),
        ("anthropic", RequestSettings(top_p=0.3), "settings.top_p", None),
        ("bedrock", RequestSettings(temperature=1.5), "settings.temperature", None),
        ("openai_chat", RequestSettings(temperature=2.5), "settings.temperature", None),
        ("openai_responses", RequestSettings(stop=("x",)), "settings.stop", None),
        ("bedrock", RequestSettings(tool_choice=ToolChoice("none")), "settings.tool_choice", None),
        (
            "gemini",
            RequestSettings(tools=(ToolDefinition("f", strict=True),)),
            "settings.tools[0].strict",
            _KEPT_DEFINITION,
        ),
        (
            "gemini",
            RequestSettings(extra={"stream": True}, provider="anthropic"),
            "settings.extra.stream",
            None,
        ),
        (
            "openai_chat",
            RequestSettings(tools=(RawBlock({"googleSearch": {}}),), provider="gemini"),
            "settings.tools[0]",
            None,  # no tool left: no tool list
        ),
        (
            "anthropic",
            RequestSettings(tool_choice=ToolChoice("auto", extra={"x": 1}), provider="gemini"),
            "settings.tool_choice.extra.x",
            RequestSettings(tool_choice=ToolChoice("auto")),
        ),
    ],
)
def test_what_a_target_cannot_hold_follows_the_policy(
    target: str, settings: RequestSettings, path: str, left: RequestSettings | None
) -> None:
    with pytest.raises(UnsupportedContentError) as raised:
        get(target).encode_request([UserMessage("Hi")], settings=settings)
    assert raised.value.path == path and raised.value.source == target
    dropped = get(target).encode_request([UserMessage("Hi")], settings=settings, unsupported="drop")
    assert dropped == get(target).encode_request([UserMessage("Hi")], settings=left)


def test_settings_read_from_an_anthropic_body_write_their_sampling_back() -> None:
    body = {"model": "claude-x", "max_tokens": 10, "temperature": 0.7, "top_p": 0.5, "messages": []}
    provider = get("anthropic")
    assert provider.encode_request([], settings=provider.decode_settings(body)) == body
    assert (
        get("openai_chat").encode_request([], settings=provider.decode_settings(body))[
            "temperature"
        ]
        == 0.7
    )


def test_odd_shapes_stay_in_extra_and_go_back_as_they_were() -> None:
    chat = {
        "messages": [],
        "stop": ["\n", 1],
        "max_tokens": "5",
        "tool_choice": {"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": []}},
    }
    read = get("openai_chat").decode_settings(chat)
    assert read.stop is None and read.max_tokens is None and read.tool_choice is None
    assert set(read.extra) == {"stop", "max_tokens", "tool_choice"} and not read.spelled
    assert get("openai_chat").encode_request([], settings=read) == chat
    gemini = {
        "contents": [],
        "tools": [
            {"functionDeclarations": [{"name": "a"}]},
            {"functionDeclarations": [{"name": "b"}]},
        ],
        "toolConfig": {"functionCallingConfig": {"mode": "VALIDATED"}, "retrievalConfig": {}},
    }
    read = get("gemini").decode_settings(gemini)
    assert read.tools == (ToolDefinition("a"), RawBlock({"functionDeclarations": [{"name": "b"}]}))
    assert read.tool_choice is None
    assert get("gemini").encode_request([], settings=read) == gemini


def test_settings_must_be_request_settings() -> None:
    with pytest.raises(EncodeError, match="expected RequestSettings"):
        get("openai_chat").encode_request([], settings={"model": "m"})  # type: ignore[arg-type]
    with pytest.raises(EncodeError, match="needs a name"):
        get("openai_responses").encode_request(
            [], settings=RequestSettings(tool_choice=ToolChoice("tool"))
        )
    with pytest.raises(DecodeError):
        get("gemini").decode_settings([])  # type: ignore[arg-type]


# --------------------------------------------- Chat's older token limit and a lone stop string

_CHAT = get("openai_chat")
_KEEPS_LIMIT = {"anthropic": "max_tokens", "bedrock": "maxTokens", "gemini": "maxOutputTokens"}


@given(
    st.sampled_from(["max_tokens", "max_completion_tokens"]),
    st.integers(min_value=1, max_value=10**6),
    st.none() | st.text(max_size=6) | st.lists(st.text(max_size=6), max_size=3),
)
def test_chat_limit_and_stop_go_back_with_the_key_and_shape_they_came_with(
    key: str, limit: int, stop: Any
) -> None:
    body: dict[str, Any] = {"model": "deepseek-chat", "messages": [], key: limit}
    if stop is not None:
        body["stop"] = stop
    read = _CHAT.decode_settings(body)
    assert read.max_tokens == limit and not read.extra
    assert read.stop == (None if stop is None else (stop,) if type(stop) is str else tuple(stop))
    assert (read.spelled.get("max_tokens") == "max_tokens") == (key == "max_tokens")
    assert (read.spelled.get("stop") == "string") == (type(stop) is str)
    assert _CHAT.encode_request([], settings=read) == body
    for dialect in ("openai", "deepseek", "openrouter"):  # its own keys, whatever the dialect
        assert _CHAT.encode_request([], settings=read, dialect=dialect) == body
    assert from_dict(to_dict(read)) == read


def test_with_both_keys_max_completion_tokens_is_the_limit() -> None:
    body = {"messages": [], "max_completion_tokens": 100, "max_tokens": 50}
    read = _CHAT.decode_settings(body)
    assert read.max_tokens == 100 and dict(read.extra) == {"max_tokens": 50}
    assert not read.spelled
    assert _CHAT.encode_request([], settings=read) == body
    with pytest.raises(UnsupportedContentError, match="max_tokens"):
        get("anthropic").encode_request([], settings=read)


@given(st.integers(min_value=1, max_value=10**6), st.sampled_from(NAMES))
def test_a_deepseek_body_keeps_its_limit_on_every_provider(limit: int, target: str) -> None:
    body = {
        "model": "deepseek-chat",
        "messages": [{"role": "user", "content": "Hi"}],
        "max_tokens": limit,
        "stop": "\n",
    }
    read = _CHAT.decode_settings(body)
    conversation = _CHAT.decode_request(body)
    provider = get(target)
    if target == "openai_responses":  # Responses has no stop sequences: the policy decides
        with pytest.raises(UnsupportedContentError, match="stop"):
            provider.encode_request(conversation, settings=read)
        there = provider.encode_request(conversation, settings=read, unsupported="drop")
        assert there["max_output_tokens"] == limit and "stop" not in json.dumps(there)
        return
    there = provider.encode_request(conversation, settings=read)  # the default policy
    back = provider.decode_settings(there)
    assert back.max_tokens == limit and back.stop == ("\n",)
    assert back.extra == read.extra == {} and not (back.spelled if target != "openai_chat" else {})
    if target in _KEEPS_LIMIT:
        assert _KEEPS_LIMIT[target] in json.dumps(there)


@pytest.mark.parametrize("dialect", ["openai", "deepseek", "qwen", "vllm", "openrouter", "gemini"])
def test_settings_from_elsewhere_get_the_limit_key_of_the_dialect(dialect: str) -> None:
    key = "max_completion_tokens" if dialect == "openai" else "max_tokens"
    anthropic = get("anthropic").decode_settings({"max_tokens": 64, "messages": []})
    by_hand = RequestSettings(max_tokens=64, stop=("x",))
    for settings in (anthropic, by_hand):
        body = _CHAT.encode_request([], settings=settings, dialect=dialect)
        assert body[key] == 64 and len(set(body) & {"max_tokens", "max_completion_tokens"}) == 1
        assert _CHAT.decode_settings(body).max_tokens == 64
    assert _CHAT.encode_request([], settings=by_hand, dialect=dialect)["stop"] == ["x"]


def test_spelled_is_chat_s_own_and_only_says_how() -> None:
    read = _CHAT.decode_settings({"messages": [], "max_tokens": 7, "stop": "END"})
    for target in ("anthropic", "bedrock", "gemini"):  # no refusal: a spelling is no content
        assert get(target).decode_settings(get(target).encode_request([], settings=read)).stop == (
            "END",
        )
    grown = dataclasses.replace(read, stop=("END", "STOP"))  # a string holds only one
    assert _CHAT.encode_request([], settings=grown)["stop"] == ["END", "STOP"]


def test_a_gemini_openapi_schema_stays_gemini_s_and_follows_the_policy_elsewhere() -> None:
    schema = {"type": "OBJECT", "properties": {"city": {"type": "STRING", "nullable": True}}}
    body = {
        "contents": [],
        "tools": [{"functionDeclarations": [{"name": "f", "parameters": schema}]}],
    }
    read = get("gemini").decode_settings(body)
    assert read.tools == (ToolDefinition("f", extra={"parameters": schema}),)
    assert get("gemini").encode_request([], settings=read) == body
    for target in ("anthropic", "openai_chat", "bedrock"):
        with pytest.raises(UnsupportedContentError) as raised:
            get(target).encode_request([], settings=read)
        assert raised.value.path == "settings.tools[0].extra.parameters"
        dropped = get(target).encode_request([], settings=read, unsupported="drop")
        (kept,) = get(target).decode_settings(dropped).tools or ()
        assert isinstance(kept, ToolDefinition) and kept.name == "f" and not kept.extra
        assert kept.input_schema in (None, _EMPTY_SCHEMA) and "OBJECT" not in json.dumps(dropped)

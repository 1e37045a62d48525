"""The oracle itself: it accepts what the SDKs accept and catches what they reject.

Without these the conformance tests could pass by checking nothing: each bad body below is
one the SDK's types (or the API's rules) reject, and the oracle must say where.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance import oracle


def _rules(provider: str, body: dict[str, Any], **kw: Any) -> set[tuple[str, str, str]]:
    return {(f.rule, f.path, f.message) for f in oracle.check_request(provider, body, **kw)}


GOOD = {
    "anthropic": {
        "system": [{"type": "text", "text": "Be terse."}],
        "messages": [
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "Call it.", "signature": "c2ln"},
                    {"type": "tool_use", "id": "t1", "name": "weather", "input": {"c": "P"}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "t1", "content": "18C"},
                    {"type": "text", "text": "Thanks."},
                ],
            },
        ],
    },
    "openai_chat": {
        "messages": [
            {"role": "system", "content": "Be terse."},
            {"role": "user", "content": [{"type": "text", "text": "Weather?"}]},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "w", "arguments": "{}"}}
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "18C"},
            {"role": "assistant", "content": "18C."},
        ]
    },
    "openai_responses": {
        "instructions": "Be terse.",
        "input": [
            {"role": "user", "content": [{"type": "input_text", "text": "Weather?"}]},
            {"type": "function_call", "call_id": "c1", "name": "w", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c1", "output": "18C"},
            {"role": "assistant", "content": "18C."},
            {
                "type": "message",
                "id": "msg_1",
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Done.", "annotations": []}],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "input_image",
                        "detail": "auto",
                        "image_url": "https://example.com/a.png",
                    }
                ],
            },
        ],
    },
    "gemini": {
        "systemInstruction": {"parts": [{"text": "Be terse."}]},
        "contents": [
            {"role": "user", "parts": [{"text": "Weather?"}]},
            {
                "role": "model",
                "parts": [
                    {"functionCall": {"name": "w", "args": {}}, "thoughtSignature": "c2ln"},
                ],
            },
            {"role": "user", "parts": [{"functionResponse": {"name": "w", "response": {}}}]},
        ],
    },
    "bedrock": {
        "system": [{"text": "Be terse."}, {"cachePoint": {"type": "default"}}],
        "messages": [
            {"role": "user", "content": [{"text": "Weather?"}]},
            {
                "role": "assistant",
                "content": [
                    {
                        "reasoningContent": {
                            "reasoningText": {"text": "Call it.", "signature": "c2ln"}
                        }
                    },
                    {"toolUse": {"toolUseId": "t1", "name": "w", "input": {"c": "P"}}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "toolResult": {
                            "toolUseId": "t1",
                            "content": [{"json": {"t": 18}}],
                            "status": "success",
                        }
                    },
                    {"image": {"format": "png", "source": {"bytes": "iVBORw0KGgo="}}},
                    {"text": "Thanks."},
                ],
            },
        ],
    },
}


@pytest.mark.parametrize("provider", oracle.PROVIDERS)
def test_a_valid_body_has_no_findings(provider: str) -> None:
    assert oracle.check_request(provider, GOOD[provider], paired=True) == []


def _with(provider: str, path: str, value: Any) -> dict[str, Any]:
    """``GOOD[provider]`` with the value at ``path`` replaced (``...`` deletes it)."""
    import copy
    import re

    body = copy.deepcopy(GOOD[provider])
    parts = re.findall(r"\.([^.\[]+)|\[(\d+)\]", path)
    target: Any = body
    for key, index in parts[:-1]:
        target = target[int(index)] if index else target[key]
    key, index = parts[-1]
    last: Any = int(index) if index else key
    if value is ...:
        del target[last]
    else:
        target[last] = value
    return body


BAD = [
    # Anthropic
    ("anthropic", "$.messages[1].content[1].x_key", 1, ("unknown-key", "x_key", "x_key")),
    ("anthropic", "$.messages[1].content[1].id", ..., ("missing-key", "content[1]", "'id'")),
    ("anthropic", "$.messages[0].role", "model", ("union", "messages[0]")),
    ("anthropic", "$.messages[2].content[1].text", "", ("empty-text", "content[1]")),
    ("anthropic", "$.messages[0].content", 7, ("pydantic", "messages[0].content")),
    ("anthropic", "$.messages[2].content[0].tool_use_id", "t9", ("result-placement", "")),
    # Chat
    ("openai_chat", "$.messages[2].tool_calls", [], ("empty-tool-calls", "messages[2]")),
    ("openai_chat", "$.messages[4].content", "", ("empty-assistant", "messages[4]")),
    ("openai_chat", "$.messages[1].content[0].type", "input_text", ("union", "content[0]")),
    ("openai_chat", "$.messages[3].x_key", 1, ("unknown-key", "x_key")),
    ("openai_chat", "$.messages[1].content", [], ("empty-message", "messages[1]")),
    # Responses
    ("openai_responses", "$.input[5].content[0].detail", ..., ("union", "input[5]", "detail")),
    ("openai_responses", "$.input[0].content", [], ("empty-item", "input[0]")),
    ("openai_responses", "$.input[4].id", ..., ("missing-key", "input[4]", "'id'")),
    ("openai_responses", "$.input[2].call_id", "c9", ("unanswered", "")),
    ("openai_responses", "$.input[1].arguments", {}, ("type", "arguments", "expected str")),
    # Gemini
    ("gemini", "$.contents[1].parts[0].function_call", {"name": "w"}, ("alias", "function_call")),
    ("gemini", "$.contents[0].parts[0].x_key", 1, ("pydantic", "x_key")),
    (
        "gemini",
        "$.contents[0].parts[0].inlineData",
        {"mimeType": "a/b", "data": "AA=="},
        ("one-data-field", "parts[0]"),
    ),
    ("gemini", "$.contents[1].parts[0].thoughtSignature", "not base64!", ("pydantic", "thought")),
    ("gemini", "$.contents[2].role", "model", ("alternation", "contents[2]")),
    # Bedrock: botocore's ParamValidator, the model's limits, the API's rules
    ("bedrock", "$.messages[0].content[0].x_key", 1, ("botocore", "content[0]", "x_key")),
    ("bedrock", "$.messages[1].content[1].toolUse.name", ..., ("botocore", "toolUse", "name")),
    ("bedrock", "$.messages[0].content[0].image", {}, ("botocore", "content[0]", "more than one")),
    ("bedrock", "$.messages[2].content[0].toolResult.content", "x", ("botocore", "content")),
    ("bedrock", "$.messages[2].content[1].image.format", "bmp", ("enum", "format", "bmp")),
    ("bedrock", "$.messages[2].content[0].toolResult.status", "ok", ("enum", "status")),
    ("bedrock", "$.messages[0].role", "model", ("enum", "messages[0].role")),
    ("bedrock", "$.messages[1].content[1].toolUse.toolUseId", "a" * 65, ("max", "toolUseId")),
    ("bedrock", "$.messages[1].content[1].toolUse.name", "a b", ("pattern", "name")),
    ("bedrock", "$.messages[1].content[1].toolUse.toolUseId", "f.x:0", ("tool-id", "content[1]")),
    ("bedrock", "$.messages[2].content[2].text", " ", ("blank-text", "content[2]")),
    ("bedrock", "$.messages[2].content[0].toolResult.toolUseId", "t9", ("unanswered", "")),
    ("bedrock", "$.messages[2].role", "assistant", ("alternation", "messages[2]")),
]


@pytest.mark.parametrize(("provider", "path", "value", "expected"), BAD, ids=repr)
def test_a_bad_body_is_caught_where_it_is_bad(
    provider: str, path: str, value: Any, expected: tuple[str, ...]
) -> None:
    rule, where, *said = expected
    found = _rules(provider, _with(provider, path, value), paired=True)
    assert any(r == rule and where in p and all(w in m for w in said) for r, p, m in found), found


def test_lazily_validated_iterables_are_forced() -> None:
    # ``messages`` is an ``Iterable[MessageParam]``: pydantic validates it only when consumed.
    body = {"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": 7}]}
    adapter = oracle._adapter(oracle.REQUEST_TYPES["anthropic"])
    adapter.validate_python(body, strict=True)  # no error until the iterable is consumed
    assert oracle._strict(oracle.REQUEST_TYPES["anthropic"], body)


def test_required_keys_are_read_from_the_annotations() -> None:
    # Postponed annotations leave ``__required_keys__`` empty for these SDK TypedDicts.
    from openai.types.responses.easy_input_message_param import EasyInputMessageParam

    assert oracle._fields(EasyInputMessageParam)[1] == {"content", "role"}


def test_the_fault_table_names_what_it_tolerates() -> None:
    assert set(oracle.FAULTS) >= oracle.OPEN
    for name, fault in oracle.FAULTS.items():
        assert fault.name == name and fault.reason


def test_the_test_extra_installs_the_sdks_and_the_library_needs_none() -> None:
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    assert "llm-messages[conformance]" in extras["test"]
    wanted = {"anthropic", "openai", "google-genai", "pydantic", "botocore"}
    assert {r.split(">=")[0] for r in extras["conformance"]} == wanted
    assert project["dependencies"] == ["typing-extensions>=4.6"]

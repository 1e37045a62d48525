"""Every request body the encoders write is one the official SDKs' own types accept.

The bodies come from the provider fixtures (each decoded and encoded to every provider under
every policy), conversations Hypothesis draws (agent loops, broken histories, each
provider's own shapes) and the real agent captures in ``../shared/fixtures``, as each CLI
adapter reads them. :func:`oracle.check_request` judges each body; a finding an open fault
explains (``oracle.OPEN``) is tolerated and counted, any other fails the test.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance import oracle
from conftest import LOCAL_FIXTURES
from conftest import shared_fixtures
from messages import Block
from messages import Message
from messages import RawBlock
from messages import RequestSettings
from messages import ThinkingBlock
from messages import ToolResultBlock
from messages import UnsupportedContentError
from messages import UserMessage
from messages import strategies as ms
from messages import thaw
from messages.adapters import CLI_NAMES
from messages.providers import NAMES
from messages.providers import get
from messages.providers._carry import as_turns
from messages.serialize import to_dict
from support.adapter_files import merged_log
from support.provider_checks import is_paired
from support.provider_strategies import anthropic_conversations
from support.provider_strategies import bedrock_conversations
from support.provider_strategies import chat_conversations
from support.provider_strategies import conversations as native_conversations
from support.provider_strategies import well_formed

POLICIES = ("drop", "text", "raise")


def judge(
    target: str,
    conversation: list[Message] | tuple[Message, ...],
    policy: Any,
    *,
    carried: tuple[Any, ...] = (),
    source: str | None = None,
    settings: RequestSettings | None = None,
) -> dict[str, Any] | None:
    """Encode for ``target`` under ``policy`` and fail on any finding no open fault explains.

    Under ``"raise"`` the encoder may refuse, with :class:`UnsupportedContentError` only.
    ``carried``: what the source itself holds that an SDK rejects (see :func:`oddities`);
    a finding about exactly that is the source's, not the encoder's. ``source``: the
    provider the conversation was decoded from, counted in ``oracle.PAIRS`` when the body
    is accepted (and in ``oracle.SETTINGS_PAIRS`` when it was written with ``settings``).
    """
    try:
        body = get(target).encode_request(conversation, unsupported=policy, settings=settings)
    except UnsupportedContentError as exc:
        assert policy == "raise", exc
        assert exc.source == target and exc.path is not None
        return None
    findings = oracle.check_request(target, body, paired=is_paired(conversation))
    carried = (*carried, *held(conversation, target))
    left = [
        f
        for f in oracle.unexplained(findings, body)
        if not _carried(f.value, carried)
        and not _given_empty(f, conversation)
        and not _given_data(f, conversation)
    ]
    assert not left, "\n".join(str(f) for f in left)
    if source is not None and source != target:
        oracle.PAIRS[(source, target)] += 1
        if settings is not None:
            oracle.SETTINGS_PAIRS[(source, target)] += 1
    return body


def _contains(value: Any, needle: Any) -> bool:
    if value == needle:
        return True
    if isinstance(value, dict):
        return any(_contains(v, needle) for v in value.values())
    if isinstance(value, list):
        return any(_contains(v, needle) for v in value)
    return False


def _carried(value: Any, carried: tuple[Any, ...]) -> bool:
    for odd in carried:
        if isinstance(odd, str) and isinstance(value, str) and value in odd:
            return True
        if isinstance(odd, dict) and _contains(value, odd):
            return True
    return False


def _given_empty(finding: oracle.Finding, conversation: Any) -> bool:
    """An empty message written for a turn that came empty (no content, or ``""``)."""
    value = finding.value
    return (
        finding.rule in ("empty-message", "empty-item", "empty-assistant")
        and isinstance(value, dict)
        and any(v in ([], "") for v in (value.get("content"), value.get("parts")))
        and any(not turn.blocks or turn.content == "" for turn in as_turns(conversation))
    )


def _given_data(finding: oracle.Finding, conversation: Any) -> bool:
    """Opaque data of the conversation (a signature, a payload) that is not base64."""
    if "base64" not in finding.message or not isinstance(finding.value, str):
        return False
    return finding.value in _strings([to_dict(m) for m in conversation])


def held(conversation: list[Message] | tuple[Message, ...], target: str) -> list[Any]:
    """What the conversation itself holds that no encoder can make valid, written as given:
    raw blocks (written verbatim where the target has their type), Anthropic thinking that
    lacks its signature."""
    out: list[Any] = []
    for turn in as_turns(conversation):
        for block in _all_blocks(turn.blocks):
            if isinstance(block, RawBlock):
                out.append(thaw(block.data))
            elif (
                isinstance(block, ThinkingBlock)
                and block.provider == target == "anthropic"
                and block.signature is None
                and not block.redacted
            ):
                out.append({"type": "thinking", "thinking": block.thinking})
    return out


def _all_blocks(blocks: tuple[Block, ...]) -> list[Block]:
    out: list[Block] = []
    for block in blocks:
        out.append(block)
        if isinstance(block, ToolResultBlock) and not isinstance(block.content, str):
            out.extend(_all_blocks(block.content))
    return out


def oddities(source: str, body: dict[str, Any]) -> tuple[Any, ...]:
    """What a fixture holds that an SDK rejects by content: the objects its own SDK rejects
    (a made-up cache marker, an empty message) and its shortened placeholders, which are not
    base64 (``"iVBOR..."``)."""
    own = oracle.check_request(source, body)
    objects = tuple(f.value for f in own if isinstance(f.value, dict) and len(f.value) <= 2)
    return objects + tuple(_not_base64(body))


# ------------------------------------------------------------------------ request fixtures

REQUESTS = [
    (source, path.name)
    for source in NAMES
    for path in sorted((LOCAL_FIXTURES / source).glob("*request*.json"))
]

ODDITIES: dict[tuple[str, str], set[str]] = {
    # mcp_tool_use / mcp_tool_result: beta blocks, not in the stable MessageParam
    ("anthropic", "request_rich.json"): {"$.messages[4]"},
    # response fields sent back (annotations), a vendor's reasoning_content, and an empty
    # user message: replay cases the fixture holds on purpose
    ("openai_chat", "request_rich.json"): {
        "$.messages[7]",
        "$.messages[11]",
        "$.messages[14]",
        "$.messages[15]",
    },
    # a made-up cache marker, "status": null on a reasoning item, an input_audio part, and
    # assistant output_text without id/status, as some clients send them
    ("openai_responses", "request_agent_loop.json"): {
        "$.input[1]",
        "$.input[2]",
        "$.input[21]",
        "$.input[22]",
        "$.input[23]",
        "$.input[24]",
    },
    # an assistant output_text without id/status
    ("openai_responses", "request_leading_system_item.json"): {"$.input[2]"},
    # shortened placeholders ("iVBOR...", "CiQB0e2Kb...") that are not base64
    ("gemini", "reference_request.json"): {"$.contents[0]", "$.contents[1]"},
    # made-up signatures, a part kind of the future, a part with two data fields
    ("gemini", "request_agent_loop.json"): {
        "$.contents[1]",
        "$.contents[3]",
        "$.contents[5]",
        "$.contents[7]",
    },
}
"""Where each fixture holds what its own SDK rejects, on purpose (exact replay of odd input
is the point of those fixtures), by message or item. Exactly these, no more and no fewer."""


def _place(path: str) -> str:
    """The message, item or content a finding is in: ``$.input[3].content[0]`` -> ``$.input[3]``."""
    match = re.match(r"^\$\.\w+(\[\d+\])?", path)
    return match.group(0) if match else path


def _strings(value: Any) -> frozenset[str]:
    if isinstance(value, dict):
        return frozenset().union(*(_strings(v) for v in value.values()))
    if isinstance(value, list):
        return frozenset().union(*(_strings(v) for v in value))
    return frozenset([value]) if isinstance(value, str) else frozenset()


def _not_base64(body: Any) -> frozenset[str]:
    """The strings of a fixture that are placeholders, not base64 (``"iVBOR..."``)."""
    return frozenset(s for s in _strings(body) if "..." in s and " " not in s)


@pytest.mark.parametrize(("source", "name"), REQUESTS)
def test_each_fixture_is_what_its_own_sdk_accepts_but_its_oddities(source: str, name: str) -> None:
    body = json.loads((LOCAL_FIXTURES / source / name).read_text())
    conversation = get(source).decode_request(body)
    settings = get(source).decode_settings(body)
    again = get(source).encode_request(conversation, unsupported="drop", settings=settings)
    found = oracle.check_request(source, again, paired=is_paired(conversation))
    assert {_place(f.path) for f in found} == ODDITIES.get((source, name), set())


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(
    ("source", "name", "target"),
    # to its own format a fixture goes back exactly: see the test above
    [(s, n, t) for s, n in REQUESTS for t in NAMES if t != s],
)
def test_every_fixture_encodes_to_what_every_other_sdk_accepts(
    source: str, name: str, target: str, policy: Any
) -> None:
    body = json.loads((LOCAL_FIXTURES / source / name).read_text())
    conversation = get(source).decode_request(body)
    own = {
        k: body[k]
        for k in ("system", "messages", "instructions", "input", "systemInstruction", "contents")
        if k in body
    }
    carried = oddities(source, own)
    judge(target, conversation, policy, carried=carried, source=source)
    settings = get(source).decode_settings(body)  # the whole body: its settings too
    judge(target, conversation, policy, carried=carried, source=source, settings=settings)


# ---------------------------------------------------------------- conversations Hypothesis draws

_TARGETS = st.sampled_from(NAMES)
_POLICIES = st.sampled_from(POLICIES)


@given(ms.conversations(rich=True, max_turns=3), _TARGETS, _POLICIES)
def test_agent_loops_encode_to_what_the_sdks_accept(
    conversation: list[Message], target: str, policy: Any
) -> None:
    judge(target, conversation, policy)


@given(ms.conversations(broken=True, rich=True, max_turns=3), _TARGETS, _POLICIES)
def test_broken_histories_encode_to_what_the_sdks_accept(
    conversation: list[Message], target: str, policy: Any
) -> None:
    judge(target, conversation, policy)


@given(ms.conversations(rich=True, max_turns=3), _TARGETS, _TARGETS, _POLICIES)
def test_a_history_through_one_provider_encodes_for_another(
    conversation: list[Message], source: str, target: str, policy: Any
) -> None:
    there = get(source).encode_request(conversation, unsupported="drop")
    judge(target, get(source).decode_request(there), policy, source=source)


@given(
    ms.conversations(rich=True, max_turns=3),
    ms.request_settings(portable=True),
    _TARGETS,
    _TARGETS,
    _POLICIES,
)
def test_a_whole_request_through_one_provider_encodes_for_another(
    conversation: list[Message], settings: RequestSettings, source: str, target: str, policy: Any
) -> None:
    """Conversation and settings (tools, tool choice, limits, sampling, stop) written for
    one provider, read back, and written for another: every SDK accepts the body."""
    there = get(source).encode_request(conversation, unsupported="drop", settings=settings)
    judge(target, get(source).decode_request(there), policy, source=source, settings=settings)
    read = get(source).decode_settings(there)
    judge(target, get(source).decode_request(there), policy, source=source, settings=read)


@given(ms.request_settings(portable=True), _TARGETS, _POLICIES)
def test_settings_made_by_hand_encode_to_what_the_sdks_accept(
    settings: RequestSettings, target: str, policy: Any
) -> None:
    judge(target, [UserMessage("Hi")], policy, settings=settings)


@st.composite
def native(draw: st.DrawFn) -> tuple[str, list[Message]]:
    """A conversation in one provider's own shape, with that provider's name."""
    source = draw(st.sampled_from(NAMES))
    strategy = {
        "anthropic": anthropic_conversations(),
        "openai_chat": chat_conversations(),
        "openai_responses": native_conversations(gemini=False) | well_formed(gemini=False),
        "gemini": native_conversations(gemini=True) | well_formed(gemini=True),
        "bedrock": bedrock_conversations(),
    }[source]
    return source, draw(strategy)


@given(native(), _TARGETS, _POLICIES)
def test_each_providers_own_shapes_encode_to_what_the_sdks_accept(
    drawn: tuple[str, list[Message]], target: str, policy: Any
) -> None:
    source, conversation = drawn
    decoded = get(source).decode_request(get(source).encode_request(conversation))
    if source != target:
        judge(target, decoded, policy, source=source)


# ------------------------------------------------------------------------ agent CLI histories

_CAPTURES = [
    ("claude_code", "claude_code"),
    ("codex", "codex_exec"),
    ("codex", "codex_app_server"),
    ("gemini_cli", "gemini_cli"),
    ("acp", "acp"),
]
_LOCAL_HISTORIES = [
    (name, path.name)
    for name in CLI_NAMES
    for path in sorted((LOCAL_FIXTURES / name).glob("*.jsonl"))
]


history = merged_log  # one home: support.adapter_files


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("target", NAMES)
@pytest.mark.parametrize(("name", "folder"), _CAPTURES)
def test_real_agent_captures_encode_to_what_every_sdk_accepts(
    name: str, folder: str, target: str, policy: Any
) -> None:
    paths = sorted(
        p for p in shared_fixtures(folder).glob("*") if p.is_file() and p.suffix != ".md"
    )
    assert paths
    for path in paths:
        judge(target, history(name, path), policy)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("target", NAMES)
@pytest.mark.parametrize(("name", "file"), _LOCAL_HISTORIES)
def test_hand_made_agent_histories_encode_to_what_every_sdk_accepts(
    name: str, file: str, target: str, policy: Any
) -> None:
    judge(target, history(name, LOCAL_FIXTURES / name / file), policy)


def _unsign(body: Any) -> Any:
    """``body`` without the sentinel signatures ``unsigned_calls="sentinel"`` adds."""
    if isinstance(body, dict):
        return {
            k: _unsign(v)
            for k, v in body.items()
            if not (k == "thoughtSignature" and v == oracle.SKIP_SIGNATURE)
        }
    if isinstance(body, list):
        return [_unsign(v) for v in body]
    return body


@given(ms.conversations(rich=True, max_turns=3), _POLICIES)
def test_the_gemini_3_sentinel_signs_every_first_call_and_changes_nothing_else(
    conversation: list[Message], policy: Any
) -> None:
    g: Any = get("gemini")
    try:
        plain = g.encode_request(conversation, unsupported=policy)
    except UnsupportedContentError:
        return
    signed = g.encode_request(conversation, unsupported=policy, unsigned_calls="sentinel")
    assert _unsign(signed) == _unsign(plain)  # the sentinel is all the option adds
    assert not oracle.gemini3_unsigned(signed)
    findings = oracle.check_request("gemini", signed, paired=is_paired(conversation))
    assert not [f for f in findings if f.value == oracle.SKIP_SIGNATURE], findings  # base64
    for content in signed["contents"]:
        calls = [p for p in content["parts"] if "functionCall" in p]
        for later in calls[1:]:  # only the first call of a parallel set is given one
            assert later.get("thoughtSignature") != oracle.SKIP_SIGNATURE

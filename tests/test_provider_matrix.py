"""Issue 4's law across all four providers: any history converts to a valid request of any other.

For every request fixture of every provider, every conversation Hypothesis draws, and every
agent CLI history (hand-made fixtures and real captures): decoding with the source and
encoding with each target under ``"drop"`` or ``"text"`` gives a request the target's
validator accepts (shapes, roles, alternation, results right after their calls; every call
answered when the source answered every call; no key or type the target does not document).
Under ``"raise"`` only :class:`UnsupportedContentError` can be raised, with a path. Text,
tool calls (name and arguments) and tool results (which call they answer, and their text)
survive a trip source → target → source, with the exceptions ``docs/providers/index.md``
documents (system messages move to the front in Anthropic and only leading ones reach
Gemini, thinking and media are not compared, ``is_error`` is lost in OpenAI).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume
from hypothesis import given
from hypothesis import strategies as st

from conftest import LOCAL_FIXTURES
from conftest import json_equal
from conftest import shared_fixtures
from messages import AssistantMessage
from messages import ImageBlock
from messages import Message
from messages import SystemMessage
from messages import TextBlock
from messages import ToolMessage
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UnsupportedContentError
from messages import UserMessage
from messages import strategies as ms
from messages import thaw
from messages.adapters import CLI_NAMES
from messages.providers import NAMES
from messages.providers import get
from messages.providers._carry import refusal_text
from messages.providers._carry import request_turns
from support.adapter_files import merged_log
from support.provider_checks import is_paired
from support.provider_specs import CHECKS
from support.provider_specs import SPECS
from support.provider_strategies import anthropic_conversations
from support.provider_strategies import bedrock_conversations
from support.provider_strategies import chat_conversations
from support.provider_strategies import conversations
from support.provider_strategies import well_formed

REQUESTS = [
    (source, path.name)
    for source in NAMES
    for path in sorted((LOCAL_FIXTURES / source).glob("*request*.json"))
]


def _load(source: str, name: str) -> Any:
    return json.loads((LOCAL_FIXTURES / source / name).read_text())


def encode_valid(
    conversation: list[Message] | tuple[Message, ...], target: str, policy: Any
) -> dict[str, Any]:
    """Encode for ``target``; check the body (paired when the conversation is)."""
    body = get(target).encode_request(conversation, unsupported=policy)
    CHECKS[target](body, paired=is_paired(conversation), known=True)
    return body


def encode_or_refuse(conversation: list[Message] | tuple[Message, ...], target: str) -> None:
    """Under ``"raise"``: a valid body, or UnsupportedContentError with a path; nothing else."""
    try:
        body = get(target).encode_request(conversation)
    except UnsupportedContentError as exc:
        assert exc.source == target
        assert exc.path is not None and exc.path.startswith("$["), exc.path
    else:
        CHECKS[target](body, paired=is_paired(conversation), known=True)


# ---------------------------------------------------------------------------------- views


def portable(conversation: list[Message] | tuple[Message, ...], target: str) -> dict[str, Any]:
    """What must survive a trip through ``target``: text, calls, and results by their call.

    Text is (side, text) in order, refusals included (a target without refusals carries
    them as text); an empty text carries nothing and is left out (from the system prompt
    too, with text of only whitespace: Anthropic writes no empty text block, Responses joins
    system blocks with newlines, so a blank line counts as a blank block). Calls are (name,
    arguments parsed). Results are (index of the call they answer, text); a result
    answering no call, and ``is_error``, are left out. System text is compared as one
    string: Anthropic moves every system message to the front, Gemini keeps only the
    leading ones.
    """
    texts: list[tuple[str, str]] = []
    calls: list[tuple[str, Any]] = []
    index: dict[str, int] = {}
    results: list[tuple[int, str]] = []
    system: list[str] = []
    leading = True
    for turn in request_turns(conversation):
        if isinstance(turn, SystemMessage):
            if leading or target != "gemini":
                system.extend(
                    b.text for b in turn.blocks if isinstance(b, TextBlock) and b.text.strip()
                )
            continue
        if not isinstance(turn, UserMessage | AssistantMessage | ToolMessage):
            continue
        leading = False
        side = "assistant" if isinstance(turn, AssistantMessage) else "user"
        for block in turn.blocks:
            refusal = refusal_text(block)
            if refusal is not None:
                if refusal and (target != "bedrock" or refusal.strip()):
                    texts.append((side, refusal))
            elif isinstance(block, TextBlock) and block.text:
                if target != "bedrock" or block.text.strip():  # Converse takes no blank text
                    texts.append((side, block.text))
            elif isinstance(block, ToolUseBlock):
                index.setdefault(block.id, len(calls))
                calls.append((block.name, thaw(block.input)))
            elif isinstance(block, ToolResultBlock) and block.tool_use_id in index:
                results.append((index[block.tool_use_id], _said(block, target)))
    return {
        # Responses joins the blocks with newlines, so a blank block becomes a blank line
        # inside one text: lines of only whitespace are left out on both sides
        "system": "\n".join(line for line in "\n".join(system).split("\n") if line.strip()),
        "texts": texts,
        "calls": calls,
        "results": sorted(results),
    }


def _said(result: ToolResultBlock, target: str = "") -> str:
    """A result's text, its empty text blocks left out (they carry nothing); for Bedrock,
    which takes no blank text block, its blank ones too."""
    blank = str.strip if target == "bedrock" else str
    if isinstance(result.content, str):
        return result.content if blank(result.content) else ""
    return "\n".join(b.text for b in result.content if isinstance(b, TextBlock) and blank(b.text))


def trip(conversation: tuple[Message, ...], source: str, target: str) -> tuple[Message, ...]:
    """``conversation`` (decoded by ``source``) through ``target`` and back to ``source``."""
    if source == target:  # exactly the fixture again (see the test above): nothing to check
        sent = get(target).encode_request(conversation, unsupported="drop")
    else:
        sent = encode_valid(conversation, target, "drop")
    there = get(target).decode_request(sent)
    back = get(source).encode_request(there, unsupported="drop")
    if source != target:
        CHECKS[source](back, paired=is_paired(conversation), known=True)
    return get(source).decode_request(back)


# ------------------------------------------------------------------------ request fixtures


@pytest.mark.parametrize("policy", ["drop", "text", "raise"])
@pytest.mark.parametrize("target", NAMES)
@pytest.mark.parametrize(("source", "name"), REQUESTS)
def test_every_request_fixture_converts_to_every_provider(
    source: str, name: str, target: str, policy: Any
) -> None:
    body = _load(source, name)
    conversation = get(source).decode_request(body)
    if source == target:
        # The fixtures hold odd content on purpose; to their own format they go back exactly.
        sent = get(target).encode_request(conversation, unsupported=policy)
        assert json_equal(sent, SPECS[source].request_part(body))
    elif policy == "raise":
        encode_or_refuse(conversation, target)
    else:
        encode_valid(conversation, target, policy)


@pytest.mark.parametrize("target", NAMES)
@pytest.mark.parametrize(("source", "name"), REQUESTS)
def test_text_calls_and_results_survive_a_trip(source: str, name: str, target: str) -> None:
    conversation = get(source).decode_request(_load(source, name))
    back = trip(conversation, source, target)
    assert portable(back, target) == portable(conversation, target)


def test_the_reference_histories_keep_their_tool_loop_everywhere() -> None:
    # Not vacuous: the reference requests do carry calls and results through every target.
    for source in ("openai_chat", "openai_responses", "gemini"):
        name = "request_reference.json" if source == "openai_chat" else "reference_request.json"
        conversation = get(source).decode_request(_load(source, name))
        view = portable(conversation, source)
        assert view["calls"] and view["results"] and view["texts"]
        for target in NAMES:
            assert (
                portable(trip(conversation, source, target), target)["results"] == view["results"]
            )


# ---------------------------------------------------------------- conversations Hypothesis draws

_SOURCES = st.sampled_from(NAMES)
_POLICIES = st.sampled_from(["drop", "text"])


@given(ms.conversations(rich=True, max_turns=3), _SOURCES, _SOURCES, _POLICIES)
def test_agent_loops_convert_through_any_two_providers(
    conversation: list[Message], source: str, target: str, policy: Any
) -> None:
    # As written by an agent (flat or block messages with log context), then as a request of
    # ``source``, then for ``target``.
    encode_valid(conversation, target, policy)
    decoded = get(source).decode_request(encode_valid(conversation, source, policy))
    encode_valid(decoded, target, policy)


@given(ms.conversations(rich=True, max_turns=3), _SOURCES, _SOURCES)
def test_under_raise_only_unsupported_content_is_raised(
    conversation: list[Message], source: str, target: str
) -> None:
    encode_or_refuse(conversation, target)
    decoded = get(source).decode_request(
        get(source).encode_request(conversation, unsupported="drop")
    )
    encode_or_refuse(decoded, target)


@given(ms.conversations(broken=True, rich=True, max_turns=3), _SOURCES, _POLICIES)
def test_broken_histories_still_give_well_ordered_requests(
    conversation: list[Message], target: str, policy: Any
) -> None:
    # Dangling calls and orphan results are not repaired; the rest is still in place.
    encode_valid(conversation, target, policy)


@given(ms.streams(max_size=8), _SOURCES, _POLICIES)
def test_anything_at_all_encodes_to_a_well_formed_request(
    stream: list[Message], target: str, policy: Any
) -> None:
    body = get(target).encode_request(stream, unsupported=policy)
    CHECKS[target](body)  # shapes and placement; any content may come from anywhere here


@st.composite
def native(draw: st.DrawFn) -> tuple[str, list[Message]]:
    """A conversation in a provider's own shape, with that provider's name."""
    source = draw(_SOURCES)
    strategy = {
        "anthropic": anthropic_conversations(),
        "openai_chat": chat_conversations(),
        "openai_responses": conversations(gemini=False) | well_formed(gemini=False),
        "gemini": conversations(gemini=True) | well_formed(gemini=True),
        "bedrock": bedrock_conversations(),
    }[source]
    return source, draw(strategy)


def opens_with_user_text(conversation: tuple[Message, ...]) -> bool:
    """Whether the first turn but system prompts is a user turn with words before any call.

    Converse takes a user message first; assistant content that would open a conversation
    is left out under ``"drop"`` (see ``test_provider_bedrock``), so a trip through Bedrock,
    or back to it, keeps what follows such an opening only.
    """
    for turn in request_turns(conversation):
        if isinstance(turn, SystemMessage):
            continue
        if not isinstance(turn, UserMessage):
            return False
        for block in turn.blocks:
            if isinstance(block, TextBlock) and block.text.strip():
                return True
            if isinstance(block, ToolUseBlock):
                return False
        return False
    return True


@given(native(), _SOURCES)
def test_native_histories_survive_source_target_source(
    drawn: tuple[str, list[Message]], target: str
) -> None:
    source, conversation = drawn
    decoded = get(source).decode_request(get(source).encode_request(conversation))
    assume("bedrock" not in (source, target) or opens_with_user_text(decoded))
    back = trip(decoded, source, target)
    assert portable(back, target) == portable(decoded, target)


@given(ms.conversations(rich=True, max_turns=3), _SOURCES, _SOURCES)
def test_agent_loops_survive_source_target_source(
    conversation: list[Message], source: str, target: str
) -> None:
    decoded = get(source).decode_request(
        get(source).encode_request(conversation, unsupported="drop")
    )
    assume("bedrock" not in (source, target) or opens_with_user_text(decoded))
    back = trip(decoded, source, target)
    assert portable(back, target) == portable(decoded, target)


# ------------------------------------------------------------------------ agent CLI histories

_LOCAL_HISTORIES = [
    (name, path.name)
    for name in CLI_NAMES
    for path in sorted((LOCAL_FIXTURES / name).glob("*.jsonl"))
]
_SAME_CONVERSATION = sorted((LOCAL_FIXTURES / "same_conversation").glob("*.jsonl"))
_CAPTURES = [
    ("claude_code", "claude_code"),
    ("codex", "codex_exec"),
    ("codex", "codex_app_server"),
    ("gemini_cli", "gemini_cli"),
    ("acp", "acp"),
]


_history = merged_log  # one home: support.adapter_files


def _assert_converts(history: list[Message]) -> None:
    for target in NAMES:
        encode_valid(history, target, "drop")
        encode_or_refuse(history, target)


@pytest.mark.parametrize(("name", "file"), _LOCAL_HISTORIES)
def test_hand_made_agent_histories_convert_to_every_provider(name: str, file: str) -> None:
    _assert_converts(_history(name, LOCAL_FIXTURES / name / file))


@pytest.mark.parametrize("path", _SAME_CONVERSATION, ids=lambda p: p.name)
def test_the_same_conversation_from_every_cli_converts_to_every_provider(path: Path) -> None:
    name = "codex" if path.stem.startswith("codex") else path.stem
    history = _history(name, path)
    turns = request_turns(history)
    assert is_paired(history)
    assert any(isinstance(b, ToolUseBlock) for t in turns for b in getattr(t, "blocks", ()))
    _assert_converts(history)


@pytest.mark.parametrize(("name", "folder"), _CAPTURES)
def test_real_agent_captures_convert_to_every_provider(name: str, folder: str) -> None:
    paths = sorted(
        p for p in shared_fixtures(folder).glob("*") if p.is_file() and p.suffix != ".md"
    )
    assert paths
    for path in paths:
        _assert_converts(_history(name, path))


def test_a_real_claude_code_run_keeps_its_tool_loop_in_every_provider() -> None:
    history = _history("claude_code", shared_fixtures("claude_code", "caic-tool-error.jsonl"))
    assert is_paired(history)
    for target in NAMES:
        view = portable(get(target).decode_request(encode_valid(history, target, "drop")), target)
        assert view["results"] and view["calls"]
        assert len(view["results"]) == len(view["calls"])


# ------------------------------------------------------------------------ the extras rule

_HAZARDS = [
    TextBlock("hi", extra={"item": {"type": "agent_message", "id": "item_1"}}),
    TextBlock("hi", extra={"thoughtSignature": "c2ln"}),
    TextBlock("No.", extra={"type": "refusal"}),
    TextBlock("hi", extra={"parentId": "p1", "data": {"content": ""}, "delta": True}),
    TextBlock("hi", extra={"part": {"sessionID": "ses_1"}, "text_elements": []}),
    ToolUseBlock("call_1", "f", {}, extra={"id": "fc_1", "status": "completed"}),
    ToolUseBlock("call_1", "f", {}, extra={"method": "item/started", "params": {"x": 1}}),
]
_FOREIGN_KEYS = {
    "item",
    "thoughtSignature",
    "parentId",
    "data",
    "delta",
    "part",
    "sessionID",
    "text_elements",
    "method",
    "params",
    "status",
    "message",
    "parentUuid",
}


def _keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value).union(*(_keys_of(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_keys_of(v) for v in value))
    return set()


@pytest.mark.parametrize("target", NAMES)
@pytest.mark.parametrize("block", _HAZARDS, ids=repr)
def test_another_formats_extras_never_reach_a_request(block: Any, target: str) -> None:
    turn = AssistantMessage((block,)) if isinstance(block, ToolUseBlock) else UserMessage((block,))
    log_record = {"type": "assistant", "message": {"role": "assistant"}, "parentUuid": "u0"}
    conversation = [
        UserMessage("Go.", extra={"sessionID": "ses_1", "parentId": "p0"}),
        AssistantMessage((TextBlock("On it."),), extra=log_record, session_id="s1"),
        turn,
    ]
    if isinstance(block, ToolUseBlock):
        conversation.append(ToolMessage((ToolResultBlock("call_1", "ok"),)))
    body = encode_valid(conversation, target, "drop")
    own = {"gemini": {"thoughtSignature"}, "openai_responses": {"status"}}.get(target, set())
    assert not (_keys_of(body) & (_FOREIGN_KEYS - own)), body
    texts = json.dumps(body)
    assert "hi" in texts or "No." in texts or "call_1" in texts


def test_a_refusal_is_carried_as_what_each_target_has() -> None:
    said = AssistantMessage((TextBlock("I can't.", extra={"type": "refusal"}),))
    chat = get("openai_chat").encode_request([UserMessage("Do it."), said])
    assert chat["messages"][1]["content"] == [{"type": "refusal", "refusal": "I can't."}]
    anthropic = get("anthropic").encode_request([UserMessage("Do it."), said])
    assert anthropic["messages"][1]["content"] == [{"type": "text", "text": "I can't."}]
    gemini = get("gemini").encode_request([UserMessage("Do it."), said])
    assert gemini["contents"][1]["parts"] == [{"text": "I can't."}]


def test_a_result_follows_a_raw_call_the_target_cannot_carry() -> None:
    history = get("openai_chat").decode_request(_load("openai_chat", "request_rich.json"))
    for target in ("anthropic", "openai_responses", "gemini"):
        with pytest.raises(UnsupportedContentError):
            get(target).encode_request(history)
        body = encode_valid(history, target, "drop")
        assert "call_custom_1" not in json.dumps(body)
        texted = get(target).encode_request(history, unsupported="text")
        assert "[custom: " in json.dumps(texted) or "run_sql" in json.dumps(texted)


def test_a_sub_agents_messages_stay_out_of_the_calling_conversation() -> None:
    history = _history("claude_code", LOCAL_FIXTURES / "claude_code" / "stream.jsonl")
    assert any(m.parent_tool_use_id for m in history)  # the log does hold a sub-agent's turns
    body = encode_valid(history, "openai_chat", "drop")
    said = [
        part if isinstance(part, str) else part.get("text")
        for m in body["messages"]
        if m["role"] == "user"
        for part in ([m["content"]] if isinstance(m["content"], str) else m["content"])
    ]
    assert said and "Read README.md" not in said  # the sub-agent's prompt
    results = [m["content"] for m in body["messages"] if m["role"] == "tool"]
    assert "README.md does not exist." in str(results)  # its work, as the Task's result


def test_images_cross_to_every_target_that_carries_them() -> None:
    turn = UserMessage((TextBlock("See:"), ImageBlock(data="iVBORw0KGgo=", media_type="image/png")))
    for target in NAMES:
        back = get(target).decode_request(encode_valid([turn], target, "raise"))
        images = [b for m in back for b in m.blocks if isinstance(b, ImageBlock)]
        assert len(images) == 1


# ------------------------------------------------------------------------------ registry

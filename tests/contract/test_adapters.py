"""The adapter contract, checked once for every registered adapter (``adapters.NAMES``).

What holds for all of them lives here: the surface, exact round trips over every fixture
(hand-made and real), detection, lenient and strict reading, limits, the loss policy and
its words, copies. Where formats honestly differ, the difference is a named table below,
so it stays visible. ``tests/test_adapter_<name>.py`` keeps what is specific to one format.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import pickle
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import json_equal
from messages import AssistantMessage
from messages import AudioMessage
from messages import Citation
from messages import DecodeError
from messages import DocumentMessage
from messages import EncodeError
from messages import ImageMessage
from messages import InvalidLineMessage
from messages import MessagesError
from messages import RawBlock
from messages import RawMessage
from messages import ServerToolResultMessage
from messages import ServerToolUseMessage
from messages import TextMessage
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import UnsupportedContentError
from messages import UserMessage
from messages import VideoMessage
from messages import strategies as ms
from messages import thaw
from messages.adapters import CLI_NAMES
from messages.adapters import NAMES
from messages.adapters import READ_ONLY
from messages.adapters import UnknownFormatError
from messages.adapters import detect
from messages.adapters import get
from messages.adapters import prepare
from messages.convert import message_to_block
from messages.convert import normalize_messages
from messages.limits import limits
from messages.policy import describe
from support.adapter_files import MIXED_RESULT
from support.adapter_files import assert_round_trips
from support.adapter_files import assert_stream_round_trips
from support.adapter_files import captures
from support.adapter_files import hand_made
from support.adapter_files import stream_lines
from support.adapter_files import wire_objects
from support.mutation import scribble

# -- where formats differ ---------------------------------------------------------------------

CARRIES_EVERYTHING = frozenset(("native",))
"""This library's own format: nothing is unsupported, every message is written as it is."""
READS_ONLY = frozenset(READ_ONLY)
"""Formats that write back only the records they were read from (a telemetry file): a
conversation from elsewhere is refused (``"drop"`` and ``"text"`` leave it out), so the tests
of how a conversation is written do not apply to them."""
CARRIES_CITATIONS = frozenset(("claude_code", "droid", "native"))
"""Formats with a place for text citations (Anthropic-shaped blocks, native)."""
CARRIES_SERVER_TOOLS = frozenset(("claude_code", "droid", "native"))
"""Formats with a place for a server tool's call and result (Anthropic-shaped blocks, native)."""
CARRIES_RAW_CONTENT = frozenset(("claude_code", "native", "pi"))
"""Formats that write a raw content block of any role inside a message of that role."""
CARRIES_AUDIO = frozenset(("acp", "native"))
"""Formats with an audio content item."""
STRING_RESULTS = frozenset(("gemini_cli", "opencode", "copilot"))
"""Formats whose tool results are one string: other blocks go through the policy."""
WRITES_EMPTY_TURNS = {
    "claude_code": 1,
    "copilot": 1,
    "native": 1,
    "codex": 0,
    "pi": 1,
    "cursor": 1,
    "cline": 1,
    "gemini_session": 1,
    "qwen_code": 1,
    "opencode_storage": 1,
    "amp": 1,
    "goose": 1,
    "droid": 1,
    "kilo": 1,
}
"""Lines ``iter_encode`` writes for an assistant message with no blocks (others: 0, and
``encode`` raises, since a role message is one event per block there)."""
RECORDS_OF = {"kilo": "opencode_storage"}
SAME_SHAPE = {"droid": {"pi"}}
"""Formats some of whose lines have another format's shape: a Factory Droid message entry has
pi's envelope (``type``, ``id``, ``parentId``, ``timestamp``, a ``message`` with a role and its
content), so both claim it. The file is still told apart by its ``session_start`` header, which
is Droid's alone: ``test_each_file_is_detected_as_its_own_format_and_no_other`` checks that."""
"""Formats whose records are another format's shape: found by their file's name, not their
lines (Kilo's ``kilo.db`` holds OpenCode's rows), so the other format claims them."""
TAKES_OVER_INPUT = frozenset(("claude_code", "codex"))
"""Decoders documented to take over the object they are given (nested values shared: the
speed of the two busiest formats); every other ``decode`` copies its input first."""
REPEATS_CALL_STATES = frozenset(("acp", "opencode", "gemini_session"))
"""Formats whose in-progress states of a call (ACP ``tool_call_update``, OpenCode's pending and
running parts) read as the call again, since they fill in its input: ``merge`` folds them."""
EXCERPTS = frozenset(
    ("edge-cases.jsonl", "gleam-user_message.json", "caic-gemini-unit-test-lines.jsonl")
)
"""Fixtures and captures cut from longer runs: some of their results answer calls made before."""
MIN_CAPTURE_LINES = {"gemini_cli": 12, "acp": 3}
"""Each real capture of these formats holds at least this many JSON lines."""

BAD_SHAPES = {
    "claude_code": (
        '{"type":"result","is_error":"no"}',
        "$.is_error: expected a boolean, found a string",
    ),
    "codex": (
        '{"type":"thread.started","thread_id":4}',
        "$.thread_id: expected a string, found an integer",
    ),
    "gemini_cli": ('{"type":"tool_use"}', "$.tool_id: expected a string, found nothing"),
    "opencode": (
        '{"type":"text","part":{"type":"text"}}',
        "$.part.text: expected a string, found nothing",
    ),
    "copilot": (
        '{"type":"user.message","data":{}}',
        "$.data.content: expected a string, found nothing",
    ),
    "acp": (
        '{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"tool_call"}}}',
        "$.params.update.toolCallId: expected a string, found nothing",
    ),
    "opencode_storage": (
        '{"id":"prt_1","sessionID":"ses_1","messageID":"msg_1","type":"tool","callID":"c1","tool":"read"}',
        "$.state: expected an object, found nothing",
    ),
    "amp": (
        '{"id":"T-1","created":1,"messages":[{"role":"assistant","usage":{"inputTokens":"9"}}]}',
        "$.messages[0].usage.inputTokens: expected an integer, found a string",
    ),
    "goose": (
        '{"table":"messages","session_id":"s","role":"user","content_json":{"type":"text"}}',
        "$.content_json: expected a list of content items, found an object",
    ),
    "droid": (
        '{"type":"message","id":"m","timestamp":"t","message":{"role":"user","content":[{"type":"text","text":5}]}}',
        "$.message.content[0].text: expected a string, found an integer",
    ),
    "kimi": (
        '{"timestamp":1,"message":{"type":"ToolCall",'
        '"payload":{"type":"function","id":"c","function":{"arguments":"{}"}}}}',
        "$.message.payload.function.name: expected a string, found nothing",
    ),
    "kilo": (
        '{"table":"message","id":"m","session_id":"s","data":{"role":"user","time":{"created":[]}}}',
        "$.time.created: expected a string or a number, found an array",
    ),
    "native": ('{"v":1,"kind":"text","text":5}', "$.text: expected a string, found an integer"),
    "pi": (
        '{"type":"message","message":{"role":"toolResult","toolCallId":5}}',
        "$.message.toolCallId: expected a string, found an integer",
    ),
    "cursor": (
        '{"type":"tool_call","subtype":"started","call_id":7,"session_id":"s"}',
        "$.call_id: expected a string, found an integer",
    ),
    "cline": (
        '{"role":"user","content":5,"ts":1}',
        "$.content: expected a string or an array, found an integer",
    ),
    "gemini_session": (
        '{"id":"m","timestamp":"t","type":"gemini","content":"","toolCalls":{}}',
        "$.toolCalls: expected an array, found an object",
    ),
    "qwen_code": (
        '{"uuid":"u","sessionId":"s","parentUuid":null,"type":"assistant","usageMetadata":[]}',
        "$.usageMetadata: expected an object, found an array",
    ),
    "copilot_otel": (
        '{"type":"span","name":"chat m","attributes":[1]}',
        "$.attributes: expected an object, found an array",
    ),
    "hermes": (
        '{"store":"hermes","table":"messages","row":{"role":"assistant","tool_calls":"{}"}}',
        "$.row.tool_calls: expected a JSON array, found an object",
    ),
    "codebuff": (
        '{"variant":"user","content":5}',
        "$.content: expected a string, found an integer",
    ),
    "grok": (
        '{"method":"m","params":{"update":{"sessionUpdate":"turn_completed","usage":{"inputTokens":"9"}}}}',
        "$.params.update.usage.inputTokens: expected a count, found a string",
    ),
    "zcode": (
        '{"store":"zcode","table":"model_usage","row":{"status":"completed","output_tokens":[]}}',
        "$.row.output_tokens: expected an integer, found an array",
    ),
}
"""A line of each format with a known key of the wrong type, and what reading it says."""

FOREIGN_LINES: list[tuple[Any, str | None]] = [
    ({"type": "assistant", "message": {"content": []}}, "claude_code"),
    ({"type": "result", "subtype": "success"}, "claude_code"),
    ({"type": "result", "subtype": "success", "is_error": False}, "claude_code"),
    ({"type": "system", "subtype": "init"}, "claude_code"),
    ({"type": "assistant", "message": {}}, "claude_code"),
    ({"type": "thread.started", "thread_id": "t"}, "codex"),
    (
        {"type": "item.completed", "item": {"id": "i", "type": "agent_message", "text": "x"}},
        "codex",
    ),
    ({"method": "item/agentMessage/delta", "params": {"delta": "x"}}, "codex"),
    ({"type": "error", "message": "codex failed"}, "codex"),
    ({"type": "error", "message": "codex"}, "codex"),
    ({"type": "item.completed", "item": {}}, "codex"),
    ({"type": "item.completed", "item": {"id": "i"}}, "codex"),
    ({"type": "turn.completed", "usage": {}}, "codex"),
    ({"jsonrpc": "2.0", "id": 2, "method": "thread/start", "params": {}}, "codex"),
    ({"method": "turn/started", "params": {}}, "codex"),
    (
        {
            "timestamp": "2026-01-15T10:00:00.000Z",
            "type": "event_msg",
            "payload": {"type": "token_count", "info": None},
        },
        "codex",
    ),
    (
        {
            "timestamp": "2026-01-15T10:00:00.000Z",
            "type": "response_item",
            "payload": {"type": "message", "role": "assistant", "content": []},
        },
        "codex",
    ),
    ({"type": "session_meta", "payload": {"id": "s"}}, "codex"),
    ({"type": "compacted", "payload": {"message": "Summary."}}, "codex"),
    ({"type": "event_msg", "payload": "not an object"}, None),
    (
        {"type": "init", "timestamp": "2025-01-01T00:00:00Z", "session_id": "s", "model": "gemini"},
        "gemini_cli",
    ),
    ({"type": "message", "role": "assistant", "content": "hi", "delta": True}, "gemini_cli"),
    ({"type": "result", "status": "success", "stats": {"total_tokens": 3}}, "gemini_cli"),
    (
        {"type": "error", "timestamp": "2025-01-01T00:00:00Z", "severity": "error", "message": "x"},
        "gemini_cli",
    ),
    ({"type": "init", "session_id": "s", "model": "gemini"}, "gemini_cli"),
    ({"type": "tool_use", "tool_name": "ls", "tool_id": "1", "parameters": {}}, "gemini_cli"),
    ({"type": "error", "severity": "error", "message": "gemini"}, "gemini_cli"),
    ({"type": "result", "status": "success"}, "gemini_cli"),
    ({"type": "text", "sessionID": "ses_1", "part": {"type": "text", "text": "hi"}}, "opencode"),
    ({"type": "tool_use", "part": {"type": "tool"}}, "opencode"),
    ({"type": "tool_use", "part": {}}, "opencode"),
    ({"type": "assistant.message", "data": {"content": "hi"}}, "copilot"),
    ({"type": "assistant.turn_start", "data": {}}, "copilot"),
    ({"type": "result", "timestamp": "t", "sessionId": "s", "exitCode": 0}, "copilot"),
    ({"type": "assistant.message", "data": {}}, "copilot"),
    (
        {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s", "update": {}}},
        "acp",
    ),
    ({"v": 1, "kind": "text", "text": "hi", "role": "user"}, "native"),
    ({"v": 1, "kind": "assistant", "content": []}, "native"),
    ({"v": 1, "kind": "error", "message": "x"}, "native"),
    ({"v": 1, "kind": "text", "text": "hi", "type": "item.completed"}, "native"),
    ({"v": 1, "kind": "text", "text": "hi"}, "native"),
    ({"v": 1, "kind": "text", "text": "x", "part": {}}, "native"),
    ({"v": 1, "kind": "text", "type": "a.b", "data": {}}, "native"),
    ({"v": 1, "kind": "text", "text": "x"}, "native"),
    ([1, 2], None),
    ("text", None),
    ({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}, None),
    ([1], None),
    ({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"clientInfo": {}}}, None),
    ({"id": 1, "result": {"userAgent": "codex"}}, None),
    ({"jsonrpc": "2.0", "id": 3, "error": {"code": -1, "message": "x"}}, "acp"),
    ({"jsonrpc": "2.0", "error": {"message": "x"}}, "acp"),
    ({"id": 3, "error": {"code": -1, "message": "x"}}, None),
    # Gemini CLI saved sessions: metadata, message records, edits, the prompt log, checkpoints
    ({"sessionId": "s", "projectHash": "h", "startTime": "t", "messages": []}, "gemini_session"),
    ({"id": "m", "timestamp": "t", "type": "gemini", "content": ""}, "gemini_session"),
    ({"id": "m", "timestamp": "t", "type": "user", "content": [{"text": "hi"}]}, "gemini_session"),
    ({"$rewindTo": "m"}, "gemini_session"),
    ({"$set": {"summary": "x"}}, "gemini_session"),
    ([{"sessionId": "s", "messageId": 0, "type": "user", "message": "hi"}], "gemini_session"),
    ({"history": [{"role": "user", "parts": [{"text": "hi"}]}]}, "gemini_session"),
    ([{"role": "model", "parts": []}], "gemini_session"),
    ({"type": "user", "message": "hi"}, None),
    ({"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}, None),
    # Qwen Code chats: Claude Code's transcript keys, Gemini's content (claude_code refuses)
    (
        {
            "uuid": "u",
            "parentUuid": None,
            "sessionId": "s",
            "type": "user",
            "version": "0.0.14",
            "message": {"role": "user", "parts": [{"text": "hi"}]},
        },
        "qwen_code",
    ),
    (
        {"uuid": "u", "parentUuid": "p", "sessionId": "s", "type": "tool_result", "version": "0.1"},
        "qwen_code",
    ),
    (
        {
            "uuid": "u",
            "parentUuid": "p",
            "sessionId": "s",
            "type": "system",
            "subtype": "ui_telemetry",
            "systemPayload": {},
        },
        "qwen_code",
    ),
    (
        {"uuid": "u", "parentUuid": "p", "sessionId": "s", "type": "system", "version": "0.0.9"},
        "qwen_code",
    ),
    (
        {"uuid": "u", "parentUuid": "p", "sessionId": "s", "type": "new_kind", "version": "0.2.0"},
        "qwen_code",
    ),
    (
        {
            "uuid": "u",
            "parentUuid": None,
            "sessionId": "s",
            "type": "user",
            "version": "2.0.1",
            "message": {"role": "user", "content": "hi"},
        },
        "claude_code",
    ),
    (
        {"uuid": "u", "parentUuid": "p", "sessionId": "s", "type": "new_kind", "version": "2.0.1"},
        "claude_code",
    ),
    # OpenCode's store: records and rows are its own; the project and todo files beside them,
    # and a run event (which carries its part under "part"), are not
    (
        {"id": "prt_1", "sessionID": "s", "messageID": "m", "type": "text", "text": "x"},
        "opencode_storage",
    ),
    ({"id": "msg_1", "sessionID": "s", "role": "user", "time": {"created": 1}}, "opencode_storage"),
    (
        {"id": "ses_1", "projectID": "p", "directory": "/", "time": {"created": 1}},
        "opencode_storage",
    ),
    (
        {"table": "message", "id": "m", "session_id": "s", "data": {"role": "user"}},
        "opencode_storage",
    ),
    ({"id": "4b0e", "worktree": "/home/dev", "vcs": "git", "time": {"created": 1}}, None),
    (
        {"type": "text", "sessionID": "s", "part": {"id": "p", "messageID": "m", "type": "text"}},
        "opencode",
    ),
    ({"id": "m", "sessionID": "s", "role": "system", "time": {}}, None),
]
"""Lines written by one format (or by none), and who must claim them: that one alone.

Every line each per-format file once checked its adapter refuses is here.
"""

# -- helpers ----------------------------------------------------------------------------------


def adapters() -> list[Any]:
    return [pytest.param(get(name), id=name) for name in NAMES]


def first_line(adapter: ModuleType) -> str:
    """A good line of the adapter's own first fixture."""
    return next(line for line in stream_lines(hand_made(adapter.NAME)[0]) if line[:1] == "{")


def _fixtures() -> list[Any]:
    return [
        pytest.param(get(name), path, id=f"{name}:{path.name}")
        for name in NAMES
        for path in hand_made(name)
    ]


def _captures() -> list[Any]:
    found = [pytest.param(get(name), path, id=f"{name}:{path.name}") for name, path in captures()]
    return found or [pytest.param(None, None, id="captures-absent")]


def blocks_of(message: Any) -> tuple[Any, ...]:
    """The blocks a role message holds, or the one block of a flat message."""
    if isinstance(message, (AssistantMessage, UserMessage)):
        return tuple(message.content)
    return (message_to_block(message),)


def _writes_conversations(adapter: ModuleType) -> None:
    """Skip a test of how a conversation is written, for a format that writes none."""
    if adapter.NAME in READS_ONLY:
        pytest.skip(f"{adapter.NAME} writes back only the records it was read from")


def _claimers(obj: Any) -> list[str]:
    return [name for name in NAMES if get(name).detect(obj)]


# -- the surface ------------------------------------------------------------------------------


@pytest.mark.parametrize("adapter", adapters())
def test_every_adapter_has_the_shared_surface(adapter: ModuleType) -> None:
    assert adapter.NAME in NAMES and get(adapter.NAME) is adapter
    for verb in ("decode", "encode", "detect", "iter_decode", "iter_encode", "merge"):
        assert callable(getattr(adapter, verb)), verb
    options = {
        "encode": ("unsupported", "raise"),
        "iter_encode": ("unsupported", "raise"),
        "iter_decode": ("strict", False),
    }
    for verb, (option, default) in options.items():
        parameter = inspect.signature(getattr(adapter, verb)).parameters[option]
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY
        assert parameter.default == default


def test_an_unknown_name_is_a_messages_error() -> None:
    assert set(NAMES) == {*CLI_NAMES, "native"}
    with pytest.raises(UnknownFormatError) as info:
        get("gemini")
    assert isinstance(info.value, MessagesError) and isinstance(info.value, LookupError)


# -- round trips over every fixture -----------------------------------------------------------


@pytest.mark.parametrize(("adapter", "path"), _fixtures())
def test_hand_made_fixtures_round_trip(adapter: ModuleType, path: Path) -> None:
    assert_round_trips(adapter, path)
    assert_stream_round_trips(adapter, path)
    with path.open("rb") as fp:  # bytes read the same as text
        as_bytes = list(adapter.iter_decode(fp))
    assert as_bytes == list(adapter.iter_decode(path.read_text("utf-8").splitlines()))


@pytest.mark.parametrize(("adapter", "path"), _captures())
def test_real_captures_round_trip(adapter: ModuleType | None, path: Path | None) -> None:
    if adapter is None or path is None:
        pytest.skip("real captures not available")
    count = assert_round_trips(adapter, path)
    assert count >= MIN_CAPTURE_LINES.get(adapter.NAME, 1)
    assert_stream_round_trips(adapter, path)
    decoded = list(adapter.iter_decode(stream_lines(path)))
    assert not [m for m in decoded if isinstance(m, InvalidLineMessage)]


def test_every_format_with_captures_has_some() -> None:
    found = {name for name, _ in captures()}
    if not found:
        pytest.skip("real captures not available")
    assert found == {"claude_code", "codex", "gemini_cli", "acp", "pi", "cursor", "gemini_session"}
    pretty = [p for name, p in captures() if name == "claude_code" and p.suffix == ".json"]
    assert len(pretty) >= 15  # single pretty-printed Claude Code messages: one object each


# -- detection --------------------------------------------------------------------------------


@pytest.mark.parametrize(("adapter", "path"), [*_fixtures(), *_captures()])
def test_lines_are_claimed_by_their_own_adapter_or_by_none(
    adapter: ModuleType | None, path: Path | None
) -> None:
    if adapter is None or path is None:
        pytest.skip("real captures not available")
    claimed = 0
    own = RECORDS_OF.get(adapter.NAME, adapter.NAME)
    shared = SAME_SHAPE.get(own, set())
    for number, obj in wire_objects(path):
        claimers = _claimers(obj)
        if len(claimers) > 1 and set(claimers) - {own} <= shared:
            # a line both formats write alike: the file is told by its other lines
            assert own in claimers, f"{path.name}:{number}: {claimers}"
            claimed += 1
            continue
        assert claimers in ([own], []), f"{path.name}:{number}: {claimers}"
        claimed += bool(claimers)
        if claimers:
            assert detect(obj) == own
    assert claimed > 0 or path.suffix == ".json"


@pytest.mark.parametrize(("adapter", "path"), [*_fixtures(), *_captures()])
def test_each_file_is_detected_as_its_own_format_and_no_other(
    adapter: ModuleType | None, path: Path | None
) -> None:
    """What the command does without ``--from``: a whole file, read as its own format, and
    no other format claims most of its first records (a Qwen Code chat is no Claude Code
    transcript, a Gemini CLI session no stream)."""
    if adapter is None or path is None:
        pytest.skip("real captures not available")
    from messages.cli.io import sniff

    with path.open("rb") as fp:
        survey, _ = sniff(fp)
    own = RECORDS_OF.get(adapter.NAME, adapter.NAME)  # Kilo's rows are OpenCode's records
    if adapter.NAME == "native" or survey.first is None:
        assert survey.first in (own, None)
        return
    assert survey.first == own, path.name
    assert survey.rival(own) is None, survey.counts


@pytest.mark.parametrize(("obj", "owner"), FOREIGN_LINES, ids=lambda x: str(x)[:40])
def test_a_line_of_one_format_is_claimed_by_that_format_alone(obj: Any, owner: str | None) -> None:
    assert _claimers(obj) == ([] if owner is None else [owner])
    assert detect(obj) == owner


@pytest.mark.parametrize(("adapter", "path"), [*_fixtures(), *_captures()])
def test_each_call_is_given_once_and_before_its_result(
    adapter: ModuleType | None, path: Path | None
) -> None:
    """However a format announces a call (in the model's turn, in an execution event, in
    both, or only with its outcome), the flat view has it once, before its result."""
    if adapter is None or path is None:
        pytest.skip("real captures not available")
    for merged in (False, True):
        if not merged and adapter.NAME in REPEATS_CALL_STATES:
            continue
        decoded = adapter.iter_decode(stream_lines(path))
        calls: list[str] = []
        orphans: list[str] = []
        for m in normalize_messages(adapter.merge(decoded) if merged else decoded):
            if isinstance(m, ToolUseMessage):
                calls.append(m.id)
            elif isinstance(m, ToolResultMessage) and m.tool_use_id not in calls:
                orphans.append(m.tool_use_id)
        assert len(calls) == len(set(calls)), calls
        if path.name not in EXCERPTS:
            assert orphans == []


@pytest.mark.parametrize("adapter", adapters())
@pytest.mark.parametrize("tag", [[], {}, ["assistant"], {"a": 1}, 1, None])
def test_an_unhashable_or_odd_type_is_not_claimed_and_never_crashes(
    adapter: ModuleType, tag: object
) -> None:
    assert adapter.detect({"type": tag}) is False


# -- reading leniently or strictly -------------------------------------------------------------


@pytest.mark.parametrize("adapter", adapters())
def test_a_bad_line_does_not_stop_a_stream_and_strict_reading_names_it(
    adapter: ModuleType,
) -> None:
    good = first_line(adapter)
    lines = [good, "not json at all", "", good.encode()]
    out = list(adapter.iter_decode(lines))
    assert [m.kind for m in out][1] == "invalid_line" and len(out) == 3
    bad = out[1]
    assert isinstance(bad, InvalidLineMessage)
    assert (bad.text, bad.line) == ("not json at all", 2)
    assert bad.reason.startswith("$: invalid JSON")
    assert out[0] == out[2]
    written = list(adapter.iter_encode(out))
    assert written[1] == "not json at all"
    assert json_equal(json.loads(written[0]), json.loads(good))
    with pytest.raises(DecodeError) as info:
        list(adapter.iter_decode(lines, strict=True))
    assert (info.value.line, info.value.source) == (2, adapter.NAME)
    assert str(info.value).startswith(f"{adapter.NAME}: line 2: $: invalid JSON")


@pytest.mark.parametrize("adapter", adapters())
def test_a_record_written_over_several_lines_reads_as_one(adapter: ModuleType) -> None:
    """Pretty-printed JSON (a recorder's, Gemini CLI's ``-o json``) is one record, with noise
    around it reported by file line."""
    good = first_line(adapter)
    pretty = json.dumps(json.loads(good), indent=2).splitlines()
    assert len(pretty) > 2
    out = list(adapter.iter_decode(["noise", *pretty, good, "more noise"]))
    bad = [m for m in out if isinstance(m, InvalidLineMessage)]
    assert [(m.line, m.text) for m in bad] == [(1, "noise"), (len(pretty) + 3, "more noise")]
    assert [m for m in out if m not in bad] == list(adapter.iter_decode([good, good]))
    with pytest.raises(DecodeError) as info:
        list(adapter.iter_decode([*pretty, "{", "oops"], strict=True))
    assert info.value.line == len(pretty) + 1


@pytest.mark.parametrize("adapter", adapters())
def test_a_line_of_the_wrong_shape_is_an_invalid_line_naming_path_and_reason(
    adapter: ModuleType,
) -> None:
    line, reason = BAD_SHAPES[adapter.NAME]
    good = first_line(adapter)
    out = list(adapter.iter_decode([good, line, good]))
    assert [m.kind == "invalid_line" for m in out] == [False, True, False]
    assert (out[1].line, out[1].reason) == (2, reason)  # type: ignore[union-attr]
    assert list(adapter.iter_encode([out[1]])) == [line]
    with pytest.raises(DecodeError) as info:
        list(adapter.iter_decode([line], strict=True))
    assert str(info.value) == f"{adapter.NAME}: line 1: {reason}"


@pytest.mark.parametrize("adapter", adapters())
@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"type":"init","x":1e999}', "$: invalid JSON (number 1e999 is out of range)"),
        ('{"type":"init","x":NaN}', "$: invalid JSON (NaN is not valid JSON)"),
        ("[" * 100_000 + "]" * 100_000, "$: JSON nests too deeply"),
    ],
    ids=["out-of-range", "nan", "deep"],
)
def test_json_that_python_would_accept_loosely_is_an_invalid_line(
    adapter: ModuleType, line: str, reason: str
) -> None:
    (out,) = adapter.iter_decode([line])
    assert isinstance(out, InvalidLineMessage) and out.reason == reason
    with pytest.raises(DecodeError):
        list(adapter.iter_decode([line], strict=True))


@pytest.mark.parametrize("adapter", adapters())
def test_a_line_longer_than_the_limit_is_an_invalid_line(adapter: ModuleType) -> None:
    good = first_line(adapter)
    assert next(iter(adapter.iter_decode([good]))).kind != "invalid_line"
    with limits(max_line=len(good) - 1):
        (out,) = adapter.iter_decode([good])
        assert isinstance(out, InvalidLineMessage)
        assert out.reason == f"$: line is longer than {len(good) - 1} characters"
        with pytest.raises(DecodeError) as info:
            list(adapter.iter_decode(["", good], strict=True))
        assert info.value.line == 2


@pytest.mark.parametrize("adapter", adapters())
@given(value=ms.json_values(max_leaves=20))
def test_decoding_any_json_gives_a_message_or_a_decode_error(
    adapter: ModuleType, value: Any
) -> None:
    obj = thaw(value)
    try:
        message = adapter.decode(obj)
    except DecodeError as exc:
        assert exc.path.startswith("$") and exc.source == adapter.NAME
        return
    if adapter.NAME in CARRIES_EVERYTHING:  # native writes its version tag: a trip is stable
        assert adapter.decode(adapter.encode(message)) == message
        return
    assert json_equal(adapter.encode(message), thaw(value))


# -- copies -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("adapter", "path"), _fixtures())
def test_encode_gives_a_fresh_copy_and_decode_keeps_nothing_of_its_input(
    adapter: ModuleType, path: Path
) -> None:
    for _, obj in wire_objects(path):
        given_obj = json.loads(json.dumps(obj))
        message = adapter.decode(given_obj)
        if adapter.NAME not in TAKES_OVER_INPUT:
            scribble(given_obj)
        out = adapter.encode(message)
        scribble(out)
        assert json_equal(adapter.encode(message), obj)


# -- across processes ---------------------------------------------------------------------------


@pytest.mark.parametrize(("adapter", "path"), _fixtures())
def test_decoded_messages_pickle_and_encode_the_same(adapter: ModuleType, path: Path) -> None:
    """What a worker decodes (on the decoders' fast paths) comes back equal, hashes equal and
    writes the same wire lines, under every pickle protocol."""
    with path.open(encoding="utf-8") as fp:
        decoded = list(adapter.iter_decode(fp))
    assert decoded
    wire = list(adapter.iter_encode(decoded, unsupported="text"))
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(decoded, protocol=protocol))
        assert back == decoded
        assert [hash(m) for m in back] == [hash(m) for m in decoded]
        assert list(adapter.iter_encode(back, unsupported="text")) == wire


@pytest.mark.parametrize("adapter", adapters())
def test_the_codec_functions_pickle_by_name(adapter: ModuleType) -> None:
    """A module does not pickle; its functions do (by reference), so a task can carry them."""
    for verb in ("decode", "encode", "detect", "iter_decode", "iter_encode", "merge"):
        function = getattr(adapter, verb)
        assert pickle.loads(pickle.dumps(function)) is function, verb


# -- the loss policy ----------------------------------------------------------------------------


@pytest.mark.parametrize("adapter", adapters())
def test_an_unknown_policy_is_an_encode_error(adapter: ModuleType) -> None:
    with pytest.raises(EncodeError, match="unsupported='raise', 'drop' or 'text'"):
        adapter.encode(TextMessage("hi"), unsupported="keep")
    with pytest.raises(EncodeError):
        list(adapter.iter_encode([], unsupported="keep"))


@pytest.mark.parametrize("adapter", adapters())
def test_invalid_lines_are_written_back_by_iter_encode_only(adapter: ModuleType) -> None:
    bad = InvalidLineMessage("not json", reason="invalid JSON", line=3)
    assert list(adapter.iter_encode([bad])) == ["not json"]
    if adapter.NAME in CARRIES_EVERYTHING:
        assert adapter.decode(adapter.encode(bad)) == bad
        return
    with pytest.raises(UnsupportedContentError) as info:
        adapter.encode(bad)
    assert info.value.source == adapter.NAME
    assert adapter.encode(bad, unsupported="drop") is None
    assert adapter.encode(bad, unsupported="text") is None


@pytest.mark.parametrize("adapter", adapters())
def test_citations_are_carried_or_refused(adapter: ModuleType) -> None:
    _writes_conversations(adapter)
    source = Citation("web_search_result_location", url="u", extra={"encrypted_index": "e"})
    cited = TextMessage("x", citations=(source,))
    if adapter.NAME in CARRIES_CITATIONS:
        back = adapter.decode(adapter.encode(cited))
        assert [b.citations for b in blocks_of(back)] == [(source,)]
        return
    with pytest.raises(UnsupportedContentError) as info:
        adapter.encode(cited)
    assert info.value.source == adapter.NAME and "citations" in str(info.value)
    for policy in ("drop", "text"):
        back = adapter.decode(adapter.encode(cited, unsupported=policy))
        (text,) = normalize_messages([back])
        assert text == TextMessage("x", role="assistant", extra=text.extra)


@pytest.mark.parametrize("adapter", adapters())
def test_server_tools_are_carried_or_follow_the_policy(adapter: ModuleType) -> None:
    call = ServerToolUseMessage(
        "srvtoolu_1", "web_search", {"query": "tides"}, provider="anthropic"
    )
    error = {"type": "web_search_tool_result_error", "error_code": "unavailable"}
    result = ServerToolResultMessage("srvtoolu_1", "web_search", error, provider="anthropic")
    for message in (call, result):
        if adapter.NAME in CARRIES_SERVER_TOOLS:
            back = adapter.decode(adapter.encode(message))
            assert list(blocks_of(back)) == [message_to_block(message)]
            continue
        with pytest.raises(UnsupportedContentError) as info:
            adapter.encode(message)
        assert info.value.source == adapter.NAME
        assert adapter.encode(message, unsupported="drop") is None
        kept = adapter.encode(message, unsupported="text")
        if kept is not None:  # a format with a place for assistant text gets the description
            assert "server tool" in json.dumps(kept)


@pytest.mark.parametrize("adapter", adapters())
def test_raw_lines_pass_through_and_raw_content_follows_the_policy(adapter: ModuleType) -> None:
    line = RawMessage({"type": "rate_limit_event", "n": 1})
    block = RawMessage({"type": "server_tool_use", "id": "s1"}, role="tool")
    if adapter.NAME in CARRIES_EVERYTHING:
        assert adapter.decode(adapter.encode(line)) == line
        assert adapter.decode(adapter.encode(block)) == block
        return
    assert adapter.encode(line) == {"type": "rate_limit_event", "n": 1}
    if adapter.NAME in CARRIES_RAW_CONTENT:
        assert {"type": "server_tool_use", "id": "s1"} in adapter.encode(block)["message"][
            "content"
        ]
        return
    with pytest.raises(UnsupportedContentError):
        adapter.encode(block)
    assert adapter.encode(block, unsupported="drop") is None


@pytest.mark.parametrize("adapter", adapters())
@pytest.mark.parametrize(
    "message",
    [
        AudioMessage(data="UklGRiQAAABXQVZF", media_type="audio/wav", role="assistant"),
        RawMessage({"type": "server_tool_use", "id": "s1"}, role="assistant"),
    ],
    ids=["audio", "raw"],
)
def test_text_policy_writes_the_one_describers_words(adapter: ModuleType, message: Any) -> None:
    _writes_conversations(adapter)
    """Whatever the target, degraded content reads as ``messages.policy.describe`` says."""
    audio = isinstance(message, AudioMessage)
    # an ACP chunk of the assistant carries any content block verbatim
    carried = CARRIES_AUDIO if audio else CARRIES_RAW_CONTENT | {"acp"}
    if adapter.NAME in carried:
        wire = json.dumps(adapter.encode(message, unsupported="raise"))
        assert ('"UklGRiQAAABXQVZF"' if audio else '"server_tool_use"') in wire
        return
    with pytest.raises(UnsupportedContentError):
        adapter.encode(message)
    wire = adapter.encode(message, unsupported="text")
    words = describe(message_to_block(message) if audio else RawBlock(message.data))
    assert json.dumps(words) in json.dumps(wire)
    assert adapter.encode(message, unsupported="drop") is None


@pytest.mark.parametrize("adapter", [get(name) for name in sorted(STRING_RESULTS)])
def test_string_results_refuse_drop_or_describe_other_blocks(adapter: ModuleType) -> None:
    mixed = MIXED_RESULT
    result = ToolResultMessage("t", mixed, is_error=False)
    with pytest.raises(UnsupportedContentError) as info:
        adapter.encode(result)
    assert info.value.path == "$.content[1]" and info.value.source == adapter.NAME

    def text_of(m: Any) -> str:
        return m.text if isinstance(m, ToolResultMessage) else m.content[1].text

    assert text_of(adapter.decode(adapter.encode(result, unsupported="drop"))) == "see"
    described = text_of(adapter.decode(adapter.encode(result, unsupported="text")))
    assert described == "\n".join(["see", *(describe(b) for b in mixed[1:])])
    assert described == (
        "see\n[image: image/png, https://x/a.png]\n[audio: file file_1]\n[thinking: hm]\n"
        '[tool call ls (t): {"a": 1}]\n[tool result t: inner]\n[document]'
    )


# -- role messages and merge ----------------------------------------------------------------------


@pytest.mark.parametrize("adapter", adapters())
def test_a_one_block_role_message_is_written_like_its_flat_message(adapter: ModuleType) -> None:
    _writes_conversations(adapter)
    one = AssistantMessage((ToolUseBlock("t1", "ls", {"a": 1}),), session_id="s")
    flat = ToolUseMessage("t1", "ls", {"a": 1}, session_id="s")
    if adapter.NAME in CARRIES_EVERYTHING:  # native keeps the turn as it is
        assert adapter.decode(adapter.encode(one)) == one
        return
    assert json_equal(adapter.encode(one), adapter.encode(flat))


@pytest.mark.parametrize("adapter", adapters())
def test_an_empty_turn(adapter: ModuleType) -> None:
    _writes_conversations(adapter)
    empty = AssistantMessage(())
    lines = list(adapter.iter_encode([empty]))
    assert len(lines) == WRITES_EMPTY_TURNS.get(adapter.NAME, 0)
    if adapter.NAME not in WRITES_EMPTY_TURNS:
        with pytest.raises(EncodeError) as info:
            adapter.encode(empty)
        assert "with 0 blocks needs 0 events" in str(info.value)


@pytest.mark.parametrize(("adapter", "path"), _fixtures())
def test_merge_is_lazy_and_merging_twice_changes_nothing(adapter: ModuleType, path: Path) -> None:
    decoded = list(adapter.iter_decode(stream_lines(path)))
    merged = adapter.merge(iter(decoded))
    assert isinstance(merged, Iterator)
    once = list(merged)
    assert list(adapter.merge(once)) == once
    assert len(once) <= len(decoded)


@pytest.mark.parametrize("adapter", adapters())
@given(st.lists(st.sampled_from(["a", "b", ""]), max_size=4))
def test_merge_keeps_whole_messages_in_order(adapter: ModuleType, texts: list[str]) -> None:
    stream = [ToolUseMessage(f"t{i}", text or "x") for i, text in enumerate(texts)]
    assert list(adapter.merge(stream)) == stream


# -- crossing from one format to another ------------------------------------------------------


def _crossings() -> list[Any]:
    found = [*_fixtures(), *(p for p in _captures() if p.values[0] is not None)]
    return [
        pytest.param(source, path, get(target), id=f"{param.id}->{target}")
        for param in found
        for source, path in [param.values]
        for target in NAMES
        # a read-only store (OpenCode's) is not a target: convert --to refuses it
        if target != source.NAME and not getattr(get(target), "READ_ONLY", False)
    ]


@pytest.mark.parametrize(("source", "path", "target"), _crossings())
def test_cross_format_output_holds_only_the_targets_own_lines(
    source: ModuleType, path: Path, target: ModuleType
) -> None:
    """Every line written for a format is one its own ``detect`` recognises, whatever the
    source held (summaries, recorder headers, another CLI's events), under every policy."""
    lines = stream_lines(path)
    for policy in ("raise", "drop", "text"):
        for merged in (False, True):
            decoded = source.iter_decode(lines)
            if merged:
                decoded = source.merge(decoded)
            ready = prepare(decoded, source=source.NAME, target=target.NAME, unsupported=policy)
            written = []
            try:
                for line in target.iter_encode(ready, unsupported=policy):
                    written.append(line)
            except UnsupportedContentError:
                assert policy == "raise"
            for line in written:
                assert target.detect(json.loads(line)), f"{policy}: {line}"


# -- media: every field carried, or the policy says why not ----------------------------------

MEDIA_VARIANTS = [
    {"data": "iVBORw0KGgo=", "media_type": "image/png"},
    {"url": "https://example.com/a.png"},
    {"url": "https://example.com/a.png", "media_type": "image/png"},
    {"file_id": "file_1"},
    {"file_id": "file_1", "media_type": "image/png"},
    {"data": "iVBORw0KGgo=", "url": "https://example.com/a.png", "media_type": "image/png"},
]


@pytest.mark.parametrize("adapter", adapters())
@pytest.mark.parametrize("kind", [ImageMessage, AudioMessage], ids=["image", "audio"])
@pytest.mark.parametrize("fields", MEDIA_VARIANTS, ids="+".join)
def test_media_is_carried_whole_or_refused(
    adapter: ModuleType, kind: type[Any], fields: dict[str, str]
) -> None:
    """No field of an image or audio block is dropped silently: a format either writes it
    back or refuses the block (and then ``"drop"``/``"text"`` decide)."""
    message = kind(role="user", **fields)
    try:
        wire = adapter.encode(message)
    except UnsupportedContentError as exc:
        assert exc.source == adapter.NAME
        return
    (block,) = blocks_of(adapter.decode(wire))
    assert type(block) is type(message_to_block(message))
    for name, value in fields.items():
        assert getattr(block, name) == value, name
    for name in {"data", "url", "file_id", "media_type"} - fields.keys():
        assert getattr(block, name) is None, name


# -- documents and video ----------------------------------------------------------------------

CARRIES_DOCUMENTS = frozenset(("claude_code", "droid", "native"))
"""Formats with a document content block (Anthropic-shaped, or this library's own)."""
CARRIES_VIDEO = frozenset(("native",))
"""Formats with a video content block."""

DOCUMENT_VARIANTS: list[dict[str, Any]] = [
    {"data": "JVBERi0xLjcK", "media_type": "application/pdf"},
    {"data": "JVBERi0xLjcK", "media_type": "application/pdf", "title": "Q3", "citations": True},
    {"text": "Paid on 3 January.", "media_type": "text/plain", "context": "notes"},
    {"url": "https://example.com/q3.pdf"},
    {"file_id": "file_1", "filename": "q3.pdf"},
]
VIDEO_VARIANTS: list[dict[str, Any]] = [
    {"data": "GkXfo59C", "media_type": "video/webm"},
    {"file_id": "https://youtu.be/x", "media_type": "video/mp4", "start_offset": "1s", "fps": 2},
]


@pytest.mark.parametrize("adapter", adapters())
@pytest.mark.parametrize(
    ("kind", "fields"),
    [(DocumentMessage, f) for f in DOCUMENT_VARIANTS] + [(VideoMessage, f) for f in VIDEO_VARIANTS],
    ids=[f"document-{i}" for i in range(len(DOCUMENT_VARIANTS))]
    + [f"video-{i}" for i in range(len(VIDEO_VARIANTS))],
)
def test_documents_and_video_are_carried_whole_or_refused(
    adapter: ModuleType, kind: type[Any], fields: dict[str, Any]
) -> None:
    _writes_conversations(adapter)
    """Every field of a document or video is written back, or the block goes to the policy."""
    message = kind(role="user", **fields)
    carried = CARRIES_DOCUMENTS if kind is DocumentMessage else CARRIES_VIDEO
    try:
        wire = adapter.encode(message)
    except UnsupportedContentError as exc:
        assert exc.source == adapter.NAME
        assert adapter.NAME not in carried
        assert adapter.encode(message, unsupported="drop") is None
        # described where the format writes text at all (every format has assistant text)
        said = adapter.encode(dataclasses.replace(message, role="assistant"), unsupported="text")
        assert json.dumps(describe(message_to_block(message))) in json.dumps(said)
        return
    assert adapter.NAME in carried
    (block,) = blocks_of(adapter.decode(wire))
    assert block == message_to_block(message)


# -- agent events and harness-marked user turns (issue 13) ------------------------------------

CARRIES_EVENTS = frozenset(("claude_code", "native"))
"""The formats with a line for every agent event (the others refuse them, by the policy)."""


@pytest.mark.parametrize("adapter", adapters())
@given(event=ms.agent_events())
def test_agent_events_are_carried_or_follow_the_policy(adapter: ModuleType, event: Any) -> None:
    if adapter.NAME in CARRIES_EVENTS:
        line = adapter.encode(event)
        assert adapter.detect(line)
        back = adapter.decode(json.loads(json.dumps(line)))
        lost: dict[str, Any] = {"extra": {}}  # a Claude Code event line names no model or id
        if adapter.NAME == "claude_code":
            lost |= {"model": None, "message_id": None}
        assert dataclasses.replace(back, **lost) == dataclasses.replace(event, **lost)
        assert adapter.encode(back) == line
        return
    with pytest.raises(UnsupportedContentError) as info:
        adapter.encode(event)
    assert info.value.path == "$" and info.value.source == adapter.NAME
    assert adapter.encode(event, unsupported="drop") is None
    assert adapter.encode(event, unsupported="text") is None  # an event is no content


@pytest.mark.parametrize("adapter", adapters())
@given(message=ms.harness_user_messages(content=ms.text_blocks()))
def test_a_harness_user_turn_is_written_as_a_user_turn(adapter: ModuleType, message: Any) -> None:
    """The summary marker, origin and tool_use_result never change what else is written."""
    plain = dataclasses.replace(message, summary=None, origin=None, tool_use_result=None)
    for policy in ("drop", "text"):
        try:
            marked = list(adapter.iter_encode([message], unsupported=policy))
            unmarked = list(adapter.iter_encode([plain], unsupported=policy))
        except EncodeError:
            continue  # a turn the format cannot write at all, marked or not
        assert len(marked) == len(unmarked)
        if adapter.NAME not in CARRIES_EVENTS:
            assert marked == unmarked


@pytest.mark.parametrize(("adapter", "path"), [*_fixtures(), *_captures()])
def test_a_whole_file_is_detected_as_its_own_format(
    adapter: ModuleType | None, path: Path | None
) -> None:
    """What the command line detects a file as (its first claimed record) is its own format:
    no adapter claims another agent's file (a Cursor capture is not Claude Code's, say)."""
    from messages.cli.io import sniff

    if adapter is None or path is None:
        pytest.skip("real captures not available")
    with path.open("rb") as fp:
        survey, _ = sniff(fp)
    # None: no record of the file as written is any format's (a recorder's envelopes, a
    # standalone block); otherwise it must be the file's own
    own = RECORDS_OF.get(adapter.NAME, adapter.NAME)  # Kilo's rows are OpenCode's records
    assert survey.first in (own, None), path.name
    if path.suffix == ".jsonl" and "caic-" not in path.name:
        assert survey.first == own, path.name


@pytest.mark.parametrize("adapter", [a for a in adapters() if a.values[0].NAME in READS_ONLY])
def test_a_format_that_reads_only_refuses_a_conversation(adapter: ModuleType) -> None:
    turn = AssistantMessage("hi")
    with pytest.raises(UnsupportedContentError):
        adapter.encode(turn)
    assert adapter.encode(turn, unsupported="drop") is None
    assert adapter.encode(turn, unsupported="text") is None
    assert list(adapter.iter_encode([turn, TextMessage("yo")], unsupported="drop")) == []

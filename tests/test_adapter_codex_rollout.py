"""Codex session rollout files (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``).

tests/fixtures/codex/rollout.jsonl is hand-made from the format description: a session with
two user turns, four model calls (reasoning, a shell call, an apply_patch call, an answer, a
web search), their ``token_count`` events (one written twice, as Codex does when only the
rate limits change), a compaction, an error and an aborted turn. The contract suite runs every
adapter law on it too (it is one of the codex hand-made fixtures).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from messages import AssistantMessage
from messages import DecodeError
from messages import ErrorMessage
from messages import InitMessage
from messages import RawMessage
from messages import ResultMessage
from messages import SystemMessage
from messages import TextBlock
from messages import ThinkingMessage
from messages import ToolResultMessage
from messages import ToolUseMessage
from messages import UserMessage
from messages.adapters import codex
from messages.adapters import detect as detect_format
from messages.stats import Stats
from support.adapter_files import local
from test_cli import run

ROLLOUT = local("codex", "rollout.jsonl")
LINES = ROLLOUT.read_text("utf-8").splitlines()


def _decoded() -> list[Any]:
    return list(codex.iter_decode(LINES, strict=True))


def _line(kind: str, payload: Any, timestamp: str = "2026-01-15T10:00:00.000Z") -> Any:
    return {"timestamp": timestamp, "type": kind, "payload": payload}


def _usage(i: int, c: int, o: int, r: int) -> dict[str, int]:
    return {
        "input_tokens": i,
        "cached_input_tokens": c,
        "output_tokens": o,
        "reasoning_output_tokens": r,
        "total_tokens": i + o,
    }


def _token_count(total: dict[str, int], last: dict[str, int], used: float = 1.0) -> Any:
    info = {"total_token_usage": total, "last_token_usage": last, "model_context_window": 272000}
    return _line(
        "event_msg", {"type": "token_count", "info": info, "rate_limits": {"primary": used}}
    )


def test_the_fixture_is_written_back_byte_for_byte() -> None:
    assert list(codex.iter_encode(_decoded())) == LINES


def test_each_line_maps_to_its_kind() -> None:
    kinds = [type(m).__name__ for m in _decoded()]
    assert kinds == [
        "InitMessage",
        "UserMessage",  # environment context
        "TurnContextMessage",  # turn_context
        "UserMessage",
        "StreamEventMessage",  # user_message echo
        "RateLimitMessage",  # token_count with rate limits only
        "ThinkingMessage",
        "StreamEventMessage",  # agent_reasoning echo
        "ToolUseMessage",  # function_call
        "ResultMessage",  # token_count
        "ToolResultMessage",
        "ThinkingMessage",
        "StreamEventMessage",
        "StreamEventMessage",
        "ToolUseMessage",  # custom_tool_call
        "ResultMessage",
        "ToolResultMessage",
        "ThinkingMessage",
        "AssistantMessage",
        "StreamEventMessage",  # agent_message echo
        "ResultMessage",
        "StreamEventMessage",  # the same totals again: no new model call
        "UserMessage",  # compacted
        "TurnContextMessage",  # turn_context
        "UserMessage",
        "StreamEventMessage",
        "AssistantMessage",  # web_search_call: the server tool call and its result
        "ResultMessage",
        "ErrorMessage",
        "TurnEventMessage",  # turn_aborted
    ]


def test_the_session_start_the_calls_and_the_reasoning() -> None:
    messages = _decoded()
    init = messages[0]
    assert isinstance(init, InitMessage)
    assert init.session_id == "019a4f2e-5c1b-7d20-9e8a-3b6c0d1f2a47"
    assert init.cwd == "/home/ana/inventory" and init.timestamp == "2026-01-15T10:00:00.000Z"
    call = messages[8]
    assert isinstance(call, ToolUseMessage)
    assert (call.id, call.name, call.model) == ("call_Qm1xv7TQ2r", "shell", "gpt-5-codex")
    assert call.input["command"] == ("bash", "-lc", "pytest -q tests/test_stock.py")
    result = messages[10]
    assert isinstance(result, ToolResultMessage) and result.tool_use_id == call.id
    assert isinstance(result.content, str) and "1 failed" in result.content
    patch = messages[14]
    assert isinstance(patch, ToolUseMessage) and patch.name == "apply_patch"
    assert str(patch.input["input"]).startswith("*** Begin Patch")
    thinking = messages[11]
    assert isinstance(thinking, ThinkingMessage)
    assert thinking.thinking == "**Fixing the off-by-one**\n\nThe loop skips the last item."
    assert thinking.signature == "gAAAAABpZ1xR7hLm2Q9bXc0Vt-Pz8sUa2"
    assert thinking.provider == "openai"
    answer = messages[18]
    assert isinstance(answer, AssistantMessage) and answer.model == "gpt-5-codex"
    assert answer.text.startswith("The loop in `stock.py`")
    summary = messages[22]
    assert isinstance(summary, UserMessage) and summary.summary == "compaction"
    error = messages[28]
    assert isinstance(error, ErrorMessage) and error.message.startswith("stream disconnected")


def test_token_counts_are_the_per_call_usage_with_cached_tokens_apart() -> None:
    results = [m for m in _decoded() if isinstance(m, ResultMessage)]
    assert [m.subtype for m in results] == ["token_count"] * 4
    assert [m.model for m in results] == ["gpt-5-codex"] * 3 + ["gpt-5.1-codex"]
    first = results[0].usage
    assert first is not None
    assert (first.input_tokens, first.cache_read_tokens) == (1000, 3000)  # 4000 with cached
    assert (first.output_tokens, first.reasoning_tokens) == (120, 64)
    last = json.loads(LINES[27])["payload"]["info"]["total_token_usage"]
    counted = [m.usage for m in results if m.usage is not None]
    assert sum(u.input_tokens or 0 for u in counted) == last["input_tokens"] - 11224
    assert sum(u.cache_read_tokens or 0 for u in counted) == last["cached_input_tokens"]
    assert sum(u.output_tokens or 0 for u in counted) == last["output_tokens"]
    assert sum(u.reasoning_tokens or 0 for u in counted) == last["reasoning_output_tokens"]


def test_a_token_count_restating_the_totals_is_a_stream_event_in_a_stream_only() -> None:
    again = json.loads(LINES[21])
    assert isinstance(codex.decode(json.loads(LINES[21])), ResultMessage)  # alone: a result
    messages = list(codex.iter_decode(LINES[19:22]))
    assert [m.kind for m in messages] == ["stream_event", "result", "stream_event"]
    assert codex.encode(messages[2]) == again


def test_a_new_session_forgets_the_model_and_the_totals() -> None:
    count = json.dumps(_token_count(_usage(10, 0, 1, 0), _usage(10, 0, 1, 0)))
    context = json.dumps(_line("turn_context", {"model": "gpt-5"}))
    start = json.dumps(_line("session_meta", {"id": "s2"}))
    messages = list(codex.iter_decode([context, count, start, count]))
    assert [m.kind for m in messages] == ["turn_context", "result", "init", "result"]
    assert messages[1].model == "gpt-5" and messages[3].model is None


def test_stats_count_each_model_call_once() -> None:
    [session] = Stats.of_file(str(ROLLOUT)).sessions()
    tokens = session.tokens
    # four calls: input 4000+4300+4600+2000 = 14900 of which cached 3000+4000+4224+0 = 11224
    assert (tokens.input, tokens.cache_read, tokens.cache_write) == (3676, 11224, None)
    assert (tokens.output, tokens.reasoning) == (120 + 200 + 80 + 50, 64 + 0 + 16 + 0)
    assert session.session_id == "019a4f2e-5c1b-7d20-9e8a-3b6c0d1f2a47"
    assert session.model == "gpt-5-codex" and session.project == "/home/ana/inventory"
    assert session.tool_calls == {"apply_patch": 1, "shell": 1, "web_search": 1}
    assert (session.errors, session.compactions) == (1, 1)
    assert session.turns == 4  # one per model call: the web search is a response of its own


def test_the_command_line_detects_a_rollout_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert all(detect_format(json.loads(line)) == "codex" for line in LINES)
    code, out, _ = run(capsys, "stats", "--json", str(ROLLOUT))
    assert code == 0
    total = json.loads(out)["total"]
    assert total["formats"] == ["codex"]
    assert total["tokens"]["input"] == 3676 and total["tokens"]["cache_read"] == 11224
    code, out, _ = run(capsys, "normalize", "--format", "text", str(ROLLOUT))
    assert code == 0
    assert out.count("The loop in `stock.py` stopped one item early") == 1  # echo not repeated
    assert out.count("Why does test_stock fail?") == 1


def test_transcripts_do_not_repeat_the_echoes() -> None:
    from messages.text import transcript

    text = transcript(_decoded())
    assert text.count("Why does test_stock fail?") == 1
    assert text.count("The loop skips the last item.") == 1


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        (
            {"type": "function_call", "name": "shell", "arguments": 5, "call_id": "c"},
            "$.payload.arguments: expected a string, found an integer",
        ),
        (
            {"type": "function_call_output", "call_id": "c", "output": 5},
            "$.payload.output: expected a string or an array, found an integer",
        ),
        (
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": 1}]},
            "$.payload.content[0].text: expected a string, found an integer",
        ),
        (
            {"type": "reasoning", "summary": [], "encrypted_content": 3},
            "$.payload.encrypted_content: expected a string, found an integer",
        ),
    ],
)
def test_a_known_field_of_the_wrong_type_is_a_decode_error_with_its_path(
    payload: Any, expected: str
) -> None:
    with pytest.raises(DecodeError) as info:
        codex.decode(_line("response_item", payload))
    assert str(info.value) == f"codex: {expected}"


@pytest.mark.parametrize(
    "payload",
    [
        {"type": ["message"]},
        {"type": "message", "role": ["user"], "content": []},
        {"type": "message", "role": "tool", "content": []},
        {"type": "message", "role": "user", "content": "hi"},
        {"type": "function_call", "name": "shell"},
        {"type": "local_shell_call", "call_id": None, "action": {}},
        {"type": "ghost_snapshot", "ghost_commit": "abc"},  # typed only with an object commit
    ],
)
def test_items_this_module_does_not_model_stay_raw(payload: Any) -> None:
    line = _line("response_item", payload)
    message = codex.decode(json.loads(json.dumps(line)))
    assert isinstance(message, RawMessage) and codex.encode(message) == line


def test_other_item_shapes_round_trip() -> None:
    shell = {
        "type": "local_shell_call",
        "call_id": "c1",
        "status": "completed",
        "action": {"type": "exec", "command": ["ls"]},
    }
    output = {
        "type": "function_call_output",
        "call_id": "c1",
        "output": [{"type": "input_text", "text": "a.txt"}, {"type": "input_image", "x": 1}],
    }
    developer = {"type": "message", "role": "developer", "content": [{"type": "input_text"}]}
    developer["content"][0]["text"] = "Be brief."
    for payload, cls in ((shell, ToolUseMessage), (output, ToolResultMessage)):
        line = _line("response_item", payload)
        message = codex.decode(json.loads(json.dumps(line)))
        assert isinstance(message, cls) and codex.encode(message) == line
    message = codex.decode(_line("response_item", json.loads(json.dumps(developer))))
    assert isinstance(message, SystemMessage) and message.role == "developer"
    assert codex.encode(message) == _line("response_item", developer)


def test_edited_values_are_written_over_the_skeleton() -> None:
    messages = _decoded()
    thinking = dataclasses.replace(messages[11], thinking="Shorter.")
    assert codex.encode(thinking)["payload"]["summary"] == [
        {"type": "summary_text", "text": "Shorter."}
    ]
    answer = dataclasses.replace(messages[18], content=(TextBlock("Done."),))
    assert codex.encode(answer)["payload"]["content"] == [{"type": "output_text", "text": "Done."}]


# -- laws -------------------------------------------------------------------------------------

_SCALARS = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
_EXTRA = st.dictionaries(st.sampled_from(["x_new", "annotations", "phase"]), _JSON, max_size=2)
"""Fields Codex may add; written after the known ones, as serde writes a struct's fields."""
_TEXT = st.text(max_size=20)
_PART = st.builds(
    lambda kind, text: {"type": kind, "text": text},
    st.sampled_from(["input_text", "output_text"]),
    _TEXT,
)
_OTHER_PART = st.fixed_dictionaries(
    {
        "type": st.just("input_image"),
        "image_url": _TEXT,
        "detail": st.sampled_from(["auto", "high"]),
    }
)


@st.composite
def _usages(draw: st.DrawFn, least: int = 0) -> dict[str, int]:
    cached, uncached = draw(st.integers(0, 10**7)), draw(st.integers(least, 10**7))
    return _usage(
        cached + uncached, cached, draw(st.integers(0, 10**6)), draw(st.integers(0, 10**6))
    )


@st.composite
def _payloads(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    extra = draw(_EXTRA)
    choice = draw(st.integers(0, 5))
    if choice == 0:
        role = draw(st.sampled_from(["user", "assistant", "developer", "system"]))
        parts = draw(st.lists(_PART | _OTHER_PART, max_size=3))
        return "response_item", {"type": "message", "role": role, "content": parts, **extra}
    if choice == 1:
        summary = _TEXT.map(lambda text: {"type": "summary_text", "text": text})
        return "response_item", {
            "type": "reasoning",
            "summary": draw(st.lists(summary, max_size=3)),
            "content": None,
            "encrypted_content": draw(st.none() | _TEXT),
            **extra,
        }
    if choice == 2:
        return "response_item", {
            "type": "function_call",
            "name": draw(_TEXT),
            "arguments": draw(_TEXT | _JSON.map(json.dumps)),
            "call_id": draw(_TEXT),
            **extra,
        }
    if choice == 3:
        return "response_item", {
            "type": "custom_tool_call_output",
            "call_id": draw(_TEXT),
            "output": draw(_TEXT | st.lists(_PART | _OTHER_PART, max_size=2)),
            **extra,
        }
    if choice == 4:
        info = {"total_token_usage": draw(_usages()), "last_token_usage": draw(_usages())}
        return "event_msg", {"type": "token_count", "info": info, "rate_limits": draw(_JSON)}
    return "session_meta", {
        "id": draw(_TEXT),
        "timestamp": "2026-01-15T10:00:00.000Z",
        "cwd": draw(st.none() | _TEXT),
        "git": draw(_JSON),
        **extra,
    }


@given(_payloads(), st.none() | st.just("2026-01-15T10:00:00.000Z"))
def test_every_rollout_line_is_written_back_exactly(drawn: tuple[str, Any], ts: Any) -> None:
    kind, payload = drawn
    line = {"type": kind, "payload": payload} if ts is None else _line(kind, payload, ts)
    text = json.dumps(line, separators=(",", ":"), ensure_ascii=False)
    assert codex.detect(line)
    [message] = codex.iter_decode([text], strict=True)
    [back] = codex.iter_encode([message])
    assert back == text  # the same bytes: values and key order


@given(st.lists(st.tuples(_usages(least=1), st.booleans()), max_size=6))
def test_the_counted_usage_adds_up_to_the_last_totals(calls: list[tuple[Any, bool]]) -> None:
    """Each call's usage counts once, however often its token_count is written again."""
    total = _usage(0, 0, 0, 0)
    lines = []
    for last, repeated in calls:
        total = {k: total[k] + last[k] for k in total}
        lines += [json.dumps(_token_count(dict(total), last))] * (2 if repeated else 1)
    decoded = list(codex.iter_decode(lines))
    results = [m for m in decoded if isinstance(m, ResultMessage)]
    assert len(results) == len(calls)
    usages = [m.usage for m in results if m.usage is not None]
    assert (
        sum((u.input_tokens or 0) + (u.cache_read_tokens or 0) for u in usages)
        == (total["input_tokens"])
    )
    assert sum(u.cache_read_tokens or 0 for u in usages) == total["cached_input_tokens"]
    assert sum(u.output_tokens or 0 for u in usages) == total["output_tokens"]
    assert len(decoded) - len(results) == sum(repeated for _, repeated in calls)
    [session] = Stats.of_messages(decoded, label="law").sessions() if calls else [None]
    if session is not None:
        assert session.tokens.output == total["output_tokens"]


def test_a_session_that_changes_model_is_reported_per_model() -> None:
    """Each token count is dated and priced with its own turn's model."""
    report = Stats.of_file(str(ROLLOUT)).report(by="model")
    rows = {row.key: row.tokens for row in report.rows}
    assert set(rows) == {"gpt-5-codex", "gpt-5.1-codex"}
    first, second = rows["gpt-5-codex"], rows["gpt-5.1-codex"]
    assert (first.input, first.cache_read, first.output) == (1000 + 300 + 376, 11224, 400)
    assert (second.input, second.cache_read, second.output) == (2000, 0, 50)

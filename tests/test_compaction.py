"""Compaction: the boundary and the summary, on Claude Code's and Codex's shapes.

A consumer tells a compaction summary from a real user turn by ``UserMessage.summary``;
transcripts label it, stats count compactions, trimming treats it as the user turn it is,
and providers still receive it as that user turn.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from messages import AssistantMessage
from messages import CompactBoundaryMessage
from messages import UserMessage
from messages import from_dict
from messages import to_dict
from messages.adapters import claude_code
from messages.adapters import codex
from messages.history import count_tokens_approximately
from messages.history import trim
from messages.providers import anthropic
from messages.providers import openai_chat
from messages.text import summarize
from messages.text import transcript
from support.adapter_files import local
from test_cli_stats import stats

CLAUDE = local("claude_code", "compaction_transcript.jsonl")
CODEX = local("codex", "compaction.jsonl")


def _lines(path: Any) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def test_claude_code_boundary_and_summary() -> None:
    messages = list(claude_code.iter_decode(CLAUDE.read_text("utf-8").splitlines()))
    boundary, summary, prompt = messages[2], messages[3], messages[4]
    assert isinstance(boundary, CompactBoundaryMessage)
    assert (boundary.trigger, boundary.pre_tokens) == ("manual", 48211)  # transcript spelling
    assert boundary.extra["content"] == "Conversation compacted"
    assert isinstance(summary, UserMessage) and summary.summary == "compaction"
    assert "isCompactSummary" not in summary.extra
    assert summary.text.startswith("This session is being continued")
    assert isinstance(prompt, UserMessage) and prompt.summary is None
    assert [claude_code.encode(m) for m in messages] == _lines(CLAUDE)


def test_codex_boundary_and_summary() -> None:
    messages = list(codex.iter_decode(CODEX.read_text("utf-8").splitlines()))
    boundary = messages[3]
    summary = messages[4]
    assert isinstance(boundary, CompactBoundaryMessage)
    assert boundary.session_id == "019e7500-0000-7000-8000-0000000000cc"
    assert isinstance(summary, UserMessage) and summary.summary == "compaction"
    assert summary.text.startswith("Summary: the user asked")
    assert summary.extra["payload"]["replacement_history"][0]["role"] == "user"  # type: ignore[index,call-overload]
    assert [codex.encode(m) for m in messages] == _lines(CODEX)


def test_a_summary_from_one_agent_is_a_summary_in_the_other() -> None:
    summary = codex.decode(_lines(CODEX)[4])
    line = claude_code.encode(summary)
    assert line["isCompactSummary"] is True and line["type"] == "user"
    assert claude_code.decode(line).summary == "compaction"


@pytest.mark.parametrize("provider", [anthropic, openai_chat], ids=lambda p: p.__name__)
def test_providers_receive_the_summary_as_the_user_turn_it_is(provider: Any) -> None:
    summary = UserMessage("Summary: the build passes.", summary="compaction")
    turn = [summary, AssistantMessage("Noted."), UserMessage("Add a test.")]
    plain = [replace(summary, summary=None), *turn[1:]]
    assert provider.encode_request(turn) == provider.encode_request(plain)


def test_transcripts_label_the_summary_and_show_the_boundary() -> None:
    messages = list(claude_code.iter_decode(CLAUDE.read_text("utf-8").splitlines()))
    text = transcript(messages)
    assert "Compacted (trigger manual, pre_tokens 48211)" in text
    assert "User (compaction summary): This session is being continued" in text
    assert "User: Now add a test for it." in text
    assert '<user summary="compaction">' in transcript(messages, format="xml")
    assert summarize(messages[3], 30).startswith("[Compaction summary] This")
    assert summarize(messages[4]) == "Now add a test for it."


def test_stats_count_compactions(capsys: pytest.CaptureFixture[str]) -> None:
    for path in (CLAUDE, CODEX):
        [session] = stats(capsys, str(path))["sessions"]
        assert session["compactions"] == 1, path.name


def test_trimming_treats_the_summary_as_a_user_turn() -> None:
    messages = list(claude_code.iter_decode(CLAUDE.read_text("utf-8").splitlines()))
    summary = messages[3]
    assert trim(messages, 10_000, start_on="user") == tuple(messages)  # all fits
    budget = count_tokens_approximately(messages[3:])
    kept = trim(messages, budget, start_on="user")
    assert kept == tuple(messages[3:]) and kept[0] is summary  # the cut starts on it
    assert trim(messages, budget - 1, start_on="user")[0].summary is None


def test_the_marker_survives_the_native_format() -> None:
    summary = UserMessage("S.", summary="compaction", origin={"kind": "human"})
    assert to_dict(summary) == {
        "v": 2,
        "kind": "user",
        "content": "S.",
        "summary": "compaction",
        "origin": {"kind": "human"},
    }
    assert from_dict(to_dict(summary)) == summary

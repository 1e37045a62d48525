"""Deterministic corpora for the benchmarks: realistic agent streams of any size.

``claude_code_lines(n)`` writes Claude Code ``stream-json`` lines shaped like real captures:
system/init, status, assistant lines with thinking (long base64 signatures), text and
tool_use with nested inputs, user lines with tool results as strings and as block lists plus
``tool_use_result``, stream_event deltas, rate limits and a result line per session. The same
seed always gives the same bytes.

``adapter_lines(name, n)`` gives the same conversations as another agent CLI writes them:
the Claude Code corpus is decoded, flattened and written with that adapter's encoder, so
every adapter reads comparable content. ``provider_bodies(name, n)`` gives request bodies for
a provider API (``anthropic``, ``openai_chat``, ``openai_responses``, ``gemini``), built the
same way with that codec's ``encode_request``; it returns ``None`` when the codec is absent.
These two import ``messages`` (from ``src/``); the Claude Code generator is stdlib only.

Run ``python benchmarks/corpus.py OUT.jsonl --mb 1024`` to write a large file.
"""

from __future__ import annotations

import argparse
import base64
import functools
import importlib
import json
import os
import random
import sys
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ADAPTERS = ("codex", "gemini_cli", "opencode", "copilot", "acp")
"""The other agent CLI adapters, each measured on its own corpus."""

PROVIDERS = ("anthropic", "openai_chat", "openai_responses", "gemini")
"""The provider request codecs, measured where their module exists."""

FIXTURES = Path(
    os.environ.get("MESSAGES_FIXTURES", Path(__file__).resolve().parents[2] / "shared" / "fixtures")
)
"""The real captures (../shared/fixtures, or ``$MESSAGES_FIXTURES``), when present."""

_RECORDER = ("caic_",)
"""``type`` prefixes of lines a recorder added around the CLI's own (PROVENANCE.md)."""


def real_claude_code_lines(fixtures: Path | None = None) -> list[str] | None:
    """Every Claude Code line of the real captures, or ``None`` when they are absent.

    The whole recorded runs only: caic's v1 files without the recorder's header, trailer and
    blank lines, and the claude-agent-sdk-gleam captures (its one-message ``.json`` files are
    pretty-printed upstream; they are taken compacted, one line each). caic's evidence files
    (short, heavily sanitised excerpts in an envelope) and everything under ``synthetic/`` are
    left out.
    """
    folder = (fixtures or FIXTURES) / "claude_code"
    if not folder.is_dir():
        return None
    lines: list[str] = []
    for path in sorted(folder.glob("caic-*.jsonl")):
        if "evidence" in path.name:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not json.loads(line).get("type", "").startswith(_RECORDER):
                lines.append(line)
    for path in sorted(folder.glob("gleam-*.ndjson")):
        lines.extend(line for line in path.read_text(encoding="utf-8").splitlines() if line)
    for path in sorted(folder.glob("gleam-*.json")):
        obj = json.loads(path.read_text(encoding="utf-8"))
        lines.append(json.dumps(obj, separators=(",", ":"), ensure_ascii=False))
    return lines


_WORDS_TEXT = """\
the file module function returns value error test build config import path data stream
message session tool result check run edit read write line change fix because first then
next also should would could this that with from into main greeting print package workspace
output directory current updated let me see
"""
WORDS = (*_WORDS_TEXT.split(), "—")
"""Filler words; the captures are English with the odd non-ASCII character (written raw)."""


@dataclass(frozen=True)
class Shape:
    """How generated Claude Code sessions look: counts and sizes drawn from the captures.

    ``REAL`` below is derived from the real captures (docs/performance.md gives the table and
    ``benchmarks/mix.py`` prints it); ``LIGHT`` keeps the same structure with no thinking and
    short contents, for lines of a few hundred bytes.
    """

    calls: tuple[int, int]
    """API calls (``message_start`` .. ``message_stop``) per session, inclusive range."""
    thinking: float
    """Share of calls that open with a thinking block."""
    text_before_tools: float
    """Share of tool-calling calls that also write text before the tool calls."""
    two_tools: float
    """Share of tool-calling calls that make two tool calls instead of one."""
    thinking_chars: tuple[int, ...]
    """Thinking lengths seen in the captures; each draw picks one and varies it by +-25%."""
    text_chars: tuple[int, ...]
    """Assistant text lengths seen in the captures."""
    result_chars: tuple[int, ...]
    """Tool-result content lengths seen in the captures."""
    result_tail: tuple[tuple[float, int, int], ...]
    """(share, shortest, longest) of tool results longer than any in the captures."""
    errors: float
    """Share of tool results that are errors."""
    tool_use_result: bool
    """Whether user lines carry the tool's structured ``tool_use_result`` too."""
    control: float
    """Share of sessions with a permission round trip (``control_request``/``_response``)."""
    partial: bool = True
    """Whether the CLI ran with ``--include-partial-messages`` (``stream_event`` lines and
    ``thinking_tokens`` progress); without it each content block arrives as one line."""
    thinking_chunk: tuple[int, int] = (15, 115)
    """Characters per ``thinking_delta`` (captures: 0 to 134, mean 58)."""
    text_chunk: tuple[int, int] = (15, 75)
    """Characters per ``text_delta`` (captures: 18 to 73)."""
    json_chunk: tuple[int, int] = (1, 65)
    """Characters per ``input_json_delta`` after the first, empty one (captures: mean 23)."""
    tools: tuple[str, ...] = ("Read", "Read", "Read", "Bash", "Bash", "Bash", "Edit", "Edit")
    """Tools called, repeated by weight (captures: Read 3, Bash 3, Edit 2, AskUserQuestion 1)."""


REAL = Shape(
    calls=(2, 5),
    thinking=1.0,
    text_before_tools=1 / 7,
    two_tools=1 / 7,
    thinking_chars=(63, 146, 157, 158, 162, 177, 206, 349, 779, 1094),
    text_chars=(60, 63, 87, 91),
    result_chars=(74, 75, 83, 109, 112, 112, 131, 131, 134),
    result_tail=((0.03, 8000, 24000), (0.10, 1000, 4000)),
    errors=1 / 9,
    tool_use_result=True,
    control=1 / 3,
)
"""Real-shaped: the captures' mix, plus a thin tail of long tool results (they have none)."""

LIGHT = Shape(
    calls=(3, 8),
    thinking=0.0,
    text_before_tools=0.5,
    two_tools=1 / 7,
    thinking_chars=(0,),
    text_chars=(40, 120, 200, 300),
    result_chars=(20, 40, 80),
    result_tail=(),
    errors=1 / 9,
    tool_use_result=False,
    control=0.0,
    partial=False,
)
"""Light lines: the CLI's default output (no partial messages), no thinking, short answers,
small tool inputs and results without the structured ``tool_use_result``. Every line is a
whole message of a few hundred bytes, so what it measures is our fixed cost per message."""


def _uuid(rng: random.Random) -> str:
    h = f"{rng.getrandbits(128):032x}"
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def _id(rng: random.Random, prefix: str, n: int = 22) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    return prefix + "".join(rng.choices(alphabet, k=n))


def _text(rng: random.Random, chars: int, *, lines: bool = False) -> str:
    """About ``chars`` characters of sentences (with line breaks when ``lines``)."""
    out: list[str] = []
    size = 0
    while size < chars:
        words = " ".join(rng.choices(WORDS, k=rng.randint(4, 14))).capitalize()
        sep = rng.choice(("\n", "\n\n", " ")) if lines else " "
        out.append(words + "." + sep)
        size += len(words) + 1 + len(sep)
    return "".join(out)[:chars].rstrip() or "Done."


def _draw(rng: random.Random, seen: tuple[int, ...]) -> int:
    return max(1, round(rng.choice(seen) * rng.uniform(0.75, 1.25)))


def _chunks(rng: random.Random, text: str, lo: int, hi: int) -> Iterator[str]:
    at = 0
    while at < len(text):
        step = rng.randint(lo, hi)
        yield text[at : at + step]
        at += step


def _usage(rng: random.Random) -> dict[str, Any]:
    write = rng.randint(0, 8000)
    return {
        "input_tokens": rng.randint(3, 40),
        "cache_creation_input_tokens": write,
        "cache_read_input_tokens": rng.randint(5000, 60000),
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": write},
        "output_tokens": rng.randint(1, 900),
        "service_tier": "standard",
        "inference_geo": "not_available",
    }


def _path(rng: random.Random) -> str:
    return f"/workspace/{rng.choice(WORDS)}/{rng.choice(WORDS)}.go"


def _tool_input(rng: random.Random, name: str, light: bool) -> dict[str, Any]:
    if name == "Bash":
        return {
            "command": rng.choice(("cat main.go", "go test ./...", "git status", "ls -la")),
            "description": _text(rng, 10 if light else 35),
        }
    if name == "Edit":
        return {
            "file_path": _path(rng),
            "old_string": _text(rng, 12 if light else 45),
            "new_string": _text(rng, 12 if light else 45),
            "replace_all": False,
        }
    return {"file_path": _path(rng)}


_QUESTION: dict[str, Any] = {
    "question": "Which greeting should main.go print?",
    "header": "Greeting",
    "options": [
        {"label": "Hello", "description": "Print 'Hello' as the greeting"},
        {"label": "Hi", "description": "Print 'Hi' as the greeting"},
    ],
}
"""The question of the captures' AskUserQuestion call."""


class _Session:
    """The context every line of one session shares, and its line builders."""

    def __init__(self, rng: random.Random, shape: Shape) -> None:
        self.rng = rng
        self.shape = shape
        self.id = _uuid(rng)
        self.model = rng.choice(["claude-haiku-4-5-20251001", "claude-sonnet-4-5-20250929"])

    def system(self, subtype: str, **fields: Any) -> dict[str, Any]:
        return {
            "type": "system",
            "subtype": subtype,
            **fields,
            "uuid": _uuid(self.rng),
            "session_id": self.id,
        }

    def event(self, event: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "stream_event",
            "event": event,
            "session_id": self.id,
            "parent_tool_use_id": None,
            "uuid": _uuid(self.rng),
        }

    def delta(self, index: int, delta: dict[str, Any]) -> dict[str, Any]:
        return self.event({"type": "content_block_delta", "index": index, "delta": delta})

    def assistant(self, msg_id: str, block: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "assistant",
            "message": {
                "model": self.model,
                "id": msg_id,
                "type": "message",
                "role": "assistant",
                "content": [block],
                "stop_reason": None,
                "stop_sequence": None,
                "stop_details": None,
                "usage": _usage(self.rng),
                "diagnostics": None,
                "context_management": None,
            },
            "parent_tool_use_id": None,
            "session_id": self.id,
            "uuid": _uuid(self.rng),
            "request_id": _id(self.rng, "req_011C", 20),
        }

    def init(self) -> dict[str, Any]:
        return self.system(
            "init",
            cwd="/workspace",
            session_id=self.id,
            tools=INIT_TOOLS,
            mcp_servers=[],
            model=self.model,
            permissionMode="acceptEdits",
            slash_commands=SLASH_COMMANDS,
            apiKeySource="none",
            claude_code_version="2.1.185",
            output_style="default",
            agents=["claude", "Explore", "general-purpose", "Plan", "statusline-setup"],
            skills=SLASH_COMMANDS[:13],
            plugins=[{"name": "widget", "path": "/tmp/widget", "source": "widget@inline"}],
            analytics_disabled=False,
            product_feedback_disabled=False,
        ) | {
            "memory_paths": {"auto": "/workspace/.claude/projects/-workspace/memory/"},
            "fast_mode_state": "off",
        }

    def thinking(self, msg_id: str, index: int) -> Iterator[dict[str, Any]]:
        rng = self.rng
        text = _text(rng, _draw(rng, self.shape.thinking_chars), lines=True)
        # In the captures a signature's length follows its thinking's: about 290 + 1.33 a char.
        signature = base64.b64encode(rng.randbytes(int((290 + 1.33 * len(text)) * 0.75)))
        yield self.event(
            {
                "type": "content_block_start",
                "index": index,
                "content_block": {"type": "thinking", "thinking": "", "signature": ""},
            }
        )
        tokens = 0
        for chunk in _chunks(rng, text, *self.shape.thinking_chunk):
            step = max(1, len(chunk) // 4)
            tokens += step
            yield self.system(
                "thinking_tokens", estimated_tokens=tokens, estimated_tokens_delta=step
            )
            yield self.delta(index, {"type": "thinking_delta", "thinking": chunk})
        if rng.random() < 0.75:  # the captures: usually one more before the signature
            yield self.system("thinking_tokens", estimated_tokens=tokens, estimated_tokens_delta=1)
        yield self.delta(index, {"type": "signature_delta", "signature": signature.decode()})
        yield self.assistant(
            msg_id, {"type": "thinking", "thinking": text, "signature": signature.decode()}
        )
        yield self.event({"type": "content_block_stop", "index": index})

    def text(self, msg_id: str, index: int, text: str) -> Iterator[dict[str, Any]]:
        yield self.event(
            {
                "type": "content_block_start",
                "index": index,
                "content_block": {"type": "text", "text": ""},
            }
        )
        for chunk in _chunks(self.rng, text, *self.shape.text_chunk):
            yield self.delta(index, {"type": "text_delta", "text": chunk})
        yield self.assistant(msg_id, {"type": "text", "text": text})
        yield self.event({"type": "content_block_stop", "index": index})

    def tool_use(
        self, msg_id: str, index: int, call_id: str, name: str, args: dict[str, Any]
    ) -> Iterator[dict[str, Any]]:
        caller = {"type": "direct"}
        yield self.event(
            {
                "type": "content_block_start",
                "index": index,
                "content_block": {
                    "type": "tool_use",
                    "id": call_id,
                    "name": name,
                    "input": {},
                    "caller": caller,
                },
            }
        )
        yield self.delta(index, {"type": "input_json_delta", "partial_json": ""})
        for chunk in _chunks(self.rng, json.dumps(args), *self.shape.json_chunk):
            yield self.delta(index, {"type": "input_json_delta", "partial_json": chunk})
        block = {"type": "tool_use", "id": call_id, "name": name, "input": args, "caller": caller}
        yield self.assistant(msg_id, block)
        yield self.event({"type": "content_block_stop", "index": index})

    def tool_result(self, call_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
        rng, shape = self.rng, self.shape
        chars = _draw(rng, shape.result_chars)
        roll = rng.random()
        for share, lo, hi in shape.result_tail:
            if roll < share:
                chars = rng.randint(lo, hi)
                break
            roll -= share
        block: dict[str, Any] = {"tool_use_id": call_id, "type": "tool_result"}
        structured: Any
        if rng.random() < shape.errors:
            block["content"] = "File does not exist. " + _text(rng, chars // 2)
            block["is_error"] = True
            structured = "Error: " + block["content"]
        elif name == "Read":
            source = _text(rng, chars, lines=True)
            block["content"] = "".join(
                f"{i}\t{line}\n" for i, line in enumerate(source.split("\n"), 1)
            )
            lines = source.count("\n") + 1
            structured = {
                "type": "text",
                "file": {
                    "filePath": args["file_path"],
                    "content": source,
                    "numLines": lines,
                    "startLine": 1,
                    "totalLines": lines,
                },
            }
        elif name == "Edit":
            block["content"] = (
                f"The file {args['file_path']} has been updated successfully. "
                "(file state is current in your context — no need to Read it back)"
            )
            structured = {
                "filePath": args["file_path"],
                "oldString": args["old_string"],
                "newString": args["new_string"],
                "originalFile": _text(rng, chars, lines=True),
                "structuredPatch": [
                    {
                        "oldStart": 3,
                        "oldLines": 2,
                        "newStart": 3,
                        "newLines": 2,
                        "lines": [f"-{args['old_string']}", f"+{args['new_string']}"],
                    }
                ],
                "userModified": False,
                "replaceAll": False,
            }
        else:
            output = _text(rng, chars, lines=True)
            block["content"] = output
            block["is_error"] = False
            structured = {
                "stdout": output,
                "stderr": "",
                "interrupted": False,
                "isImage": False,
                "noOutputExpected": False,
            }
        line: dict[str, Any] = {
            "type": "user",
            "message": {"role": "user", "content": [block]},
            "parent_tool_use_id": None,
            "session_id": self.id,
            "uuid": _uuid(rng),
            "timestamp": "2026-06-24T18:03:57.893Z",
        }
        if shape.tool_use_result:
            line["tool_use_result"] = structured
        return line

    def control(self, call_id: str) -> Iterator[dict[str, Any]]:
        question = _QUESTION
        request_id = _uuid(self.rng)
        yield {
            "type": "control_request",
            "request_id": request_id,
            "request": {
                "subtype": "can_use_tool",
                "tool_name": "AskUserQuestion",
                "display_name": "AskUserQuestion",
                "input": {"questions": [{**question, "multiSelect": False}]},
                "tool_use_id": call_id,
            },
        }
        yield {
            "type": "control_response",
            "response": {
                "subtype": "success",
                "request_id": request_id,
                "response": {
                    "behavior": "allow",
                    "updatedInput": {
                        "questions": [question],
                        "answers": {question["question"]: "Hi"},
                    },
                },
            },
        }


_INIT_TOOLS_TEXT = """\
Task AskUserQuestion Bash CronCreate CronDelete CronList DesignSync Edit EnterPlanMode
EnterWorktree ExitPlanMode ExitWorktree Monitor NotebookEdit PushNotification Read
RemoteTrigger ScheduleWakeup Skill TaskCreate TaskGet TaskList TaskOutput TaskStop
TaskUpdate ToolSearch WebFetch WebSearch Write
"""
INIT_TOOLS = _INIT_TOOLS_TEXT.split()
_SLASH_COMMANDS_TEXT = """\
md-container-environment design-sync update-config verify debug code-review simplify batch
fewer-permission-prompts loop schedule claude-api run run-skill-generator clear compact
config context heapdump init reload-skills review security-review usage-credits extra-usage
usage insights goal
"""
SLASH_COMMANDS = [*_SLASH_COMMANDS_TEXT.split(), "team-onboarding"]


def _session(rng: random.Random, shape: Shape) -> Iterator[dict[str, Any]]:
    s = _Session(rng, shape)
    yield {
        "type": "user",
        "message": {"role": "user", "content": [{"type": "text", "text": _text(rng, 90)}]},
    }
    yield s.init()
    calls = rng.randint(*shape.calls)
    ask = rng.random() < shape.control
    answer = ""
    for call in range(calls):
        last = call == calls - 1
        msg_id = _id(rng, "msg_01")
        yield s.system("status", status="requesting")
        start = {
            "model": s.model,
            "id": msg_id,
            "type": "message",
            "role": "assistant",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "stop_details": None,
            "usage": _usage(rng),
            "diagnostics": None,
        }
        yield s.event({"type": "message_start", "message": start}) | {
            "ttft_ms": rng.randint(500, 3000)
        }
        if call == 0:
            yield {
                "type": "rate_limit_event",
                "rate_limit_info": {
                    "status": "allowed",
                    "resetsAt": 1782329400,
                    "rateLimitType": "five_hour",
                    "overageStatus": "allowed",
                    "overageResetsAt": 1782864000,
                    "isUsingOverage": False,
                },
                "uuid": _uuid(rng),
                "session_id": s.id,
            }
        index = 0
        results: list[dict[str, Any]] = []
        if rng.random() < shape.thinking:
            yield from s.thinking(msg_id, index)
            index += 1
        if last or rng.random() < shape.text_before_tools:
            answer = _text(rng, _draw(rng, shape.text_chars))
            yield from s.text(msg_id, index, answer)
            index += 1
        if not last:
            for _ in range(2 if rng.random() < shape.two_tools else 1):
                call_id = _id(rng, "toolu_01")
                if ask:
                    ask = False
                    args = {"questions": [{**_QUESTION, "multiSelect": False}]}
                    yield from s.tool_use(msg_id, index, call_id, "AskUserQuestion", args)
                    yield from s.control(call_id)
                    results.append(s.tool_result(call_id, "Bash", {}))
                else:
                    name = rng.choice(shape.tools)
                    args = _tool_input(rng, name, not shape.tool_use_result)
                    yield from s.tool_use(msg_id, index, call_id, name, args)
                    results.append(s.tool_result(call_id, name, args))
                index += 1
        usage = _usage(rng)
        yield s.event(
            {
                "type": "message_delta",
                "delta": {
                    "stop_reason": "end_turn" if last else "tool_use",
                    "stop_sequence": None,
                    "stop_details": None,
                },
                "usage": {
                    "input_tokens": usage["input_tokens"],
                    "cache_creation_input_tokens": usage["cache_creation_input_tokens"],
                    "cache_read_input_tokens": usage["cache_read_input_tokens"],
                    "output_tokens": usage["output_tokens"],
                    "output_tokens_details": {"thinking_tokens": usage["output_tokens"] // 2},
                    "iterations": [
                        {
                            "input_tokens": usage["input_tokens"],
                            "output_tokens": usage["output_tokens"],
                            "cache_read_input_tokens": usage["cache_read_input_tokens"],
                            "cache_creation_input_tokens": usage["cache_creation_input_tokens"],
                            "cache_creation": usage["cache_creation"],
                            "type": "message",
                        }
                    ],
                },
                "context_management": {"applied_edits": []},
            }
        )
        yield s.event({"type": "message_stop"})
        yield from results
    usage = _usage(rng)
    yield {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "api_error_status": None,
        "duration_ms": rng.randint(1000, 90000),
        "duration_api_ms": rng.randint(1000, 90000),
        "ttft_ms": rng.randint(500, 3000),
        "ttft_stream_ms": rng.randint(500, 3000),
        "time_to_request_ms": rng.randint(10, 60),
        "num_turns": calls,
        "result": answer,
        "stop_reason": "end_turn",
        "session_id": s.id,
        "total_cost_usd": round(rng.random() / 10, 7),
        "usage": {
            **{k: v for k, v in usage.items() if k != "cache_creation"},
            "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
            "cache_creation": usage["cache_creation"],
            "iterations": [{**usage, "type": "message"}],
            "speed": "standard",
        },
        "modelUsage": {
            s.model: {
                "inputTokens": 554,
                "outputTokens": 655,
                "cacheReadInputTokens": usage["cache_read_input_tokens"],
                "cacheCreationInputTokens": usage["cache_creation_input_tokens"],
                "webSearchRequests": 0,
                "costUSD": 0.0248272,
                "contextWindow": 200000,
                "maxOutputTokens": 32000,
            }
        },
        "permission_denials": [],
        "terminal_reason": "completed",
        "fast_mode_state": "off",
        "uuid": _uuid(rng),
    }


def claude_code_session(rng: random.Random, shape: Shape = REAL) -> Iterator[dict[str, Any]]:
    """One Claude Code ``stream-json`` session as wire objects.

    The order of the captures (run with ``--include-partial-messages``; without it, as in
    ``shape.partial=False``, the ``stream_event`` and ``thinking_tokens`` lines are left out):
    the prompt sent on stdin, ``system/init``, then per API call a
    ``status`` line, ``message_start``, each content block as ``content_block_start``, its
    deltas (thinking deltas each after a ``thinking_tokens`` line), the ``assistant`` line and
    ``content_block_stop``, then ``message_delta``, ``message_stop`` and the tool results; a
    ``rate_limit_event`` and a ``result`` per session. Every call but the last calls tools;
    the last answers in text.
    """
    for obj in _session(rng, shape):
        if shape.partial or not (
            obj["type"] == "stream_event" or obj.get("subtype") == "thinking_tokens"
        ):
            yield obj


def _dump(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def claude_code_lines(n: int, *, seed: int = 7, shape: Shape = REAL) -> list[str]:
    """At least ``n`` Claude Code stream-json lines (whole sessions), deterministic."""
    rng = random.Random(seed)
    lines: list[str] = []
    while len(lines) < n:
        lines.extend(_dump(obj) for obj in claude_code_session(rng, shape))
    return lines


def light_lines(n: int, *, seed: int = 7) -> list[str]:
    """At least ``n`` light Claude Code lines (a few hundred bytes each), deterministic."""
    return claude_code_lines(n, seed=seed, shape=LIGHT)


def real_lines(n: int) -> list[str] | None:
    """The real captures repeated to at least ``n`` lines; ``None`` when they are absent."""
    real = real_claude_code_lines()
    if real is None:
        return None
    return real * max(1, -(-n // len(real)))


def _messages_path() -> None:
    src = str(Path(__file__).resolve().parent.parent / "src")
    if src not in sys.path:
        sys.path.insert(0, src)


Source = Callable[[int], list[str]]
"""A corpus of Claude Code lines: given a count, at least that many lines."""


@functools.cache
def _flat_conversation(n: int, source: Source) -> list[Any]:
    """The flat messages of ``n`` Claude Code lines (decoded and normalised); do not change."""
    _messages_path()
    from messages.adapters import claude_code
    from messages.convert import normalize_messages

    return list(normalize_messages(claude_code.iter_decode(source(n))))


def adapter_lines(name: str, n: int, source: Source = claude_code_lines) -> list[str]:
    """About ``n`` lines of the same conversations as the agent CLI ``name`` writes them."""
    _messages_path()
    adapter = importlib.import_module(f"messages.adapters.{name}")
    lines: list[str] = []
    size = n
    while len(lines) < n:
        lines = list(adapter.iter_encode(_flat_conversation(size, source), unsupported="drop"))
        size = size * 2
    return lines[:n]


def provider_bodies(
    name: str, n: int, source: Source = claude_code_lines, *, turns: int = 16
) -> list[str] | None:
    """Request bodies (JSON text) of about ``n`` messages in all, ``turns`` role messages each.

    ``None`` when ``messages.providers.<name>`` does not exist on this branch.
    """
    _messages_path()
    try:
        codec = importlib.import_module(f"messages.providers.{name}")
    except ImportError:
        return None
    from messages.adapters import claude_code
    from messages.roles import AssistantMessage
    from messages.roles import UserMessage

    conversation = [
        m
        for m in claude_code.merge(claude_code.iter_decode(source(n)))
        if isinstance(m, (AssistantMessage, UserMessage))
    ]
    bodies = []
    for start in range(0, len(conversation), turns):
        body = codec.encode_request(conversation[start : start + turns], unsupported="drop")
        bodies.append(json.dumps(body, separators=(",", ":"), ensure_ascii=False))
    return bodies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="write a Claude Code stream-json corpus")
    parser.add_argument("out", help="output file")
    parser.add_argument("--mb", type=float, default=10.0, help="approximate size in MiB")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--light", action="store_true", help="light lines instead")
    args = parser.parse_args(argv)
    target = int(args.mb * 1024 * 1024)
    rng = random.Random(args.seed)
    shape = LIGHT if args.light else REAL
    written = 0
    with open(args.out, "w", encoding="utf-8") as fp:
        while written < target:
            for obj in claude_code_session(rng, shape):
                line = _dump(obj) + "\n"
                fp.write(line)
                written += len(line.encode())
    print(f"wrote {written / 1048576:.1f} MiB to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

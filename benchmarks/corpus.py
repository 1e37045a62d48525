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
import importlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ADAPTERS = ("codex", "gemini_cli", "opencode", "copilot", "acp")
"""The other agent CLI adapters, each measured on its own corpus."""

PROVIDERS = ("anthropic", "openai_chat", "openai_responses", "gemini")
"""The provider request codecs, measured where their module exists."""

WORDS = tuple(
    [
        "the",
        "file",
        "module",
        "function",
        "returns",
        "value",
        "error",
        "test",
        "build",
        "config",
        "import",
        "path",
        "data",
        "stream",
        "message",
        "session",
        "tool",
        "result",
        "assistant",
        "user",
        "check",
        "run",
        "edit",
        "read",
        "write",
        "line",
        "change",
        "fix",
        "because",
        "first",
        "then",
        "next",
        "also",
        "should",
        "would",
        "could",
        "this",
        "that",
        "with",
        "from",
        "into",
    ]
)

TOOLS = ("Bash", "Read", "Edit", "Grep", "Glob", "Write", "TodoWrite")


def _sentence(rng: random.Random, lo: int = 6, hi: int = 30) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(lo, hi))]
    return " ".join(words).capitalize() + "."


def _paragraphs(rng: random.Random, n: int) -> str:
    return "\n\n".join(" ".join(_sentence(rng) for _ in range(rng.randint(1, 4))) for _ in range(n))


def _id(rng: random.Random, prefix: str, n: int = 24) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    return prefix + "".join(rng.choice(alphabet) for _ in range(n))


def _signature(rng: random.Random) -> str:
    return base64.b64encode(rng.randbytes(rng.randint(250, 700))).decode()


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


def _tool_input(rng: random.Random, name: str) -> dict[str, Any]:
    if name == "Bash":
        return {
            "command": f"cd /workspace && {rng.choice(['ls -la', 'pytest -q', 'git status'])}",
            "description": _sentence(rng, 3, 8),
            "timeout": 120000,
        }
    if name == "Edit":
        return {
            "file_path": f"/workspace/src/{rng.choice(WORDS)}.py",
            "old_string": _sentence(rng),
            "new_string": _sentence(rng),
            "replace_all": False,
        }
    if name == "TodoWrite":
        return {
            "todos": [
                {
                    "content": _sentence(rng, 3, 9),
                    "status": rng.choice(["pending", "completed"]),
                    "activeForm": _sentence(rng, 2, 5),
                }
                for _ in range(rng.randint(2, 5))
            ]
        }
    return {
        "file_path": f"/workspace/{rng.choice(WORDS)}/{rng.choice(WORDS)}.py",
        "pattern": rng.choice(WORDS),
        "limit": rng.randint(10, 400),
    }


def _envelope(session: str, message: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    return {
        "type": "assistant",
        "message": message,
        "parent_tool_use_id": None,
        "session_id": session,
        "uuid": _id(rng, "", 32),
        "request_id": _id(rng, "req_011C"),
    }


def _assistant(
    rng: random.Random, model: str, msg_id: str, block: dict[str, Any]
) -> dict[str, Any]:
    return {
        "model": model,
        "id": msg_id,
        "type": "message",
        "role": "assistant",
        "content": [block],
        "stop_reason": None,
        "stop_sequence": None,
        "stop_details": None,
        "usage": _usage(rng),
        "diagnostics": None,
        "context_management": None,
    }


def _stream_events(rng: random.Random, session: str, text: str) -> Iterator[dict[str, Any]]:
    base = {"session_id": session, "parent_tool_use_id": None}
    yield {
        "type": "stream_event",
        "event": {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "text", "text": ""},
        },
        **base,
        "uuid": _id(rng, "", 32),
    }
    for i in range(0, len(text), 40):
        yield {
            "type": "stream_event",
            "event": {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": text[i : i + 40]},
            },
            **base,
            "uuid": _id(rng, "", 32),
        }
    yield {
        "type": "stream_event",
        "event": {"type": "content_block_stop", "index": 0},
        **base,
        "uuid": _id(rng, "", 32),
    }


def claude_code_session(rng: random.Random, turns: int) -> Iterator[dict[str, Any]]:
    """One Claude Code session as wire objects."""
    session = _id(rng, "", 8) + "-" + _id(rng, "", 4) + "-4" + _id(rng, "", 3)
    model = rng.choice(["claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001"])
    yield {
        "type": "system",
        "subtype": "init",
        "cwd": "/workspace",
        "session_id": session,
        "tools": list(TOOLS),
        "mcp_servers": [],
        "model": model,
        "permissionMode": "acceptEdits",
        "slash_commands": ["compact", "context", "review"],
        "apiKeySource": "none",
        "claude_code_version": "2.1.185",
        "output_style": "default",
        "agents": ["general-purpose"],
        "skills": [],
        "plugins": [],
        "uuid": _id(rng, "", 32),
    }
    yield {
        "type": "user",
        "message": {"role": "user", "content": _sentence(rng, 8, 40)},
        "session_id": session,
        "parent_tool_use_id": None,
        "uuid": _id(rng, "", 32),
    }
    for _ in range(turns):
        msg_id = _id(rng, "msg_01")
        if rng.random() < 0.6:
            yield _envelope(
                session,
                _assistant(
                    rng,
                    model,
                    msg_id,
                    {
                        "type": "thinking",
                        "thinking": _paragraphs(rng, rng.randint(1, 3)),
                        "signature": _signature(rng),
                    },
                ),
                rng,
            )
        text = _paragraphs(rng, rng.randint(1, 2))
        if rng.random() < 0.3:
            yield from _stream_events(rng, session, text)
        yield _envelope(
            session, _assistant(rng, model, msg_id, {"type": "text", "text": text}), rng
        )
        for _ in range(rng.randint(0, 2)):
            name = rng.choice(TOOLS)
            call_id = _id(rng, "toolu_01")
            yield _envelope(
                session,
                _assistant(
                    rng,
                    model,
                    msg_id,
                    {
                        "type": "tool_use",
                        "id": call_id,
                        "name": name,
                        "input": _tool_input(rng, name),
                        "caller": {"type": "direct"},
                    },
                ),
                rng,
            )
            output = "\n".join(
                f"{i}\t{_sentence(rng, 2, 12)}" for i in range(1, rng.randint(3, 40))
            )
            content: Any = output if rng.random() < 0.7 else [{"type": "text", "text": output}]
            yield {
                "type": "user",
                "message": {
                    "role": "user",
                    "content": [
                        {
                            "tool_use_id": call_id,
                            "type": "tool_result",
                            "content": content,
                            "is_error": rng.random() < 0.1,
                        }
                    ],
                },
                "parent_tool_use_id": None,
                "session_id": session,
                "uuid": _id(rng, "", 32),
                "timestamp": "2026-06-24T18:03:57.893Z",
                "tool_use_result": {"stdout": output[:200], "stderr": "", "interrupted": False},
            }
    yield {
        "type": "rate_limit_event",
        "rate_limit_info": {
            "status": "allowed",
            "resetsAt": 1782329400,
            "rateLimitType": "five_hour",
            "isUsingOverage": False,
        },
        "uuid": _id(rng, "", 32),
        "session_id": session,
    }
    yield {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "duration_ms": rng.randint(1000, 90000),
        "duration_api_ms": rng.randint(1000, 90000),
        "num_turns": turns,
        "result": _sentence(rng),
        "session_id": session,
        "total_cost_usd": round(rng.random(), 6),
        "usage": _usage(rng),
        "modelUsage": {model: {"inputTokens": 100, "outputTokens": 50, "costUSD": 0.01}},
        "permission_denials": [],
        "uuid": _id(rng, "", 32),
    }


def claude_code_lines(n: int, *, seed: int = 7) -> list[str]:
    """At least ``n`` Claude Code stream-json lines (whole sessions), deterministic."""
    rng = random.Random(seed)
    lines: list[str] = []
    while len(lines) < n:
        for obj in claude_code_session(rng, rng.randint(2, 8)):
            lines.append(json.dumps(obj, separators=(",", ":")))
    return lines


def _messages_path() -> None:
    src = str(Path(__file__).resolve().parent.parent / "src")
    if src not in sys.path:
        sys.path.insert(0, src)


def _flat_conversation(n: int) -> list[Any]:
    """The flat messages of ``n`` Claude Code lines (decoded and normalised)."""
    _messages_path()
    from messages.adapters import claude_code
    from messages.convert import normalize_messages

    return list(normalize_messages(claude_code.iter_decode(claude_code_lines(n))))


def adapter_lines(name: str, n: int) -> list[str]:
    """About ``n`` lines of the same conversations as the agent CLI ``name`` writes them."""
    _messages_path()
    adapter = importlib.import_module(f"messages.adapters.{name}")
    lines: list[str] = []
    size = n
    while len(lines) < n:
        lines = list(adapter.iter_encode(_flat_conversation(size), unsupported="drop"))
        size = size * 2
    return lines[:n]


def provider_bodies(name: str, n: int, *, turns: int = 16) -> list[str] | None:
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
        for m in claude_code.merge(claude_code.iter_decode(claude_code_lines(n)))
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
    args = parser.parse_args(argv)
    target = int(args.mb * 1024 * 1024)
    rng = random.Random(args.seed)
    written = 0
    with open(args.out, "w", encoding="utf-8") as fp:
        while written < target:
            for obj in claude_code_session(rng, rng.randint(2, 8)):
                line = json.dumps(obj, separators=(",", ":")) + "\n"
                fp.write(line)
                written += len(line)
    print(f"wrote {written / 1048576:.1f} MiB to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

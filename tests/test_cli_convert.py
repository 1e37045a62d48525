"""``messages convert``: same-format round trips, cross-format conversion, --lossy, extras."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import EXAMPLES
from conftest import FIXTURES
from conftest import json_equal
from conftest import shared_fixtures
from messages import AssistantMessage
from messages import TextBlock
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import ToolUseMessage
from messages import Usage
from messages.adapters import NAMES
from messages.adapters import READ_ONLY
from messages.adapters import get
from messages.cli import main
from messages.cli.commands import strip_extra
from messages.convert import normalize_messages
from support.adapter_files import flat_kinds
from support.adapter_files import local
from support.adapter_files import wire_objects
from test_cli import ADAPTER_FIXTURES
from test_cli import REAL
from test_cli import run

EXAMPLE = EXAMPLES / "claude_code.jsonl"
NATIVE = EXAMPLES / "conversation.jsonl"


def _adapter_of(stem: str) -> str:
    """The adapter that reads a same_conversation fixture (codex_app_server is Codex's)."""
    return "codex" if stem == "codex_app_server" else stem


def own_files() -> list[tuple[str, Path]]:
    out = [(name, p) for name in ADAPTER_FIXTURES for p in sorted(local(name).glob("*.jsonl"))]
    out += [(_adapter_of(p.stem), p) for p in sorted(local("same_conversation").glob("*.jsonl"))]
    out += [
        ("claude_code", EXAMPLE),
        ("native", NATIVE),
        ("claude_code", local("cli", "stats-claude.jsonl")),
    ]
    return out


def real_files() -> list[tuple[str, Path]]:
    root = FIXTURES
    return [
        (name, path)
        for folder, name in REAL.items()
        for path in sorted((root / folder).rglob("*"))
        if path.suffix in (".jsonl", ".ndjson")
    ]


def good_objects(name: str, path: Path) -> list[object]:
    """The JSON objects of the lines the adapter reads (the lines that are not JSON left out)."""
    out = []
    with path.open(encoding="utf-8") as fp:
        for line in fp:
            if not line.strip():
                continue
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
    return out


def assert_same_format_round_trip(
    name: str, path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "convert", "--from", name, "--to", name, str(path))
    want = good_objects(name, path)
    got = [json.loads(line) for line in out.splitlines()]
    assert len(got) == len(want)
    for a, b in zip(got, want, strict=True):
        assert json_equal(a, b), (a, b)
    assert code == (1 if err else 0)


@pytest.mark.parametrize(("name", "path"), own_files(), ids=lambda x: getattr(x, "name", x))
def test_converting_to_the_same_format_gives_the_input_back(
    name: str, path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if getattr(get(name), "READ_ONLY", False):  # an agent's own store: refused, whatever the input
        code, out, err = run(capsys, "convert", "--to", name, str(path))
        assert (code, out) == (2, "") and f"--to {name}: {name} is an agent's own store" in err
        return
    assert_same_format_round_trip(name, path, capsys)


@pytest.mark.parametrize(("name", "path"), real_files(), ids=lambda x: getattr(x, "name", x))
def test_real_captures_convert_to_their_own_format_unchanged(
    name: str, path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = shared_fixtures(*path.relative_to(FIXTURES).parts)
    assert_same_format_round_trip(name, path, capsys)
    assert sum(1 for _ in wire_objects(path)) > 0


SAME = ["acp", "copilot", "gemini_cli", "opencode"]


def kinds_of(name: str, lines: list[str]) -> list[str]:
    """The flat content kinds; a tool call written as several states (started, completed)
    counts once, as some formats report a call's progress as separate events."""
    adapter = get(name)
    messages = list(adapter.merge(adapter.iter_decode(lines, strict=True)))
    calls = [m.id for m in normalize_messages(messages) if isinstance(m, ToolUseMessage)]
    kinds = flat_kinds(messages)
    assert kinds.count("tool_use") == len(calls)
    out, seen, i = [], set(), 0
    for kind in kinds:
        if kind == "tool_use":
            call, i = calls[i], i + 1
            if call in seen:
                continue
            seen.add(call)
        out.append(kind)
    return out


# an agent's own store (OpenCode's, Amp's threads) is read, never written: convert refuses it
WRITABLE = [n for n in NAMES if not getattr(get(n), "READ_ONLY", False)]


@pytest.mark.parametrize("source", SAME)
@pytest.mark.parametrize("target", [n for n in WRITABLE if n not in READ_ONLY])
def test_there_and_back_keeps_the_flat_kinds(
    source: str, target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A -> B -> A through the command keeps the conversation's content kinds."""
    path = local("same_conversation", f"{source}.jsonl")
    want = kinds_of(source, path.read_text("utf-8").splitlines())
    flags = ["--merge", "--lossy", "drop"]
    code, there, err = run(capsys, "convert", "--from", source, "--to", target, *flags, str(path))
    assert (code, err) == (0, "")
    middle = tmp_path / f"middle.{target}.jsonl"
    middle.write_text(there)
    code, back, err = run(capsys, "convert", "--from", target, "--to", source, *flags, str(middle))
    assert (code, err) == (0, "")
    got = kinds_of(source, back.splitlines())
    if target in ("opencode", "codex") and source != target:
        want = [k for k in want if k != "text(user)"]  # neither writes the user's prompt
    assert got == want


def test_content_the_target_cannot_carry_is_an_error_with_its_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "convert", "--example", "--to", "gemini_cli")
    assert code == 1
    assert err == (
        "messages: example:claude_code:3: Gemini CLI has no event for thinking content"
        " (pass --lossy drop or --lossy text)\n"
    )
    kinds = [json.loads(line)["type"] for line in out.splitlines()]
    assert kinds == ["init", "message", "message", "tool_use", "tool_result", "message", "result"]


def test_lossy_drop_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, dropped, err = run(
        capsys, "convert", "--example", "--to", "gemini_cli", "--lossy", "drop"
    )
    assert (code, err) == (0, "")
    code, degraded, err = run(
        capsys, "convert", "--example", "--to", "gemini_cli", "--lossy", "text"
    )
    assert (code, err) == (0, "")
    assert len(degraded.splitlines()) == len(dropped.splitlines()) + 1
    assert "A recursive grep limited to Python files" in degraded
    assert "A recursive grep" not in dropped


def test_strict_stops_at_the_first_unsupported_message(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "convert", "--example", "--to", "codex", "--strict")
    assert code == 1
    assert len(err.splitlines()) == 1 and ":2: codex cannot carry user text" in err
    assert [json.loads(line)["type"] for line in out.splitlines()] == ["thread.started"]


def test_extras_stay_home(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "convert", "--example", "--to", "native")
    assert code == 0
    assert all("extra" not in json.loads(line) for line in out.splitlines())
    assert '"service_tier"' not in out
    code, out, _ = run(capsys, "convert", "--example", "native", "--to", "claude_code")
    assert code == 0 and len(out.splitlines()) == 6
    code, same, _ = run(
        capsys, "convert", "--example", "--from", "claude_code", "--to", "claude_code"
    )
    assert '"service_tier":"standard"' in same


def test_strip_extra_reaches_nested_blocks_and_usage() -> None:
    turn = AssistantMessage(
        (
            TextBlock("hi", extra={"cache_control": {"type": "ephemeral"}}),
            ToolUseBlock("t1", "Bash", {"command": "ls"}, extra={"caller": {"type": "direct"}}),
            ToolResultBlock("t1", (TextBlock("out", extra={"x": 1}),), extra={"y": 2}),
        ),
        usage=Usage(1, 2, extra={"service_tier": "standard"}),
        extra={"type": "assistant"},
    )
    bare = strip_extra(turn)
    assert bare == AssistantMessage(
        (
            TextBlock("hi"),
            ToolUseBlock("t1", "Bash", {"command": "ls"}),
            ToolResultBlock("t1", (TextBlock("out"),)),
        ),
        usage=Usage(1, 2),
    )
    plain = AssistantMessage((TextBlock("hi"),))
    assert strip_extra(plain) is plain


def test_convert_reads_stdin_and_detects_its_format(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(EXAMPLE.read_bytes())))
    assert main(["convert", "--to", "native"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 8


def test_line_numbers_count_from_the_first_line_even_after_looking_ahead(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "headed.jsonl"
    path.write_text('{"recorder": "one"}\n{"recorder": "two"}\n' + EXAMPLE.read_text("utf-8"))
    code, _, err = run(capsys, "convert", "--to", "gemini_cli", str(path))
    assert code == 1
    hint = " (pass --lossy drop or --lossy text)"
    assert err.splitlines() == [  # the recorder's lines are no Gemini CLI lines either
        f"messages: {path}:1: gemini_cli has no line for a claude_code line{hint}",
        f"messages: {path}:2: gemini_cli has no line for a claude_code line{hint}",
        f"messages: {path}:5: Gemini CLI has no event for thinking content{hint}",
    ]


@pytest.mark.parametrize("target", READ_ONLY)
def test_a_format_that_is_only_read_takes_nothing_from_elsewhere(
    target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = local("same_conversation", "copilot.jsonl")
    code, out, err = run(capsys, "convert", "--to", target, str(path))
    assert (code, out) == (1, "")
    assert (
        "read, not written" in err or "only the records it was read from" in err
    ) and "--lossy" in err
    code, out, err = run(capsys, "convert", "--lossy", "text", "--to", target, str(path))
    assert (code, out, err) == (0, "", "")

"""The ``messages`` command: normalize, detection, exit codes, bad input, pipes and --jobs.

``main(argv)`` runs in-process (capsys sees stdout and stderr); a few tests run
``python -m messages`` as a subprocess for what only a real process shows (a closed pipe).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from conftest import EXAMPLES
from conftest import FIXTURES
from conftest import ROOT
from conftest import shared_fixtures
from messages import ImageMessage
from messages import TextMessage
from messages import ToolUseMessage
from messages import __version__
from messages.adapters import get
from messages.cli import main
from messages.convert import normalize_messages
from messages.serialize import dumps
from messages.serialize import read_jsonl
from support.adapter_files import local

SRC = str(ROOT / "src")
EXAMPLE = EXAMPLES / "claude_code.jsonl"
EXAMPLE_KINDS = ["init", "text", "thinking", "text", "tool_use", "tool_result", "text", "result"]
"""The flat kinds of both bundled examples (the Claude Code one and the native one)."""
ADAPTER_FIXTURES = [
    "claude_code",
    "codex",
    "gemini_cli",
    "opencode",
    "copilot",
    "acp",
    "pi",
    "cursor",
    "cline",
    "gemini_session",
    "qwen_code",
    "opencode_storage",
    "amp",
    "goose",
    "droid",
    "kimi",
    "kilo",
    "copilot_otel",
    "hermes",
    "codebuff",
    "grok",
    "zcode",
]
RECORDS_OF = {"kilo": "opencode_storage"}
"""Formats whose records are another format's (found by their file's name, not their lines)."""
REAL = {
    "claude_code": "claude_code",
    "codex_exec": "codex",
    "codex_app_server": "codex",
    "acp": "acp",
    "gemini_cli": "gemini_cli",
    "pi": "pi",
    "cursor": "cursor",
    "gemini_cli_session": "gemini_session",
}
"""Folders of real captures under ../shared/fixtures, and the adapter each one belongs to."""


def _adapter_of(stem: str) -> str:
    """The adapter that reads a same_conversation fixture (codex_app_server is Codex's)."""
    return "codex" if stem == "codex_app_server" else stem


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def python_m(*argv: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run(
        [sys.executable, "-m", "messages", *argv],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        **kwargs,
    )


def expected_flat(adapter_name: str, path: Path) -> list[str]:
    """What normalize should write: the adapter's good messages, flattened, as native lines."""
    adapter = get(adapter_name)
    with path.open("rb") as fp:
        messages = [m for m in adapter.iter_decode(fp) if m.kind != "invalid_line"]
    return [dumps(m) for m in normalize_messages(messages)]


def local_files() -> list[tuple[str, Path]]:
    out = [(name, p) for name in ADAPTER_FIXTURES for p in sorted(local(name).glob("*.jsonl"))]
    out += [(_adapter_of(p.stem), p) for p in sorted(local("same_conversation").glob("*.jsonl"))]
    return out


def real_files() -> list[tuple[str, Path]]:
    root = FIXTURES
    out = []
    for folder, name in REAL.items():
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in (".jsonl", ".ndjson") and "evidence" not in path.name:
                out.append((name, path))
    return out


# -- normalize -------------------------------------------------------------------------------


def test_normalize_example_writes_the_flat_view_of_the_claude_code_example(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "normalize", "--example")
    assert (code, err) == (0, "")
    messages = list(read_jsonl(out.splitlines()))
    assert [m.kind for m in messages] == EXAMPLE_KINDS
    assert messages[1] == TextMessage(
        "Which TODO comments are still left in src/? Group them by file.",
        role="user",
        uuid="7c2e9a41-1d3b-4f6e-8a5c-9b0d4e2f1a37",
        session_id="3b1f6a52-8c4d-4e27-9a10-5d2c7e8f4b91",
    )
    assert out.splitlines() == expected_flat("claude_code", EXAMPLE)


def test_the_native_example_is_still_bundled(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "normalize", "--example", "native")
    assert code == 0
    kinds = [m.kind for m in read_jsonl(out.splitlines())]
    assert kinds == EXAMPLE_KINDS
    assert TextMessage(
        "How many Python files are in this repo?",
        role="user",
        session_id="s-1",
        timestamp="2026-11-01T10:00:01Z",
    ) in list(read_jsonl(out.splitlines()))


def test_text_format_is_one_line_per_message(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "normalize", "--example", "--format", "text")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 8
    assert lines[1] == "[text/user] Which TODO comments are still left in src/? Group them by file."
    assert lines[4] == (
        """[tool_use/assistant] Bash {"command": "grep -rn 'TODO' src/ --include='*.py'", """
        """"description": "Find TODO comments in Python sources"}"""
    )
    assert lines[5].startswith("[tool_result/user] toolu_01Gh5Jk7Lm9Np1Qr3St5Uv7W: src/inventory")
    assert "\\n" in lines[5]  # the output's newlines, escaped: still one line
    assert lines[7].startswith("[result] success, 2 turns, 8.734 s, $0.0345315")


def test_markdown_format_has_role_headings_and_fenced_tool_io(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "normalize", "--example", "--format", "markdown")
    assert code == 0
    assert [line for line in out.splitlines() if line.startswith("#")] == [
        "### Init (session_id 3b1f6a52-8c4d-4e27-9a10-5d2c7e8f4b91,"
        " model claude-sonnet-4-5-20250929, cwd /home/ana/inventory-service)",
        "### User",
        "### Assistant",
        "### User",
        "### Assistant",
        "### Result (success)",
    ]
    assert '```json\n{"command": "grep -rn' in out
    assert "**Tool result** (`toolu_01Gh5Jk7Lm9Np1Qr3St5Uv7W`):\n\n```\nsrc/inventory" in out
    assert "> **Thinking:** The user wants" in out


def test_markdown_format_is_the_transcript_written_as_it_streams(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One Markdown renderer: the command's output is ``transcript(format="markdown")``."""
    from messages.text import transcript

    code, out, _ = run(capsys, "normalize", "--example", "--format", "markdown")
    claude = get("claude_code")
    flat = normalize_messages(claude.iter_decode(EXAMPLE.read_text("utf-8").splitlines()))
    assert code == 0
    assert out == transcript(flat, format="markdown", include_events=True) + "\n\n"


def test_images_are_named_with_type_and_size_never_dumped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    png = (
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5E"
        "rkJggg=="
    )
    path = tmp_path / "image.jsonl"
    path.write_text(dumps(ImageMessage(data=png, media_type="image/png")) + "\n")
    for fmt in ("text", "markdown"):
        code, out, _ = run(capsys, "normalize", "--format", fmt, str(path))
        assert code == 0
        assert "image/png, 70 bytes" in out
        assert png[:20] not in out
    code, out, _ = run(
        capsys, "normalize", "--format", "text", str(local("acp", "session-edit-plan.jsonl"))
    )
    assert "[image/user] image/png, " in out


def test_merge_joins_deltas_like_the_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    path = local("gemini_cli", "run-with-warnings.jsonl")
    adapter = get("gemini_cli")
    with path.open("rb") as fp:
        merged = [m for m in adapter.merge(adapter.iter_decode(fp)) if m.kind != "invalid_line"]
    code, out, _ = run(capsys, "normalize", "--merge", str(path))
    assert code == 1  # the capture has a warning line that is not JSON
    assert out.splitlines() == [dumps(m) for m in normalize_messages(merged)]
    _, unmerged, _ = run(capsys, "normalize", str(path))
    assert len(out.splitlines()) < len(unmerged.splitlines())


@pytest.mark.parametrize(("name", "path"), local_files(), ids=lambda x: getattr(x, "name", x))
def test_each_adapter_is_detected_on_its_hand_made_fixtures(
    name: str, path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "normalize", str(path))
    assert out.splitlines() == expected_flat(RECORDS_OF.get(name, name), path)
    assert code == (1 if err else 0)
    forced = run(capsys, "normalize", "--from", name, str(path))
    assert forced[1] == out


@pytest.mark.parametrize(("name", "path"), real_files(), ids=lambda x: getattr(x, "name", x))
def test_each_adapter_is_detected_on_real_captures(
    name: str, path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = shared_fixtures(*path.relative_to(FIXTURES).parts)
    code, out, err = run(capsys, "normalize", str(path))
    assert (code, err) == (0, "")
    assert out.splitlines() == expected_flat(name, path)


def test_recorder_envelopes_are_not_guessed(capsys: pytest.CaptureFixture[str]) -> None:
    path = shared_fixtures("claude_code", "caic-evidence-task-lifecycle.jsonl")
    code, out, err = run(capsys, "normalize", str(path))
    assert (code, out) == (1, "")
    assert err == (
        f"messages: {path}: cannot tell the format: no record in the first 256 is one a known"
        " format writes; pass --from NAME if you know it\n"
    )
    code, out, err = run(capsys, "normalize", "--from", "claude_code", str(path))
    assert (code, err) == (0, "") and len(out.splitlines()) == 4


def test_detection_looks_past_lines_nobody_claims(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    example = EXAMPLE.read_text("utf-8")
    path = tmp_path / "header.jsonl"
    path.write_text('{"recorder": "mine"}\n[1, 2]\n\n' + example)
    code, out, _ = run(capsys, "normalize", "--format", "text", str(path))
    assert code == 0
    assert out.splitlines()[0] == '[raw] {"recorder":"mine"}'
    assert out.splitlines()[2].startswith("[init] session 3b1f6a52")
    late = tmp_path / "late.jsonl"
    late.write_text('{"recorder": "mine"}\n' * 300 + example)
    code, out, err = run(capsys, "normalize", str(late))
    assert (code, out) == (1, "") and "cannot tell the format" in err
    code, out, _ = run(capsys, "normalize", "--from", "claude_code", str(late))
    assert code == 0 and len(out.splitlines()) == 308


def test_stdin_is_read_by_default_and_as_dash(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv in (["normalize"], ["normalize", "-"]):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(EXAMPLE.read_bytes())))
        code, out, _ = run(capsys, *argv)
        assert code == 0
        assert out.splitlines() == expected_flat("claude_code", EXAMPLE)


def test_a_lone_surrogate_is_written_as_an_escape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "surrogate.jsonl"
    path.write_text('{"v":1,"kind":"text","text":"half \\ud83d emoji","role":"user"}\n')
    code, out, _ = run(capsys, "normalize", str(path))
    assert code == 0
    assert json.loads(out)["text"] == "half \ud83d emoji"


# -- exit codes and bad input ----------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["frobnicate"],
        ["normalize", "--from", "gemini"],
        ["normalize", "--format", "html"],
        ["normalize", "--jobs", "0"],
        ["normalize", "--jobs", "many"],
        ["normalize", "--example", "codex"],
        ["normalize", "--example", "native", "file.jsonl"],
        ["convert", "--example"],
        ["convert", "--to", "codex", "--lossy", "maybe"],
        ["stats", "--format", "text"],
    ],
)
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert "usage: messages" in err


def test_help_and_version_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "normalize" in out and "exit codes" in out
    code, out, _ = run(capsys, "normalize", "--help")
    for flag in ("--from", "--example", "--strict", "--jobs", "--format", "--merge"):
        assert flag in out
    code, out, _ = run(capsys, "--version")
    assert (code, out) == (0, f"messages {__version__}\n")


def test_a_missing_file_is_a_data_error_and_the_others_still_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.jsonl"
    code, out, err = run(capsys, "normalize", str(missing), str(EXAMPLE))
    assert code == 1
    assert err == f"messages: {missing}: No such file or directory\n"
    assert out.splitlines() == expected_flat("claude_code", EXAMPLE)


def test_empty_files_are_empty_streams(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    blank = tmp_path / "blank.jsonl"
    blank.write_bytes(b"\n  \n\r\n")
    for command in (["normalize"], ["convert", "--to", "codex"], ["stats", "--json"]):
        code, out, err = run(capsys, *command, str(empty), str(blank))
        assert (code, err) == (0, "")
    assert json.loads(out)["sessions"] == []


def test_binary_files_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "noise.bin"
    path.write_bytes(bytes(b for b in range(256) if b != 10) * 8 + b"\n\xff\xfe\x00\n")
    code, out, err = run(capsys, "normalize", str(path))
    assert (code, out) == (1, "") and "cannot tell the format" in err
    code, out, err = run(capsys, "normalize", "--from", "claude_code", str(path))
    assert (code, out) == (1, "")
    assert [line.split(": ")[1] for line in err.splitlines()] == [f"{path}:1", f"{path}:2"]


def good_and_bad_lines(tmp_path: Path) -> tuple[Path, list[str], list[int]]:
    """The example with garbage between its lines, a 10 MB good line, a 10 MB bad line and a
    truncated last line; returns the path, the good lines and the bad line numbers."""
    good = EXAMPLE.read_text("utf-8").splitlines()
    huge_text = "x" * (10 * 1024 * 1024)
    huge = json.dumps({"type": "user", "message": {"role": "user", "content": huge_text}})
    lines = [
        good[0],
        "garbage",
        good[1],
        "\x00\x01 binary",
        huge,
        good[2],
        '{"type": "assistant", "message": {"content": [{"type": "text", "text": 5}]}}',
        "{" + "y" * (10 * 1024 * 1024),
        *good[3:],
        good[7][:40],  # cut off mid-line, no final newline
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    good_lines = [good[0], good[1], huge, *good[2:]]
    return path, good_lines, [2, 4, 7, 8, len(lines)]


def test_every_good_line_comes_out_and_each_bad_one_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, good, bad = good_and_bad_lines(tmp_path)
    code, out, err = run(capsys, "normalize", str(path))
    assert code == 1
    clean = tmp_path / "clean.jsonl"
    clean.write_text("\n".join(good) + "\n")
    assert out.splitlines() == expected_flat("claude_code", clean)
    reported = [int(line.split(": ")[1].rsplit(":", 1)[1]) for line in err.splitlines()]
    assert reported == bad
    assert all(line.startswith(f"messages: {path}:") for line in err.splitlines())
    assert "expected a string, found an integer" in err.splitlines()[2]


def test_strict_stops_at_the_first_bad_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _, _ = good_and_bad_lines(tmp_path)
    code, out, err = run(
        capsys, "normalize", "--strict", "--format", "text", str(path), str(EXAMPLE)
    )
    assert code == 1
    assert out.splitlines() == [out.splitlines()[0]]  # only the init line, before line 2
    assert out.startswith("[init]")
    assert err == f"messages: {path}:2: $: invalid JSON (expecting value at character 0)\n"


def test_a_line_longer_than_the_limit_is_cut_and_skipped() -> None:
    from messages.cli.io import read_lines

    lines = list(read_lines(io.BytesIO(b"short\n" + b"z" * 100 + b"\nnext\nlast"), max_line=10))
    assert lines == [b"short\n", b"z" * 11, b"next\n", b"last"]


# -- progress, pipes, processes --------------------------------------------------------------


def test_no_progress_when_stderr_is_not_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "many.jsonl"
    path.write_text(EXAMPLE.read_text("utf-8") * 300)
    code, _, err = run(capsys, "normalize", str(path))
    assert (code, err) == (0, "")


def test_progress_redraws_a_line_count_at_most_every_interval() -> None:
    from messages.cli.io import Progress
    from messages.cli.io import Reporter

    now = [0.0]
    stream = io.StringIO()
    progress = Progress(stream, interval=1.0, clock=lambda: now[0])
    progress.add(1024)
    assert stream.getvalue() == ""
    now[0] = 1.5
    progress.add(1024, files=1)
    assert stream.getvalue() == "\rmessages: 2,048 lines, 1 files"
    Reporter(stream, progress).error("a.jsonl", 3, "bad")
    assert stream.getvalue().endswith("\r" + " " * 30 + "\rmessages: a.jsonl:3: bad\n")
    progress.clear()  # nothing shown: nothing to erase
    assert stream.getvalue().endswith("bad\n")


def test_python_dash_m_runs_the_command() -> None:
    done = python_m("normalize", "--example", "--format", "text")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[1] == (
        "[text/user] Which TODO comments are still left in src/? Group them by file."
    )


def test_bad_data_and_usage_exit_codes_from_a_process(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"v":1,"kind":"text","text":"ok","role":"user"}\nnot json\n')
    done = python_m("normalize", "--format", "text", str(bad))
    assert (done.returncode, done.stdout) == (1, "[text/user] ok\n")
    assert done.stderr == f"messages: {bad}:2: $: invalid JSON (expecting value at character 0)\n"
    assert python_m("normalize", "--from", "nope").returncode == 2


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_closed_pipe_ends_quietly(tmp_path: Path, jobs: str) -> None:
    big = tmp_path / "big.jsonl"
    big.write_text(EXAMPLE.read_text("utf-8") * 300)
    env = {**os.environ, "PYTHONPATH": SRC}
    proc = subprocess.Popen(
        [sys.executable, "-m", "messages", "normalize", "--jobs", jobs, str(big), str(big)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=120) == 0
    assert json.loads(first)["kind"] == "init"
    assert err == b""


def test_jobs_keep_the_input_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(p) for _, p in local_files()]
    mixed, _, _ = good_and_bad_lines(tmp_path)
    files.insert(3, str(mixed))
    files.insert(5, str(tmp_path / "missing.jsonl"))
    for argv in (["normalize", "--format", "text"], ["convert", "--to", "native"], ["stats"]):
        sequential = run(capsys, *argv, *files)
        parallel = run(capsys, *argv, "--jobs", "3", *files)
        assert parallel == sequential
        assert sequential[0] == 1


def test_jobs_read_stdin_in_its_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    native = EXAMPLES / "conversation.jsonl"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(native.read_bytes())))
    code, out, _ = run(capsys, "normalize", "-j", "2", str(EXAMPLE), "-", str(EXAMPLE))
    one = expected_flat("claude_code", EXAMPLE)
    assert code == 0
    assert out.splitlines() == one + expected_flat("native", native) + one


def test_strict_with_jobs_stops_after_the_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _, _ = good_and_bad_lines(tmp_path)
    code, out, err = run(
        capsys, "normalize", "--strict", "-j", "2", str(EXAMPLE), str(path), str(EXAMPLE)
    )
    assert code == 1
    assert len(out.splitlines()) == 9  # the first example, then the bad file's first line
    assert err.count("messages: ") == 1


def test_normalize_keeps_memory_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """More input bytes than the bound: the file must be streamed, never held whole."""
    path = tmp_path / "large.jsonl"
    pad = "x" * 5000
    with path.open("w", encoding="utf-8") as fp:
        for i in range(12_000):
            message = {"id": f"msg_{i // 3}", "content": [{"type": "text", "text": f"{i} {pad}"}]}
            fp.write(json.dumps({"type": "assistant", "message": message, "session_id": "s"}))
            fp.write("\n")
    assert path.stat().st_size > 60_000_000
    with open(os.devnull, "w", encoding="utf-8") as devnull:
        monkeypatch.setattr(sys, "stdout", devnull)
        tracemalloc.start()
        try:
            code = main(["normalize", str(path)])
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert code == 0
    assert peak < 50 * 1024 * 1024


def test_tool_use_input_survives_normalize(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "normalize", "--example")
    uses = [m for m in read_jsonl(out.splitlines()) if isinstance(m, ToolUseMessage)]
    assert code == 0
    assert [u.input["command"] for u in uses] == ["grep -rn 'TODO' src/ --include='*.py'"]


# -- the adapter registry --------------------------------------------------------------------


def test_the_registry_names_every_format() -> None:
    from messages import adapters

    assert (*adapters.CLI_NAMES, "native") == adapters.NAMES
    assert set(adapters.CLI_NAMES) == set(ADAPTER_FIXTURES)
    for name in adapters.NAMES:
        module = adapters.get(name)
        assert name == module.NAME
        for verb in ("decode", "encode", "detect", "iter_decode", "iter_encode", "merge"):
            assert callable(getattr(module, verb)), (name, verb)


def test_an_unknown_name_lists_the_known_ones() -> None:
    from messages.adapters import UnknownFormatError

    with pytest.raises(
        UnknownFormatError, match=r"unknown format 'claude'; expected one of: claude_code, codex"
    ):
        get("claude")
    with pytest.raises(LookupError):
        get("")


@pytest.mark.parametrize(("name", "path"), local_files(), ids=lambda x: getattr(x, "name", x))
def test_detect_names_the_adapter_of_each_recognised_line(name: str, path: Path) -> None:
    from messages.adapters import detect

    seen = set()
    for line in path.read_text("utf-8").splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        seen.add(detect(obj))
    owner = RECORDS_OF.get(name, name)  # Kilo's rows are OpenCode's records
    assert owner in seen
    # a Droid message entry has pi's envelope, and pi is asked first (SAME_SHAPE, contract)
    assert seen <= {owner, None, *(("pi",) if name == "droid" else ())}


def test_detect_knows_native_lines_and_nothing_else() -> None:
    from messages.adapters import detect

    assert detect({"v": 1, "kind": "text", "text": "hi"}) == "native"
    assert detect({"v": 2, "kind": "text", "text": "hi"}) == "native"
    assert detect({"v": 3, "kind": "text"}) is None
    for value in ({}, [], "text", 1, None, {"type": 5}):
        assert detect(value) is None


def test_importing_the_registry_loads_no_adapter() -> None:
    code = (
        "import sys, messages.adapters as a; "
        "print(sorted(m for m in sys.modules if m.startswith('messages.adapters.')))"
    )
    env = {**os.environ, "PYTHONPATH": SRC}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.strip() == "[]"


# -- the example scripts ---------------------------------------------------------------------


def script(name: str, *argv: str) -> str:
    env = {**os.environ, "PYTHONPATH": SRC}
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / name), *argv],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert done.stderr == ""
    return done.stdout


def test_the_tool_calls_script_prints_each_shell_command_once() -> None:
    assert script("tool_calls.py") == "grep -rn 'TODO' src/ --include='*.py'\n"
    codex = script("tool_calls.py", str(local("codex", "exec.jsonl")))
    assert codex == "bash -lc 'pytest -q'\nbash -lc 'pytest -q'\n"  # two runs, each reported twice


def test_the_cost_script_adds_up_runs() -> None:
    assert script("cost.py") == "claude_code.jsonl: $0.0345 (39,330 tokens)\n"
    both = script("cost.py", str(EXAMPLE), str(local("opencode", "run-read-edit.jsonl")))
    assert both.splitlines()[-1] == "total: $0.0465 (88,319 tokens)"


def test_the_command_writes_all_it_says_before_it_ends(capsys: pytest.CaptureFixture[str]) -> None:
    """The ``messages`` command ends its process as soon as its output is flushed
    (``messages.cli.run``): every byte ``main`` writes still reaches the pipe, on stdout
    and stderr, and the exit code is ``main``'s, a data error's 1 included."""
    argv = ("normalize", "--example", "--format", "jsonl")
    code, out, err = run(capsys, *argv)
    done = python_m(*argv)
    assert (done.returncode, done.stdout, done.stderr) == (code, out, err)
    assert len(done.stdout) > 1000
    bad = python_m("stats", "--from", "claude_code", "-", input='{"type": "user"\nnot json\n')
    assert bad.returncode == 1
    assert "messages: <stdin>:1:" in bad.stderr
    assert bad.stdout.startswith("session")


@pytest.mark.skipif(os.name != "posix", reason="closes a descriptor before the command starts")
@pytest.mark.parametrize(
    ("closed", "code"), [((1,), 2), ((2,), 0), ((1, 2), 2)], ids=["stdout", "stderr", "both"]
)
def test_a_closed_standard_stream_is_no_crash(closed: tuple[int, ...], code: int) -> None:
    """Started with standard output closed (``>&-``) the command says so and ends with 2,
    reading nothing; with standard error closed (``2>&-``) it runs, and says nothing."""
    session = ROOT / "tests" / "fixtures" / "sessions" / "claude_subagents"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}

    def close() -> None:
        for fd in closed:
            os.close(fd)

    done = subprocess.run(
        [sys.executable, "-m", "messages", "stats", "--no-cache", str(session)],
        stdout=None if 1 in closed else subprocess.PIPE,
        stderr=None if 2 in closed else subprocess.PIPE,
        preexec_fn=close,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == code
    if 2 not in closed:
        assert done.stderr == b"messages: standard output is closed: nowhere to write\n"
    if 1 not in closed:
        assert b"s2" in done.stdout

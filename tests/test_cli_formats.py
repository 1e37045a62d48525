"""The command on agent logs as they really are: Gemini CLI's JSON document, Copilot's calls,
detection that tells the truth, conversions that write only the target's lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import json_equal
from messages.adapters import NAMES
from messages.adapters import READ_ONLY
from messages.adapters import get
from support.adapter_files import local
from test_cli import run

RUN_DOC = local("gemini_cli", "output-json-run.json")
ERROR_DOC = local("gemini_cli", "output-json-error.json")
NOISY_DOC = local("gemini_cli", "output-json-noisy.txt")
TASK = local("copilot", "run-task-complete.jsonl")
CODEX = local("codex", "exec.jsonl")
CLAUDE = local("claude_code", "stream.jsonl")
TRANSCRIPT = local("claude_code", "transcript.jsonl")
OPENCODE = local("opencode", "run-read-edit.jsonl")


# -- 1. Gemini CLI --output-format json ------------------------------------------------------


@pytest.mark.parametrize("source", [[], ["--from", "gemini_cli"]], ids=["detected", "named"])
def test_a_gemini_json_document_is_read_by_every_command(
    source: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "normalize", "--format", "text", *source, str(RUN_DOC))
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == (
        '[text/assistant] `notes.txt` has 3 lines; the last one reads "ship it".'
    )
    assert len(out.splitlines()) == 4  # the answer, a result per model, the run
    code, out, err = run(capsys, "convert", *source, "--to", "gemini_cli", str(RUN_DOC))
    assert (code, err) == (0, "")
    assert json_equal(json.loads(out), json.loads(RUN_DOC.read_text("utf-8")))


def test_stats_of_a_gemini_json_document(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "stats", "--json", str(RUN_DOC), str(ERROR_DOC))
    assert (code, err) == (0, "")
    run_, failed = json.loads(out)["sessions"]
    assert run_["session_id"] == "9c2f4e71-5a0d-4b8e-a613-7d1e0b94c2a8"
    assert run_["tool_calls"] == {"read_file": 1, "run_shell_command": 1}
    assert run_["tool_errors"] == 1
    assert run_["turns"] == 3  # API requests over both models
    assert run_["tokens"] == {
        "input": (2210 - 0) + (14877 - 9120),
        "output": 31 + 56 + 64 + 246,
        "cache_read": 9120,
        "cache_write": None,
        "reasoning": 56 + 246,
        "cache_write_1h": None,
        "web_searches": None,
        "web_fetches": None,
    }
    assert (failed["errors"], failed["tool_calls"], failed["tokens"]["input"]) == (1, {}, 9034)


def test_noise_around_a_document_is_reported_by_line_and_jobs_agree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, alone, err = run(capsys, "normalize", str(NOISY_DOC))
    assert code == 1
    lines = len(NOISY_DOC.read_text("utf-8").splitlines())
    assert [x.split(": ")[1] for x in err.splitlines()] == [
        f"{NOISY_DOC}:1",
        f"{NOISY_DOC}:{lines}",
    ]
    assert len(alone.splitlines()) == 4
    code, both, _ = run(capsys, "normalize", "--jobs", "2", str(NOISY_DOC), str(RUN_DOC))
    assert code == 1 and both.splitlines()[:4] == alone.splitlines()
    assert len(both.splitlines()) == 8


def test_a_broken_document_is_one_error_at_its_file_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = RUN_DOC.read_text("utf-8").splitlines()
    lines[20] += ","  # a trailing comma: the brackets still balance
    path = tmp_path / "broken.json"
    path.write_text("\n".join(["Loaded cached credentials.", *lines]) + "\n")
    code, out, err = run(capsys, "normalize", "--from", "gemini_cli", str(path))
    assert (code, out) == (1, "")
    first, second = err.splitlines()
    assert first.startswith(f"messages: {path}:1: ")
    assert second.startswith(f"messages: {path}:2: $: invalid JSON (")
    assert "at line 22, column" in second  # the file's line, not the document's
    assert "line 1 column" not in err


# -- 2. Copilot: a call announced only by its execution event -------------------------------


def test_a_copilot_call_seen_only_at_its_execution_reaches_every_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "normalize", "--format", "text", str(TASK))
    assert (code, err) == (0, "")
    kinds = [line.split("]")[0] + "]" for line in out.splitlines()]
    assert kinds.index("[tool_use/assistant]") < kinds.index("[tool_result/tool]")
    code, out, _ = run(capsys, "stats", "--json", str(TASK))
    (s,) = json.loads(out)["sessions"]
    assert s["tool_calls"] == {"task_complete": 1}
    for target in ("codex", "opencode", "gemini_cli", "claude_code", "acp"):
        code, out, err = run(capsys, "convert", "--lossy", "drop", "--to", target, str(TASK))
        assert (code, err) == (0, ""), target
        assert '"task_complete"' in out, target
        for key in ('"tool":""', '"name":""', '"tool_name":""', '"title":""'):
            assert key not in out, target  # no nameless call


# -- 3. detection that tells the truth -------------------------------------------------------


@pytest.mark.parametrize(
    ("named", "path", "looks"),
    [("claude_code", CODEX, "codex"), ("opencode", CLAUDE, "claude_code")],
)
@pytest.mark.parametrize("command", [["normalize"], ["stats"], ["convert", "--to", "native"]])
def test_a_named_format_the_input_is_not_is_an_error_naming_the_right_one(
    named: str, path: Path, looks: str, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *command, "--from", named, str(path))
    assert code == 1
    assert "session" not in out.splitlines()[1:2]  # no row of zeros
    assert err.startswith(f"messages: {path}: not {named}: ")
    assert f"are {looks} lines" in err and f"pass --from {looks}" in err
    code, _, err = run(capsys, *command, str(path))  # detection reads it right
    unpriced = "messages: stats: no estimated cost for the usage of"  # Codex exec names none
    assert code == 0
    assert all(line.startswith(unpriced) for line in err.splitlines()), err


def test_an_input_that_changes_format_is_reported_where_it_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    codex = CODEX.read_text("utf-8").splitlines()
    opencode = OPENCODE.read_text("utf-8").splitlines()
    path = tmp_path / "switch.jsonl"
    path.write_text("\n".join(codex + opencode) + "\n")
    code, _, err = run(capsys, "normalize", str(path))
    assert code == 1
    assert err.splitlines() == [
        f"messages: {path}:{len(codex) + 1}: an opencode line in codex input:"
        " the format changes here",
        f"messages: {path}: {len(opencode)} records are opencode lines, not codex",
    ]


def test_verbose_says_how_each_input_is_read(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "stats", "--verbose", "--jobs", "2", str(CODEX), str(RUN_DOC))
    assert code == 0
    assert err.splitlines() == [
        f"messages: {CODEX}: read as codex (detected)",
        f"messages: {RUN_DOC}: read as gemini_cli (detected)",
        # Codex's exec --json output names no model, so its usage cannot be priced
        "messages: stats: no estimated cost for the usage of (a model the log does not name):"
        " no price in the genai-prices table (shown as -)",
    ]
    code, _, err = run(capsys, "normalize", "-v", "--from", "codex", str(CODEX))
    assert err == f"messages: {CODEX}: read as codex (--from)\n"


def test_the_cannot_tell_hint_fits_what_was_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prose = tmp_path / "notes.txt"
    prose.write_text("not\nJSON\nat all\n")
    code, _, err = run(capsys, "normalize", str(prose))
    assert code == 1 and err.endswith("cannot tell the format: no JSON in the first 256 lines\n")
    unknown = tmp_path / "unknown.jsonl"
    unknown.write_text('{"hello": "world"}\n')
    code, _, err = run(capsys, "normalize", str(unknown))
    assert code == 1 and "pass --from NAME if you know it" in err


# -- 4. conversions write only the target's own lines -----------------------------------------


def _lines(out: str) -> list[Any]:
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize(
    "target",
    [
        n
        for n in NAMES
        if n not in ("claude_code", "native", *READ_ONLY)
        and not getattr(get(n), "READ_ONLY", False)
    ],
)
def test_claude_only_lines_follow_the_policy_for_every_target(
    target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "convert", "--to", target, str(TRANSCRIPT))
    assert code == 1
    # the transcript's own records are typed session messages: refused like its system events
    lines = err.splitlines()
    assert [line for line in lines if f"{TRANSCRIPT}:1: " in line and "title message" in line]
    assert [line for line in lines if f"{TRANSCRIPT}:3: " in line and "file_snapshot" in line]
    assert all(get(target).detect(x) for x in _lines(out))
    code, dropped, err = run(capsys, "convert", "--lossy", "drop", "--to", target, str(TRANSCRIPT))
    assert (code, err) == (0, "")
    assert all(get(target).detect(x) for x in _lines(dropped))
    assert "List the project files" not in dropped and "trackedFileBackups" not in dropped
    code, texted, err = run(capsys, "convert", "--lossy", "text", "--to", target, str(TRANSCRIPT))
    assert (code, err) == (0, "")
    assert all(get(target).detect(x) for x in _lines(texted))
    assert "trackedFileBackups" not in texted  # a session record has no text to carry


def test_other_clis_events_are_not_wrapped_as_claude_stream_events(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for path in (CODEX, TASK, OPENCODE):
        code, out, _ = run(capsys, "convert", "--lossy", "drop", "--to", "claude_code", str(path))
        assert code == 0
        found = _lines(out)
        assert all(get("claude_code").detect(x) for x in found)
        assert not [x for x in found if x["type"] in ("stream_event", "turn.started")]


def test_claude_to_opencode_attaches_a_result_to_its_call_however_far(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    call = {
        "type": "assistant",
        "session_id": "s",
        "message": {
            "id": "msg_1",
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"c": 1}}],
        },
    }
    noise = [
        {"type": "rate_limit_event", "session_id": "s", "rate_limit_info": {}},
        {"type": "assistant", "message": {"id": "m2", "content": [{"type": "text", "text": "…"}]}},
    ] * 20
    result = {
        "type": "user",
        "session_id": "s",
        "message": {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}],
        },
    }
    path = tmp_path / "far.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in [call, *noise, result]) + "\n")
    code, out, _ = run(capsys, "convert", "--lossy", "drop", "--to", "opencode", str(path))
    assert code == 0
    tools = [x["part"] for x in _lines(out) if x["type"] == "tool_use"]
    assert [(t["callID"], t["tool"], t["state"]) for t in tools] == [
        ("toolu_1", "Bash", {"status": "completed", "input": {"c": 1}, "output": "ok"})
    ]

"""The ``messages`` command on the bundled example."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from messages import TextMessage
from messages.cli import main
from messages.serialize import read_jsonl


def test_normalize_example_writes_the_flat_view(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["normalize", "--example"]) == 0
    out = capsys.readouterr().out.splitlines()
    kinds = [m.kind for m in read_jsonl(out)]
    assert kinds == [
        "init",
        "text",
        "thinking",
        "text",
        "tool_use",
        "tool_result",
        "text",
        "result",
    ]
    assert TextMessage(
        "How many Python files are in this repo?",
        role="user",
        session_id="s-1",
        timestamp="2026-11-01T10:00:01Z",
    ) in list(read_jsonl(out))


def test_normalize_a_file_and_report_bad_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text('{"v":1,"kind":"user","content":"hi"}\n')
    assert main(["normalize", "--format", "text", str(good)]) == 0
    assert capsys.readouterr().out == "[text/user] hi\n"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    assert main(["normalize", str(bad)]) == 1
    assert "line 1" in capsys.readouterr().err


def test_python_dash_m_runs_the_command() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "messages", "normalize", "--example", "--format", "text"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.splitlines()[1] == "[text/user] How many Python files are in this repo?"

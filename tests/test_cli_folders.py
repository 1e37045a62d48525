"""Folder arguments (every agent log under them) and the default log folders of ``stats``."""

from __future__ import annotations

import importlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import EXAMPLES
from messages.cli.io import default_folders
from messages.cli.io import expand
from support.adapter_files import local
from test_cli import run

cli_main = importlib.import_module("messages.cli.main")  # the module, not the function
CLAUDE = EXAMPLES / "claude_code.jsonl"
ROLLOUT = local("codex", "rollout.jsonl")


def _tree(root: Path) -> Path:
    """A ~/.claude/projects-like tree, with files that are not logs beside the logs."""
    project = root / "projects" / "-home-ana-inventory-service"
    project.mkdir(parents=True)
    shutil.copy(CLAUDE, project / "3b1f6a52.jsonl")
    (project / "notes.txt").write_text("not a log\n")
    (project / "settings.json").write_text('{"theme": "dark"}\n')
    nested = root / "projects" / "-srv-app" / "sub"
    nested.mkdir(parents=True)
    shutil.copy(local("cli", "stats-claude.jsonl"), nested / "run.jsonl")
    hidden = root / "projects" / ".cache"
    hidden.mkdir()
    shutil.copy(CLAUDE, hidden / "copy.jsonl")
    return root / "projects"


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, err = run(capsys, "stats", "--json", *argv)
    assert code == 0
    # the one file that is no agent log (settings.json) is said to be skipped, and why
    assert all(": skipped: not an agent log (" in line for line in err.splitlines()), err
    doc: dict[str, Any] = json.loads(out)
    return doc


def test_a_folder_reads_every_log_under_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    projects = _tree(tmp_path)
    assert [Path(i.path).name for i in expand(str(projects))] == [
        "3b1f6a52.jsonl",
        "settings.json",
        "run.jsonl",
    ]
    doc = _json(capsys, str(projects))
    files = _json(
        capsys,
        str(projects / "-home-ana-inventory-service" / "3b1f6a52.jsonl"),
        str(projects / "-srv-app" / "sub" / "run.jsonl"),
    )
    assert doc["sessions"] == files["sessions"]
    assert [s["session_id"] for s in doc["sessions"]][1:] == ["stats-a", "stats-b"]
    # settings.json is not a log: skipped, and said so
    code, _, err = run(capsys, "stats", str(projects))
    assert code == 0
    assert "settings.json: skipped: not an agent log" in err


def test_a_named_file_in_no_known_format_is_still_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text('{"theme": "dark"}\n')
    code, _, err = run(capsys, "stats", str(settings))
    assert code == 1 and "cannot tell the format" in err


def test_every_command_takes_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    projects = _tree(tmp_path)
    code, out, _ = run(capsys, "normalize", "--format", "text", str(projects))
    assert code == 0 and "[text/user] Which TODO comments" in out and "stats-a" in out


def test_an_empty_folder_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "stats", str(tmp_path))
    assert code == 2 and "no agent log" in err


def test_default_folders(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".claude" / "projects").mkdir(parents=True)
    (home / ".codex" / "sessions").mkdir(parents=True)
    assert default_folders({"HOME": str(home)}) == [
        str(home / ".claude" / "projects"),
        str(home / ".codex" / "sessions"),
    ]
    one, two = tmp_path / "one", tmp_path / "two"
    (one / "projects").mkdir(parents=True)
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": f"{one},{two}", "CODEX_HOME": str(tmp_path)}
    assert default_folders(env) == [str(one / "projects")]  # two and $CODEX_HOME/sessions: absent


def test_stats_on_a_terminal_with_no_file_reads_the_default_folders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.setattr(cli_main, "_stdin_is_terminal", lambda: True)
    code, _, err = run(capsys, "stats")
    assert code == 2 and "no agent log folder found" in err
    _tree(tmp_path / ".claude")
    sessions = tmp_path / ".codex" / "sessions" / "2026" / "01" / "15"
    sessions.mkdir(parents=True)
    rollout = sessions / "rollout-2026-01-15T10-00-00-019a4f2e-5c1b-7d20-9e8a-3b6c0d1f2a47.jsonl"
    shutil.copy(ROLLOUT, rollout)  # what Codex itself keeps there
    doc = _json(capsys)
    assert doc["total"]["formats"] == ["claude_code", "codex"]
    assert doc["total"]["inputs"][-1] == str(rollout)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "elsewhere"))
    total = _json(capsys)["total"]
    assert total["formats"] == ["codex"]
    assert total["tokens"]["input"] == 3676 and total["tokens"]["cache_read"] == 11224


def test_worker_processes_give_the_same_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    projects = _tree(tmp_path)
    for by in ("session", "day"):
        alone = _json(capsys, "--by", by, "--tz", "UTC", str(projects))
        assert _json(capsys, "--jobs", "2", "--by", by, "--tz", "UTC", str(projects)) == alone


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--tz", "Mars/Olympus"], "unknown time zone 'Mars/Olympus'"),
        (["--since", "15.01.2026"], "expected a day as YYYY-MM-DD"),
        (["--by", "fortnight"], "invalid choice: 'fortnight'"),
        (["--cost", "cheap"], "invalid choice: 'cheap'"),
    ],
)
def test_bad_report_flags_are_usage_errors(
    flags: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "stats", "--example", *flags)
    assert code == 2 and message in err


def test_default_folders_of_pi_and_cline(tmp_path: Path) -> None:
    home = tmp_path / "home"
    pi = home / ".pi" / "agent" / "sessions"
    cline = home / ".cline" / "data" / "sessions"
    roo = home / ".config" / "Code" / "User" / "globalStorage" / "rooveterinaryinc.roo-cline"
    for folder in (pi, cline, roo / "tasks"):
        folder.mkdir(parents=True)
    assert default_folders({"HOME": str(home)}) == [str(pi), str(cline), str(roo / "tasks")]
    moved = tmp_path / "pi-home"
    (moved / "sessions").mkdir(parents=True)
    data = tmp_path / "cline-data"
    (data / "sessions").mkdir(parents=True)
    env = {"HOME": str(home), "PI_CODING_AGENT_DIR": str(moved), "CLINE_DATA_DIR": str(data)}
    assert default_folders(env) == [
        str(moved / "sessions"),
        str(data / "sessions"),
        str(roo / "tasks"),
    ]
    env["CLINE_SESSION_DATA_DIR"] = str(tmp_path / "nowhere")  # set but absent: not read
    assert str(data / "sessions") not in default_folders(env)


def test_a_folder_of_files_it_cannot_read_says_so_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's finding: such a run printed an empty table and exited 0, without a word."""
    (tmp_path / "settings.json").write_text('{"theme": "dark"}\n')
    (tmp_path / "notes.jsonl").write_text("not json\n")
    (tmp_path / "empty.jsonl").write_text("")
    for command in (["stats"], ["normalize"], ["convert", "--to", "native"]):
        code, _, err = run(capsys, *command, str(tmp_path))
        lines = err.splitlines()
        assert code == 1, (command, err)
        unknown = "not an agent log (no record in the first 256 is one a known format writes)"
        assert any(x.endswith(f"settings.json: skipped: {unknown}") for x in lines)
        assert any("notes.jsonl: skipped: not an agent log (no JSON" in x for x in lines)
        assert any(x.endswith("empty.jsonl: skipped: empty") for x in lines)
        assert lines[-1] == (
            "messages: nothing read: none of the 3 files found is an agent log in a known format"
        )
    # one readable file among them: the others are still named, and the run succeeds
    shutil.copy(local("qwen_code", "chat-session.jsonl"), tmp_path / "chat.jsonl")
    code, out, err = run(capsys, "stats", "--json", str(tmp_path))
    assert code == 0 and err.count(": skipped: ") == 3
    assert json.loads(out)["sessions"][0]["formats"] == ["qwen_code"]


def test_the_tests_clear_every_folder_variable_a_session_hook_reads() -> None:
    """``support.folders`` clears each variable an agent's hook reads its folders from, so a
    test of the default folders sees only the folders it sets, whatever the machine has."""
    import re

    import messages.adapters
    from support.folders import AGENT_FOLDER_VARIABLES

    src = Path(messages.adapters.__file__).parent  # the package under test, installed or not
    read: set[str] = set()
    for path in [src / "_sessions.py", *src.glob("*/session_hook.py")]:
        text = path.read_text("utf-8")
        read |= set(re.findall(r'"([A-Z][A-Z_]*(?:HOME|DIR|ROOT|PATH|DATA))"', text))
    read.discard("HOME")
    assert read, "no folder variable found: the pattern no longer matches the hooks"
    assert read <= set(AGENT_FOLDER_VARIABLES), read - set(AGENT_FOLDER_VARIABLES)

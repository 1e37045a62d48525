"""Kilo's ``kilo.db``: OpenCode's tables, read as Kilo's sessions.

The fixture (``tests/fixtures/kilo/kilo.sql``) holds the rows of the OpenCode database
fixture: ccusage 20's Kilo loader reads the same ``message`` table (``id``, ``session_id``,
``data``) from ``kilo.db``. No real capture is at hand.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from messages.adapters import detect
from messages.adapters import kilo
from messages.adapters import opencode_storage
from messages.cli.io import default_folders
from messages.cli.main import main
from messages.errors import DecodeError
from messages.sessions import load
from support.ccusage import ccusage_run
from support.folders import only_these_folders

HERE = ROOT / "tests" / "fixtures" / "kilo"
SESSION = "ses_50aa01b2c3ffRt5Yu7Io9Pa1Sd"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A Kilo data folder with ``kilo.db`` built from ``kilo.sql``."""
    (tmp_path / "kilo").mkdir()
    with sqlite3.connect(tmp_path / "kilo" / "kilo.db") as db:
        db.executescript((HERE / "kilo.sql").read_text("utf-8"))
    db.close()
    return tmp_path / "kilo"


def test_rows_round_trip_and_are_claimed_as_opencodes_records(folder: Path) -> None:
    rows = [json.loads(line) for line in (HERE / "rows.jsonl").read_text("utf-8").splitlines()]
    assert [kilo.encode(m) for m in kilo.read_database(folder / "kilo.db")] == rows
    for row in rows:
        assert kilo.encode(kilo.decode(row)) == row
        assert not kilo.detect(row) and detect(row) == "opencode_storage"


def test_the_database_is_kilos_by_its_name(folder: Path, tmp_path: Path) -> None:
    assert kilo.is_database(folder / "kilo.db")
    assert not opencode_storage.is_database(folder / "kilo.db")
    other = tmp_path / "opencode.db"
    shutil.copy(folder / "kilo.db", other)
    assert opencode_storage.is_database(other) and not kilo.is_database(other)


def test_errors_name_kilo() -> None:
    with pytest.raises(DecodeError) as info:
        kilo.decode({"table": "message", "id": "m", "session_id": "s", "data": {"role": 1}})
    assert info.value.source == "kilo"


def test_a_session_is_read_as_opencodes_are(folder: Path) -> None:
    (s,) = list(load(folder))
    assert (s.agent, s.id, s.title, s.prompts) == ("kilo", SESSION, "Summarise the changelog", 1)
    assert [m.kind for m in s.messages] == ["user", "assistant", "assistant"]
    assert s.usage.total.input_tokens == 4700


def test_default_folders_follow_kilos_variables(folder: Path) -> None:
    assert default_folders({"HOME": "/nowhere", "KILO_DATA_DIR": str(folder)}) == [str(folder)]
    assert default_folders({"HOME": "/nowhere", "XDG_DATA_HOME": str(folder.parent)}) == [
        str(folder)
    ]


# ccusage 20.0.24 (`KILO_DATA_DIR=<folder> ccusage kilo session --json --offline`): session ->
# (input, output, cache read, cache write, cost in USD, from the rows' own cost).
CCUSAGE_SESSION = (4700, 405, 3072, 0, 0.00787)


def _ours(folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Any, ...]:
    assert main(["stats", "--json", str(folder)]) == 0
    (s,) = json.loads(capsys.readouterr().out)["sessions"]
    assert s["session_id"] == SESSION and s["formats"] == ["kilo"]
    t = s["tokens"]
    return (t["input"], t["output"], t["cache_read"], t["cache_write"], s["cost_usd"])


def test_stats_agree_with_ccusage_20(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ours = _ours(folder, capsys)
    assert ours[:4] == CCUSAGE_SESSION[:4]
    assert ours[4] == pytest.approx(CCUSAGE_SESSION[4], abs=1e-12)


def test_stats_agree_with_ccusage_run_live(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = ccusage_run("kilo", {"KILO_DATA_DIR": str(folder)}, tmp_path)
    (theirs,) = json.loads(run.stdout)["sessions"]
    ours = _ours(folder, capsys)
    assert theirs["sessionId"] == SESSION
    assert ours[:4] == (
        theirs["inputTokens"],
        theirs["outputTokens"],
        theirs["cacheReadTokens"],
        theirs["cacheCreationTokens"],
    )
    assert ours[4] == pytest.approx(theirs["totalCost"], abs=1e-12)


def test_stats_with_no_argument_reads_kilos_folder(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    only_these_folders(monkeypatch, folder.parent / "home", KILO_DATA_DIR=str(folder))
    assert main(["stats", "--json"]) == 0
    (s,) = json.loads(capsys.readouterr().out)["sessions"]
    assert s["session_id"] == SESSION


def test_convert_to_kilo_is_refused(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", "--to", "kilo", str(folder / "kilo.db")]) == 2
    assert "--to kilo: kilo is an agent's own store" in capsys.readouterr().err

"""ZCode's SQLite history (``~/.zcode/cli/db/db.sqlite``), read as its rows.

The fixture (``tests/fixtures/zcode/db.sql``) is written from public facts: the tables and
columns ccusage 20.0.24 reads (``session``: ``id``, ``directory``, ``version``;
``model_usage``: ``id``, ``session_id``, ``started_at``, ``model_id``, ``provider_id``,
``status``, the token columns) and what they mean, checked by running that release on it.
No real capture is at hand; every column is kept, so a real database that differs fails the
round trip here.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from messages import InitMessage
from messages import ResultMessage
from messages.adapters import zcode
from messages.adapters._stores import open_rows
from messages.adapters._stores import owner
from messages.cli.io import default_folders
from messages.cli.main import main
from messages.errors import DecodeError
from messages.sessions import load
from support.ccusage import TOKENS
from support.ccusage import by_day
from support.ccusage import ccusage_run
from support.folders import only_these_folders

HERE = ROOT / "tests" / "fixtures" / "zcode"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A ZCode home whose ``cli/db/db.sqlite`` is the fixture database."""
    db = tmp_path / "zcode" / "cli" / "db" / "db.sqlite"
    db.parent.mkdir(parents=True)
    with sqlite3.connect(db) as conn:
        conn.executescript((HERE / "db.sql").read_text("utf-8"))
    conn.close()
    return tmp_path / "zcode"


def _db(home: Path) -> Path:
    return home / "cli" / "db" / "db.sqlite"


def test_the_database_is_read_as_its_rows(home: Path, tmp_path: Path) -> None:
    assert owner(str(_db(home))) == "zcode"
    rows = open_rows(str(_db(home)))
    assert rows is not None
    assert rows.read() == (HERE / "db-rows.jsonl").read_bytes()
    other = tmp_path / "other.sqlite"  # the same tables under another name: not ZCode's
    other.write_bytes(_db(home).read_bytes())
    assert owner(str(other)) is None


def _rows() -> list[Any]:
    return [json.loads(line) for line in (HERE / "db-rows.jsonl").read_text("utf-8").splitlines()]


def test_every_row_round_trips() -> None:
    for obj in _rows():
        assert zcode.detect(obj)
        assert zcode.encode(zcode.decode(obj)) == obj


def test_a_completed_call_is_a_usage_the_others_none() -> None:
    found = [zcode.decode(obj) for obj in _rows()]
    assert [type(m) for m in found] == [
        InitMessage,
        ResultMessage,
        ResultMessage,
        ResultMessage,
        InitMessage,
        ResultMessage,
        ResultMessage,
    ]
    first = found[1]
    assert isinstance(first, ResultMessage) and first.usage is not None
    u = first.usage
    # input_tokens 12000 holds the 9000 cache reads
    assert (u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens) == (
        3000,
        800,
        9000,
        0,
    )
    assert (first.model, first.uuid, first.timestamp) == (
        "glm-4.6",
        "zcode:mu_1",
        "2026-01-06T12:00:00.000Z",
    )
    failed, running = found[2], found[6]
    assert isinstance(failed, ResultMessage) and isinstance(running, ResultMessage)
    assert failed.usage is None and running.usage is None
    session = found[0]
    assert isinstance(session, InitMessage)
    assert (session.session_id, session.cwd) == ("ses_01JH2A", "/work/app")


def test_a_count_that_is_not_a_number_is_a_decode_error() -> None:
    given = {"status": "completed", "input_tokens": "9"}
    row = {"store": "zcode", "table": "model_usage", "row": given}
    with pytest.raises(DecodeError, match=r"\$\.row\.input_tokens"):
        zcode.decode(row)


def test_each_session_of_the_database_is_a_session(home: Path) -> None:
    found = {s.id: s for s in load(home / "cli" / "db")}
    assert sorted(found) == ["ses_01JH2A", "ses_01JH2B"]
    a = found["ses_01JH2A"]
    assert (a.agent, a.cwd, a.usage.calls) == ("zcode", "/work/app", 2)
    u = a.usage.total
    assert (u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens) == (
        5000,
        2000,
        20000,
        2000,
    )


def test_default_folders_follow_zcodes_variables(home: Path) -> None:
    folder = str(home / "cli" / "db")
    assert default_folders({"HOME": "/nowhere", "ZCODE_HOME": str(home)}) == [folder]
    assert default_folders({"HOME": "/nowhere", "ZCODE_HOME": f"/nowhere/a,{home}"}) == [folder]


def test_the_home_folder_is_zcode_by_default(home: Path) -> None:
    dotted = home.parent / ".zcode"
    home.rename(dotted)
    assert str(dotted / "cli" / "db") in default_folders({"HOME": str(home.parent)})


def test_convert_to_zcode_writes_back_only_its_own_rows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = str(HERE / "db-rows.jsonl")
    assert main(["convert", "--to", "zcode", rows]) == 0
    assert capsys.readouterr().out == (HERE / "db-rows.jsonl").read_text("utf-8")
    other = str(ROOT / "tests" / "fixtures" / "grok" / "updates.jsonl")
    assert main(["convert", "--to", "zcode", other]) == 1
    assert "ZCode's database is read, not written" in capsys.readouterr().err


# ccusage 20.0.24 (`ZCODE_HOME=<home> ccusage zcode daily --json --offline --timezone UTC`): per
# day (input, output, cache read, cache write). It counts the model_usage rows whose status is
# completed, input_tokens less the cache reads and writes it includes. Its costs ($0.00455 and
# $0.00738) are its own LiteLLM prices of the GLM models; ZCode logs none.
CCUSAGE_DAILY = {
    "2026-01-06": (3000, 800, 9000, 0),
    "2026-01-07": (6000, 1500, 11000, 2000),
}


def _ours(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["stats", "--json", "--by", "day", "--tz", "UTC", *args]) == 0
    out = {}
    for row in json.loads(capsys.readouterr().out)["rows"]:
        t = row["tokens"]
        out[row["day"]] = (t["input"], t["output"], t["cache_read"], t["cache_write"])
    return out


def test_stats_agree_with_ccusage_20(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _ours(capsys, str(_db(home))) == CCUSAGE_DAILY


def test_stats_agree_with_ccusage_run_live(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = ccusage_run("zcode", {"ZCODE_HOME": str(home)}, tmp_path, "daily")
    theirs = by_day(run.stdout, TOKENS)
    assert _ours(capsys, str(_db(home))) == theirs


def test_stats_with_no_argument_reads_zcodes_database(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    only_these_folders(monkeypatch, home.parent / "nobody", ZCODE_HOME=str(home))
    assert _ours(capsys) == CCUSAGE_DAILY

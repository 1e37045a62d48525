"""OpenCode's own store: record files under ``storage/`` and the ``opencode.db`` database.

The fixtures (``tests/fixtures/opencode_storage``) are written from public facts about
OpenCode 1.0-1.2 (its ``Session.Info``, ``MessageV2`` and part types, its SQLite tables) and
from ccusage 20's OpenCode loader and its test fixtures; no real capture is at hand. Every
field the adapter does not model is kept, so a real capture that differs fails the round
trip here instead of losing data.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import ROOT
from messages import AssistantMessage
from messages import InitMessage
from messages import RawBlock
from messages import TextBlock
from messages import TextMessage
from messages import ThinkingBlock
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UserMessage
from messages.adapters import detect
from messages.adapters import opencode_storage as oc
from messages.adapters._sessions import hook
from messages.adapters.opencode_storage import database
from messages.cli.io import default_folders
from messages.cli.main import main
from messages.errors import DecodeError
from messages.sessions import load
from support.ccusage import ccusage_run
from support.folders import only_these_folders

HERE = ROOT / "tests" / "fixtures" / "opencode_storage"
DATA = HERE / "data"
JSON_SESSION = "ses_4f2a1c9e7ffeQ1mZc8Lr0aVt3k"
DB_SESSION = "ses_50aa01b2c3ffRt5Yu7Io9Pa1Sd"


def _documents() -> list[Path]:
    return sorted((DATA / "storage").rglob("*.json"))


def _build_db(path: Path) -> Path:
    with sqlite3.connect(path) as db:
        db.executescript((HERE / "opencode.sql").read_text("utf-8"))
    db.close()
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A data folder: the record files and a database built from ``opencode.sql``."""
    shutil.copytree(DATA, tmp_path / "opencode")
    _build_db(tmp_path / "opencode" / "opencode.db")
    return tmp_path / "opencode"


# -- records ----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", _documents(), ids=lambda p: p.name)
def test_every_record_file_round_trips_exactly(path: Path) -> None:
    obj = json.loads(path.read_text("utf-8"))
    assert oc.detect(obj) and detect(obj) == "opencode_storage"
    assert oc.encode(oc.decode(obj)) == obj
    (only,) = list(oc.iter_decode(path.read_bytes().splitlines(keepends=True)))
    assert only == oc.decode(obj)  # a document indented over many lines is one record


def test_every_database_row_round_trips_exactly(folder: Path) -> None:
    rows = list(database.rows(folder / "opencode.db"))
    assert [r["table"] for r in rows].count("part") == 6
    for row in rows:
        assert oc.detect(row)
        assert oc.encode(oc.decode(row)) == row
    first = rows[0]
    assert first["table"] == "session" and first["slug"] == "quiet-otter"
    assert set(first) >= {"project_id", "time_compacting", "summary_diffs"}  # every column


def test_the_records_fixture_is_the_tree_and_the_database(folder: Path) -> None:
    """``records.jsonl`` (what the contract suite reads) holds exactly the other fixtures."""
    lines = (HERE / "records.jsonl").read_text("utf-8").splitlines()
    expected = [json.loads(p.read_text("utf-8")) for p in _documents()]
    expected += list(database.rows(folder / "opencode.db"))
    assert [json.loads(line) for line in lines] == expected


def test_what_each_record_decodes_to() -> None:
    by_name = {p.name: oc.decode(json.loads(p.read_text("utf-8"))) for p in _documents()}
    session = by_name[f"{JSON_SESSION}.json"]
    assert isinstance(session, InitMessage)
    assert (session.session_id, session.cwd, session.timestamp) == (
        JSON_SESSION,
        "/home/dev/calc",
        1767312000000,
    )
    assert session.extra["title"] == "Fix the failing add test"
    reply = by_name["msg_b0d5e3a20002Cd8Lr3Ay0Xd5Uz.json"]
    assert isinstance(reply, AssistantMessage) and reply.content == ()
    assert reply.model == "claude-sonnet-4-5" and reply.stop_reason == "tool-calls"
    assert reply.usage is not None
    assert (
        reply.usage.input_tokens,
        reply.usage.output_tokens,
        reply.usage.cache_read_tokens,
        reply.usage.cache_write_tokens,
        reply.usage.reasoning_tokens,
        reply.usage.cost_usd,
    ) == (1200, 150, 8000, 500, 40, 0.0123)
    aborted = by_name["msg_b0d5e3a50005Ij1Ou6Db3Ag8Xc.json"]
    assert isinstance(aborted, AssistantMessage)
    assert aborted.error == "The operation was aborted."
    assert aborted.extra["error"]["name"] == "MessageAbortedError"
    prompt = by_name["prt_b0d5e3b00001Pq1Rs.json"]
    assert isinstance(prompt, TextMessage) and prompt.role == "user"  # no time: a user's
    failed = by_name["prt_b0d5e3b00007Pq7Rs.json"]
    assert isinstance(failed, AssistantMessage)
    assert [b.kind for b in failed.content] == ["tool_use", "tool_result"]
    assert failed.content[1].is_error is True  # type: ignore[union-attr]
    step = by_name["prt_b0d5e3b00003Pq3Rs.json"]
    assert step.kind == "raw" and step.message_id == "msg_b0d5e3a20002Cd8Lr3Ay0Xd5Uz"


def test_a_changed_field_is_written_back_as_it_was() -> None:
    """A field OpenCode adds later (or a value of another type) is kept, not dropped."""
    obj = json.loads(_documents()[-1].read_text("utf-8"))
    obj["newField"] = {"nested": [1, 2]}
    obj["time"]["archived"] = 5
    assert oc.encode(oc.decode(obj)) == obj


@pytest.mark.parametrize(
    ("obj", "path"),
    [
        ({"id": "m", "sessionID": "s", "role": "user", "time": {"created": []}}, "$.time.created"),
        (
            {"id": "m", "sessionID": "s", "role": "assistant", "tokens": {"input": "9"}},
            "$.tokens.input",
        ),
        ({"id": "p", "sessionID": "s", "messageID": "m", "type": "text"}, "$.text"),
        (
            {"id": "p", "sessionID": "s", "messageID": "m", "type": "tool", "callID": "c",
             "tool": "t", "state": {"status": "completed", "input": {}}},
            "$.state.output",
        ),
        ({"table": "message", "id": "m", "session_id": "s", "data": {"role": 3}}, "$.role"),
    ],
)  # fmt: skip
def test_a_bad_record_is_a_decode_error_with_a_path(obj: Any, path: str) -> None:
    with pytest.raises(DecodeError) as info:
        oc.decode(obj)
    assert info.value.path == path and info.value.source == "opencode_storage"


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**12), st.text(max_size=5))
_EXTRA = st.dictionaries(
    st.sampled_from(["agent", "mode", "summary", "x-new", "providerID", "parentID"]),
    st.one_of(_SCALARS, st.dictionaries(st.text(max_size=3), _SCALARS, max_size=2)),
    max_size=3,
)
_COUNT = st.one_of(st.none(), st.integers(0, 10**7))


@given(
    role=st.sampled_from(["user", "assistant"]),
    extra=_EXTRA,
    created=st.one_of(st.none(), st.integers(0, 2**41)),
    counts=st.lists(_COUNT, min_size=5, max_size=5),
    cost=st.one_of(st.none(), st.floats(0, 10, allow_nan=False)),
    row=st.booleans(),
)
def test_any_message_record_or_row_round_trips(
    role: str,
    extra: dict[str, Any],
    created: int | None,
    counts: list[int | None],
    cost: float | None,
    row: bool,
) -> None:
    doc: dict[str, Any] = {"id": "msg_1", "sessionID": "ses_1", "role": role, **extra}
    if created is not None:
        doc["time"] = {"created": created}
    if role == "assistant":
        tokens = dict(zip(("input", "output", "reasoning"), counts[:3], strict=True))
        cache = dict(zip(("read", "write"), counts[3:], strict=True))
        tokens = {k: v for k, v in tokens.items() if v is not None}
        cache = {k: v for k, v in cache.items() if v is not None}
        if cache:
            tokens["cache"] = cache
        doc["tokens"] = tokens
        if cost is not None:
            doc["cost"] = cost
    obj: dict[str, Any] = doc
    if row:
        data = {k: v for k, v in doc.items() if k not in ("id", "sessionID")}
        obj = {"table": "message", "id": "msg_1", "session_id": "ses_1", "time_created": 1}
        obj["data"] = data
    assert oc.detect(obj)
    assert oc.encode(oc.decode(obj)) == obj


def test_a_project_file_and_other_stored_files_are_not_claimed() -> None:
    project = {"id": "4b0e", "worktree": "/home/dev/calc", "vcs": "git", "time": {"created": 1}}
    todo = [{"id": "1", "content": "run tests", "status": "pending"}]
    for obj in (project, todo, {"id": "x", "sessionID": "s", "role": "system"}):
        assert detect(obj) is None


def test_iter_encode_writes_a_role_message_as_its_record_and_one_part_per_block() -> None:
    turn = AssistantMessage(
        (TextBlock("Done."), ToolUseBlock("c1", "bash", {"command": "ls"})),
        message_id="msg_9",
        session_id="ses_9",
        timestamp=5,
    )
    lines = [json.loads(line) for line in oc.iter_encode([turn])]
    assert lines[0] == {
        "id": "msg_9",
        "sessionID": "ses_9",
        "role": "assistant",
        "time": {"created": 5},
    }
    assert [(x["type"], x["messageID"]) for x in lines[1:]] == [
        ("text", "msg_9"),
        ("tool", "msg_9"),
    ]


# -- the database -----------------------------------------------------------------------------


def test_the_database_is_opened_read_only_and_left_as_it_was(folder: Path) -> None:
    path = folder / "opencode.db"
    before = path.read_bytes()
    path.chmod(0o444)
    try:
        found = list(oc.read_database(path))
    finally:
        path.chmod(0o644)
    assert len(found) == 10 and path.read_bytes() == before
    assert not (folder / "opencode.db-journal").exists()
    with pytest.raises(sqlite3.OperationalError):
        database.connect(path).execute("CREATE TABLE t (x)")


def test_a_database_that_is_not_opencodes_is_not_read(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE message (id TEXT, body TEXT)")
    db.close()
    assert not oc.is_database(other)
    assert not oc.is_database(tmp_path / "missing.db")
    text = tmp_path / "fake.db"
    text.write_text("not sqlite")
    assert not oc.is_database(text)
    assert hook("opencode_storage").split(str(other)) is None  # type: ignore[attr-defined]


def test_a_row_whose_data_is_not_json_is_kept_whole(tmp_path: Path) -> None:
    path = _build_db(tmp_path / "opencode.db")
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO part VALUES ('prt_z', 'msg_c1a2b3c40001Zz1Yy2Xx3Ww4',"
            " 'ses_50aa01b2c3ffRt5Yu7Io9Pa1Sd', 1, 1, '{not json')"
        )
    db.close()
    kept = [m for m in oc.read_database(path) if getattr(m, "uuid", None) == "prt_z"]
    (raw,) = kept
    assert raw.kind == "raw" and oc.encode(raw)["data"] == "{not json"


# -- sessions ---------------------------------------------------------------------------------


def test_a_session_joins_its_records_into_role_messages_in_time_order(folder: Path) -> None:
    sessions = {s.id: s for s in load(folder)}
    assert set(sessions) == {JSON_SESSION, DB_SESSION}
    s = sessions[JSON_SESSION]
    assert (s.agent, s.title, s.cwd, s.project, s.prompts) == (
        "opencode_storage",
        "Fix the failing add test",
        "/home/dev/calc",
        "calc",
        2,
    )
    kinds = [type(m).__name__ for m in s.messages]
    assert kinds == [
        "UserMessage",
        "AssistantMessage",
        "AssistantMessage",
        "UserMessage",
        "AssistantMessage",
    ]
    first_reply = s.messages[1]
    assert isinstance(first_reply, AssistantMessage)
    assert [type(b) for b in first_reply.content] == [
        RawBlock, ThinkingBlock, TextBlock, ToolUseBlock, ToolResultBlock,
        ToolUseBlock, ToolResultBlock, RawBlock,
    ]  # fmt: skip
    assert first_reply.content[2].extra["id"] == "prt_b0d5e3b00005Pq5Rs"  # type: ignore[union-attr]
    prompt = s.messages[0]
    assert isinstance(prompt, UserMessage) and prompt.text == "The add test fails. Fix it, please."
    u = s.usage.total
    assert (u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens) == (
        1500,
        230,
        17000,
        600,
    )
    assert u.cost_usd == pytest.approx(0.0194) and s.usage.calls == 3
    db = sessions[DB_SESSION]
    assert db.title == "Summarise the changelog" and len(db.messages) == 3
    assert db.files == (str(folder / "opencode.db"),)


def test_a_record_in_the_database_and_in_a_file_is_read_once_from_the_database(
    folder: Path,
) -> None:
    with sqlite3.connect(folder / "opencode.db") as db:
        doc = json.loads(
            (
                folder / "storage/message" / JSON_SESSION / "msg_b0d5e3a30003Ef9Ms4Bz1Ye6Va.json"
            ).read_text("utf-8")
        )
        doc["cost"] = 0.5
        data = {k: v for k, v in doc.items() if k not in ("id", "sessionID")}
        db.execute(
            "INSERT INTO message VALUES (?, ?, 1, 1, ?)",
            (doc["id"], JSON_SESSION, json.dumps(data)),
        )
    db.close()
    (s,) = [s for s in load(folder) if s.id == JSON_SESSION]
    assert len(s.messages) == 5
    assert s.usage.total.cost_usd == pytest.approx(0.0123 + 0.5)  # the database's figure


def test_default_folders_follow_opencodes_variables(folder: Path) -> None:
    env = {"HOME": "/nowhere", "OPENCODE_DATA_DIR": str(folder)}
    assert default_folders(env) == [str(folder)]
    xdg = {"HOME": "/nowhere", "XDG_DATA_HOME": str(folder.parent)}
    assert default_folders(xdg) == [str(folder)]
    files = list(hook("opencode_storage").files(str(folder)))
    assert files[-1] == str(folder / "opencode.db")
    assert len(files) == len(_documents()) + 1


# -- the command line and ccusage -------------------------------------------------------------

# ccusage 20.0.24 (`OPENCODE_DATA_DIR=<folder> ccusage opencode session --json --offline`) on
# the data folder above (the record files and opencode.db built from opencode.sql): session ->
# (input, output, cache read, cache write, cost in USD). 20.0.24 is the newest release with a
# linux-x64 binary on npm (20.0.26 publishes none for it).
CCUSAGE_SESSIONS = {
    JSON_SESSION: (1500, 230, 17000, 600, 0.0194),
    DB_SESSION: (4700, 405, 3072, 0, 0.00787),
}


def _ours(folder: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["stats", "--json", str(folder)]) == 0
    doc = json.loads(capsys.readouterr().out)
    return {
        s["session_id"]: (
            s["tokens"]["input"],
            s["tokens"]["output"],
            s["tokens"]["cache_read"],
            s["tokens"]["cache_write"],
            s["cost_usd"],
        )
        for s in doc["sessions"]
    }


def test_stats_agree_with_ccusage_20(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ours = _ours(folder, capsys)
    assert set(ours) == set(CCUSAGE_SESSIONS)
    for sid, figures in CCUSAGE_SESSIONS.items():
        assert ours[sid][:4] == figures[:4]
        assert ours[sid][4] == pytest.approx(figures[4], abs=1e-12)


def test_stats_agree_with_ccusage_run_live(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = ccusage_run("opencode", {"OPENCODE_DATA_DIR": str(folder)}, tmp_path)
    theirs = {
        s["sessionId"]: (
            s["inputTokens"],
            s["outputTokens"],
            s["cacheReadTokens"],
            s["cacheCreationTokens"],
            s["totalCost"],
        )
        for s in json.loads(run.stdout)["sessions"]
    }
    ours = _ours(folder, capsys)
    assert set(ours) == set(theirs)
    for sid, figures in theirs.items():
        assert ours[sid][:4] == figures[:4]
        assert ours[sid][4] == pytest.approx(figures[4], abs=1e-12)


def test_stats_with_no_argument_reads_the_default_folder(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    only_these_folders(monkeypatch, folder.parent / "home", OPENCODE_DATA_DIR=str(folder))
    assert main(["stats", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {s["session_id"] for s in doc["sessions"]} == set(CCUSAGE_SESSIONS)


def test_sessions_lists_the_stores_sessions(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["sessions", str(folder)]) == 0
    out = capsys.readouterr().out
    assert JSON_SESSION in out and DB_SESSION in out and "Summarise the changelog" in out


def test_a_database_named_on_the_command_line_is_read(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["normalize", str(folder / "opencode.db")]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 11 and lines[0]["kind"] == "init"  # 10 rows, a tool pair as two


def test_convert_to_the_store_is_refused(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", "--to", "opencode_storage", str(folder / "opencode.db")]) == 2
    err = capsys.readouterr().err
    assert "--to opencode_storage" in err and "does not write it" in err

"""The Copilot CLI's session store and its OpenTelemetry trace file (issue 29, item 6).

ccusage 20 reads the Copilot CLI from its trace file only (``ccusage copilot daily``:
``rust/crates/ccusage/src/adapter/copilot/`` in the ccusage repository, version 20.0.11 at
commit 5816e640, the npm release being 20.0.26): every ``*.jsonl`` under ``~/.copilot/otel/``
and the file ``COPILOT_OTEL_FILE_EXPORTER_PATH`` names. Its rule, from ``parser.rs``: a record
reports a call when it is a ``chat`` span, an inference-details log, an agent-turn log or an
``invoke_agent`` span, each kind counted only where no more direct kind of the same trace or
response id reports it; input is ``gen_ai.usage.input_tokens`` less the cache reads; a record
with only a total gives it as output; the day is the record's ``endTime`` (else its start,
``hrTime``...). ``CCUSAGE_COPILOT_DAILY`` holds what that rule gives for
``copilot_otel/traces.jsonl``, worked out by hand from the rule (not printed by ccusage: its npm
package needs a native ``@ccusage/ccusage-<platform>`` package the registry used here lacks).
``test_ccusage_itself`` runs the real thing when ``MESSAGES_CCUSAGE`` names a working ccusage 20.
The released ccusage 20.0.24 reads the session store too (``session-state/<id>/events.jsonl``,
its ``session.shutdown`` totals per model, cumulative across a resumed session's processes),
and for a session both cover takes the shutdown's totals: the ``CCUSAGE_BOTH_DAILY`` and
``CCUSAGE_RESUMED_DAILY`` figures are what it printed, and the tests that run it compare the
default run of ``messages stats`` on such a home with it.
"""

from __future__ import annotations

import importlib
import json
import os
import shlex
import shutil
import subprocess
import tempfile
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest

from conftest import LOCAL_FIXTURES
from messages import AssistantMessage
from messages import ResultMessage
from messages import StreamEventMessage
from messages import Usage
from messages.adapters import copilot
from messages.adapters import copilot_otel
from messages.adapters import detect
from messages.cli.io import default_folders
from messages.sessions import load
from messages.stats import Stats

STORE = LOCAL_FIXTURES / "copilot" / "session-state"
SESSION = "3f6c2a91-7d4e-4b1a-9c85-0e2d7f4a6b13"
TRACES = LOCAL_FIXTURES / "copilot_otel" / "traces.jsonl"

# ccusage 20's copilot rule on copilot_otel/traces.jsonl, per UTC day:
# (input, output, cache read, cache write, reasoning, entries)
CCUSAGE_COPILOT_DAILY = {
    "2026-10-02": (686, 184, 36296, 120, 32, 2),
    "2026-10-03": (1104, 877, 4096, 0, 0, 2),
}


def test_the_store_and_the_trace_folder_are_default_folders(tmp_path: Path) -> None:
    home = tmp_path / "home"
    store, otel = home / ".copilot" / "session-state", home / ".copilot" / "otel"
    for folder in (store, otel):
        folder.mkdir(parents=True)
    assert default_folders({"HOME": str(home)}) == [str(store), str(otel)]
    moved = tmp_path / "copilot-home"
    (moved / "history-session-state").mkdir(parents=True)
    exporter = tmp_path / "exports" / "copilot.jsonl"
    exporter.parent.mkdir()
    env = {
        "HOME": str(home),
        "COPILOT_HOME": str(moved),
        "COPILOT_OTEL_FILE_EXPORTER_PATH": str(exporter),
    }
    assert default_folders(env) == [str(moved / "history-session-state"), str(exporter.parent)]


def test_a_session_folder_is_one_session_named_after_it(tmp_path: Path) -> None:
    folder = tmp_path / ".copilot" / "session-state"
    shutil.copytree(STORE, folder)
    loose = folder / "5c2e8f10-0a4b-4d7e-9b31-6f8a2c0d1e47.jsonl"  # an older, loose session
    lines = (STORE / SESSION / "events.jsonl").read_text("utf-8").splitlines()
    loose.write_text("\n".join(lines[1:]) + "\n", "utf-8")  # no session.start: the name
    found = {s.id: s for s in load(folder)}
    assert sorted(found) == [
        "3f6c2a91-7d4e-4b1a-9c85-0e2d7f4a6b13",
        "5c2e8f10-0a4b-4d7e-9b31-6f8a2c0d1e47",
    ]
    session = found[SESSION]
    assert session.agent == "copilot"
    assert session.title == "In main.go change the greeting from Hello to Hi."
    assert session.cwd == "/workspace"
    assert session.usage.calls == 1  # session.shutdown's totals win over the replies'
    assert session.usage.total == Usage(1492, 402, 53718, 0)
    # priced call by call: the shutdown's one call, as its totals per model
    assert [m for m, _ in session.usage.per_call] == list(session.usage.by_model)
    assert dict(session.usage.per_call) == dict(session.usage.by_model)
    assert session.records[-1].kind == "result"  # session.shutdown
    assert len(session.records) == len(lines)


def test_the_trace_file_round_trips_and_gives_each_call_once() -> None:
    lines = TRACES.read_text("utf-8").splitlines()
    messages = list(copilot_otel.iter_decode(lines))
    assert [json.loads(x) for x in copilot_otel.iter_encode(messages)] == [
        json.loads(x) for x in lines
    ]
    calls = [m for m in messages if isinstance(m, AssistantMessage)]
    assert [m.message_id for m in calls] == [
        "0af7651916cd43dd8448eb211c80319c:b7ad6b7169203331",
        "0af7651916cd43dd8448eb211c80319c:c8be7c8270314442",
        "agent-turn:5b8aa5a2d2c872e8321cf37308d69df2:0",
        "7c9bb6b3e3d983f9432d048419e7ae03:e0d09eaa92536664",
    ]
    assert all(m.content == () for m in calls)  # a trace holds no conversation
    # the inference log and the invoke_agent span of the first trace repeat its chat spans
    repeated = [m for m in messages if isinstance(m, StreamEventMessage) and m.timestamp]
    assert [m.event.get("name") or m.event["_body"] for m in repeated] == [
        "GenAI inference: claude-sonnet-4.5",
        "invoke_agent GitHub Copilot CLI",
    ]
    assert copilot_otel.decode(json.loads(lines[2])).usage is not None  # alone: it cannot tell
    assert [detect(json.loads(line)) for line in lines] == ["copilot_otel"] * len(lines)


def ours(path: Path) -> dict[str, tuple[int, int, int, int, int]]:
    stats = Stats.of_file(str(path), format="copilot_otel")
    out = {}
    for row in stats.report("day", tz=UTC).rows:
        t = row.tokens
        assert row.key is not None
        out[row.key] = (
            t.input or 0,
            t.output or 0,
            t.cache_read or 0,
            t.cache_write or 0,
            t.reasoning or 0,
        )
    return out


def test_the_trace_file_agrees_with_ccusage_20() -> None:
    assert ours(TRACES) == {day: v[:5] for day, v in CCUSAGE_COPILOT_DAILY.items()}
    per_session = {s.session_id: s.tokens.output for s in Stats.of_file(str(TRACES)).sessions()}
    assert per_session == {
        "3f6c2a91-7d4e-4b1a-9c85-0e2d7f4a6b13": 184,
        "9d1e0b47-2c6a-4f38-8e15-7a3c9b0d4f62": 877,
    }


def test_ccusage_itself() -> None:
    command = os.environ.get("MESSAGES_CCUSAGE")
    if not command or shutil.which(shlex.split(command)[0]) is None:
        pytest.skip(
            "set MESSAGES_CCUSAGE to a working ccusage 20 (npm's ccusage 20.0.26 needs its"
            " native @ccusage/ccusage-<platform> package, absent from the registry used here)"
        )
    with tempfile.TemporaryDirectory(prefix="ccusage-copilot-") as home:
        folder = Path(home) / ".copilot" / "otel"
        folder.mkdir(parents=True)
        shutil.copy(TRACES, folder / TRACES.name)
        argv = [
            *shlex.split(command),
            "copilot",
            "daily",
            "--json",
            "--offline",
            "--timezone",
            "UTC",
        ]
        env = {**os.environ, "HOME": home, "NO_COLOR": "1"}
        env.pop("COPILOT_OTEL_FILE_EXPORTER_PATH", None)
        done = subprocess.run(argv, capture_output=True, text=True, env=env, check=True)
    rows = json.loads(done.stdout)["daily"]
    theirs = {
        r["date"]: (
            r["inputTokens"],
            r["outputTokens"],
            r["cacheReadTokens"],
            r["cacheCreationTokens"],
        )
        for r in rows
    }
    assert theirs == {day: v[:4] for day, v in CCUSAGE_COPILOT_DAILY.items()}
    mine = ours(TRACES)
    assert {day: v[:4] for day, v in mine.items()} == theirs


# what ccusage 20.0.24 prints (``copilot daily --timezone UTC``) for a home holding both the
# store and the trace: the store's session.shutdown totals for the session it covers, the
# trace for the other; (input, output, cache read, cache write)
CCUSAGE_BOTH_DAILY = {
    "2026-10-02": (1492, 402, 53718, 0),
    "2026-10-03": (1104, 877, 4096, 0),
}
# and for the resumed session of copilot/resumed-session.jsonl, one shutdown per process
RESUMED = LOCAL_FIXTURES / "copilot" / "resumed-session.jsonl"
RESUMED_ID = "b2d7e9f4-6a13-4c58-9e02-7f1a3c5d8b64"
CCUSAGE_RESUMED_DAILY = {
    "2026-10-05": (400, 41, 11800, 200),
    "2026-10-06": (1108, 58, 8192, 0),
}


def _home_with_both(home: Path, *, shutdown: bool = True) -> Path:
    """A home holding the session store and the trace file, as the CLI writes them."""
    copilot = home / ".copilot"
    shutil.copytree(STORE, copilot / "session-state")
    if not shutdown:  # a session whose process has not exited (or was killed)
        events = copilot / "session-state" / SESSION / "events.jsonl"
        kept = [x for x in events.read_text("utf-8").splitlines() if "session.shutdown" not in x]
        events.write_text("\n".join(kept) + "\n", "utf-8")
    (copilot / "otel").mkdir(parents=True)
    shutil.copy(TRACES, copilot / "otel" / TRACES.name)
    return home


def _resumed_home(home: Path) -> Path:
    folder = home / ".copilot" / "session-state" / RESUMED_ID
    folder.mkdir(parents=True)
    shutil.copy(RESUMED, folder / "events.jsonl")
    return home


def _default_run(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> dict[str, Any]:
    cli_main = importlib.import_module("messages.cli.main")  # the module, not the function
    monkeypatch.setenv("HOME", str(home))
    for name in ("COPILOT_HOME", "COPILOT_OTEL_FILE_EXPORTER_PATH", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(cli_main, "_stdin_is_terminal", lambda: True)
    capsys.readouterr()
    assert cli_main.main(["stats", "--json", "--no-cache", "--tz", "UTC", *args]) == 0
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc


_FIGURES = ("input", "output", "cache_read", "cache_write")


def _days(doc: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    return {d["day"]: tuple(d["tokens"][k] or 0 for k in _FIGURES) for d in doc["rows"]}


def test_the_default_run_counts_each_call_once_with_the_store_and_the_trace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = _home_with_both(tmp_path / "home", shutdown=False)
    doc = _default_run(home, capsys, monkeypatch)
    assert doc["total"]["formats"] == ["copilot", "copilot_otel"]
    sessions = {d["session_id"]: d for d in doc["sessions"]}
    both = sessions[SESSION]
    assert both["formats"] == ["copilot", "copilot_otel"]
    assert both["tokens"]["output"] == 184  # the trace's two calls, not the replies' as well
    assert both["turns"] == 3 and both["tool_calls"] == {"edit": 1, "view": 1}  # from the store
    by_day = _days(_default_run(home, capsys, monkeypatch, "--by", "day"))
    assert by_day == {day: v[:4] for day, v in CCUSAGE_COPILOT_DAILY.items()}


def test_the_store_s_session_totals_win_over_the_trace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = _home_with_both(tmp_path / "home")
    doc = _default_run(home, capsys, monkeypatch)
    sessions = {d["session_id"]: d["tokens"] for d in doc["sessions"]}
    assert sessions[SESSION]["output"] == 402  # session.shutdown's, not 184 + 402 + 218
    assert _days(_default_run(home, capsys, monkeypatch, "--by", "day")) == CCUSAGE_BOTH_DAILY


def test_which_source_wins_does_not_depend_on_the_order_read(tmp_path: Path) -> None:
    home = _home_with_both(tmp_path / "home", shutdown=False)
    store = Stats.of_file(str(home / ".copilot" / "session-state" / SESSION / "events.jsonl"))
    trace = Stats.of_file(str(TRACES))
    alone = {s.session_id: s.tokens.output for s in store.sessions()}
    assert alone == {SESSION: 87 + 112 + 19}  # the store alone: its replies' output
    for merged in (store.merge(trace), trace.merge(store)):
        found = {s.session_id: s.tokens.output for s in merged.sessions()}
        assert found == {SESSION: 184, "9d1e0b47-2c6a-4f38-8e15-7a3c9b0d4f62": 877}


def test_a_shutdown_is_typed_as_the_session_s_totals_per_model() -> None:
    lines = RESUMED.read_text("utf-8").splitlines()
    messages = list(copilot.iter_decode(lines))
    assert [json.loads(x) for x in copilot.iter_encode(messages)] == [json.loads(x) for x in lines]
    shutdowns = [m for m in messages if isinstance(m, ResultMessage)]
    assert [m.subtype for m in shutdowns] == ["routine", "routine"]
    first, second = shutdowns
    assert first.model == "claude-sonnet-4.5" and second.model is None  # two models
    assert first.model_usage == json.loads(lines[3])["data"]["modelMetrics"]
    # inputTokens holds the cache reads and writes: the rest is the uncached input
    assert first.usage == Usage(400, 41, 11800, 200)
    assert copilot.model_usages(second) == [
        ("claude-sonnet-4.5", Usage(400, 41, 11800, 200)),
        ("gpt-5-mini", Usage(1108, 58, 8192, 0, reasoning_tokens=24)),
    ]
    assert second.usage == Usage(1508, 99, 19992, 200, reasoning_tokens=24)
    assert copilot.model_usages(messages[2]) == []  # a reply: no totals


@pytest.mark.parametrize(
    "data",
    [
        {"shutdownType": "routine"},
        {"modelMetrics": {"gpt-5": 3}},
        {"modelMetrics": {"gpt-5": {"usage": []}}},
        {"modelMetrics": {}, "shutdownType": 1},
    ],
)
def test_a_shutdown_without_per_model_totals_is_kept_as_it_was(data: dict[str, Any]) -> None:
    event = {"type": "session.shutdown", "data": data, "id": "e1"}
    message = copilot.decode(event)
    assert isinstance(message, StreamEventMessage)
    assert copilot.encode(message) == event


def test_a_resumed_session_counts_what_each_shutdown_adds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = _resumed_home(tmp_path / "home")
    doc = _default_run(home, capsys, monkeypatch, "--by", "day")
    assert _days(doc) == CCUSAGE_RESUMED_DAILY
    models = _default_run(home, capsys, monkeypatch, "--by", "model")["rows"]
    assert {d["model"]: d["tokens"]["input"] for d in models} == {
        "claude-sonnet-4.5": 400,
        "gpt-5-mini": 1108,
    }
    (session,) = load(home / ".copilot" / "session-state")
    assert session.usage.total == Usage(1508, 99, 19992, 200, reasoning_tokens=24)
    assert dict(session.usage.by_model) == dict(copilot.model_usages(session.records[-1]))


def _ccusage_daily(home: Path) -> dict[str, tuple[int, ...]]:
    from support.ccusage import TOKENS
    from support.ccusage import by_day
    from support.ccusage import ccusage_command

    env = {**os.environ, "HOME": str(home), "NO_COLOR": "1"}
    env.pop("COPILOT_OTEL_FILE_EXPORTER_PATH", None)
    env.pop("COPILOT_HOME", None)
    argv = [*ccusage_command(), "copilot", "daily", "--json", "--offline", "--timezone", "UTC"]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, check=True)
    return by_day(done.stdout, TOKENS)


@pytest.mark.parametrize("shutdown", [True, False], ids=["with-shutdown", "without"])
def test_the_default_run_agrees_with_ccusage_itself(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    shutdown: bool,
) -> None:
    home = _home_with_both(tmp_path / "home", shutdown=shutdown)
    theirs = _ccusage_daily(home)
    assert theirs == (
        CCUSAGE_BOTH_DAILY if shutdown else {day: v[:4] for day, v in CCUSAGE_COPILOT_DAILY.items()}
    )
    assert _days(_default_run(home, capsys, monkeypatch, "--by", "day")) == theirs


def test_a_resumed_session_agrees_with_ccusage_itself(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = _resumed_home(tmp_path / "home")
    theirs = _ccusage_daily(home)
    assert theirs == CCUSAGE_RESUMED_DAILY
    assert _days(_default_run(home, capsys, monkeypatch, "--by", "day")) == theirs

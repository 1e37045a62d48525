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
The session store (``session-state/<id>/events.jsonl``) is not read by ccusage 20: nothing to
compare there.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import tempfile
from datetime import UTC
from pathlib import Path

import pytest

from conftest import LOCAL_FIXTURES
from messages import AssistantMessage
from messages import StreamEventMessage
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
    assert session.usage.calls == 3
    assert session.usage.total.output_tokens == 87 + 34 + 97
    assert session.records[-1].kind == "stream_event"  # session.shutdown, kept verbatim
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

"""``messages stats``' light reading (:mod:`messages.stats._reader`) equals the full one.

The light reader hands the lines that count only for their session, time and working folder
(Claude Code's usual ``progress`` lines) to :meth:`InputStats.seen` without building their
messages. Whatever the input, it must give exactly what reading every line as its message
gives: the same parts (every record, key and figure), the same reports on stderr (bad
lines, lines of another format, with their line numbers), the same outcome, the same
report. Checked on the shared captures and on lines cut and mutated by Hypothesis.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck
from hypothesis import example
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from conftest import shared_fixtures
from messages.cli import main
from messages.cli.io import Input
from messages.cli.io import Options
from messages.cli.stats import read_one
from messages.stats import InputStats
from messages.stats import Stats
from messages.stats import _reader
from messages.stats._reader import Seen


@contextmanager
def _full() -> Iterator[None]:
    """Every line read as its message (no light reader)."""
    saved = dict(_reader.LIGHT)
    _reader.LIGHT.clear()
    try:
        yield
    finally:
        _reader.LIGHT.update(saved)


def _figures(part: InputStats | None) -> Any:
    if part is None:
        return None
    stats = Stats.of_input(part)
    return stats, [
        stats.report(by, cost="logged").to_json()  # type: ignore[arg-type]
        for by in ("session", "day", "model", "project", "block", "subagent")
    ]


def _both(path: Path, *, strict: bool = False) -> tuple[Any, Any]:
    """What reading ``path`` for stats gives, lightly and in full."""
    opts = Options("stats", strict=strict)

    def one() -> Any:
        reports, outcome = read_one(Input(str(path)), opts)
        state = (outcome.failed, outcome.stopped, outcome.lines, outcome.read, outcome.skipped)
        return reports, state, _figures(outcome.stats)

    light = one()
    with _full():
        full = one()
    return light, full


def _captures() -> list[Path]:
    root = shared_fixtures("claude_code")
    found = sorted(p for p in root.rglob("*") if p.suffix in (".jsonl", ".ndjson", ".json"))
    return [p for p in found if p.is_file()]


def test_the_light_reader_reads_the_progress_lines_of_a_transcript() -> None:
    """Not a vacuous test: the shared 2.1 session does go through the light path."""
    (path,) = shared_fixtures("claude_code", "transcripts-2.1").glob("*/*.jsonl")
    lines = path.read_bytes().splitlines()
    read = _reader.LIGHT["claude_code"]
    items = list(read(lines))
    seen = [m for m in items if type(m) is Seen]
    assert len(seen) > len(lines) // 2
    first = next(json.loads(x) for x in lines if b'"type":"progress"' in x)
    assert (seen[0].session_id, seen[0].timestamp) == (first["sessionId"], first["timestamp"])


@pytest.mark.parametrize("strict", [False, True])
def test_every_shared_claude_code_capture_reads_the_same_both_ways(strict: bool) -> None:
    for path in _captures():
        light, full = _both(path, strict=strict)
        assert light == full, path


def test_a_folder_of_captures_gives_the_same_output_both_ways(
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = shared_fixtures("claude_code", "transcripts-2.1")
    runs = []
    for light in (True, False):
        if light:
            code = main(["stats", "--json", "--no-cache", "--by", "block", str(folder)])
        else:
            with _full():
                code = main(["stats", "--json", "--no-cache", "--by", "block", str(folder)])
        runs.append((code, *capsys.readouterr()))
    assert runs[0] == runs[1]
    assert json.loads(runs[0][1])["total"]["turns"] > 0


# --- lines cut and mutated ------------------------------------------------------------------


def _progress(**changes: Any) -> dict[str, Any]:
    line: dict[str, Any] = {
        "parentUuid": "p-0",
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/ana/app",
        "sessionId": "s-1",
        "version": "2.1.39",
        "gitBranch": "main",
        "type": "progress",
        "data": {"type": "hook_progress", "hookEvent": "SessionStart", "command": "x"},
        "parentToolUseID": "t-1",
        "toolUseID": "t-1",
        "timestamp": "2026-02-15T09:41:40.277Z",
        "uuid": "u-1",
    }
    for key, value in changes.items():
        if value is _DROP:
            line.pop(key, None)
        else:
            line[key] = value
    return line


_DROP = object()
_odd = st.sampled_from(
    [
        _DROP,
        None,
        7,
        1.5,
        True,
        "",
        "s-2",
        "2026-02-16T00:00:00Z",
        "not a time",
        "checkpoint",  # as Gemini CLI's "$document": a record that restates history
        [],
        {},
        {"type": "agent_progress"},
        {"type": 3},
        {"type": "agent_progress", "message": {"type": "user", "message": {"role": "user"}}},
    ]
)
_keys = st.sampled_from(
    [
        "sessionId",
        "timestamp",
        "cwd",
        "uuid",
        "data",
        "parentToolUseID",
        "toolUseID",
        "type",
        "session_id",
        "parent_tool_use_id",
        "$document",
        "kimi.context",
        "model",
    ]
)
_progress_lines = st.dictionaries(_keys, _odd, max_size=3).map(
    lambda changes: json.dumps(_progress(**changes))
)
_assistant = json.dumps(
    {
        "type": "assistant",
        "uuid": "u-a",
        "sessionId": "s-1",
        "timestamp": "2026-02-15T09:42:00Z",
        "cwd": "/home/ana/other",
        "message": {
            "id": "m-1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [{"type": "tool_use", "id": "call-1", "name": "Bash", "input": {}}],
            "usage": {"input_tokens": 10, "output_tokens": 3},
        },
    }
)
_other_lines = st.sampled_from(
    [
        _assistant,
        "not json",
        "",
        "{",
        '{"type": "progress"',
        '{"type":"thread.started","thread_id":"t"}',  # a Codex line
        '{"type":"session_meta","payload":{"id":"x"}}',
        "[1, 2]",
        '{"type": "summary", "summary": "A title", "leafUuid": "u-a"}',
        '{"type": "file-history-snapshot", "messageId": "m", "snapshot": {}}',
        '{"type": "progress", "sessionId": NaN}',
    ]
)


def _real_lines() -> list[str]:
    (path,) = shared_fixtures("claude_code", "transcripts-2.1").glob("*/*.jsonl")
    return path.read_text(encoding="utf-8").splitlines()


@st.composite
def _inputs(draw: st.DrawFn) -> list[str]:
    real = _real_lines()
    start = draw(st.integers(0, len(real) - 1))
    lines = real[start : start + draw(st.integers(1, 40))]
    for _ in range(draw(st.integers(0, 6))):
        where = draw(st.integers(0, len(lines)))
        lines.insert(where, draw(_progress_lines | _other_lines))
    if draw(st.booleans()):  # a line cut short, as a file still being written
        i = draw(st.integers(0, len(lines) - 1))
        lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
    return lines


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(_inputs(), st.booleans())
def test_cut_and_mutated_inputs_read_the_same_both_ways(lines: list[str], strict: bool) -> None:
    fd, name = tempfile.mkstemp(suffix=".jsonl")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fp:
            fp.write("\n".join(lines) + "\n")
        light, full = _both(Path(name), strict=strict)
        assert light == full
    finally:
        os.unlink(name)


@given(_progress_lines, _progress_lines)
@example(json.dumps(_progress(**{"$document": "checkpoint", "sessionId": "s-9"})), "{}")
@example(json.dumps(_progress(**{"kimi.context": {}, "sessionId": "s-8"})), "{}")
@example(json.dumps(_progress(sessionId="s-2", cwd="")), json.dumps(_progress(cwd=7)))
@example(json.dumps(_progress(timestamp=5)), json.dumps(_progress(session_id="s-3")))
def test_a_progress_line_is_light_only_when_its_message_counts_for_its_session_alone(
    first: str, second: str
) -> None:
    """Light or not, the figures agree; and a line read lightly is a usual progress record."""
    from messages.adapters.claude_code import decode
    from messages.events.records import ProgressMessage

    read = _reader.LIGHT["claude_code"]
    for line in (first, second):
        (item,) = list(read([line]))
        if type(item) is Seen:
            message = decode(json.loads(line))
            assert type(message) is ProgressMessage
            assert message.message is None and message.model is None
            assert (item.session_id, item.timestamp) == (message.session_id, message.timestamp)
            assert item.cwd == json.loads(line).get("cwd")  # what the message keeps in extra
    part_light, part_full = InputStats("x", "claude_code"), InputStats("x", "claude_code")
    for item in read([first, second]):
        if type(item) is Seen:
            part_light.seen(item.session_id, item.timestamp, item.cwd)
        else:
            part_light.feed(item)
    from messages.adapters.claude_code import iter_decode

    for message in iter_decode([first, second]):
        part_full.feed(message)
    assert Stats.of_input(part_light) == Stats.of_input(part_full)


def test_the_keys_of_restating_records_are_the_adapters_own() -> None:
    from messages.adapters.gemini_session import records

    assert records.DOCUMENT in _reader.RESTATING
    try:
        from messages.adapters.kimi import context
    except ImportError:  # not in every tree: the key is kept ready for it
        return
    assert context.KEPT in _reader.RESTATING

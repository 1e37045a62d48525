"""``messages.interop.dask``: the adapters over a sharded archive, equal to ``messages stats``.

The archive is built under ``tmp_path`` from the project's own fixtures: Claude Code
transcripts and stream-json logs, one transcript cut into two shards in the middle of an
assistant message (its lines share one message id, and the usage must count once), Codex
``exec --json`` logs under two thread ids, a Codex app-server log, a log with a bad line and
a file in no known format. Dask runs on its local schedulers (``sync``, ``threads`` and
``processes``: the last one pickles every task and result across processes).
"""

from __future__ import annotations

import io
import json
import pickle
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from messages import InvalidLineMessage
from messages.cli.stats import render_json
from messages.convert import normalize_messages
from messages.interop.dask import decode_log
from messages.interop.dask import decode_partition
from messages.interop.dask import stats_partition
from messages.stats import Stats
from support.adapter_files import local
from test_cli import run

TRANSCRIPT = local("claude_code", "transcript.jsonl")


def _lines(path: Path) -> list[str]:
    return path.read_text("utf-8").splitlines(keepends=True)


def _archive(root: Path) -> list[Path]:
    """A small sharded archive; returns its files in the order a glob lists them."""
    transcript = _lines(TRANSCRIPT)
    cut = next(i for i, line in enumerate(transcript) if '"msg_01TranscriptA"' in line) + 1
    assert '"msg_01TranscriptA"' in transcript[cut]  # the cut falls inside that message
    exec_log = local("codex", "exec.jsonl").read_text("utf-8")
    thread = json.loads(exec_log.splitlines()[0])["thread_id"]
    with_bad_line = _lines(local("cli", "stats-claude.jsonl"))
    with_bad_line.insert(3, "{not json\n")
    files = {
        "2026-01-15/claude-000.jsonl": "".join(transcript[:cut]),
        "2026-01-15/claude-001.jsonl": "".join(transcript[cut:]),
        "2026-01-15/stream.jsonl": local("claude_code", "stream.jsonl").read_text("utf-8"),
        "2026-01-16/stats.jsonl": "".join(with_bad_line),
        "2026-01-16/codex-a.jsonl": exec_log,
        "2026-01-16/codex-b.jsonl": exec_log.replace(thread, thread[:-4] + "beef"),
        "2026-01-17/app-server.jsonl": local("codex", "app_server.jsonl").read_text("utf-8"),
        "2026-01-17/notes.jsonl": "not a log\n[1, 2]\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, "utf-8")
    return sorted(root.glob("*/*.jsonl"))


def _cli_stats(
    capsys: pytest.CaptureFixture[str], paths: list[Path], *, problems: bool = True
) -> dict[str, Any]:
    """``messages stats --json`` on ``paths``; in the archive, the bad line and the file in
    no known format are reported (exit code 1)."""
    code, out, err = run(capsys, "stats", "--json", *map(str, paths))
    assert (code, bool(err)) == (int(problems), problems)
    doc: dict[str, Any] = json.loads(out)
    return doc


def _as_json(found: Stats) -> dict[str, Any]:
    """What ``messages stats --json`` writes for these stats."""
    out = io.StringIO()
    render_json(found.report(), out)
    doc: dict[str, Any] = json.loads(out.getvalue())
    return doc


@pytest.fixture(scope="module")
def dask_bag() -> Any:
    return pytest.importorskip("dask.bag")


@pytest.mark.parametrize("scheduler", ["sync", "threads", "processes"])
def test_stats_on_dask_equal_the_command_on_the_same_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], dask_bag: Any, scheduler: str
) -> None:
    from messages.interop.dask import stats_bag

    paths = _archive(tmp_path)
    expected = _cli_stats(capsys, paths)
    assert expected["total"]["sessions"] >= 5 and expected["total"]["tokens"]["input"]
    assert expected["total"]["tool_calls"]
    # a session whose model has no price leaves the total unpriced (cost_note says why)
    assert any(s["cost_usd"] for s in expected["sessions"])
    item = stats_bag(str(tmp_path / "*" / "*.jsonl"), split_every=2)
    if scheduler == "threads":  # a pool of its own, ended after: dask keeps its own alive,
        from concurrent.futures import ThreadPoolExecutor  # and `stats --jobs` forks its

        with ThreadPoolExecutor(2) as pool:  # workers only from a process with one thread
            assert _as_json(item.compute(scheduler=scheduler, pool=pool)) == expected
        return
    assert _as_json(item.compute(scheduler=scheduler, num_workers=2)) == expected


def test_a_folder_is_every_log_under_it_as_for_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], dask_bag: Any
) -> None:
    from messages.interop.dask import decode_bag
    from messages.interop.dask import stats_bag

    paths = _archive(tmp_path)
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "skip.jsonl").write_text(TRANSCRIPT.read_text("utf-8"), "utf-8")
    (tmp_path / "README.md").write_text("not a log\n", "utf-8")
    expected = _cli_stats(capsys, [tmp_path])
    assert expected["total"]["inputs"] == [str(p) for p in paths if p.name != "notes.jsonl"]
    assert _as_json(stats_bag(str(tmp_path)).compute(scheduler="sync")) == expected
    assert decode_bag([str(tmp_path)]).npartitions == len(paths)
    with pytest.raises(TypeError, match="read whole"):
        decode_bag(str(tmp_path), blocksize=1024)


def test_the_split_message_counts_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], dask_bag: Any
) -> None:
    from messages.interop.dask import stats_bag

    paths = _archive(tmp_path)
    shards = [str(p) for p in paths if p.name.startswith("claude-")]
    whole = _cli_stats(capsys, [TRANSCRIPT], problems=False)
    found = _as_json(stats_bag(shards).compute(scheduler="sync"))
    assert found["total"]["tokens"] == whole["total"]["tokens"]
    assert found["total"]["turns"] == whole["total"]["turns"]
    assert found["sessions"][0]["inputs"] == shards


def test_the_message_bag_holds_every_log_s_messages(tmp_path: Path, dask_bag: Any) -> None:
    from messages.adapters import get
    from messages.interop.dask import decode_bag

    paths = _archive(tmp_path)
    bag = decode_bag([str(p) for p in paths])
    assert bag.npartitions == len(paths)  # a log is never split
    found = bag.compute(scheduler="sync")
    expected = []
    for path in paths:
        name, messages = decode_log(_lines(path))
        expected += list(messages)
        if name is not None:
            assert expected[-1] == list(get(name).iter_decode(_lines(path)))[-1]
    assert found == expected
    bad = [m for m in found if isinstance(m, InvalidLineMessage)]
    assert [(m.line, m.reason[:22]) for m in bad] == [
        (4, "$: invalid JSON (expec"),
        (1, "cannot tell the format"),
    ]
    two_per_task = decode_bag(str(tmp_path / "*" / "*.jsonl"), files_per_partition=2)
    assert two_per_task.npartitions == -(-len(paths) // 2)
    assert two_per_task.compute(scheduler="sync") == found


# -- the merge law, without Dask: any grouping of logs into partitions, any reduction tree ----


def _records(paths: list[Path]) -> list[list[tuple[str, str]]]:
    return [[(line, str(p)) for line in _lines(p)] for p in paths]


def _tree(parts: list[Any], data: st.DataObject) -> Any:
    """Merge ``parts`` in an order-keeping tree whose shape Hypothesis draws."""
    if len(parts) == 1:
        return parts[0]
    groups = []
    i = 0
    while i < len(parts):
        size = data.draw(st.integers(1, len(parts) - i))
        groups.append(Stats.merge_all(parts[i : i + size]))
        i += size
    if len(groups) == len(parts):  # no progress: merge the first two
        groups = [Stats.merge_all(groups[:2]), *groups[2:]]
    return _tree(groups, data)


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return _archive(tmp_path_factory.mktemp("archive"))


@given(data=st.data())
def test_any_grouping_and_any_merge_tree_give_the_whole(
    archive: list[Path], data: st.DataObject
) -> None:
    logs = _records(archive)
    whole = stats_partition([r for log in logs for r in log])
    cuts = sorted(data.draw(st.sets(st.integers(1, len(logs) - 1))))
    bounds = [0, *cuts, len(logs)]
    partitions = [[r for log in logs[a:b] for r in log] for a, b in pairwise(bounds)]
    parts = [stats_partition(p) for p in partitions]
    if data.draw(st.booleans()):  # a partition's stats may come back from another process
        parts = [pickle.loads(pickle.dumps(p)) for p in parts]
    merged = _tree(parts, data)
    assert merged == whole
    assert _as_json(merged) == _as_json(whole)


def test_a_partition_without_paths_is_one_log() -> None:
    lines = _lines(local("codex", "exec.jsonl"))
    name, messages = decode_log(lines)
    assert name == "codex"
    decoded = list(messages)
    assert decode_partition(lines) == decoded
    assert decode_partition(lines, normalize=True) == list(normalize_messages(decoded))

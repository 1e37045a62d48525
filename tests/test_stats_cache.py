"""``messages stats``' per-file cache, ``--jobs``, and ``--since`` skipping old files."""

from __future__ import annotations

import json
import os
import pickle
import threading
from pathlib import Path
from typing import Any
from typing import Final

import pytest

from messages.cli import main
from messages.stats import _cache
from messages.stats._cache import Cached
from messages.stats._cache import StatsCache

WHEN = "2026-11-20T10:00:00Z"


def _line(mid: str, session: str, out: int = 10, when: str = WHEN) -> str:
    return json.dumps(
        {
            "type": "assistant",
            "uuid": f"u-{mid}",
            "sessionId": session,
            "timestamp": when,
            "message": {
                "id": mid,
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [{"type": "text", "text": "ok"}],
                "usage": {"input_tokens": 100, "output_tokens": out},
            },
        }
    )


def _write(path: Path, *lines: str) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _stats(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[dict[str, Any], str]:
    code = main(["stats", "--json", *argv])
    out, err = capsys.readouterr()
    assert code in (0, 1)
    doc: dict[str, Any] = json.loads(out)
    return doc, err


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home / "messages" / "stats"


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.pickle")) if folder.is_dir() else []


def test_a_rerun_reads_the_cache_and_gives_the_same_report(
    tmp_path: Path, cache_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _write(tmp_path / "a.jsonl", _line("m1", "s1"), "not json")
    b = _write(tmp_path / "b.jsonl", _line("m2", "s2"))
    first, err1 = _stats(capsys, str(a), str(b))
    assert len(_entries(cache_home)) == 2
    stamps = [p.stat().st_mtime_ns for p in _entries(cache_home)]
    second, err2 = _stats(capsys, str(a), str(b))
    assert second == first
    assert err2 == err1 and f"{a}:2:" in err2  # the bad line is reported again, from the cache
    assert [p.stat().st_mtime_ns for p in _entries(cache_home)] == stamps  # nothing rewritten
    # the cache really is read: an entry's part stands in for the file
    cache = StatsCache(cache_home)
    key = cache.key(str(b), (None, False, False, _limits()))
    assert key is not None
    hit = cache.get(str(b), key)
    assert hit is not None and hit.stats is not None
    assert [s.session_id for s in hit.stats.sessions.values()] == ["s2"]


def _limits() -> str:
    from messages.cli.stats import _limits_key

    return _limits_key()


def test_a_changed_file_is_read_again(
    tmp_path: Path, cache_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _write(tmp_path / "a.jsonl", _line("m1", "s1", out=10))
    first, _ = _stats(capsys, str(a))
    assert first["total"]["tokens"]["output"] == 10
    _write(a, _line("m1", "s1", out=10), _line("m2", "s1", out=5))
    second, _ = _stats(capsys, str(a))
    assert second["total"]["tokens"]["output"] == 15
    # the same size and another time: read again too
    _write(a, _line("m1", "s1", out=70))
    os.utime(a, ns=(1, 1))
    third, _ = _stats(capsys, str(a))
    assert third["total"]["tokens"]["output"] == 70


def test_no_cache_neither_reads_nor_writes(
    tmp_path: Path, cache_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _write(tmp_path / "a.jsonl", _line("m1", "s1"))
    _stats(capsys, "--no-cache", str(a))
    assert _entries(cache_home) == []
    _stats(capsys, str(a))
    (entry,) = _entries(cache_home)
    entry.write_bytes(pickle.dumps(("forged", "value")))
    doc, _ = _stats(capsys, "--no-cache", str(a))
    assert doc["total"]["tokens"]["output"] == 10
    assert entry.read_bytes() == pickle.dumps(("forged", "value"))  # untouched


def test_another_library_or_price_version_is_a_miss(
    tmp_path: Path, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = _write(tmp_path / "a.jsonl", _line("m1", "s1"))
    cache = StatsCache(cache_home)
    key = cache.key(str(a), ())
    assert key is not None
    cache.put(str(a), key, Cached(None, "note\n", False, 1))
    assert cache.get(str(a), key) == Cached(None, "note\n", False, 1)
    for position, other in ((1, "99.0"), (2, "0.0.1-other-prices")):
        versions = list(cache.versions)
        versions[position] = other
        monkeypatch.setattr(_cache, "_versions", lambda v=tuple(versions): v)
        changed = StatsCache(cache_home)
        new_key = changed.key(str(a), ())
        assert new_key is not None
        assert changed.get(str(a), new_key) is None
    assert cache.get(str(a), cache.key(str(a), ("--strict",)) or ()) is None  # other options


@pytest.mark.parametrize(
    "garbage",
    [b"", b"\x80\x04not a pickle", pickle.dumps(["a", "list"]), pickle.dumps(("k", 1))[:-3]],
)
def test_a_corrupt_cache_file_is_ignored_and_replaced(
    tmp_path: Path, cache_home: Path, capsys: pytest.CaptureFixture[str], garbage: bytes
) -> None:
    a = _write(tmp_path / "a.jsonl", _line("m1", "s1"))
    first, _ = _stats(capsys, str(a))
    (entry,) = _entries(cache_home)
    entry.write_bytes(garbage)
    second, err = _stats(capsys, str(a))
    assert second == first and "cache" not in err
    assert entry.read_bytes() != garbage  # written again
    third, _ = _stats(capsys, str(a))
    assert third == first


def test_concurrent_runs_leave_whole_entries(tmp_path: Path, cache_home: Path) -> None:
    """Two runs writing the same entries at once: every entry is whole (atomic rename),
    and no temporary file is left behind."""
    files = [_write(tmp_path / f"f{i}.jsonl", _line(f"m{i}", f"s{i}")) for i in range(12)]
    errors: list[BaseException] = []

    def run() -> None:
        try:
            cache = StatsCache(cache_home)
            for f in files:
                key = cache.key(str(f), ())
                assert key is not None
                cache.put(str(f), key, Cached(None, str(f) * 2000, False, 1))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    cache = StatsCache(cache_home)
    for f in files:
        key = cache.key(str(f), ())
        assert key is not None
        assert cache.get(str(f), key) == Cached(None, str(f) * 2000, False, 1)
    assert [p.name for p in cache_home.iterdir() if not p.name.endswith(".pickle")] == []


def test_two_processes_at_once_agree(
    tmp_path: Path, cache_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = [str(_write(tmp_path / f"f{i}.jsonl", _line(f"m{i}", "s"))) for i in range(6)]
    alone, _ = _stats(capsys, "--no-cache", *files)
    both, _ = _stats(capsys, "--jobs", "2", *files)  # two workers filling the cache
    assert both == alone
    again, _ = _stats(capsys, "--jobs", "2", *files)
    assert again == alone
    assert len(_entries(cache_home)) == 6


def test_since_skips_files_last_modified_before_it(
    tmp_path: Path, cache_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "projects"
    folder.mkdir()
    old = _write(folder / "old.jsonl", _line("m1", "s1", when="2026-01-01T10:00:00Z"), "not json")
    new = _write(folder / "new.jsonl", _line("m2", "s2", when="2026-11-20T10:00:00Z"))
    os.utime(old, (1767261600, 1767261600))  # 2026-01-01 10:00 UTC: before --since
    argv = ("--no-cache", "--tz", "UTC", "--since", "2026-11-01", str(folder))
    doc, err = _stats(capsys, *argv)
    assert [s["session_id"] for s in doc["sessions"]] == ["s2"]
    assert doc["sessions"][0]["inputs"] == [str(new)]
    assert err == ""  # the old file was not read: its bad line goes unreported
    # modified since: read (its bad line is reported), its records before --since left out
    os.utime(old)
    doc, err = _stats(capsys, *argv)
    assert [s["session_id"] for s in doc["sessions"]] == ["s2"]
    assert f"{old}:2:" in err
    # without --since, nothing is skipped
    doc, _ = _stats(capsys, "--no-cache", str(old), str(new))
    assert [s["session_id"] for s in doc["sessions"]] == ["s1", "s2"]


# --- the prices of past reports, kept beside the entries -----------------------------------


def _prices_home(cache_home: Path) -> Path:
    return cache_home / "prices.memo"


def test_a_rerun_prices_from_the_memo_without_loading_the_price_table(
    tmp_path: Path, cache_home: Path
) -> None:
    """A run whose files are all cached gives the same report and never imports the table."""
    pytest.importorskip("genai_prices", reason="the prices extra is not installed")
    import subprocess
    import sys

    a = _write(tmp_path / "a.jsonl", _line("m1", "s1"), _line("m2", "s2", out=7))
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home.parent.parent)}
    src = str(Path(__file__).resolve().parent.parent / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    script = (
        "import sys; from messages.cli import main; code = main(sys.argv[1:]);"
        " print('genai_prices.data_snapshot' in sys.modules, file=sys.stderr); sys.exit(code)"
    )

    def run(*argv: str) -> tuple[dict[str, Any], str]:
        done = subprocess.run(
            [sys.executable, "-c", script, "stats", "--json", *argv],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        doc: dict[str, Any] = json.loads(done.stdout)
        return doc, done.stderr.strip()

    first, loaded = run(str(a))
    assert loaded == "True" and first["total"]["cost_usd"] > 0
    assert _prices_home(cache_home).is_file()
    second, loaded = run(str(a))
    assert (second, loaded) == (first, "False")
    day, loaded = run("--by", "day", str(a))  # another view: its own totals, priced once
    assert loaded == "True"
    again, loaded = run("--by", "day", str(a))
    assert (again, loaded) == (day, "False")
    model, loaded = run("--by", "model", str(a))  # the same parts as the day's: the same total
    assert loaded == "False" and model["total"] == day["total"]
    fresh, loaded = run("--no-cache", str(a))
    assert (fresh, loaded) == (first, "True")


def test_the_memo_answers_total_and_is_kept_per_version(
    tmp_path: Path, cache_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The memo's answer is the one used (so a stale one would show), and a memo made
    under other versions, or one that cannot be read, is ignored."""
    pytest.importorskip("genai_prices", reason="the prices extra is not installed")
    a = _write(tmp_path / "a.jsonl", _line("m1", "s1"))
    first, _ = _stats(capsys, str(a))
    cache = StatsCache(cache_home)
    memo = cache.prices()
    assert len(memo) == 1
    (digest,) = memo
    assert memo[digest][0] == pytest.approx(first["total"]["cost_usd"])
    forged = {digest: (123.0, ())}
    _prices_home(cache_home).write_bytes(pickle.dumps((cache.versions, forged)))
    doc, _ = _stats(capsys, str(a))
    assert doc["total"]["cost_usd"] == 123.0  # taken from the memo, as stored
    other = (*cache.versions[:2], "other prices", *cache.versions[3:])
    _prices_home(cache_home).write_bytes(pickle.dumps((other, forged)))
    assert StatsCache(cache_home).prices() == {}
    doc, _ = _stats(capsys, str(a))
    assert doc == first  # priced again, and the memo replaced
    assert StatsCache(cache_home).prices() == memo
    for garbage in (b"", b"\x80\x04not a pickle", pickle.dumps(["a"])):
        _prices_home(cache_home).write_bytes(garbage)
        assert StatsCache(cache_home).prices() == {}
        doc, _ = _stats(capsys, str(a))
        assert doc == first


def test_a_total_with_an_undated_part_is_not_memoized() -> None:
    """Priced at the current time, such a total could change from one day to the next."""
    pytest.importorskip("genai_prices", reason="the prices extra is not installed")
    from messages.stats import Tokens
    from messages.stats._prices import memoized
    from messages.stats._prices import total

    dated = ("claude-sonnet-4-5", 1.7e9, Tokens(100, 10), ())
    undated = ("claude-sonnet-4-5", None, Tokens(100, 10), ())
    plain = total([dated])
    memo: dict[str, Any] = {}
    with memoized(memo) as used:
        assert total([dated]) == plain
        assert total([dated, undated])[0] is not None
    assert len(memo) == 1 and set(memo) == used
    with memoized(memo) as used:
        assert total([dated]) == plain
    assert used == set(memo)


def test_no_cache_leaves_the_memo_alone(
    tmp_path: Path, cache_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _write(tmp_path / "a.jsonl", _line("m1", "s1"))
    _stats(capsys, "--no-cache", str(a))
    assert not _prices_home(cache_home).exists()


@pytest.mark.parametrize("forked", [True, False], ids=["forked", "pool"])
def test_every_number_of_jobs_gives_the_same_report_and_reports(
    tmp_path: Path,
    cache_home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    forked: bool,
) -> None:
    """Workers take the largest files first and this process the smallest, from the same
    queue: whoever reads a file, the report, the stderr lines (in input order) and the exit
    code are those of reading in order; and so with the number of jobs chosen per run,
    with workers forked from this process (Linux) or a process pool's (elsewhere)."""
    from messages.cli import stats as cli_stats

    if forked and not cli_stats._forking():
        pytest.skip("workers are forked only on Linux, from a process with one thread")
    monkeypatch.setattr(cli_stats, "_forking", lambda: forked)

    files = []
    for i in range(9):
        lines = [_line(f"m{i}-{k}", f"s{i % 4}", out=i + k) for k in range(1 + 7 * (i % 3))]
        if i in (2, 7):
            lines.append("not json")
        files.append(str(_write(tmp_path / f"f{i}.jsonl", *lines)))

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(["stats", "--json", "--no-cache", *argv, *files])
        return (code, *capsys.readouterr())

    alone = run("--jobs", "1")
    assert alone[0] == 1 and alone[2].index("f2.jsonl:") < alone[2].index("f7.jsonl:")
    for jobs in ("2", "3", "5"):
        assert run("--jobs", jobs) == alone, jobs
    assert run("--by", "day", "--jobs", "3")[1] == run("--by", "day", "--jobs", "1")[1]
    assert cli_stats._auto_jobs([cli_stats.Input(f) for f in files]) == 1  # a small read
    monkeypatch.setattr(cli_stats, "AUTO_JOBS_BYTES", 0)
    assert cli_stats._auto_jobs([cli_stats.Input(f) for f in files]) >= 1
    assert run() == alone  # as many jobs as cores


# -- workers forked from this process (Linux) ---------------------------------------------


def _forked_files(tmp_path: Path) -> list[str]:
    return [
        str(_write(tmp_path / f"f{i}.jsonl", *(_line(f"m{i}-{k}", f"s{i % 3}") for k in range(i))))
        for i in range(1, 9)
    ]


@pytest.fixture
def forking() -> None:
    from messages.cli import stats as cli_stats

    if not cli_stats._forking():
        pytest.skip("workers are forked only on Linux, from a process with one thread")


@pytest.fixture
def forked(monkeypatch: pytest.MonkeyPatch, forking: None) -> list[int]:
    """The workers' process ids, as they are forked."""
    pids: list[int] = []
    fork = os.fork

    def recorded() -> int:
        pid = fork()
        if pid:
            pids.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", recorded)
    return pids


def _reaped(pids: list[int]) -> bool:
    """Whether every one of ``pids`` has ended and been waited for (none is left behind)."""
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            continue
        return False
    return True


@pytest.mark.usefixtures("forking")
def test_a_file_a_dead_worker_took_is_read_here(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that dies (killed, out of memory) after taking a file: this process reads
    that file itself, and so every file it had not taken yet; the report is the same."""
    from messages.cli import stats as cli_stats

    files = _forked_files(tmp_path)
    alone, _ = _stats(capsys, "--no-cache", "--jobs", "1", *files)
    parent, read = os.getpid(), cli_stats.read_one

    def dies_in_a_worker(inp: Any, opts: Any) -> Any:
        if os.getpid() != parent:
            os._exit(9)  # as a worker killed while reading its first file
        return read(inp, opts)

    monkeypatch.setattr(cli_stats, "read_one", dies_in_a_worker)
    for jobs in ("2", "3"):
        found, _ = _stats(capsys, "--no-cache", "--jobs", jobs, *files)
        assert found == alone


def test_an_error_in_a_worker_is_raised_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forked: list[int]
) -> None:
    """A file whose reading fails in a worker is read again here, so that its error is this
    process's own (with its traceback), as a process pool raises a worker's error."""
    from messages.cli import stats as cli_stats

    files = _forked_files(tmp_path)

    def fails(inp: Any, opts: Any) -> Any:
        raise RuntimeError(f"cannot read {inp.path}")

    monkeypatch.setattr(cli_stats, "read_one", fails)
    with pytest.raises(RuntimeError, match="cannot read"):
        main(["stats", "--json", "--no-cache", "--jobs", "2", *files])
    assert len(forked) == 1 and _reaped(forked)  # no worker is left behind


def test_the_workers_are_stopped_when_this_process_stops_early(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forked: list[int]
) -> None:
    """An error here (or Ctrl-C) while workers still read: they are stopped and reaped."""
    from messages.cli import stats as cli_stats

    files = _forked_files(tmp_path)
    parent, read = os.getpid(), cli_stats.read_one

    def slow_there_failing_here(inp: Any, opts: Any) -> Any:
        if os.getpid() != parent:
            threading.Event().wait(30)  # a worker still busy when this process stops
            return read(inp, opts)
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_stats, "read_one", slow_there_failing_here)
    assert main(["stats", "--json", "--no-cache", "--jobs", "3", *files]) == 130  # Ctrl-C's
    assert len(forked) == 2 and _reaped(forked)


@pytest.mark.usefixtures("forking")
def test_a_worker_killed_while_taking_a_file_leaves_nobody_waiting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The queue's lock goes with a worker that dies holding it: this process goes on."""
    import fcntl
    import signal

    from messages.cli import stats as cli_stats

    files = _forked_files(tmp_path)
    alone, _ = _stats(capsys, "--no-cache", "--jobs", "1", *files)
    parent, take = os.getpid(), cli_stats._Queue.take

    def dies_holding_the_lock(self: Any, *, front: bool) -> Any:
        if os.getpid() != parent:
            fcntl.lockf(self._fd, fcntl.LOCK_EX)
            os._exit(9)
        return take(self, front=front)

    def hung(signum: int, frame: Any) -> None:
        raise TimeoutError("this process waits for a lock nobody holds")

    monkeypatch.setattr(cli_stats._Queue, "take", dies_holding_the_lock)
    before = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    try:
        found, _ = _stats(capsys, "--no-cache", "--jobs", "2", *files)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
    assert found == alone


@pytest.mark.usefixtures("forking")
def test_the_stopping_signals_are_held_only_across_the_fork(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C is held back while a worker is forked, so that it never runs this process's
    code in the worker; once forked, both sides take it again (else Ctrl-C would wait)."""
    import signal

    from messages.cli import stats as cli_stats

    files = _forked_files(tmp_path)
    log = tmp_path / "masks.log"
    parent, read = os.getpid(), cli_stats.read_one

    def logged(inp: Any, opts: Any) -> Any:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, [])
        if os.getpid() == parent:
            threading.Event().wait(0.02)  # the workers take their share meanwhile
        with open(log, "a", encoding="utf-8") as fp:
            fp.write(f"{os.getpid() == parent} {signal.SIGINT in held}\n")
        return read(inp, opts)

    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    monkeypatch.setattr(cli_stats, "read_one", logged)
    _stats(capsys, "--no-cache", "--jobs", "3", *files)
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before
    seen = set(log.read_text(encoding="utf-8").splitlines())
    assert "False False" in seen and "True True" not in seen and "False True" not in seen


_REFUSALS: Final = {
    "fork": ("os", "fork", BlockingIOError(11, "Resource temporarily unavailable"), 0),
    "memory-files": ("os", "memfd_create", OSError(38, "Function not implemented"), 2),
    "file-locks": ("fcntl", "lockf", OSError(38, "Function not implemented"), 0),
    "descriptors": ("messages.cli.stats", "_Outcomes.__init__", OSError(24, "Too many"), 0),
}
"""What a system may refuse the forked workers: the module, the name, the error, and how
many workers this process still forks then."""


@pytest.mark.parametrize("refused", sorted(_REFUSALS))
def test_a_system_refusing_what_workers_need_still_reads_as_one_job(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    forked: list[int],
    refused: str,
) -> None:
    """No process to fork: this one reads alone. No files in memory: temporary files serve
    its workers. No file locks: a process pool's workers read. No descriptor for another
    worker: those there are read. The report is the same each time."""
    import importlib

    files = _forked_files(tmp_path)
    alone, _ = _stats(capsys, "--no-cache", "--jobs", "1", *files)
    module, name, error, workers = _REFUSALS[refused]
    owner: Any = importlib.import_module(module)
    *path, last = name.split(".")
    for part in path:
        owner = getattr(owner, part)

    def refuse(*args: Any) -> Any:
        raise error

    monkeypatch.setattr(owner, last, refuse)
    found, _ = _stats(capsys, "--no-cache", "--jobs", "3", *files)
    assert found == alone
    assert len(forked) == workers and _reaped(forked)


def test_the_shared_queue_gives_each_place_once_from_either_end() -> None:
    from messages.cli.stats import _Queue

    queue = _Queue([7, 3, 9, 0, 5])  # inputs, largest first
    try:
        taken = [queue.take(front=f) for f in (True, False, True, True, False, True, False)]
    finally:
        queue.close()
    assert taken == [7, 5, 3, 9, 0, None, None]


def test_no_input_after_a_strict_stop_is_handed_out() -> None:
    """Once ``--strict`` stopped at an input, no input after it (in input order) is read,
    from either end; those before it still are."""
    from messages.cli.stats import _Queue

    queue = _Queue([7, 3, 9, 0, 5, 1, 8])
    try:
        assert queue.take(front=True) == 7
        queue.stop_at(4)
        queue.stop_at(6)  # a later stop does not move it back
        taken = [queue.take(front=f) for f in (True, False, True, False, True)]
    finally:
        queue.close()
    assert taken == [3, 1, 0, None, None]


def test_an_outcome_still_being_written_waits_for_the_rest() -> None:
    """A worker's outcomes are read back as they come: one written in part is not read
    until it is whole, and those before it are."""
    from messages.cli.commands import Outcome
    from messages.cli.stats import _SIZE
    from messages.cli.stats import _Outcomes

    out = _Outcomes()
    try:
        records = [pickle.dumps((i, ("", Outcome(lines=i)))) for i in range(3)]
        data = b"".join(_SIZE.pack(len(r)) + r for r in records)
        cut = len(data) - len(records[2]) // 2
        os.write(out.fd, data[:cut])
        assert [(i, o.lines) for i, (_, o) in out.take()] == [(0, 0), (1, 1)]
        assert out.take() == []
        os.write(out.fd, data[cut:])
        assert [(i, o.lines) for i, (_, o) in out.take()] == [(2, 2)]
        assert out.take() == []
    finally:
        os.close(out.fd)


_ORPHANED = """
import os, signal, sys, time
from messages.cli import main
from messages.cli import stats as cli_stats

log, *files = sys.argv[1:]
parent, read = os.getpid(), cli_stats.read_one

def read_once_gone(inp, opts):
    if os.getpid() != parent:  # a worker: it reads on once this process is gone
        deadline = time.monotonic() + 30
        while os.getppid() == parent and time.monotonic() < deadline:
            time.sleep(0.001)
        with open(log, "a") as f:
            f.write(inp.path + "\\n")
    return read(inp, opts)

def killed():  # right after the workers are forked
    os.kill(parent, signal.SIGKILL)

cli_stats.read_one = read_once_gone
cli_stats.warm = killed
main(["stats", "--no-cache", "--jobs", "3", *files])
"""


@pytest.mark.usefixtures("forking")
def test_workers_stop_taking_files_once_this_process_is_gone(tmp_path: Path) -> None:
    """This process killed (SIGKILL, the out-of-memory killer, a plain ``kill``, which ends
    it with no chance to stop them): its workers read no further file for nobody, each
    ends after the one it holds, instead of reading all the rest of the queue."""
    import subprocess
    import sys

    files = _forked_files(tmp_path)
    log = tmp_path / "read.log"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    done = subprocess.run(  # returns once every process holding its pipes has ended
        [sys.executable, "-c", _ORPHANED, str(log), *files],
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == -9 and done.stderr == b""
    read = log.read_text().splitlines() if log.exists() else []
    assert len(read) <= 2  # at most the file each of the two workers had taken


@pytest.mark.usefixtures("forking")
def test_a_worker_reaped_already_is_not_signalled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forked: list[int]
) -> None:
    """Stopped early (Ctrl-C) while one worker still reads and another has ended and been
    reaped: the reaped one's process id may belong to another process by now, and only the
    one still reading is sent a signal to stop."""
    import time

    from messages.cli import stats as cli_stats

    files = _forked_files(tmp_path)
    largest = files[-1]
    parent, read = os.getpid(), cli_stats.read_one
    waitpid, sleep, kill = os.waitpid, time.sleep, os.kill
    reaped: list[int] = []
    signalled: list[int] = []

    def slow_on_the_largest(inp: Any, opts: Any) -> Any:
        if os.getpid() != parent and inp.path == largest:
            threading.Event().wait(30)  # still busy when this process stops
        return read(inp, opts)

    def recorded_waitpid(pid: int, options: int) -> tuple[int, int]:
        found = waitpid(pid, options)
        if found[0]:
            reaped.append(found[0])
        return found

    def interrupted_once_one_ended(seconds: float) -> None:
        if reaped:
            raise KeyboardInterrupt
        sleep(seconds)

    def recorded_kill(pid: int, signum: int) -> None:
        signalled.append(pid)
        kill(pid, signum)

    monkeypatch.setattr(cli_stats, "read_one", slow_on_the_largest)
    monkeypatch.setattr(os, "waitpid", recorded_waitpid)
    monkeypatch.setattr(time, "sleep", interrupted_once_one_ended)
    monkeypatch.setattr(os, "kill", recorded_kill)
    assert main(["stats", "--json", "--no-cache", "--jobs", "3", *files]) == 130
    assert len(forked) == 2 and _reaped(forked)
    assert len(reaped) == 2 and not set(signalled) & set(reaped[:1])


@pytest.mark.usefixtures("forking")
def test_a_process_that_ignores_its_children_ending_still_reads_with_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With SIGCHLD ignored (a program can start this one so: an ignored signal stays
    ignored across exec) the system reaps each worker as it ends, and waiting for it finds
    no child: that is its end, not an error; the report is that of one job."""
    import signal

    files = _forked_files(tmp_path)
    alone, _ = _stats(capsys, "--no-cache", "--jobs", "1", *files)
    before = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        found, err = _stats(capsys, "--no-cache", "--jobs", "3", *files)
    finally:
        signal.signal(signal.SIGCHLD, before)
    assert (found, err) == (alone, "")


def test_no_more_workers_are_forked_than_there_are_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], forked: list[int]
) -> None:
    """``--jobs 8`` on two files: a worker for each file at most, not seven processes
    forked from this one (each a copy of it to set up) of which five find nothing left."""
    files = _forked_files(tmp_path)[:2]
    alone, _ = _stats(capsys, "--no-cache", "--jobs", "1", *files)
    found, _ = _stats(capsys, "--no-cache", "--jobs", "8", *files)
    assert found == alone
    assert 1 <= len(forked) <= 2 and _reaped(forked)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["stats", "--json", *argv])
    return (code, *capsys.readouterr())


@pytest.mark.usefixtures("forking")
@pytest.mark.parametrize("bad", [0, -1], ids=["read-here", "read-by-a-worker"])
def test_strict_stops_where_one_job_stops(
    tmp_path: Path, cache_home: Path, capsys: pytest.CaptureFixture[str], bad: int
) -> None:
    """``--strict`` with the first bad line in the smallest file (this process reads it,
    from the back of the queue) or in the largest (a worker's, from the front): the same
    exit code, report and stderr as one job; the later file's bad line is not said, and
    no file after the stop is cached."""
    files = _forked_files(tmp_path)
    first = files.pop(bad)
    later = files.pop(3)
    for f in (first, later):
        with open(f, "a", encoding="utf-8") as fp:
            fp.write("not json\n")
    argv = [*files[:3], first, later, *files[3:]]

    def run(jobs: str) -> tuple[tuple[int, str, str], list[str]]:
        import shutil

        shutil.rmtree(cache_home, ignore_errors=True)
        found = _run(capsys, "--strict", "--jobs", jobs, *argv)
        return found, [p.name for p in _entries(cache_home)]

    alone = run("1")
    assert alone[0][0] == 1 and f"{first}:" in alone[0][2] and later not in alone[0][2]
    assert len(alone[1]) == 3  # the files before the stop
    assert run("2") == alone
    assert run("4") == alone


@pytest.mark.usefixtures("forking")
def test_strict_reads_nothing_after_the_stop_with_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first input stops ``--strict`` (its bad line found by a worker): the other
    inputs, all after it, are not read on, beyond the one this process holds (they were
    all read for nothing before), and what is said is what one job says."""
    import time

    from messages.cli import stats as cli_stats

    files = _forked_files(tmp_path)
    with open(files[-1], "a", encoding="utf-8") as fp:  # the largest: a worker's first
        fp.write("not json\n")
    argv = [files[-1], *files[:-1]]
    alone = _run(capsys, "--strict", "--no-cache", "--jobs", "1", *argv)
    log = tmp_path / "read.log"
    parent, read = os.getpid(), cli_stats.read_one

    def logged(inp: Any, opts: Any) -> Any:
        if os.getpid() == parent:
            time.sleep(0.05)  # this process slower than the worker that finds the stop
        with open(log, "a", encoding="utf-8") as fp:
            fp.write(inp.path + "\n")
        return read(inp, opts)

    monkeypatch.setattr(cli_stats, "read_one", logged)
    assert _run(capsys, "--strict", "--no-cache", "--jobs", "2", *argv) == alone
    read_files = log.read_text(encoding="utf-8").splitlines()
    assert files[-1] in read_files and len(read_files) <= 2


def _descriptors() -> list[str]:
    return sorted(os.listdir("/proc/self/fd"))


@pytest.mark.usefixtures("forking")
def test_no_descriptor_is_left_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The queue's and the workers' files in memory are closed after a run, and after a
    run stopped by an error here."""
    from messages.cli import stats as cli_stats

    files = _forked_files(tmp_path)
    _stats(capsys, "--no-cache", "--jobs", "3", *files)  # whatever a first run sets up
    before = _descriptors()
    _stats(capsys, "--no-cache", "--jobs", "3", *files)
    assert _descriptors() == before

    def fails_here() -> None:  # the parent's own step while its workers read
        raise RuntimeError("stopped")

    monkeypatch.setattr(cli_stats, "warm", fails_here)
    with pytest.raises(RuntimeError, match="stopped"):
        main(["stats", "--json", "--no-cache", "--jobs", "3", *files])
    assert _descriptors() == before


def _plain(value: Any) -> Any:
    """``value`` as plain data to compare: slotted objects by their fields, sets as sets
    (the order a set is walked in changes with how it was built, its contents do not)."""
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    names = [n for c in type(value).__mro__ for n in getattr(c, "__slots__", ())]
    if not names and hasattr(value, "__dict__"):
        names = list(vars(value))
    if names:
        return (type(value).__name__, {n: _plain(getattr(value, n, None)) for n in names})
    return value


@pytest.mark.usefixtures("forking")
def test_workers_fill_the_cache_as_one_job_does(
    tmp_path: Path,
    cache_home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each entry written after a run with workers holds what one job's run writes there;
    a second run reads no file at all."""
    import shutil

    from messages.cli import stats as cli_stats

    files = _forked_files(tmp_path)
    with open(files[5], "a", encoding="utf-8") as fp:
        fp.write("not json\n")

    def entries() -> dict[str, Any]:
        return {p.name: _plain(pickle.loads(p.read_bytes())) for p in _entries(cache_home)}

    alone = _run(capsys, "--jobs", "1", *files)
    one = entries()
    assert len(one) == len(files)
    shutil.rmtree(cache_home)
    assert _run(capsys, "--jobs", "3", *files) == alone
    assert entries() == one

    def unread(inp: Any, opts: Any) -> Any:
        raise AssertionError(f"{inp.path} read again")

    monkeypatch.setattr(cli_stats, "read_one", unread)
    assert _run(capsys, "--jobs", "3", *files) == alone


@pytest.mark.usefixtures("forking")
def test_odd_files_in_a_folder_are_said_as_one_job_says_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many tiny files, bad lines in some, empty ones, one not an agent log, one gone
    between listing and reading (and one unreadable, when not run as root): stderr says
    the same, in the same order, whichever process read each."""
    import importlib

    cli_main = importlib.import_module("messages.cli.main")
    folder = tmp_path / "projects"
    folder.mkdir()
    for i in range(40):
        lines = [_line(f"m{i}", f"s{i % 5}")] if i % 7 else []
        if i % 3 == 0:
            lines.append(f"not json {i}")
        _write(folder / f"f{i:02}.jsonl", *lines)
    _write(folder / "f40.jsonl", json.dumps({"x": 1}))
    gone = folder / "f17.jsonl"
    if os.geteuid() != 0:  # root reads any file
        (folder / "f23.jsonl").chmod(0)
    collect = cli_main.collect

    def listed_then_gone(inputs: Any, *args: Any, **kwargs: Any) -> Any:
        gone.unlink(missing_ok=True)
        return collect(inputs, *args, **kwargs)

    monkeypatch.setattr(cli_main, "collect", listed_then_gone)
    found = {}
    for jobs in ("1", "2", "5"):
        _write(gone, _line("m17", "s2"))
        found[jobs] = _run(capsys, "--no-cache", "--jobs", jobs, str(folder))
    said = found["1"][2]
    assert f"{gone}: No such file" in said and said.count("skipped: empty") == 4
    assert said.count("invalid JSON") == 12
    assert found["2"] == found["1"] and found["5"] == found["1"]


@pytest.mark.usefixtures("forking")
def test_a_worker_dying_in_the_middle_of_an_outcome(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker killed while writing an outcome leaves half of it: that half is never
    read as an outcome, and the file is read here in its turn."""
    files = _forked_files(tmp_path)
    alone = _run(capsys, "--no-cache", "--jobs", "1", *files)
    parent, write = os.getpid(), os.write

    def half_then_dies(fd: int, data: Any) -> int:
        if os.getpid() != parent:
            write(fd, bytes(data[: len(data) // 2]))
            os._exit(9)
        return write(fd, data)

    monkeypatch.setattr(os, "write", half_then_dies)
    assert _run(capsys, "--no-cache", "--jobs", "3", *files) == alone


@pytest.mark.usefixtures("forking")
def test_an_outcome_of_megabytes_comes_back_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A worker's file with 20,000 bad lines: over a megabyte of what it says, sent back
    in one outcome, comes out as one job says it."""
    files = _forked_files(tmp_path)
    with open(files[-1], "a", encoding="utf-8") as fp:
        fp.writelines(f"not json {k}\n" for k in range(20_000))
    alone = _run(capsys, "--no-cache", "--jobs", "1", *files)
    assert len(alone[2]) > 1_000_000
    assert _run(capsys, "--no-cache", "--jobs", "2", *files) == alone


_INTERRUPTED = """
import os, sys, time
from messages.cli import main
from messages.cli import stats as cli_stats

folder, *files = sys.argv[1:]
parent, read = os.getpid(), cli_stats.read_one

def reading(inp, opts):
    if os.getpid() != parent:  # a worker: say so, then read on until Ctrl-C
        open(os.path.join(folder, f"reading-{os.getpid()}"), "w").close()
        time.sleep(30)
    return read(inp, opts)

cli_stats.read_one = reading
sys.exit(main(["stats", "--no-cache", "--jobs", "3", *files]))
"""


@pytest.mark.usefixtures("forking")
def test_ctrl_c_stops_every_worker_quietly(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to the whole process group) while workers read: exit code 130, no
    traceback from any process, and no process of the group left."""
    import signal
    import subprocess
    import sys
    import time

    files = _forked_files(tmp_path)
    marks = tmp_path / "marks"
    marks.mkdir()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    proc = subprocess.Popen(
        [sys.executable, "-c", _INTERRUPTED, str(marks), *files],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while len(list(marks.iterdir())) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)  # once every process holding its pipes ended
    finally:
        if proc.poll() is None:
            proc.kill()
    assert (proc.returncode, out, err) == (130, b"", b"")
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)

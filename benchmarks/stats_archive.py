"""``messages stats`` over an archive of realistic size, beside ccusage on the same files.

Builds a synthetic Claude Code archive from the real shared captures (the Claude Code 2.1
session of ``../shared/fixtures/claude_code/transcripts-2.1`` with its subagent files), laid
out as ``~/.claude`` is (``projects/<project>/<session>.jsonl`` and
``<session>/subagents/agent-*.jsonl``). Each copy gets its own ids (session, uuids, message
and request ids, tool call ids) and its timestamps moved by a few hours, so that nothing
deduplicates away and the copies spread over days and billing blocks. Then it times, in the
same run and in interleaved rounds (a busy machine slows both alike):

- ``messages stats --json`` with no result cache (a first run, with the number of processes
  it chooses: one per core on an archive this size), with ``--jobs 1`` and ``--jobs 2``,
  and again with a warm cache (a re-run);
- the same first run with the standard library's JSON reader only (``MESSAGES_JSON=stdlib``)
  when the ``fast`` extra is installed;
- ``ccusage claude session --json --offline`` on the same archive, when ``ccusage`` is on
  the ``PATH`` (or named with ``--ccusage``).

Run by hand (the figures of docs/performance.md come from it)::

    python benchmarks/stats_archive.py                  # about 259 MB, best of 3
    python benchmarks/stats_archive.py --mb 50 --rounds 5 --ccusage PATH/TO/ccusage
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from datetime import timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FIXTURES = Path(os.environ.get("MESSAGES_FIXTURES", ROOT.parent.parent / "shared" / "fixtures"))
if not FIXTURES.is_dir():
    FIXTURES = ROOT.parent / "shared" / "fixtures"
SESSION = FIXTURES / "claude_code" / "transcripts-2.1"

_UUID = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_IDS = re.compile(rb"\b(msg|req|toolu|srvtoolu)_([A-Za-z0-9]+)")
_TIME = re.compile(rb'"timestamp":"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?)Z"')


def _rewrite(data: bytes, copy: int) -> bytes:
    """The bytes of one file with every id made unique to ``copy`` and times moved."""
    tag = f"{copy:04x}".encode()

    def uuid(m: re.Match[bytes]) -> bytes:
        digest = hashlib.blake2b(m.group(0) + tag, digest_size=6).hexdigest().encode()
        return m.group(0)[:24] + digest

    def ident(m: re.Match[bytes]) -> bytes:
        return m.group(1) + b"_" + m.group(2) + b"x" + tag

    def moved(m: re.Match[bytes]) -> bytes:
        when = datetime.fromisoformat(m.group(1).decode()) + timedelta(hours=7 * copy)
        return b'"timestamp":"' + when.isoformat(timespec="milliseconds").encode() + b'Z"'

    data = _UUID.sub(uuid, data)
    data = _IDS.sub(ident, data)
    return _TIME.sub(moved, data)


def build(folder: Path, megabytes: float) -> tuple[int, int]:
    """Write the archive under ``folder/projects``; the number of files and bytes written."""
    sources = sorted(SESSION.rglob("*.jsonl"))
    if not sources:
        raise SystemExit(f"the shared captures are not there: {SESSION}")
    size = sum(p.stat().st_size for p in sources)
    copies = max(1, round(megabytes * 1e6 / size))
    files = written = 0
    for copy in range(copies):
        project = folder / "projects" / f"-home-user-project{copy % 12}"
        for src in sources:
            rel = src.relative_to(SESSION / src.relative_to(SESSION).parts[0])
            data = _rewrite(src.read_bytes(), copy)
            name = _rewrite(str(rel).encode(), copy).decode()
            target = project / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            files += 1
            written += len(data)
    return files, written


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system, the process and its workers) of a run."""
    cpu = _cpu()
    start = time.perf_counter()
    done = subprocess.run(
        argv, check=False, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.decode()[-500:]}")
    return elapsed, _cpu() - cpu


def _spin(n: int = 4_000_000) -> int:
    x = 0
    for i in range(n):
        x += i & 7
    return x


def machine_scaling(rounds: int = 3) -> float:
    """How much more two busy Python processes get done than one, on this machine now.

    The ceiling of any ``--jobs 2`` speed-up here: 2.0 on two free cores, less where the
    cores are shared (hyper-threads, other work).
    """
    import multiprocessing

    context = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")

    def timed(k: int) -> float:
        start = time.perf_counter()
        workers = [context.Process(target=_spin) for _ in range(k)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        return time.perf_counter() - start

    one = min(timed(1) for _ in range(rounds))
    two = min(timed(2) for _ in range(rounds))
    return 2 * one / two


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=259.0, help="archive size (default 259)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, best kept (default 3)")
    parser.add_argument("--ccusage", default=shutil.which("ccusage"), help="ccusage to run")
    parser.add_argument("--keep", type=Path, help="build the archive here and keep it")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="stats-archive-"))
    cache = Path(tempfile.mkdtemp(prefix="stats-cache-"))
    try:
        files, size = build(folder, args.mb)
        print(f"archive: {files} files, {size / 1e6:.0f} MB ({folder})", flush=True)
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "XDG_CACHE_HOME": str(cache)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # compiled once, as an installed package is
        env["PYTHONPYCACHEPREFIX"] = str(cache / "pycache")
        ours = [sys.executable, "-m", "messages", "stats", "--json"]
        projects = str(folder / "projects")
        runs: dict[str, tuple[list[str], dict[str, str]]] = {
            "messages first run (--no-cache)": ([*ours, "--no-cache", projects], env),
            "messages --jobs 1 --no-cache": ([*ours, "--jobs", "1", "--no-cache", projects], env),
            "messages --jobs 2 --no-cache": ([*ours, "--jobs", "2", "--no-cache", projects], env),
            "messages re-run (warm cache)": ([*ours, projects], env),
        }
        from importlib.util import find_spec

        if find_spec("orjson") or find_spec("msgspec"):
            stdlib = {**env, "MESSAGES_JSON": "stdlib"}
            runs["messages first run, stdlib JSON"] = ([*ours, "--no-cache", projects], stdlib)
        if args.ccusage:
            cc_env = {**os.environ, "CLAUDE_CONFIG_DIR": str(folder), "HOME": str(folder)}
            runs["ccusage session --json"] = (
                [args.ccusage, "claude", "session", "--json", "--offline"],
                cc_env,
            )
        _timed([*ours, projects], env)  # fills the cache for the re-run
        best = dict.fromkeys(runs, (float("inf"), float("inf")))
        load = os.getloadavg()[0]
        for _ in range(args.rounds):
            for name, (argv, run_env) in runs.items():
                wall, cpu = _timed(argv, run_env)
                best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
        load = (load + os.getloadavg()[0]) / 2
        cores = os.cpu_count()
        print(f"best of {args.rounds} rounds (load average about {load:.1f}, {cores} cores):")
        print(f"  {'':36s} {'wall':>8s} {'cpu':>8s}   wall and cpu against ccusage")
        base = best.get("ccusage session --json")
        for name, (wall, cpu) in best.items():
            ratio = f"  {wall / base[0]:5.2f}x {cpu / base[1]:5.2f}x" if base else ""
            print(f"  {name:36s} {wall:7.2f}s {cpu:7.2f}s{ratio}")
        one, two = best["messages --jobs 1 --no-cache"][0], best["messages --jobs 2 --no-cache"][0]
        print(f"  --jobs 2 speed-up over --jobs 1 (wall): {one / two:.2f}x")
        print(f"  two busy processes against one on this machine: {machine_scaling():.2f}x")
    finally:
        shutil.rmtree(cache, ignore_errors=True)
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()

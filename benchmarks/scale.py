"""Per-core throughput of the archive job: decode, normalize and stats, beside json.loads.

Run by hand (see docs/scale.md); the figures there come from this script:

    python benchmarks/scale.py                    # 20,000 lines per corpus, best of 5
    python benchmarks/scale.py --lines 50000 --passes 7 --archive-gb 500
    python benchmarks/scale.py --no-dask          # without the Dask rows

One process is one core: every measure is the CPU time of this process over the same lines,
run in interleaved rounds (so a busy machine slows floor and measure alike), and the best
round is kept. Measured per corpus (the real-shaped Claude Code stream-json corpus of
``corpus.py``, and the same conversations as Codex writes them):

- ``json.loads`` of every line (the floor any Python reader pays);
- ``decode``: ``messages.interop.dask.decode_log`` (format detection included) to typed messages;
- ``decode + normalize``: the same, then ``normalize_messages`` (the flat view);
- ``decode + stats``: ``messages.interop.dask.stats_partition``, what one task of ``stats_bag``
  does: decode and count (a ``messages.stats.Stats``);
- with Dask installed, ``stats_bag`` on the ``sync`` scheduler over the corpus written as
  shard files (files read, partitions built, stats merged: the whole job on one core).

Printed: lines/s and MB/s per core, microseconds per line, and the ratio to the floor; then
the core-hours an archive of ``--archive-gb`` takes at the slowest per-core rate measured.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

import corpus  # noqa: E402

from messages.convert import normalize_messages  # noqa: E402
from messages.interop.dask import decode_log  # noqa: E402
from messages.interop.dask import stats_partition  # noqa: E402


def _drain(items: Any) -> None:
    deque(items, maxlen=0)


def _best(measures: dict[str, Callable[[], Any]], passes: int) -> dict[str, float]:
    """The best CPU time of each measure over ``passes`` interleaved rounds."""
    best: dict[str, float] = {}
    gc.collect()
    gc.freeze()
    for _ in range(passes):
        for name, fn in measures.items():
            gc.collect()
            start = time.process_time()
            fn()
            elapsed = time.process_time() - start
            best[name] = min(best.get(name, elapsed), elapsed)
    return best


def _shards(lines: list[str], folder: Path, per_file: int) -> str:
    """Write ``lines`` as shard files of whole sessions (a session never straddles two)."""
    marks = ('"subtype":"init"', '"type":"thread.started"')  # Claude Code, Codex
    starts = [i for i, line in enumerate(lines) if any(m in line[:80] for m in marks)]
    # a Claude Code session's first prompt comes just before its init line
    starts = [i - 1 if i and lines[i - 1].startswith('{"type":"user"') else i for i in starts]
    starts = sorted({0, *starts})
    files, current, count = 0, [], 0
    bounds = [*starts[1:], len(lines)]
    for a, b in zip(starts, bounds, strict=True):
        current.extend(lines[a:b])
        count += b - a
        if count >= per_file:
            (folder / f"part-{files:05d}.jsonl").write_text("\n".join(current) + "\n", "utf-8")
            files, current, count = files + 1, [], 0
    if current or not files:
        (folder / f"part-{files:05d}.jsonl").write_text("\n".join(current) + "\n", "utf-8")
    return str(folder / "*.jsonl")


def measure(
    name: str, lines: list[str], passes: int, dask: bool, folder: Path
) -> list[tuple[str, float]]:
    """``(measure, seconds)`` rows for one corpus; the first row is the floor."""
    records = [(line, "corpus.jsonl") for line in lines]
    measures: dict[str, Callable[[], Any]] = {
        "json.loads (floor)": lambda: _drain(json.loads(line) for line in lines),
        "decode": lambda: _drain(decode_log(lines)[1]),
        "decode + normalize": lambda: _drain(normalize_messages(decode_log(lines)[1])),
        "decode + stats": lambda: stats_partition(records),
    }
    if dask:
        from messages.interop.dask import stats_bag

        shards = folder / name
        shards.mkdir()
        pattern = _shards(lines, shards, per_file=2_000)
        measures["stats_bag, sync scheduler"] = lambda: stats_bag(pattern).compute(scheduler="sync")
    best = _best(measures, passes)
    return list(best.items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=20_000, help="lines per corpus")
    parser.add_argument("--passes", type=int, default=5, help="rounds; the best is kept")
    parser.add_argument("--archive-gb", type=float, default=100.0, help="for the arithmetic")
    parser.add_argument("--no-dask", action="store_true", help="leave out the Dask rows")
    args = parser.parse_args(argv)
    dask = not args.no_dask
    if dask:
        try:
            import dask.bag
        except ImportError:
            print("dask not installed: its rows are skipped (pip install 'llm-messages[dask]')")
            dask = False
    corpora = {
        "claude_code": corpus.claude_code_lines(args.lines),
        "codex": corpus.adapter_lines("codex", args.lines),
    }
    slowest = float("inf")
    with tempfile.TemporaryDirectory() as tmp:
        for name, lines in corpora.items():
            size = sum(len(line.encode("utf-8")) + 1 for line in lines)
            print(
                f"\n{name}: {len(lines):,} lines, {size / 1e6:.1f} MB, "
                f"{size / len(lines):,.0f} bytes/line (one core, best of {args.passes})"
            )
            print(f"{'measure':<28}{'lines/s':>11}{'MB/s':>8}{'us/line':>9}{'x floor':>9}")
            rows = measure(name, lines, args.passes, dask, Path(tmp))
            floor = rows[0][1]
            for measure_name, seconds in rows:
                rate = size / seconds / 1e6
                print(
                    f"{measure_name:<28}{len(lines) / seconds:>11,.0f}{rate:>8.1f}"
                    f"{seconds / len(lines) * 1e6:>9.1f}{seconds / floor:>9.1f}"
                )
                if measure_name.startswith(("decode + stats", "stats_bag")):
                    slowest = min(slowest, rate)
    gb = args.archive_gb
    core_hours = gb * 1e3 / slowest / 3600
    print(
        f"\narithmetic: {gb:,.0f} GB at {slowest:.1f} MB/s per core (the slowest stats row)"
        f" = {core_hours:,.1f} core-hours; on 64 cores about {core_hours / 64 * 60:,.0f} min"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

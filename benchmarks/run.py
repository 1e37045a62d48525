"""The benchmark suite: every figure is a ratio to a baseline measured in the same run.

Run by hand (stdlib only):

    python benchmarks/run.py                 # 20,000 Claude Code lines, best of 5 passes
    python benchmarks/run.py --lines 50000 --passes 7
    python benchmarks/run.py --big-mb 1024   # also `messages normalize` over a 1 GiB file

Measured: ``json.loads`` alone on the same lines (the floor); our decode of each line to typed
messages; ``normalize_messages`` over the decoded stream; native ``to_dict``+``from_dict``
against ``json.dumps``+``json.loads`` of the same dicts; encoding back to the wire; memory
retained per decoded message against the same lines kept as plain dicts; import time; and,
with ``--big-mb``, peak RSS and wall time of the ``messages normalize`` command against a
``json.loads`` pass over the same file. Where ``claude-agent-sdk`` or ``langchain-core`` are
installed, their parsers are timed on the same lines too.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

from corpus import claude_code_lines  # noqa: E402

from messages import from_dict, to_dict  # noqa: E402
from messages.adapters import claude_code  # noqa: E402
from messages.convert import normalize_messages  # noqa: E402


def _env() -> dict[str, str]:
    paths = [str(HERE.parent / "src"), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}


def best(fn: Callable[[], Any], passes: int) -> float:
    """Best wall time of ``passes`` runs, with the garbage collector quiet during each."""
    times = []
    for _ in range(passes):
        gc.collect()
        gc.disable()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
        gc.enable()
    return min(times)


def retained(build: Callable[[], Any]) -> int:
    """Bytes still allocated after ``build()`` returns, while its result is alive."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    keep = build()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del keep
    return after - before


def import_time(passes: int) -> tuple[float, float]:
    """Best wall time of ``python -c 'import messages'`` and of ``python -c pass``."""
    env = _env()

    def run(code: str) -> float:
        times = []
        for _ in range(passes):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True, env=env)
            times.append(time.perf_counter() - start)
        return min(times)

    return run("import messages"), run("pass")


def big_file(mb: float) -> dict[str, float]:
    """Peak RSS and time of `messages normalize` on a generated file, against json.loads."""
    env = _env()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.jsonl"
        subprocess.run(
            [sys.executable, str(HERE / "corpus.py"), str(path), "--mb", str(mb)], check=True
        )
        floor_code = "import json,sys\nfor line in open(sys.argv[1], 'rb'):\n    json.loads(line)\n"
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", floor_code, str(path)], check=True, env=env)
        floor = time.perf_counter() - start
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        start = time.perf_counter()
        with open(os.devnull, "w") as sink:
            subprocess.run(
                [sys.executable, "-m", "messages", "normalize", "--from", "claude_code", str(path)],
                check=True,
                stdout=sink,
                env=env,
            )
        ours = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        return {
            "size_mb": path.stat().st_size / 1048576 if path.exists() else mb,
            "floor_s": floor,
            "ours_s": ours,
            "peak_rss_mb": max(peak, before) / 1024,
        }


def peers(lines: list[str], passes: int) -> dict[str, float]:
    """Time other libraries' parsers on the same lines, where they are installed."""
    out: dict[str, float] = {}
    try:
        from claude_agent_sdk._internal.message_parser import parse_message  # type: ignore[import-not-found]
    except ImportError:
        pass
    else:

        def sdk() -> None:
            for line in lines:
                with contextlib.suppress(Exception):
                    parse_message(json.loads(line))

        out["claude-agent-sdk parse_message"] = best(sdk, passes)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument(
        "--big-mb", type=float, default=0.0, help="also run the CLI on a file this big"
    )
    args = parser.parse_args(argv)

    lines = claude_code_lines(args.lines)
    size = sum(len(line) for line in lines) / 1048576
    print(f"corpus: {len(lines)} Claude Code lines, {size:.1f} MiB; best of {args.passes} passes\n")

    floor = best(lambda: [json.loads(line) for line in lines], args.passes)
    decode = best(lambda: list(claude_code.iter_decode(lines)), args.passes)
    decoded = list(claude_code.iter_decode(lines))
    flat_count = sum(1 for _ in normalize_messages(decoded))
    normalize = best(lambda: list(normalize_messages(decoded)), args.passes)
    dicts = [to_dict(m) for m in decoded]
    native_floor = best(lambda: [json.loads(json.dumps(d)) for d in dicts], args.passes)
    native = best(lambda: [from_dict(to_dict(m)) for m in decoded], args.passes)
    dumps_floor = best(lambda: [json.dumps(json.loads(line)) for line in lines], args.passes)
    encode = best(lambda: [claude_code.encode(m) for m in decoded], args.passes)
    mem_dicts = retained(lambda: [json.loads(line) for line in lines])
    mem_ours = retained(lambda: list(claude_code.iter_decode(lines)))
    imp, bare = import_time(max(args.passes, 5))

    rows = [
        ("json.loads per line (floor)", f"{floor / len(lines) * 1e6:8.2f} µs", "1.00x", ""),
        (
            "decode line -> typed messages",
            f"{decode / len(lines) * 1e6:8.2f} µs",
            f"{decode / floor:.2f}x",
            "target <= 1.40x",
        ),
        (
            "normalize_messages",
            f"{flat_count / normalize / 1e6:8.2f} M msg/s",
            f"{normalize / floor:.2f}x",
            "target >= 2 M msg/s",
        ),
        (
            "to_dict+from_dict vs dumps+loads",
            f"{native / len(decoded) * 1e6:8.2f} µs",
            f"{native / native_floor:.2f}x",
            "target <= 2.00x",
        ),
        (
            "encode to wire",
            f"{encode / len(lines) * 1e6:8.2f} µs",
            f"{encode / floor:.2f}x",
            f"(loads+dumps {dumps_floor / floor:.2f}x)",
        ),
        (
            "retained memory per message",
            f"{mem_ours / len(decoded):8.0f} B",
            f"{mem_ours / mem_dicts:.2f}x",
            f"target <= 1.00x ({mem_dicts / len(lines):.0f} B as dicts)",
        ),
        (
            "import messages",
            f"{(imp - bare) * 1000:8.1f} ms",
            "",
            f"target < 30 ms (bare python {bare * 1000:.0f} ms)",
        ),
    ]
    for name, seconds in peers(lines, args.passes).items():
        rows.append(
            (
                name,
                f"{seconds / len(lines) * 1e6:8.2f} µs",
                f"{seconds / floor:.2f}x",
                f"ours/theirs {decode / seconds:.2f}x",
            )
        )
    if args.big_mb:
        big = big_file(args.big_mb)
        rows.append(
            (
                "messages normalize, peak RSS",
                f"{big['peak_rss_mb']:8.1f} MB",
                "",
                f"target < 100 MB on {big['size_mb']:.0f} MiB",
            )
        )
        rows.append(
            (
                "messages normalize, wall time",
                f"{big['ours_s']:8.1f} s",
                f"{big['ours_s'] / big['floor_s']:.2f}x",
                "target <= 3.00x of json.loads",
            )
        )
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'value':>14}  {'ratio':>6}  note")
    for name, value, ratio, note in rows:
        print(f"{name:<{width}}  {value:>14}  {ratio:>6}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Where the time goes: a cProfile of one measure on one corpus, its top costs by own time.

    python benchmarks/hotspots.py decode                  # Claude Code decode, real-shaped
    python benchmarks/hotspots.py normalize --corpus light --top 20
    python benchmarks/hotspots.py encode --corpus real     # the captures (needs ../shared)

The profiler adds a fixed cost to every Python call and none to C code, so the shares it
prints lean towards code that makes many small calls; read them for ranking, and the
ratios from ``run.py`` (or the instruction counts from ``instructions.py``) for size.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import sys
import time
from collections import deque
from collections.abc import Callable
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

import corpus  # noqa: E402

from messages._core.jsontext import scan_strict  # noqa: E402
from messages.adapters import claude_code  # noqa: E402
from messages.convert import normalize_messages  # noqa: E402


def _lines(name: str, n: int) -> list[str]:
    if name == "real":
        lines = corpus.real_lines(n)
        if lines is None:
            raise SystemExit(f"real captures not found under {corpus.FIXTURES}")
        return lines
    return corpus.light_lines(n) if name == "light" else corpus.claude_code_lines(n)


def _best(fn: Callable[[], Any], passes: int) -> float:
    best = float("inf")
    for _ in range(passes):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("measure", choices=("decode", "normalize", "encode"))
    parser.add_argument("--corpus", choices=("shaped", "real", "light"), default="shaped")
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3, help="passes under the profiler")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--kept", action="store_true", help="keep decoded messages in a list")
    args = parser.parse_args(argv)
    lines = _lines(args.corpus, args.lines)
    decoded = list(claude_code.iter_decode(lines))
    list(normalize_messages(decoded))  # warm: makers generated, caches filled
    # As run.py times them: decode streamed (each message dropped; --kept: in a list),
    # normalize and encode kept in a list.
    keep: Callable[[Iterable[Any]], Any] = list if args.kept else partial(deque, maxlen=0)
    work: dict[str, Callable[[], Any]] = {
        "decode": lambda: keep(claude_code.iter_decode(lines)),
        "normalize": lambda: list(normalize_messages(decoded)),
        "encode": lambda: list(claude_code.iter_encode(decoded)),
    }
    fn = work[args.measure]
    # As in run.py, the collector is off while timed: its passes would be charged to
    # whichever function happened to allocate when one started.
    gc.collect()
    gc.freeze()
    gc.disable()
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(args.repeat):
        fn()
    profiler.disable()
    gc.enable()
    plain = _best(fn, args.repeat)
    print(f"without the profiler, one pass: {plain * 1000:.1f} ms")
    if args.measure == "decode":
        scanner = _best(lambda: keep(scan_strict(line, 0) for line in lines), args.repeat)
        print(
            f"the C JSON scanner alone on the same lines: {scanner * 1000:.1f} ms (a scanner "
            "call is not a function call to cProfile: its time is in iter_decode's own time)"
        )
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    total = stats.total_tt  # type: ignore[attr-defined]
    print(
        f"{args.measure} on {len(lines)} {args.corpus} lines x {args.repeat}, "
        f"{'streamed' if args.measure == 'decode' and not args.kept else 'kept in a list'}: "
        f"{total:.2f} s under the profiler\n"
    )
    print(f"{'own s':>7} {'share':>6} {'calls':>9} {'cum s':>7}  function")
    entries = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])  # type: ignore[attr-defined]
    root = str(HERE.parent)
    for (path, line, func), (_, calls, own, cum, _) in entries[: args.top]:
        where = path.replace(root + "/", "") if path != "~" else ""
        label = f"{where}:{line}({func})" if where else func
        print(f"{own:7.3f} {own / total:6.1%} {calls:9d} {cum:7.3f}  {label}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

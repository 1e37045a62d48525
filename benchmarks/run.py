"""The benchmark suite: every figure is a ratio to a baseline measured in the same run.

Run by hand (stdlib only; see docs/performance.md):

    python benchmarks/run.py                  # 20,000 Claude Code lines, best of 5 passes
    python benchmarks/run.py --lines 50000 --passes 7
    python benchmarks/run.py --big-mb 1024    # also `messages normalize` over a 1 GiB file

Measured: ``json.loads`` alone on the same lines (the floor); our decode of each line to typed
messages; ``normalize_messages`` over the decoded stream (first pass and best pass); native
``to_dict``+``from_dict`` against ``json.dumps``+``json.loads`` of the same dicts; encoding
back to wire lines against ``json.dumps`` of the same objects; memory retained per decoded
message against the same lines kept as plain dicts; import time; the same decode and encode
figures for every other adapter and for every provider request codec present; and, with
``--big-mb``, peak RSS and time of the ``messages normalize`` command against a ``json.loads``
pass over the same file. Where ``claude-agent-sdk`` or ``langchain-core`` are installed,
their parsers are timed on the same lines too.

Timings are CPU time of this process (``--clock wall`` for wall time), and the passes are
interleaved: every measure runs once per round, so a busy machine slows floor and measure
alike and the ratios stay meaningful.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(SRC))

import corpus  # noqa: E402

from messages import from_dict  # noqa: E402
from messages import to_dict  # noqa: E402
from messages.adapters import claude_code  # noqa: E402
from messages.convert import normalize_messages  # noqa: E402

Row = tuple[str, str, str, str]


def _env() -> dict[str, str]:
    paths = [str(SRC), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}


class Bench:
    """Named measures, run in interleaved rounds; keeps each one's first and best time."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.measures: dict[str, Callable[[], Any]] = {}
        self.first: dict[str, float] = {}
        self.best: dict[str, float] = {}

    def add(self, name: str, fn: Callable[[], Any]) -> None:
        self.measures[name] = fn

    def once(self, name: str) -> float:
        fn = self.measures[name]
        gc.collect()
        gc.disable()
        try:
            start = self.clock()
            fn()
            elapsed = self.clock() - start
        finally:
            gc.enable()
        self.first.setdefault(name, elapsed)
        self.best[name] = min(self.best.get(name, elapsed), elapsed)
        return elapsed

    def run(self, passes: int) -> None:
        for _ in range(passes):
            for name in self.measures:
                self.once(name)


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


_LAUNCHER = """\
import json, os, subprocess, sys, time
out, args = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
proc = subprocess.Popen(args)
_, status, usage = os.wait4(proc.pid, 0)
wall = time.perf_counter() - start
with open(out, "w") as fp:
    json.dump([os.waitstatus_to_exitcode(status), wall, usage.ru_utime + usage.ru_stime,
               usage.ru_maxrss / 1024], fp)
"""


def child(
    args: list[str], *, stdout: Any = None, env: dict[str, str] | None = None
) -> tuple[float, float, float]:
    """Run a child process: (wall seconds, CPU seconds, peak RSS in MiB) of that child alone.

    The child is started by a small launcher process, not by this one: Linux reports as a
    child's peak RSS at least the size of the process it was forked from, and this harness
    holds the corpora and the decoded messages.
    """
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "usage.json")
        subprocess.run(
            [sys.executable, "-c", _LAUNCHER, report, *args],
            env=env or _env(),
            stdout=stdout,
            check=True,
        )
        with open(report) as fp:
            code, wall, cpu, rss = json.load(fp)
    if code != 0:
        raise subprocess.CalledProcessError(code, args)
    return wall, cpu, rss


def import_times(passes: int) -> dict[str, float]:
    """Best CPU time of a bare interpreter and of each import, in child processes.

    Bytecode is cached (in a temporary prefix, warmed first) as it is for an installed
    package, even where the environment sets PYTHONDONTWRITEBYTECODE.
    """
    codes = {
        "bare": "pass",
        "import messages": "import messages",
        "from messages import AssistantMessage": "from messages import AssistantMessage",
        "import messages.adapters.claude_code": "import messages.adapters.claude_code",
        "(stdlib alone: dataclasses, typing, json)": "import dataclasses, typing, json",
    }
    best = dict.fromkeys(codes, float("inf"))
    with tempfile.TemporaryDirectory() as cache:
        env = {**_env(), "PYTHONPYCACHEPREFIX": cache}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for code in codes.values():
            child([sys.executable, "-c", code], env=env)
        for _ in range(passes):
            for name, code in codes.items():
                best[name] = min(best[name], child([sys.executable, "-c", code], env=env)[1])
    return best


_PIPELINE = """\
import sys
from messages.adapters import claude_code
from messages.convert import normalize_messages
from messages.serialize import dumps
write = sys.stdout.write
with open(sys.argv[1], "rb") as fp:
    for m in normalize_messages(claude_code.iter_decode(fp)):
        write(dumps(m))
        write("\\n")
"""

_FLOOR = """\
import json, sys
with open(sys.argv[1], "rb") as fp:
    for line in fp:
        json.loads(line)
"""


def _cli_takes_from() -> bool:
    done = subprocess.run(
        [sys.executable, "-m", "messages", "normalize", "--help"],
        env=_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    return "--from" in done.stdout


def big_file(mb: float) -> list[Row]:
    """Peak RSS and time of `messages normalize` on a generated file, against json.loads."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.jsonl"
        subprocess.run(
            [sys.executable, str(HERE / "corpus.py"), str(path), "--mb", str(mb)], check=True
        )
        size = path.stat().st_size / 1048576
        floor_wall, floor_cpu, floor_rss = child([sys.executable, "-c", _FLOOR, str(path)])
        if _cli_takes_from():
            label = "messages normalize --from claude_code"
            args = [sys.executable, "-m", "messages", "normalize", "--from", "claude_code"]
        else:  # this branch's CLI reads native JSON Lines only: run the same pipeline
            label = "normalize pipeline (CLI lacks --from)"
            args = [sys.executable, "-c", _PIPELINE]
        with open(os.devnull, "w") as sink:
            wall, cpu, rss = child([*args, str(path)], stdout=sink)
    return [
        (f"{label}: peak RSS", f"{rss:8.1f} MB", "", f"target < 100 MB ({size:.0f} MiB file)"),
        (
            f"{label}: CPU time",
            f"{cpu:8.1f} s",
            f"{cpu / floor_cpu:.2f}x",
            f"target <= 3.00x; json.loads pass {floor_cpu:.1f} s, {floor_rss:.0f} MB",
        ),
        (
            f"{label}: wall time",
            f"{wall:8.1f} s",
            f"{wall / floor_wall:.2f}x",
            f"json.loads pass {floor_wall:.1f} s",
        ),
    ]


def peers(bench: Bench, lines: list[str]) -> list[str]:
    """Add other libraries' parsers on the same lines, where installed; returns their names."""
    names = []
    try:
        from claude_agent_sdk._internal.message_parser import parse_message  # type: ignore[import-not-found]
    except ImportError:
        pass
    else:

        def sdk() -> None:
            for line in lines:
                with contextlib.suppress(Exception):
                    parse_message(json.loads(line))

        bench.add("peer claude-agent-sdk", sdk)
        names.append("claude-agent-sdk")
    try:
        from langchain_core.messages import convert_to_messages  # type: ignore[import-not-found]
    except ImportError:
        pass
    else:

        def langchain() -> None:
            for line in lines:
                obj = json.loads(line)
                inner = obj.get("message") if obj.get("type") in ("assistant", "user") else None
                if isinstance(inner, dict):
                    with contextlib.suppress(Exception):
                        convert_to_messages(
                            [{"role": inner.get("role", obj["type"]), "content": inner["content"]}]
                        )

        bench.add("peer langchain-core", langchain)
        names.append("langchain-core")
    return names


def _per(seconds: float, count: int) -> str:
    return f"{seconds / max(count, 1) * 1e6:8.2f} µs"


def _adapter_measures(bench: Bench, lines: int) -> list[tuple[str, int]]:
    """Add decode and encode measures for every other adapter; (name, line count) of each."""
    added = []
    for name in corpus.ADAPTERS:
        adapter = importlib.import_module(f"messages.adapters.{name}")
        wire = corpus.adapter_lines(name, lines)
        objs = [json.loads(line) for line in wire]
        decoded = list(adapter.iter_decode(wire))
        bench.add(f"{name} floor", lambda wire=wire: [json.loads(line) for line in wire])
        bench.add(f"{name} decode", lambda a=adapter, wire=wire: list(a.iter_decode(wire)))
        bench.add(f"{name} dumps", lambda objs=objs: [json.dumps(o) for o in objs])
        bench.add(f"{name} encode", lambda a=adapter, d=decoded: list(a.iter_encode(d)))
        added.append((name, len(wire)))
    return added


def _provider_measures(bench: Bench, lines: int) -> tuple[list[tuple[str, int]], list[str]]:
    """Add request decode/encode measures for each provider codec present."""
    added, missing = [], []
    for name in corpus.PROVIDERS:
        bodies = corpus.provider_bodies(name, lines)
        if bodies is None:
            missing.append(name)
            continue
        codec = importlib.import_module(f"messages.providers.{name}")
        requests = [codec.decode_request(json.loads(body)) for body in bodies]
        objs = [json.loads(body) for body in bodies]
        bench.add(f"{name} floor", lambda b=bodies: [json.loads(x) for x in b])
        bench.add(
            f"{name} decode", lambda c=codec, b=bodies: [c.decode_request(json.loads(x)) for x in b]
        )
        bench.add(f"{name} dumps", lambda objs=objs: [json.dumps(o) for o in objs])
        bench.add(
            f"{name} encode",
            lambda c=codec, r=requests: [
                json.dumps(c.encode_request(x, unsupported="drop")) for x in r
            ],
        )
        added.append((name, sum(len(r) for r in requests)))
    return added, missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--lines", type=int, default=20_000, help="Claude Code lines")
    parser.add_argument("--passes", type=int, default=5, help="rounds; the best is kept")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--other-lines", type=int, default=0, help="lines per other corpus")
    parser.add_argument(
        "--big-mb", type=float, default=0.0, help="also run the CLI on a file this big"
    )
    parser.add_argument("--no-imports", action="store_true", help="skip import timing")
    args = parser.parse_args(argv)
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    others = args.other_lines or max(args.lines // 4, 50)

    lines = corpus.claude_code_lines(args.lines)
    size = sum(len(line) for line in lines) / 1048576
    print(
        f"corpus: {len(lines)} Claude Code lines, {size:.1f} MiB; {others} lines per other "
        f"corpus; best of {args.passes} interleaved passes, {args.clock} time\n",
        flush=True,
    )
    bench = Bench(clock)
    decoded = list(claude_code.iter_decode(lines))
    objs = [json.loads(line) for line in lines]
    dicts = [to_dict(m) for m in decoded]
    flat_count = sum(1 for _ in normalize_messages(decoded))
    bench.add("floor", lambda: [json.loads(line) for line in lines])
    # normalize first: its first pass is the cold one (makers not yet generated).
    bench.add("normalize", lambda: list(normalize_messages(decoded)))
    bench.add("decode", lambda: list(claude_code.iter_decode(lines)))
    bench.add("native floor", lambda: [json.loads(json.dumps(d)) for d in dicts])
    bench.add("native", lambda: [from_dict(to_dict(m)) for m in decoded])
    bench.add("dumps", lambda: [json.dumps(o) for o in objs])
    bench.add("encode", lambda: list(claude_code.iter_encode(decoded)))
    peer_names = peers(bench, lines)
    adapters = _adapter_measures(bench, others)
    providers, missing = _provider_measures(bench, others)
    bench.run(args.passes)
    best, first = bench.best, bench.first

    floor = best["floor"]
    rows: list[Row] = [
        ("json.loads per line (floor)", _per(floor, len(lines)), "1.00x", ""),
        (
            "decode line -> typed messages",
            _per(best["decode"], len(lines)),
            f"{best['decode'] / floor:.2f}x",
            "target <= 1.40x",
        ),
        (
            "normalize_messages, best pass",
            f"{flat_count / best['normalize'] / 1e6:8.2f} M msg/s",
            f"{best['normalize'] / floor:.2f}x",
            "target >= 2 M msg/s",
        ),
        (
            "normalize_messages, first pass",
            f"{flat_count / first['normalize'] / 1e6:8.2f} M msg/s",
            f"{first['normalize'] / floor:.2f}x",
            f"{flat_count} flat messages from {len(decoded)}",
        ),
        (
            "to_dict+from_dict (native)",
            _per(best["native"], len(decoded)),
            f"{best['native'] / best['native floor']:.2f}x",
            "of json.dumps+json.loads; target <= 2.00x",
        ),
        (
            "encode to wire lines",
            _per(best["encode"], len(lines)),
            f"{best['encode'] / best['dumps']:.2f}x",
            f"of json.dumps; {best['encode'] / floor:.2f}x of the floor",
        ),
    ]
    for name in peer_names:
        theirs = best[f"peer {name}"]
        rows.append(
            (
                f"peer: {name}",
                _per(theirs, len(lines)),
                f"{theirs / floor:.2f}x",
                f"ours/theirs {best['decode'] / theirs:.2f}x",
            )
        )
    mem_dicts = retained(lambda: [json.loads(line) for line in lines])
    mem_ours = retained(lambda: list(claude_code.iter_decode(lines)))
    rows.append(
        (
            "retained memory per message",
            f"{mem_ours / len(decoded):8.0f} B",
            f"{mem_ours / mem_dicts:.2f}x",
            f"of plain dicts ({mem_dicts / len(lines):.0f} B); target <= 1.00x",
        )
    )
    for name, count in adapters:
        rows.append(
            (
                f"{name}: decode",
                _per(best[f"{name} decode"], count),
                f"{best[f'{name} decode'] / best[f'{name} floor']:.2f}x",
                f"{count} lines",
            )
        )
        rows.append(
            (
                f"{name}: encode",
                _per(best[f"{name} encode"], count),
                f"{best[f'{name} encode'] / best[f'{name} dumps']:.2f}x",
                "of json.dumps",
            )
        )
    for name, count in providers:
        rows.append(
            (
                f"provider {name}: decode_request",
                _per(best[f"{name} decode"], count),
                f"{best[f'{name} decode'] / best[f'{name} floor']:.2f}x",
                f"{count} messages; per message, json.loads + decode",
            )
        )
        rows.append(
            (
                f"provider {name}: encode_request",
                _per(best[f"{name} encode"], count),
                f"{best[f'{name} encode'] / best[f'{name} dumps']:.2f}x",
                "of json.dumps",
            )
        )
    for name in missing:
        rows.append((f"provider {name}", "skipped", "", f"messages.providers.{name} missing"))
    if not args.no_imports:
        imports = import_times(max(args.passes, 5))
        bare = imports.pop("bare")
        for name, seconds in imports.items():
            rows.append(
                (
                    name,
                    f"{(seconds - bare) * 1000:8.1f} ms",
                    "",
                    f"over bare python ({bare * 1000:.0f} ms)"
                    + ("" if name.startswith("(") else "; target < 30 ms"),
                )
            )
    if args.big_mb:
        rows.extend(big_file(args.big_mb))
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'value':>14}  {'ratio':>6}  note")
    for name, value, ratio, note in rows:
        print(f"{name:<{width}}  {value:>14}  {ratio:>6}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

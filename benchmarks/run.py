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
import gc
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import deque
from collections.abc import Callable
from collections.abc import Iterable
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
        # The corpora, decoded messages and imported peers live to the end: moved out of the
        # collector's reach, the collection before each measure only visits new objects.
        gc.collect()
        gc.freeze()
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


def drain(items: Iterable[Any]) -> None:
    """Consume ``items`` at C speed, keeping none: what a streaming pipeline does."""
    deque(items, maxlen=0)


def peers(bench: Bench, key: str, lines: list[str]) -> list[str]:
    """Add other libraries' parsers on the same lines, where installed; returns their names.

    Each is timed as our decode is: streamed (every result dropped) and kept in a list. A line
    a peer rejects costs it an exception, caught by a plain ``try`` (no context manager).
    """
    names = []
    try:
        from claude_agent_sdk._internal.message_parser import parse_message  # type: ignore[import-not-found]
    except ImportError:
        pass
    else:
        loads = json.loads

        def sdk(line: str) -> Any:
            try:
                return parse_message(loads(line))
            except Exception:
                return None

        bench.add(f"{key} peer claude-agent-sdk", lambda: drain(map(sdk, lines)))
        bench.add(f"{key} kept peer claude-agent-sdk", lambda: list(map(sdk, lines)))
        names.append("claude-agent-sdk")
    try:
        from langchain_core.messages import convert_to_messages  # type: ignore[import-not-found]
    except ImportError:
        pass
    else:

        def langchain(line: str) -> Any:
            obj = json.loads(line)
            inner = obj.get("message") if obj.get("type") in ("assistant", "user") else None
            if type(inner) is not dict:
                return obj  # no type for it: what the caller has is the parsed line
            try:
                role = inner.get("role", obj["type"])
                return convert_to_messages([{"role": role, "content": inner["content"]}])
            except Exception:
                return None

        bench.add(f"{key} peer langchain-core", lambda: drain(map(langchain, lines)))
        bench.add(f"{key} kept peer langchain-core", lambda: list(map(langchain, lines)))
        names.append("langchain-core")
    return names


def _per(seconds: float, count: int) -> str:
    return f"{seconds / max(count, 1) * 1e6:.2f} µs"


class Corpus:
    """One Claude Code corpus and the measures taken on it (keys prefixed with its name)."""

    def __init__(self, name: str, source: corpus.Source, lines: int, others: int) -> None:
        self.name = name
        self.source = source
        self.lines = source(lines)
        self.others = others
        self.decoded = list(claude_code.iter_decode(self.lines))
        self.flat_count = sum(1 for _ in normalize_messages(self.decoded))
        self.peers: list[str] = []
        self.adapters: list[tuple[str, int]] = []
        self.providers: list[tuple[str, int]] = []
        self.missing: list[str] = []
        self.memory = (0, 0)

    def add(self, bench: Bench) -> None:
        """Add every measure on this corpus to ``bench``."""
        key, lines, decoded = self.name, self.lines, self.decoded
        objs = [json.loads(line) for line in lines]
        dicts = [to_dict(m) for m in decoded]
        loads = json.loads
        # Decoding is timed streamed (each result dropped, as a pipeline over a log does) and,
        # for Claude Code, also kept in a list: keeping costs every parser about 1.7 µs a line
        # of fresh memory here, which narrows every ratio (docs/performance.md).
        bench.add(f"{key} floor", lambda: drain(map(loads, lines)))
        # normalize first: its first pass is the cold one (makers not yet generated).
        bench.add(f"{key} normalize", lambda: list(normalize_messages(decoded)))
        bench.add(f"{key} decode", lambda: drain(claude_code.iter_decode(lines)))
        bench.add(
            f"{key} pipeline",
            lambda: drain(normalize_messages(claude_code.iter_decode(lines))),
        )
        bench.add(f"{key} kept floor", lambda: list(map(loads, lines)))
        bench.add(f"{key} kept decode", lambda: list(claude_code.iter_decode(lines)))
        bench.add(f"{key} native floor", lambda: [json.loads(json.dumps(d)) for d in dicts])
        bench.add(f"{key} native", lambda: [from_dict(to_dict(m)) for m in decoded])
        bench.add(f"{key} dumps", lambda: [json.dumps(o) for o in objs])
        bench.add(f"{key} encode", lambda: list(claude_code.iter_encode(decoded)))
        self.peers = peers(bench, key, lines)
        for name in corpus.ADAPTERS:
            adapter = importlib.import_module(f"messages.adapters.{name}")
            wire = corpus.adapter_lines(name, self.others, self.source)
            wobjs = [json.loads(line) for line in wire]
            wdecoded = list(adapter.iter_decode(wire))
            bench.add(f"{key} {name} floor", lambda w=wire: drain(map(loads, w)))
            bench.add(f"{key} {name} decode", lambda a=adapter, w=wire: drain(a.iter_decode(w)))
            bench.add(f"{key} {name} dumps", lambda o=wobjs: [json.dumps(x) for x in o])
            bench.add(f"{key} {name} encode", lambda a=adapter, d=wdecoded: list(a.iter_encode(d)))
            self.adapters.append((name, len(wire)))
        for name in corpus.PROVIDERS:
            bodies = corpus.provider_bodies(name, self.others, self.source)
            if bodies is None:
                self.missing.append(name)
                continue
            codec = importlib.import_module(f"messages.providers.{name}")
            requests = [codec.decode_request(json.loads(body)) for body in bodies]
            bobjs = [json.loads(body) for body in bodies]
            bench.add(f"{key} {name} floor", lambda b=bodies: drain(map(loads, b)))
            bench.add(
                f"{key} {name} decode",
                lambda c=codec, b=bodies: drain(c.decode_request(loads(x)) for x in b),
            )
            bench.add(f"{key} {name} dumps", lambda o=bobjs: [json.dumps(x) for x in o])
            bench.add(
                f"{key} {name} encode",
                lambda c=codec, r=requests: [
                    json.dumps(c.encode_request(x, unsupported="drop")) for x in r
                ],
            )
            self.providers.append((name, sum(len(r) for r in requests)))

    def measure_memory(self) -> None:
        """Bytes retained by the decoded messages and by the same lines as plain dicts."""
        lines = self.lines
        self.memory = (
            retained(lambda: list(claude_code.iter_decode(lines))),
            retained(lambda: [json.loads(line) for line in lines]),
        )


Cell = Callable[[Corpus, dict[str, float], dict[str, float]], str]
"""One table cell: from a corpus, the best times and the first times."""


def _ratio(measure: str, base: str, count: Callable[[Corpus], int]) -> Cell:
    def cell(c: Corpus, best: dict[str, float], first: dict[str, float]) -> str:
        mine = best[f"{c.name} {measure}"]
        return f"{mine / best[f'{c.name} {base}']:.2f}x {_per(mine, count(c))}"

    return cell


def _lines(c: Corpus) -> int:
    return len(c.lines)


def _rows(sample: Corpus) -> list[tuple[str, Cell, str]]:
    """The table's rows: a label, how to fill each corpus's cell, and a note."""

    def normalize(pass_: str) -> Cell:
        def cell(c: Corpus, best: dict[str, float], first: dict[str, float]) -> str:
            seconds = (best if pass_ == "best" else first)[f"{c.name} normalize"]
            return f"{c.flat_count / seconds / 1e6:.2f} M msg/s"

        return cell

    def in_pipeline(c: Corpus, best: dict[str, float], first: dict[str, float]) -> str:
        seconds = best[f"{c.name} pipeline"] - best[f"{c.name} decode"]
        return f"{c.flat_count / seconds / 1e6:.2f} M msg/s" if seconds > 0 else "n/a"

    def memory(c: Corpus, best: dict[str, float], first: dict[str, float]) -> str:
        ours, dicts = c.memory
        return f"{ours / dicts:.2f}x {ours / len(c.decoded):.0f} B"

    rows: list[tuple[str, Cell, str]] = [
        ("json.loads per line (floor)", _ratio("floor", "floor", _lines), "the baseline, streamed"),
        (
            "decode line -> typed messages",
            _ratio("decode", "floor", _lines),
            "streamed, of json.loads; target <= 1.25x",
        ),
        (
            "  the same, kept in a list",
            _ratio("kept decode", "kept floor", _lines),
            "of json.loads kept in a list",
        ),
        ("normalize_messages, best pass", normalize("best"), "target >= 2 M msg/s"),
        ("normalize_messages, first pass", normalize("first"), "cold: makers generated"),
        (
            "normalize_messages, in a pipeline",
            in_pipeline,
            "decode -> normalize streamed, minus decode alone",
        ),
        (
            "to_dict+from_dict (native)",
            _ratio("native", "native floor", lambda c: len(c.decoded)),
            "of json.dumps+json.loads; target <= 2.00x",
        ),
        (
            "encode to wire lines",
            _ratio("encode", "dumps", _lines),
            "of json.dumps; target <= 1.30x",
        ),
        ("retained memory per message", memory, "of plain dicts; target <= 1.00x"),
    ]
    for name in sample.peers:

        def peer(c: Corpus, best: dict[str, float], first: dict[str, float], n: str = name) -> str:
            theirs = best[f"{c.name} peer {n}"]
            return f"{theirs / best[f'{c.name} floor']:.2f}x {_per(theirs, len(c.lines))}"

        def versus(
            c: Corpus, best: dict[str, float], first: dict[str, float], n: str = name
        ) -> str:
            streamed = best[f"{c.name} decode"] / best[f"{c.name} peer {n}"]
            kept = best[f"{c.name} kept decode"] / best[f"{c.name} kept peer {n}"]
            return f"{streamed:.2f}x / {kept:.2f}x"

        rows.append((f"peer: {name}", peer, "streamed, of json.loads, on the same lines"))
        rows.append(
            (
                f"  ours / {name}",
                versus,
                "our decode time over theirs, streamed / kept; < 1: ours faster",
            )
        )
    for name, _ in sample.adapters:

        def per_adapter(c: Corpus, n: str = name) -> int:
            return dict(c.adapters)[n]

        rows.append((f"{name}: decode", _ratio(f"{name} decode", f"{name} floor", per_adapter), ""))
        rows.append(
            (
                f"{name}: encode",
                _ratio(f"{name} encode", f"{name} dumps", per_adapter),
                "of json.dumps",
            )
        )
    for name, _ in sample.providers:

        def per_provider(c: Corpus, n: str = name) -> int:
            return dict(c.providers)[n]

        rows.append(
            (
                f"provider {name}: decode_request",
                _ratio(f"{name} decode", f"{name} floor", per_provider),
                "per message: json.loads + decode; target <= 2.00x",
            )
        )
        rows.append(
            (
                f"provider {name}: encode_request",
                _ratio(f"{name} encode", f"{name} dumps", per_provider),
                "of json.dumps",
            )
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--lines", type=int, default=20_000, help="lines per Claude Code corpus")
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

    sources: list[tuple[str, corpus.Source]] = [("real-shaped", corpus.claude_code_lines)]
    if corpus.real_claude_code_lines() is None:
        print(
            f"real captures: skipped, {corpus.FIXTURES / 'claude_code'} does not exist "
            "(set MESSAGES_FIXTURES to a copy of ../shared/fixtures)"
        )
    else:
        sources.append(("real captures", _real))
    sources.append(("light", corpus.light_lines))
    corpora = [Corpus(name, source, args.lines, others) for name, source in sources]
    for c in corpora:
        size = sum(len(line.encode()) for line in c.lines)
        print(
            f"{c.name}: {len(c.lines)} Claude Code lines, {size / 1048576:.1f} MiB, "
            f"{size / len(c.lines):.0f} B a line; {c.flat_count} flat messages from "
            f"{len(c.decoded)}"
        )
    print(
        f"{others} lines per other corpus; best of {args.passes} interleaved passes, "
        f"{args.clock} time; each cell: ratio to its baseline, then time per line or message\n",
        flush=True,
    )
    bench = Bench(clock)
    for c in corpora:
        c.add(bench)
    bench.run(args.passes)
    for c in corpora:
        c.measure_memory()
    best, first = bench.best, bench.first

    table: list[tuple[str, list[str], str]] = []
    for label, cell, note in _rows(corpora[0]):
        table.append((label, [cell(c, best, first) for c in corpora], note))
    for name in corpora[0].missing:
        table.append(
            (f"provider {name}", ["skipped"] * len(corpora), f"messages.providers.{name} missing")
        )
    if not args.no_imports:
        imports = import_times(max(args.passes, 5))
        bare = imports.pop("bare")
        for name, seconds in imports.items():
            note = f"over bare python ({bare * 1000:.0f} ms)"
            if name.startswith("from"):
                note += "; target <= 25 ms"
            elif name.endswith("claude_code"):
                note += "; target <= 30 ms"
            table.append((name, [f"{(seconds - bare) * 1000:.1f} ms"], note))
    if args.big_mb:
        table.extend(
            (name, [value, ratio], note) for name, value, ratio, note in big_file(args.big_mb)
        )
    width = max(len(label) for label, _, _ in table)
    cols = [c.name for c in corpora]
    cw = max(18, *(len(cell) for _, cells, _ in table for cell in cells))
    print(f"{'measure':<{width}}  " + "  ".join(f"{name:>{cw}}" for name in cols) + "  note")
    for label, cells, note in table:
        padded = [*cells, *[""] * (len(cols) - len(cells))]
        print(f"{label:<{width}}  " + "  ".join(f"{x:>{cw}}" for x in padded) + f"  {note}")
    return 0


def _real(n: int) -> list[str]:
    lines = corpus.real_lines(n)
    assert lines is not None
    return lines


if __name__ == "__main__":
    sys.exit(main())

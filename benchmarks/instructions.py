"""Instruction counts under callgrind: ratios that do not move with the machine's load.

Timings on a shared machine swing with whatever else runs; the number of instructions a piece
of work executes does not. This runs each measure in a child interpreter under ``valgrind
--tool=callgrind`` twice, with and without the work, and prints the difference per line (or
per message) and its ratio to the same floors as ``run.py``. Instructions are not time (cache
misses and allocation cost differ), so this is a cross-check, not the headline figure.

    python benchmarks/instructions.py              # 2,000 Claude Code lines
    python benchmarks/instructions.py --lines 3000 floor decode
    python benchmarks/instructions.py --corpus light floor decode normalize

Needs ``valgrind`` on the PATH; stdlib only otherwise.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402

_CHILD = """\
import json, sys
from collections import deque
sys.path.insert(0, {src!r})
from messages.adapters import claude_code
from messages.convert import normalize_messages
from messages.serialize import dumps, from_dict, to_dict
lines = open({path!r}, encoding="utf-8").read().splitlines()
mode, work = sys.argv[1], sys.argv[2] == "1"
list(normalize_messages(claude_code.iter_decode(lines[:50])))  # warm: makers generated
if mode in ("normalize", "dumps", "native", "native_floor", "dumps_floor"):
    decoded = list(claude_code.iter_decode(lines))
    flat = list(normalize_messages(decoded))
    dicts = [to_dict(m) for m in decoded]
    objs = [json.loads(line) for line in lines]
if work:
    if mode == "floor":
        for line in lines:
            json.loads(line)
    elif mode == "decode":  # streamed, as run.py times it: each message dropped
        deque(claude_code.iter_decode(lines), maxlen=0)
    elif mode == "normalize":
        list(normalize_messages(decoded))
    elif mode == "dumps":
        for m in flat:
            dumps(m)
    elif mode == "dumps_floor":
        for o in objs:
            json.dumps(o)
    elif mode == "native":
        for m in decoded:
            from_dict(to_dict(m))
    elif mode == "native_floor":
        for d in dicts:
            json.loads(json.dumps(d))
"""

MODES = ("floor", "decode", "normalize", "native_floor", "native", "dumps_floor", "dumps")


def instructions(script: str, mode: str, work: bool) -> int:
    """Instructions executed by the child script for one mode, with or without the work."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            script,
            mode,
            "1" if work else "0",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count from valgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--corpus", choices=("shaped", "real", "light"), default="shaped")
    parser.add_argument("modes", nargs="*", default=list(MODES), help=" ".join(MODES))
    args = parser.parse_args(argv)
    unknown = sorted(set(args.modes) - set(MODES))
    if unknown:
        parser.error(f"unknown modes: {', '.join(unknown)}")
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing to count")
        return 0
    if args.corpus == "real":
        real = corpus.real_lines(args.lines)
        if real is None:
            print(f"real captures: skipped, {corpus.FIXTURES} does not exist")
            return 0
        lines = real
    else:
        lines = (corpus.light_lines if args.corpus == "light" else corpus.claude_code_lines)(
            args.lines
        )
    print(f"{len(lines)} {args.corpus} Claude Code lines")
    counts: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "corpus.jsonl")
        with open(path, "w", encoding="utf-8") as fp:
            fp.write("\n".join(lines) + "\n")
        script = os.path.join(tmp, "child.py")
        with open(script, "w", encoding="utf-8") as fp:
            fp.write(_CHILD.format(src=str(SRC), path=path))
        for mode in args.modes:
            extra = instructions(script, mode, True) - instructions(script, mode, False)
            counts[mode] = extra / len(lines)
            print(f"{mode:<14} {counts[mode]:10.0f} instructions per line", flush=True)
    print()
    for mode, floor in (("decode", "floor"), ("native", "native_floor"), ("dumps", "dumps_floor")):
        if mode in counts and floor in counts:
            print(f"{mode} / {floor}: {counts[mode] / counts[floor]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

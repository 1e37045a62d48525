"""The line-kind and line-size mix of a Claude Code stream: the numbers the corpus is built from.

``python benchmarks/mix.py`` prints, for the real captures in ../shared/fixtures (see
``corpus.real_claude_code_lines``) and for the generated corpora beside them, the share of
each line kind, the size percentiles of each kind, and the size percentiles of all lines.
``benchmarks/corpus.py`` takes its weights from the real table; docs/performance.md says how.
With ``--time`` it also times ``json.loads`` and our decode on each kind of line alone.

Sizes are measured with caic's sanitised ids put back to their real length: caic writes every
``uuid`` as ``"test-uuid"`` and every ``session_id`` as ``"test-session"`` (PROVENANCE.md),
where Claude Code writes 36-character UUIDs, so the raw captures understate every line by 27
bytes per ``uuid`` and 24 per ``session_id``. ``--raw`` measures the bytes as stored.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections import defaultdict
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402

_UUID = '"00000000-0000-4000-8000-000000000000"'


def restore_ids(line: str) -> str:
    """``line`` with caic's placeholder ids replaced by ids of the real length."""
    return line.replace('"test-uuid"', _UUID).replace('"test-session"', _UUID)


def kind(obj: Any) -> str:
    """A short label for what a parsed Claude Code line is, fine enough to weigh the corpus."""
    tag = obj.get("type")
    if tag == "stream_event":
        event = obj.get("event") or {}
        sub = event.get("type", "?")
        if sub == "content_block_delta":
            return f"stream_event {(event.get('delta') or {}).get('type', '?')}"
        if sub == "content_block_start":
            block = (event.get("content_block") or {}).get("type", "?")
            return f"stream_event block_start {block}"
        return f"stream_event {sub}"
    if tag in ("assistant", "user"):
        content = (obj.get("message") or {}).get("content")
        if isinstance(content, str):
            return f"{tag} string"
        kinds = sorted({b.get("type", "?") for b in content or () if isinstance(b, dict)})
        return f"{tag} {'+'.join(kinds) or 'empty'}"
    if tag == "system":
        return f"system {obj.get('subtype', '?')}"
    return str(tag)


def percentile(sizes: list[int], q: float) -> int:
    """The ``q`` quantile (0..1) of ``sizes``, nearest rank."""
    ordered = sorted(sizes)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def measure(lines: Iterable[str], *, raw: bool = False) -> dict[str, list[int]]:
    """Line sizes in bytes (UTF-8, without the newline), grouped by kind."""
    sizes: dict[str, list[int]] = defaultdict(list)
    for line in lines:
        text = line if raw else restore_ids(line)
        sizes[kind(json.loads(text))].append(len(text.encode()))
    return dict(sizes)


def table(title: str, sizes: dict[str, list[int]]) -> str:
    """A Markdown table: one row per kind (most frequent first), then all lines."""
    total = sum(len(v) for v in sizes.values())
    everything = [s for v in sizes.values() for s in v]
    out = [
        f"{title}: {total} lines, {sum(everything) / 1024:.1f} KiB, "
        f"mean {sum(everything) / max(total, 1):.0f} B a line",
        "",
        "| kind | lines | share | p10 | p50 | p90 | max |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, values in sorted(sizes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        out.append(
            f"| {name} | {len(values)} | {len(values) / total:.1%} | {percentile(values, 0.1)} "
            f"| {percentile(values, 0.5)} | {percentile(values, 0.9)} | {max(values)} |"
        )
    out.append(
        f"| **all lines** | {total} | 100% | {percentile(everything, 0.1)} "
        f"| {percentile(everything, 0.5)} | {percentile(everything, 0.9)} | {max(everything)} |"
    )
    return "\n".join(out)


def timed(lines: list[str], *, passes: int = 7, per_kind: int = 3000) -> str:
    """A Markdown table: per kind, ``json.loads`` and our decode per line, streamed (CPU time).

    Each kind's lines are repeated to ``per_kind`` and timed alone, floor and decode
    interleaved, best of ``passes``; kinds with fewer than 50 lines are left out.
    """
    sys.path.insert(0, str(HERE.parent / "src"))
    from messages.adapters import claude_code

    groups: dict[str, list[str]] = defaultdict(list)
    for line in lines:
        groups[kind(json.loads(line))].append(line)
    rows = []
    gc.collect()
    for name, group in groups.items():
        if len(group) < 50:
            continue
        sample = (group * (per_kind // len(group) + 1))[:per_kind]
        best = [float("inf"), float("inf")]
        for _ in range(passes):
            for i, work in enumerate((map(json.loads, sample), claude_code.iter_decode(sample))):
                gc.disable()
                start = time.process_time()
                deque(work, maxlen=0)
                best[i] = min(best[i], time.process_time() - start)
                gc.enable()
        size = sum(len(line.encode()) for line in sample) / len(sample)
        rows.append((name, size, best[0] / len(sample) * 1e6, best[1] / len(sample) * 1e6))
    out = [
        "| kind | bytes | json.loads | decode | ratio | ours over the floor |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, size, floor, ours in sorted(rows, key=lambda r: -r[3] / r[2]):
        out.append(
            f"| {name} | {size:.0f} | {floor:.2f} µs | {ours:.2f} µs | {ours / floor:.2f}x "
            f"| {ours - floor:+.2f} µs |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--lines", type=int, default=20_000, help="generated lines to measure")
    parser.add_argument("--raw", action="store_true", help="keep caic's short placeholder ids")
    parser.add_argument(
        "--time", action="store_true", help="also time json.loads and decode per kind"
    )
    args = parser.parse_args(argv)
    real = corpus.real_claude_code_lines()
    if real is None:
        print(f"real captures: skipped, {corpus.FIXTURES} does not exist\n")
    else:
        print(table("real captures", measure(real, raw=args.raw)) + "\n")
    print(table("generated (real-shaped)", measure(corpus.claude_code_lines(args.lines))) + "\n")
    print(table("generated (light lines)", measure(corpus.light_lines(args.lines))))
    if args.time:
        shaped, light = corpus.claude_code_lines(args.lines), corpus.light_lines(args.lines)
        print("\ndecode per kind, real-shaped corpus:\n\n" + timed(shaped))
        print("\ndecode per kind, light corpus:\n\n" + timed(light))
    return 0


if __name__ == "__main__":
    sys.exit(main())

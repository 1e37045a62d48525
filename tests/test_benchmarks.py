"""The benchmark harness runs end to end on tiny corpora and prints every row.

No timing is asserted: the figures are for people, on quiet machines (docs/performance.md).
What is checked is that the harness runs, and that the generated corpus keeps the mix of the
real captures it was derived from.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from conftest import shared_fixtures

ROOT = Path(__file__).resolve().parent.parent


def _bench_module(name: str) -> ModuleType:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


def test_the_harness_prints_every_measure() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "run.py"),
            "--lines",
            "40",
            "--other-lines",
            "30",
            "--passes",
            "1",
            "--no-imports",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    out = done.stdout
    header = next(line for line in out.splitlines() if line.startswith("measure"))
    assert "real-shaped" in header
    assert "light" in header
    assert "real captures" in header or "real captures: skipped" in out
    for row in (
        "json.loads per line (floor)",
        "decode line -> typed messages",
        "the same, kept in a list",
        "normalize_messages, best pass",
        "normalize_messages, first pass",
        "to_dict+from_dict (native)",
        "encode to wire lines",
        "retained memory per message",
        "peer: claude-agent-sdk",
        "codex: decode",
        "gemini_cli: encode",
        "opencode: decode",
        "copilot: decode",
        "acp: encode",
    ):
        assert row in out, f"{row!r} missing from:\n{out}"
    for provider in ("anthropic", "openai_chat", "openai_responses", "gemini"):
        assert f"provider {provider}" in out
    assert "nan" not in out.lower().split()


def test_the_corpus_is_deterministic_and_realistic() -> None:
    corpus = _bench_module("corpus")
    first = corpus.claude_code_lines(200)
    assert first == corpus.claude_code_lines(200)
    assert first != corpus.claude_code_lines(200, seed=8)
    kinds = {line.split('"type":"', 1)[1].split('"', 1)[0] for line in first}
    assert {"system", "user", "assistant", "stream_event", "result"} <= kinds
    light = corpus.light_lines(2000)
    assert light == corpus.light_lines(2000)
    sizes = sorted(len(line.encode()) for line in light)
    assert 150 <= sizes[len(sizes) // 2] <= 600  # a few hundred bytes a line
    assert not any('"type":"stream_event"' in line for line in light)  # no partial messages


def test_the_generated_mix_follows_the_real_captures() -> None:
    shared_fixtures("claude_code")
    corpus, mix = _bench_module("corpus"), _bench_module("mix")
    real = mix.measure(corpus.real_claude_code_lines())
    generated = mix.measure(corpus.claude_code_lines(5000))
    real_total = sum(len(v) for v in real.values())
    generated_total = sum(len(v) for v in generated.values())
    assert set(real) <= set(generated)
    for kind, sizes in real.items():
        share = len(sizes) / real_total
        ours = len(generated[kind]) / generated_total
        assert abs(ours - share) <= 0.03, (kind, share, ours)
        if share >= 0.02:
            median, our_median = mix.percentile(sizes, 0.5), mix.percentile(generated[kind], 0.5)
            assert abs(our_median - median) <= 0.15 * median, (kind, median, our_median)


def test_the_scale_benchmark_prints_every_measure() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "scale.py"), "--lines", "60", "--passes", "1"],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    out = done.stdout
    for corpus_name in ("claude_code:", "codex:"):
        assert corpus_name in out
    rows = ["json.loads (floor)", "decode", "decode + normalize", "decode + stats"]
    rows.append("stats_bag, sync scheduler")
    measured = [line[:28].rstrip() for line in out.splitlines() if line[28:].strip()[:1].isdigit()]
    assert measured == rows * 2, out
    assert "core-hours" in out.splitlines()[-1]

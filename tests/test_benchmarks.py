"""The benchmark harness runs end to end on a tiny corpus and prints every row.

No timing is asserted: the figures are for people, on quiet machines (docs/performance.md).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
    for row in (
        "json.loads per line (floor)",
        "decode line -> typed messages",
        "normalize_messages, best pass",
        "normalize_messages, first pass",
        "to_dict+from_dict (native)",
        "encode to wire lines",
        "retained memory per message",
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
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import corpus
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    first = corpus.claude_code_lines(200)
    assert first == corpus.claude_code_lines(200)
    assert first != corpus.claude_code_lines(200, seed=8)
    kinds = {line.split('"type":"', 1)[1].split('"', 1)[0] for line in first}
    assert {"system", "user", "assistant", "stream_event", "result"} <= kinds

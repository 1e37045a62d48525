"""The conformance suite needs the official SDKs (the ``conformance`` extra): without them
it is skipped (botocore's service model is Bedrock's oracle). At the end of a run it prints
how many bodies it validated per provider, and per source and target provider."""

from __future__ import annotations

import sys
from typing import Any

import pytest


def pytest_terminal_summary(terminalreporter: Any) -> None:
    oracle = sys.modules.get("conformance.oracle")
    if oracle is None or not (oracle.COUNTS or oracle.RESPONSE_COUNTS or oracle.STREAM_COUNTS):
        return
    write = terminalreporter.write_line
    write("conformance: checked against the official SDKs, per provider:")
    for name in oracle.PROVIDERS:
        write(
            f"  {name}: {oracle.COUNTS[name]} request bodies, {oracle.RESPONSE_COUNTS[name]} "
            f"response dumps, {oracle.STREAM_COUNTS[name]} streams"
        )
    if oracle.PAIRS:
        write("  cross-provider request bodies accepted, source -> target:")
        for (source, target), count in sorted(oracle.PAIRS.items()):
            settings = oracle.SETTINGS_PAIRS[(source, target)]
            write(f"    {source} -> {target}: {count} (with request settings: {settings})")
    if oracle.SEEN:
        seen = ", ".join(f"{n} x{c}" for n, c in sorted(oracle.SEEN.items()))
        write(f"  open faults met (tolerated): {seen}")


@pytest.fixture(autouse=True)
def _sdks() -> None:
    for name in ("pydantic", "anthropic", "openai", "google.genai", "botocore"):
        pytest.importorskip(name)

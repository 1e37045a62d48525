"""Shared test helpers: where the real captures live, and exact JSON equality."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(os.environ.get("MESSAGES_FIXTURES", ROOT.parent / "shared" / "fixtures"))
"""The read-only real captures (../shared/fixtures); tests that need them skip without them."""
LOCAL_FIXTURES = ROOT / "tests" / "fixtures"
"""The project's own small hand-made fixtures, always present."""

settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "long", max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def shared_fixtures(*parts: str) -> Path:
    """A path under ../shared/fixtures, skipping the test when that folder is absent."""
    if not FIXTURES.is_dir():
        pytest.skip(f"real captures not available: {FIXTURES} does not exist")
    return FIXTURES.joinpath(*parts)


def json_equal(a: Any, b: Any) -> bool:
    """Exact JSON equality: like ``==`` but ``1``, ``1.0`` and ``True`` all differ."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)

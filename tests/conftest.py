"""Shared test helpers: where the real captures live, and exact JSON equality."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck
from hypothesis import settings

import messages

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(os.environ.get("MESSAGES_FIXTURES", ROOT.parent / "shared" / "fixtures"))
"""The read-only real captures (../shared/fixtures); tests that need them skip without them."""
LOCAL_FIXTURES = ROOT / "tests" / "fixtures"
"""The project's own small hand-made fixtures, always present."""
EXAMPLES = Path(messages.__file__).parent / "examples"
"""The bundled examples of the ``messages`` under test (in the wheel job: the installed ones)."""

settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
"""The default (CI and ``python -m pytest``): every law and fuzz target, 100 examples each."""
settings.register_profile("thorough", parent=settings.get_profile("ci"), max_examples=1000)
"""Ten times the default, for a change to a codec or a strategy: ``HYPOTHESIS_PROFILE=thorough``."""
settings.register_profile("long", parent=settings.get_profile("ci"), max_examples=5000)
"""Fifty times the default, for a long run by hand."""
settings.register_profile("dev", max_examples=100, deadline=None)
"""Without the too_slow suppression; tools/mutation.py runs its mutants under it."""
settings.register_profile("wheel", parent=settings.get_profile("ci"), max_examples=25)
"""CI's second run, against the installed wheel: it checks what was shipped, not the laws again."""
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_report_header() -> str:
    """Say which ``messages`` is under test: the checkout's ``src`` or an installed wheel."""
    return f"messages {messages.__version__} from {Path(messages.__file__).parent}"


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


@pytest.fixture(autouse=True, scope="session")
def _own_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """``messages stats`` caches per-file results under ``$XDG_CACHE_HOME``: the tests use
    a folder of their own, never the user's."""
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))

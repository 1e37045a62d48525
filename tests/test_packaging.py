"""The package as users install it: one version everywhere, its data files, its command.

CI runs this file twice: against the editable checkout, and against the built wheel installed
into a fresh environment (``.ci/run``), where a data file or module missing from the wheel shows.
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sysconfig
from importlib import resources
from pathlib import Path

import messages
from conftest import ROOT

DISTRIBUTION = "llm-messages"
"""The name on the package index; ``messages`` there is an unrelated project."""


def test_the_version_is_the_distribution_metadata_version() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.dev\d+)?", messages.__version__)
    assert importlib.metadata.version(DISTRIBUTION) == messages.__version__


def test_the_import_name_comes_from_this_distribution() -> None:
    assert DISTRIBUTION in importlib.metadata.packages_distributions()["messages"]


def test_the_installed_command_prints_the_version() -> None:
    script = Path(sysconfig.get_path("scripts")) / "messages"
    out = subprocess.run(
        [str(script), "--version"], capture_output=True, text=True, check=False, timeout=60
    )
    assert (out.returncode, out.stdout, out.stderr) == (0, f"messages {messages.__version__}\n", "")


def test_the_package_data_is_installed() -> None:
    package = resources.files("messages")
    assert package.joinpath("py.typed").is_file()
    examples = {p.name for p in package.joinpath("examples").iterdir()}
    assert {"claude_code.jsonl", "conversation.jsonl"} <= examples


def test_the_changelog_has_a_section_for_this_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert "## [Unreleased]" in changelog
    assert re.search(
        rf"^## \[{re.escape(messages.__version__)}\] - \d{{4}}-\d{{2}}-\d{{2}}$",
        changelog,
        re.MULTILINE,
    )

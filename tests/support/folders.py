"""An environment in which ``messages`` finds the agents' folders a test chooses, and no others.

Every test that runs a command with no file (so that it reads the agents' default folders)
clears the same variables, whatever the machine running it has set.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

AGENT_FOLDER_VARIABLES = (
    "AMP_DATA_DIR",
    "APPDATA",
    "CLAUDE_CONFIG_DIR",
    "CLINE_DATA_DIR",
    "CLINE_DIR",
    "CLINE_SESSION_DATA_DIR",
    "CODEBUFF_DATA_DIR",
    "CODEX_HOME",
    "COPILOT_HOME",
    "COPILOT_OTEL_FILE_EXPORTER_PATH",
    "DROID_SESSIONS_DIR",
    "GEMINI_CLI_HOME",
    "GOOSE_PATH_ROOT",
    "GROK_HOME",
    "HERMES_HOME",
    "KILO_DATA_DIR",
    "KIMI_DATA_DIR",
    "OPENCLAW_DIR",
    "OPENCODE_DATA_DIR",
    "PI_CODING_AGENT_DIR",
    "QWEN_HOME",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "ZCODE_HOME",
)
"""The variables the agents' session hooks read to find their folders (``HOME`` aside)."""


def only_these_folders(monkeypatch: pytest.MonkeyPatch, home: Path, **variables: str) -> None:
    """Clear every agent folder variable, set ``variables``, make ``home`` the home folder,
    and let the command take its standard input for a terminal (so that it reads folders)."""
    for name in AGENT_FOLDER_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setattr(sys.modules["messages.cli.main"], "_stdin_is_terminal", lambda: True)

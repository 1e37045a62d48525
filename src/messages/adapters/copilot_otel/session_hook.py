"""Where the Copilot CLI's OpenTelemetry trace files are, and what a session of them is.

ccusage reads every ``*.jsonl`` under ``~/.copilot/otel/`` and the file named by
``COPILOT_OTEL_FILE_EXPORTER_PATH``; so does this hook (``$COPILOT_HOME`` replaces
``~/.copilot``). A trace file holds the calls of many conversations (each usage message names
its own in ``session_id``, which ``messages stats`` groups by); as a session it is one
file, its records in order.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from typing import Final

from .._sessions import LinearHook
from .._sessions import SessionFile
from .._sessions import home_folder
from .._sessions import walk_files
from . import records as rc

__all__ = ["CopilotOtelHook", "EXPORTER", "HOOK"]

EXPORTER: Final = "COPILOT_OTEL_FILE_EXPORTER_PATH"
"""The variable that names the file the CLI's file exporter writes."""


class CopilotOtelHook(LinearHook):
    """A trace file is one chain of records; its folder: ``~/.copilot/otel`` and the exporter's."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("copilot_otel")

    def roots(self, env: Mapping[str, str]) -> tuple[str, ...]:
        """``$COPILOT_HOME/otel`` (else ``~/.copilot/otel``), and the exporter file's folder."""
        home = home_folder(env)
        base = env.get("COPILOT_HOME") or os.path.join(home, ".copilot")
        out = [os.path.join(base, "otel")]
        named = (env.get(EXPORTER) or "").strip()
        if named and os.path.dirname(os.path.abspath(named)) not in out:
            out.append(os.path.dirname(os.path.abspath(named)))
        return tuple(out)

    def files(self, folder: str) -> Iterator[str]:
        """Every ``*.jsonl`` under ``folder`` (a file of another kind is not located)."""
        return walk_files(folder, (".jsonl",))

    def locate(self, path: str, head: Sequence[Any]) -> SessionFile | None:
        """The file, when its first records are exporter records; named after the file."""
        if not any(rc.is_record(obj) for obj in head):
            return None
        return super().locate(path, head)


HOOK: Final = CopilotOtelHook()
"""The hook of the Copilot CLI's trace files."""

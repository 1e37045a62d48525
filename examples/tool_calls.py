"""Print every shell command an agent ran, from a Claude Code, Codex (or any other) log.

    python examples/tool_calls.py [LOG ...]

Without arguments it reads the Claude Code example bundled with the package. Each log's
format is detected from its lines; a call that the log reports more than once (Codex writes
a command when it starts and again when it completes) is printed once.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

from messages import ToolUseMessage
from messages.adapters import detect
from messages.adapters import get
from messages.convert import normalize_messages

SHELL_TOOLS = {
    "Bash",
    "bash",
    "shell",
    "command_execution",
    "commandExecution",
    "run_shell_command",
}


def format_of(path: Path) -> str | None:
    """The format of the first line some adapter recognises."""
    with path.open("rb") as fp:
        for line in fp:
            if not line.strip():
                continue
            try:
                name = detect(json.loads(line))
            except ValueError:  # not JSON (a warning line, say): look further
                continue
            if name is not None:
                return name
    return None


def commands(path: Path) -> Iterator[str]:
    """The shell commands in one log, in order."""
    name = format_of(path)
    if name is None:
        print(f"{path}: not a log this library knows", file=sys.stderr)
        return
    seen: set[str] = set()
    with path.open("rb") as fp:
        for message in normalize_messages(get(name).iter_decode(fp)):
            if not isinstance(message, ToolUseMessage) or message.name not in SHELL_TOOLS:
                continue
            if message.id in seen:
                continue
            seen.add(message.id)
            command = message.input.get("command")
            if isinstance(command, str):
                yield command


def main(argv: list[str]) -> None:
    example = resources.files("messages").joinpath("examples", "claude_code.jsonl")
    paths = [Path(arg) for arg in argv] or [Path(str(example))]
    for path in paths:
        for command in commands(path):
            print(command)


if __name__ == "__main__":
    main(sys.argv[1:])

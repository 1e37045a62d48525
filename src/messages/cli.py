"""The ``messages`` command: scripts over agent logs.

``messages normalize [FILE ...|-]`` reads a stream and writes the flat view as native JSON
Lines (or a readable transcript with ``--format text``). ``--example`` reads the bundled
example conversation.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator, Sequence
from importlib import resources
from typing import IO

from .convert import normalize_messages
from .errors import DecodeError
from .message import Message
from .serialize import dumps, read_jsonl

__all__ = ["main"]

EXIT_OK, EXIT_DATA, EXIT_USAGE = 0, 1, 2


def example_lines() -> list[str]:
    """The bundled example conversation, as native JSON Lines."""
    text = resources.files("messages").joinpath("examples/conversation.jsonl").read_text("utf-8")
    return text.splitlines()


def _render_text(message: Message) -> str:
    role = getattr(message, "role", None)
    head = f"[{message.kind}{'/' + role if role else ''}]"
    body = getattr(message, "text", None)
    if message.kind == "tool_use":
        body = f"{message.name} {dict(message.input)}"
    if not isinstance(body, str):
        body = ""
    return f"{head} {body}".rstrip()


def _read(paths: Sequence[str], stdin: IO[str]) -> Iterator[Iterable[str]]:
    for path in paths:
        if path == "-":
            yield stdin
        else:
            with open(path, encoding="utf-8") as fp:
                yield fp


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 data error, 2 usage error)."""
    parser = argparse.ArgumentParser(prog="messages", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    norm = sub.add_parser("normalize", help="write the flat view of a stream")
    norm.add_argument("files", nargs="*", default=[], help="input files ('-' for stdin)")
    norm.add_argument("--example", action="store_true", help="read the bundled example")
    norm.add_argument("--format", choices=("jsonl", "text"), default="jsonl")
    args = parser.parse_args(argv)

    out = sys.stdout
    try:
        sources: Iterable[Iterable[str]] = (
            [example_lines()] if args.example else _read(args.files or ["-"], sys.stdin)
        )
        for lines in sources:
            for message in normalize_messages(read_jsonl(lines)):
                out.write(dumps(message) if args.format == "jsonl" else _render_text(message))
                out.write("\n")
    except DecodeError as exc:
        print(f"messages: {exc}", file=sys.stderr)
        return EXIT_DATA
    except BrokenPipeError:
        return EXIT_OK
    return EXIT_OK

"""Helpers shared by the event-stream adapter tests (Gemini CLI, OpenCode, Copilot, ACP)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from conftest import LOCAL_FIXTURES, json_equal
from messages import Message
from messages.convert import normalize_messages


def wire_objects(path: Path) -> Iterator[tuple[int, Any]]:
    """``(line number, parsed JSON)`` for every JSON line of a capture.

    A caic v2/v3 evidence envelope ``{"t": ..., "msg": {...}}`` gives its inner ``msg`` (the
    CLI's line); envelope lines without one (header, result) are given whole. Blank lines and
    lines that are not JSON are skipped.
    """
    with path.open(encoding="utf-8") as fp:
        for number, line in enumerate(fp, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict) and "t" in obj and isinstance(obj.get("msg"), dict):
                obj = obj["msg"]
            yield number, obj


def assert_round_trips(adapter: ModuleType, path: Path) -> int:
    """Every JSON line of ``path`` decodes and encodes back JSON-equal; returns the count."""
    count = 0
    for number, obj in wire_objects(path):
        message = adapter.decode(obj)
        back = adapter.encode(message)
        assert json_equal(back, obj), f"{path.name}:{number}: {obj!r}\n!= {back!r}"
        count += 1
    assert count > 0, f"{path} holds no JSON lines"
    return count


def assert_stream_round_trips(adapter: ModuleType, path: Path) -> None:
    """``iter_encode(iter_decode(lines))`` gives every non-blank line back, JSON-equal (or as
    written, for lines that are not JSON)."""
    lines = [line.rstrip("\r\n") for line in path.read_text("utf-8").splitlines()]
    lines = [line for line in lines if line.strip()]
    out = list(adapter.iter_encode(adapter.iter_decode(lines)))
    assert len(out) == len(lines)
    for original, written in zip(lines, out, strict=True):
        try:
            expected = json.loads(original)
        except ValueError:
            assert written == original
            continue
        assert json_equal(json.loads(written), expected), f"{original}\n!= {written}"


def local(*parts: str) -> Path:
    """A hand-made fixture under tests/fixtures."""
    return LOCAL_FIXTURES.joinpath(*parts)


def flat_kinds(messages: list[Message]) -> list[str]:
    """The flat view's content kinds, session messages left out; text and thinking with role."""
    out = []
    for m in normalize_messages(messages):
        if m.kind in ("text", "thinking"):
            out.append(f"{m.kind}({m.role})")  # type: ignore[union-attr]
        elif m.kind in ("tool_use", "tool_result", "image", "audio", "raw"):
            out.append(m.kind)
    return out


def read(adapter: ModuleType, path: Path) -> list[Message]:
    """Decode a whole file strictly."""
    with path.open(encoding="utf-8") as fp:
        return list(adapter.iter_decode(fp, strict=True))

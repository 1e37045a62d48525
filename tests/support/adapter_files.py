"""Agent-log fixtures for the adapter tests: where they are, how to read them, exact trips.

Every adapter in ``messages.adapters.NAMES`` has hand-made fixtures (:func:`hand_made`);
the real captures under ../shared/fixtures are listed by :func:`captures`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from conftest import EXAMPLES
from conftest import FIXTURES
from conftest import LOCAL_FIXTURES
from conftest import json_equal
from messages import AudioBlock
from messages import DecodeError
from messages import ImageBlock
from messages import Message
from messages import RawBlock
from messages import TextBlock
from messages import ThinkingBlock
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages.convert import normalize_messages

CAPTURE_FOLDERS: dict[str, tuple[str, ...]] = {
    "claude_code": ("claude_code",),
    "codex": ("codex_exec", "codex_app_server"),
    "gemini_cli": ("gemini_cli",),
    "acp": ("acp",),
    "pi": ("pi",),
    "cursor": ("cursor",),
    "gemini_session": ("gemini_cli_session",),
}
"""The folders of ../shared/fixtures that hold real captures of each adapter's format."""

_CAPTURE_SUFFIXES = (".jsonl", ".ndjson", ".json")

MIXED_RESULT = (
    TextBlock("see"),
    ImageBlock(url="https://x/a.png", media_type="image/png"),
    AudioBlock(file_id="file_1"),
    ThinkingBlock("hm"),
    ToolUseBlock("t", "ls", {"a": 1}),
    ToolResultBlock("t", "inner"),
    RawBlock({"type": "document", "id": 1}),
)
"""Tool-result content with one block of every kind after a text: what the policy meets."""


def local(*parts: str) -> Path:
    """A hand-made fixture under tests/fixtures."""
    return LOCAL_FIXTURES.joinpath(*parts)


def hand_made(name: str) -> list[Path]:
    """The hand-made fixtures of one adapter, the same-conversation recordings included."""
    if name == "native":
        return [EXAMPLES / "conversation.jsonl"]
    paths = sorted(local(name).glob("*.jsonl"))
    paths += sorted(local("same_conversation").glob(f"{name}*.jsonl"))
    paths += sorted(local(name).glob("*.json"))  # one pretty-printed object each
    return paths


def captures() -> list[tuple[str, Path]]:
    """``(adapter name, path)`` of every real capture; empty when ../shared is absent."""
    out = []
    for name, folders in CAPTURE_FOLDERS.items():
        for folder in folders:
            root = FIXTURES / folder
            if root.is_dir():
                found = (p for p in root.rglob("*") if p.suffix in _CAPTURE_SUFFIXES)
                out += [(name, p) for p in sorted(found)]
    return out


def _unwrapped(obj: Any) -> Any:
    """The CLI's line inside a caic v2/v3 evidence envelope ``{"t": ..., "msg": {...}}``."""
    if isinstance(obj, dict) and "t" in obj and isinstance(obj.get("msg"), dict):
        return obj["msg"]
    return obj


def wire_objects(path: Path) -> Iterator[tuple[int, Any]]:
    """``(line number, parsed JSON)`` for every JSON line of a capture.

    A ``.json`` file is one pretty-printed object (line number 1). An evidence envelope gives
    its inner ``msg`` (the CLI's line); envelope lines without one (header, result) are given
    whole. Blank lines and lines that are not JSON are skipped.
    """
    if path.suffix == ".json":
        yield 1, json.loads(path.read_text("utf-8"))
        return
    with path.open(encoding="utf-8") as fp:
        for number, line in enumerate(fp, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            yield number, _unwrapped(obj)


def stream_lines(path: Path) -> list[str]:
    """The non-blank lines of a capture as the CLI wrote them: envelopes give their ``msg``."""
    if path.suffix == ".json":
        return [json.dumps(json.loads(path.read_text("utf-8")))]
    out = []
    for line in path.read_text("utf-8").splitlines():
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            out.append(line)
            continue
        inner = _unwrapped(obj)
        out.append(line if inner is obj else json.dumps(inner))
    return out


def assert_round_trips(adapter: ModuleType, path: Path) -> int:
    """Every JSON line of ``path`` decodes and encodes back JSON-equal; returns the count.

    The decoder gets a fresh copy, so the comparison is against the line as read.
    """
    count = 0
    for number, obj in wire_objects(path):
        message = adapter.decode(json.loads(json.dumps(obj)))
        back = adapter.encode(message)
        assert json_equal(back, obj), f"{path.name}:{number}: {obj!r}\n!= {back!r}"
        count += 1
    assert count > 0, f"{path} holds no JSON lines"
    return count


def assert_stream_round_trips(adapter: ModuleType, path: Path) -> None:
    """``iter_encode(iter_decode(lines))`` gives every non-blank line back, JSON-equal (or as
    written, for lines that are not JSON)."""
    lines = stream_lines(path)
    out = list(adapter.iter_encode(adapter.iter_decode(lines)))
    assert len(out) == len(lines)
    for original, written in zip(lines, out, strict=True):
        try:
            expected = json.loads(original)
        except ValueError:
            assert written == original
            continue
        assert json_equal(json.loads(written), expected), f"{original}\n!= {written}"


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


def assert_decode_error(adapter: ModuleType, obj: Any, expected: str) -> None:
    """``adapter.decode(obj)`` raises a DecodeError that reads ``expected`` and names the
    adapter as its source."""
    with pytest.raises(DecodeError) as info:
        adapter.decode(obj)
    assert str(info.value) == expected
    assert info.value.source == adapter.NAME


def merged_log(name: str, path: Path) -> list[Message]:
    """An agent log as its adapter reads it: lines decoded, then fragments merged.

    A recorder's envelope (``{"t": ..., "msg": {...}}``) gives the CLI line inside it.
    """
    from messages.adapters import get

    lines = []
    for line in path.read_text("utf-8").splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            lines.append(line)
            continue
        if isinstance(obj, dict) and "t" in obj and isinstance(obj.get("msg"), dict):
            obj = obj["msg"]
        lines.append(json.dumps(obj))
    reader = get(name)
    return list(reader.merge(reader.iter_decode(lines)))

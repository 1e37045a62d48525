"""Auto-detection: each event-stream adapter recognises its own lines and no one else's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import EXAMPLES, FIXTURES
from messages.adapters import acp, copilot, gemini_cli, opencode
from support.adapter_files import local, wire_objects

MINE = {"gemini_cli": gemini_cli, "opencode": opencode, "copilot": copilot, "acp": acp}


def _objects(path: Path) -> Iterator[Any]:
    if path.suffix == ".json":  # pretty-printed single messages
        yield json.loads(path.read_text("utf-8"))
        return
    for _, obj in wire_objects(path):
        yield obj


def _local_files() -> list[tuple[str, Path]]:
    out = []
    for name in MINE:
        out += [(name, p) for p in sorted(local(name).glob("*.jsonl"))]
        out.append((name, local("same_conversation", f"{name}.jsonl")))
    return out


@pytest.mark.parametrize(("owner", "path"), _local_files(), ids=lambda x: getattr(x, "name", x))
def test_hand_made_lines_are_detected_by_their_adapter_only(owner: str, path: Path) -> None:
    seen = 0
    for obj in _objects(path):
        claimed = [name for name, adapter in MINE.items() if adapter.detect(obj)]
        assert claimed in ([owner], []), (claimed, obj)
        seen += bool(claimed)
    assert seen > 0


def test_real_captures_of_other_clis_are_not_claimed() -> None:
    if not FIXTURES.is_dir():
        pytest.skip("real captures not available")
    checked = 0
    for path in sorted(FIXTURES.rglob("*.json*")):
        owner = path.relative_to(FIXTURES).parts[0]
        for obj in _objects(path):
            for name, adapter in MINE.items():
                if name != owner:
                    assert not adapter.detect(obj), (name, path.name, obj)
            checked += 1
    assert checked > 400


def test_native_lines_are_not_claimed() -> None:
    example = EXAMPLES / "conversation.jsonl"
    for line in example.read_text("utf-8").splitlines():
        obj = json.loads(line)
        assert not any(adapter.detect(obj) for adapter in MINE.values()), obj


@pytest.mark.parametrize("tag", [[], {}, ["assistant"], {"a": 1}, 1, None])
def test_an_unhashable_or_odd_type_is_not_claimed_and_never_crashes(tag: object) -> None:
    from messages.adapters import claude_code

    for adapter in (*MINE.values(), claude_code):
        assert adapter.detect({"type": tag}) is False

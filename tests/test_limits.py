"""messages.limits: configurable, context-local limits with clear errors."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from messages import DecodeError, FrozenDict, freeze
from messages.convert import parse_blocks
from messages.limits import Limits, current_limits, limits


def _nested(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = [value]
    return value


def test_defaults() -> None:
    assert current_limits() == Limits()
    assert Limits().max_depth == 256
    assert Limits().max_block_depth == 64


@pytest.mark.parametrize("field", ["max_line", "max_depth", "max_block_depth", "max_base64"])
@pytest.mark.parametrize("bad", [0, -1, 1.5, "10", True])
def test_limits_must_be_positive_integers(field: str, bad: Any) -> None:
    with pytest.raises(ValueError, match=f"{field} must be a positive integer"):
        Limits(**{field: bad})


def test_depth_limit_applies_to_freeze_frozendict_and_parse_blocks() -> None:
    value = {"a": _nested(5)}
    assert freeze(value)["a"] is not None
    with limits(max_depth=4):
        with pytest.raises(DecodeError) as info:
            freeze(value)
        assert str(info.value) == "$.a[0][0][0]: JSON nests deeper than 4 levels"
        with pytest.raises(DecodeError, match="nests deeper than 4"):
            FrozenDict(value)
        with pytest.raises(DecodeError, match="nests deeper than 4"):
            parse_blocks([{"type": "tool_use", "id": "t", "name": "n", "input": value}])
        assert freeze(value, max_depth=10) is not None  # an explicit argument wins
    assert freeze(value) is not None  # restored on exit


def test_limits_nest_and_restore() -> None:
    with limits(max_depth=10) as outer:
        assert outer.max_depth == 10
        with limits(max_line=5) as inner:
            assert (inner.max_depth, inner.max_line) == (10, 5)
        assert current_limits() == outer
    assert current_limits() == Limits()


def test_limits_are_local_to_a_thread() -> None:
    seen: list[int] = []

    def other() -> None:
        seen.append(current_limits().max_depth)

    with limits(max_depth=3):
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
    assert seen == [256]

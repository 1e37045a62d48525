"""The JSON depth limit at its exact boundary, for arrays and objects, at every entry point.

``Limits.max_depth`` is the number of nested containers a value may have, counting the
outermost: at the limit a value is accepted, one level more is a DecodeError naming the first
container that is too deep. The same count holds for ``freeze``, ``FrozenDict``,
``parse_blocks`` and the native format, on the fast copy and on the checked one.
"""

from __future__ import annotations

import enum
from types import MappingProxyType
from typing import Any

import pytest

from messages import DecodeError
from messages import FrozenDict
from messages import freeze
from messages import from_dict
from messages.convert import parse_blocks
from messages.limits import limits

LIMIT = 5


class Level(enum.IntEnum):
    """A leaf that is not plain JSON, so the copy takes its checked path."""

    HIGH = 3


def lists(depth: int, leaf: Any = "x") -> Any:
    """``depth`` nested arrays around ``leaf``."""
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def objects(depth: int, leaf: Any = "x") -> Any:
    """``depth`` nested objects around ``leaf``, each with the key ``k``."""
    value = leaf
    for _ in range(depth):
        value = {"k": value}
    return value


def proxies(depth: int, leaf: Any = "x") -> Any:
    """``depth`` nested read-only mappings (not dicts) around ``leaf``."""
    value = leaf
    for _ in range(depth):
        value = MappingProxyType({"k": value})
    return value


def _too_deep_at(nest: Any, prefix: str) -> str:
    """The path of the container at level LIMIT + 1 of ``nest``, under ``prefix``."""
    step = "[0]" if nest is lists else ".k"
    return prefix + step * LIMIT


NESTS = [lists, objects, proxies]
LEAVES = ["x", Level.HIGH]


@pytest.mark.parametrize("nest", NESTS)
@pytest.mark.parametrize("leaf", LEAVES)
def test_freeze(nest: Any, leaf: Any) -> None:
    with limits(max_depth=LIMIT):
        assert freeze(nest(LIMIT, leaf)) is not None
        with pytest.raises(DecodeError) as info:
            freeze(nest(LIMIT + 1, leaf))
    assert info.value.path == _too_deep_at(nest, "$")
    assert info.value.reason == f"JSON nests deeper than {LIMIT} levels"
    assert freeze(nest(LIMIT + 1, leaf), max_depth=LIMIT + 1) is not None
    with pytest.raises(DecodeError):
        freeze(nest(LIMIT + 1, leaf), max_depth=LIMIT)


@pytest.mark.parametrize("nest", [objects, proxies])
@pytest.mark.parametrize("leaf", LEAVES)
def test_frozen_dict_counts_itself_as_the_first_level(nest: Any, leaf: Any) -> None:
    with limits(max_depth=LIMIT):
        at_limit = FrozenDict(nest(LIMIT, leaf))
        assert at_limit == freeze(nest(LIMIT, leaf))
        with pytest.raises(DecodeError) as info:
            FrozenDict(nest(LIMIT + 1, leaf))
        assert info.value.path == _too_deep_at(nest, "$")
        # comparing with a value too deep to be frozen is a plain "not equal"
        assert at_limit != nest(LIMIT + 1, leaf)
        assert FrozenDict({"k": nest(LIMIT - 1, leaf)}) == nest(LIMIT, leaf)


@pytest.mark.parametrize("nest", [lists, objects])
def test_parse_blocks_counts_the_list_of_blocks(nest: Any) -> None:
    def blocks(depth: int) -> list[Any]:
        # list of blocks (1), the block (2), its input (3), then depth - 3 more levels
        return [{"type": "tool_use", "id": "t", "name": "n", "input": {"k": nest(depth - 3)}}]

    with limits(max_depth=LIMIT):
        assert parse_blocks(blocks(LIMIT))
        with pytest.raises(DecodeError) as info:
            parse_blocks(blocks(LIMIT + 1))
    step = "[0]" if nest is lists else ".k"
    assert info.value.path == "$[0].input.k" + step * (LIMIT - 3)


@pytest.mark.parametrize("nest", [lists, objects])
@pytest.mark.parametrize("field", ["data", "extra"])
def test_the_native_format_applies_the_limit_to_each_json_field(nest: Any, field: str) -> None:
    def native(depth: int) -> dict[str, Any]:
        value = nest(depth) if field == "data" else {"k": nest(depth - 1)}
        return {"v": 1, "kind": "raw", "data": 1, field: value}

    with limits(max_depth=LIMIT):
        assert from_dict(native(LIMIT))
        with pytest.raises(DecodeError) as info:
            from_dict(native(LIMIT + 1))
    if field == "data" or nest is objects:
        assert info.value.path == _too_deep_at(nest, f"$.{field}")
    else:  # the extra object, then arrays
        assert info.value.path == "$.extra.k" + "[0]" * (LIMIT - 1)
    assert from_dict(native(LIMIT + 1))  # the default limit is far higher

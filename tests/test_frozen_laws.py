"""FrozenDict's equality and hashing as laws against plain dicts, and the odd inputs of freeze.

Equality is exact JSON equality (``1``, ``1.0`` and ``true`` differ; key order does not
matter), whatever the sizes, whichever side was hashed first, and whether the other side is a
FrozenDict or a plain mapping. ``!=`` is always its negation, and equal values hash equal.
"""

from __future__ import annotations

import enum
import math
import sys
from collections.abc import Iterator
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import json_equal
from messages import DecodeError
from messages import FrozenDict
from messages import freeze
from messages import from_dict
from messages import strategies as ms
from messages import thaw
from messages._core.frozen import _plain_copy
from messages._core.frozen import _Unusual
from messages._core.frozen import raw
from messages.limits import limits

plain_objects = ms.json_objects(max_size=5).map(thaw)
"""Plain JSON objects (dicts and lists), as a caller would hand them in."""


def _variant(data: Any, draw: st.DrawFn) -> Any:
    """A value close to ``data``: often JSON-equal, sometimes differing in one small way."""
    if isinstance(data, dict):
        keys = list(data)
        keys = draw(st.permutations(keys)) if keys else keys
        out = {k: _variant(data[k], draw) for k in keys}
        change = draw(st.sampled_from(["none", "none", "none", "add", "drop"]))
        if change == "add":
            out[draw(st.text(max_size=3))] = draw(st.sampled_from([None, 0, "", []]))
        elif change == "drop" and out:
            del out[draw(st.sampled_from(sorted(out)))]
        return out
    if isinstance(data, list):
        items = [_variant(item, draw) for item in data]
        return tuple(items) if draw(st.booleans()) else items
    if type(data) is int and draw(st.integers(0, 5)) == 0:
        return draw(st.sampled_from([float(data), data + 1, bool(data & 1)]))
    if type(data) is str and draw(st.integers(0, 5)) == 0:
        return data + "x"
    return data


@st.composite
def pairs(draw: st.DrawFn) -> tuple[Any, Any]:
    """Two plain objects that are JSON-equal about half the time, of equal or other sizes."""
    a = draw(plain_objects)
    return a, _variant(a, draw)


def _hash_some(draw: st.DrawFn, *values: FrozenDict) -> None:
    for value in values:
        if draw(st.booleans()):
            hash(value)


def _plain(value: Any) -> Any:
    """Tuples as lists, so that json_equal compares JSON shapes."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@given(pairs(), st.data())
def test_equality_is_exact_json_equality_of_the_plain_values(
    pair: tuple[Any, Any], data: st.DataObject
) -> None:
    a, b = pair
    expected = json_equal(_plain(a), _plain(b))
    fa, fb = FrozenDict(a), FrozenDict(b)
    _hash_some(data.draw, fa, fb)  # a cached hash must never change the answer
    assert (fa == fb) is expected
    assert (fb == fa) is expected
    assert (fa != fb) is not expected
    assert (fb != fa) is not expected
    assert (fa == b) is expected  # against the plain dict itself
    assert (fa != b) is not expected
    assert (b == fa) is expected
    if expected:
        assert hash(fa) == hash(fb)
        assert len(fa) == len(fb)
        assert len({fa, fb}) == 1


@given(plain_objects, st.data())
def test_objects_of_different_sizes_are_never_equal(a: dict[str, Any], data: st.DataObject) -> None:
    key = data.draw(st.text(max_size=3).filter(lambda k: k not in a))
    bigger = {**a, key: data.draw(st.sampled_from([None, 0, "", {}]))}
    fa, fbig = FrozenDict(a), FrozenDict(bigger)
    _hash_some(data.draw, fa, fbig)
    assert fa != fbig
    assert not fa == fbig  # noqa: SIM201 - __eq__ itself, not __ne__
    assert fbig != a
    assert not fbig == a  # noqa: SIM201 - __eq__ itself, not __ne__
    assert fa == a


@given(plain_objects)
def test_wrapping_a_frozen_dict_gives_an_equal_one(a: dict[str, Any]) -> None:
    once = FrozenDict(a)
    twice = FrozenDict(once)
    assert twice == once
    assert twice == a
    assert hash(twice) == hash(once)
    assert twice.thaw() == once.thaw() == a
    assert FrozenDict(MappingProxyType(a)) == once


def test_equal_values_of_equal_size_and_cached_hashes() -> None:
    a = FrozenDict({"x": 1, "y": [1, 2]})
    b = FrozenDict({"y": [1, 2], "x": 1})
    c = FrozenDict({"x": 1, "y": [1, 3]})
    assert hash(a) == hash(b)
    hash(c)
    assert a == b
    assert a != c
    assert not a == c  # noqa: SIM201 - __eq__ itself, not __ne__
    only_one_hashed = FrozenDict({"x": 1, "y": [1, 2]})
    assert a == only_one_hashed
    assert only_one_hashed == a


@pytest.mark.parametrize("other", [5, "a", None, [("a", 1)], ("a",), object()])
def test_comparison_with_a_non_mapping_is_left_to_the_other_side(other: Any) -> None:
    d = FrozenDict({"a": 1})
    assert d.__eq__(other) is NotImplemented
    assert d.__ne__(other) is NotImplemented
    assert d != other
    assert not d == other  # noqa: SIM201 - __eq__ itself, not __ne__


def test_a_mapping_that_is_not_json_is_unequal_not_an_error() -> None:
    d = FrozenDict({"a": 1})
    assert d != {"a": object()}
    assert d != {1: 1}
    assert not d == {"a": float("nan")}  # noqa: SIM201 - __eq__ itself, not __ne__
    assert d != {"a": 1, "b": {2}}


def test_exact_scalars() -> None:
    assert FrozenDict({"a": 1}) != {"a": 1.0}
    assert FrozenDict({"a": 1}) != {"a": True}
    assert FrozenDict({"a": 0}) != {"a": False}
    assert FrozenDict({"a": 1.0}) == {"a": 1.0}
    assert FrozenDict({"a": None}) != {}
    assert FrozenDict({"a": []}) != {"a": {}}


# ------------------------------------------------------------------ values that are not plain


class Color(str, enum.Enum):  # noqa: UP042 - its str() is "Color.RED", not its value
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


class Ratio(float):
    pass


def test_subclasses_of_scalars_are_stored_as_their_plain_value() -> None:
    frozen = freeze({"c": Color.RED, "l": Level.HIGH, "r": Ratio(0.5), "n": [Ratio(2.0)]})
    assert frozen == {"c": "red", "l": 3, "r": 0.5, "n": [2.0]}
    assert [type(frozen[k]) for k in ("c", "l", "r")] == [str, int, float]
    assert type(frozen["n"][0]) is float  # type: ignore[index]
    assert FrozenDict({"r": Ratio(1.5)}).thaw() == {"r": 1.5}


@pytest.mark.parametrize("bad", [Ratio("nan"), Ratio("inf"), Ratio("-inf")])
def test_a_float_subclass_must_still_be_finite(bad: float) -> None:
    with pytest.raises(DecodeError) as info:
        freeze({"a": [1, bad]})
    assert info.value.path == "$.a[1]"
    assert not math.isfinite(info.value.value)
    assert type(info.value.value) is float
    assert str(info.value).startswith("$.a[1]: expected a finite number, found ")


class Pairs(Mapping[Any, Any]):
    """A mapping that is not a dict, which takes the checked copy."""

    def __init__(self, items: dict[Any, Any]) -> None:
        self._items = items

    def __getitem__(self, key: Any) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


def test_other_mappings_are_copied_and_checked() -> None:
    assert freeze(Pairs({"a": Pairs({"b": (1, Level.HIGH)})})) == {"a": {"b": [1, 3]}}
    with pytest.raises(DecodeError) as info:
        freeze(Pairs({"a": Pairs({2: "x"})}))
    assert (info.value.path, info.value.value) == ("$.a", 2)
    with pytest.raises(DecodeError) as info:
        FrozenDict(Pairs({"a": [{"b": b"x"}]}))
    assert (info.value.path, info.value.value) == ("$.a[0].b", b"x")
    assert str(info.value) == "$.a[0].b: expected a JSON value, found bytes"


def test_an_unusual_value_deep_inside_a_plain_dict_names_its_path() -> None:
    with pytest.raises(DecodeError) as info:
        FrozenDict({"a": {"b": [0, {"c": {1, 2}}]}})
    assert info.value.path == "$.a.b[1].c"
    assert info.value.value == {1, 2}
    assert FrozenDict({"a": {"b": [0, {"c": Level.HIGH}]}}) == {"a": {"b": [0, {"c": 3}]}}


# --------------------------------------------------------------- depth beyond the interpreter


def _lists(depth: int, leaf: Any = "x") -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def _objects(depth: int, leaf: Any = "x") -> Any:
    value = leaf
    for _ in range(depth):
        value = {"k": value}
    return value


TOO_DEEP = "JSON nests too deeply for the interpreter's stack"


@pytest.mark.parametrize("nest", [_lists, _objects])
@pytest.mark.parametrize("leaf", ["x", Level.HIGH])  # the plain copy, and the checked copy
def test_a_limit_above_the_stack_gives_a_decode_error_not_a_recursion_error(
    nest: Any, leaf: Any
) -> None:
    deep = nest(sys.getrecursionlimit() * 2, leaf)
    with pytest.raises(DecodeError) as info:
        freeze({"top": deep}, max_depth=10**9)
    assert (info.value.path, info.value.reason) == ("$", TOO_DEEP)
    with limits(max_depth=10**9):
        with pytest.raises(DecodeError) as info:
            FrozenDict({"top": deep})
        assert (info.value.path, info.value.reason) == ("$", TOO_DEEP)
        assert FrozenDict({"a": 1}) != {"top": deep}
        with pytest.raises(DecodeError) as info:
            from_dict({"kind": "raw", "data": deep})
        assert (info.value.path, info.value.reason) == ("$.data", TOO_DEEP)


# ------------------------------------------------------------ identity, hashing, sharing


def test_a_value_equals_itself_and_hashes_are_spread() -> None:
    d = FrozenDict({"a": [1, {"b": 2}]})
    assert d == d  # the identity shortcut
    assert not d != d  # noqa: SIM202
    assert len({hash(FrozenDict({"n": n})) for n in range(20)}) > 10


def test_values_read_out_of_a_frozen_dict_hash_and_compare() -> None:
    d = FrozenDict({"a": {"b": [1, {"c": None}]}, "x": 1})
    inner = d["a"]
    assert isinstance(inner, FrozenDict)
    assert hash(inner) == hash(FrozenDict({"b": [1, {"c": None}]}))
    merged = d | {"y": 2}
    assert hash(merged) == hash(FrozenDict({**d.thaw(), "y": 2}))
    assert merged == {**d.thaw(), "y": 2}
    assert inner == FrozenDict({"b": (1, {"c": None})})


def test_comparing_and_rewrapping_frozen_values_ignores_the_depth_limit_in_force() -> None:
    deep = FrozenDict({"a": [[[{"b": [1]}]]]})
    twin = FrozenDict({"a": [[[{"b": [1]}]]]})
    with limits(max_depth=2):
        assert deep == twin  # both were checked when they were built
        assert FrozenDict(deep) == deep
        assert hash(FrozenDict(deep)) == hash(twin)


def test_rewrapping_shares_the_stored_data() -> None:
    d = FrozenDict({"a": [1]})
    assert raw(FrozenDict(d)) is raw(d)


def test_a_frozen_dict_cannot_be_changed_or_emptied() -> None:
    d = FrozenDict({"a": 1})
    with pytest.raises(AttributeError, match="FrozenDict is read-only \\(cannot delete '_d'\\)"):
        del d._d  # type: ignore[misc]
    with pytest.raises(AttributeError, match="FrozenDict is read-only \\(cannot set 'x'\\)"):
        d.x = 1  # type: ignore[attr-defined]
    assert d == {"a": 1}


def test_raw_gives_the_stored_plain_form() -> None:
    d = FrozenDict({"a": [1, {"b": 2}]})
    assert raw(d) == {"a": [1, {"b": 2}]}
    assert type(raw(d)["a"]) is list
    assert raw(d) is raw(d)  # shared, not copied
    assert raw((d, 1, (2, d))) == [{"a": [1, {"b": 2}]}, 1, [2, {"a": [1, {"b": 2}]}]]
    assert raw("x") == "x"
    assert raw(None) is None


@given(ms.json_values())
def test_plain_json_takes_the_fast_copy(value: Any) -> None:
    plain = thaw(value)
    assert _plain_copy(plain, 0, 256) == plain
    assert json_equal(_plain_copy(plain, 0, 256), plain)


def test_the_fast_copy_stops_exactly_at_the_limit() -> None:
    at_limit: Any = [["x"], {"k": {"j": 1}}]
    assert _plain_copy(at_limit, 0, 3) == at_limit
    with pytest.raises(_Unusual):
        _plain_copy(at_limit, 0, 2)
    with pytest.raises(_Unusual):
        _plain_copy({"a": {1: 2}}, 0, 5)
    with pytest.raises(_Unusual):
        _plain_copy(Level.HIGH, 0, 5)

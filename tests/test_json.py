"""FrozenDict, freeze and thaw: read-only, hashable, exact JSON values."""

from __future__ import annotations

import copy
import math
import pickle

import pytest
from hypothesis import given

from messages import DecodeError
from messages import FrozenDict
from messages import freeze
from messages import strategies as ms
from messages import thaw


def test_nested_values_come_out_frozen() -> None:
    d = FrozenDict({"a": [1, {"b": [2]}], "c": None})
    assert d["a"] == (1, FrozenDict({"b": [2]}))
    assert isinstance(d["a"], tuple)
    inner = d["a"][1]
    assert isinstance(inner, FrozenDict)
    assert inner["b"] == (2,)


def test_construction_copies_the_input() -> None:
    source = {"a": [1, 2], "b": {"c": 3}}
    d = FrozenDict(source)
    source["a"].append(3)  # type: ignore[attr-defined]
    source["b"]["c"] = 99  # type: ignore[index]
    assert d.thaw() == {"a": [1, 2], "b": {"c": 3}}


def test_thaw_gives_an_independent_copy() -> None:
    d = FrozenDict({"a": [1, {"b": 2}]})
    out = d.thaw()
    out["a"][1]["b"] = 3
    assert d.thaw() == {"a": [1, {"b": 2}]}


def test_equality_is_exact_json_equality() -> None:
    assert FrozenDict({"a": 1}) == FrozenDict({"a": 1})
    assert FrozenDict({"a": 1}) != FrozenDict({"a": 1.0})
    assert FrozenDict({"a": 1}) != FrozenDict({"a": True})
    assert FrozenDict({"a": [1]}) == {"a": [1]}
    assert FrozenDict({"a": [1]}) == {"a": (1,)}
    assert FrozenDict({"a": 1}) != {"a": object()}
    assert FrozenDict({"a": 1}) != [("a", 1)]
    assert FrozenDict() == {}


def test_key_order_does_not_matter() -> None:
    a = FrozenDict({"x": 1, "y": 2})
    b = FrozenDict({"y": 2, "x": 1})
    assert a == b
    assert hash(a) == hash(b)


@given(ms.json_objects())
def test_equal_values_hash_equal(d: FrozenDict) -> None:
    again = FrozenDict(d.thaw())
    assert again == d
    assert hash(again) == hash(d)
    assert len({d, again}) == 1


def test_every_mutating_method_is_missing_or_refused() -> None:
    d = FrozenDict({"a": 1})
    for name in ("__setitem__", "__delitem__", "pop", "popitem", "clear", "update", "setdefault"):
        assert not hasattr(d, name), name
    with pytest.raises(TypeError):
        d["a"] = 2  # type: ignore[index]
    with pytest.raises(AttributeError):
        d._d = {}  # type: ignore[misc]
    with pytest.raises(AttributeError):
        d.new = 1  # type: ignore[attr-defined]


def test_mapping_protocol() -> None:
    d = FrozenDict({"a": 1, "b": [2]})
    assert list(d) == ["a", "b"]
    assert len(d) == 2
    assert "a" in d
    assert "z" not in d
    assert d.get("z") is None
    assert d.get("z", 5) == 5
    assert d.get("b") == (2,)
    assert dict(d.items()) == {"a": 1, "b": (2,)}
    assert list(d.values()) == [1, (2,)]
    assert bool(d) and not FrozenDict()
    with pytest.raises(KeyError):
        d["z"]


def test_merge_operator_returns_a_new_value() -> None:
    d = FrozenDict({"a": 1})
    merged = d | {"b": [2]}
    assert merged == {"a": 1, "b": [2]}
    assert d == {"a": 1}


def test_copy_and_pickle() -> None:
    d = FrozenDict({"a": [1]})
    assert copy.copy(d) is d
    assert copy.deepcopy(d) is d
    assert pickle.loads(pickle.dumps(d)) == d


def test_repr() -> None:
    assert repr(FrozenDict({"a": [1]})) == "FrozenDict({'a': [1]})"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"a": {1, 2}}, "$.a: expected a JSON value, found set"),
        ({"a": [b"x"]}, "$.a[0]: expected a JSON value, found bytes"),
        ({"a": math.nan}, "$.a: expected a finite number, found nan"),
        ({"a": [math.inf]}, "$.a[0]: expected a finite number, found inf"),
        ({1: "x"}, "$: expected a string key, found int"),
        ({"a": {2: "x"}}, "$.a: expected a string key, found int"),
    ],
)
def test_non_json_is_refused_with_a_path(value: object, message: str) -> None:
    with pytest.raises(DecodeError) as info:
        freeze(value)
    assert str(info.value) == message


def test_depth_limit() -> None:
    deep: object = 1
    for _ in range(300):
        deep = [deep]
    with pytest.raises(DecodeError, match="nests deeper than 256 levels"):
        freeze(deep)
    assert freeze(deep, max_depth=400) is not None


def test_freeze_and_thaw_scalars_and_subclasses() -> None:
    import enum

    class Color(enum.IntEnum):
        RED = 1

    class Name(str):
        pass

    assert freeze(None) is None
    assert freeze("x") == "x"
    assert freeze([1, (2, 3)]) == (1, (2, 3))
    frozen = freeze({"c": Color.RED, "n": Name("x"), "f": 1.5})
    assert type(frozen["c"]) is int
    assert type(frozen["n"]) is str
    assert thaw(frozen) == {"c": 1, "n": "x", "f": 1.5}
    assert thaw((1, {"a": (2,)})) == [1, {"a": [2]}]


@given(ms.json_values())
def test_thaw_then_freeze_is_identity(value: object) -> None:
    assert freeze(thaw(value)) == value

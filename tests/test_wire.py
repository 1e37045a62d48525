"""The checked readers every decoder uses (messages._core.wire): one family, names that say
what an absent key gives, errors that name the full path."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from messages import DecodeError
from messages._core.frozen import EMPTY
from messages._core.wire import MISSING
from messages._core.wire import extra
from messages._core.wire import fail
from messages._core.wire import need_obj
from messages._core.wire import need_str
from messages._core.wire import obj_or_empty
from messages._core.wire import opt_bool
from messages._core.wire import opt_int
from messages._core.wire import opt_num
from messages._core.wire import opt_obj
from messages._core.wire import opt_str
from messages._core.wire import opt_time
from messages._core.wire import rest
from messages._core.wire import str_or
from messages._core.wire import type_name


def test_absent_is_an_error_for_need_a_default_for_or_and_none_for_opt() -> None:
    assert need_str({"a": "x"}, "a") == "x"
    with pytest.raises(DecodeError) as info:
        need_str({}, "a", "$.data")
    assert (info.value.path, info.value.reason) == ("$.data.a", "expected a string, found nothing")
    assert info.value.value is None
    assert str_or({}, "a") == "" and str_or({}, "a", "d") == "d"
    assert need_obj({"o": {"k": 1}}, "o") == {"k": 1}
    assert obj_or_empty({}, "o") == {}
    assert opt_str({}, "a") is None and opt_str({"a": None}, "a") is None


@pytest.mark.parametrize(
    ("read", "value", "expected"),
    [
        (need_str, None, "a string"),
        (str_or, None, "a string"),
        (need_obj, [], "an object"),
        (obj_or_empty, None, "an object"),
        (opt_str, 1, "a string"),
        (opt_bool, 0, "a boolean"),
        (opt_int, True, "an integer"),
        (opt_int, 1.0, "an integer"),
        (opt_num, "1", "a number"),
        (opt_obj, [], "an object"),
        (opt_time, [], "a string or a number"),
    ],
)
def test_a_present_value_of_the_wrong_type_is_an_error_with_its_path(
    read: Callable[..., Any], value: Any, expected: str
) -> None:
    with pytest.raises(DecodeError) as info:
        read({"k": value}, "k", at="$.part")
    assert info.value.path == "$.part.k"
    assert info.value.reason == f"expected {expected}, found {type_name(value)}"


def test_numbers_and_times_are_kept_as_written() -> None:
    assert type(opt_num({"n": 1}, "n")) is int and type(opt_num({"n": 1.5}, "n")) is float
    assert opt_time({"timestamp": 17}) == 17 and opt_time({"timestamp": "t"}) == "t"


def test_fail_names_absence_as_nothing() -> None:
    assert type_name(MISSING) == "nothing"
    error = fail("an array", MISSING, "content", "$.message")
    assert str(error) == "$.message.content: expected an array, found nothing"
    assert str(fail("an object", 3)) == "$: expected an object, found an integer"


def test_rest_keeps_what_is_not_modelled_and_modelled_nulls() -> None:
    known = frozenset(("a", "b"))
    assert rest({"a": 1, "b": 2}, known) == {}
    assert rest({"a": None, "b": 2, "c": 3}, known) == {"a": None, "c": 3}
    assert rest({"a": 1, "c": 3}, ("a",)) == {"c": 3}  # any collection of keys
    assert extra({"a": 1}, known) is EMPTY
    assert extra({"a": 1, "z": [1]}, known) == {"z": [1]}

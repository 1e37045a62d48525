"""The partial-JSON parser every stream accumulator uses for tool arguments still arriving."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from messages import strategies as ms
from messages import thaw
from messages._core.jsontext import parse_arguments as loads_object
from messages.providers._partial import MAX_DEPTH
from messages.providers._partial import parse_partial

_JSON = ms.json_values(max_leaves=15).map(thaw)
_DOCS = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(), children, max_size=3)
    ),
    max_leaves=12,
)


@given(_JSON, st.sampled_from([None, 2]))
def test_complete_text_parses_like_json_loads(value: Any, indent: int | None) -> None:
    text = json.dumps(value, indent=indent)
    assert parse_partial(text) == json.loads(text)


@given(_DOCS)
def test_a_whole_document_reads_exactly(value: object) -> None:
    assert parse_partial(json.dumps(value)) == value


@given(ms.json_objects(max_size=4).map(thaw), st.sampled_from([None, 1]))
def test_every_prefix_of_an_object_gives_part_of_it(
    value: dict[str, Any], indent: int | None
) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    for end in range(1, len(text) + 1):
        parsed = parse_partial(text[:end])
        assert isinstance(parsed, dict)
        assert set(parsed) <= set(value)
    assert parse_partial(text) == value


@given(st.dictionaries(st.text(max_size=5), _DOCS, max_size=4), st.data())
def test_any_prefix_of_an_escaped_object_reads_as_an_object(
    value: dict[str, Any], data: st.DataObject
) -> None:
    text = json.dumps(value)  # ASCII escapes, surrogate pairs included
    parsed = parse_partial(text[: data.draw(st.integers(1, len(text)))])
    assert isinstance(parsed, dict)
    assert set(parsed) <= set(value)


@given(st.text(max_size=40))
def test_any_text_never_raises(text: str) -> None:
    parse_partial(text)  # must not raise
    assert loads_object(text) is None or isinstance(loads_object(text), dict)


CASES = [
    ("", None),
    ("   ", None),
    ("{", {}),
    ('{"a', {}),
    ('{"a"', {}),
    ('{"a":', {}),
    ('{"a": 1', {"a": 1}),
    ('{"a": 1e', {}),
    ('{"a": -', {}),
    ('{"a": tr', {}),
    ('{"a": true', {"a": True}),
    ('{"a": "he', {"a": "he"}),
    ('{"a": "\\u00e9t\\n', {"a": "\u00e9t\n"}),
    ('{"a": [1, 2', {"a": [1, 2]}),
    ('{"a": [1, 2,', {"a": [1, 2]}),
    ('{"a": [1, {"b": null', {"a": [1, {"b": None}]}),
    ('{"a": 1, "b"', {"a": 1}),
    ('[{"k": "v"}, {"k"', [{"k": "v"}, {}]),
    ('"unterminated', "unterminated"),
    ('{"a": 1 "b": 2}', {"a": 1}),
    ("{'a': 1}", {}),
    ("xyz", None),
    ('{"city": "Pa', {"city": "Pa"}),
    ('{"a": [1, 2, {"b": tru', {"a": [1, 2, {}]}),
    ('{"n": 12', {"n": 12}),
    # ``1.`` may still become ``1.5``: a number that is not one yet is left out
    ('{"n": 1.', {}),
    ('{"k', {}),
    ('{"k": ', {}),
    ('{"s": "x\\', {"s": "x"}),
    ('{"s": "x\\u00', {"s": "x"}),
    ('{"s": "\\ud83d\\ude00", "t": "', {"s": "\U0001f600", "t": ""}),
    ('{"s": "\\ud83d', {"s": ""}),
    ('{"a": 1} trailing', {"a": 1}),
    ('{"a": 1, }', {"a": 1}),
    ("[", []),
    ("[1,,2]", [1]),
    ("nul", None),
    ("{]", {}),
    ('{"x": 1e999}', {}),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_partial_cases(text: str, expected: Any) -> None:
    assert parse_partial(text) == expected


def test_deep_nesting_stops_instead_of_recursing() -> None:
    value = parse_partial("[" * (MAX_DEPTH * 25))
    depth = 0
    while isinstance(value, list) and value:
        value = value[0]
        depth += 1
    assert 100 < depth <= MAX_DEPTH + 1


def test_loads_object() -> None:
    assert loads_object('{"a": 1}') == {"a": 1}
    assert loads_object("[1]") is None
    assert loads_object("{") is None
    assert loads_object('{"a": NaN}') is None

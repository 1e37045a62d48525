"""The partial-JSON reader used for streamed tool arguments."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from messages.providers._partial_json import MAX_DEPTH, parse_partial

json_docs = st.recursive(
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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", None),
        ("   ", None),
        ("{", {}),
        ('{"a', {}),
        ('{"a"', {}),
        ('{"a":', {}),
        ('{"a": 1', {"a": 1}),
        ('{"a": 1.', {}),
        ('{"a": 1e', {}),
        ('{"a": -', {}),
        ('{"a": tr', {}),
        ('{"a": true', {"a": True}),
        ('{"a": "he', {"a": "he"}),
        ('{"a": "x\\', {"a": "x"}),
        ('{"a": "x\\u00', {"a": "x"}),
        ('{"a": "\\u00e9t\\n', {"a": "\u00e9t\n"}),
        ('{"a": [1, 2', {"a": [1, 2]}),
        ('{"a": [1, 2,', {"a": [1, 2]}),
        ('{"a": [1, {"b": null', {"a": [1, {"b": None}]}),
        ('{"a": 1, "b"', {"a": 1}),
        ('[{"k": "v"}, {"k"', [{"k": "v"}, {}]),
        ('"unterminated', "unterminated"),
        ('{"a": 1} trailing', {"a": 1}),
        ('{"a": 1 "b": 2}', {"a": 1}),
        ("{'a': 1}", {}),
        ("nul", None),
        ("xyz", None),
    ],
)
def test_closes_what_is_open(text: str, expected: object) -> None:
    assert parse_partial(text) == expected


def test_deep_nesting_stops_instead_of_recursing() -> None:
    value = parse_partial("[" * (MAX_DEPTH * 4))
    depth = 0
    while isinstance(value, list) and value:
        value = value[0]
        depth += 1
    assert depth <= MAX_DEPTH + 1


@given(json_docs)
def test_a_whole_document_reads_exactly(value: object) -> None:
    text = json.dumps(value)
    assert parse_partial(text) == value


@given(st.dictionaries(st.text(max_size=5), json_docs, max_size=4), st.data())
def test_every_prefix_of_an_object_reads_as_an_object(value: dict, data: st.DataObject) -> None:
    text = json.dumps(value)
    cut = data.draw(st.integers(1, len(text)))
    parsed = parse_partial(text[:cut])
    assert isinstance(parsed, dict)
    assert set(parsed) <= set(value)


@given(st.text(max_size=40))
def test_never_raises(text: str) -> None:
    parse_partial(text)

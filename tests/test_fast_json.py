"""The ``fast`` extra (``msgspec``) in the line readers gives what the strict standard-library
path gives: the same values, the same refusals (NaN, Infinity, out-of-range numbers), the
same errors with their paths and lines."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import example
from hypothesis import given
from hypothesis import strategies as st

from messages import DecodeError
from messages import Message
from messages._core import jsontext
from messages.adapters import get

pytest.importorskip("msgspec", reason="the fast extra is not installed")

pytestmark = pytest.mark.skipif(
    jsontext.fast_load is None, reason="MESSAGES_JSON=stdlib turns the fast path off"
)

_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)

_ODD = (
    "NaN",
    "-Infinity",
    "Infinity",
    "1e999",
    "-1e400",
    "1e-400",
    "123456789012345678901234567890",
    "-9223372036854775809",
    "18446744073709551616",
    '"\\ud800"',
    '"\\udc00\\ud800"',
    "-0.0",
    "0.1e1",
    "1E+2",
    "01",
    "1.",
    ".5",
    "tru",
    '"\\x41"',
    '"a\tb"',
)
"""Texts where a reader may differ from the standard library: non-JSON constants, numbers
out of range or beyond 64 bits, lone surrogates, malformed numbers and escapes."""


@st.composite
def _line(draw: st.DrawFn) -> str | bytes:
    record: dict[str, Any] = {"type": draw(st.sampled_from(["assistant", "user", "progress"]))}
    record["data"] = draw(_values)
    text = json.dumps(record, ensure_ascii=draw(st.booleans()))
    how = draw(st.integers(0, 6))
    if how == 1:  # an odd value in place of the data
        text = text.replace('"data": ', '"data": ' + draw(st.sampled_from(_ODD)) + ', "x": ', 1)
    elif how == 2:  # cut short
        text = text[: draw(st.integers(0, len(text)))]
    elif how == 3:  # a duplicate key
        text = text[:-1] + ', "type": "again"}'
    elif how == 4:  # trailing text
        text += draw(st.sampled_from([" x", "}", " {}", "\x00"]))
    elif how == 5:
        text = draw(st.sampled_from(["\ufeff", " ", "\t", ""])) + text
    if draw(st.booleans()):
        data = text.encode("utf-8", "surrogatepass")
        if draw(st.booleans()) and len(data) > 2:  # a byte that is not UTF-8
            at = draw(st.integers(0, len(data) - 1))
            data = data[:at] + b"\xff" + data[at:]
        return data + b"\n"
    return text + "\n"


def _decode(lines: list[str | bytes], *, strict: bool) -> list[Message] | tuple[str, int | None]:
    adapter = get("claude_code")
    try:
        return list(adapter.iter_decode(iter(lines), strict=strict))
    except DecodeError as exc:
        return (str(exc), exc.line)


def _both(
    lines: list[str | bytes], monkeypatch: pytest.MonkeyPatch, *, strict: bool
) -> Iterator[Any]:
    yield _decode(lines, strict=strict)
    with monkeypatch.context() as m:
        m.setattr(jsontext, "fast_load", None)
        yield _decode(lines, strict=strict)


@given(st.lists(_line(), min_size=1, max_size=6), st.booleans())
@example(['{"type": "x", "n": 123456789012345678901234567890}\n'], False)
@example([b'{"type": "x", "n": -9223372036854775809}\n'], False)
@example(['{"type": "x", "n": NaN}\n', '{"type": "x", "n": 1e999}\n'], False)
@example(['{"type": "x", "s": "\\ud800"}\n'], True)
@example([b'{"type": "x", "s": "\xff"}\n', '{"a": 1e999}\n'], True)
def test_the_fast_reader_gives_what_the_standard_library_gives(
    lines: list[str | bytes], strict: bool
) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast, stdlib = _both(lines, monkeypatch, strict=strict)
    assert fast == stdlib
    if isinstance(fast, list):  # the values themselves, exactly (1, 1.0 and True differ)
        assert [repr(m) for m in fast] == [repr(m) for m in stdlib]


def test_the_fast_reader_is_used() -> None:
    """Not a vacuous comparison: with the extra installed, lines go through msgspec."""
    import msgspec

    assert jsontext.fast_load is not None
    assert jsontext.fast_load(b'{"a": 1}') == {"a": 1}
    with pytest.raises(msgspec.DecodeError):
        jsontext.fast_load(b'{"a": NaN}')

"""Small helpers shared by the provider codecs: owning a body, naming the source."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._core.frozen import FrozenDict, raw
from .._core.make import copy_json
from .._core.wire import type_name
from ..errors import DecodeError

__all__ = ["copy_body", "keep_differences", "owned_body", "with_source"]


def owned_body(body: Any, source: str) -> dict[str, Any]:
    """A private, validated plain copy of a request or response body (a JSON object)."""
    if not isinstance(body, Mapping):
        raise DecodeError(
            f"expected an object, found {type_name(body)}", path="$", source=source, value=body
        )
    try:
        return dict(raw(FrozenDict(body)))
    except DecodeError as exc:
        exc.source = source
        raise


def copy_body(body: Any, source: str) -> dict[str, Any]:
    """A private plain copy of a body (a JSON object), checked and copied in one pass.

    Nesting deeper than 256 levels, or a value JSON cannot hold, is a DecodeError.
    """
    if not isinstance(body, Mapping):
        raise DecodeError(f"expected an object, found {type_name(body)}", value=body, source=source)
    try:
        owned: dict[str, Any] = copy_json(body, "$", 0, 256)
    except DecodeError as exc:
        exc.source = source
        raise
    return owned


def with_source(exc: DecodeError, source: str) -> DecodeError:
    """Name the format on an error raised while reading it."""
    if exc.source is None:
        exc.source = source
    return exc


def keep_differences(
    wire: dict[str, Any], derived: dict[str, Any], keys: tuple[str, ...], out: dict[str, Any]
) -> None:
    """Copy into ``out`` each of ``keys`` whose wire value an encoder would not rebuild.

    ``derived`` is what the encoder writes for those keys from the modelled fields; a key
    the wire has with another value (or that the encoder would not write) is kept, so the
    encoder, writing ``extra`` on top, reproduces the wire exactly.
    """
    for key in keys:
        if key in wire and (key not in derived or not _same(derived[key], wire[key])):
            out[key] = wire[key]


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if type(a) is list:
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)

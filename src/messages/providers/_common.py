"""Small helpers shared by the provider codecs.

Owning a body or event (:func:`copy_body`, :func:`owned_body`, :func:`owned_event`,
:func:`decode_body`), naming the source on an error (:func:`with_source`), and two response
rules: usage details objects (:func:`put_details`) and stop reasons spelled the target's way
(:func:`spelled_stop`).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from typing import Any
from typing import TypeVar

from .._core.frozen import FrozenDict
from .._core.frozen import depth_limit
from .._core.frozen import thaw
from .._core.jsontext import same_json
from .._core.make import copy_json
from .._core.wire import type_name
from ..errors import DecodeError
from ..usage import StopReason
from ..usage import classify_stop_reason

__all__ = [
    "copy_body",
    "decode_body",
    "keep_differences",
    "owned_body",
    "owned_event",
    "put_details",
    "spelled_stop",
    "with_source",
]

T = TypeVar("T")


def owned_body(body: Any, source: str) -> dict[str, Any]:
    """A private, validated plain copy of a request or response body (a JSON object)."""
    if not isinstance(body, Mapping):
        raise DecodeError(
            f"expected an object, found {type_name(body)}", path="$", source=source, value=body
        )
    try:  # what dict(FrozenDict(body)) stores, in one pass: no wrapper, no second copy
        owned: dict[str, Any] = copy_json(body, "$", 0, depth_limit())
        return owned
    except DecodeError as exc:
        exc.source = source
        raise


def copy_body(body: Any, source: str, what: str = "an object") -> dict[str, Any]:
    """A private plain copy of a body or event (a JSON object), checked and copied in one pass.

    Anything but an object is a DecodeError saying it expected ``what``; so is nesting
    deeper than 256 levels, or a value JSON cannot hold.
    """
    if not isinstance(body, Mapping):
        raise DecodeError(f"expected {what}, found {type_name(body)}", value=body, source=source)
    try:
        owned: dict[str, Any] = copy_json(body, "$", 0, 256)
    except DecodeError as exc:
        exc.source = source
        raise
    return owned


def decode_body(body: Any, source: str, decode: Callable[[dict[str, Any]], T]) -> T:
    """``decode`` of a private copy of a body (see :func:`copy_body`); errors name ``source``."""
    d = copy_body(body, source)
    try:
        return decode(d)
    except DecodeError as exc:
        exc.source = source
        raise


def owned_event(event: Any, source: str, what: str = "an object") -> dict[str, Any]:
    """A streamed event or chunk as a fresh plain dict nobody else holds.

    Every accumulator's first step; :func:`copy_body` does the checks, errors name ``source``.
    """
    return thaw(copy_body(event, source, what))  # type: ignore[no-any-return]


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
        if key in wire and (key not in derived or not same_json(derived[key], wire[key])):
            out[key] = wire[key]


def put_details(
    out: dict[str, Any], kept: Mapping[str, Any], key: str, counts: dict[str, int | None]
) -> None:
    """Write a usage details object (``output_tokens_details``...) at ``key`` in ``out``.

    It is the one the wire had, kept in the usage's ``extra`` under ``key``, with the
    modelled ``counts`` that are set written over it; none at all when neither is there.
    """
    details = kept.get(key)
    present = {name: count for name, count in counts.items() if count is not None}
    if isinstance(details, FrozenDict) or present:
        out[key] = {**(thaw(details) if isinstance(details, FrozenDict) else {}), **present}


def spelled_stop(raw: str, own: frozenset[str], spelling: Mapping[StopReason, str]) -> str:
    """A stop reason as the target spells it.

    One of the target's own (``own``) stays as it is; another provider's is classified and
    written as the target's word for that class (``spelling``); one with no such word
    stays as it is.
    """
    if raw in own:
        return raw
    reason = classify_stop_reason(raw)
    return spelling.get(reason, raw) if reason is not None else raw

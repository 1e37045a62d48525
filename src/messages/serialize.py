"""Native serialization: every value to a JSON-safe dict and back, and JSON Lines.

Messages are tagged with ``kind``, blocks with ``type`` (the Anthropic-like name), usage with
``"type": "usage"``; a top-level value also carries the format version ``"v": 2``. Fields at
their default are left out. ``from_dict(to_dict(x)) == x`` for every value.

>>> from messages import TextMessage
>>> to_dict(TextMessage("hi", role="user"))
{'v': 2, 'kind': 'text', 'text': 'hi', 'role': 'user'}
>>> from_dict(_) == TextMessage("hi", role="user")
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import IO
from typing import Any
from typing import Final
from typing import TypeAlias

from ._core.fields import ROLES
from ._core.frozen import FrozenDict
from ._core.frozen import depth_limit
from ._core.frozen import thaw
from ._core.jsontext import dump_compact
from ._core.jsontext import load_strict
from ._core.make import copy_json
from ._core.make import expose_owned
from ._core.make import maker
from ._core.make import wrap_owned
from ._core.wire import type_name
from ._shapes.citations import read_citation
from .blocks import BLOCK_TYPES
from .blocks import Block
from .blocks import ToolUseBlock
from .citations import Citation
from .errors import DecodeError
from .errors import EncodeError
from .message import MESSAGE_TYPES
from .message import ROLE_TYPES
from .message import Message
from .settings import TOOL_MODES
from .settings import RequestSettings
from .settings import ToolChoice
from .settings import ToolDefinition
from .usage import Usage

__all__ = [
    "FORMAT_VERSION",
    "READ_VERSIONS",
    "Value",
    "dumps",
    "from_dict",
    "loads",
    "read_jsonl",
    "to_dict",
    "write_jsonl",
]

FORMAT_VERSION: Final = 2
"""The version tag ``v`` written on every top-level value (2 since documents, video, server
tools, citations and agent events)."""

READ_VERSIONS: Final = (1, 2)
"""The versions :func:`from_dict` reads: version 1 files (written before those kinds) hold a
subset of the same kinds and read unchanged."""

Value: TypeAlias = Message | Block | Usage | RequestSettings | ToolDefinition | ToolChoice
"""Anything :func:`to_dict` accepts."""

_In = Callable[[Any, str], Any]


def _bad(expected: str, value: Any, path: str) -> DecodeError:
    return DecodeError(f"expected {expected}, found {type_name(value)}", path=path, value=value)


def _str(v: Any, path: str) -> Any:
    if type(v) is not str:
        raise _bad("a string", v, path)
    return v


def _bool(v: Any, path: str) -> Any:
    if type(v) is not bool:
        raise _bad("a boolean", v, path)
    return v


def _int(v: Any, path: str) -> Any:
    if type(v) is not int:
        raise _bad("an integer", v, path)
    return v


def _num(v: Any, path: str) -> Any:
    if type(v) is not int and type(v) is not float:
        raise _bad("a number", v, path)
    return v


def _scalar(v: Any, path: str) -> Any:
    if type(v) not in (str, int, float):
        raise _bad("a string or a number", v, path)
    return v


def _map(v: Any, path: str) -> Any:
    if type(v) is not dict:
        raise _bad("an object", v, path)
    return wrap_owned(copy_json(v, path, 0, depth_limit()))


def _json(v: Any, path: str) -> Any:
    return expose_owned(copy_json(v, path, 0, depth_limit()))


def _json_tuple(v: Any, path: str) -> Any:
    if type(v) is not list:
        raise _bad("an array", v, path)
    return _json(v, path)


def _array_of(read: _In) -> _In:
    """The reader of an array whose items ``read`` reads, as a tuple."""

    def each(v: Any, path: str) -> Any:
        if type(v) is not list:
            raise _bad("an array", v, path)
        return tuple(read(item, f"{path}[{i}]") for i, item in enumerate(v))

    return each


def _citation(v: Any, path: str) -> Any:
    if type(v) is not dict:
        raise _bad("an object", v, path)
    if v.get("kind") == Citation.kind:
        _check_version(v, path)
        return _build(v, _SPECS[Citation], path)
    # Version 1 kept citations as the wire objects they came in: read them as the codecs do.
    return read_citation(copy_json(v, path, 0, depth_limit()))


def _content(v: Any, path: str) -> Any:
    if type(v) is str:
        return v
    if type(v) is not list:
        raise _bad("a string or an array of blocks", v, path)
    return tuple(_nested(item, f"{path}[{i}]", _BLOCKS) for i, item in enumerate(v))


def _usage(v: Any, path: str) -> Any:
    return _nested(v, path, {"usage": Usage})


def _tool_use(v: Any, path: str) -> Any:
    block = _nested(v, path, _BLOCKS)
    if type(block) is not ToolUseBlock:
        raise DecodeError(f"expected a tool_use block, found {block.kind!r}", path=f"{path}.type")
    return block


def _role_message(v: Any, path: str) -> Any:
    """A role message nested in another (a sub-agent's turn in a progress report)."""
    if type(v) is not dict:
        raise _bad("an object", v, path)
    _check_version(v, path)
    tag = v.get("kind")
    cls = _MESSAGES.get(tag) if type(tag) is str else None
    if cls is None or cls not in ROLE_TYPES:
        raise DecodeError(f"expected a role message, found kind {tag!r}", path=f"{path}.kind")
    return _build(v, _SPECS[cls], path)


def _tool(v: Any, path: str) -> Any:
    """A tool of request settings: a definition, or a raw tool entry (a ``raw`` block)."""
    if type(v) is dict and v.get("kind") == ToolDefinition.kind:
        _check_version(v, path)
        return _build(v, _SPECS[ToolDefinition], path)
    if type(v) is not dict or v.get("type") != "raw":
        raise _bad("a tool definition or a raw block", v, path)
    return _nested(v, path, _BLOCKS)


def _tool_choice(v: Any, path: str) -> Any:
    if type(v) is not dict:
        raise _bad("an object", v, path)
    _check_version(v, path)
    return _build(v, _SPECS[ToolChoice], path)


def _tool_mode(v: Any, path: str) -> Any:
    if type(v) is not str or v not in TOOL_MODES:
        raise DecodeError(f"expected a tool mode, found {v!r}", path=path, value=v)
    return v


def _role(v: Any, path: str) -> Any:
    if type(v) is not str or v not in ROLES:
        raise DecodeError(f"expected a role, found {v!r}", path=path, value=v)
    return v


def _system_role(v: Any, path: str) -> Any:
    if type(v) is not str or v not in ("system", "developer"):
        raise DecodeError(f"expected 'system' or 'developer', found {v!r}", path=path, value=v)
    return v


_BY_ANNOTATION: Final[dict[str, _In]] = {
    "str": _str,
    "bool": _bool,
    "int": _int,
    "int | float": _num,
    "float": _num,
    "Timestamp": _scalar,
    "Mapping[str, JsonValue]": _map,
    "JsonValue": _json,
    "tuple[JsonValue, ...]": _json_tuple,
    "tuple[FrozenDict, ...]": _array_of(_map),
    "tuple[Citation, ...]": _array_of(_citation),
    "str | tuple[Block, ...]": _content,
    "Usage": _usage,
    "ToolUseBlock": _tool_use,
    "RoleMessage": _role_message,
    "Role": _role,
    "tuple[str, ...]": _array_of(_str),
    "tuple[Tool, ...]": _array_of(_tool),
    "ToolChoice": _tool_choice,
    "ToolMode": _tool_mode,
    'Literal["system", "developer"]': _system_role,
}
"""The reader of each field type; a field typed ``X | None`` reads null as None, else as X."""


class _Spec:
    """How one class reads and writes: its tag, and each field's name, default and reader."""

    __slots__ = ("cls", "fields", "make", "names", "tag", "tag_key")

    def __init__(self, cls: type, tag_key: str, tag: str) -> None:
        self.cls = cls
        self.tag_key = tag_key
        self.tag = tag
        self.fields: list[tuple[str, Any, _In, bool]] = []
        for f in dataclasses.fields(cls):
            default = f.default if f.default is not dataclasses.MISSING else _REQUIRED
            annotation = str(f.type).replace("'", '"')
            base = annotation.removesuffix(" | None")
            self.fields.append((f.name, default, _BY_ANNOTATION[base], base != annotation))
        self.names = frozenset(field[0] for field in self.fields) | {tag_key, "v"}
        self.make: Callable[..., Any] = maker(cls)  # the readers check and freeze every value


_REQUIRED: Final = object()

_BLOCKS: Final[dict[str, type]] = {cls.kind: cls for cls in BLOCK_TYPES}
_MESSAGES: Final[dict[str, type]] = {cls.kind: cls for cls in MESSAGE_TYPES}
_SPECS: dict[type, _Spec] = {cls: _Spec(cls, "type", cls.kind) for cls in BLOCK_TYPES}
_SPECS.update({cls: _Spec(cls, "kind", cls.kind) for cls in MESSAGE_TYPES})
_SPECS[Usage] = _Spec(Usage, "type", "usage")
_SPECS[Citation] = _Spec(Citation, "kind", Citation.kind)
_SETTINGS: Final[dict[str, type]] = {
    RequestSettings.kind: RequestSettings,
    ToolDefinition.kind: ToolDefinition,
    ToolChoice.kind: ToolChoice,
}
_SPECS.update({cls: _Spec(cls, "kind", tag) for tag, cls in _SETTINGS.items()})


def _out(value: Any, shared: bool) -> Any:
    cls = type(value)
    if cls is str or cls is int or cls is float or cls is bool or value is None:
        return value
    if cls is FrozenDict:
        return value._d if shared else thaw(value)
    if cls is tuple:
        try:
            return [_out(item, shared) for item in value]
        except EncodeError as exc:  # name the item: found again only on this rare path
            index = next(i for i, item in enumerate(value) if not _encodable(item))
            raise exc.within(f"[{index}]") from None
    spec = _SPECS.get(cls)
    if spec is not None:
        return _encode(value, spec, nested=True, shared=shared)
    # Reached only by a value the constructors do not check, such as a datetime timestamp.
    raise EncodeError(f"cannot serialize {cls.__name__}", value=value)


def _encodable(value: Any) -> bool:
    try:
        _out(value, True)
    except EncodeError:
        return False
    return True


def _encode(value: Any, spec: _Spec, *, nested: bool, shared: bool = False) -> dict[str, Any]:
    """The native dict of a value.

    With ``shared``, JSON objects are the stored, read-only dicts (for serialising at
    once); otherwise they are fresh copies the caller may change.
    """
    out: dict[str, Any] = {} if nested else {"v": FORMAT_VERSION}
    if not (nested and spec.cls is Usage):
        out[spec.tag_key] = spec.tag
    for name, default, _, _ in spec.fields:
        v = getattr(value, name)
        if default is not _REQUIRED and (v is default or v == default):
            continue
        cls = type(v)
        if cls is str or cls is int or cls is bool or v is None:
            out[name] = v
        else:
            try:
                out[name] = _out(v, shared)
            except EncodeError as exc:
                raise exc.within(f".{name}") from None
    return out


def to_dict(value: Value) -> dict[str, Any]:
    """A JSON-safe dict for any message, block or usage (a fresh copy you may change).

    >>> from messages import ToolUseBlock
    >>> to_dict(ToolUseBlock("t1", "Bash", {"command": "ls"}))
    {'v': 2, 'type': 'tool_use', 'id': 't1', 'name': 'Bash', 'input': {'command': 'ls'}}
    """
    spec = _SPECS.get(type(value))
    if spec is None:
        raise EncodeError(f"cannot serialize {type(value).__name__}", value=value)
    return _encode(value, spec, nested=False)


def _build(d: dict[str, Any], spec: _Spec, path: str) -> Any:
    for key, value in d.items():
        if key not in spec.names:
            raise DecodeError(
                f"unknown field {key!r} for {spec.cls.__name__}", path=f"{path}.{key}", value=value
            )
    values = []
    for name, default, reader, nullable in spec.fields:
        if name in d:
            v = d[name]
            values.append(None if v is None and nullable else reader(v, f"{path}.{name}"))
        elif default is _REQUIRED:
            raise DecodeError(
                f"missing required field {name!r} for {spec.cls.__name__}", path=f"{path}.{name}"
            )
        else:
            values.append(default)
    return spec.make(*values)


def _check_version(d: dict[str, Any], path: str) -> None:
    """The version tag is optional; when present (nested values may carry it) it is readable.

    Readable versions are :data:`READ_VERSIONS`.
    """
    if "v" in d:
        version = d["v"]
        if type(version) is not int or version not in READ_VERSIONS:
            raise DecodeError(
                f"unsupported format version {version!r} (this library reads 1 and 2)",
                path=f"{path}.v",
                value=version,
            )


def _nested(d: Any, path: str, table: dict[str, type]) -> Any:
    if type(d) is not dict:
        raise _bad("an object", d, path)
    _check_version(d, path)
    if table is _BLOCKS or "type" in d:
        tag = d.get("type")
        cls = table.get(tag) if type(tag) is str else None
        if cls is None:
            raise DecodeError(f"unknown block type {tag!r}", path=f"{path}.type", value=tag)
    else:
        cls = Usage
    return _build(d, _SPECS[cls], path)


def from_dict(data: Any) -> Any:
    """Rebuild a value from :func:`to_dict` output; bad input raises :class:`DecodeError`.

    The result is a :data:`Value` (a message, block or usage), chosen by the ``kind`` or
    ``type`` tag. Unknown fields are an error here: the native format is this library's own.
    """
    if isinstance(data, FrozenDict):
        data = data.thaw()
    if type(data) is not dict:
        raise _bad("an object", data, "$")
    _check_version(data, "$")
    if "kind" in data:
        tag = data["kind"]
        cls = (_MESSAGES.get(tag) or _SETTINGS.get(tag)) if type(tag) is str else None
        if cls is None:
            raise DecodeError(f"unknown message kind {tag!r}", path="$.kind", value=tag)
        return _build(data, _SPECS[cls], "$")
    tag = data.get("type")
    if tag == "usage":
        return _build(data, _SPECS[Usage], "$")
    return _nested(data, "$", _BLOCKS)


def dumps(value: Value) -> str:
    """One value as a line of JSON text (no newline).

    >>> from messages import TextBlock
    >>> dumps(TextBlock("hé"))
    '{"v":2,"type":"text","text":"hé"}'
    """
    spec = _SPECS.get(type(value))
    if spec is None:
        raise EncodeError(f"cannot serialize {type(value).__name__}", value=value)
    return dump_compact(_encode(value, spec, nested=False, shared=True))


def loads(text: str | bytes) -> Any:
    """Parse one line of :func:`dumps` output back into a value."""
    return from_dict(load_strict(text))


def write_jsonl(values: Iterable[Value], fp: IO[str]) -> int:
    """Write each value as one line to a text file object; returns the number written."""
    n = 0
    for value in values:
        fp.write(dumps(value))
        fp.write("\n")
        n += 1
    return n


def read_jsonl(lines: Iterable[str | bytes]) -> Iterator[Any]:
    """Read values from JSON Lines (any iterable of lines, such as an open file), lazily.

    Blank lines are skipped; a bad line raises :class:`DecodeError` with its line number.
    """
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield loads(line)
        except DecodeError as exc:
            exc.line = number
            raise

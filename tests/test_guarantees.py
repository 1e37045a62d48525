"""Reliability and security guarantees (docs/guarantees.md lists each with its test).

Every decoder is fuzzed over arbitrary JSON and arbitrary byte lines: the result is a value or
the library's own DecodeError with a path, nothing else. Decoders are discovered from the
``messages.adapters`` and ``messages.providers`` packages, so a new codec is covered the day it
lands. Run far more examples by hand with ``HYPOTHESIS_PROFILE=long``.
"""

from __future__ import annotations

import builtins
import dataclasses
import importlib
import io
import json
import os
import pkgutil
import socket
from collections.abc import Callable
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import messages.adapters
import messages.providers
from messages import DecodeError
from messages import FrozenDict
from messages import from_dict
from messages import read_jsonl
from messages import strategies as ms
from messages.convert import normalize_messages
from messages.convert import parse_blocks
from support.mutation import scribble


def _modules(package: ModuleType) -> list[ModuleType]:
    return [
        importlib.import_module(f"{package.__name__}.{info.name}")
        for info in pkgutil.iter_modules(package.__path__)
        if not info.name.startswith("_")
    ]


ADAPTERS = [m for m in _modules(messages.adapters) if hasattr(m, "decode")]
PROVIDERS = [m for m in _modules(messages.providers) if hasattr(m, "decode_response")]

# Arbitrary JSON as json.loads would produce it (plain dicts and lists), with keys that the
# decoders look for, so the fuzzing reaches past the first dispatch.
_KEYS = st.sampled_from(
    [
        "type",
        "kind",
        "role",
        "content",
        "text",
        "message",
        "id",
        "name",
        "input",
        "source",
        "data",
        "tool_use_id",
        "event",
        "item",
        "method",
        "params",
        "update",
        "part",
        "usage",
        "parts",
        "contents",
        "messages",
        "system",
        "choices",
        "delta",
        "output",
        "candidates",
        "arguments",
        "tool_calls",
        "functionCall",
        "sessionUpdate",
        "status",
        "x",
    ]
)
_TAGS = st.sampled_from(
    [
        "text",
        "thinking",
        "tool_use",
        "tool_result",
        "image",
        "audio",
        "assistant",
        "user",
        "system",
        "result",
        "stream_event",
        "message",
        "init",
        "item.completed",
        "function_call",
        "session/update",
        "tool_call",
        "step_finish",
        "assistant.message",
        "error",
        "usage",
    ]
)
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | _TAGS
)
JSON = st.recursive(
    _SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_KEYS, children, max_size=5),
    max_leaves=25,
)


def _call(decode: Callable[[Any], Any], value: Any) -> None:
    try:
        result = decode(value)
    except DecodeError as exc:
        assert exc.path.startswith("$"), exc
        assert str(exc)
    else:
        assert result is not None


# ------------------------------------------------------------------ fuzzing


@given(JSON)
def test_fuzz_parse_blocks(value: Any) -> None:
    _call(parse_blocks, value)


@given(JSON)
def test_fuzz_native_from_dict(value: Any) -> None:
    _call(from_dict, value)


@given(st.lists(st.binary(max_size=60) | JSON.map(lambda v: json.dumps(v).encode()), max_size=6))
def test_fuzz_native_jsonl_lines(lines: list[bytes]) -> None:
    try:
        for value in read_jsonl(lines):
            assert value is not None
    except DecodeError as exc:
        assert exc.line is not None


@pytest.mark.parametrize("adapter", ADAPTERS, ids=lambda m: m.NAME)
@given(value=JSON)
def test_fuzz_adapter_decode(adapter: ModuleType, value: Any) -> None:
    _call(adapter.decode, value)


def _items(line: bytes) -> int:
    """How many messages a line may give: one, or one per item of a JSON array."""
    try:
        value = json.loads(line)
    except ValueError:
        return 1
    return max(len(value), 1) if isinstance(value, list) else 1


@pytest.mark.parametrize("adapter", ADAPTERS, ids=lambda m: m.NAME)
@given(
    lines=st.lists(st.binary(max_size=80) | JSON.map(lambda v: json.dumps(v).encode()), max_size=6)
)
def test_fuzz_adapter_lines_lenient(adapter: ModuleType, lines: list[bytes]) -> None:
    decoded = list(adapter.iter_decode(lines))
    # a line gives one message at most, but a JSON array (a whole run, a whole file) may give
    # one per item
    assert len(decoded) <= sum(_items(line) for line in lines)
    assert list(normalize_messages(decoded)) is not None


@pytest.mark.parametrize("provider", PROVIDERS, ids=lambda m: m.NAME)
@given(value=JSON)
def test_fuzz_provider_decoders(provider: ModuleType, value: Any) -> None:
    _call(provider.decode_response, value)
    _call(provider.decode_request, value)


@pytest.mark.parametrize("provider", PROVIDERS, ids=lambda m: m.NAME)
@given(events=st.lists(JSON, max_size=6))
def test_fuzz_provider_accumulators(provider: ModuleType, events: list[Any]) -> None:
    acc = provider.accumulator()
    for event in events:
        try:
            acc.feed(event)
        except DecodeError as exc:
            assert exc.path.startswith("$")
        snapshot = acc.snapshot()
        assert snapshot is not None
    _call(lambda _: acc.message(), None)


# ------------------------------------------------------------------ limits


def _deep_list(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def test_a_100000_deep_array_is_a_decode_error_not_a_recursion_error() -> None:
    line = "[" * 100_000 + "]" * 100_000
    with pytest.raises(DecodeError, match=r"invalid JSON|nests"):
        list(read_jsonl([line]))
    with pytest.raises(DecodeError, match="nests deeper"):
        parse_blocks(
            [{"type": "tool_use", "id": "t", "name": "n", "input": {"a": _deep_list(100_000)}}]
        )
    with pytest.raises(DecodeError, match="nests deeper"):
        from_dict({"kind": "raw", "data": _deep_list(100_000)})
    for adapter in ADAPTERS:
        assert [m.kind for m in adapter.iter_decode([line])] == ["invalid_line"]


def test_deep_tool_result_nesting_is_a_decode_error() -> None:
    block: dict[str, Any] = {"type": "text", "text": "x"}
    for _ in range(10_000):
        block = {"type": "tool_result", "tool_use_id": "t", "content": [block]}
    with pytest.raises(DecodeError):
        parse_blocks([block])


# ------------------------------------------------------------------ immutability

_MUTATORS = (
    ("__setitem__", ("k", 1)),
    ("__delitem__", ("k",)),
    ("append", (1,)),
    ("extend", ([1],)),
    ("insert", (0, 1)),
    ("remove", (1,)),
    ("pop", ()),
    ("popitem", ()),
    ("clear", ()),
    ("update", ({"k": 1},)),
    ("setdefault", ("k", 1)),
    ("sort", ()),
    ("reverse", ()),
    ("__iadd__", ([1],)),
    ("__ior__", ({"k": 1},)),
)


def _walk(value: Any) -> Iterator[Any]:
    yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _walk(getattr(value, f.name))
    elif isinstance(value, FrozenDict):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, tuple):
        for item in value:
            yield from _walk(item)


def _assert_immutable(root: Any) -> None:
    for value in _walk(root):
        assert not isinstance(value, (list, dict, set, bytearray)), type(value)
        if dataclasses.is_dataclass(value):
            for f in dataclasses.fields(value):
                with pytest.raises(dataclasses.FrozenInstanceError):
                    setattr(value, f.name, None)
                with pytest.raises(dataclasses.FrozenInstanceError):
                    delattr(value, f.name)
        for name, args in _MUTATORS:
            method = getattr(value, name, None)
            if method is None or isinstance(value, (str, int, float, bool)):
                continue
            if name == "__iadd__" and isinstance(value, tuple):
                continue  # tuple += makes a new tuple; the original is untouched
            with pytest.raises((TypeError, AttributeError)):
                method(*args)


@given(ms.messages())
def test_no_public_attribute_at_any_depth_can_be_mutated(message: Any) -> None:
    _assert_immutable(message)


@given(ms.messages())
def test_mutating_a_thawed_copy_never_reaches_the_value(message: Any) -> None:
    from messages import to_dict

    before = to_dict(message)
    copy = to_dict(message)

    scribble(copy)
    assert to_dict(message) == before


# ------------------------------------------------------------------ no side effects


@pytest.fixture
def sealed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every file, socket and environment access fail loudly."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"decoder touched the machine: {args!r}")

    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(io, "open", refuse)
    monkeypatch.setattr(os, "open", refuse)
    monkeypatch.setattr(os, "getenv", refuse)
    monkeypatch.setattr(os, "environ", _RefusingEnviron())
    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


class _RefusingEnviron(dict):  # type: ignore[type-arg]
    def __getitem__(self, key: Any) -> Any:
        raise AssertionError(f"decoder read the environment: {key}")

    def get(self, key: Any, default: Any = None) -> Any:
        raise AssertionError(f"decoder read the environment: {key}")


SUSPICIOUS = [
    {"type": "image", "source": {"type": "url", "url": "file:/etc/passwd"}},
    {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
    },
    {"type": "audio", "source": {"type": "url", "url": "http://127.0.0.1:9/x.wav"}},
    {"type": "text", "text": "$HOME ~/.ssh/id_rsa /etc/shadow"},
    {"type": "document", "source": {"type": "url", "url": "data:application/pdf;base64,JVBERi0="}},
]


def test_decoders_never_open_files_sockets_or_read_the_environment(sealed: None) -> None:
    blocks = parse_blocks(SUSPICIOUS)
    assert len(blocks) == len(SUSPICIOUS)
    assert blocks[0].url == "file:/etc/passwd"  # type: ignore[union-attr]
    assert blocks[0].to_bytes() is None  # type: ignore[union-attr]
    from messages import AssistantMessage
    from messages.serialize import dumps

    line = dumps(AssistantMessage(blocks))
    assert list(read_jsonl([line])) == [AssistantMessage(blocks)]
    for adapter in ADAPTERS:
        for wire in SUSPICIOUS:
            list(adapter.iter_decode([json.dumps(wire)]))
    for provider in PROVIDERS:
        for body in (
            {"messages": [{"role": "user", "content": SUSPICIOUS}]},
            {"content": SUSPICIOUS},
        ):
            try:
                provider.decode_request(body)
                provider.decode_response(body)
            except DecodeError:
                pass


# ------------------------------------------------------------------ the command line


@given(
    lines=st.lists(st.binary(max_size=60) | JSON.map(lambda v: json.dumps(v).encode()), max_size=8),
    command=st.sampled_from(
        [["normalize"], ["normalize", "--format", "text"], ["stats"], ["convert", "--to", "native"]]
    ),
    source=st.sampled_from([None, "claude_code", "codex", "gemini_cli", "acp", "native"]),
)
def test_fuzz_the_command_line(lines: list[bytes], command: list[str], source: str | None) -> None:
    import contextlib
    import tempfile

    from messages.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "input.jsonl")
        with builtins.open(path, "wb") as fp:
            fp.write(b"\n".join(lines))
        out, err = io.StringIO(), io.StringIO()
        argv = [*command, *(["--from", source] if source else []), path]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    assert code in (0, 1)
    for line in err.getvalue().splitlines():
        assert line.startswith("messages: "), line
    if code == 0:
        assert "Traceback" not in err.getvalue()


@pytest.mark.parametrize("adapter", ADAPTERS, ids=lambda m: m.NAME)
@given(value=JSON)
def test_fuzz_adapter_detect(adapter: ModuleType, value: Any) -> None:
    assert adapter.detect(value) in (True, False)


@pytest.mark.parametrize("adapter", ADAPTERS, ids=lambda m: m.NAME)
def test_detect_never_crashes_on_unhashable_tags(adapter: ModuleType) -> None:
    for odd in ({"type": []}, {"type": {"a": 1}}, {"method": []}, {"v": 1, "kind": []}):
        assert adapter.detect(odd) is False

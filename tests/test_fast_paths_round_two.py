"""Round two's shortcuts give exactly what the general paths give (docs/performance.md).

Each shortcut below answers a common shape in fewer steps; each test draws inputs of every
shape and checks the shortcut against the rule it stands for, written out plainly here.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import example
from hypothesis import given
from hypothesis import strategies as st

from messages import FrozenDict
from messages import strategies as ms
from messages import thaw
from messages._core.jsontext import parse_arguments
from messages._core.make import expose_owned
from messages._core.wire import opt_str
from messages._core.wire import opt_time
from messages._core.wire import rest
from messages._shapes import anthropic_blocks
from messages.adapters import acp
from messages.adapters import claude_code
from messages.adapters import codex
from messages.adapters import copilot
from messages.adapters import gemini_cli
from messages.adapters import opencode
from messages.adapters.claude_code.decoder import _split
from messages.adapters.claude_code.decoder import _tools
from messages.adapters.claude_code.events import decode_system
from messages.adapters.claude_code.events import decode_usual_system
from messages.blocks import BLOCK_TYPES
from messages.errors import DecodeError
from messages.flat import RawMessage
from messages.message import MESSAGE_TYPES
from messages.providers import anthropic
from messages.providers import gemini
from messages.providers import openai_chat
from messages.providers import openai_responses
from messages.providers.gemini.parts import camel
from messages.usage import Usage

VALUE_TYPES: tuple[type, ...] = (*MESSAGE_TYPES, *BLOCK_TYPES, Usage)
PROVIDERS = (anthropic, openai_chat, openai_responses, gemini)
ADAPTERS = (claude_code, codex, gemini_cli, opencode, copilot, acp)


def _fields(value: Any) -> tuple[Any, ...]:
    return tuple(getattr(value, f.name) for f in dataclasses.fields(value))


# --------------------------------------------------------------- equality of the value types


@given(ms.messages(), ms.messages())
def test_values_are_equal_exactly_when_class_and_fields_are(a: Any, b: Any) -> None:
    # What dataclass(eq=True) generates: same class, then the fields in order.
    assert (a == b) == (type(a) is type(b) and _fields(a) == _fields(b))
    assert (a != b) is not (a == b)


@given(ms.messages())
def test_a_rebuilt_value_is_equal_and_hashes_equal(message: Any) -> None:
    copy = dataclasses.replace(message)
    assert copy is not message
    assert copy == message
    assert hash(copy) == hash(message) == hash(_fields(message))


@pytest.mark.parametrize("cls", VALUE_TYPES, ids=lambda c: c.__name__)
def test_equality_with_another_type_is_left_to_it(cls: type) -> None:
    eq = cls.__eq__  # type: ignore[operator]
    assert cls.__dict__["__eq__"] is eq
    assert "__hash__" in cls.__dict__
    assert eq(object.__new__(cls), object()) is NotImplemented


# ----------------------------------------------------------------------------- wire.rest


def _rest_rule(d: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in known or v is None}


@given(
    ms.json_objects(),
    st.sets(st.sampled_from(["a", "b", "type", "id", "content", "x"]), max_size=4),
)
def test_rest_keeps_the_unknown_keys_and_the_nulls_in_order(
    d: dict[str, Any], known_keys: set[str]
) -> None:
    d = thaw(d)
    known = frozenset(known_keys | set(list(d)[: len(d) // 2]))
    kept = rest(d, known)
    assert list(kept.items()) == list(_rest_rule(d, known).items())
    assert kept is not d


# ---------------------------------------------------- tool calls with Claude Code's caller


_CALLERS = st.one_of(
    st.just({"type": "direct"}),
    st.just({"type": "direct", "more": 1}),
    st.just({"type": "other"}),
    ms.json_values(),
)


@given(_CALLERS, st.booleans())
def test_a_tool_call_with_a_caller_keeps_it_as_the_general_path_does(
    caller: Any, with_extra_key: bool
) -> None:
    caller = thaw(caller)
    wire: dict[str, Any] = {
        "type": "tool_use",
        "id": "toolu_1",
        "name": "Bash",
        "input": {"command": "ls"},
        "caller": caller,
    }
    if with_extra_key:
        wire["other"] = [1]
    block = anthropic_blocks.decode_block(json.loads(json.dumps(wire)))
    expected = {k: v for k, v in wire.items() if k not in ("type", "id", "name", "input")}
    assert block.extra == expected  # type: ignore[union-attr]
    assert anthropic_blocks.encode_block(block) == wire
    assert hash(block) == hash(anthropic_blocks.decode_block(json.loads(json.dumps(wire))))


def test_the_usual_caller_is_one_shared_immutable_extra() -> None:
    line = {"type": "tool_use", "id": "t", "name": "n", "input": {}, "caller": {"type": "direct"}}
    a = anthropic_blocks.decode_block(json.loads(json.dumps(line)))
    b = anthropic_blocks.decode_block(json.loads(json.dumps(line)))
    assert a.extra is b.extra  # type: ignore[union-attr]
    assert a.extra == FrozenDict({"caller": {"type": "direct"}})  # type: ignore[union-attr]
    with pytest.raises(TypeError):
        a.extra["caller"]["type"] = "x"  # type: ignore[index, union-attr]


# ------------------------------------------------------------------ the line loop's shortcut


_ODD_LINES = st.sampled_from(
    ["", "   ", "not json", '{"type": "user"', "[1, 2]", '"text"', '{"a": NaN}', "{}"]
)


@given(ms.streams(), st.lists(st.tuples(st.integers(0, 20), _ODD_LINES), max_size=4))
def test_text_lines_decode_as_the_general_path_decodes_bytes(
    stream: list[Any], odd: list[tuple[int, str]]
) -> None:
    lines = list(claude_code.iter_encode(stream, unsupported="drop"))
    for at, line in odd:
        lines.insert(min(at, len(lines)), line)
    # bytes lines skip the shortcut (it takes str only), so they show the general path
    assert list(claude_code.iter_decode(lines)) == list(
        claude_code.iter_decode([line.encode() for line in lines])
    )


# ---------------------------------------------------------------------- tool-call arguments


def _arguments_rule(text: str) -> dict[str, Any] | None:
    def reject(name: str) -> Any:
        raise ValueError(name)

    def finite(text: str) -> float:
        value = float(text)
        if value in (float("inf"), float("-inf")):
            raise ValueError(text)
        return value

    try:
        value = json.loads(text, parse_constant=reject, parse_float=finite)
    except (ValueError, RecursionError):
        return None
    return value if type(value) is dict else None


@given(
    st.one_of(
        st.text(max_size=20),
        ms.json_values().map(lambda v: json.dumps(thaw(v))),
        st.sampled_from(['{"a": NaN}', '{"a": 1e999}', ' {"a": 1} ', '\ufeff{"a": 1}', "[1]"]),
    )
)
def test_parse_arguments_reads_what_strict_json_loads_reads(text: str) -> None:
    assert parse_arguments(text) == _arguments_rule(text)


# -------------------------------------------------------------------- gemini's field names


@given(
    st.dictionaries(st.sampled_from(["text", "a_b", "inline_data", "inlineData", "x"]), st.none())
)
def test_camel_renames_only_when_a_key_has_an_underscore(d: dict[str, Any]) -> None:
    out = camel(d)
    if not any("_" in k for k in d):
        assert out is d
    else:
        assert len(out) == len(d)


# ------------------------------------------------------- what makers build is deeply frozen


def _assert_frozen(value: Any, path: str = "$") -> None:
    if value is None or type(value) in (str, int, float, bool):
        return
    if type(value) is FrozenDict:
        for key, item in value.items():
            _assert_frozen(item, f"{path}.{key}")
        return
    if type(value) is tuple:
        for i, item in enumerate(value):
            _assert_frozen(item, f"{path}[{i}]")
        return
    assert dataclasses.is_dataclass(value) and not isinstance(value, type), (path, value)
    for f in dataclasses.fields(value):
        _assert_frozen(getattr(value, f.name), f"{path}.{f.name}")


@pytest.mark.parametrize("codec", PROVIDERS, ids=lambda c: c.__name__.rsplit(".", 1)[-1])
@given(conversation=ms.conversations(view="blocks"))
def test_provider_requests_decode_to_deeply_frozen_values(codec: Any, conversation: Any) -> None:
    body = json.loads(json.dumps(codec.encode_request(conversation, unsupported="drop")))
    decoded = codec.decode_request(body)
    for message in decoded:
        _assert_frozen(message)
    assert json.loads(json.dumps(codec.encode_request(decoded, unsupported="drop"))) == body


@pytest.mark.parametrize("adapter", ADAPTERS, ids=lambda a: a.__name__.rsplit(".", 1)[-1])
@given(stream=ms.streams())
def test_adapter_lines_decode_to_deeply_frozen_values(adapter: Any, stream: Any) -> None:
    lines = list(adapter.iter_encode(stream, unsupported="drop"))
    for message in adapter.iter_decode(lines):
        _assert_frozen(message)


# ------------------------------------------------------------ Claude Code lines kept whole


_CONTEXT_VALUES = st.one_of(st.none(), st.text(max_size=5), st.integers(), st.floats(0, 1e9))


@given(
    st.dictionaries(
        st.sampled_from(["uuid", "session_id", "sessionId", "parent_tool_use_id", "timestamp"]),
        _CONTEXT_VALUES,
    )
)
def test_a_raw_line_keeps_its_context_only_when_all_of_it_is_well_typed(
    context: dict[str, Any],
) -> None:
    line = {"type": "x_not_a_claude_line", **context}
    message = claude_code.decode(json.loads(json.dumps(line)))
    assert type(message) is RawMessage
    sid_key = "sessionId" if "sessionId" in line else "session_id"
    try:  # the checked reads, one by one: any ill-typed field and none is kept
        expected = (
            opt_str(line, "uuid"),
            opt_str(line, sid_key),
            opt_str(line, "parent_tool_use_id"),
            opt_time(line),
        )
    except DecodeError:
        expected = (None, None, None, None)
    got = (message.uuid, message.session_id, message.parent_tool_use_id, message.timestamp)
    assert got == expected
    assert claude_code.encode(message) == line


_SYSTEM_VALUES = st.one_of(st.none(), st.text(max_size=5), st.integers(), st.booleans())


@given(
    st.sampled_from(["thinking_tokens", "status", "other"]),
    st.dictionaries(
        st.sampled_from(["status", "estimated_tokens", "estimated_tokens_delta", "x"]),
        _SYSTEM_VALUES,
    ),
    _SYSTEM_VALUES,
    _SYSTEM_VALUES,
)
@example("thinking_tokens", {"estimated_tokens": 8, "estimated_tokens_delta": 8}, "u", "s")
@example("status", {"status": "requesting"}, "u", "s")
@example("status", {"status": None}, "u", "s")
def test_the_usual_system_lines_decode_as_the_general_path_decodes_them(
    subtype: str, fields: dict[str, Any], uuid: Any, sid: Any
) -> None:
    line = {"type": "system", "subtype": subtype, **fields, "uuid": uuid, "session_id": sid}
    shortcut = decode_usual_system(json.loads(json.dumps(line)))
    try:
        obj = json.loads(json.dumps(line))
        general = decode_system(obj, *_split(obj))
    except DecodeError:
        assert shortcut is None
        return
    assert shortcut is None or shortcut == general
    usual = {
        "thinking_tokens": {"estimated_tokens", "estimated_tokens_delta"},
        "status": {"status"},
    }
    if (
        set(fields) == usual.get(subtype)
        and type(uuid) is str
        and type(sid) is str
        and (subtype != "status" or type(fields["status"]) is str)
    ):
        assert shortcut is not None  # the shortcut answers the usual lines itself
    assert claude_code.decode(json.loads(json.dumps(line))) == general
    assert claude_code.encode(general) == line


@given(st.lists(st.one_of(st.text(max_size=4), ms.json_values().map(thaw)), max_size=5))
def test_an_init_lines_tools_freeze_as_each_tool_would(tools: list[Any]) -> None:
    assert _tools(list(tools)) == tuple([expose_owned(t) for t in tools])

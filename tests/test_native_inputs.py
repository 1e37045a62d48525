"""from_dict fed what to_dict never writes: hand-written and fuzzed native dicts.

``from_dict(to_dict(x)) == x`` only ever shows ``from_dict`` its own writer's output. Here it
reads explicit nulls, the optional version tag, both system roles, tags of every JSON type,
and to_dict output with one value replaced by arbitrary JSON: it returns a value that survives
another trip, or raises DecodeError with a path into the input; never another exception.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from messages import AssistantMessage
from messages import DecodeError
from messages import InitMessage
from messages import RawMessage
from messages import SystemMessage
from messages import TextBlock
from messages import TextMessage
from messages import ToolResultBlock
from messages import Usage
from messages import from_dict
from messages import serialize
from messages import strategies as ms
from messages import thaw
from messages import to_dict
from messages.serialize import loads

values = st.one_of(ms.messages(), ms.blocks(), ms.usages())


def _optional_fields(value: Any) -> list[str]:
    return [f.name for f in dataclasses.fields(value) if f.default is None]


@given(values, st.data())
def test_an_explicit_null_reads_as_an_absent_optional_field(value: Any, data: Any) -> None:
    native = to_dict(value)
    absent = [name for name in _optional_fields(value) if name not in native]
    for name in data.draw(st.lists(st.sampled_from(absent), unique=True)) if absent else []:
        native[name] = None
    assert from_dict(native) == value
    assert from_dict(json.loads(json.dumps(native))) == value


def test_explicit_nulls_by_hand() -> None:
    assert from_dict(
        {
            "kind": "assistant",
            "content": [{"type": "tool_result", "tool_use_id": "t", "name": None}],
            "usage": {"input_tokens": None, "output_tokens": 3, "cost_usd": None},
            "stop_reason": None,
            "model": None,
            "timestamp": None,
        }
    ) == AssistantMessage((ToolResultBlock("t"),), usage=Usage(output_tokens=3))
    assert from_dict({"kind": "raw", "data": None, "role": None}) == RawMessage(None)
    assert from_dict({"type": "text", "text": "x", "citations": None}) == TextBlock("x")


@pytest.mark.parametrize("role", ["system", "developer"])
def test_both_system_roles(role: str) -> None:
    message = SystemMessage("Be brief.", role=role)  # type: ignore[arg-type]
    assert from_dict({"kind": "system", "content": "Be brief.", "role": role}) == message
    assert from_dict(to_dict(message)) == message
    assert loads(json.dumps({"v": 1, "kind": "system", "content": "Be brief.", "role": role})) == (
        message
    )
    assert to_dict(message).get("role") == (None if role == "system" else "developer")


@pytest.mark.parametrize("tag", [[], {}, ["text"], {"a": 1}, 1, 1.5, True, None])
@pytest.mark.parametrize("key", ["kind", "type"])
def test_a_tag_of_any_json_type_is_a_decode_error(key: str, tag: Any) -> None:
    with pytest.raises(DecodeError) as info:
        from_dict({key: tag, "text": "x"})
    assert info.value.path == f"$.{key}"
    assert info.value.value == tag
    with pytest.raises(DecodeError) as info:
        from_dict({"kind": "assistant", "content": [{"type": tag}]})
    assert info.value.path == "$.content[0].type"


@pytest.mark.parametrize("role", [[], {}, 1, None, True, "robot", ["user"]])
def test_a_role_of_any_other_value_is_a_decode_error(role: Any) -> None:
    for kind, extra in (("text", {"text": ""}), ("system", {"content": ""})):
        with pytest.raises(DecodeError) as info:
            from_dict({"kind": kind, "role": role, **extra})
        assert info.value.path == "$.role"
        assert info.value.value == role


@pytest.mark.parametrize("version", [1.0, 2.0, True, "1", [1], None, 0, 3])
def test_the_version_tag_is_exactly_a_readable_integer(version: Any) -> None:
    with pytest.raises(DecodeError) as info:
        from_dict({"v": version, "kind": "text", "text": "x"})
    assert (info.value.path, info.value.value) == ("$.v", version)


def test_nested_tags() -> None:
    assert from_dict(
        {"kind": "assistant", "usage": {"type": "usage", "input_tokens": 1}}
    ) == AssistantMessage((), usage=Usage(1))
    assert from_dict({"kind": "assistant", "content": [{"v": 1, "type": "text", "text": "x"}]}) == (
        AssistantMessage((TextBlock("x"),))
    )
    assert from_dict({"type": "usage", "output_tokens": 2}) == Usage(output_tokens=2)
    with pytest.raises(DecodeError) as info:
        from_dict({"kind": "assistant", "usage": {"type": "usage", "v": 3}})
    assert info.value.path == "$.usage.v"  # only a top-level value carries the version
    with pytest.raises(DecodeError) as info:
        from_dict({"kind": "assistant", "usage": []})
    assert (info.value.path, info.value.value) == ("$.usage", [])


# ------------------------------------------------------------------------------ fuzzed

_SEGMENT = re.compile(r"\.([^.\[]*)|\[(\d+)\]")


def _parent_exists(data: Any, path: str) -> bool:
    """Whether every segment of ``path`` but the last leads somewhere in ``data``."""
    assert path.startswith("$")
    segments = list(_SEGMENT.finditer(path, 1))
    if "".join(m[0] for m in segments) != path[1:]:
        return True  # a key holding "." or "[": the path cannot be split back
    node = data
    for match in segments[:-1]:
        key, index = match[1], match[2]
        if key is not None:
            if not isinstance(node, dict) or key not in node:
                return False
            node = node[key]
        else:
            if not isinstance(node, list) or int(index) >= len(node):
                return False
            node = node[int(index)]
    return True


@st.composite
def broken_natives(draw: st.DrawFn) -> Any:
    """to_dict output with one object member replaced, removed or added."""
    native = to_dict(draw(values))
    objects = [native]
    stack: list[Any] = [native]
    while stack:
        node = stack.pop()
        children = node.values() if isinstance(node, dict) else node
        for child in children:
            if isinstance(child, dict):
                objects.append(child)
            if isinstance(child, (dict, list)):
                stack.append(child)
    target = draw(st.sampled_from(objects))
    keys = sorted(target)
    action = draw(st.sampled_from(["replace", "remove", "add"]))
    if action == "replace" and keys:
        target[draw(st.sampled_from(keys))] = thaw(draw(ms.json_values(max_leaves=4)))
    elif action == "remove" and keys:
        del target[draw(st.sampled_from(keys))]
    else:
        name = draw(st.sampled_from(["kind", "type", "v", "role", "extra", "data", "bogus"]))
        target[name] = thaw(draw(ms.json_values(max_leaves=3)))
    return native


@given(broken_natives())
def test_broken_native_dicts_give_a_value_or_a_decode_error_with_a_path(native: Any) -> None:
    text = json.dumps(native)
    try:
        value = from_dict(native)
    except DecodeError as exc:
        assert _parent_exists(native, exc.path), exc.path
        return
    assert json.dumps(native) == text  # the input is not changed
    assert from_dict(to_dict(value)) == value


@given(ms.json_values(max_leaves=12))
def test_any_json_gives_a_value_or_a_decode_error(data: Any) -> None:
    plain = thaw(data)
    try:
        value = from_dict(plain)
    except DecodeError as exc:
        assert _parent_exists(plain, exc.path) or exc.path == "$"
        return
    assert from_dict(to_dict(value)) == value


def test_text_message_defaults_are_not_written() -> None:
    assert to_dict(TextMessage("x", role="assistant")) == {"v": 2, "kind": "text", "text": "x"}
    assert to_dict(TextMessage("x", role="user")) == {
        "v": 2,
        "kind": "text",
        "text": "x",
        "role": "user",
    }


# ------------------------------------------------------------- the specs, built afresh


@given(values)
def test_a_spec_built_now_reads_and_writes_like_the_one_built_at_import(value: Any) -> None:
    """The per-class specs are built once, at import; build one again and use it directly.

    (Import-time code is otherwise out of reach of mutation testing, which switches mutants
    on at call time.)
    """
    cls = type(value)
    spec = serialize._SPECS[cls]
    fresh = serialize._Spec(cls, spec.tag_key, spec.tag)
    assert (fresh.cls, fresh.tag_key, fresh.tag) == (cls, spec.tag_key, spec.tag)
    assert fresh.names == spec.names
    assert {"v", spec.tag_key} <= fresh.names
    assert [(n, d, nullable) for n, d, _, nullable in fresh.fields] == [
        (n, d, nullable) for n, d, _, nullable in spec.fields
    ]
    native = to_dict(value)
    assert serialize._encode(value, fresh, nested=False) == native
    assert serialize._build(native, fresh, "$") == value
    with pytest.raises(DecodeError) as info:
        serialize._build({**native, "bogus": 1}, fresh, "$")
    assert info.value.path == "$.bogus"


def test_the_specs_know_which_fields_are_required_and_which_take_null() -> None:
    spec = serialize._Spec(ToolResultBlock, "type", "tool_result")
    fields = {name: (default, nullable) for name, default, _, nullable in spec.fields}
    assert fields["tool_use_id"] == (serialize._REQUIRED, False)
    assert fields["is_error"] == (None, True)
    assert fields["content"][1] is False
    assert spec.names == {"v", "type", *fields}


def test_init_tools_are_read_as_json() -> None:
    tools = ["Bash", {"name": "Read", "args": [1, None]}]
    message = from_dict({"kind": "init", "tools": tools, "cwd": "/w"})
    assert message == InitMessage(cwd="/w", tools=tuple(tools))
    assert to_dict(message)["tools"] == tools
    assert from_dict({"kind": "init", "tools": None}) == InitMessage()
    with pytest.raises(DecodeError) as info:
        from_dict({"kind": "init", "tools": {"a": 1}})
    assert (info.value.path, info.value.value) == ("$.tools", {"a": 1})
    with pytest.raises(DecodeError) as info:
        from_dict({"kind": "init", "tools": ["Bash", {"a": [float("inf")]}]})
    assert info.value.path == "$.tools[1].a[0]"


def test_fields_equal_to_their_default_are_left_out_even_when_not_the_same_object() -> None:
    # json.loads builds new strings, equal to the defaults but not the same objects
    text = json.loads('{"kind": "text", "text": "x", "role": "assistant", "extra": {}}')
    assert to_dict(from_dict(text)) == {"v": 2, "kind": "text", "text": "x"}
    role = "".join(["assist", "ant"])
    assert to_dict(TextMessage("x", role=role)) == {"v": 2, "kind": "text", "text": "x"}  # type: ignore[arg-type]

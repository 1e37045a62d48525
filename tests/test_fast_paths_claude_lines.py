"""The Claude Code decoder's shortcuts for result, init, user and rate_limit_event lines.

Each shortcut answers the line shapes Claude Code writes with one key-set test and a type
check per field; each is checked here against the general path it stands for: the same
message (and the same wire text written back), the same error with the same path, and the
caller's object left as it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import example
from hypothesis import given
from hypothesis import strategies as st

from messages.adapters import claude_code
from messages.adapters.claude_code import decoder as _claude_decode
from messages.adapters.claude_code.decoder import _init_any
from messages.adapters.claude_code.decoder import _result_any
from messages.adapters.claude_code.decoder import _split
from messages.adapters.claude_code.decoder import _user_any
from messages.adapters.claude_code.events import decode_rate_limit
from messages.adapters.claude_code.events import decode_usual_rate_limit
from messages.errors import DecodeError
from messages.events import RateLimitMessage
from messages.message import Message

# Values of every JSON type, so that each modelled field is sometimes ill-typed or null.
_ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(-2, 2, allow_nan=False),
    st.text(max_size=3),
    st.lists(st.integers(0, 2), max_size=2),
    st.dictionaries(st.sampled_from(["k", "kind"]), st.text(max_size=2), max_size=2),
)

_USAGE = {
    "input_tokens": 3,
    "cache_creation_input_tokens": 10,
    "cache_read_input_tokens": 20,
    "output_tokens": 7,
    "server_tool_use": {"web_search_requests": 0},
    "service_tier": "standard",
}

# Written from the stream-json description in the reference notes: the keys and their order
# as Claude Code writes a successful run's last line.
_RESULT_LINE: dict[str, Any] = {
    "type": "result",
    "subtype": "success",
    "is_error": False,
    "api_error_status": None,
    "duration_ms": 2100,
    "duration_api_ms": 1900.5,
    "ttft_ms": 800,
    "num_turns": 2,
    "result": "done",
    "stop_reason": "end_turn",
    "session_id": "s-1",
    "total_cost_usd": 0.012,
    "usage": _USAGE,
    "modelUsage": {"claude-x": {"inputTokens": 3}},
    "permission_denials": [],
    "terminal_reason": "completed",
    "uuid": "u-1",
}

_INIT_LINE: dict[str, Any] = {
    "type": "system",
    "subtype": "init",
    "cwd": "/tmp/w",
    "session_id": "s-1",
    "tools": ["Bash", "Read"],
    "mcp_servers": [],
    "model": "claude-x",
    "permissionMode": "default",
    "uuid": "u-2",
}

_USER_LINE: dict[str, Any] = {
    "type": "user",
    "message": {"role": "user", "content": [{"type": "text", "text": "hi"}]},
    "parent_tool_use_id": None,
    "session_id": "s-1",
    "uuid": "u-3",
    "timestamp": "2026-01-01T00:00:00.000Z",
}

_RATE_LIMIT_LINE: dict[str, Any] = {
    "type": "rate_limit_event",
    "rate_limit_info": {"status": "allowed", "resetsAt": 1},
    "uuid": "u-4",
    "session_id": "s-1",
}


def _fresh(line: dict[str, Any]) -> Any:
    return json.loads(json.dumps(line))


def _outcome(decode: Callable[[Any], Message], line: dict[str, Any]) -> Any:
    """The message and the wire text it writes back, or the error's text (with its path)."""
    obj = _fresh(line)
    try:
        message = decode(obj)
    except DecodeError as exc:
        return ("error", str(exc))
    assert obj == line  # the caller's object is not changed
    return (message, json.dumps(claude_code.encode(message)))


def _edited(
    line: dict[str, Any], changes: dict[str, Any], dropped: list[str], added: dict[str, Any]
) -> dict[str, Any]:
    out = {k: changes.get(k, v) for k, v in line.items() if k not in dropped}
    out.update(added)
    return out


def _check(
    line: dict[str, Any], fast_path: Callable[[Any], Message], general: Callable[[Any], Message]
) -> None:
    fast = _outcome(fast_path, line)
    assert fast == _outcome(general, line)
    if line.keys().isdisjoint(("sessionId",)):
        whole = _outcome(claude_code.decode, line)  # the same through the public entry
        assert whole[0] == fast[0] or str(whole[1]).endswith(str(fast[1]))
    if fast[0] != "error":
        assert claude_code.encode(fast[0]) == line  # the exact round trip


@given(
    st.dictionaries(st.sampled_from(list(_RESULT_LINE)), _ANY, max_size=3),
    st.lists(st.sampled_from(list(_RESULT_LINE)), max_size=2),
    st.dictionaries(
        st.sampled_from(["timestamp", "parent_tool_use_id", "structured_output", "x"]),
        _ANY,
        max_size=1,
    ),
)
@example({}, [], {})
@example({"usage": {"input_tokens": "3"}}, [], {})
@example({"result": None}, [], {})
@example({"duration_ms": True}, [], {})
def test_a_result_line_decodes_as_the_general_path_decodes_it(
    changes: dict[str, Any], dropped: list[str], added: dict[str, Any]
) -> None:
    line = _edited(_RESULT_LINE, {k: v for k, v in changes.items() if k != "type"}, [], added)
    line = {k: v for k, v in line.items() if k not in dropped or k == "type"}
    _check(line, _claude_decode._result, _result_any)


@given(
    st.dictionaries(st.sampled_from(list(_INIT_LINE)), _ANY, max_size=3),
    st.lists(st.sampled_from(list(_INIT_LINE)), max_size=2),
    st.dictionaries(st.sampled_from(["timestamp", "parent_tool_use_id", "x"]), _ANY, max_size=1),
)
@example({}, [], {})
@example({"tools": ["Bash", 1]}, [], {})
@example({"cwd": None}, [], {})
def test_an_init_line_decodes_as_the_general_path_decodes_it(
    changes: dict[str, Any], dropped: list[str], added: dict[str, Any]
) -> None:
    keep = ("type", "subtype")
    line = _edited(_INIT_LINE, {k: v for k, v in changes.items() if k not in keep}, [], added)
    line = {k: v for k, v in line.items() if k not in dropped or k in keep}
    _check(line, _claude_decode._system, _init_any)


@given(
    st.dictionaries(
        st.sampled_from(["parent_tool_use_id", "session_id", "uuid", "timestamp"]),
        _ANY,
        max_size=3,
    ),
    st.lists(st.sampled_from(["parent_tool_use_id", "session_id", "uuid", "timestamp"])),
    st.one_of(st.just({}), st.fixed_dictionaries({"tool_use_result": _ANY})),
    st.sampled_from(["hi", [{"type": "text", "text": "hi"}]]),
)
@example({}, [], {}, "hi")
@example({}, ["parent_tool_use_id", "session_id", "uuid", "timestamp"], {}, "hi")
@example({"parent_tool_use_id": "toolu_1"}, [], {"tool_use_result": {"stdout": ""}}, "hi")
@example({}, [], {"tool_use_result": None}, "hi")
@example({"timestamp": 5}, [], {}, "hi")
@example({"uuid": 5}, [], {}, "hi")
def test_a_user_line_decodes_as_the_general_path_decodes_it(
    changes: dict[str, Any], dropped: list[str], added: dict[str, Any], content: Any
) -> None:
    line = _edited(_USER_LINE, changes, dropped, added)
    line["message"] = {"role": "user", "content": content}
    _check(line, _claude_decode._user, _user_any)


def _general_rate_limit(obj: dict[str, Any]) -> Message:
    return decode_rate_limit(obj, *_split(obj))


@given(
    st.dictionaries(st.sampled_from(["rate_limit_info", "uuid", "session_id"]), _ANY, max_size=2),
    st.lists(st.sampled_from(["rate_limit_info", "uuid", "session_id"]), max_size=1),
)
@example({}, [])
@example({"rate_limit_info": None}, [])
def test_a_rate_limit_line_decodes_as_the_general_path_decodes_it(
    changes: dict[str, Any], dropped: list[str]
) -> None:
    line = _edited(_RATE_LIMIT_LINE, changes, dropped, {})
    _check(line, _claude_decode._rate_limit, _general_rate_limit)
    shortcut = decode_usual_rate_limit(_fresh(line))
    if line.keys() == _RATE_LIMIT_LINE.keys() and all(
        type(line[k]) is t
        for k, t in (("rate_limit_info", dict), ("uuid", str), ("session_id", str))
    ):
        assert isinstance(shortcut, RateLimitMessage)  # it answers the usual line itself
    else:
        assert shortcut is None


def test_the_usual_lines_take_the_shortcuts(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each usual line decodes without the general path: the shortcuts are not dead code.
    def refuse(*args: Any) -> Any:
        raise AssertionError("the general path was taken")

    for name in ("_result_any", "_init_any", "_user_any", "_split"):
        monkeypatch.setattr(_claude_decode, name, refuse)
    for line in (_RESULT_LINE, _INIT_LINE, _USER_LINE, _RATE_LIMIT_LINE):
        assert claude_code.encode(claude_code.decode(_fresh(line))) == line
    prompt = {"type": "user", "message": {"role": "user", "content": "hi"}}
    assert claude_code.encode(claude_code.decode(_fresh(prompt))) == prompt


@given(
    st.fixed_dictionaries(
        {},
        optional={
            "input_tokens": _ANY,
            "output_tokens": _ANY,
            "cache_read_input_tokens": _ANY,
            "cache_creation_input_tokens": _ANY,
            "service_tier": _ANY,
            "iterations": _ANY,
        },
    ),
    st.booleans(),
)
@example({}, True)
@example({"service_tier": "standard"}, True)
@example({"input_tokens": None}, True)
def test_a_usage_object_decodes_as_the_general_reader_decodes_it(
    d: dict[str, Any], counts: bool
) -> None:
    if counts:  # the four counts set, as on every usage Claude Code writes
        d = {"input_tokens": 1, "cache_creation_input_tokens": 2, **d}
        d = {**d, "cache_read_input_tokens": 3, "output_tokens": 4}
    try:
        general = _claude_decode._usage_any(_fresh(d))
    except DecodeError as exc:
        with pytest.raises(DecodeError) as info:
            _claude_decode._usage(_fresh(d))
        assert str(info.value) == str(exc)
        return
    fast = _claude_decode._usage(_fresh(d))
    assert fast == general
    assert list(fast.extra) == list(general.extra)  # the same keys, in the same order


_ASSISTANT_LINE: dict[str, Any] = {
    "type": "assistant",
    "message": {
        "model": "claude-x",
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "content": [{"type": "text", "text": "hi"}],
        "stop_reason": None,
        "stop_sequence": None,
        "stop_details": None,
        "usage": {
            "input_tokens": 1,
            "cache_creation_input_tokens": 2,
            "cache_read_input_tokens": 3,
            "cache_creation": {"ephemeral_5m_input_tokens": 0},
            "output_tokens": 4,
            "service_tier": "standard",
            "inference_geo": "not_available",
        },
        "diagnostics": None,
        "context_management": None,
    },
    "parent_tool_use_id": None,
    "session_id": "s-1",
    "uuid": "u-5",
    "request_id": "req_1",
}


@given(
    st.dictionaries(
        st.sampled_from(["parent_tool_use_id", "session_id", "uuid", "request_id", "x"]),
        _ANY,
        max_size=2,
    ),
    st.dictionaries(
        st.sampled_from(["model", "id", "stop_reason", "content", "usage", "role"]),
        st.one_of(_ANY, st.just([{"type": "text", "text": "a"}, {"type": "text", "text": 1}])),
        max_size=2,
    ),
    st.lists(st.sampled_from(["uuid", "stop_details", "message"]), max_size=1),
)
@example({}, {}, [])
@example({}, {"stop_reason": "end_turn"}, [])
@example({}, {"content": [{"type": "text", "text": 1}]}, [])
@example({}, {"usage": {"input_tokens": "1"}}, [])
def test_an_owned_assistant_line_decodes_as_a_borrowed_one(
    changes: dict[str, Any], inner_changes: dict[str, Any], dropped: list[str]
) -> None:
    line = _edited(_ASSISTANT_LINE, changes, [d for d in dropped if d != "stop_details"], {})
    if "message" in line:
        line["message"] = _edited(line["message"], inner_changes, dropped, {})
    borrowed = _outcome(claude_code.decode, line)  # the caller's object stays as it was
    try:
        owned: Any = _claude_decode.decode_owned(_fresh(line))
    except DecodeError as exc:
        assert borrowed == ("error", str(exc))
        return
    assert borrowed == (owned, json.dumps(claude_code.encode(owned)))
    # iter_decode parses its own lines and so takes the owned path: the same message.
    (streamed,) = claude_code.iter_decode([json.dumps(line)], strict=True)
    assert streamed == owned


def test_iter_decode_takes_the_owned_path(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any) -> Any:
        raise AssertionError("the copying path was taken")

    monkeypatch.setitem(_claude_decode._DECODERS, "assistant", refuse)
    (m,) = claude_code.iter_decode([json.dumps(_ASSISTANT_LINE)], strict=True)
    assert claude_code.encode(m) == _ASSISTANT_LINE

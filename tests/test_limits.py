"""messages.limits: configurable, context-local limits with clear errors."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from messages import DecodeError
from messages import FrozenDict
from messages import freeze
from messages.convert import parse_blocks
from messages.limits import Limits
from messages.limits import current_limits
from messages.limits import limits


def _nested(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = [value]
    return value


def test_defaults() -> None:
    assert current_limits() == Limits()
    assert Limits().max_depth == 256
    assert Limits().max_block_depth == 64


@pytest.mark.parametrize("field", ["max_line", "max_depth", "max_block_depth", "max_base64"])
@pytest.mark.parametrize("bad", [0, -1, 1.5, "10", True])
def test_limits_must_be_positive_integers(field: str, bad: Any) -> None:
    with pytest.raises(ValueError, match=f"{field} must be a positive integer"):
        Limits(**{field: bad})


def test_depth_limit_applies_to_freeze_frozendict_and_parse_blocks() -> None:
    value = {"a": _nested(5)}
    assert freeze(value)["a"] is not None
    with limits(max_depth=4):
        with pytest.raises(DecodeError) as info:
            freeze(value)
        assert str(info.value) == "$.a[0][0][0]: JSON nests deeper than 4 levels"
        with pytest.raises(DecodeError, match="nests deeper than 4"):
            FrozenDict(value)
        with pytest.raises(DecodeError, match="nests deeper than 4"):
            parse_blocks([{"type": "tool_use", "id": "t", "name": "n", "input": value}])
        assert freeze(value, max_depth=10) is not None  # an explicit argument wins
    assert freeze(value) is not None  # restored on exit


def test_limits_nest_and_restore() -> None:
    with limits(max_depth=10) as outer:
        assert outer.max_depth == 10
        with limits(max_line=5) as inner:
            assert (inner.max_depth, inner.max_line) == (10, 5)
        assert current_limits() == outer
    assert current_limits() == Limits()


def test_limits_are_local_to_a_thread() -> None:
    seen: list[int] = []

    def other() -> None:
        seen.append(current_limits().max_depth)

    with limits(max_depth=3):
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
    assert seen == [256]


def test_line_length_limit_in_stream_readers() -> None:
    from messages.adapters import get

    claude_code = get("claude_code")
    line = '{"type":"user","message":{"role":"user","content":"' + "x" * 100 + '"}}'
    assert [m.kind for m in claude_code.iter_decode([line])] == ["user"]
    with limits(max_line=50):
        (message,) = claude_code.iter_decode([line])
        assert message.kind == "invalid_line"
        assert message.reason == "$: line is longer than 50 characters"  # type: ignore[union-attr]
        with pytest.raises(DecodeError) as info:
            list(claude_code.iter_decode(["{}", line], strict=True))
        assert info.value.line == 2


def test_line_length_limit_in_the_command_line(tmp_path: Any, capsys: Any) -> None:
    from messages.cli import main

    path = tmp_path / "log.jsonl"
    path.write_text(
        '{"v":1,"kind":"text","text":"' + "y" * 200 + '"}\n{"v":1,"kind":"text","text":"ok"}\n'
    )
    with limits(max_line=100):
        code = main(["normalize", "--from", "native", str(path)])
    out, err = capsys.readouterr()
    assert code == 1
    assert out == '{"v":2,"kind":"text","text":"ok"}\n'
    assert f"{path}:1" in err and "longer than 100" in err


def test_block_depth_limit() -> None:
    block: dict[str, Any] = {"type": "text", "text": "x"}
    for _ in range(5):
        block = {"type": "tool_result", "tool_use_id": "t", "content": [block]}
    assert parse_blocks([block])
    with limits(max_block_depth=3), pytest.raises(DecodeError) as info:
        parse_blocks([block])
    assert (
        str(info.value)
        == "$[0].content[0].content[0].content[0].content: content blocks nest deeper than 3 levels"
    )

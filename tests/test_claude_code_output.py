"""Claude Code's ``--output-format json --verbose`` (and Qwen Code's ``--output-format json``):
the whole run as one JSON array, read item by item and written back as the array."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import LOCAL_FIXTURES
from conftest import json_equal
from conftest import shared_fixtures
from messages import DecodeError
from messages import InvalidLineMessage
from messages import RawMessage
from messages.adapters import claude_code as cc
from messages.adapters import detect
from messages.stats import Stats

RUN = LOCAL_FIXTURES / "claude_code" / "output-verbose.json"
ITEMS: list[dict[str, Any]] = json.loads(RUN.read_text("utf-8"))
QWEN = LOCAL_FIXTURES / "claude_code" / "qwen-headless-stream.jsonl"


def _array(items: list[Any]) -> str:
    return json.dumps(items)


def _lines(items: list[Any]) -> list[str]:
    return [json.dumps(item) for item in items]


def _marked(m: Any, i: int) -> Any:
    return replace(m, extra={**m.extra, "$output": i})


def test_the_array_gives_each_item_as_its_line_would_marked_with_its_index() -> None:
    from_array = list(cc.iter_decode([_array(ITEMS)], strict=True))
    from_lines = list(cc.iter_decode(_lines(ITEMS), strict=True))
    assert len(from_array) == len(ITEMS)
    assert from_array == [_marked(m, i) for i, m in enumerate(from_lines)]
    assert [m.kind for m in from_array] == [
        "hook_event",
        "init",
        "assistant",
        "assistant",
        "user",
        "assistant",
        "result",
    ]


def test_a_pretty_printed_array_reads_the_same_as_a_one_line_one() -> None:
    pretty = RUN.read_text("utf-8").splitlines()
    assert len(pretty) > 1
    assert list(cc.iter_decode(pretty)) == list(cc.iter_decode([_array(ITEMS)]))


def test_the_array_is_written_back_whole_and_each_item_alone_without_its_mark() -> None:
    decoded = list(cc.iter_decode([_array(ITEMS)]))
    (line,) = cc.iter_encode(decoded)
    assert json_equal(json.loads(line), ITEMS)
    for m, item in zip(decoded, ITEMS, strict=True):
        written = cc.encode(m)
        assert "$output" not in written
        assert json_equal(written, item)


def test_a_lone_decode_keeps_the_array_whole() -> None:
    m = cc.decode(json.loads(_array(ITEMS)))
    assert isinstance(m, RawMessage)
    assert json_equal(cc.encode(m), ITEMS)


# A file is any sequence of records: whole arrays (non-empty runs of items) and lines.
_records = st.lists(
    st.one_of(
        st.lists(st.sampled_from(ITEMS), min_size=1, max_size=5).map(_array),
        st.sampled_from(_lines(ITEMS)),
    ),
    max_size=6,
)


@given(_records)
def test_any_mix_of_arrays_and_lines_is_written_back_record_for_record(records: list[str]) -> None:
    written = list(cc.iter_encode(cc.iter_decode(records, strict=True)))
    assert len(written) == len(records)
    for original, back in zip(records, written, strict=True):
        assert json_equal(json.loads(back), json.loads(original))


def test_items_whose_array_was_not_opened_here_are_written_as_lines() -> None:
    decoded = list(cc.iter_decode([_array(ITEMS)]))
    written = list(cc.iter_encode(decoded[2:]))
    assert [json.loads(x) for x in written] == ITEMS[2:]


def test_a_bad_item_names_its_index_in_the_path() -> None:
    bad = [ITEMS[1], {**ITEMS[6], "is_error": "no"}]
    with pytest.raises(DecodeError) as info:
        list(cc.iter_decode([_array(bad)], strict=True))
    assert info.value.path == "$[1].is_error"
    assert info.value.line == 1
    (kept,) = cc.iter_decode([_array(bad)])
    assert isinstance(kept, InvalidLineMessage)
    assert kept.text == _array(bad) and kept.reason is not None
    assert kept.reason.startswith("$[1].is_error")


def test_the_array_is_claimed_as_claude_code_and_other_arrays_are_not() -> None:
    assert cc.detect(ITEMS) and detect(ITEMS) == "claude_code"
    qwen = [json.loads(x) for x in QWEN.read_text("utf-8").splitlines()]
    assert detect(qwen) == "claude_code"
    assert not cc.detect([])
    assert not cc.detect([1, 2])
    assert not cc.detect([ITEMS[0], "text"])
    assert not cc.detect([{"role": "user", "content": "hi"}])  # Cline's history: its own
    assert not cc.detect([ITEMS[0], {"type": "thread.started", "thread_id": "t1"}])


def test_stats_of_the_array_are_those_of_its_lines(tmp_path: Path) -> None:
    array = tmp_path / "run.json"
    array.write_text(_array(ITEMS) + "\n", "utf-8")
    lines = tmp_path / "run.jsonl"
    lines.write_text("".join(x + "\n" for x in _lines(ITEMS)), "utf-8")
    (a,) = Stats.of_file(str(array)).sessions()
    (b,) = Stats.of_file(str(lines)).sessions()
    assert a.tool_calls == b.tool_calls == {"Bash": 1}
    assert a.tool_errors == b.tool_errors == 1
    assert a.tokens == b.tokens
    assert (a.tokens.input, a.tokens.output, a.tokens.cost) == (9, 109, 0.0181)


def test_a_real_stream_written_as_the_verbose_array_reads_as_its_lines() -> None:
    path = shared_fixtures("claude_code", "gleam-golden-basic_query.ndjson")
    items = [json.loads(x) for x in path.read_text("utf-8").splitlines() if x.strip()]
    from_lines = list(cc.iter_decode(_lines(items), strict=True))
    from_array = list(cc.iter_decode([_array(items)], strict=True))
    assert from_array == [_marked(m, i) for i, m in enumerate(from_lines)]
    (line,) = cc.iter_encode(from_array)
    assert json_equal(json.loads(line), items)

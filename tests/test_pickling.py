"""Everything that crosses a process boundary pickles, under every protocol.

Work spread over processes (``multiprocessing``, ``concurrent.futures``, Dask, Spark, Ray)
sends values to workers and results back by pickling them. The law: a pickle round trip
gives a value of the same class, equal to the original and with an equal hash, for every
kind of value the strategies build, under every protocol. Errors keep their path, source,
value and line, so an error raised in a worker reads the same in the parent. Hashes are not
carried: a value unpickled in a process with another hash seed hashes as that process's own
values do (checked in a child process below).

The adapter and provider contract tests check the same for values their decoders build on
the fast paths, and for their codec functions and stream accumulators.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from messages import DecodeError
from messages import EncodeError
from messages import FrozenDict
from messages import InvalidLineMessage
from messages import MessagesError
from messages import StopReason
from messages import UnsupportedContentError
from messages import strategies as ms
from messages.adapters import CLI_NAMES
from messages.adapters import UnknownFormatError
from messages.adapters import get
from messages.limits import Limits
from messages.providers import UnknownProviderError
from support.adapter_files import hand_made

PROTOCOLS = st.integers(0, pickle.HIGHEST_PROTOCOL)


def round_trip(value: Any, protocol: int) -> Any:
    return pickle.loads(pickle.dumps(value, protocol=protocol))


def assert_same(value: Any, protocol: int) -> None:
    back = round_trip(value, protocol)
    assert type(back) is type(value)
    assert back == value
    assert hash(back) == hash(value)


@given(ms.messages(), PROTOCOLS)
def test_every_message_pickles(message: Any, protocol: int) -> None:
    assert_same(message, protocol)


@given(ms.blocks(), PROTOCOLS)
def test_every_block_pickles(block: Any, protocol: int) -> None:
    assert_same(block, protocol)


@given(ms.conversations(), PROTOCOLS)
def test_a_conversation_pickles_as_one_value(conversation: list[Any], protocol: int) -> None:
    back = round_trip(conversation, protocol)
    assert back == conversation
    assert [hash(m) for m in back] == [hash(m) for m in conversation]


@given(ms.json_objects(), PROTOCOLS)
def test_frozen_json_pickles(data: Any, protocol: int) -> None:
    frozen = FrozenDict(data)
    assert_same(frozen, protocol)
    assert round_trip(frozen, protocol).thaw() == frozen.thaw()


@given(ms.usages(), PROTOCOLS)
def test_usage_pickles(usage: Any, protocol: int) -> None:
    assert_same(usage, protocol)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_enumerations_and_limits_pickle(protocol: int) -> None:
    for reason in StopReason:
        assert round_trip(reason, protocol) is reason
    assert_same(Limits(max_line=10, max_depth=3), protocol)


ERRORS = [DecodeError, EncodeError, UnsupportedContentError]


@pytest.mark.parametrize("cls", ERRORS, ids=lambda c: c.__name__)
@given(
    reason=st.text(max_size=20),
    path=st.sampled_from(["$", "$.message.content[2].text", "$[0]"]),
    source=st.none() | st.sampled_from(["claude_code", "anthropic"]),
    value=ms.json_values(),
    line=st.none() | st.integers(1, 10**6),
    protocol=PROTOCOLS,
)
def test_errors_keep_where_and_what(
    cls: type[DecodeError],
    reason: str,
    path: str,
    source: str | None,
    value: Any,
    line: int | None,
    protocol: int,
) -> None:
    error = cls(reason, path=path, source=source, value=value, line=line)
    back = round_trip(error, protocol)
    assert type(back) is cls
    assert (back.reason, back.path, back.source, back.value, back.line) == (
        reason,
        path,
        source,
        value,
        line,
    )
    assert str(back) == str(error)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_lookup_errors_pickle(protocol: int) -> None:
    for error in (UnknownFormatError("unknown format 'x'"), UnknownProviderError("no 'y'")):
        back = round_trip(error, protocol)
        assert type(back) is type(error) and str(back) == str(error)
        assert isinstance(back, MessagesError)


def test_an_error_raised_in_a_worker_process_reads_the_same() -> None:
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=1) as pool:
        future = pool.submit(_decode_in_worker, '{"type": "assistant", "message": 1}')
        with pytest.raises(DecodeError) as info:
            future.result()
    assert info.value.source == "claude_code"
    assert info.value.path == "$.message"
    assert str(info.value).startswith("claude_code: $.message: ")


def _decode_in_worker(line: str) -> Any:
    import json

    from messages.adapters import claude_code

    return claude_code.decode(json.loads(line))


_CHILD = """
import pickle, sys
from messages.adapters import get
values = pickle.load(sys.stdin.buffer)
for name, path, sent in values:
    with open(path, encoding="utf-8") as fp:
        mine = list(get(name).iter_decode(fp))
    assert sent == mine, path
    assert [hash(m) for m in sent] == [hash(m) for m in mine], path
    assert len(set(sent) | set(mine)) == len(set(mine)), path
print(sum(len(sent) for _, _, sent in values))
"""


def test_values_unpickled_under_another_hash_seed_hash_as_that_process_does() -> None:
    sent = []
    for name in CLI_NAMES:
        for path in hand_made(name):
            with path.open(encoding="utf-8") as fp:
                sent.append((name, str(path), list(get(name).iter_decode(fp))))
    for _, _, messages in sent:  # cache every hash this side, under this seed
        for m in messages:
            hash(m)
    seed = "1" if os.environ.get("PYTHONHASHSEED") != "1" else "2"
    env = {**os.environ, "PYTHONHASHSEED": seed}  # the same interpreter, the same messages
    done = subprocess.run(
        [sys.executable, "-c", _CHILD],
        input=pickle.dumps(sent),
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert int(done.stdout) == sum(len(m) for _, _, m in sent) > 50


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_stats_accumulators_and_reports_pickle(protocol: int) -> None:
    from messages.stats import InputStats
    from messages.stats import Stats

    whole = Stats.empty()
    for name in CLI_NAMES:
        for path in hand_made(name):
            collected = InputStats(str(path), name)
            with path.open(encoding="utf-8") as fp:
                for m in get(name).iter_decode(fp):
                    if not isinstance(m, InvalidLineMessage):
                        collected.feed(m)
            moved = round_trip(collected, protocol)  # an input's collector, mid-way
            assert round_trip(Stats.of_input(moved), protocol) == Stats.of_input(collected)
            whole = whole.merge(Stats.of_input(collected))
    assert round_trip(whole, protocol) == whole
    for view in ("session", "day", "model"):
        report = whole.report(view, cost="logged")
        assert round_trip(report, protocol).to_json() == report.to_json()

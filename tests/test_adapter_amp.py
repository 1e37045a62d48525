"""Amp's thread files (``threads/T-<uuid>.json``).

The fixtures (``tests/fixtures/amp``) are written from public facts: ccusage 20's Amp parser
and its test fixtures (the ``messages[].usage`` fields, the ``usageLedger`` events) and the
Anthropic-shaped content of Amp's thread entries. No real capture is at hand; every field the
adapter does not model is kept, so a real thread that differs fails the round trip here.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import ROOT
from messages import AssistantMessage
from messages import InitMessage
from messages import RawBlock
from messages import TextBlock
from messages import ThinkingBlock
from messages import ToolResultBlock
from messages import ToolUseBlock
from messages import UserMessage
from messages.adapters import amp
from messages.adapters import detect
from messages.adapters._sessions import hook
from messages.cli.io import default_folders
from messages.cli.main import main
from messages.errors import DecodeError
from messages.sessions import load
from support.ccusage import ccusage_run
from support.folders import only_these_folders

HERE = ROOT / "tests" / "fixtures" / "amp"
THREAD_ID = "T-7d1c2e4a-5b6f-4a8e-9c0d-1e2f3a4b5c6d"
THREAD = HERE / "data" / "threads" / f"{THREAD_ID}.json"


def _thread() -> dict[str, Any]:
    return json.loads(THREAD.read_text("utf-8"))  # type: ignore[no-any-return]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """An Amp data folder holding the fixture thread."""
    shutil.copytree(HERE / "data", tmp_path / "amp")
    return tmp_path / "amp"


def test_a_thread_file_reads_as_its_header_and_entries_and_writes_back_whole() -> None:
    lines = THREAD.read_text("utf-8").splitlines()
    messages = list(amp.iter_decode(lines))
    assert [m.kind for m in messages] == ["init", *["user", "assistant"] * 3]
    assert {m.session_id for m in messages} == {THREAD_ID}
    (out,) = amp.iter_encode(messages)
    assert json.loads(out) == _thread()
    assert detect(_thread()) == "amp"


def test_the_one_line_fixture_is_the_thread_file() -> None:
    """``threads.jsonl`` (what the contract suite reads) is the pretty-printed thread."""
    (line,) = (HERE / "threads.jsonl").read_text("utf-8").splitlines()
    assert json.loads(line) == _thread()


def test_what_the_entries_decode_to() -> None:
    head, ask, call, result, _edit, failed, reply = amp.iter_decode([json.dumps(_thread())])
    assert isinstance(head, InitMessage)
    assert (head.session_id, head.timestamp, head.extra["title"]) == (
        THREAD_ID,
        1767355200000,
        "Rename the config loader",
    )
    assert isinstance(ask, UserMessage) and ask.text == "Rename load_cfg to load_config everywhere."
    assert isinstance(call, AssistantMessage)
    assert [type(b) for b in call.content] == [ThinkingBlock, ToolUseBlock]
    assert call.content[0].signature == "EqMBCkgIBxAC"  # type: ignore[union-attr]
    assert (call.model, call.stop_reason, call.timestamp, call.message_id) == (
        "claude-sonnet-4-5-20250929",
        "tool_use",
        "2026-01-02T12:00:04.120Z",
        "1",
    )
    assert call.usage is not None
    assert (
        call.usage.input_tokens,
        call.usage.output_tokens,
        call.usage.cache_read_tokens,
        call.usage.cache_write_tokens,
        call.usage.extra["totalInputTokens"],
    ) == (12, 96, 11372, 4210, 15594)
    assert isinstance(result, UserMessage)
    (block,) = result.content
    assert isinstance(block, ToolResultBlock) and block.tool_use_id == "toolu_01Grep"
    assert block.content.startswith("svc/config.py:3") and not block.is_error  # type: ignore[union-attr]
    assert isinstance(failed, UserMessage)
    (block,) = failed.content
    assert isinstance(block, ToolResultBlock) and block.is_error is True
    assert block.extra["run"]["error"]["message"] == "file changed on disk"
    assert isinstance(reply, AssistantMessage) and reply.stop_reason == "end_turn"


def test_a_bad_entry_is_an_invalid_line_naming_where(capsys: pytest.CaptureFixture[str]) -> None:
    thread = _thread()
    thread["messages"][3]["content"][0]["input"] = "not an object"
    (bad,) = amp.iter_decode([json.dumps(thread)])
    assert bad.kind == "invalid_line"
    assert bad.reason == "$.messages[3].content[0].input: expected an object, found a string"  # type: ignore[union-attr]
    with pytest.raises(DecodeError):
        list(amp.iter_decode([json.dumps(thread)], strict=True))


def test_a_field_amp_adds_later_is_kept() -> None:
    thread = _thread()
    thread["newTopLevel"] = [1]
    thread["messages"][1]["content"].append({"type": "image", "source": {"type": "base64"}})
    thread["messages"][1]["usage"]["serviceTier"] = "standard"
    thread["messages"][2]["content"][0]["run"]["result"] = {"files": ["a.py"]}  # not text
    thread["messages"][0]["content"] = "a plain string prompt"
    messages = list(amp.iter_decode([json.dumps(thread)]))
    assert isinstance(messages[2], AssistantMessage)
    assert isinstance(messages[2].content[-1], RawBlock)
    (out,) = amp.iter_encode(messages)
    assert json.loads(out) == thread


_TEXT = st.text(max_size=8)
_BLOCK = st.one_of(
    st.builds(lambda t: {"type": "text", "text": t}, _TEXT),
    st.builds(lambda t, s: {"type": "thinking", "thinking": t, "signature": s}, _TEXT, _TEXT),
    st.builds(
        lambda i, n: {"type": "tool_use", "complete": True, "id": i, "name": n, "input": {"a": i}},
        _TEXT,
        _TEXT,
    ),
    st.builds(
        lambda i, r, s: {"type": "tool_result", "toolUseID": i, "run": {"status": s, "result": r}},
        _TEXT,
        st.one_of(_TEXT, st.none(), st.dictionaries(_TEXT, _TEXT, max_size=2)),
        st.sampled_from(["done", "error", "cancelled"]),
    ),
    st.dictionaries(st.sampled_from(["type", "x"]), _TEXT, max_size=2),
)
_COUNT = st.one_of(st.none(), st.integers(0, 10**7))


@given(
    entries=st.lists(
        st.tuples(st.sampled_from(["user", "assistant"]), st.lists(_BLOCK, max_size=3)),
        max_size=4,
    ),
    counts=st.lists(_COUNT, min_size=4, max_size=4),
)
def test_any_thread_round_trips(entries: list[tuple[str, list[Any]]], counts: list[Any]) -> None:
    messages: list[dict[str, Any]] = []
    for i, (role, content) in enumerate(entries):
        entry: dict[str, Any] = {"role": role, "messageId": i, "content": content}
        if role == "assistant":
            keys = (
                "inputTokens",
                "outputTokens",
                "cacheCreationInputTokens",
                "cacheReadInputTokens",
            )
            usage = {k: v for k, v in zip(keys, counts, strict=True) if v is not None}
            entry["usage"] = {"model": "m", **usage, "timestamp": "2026-01-02T00:00:00Z"}
        messages.append(entry)
    thread = {"v": 1, "id": "T-x", "created": 1, "messages": messages}
    assert amp.detect(thread)
    (out,) = amp.iter_encode(amp.iter_decode([json.dumps(thread)]))
    assert json.loads(out) == thread


def test_an_entry_or_a_header_alone_round_trips() -> None:
    thread = _thread()
    for entry in thread["messages"]:
        assert amp.encode(amp.decode(entry)) == entry
        assert not amp.detect(entry)  # an entry looks like many formats' messages: not claimed
    header = {k: v for k, v in thread.items() if k != "messages"}
    assert amp.detect(header) and amp.encode(amp.decode(header)) == header


# -- sessions and the command line ------------------------------------------------------------


def test_a_thread_is_a_session_titled_by_amp(folder: Path) -> None:
    (s,) = list(load(folder))
    assert (s.agent, s.id, s.title, s.prompts) == ("amp", THREAD_ID, "Rename the config loader", 1)
    assert [m.kind for m in s.messages] == ["user", "assistant"] * 3
    reply = s.messages[-1]
    assert isinstance(reply, AssistantMessage)
    assert isinstance(reply.content[0], TextBlock)
    assert s.usage.calls == 3
    u = s.usage.total
    assert (u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens) == (
        25,
        185,
        42856,
        4530,
    )


def test_default_folders_follow_amps_variables(folder: Path) -> None:
    assert default_folders({"HOME": "/nowhere", "AMP_DATA_DIR": str(folder)}) == [
        str(folder / "threads")
    ]
    xdg = {"HOME": "/nowhere", "XDG_DATA_HOME": str(folder.parent)}
    assert default_folders(xdg) == [str(folder / "threads")]
    (folder / "threads" / "notes.json").write_text("{}")
    assert list(hook("amp").files(str(folder / "threads"))) == [
        str(folder / "threads" / THREAD.name)
    ]


# ccusage 20.0.24 (`AMP_DATA_DIR=<folder> ccusage amp session --json --offline`) on the data
# folder above: (input, output, cache read, cache write, cost in USD). Amp threads log no cost:
# both price the tokens, and `messages stats --cost estimated` gives the same figure.
CCUSAGE_SESSION = (25, 185, 42856, 4530, 0.0326943)


def _ours(folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Any, ...]:
    assert main(["stats", "--json", "--cost", "estimated", str(folder)]) == 0
    (s,) = json.loads(capsys.readouterr().out)["sessions"]
    assert s["session_id"] == THREAD_ID
    t = s["tokens"]
    return (t["input"], t["output"], t["cache_read"], t["cache_write"], s["cost_usd"])


def test_stats_agree_with_ccusage_20(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ours = _ours(folder, capsys)
    assert ours[:4] == CCUSAGE_SESSION[:4]
    assert ours[4] == pytest.approx(CCUSAGE_SESSION[4], rel=1e-9)


def test_stats_agree_with_ccusage_run_live(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = ccusage_run("amp", {"AMP_DATA_DIR": str(folder)}, tmp_path)
    (theirs,) = json.loads(run.stdout)["sessions"]
    assert theirs["sessionId"] == THREAD_ID
    figures = (
        theirs["inputTokens"],
        theirs["outputTokens"],
        theirs["cacheReadTokens"],
        theirs["cacheCreationTokens"],
    )
    ours = _ours(folder, capsys)
    assert ours[:4] == figures
    assert ours[4] == pytest.approx(theirs["totalCost"], rel=1e-9)


def test_stats_with_no_argument_reads_amps_folder(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    only_these_folders(monkeypatch, folder.parent / "home", AMP_DATA_DIR=str(folder))
    assert main(["stats", "--json"]) == 0
    (s,) = json.loads(capsys.readouterr().out)["sessions"]
    assert s["session_id"] == THREAD_ID and s["tool_errors"] == 1


def test_convert_to_amp_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", "--to", "amp", str(THREAD)]) == 2
    assert "--to amp: amp is an agent's own store" in capsys.readouterr().err

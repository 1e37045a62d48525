"""What is specific to the Cline / Roo Code / Kilo Code adapter (the contract: tests/contract)."""

from __future__ import annotations

import json

import pytest

from conftest import LOCAL_FIXTURES
from messages import AssistantMessage
from messages import DocumentBlock
from messages import ErrorMessage
from messages import ImageBlock
from messages import InitMessage
from messages import InvalidLineMessage
from messages import RawMessage
from messages import ResultMessage
from messages import SystemEventMessage
from messages import TextMessage
from messages import ThinkingMessage
from messages import ToolResultBlock
from messages import UserMessage
from messages.adapters import cline
from messages.adapters import detect
from messages.stats import Stats

FOLDER = LOCAL_FIXTURES / "cline"


def _read(name: str) -> list[object]:
    with (FOLDER / name).open("rb") as fp:
        return list(cline.iter_decode(fp))


def test_the_newer_transcript_gives_its_header_and_entries() -> None:
    got = _read("1784094124598_ab12c.messages.json")  # pretty-printed with tabs, as written
    header = got[0]
    assert isinstance(header, InitMessage) and header.session_id == "1784094124598_ab12c"
    assert header.extra["agent"] == "lead"
    user, first, result, second, odd = got[1:]
    assert isinstance(user, UserMessage) and user.uuid == "msg_u1"
    _, image, file = user.content  # the SDK's own image and file blocks, typed
    assert isinstance(image, ImageBlock) and image.media_type == "image/png"
    assert isinstance(file, DocumentBlock) and file.filename == "/home/dev/app/README.md"
    assert file.text == "# App\nA demo.\n"
    assert isinstance(first, AssistantMessage) and first.model == "claude-sonnet-4-6"
    assert first.usage is not None
    assert (first.usage.input_tokens, first.usage.cache_read_tokens) == (1200, 800)
    assert first.usage.cost_usd == 0.0091 and first.timestamp == 1784094130000
    assert isinstance(result, UserMessage) and isinstance(result.content[0], ToolResultBlock)
    assert isinstance(second, AssistantMessage)  # its second call never got a result
    assert isinstance(odd, RawMessage) and odd.data["role"] == "system_note"


def test_the_older_generation_reads_history_ui_log_and_metadata() -> None:
    history = _read("api_conversation_history.json")
    assert [m.kind for m in history] == ["user", "assistant", "user", "assistant"]
    image = history[0].content[1]  # type: ignore[attr-defined]
    assert isinstance(image, ImageBlock) and image.media_type == "image/png"
    turn = history[1]
    assert isinstance(turn, AssistantMessage) and turn.model == "claude-sonnet-4-5"
    assert turn.usage is not None  # VS Code's metrics: prompt includes the cache hits
    assert (turn.usage.input_tokens, turn.usage.cache_read_tokens) == (3000, 12000)
    assert turn.usage.output_tokens == 90 and turn.usage.cost_usd == 0.0123
    ui = _read("ui_messages.json")
    requests = [m for m in ui if isinstance(m, ResultMessage)]
    assert [r.usage.cost_usd for r in requests if r.usage] == [0.0123, 0.0061]
    assert requests[1].usage is not None and requests[1].usage.cache_write_tokens == 150
    texts = [(m.role, m.text) for m in ui if isinstance(m, TextMessage)]
    assert texts[0] == ("user", "Fix the failing test")
    assert ("assistant", "I'll run the tests.") in texts
    assert [m.code for m in ui if isinstance(m, ErrorMessage)] == ["error", "api_req_failed"]
    assert [m.thinking for m in ui if isinstance(m, ThinkingMessage)] == ["Run the tests first."]
    events = [m.subtype for m in ui if isinstance(m, SystemEventMessage)]
    assert events == ["command", "command_output", "checkpoint_created", "future_kind"]
    (meta,) = _read("task_metadata.json")
    assert isinstance(meta, SystemEventMessage) and meta.subtype == "task_metadata"


def test_stats_of_a_ui_log_add_up_its_requests() -> None:
    (session,) = Stats.of_file(str(FOLDER / "ui_messages.json")).sessions()
    tokens = session.tokens
    assert (tokens.input, tokens.output) == (3200, 120)
    assert (tokens.cache_read, tokens.cache_write) == (26900, 150)
    assert tokens.cost == pytest.approx(0.0184)


def test_a_document_still_being_written_is_an_invalid_line() -> None:
    got = _read("written-partly.jsonl")
    assert [m.kind for m in got[:4]] == ["user", "assistant", "user", "assistant"]
    assert isinstance(got[-1], InvalidLineMessage) and got[-1].line == 2


def test_documents_are_written_back_whole_and_a_lone_decode_keeps_one_whole() -> None:
    text = (FOLDER / "api_conversation_history.json").read_text("utf-8")
    (line,) = cline.iter_encode(cline.iter_decode([text]))
    assert json.loads(line) == json.loads(text)
    whole = cline.decode(json.loads(text))
    assert isinstance(whole, RawMessage) and cline.encode(whole) == json.loads(text)
    assert detect(json.loads(text)) == "cline"
    assert detect([1, 2]) is None and detect([]) is None


def test_turns_from_elsewhere_become_one_conversation_array() -> None:
    stream = [
        UserMessage("hi"),
        AssistantMessage("hello", model="m1"),
        TextMessage("bye", role="user"),
    ]
    (line,) = cline.iter_encode(stream)
    assert json.loads(line) == [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello", "modelInfo": {"id": "m1"}},
        {"role": "user", "content": [{"type": "text", "text": "bye"}]},
    ]


def test_a_task_folder_is_one_session(tmp_path: object) -> None:
    import shutil
    from pathlib import Path

    from messages.sessions import load

    task = Path(str(tmp_path)) / "1760000000000"
    task.mkdir()
    for name in ("api_conversation_history.json", "ui_messages.json", "task_metadata.json"):
        shutil.copy(FOLDER / name, task / name)
    (session,) = load([str(task)])
    assert session.agent == "cline" and session.id == "1760000000000"
    assert [m.kind for m in session.messages] == ["user", "assistant", "user", "assistant"]
    assert session.usage.calls == 2  # the UI log's two requests, not the history's metrics
    assert session.usage.total.cost_usd == pytest.approx(0.0184)
    assert session.title is not None and "Fix the failing test" in session.title

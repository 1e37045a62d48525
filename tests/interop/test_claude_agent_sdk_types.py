"""Every attribute the claude-agent-sdk parser types is typed here too, and lines round trip.

The lines and the SDK-attribute-to-ours mapping are in ``sdk_typed_lines`` (written once).
Before issue 13, 28 of its 41 lines had SDK-typed information reachable here only as
``extra[...]`` or ``RawMessage.data[...]``; the three left are listed in ``STILL_UNTYPED``.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from messages import TERMINAL_TASK_STATUSES
from messages import TaskEventMessage
from messages.adapters import claude_code as cc

sdk = pytest.importorskip("claude_agent_sdk")
parser = pytest.importorskip("claude_agent_sdk._internal.message_parser")

from sdk_typed_lines import LINES  # noqa: E402
from sdk_typed_lines import OURS  # noqa: E402
from sdk_typed_lines import untyped  # noqa: E402

STILL_UNTYPED = {
    "assistant answering a prompt": ["user_message_uuid", "user_message_uuids"],
    "result of an injected turn": ["user_message_uuid", "user_message_uuids"],
    "stream event naming the prompt": ["user_message_uuid", "user_message_uuids"],
}
"""Left in ``extra`` on purpose: the prompt correlation ids, on assistant, result and stream
lines alike (the assistant and stream lines are the decoder's hot paths; typing them is a
change to those fast paths, left for its own issue)."""

NAMES = [name for name, _ in LINES]


def _line(name: str) -> dict[str, Any]:
    return copy.deepcopy(dict(LINES)[name])


@pytest.mark.parametrize("name", NAMES)
def test_every_sdk_typed_attribute_is_typed_here(name: str) -> None:
    built = parser.parse_message(_line(name))
    assert built is not None, "the SDK types every line of the list"
    assert type(built).__name__ in OURS
    assert untyped(built, cc.decode(_line(name))) == STILL_UNTYPED.get(name, [])


@pytest.mark.parametrize("name", NAMES)
def test_every_line_round_trips(name: str) -> None:
    line = _line(name)
    assert cc.encode(cc.decode(copy.deepcopy(line))) == line


def test_the_count_before_and_after() -> None:
    lines = [(parser.parse_message(_line(n)), cc.decode(_line(n))) for n in NAMES]
    left = [n for n, (built, ours) in zip(NAMES, lines, strict=True) if untyped(built, ours)]
    assert (len(left), len(NAMES)) == (3, 41)


def test_terminal_statuses_agree_with_the_sdk() -> None:
    assert TERMINAL_TASK_STATUSES == sdk.types.TERMINAL_TASK_STATUSES
    for name in ("task updated", "task notification", "task started"):
        ours = cc.decode(_line(name))
        assert isinstance(ours, TaskEventMessage)
        built = parser.parse_message(_line(name))
        sdk_status = getattr(built, "status", None)
        assert ours.is_terminal == (sdk_status in sdk.types.TERMINAL_TASK_STATUSES)


def test_a_malformed_patch_keeps_its_raw_value_and_never_raises() -> None:
    line = _line("task updated with a patch that is not an object")
    ours = cc.decode(copy.deepcopy(line))
    assert isinstance(ours, TaskEventMessage)
    assert ours.patch is None and ours.extra["patch"] == "oops"
    assert ours.state is None and not ours.is_terminal
    assert parser.parse_message(line).patch == {}  # the SDK cleans it up to {}
    assert json.loads(json.dumps(cc.encode(ours))) == line

"""``_base.whole_messages``: the one ``merge`` of every format that writes whole messages."""

from __future__ import annotations

from itertools import count
from itertools import islice

from hypothesis import given
from hypothesis import strategies as st

from messages import Message
from messages import TextMessage
from messages import strategies as ms
from messages.adapters import get
from messages.adapters._base import whole_messages

WHOLE = (
    "amp",
    "codebuff",
    "copilot_otel",
    "droid",
    "goose",
    "hermes",
    "kimi",
    "opencode_storage",
    "zcode",
)
"""Formats whose ``merge`` gives the messages back as they are."""


@given(st.lists(ms.messages(), max_size=6))
def test_whole_messages_gives_every_message_back_in_order(messages: list[Message]) -> None:
    out = list(whole_messages(messages))
    assert len(out) == len(messages)
    assert all(a is b for a, b in zip(out, messages, strict=True))


def test_whole_messages_is_lazy() -> None:
    endless = (TextMessage(str(n)) for n in count())
    assert [m.text for m in islice(whole_messages(endless), 3)] == ["0", "1", "2"]


def test_whole_message_formats_share_it() -> None:
    for name in WHOLE:
        assert get(name).merge is whole_messages, name
    assert get("qwen_code").merge is not whole_messages  # joins split assistant records

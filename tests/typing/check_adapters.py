"""Static typing test: every adapter module satisfies the Adapter protocol (mypy --strict)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import assert_type

from messages import Message
from messages.adapters import Adapter
from messages.adapters import acp
from messages.adapters import claude_code
from messages.adapters import codex
from messages.adapters import copilot
from messages.adapters import gemini_cli
from messages.adapters import get
from messages.adapters import native
from messages.adapters import opencode

adapters: list[Adapter] = [acp, claude_code, codex, copilot, gemini_cli, native, opencode]

adapter = get("codex")
assert_type(adapter, Adapter)
assert_type(adapter.iter_decode([b"{}"]), Iterator[Message])
assert_type(adapter.iter_encode([], unsupported="drop"), Iterator[str])
assert_type(adapter.merge([]), Iterator[Message])

"""The settings of a Chat Completions request: model, token limit, sampling, stop, tools.

``max_completion_tokens`` is the token limit (the deprecated ``max_tokens`` stays in
``extra``); ``stop`` is read when it is an array (a single string stays in ``extra``).
``tools`` entries ``{"type": "function", "function": {...}}`` are definitions; any other
(a custom tool) is kept raw. ``tool_choice`` is ``"auto"``, ``"none"``, ``"required"``
(mode ``any``) or ``{"type": "function", "function": {"name": ...}}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from typing import Final

from ...blocks import RawBlock
from ...settings import RequestSettings
from ...settings import Tool
from .._formats import CHAT
from .._settings import Spelling
from .._settings import Writer
from .._settings import definition_keys
from .._settings import each_tool
from .._settings import openai_choices
from .._settings import read_settings
from .._settings import tool_fields

__all__ = ["SPELLING", "decode_settings"]


def _read_tools(entries: list[Any]) -> tuple[Tool, ...]:
    out: list[Tool] = []
    for entry in entries:
        tool = None
        plain = type(entry) is dict and entry.keys() == {"type", "function"}
        if plain and entry["type"] == "function":
            tool = tool_fields(entry["function"], "name", "description", "parameters")
        out.append(tool if tool is not None else RawBlock(entry))
    return tuple(out)


def _write_tools(tools: tuple[Tool, ...], writer: Writer) -> list[Any]:
    return each_tool(
        tools,
        writer,
        lambda d, where: {
            "type": "function",
            "function": definition_keys(
                d, writer, where, name="name", description="description", schema="parameters"
            ),
        },
    )


def _named(name: str) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name}}


_KEYS: Final = "model max_completion_tokens temperature top_p stop tools tool_choice"
_CODEC: Final = (_read_tools, _write_tools), openai_choices(_named)
SPELLING: Final = Spelling(
    CHAT, "messages", _KEYS, *_CODEC, choice_needs_tools=True, empty_tools=False
)
"""Where a Chat Completions request keeps each setting."""


def decode_settings(body: Mapping[str, Any]) -> RequestSettings:
    """The settings of a request body: everything but ``messages``.

    >>> s = decode_settings({"model": "gpt-x", "tool_choice": "required", "messages": []})
    >>> s.model, s.tool_choice.mode
    ('gpt-x', 'any')
    """
    return read_settings(body, SPELLING)

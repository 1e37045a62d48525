"""The settings of a Chat Completions request: model, token limit, sampling, stop, tools.

``max_completion_tokens`` is the token limit, or, when a body has none, the older
``max_tokens`` that most OpenAI-compatible servers read (when both are there, the first is
the limit and ``max_tokens`` stays in ``extra``). ``stop`` is an array, or one string read
as a one-element tuple. Which key or shape a body used is kept in ``spelled``, so the body
goes back as it came; settings from elsewhere get the key the dialect reads
(:func:`limit_key`)
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
from .._choices import openai_choices
from .._formats import CHAT
from .._settings import Spelling
from .._settings import Writer
from .._settings import definition_keys
from .._settings import each_tool
from .._settings import read_settings
from .._settings import tool_fields

__all__ = ["SPELLING", "decode_settings", "limit_key"]


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


_KEYS: Final = "model max_completion_tokens|max_tokens temperature top_p stop tools tool_choice"
_CODEC: Final = (_read_tools, _write_tools), openai_choices(_named)
SPELLING: Final = Spelling(
    CHAT,
    "messages",
    _KEYS,
    *_CODEC,
    choice_needs_tools=True,
    empty_tools=False,
    stop_string=True,
)
"""Where a Chat Completions request keeps each setting."""


def decode_settings(body: Mapping[str, Any]) -> RequestSettings:
    """The settings of a request body: everything but ``messages``.

    >>> s = decode_settings({"model": "gpt-x", "tool_choice": "required", "messages": []})
    >>> s.model, s.tool_choice.mode
    ('gpt-x', 'any')
    """
    return read_settings(body, SPELLING)


def limit_key(dialect: str) -> str:
    """The key a dialect's API reads the token limit from.

    OpenAI's own ``max_completion_tokens``, else the older ``max_tokens`` every compatible
    server takes.

    >>> limit_key("openai"), limit_key("deepseek")
    ('max_completion_tokens', 'max_tokens')
    """
    return "max_completion_tokens" if dialect == "openai" else "max_tokens"

"""The settings of a Messages request: model, ``max_tokens``, sampling, stop, tools, choice.

``tools`` entries with an ``input_schema`` (and no ``type`` but ``custom``) are
definitions; a server tool (``web_search_20250305``...) is kept raw. ``tool_choice`` is
``{"type": "auto" | "any" | "none" | "tool", "name"?}``; ``disable_parallel_tool_use``
stays in its ``extra``. The current API version (2026-10-21) takes no ``temperature`` or
``top_p``: they are read from older bodies and written back only to the body they came
from; from anywhere else they follow the loss policy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from typing import Final

from ...blocks import RawBlock
from ...settings import RequestSettings
from ...settings import Tool
from ...settings import ToolChoice
from ...settings import ToolDefinition
from .._choices import choice_extra
from .._formats import ANTHROPIC
from .._settings import Spelling
from .._settings import Writer
from .._settings import definition_keys
from .._settings import each_tool
from .._settings import read_settings
from .._settings import tool_fields

__all__ = ["SPELLING", "decode_settings"]


def _read_tools(entries: list[Any]) -> tuple[Tool, ...]:
    out: list[Tool] = []
    for entry in entries:
        tool = None
        if (
            type(entry) is dict
            and entry.get("type", "custom") == "custom"
            and ("input_schema" in entry)
        ):
            tool = tool_fields(entry, "name", "description", "input_schema")
        out.append(tool if tool is not None else RawBlock(entry))
    return tuple(out)


def _write_tool(definition: ToolDefinition, writer: Writer, where: str) -> dict[str, Any]:
    return definition_keys(
        definition,
        writer,
        where,
        name="name",
        description="description",
        schema="input_schema",
        required_schema=True,
    )


def _write_tools(tools: tuple[Tool, ...], writer: Writer) -> list[Any]:
    return each_tool(tools, writer, lambda d, where: _write_tool(d, writer, where))


def _read_choice(value: Any) -> ToolChoice | None:
    if type(value) is not dict:
        return None
    mode, name = value.get("type"), value.get("name")
    if mode not in ("auto", "any", "none", "tool") or (mode == "tool" and type(name) is not str):
        return None
    known = ("type", "name") if mode == "tool" else ("type",)
    rest = {k: v for k, v in value.items() if k not in known}
    return ToolChoice(mode, name=name if mode == "tool" else None, extra=rest)


def _write_choice(choice: ToolChoice, writer: Writer) -> dict[str, Any]:
    out: dict[str, Any] = {"type": choice.mode}
    if choice.mode == "tool":
        out["name"] = choice.name
    choice_extra(choice, writer, out)
    return out


_KEYS: Final = "model max_tokens temperature top_p stop_sequences tools tool_choice"
_CODEC: Final = (_read_tools, _write_tools), (_read_choice, _write_choice)
SPELLING: Final = Spelling(
    ANTHROPIC, "system messages", _KEYS, *_CODEC, temperature_max=1.0, sampling=False
)
"""Where a Messages request keeps each setting."""


def decode_settings(body: Mapping[str, Any]) -> RequestSettings:
    """The settings of a request body: everything but ``system`` and ``messages``.

    >>> s = decode_settings({"model": "claude-x", "max_tokens": 64, "stream": True,
    ...                      "messages": []})
    >>> s.model, s.max_tokens, dict(s.extra)
    ('claude-x', 64, {'stream': True})
    """
    return read_settings(body, SPELLING)

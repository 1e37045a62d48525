"""The settings of a Responses request: model, ``max_output_tokens``, sampling, tools, choice.

The API has no stop sequences. ``tools`` entries of type ``function`` are definitions;
the built-in tools (``web_search``, ``file_search``...) are kept raw. ``tool_choice`` is
``"auto"``, ``"none"``, ``"required"`` (mode ``any``) or ``{"type": "function", "name"}``.
A definition from another provider is written with the ``parameters`` and ``strict`` the
API's type requires: an empty object schema when it had none, and ``strict: false`` when it
did not say (the meaning it had where it came from).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from typing import Final

from ...blocks import RawBlock
from ...settings import RequestSettings
from ...settings import Tool
from ...settings import ToolDefinition
from .._choices import openai_choices
from .._formats import RESPONSES
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
        if type(entry) is dict and entry.get("type") == "function":
            fields = {k: v for k, v in entry.items() if k != "type"}
            tool = tool_fields(fields, "name", "description", "parameters")
        out.append(tool if tool is not None else RawBlock(entry))
    return tuple(out)


def _write_tool(definition: ToolDefinition, writer: Writer, where: str) -> dict[str, Any]:
    foreign = writer.provider != RESPONSES
    out: dict[str, Any] = {"type": "function"}
    out.update(
        definition_keys(
            definition,
            writer,
            where,
            name="name",
            description="description",
            schema="parameters",
            required_schema=foreign,
        )
    )
    if foreign:
        out.setdefault("strict", False)
    return out


def _write_tools(tools: tuple[Tool, ...], writer: Writer) -> list[Any]:
    return each_tool(tools, writer, lambda d, where: _write_tool(d, writer, where))


def _named(name: str) -> dict[str, Any]:
    return {"type": "function", "name": name}


_KEYS: Final = "model max_output_tokens temperature top_p - tools tool_choice"
_CODEC: Final = (_read_tools, _write_tools), openai_choices(_named)
SPELLING: Final = Spelling(RESPONSES, "instructions input", _KEYS, *_CODEC)
"""Where a Responses request keeps each setting."""


def decode_settings(body: Mapping[str, Any]) -> RequestSettings:
    """The settings of a request body: everything but ``instructions`` and ``input``.

    >>> s = decode_settings({"model": "gpt-x", "max_output_tokens": 99, "store": False,
    ...                      "input": "Hi"})
    >>> s.max_tokens, dict(s.extra)
    (99, {'store': False})
    """
    return read_settings(body, SPELLING)

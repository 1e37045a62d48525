"""The settings of a ``Converse`` request: ``modelId``, ``inferenceConfig``, ``toolConfig``.

``inferenceConfig`` gives ``maxTokens``, ``temperature``, ``topP`` and ``stopSequences``;
``toolConfig.tools`` entries that are a ``toolSpec`` with an ``inputSchema.json`` are
definitions (their names mapped as tool names are: :func:`~.ids.wire_id`), others
(``cachePoint``, ``systemTool``) are kept raw; ``toolConfig.toolChoice`` is ``{"auto": {}}``,
``{"any": {}}`` or ``{"tool": {"name": ...}}``. Converse has no choice ``none``: it follows
the loss policy. ``additionalModelRequestFields`` stays in ``extra``: what it may hold
depends on the model behind ``modelId`` (the model's own request fields), so another
provider's keys are never moved into it; they follow the loss policy like any other.
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
from .._choices import choice_name
from .._formats import BEDROCK
from .._settings import Spelling
from .._settings import Writer
from .._settings import definition_keys
from .._settings import each_tool
from .._settings import read_settings
from .._settings import tool_fields
from .ids import original_id
from .ids import wire_id

__all__ = ["SPELLING", "decode_settings"]


def _read_tool(entry: Any) -> ToolDefinition | None:
    if (
        type(entry) is not dict
        or entry.keys() != {"toolSpec"}
        or type(entry["toolSpec"]) is not dict
    ):
        return None
    spec = dict(entry["toolSpec"])
    schema = spec.pop("inputSchema", None)
    if type(schema) is not dict or schema.keys() != {"json"} or type(schema["json"]) is not dict:
        return None
    tool = tool_fields(
        {**spec, "inputSchema": schema["json"]}, "name", "description", "inputSchema"
    )
    if tool is None or tool.description == "":
        return None
    return ToolDefinition(
        original_id(tool.name),
        description=tool.description,
        input_schema=tool.input_schema,
        strict=tool.strict,
        extra=tool.extra,
    )


def _read_tools(entries: list[Any]) -> tuple[Tool, ...]:
    return tuple(_read_tool(e) or RawBlock(e) for e in entries)


def _write_tool(definition: ToolDefinition, writer: Writer, where: str) -> dict[str, Any]:
    spec = definition_keys(
        definition,
        writer,
        where,
        name="name",
        description="description",
        schema="inputSchema",
        required_schema=True,
        name_as=wire_id,
    )
    if spec.get("description") == "":
        del spec["description"]  # Converse takes no empty description: nothing is said
    spec["inputSchema"] = {"json": spec["inputSchema"]}
    return {"toolSpec": spec}


def _write_tools(tools: tuple[Tool, ...], writer: Writer) -> list[Any]:
    return each_tool(tools, writer, lambda d, where: _write_tool(d, writer, where))


def _read_choice(value: Any) -> ToolChoice | None:
    if type(value) is not dict or len(value) != 1:
        return None
    ((mode, inner),) = value.items()
    if mode in ("auto", "any") and inner == {}:
        return ToolChoice(mode)
    if mode == "tool" and type(inner) is dict and inner.keys() == {"name"}:
        name = inner["name"]
        return ToolChoice("tool", name=original_id(name)) if type(name) is str else None
    return None


def _write_choice(choice: ToolChoice, writer: Writer) -> dict[str, Any] | None:
    if choice.mode == "none":
        writer.policy.refuse("Converse has no tool choice 'none'", "settings.tool_choice", "none")
        return None
    inner: dict[str, Any] = {}
    if choice.mode == "tool":
        inner["name"] = wire_id(choice_name(choice))
    choice_extra(choice, writer, inner)
    return {choice.mode: inner}


_KEYS: Final = (
    "modelId inferenceConfig.maxTokens inferenceConfig.temperature "
    "inferenceConfig.topP inferenceConfig.stopSequences toolConfig.tools toolConfig.toolChoice"
)
_CODEC: Final = (_read_tools, _write_tools), (_read_choice, _write_choice)
SPELLING: Final = Spelling(
    BEDROCK,
    "system messages",
    _KEYS,
    *_CODEC,
    temperature_max=1.0,
    empty_tools=False,
    choice_needs_tools=True,
)
"""Where a ``Converse`` request keeps each setting."""


def decode_settings(body: Mapping[str, Any]) -> RequestSettings:
    """The settings of a request body: everything but ``system`` and ``messages``.

    >>> s = decode_settings({"modelId": "m", "messages": [],
    ...                      "inferenceConfig": {"maxTokens": 512, "temperature": 0.2}})
    >>> s.model, s.max_tokens, s.temperature
    ('m', 512, 0.2)
    """
    return read_settings(body, SPELLING)

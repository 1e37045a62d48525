"""The settings of a ``generateContent`` request: model, ``generationConfig``, tools, choice.

``generationConfig`` gives the token limit (``maxOutputTokens``), ``temperature``,
``topP`` and ``stopSequences``; what else it holds (``thinkingConfig``...) stays in
``extra``. A ``tools`` entry that is only ``functionDeclarations`` gives one definition per
declaration, its ``parametersJsonSchema`` the schema (Gemini's own OpenAPI-subset
``parameters`` stays in the definition's ``extra``); other entries (``codeExecution``,
``googleSearch``) are kept raw. The choice is ``toolConfig.functionCallingConfig``:
``mode`` ``AUTO``, ``ANY`` or ``NONE``, and ``ANY`` with one ``allowedFunctionNames``
entry is the mode ``tool``. Gemini has no strict definitions.
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
from ...settings import ToolMode
from .._choices import choice_extra
from .._formats import GEMINI
from .._settings import Spelling
from .._settings import Writer
from .._settings import definition_keys
from .._settings import read_settings
from .._settings import tool_fields

__all__ = ["SPELLING", "decode_settings"]

_DECLARATIONS: Final = "functionDeclarations"
_MODES: Final[dict[str, ToolMode]] = {"AUTO": "auto", "ANY": "any", "NONE": "none"}
_SPELLED: Final = {mode: word for word, mode in _MODES.items()}


def _declarations(entry: Any) -> list[ToolDefinition] | None:
    if type(entry) is not dict or entry.keys() != {_DECLARATIONS}:
        return None
    found = entry[_DECLARATIONS]
    if type(found) is not list or not found:
        return None
    out = []
    for declaration in found:
        tool = tool_fields(declaration, "name", "description", "parametersJsonSchema", None)
        if tool is None:
            return None
        out.append(tool)
    return out


def _read_tools(entries: list[Any]) -> tuple[Tool, ...]:
    out: list[Tool] = []
    grouped = False  # two declaration entries in a row: the second stays raw (exact replay)
    for entry in entries:
        found = None if grouped else _declarations(entry)
        if found is None:
            out.append(RawBlock(entry))
        else:
            out.extend(found)
        grouped = found is not None
    return tuple(out)


def _write_tools(tools: tuple[Tool, ...], writer: Writer) -> list[Any]:
    out: list[Any] = []
    run: list[Any] | None = None
    for i, tool in enumerate(tools):
        where = f"settings.tools[{i}]"
        if isinstance(tool, ToolDefinition):
            declaration = definition_keys(
                tool,
                writer,
                where,
                name="name",
                description="description",
                schema="parametersJsonSchema",
                strict=None,
            )
            if run is None:
                run = []
                out.append({_DECLARATIONS: run})
            run.append(declaration)
            continue
        run = None
        kept = writer.raw(tool, where)
        if kept is not None:
            out.append(kept)
    return out


def _read_choice(value: Any) -> ToolChoice | None:
    if type(value) is not dict or value.get("mode") not in _MODES:
        return None
    mode = _MODES[value["mode"]]
    rest = {k: v for k, v in value.items() if k != "mode"}
    names = rest.get("allowedFunctionNames")
    only = names[0] if type(names) is list and len(names) == 1 else None
    if mode == "any" and rest.keys() == {"allowedFunctionNames"} and type(only) is str:
        return ToolChoice("tool", name=only)
    return ToolChoice(mode, extra=rest)


def _write_choice(choice: ToolChoice, writer: Writer) -> dict[str, Any]:
    if choice.mode == "tool":
        out: dict[str, Any] = {"mode": "ANY", "allowedFunctionNames": [choice.name]}
    else:
        out = {"mode": _SPELLED[choice.mode]}
    choice_extra(choice, writer, out)
    return out


_KEYS: Final = (
    "model generationConfig.maxOutputTokens generationConfig.temperature "
    "generationConfig.topP generationConfig.stopSequences tools toolConfig.functionCallingConfig"
)
_CODEC: Final = (_read_tools, _write_tools), (_read_choice, _write_choice)
SPELLING: Final = Spelling(GEMINI, "systemInstruction contents", _KEYS, *_CODEC)
"""Where a ``generateContent`` request keeps each setting."""


def decode_settings(body: Mapping[str, Any]) -> RequestSettings:
    """The settings of a request body: everything but ``systemInstruction`` and ``contents``.

    >>> s = decode_settings({"contents": [], "generationConfig": {
    ...     "maxOutputTokens": 256, "thinkingConfig": {"includeThoughts": True}}})
    >>> s.max_tokens, s.extra.thaw()
    (256, {'generationConfig': {'thinkingConfig': {'includeThoughts': True}}})
    """
    return read_settings(body, SPELLING)

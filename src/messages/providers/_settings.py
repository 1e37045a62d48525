"""Request settings on the wire: the one reader and writer every provider spells its way.

Each provider describes where its body keeps each setting in a :class:`Spelling` (the key
paths, and how its tool entries and tool choice read and write); :func:`read_settings` and
:func:`write_settings` do the rest the same way for all five:

- a setting is read into its field only when its value has the shape the field holds;
  otherwise it stays where it is, in ``extra``, and goes back as it was;
- what is taken out of a nested object (Gemini ``generationConfig``, Bedrock
  ``inferenceConfig``) leaves the rest of that object in ``extra``, and an object emptied
  that way is left out: the writer puts the fields back into it;
- settings read from another provider's body (``provider`` names it) carry their typed
  fields; that provider's own keys (``extra``, raw tools, the unmodelled fields of a
  definition or choice) cannot be carried and follow the loss policy, under the path
  ``settings.<field>``. A field has no text of its own: ``"text"`` leaves it out too.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from typing import Final

from .._core.frozen import JsonValue
from .._core.frozen import thaw
from .._core.wire import encode_each
from .._core.wire import type_name
from ..blocks import RawBlock
from ..errors import EncodeError
from ..policy import Policy
from ..settings import RequestSettings
from ..settings import Tool
from ..settings import ToolChoice
from ..settings import ToolDefinition
from ._common import copy_body

__all__ = [
    "Spelling",
    "Writer",
    "definition_keys",
    "each_tool",
    "plain_schema",
    "read_settings",
    "schema_or_none",
    "tool_fields",
    "write_settings",
]

Path = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Writer:
    """What a provider's tool and choice writers need: the policy, and whose keys they hold."""

    policy: Policy
    own: bool
    """Whether the settings' unmodelled keys are the target's own (read from its body, or
    made by hand)."""
    provider: str | None

    def keys(self, extra: Mapping[str, JsonValue], path: str) -> dict[str, Any]:
        """``extra`` as plain values when it is the target's own; else each key is refused."""
        if self.own:
            return dict(thaw(extra))
        for key, value in extra.items():
            self.policy.refuse(
                f"cannot carry the field {key!r} of a {self.provider} request",
                f"{path}.extra.{key}",
                value,
            )
        return {}

    def raw(self, tool: RawBlock, path: str) -> Any:
        """A raw tool entry, written as it was when it is the target's own; else refused."""
        if self.own:
            return thaw(tool.data)
        self.policy.refuse(f"cannot carry a tool of a {self.provider} request", path, tool.data)
        return None


ReadTools = Callable[[list[Any]], tuple[Tool, ...]]
"""The tools of a wire array, one per entry (raw where not a plain function)."""
WriteTools = Callable[[tuple[Tool, ...], Writer], list[Any]]
ReadChoice = Callable[[Any], ToolChoice | None]
"""The choice, or ``None`` when the wire value is not one this reads (kept in extra)."""
WriteChoice = Callable[[ToolChoice, Writer], Any]


class Spelling:
    """Where one provider's request body keeps each setting.

    ``conversation`` names the keys the conversation is in (never settings); ``keys`` the
    seven places of model, token limit, temperature, top_p, stop sequences, tools and tool
    choice, in that order, dotted where nested (``generationConfig.topP``), ``-`` where the
    API has none; ``tools`` and ``choice`` how its tool entries and choice read and write.
    A token limit the API takes under more than one key lists them ``|``-separated, the
    first read (and written) before the others; ``stop_string``: a lone string is a stop
    sequence too. Which other spelling a body used is kept in ``RequestSettings.spelled``.
    """

    __slots__ = (
        "choice",
        "choice_needs_tools",
        "conversation",
        "empty_tools",
        "limits",
        "max_tokens",
        "model",
        "name",
        "read_choice",
        "read_tools",
        "sampling",
        "stop",
        "stop_string",
        "temperature",
        "temperature_max",
        "tools",
        "top_p",
        "write_choice",
        "write_tools",
    )

    def __init__(
        self,
        name: str,
        conversation: str,
        keys: str,
        tools: tuple[ReadTools, WriteTools],
        choice: tuple[ReadChoice, WriteChoice],
        *,
        temperature_max: float = 2.0,
        empty_tools: bool = True,
        choice_needs_tools: bool = False,
        sampling: bool = True,
        stop_string: bool = False,
    ) -> None:
        self.name = name
        self.conversation = frozenset(conversation.split())
        places = keys.split()
        paths = [tuple(k.split(".")) for k in places]
        self.model, _, self.temperature, self.top_p, stop, *_ = paths
        self.limits = tuple(tuple(k.split(".")) for k in places[1].split("|"))
        """Each place of the token limit, the first the one this API documents."""
        self.max_tokens = self.limits[0]
        self.tools, self.choice = paths[5], paths[6]
        self.stop: Path | None = None if stop == ("-",) else stop
        self.stop_string = stop_string
        self.read_tools, self.write_tools = tools
        self.read_choice, self.write_choice = choice
        self.temperature_max = temperature_max
        self.empty_tools = empty_tools
        """Whether the API takes an empty tool list (Converse and Chat do not)."""
        self.choice_needs_tools = choice_needs_tools
        """Whether the API refuses a tool choice without tools (Converse, Chat)."""
        self.sampling = sampling
        """Whether the API takes ``temperature``/``top_p`` at all (Anthropic's current
        version does not: they are written back only to a body they were read from)."""


# ------------------------------------------------------------------------------ reading


def _is_int(v: Any) -> bool:
    return type(v) is int


def _is_number(v: Any) -> bool:
    return type(v) is int or type(v) is float


def _is_str(v: Any) -> bool:
    return type(v) is str


def _is_strings(v: Any) -> bool:
    return type(v) is list and all(type(s) is str for s in v)


def _peek(body: dict[str, Any], path: Path) -> Any:
    here: Any = body
    for key in path:
        if type(here) is not dict or key not in here:
            return None
        here = here[key]
    return here


def _remove(body: dict[str, Any], path: Path) -> None:
    """Take the value at ``path`` out; a nested object it empties goes too."""
    parents = [body]
    for key in path[:-1]:
        parents.append(parents[-1][key])
    del parents[-1][path[-1]]
    for depth in range(len(path) - 1, 0, -1):
        if parents[depth]:
            break
        del parents[depth - 1][path[depth - 1]]


def _take(body: dict[str, Any], path: Path | None, fits: Callable[[Any], bool]) -> Any:
    if path is None:
        return None
    value = _peek(body, path)
    if value is None or not fits(value):
        return None
    _remove(body, path)
    return value


def read_settings(body: Any, spelling: Spelling) -> RequestSettings:
    """The settings of a request body (see the module docstring)."""
    rest = copy_body(body, spelling.name)
    for key in spelling.conversation:
        rest.pop(key, None)
    spelled: dict[str, str] = {}
    model = _take(rest, spelling.model, _is_str)
    max_tokens = None
    for place in spelling.limits:
        max_tokens = _take(rest, place, _is_int)
        if max_tokens is not None:
            if place != spelling.max_tokens:
                spelled["max_tokens"] = ".".join(place)
            break
    temperature = _take(rest, spelling.temperature, _is_number)
    top_p = _take(rest, spelling.top_p, _is_number)
    stop = _take(rest, spelling.stop, _is_strings)
    if stop is None and spelling.stop_string:
        stop = _take(rest, spelling.stop, _is_str)
        if stop is not None:
            stop, spelled["stop"] = [stop], "string"
    tools = None
    wire_tools = _peek(rest, spelling.tools)
    if type(wire_tools) is list and (wire_tools or spelling.empty_tools):
        tools = spelling.read_tools(wire_tools)
        _remove(rest, spelling.tools)
    choice = None
    wire_choice = _peek(rest, spelling.choice)
    if wire_choice is not None:
        choice = spelling.read_choice(wire_choice)
        if choice is not None:
            _remove(rest, spelling.choice)
    return RequestSettings(
        model=model,
        max_tokens=max_tokens,
        temperature=temperature,
        top_p=top_p,
        stop=tuple(stop) if stop is not None else None,
        tools=tools,
        tool_choice=choice,
        provider=spelling.name,
        spelled=spelled,
        extra=rest,
    )


def tool_fields(
    entry: Any, name: str, description: str, schema: str, strict: str | None = "strict"
) -> ToolDefinition | None:
    """A definition from a wire object spelling its fields with these keys.

    ``None`` when a field has the wrong shape: the entry is then kept raw.
    """
    if type(entry) is not dict or type(entry.get(name)) is not str:
        return None
    said = entry.get(description)
    params = entry.get(schema)
    flag = entry.get(strict) if strict is not None else None
    if (
        (description in entry and type(said) is not str)
        or (schema in entry and type(params) is not dict)
        or (strict is not None and strict in entry and type(flag) is not bool)
    ):
        return None
    known = {name, description, schema, *((strict,) if strict else ())}
    return ToolDefinition(
        entry[name],
        description=said,
        input_schema=params,
        strict=flag,
        extra={k: v for k, v in entry.items() if k not in known},
    )


# ------------------------------------------------------------------------------ writing

_ANTHROPIC_SAMPLING: Final = "the Anthropic API takes no {} (since version 2026-10-21)"


def _put(out: dict[str, Any], path: Path, value: Any, policy: Policy, where: str) -> None:
    here = out
    for key in path[:-1]:
        inner = here.setdefault(key, {})
        if type(inner) is not dict:
            policy.refuse(f"{'.'.join(path[:-1])} is not an object in extra", where, inner)
            return
        here = inner
    given = here.get(path[-1])
    if path[-1] in here and given != value:
        policy.refuse(f"extra sets {'.'.join(path)} too", f"settings.extra.{path[0]}", given)
    here[path[-1]] = value


def _sampling(
    out: dict[str, Any],
    spelling: Spelling,
    *,
    settings: RequestSettings,
    policy: Policy,
    field: str,
    path: Path,
    top: float,
) -> None:
    value = getattr(settings, field)
    if value is None:
        return
    where = f"settings.{field}"
    if settings.provider != spelling.name:
        if not spelling.sampling:
            policy.refuse(_ANTHROPIC_SAMPLING.format(field), where, value)
            return
        if not 0 <= value <= top:
            policy.refuse(f"{spelling.name} takes a {field} from 0 to {top}", where, value)
            return
    _put(out, path, value, policy, where)


def write_settings(
    body: dict[str, Any],
    settings: RequestSettings | None,
    policy: Policy,
    spelling: Spelling,
    limit: str | None = None,
) -> dict[str, Any]:
    """``body`` (the conversation keys) with the settings written around it.

    ``limit``: the key of the token limit when the settings were not read from this
    provider (a Chat dialect's); a body's own settings keep the key they came under.
    """
    if settings is None:
        return body
    if not isinstance(settings, RequestSettings):
        raise EncodeError(
            f"expected RequestSettings, found {type_name(settings)}",
            path="settings",
            source=spelling.name,
            value=settings,
        )
    own = settings.provider in (None, spelling.name)
    writer = Writer(policy, own, settings.provider)
    out = writer.keys(settings.extra, "settings")
    for key in spelling.conversation & out.keys():
        policy.refuse(f"extra sets {key!r}, which the conversation writes", "settings.extra", key)
        del out[key]
    if settings.model is not None:
        _put(out, spelling.model, settings.model, policy, "settings.model")
    mine = settings.provider == spelling.name
    spelled = settings.spelled if mine else {}
    if settings.max_tokens is not None:
        place = spelling.max_tokens if mine or limit is None else (limit,)
        said = spelled.get("max_tokens")
        place = next((p for p in spelling.limits if ".".join(p) == said), place)
        _put(out, place, settings.max_tokens, policy, "settings.max_tokens")
    _sampling(
        out,
        spelling,
        settings=settings,
        policy=policy,
        field="temperature",
        path=spelling.temperature,
        top=spelling.temperature_max,
    )
    _sampling(
        out,
        spelling,
        settings=settings,
        policy=policy,
        field="top_p",
        path=spelling.top_p,
        top=1.0,
    )
    if settings.stop is not None:
        if spelling.stop is None:
            policy.refuse(f"{spelling.name} has no stop sequences", "settings.stop", settings.stop)
        else:
            lone = spelled.get("stop") == "string" and len(settings.stop) == 1
            stop = settings.stop[0] if lone else list(settings.stop)
            _put(out, spelling.stop, stop, policy, "settings.stop")
    if settings.tools is not None:
        tools = spelling.write_tools(settings.tools, writer)
        if tools or (spelling.empty_tools and not settings.tools):
            _put(out, spelling.tools, tools, policy, "settings.tools")
    alone = not _peek(out, spelling.tools) and not mine
    if settings.tool_choice is not None and alone and spelling.choice_needs_tools:
        policy.refuse(
            f"{spelling.name} takes a tool choice only with tools",
            "settings.tool_choice",
            settings.tool_choice.mode,
        )
    elif settings.tool_choice is not None:
        choice = spelling.write_choice(settings.tool_choice, writer)
        if choice is not None:
            _put(out, spelling.choice, choice, policy, "settings.tool_choice")
    return {**out, **body}


def plain_schema(definition: ToolDefinition) -> dict[str, Any]:
    """The arguments' schema as plain JSON (an empty object schema when it has none).

    For the APIs that require a schema on every definition.
    """
    if definition.input_schema is None:
        return {"type": "object", "properties": {}}
    schema = thaw(definition.input_schema)
    assert isinstance(schema, dict)
    return schema


def schema_or_none(definition: ToolDefinition) -> dict[str, Any] | None:
    """The arguments' schema as plain JSON, or ``None``."""
    return None if definition.input_schema is None else plain_schema(definition)


def each_tool(
    tools: tuple[Tool, ...],
    writer: Writer,
    write: Callable[[ToolDefinition, str], Any],
) -> list[Any]:
    """Each tool written: definitions by ``write``, raw entries as they were (or refused)."""

    def one(tool: Tool, raws: Writer, where: str) -> Any:
        return write(tool, where) if isinstance(tool, ToolDefinition) else raws.raw(tool, where)

    return encode_each(enumerate(tools), one, writer, "settings.tools")


def definition_keys(
    definition: ToolDefinition,
    writer: Writer,
    where: str,
    *,
    name: str,
    description: str,
    schema: str | None,
    strict: str | None = "strict",
    required_schema: bool = False,
    name_as: Callable[[str], str] = str,
) -> dict[str, Any]:
    """A definition as a wire object with these keys.

    ``strict``/``schema`` ``None``: the API has none, and a definition that sets it is
    refused there.
    """
    out: dict[str, Any] = {name: name_as(definition.name)}
    if definition.description is not None:
        out[description] = definition.description
    if schema is not None:
        given = plain_schema(definition) if required_schema else schema_or_none(definition)
        if given is not None:
            out[schema] = given
    if definition.strict is not None:
        if strict is None:
            writer.policy.refuse(
                "this API has no strict tool definitions", f"{where}.strict", definition.strict
            )
        else:
            out[strict] = definition.strict
    for key, value in writer.keys(definition.extra, where).items():
        out.setdefault(key, value)
    return out

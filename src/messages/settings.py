"""Request settings: what a request asks of the model besides the conversation.

A provider request body holds the conversation (``messages``, ``contents``, ``input``...)
and settings around it: the model, how many tokens to write, sampling, stop sequences, the
tools the model may call and whether it must call one. :class:`RequestSettings` holds those
in one shape for every provider; each provider module reads them with
``decode_settings(body)`` and writes them with ``encode_request(..., settings=...)``
(``docs/providers/index.md`` has the table of wire keys). Everything else of the body is
kept verbatim in ``extra``, so a body read and written back by the same provider is the
same JSON.

>>> from messages.providers import anthropic, openai_chat
>>> settings = anthropic.decode_settings({
...     "model": "claude-x", "max_tokens": 512, "messages": [],
...     "tools": [{"name": "now", "input_schema": {"type": "object"}}],
...     "tool_choice": {"type": "any"},
... })
>>> settings.max_tokens, settings.tools[0].name, settings.tool_choice.mode
(512, 'now', 'any')
>>> body = openai_chat.encode_request([], settings=settings)
>>> body["max_completion_tokens"], body["tool_choice"], body["tools"][0]["function"]["name"]
(512, 'required', 'now')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY
from dataclasses import dataclass
from typing import ClassVar
from typing import Final
from typing import Literal
from typing import TypeAlias
from typing import final

from ._core.fields import compact_repr
from ._core.fields import compared
from ._core.fields import freeze_map
from ._core.fields import freeze_opt_map
from ._core.fields import freeze_tuple
from ._core.frozen import EMPTY
from ._core.frozen import JsonValue
from .blocks import RawBlock
from .errors import DecodeError

__all__ = ["RequestSettings", "TOOL_MODES", "Tool", "ToolChoice", "ToolDefinition", "ToolMode"]

ToolMode: TypeAlias = Literal["auto", "any", "none", "tool"]
"""Whether the model may call a tool (``auto``), must call one (``any``; OpenAI
``required``, Gemini ``ANY``), must not (``none``), or must call the one named (``tool``)."""

TOOL_MODES: Final = ("auto", "any", "none", "tool")
"""Every :data:`ToolMode`."""


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ToolDefinition:
    """A function the model may call: its name, what it does and its arguments' JSON schema.

    >>> ToolDefinition("get_weather", description="Weather in a city",
    ...                input_schema={"type": "object"}).input_schema["type"]
    'object'
    """

    kind: ClassVar[Literal["tool_definition"]] = "tool_definition"
    name: str
    """The name the model calls it by (the calls' ``ToolUseBlock.name``)."""
    _: KW_ONLY
    description: str | None = None
    """What it does, for the model."""
    input_schema: Mapping[str, JsonValue] | None = None
    """The JSON schema of its arguments (Anthropic ``input_schema``, OpenAI ``parameters``,
    Gemini ``parametersJsonSchema``, Bedrock ``inputSchema.json``); ``None`` when it has none."""
    strict: bool | None = None
    """Whether the arguments must follow the schema exactly (OpenAI, Anthropic and Bedrock
    ``strict``); ``None`` when the definition does not say."""
    extra: Mapping[str, JsonValue] = EMPTY
    """Wire fields of the definition this class does not model, kept for exact replay."""

    __repr__ = compact_repr

    def __post_init__(self) -> None:
        freeze_opt_map(self, "input_schema")
        freeze_map(self, "extra")


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ToolChoice:
    """Whether the model may, must or must not call a tool, or which one it must call.

    >>> ToolChoice("tool", name="get_weather")
    ToolChoice(mode='tool', name='get_weather')
    """

    kind: ClassVar[Literal["tool_choice"]] = "tool_choice"
    mode: ToolMode
    """See :data:`ToolMode`."""
    _: KW_ONLY
    name: str | None = None
    """The tool the model must call, when ``mode`` is ``"tool"``."""
    extra: Mapping[str, JsonValue] = EMPTY
    """Wire fields of the choice this class does not model (Anthropic
    ``disable_parallel_tool_use``, Gemini ``allowedFunctionNames``...), kept for exact replay."""

    def __post_init__(self) -> None:
        if self.mode not in TOOL_MODES:
            raise DecodeError(
                f"expected one of {', '.join(TOOL_MODES)}, found {self.mode!r}",
                path="$.mode",
                value=self.mode,
            )
        freeze_map(self, "extra")

    __repr__ = compact_repr


Tool: TypeAlias = ToolDefinition | RawBlock
"""An entry of :attr:`RequestSettings.tools`: a function, or a tool this library does not
model (a server tool such as web search, a cache point) kept verbatim."""


@final
@compared
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class RequestSettings:
    """The settings of a request besides its conversation, for any provider.

    Every field is ``None`` when the body does not set it; ``extra`` keeps every other key
    of the body (``stream``, ``thinking``, ``generationConfig.thinkingConfig``...) as the
    provider named by ``provider`` spelled it.

    >>> RequestSettings(model="gpt-x", max_tokens=256, stop=["END"]).stop
    ('END',)
    """

    kind: ClassVar[Literal["request_settings"]] = "request_settings"
    _: KW_ONLY
    model: str | None = None
    """The model asked for (Bedrock ``modelId``)."""
    max_tokens: int | None = None
    """The most tokens to write (Chat ``max_completion_tokens`` or ``max_tokens``, Responses
    ``max_output_tokens``, Gemini ``maxOutputTokens``, Bedrock ``maxTokens``)."""
    temperature: float | None = None
    """Sampling temperature, exactly as given (an integer stays one)."""
    top_p: float | None = None
    """Nucleus sampling (Gemini and Bedrock ``topP``)."""
    stop: tuple[str, ...] | None = None
    """Stop sequences (Anthropic ``stop_sequences``, Chat ``stop``: an array, or one string
    read as a one-element tuple)."""
    tools: tuple[Tool, ...] | None = None
    """The tools the model may call, in order; ``()`` when the body sends an empty list."""
    tool_choice: ToolChoice | None = None
    """Whether and which tool the model must call."""
    provider: str | None = None
    """The provider whose request these settings were read from: ``extra``, raw tools and
    the unmodelled fields of definitions and choice are that provider's keys. ``None`` (made
    by hand): they are taken as the target's own."""
    spelled: Mapping[str, JsonValue] = EMPTY
    """How ``provider``'s body spelled a setting its API takes more than one way, so that
    body goes back exactly: ``{"max_tokens": "max_tokens"}`` for a Chat limit under the
    older key, ``{"stop": "string"}`` for a Chat ``stop`` given as one string. Only that
    provider reads it; written to another, a setting takes the target's own spelling."""
    extra: Mapping[str, JsonValue] = EMPTY
    """Every other key of the body, kept verbatim (nested objects such as Gemini's
    ``generationConfig`` hold what is left of them)."""

    def __post_init__(self) -> None:
        freeze_tuple(self, "stop")
        freeze_tuple(self, "tools")
        tools = self.tools
        if tools is not None and not all(type(t) in (ToolDefinition, RawBlock) for t in tools):
            bad = next(t for t in tools if type(t) not in (ToolDefinition, RawBlock))
            raise DecodeError(
                f"expected a ToolDefinition or RawBlock, found {type(bad).__name__}",
                path="$.tools",
                value=bad,
            )
        freeze_map(self, "spelled")
        freeze_map(self, "extra")

    __repr__ = compact_repr

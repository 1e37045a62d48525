"""Agent CLI adapters: one module per source, one shared surface, and a registry.

Every adapter module satisfies :class:`Adapter`: ``NAME``, ``decode(obj) -> Message``,
``encode(message, *, unsupported="raise")`` (``None`` when ``"drop"`` leaves nothing to
write), ``detect(obj) -> bool``, ``iter_decode(lines, *, strict=False)``,
``iter_encode(messages, *, unsupported="raise")`` and ``merge(messages)``; ``_base`` holds
the line-reading rules they share. ``native`` is this library's own JSON Lines behind the
same surface. See docs/adapters/index.md.

The registry finds an adapter by name or by a sample line; importing this package imports
no adapter, each one is loaded on first use.

>>> NAMES  # doctest: +NORMALIZE_WHITESPACE
('claude_code', 'codex', 'gemini_cli', 'opencode', 'copilot', 'acp', 'gemini_session',
 'qwen_code', 'pi', 'cursor', 'cline', 'opencode_storage', 'amp', 'goose', 'droid', 'kimi',
 'kilo', 'copilot_otel', 'hermes', 'codebuff', 'grok', 'zcode', 'native')
>>> get("codex").NAME
'codex'
>>> detect({"type": "thread.started", "thread_id": "t1"})
'codex'
>>> detect({"v": 1, "kind": "text", "text": "hi"})
'native'
>>> detect({"hello": "world"}) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from importlib import import_module
from typing import TYPE_CHECKING
from typing import Any
from typing import Final
from typing import Protocol
from typing import cast

from ..errors import MessagesError

if TYPE_CHECKING:
    from ..message import Message
    from ..policy import Unsupported

__all__ = [
    "Adapter",
    "CLI_NAMES",
    "NAMES",
    "READ_ONLY",
    "UnknownFormatError",
    "detect",
    "get",
    "prepare",
]

CLI_NAMES: Final = (
    "claude_code",
    "codex",
    "gemini_cli",
    "opencode",
    "copilot",
    "acp",
    "gemini_session",
    "qwen_code",
    "pi",
    "cursor",
    "cline",
    "opencode_storage",
    "amp",
    "goose",
    "droid",
    "kimi",
    "kilo",
    "copilot_otel",
    "hermes",
    "codebuff",
    "grok",
    "zcode",
)
"""The agent CLI adapters, in the order :func:`detect` asks them."""

NAMES: Final = (*CLI_NAMES, "native")
"""Every format name :func:`get` accepts: the agent CLIs, then ``native``."""

READ_ONLY: Final = ("copilot_otel", "hermes", "codebuff", "zcode")
"""Formats that are read, not written: their ``encode`` gives back only what was read from
them (a telemetry file, a database's rows, a chat file) and refuses anything else, so
``messages convert --to`` one of them writes only records read from it."""


class Adapter(Protocol):
    """The surface every adapter module has (a module satisfies it structurally).

    One wire line is one JSON value (``obj``); one decoded line is one message, kept whole
    so that ``encode(decode(obj))`` gives ``obj`` back. Content a format cannot carry goes
    through the loss policy of :mod:`messages.policy` (``unsupported``).
    """

    NAME: str
    """The format name: the key in :data:`NAMES`, and the ``source`` of errors."""

    def decode(self, obj: Any) -> Message:
        """One wire object (parsed JSON) to one message; bad shapes raise DecodeError."""
        ...

    def encode(self, message: Message, *, unsupported: Unsupported = "raise") -> Any:
        """One message to a fresh wire object: ``encode(decode(obj)) == obj``.

        Content the format cannot carry raises :class:`~messages.UnsupportedContentError`
        unless ``unsupported`` is ``"drop"`` (the result may then be ``None``) or ``"text"``.
        """
        ...

    def detect(self, obj: Any) -> bool:
        """Whether a parsed line looks like this source's output (never raises)."""
        ...

    def iter_decode(
        self, lines: Iterable[str | bytes], *, strict: bool = False
    ) -> Iterator[Message]:
        """Decode a stream of lines lazily; a bad line becomes an InvalidLineMessage.

        With ``strict`` a bad line raises :class:`~messages.DecodeError` with its ``line``.
        """
        ...

    def iter_encode(
        self, messages: Iterable[Message], *, unsupported: Unsupported = "raise"
    ) -> Iterator[str]:
        """Encode messages lazily, one wire line (no line ending) at a time.

        An InvalidLineMessage gives back its text; a role message the format writes as
        several events is split into one event per block.
        """
        ...

    def merge(self, messages: Iterable[Message]) -> Iterator[Message]:
        """Join the source's fragments (deltas, split records) into whole messages, lazily."""
        ...


class UnknownFormatError(MessagesError, LookupError):
    """:func:`get` was given a name that is not in :data:`NAMES`."""


def get(name: str) -> Adapter:
    """The adapter module called ``name``, imported on first use.

    >>> get("gemini")
    Traceback (most recent call last):
    ...
    messages.adapters.UnknownFormatError: unknown format 'gemini'; expected one of: claude_code, codex, gemini_cli, opencode, copilot, acp, gemini_session, qwen_code, pi, cursor, cline, opencode_storage, amp, goose, droid, kimi, kilo, copilot_otel, hermes, codebuff, grok, zcode, native
    """  # noqa: E501
    found = _LOADED.get(name)
    if found is not None:  # detection asks every adapter for every raw line: no import call
        return found
    if name not in NAMES:
        raise UnknownFormatError(f"unknown format {name!r}; expected one of: {', '.join(NAMES)}")
    found = _LOADED[name] = cast("Adapter", import_module(f"{__name__}.{name}"))
    return found


_LOADED: dict[str, Adapter] = {}
"""The adapters :func:`get` has imported, by name."""


def detect(obj: Any) -> str | None:
    """The name of the format a parsed line belongs to, or ``None`` if no adapter claims it.

    Native lines (an object with ``"v"``, 1 or 2, and a ``"kind"``) are recognised first; no
    agent CLI adapter claims them. Otherwise each adapter in :data:`CLI_NAMES` is asked in
    turn.
    """
    from ._base import is_native

    if is_native(obj):
        return "native"
    if type(obj) is not dict and type(obj) is not list:  # a list: a whole-file JSON array
        return None
    for name in CLI_NAMES:
        if get(name).detect(obj):
            return name
    return None


def prepare(
    messages: Iterable[Message],
    *,
    source: str,
    target: str,
    unsupported: Unsupported = "raise",
) -> Iterator[Message]:
    """Messages decoded from ``source``, made ready for ``get(target).iter_encode``, lazily.

    Between two formats, each message's ``extra`` (the source's wire fields) is left behind,
    and a record the source kept whole (a role-less raw line, a stream event, a bad line)
    crosses only when the target's own ``detect`` recognises it; any other follows the loss
    policy like content the target cannot carry: refused (``"raise"``:
    :class:`~messages.UnsupportedContentError`), left out (``"drop"``), or, for a raw line,
    written as assistant text in :func:`messages.policy.describe`'s words (``"text"``). So
    every line the target writes is one of its own. With ``source == target`` the messages
    pass through untouched (an exact round trip). The ``messages convert`` command does this.

    >>> summary = {"type": "summary", "summary": "Fix the parser", "leafUuid": "u1"}
    >>> from messages import RawMessage, TextMessage
    >>> stream = [RawMessage(summary), TextMessage("Done.", extra={"type": "assistant"})]
    >>> list(prepare(stream, source="claude_code", target="codex", unsupported="drop"))
    [TextMessage(text='Done.')]
    >>> list(prepare(stream, source="claude_code", target="codex", unsupported="text"))[0].text
    '[summary]'
    """
    from ..policy import Policy
    from ._crossing import prepare as run

    if source == target:
        return iter(messages)
    get(source)  # an unknown name is an error here, not later
    return run(messages, source, get(target), Policy(unsupported, target))

"""Agent CLI adapters: one module per source, one shared surface, and a registry.

Every adapter module exposes ``NAME``, ``decode(obj) -> Message``,
``encode(message, *, unsupported="raise")`` (``None`` when ``"drop"`` leaves nothing to
write), ``detect(obj) -> bool``, ``iter_decode(lines, *, strict=False)``,
``iter_encode(messages, *, unsupported="raise")`` and ``merge(messages)``; see ``_base`` for
the line-reading rules they share and :class:`~messages.adapters._base.Adapter` for the
protocol. ``native`` is this library's own JSON Lines behind the same surface.

The registry finds an adapter by name or by a sample line; importing this package imports
no adapter, each one is loaded on first use.

>>> NAMES
('claude_code', 'codex', 'gemini_cli', 'opencode', 'copilot', 'acp', 'native')
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

from importlib import import_module
from typing import TYPE_CHECKING, Any, Final, cast

if TYPE_CHECKING:
    from ._base import Adapter

__all__ = ["CLI_NAMES", "NAMES", "UnknownFormatError", "detect", "get"]

CLI_NAMES: Final = ("claude_code", "codex", "gemini_cli", "opencode", "copilot", "acp")
"""The agent CLI adapters, in the order :func:`detect` asks them."""

NAMES: Final = (*CLI_NAMES, "native")
"""Every format name :func:`get` accepts: the agent CLIs, then ``native``."""


class UnknownFormatError(LookupError):
    """:func:`get` was given a name that is not in :data:`NAMES`."""


def get(name: str) -> Adapter:
    """The adapter module called ``name``, imported on first use.

    >>> get("gemini")
    Traceback (most recent call last):
    ...
    messages.adapters.UnknownFormatError: unknown format 'gemini'; expected one of: claude_code, codex, gemini_cli, opencode, copilot, acp, native
    """  # noqa: E501
    if name not in NAMES:
        raise UnknownFormatError(f"unknown format {name!r}; expected one of: {', '.join(NAMES)}")
    return cast("Adapter", import_module(f"{__name__}.{name}"))


def _is_native(obj: Any) -> bool:
    return type(obj) is dict and obj.get("v") == 1 and type(obj.get("kind")) is str


def detect(obj: Any) -> str | None:
    """The name of the format a parsed line belongs to, or ``None`` if no adapter claims it.

    Native lines (an object with ``"v": 1`` and a ``"kind"``) are recognised without loading
    any adapter; otherwise each adapter in :data:`CLI_NAMES` is asked in turn.
    """
    if _is_native(obj):
        return "native"
    if type(obj) is not dict:
        return None
    for name in CLI_NAMES:
        if get(name).detect(obj):
            return name
    return None

"""Provider API codecs: one module per API, one shared surface, and a registry.

Every provider module exposes ``NAME``,
``encode_request(conversation, *, unsupported=..., settings=...)``, ``decode_request(body)``,
``decode_settings(body)``, ``decode_response(body)``, ``encode_response(message)`` and
``accumulator()``; the :class:`Provider` protocol names that surface and
:class:`Accumulator` the stream reassembler. ``docs/providers/index.md`` describes them,
with the rules every encoder follows when a conversation came from another provider or from
an agent log.

Importing this package imports no codec: :func:`get` loads each one on first use, and the
two protocols load when first named.

>>> NAMES
('anthropic', 'openai_chat', 'openai_responses', 'gemini', 'bedrock')
>>> get("gemini").NAME
'gemini'
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING
from typing import Any
from typing import Final
from typing import cast

from ..errors import MessagesError

if TYPE_CHECKING:
    from ._protocols import Accumulator
    from ._protocols import Provider

__all__ = ["Accumulator", "NAMES", "Provider", "UnknownProviderError", "get"]

NAMES: Final = ("anthropic", "openai_chat", "openai_responses", "gemini", "bedrock")
"""Every provider name :func:`get` accepts."""


class UnknownProviderError(MessagesError, LookupError):
    """:func:`get` was given a name that is not in :data:`NAMES`."""


def get(name: str) -> Provider:
    """The provider codec module called ``name``, imported on first use.

    >>> get("openai")
    Traceback (most recent call last):
    ...
    messages.providers.UnknownProviderError: unknown provider 'openai'; expected one of: anthropic, openai_chat, openai_responses, gemini, bedrock
    """  # noqa: E501
    if name not in NAMES:
        raise UnknownProviderError(
            f"unknown provider {name!r}; expected one of: {', '.join(NAMES)}"
        )
    return cast("Provider", import_module(f"{__name__}.{name}"))


def __getattr__(name: str) -> Any:
    """The protocols, loaded on first use (importing the package stays free of codecs)."""
    if name in ("Accumulator", "Provider"):
        from . import _protocols

        return getattr(_protocols, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names and the codec modules."""
    return sorted({*__all__, *NAMES})

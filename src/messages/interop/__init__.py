"""Bridges to other Python libraries' message objects: one module per library.

Every bridge module has the same small surface:

- ``to_messages(objects) -> list[Message]``: the library's objects (a conversation, or a
  stream of them) as messages of this library;
- ``from_messages(messages, *, unsupported="raise") -> list[...]``: messages of this
  library as the library's objects. Content the library cannot carry follows the one loss
  policy: ``"raise"`` (:class:`~messages.UnsupportedContentError`, the default),
  ``"drop"``, or ``"text"`` (a short text describing it, the same words as every codec);
- ``NAME`` (used in errors) and ``VERSIONS`` (what the bridge was tested against).

Bad input (an object that is not one of theirs, a half-built one) raises
:class:`~messages.DecodeError` or :class:`~messages.EncodeError` with a path such as
``$[3].content[1]``. Each module imports its library only when one of its functions runs,
so ``import messages.interop.langchain`` costs nothing until it is used; install the
library with the matching extra (``pip install "messages[langchain]"``).

============================  ======================  =========================
module                        library                 extra
============================  ======================  =========================
``interop.claude_agent_sdk``  ``claude-agent-sdk``    ``claude-agent-sdk``
``interop.langchain``         ``langchain-core``      ``langchain``
``interop.pydantic_ai``       ``pydantic-ai-slim``    ``pydantic-ai``
``interop.mcp``               ``mcp``                 ``mcp``
``interop.otel``              (none: plain JSON)      (none)
============================  ======================  =========================

See docs/interop.md for the mapping tables.
"""

from __future__ import annotations

__all__ = ["MODULES"]

MODULES = ("claude_agent_sdk", "langchain", "pydantic_ai", "mcp", "otel")
"""The bridge modules, by the name to import them under ``messages.interop``."""

"""Gemini CLI ``gemini -p ... --output-format stream-json``: one JSON event per line.

Every event has a ``type`` and an ISO ``timestamp``. The mapping (see
``docs/adapters/gemini_cli.md`` for the full table):

- ``init`` -> :class:`InitMessage` (``session_id``, ``model``);
- ``message`` -> :class:`TextMessage` with the event's ``role``; assistant chunks carry
  ``"delta": true`` (kept in ``extra``), which :func:`merge` joins;
- ``tool_use`` -> :class:`ToolUseMessage` (``tool_id``, ``tool_name``, ``parameters``);
- ``tool_result`` -> :class:`ToolResultMessage` (``status`` gives ``is_error``, ``output`` the
  content; the ``error`` object stays in ``extra``);
- ``error`` -> :class:`ErrorMessage` (``severity`` stays in ``extra``; an ``error`` line
  without one is no Gemini CLI event, and stays a :class:`RawMessage`);
- ``result`` -> :class:`ResultMessage` (``status`` as ``subtype``, ``stats`` as
  :class:`Usage` and ``duration_ms``);
- any other type -> :class:`RawMessage`, kept verbatim.

The CLI also prints non-JSON warnings on stdout: :func:`iter_decode` turns them into
:class:`InvalidLineMessage` and goes on.

>>> m = decode({"type": "tool_use", "tool_name": "ls", "tool_id": "ls-1", "parameters": {}})
>>> m.name, m.id
('ls', 'ls-1')
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any

from ..._core.frozen import thaw
from ...flat import TextMessage
from ...message import Message
from ...policy import Policy
from ...policy import Unsupported
from .. import _base
from .. import _events as ev
from . import document as doc
from .decoder import NAME
from .decoder import _read
from .decoder import decode
from .encoder import _encode
from .encoder import encode

__all__ = [
    "NAME",
    "decode",
    "detect",
    "encode",
    "iter_decode",
    "iter_encode",
    "merge",
    "tool_counts",
]


def detect(obj: Any) -> bool:
    """Whether a parsed line is a Gemini CLI stream-json event.

    Precise on purpose: Claude Code, Codex, OpenCode and Copilot lines share some type names
    (``result``, ``error``, ``tool_use``) but not the keys checked here.
    """
    if type(obj) is not dict or _base.is_native(obj):
        return False
    tag = obj.get("type")
    if tag is None:
        return doc.is_document(obj)
    if tag == "init":
        return "subtype" not in obj
    if tag == "message":
        return "role" in obj and "content" in obj
    if tag in ("tool_use", "tool_result"):
        return "tool_id" in obj
    if tag == "error":
        return "severity" in obj
    if tag == "result":
        return "status" in obj and "subtype" not in obj and "exitCode" not in obj
    return False


def iter_decode(lines: Iterable[str | bytes], *, strict: bool = False) -> Iterator[Message]:
    """Decode a stream lazily; non-JSON lines (CLI warnings) become InvalidLineMessage.

    A JSON document (``--output-format json``, one object, often over many lines) gives its
    parts: the answer, a result per model, the error, the run (see the module docstring).
    """
    return _base.iter_decode(_read, lines, source=NAME, strict=strict)


def _joined(messages: Iterable[Message]) -> Iterator[Message | dict[str, Any]]:
    """Messages, with each run of JSON-document parts put back together as one object."""
    held: list[Message] = []
    for m in messages:
        found = doc.part_of(m) if m.extra and doc.KEY in m.extra else None
        if found is not None and found[0] in ("response", "model", "error"):
            held.append(m)
            continue
        if found is not None and found[0] == "run":
            held.append(m)
            yield doc.encode_parts(held)
            held = []
            continue
        if held:  # parts without their run: the document they make on their own
            yield doc.encode_parts(held)
            held = []
        yield m
    if held:
        yield doc.encode_parts(held)


def iter_encode(
    messages: Iterable[Message], *, unsupported: Unsupported = "raise"
) -> Iterator[str]:
    """Encode messages as wire lines; a role message becomes one event per block.

    The parts of a JSON document (as :func:`iter_decode` gives them) are written back as
    that one object, on one line.
    """
    policy = Policy(unsupported, NAME)

    def one(m: Any) -> Any:
        return m if isinstance(m, dict) else thaw(_encode(m, policy))

    def native(m: Any) -> bool:
        return isinstance(m, dict)

    return ev.lines(_joined(messages), one, native)  # type: ignore[arg-type]


def tool_counts(message: Message) -> dict[str, tuple[int, int]] | None:
    """The ``(calls, failed calls)`` per tool that a JSON document reports, else ``None``.

    Only the run of a ``--output-format json`` document (or the whole document, from a lone
    :func:`decode`) has them: that output holds no tool events, just these counts.

    >>> run = decode({"response": "ok", "stats": {"tools": {"byName": {"ls": {"count": 2, "fail": 1}}}}})
    >>> tool_counts(run)
    {'ls': (2, 1)}
    """  # noqa: E501
    return doc.tool_counts(message)


def _is_delta(m: Message) -> bool:
    return isinstance(m, TextMessage) and m.extra.get("delta") is True


def merge(messages: Iterable[Message]) -> Iterator[Message]:
    """Join runs of ``"delta": true`` message chunks of one role into one TextMessage."""
    return _base.merge_deltas(messages, is_delta=_is_delta)

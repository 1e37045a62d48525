"""OpenCode's wire shapes, in one place for ``opencode`` (its run output) and ``opencode_storage``.

``opencode run --format json`` and OpenCode's store (and Kilo's, which is OpenCode's) write a
reply's usage as the same ``tokens`` object (``input``, ``output``, ``reasoning``, ``cache``
with ``read`` and ``write``) beside a ``cost``, and a tool call as the same ``tool`` part whose
``state`` carries its input and, once it has run, its output or error.
"""

from __future__ import annotations

from typing import Any
from typing import Final

from .._core.frozen import raw
from .._core.wire import opt_int
from .._core.wire import opt_obj
from .._core.wire import present
from .._core.wire import rest
from ..blocks import ToolResultBlock
from ..blocks import ToolUseBlock
from ..policy import Policy
from ..usage import Usage
from . import _events as ev
from ._common import content_text

__all__ = ["tokens_of", "tool_state", "usage_of"]

_TOKENS: Final = frozenset(("input", "output", "reasoning", "cache"))
_CACHE: Final = frozenset(("read", "write"))


def usage_of(
    tokens: dict[str, Any] | None, cost: float | None, at: str
) -> tuple[Usage | None, bool]:
    """Usage from a ``tokens`` object (found at ``at``) and a ``cost``; and whether to mirror it.

    What the object holds beyond the counts goes to the usage's ``extra``. The flag is true
    for an empty ``tokens: {}``, which the usage cannot tell from no object: the caller keeps
    it in its mirror, to write it back.
    """
    if tokens is None:
        return (None if cost is None else Usage(cost_usd=cost)), False
    left = rest(tokens, _TOKENS)
    read = write = None
    cache = opt_obj(tokens, "cache", at)
    if cache is not None:
        read = opt_int(cache, "read", at + ".cache")
        write = opt_int(cache, "write", at + ".cache")
        cache_left = rest(cache, _CACHE)
        if cache_left or (read is None and write is None):
            left["cache"] = cache_left
    usage = Usage(
        opt_int(tokens, "input", at),
        opt_int(tokens, "output", at),
        read,
        write,
        reasoning_tokens=opt_int(tokens, "reasoning", at),
        cost_usd=cost,
        extra=ev.frozen(left),
    )
    return usage, not tokens_of(usage) and not left


def tokens_of(u: Usage) -> dict[str, Any]:
    """A usage value as OpenCode's ``tokens`` object (only the counts it has)."""
    out = present(input=u.input_tokens, output=u.output_tokens, reasoning=u.reasoning_tokens)
    cache = present(read=u.cache_read_tokens, write=u.cache_write_tokens)
    if cache:
        out["cache"] = cache
    return out


def tool_state(use: ToolUseBlock, result: ToolResultBlock | None, policy: Policy) -> dict[str, Any]:
    """A tool part's ``state``: running (its input), else completed or failed with the result."""
    if result is None:
        return {"status": "running", "input": raw(use.input)}
    key = "error" if result.is_error else "output"
    return {
        "status": "error" if result.is_error else "completed",
        "input": raw(use.input),
        key: content_text(result.content, policy),
    }

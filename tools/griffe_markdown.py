"""A Griffe extension for the API reference: the docstrings' reST habits, as Markdown.

The docstrings are written for ``help()`` and doctest: examples are bare ``>>>`` blocks and
names are Sphinx roles (``:func:`~messages.convert.parse_blocks```). mkdocstrings renders
docstrings as Markdown, where a bare doctest runs into one paragraph (and ``[...]`` output
lines read as links) and a role shows its markup. This extension fences each doctest block as
``pycon`` and writes each role as inline code of the name it shows in Sphinx (the last part when
the target starts with ``~``). The source files are not changed.
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension

_ROLE = re.compile(r":(?:func|class|meth|attr|data|mod|exc|obj|const):`(~?)([^`]+)`")


def _role(match: re.Match[str]) -> str:
    target = match[2]
    return f"`{target.rsplit('.', 1)[-1] if match[1] else target}`"


def to_markdown(text: str) -> str:
    """The docstring ``text`` with doctest blocks fenced and Sphinx roles as inline code."""
    out: list[str] = []
    indent: str | None = None  # the doctest block's indentation while inside one
    for line in text.splitlines():
        stripped = line.lstrip()
        if indent is None and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
        elif indent is not None and not stripped:
            out.append(f"{indent}```")
            indent = None
        out.append(line if indent is not None else _ROLE.sub(_role, line))
    if indent is not None:
        out.append(f"{indent}```")
    return "\n".join(out)


class DocstringsAsMarkdown(Extension):
    """Rewrite every docstring with :func:`to_markdown` as Griffe loads it."""

    def on_instance(self, *, obj: Any, **kwargs: Any) -> None:
        """Rewrite the docstring of one loaded object."""
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value)

"""The pieces of the HTML view: escaping, Markdown, times, usage, tool inputs, media.

Every string that comes from a log goes through :func:`esc` (ANSI colour codes and control
characters stripped, then HTML-escaped) or through :func:`markdown` (CommonMark with raw HTML
shown as text); the only markup is written here and in ``_html``. URLs become links
(``rel="noopener noreferrer"``, only ``http``, ``https`` and ``mailto``), never loaded; an
image goes into a ``data:`` URL only with an allowed media type and clean base64.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable
from collections.abc import Mapping
from datetime import UTC
from datetime import datetime
from functools import cache
from html import escape
from typing import Any
from typing import Final

from .._core.frozen import raw
from ..blocks import AudioBlock
from ..blocks import Block
from ..blocks import DocumentBlock
from ..blocks import ImageBlock
from ..blocks import ToolUseBlock
from ..blocks import VideoBlock
from ..media import describe_media
from ..media import media_facts
from ..media import parse_data_uri
from ..usage import Usage
from ._render import clip

__all__ = [
    "CUT_CHARS",
    "CUT_LINES",
    "IMAGE_TYPES",
    "INLINE_IMAGE",
    "KEEP_CHARS",
    "MARKDOWN_MAX",
    "clean",
    "cut",
    "esc",
    "json_text",
    "markdown",
    "markdown_available",
    "media",
    "number",
    "time_tag",
    "timestamp",
    "tool_input",
    "usage_words",
]

IMAGE_TYPES: Final = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
"""Media types an image may have to be shown inline from a ``data:`` URL (never SVG)."""

CUT_LINES: Final = 24
"""A tool's input or output longer than this many lines shows its head and a "Show all"."""
CUT_CHARS: Final = 2400
"""... or longer than this many characters."""
KEEP_CHARS: Final = 200_000
"""At most this many characters of one output go into the page; the rest is named."""
INLINE_IMAGE: Final = 8_000_000
"""Largest base64 text shown as an inline image (larger ones are named only)."""

_ANSI: Final = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
_CONTROL: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")
_BLOB: Final = re.compile(r"[A-Za-z0-9+/=_-]{4000,}")
_BASE64: Final = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_SHELL_WORDS: Final = ("bash", "shell", "exec", "command", "terminal", "run")


def clean(text: str) -> str:
    """``text`` without ANSI escape sequences or control characters (newline and tab kept).

    Lone surrogates become U+FFFD, so the page is valid UTF-8.
    """
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    return _CONTROL.sub(_replace_control, text)


def _replace_control(match: re.Match[str]) -> str:
    return "\ufffd" if match.group() >= "\ud800" else ""


def esc(text: str) -> str:
    """``text`` cleaned (:func:`clean`) and escaped for HTML text and quoted attributes."""
    return escape(clean(text), quote=True)


def _blobs(text: str) -> str:
    """Long base64-like runs in a tool's text named by size instead of shown."""
    if len(text) < 4000:
        return text
    return _BLOB.sub(lambda m: f"[{len(m.group()):,} characters of encoded data left out]", text)


# -- Markdown -------------------------------------------------------------------------------

_SAFE_LINK: Final = re.compile(r"(?i)^(?:https?:|mailto:|#)")


@cache
def _markdown() -> Any:
    try:
        from markdown_it import MarkdownIt
    except ImportError:
        return None
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.validateLink = lambda url: bool(_SAFE_LINK.match(url.strip()))  # type: ignore[method-assign]
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("image", _image_as_link)
    return md


def _link_open(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    tokens[idx].attrSet("rel", "noopener noreferrer")
    return str(self.renderToken(tokens, idx, options, env))


def _image_as_link(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    """A Markdown image becomes a link to it: a page never loads anything by itself."""
    token = tokens[idx]
    alt = self.renderInlineAsText(token.children, options, env) or "image"
    src = str(token.attrGet("src") or "")
    return f'<a href="{esc(src)}" rel="noopener noreferrer">[image: {esc(alt)}]</a>'


def markdown_available() -> bool:
    """Whether ``markdown-it-py`` is installed (the ``view`` extra): Markdown is rendered."""
    return _markdown() is not None


MARKDOWN_MAX: Final = 16_000
"""Longer texts are shown as plain text: markdown-it-py's time grows faster than linearly on
some inputs (a run of ``[`` takes ~0.9 s at 20,000 characters, ~1.8 s at 50,000)."""


def markdown(text: str) -> str:
    """``text`` as HTML: CommonMark with raw HTML shown as text, or escaped plain text.

    Plain text (its tail behind "Show all") without ``markdown-it-py``, or for a text longer
    than :data:`MARKDOWN_MAX` characters.
    """
    md = _markdown()
    if md is None:
        return cut(text, "plain")
    if len(text) > MARKDOWN_MAX:
        note = f'<p class="hint">{number(len(text))} characters: shown as plain text.</p>'
        return f'<div class="plain">{note}{cut(text, "plain")}</div>'
    return f'<div class="md">{md.render(clean(text))}</div>'


# -- small pieces --------------------------------------------------------------------------


def number(value: int | float) -> str:
    return f"{value:,}"


def usage_words(usage: Usage | None, *, cost: bool = True) -> str:
    """``12 in · 3,400 cache read · 80 out``: the figures a usage reports, in words."""
    if usage is None:
        return ""
    words = []
    for value, word in (
        (usage.input_tokens, "in"),
        (usage.cache_read_tokens, "cache read"),
        (usage.cache_write_tokens, "cache write"),
        (usage.output_tokens, "out"),
        (usage.reasoning_tokens, "reasoning"),
    ):
        if value:
            words.append(f"{number(value)} {word}")
    if cost and usage.cost_usd is not None:
        words.append(f"${usage.cost_usd:.4f}")
    return " · ".join(words)


def timestamp(value: object) -> datetime | None:
    """A log's timestamp (ISO text, epoch seconds or milliseconds) as an aware UTC time."""
    try:
        if isinstance(value, str):
            when = datetime.fromisoformat(value.strip())
            return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
        if isinstance(value, int | float) and not isinstance(value, bool):
            seconds = value / 1000 if value > 1e11 else value
            return datetime.fromtimestamp(seconds, UTC)
    except (ValueError, OverflowError, OSError):
        return None
    return None


def time_tag(value: object) -> str:
    when = timestamp(value)
    if when is None:
        return ""
    iso = when.isoformat().replace("+00:00", "Z")
    return f'<time datetime="{iso}" title="{iso}">{when:%H:%M:%S}</time>'


def cut(text: str, cls: str = "", lines: Callable[[str], str] | None = None) -> str:
    """A ``<pre>`` of ``text``, its tail hidden behind a "Show all" button when long."""
    text = _blobs(clean(text))
    fmt = lines or escape
    attr = f' class="{cls}"' if cls else ""
    dropped = ""
    if len(text) > KEEP_CHARS:
        dropped = f"\n[{len(text) - KEEP_CHARS:,} more characters not included in this page]"
        text = text[:KEEP_CHARS]
    count = text.count("\n") + 1
    if count <= CUT_LINES and len(text) <= CUT_CHARS:
        return f"<pre{attr}>{fmt(text)}{escape(dropped)}</pre>"
    head_end = 0
    for _ in range(CUT_LINES):
        found = text.find("\n", head_end)
        if found < 0 or found > CUT_CHARS:
            break
        head_end = found + 1
    if head_end == 0:
        head_end = min(len(text), CUT_CHARS)
    head, rest = text[:head_end], text[head_end:]
    more = f'<span class="more" hidden>{fmt(rest)}{escape(dropped)}</span>'
    button = f'<button type="button" class="show-all">Show all ({number(count)} lines)</button>'
    return f"<pre{attr}>{fmt(head)}{more}</pre>{button}"


def _diff_lines(text: str) -> str:
    out = []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    for line in lines:
        cls = "a" if line.startswith("+") else "d" if line.startswith("-") else ""
        if line.startswith(("@@", "+++", "---", "***", "diff ")):
            cls = "h"
        out.append(f'<span class="{cls}">{escape(line)}</span>' if cls else escape(line) + "\n")
    return "".join(out)


def json_text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


# -- tool calls ---------------------------------------------------------------------------


def _command(name: str, args: Mapping[str, Any]) -> str | None:
    lowered = name.lower()
    if not any(word in lowered for word in _SHELL_WORDS):
        return None
    for key in ("command", "cmd"):
        value = args.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            if len(value) == 3 and value[1] in ("-lc", "-c") and "sh" in value[0]:
                return str(value[2])
            return " ".join(value)
    return None


def _edit_pairs(args: Mapping[str, Any]) -> list[tuple[str, str]] | None:
    for old_key, new_key in (
        ("old_string", "new_string"),
        ("old_str", "new_str"),
        ("oldText", "newText"),
        ("old_text", "new_text"),
    ):
        old, new = args.get(old_key), args.get(new_key)
        if isinstance(old, str) and isinstance(new, str):
            return [(old, new)]
    edits = args.get("edits")
    if isinstance(edits, list) and edits:
        pairs = []
        for edit in edits:
            if not isinstance(edit, dict):
                return None
            found = _edit_pairs(edit)
            if not found:
                return None
            pairs += found
        return pairs
    return None


def _path_of(args: Mapping[str, Any]) -> str:
    for key in ("file_path", "path", "filePath", "filename", "file"):
        value = args.get(key)
        if isinstance(value, str):
            return value
    return ""


def _patch_text(args: Mapping[str, Any], arguments: str | None) -> str | None:
    candidates = [arguments] + [v for v in args.values() if isinstance(v, str)]
    for text in candidates:
        if text and text.lstrip().startswith(("*** Begin Patch", "diff --git", "--- ", "@@ ")):
            return text
    return None


_EDIT_KEYS: Final = frozenset(
    {"old_string", "new_string", "old_str", "new_str", "oldText", "newText", "old_text", "new_text"}
    | {"edits", "file_path", "path", "filePath", "filename", "file", "replace_all"}
)


def tool_input(block: ToolUseBlock) -> str:
    args: Mapping[str, Any] = raw(block.input) if block.input else {}
    if block.invalid_arguments:  # a custom tool's free text (Codex apply_patch) or bad JSON
        patch = _patch_text({}, block.arguments)
        return cut(
            block.arguments or "", "diff" if patch else "json", _diff_lines if patch else None
        )
    command = _command(block.name, args)
    if command is not None:
        rest = {k: v for k, v in args.items() if k not in ("command", "cmd")}
        meta = " · ".join(f"{k}: {v}" for k, v in rest.items() if isinstance(v, str | int | float))
        meta_html = f'<div class="meta">{esc(clip(meta, 300))}</div>' if meta else ""
        return meta_html + cut("$ " + command, "cmd")
    pairs = _edit_pairs(args)
    if pairs is not None:
        path = _path_of(args)
        chunks: list[str] = []
        for old, new in pairs:
            chunks += difflib.unified_diff(
                old.split("\n"), new.split("\n"), path or "before", path or "after", lineterm=""
            )
        others = {k: v for k, v in args.items() if k not in _EDIT_KEYS}
        extra = cut(json_text(others), "json") if others else ""
        return cut("\n".join(chunks), "diff", _diff_lines) + extra
    patch = _patch_text(args, block.arguments)
    if patch is not None:
        return cut(patch, "diff", _diff_lines)
    content = args.get("content")
    path = _path_of(args)
    if isinstance(content, str) and path and len(args) <= 3:
        return f'<div class="meta">{esc(path)}</div>' + cut(content, "file")
    if not args and block.arguments:
        return cut(block.arguments, "json")
    if args and all(_short_scalar(v) for v in args.values()):
        return cut("\n".join(f"{k}: {_scalar(v)}" for k, v in args.items()), "args")
    return cut(json_text(args), "json") if args else ""


def _short_scalar(value: object) -> bool:
    if isinstance(value, str):
        return len(value) <= 200 and "\n" not in value
    return value is None or isinstance(value, bool | int | float)


def _scalar(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def media(block: Block) -> str:
    if not isinstance(block, ImageBlock | AudioBlock | VideoBlock | DocumentBlock):
        return ""
    word = block.kind.capitalize()
    facts = dict(media_facts(block))
    described = esc(describe_media(block, url_width=120))
    media_type = (facts.get("media_type") or "").lower().split(";")[0].strip()
    data = block.data
    if data is None and block.url is not None:
        uri = parse_data_uri(block.url)
        if uri is not None and uri.is_base64:
            data = uri.data
    if isinstance(block, ImageBlock) and data is not None:
        compact = "".join(data.split())
        if (
            media_type in IMAGE_TYPES
            and len(compact) <= INLINE_IMAGE
            and _BASE64.fullmatch(compact) is not None
        ):
            src = f"data:{media_type};base64,{compact}"
            return f'<figure><img class="inline" alt="{described}" src="{src}"></figure>'
        return f'<div class="event">{word} not shown ({described})</div>'
    url = facts.get("url")
    if url is not None and _SAFE_LINK.match(url) and not url.startswith("#"):
        link = f'<a href="{esc(url)}" rel="noopener noreferrer">{esc(clip(url, 120))}</a>'
        return f'<div class="event">{word}: {link}</div>'
    body = ""
    if isinstance(block, DocumentBlock) and block.text:
        body = f"<details><summary>Text</summary>{cut(block.text)}</details>"
    return f'<div class="event">{word}: {described}{body}</div>'

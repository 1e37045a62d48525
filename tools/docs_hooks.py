"""MkDocs hooks: the site's start page is the README, and its changelog page is CHANGELOG.md.

Both files live at the root of the checkout (where GitHub and the package index show them), so
they are added to the site at build time instead of being copied into ``docs/``. Their links
into ``docs/`` and to each other are rewritten to the site's pages.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PAGES = {"index.md": "README.md", "changelog.md": "CHANGELOG.md"}
"""Site page -> file at the root of the checkout it is made from."""


def site_markdown(text: str) -> str:
    """A root file's Markdown with its links made relative to ``docs/``, where the pages live."""
    text = text.replace("](docs/", "](")
    for page, source in PAGES.items():
        text = re.sub(rf"\]\({re.escape(source)}([#)])", rf"]({page}\1", text)
    return text


def on_files(files: Any, config: Any) -> Any:
    """Add the pages made from root files."""
    from mkdocs.structure.files import File

    for page, source in PAGES.items():
        text = site_markdown((ROOT / source).read_text("utf-8"))
        files.append(File.generated(config, page, content=text))
    return files

"""Helpers for the HTML view's tests: a tiny DOM of a written page, a session read from one
file, and headless Chromium (a screenshot, the DOM after load, a Selenium driver).

Chromium is Debian's ``chromium`` package (``chromium-driver`` for Selenium); tests that need
it skip with a reason where it is absent. The flags keep the browser off the network.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from messages import Message
from messages.adapters import get

VOID = frozenset({"meta", "img", "input", "br", "hr", "link", "source", "wbr"})

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
)
"""Headless, offline: no update checks, no sync, no QUIC, nothing fetched in the background."""


@dataclass
class Node:
    """One element of a parsed page."""

    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)
    text: list[str] = field(default_factory=list)

    def classes(self) -> set[str]:
        """The element's classes."""
        return set(self.attrs.get("class", "").split())

    def walk(self) -> Iterator[Node]:
        """This element and every element under it, in document order."""
        yield self
        for child in self.children:
            yield from child.walk()

    def find(self, tag: str, cls: str | None = None) -> list[Node]:
        """The elements under this one with ``tag`` (``*`` for any) and class ``cls``."""
        return [
            n
            for n in self.walk()
            if (tag == "*" or n.tag == tag) and (cls is None or cls in n.classes())
        ]

    def ancestors(self) -> Iterator[Node]:
        """The elements this one is inside, nearest first."""
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def all_text(self) -> str:
        """The text under this element, as written (entities decoded)."""
        return "".join(t for n in self.walk() for t in n.text)


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.at = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, self.at)
        self.at.children.append(node)
        if tag not in VOID:
            self.at = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.at.children.append(Node(tag, {k: v or "" for k, v in attrs}, self.at))

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.at
        while node is not None and node.tag != tag:
            node = node.parent
        assert node is not None and node.parent is not None, f"stray </{tag}>"
        self.at = node.parent

    def handle_data(self, data: str) -> None:
        self.at.text.append(data)


def parse(page: str) -> Node:
    """A page as a tree of :class:`Node` (asserting that every end tag closes an open one)."""
    builder = _Builder()
    builder.feed(page)
    builder.close()
    return builder.root


@dataclass(frozen=True)
class FileSession:
    """A session-like object made from one file's decoded messages."""

    agent: str
    id: str
    messages: Sequence[Message]
    title: str | None = None
    subagents: Mapping[str, Any] = field(default_factory=dict)
    branches: Sequence[Any] = ()


def read_session(path: Path, agent: str, **extra: Any) -> FileSession:
    """Every message of ``path`` decoded as ``agent``: a session for a page."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if path.suffix == ".json" and lines and not lines[0].startswith('{"'):
        lines = [" ".join(lines)]
    found = list(get(agent).iter_decode(lines))
    return FileSession(agent, path.stem, found, **extra)


def chromium() -> str:
    """The Chromium binary, or a skip saying how to get it."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("Chromium is not installed (apt-get install chromium chromium-driver)")


def run_chromium(url: str, *args: str, timeout: float = 60) -> str:
    """Run headless Chromium on ``url`` with ``args`` in a fresh profile; its stdout."""
    binary = chromium()
    with tempfile.TemporaryDirectory(prefix="chromium-") as profile:
        done = subprocess.run(
            [binary, *FLAGS, f"--user-data-dir={profile}", *args, url],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def dump_dom(path: Path) -> str:
    """The page's DOM after load (scripts run), serialized by Chromium."""
    return run_chromium(path.resolve().as_uri(), "--dump-dom")


def screenshot(path: Path, out: Path, size: tuple[int, int] = (1100, 1500)) -> Path:
    """A PNG of the page at ``size`` (width, height)."""
    run_chromium(
        path.resolve().as_uri(),
        f"--window-size={size[0]},{size[1]}",
        f"--screenshot={out.resolve()}",
    )
    assert out.stat().st_size > 0
    return out


@contextmanager
def driver(size: tuple[int, int] = (1100, 1400)) -> Iterator[Any]:
    """A Selenium driver on headless Chromium (browser console kept), or a skip."""
    binary = chromium()
    chromedriver = shutil.which("chromedriver")
    if chromedriver is None:
        pytest.skip("chromedriver is not installed (apt-get install chromium-driver)")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (pip install selenium, in the test extra)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--window-size={size[0]},{size[1]}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    with tempfile.TemporaryDirectory(prefix="chromium-") as profile:
        options.add_argument(f"--user-data-dir={profile}")
        browser = webdriver.Chrome(service=Service(chromedriver), options=options)
        try:
            yield browser
        finally:
            browser.quit()


def console_problems(browser: Any) -> list[str]:
    """The browser console's warnings and errors since the last call."""
    return [
        str(entry.get("message"))
        for entry in browser.get_log("browser")
        if entry.get("level") in ("SEVERE", "WARNING")
    ]

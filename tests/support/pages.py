"""Helpers for the HTML view's tests: a tiny DOM of a written page, a session read from one
file, and headless Chromium (a screenshot, the DOM after load, a Selenium driver).

Chromium is Debian's ``chromium`` package (``chromium-driver`` for Selenium); tests that need
it skip with a reason where it is absent. The flags keep the browser off the network.
"""

from __future__ import annotations

import os
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
from types import SimpleNamespace
from typing import Any
from typing import NoReturn

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


def _missing(reason: str) -> NoReturn:
    """Skip, or fail where the browser tests must run (CI sets MESSAGES_REQUIRE_BROWSER)."""
    if os.environ.get("MESSAGES_REQUIRE_BROWSER"):
        pytest.fail(f"{reason}, and MESSAGES_REQUIRE_BROWSER is set")
    pytest.skip(reason)


def chromium() -> str:
    """The Chromium binary, or a skip saying how to get it."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    _missing("Chromium is not installed (apt-get install chromium chromium-driver)")


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
    """A Selenium driver on headless Chromium (browser console kept), or a skip.

    Below 500 px wide (a phone), the screen is emulated as a mobile device of ``size``.
    """
    binary = chromium()
    chromedriver = shutil.which("chromedriver")
    if chromedriver is None:
        _missing("chromedriver is not installed (apt-get install chromium-driver)")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("selenium is not installed (pip install selenium, in the test extra)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--window-size={size[0]},{size[1]}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    with tempfile.TemporaryDirectory(prefix="chromium-") as profile:
        options.add_argument(f"--user-data-dir={profile}")
        browser = webdriver.Chrome(service=Service(chromedriver), options=options)
        if size[0] < 500:  # windows are at least 500 px wide: emulate a phone's screen instead
            metrics = {"width": size[0], "height": size[1], "deviceScaleFactor": 1}
            browser.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride", {**metrics, "mobile": True}
            )
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


def _png(width: int, height: int) -> str:
    """A small gradient PNG, base64: an image for the demo session, made here."""
    import base64
    import struct
    import zlib

    rows = b"".join(
        b"\x00" + b"".join(bytes((40 + x * 2, 90 + y * 2, 220 - x, 255)) for x in range(width))
        for y in range(height)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
    png += chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    return base64.b64encode(png).decode("ascii")


def demo_session() -> FileSession:
    """A made-up session showing every kind of turn the view draws (the docs' screenshot)."""
    from messages import AssistantMessage
    from messages import CompactBoundaryMessage
    from messages import ImageBlock
    from messages import TextBlock
    from messages import ThinkingBlock
    from messages import ToolResultBlock
    from messages import ToolUseBlock
    from messages import Usage
    from messages import UserMessage

    model = "claude-sonnet-4-5-20250929"

    def at(second: int) -> str:
        return f"2026-03-02T09:{second // 60:02d}:{second % 60:02d}Z"

    def said(n: int, *blocks: Any, usage: Usage | None = None) -> AssistantMessage:
        return AssistantMessage(
            tuple(blocks), model=model, message_id=f"msg_{n}", uuid=f"a{n}", timestamp=at(n * 7),
            usage=usage or Usage(3, 180 + n * 11, 14_000 + n * 900, 600),
        )  # fmt: skip

    listing = "\n".join(f"src/inventory/{name}.py" for name in ("api", "db", "models", "report"))
    tests = "\n".join(f"tests/test_report.py::test_case_{i} PASSED" for i in range(40))
    sub = FileSession(
        "claude_code",
        "agent-7f3a",
        [
            UserMessage("Find every caller of `format_total` and say how each rounds.", uuid="s1"),
            AssistantMessage(
                (ToolUseBlock("s-t1", "Grep", {"pattern": "format_total", "path": "src"}),),
                model="claude-haiku-4-5",
                message_id="sub_1",
                timestamp=at(40),
                usage=Usage(5, 60, 3_000, 200),
            ),
            UserMessage(
                (ToolResultBlock("s-t1", "src/inventory/report.py:41\nsrc/inventory/api.py:88"),)
            ),
            AssistantMessage(
                "Two callers: `report.py` rounds half-up, `api.py` truncates.",
                model="claude-haiku-4-5",
                message_id="sub_2",
                timestamp=at(52),
                usage=Usage(5, 40, 3_400, 0),
            ),
        ],
        title="Find the callers of format_total",
    )
    messages = [
        UserMessage(
            "The monthly report shows totals off by a cent. Find why and fix it; keep the tests"
            " green. Here is the screenshot:",
            uuid="u1",
            timestamp=at(0),
        ),
        UserMessage((ImageBlock(data=_png(96, 48), media_type="image/png"),), uuid="u1b"),
        said(
            1,
            ThinkingBlock(
                "A cent off usually means float rounding. Look at the report code first."
            ),
            TextBlock("I'll look at how the report computes totals."),
            ToolUseBlock(
                "t1", "Bash", {"command": "ls src/inventory", "description": "List modules"}
            ),
        ),
        UserMessage((ToolResultBlock("t1", listing),), uuid="r1"),
        said(
            2,
            ToolUseBlock(
                "t2", "Task", {"description": "Find callers", "prompt": "Find every caller"}
            ),
        ),
        UserMessage(
            (ToolResultBlock("t2", "Two callers: report.py rounds half-up, api.py truncates."),)
        ),
        said(
            3,
            TextBlock(
                "Found it: `format_total` sums **floats**, then rounds.\n\n"
                "- `report.py` rounds half-up\n- `api.py` truncates\n\n"
                "I'll sum `Decimal` values instead:"
            ),
            ToolUseBlock(
                "t3",
                "Edit",
                {
                    "file_path": "src/inventory/report.py",
                    "old_string": "    total = sum(prices)\n    return round(total, 2)",
                    "new_string": "    total = sum(Decimal(p) for p in prices)\n"
                    "    return total.quantize(Decimal('0.01'), ROUND_HALF_UP)",
                },
            ),
        ),
        UserMessage((ToolResultBlock("t3", "The file src/inventory/report.py has been updated."),)),
        said(4, ToolUseBlock("t4", "Bash", {"command": "pytest -q tests/test_report.py"})),
        UserMessage((ToolResultBlock("t4", tests + "\n40 passed in 0.84s"),)),
        said(5, ToolUseBlock("t5", "Read", {"file_path": "src/inventory/missing.py"})),
        UserMessage((ToolResultBlock("t5", "File does not exist.", is_error=True),)),
        CompactBoundaryMessage(
            {"trigger": "auto", "pre_tokens": 151_204}, uuid="c1", timestamp=at(60)
        ),
        UserMessage(
            "Summary: the report's totals were off by a cent because floats were summed; the fix"
            " sums Decimal values and rounds half-up. All 40 report tests pass.",
            summary="compaction",
            uuid="c2",
        ),
        said(
            6,
            TextBlock(
                "Done. The totals now match to the cent:\n\n"
                "```python\ntotal = sum(Decimal(p) for p in prices)\n```\n\n"
                "| file | change |\n|---|---|\n| `report.py` | Decimal sum, half-up rounding |"
            ),
        ),
    ]
    branch = SimpleNamespace(
        fork="r1",
        messages=[said(9, TextBlock("Let me rewrite the whole report module instead."))],
    )
    return FileSession(
        "claude_code",
        "3b1f6a52-demo",
        messages,
        title="Fix the report totals that are off by a cent",
        subagents={"t2": sub},
        branches=[branch],
    )


def index_sessions() -> list[FileSession]:
    """The demo session and a few of the project's fixtures: the index screenshot's rows."""
    from tests.conftest import LOCAL_FIXTURES

    return [
        demo_session(),
        read_session(LOCAL_FIXTURES / "claude_code" / "transcript.jsonl", "claude_code"),
        read_session(LOCAL_FIXTURES / "codex" / "rollout.jsonl", "codex"),
        read_session(LOCAL_FIXTURES / "gemini_cli" / "run-with-warnings.jsonl", "gemini_cli"),
        read_session(LOCAL_FIXTURES / "opencode" / "run-read-edit.jsonl", "opencode"),
        read_session(LOCAL_FIXTURES / "copilot" / "run-read-edit.jsonl", "copilot"),
    ]


def shoot(out: Path) -> list[Path]:
    """Screenshots of the demo session's page (wide and phone) and of an index, into ``out``."""
    from messages.text.html import page_name
    from messages.text.html import write_pages

    out.mkdir(parents=True, exist_ok=True)
    made = []
    with tempfile.TemporaryDirectory(prefix="view-") as folder:
        index = write_pages(index_sessions(), folder, title="Sessions in ~/.claude and ~/.codex")
        page = Path(folder) / page_name(demo_session())
        opened = (
            "document.querySelectorAll('details.subagent, details.result').forEach("
            "d => { if (!d.closest('.call[data-call=t4]')) d.open = true; });"
        )
        for name, size, script in (
            ("view-session.png", (1000, 2300), opened),
            ("view-phone.png", (390, 1100), ""),
        ):
            with driver(size) as browser:
                browser.get(page.resolve().as_uri())
                if script:
                    browser.execute_script(script)
                browser.save_screenshot(str(out / name))
                made.append(out / name)
        with driver((1100, 520)) as browser:
            browser.get(index.resolve().as_uri())
            browser.save_screenshot(str(out / "view-index.png"))
            made.append(out / "view-index.png")
    return made

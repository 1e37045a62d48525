"""The HTML view in a real browser: headless Chromium (Debian's ``chromium``), via Selenium.

Nothing of a hostile log runs or becomes an element; folding, "show all", search, the branch
toggle, the index's sorting and filter work; the console stays clean; a phone-width page does
not scroll sideways. Every test skips with a reason where Chromium (or chromedriver, or
selenium) is absent.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from tests.conftest import LOCAL_FIXTURES
from tests.support.pages import FileSession
from tests.support.pages import console_problems
from tests.support.pages import driver
from tests.support.pages import dump_dom
from tests.support.pages import parse
from tests.support.pages import read_session
from tests.support.pages import screenshot
from tests.support.pages import shoot
from tests.test_view import check_safe
from tests.test_view import hostile_session

from messages import AssistantMessage
from messages import TextBlock
from messages import ToolResultMessage
from messages import ToolUseBlock
from messages import UserMessage
from messages.text import html as view

INJECTED = """
return {
  pwned: window.__pwned === undefined ? null : window.__pwned,
  scripts: document.scripts.length,
  handlers: Array.from(document.querySelectorAll('*')).flatMap(e => Array.from(e.attributes)
    .filter(a => a.name.startsWith('on')).map(a => e.tagName + ' ' + a.name)),
  foreign: Array.from(document.querySelectorAll(
    'iframe, svg, object, embed, img:not([src^="data:image/"])')).length,
  jsLinks: Array.from(document.querySelectorAll('a[href]')).filter(
    a => a.getAttribute('href').trim().toLowerCase().startsWith('javascript')).length,
  ready: document.body.classList.contains('ready'),
};
"""
"""What a page holds after load: anything a payload could have made or done."""


def _open(browser: Any, path: Path) -> None:
    browser.get(path.resolve().as_uri())


def test_a_hostile_session_runs_nothing_and_adds_no_element(tmp_path: Path) -> None:
    page = tmp_path / "hostile.html"
    page.write_text(view.session_page(hostile_session()), encoding="utf-8")
    with driver() as browser:
        _open(browser, page)
        facts = browser.execute_script(INJECTED)
        text = browser.execute_script("return document.body.textContent")
        # opening every fold shows the payloads as text, and still runs nothing
        browser.find_element("id", "open").click()
        browser.execute_script("document.querySelectorAll('.show-all').forEach(b => b.click());")
        after = browser.execute_script(INJECTED)
        problems = console_problems(browser)
    assert facts == {
        "pwned": None,
        "scripts": 1,
        "handlers": [],
        "foreign": 0,
        "jsLinks": 0,
        "ready": True,
    }
    assert after == facts
    assert "<script>window.__pwned=1</script>" in text
    assert problems == []  # not even a blocked attempt (which the policy would report)


def test_the_checks_see_an_injected_element(tmp_path: Path) -> None:
    """The checks above can fail: a page with one planted handler is caught."""
    page = tmp_path / "planted.html"
    planted = view.session_page(hostile_session()).replace(
        "<main>", '<main><img id="planted" src="x" onerror="window.__pwned=9">'
    )
    page.write_text(planted, encoding="utf-8")
    with driver() as browser:
        _open(browser, page)
        facts = browser.execute_script(INJECTED)
        problems = console_problems(browser)
    assert facts["handlers"] == ["IMG onerror"] and facts["foreign"] == 1
    assert facts["pwned"] is None  # the page's policy blocked it from running...
    assert any("Content Security Policy" in p or "ERR_" in p or "x" in p for p in problems)


def _interactive_session() -> FileSession:
    long_output = "\n".join(f"row {i}" for i in range(200)) + "\nneedle at the end"
    sub = FileSession(
        "claude_code",
        "sub-1",
        [UserMessage("Find it."), AssistantMessage("Found the needle inside the subagent.")],
        title="helper",
    )
    messages = [
        UserMessage("Start.", uuid="u1"),
        AssistantMessage(
            (
                TextBlock("Running **two** tools."),
                ToolUseBlock("t1", "Bash", {"command": "seq 200"}),
                ToolUseBlock("t2", "Task", {"prompt": "find it"}),
            ),
            uuid="a1",
            message_id="m1",
        ),
        ToolResultMessage("t1", long_output),
        ToolResultMessage("t2", "done"),
        AssistantMessage("All done.", uuid="a2", message_id="m2"),
    ]
    branch = SimpleNamespace(fork_point="u1", messages=[AssistantMessage("a needle abandoned")])
    return FileSession("claude_code", "s1", messages, subagents={"t2": sub}, branches=[branch])


def test_folds_show_all_search_and_branches_work(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(view.session_page(_interactive_session()), encoding="utf-8")
    with driver() as browser:
        _open(browser, page)
        state = browser.execute_script(
            "return {open: document.querySelectorAll('main details[open]').length,"
            " hiddenMore: document.querySelector('.more').hidden,"
            " branchShown: getComputedStyle(document.querySelector('.branch')).display}"
        )
        assert state == {"open": 0, "hiddenMore": True, "branchShown": "none"}

        browser.find_element("css selector", ".call summary").click()  # open one fold
        assert browser.execute_script("return document.querySelector('.call details').open")
        browser.find_element("css selector", ".show-all").click()
        assert not browser.execute_script("return document.querySelector('.more').hidden")
        assert browser.find_elements("css selector", ".show-all") == []

        browser.find_element("id", "close").click()
        assert (
            browser.execute_script("return document.querySelectorAll('main details[open]').length")
            == 0
        )

        from selenium.webdriver.common.keys import Keys

        browser.execute_script("document.querySelectorAll('.more').forEach(e => e.hidden = true)")
        search = browser.find_element("id", "q")
        search.send_keys("needle")
        browser.implicitly_wait(0)
        found = _wait(browser, "return document.querySelectorAll('mark').length")
        assert found == 3  # the abandoned branch, the long output, the subagent (page order)
        where = (
            "var m=document.querySelector('mark.current');"
            "return {branch: getComputedStyle(document.querySelector('.branch')).display,"
            " toggle: document.getElementById('branches').checked,"
            " folds: Array.from(document.querySelectorAll('details')).filter(d => d.contains(m))"
            ".map(d => d.className + (d.open ? ' open' : ' shut')),"
            " hidden: !!m.closest('[hidden]')}"
        )
        assert browser.find_element("id", "count").text == "1 / 3"
        assert browser.execute_script(where) == {
            "branch": "block", "toggle": True, "folds": [], "hidden": False
        }  # fmt: skip
        browser.find_element("id", "next").click()
        assert browser.find_element("id", "count").text == "2 / 3"
        second = browser.execute_script(where)
        assert second["folds"] == ["result open"] and not second["hidden"]  # its tail shown
        search.send_keys(Keys.ENTER)  # Enter goes to the next match too
        assert browser.find_element("id", "count").text == "3 / 3"
        assert browser.execute_script(where)["folds"] == ["subagent open"]

        browser.find_element("id", "branches").click()  # the toggle hides them again
        assert (
            browser.execute_script(
                "return getComputedStyle(document.querySelector('.branch')).display"
            )
            == "none"
        )
        sub = browser.execute_script(
            "var d=document.querySelector('details.subagent');"
            "return d.closest('.call').getAttribute('data-call')"
        )
        assert sub == "t2"
        assert console_problems(browser) == []


def _wait(browser: Any, script: str, tries: int = 50) -> Any:
    import time

    value = None
    for _ in range(tries):
        value = browser.execute_script(script)
        if value:
            return value
        time.sleep(0.05)
    return value


def test_the_index_sorts_and_filters(tmp_path: Path) -> None:
    sessions = [
        read_session(LOCAL_FIXTURES / "claude_code" / "transcript.jsonl", "claude_code"),
        read_session(LOCAL_FIXTURES / "codex" / "rollout.jsonl", "codex"),
        read_session(LOCAL_FIXTURES / "gemini_cli" / "run-with-warnings.jsonl", "gemini_cli"),
    ]
    index = view.write_pages(sessions, tmp_path)
    with driver() as browser:
        _open(browser, index)
        agents = (
            "return Array.from(document.querySelectorAll("
            "'tbody tr:not([hidden]) td:first-child')).map(c => c.textContent)"
        )
        browser.find_element("xpath", "//th[text()='Agent']").click()
        assert browser.execute_script(agents) == ["claude_code", "codex", "gemini_cli"]
        browser.find_element("xpath", "//th[text()='Agent']").click()
        assert browser.execute_script(agents) == ["gemini_cli", "codex", "claude_code"]
        browser.find_element("id", "filter").send_keys("codex")
        assert _wait(browser, agents.replace("return ", "return ")) == ["codex"]
        assert browser.find_element("id", "shown").text == "1 of 3"
        link = browser.find_element("css selector", "tbody tr:not([hidden]) a")
        link.click()
        assert browser.execute_script("return document.body.classList.contains('ready')")
        assert browser.find_elements("css selector", "section.turn")
        assert console_problems(browser) == []


def test_a_phone_width_page_does_not_scroll_sideways(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    session = read_session(LOCAL_FIXTURES / "claude_code" / "transcript.jsonl", "claude_code")
    page.write_text(view.session_page(session), encoding="utf-8")
    with driver(size=(390, 844)) as browser:
        _open(browser, page)
        browser.find_element("id", "open").click()
        widths = browser.execute_script(
            "return [document.documentElement.scrollWidth, window.innerWidth]"
        )
    assert widths[1] == 390 and widths[0] <= widths[1]


@pytest.mark.parametrize(
    ("agent", "name"),
    [
        ("claude_code", "claude_code/stream.jsonl"),
        ("codex", "codex/rollout.jsonl"),
        ("opencode", "opencode/run-read-edit.jsonl"),
    ],
)
def test_dump_dom_after_load_keeps_the_pages_structure(
    tmp_path: Path, agent: str, name: str
) -> None:
    session = read_session(LOCAL_FIXTURES / name, agent)
    page = tmp_path / "page.html"
    written = view.session_page(session)
    page.write_text(written, encoding="utf-8")
    loaded = parse(dump_dom(page))
    check_safe(loaded)
    before = parse(written)
    assert "ready" in loaded.find("body")[0].classes()  # the script ran
    for tag, cls in (("section", "turn"), ("div", "call"), ("details", "result")):
        assert len(loaded.find(tag, cls)) == len(before.find(tag, cls)), (tag, cls)
    assert json.dumps(
        sorted(n.attrs.get("id", "") for n in loaded.find("section", "turn"))
    ) == json.dumps(sorted(n.attrs.get("id", "") for n in before.find("section", "turn")))


def test_the_docs_screenshots_come_from_the_helper(tmp_path: Path) -> None:
    """tools/view_screenshots.py runs this helper; the PNGs in docs/images are its output."""
    import struct

    made = shoot(tmp_path)
    sizes = {}
    for path in made:
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        sizes[path.name] = struct.unpack(">II", data[16:24])
    assert sizes["view-session.png"][0] == 1000 and sizes["view-phone.png"][0] == 390
    assert sizes["view-index.png"][0] == 1100
    docs = Path(__file__).resolve().parents[1] / "docs" / "images"
    assert sorted(p.name for p in docs.glob("view-*.png")) == sorted(sizes)


def test_light_and_dark_follow_the_system_setting(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(view.session_page(hostile_session()), encoding="utf-8")
    colours = {}
    with driver() as browser:
        for scheme in ("light", "dark"):
            browser.execute_cdp_cmd(
                "Emulation.setEmulatedMedia",
                {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
            )
            _open(browser, page)
            colours[scheme] = browser.execute_script(
                "var b=getComputedStyle(document.body);return [b.backgroundColor,b.color]"
            )
    assert colours["light"] == ["rgb(255, 255, 255)", "rgb(31, 35, 40)"]
    assert colours["dark"] == ["rgb(13, 17, 23)", "rgb(230, 237, 243)"]


def test_chromium_draws_the_page_from_the_command_line(tmp_path: Path) -> None:
    """``--screenshot`` without Selenium: the page draws offline from file:// as it is."""
    import struct

    page = tmp_path / "page.html"
    page.write_text(view.session_page(hostile_session()), encoding="utf-8")
    png = screenshot(page, tmp_path / "page.png", (800, 600)).read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (800, 600)

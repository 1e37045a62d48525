"""How long the HTML view takes: render a session's page, and open it in headless Chromium.

Run by hand (the figures in docs/performance.md come from this script):

    python benchmarks/view.py                       # the shared Claude Code 2.1 session
    python benchmarks/view.py PATH [--agent NAME] [--passes 5]

Measured, best of ``--passes``:

- ``read``: the session's files decoded (``messages.sessions.load`` where it exists, else the
  file decoded line by line with its subagent attached);
- ``render``: ``messages.text.html.session_page`` of it (the page as one string), and its size;
- in Chromium (headless, offline flags, a fresh profile; needs chromium, chromedriver and
  selenium): from navigation start to DOM interactive, to the page's script done (its
  ``view-ready`` mark: search, folds and buttons wired) and to the load event; then one
  search over the whole page (Enter in the box: every match marked, the first one shown),
  and "Unfold all".
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]

from tests.support.pages import driver  # noqa: E402
from tests.support.pages import read_session  # noqa: E402

from messages.text.html import session_page  # noqa: E402

SHARED = Path(os.environ.get("MESSAGES_FIXTURES", ROOT.parent / "shared" / "fixtures"))
DEFAULT = SHARED / "claude_code" / "transcripts-2.1"

NAVIGATION = """
var n = performance.getEntriesByType('navigation')[0];
var ready = performance.getEntriesByName('view-ready')[0];
return [n.domInteractive, ready ? ready.startTime : null, n.loadEventEnd];
"""
SEARCH = """
var q = document.getElementById('q'), t = performance.now();
q.value = arguments[0];
q.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter'}));
return [performance.now() - t, document.querySelectorAll('mark').length];
"""
UNFOLD = """
var t = performance.now(); document.getElementById('open').click();
return [performance.now() - t, document.querySelectorAll('details[open]').length];
"""


def _read(path: Path, agent: str) -> Any:
    try:
        from messages.sessions import load  # type: ignore[attr-defined]
    except ImportError:
        load = None
    if load is not None:
        return next(iter(load(str(path))))
    if path.is_dir():
        path = max(path.rglob("*.jsonl"), key=lambda p: p.stat().st_size)
    return read_session(path, agent)


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*.jsonl"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--agent", default="claude_code")
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--search", default="Read")
    args = parser.parse_args()
    reads, renders = [], []
    for _ in range(args.passes):
        started = time.perf_counter()
        session = _read(args.path, args.agent)
        reads.append(time.perf_counter() - started)
        started = time.perf_counter()
        page = session_page(session)
        renders.append(time.perf_counter() - started)
    print(f"input    {_size(args.path) / 1e6:6.2f} MB  ({args.path})")
    print(f"read     {min(reads):6.3f} s   (best of {args.passes})")
    print(f"render   {min(renders):6.3f} s   page {len(page.encode()) / 1e6:.2f} MB")
    with tempfile.TemporaryDirectory(prefix="view-bench-") as folder:
        file = Path(folder) / "page.html"
        file.write_text(page, encoding="utf-8")
        timings, searches, unfolds = [], [], []
        for _ in range(args.passes):
            with driver() as browser:
                browser.get(file.as_uri())
                timings.append(browser.execute_script(NAVIGATION))
                searches.append(browser.execute_script(SEARCH, args.search))
                unfolds.append(browser.execute_script(UNFOLD))
    for n, t in enumerate(timings, 1):
        ready = t[1] or 0
        print(f"  pass {n}: interactive {t[0]:.0f} ms, ready {ready:.0f} ms, load {t[2]:.0f} ms")
    best = min(timings, key=lambda t: t[1] or t[2])
    print(
        f"chromium interactive {best[0]:.0f} ms, script ready {best[1]:.0f} ms,"
        f" load {best[2]:.0f} ms (best of {args.passes};"
        f" median ready {statistics.median(t[1] or 0 for t in timings):.0f} ms)"
    )
    fastest = min(searches)
    print(f"search   {fastest[0]:.0f} ms for {fastest[1]} matches of {args.search!r}")
    print(f"unfold   {min(unfolds)[0]:.0f} ms for {min(unfolds)[1]} folds")


if __name__ == "__main__":
    main()

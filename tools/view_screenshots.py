"""Write the HTML view's screenshots in docs/images from the demo session (tests/support/pages).

    python tools/view_screenshots.py [OUT_FOLDER]

Needs Chromium, chromedriver and selenium (the test extra); the browser tests call the same
function (``shoot``), so what the docs show is what the tests open.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]

from tests.support.pages import shoot  # noqa: E402

if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"
    for path in shoot(out):
        print(path)

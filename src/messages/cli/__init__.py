"""The ``messages`` command: scripts over agent logs, from the shell.

The entry point is :func:`main` (the ``messages`` command runs it through :func:`run`);
``main.py`` parses arguments and runs the inputs, ``commands.py`` does one input, ``io.py``
reads lines and detects formats, ``render.py`` writes the one-line text view (Markdown is
the transcript writer of :mod:`messages.text`) and ``stats.py`` counts. See ``docs/cli.md``.
"""

from .main import main
from .main import run

__all__ = ["main", "run"]

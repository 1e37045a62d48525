"""``python -m messages``: the same as the ``messages`` command."""

from .cli import run

run()

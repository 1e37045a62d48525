"""``python -m messages``: the same as the ``messages`` command."""

from .cli.main import run

run()

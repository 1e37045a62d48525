"""``python -m messages``: the same as the ``messages`` command."""

import sys

from .cli import main

sys.exit(main())

"""Changing a caller's value after handing it over, to show nothing of it was kept."""

from __future__ import annotations

from typing import Any


def scribble(value: Any) -> None:
    """Change every object and array inside ``value``, in place (a key or an item added)."""
    if isinstance(value, dict):
        for inner in list(value.values()):
            scribble(inner)
        value["scribbled"] = True
    elif isinstance(value, list):
        for inner in value:
            scribble(inner)
        value.append("scribbled")

"""A tool choice on the wire: the pieces the providers' choice readers and writers share.

OpenAI's reader and writer (Chat, Responses), a choice's unmodelled fields, and the name a
choice of mode ``tool`` needs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Final

from ..errors import EncodeError
from ..settings import ToolChoice
from ..settings import ToolMode
from ._settings import ReadChoice
from ._settings import WriteChoice
from ._settings import Writer

__all__ = [
    "OPENAI_MODES",
    "choice_extra",
    "choice_name",
    "openai_choice",
    "openai_choices",
    "read_openai_choice",
]

OPENAI_MODES: Final[dict[str, ToolMode]] = {"auto": "auto", "none": "none", "required": "any"}
"""OpenAI's tool choice strings (Chat and Responses) and the mode each one is."""
_OPENAI_SPELLING: Final = {mode: word for word, mode in OPENAI_MODES.items()}


def read_openai_choice(value: Any, named: Callable[[str], Any]) -> ToolChoice | None:
    """Chat's or Responses' tool choice: a mode string, or exactly ``named(name)``."""
    if type(value) is str:
        mode = OPENAI_MODES.get(value)
        return ToolChoice(mode) if mode is not None else None
    if type(value) is not dict:
        return None
    inner = value.get("function")
    name = (inner if type(inner) is dict else value).get("name")
    return ToolChoice("tool", name=name) if type(name) is str and value == named(name) else None


def openai_choices(named: Callable[[str], Any]) -> tuple[ReadChoice, WriteChoice]:
    """Chat's or Responses' tool choice reader and writer, ``named`` spelling a named one."""
    return (
        lambda value: read_openai_choice(value, named),
        lambda choice, writer: openai_choice(choice, writer, named),
    )


def openai_choice(choice: ToolChoice, writer: Writer, named: Callable[[str], Any]) -> Any:
    """Chat's or Responses' spelling of a choice: a mode string, or ``named(name)``."""
    out = named(choice_name(choice)) if choice.mode == "tool" else _OPENAI_SPELLING[choice.mode]
    choice_extra(choice, writer, out if type(out) is dict else None)
    return out


def choice_extra(choice: ToolChoice, writer: Writer, into: dict[str, Any] | None) -> None:
    """The unmodelled fields of a choice, written into ``into`` (refused where it has none)."""
    kept = writer.keys(choice.extra, "settings.tool_choice")
    if kept and into is None:
        writer.policy.refuse(
            "cannot carry the fields of this tool choice here", "settings.tool_choice", kept
        )
        return
    if into is not None:
        for key, value in kept.items():
            into.setdefault(key, value)


def choice_name(choice: ToolChoice) -> str:
    """The name of the tool a choice of mode ``tool`` names (EncodeError when it has none)."""
    if choice.name is None:
        raise EncodeError(
            "a tool choice of mode 'tool' needs a name", path="settings.tool_choice.name"
        )
    return choice.name

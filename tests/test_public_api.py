"""The public surface: __all__ complete and sorted, docstrings everywhere, cheap import."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys

import pytest

import messages

PUBLIC_MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages(messages.__path__, "messages.")
    if not any(part.startswith("_") for part in name.split("."))
    and name != "messages.__main__"  # running it starts the command line
)


def test_all_is_sorted_and_complete() -> None:
    names = list(messages.__all__)
    assert names == sorted(names)
    public = {n for n in vars(messages) if not n.startswith("_")} - {"annotations", "TYPE_CHECKING"}
    submodules = {n for n in public if inspect.ismodule(getattr(messages, n))}
    assert public - submodules - {"__version__"} <= set(names)
    for name in names:
        assert hasattr(messages, name), name


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_every_public_module_has_a_sorted_complete_all(module_name: str) -> None:
    module = importlib.import_module(module_name)
    assert module.__doc__, f"{module_name} has no docstring"
    exported = getattr(module, "__all__", None)
    assert exported is not None, f"{module_name} has no __all__"
    assert list(exported) == sorted(exported), f"{module_name}.__all__ is not sorted"
    for name in exported:
        assert hasattr(module, name), f"{module_name}.{name} missing"


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_every_public_name_has_a_docstring(module_name: str) -> None:
    module = importlib.import_module(module_name)
    for name in getattr(module, "__all__", ()):
        value = getattr(module, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert inspect.getdoc(value), f"{module_name}.{name} has no docstring"
            if inspect.isclass(value):
                for attr, member in vars(value).items():
                    if attr.startswith("_") or not (
                        inspect.isfunction(member) or isinstance(member, property)
                    ):
                        continue
                    assert inspect.getdoc(member), f"{module_name}.{name}.{attr} has no docstring"


def test_names_load_on_first_use() -> None:
    code = (
        "import sys, messages; a = 'messages.blocks' in sys.modules; messages.TextBlock; "
        "print(a, 'messages.blocks' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]
    from messages import convert

    assert convert.normalize_messages is messages.convert.normalize_messages
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        messages.Nope  # noqa: B018
    assert "TextBlock" in dir(messages)


def test_importing_messages_is_cheap() -> None:
    heavy = (
        "hypothesis",
        "messages.strategies",
        "messages.adapters",
        "messages.providers",
        "argparse",
    )
    code = f"import sys, messages; print(','.join(m for m in {heavy!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


@pytest.mark.parametrize("registry", ["messages.adapters", "messages.providers"])
def test_an_unknown_registry_name_is_a_messages_error(registry: str) -> None:
    module = importlib.import_module(registry)
    with pytest.raises(messages.MessagesError) as info:
        module.get("no such name")
    assert isinstance(info.value, LookupError)

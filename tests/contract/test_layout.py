"""The shape of the source tree: no import cycles, and no reaching into another's privates.

The import graph is read from the source with :mod:`ast` (nothing is imported), counting
every import statement wherever it stands: at module level, inside a function (a lazy
import) and under ``if TYPE_CHECKING:``, so a cycle cannot hide behind a deferred import.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

import messages

# The package under test, wherever it is imported from (the checkout's src/, or the installed
# wheel in CI's second run), so the layout of what ships is what is checked.
SRC = Path(messages.__file__).resolve().parents[1]
PACKAGE = "messages"


def _module_name(path: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


@cache
def _modules() -> dict[str, tuple[Path, bool]]:
    found = {}
    for path in sorted((SRC / PACKAGE).rglob("*.py")):
        name, is_package = _module_name(path)
        found[name] = (path, is_package)
    return found


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> set[str]:
    """The modules of this package an import statement in ``module`` loads."""
    modules = _modules()
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in modules}
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        target = ".".join([*base, *([node.module] if node.module else [])])
    else:
        target = node.module or ""
    out = set()
    for alias in node.names:
        submodule = f"{target}.{alias.name}"
        out.add(submodule if submodule in modules else target)
    return {name for name in out if name in modules}


@cache
def _graph() -> dict[str, frozenset[str]]:
    graph = {}
    for name, (path, is_package) in _modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        imports: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                imports |= _targets(node, name, is_package)
        imports.discard(name)
        graph[name] = frozenset(imports)
    return graph


def _cycles(graph: dict[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_the_scan_sees_the_tree() -> None:
    graph = _graph()
    assert "messages.providers.anthropic" in graph
    assert "messages.providers.anthropic.decoder" in graph["messages.providers.anthropic"]
    assert "messages.policy" in graph["messages.providers._carry"]


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset()}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles({"a": frozenset({"b"}), "b": frozenset()}) == []


def test_no_import_cycles() -> None:
    assert _cycles(_graph()) == []


def _public(name: str) -> bool:
    return not name.rpartition(".")[2].startswith("_")


def _own_public_module(importer: str, imported: str) -> bool:
    """A private module importing a public module of its own package (a codec's surface)."""
    package, _, leaf = importer.rpartition(".")
    parent, _, _ = imported.rpartition(".")
    return leaf.startswith("_") and parent == package and _public(imported)


RULES = [
    pytest.param(
        "adapters never import a provider's private module",
        lambda a, b: a.startswith("messages.adapters.") and b.startswith("messages.providers._"),
        id="adapters-provider-privates",
    ),
    pytest.param(
        "providers never import an adapter",
        lambda a, b: a.startswith("messages.providers") and b.startswith("messages.adapters"),
        id="providers-adapters",
    ),
    pytest.param(
        "a private module never imports its own package's public modules back",
        _own_public_module,
        id="privates-own-public",
    ),
]


@pytest.mark.parametrize(("rule", "forbidden"), RULES)
def test_forbidden_imports(rule: str, forbidden: object) -> None:
    assert callable(forbidden)
    broken = sorted(
        f"{importer} imports {imported}"
        for importer, imports in _graph().items()
        for imported in imports
        if forbidden(importer, imported)
    )
    assert broken == [], rule


def test_provider_modules_stay_small() -> None:
    """Each provider is split by concept so that no module grows past about 500 lines."""
    sizes = {
        name: len(path.read_text(encoding="utf-8").splitlines())
        for name, (path, _) in _modules().items()
        if name.startswith("messages.providers")
    }
    assert {name: n for name, n in sizes.items() if n > 500} == {}

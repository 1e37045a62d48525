"""The shape of the source tree: layers that only point down, no import cycles, formats apart.

The import graph is read from the source with :mod:`ast` (nothing is imported), counting
every import statement wherever it stands: at module level, inside a function (a lazy
import) and under ``if TYPE_CHECKING:``, so a cycle cannot hide behind a deferred import.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
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


# The layers, bottom first. A module may import only from its own layer or a lower one. Each
# entry names the top-level modules and packages of ``messages`` in the layer (``""`` is the
# package itself, whose lazy re-exports reach everything); every module of the tree must be
# in one, so a new top-level module is placed here on purpose. docs/architecture.md says why.
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("errors and limits", frozenset({"errors", "limits"})),
    ("_core", frozenset({"_core"})),
    (
        "the vocabulary",
        frozenset(
            {"blocks", "citations", "roles", "flat", "events", "usage", "media", "message"}
            | {"settings"}
        ),
    ),
    ("_shapes", frozenset({"_shapes"})),
    ("pure functions", frozenset({"convert", "serialize", "policy", "text", "history"})),
    ("codecs", frozenset({"adapters", "providers"})),
    (
        "the outer edge",
        frozenset({"sessions", "interop", "stats", "cli", "strategies", "__main__", ""}),
    ),
)
CODECS = ("adapters", "providers")


def _layer(module: str) -> int:
    top = module.split(".")[1] if "." in module else ""
    for i, (_, members) in enumerate(LAYERS):
        if top in members:
            return i
    raise LookupError(f"{module} is in no layer: add it to LAYERS")


def _upward(graph: dict[str, frozenset[str]]) -> list[str]:
    """The imports that point up the layer table."""
    return sorted(
        f"{a} ({LAYERS[_layer(a)][0]}) imports {b} ({LAYERS[_layer(b)][0]})"
        for a, imports in graph.items()
        for b in imports
        if _layer(b) > _layer(a)
    )


def _format(module: str) -> str | None:
    """The format package a module belongs to (``messages.adapters.codex``), if any."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] in CODECS and not parts[2].startswith("_"):
        return ".".join(parts[:3])
    return None


SURFACE_OF = {"messages.adapters.kilo": "messages.adapters.opencode_storage"}
"""A format whose records are another's, to the letter, and which reads them through that
format's public surface (its package, never an inner module): the Kilo CLI's ``kilo.db`` holds
OpenCode's tables, so ``kilo`` is OpenCode's store reader under Kilo's name and folders."""


def _across_formats(graph: dict[str, frozenset[str]]) -> list[str]:
    """A format package importing any module of another format package (but the one surface
    ``SURFACE_OF`` names)."""
    return sorted(
        f"{a} imports {b}"
        for a, imports in graph.items()
        for b in imports
        if _format(a) is not None
        and _format(b) not in (None, _format(a))
        and b != SURFACE_OF.get(_format(a) or "")
    )


def _inner_from_outside(graph: dict[str, frozenset[str]]) -> list[str]:
    """An inner module of a format package imported from outside that package."""
    return sorted(
        f"{a} imports {b}"
        for a, imports in graph.items()
        for b in imports
        if _format(b) not in (None, b) and _format(a) != _format(b)
    )


def test_every_module_has_a_layer() -> None:
    for name in _modules():
        _layer(name)
    with pytest.raises(LookupError, match="in no layer"):
        _layer("messages.newcomer")


def test_the_layers_point_down() -> None:
    assert _upward(_graph()) == []


def test_core_imports_nothing_above_it() -> None:
    core = {name: imports for name, imports in _graph().items() if _layer(name) <= 1}
    assert any(name.startswith("messages._core.") for name in core)
    assert {b for imports in core.values() for b in imports if _layer(b) > 1} == set()


def test_the_layer_check_finds_an_upward_import() -> None:
    graph = {
        "messages._core.frozen": frozenset({"messages.errors"}),
        "messages.blocks": frozenset({"messages._shapes.citations", "messages._core.frozen"}),
        "messages._core.fields": frozenset({"messages.blocks"}),
        "messages.adapters.codex": frozenset({"messages.sessions"}),
        "messages.sessions": frozenset({"messages.adapters.codex"}),
    }
    assert _upward(graph) == [
        "messages._core.fields (_core) imports messages.blocks (the vocabulary)",
        "messages.adapters.codex (codecs) imports messages.sessions (the outer edge)",
        "messages.blocks (the vocabulary) imports messages._shapes.citations (_shapes)",
    ]


def test_no_format_imports_another() -> None:
    assert _across_formats(_graph()) == []


def test_inner_modules_are_imported_only_by_their_own_package() -> None:
    assert _inner_from_outside(_graph()) == []


def test_the_format_checks_find_a_crossing() -> None:
    graph = {
        "messages.adapters.codex": frozenset({"messages.adapters.codex.items"}),
        "messages.adapters.codex.items": frozenset({"messages.adapters.claude_code.decoder"}),
        "messages.adapters.opencode": frozenset({"messages.adapters.claude_code"}),
        "messages.adapters._common": frozenset({"messages.adapters.codex.rollout"}),
        "messages.providers.gemini.parts": frozenset({"messages.providers.anthropic.parts"}),
        "messages.interop.langchain": frozenset({"messages.adapters.claude_code"}),
        "messages.cli.io": frozenset({"messages.providers.gemini.stream"}),
    }
    assert _across_formats(graph) == [
        "messages.adapters.codex.items imports messages.adapters.claude_code.decoder",
        "messages.adapters.opencode imports messages.adapters.claude_code",
        "messages.providers.gemini.parts imports messages.providers.anthropic.parts",
    ]
    assert _inner_from_outside(graph) == [
        "messages.adapters._common imports messages.adapters.codex.rollout",
        "messages.adapters.codex.items imports messages.adapters.claude_code.decoder",
        "messages.cli.io imports messages.providers.gemini.stream",
        "messages.providers.gemini.parts imports messages.providers.anthropic.parts",
    ]


def test_the_top_level_stays_small() -> None:
    """At most 16 modules directly in the package; the rest is grouped in packages."""
    top = [path.name for path in (SRC / PACKAGE).glob("*.py")]
    assert len(top) <= 16, sorted(top)


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
        ("messages.adapters.codex.items", "messages.providers._carry"),
        id="adapters-provider-privates",
    ),
    pytest.param(
        "providers never import an adapter",
        lambda a, b: a.startswith("messages.providers") and b.startswith("messages.adapters"),
        ("messages.providers._common", "messages.adapters._base"),
        id="providers-adapters",
    ),
    pytest.param(
        "a private module never imports its own package's public modules back",
        _own_public_module,
        ("messages.history._trim", "messages.history.budget"),
        id="privates-own-public",
    ),
]


def _broken(graph: dict[str, frozenset[str]], forbidden: Callable[[str, str], bool]) -> list[str]:
    return sorted(
        f"{importer} imports {imported}"
        for importer, imports in graph.items()
        for imported in imports
        if forbidden(importer, imported)
    )


@pytest.mark.parametrize(("rule", "forbidden", "example"), RULES)
def test_forbidden_imports(
    rule: str, forbidden: Callable[[str, str], bool], example: tuple[str, str]
) -> None:
    importer, imported = example
    assert _broken({importer: frozenset({imported})}, forbidden) == [
        f"{importer} imports {imported}"
    ]
    assert _broken(_graph(), forbidden) == [], rule


def test_provider_modules_stay_small() -> None:
    """Each provider is split by concept so that no module grows past about 500 lines."""
    sizes = {
        name: len(path.read_text(encoding="utf-8").splitlines())
        for name, (path, _) in _modules().items()
        if name.startswith("messages.providers")
    }
    assert {name: n for name, n in sizes.items() if n > 500} == {}

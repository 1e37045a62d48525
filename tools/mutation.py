"""Mutation testing of the core, one module at a time, each against its own test files.

Run by hand before landing a change to a core module (it is too slow for CI)::

    python tools/mutation.py convert          # mutate, run, print the score and survivors
    python tools/mutation.py convert --report # the score of the last run, without running
    python tools/mutation.py --list           # the modules and their test files

Each module gets its own scratch folder, ``.mutation/<module>/`` (ignored by git), holding a
``pyproject.toml`` whose ``[tool.mutmut]`` section is the project's with the module and its
tests filled in, and links to ``src`` and ``tests``. mutmut keeps its results there, so a rerun
only tests the mutants of functions that changed, and ``mutmut show <name>`` run in that folder
prints one mutant's diff.

The score leaves out the mutants listed in :data:`EQUIVALENT`: changes that cannot alter
behaviour (a fast path that falls back to a general path giving the same result, a cache).
Each entry names the function, the mutated line as mutmut writes it, and why no test can
notice; ``docs/testing.md`` lists them too.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
SCRATCH = ROOT / ".mutation"


class Module(NamedTuple):
    """One module under mutation and the test files that are its own."""

    source: str
    tests: tuple[str, ...]
    goal: float


MODULES: dict[str, Module] = {
    "convert": Module(
        "src/messages/convert.py",
        (
            "tests/test_convert.py",
            "tests/test_fast_paths.py",
            "tests/test_promises.py",
            "tests/test_depth_limits.py",
        ),
        98.0,
    ),
    "frozen": Module(
        "src/messages/_core/frozen.py",
        (
            "tests/test_json.py",
            "tests/test_limits.py",
            "tests/test_frozen_laws.py",
            "tests/test_depth_limits.py",
        ),
        95.0,
    ),
    "serialize": Module(
        "src/messages/serialize.py",
        (
            "tests/test_serialize.py",
            "tests/test_promises.py",
            "tests/test_native_inputs.py",
            "tests/test_depth_limits.py",
        ),
        95.0,
    ),
    "claude_decode": Module(
        "src/messages/adapters/claude_code/decoder.py",
        (
            "tests/test_adapter_claude_code.py",
            "tests/test_claude_fast_paths.py",
            "tests/test_fast_paths_claude_lines.py",
        ),
        95.0,
    ),
    "stats_engine": Module(
        "src/messages/stats/_engine.py",
        (
            "tests/test_stats.py",
            "tests/test_cli_stats.py",
            "tests/test_stats_laws.py",
            "tests/test_stats_views.py",
            "tests/test_stats_prices.py",
            # the formats whose results the engine prices and dates apart: Copilot's
            # per-model shutdowns (and the trace they give way to), Grok's logged cost per
            # turn, Codex's token counts per model
            "tests/test_copilot_store.py",
            "tests/test_adapter_grok.py",
            "tests/test_adapter_codex_rollout.py",
            # not tests/test_stats_cache.py: its two-process test breaks its worker pool
            # under mutmut (BrokenProcessPool), which mutmut counts as a kill of any mutant
        ),
        95.0,
    ),
    "claude_encode": Module(
        "src/messages/adapters/claude_code/encoder.py",
        ("tests/test_adapter_claude_code.py", "tests/test_claude_encode.py"),
        90.0,
    ),
}


class Equivalent(NamedTuple):
    """A surviving mutant that cannot change behaviour, set aside from the score."""

    function: str
    """The function (``x_name`` or ``xǁClassǁmethod`` in mutmut's naming) it mutates."""
    line: str
    """The mutated line, stripped, as ``mutmut show`` prints it after the ``+``."""
    why: str


_SHORTCUT = "an inline scalar test that saves a call: without it the call returns the same value"
_SHARED = (
    "dumps shares the stored dicts because it writes them out at once; a copy writes the same"
    " text (and for a value already copied, as in to_dict, sharing is not asked for)"
)
_FALSY = "None in place of False for a flag only tested for truth"
_PRECHECK = (
    "a pre-check of the field types: when it wrongly fails, the checked reads below run, find"
    " nothing wrong, and the result is the same"
)
_TYPE = {"inp": "int", "out": "int", "read": "int", "write": "int"} | dict.fromkeys(
    ("model", "message_id", "stop_reason"), "str"
)
_FALLBACK = "a fast-path test: when it fails, the general path below gives the same result"

EQUIVALENT: dict[str, tuple[Equivalent, ...]] = {
    "stats_engine": (
        Equivalent(
            "x__order",
            'return (float("INF") if first is None else first, len(s.turn_usage),'
            ' s.session_id or "")',
            'float("INF") is float("inf")',
        ),
        Equivalent(
            "x__codex_reset",
            'if isinstance(window, Mapping) and window.get("window_minutes") == FIVE_HOURS / 60:',
            "300 == 300.0: the same test",
        ),
        *(
            Equivalent(
                "x__count",
                f"return value if type(value) is int and value {test} else None",
                "a zero count is skipped by every caller (``if n:``), as None is",
            )
            for test in ("> 0", ">= 1")
        ),
        Equivalent(
            "xǁTokensǁof",
            "priced_counts(usage) if (usage.extra) or True else None,",
            "a shortcut: priced_counts of an empty extra is None",
        ),
        Equivalent(
            "xǁSessionStatsǁkeys",
            "found: set[str] = set().union(*self.turn_keys) if (self.turn_keys) or True else set()",
            "a shortcut: the union of no turns is the empty set",
        ),
        Equivalent(
            "xǁInputStatsǁ__init__",
            "self._turn: set[str] = None",
            "never read before the first turn opens, which sets it to an empty set",
        ),
        Equivalent(
            "xǁInputStatsǁ__init__",
            "folder = os.path.basename(os.path.dirname(label)) if (os.sep in label) or True"
            ' else ""',
            "a shortcut: the folder of a label without a separator is the empty name",
        ),
        *(
            Equivalent(
                "xǁInputStatsǁ_session",
                line,
                "a shortcut: the record before was of this session, which its key finds too",
            )
            for line in (
                "current = None",
                "if session_id is None and current is not None and current.session_id =="
                " session_id:",
            )
        ),
        Equivalent(
            "xǁInputStatsǁfeed",
            "if type(None) is RawMessage:  # a record kept whole: its session, time and place only",
            "a shortcut: a raw record is no role message and no content that counts, so every"
            " step below passes it by",
        ),
        *(
            Equivalent(
                "xǁInputStatsǁfeed",
                line,
                "the record's key is read only for an assistant's content, and an assistant"
                " message sets it first",
            )
            for line in ("record = None", 'record = "XXXX"')
        ),
        Equivalent(
            "xǁInputStatsǁfinish",
            'self._anon = self._current = ""',
            "finish is the last call an input's collector gets: nothing reads them after it",
        ),
        Equivalent(
            "x__result",
            "tokens = None if m.usage is None else Tokens.of(m.usage, )",
            "the cost argument dropped is given its default, None, as before",
        ),
        Equivalent(
            "xǁInputStatsǁ_blocks",
            "if type(None) is str:  # one text of the message's role",
            "text content then takes the flat path, which counts it the same",
        ),
        Equivalent(
            "xǁInputStatsǁ_blocks",
            "if not _READ_OFF.issuperset([type(None) for b in content]):",
            "every message then takes the flat path, which counts it the same",
        ),
    ),
    "convert": (
        Equivalent("x_normalize_messages", "cls = None", _FALLBACK),
        Equivalent("x_normalize_messages", "cls = type(None)", _FALLBACK),
        Equivalent("x_normalize_messages", "bcls = None", _FALLBACK),
        Equivalent("x_normalize_messages", "bcls = type(None)", _FALLBACK),
    ),
    "frozen": (
        Equivalent("xǁFrozenDictǁ__hash__", "h = None", "the hash cache: recomputed, same value"),
        Equivalent(
            "xǁFrozenDictǁ__hash__", '_set(self, "_h", None)', "the hash cache: never stored"
        ),
        *(
            Equivalent("x__plain_copy", line, _SHORTCUT)
            for line in (
                "c = None",
                "c = type(None)",
                "if (c is str or c is int or c is bool or item is None) and False",
                "if c is str or c is int or c is bool and item is None",
                "if c is str or c is int and c is bool or item is None",
                "if c is str and c is int or c is bool or item is None",
                "if (type(item) is str or item is None or type(item) is int or type(item) is bool)"
                " and False",
                "if type(item) is str or item is None or type(item) is int and type(item) is bool",
                "if type(item) is str or item is None and type(item) is int or type(item) is bool",
                "if type(item) is str and item is None or type(item) is int or type(item) is bool",
                "if type(None) is str or item is None or type(item) is int or type(item) is bool",
                "if type(item) is str or item is None or type(None) is int or type(item) is bool",
                "if type(item) is str or item is None or type(item) is int or type(None) is bool",
            )
        ),
        Equivalent(
            "x__checked_copy",
            "if cls is str and cls is int or cls is bool or value is None:",
            "exact str and int also pass the subclass branch below, which stores the same value",
        ),
        Equivalent("x__copy_object", "if type(None) is dict:", _FALLBACK),
        Equivalent("x__copy_object", "if type(value) is not dict:", _FALLBACK),
        Equivalent(
            "x__copy_object",
            "return _plain_copy(value, depth + 1, limit)  # type: ignore[no-any-return]",
            "a stricter fast copy gives up one level early and the checked copy finishes it",
        ),
    ),
    "serialize": (
        *(
            Equivalent(function, line, _SHARED)
            for function, line in (
                ("x__out", "return value._d if (shared) and False else thaw(value)"),
                ("x__out", "return [_out(item, None) for item in value]"),
                ("x__out", "return _encode(value, spec, nested=True, shared=None)"),
                ("x__out", "return _encode(value, spec, nested=True, )"),
                ("x__encodable", "_out(value, None)"),
                ("x__encodable", "_out(value, False)"),
                ("x__encode", "out[name] = _out(v, None)"),
                ("x_dumps", "return dump_compact(_encode(value, spec, nested=False, shared=None))"),
                ("x_dumps", "return dump_compact(_encode(value, spec, nested=False, ))"),
                (
                    "x_dumps",
                    "return dump_compact(_encode(value, spec, nested=False, shared=False))",
                ),
            )
        ),
        *(
            Equivalent("x__encode", line, _SHORTCUT)
            for line in (
                "cls = None",
                "cls = type(None)",
                "if cls is str or cls is int or cls is bool and v is None:",
                "if cls is str or cls is int and cls is bool or v is None:",
                "if cls is str and cls is int or cls is bool or v is None:",
            )
        ),
        Equivalent("x_to_dict", "return _encode(value, spec, nested=None)", _FALSY),
        Equivalent(
            "x_dumps", "return dump_compact(_encode(value, spec, nested=None, shared=True))", _FALSY
        ),
    ),
    "claude_encode": (
        *(
            Equivalent("x__carry", line, "the flag only saves building an equal tuple")
            for line in (
                "changed = None",
                "changed = True",
                "return tuple(out) if (changed) or True else content",
            )
        ),
        Equivalent(
            "x__flat",
            "block = replace(block, extra=None)",
            "the block's constructor turns an extra of None into the empty one",
        ),
        *(
            Equivalent(function, line, "the policy handed on meets text only, which it passes")
            for function, line in (
                (
                    "x__system_prompt",
                    'return _role_line(UserMessage(text, **context), "user", None)',
                ),
                ("x_encode_message", 'return _role_line(line, "assistant", None)'),
            )
        ),
    ),
    "claude_decode": (
        *(
            Equivalent(function, line, _PRECHECK)
            for function, names in (
                ("x__usage_any", ("inp", "out", "read", "write")),
                ("x__assistant_any", ("model", "message_id", "stop_reason")),
            )
            for i, name in enumerate(names)
            for line in (
                f"{'and ' if i else ''}({name} is None and type({name}) is {_TYPE[name]})",
                f"{'and ' if i else ''}({name} is None or type(None) is {_TYPE[name]})",
            )
        ),
        Equivalent(
            "x__usage_any",
            "return _new_usage(inp, out, read, write, None, None, wrap_owned(rest) if (rest) or"
            " True else EMPTY)",
            "the shared EMPTY in place of an equal empty FrozenDict",
        ),
        Equivalent(
            "x__stream_event_any",
            "extra = _STREAM_EXTRA if (rest == _STREAM_EXTRA._d) and False else wrap_owned(rest)",
            "the shared extra of a top-level stream event in place of an equal new one",
        ),
    ),
}


_PLUGIN = "_mutation_stack"
_PLUGIN_SOURCE = '''"""Loaded into pytest by tools/mutation.py: stack room for mutmut's trampolines.

Each mutated function is called through two extra frames, so tests that nest a few hundred
levels (the depth limits) would hit the recursion limit only because of mutmut.
"""

import sys

sys.setrecursionlimit(max(sys.getrecursionlimit(), 4000))
'''


def _config(module: Module) -> str:
    """The project's [tool.mutmut] section with this module and its tests filled in."""
    base = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["mutmut"]
    settings = dict(base)
    settings["only_mutate"] = [module.source]
    # -n 0: mutmut runs the tests in its own processes; the project's addopts ask pytest-xdist
    # for one worker per core, which would run them outside mutmut's reach.
    settings["pytest_add_cli_args"] = [
        *settings.get("pytest_add_cli_args", []),
        "-p",
        _PLUGIN,
        "-n",
        "0",
    ]
    settings["pytest_add_cli_args_test_selection"] = [
        test for test in module.tests if (ROOT / test).exists()
    ]
    lines = ["[tool.mutmut]"]
    for key, value in settings.items():
        lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n"


def _prepare(name: str, module: Module) -> Path:
    """The module's scratch folder, with a fresh config and links to the checkout."""
    folder = SCRATCH / name
    folder.mkdir(parents=True, exist_ok=True)
    for part in ("src", "tests"):
        link = folder / part
        if not link.is_symlink():
            link.symlink_to(ROOT / part)
    # The project's pytest settings (doctest flags, warnings as errors), then mutmut's.
    project = (ROOT / "pyproject.toml").read_text("utf-8")
    pytest_part = project[project.index("[tool.pytest.ini_options]") :]
    pytest_part = pytest_part[: pytest_part.index("\n[", 1) + 1]
    (folder / "pyproject.toml").write_text(pytest_part + "\n" + _config(module), "utf-8")
    # Beside the module folders: mutmut takes its working folder off sys.path.
    (SCRATCH / f"{_PLUGIN}.py").write_text(_PLUGIN_SOURCE, "utf-8")
    return folder


_CAUGHT = frozenset((1, 3, 36, 255, -24, 24, 152))
"""mutmut's exit codes for a mutant the tests noticed: a failure, or a timeout."""
_MISSED = frozenset((0, 5, 33))
"""mutmut's exit codes for a mutant nothing noticed: it survived, or no test ran it."""


def _statuses(folder: Path, module: Module) -> dict[str, int | None]:
    meta = folder / "mutants" / (module.source + ".meta")
    if not meta.exists():
        return {}
    data = json.loads(meta.read_text("utf-8"))
    return dict(data["exit_code_by_key"])


def _retest_survivors(folder: Path, module: Module) -> None:
    """Forget the verdict on each survivor, so a new test gets its chance to kill it.

    mutmut reruns the mutants of functions whose code changed, but not those a changed test
    might now kill. Killed mutants keep their verdict (``--fresh`` reruns everything).
    """
    meta = folder / "mutants" / (module.source + ".meta")
    if not meta.exists():
        return
    data = json.loads(meta.read_text("utf-8"))
    codes = data["exit_code_by_key"]
    for key, code in codes.items():
        if code in _MISSED:
            codes[key] = None
    meta.write_text(json.dumps(data), "utf-8")


def _added_lines(folder: Path, mutant: str) -> list[str]:
    shown = subprocess.run(
        ["mutmut", "show", mutant], cwd=folder, capture_output=True, text=True, check=False
    ).stdout
    return [
        line[1:].strip()
        for line in shown.splitlines()
        if line.startswith("+") and not line.startswith("+++")
    ]


def report(name: str, module: Module) -> float | None:
    """Print the score of the last run and each survivor; return the score."""
    folder = SCRATCH / name
    statuses = _statuses(folder, module)
    if not statuses:
        print(f"{name}: no results yet (run: python tools/mutation.py {name})")
        return None
    killed = sum(1 for code in statuses.values() if code in _CAUGHT)
    survived = [key for key, code in statuses.items() if code in _MISSED]
    other = {key: code for key, code in statuses.items() if code not in _CAUGHT | _MISSED}
    equivalents = EQUIVALENT.get(name, ())
    set_aside: list[tuple[str, Equivalent]] = []
    real: list[tuple[str, list[str]]] = []
    for key in survived:
        function = key.rsplit(".", 1)[1].rsplit("__mutmut_", 1)[0]
        added = _added_lines(folder, key)
        match = next((e for e in equivalents if e.function == function and e.line in added), None)
        if match is None:
            real.append((key, added))
        else:
            set_aside.append((key, match))
    counted = killed + len(real)
    score = 100.0 * killed / counted if counted else 100.0
    for key, added in real:
        print(f"survived  {key}: {' | '.join(added)}")
    for key, eq in set_aside:
        print(f"set aside {key}: {eq.why}")
    for key, code in other.items():
        print(f"other     {key}: exit code {code}")
    unused = [e for e in equivalents if all(e is not m for _, m in set_aside)]
    for e in unused:
        print(f"note: equivalent entry no longer matches a survivor: {e.function}: {e.line}")
    print(
        f"{name}: {score:.1f}% ({killed} killed of {counted}; {len(set_aside)} equivalent set"
        f" aside; {len(other)} other) goal {module.goal:.0f}%"
    )
    return score


def main() -> int:
    """Run mutmut on one core module (or report on it) and print the score."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("module", nargs="?", choices=sorted(MODULES))
    parser.add_argument("--report", action="store_true", help="only report the last run")
    parser.add_argument("--list", action="store_true", help="list the modules and their tests")
    parser.add_argument("--fresh", action="store_true", help="forget earlier results first")
    parser.add_argument("--max-children", type=int, default=2, help="parallel test processes")
    args = parser.parse_args()
    if args.list or args.module is None:
        for name, module in MODULES.items():
            print(f"{name}: {module.source} <- {' '.join(module.tests)} (goal {module.goal}%)")
        return 0
    module = MODULES[args.module]
    if not args.report:
        folder = _prepare(args.module, module)
        if args.fresh:
            shutil.rmtree(folder / "mutants", ignore_errors=True)
        else:
            _retest_survivors(folder, module)
        env = dict(os.environ)
        env.setdefault("HYPOTHESIS_PROFILE", "dev")
        env.setdefault("MESSAGES_FIXTURES", str(ROOT.parent / "shared" / "fixtures"))
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SCRATCH), env.get("PYTHONPATH")]))
        subprocess.run(
            ["mutmut", "run", "--max-children", str(args.max_children)],
            cwd=folder,
            env=env,
            check=False,
        )
    score = report(args.module, module)
    return 0 if score is not None and score >= module.goal else 1


if __name__ == "__main__":
    sys.exit(main())

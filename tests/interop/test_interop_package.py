"""The interop package: lazy imports, the shared surface, the extras."""

from __future__ import annotations

import importlib
import subprocess
import sys
import tomllib

import pytest

from conftest import ROOT
from messages import interop


def test_importing_the_bridges_imports_no_library() -> None:
    code = (
        "import sys, messages, messages.interop.claude_agent_sdk, messages.interop.langchain,"
        " messages.interop.pydantic_ai, messages.interop.mcp;"
        " print([m for m in ('claude_agent_sdk', 'langchain_core', 'pydantic_ai', 'mcp',"
        " 'pydantic') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("name", interop.MODULES)
def test_every_bridge_has_the_common_surface(name: str) -> None:
    module = importlib.import_module(f"messages.interop.{name}")
    for attr in ("NAME", "VERSIONS", "to_messages", "from_messages"):
        assert hasattr(module, attr), f"{name} lacks {attr}"
    assert module.__doc__ and "Tested against" in module.__doc__
    assert sorted(module.__all__) == module.__all__


@pytest.mark.parametrize("name", interop.MODULES)
def test_an_unknown_policy_is_refused(name: str) -> None:
    from messages import EncodeError
    from messages import UserMessage

    pytest.importorskip({"langchain": "langchain_core", "otel": "json"}.get(name, name))
    module = importlib.import_module(f"messages.interop.{name}")
    with pytest.raises(EncodeError):
        module.from_messages([UserMessage("hi")], unsupported="ignore")


def test_the_extras_name_every_library_and_the_test_extra_installs_them() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    extras = project["optional-dependencies"]
    wanted = {
        "claude-agent-sdk": "claude-agent-sdk",
        "langchain": "langchain-core",
        "pydantic-ai": "pydantic-ai-slim",
        "mcp": "mcp",
    }
    for extra, distribution in wanted.items():
        [requirement] = extras[extra]
        assert requirement.startswith(distribution + ">="), requirement
    assert extras["interop"] == [f"llm-messages[{','.join(wanted)}]"]
    assert "llm-messages[interop]" in extras["test"]
    assert any(r.startswith("llm-messages[test") for r in extras["dev"])

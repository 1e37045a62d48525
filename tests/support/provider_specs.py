"""What the provider contract tests need to know about each provider, one entry per name.

``tests/contract/test_providers.py`` runs the same laws over every name in
``messages.providers.NAMES``; the few facts that differ between the wire formats (which
request keys carry the conversation, which validator checks a request, what a conversation
the format carries exactly looks like, what a stream says before it ends) live here, so a
new provider is one more entry. ``SPECS`` must name every registered provider: the contract
suite checks that.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from hypothesis import strategies as st

from messages import Message
from support.provider_checks import FIXTURES
from support.provider_checks import check_anthropic
from support.provider_checks import check_bedrock
from support.provider_checks import check_chat
from support.provider_checks import check_gemini
from support.provider_checks import check_responses
from support.provider_checks import load
from support.provider_checks import view
from support.provider_strategies import anthropic_conversations
from support.provider_strategies import bedrock_conversations
from support.provider_strategies import chat_conversations
from support.provider_strategies import conversations

Check = Callable[..., None]


def _exactly(conversation: Sequence[Message]) -> Any:
    return tuple(conversation)


def _results_after_calls(entries: list[Any]) -> list[Any]:
    """Responses' documented normalisation: each result moves up to just after its call
    (past the calls made with it and the results already placed there), as the Responses
    API requires: text written after a call in the same turn comes after its answer."""
    out: list[Any] = []
    for entry in entries:
        if entry[0] == "result":
            calls = [i for i, e in enumerate(out) if e[0] == "call" and e[1] == entry[1]]
            if calls:
                at = calls[-1] + 1
                while at < len(out) and out[at][0] in ("call", "result"):
                    at += 1
                out.insert(at, entry)
                continue
        out.append(entry)
    return out


@dataclass(frozen=True)
class Spec:
    """One provider's facts for the contract tests."""

    name: str
    check: Check
    """The request validator (``support.provider_checks``)."""
    request_keys: tuple[str, ...]
    """The keys of a request body that carry the conversation."""
    containers: tuple[str, ...]
    """Where a fuzzed list goes in a body: the request's and the response's main array."""
    damaged: tuple[str, str]
    """A request and a response fixture to damage node by node."""
    unfinished: str
    """What ``message()`` says before the stream has ended."""
    stream_error: tuple[str, str | None, str | None]
    """``stream_error.jsonl`` reassembled: its text, ``error`` and ``stop_reason``."""
    carried: Callable[[], st.SearchStrategy[list[Message]]]
    """Conversations the format carries (exactly, or up to :attr:`keeps`)."""
    keeps: Callable[[Sequence[Message]], Any] = _exactly
    """What a request keeps of a conversation it carries."""
    moves: Callable[[Any], Any] = lambda kept: kept
    """The documented reordering of what a request keeps (Responses moves late results)."""
    valid_fixtures: bool = True
    """Whether every request fixture re-encodes to a body the validator accepts (the
    Responses and Gemini fixtures hold items the validator does not know, on purpose)."""
    event: dict[str, Any] = field(default_factory=dict)
    """Merged into a fuzzed event object, so the fuzzing gets past the event dispatch."""

    def request_part(self, body: dict[str, Any]) -> dict[str, Any]:
        """The conversation-carrying part of a request body."""
        return {k: body[k] for k in self.request_keys if k in body}

    def fixtures(self, prefix: str) -> list[str]:
        """The JSON fixtures whose names start with ``prefix``."""
        return sorted(p.name for p in (FIXTURES / self.name).glob(f"{prefix}*.json"))

    def streams(self) -> list[tuple[str, str]]:
        """Each stream fixture with the non-streamed response it must reassemble to.

        The response is ``stream_x.response.json`` or ``response_x.json``; a stream with
        neither (an error stream) has no response to equal.
        """
        pairs = []
        for path in sorted((FIXTURES / self.name).glob("stream_*.jsonl")):
            stem = path.name.removesuffix(".jsonl")
            for response in (f"{stem}.response.json", f"response_{stem[7:]}.json"):
                if (FIXTURES / self.name / response).exists():
                    pairs.append((path.name, response))
                    break
        return pairs

    def load(self, name: str) -> Any:
        """A fixture of this provider."""
        return load(self.name, name)


SPECS: dict[str, Spec] = {
    spec.name: spec
    for spec in (
        Spec(
            "anthropic",
            check_anthropic,
            ("system", "messages"),
            ("messages", "content"),
            ("request_tool_loop.json", "response_reference.json"),
            "anthropic: $: expected a message_stop event, found the stream still open",
            ("Let me think about", "overloaded_error", None),
            anthropic_conversations,
        ),
        Spec(
            "openai_chat",
            check_chat,
            ("messages",),
            ("messages", "choices"),
            ("request_reference.json", "response_tool_calls.json"),
            "openai_chat: $: expected a finish_reason, found the stream still open",
            ("Partial ans", "rate_limit_exceeded", None),
            chat_conversations,
        ),
        Spec(
            "openai_responses",
            check_responses,
            ("instructions", "input"),
            ("input", "output"),
            ("request_agent_loop.json", "response_tool_call.json"),
            "openai_responses: $: the stream has not finished: no response.completed, "
            "response.incomplete, response.failed or error event",
            ("Partial ans", "server_error", "failed"),
            lambda: conversations(gemini=False),
            keeps=lambda conversation: view(conversation, gemini=False),
            moves=_results_after_calls,
            valid_fixtures=False,
            event={"type": "response.output_text.delta"},
        ),
        Spec(
            "gemini",
            check_gemini,
            ("systemInstruction", "contents"),
            ("contents", "candidates"),
            ("request_agent_loop.json", "response_tool_call.json"),
            "gemini: $: the stream has not finished: no chunk carried a finishReason",
            ("Partial ans", "UNAVAILABLE", None),
            lambda: conversations(gemini=True),
            keeps=lambda conversation: view(conversation, gemini=True),
            valid_fixtures=False,
        ),
        Spec(
            "bedrock",
            check_bedrock,
            ("system", "messages"),
            ("messages", "content"),
            ("request_agent_loop.json", "response_tool_use.json"),
            "bedrock: $: the stream has not finished: no messageStop event",
            ("Partial ans", "throttlingException", None),
            bedrock_conversations,
            keeps=lambda conversation: view(conversation, gemini=True),
        ),
    )
}
"""Every provider's facts, by name."""

CHECKS: dict[str, Check] = {name: spec.check for name, spec in SPECS.items()}
"""The request validator of each provider."""


def as_json(value: Any) -> Any:
    """``value`` after a trip through JSON text: what the API would receive."""
    return json.loads(json.dumps(value))

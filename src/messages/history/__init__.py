"""What agent code does to a history between model calls.

Pure functions over sequences of messages (role messages, flat messages, or a mix).
They return tuples and never change their input; session messages (results, errors,
init, stream events) pass through untouched unless a function says otherwise.

- :func:`coerce` / :func:`coerce_message`: strings, ``(role, content)`` pairs, OpenAI,
  Anthropic, langchain and native dicts into messages, with path-bearing errors.
- :func:`merge_runs`: consecutive messages from the same speaker become one.
- :func:`filter_messages` (also ``history.filter``): by kind, role, name and id; tool
  calls are removed together with their results.
- :func:`trim`: fit a token budget without splitting a tool call from its result.
- :func:`count_tokens_approximately`, :func:`per_message`: token counting, with hooks for
  exact tokenizers.
- :func:`repair`: drop orphaned and duplicate results, answer dangling calls with marked
  synthetic errors, put results first; returns the list of :class:`Change` records.
- :func:`total_usage`, :func:`usage_by_session`: tokens and cost, never double counted.

``filter`` is an alias of :func:`filter_messages` for ``history.filter(...)``. It is left
out of ``__all__`` on purpose, so ``from messages.history import *`` does not shadow the
builtin ``filter``.

>>> from messages import history
>>> msgs = history.coerce(["list files", ("assistant", "Sure.")])
>>> history.filter(msgs, include_roles="user")
(UserMessage(content='list files'),)
"""

from __future__ import annotations

from ._coerce import ROLE_ALIASES
from ._coerce import MessageLike
from ._coerce import coerce
from ._coerce import coerce_message
from ._repair import SYNTHETIC_TEXT
from ._repair import Change
from ._repair import ChangeKind
from ._repair import is_synthetic
from ._repair import repair
from ._runs import filter_messages
from ._runs import merge_runs
from ._totals import total_usage
from ._totals import usage_by_session
from ._trim import TokenCounter
from ._trim import count_tokens_approximately
from ._trim import per_message
from ._trim import trim

__all__ = [
    "Change",
    "ChangeKind",
    "MessageLike",
    "ROLE_ALIASES",
    "SYNTHETIC_TEXT",
    "TokenCounter",
    "coerce",
    "coerce_message",
    "count_tokens_approximately",
    "filter_messages",
    "is_synthetic",
    "merge_runs",
    "per_message",
    "repair",
    "total_usage",
    "trim",
    "usage_by_session",
]

filter = filter_messages  # history.filter(...); deliberately not in __all__
"""Alias of :func:`filter_messages`, for ``history.filter(...)``."""

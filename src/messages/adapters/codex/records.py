"""Codex rollout records beside the conversation, both ways (private half of :mod:`.codex`).

- ``turn_context`` -> :class:`TurnContextMessage` (``turn_id``, ``cwd``, ``approval_policy``,
  ``sandbox_policy``, ``effort``, ``model``);
- ``event_msg`` ``task_started`` / ``task_complete`` / ``turn_aborted`` ->
  :class:`TurnEventMessage`; ``context_compacted`` -> :class:`CompactBoundaryMessage`;
  a tool's begin and end reports (``exec_command_end``, ``patch_apply_end``,
  ``web_search_end``...) -> :class:`ProgressMessage` (``tool_use_id`` = ``call_id``, the other
  fields in ``data``); a ``token_count`` with rate limits only -> :class:`RateLimitMessage`;
  ``thread_name_updated`` -> :class:`TitleMessage`; the other events Codex keeps in its
  rollouts (``thread_rolled_back``, ``undo_completed``, review mode, plan updates...) ->
  :class:`SystemEventMessage` (``subtype`` = the event type, ``data`` = its fields);
- ``response_item`` ``web_search_call`` -> an :class:`AssistantMessage` holding the search as
  a server tool call and, when the item reports its ``status``, its result; a ``compaction``
  item (the opaque summary of a remote compaction, which only OpenAI can read) ->
  :class:`CompactBoundaryMessage` whose ``metadata`` holds it (``encrypted_content``); a
  ``ghost_snapshot`` item (the commit Codex takes of the worktree so a turn can be undone)
  -> :class:`FileSnapshotMessage`.

As everywhere in the rollout codec, what a message does not model stays in the line's
skeleton (its ``extra``) and each payload is rebuilt over it, keys in the order Codex writes
them. A field of the wrong type is never an error here: it stays in the skeleton.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Final

from ..._core.frozen import raw
from ..._core.make import wrap_owned
from ...blocks import ServerToolResultBlock
from ...blocks import ServerToolUseBlock
from ...events.agent import CompactBoundaryMessage
from ...events.agent import RateLimitMessage
from ...events.agent import SystemEventMessage
from ...events.records import FileSnapshotMessage
from ...events.records import ProgressMessage
from ...events.records import TitleMessage
from ...events.records import TurnContextMessage
from ...events.records import TurnEventMessage
from ...message import Message
from ...roles import AssistantMessage

__all__ = [
    "ORDER",
    "decode_record_event",
    "decode_record_item",
    "decode_turn_context",
    "encode_record_event",
    "encode_record_item",
    "encode_turn_context",
    "tag_of",
]

TURN_EVENTS: Final = frozenset(
    ("task_started", "task_complete", "turn_started", "turn_complete", "turn_aborted")
)
"""``event_msg`` types that mark a turn's start or end."""
TOOL_REPORTS: Final = frozenset(
    (
        "exec_command_begin",
        "exec_command_end",
        "patch_apply_begin",
        "patch_apply_end",
        "web_search_begin",
        "web_search_end",
        "mcp_tool_call_begin",
        "mcp_tool_call_end",
        "image_generation_begin",
        "image_generation_end",
    )
)
"""``event_msg`` types that report on a tool call by its ``call_id``."""
HARNESS_EVENTS: Final = frozenset(
    (
        "thread_rolled_back",
        "undo_completed",
        "entered_review_mode",
        "exited_review_mode",
        "plan_update",
        "thread_goal_updated",
        "item_completed",
    )
)
"""Other ``event_msg`` types Codex persists: kept whole as a :class:`SystemEventMessage`."""
COMPACTION_ITEMS: Final = frozenset(("compaction", "compaction_summary"))
"""``response_item`` types that hold the opaque summary of a remote compaction."""
_WEB_SEARCH: Final = "web_search_call"
_WEB_RESULT_FIELDS: Final = ("status",)
"""The fields of a web search item that report what happened rather than what was asked."""

ORDER: Final = {
    "turn_context": (
        "turn_id",
        "cwd",
        "approval_policy",
        "sandbox_policy",
        "model",
        "personality",
        "collaboration_mode",
        "effort",
        "summary",
    ),
    "turn_event": (
        "type",
        "turn_id",
        "reason",
        "last_agent_message",
        "model_context_window",
        "collaboration_mode_kind",
    ),
    "tool_report": ("type", "call_id"),
    "rate_limits": ("type", "info", "rate_limits"),
    "thread_name_updated": ("type", "thread_id", "thread_name"),
    _WEB_SEARCH: ("type", "id", "status", "action"),
}
"""The order Codex writes each payload's fields in: modelled fields go back in place."""

_TURN_CONTEXT: Final = (
    ("turn_id", str),
    ("cwd", str),
    ("approval_policy", str),
    ("sandbox_policy", dict),
    ("effort", str),
    ("model", str),
)
_TURN_EVENT: Final = (
    ("turn_id", str),
    ("reason", str),
    ("last_agent_message", str),
    ("model_context_window", int),
)

InPlace = Callable[[dict[str, Any], dict[str, Any], tuple[str, ...]], dict[str, Any]]
"""The rollout codec's ``_in_place``: puts modelled keys back where Codex writes them."""


def tag_of(d: dict[str, Any]) -> str | None:
    """The ``type`` of a JSON object when it is a string (anything else matches no kind)."""
    tag = d.get("type")
    return tag if type(tag) is str else None


def _take(
    p: dict[str, Any], fields: tuple[tuple[str, type], ...]
) -> tuple[list[Any], dict[str, Any]]:
    """Each field of the expected type, and the payload less them (the others stay)."""
    rest = dict(p)
    values: list[Any] = []
    for name, kind in fields:
        value = p.get(name)
        if value is not None and type(value) is kind:
            del rest[name]
            values.append(wrap_owned(p[name]) if kind is dict else value)
        else:
            values.append(None)
    return values, rest


# -- decoding ---------------------------------------------------------------------------------


def decode_turn_context(p: dict[str, Any], sk: dict[str, Any], ts: Any) -> TurnContextMessage:
    """A ``turn_context`` payload; ``sk`` (the line's skeleton) gets the payload's rest."""
    (turn_id, cwd, approval, sandbox, effort, model), rest = _take(p, _TURN_CONTEXT)
    sk["payload"] = rest
    return TurnContextMessage(
        turn_id,
        cwd=cwd,
        approval_policy=approval,
        sandbox_policy=sandbox,
        effort=effort,
        model=model,
        timestamp=ts,
        extra=wrap_owned(sk),
    )


def decode_record_event(
    p: dict[str, Any], sk: dict[str, Any], ts: Any, model: str | None
) -> Message | None:
    """An ``event_msg`` payload this module types; ``None`` for any other."""
    tag = tag_of(p)
    if tag in TURN_EVENTS:
        (turn_id, reason, last, window), rest = _take(p, _TURN_EVENT)
        sk["payload"] = rest
        return TurnEventMessage(
            tag,
            turn_id=turn_id,
            reason=reason,
            last_message=last,
            context_window=window,
            model=model,
            timestamp=ts,
            extra=wrap_owned(sk),
        )
    if tag in TOOL_REPORTS:
        call_id = p.get("call_id")
        rest = {"type": tag}
        if type(call_id) is not str:
            call_id = None
            if "call_id" in p:
                rest["call_id"] = p["call_id"]
        data = {k: v for k, v in p.items() if k not in ("type", "call_id")}
        sk["payload"] = rest
        return ProgressMessage(
            tag, data, tool_use_id=call_id, model=model, timestamp=ts, extra=wrap_owned(sk)
        )
    if tag == "context_compacted":
        sk["payload"] = p
        return CompactBoundaryMessage(model=model, timestamp=ts, extra=wrap_owned(sk))
    if tag == "thread_name_updated":
        (name, thread), rest = _take(p, (("thread_name", str), ("thread_id", str)))
        sk["payload"] = rest
        return TitleMessage(name, session_id=thread, timestamp=ts, extra=wrap_owned(sk))
    if tag in HARNESS_EVENTS:
        sk["payload"] = {"type": tag}
        fields = wrap_owned({k: v for k, v in p.items() if k != "type"})
        return SystemEventMessage(tag, fields, model=model, timestamp=ts, extra=wrap_owned(sk))
    if tag == "token_count" and p.get("info") is None and type(p.get("rate_limits")) is dict:
        sk["payload"] = {k: v for k, v in p.items() if k != "rate_limits"}
        info = wrap_owned(p["rate_limits"])
        return RateLimitMessage(info, model=model, timestamp=ts, extra=wrap_owned(sk))
    return None


def decode_record_item(
    p: dict[str, Any], sk: dict[str, Any], ts: Any, model: str | None
) -> Message | None:
    """A ``response_item`` payload this module types; ``None`` for any other."""
    tag = tag_of(p)
    if tag == _WEB_SEARCH:
        call_id = p.get("id")
        rest: dict[str, Any] = {"type": tag}
        if type(call_id) is not str or not call_id:
            call_id = ""  # Codex writes no id on these items: the call stands alone
            if "id" in p:
                rest["id"] = p["id"]
        asked = {k: v for k, v in p.items() if k not in ("type", "id", *_WEB_RESULT_FIELDS)}
        got = {k: p[k] for k in _WEB_RESULT_FIELDS if k in p}
        blocks: list[Any] = [
            ServerToolUseBlock(call_id, "web_search", wrap_owned(asked), provider="openai")
        ]
        if got:
            content = wrap_owned(got)
            blocks.append(ServerToolResultBlock(call_id, "web_search", content, provider="openai"))
        sk["payload"] = rest
        return AssistantMessage(tuple(blocks), model=model, timestamp=ts, extra=wrap_owned(sk))
    if tag == "ghost_snapshot" and type(p.get("ghost_commit")) is dict:
        sk["payload"] = {k: v for k, v in p.items() if k != "ghost_commit"}
        commit = wrap_owned(p["ghost_commit"])
        return FileSnapshotMessage(commit, timestamp=ts, extra=wrap_owned(sk))
    if tag in COMPACTION_ITEMS:  # opaque to all but OpenAI: a boundary, its content kept
        sk["payload"] = {"type": tag}
        metadata = wrap_owned({k: v for k, v in p.items() if k != "type"})
        return CompactBoundaryMessage(metadata, model=model, timestamp=ts, extra=wrap_owned(sk))
    return None


# -- encoding ---------------------------------------------------------------------------------


def encode_turn_context(m: Message, p: dict[str, Any], in_place: InPlace) -> dict[str, Any] | None:
    """A :class:`TurnContextMessage` over its payload skeleton ``p``; else ``None``."""
    if not isinstance(m, TurnContextMessage):
        return None
    built = dict(p)
    for name, value in (
        ("turn_id", m.turn_id),
        ("cwd", m.cwd),
        ("approval_policy", m.approval_policy),
        ("sandbox_policy", None if m.sandbox_policy is None else raw(m.sandbox_policy)),
        ("effort", m.effort),
        ("model", m.model),
    ):
        if value is not None:
            built[name] = value
    return in_place(built, p, ORDER["turn_context"])


def encode_record_event(m: Message, p: dict[str, Any], in_place: InPlace) -> dict[str, Any] | None:
    """An ``event_msg`` payload for a record this module types; ``None`` if ``m`` does not fit."""
    kind = tag_of(p)
    if kind in TURN_EVENTS and isinstance(m, TurnEventMessage):
        built = {**p, "type": m.subtype}
        for name, value in (
            ("turn_id", m.turn_id),
            ("reason", m.reason),
            ("last_agent_message", m.last_message),
            ("model_context_window", m.context_window),
        ):
            if value is not None:
                built[name] = value
        return in_place(built, p, ORDER["turn_event"])
    if kind in TOOL_REPORTS and isinstance(m, ProgressMessage):
        built = dict(p)
        if m.subtype is not None:
            built["type"] = m.subtype
        if m.tool_use_id is not None:
            built["call_id"] = m.tool_use_id
        if m.data is not None:
            built.update(raw(m.data))
        return in_place(built, p, ORDER["tool_report"])
    if kind == "context_compacted" and isinstance(m, CompactBoundaryMessage):
        built = dict(p)
        if m.metadata is not None:
            built.update(raw(m.metadata))
        return built
    if kind == "thread_name_updated" and isinstance(m, TitleMessage):
        built = dict(p)
        if m.session_id is not None:
            built["thread_id"] = m.session_id
        if m.title is not None:
            built["thread_name"] = m.title
        return in_place(built, p, ORDER["thread_name_updated"])
    if kind in HARNESS_EVENTS and isinstance(m, SystemEventMessage):
        return {**p, "type": m.subtype, **raw(m.data)}
    if kind == "token_count" and isinstance(m, RateLimitMessage) and m.info is not None:
        built = {**p, "rate_limits": raw(m.info)}
        return in_place(built, p, ORDER["rate_limits"])
    return None


def encode_record_item(m: Message, p: dict[str, Any], in_place: InPlace) -> dict[str, Any] | None:
    """A ``response_item`` payload for a record this module types; ``None`` if it does not fit."""
    kind = tag_of(p)
    if kind == _WEB_SEARCH and isinstance(m, AssistantMessage) and not isinstance(m.content, str):
        blocks = m.content
        if not 1 <= len(blocks) <= 2 or not isinstance(blocks[0], ServerToolUseBlock):
            return None
        use = blocks[0]
        built = dict(p)
        if use.id:
            built["id"] = use.id
        built.update(raw(use.input))
        if len(blocks) == 2:
            result = blocks[1]
            if not isinstance(result, ServerToolResultBlock):
                return None
            content = raw(result.content)
            if type(content) is not dict:
                return None
            built.update(content)
        return in_place(built, p, ORDER[_WEB_SEARCH])
    if kind == "ghost_snapshot" and isinstance(m, FileSnapshotMessage) and m.snapshot is not None:
        return in_place({**p, "ghost_commit": raw(m.snapshot)}, p, ("type", "ghost_commit"))
    if kind in COMPACTION_ITEMS and isinstance(m, CompactBoundaryMessage):
        return {**p, **({} if m.metadata is None else raw(m.metadata))}
    return None

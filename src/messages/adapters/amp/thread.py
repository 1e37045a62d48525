"""One Amp thread's records: its header and its message entries, both ways.

An Amp thread file (``threads/T-<uuid>.json``) is one JSON object: the thread's fields (``v``,
``id``, ``created``, ``title``, ``env``, ``usageLedger``...) and a ``messages`` list. Each
entry of ``messages`` is ``{"role", "messageId", "content", ...}``, its content Anthropic-
shaped blocks (``text``, ``thinking``, ``tool_use``) plus Amp's own ``tool_result`` (the call's
id under ``toolUseID`` and its outcome under ``run``); an assistant entry carries ``state``
(``stopReason``) and ``usage`` (``model``, ``inputTokens``, ``outputTokens``,
``cacheCreationInputTokens``, ``cacheReadInputTokens``, ``timestamp``...).
"""

from __future__ import annotations

from typing import Any
from typing import Final

from ..._core.frozen import raw
from ..._core.make import wrap_owned
from ..._core.wire import fail
from ..._core.wire import need_str
from ..._core.wire import opt_obj
from ..._core.wire import opt_str
from ..._core.wire import opt_time
from ..._core.wire import present
from ..._core.wire import rest
from ...blocks import Block
from ...blocks import RawBlock
from ...blocks import TextBlock
from ...blocks import ThinkingBlock
from ...blocks import ToolResultBlock
from ...blocks import ToolUseBlock
from ...errors import DecodeError
from ...events.run import InitMessage
from ...message import Message
from ...policy import Policy
from ...roles import AssistantMessage
from ...roles import UserMessage
from .. import _events as ev
from .._common import content_text
from .._common import other_out
from .._common import text_in
from .._common import text_out

__all__ = ["decode_entry", "decode_header", "encode_entry", "encode_header", "is_thread"]

_COUNTS: Final = {
    "inputTokens": "input_tokens",
    "outputTokens": "output_tokens",
    "cacheCreationInputTokens": "cache_write_tokens",
    "cacheReadInputTokens": "cache_read_tokens",
}
"""An entry's ``usage`` counts, and the :class:`Usage` field each one is."""
_USAGE: Final = frozenset((*_COUNTS, "model", "timestamp"))
"""The ``usage`` keys an assistant message models (its counts, the model, the time)."""
_ENTRY: Final = frozenset(("role", "messageId", "content"))
_ASSISTANT: Final = _ENTRY | {"usage"}


def is_thread(obj: Any) -> bool:
    """Whether ``obj`` is an Amp thread (``id`` ``T-...``), whole or as its header."""
    if type(obj) is not dict or "type" in obj or "kind" in obj:
        return False
    ident = obj.get("id")
    if type(ident) is not str or not ident.startswith("T-"):
        return False
    return type(obj.get("messages")) is list or "created" in obj or "usageLedger" in obj


def decode_header(d: dict[str, Any]) -> InitMessage:
    """A thread without its entries: ``id`` as ``session_id``, ``created`` as ``timestamp``."""
    extra = rest(d, frozenset(("id", "created")))
    return InitMessage(
        session_id=need_str(d, "id"),
        timestamp=opt_time(d, "created"),
        extra=ev.frozen(extra),
    )


def encode_header(m: InitMessage) -> dict[str, Any]:
    """A header back as the thread's fields (``messages`` as the header kept it)."""
    return ev.overlay(present(id=m.session_id, created=m.timestamp), m.extra)


def _block(b: Any, at: str) -> Block:
    found = text_in(b, at)  # text, thinking, or not an object
    if found is not None:
        return found
    tag = b.get("type")
    if tag == "tool_use" and type(b.get("id")) is str and type(b.get("name")) is str:
        args = b.get("input", {})
        if type(args) is not dict:
            raise fail("an object", args, "input", at)
        left = rest(b, frozenset(("type", "id", "name", "input")))
        if "input" not in b:
            left["input"] = None  # no input written: kept as absent
        return ToolUseBlock(b["id"], b["name"], wrap_owned(args), extra=ev.frozen(left))
    if tag == "tool_result" and type(b.get("toolUseID")) is str and "run" in b:
        run = opt_obj(b, "run", at)
        result = None if run is None else run.get("result")
        left = rest(b, frozenset(("type", "toolUseID")))
        content = ""
        if run is not None and type(result) is str and result:
            content = result  # the run's text; the rest of the run stays as written
            left["run"] = rest(run, frozenset(("result",)))
        failed = run is not None and run.get("status") == "error"
        return ToolResultBlock(
            b["toolUseID"], content, is_error=failed or None, extra=ev.frozen(left)
        )
    return RawBlock(wrap_owned(b))


def _blocks(d: dict[str, Any]) -> str | tuple[Block, ...]:
    content = d.get("content", [])
    if type(content) is str:
        return content
    if type(content) is not list:
        raise fail("a list or a string", content, "content")
    return tuple(_block(b, f"$.content[{i}]") for i, b in enumerate(content))


def decode_entry(d: dict[str, Any], session_id: str | None = None) -> Message:
    """One entry of a thread's ``messages`` to a role message."""
    role = need_str(d, "role")
    ident = d.get("messageId")
    message_id = str(ident) if type(ident) in (int, str) else None
    content = _blocks(d)
    if role == "user":
        extra = rest(d, _ENTRY)
        if "content" not in d:
            extra["content"] = None
        _keep_id(d, extra)
        return UserMessage(
            content, session_id=session_id, message_id=message_id, extra=ev.frozen(extra)
        )
    if role != "assistant":
        raise DecodeError(f"expected 'user' or 'assistant', found {role!r}", path="$.role")
    extra = rest(d, _ASSISTANT)
    if "content" not in d:
        extra["content"] = None
    _keep_id(d, extra)
    usage = model = stamp = None
    found = opt_obj(d, "usage")
    if found is not None:
        at = "$.usage"
        model = opt_str(found, "model", at)
        stamp = opt_time(found, "timestamp", at)
        usage = ev.usage_in(found, _COUNTS, at, _USAGE)
    state = d.get("state")
    stop = state.get("stopReason") if type(state) is dict else None
    return AssistantMessage(
        content,
        usage=usage,
        stop_reason=stop if type(stop) is str else None,
        session_id=session_id,
        model=model,
        message_id=message_id,
        timestamp=stamp,
        extra=ev.frozen(extra),
    )


def _keep_id(d: dict[str, Any], extra: dict[str, Any]) -> None:
    """``messageId`` is written back as it was (a number, usually)."""
    if "messageId" in d:
        extra["messageId"] = d["messageId"]


def _block_out(b: Block, policy: Policy, at: str) -> Any:
    match b:
        case TextBlock() | ThinkingBlock():
            out = text_out(b, policy, at, "Amp text blocks carry no citations")
        case ToolUseBlock():
            out = {"type": "tool_use", "id": b.id, "name": b.name, "input": raw(b.input)}
        case ToolResultBlock():
            text = content_text(b.content, policy, at + ".content")
            if "run" in b.extra:  # the run as written, its text put back
                run = dict(raw(b.extra["run"]))
            else:
                run = {"status": "error" if b.is_error else "done"}
            if text:
                run["result"] = text
            out = {"type": "tool_result", "toolUseID": b.tool_use_id, "run": run}
        case _:  # raw, media, server tools
            return other_out(b, policy, at, "Amp has no block")
    return _strip(ev.overlay(out, b.extra))


def _strip(out: dict[str, Any]) -> dict[str, Any]:
    """Keys the decoder marked absent (kept as null) are left out again."""
    return {k: v for k, v in out.items() if not (v is None and k == "input")}


def encode_entry(m: UserMessage | AssistantMessage, policy: Policy) -> dict[str, Any]:
    """A role message back as a thread entry."""
    out: dict[str, Any] = {"role": m.role}
    if m.message_id is not None:
        out["messageId"] = m.message_id
    if isinstance(m.content, str):
        out["content"] = m.content
    else:
        blocks = [_block_out(b, policy, f"$.content[{i}]") for i, b in enumerate(m.content)]
        out["content"] = [b for b in blocks if b is not None]
    if isinstance(m, AssistantMessage):
        usage: dict[str, Any] | None = None
        u = m.usage
        if u is not None:
            usage = ev.usage_out(u, _COUNTS)
        if m.model is not None or m.timestamp is not None:
            usage = usage if usage is not None else {}
            if m.model is not None:
                usage["model"] = m.model
            if m.timestamp is not None:
                usage["timestamp"] = m.timestamp
        if usage is not None:
            out["usage"] = usage
        if m.stop_reason is not None and "state" not in m.extra:
            out["state"] = {"type": "complete", "stopReason": m.stop_reason}
    out = ev.overlay(out, m.extra)
    if out.get("content", []) is None:
        del out["content"]
    return out

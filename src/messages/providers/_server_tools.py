"""Server-side tools between providers: which call and result each provider can carry.

A server tool block decoded from one provider holds that provider's own shapes (its input,
its result value, its extra fields), so it goes back exactly to the provider that ran it.
Another provider takes it only where a counterpart exists, and then in that provider's own
shape: code execution, which Anthropic (``code_execution`` server tool) and Gemini
(``executableCode`` / ``codeExecutionResult`` parts) both have. Everything else (web search
results with Anthropic's encrypted content, OpenAI's items) has no counterpart and follows
the caller's policy.

>>> from messages import ServerToolResultBlock
>>> gemini = ServerToolResultBlock("", "code_execution", {"outcome": "OUTCOME_OK", "output": "4"},
...                                provider="google")
>>> code_result(gemini, "anthropic")
{'type': 'code_execution_result', 'stdout': '4', 'stderr': '', 'return_code': 0, 'content': []}
"""

from __future__ import annotations

import re
from typing import Any
from typing import Final

from .._core.frozen import EMPTY
from .._core.frozen import FrozenDict
from .._core.frozen import JsonValue
from .._core.frozen import thaw
from .._core.make import wrap_owned
from ..blocks import Block
from ..blocks import RawBlock
from ..blocks import ServerToolResultBlock
from ..blocks import ServerToolUseBlock
from ..blocks import TextBlock
from ..policy import Policy
from ._carry import carried
from ._formats import ANTHROPIC
from ._formats import CHAT
from ._formats import GEMINI
from ._formats import RESPONSES
from ._formats import Place
from ._gemini_names import SYNTHETIC_ID_PREFIX
from ._gemini_names import CallIds

__all__ = [
    "CODE_EXECUTION",
    "COMPACTION",
    "ResponsesItems",
    "VENDOR",
    "anthropic_id",
    "code_input",
    "code_result",
    "decode_gemini",
    "decode_responses",
    "encode_gemini",
    "is_own",
    "place",
]

VENDOR: Final = {ANTHROPIC: "anthropic", GEMINI: "google", RESPONSES: "openai", CHAT: "openai"}
"""The ``provider`` a server tool block decoded from each format names (as on thinking)."""

CODE_EXECUTION: Final = "code_execution"
"""The one server tool two providers share: its name on a call, its ``tool`` on a result."""

COMPACTION: Final = "compaction"
"""The ``tool`` of a Responses ``compaction`` item: the server's compaction of the history."""


def place(block: ServerToolUseBlock | ServerToolResultBlock) -> Place:
    """Where the block's ``extra`` sits, for the extra rule: a call's place or a result's."""
    return "tool_use" if isinstance(block, ServerToolUseBlock) else "tool_result"


def is_own(block: ServerToolUseBlock | ServerToolResultBlock, target: str) -> bool:
    """Whether the block came from the target (or from nowhere said): written as it is."""
    return block.provider is None or block.provider == VENDOR[target]


_NOT_ID: Final = re.compile(r"[^A-Za-z0-9_]")


def anthropic_id(call_id: str) -> str:
    """Another provider's call id as Anthropic spells a server tool's (``srvtoolu_...``).

    >>> anthropic_id("gemini_call_0"), anthropic_id("srvtoolu_01A")
    ('srvtoolu_gemini_call_0', 'srvtoolu_01A')
    """
    if call_id.startswith("srvtoolu_"):
        return call_id
    return "srvtoolu_" + _NOT_ID.sub("_", call_id)


def code_input(block: ServerToolUseBlock, target: str) -> dict[str, Any] | None:
    """A code execution call from another provider in the target's shape; ``None``: none.

    Anthropic's call input is ``{"code"}``; Gemini's ``executableCode`` is
    ``{"language", "code"}`` (Python is the only language either runs).
    """
    code = block.input.get("code")
    if block.name != CODE_EXECUTION or not isinstance(code, str):
        return None
    if target == ANTHROPIC and block.provider == VENDOR[GEMINI]:
        return {"code": code}
    if target == GEMINI and block.provider == VENDOR[ANTHROPIC]:
        return {"language": "PYTHON", "code": code}
    return None


def code_result(block: ServerToolResultBlock, target: str) -> dict[str, Any] | None:
    """A code execution result from another provider in the target's shape; ``None``: none.

    Anthropic reports ``stdout``, ``stderr`` and a ``return_code``; Gemini an ``outcome`` and
    one ``output``. Output files, encrypted output and error objects have no counterpart.
    """
    content = block.content
    if block.tool != CODE_EXECUTION or not isinstance(content, FrozenDict):
        return None
    if target == ANTHROPIC and block.provider == VENDOR[GEMINI]:
        outcome, output = content.get("outcome"), content.get("output", "")
        if not isinstance(outcome, str) or not isinstance(output, str) or len(content) > 2:
            return None
        ok = outcome == "OUTCOME_OK"
        return {
            "type": "code_execution_result",
            "stdout": output if ok else "",
            "stderr": "" if ok else output,
            "return_code": 0 if ok else 1,
            "content": [],
        }
    if target == GEMINI and block.provider == VENDOR[ANTHROPIC]:
        if content.get("type") != "code_execution_result" or content.get("content"):
            return None
        stdout, stderr, code = (content.get(k) for k in ("stdout", "stderr", "return_code"))
        if not (isinstance(stdout, str) and isinstance(stderr, str) and type(code) is int):
            return None
        output = stdout + stderr
        out = {"outcome": "OUTCOME_OK" if code == 0 else "OUTCOME_FAILED"}
        return {**out, "output": output} if output else out
    return None


# ----------------------------------------------------------------- Gemini server tool parts

_GEMINI_CODE: Final = ("executableCode", "codeExecutionResult")
_GEMINI_TOOL: Final = ("toolCall", "toolResponse")
"""Gemini's parts for its other server tools (search, URL context, maps...), keyed by
``toolType``: the client echoes them back."""


_PAIRING: Final = "<code_execution>"
"""The name code parts pair under in CallIds (no function can be called that)."""


def decode_gemini(d: dict[str, Any], key: str, ids: CallIds) -> Block:
    """An owned server tool part (code execution, ``toolCall``/``toolResponse``) as a block.

    A ``toolCall`` or ``toolResponse`` needs a string ``id`` and ``toolType`` (the block's
    ``name``/``tool``); the rest of its object (``args``, ``response``) is the ``input`` or
    ``content``, and a part without them is kept as a RawBlock.

    The data object (less its ``id``) is the call's ``input`` or the result's ``content``;
    the other part fields (a thought signature...) are ``extra``. A part without an id gets
    a made-up one (``gemini_call_code_...``; a result takes its call's), never sent back to
    Gemini. One whose data is not an object, or whose ``id`` is not a
    string, is kept as a RawBlock.
    """
    if key in _GEMINI_TOOL:
        return _gemini_tool(d, key)
    inner = d[key]
    call_id = inner.get("id") if type(inner) is dict else 0
    if type(call_id) is str and call_id.startswith(SYNTHETIC_ID_PREFIX):
        return RawBlock(wrap_owned(d))  # would not be written back
    if call_id is None:
        code = ids.code
        call_id = code.call(_PAIRING) if key == "executableCode" else code.result(_PAIRING)
    if type(call_id) is not str:
        return RawBlock(wrap_owned(d))
    data = {k: v for k, v in inner.items() if k != "id"}
    rest = {k: v for k, v in d.items() if k != key}
    ex = wrap_owned(rest) if rest else EMPTY
    vendor = VENDOR[GEMINI]
    if key == "executableCode":
        return ServerToolUseBlock(
            call_id, CODE_EXECUTION, wrap_owned(data), provider=vendor, extra=ex
        )
    return ServerToolResultBlock(
        call_id, CODE_EXECUTION, wrap_owned(data), provider=vendor, extra=ex
    )


def _gemini_tool(d: dict[str, Any], key: str) -> Block:
    inner = d[key]
    if type(inner) is not dict:
        return RawBlock(wrap_owned(d))
    call_id, tool = inner.get("id"), inner.get("toolType")
    if type(call_id) is not str or type(tool) is not str or tool == CODE_EXECUTION:
        return RawBlock(wrap_owned(d))
    data = wrap_owned({k: v for k, v in inner.items() if k not in ("id", "toolType")})
    rest = {k: v for k, v in d.items() if k != key}
    ex = wrap_owned(rest) if rest else EMPTY
    if key == "toolCall":
        return ServerToolUseBlock(call_id, tool, data, provider=VENDOR[GEMINI], extra=ex)
    return ServerToolResultBlock(call_id, tool, data, provider=VENDOR[GEMINI], extra=ex)


def encode_gemini(
    block: ServerToolUseBlock | ServerToolResultBlock, policy: Policy, path: str
) -> dict[str, Any] | TextBlock | None:
    """A server tool block as a Gemini part: Gemini's own, or code execution mapped.

    Gemini's own blocks go back with their id and part fields (code execution as its code
    parts, any other tool as ``toolCall``/``toolResponse``); Anthropic's code execution
    becomes a part without an id (Anthropic's ids mean nothing to Gemini).
    """
    name = block.name if isinstance(block, ServerToolUseBlock) else block.tool
    if block.provider == VENDOR[GEMINI] and name != CODE_EXECUTION:
        tool: JsonValue
        if isinstance(block, ServerToolUseBlock):
            key, call_id, tool = _GEMINI_TOOL[0], block.id, FrozenDict(block.input)
        else:
            key, call_id, tool = _GEMINI_TOOL[1], block.tool_use_id, block.content
        if isinstance(tool, FrozenDict):
            part: dict[str, Any] = {key: {"id": call_id, "toolType": name, **thaw(tool)}}
            part.update(carried(block.extra, policy, path, place(block), written=part))
            return part
    own = is_own(block, GEMINI)
    if isinstance(block, ServerToolUseBlock):
        data = thaw(block.input) if own else code_input(block, GEMINI)
        ok = block.name == CODE_EXECUTION
        key, what, call_id = _GEMINI_CODE[0], block.name, block.id
    else:
        data = thaw(block.content) if own else code_result(block, GEMINI)
        ok = block.tool == CODE_EXECUTION
        key, what, call_id = _GEMINI_CODE[1], block.tool, block.tool_use_id
    if not ok or not isinstance(data, dict):
        origin = f"{block.provider}'s" if block.provider else "a"
        return policy.degrade(block, path, f"cannot carry {origin} {what!r} server tool")
    if own and not call_id.startswith(SYNTHETIC_ID_PREFIX):
        data["id"] = call_id
    out = {key: data}
    if own:  # part fields (a thought signature) by the extra rule, as on a function call
        out.update(carried(block.extra, policy, path, place(block), written=out))
    return out


# ------------------------------------------------------------- OpenAI Responses tool items

_RESPONSES_ITEMS: Final = {
    "web_search_call": "web_search",
    "file_search_call": "file_search",
    "code_interpreter_call": "code_interpreter",
    "image_generation_call": "image_generation",
    "mcp_call": "mcp",
    "mcp_list_tools": "mcp_list_tools",
}
"""The Responses items of tools OpenAI runs itself, and the name their call block takes.

``mcp_list_tools`` is the server asking an MCP server for its tools: the call asks
(``server_label``), the result reports (``tools``, ``error``)."""
_ITEM_OF: Final = {name: tag for tag, name in _RESPONSES_ITEMS.items()} | {COMPACTION: COMPACTION}
"""The item type each tool's blocks are written as (a compaction item has no call)."""
_RESULT_FIELDS: Final = ("status", "results", "outputs", "result", "output", "error", "tools")
"""The fields of such an item that report what happened rather than what was asked."""


def decode_responses(d: dict[str, Any]) -> list[Block] | None:
    """An owned built-in tool item as its call and (when it reports one) its result.

    The call's ``input`` holds what was asked (``action``, ``queries``, ``code``,
    ``container_id``, an MCP call's ``server_label``/``name``/``arguments``...); the result's
    ``content`` is an object of the fields that report the outcome (``status``, ``results``,
    ``outputs``, ``result``, ``output``, ``error``). ``None``: not such an item, or one
    without a string ``id`` (kept raw by the caller).
    """
    tag, call_id = d.get("type"), d.get("id")
    if tag == COMPACTION:
        return _compaction(d)
    name = _RESPONSES_ITEMS.get(tag) if type(tag) is str else None
    if name is None or type(call_id) is not str:
        return None
    asked = {k: v for k, v in d.items() if k not in _RESULT_FIELDS and k not in ("type", "id")}
    got: dict[str, Any] = {k: d[k] for k in _RESULT_FIELDS if k in d}
    vendor = VENDOR[RESPONSES]
    out: list[Block] = [ServerToolUseBlock(call_id, name, wrap_owned(asked), provider=vendor)]
    if got:
        out.append(ServerToolResultBlock(call_id, name, wrap_owned(got), provider=vendor))
    return out


def _compaction(d: dict[str, Any]) -> list[Block] | None:
    """A ``compaction`` item as the result of the server's compaction, with no call.

    The item stands for the history the server compacted (``/v1/responses/compact``, or
    ``context_management`` on a response): nothing was asked, and what it holds
    (``encrypted_content``, ``created_by``, any later field) is the result's ``content``.
    An input item may leave out its ``id``: the block's ``tool_use_id`` is then ``""``, and
    the item is written back without one. ``None`` (kept raw): an ``id`` that is not a
    non-empty string.
    """
    call_id = d.get("id", "")
    if type(call_id) is not str or (call_id == "" and "id" in d):
        return None
    got = wrap_owned({k: v for k, v in d.items() if k not in ("type", "id")})
    return [ServerToolResultBlock(call_id, COMPACTION, got, provider=VENDOR[RESPONSES])]


class ResponsesItems:
    """Writes server tool blocks as Responses items: a call and its result share one item.

    A result that follows its call (same id and tool) is merged into the call's item; one
    without its call becomes an item of its own.
    """

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: dict[str, Any] | None = None

    def reset(self) -> None:
        """Another item came between: a later result does not join the last call."""
        self._last = None

    def encode(
        self, block: ServerToolUseBlock | ServerToolResultBlock, policy: Policy, path: str
    ) -> dict[str, Any] | TextBlock | None:
        """The new item to emit; ``None`` when merged into the last one (or dropped)."""
        name = block.name if isinstance(block, ServerToolUseBlock) else block.tool
        tag = _ITEM_OF.get(name)
        use = isinstance(block, ServerToolUseBlock)
        if (
            tag is None
            or not is_own(block, RESPONSES)
            or block.extra
            or (use and tag == COMPACTION)
        ):
            self._last = None
            origin = f"{block.provider}'s" if block.provider else "a"
            return policy.degrade(block, path, f"cannot carry {origin} {name!r} server tool")
        if isinstance(block, ServerToolUseBlock):
            self._last = {"type": tag, "id": block.id, **thaw(block.input)}
            return self._last
        content = thaw(block.content)
        if not isinstance(content, dict):
            self._last = None
            return policy.degrade(block, path, "an OpenAI tool item's result is an object")
        last = self._last
        self._last = None
        if last is not None and last["type"] == tag and last["id"] == block.tool_use_id:
            last.update(content)
            return None
        if tag == COMPACTION and not block.tool_use_id:
            return {"type": tag, **content}  # an input item written without its id
        return {"type": tag, "id": block.tool_use_id, **content}

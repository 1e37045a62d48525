"""Hypothesis strategies for every block, message and stream (needs ``messages[hypothesis]``).

In Hypothesis's own style: keyword-only arguments, and strategies as parameters where a
caller may want to narrow what is drawn.

>>> from hypothesis import given
>>> from messages import strategies as ms
>>> @given(ms.messages())
... def test_round_trip(message):
...     assert from_dict(to_dict(message)) == message
>>> from messages import from_dict, to_dict
>>> test_round_trip()
"""

from __future__ import annotations

import base64
import dataclasses
from typing import Any
from typing import Literal

from hypothesis import strategies as st

from ._core.frozen import EMPTY
from ._core.frozen import FrozenDict
from ._core.frozen import JsonValue
from ._core.frozen import freeze
from .blocks import AudioBlock
from .blocks import Block
from .blocks import DocumentBlock
from .blocks import ImageBlock
from .blocks import RawBlock
from .blocks import ServerToolResultBlock
from .blocks import ServerToolUseBlock
from .blocks import TextBlock
from .blocks import ThinkingBlock
from .blocks import ToolResultBlock
from .blocks import ToolUseBlock
from .blocks import VideoBlock
from .citations import Citation
from .events.agent import CompactBoundaryMessage
from .events.agent import ConversationResetMessage
from .events.agent import HookEventMessage
from .events.agent import RateLimitMessage
from .events.agent import StatusMessage
from .events.agent import SystemEventMessage
from .events.agent import TaskEventMessage
from .events.records import FileSnapshotMessage
from .events.records import ProgressMessage
from .events.records import QueueOperationMessage
from .events.records import TitleMessage
from .events.records import TurnContextMessage
from .events.records import TurnEventMessage
from .events.run import ErrorMessage
from .events.run import InitMessage
from .events.run import InvalidLineMessage
from .events.run import ResultMessage
from .events.run import StreamEventMessage
from .flat import AudioMessage
from .flat import DocumentMessage
from .flat import ImageMessage
from .flat import RawMessage
from .flat import ServerToolResultMessage
from .flat import ServerToolUseMessage
from .flat import TextMessage
from .flat import ThinkingMessage
from .flat import ToolResultMessage
from .flat import ToolUseMessage
from .flat import VideoMessage
from .message import Message
from .roles import AssistantMessage
from .roles import SystemMessage
from .roles import ToolMessage
from .roles import UserMessage
from .settings import RequestSettings
from .settings import ToolChoice
from .settings import ToolDefinition
from .usage import Usage

__all__ = [
    "agent_events",
    "assistant_messages",
    "audio_blocks",
    "blocks",
    "citations",
    "contexts",
    "conversations",
    "document_blocks",
    "flat_messages",
    "harness_user_messages",
    "image_blocks",
    "json_objects",
    "json_values",
    "messages",
    "raw_blocks",
    "request_settings",
    "role_messages",
    "server_tool_result_blocks",
    "server_tool_use_blocks",
    "session_messages",
    "session_records",
    "streams",
    "text_blocks",
    "thinking_blocks",
    "tool_choices",
    "tool_definitions",
    "tool_result_blocks",
    "tool_use_blocks",
    "usages",
    "video_blocks",
]

_EXTRA_KEYS = ("cache_control", "x_custom", "meta", "annotations", "index")
_ROLES = ("system", "developer", "user", "assistant", "tool")
_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def json_values(
    *, max_leaves: int = 10, keys: st.SearchStrategy[str] | None = None
) -> st.SearchStrategy[JsonValue]:
    """Any frozen JSON value: null, booleans, integers, finite floats, text, arrays, objects."""
    key_strategy = keys if keys is not None else st.text(max_size=8)
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(min_value=-(2**53), max_value=2**53)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=20)
    )
    plain = st.recursive(
        scalars,
        lambda children: (
            st.lists(children, max_size=4) | st.dictionaries(key_strategy, children, max_size=4)
        ),
        max_leaves=max_leaves,
    )
    return plain.map(freeze)


def json_objects(
    *,
    keys: st.SearchStrategy[str] | None = None,
    values: st.SearchStrategy[Any] | None = None,
    max_size: int = 4,
) -> st.SearchStrategy[FrozenDict]:
    """A frozen JSON object (a :class:`FrozenDict`)."""
    key_strategy = keys if keys is not None else st.text(max_size=8)
    value_strategy = values if values is not None else json_values(max_leaves=4)
    return st.dictionaries(key_strategy, value_strategy, max_size=max_size).map(FrozenDict)


def _extras(extra: st.SearchStrategy[FrozenDict] | None) -> st.SearchStrategy[FrozenDict]:
    if extra is not None:
        return extra
    return json_objects(keys=st.sampled_from(_EXTRA_KEYS), max_size=2)


def _ids(prefix: str) -> st.SearchStrategy[str]:
    return st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=12).map(
        lambda s: prefix + s
    )


def _base64() -> st.SearchStrategy[str]:
    return st.binary(max_size=24).map(lambda b: base64.b64encode(b).decode())


def text_blocks(
    *,
    text: st.SearchStrategy[str] | None = None,
    extra: st.SearchStrategy[FrozenDict] | None = None,
) -> st.SearchStrategy[TextBlock]:
    """A :class:`TextBlock`, sometimes with citations and extra wire fields."""
    return st.builds(
        TextBlock,
        text if text is not None else st.text(),
        citations=st.none() | st.lists(citations(), max_size=2).map(tuple),
        extra=_extras(extra),
    )


_CITATION_TYPES = [
    "char_location",
    "page_location",
    "web_search_result_location",
    "url_citation",
    "file_citation",
    "citation",
    "future_location",
]


def citations() -> st.SearchStrategy[Citation]:
    """A :class:`Citation` of any format's type (or none), its typed fields set or not."""
    index = st.none() | st.integers(min_value=0, max_value=500)
    words = st.none() | st.text(max_size=12)
    made = st.builds(
        Citation,
        st.none() | st.sampled_from(_CITATION_TYPES),
        cited_text=words,
        url=st.none() | st.just("https://example.com/a"),
        title=words,
        file_id=st.none() | _ids("file_"),
        start=index,
        end=index,
        source_index=index,
        text_start=index,
        text_end=index,
        nested=st.booleans(),
        extra=json_objects(keys=st.sampled_from(["encrypted_index", "x_new"]), max_size=1),
    )
    # Only Chat's url_citation has a nested spelling.
    return made.map(
        lambda c: c if c.type == "url_citation" else dataclasses.replace(c, nested=False)
    )


def thinking_blocks(
    *,
    thinking: st.SearchStrategy[str] | None = None,
    provider: st.SearchStrategy[str | None] | None = None,
) -> st.SearchStrategy[ThinkingBlock]:
    """A :class:`ThinkingBlock`: plain, signed, or redacted (empty text, payload in signature)."""
    provider_strategy = (
        provider
        if provider is not None
        else st.sampled_from([None, "anthropic", "openai", "google"])
    )
    plain = st.builds(
        ThinkingBlock,
        thinking if thinking is not None else st.text(),
        signature=st.none() | st.text(_BASE64, min_size=1, max_size=40),
        provider=provider_strategy,
    )
    redacted = st.builds(
        ThinkingBlock,
        st.just(""),
        signature=st.text(_BASE64, min_size=1, max_size=40),
        redacted=st.just(True),
        provider=provider_strategy,
    )
    return plain | redacted


def tool_use_blocks(
    *,
    names: st.SearchStrategy[str] | None = None,
    inputs: st.SearchStrategy[FrozenDict] | None = None,
) -> st.SearchStrategy[ToolUseBlock]:
    """A :class:`ToolUseBlock`, sometimes with its raw argument string (valid or not)."""
    return st.builds(
        ToolUseBlock,
        _ids("toolu_"),
        names
        if names is not None
        else st.sampled_from(["Bash", "Read", "Edit", "shell", "search"]),
        inputs if inputs is not None else json_objects(),
        arguments=st.none() | st.sampled_from(['{"a": 1}', "{", "", "[]"]),
        extra=_extras(None),
    )


def tool_result_blocks(
    *, content: st.SearchStrategy[str | tuple[Block, ...]] | None = None
) -> st.SearchStrategy[ToolResultBlock]:
    """A :class:`ToolResultBlock` with text or block content."""
    inner = st.lists(text_blocks() | image_blocks(), max_size=3).map(tuple)
    return st.builds(
        ToolResultBlock,
        _ids("toolu_"),
        content if content is not None else (st.text() | inner),
        is_error=st.none() | st.booleans(),
        name=st.none() | st.sampled_from(["Bash", "Read"]),
        extra=_extras(None),
    )


def _media(cls: type[Any], media_types: list[str]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.builds(cls, data=_base64(), media_type=st.none() | st.sampled_from(media_types)),
        st.builds(cls, url=st.sampled_from(["https://example.com/a", "data:x/y;base64,AAAA"])),
        st.builds(cls, file_id=_ids("file_")),
    )


def image_blocks() -> st.SearchStrategy[ImageBlock]:
    """An :class:`ImageBlock` with exactly one source: base64 data, a URL or a file id."""
    return _media(ImageBlock, ["image/png", "image/jpeg", "image/gif", "image/webp"])


def audio_blocks() -> st.SearchStrategy[AudioBlock]:
    """An :class:`AudioBlock` with exactly one source: base64 data, a URL or a file id."""
    return _media(AudioBlock, ["audio/wav", "audio/mpeg", "audio/ogg", "audio/flac"])


def document_blocks() -> st.SearchStrategy[DocumentBlock]:
    """A :class:`DocumentBlock` with one source and any mix of the other fields.

    The source is file data, a text body, content blocks, a URL or a file id; title, file
    name, context and citations setting are each present or not.
    """
    names = st.none() | st.sampled_from(["Q3 report", "notes.txt", "spec.pdf"])
    source = st.one_of(
        st.fixed_dictionaries(
            {
                "data": _base64(),
                "media_type": st.none() | st.sampled_from(["application/pdf", "text/plain"]),
            }
        ),
        st.fixed_dictionaries(
            {"text": st.text(max_size=30), "media_type": st.sampled_from(["text/plain"])}
        ),
        st.fixed_dictionaries(
            {
                "content": st.text(max_size=20)
                | st.lists(st.builds(TextBlock, st.text(max_size=20)), max_size=2).map(tuple)
            }
        ),
        st.fixed_dictionaries(
            {
                "url": st.sampled_from(
                    ["https://example.com/a.pdf", "data:application/pdf;base64,JVBERg=="]
                )
            }
        ),
        st.fixed_dictionaries({"file_id": _ids("file_")}),
    )
    return st.builds(
        lambda fields, **named: DocumentBlock(**fields, **named),
        source,
        title=names,
        filename=names,
        context=st.none() | st.text(max_size=20),
        citations=st.none() | st.booleans(),
        extra=st.sampled_from([FrozenDict(), FrozenDict({"cache_control": {"type": "ephemeral"}})]),
    )


def video_blocks() -> st.SearchStrategy[VideoBlock]:
    """A :class:`VideoBlock` with one source, sometimes clipped or sampled."""
    offsets = st.none() | st.sampled_from(["0s", "1.5s", "90s"])
    return st.builds(
        lambda video, start, end, fps: dataclasses.replace(
            video, start_offset=start, end_offset=end, fps=fps
        ),
        _media(VideoBlock, ["video/mp4", "video/webm", "video/mpeg"]),
        offsets,
        offsets,
        st.none() | st.sampled_from([1, 2.5, 24]),
    )


def raw_blocks() -> st.SearchStrategy[RawBlock]:
    """A :class:`RawBlock` holding an object with a type this library does not model."""
    return st.builds(
        RawBlock,
        json_objects(max_size=3).map(lambda d: d | {"type": "mcp_tool_use"}),
    )


_SERVER_TOOLS = ["web_search", "web_fetch", "code_execution", "file_search", "advisor"]
_SERVER_PROVIDERS = [None, "anthropic", "google", "openai"]


def server_tool_use_blocks(
    *, names: st.SearchStrategy[str] | None = None
) -> st.SearchStrategy[ServerToolUseBlock]:
    """A :class:`ServerToolUseBlock`: a server tool's call, from any provider or none."""
    return st.builds(
        ServerToolUseBlock,
        _ids("srvtoolu_"),
        names if names is not None else st.sampled_from(_SERVER_TOOLS),
        json_objects(),
        provider=st.sampled_from(_SERVER_PROVIDERS),
        extra=_extras(None),
    )


def server_tool_result_blocks(
    *, content: st.SearchStrategy[JsonValue] | None = None
) -> st.SearchStrategy[ServerToolResultBlock]:
    """A :class:`ServerToolResultBlock` with any JSON content (lists, objects, errors...)."""
    error = st.builds(
        lambda code: freeze({"type": "web_search_tool_result_error", "error_code": code}),
        st.sampled_from(["unavailable", "max_uses_exceeded"]),
    )
    return st.builds(
        ServerToolResultBlock,
        _ids("srvtoolu_"),
        st.sampled_from(_SERVER_TOOLS),
        content if content is not None else (json_values(max_leaves=6) | error),
        provider=st.sampled_from(_SERVER_PROVIDERS),
        extra=_extras(None),
    )


def blocks(*, kinds: list[str] | None = None) -> st.SearchStrategy[Block]:
    """Any block, or only those whose ``kind`` is in ``kinds``."""
    table: dict[str, st.SearchStrategy[Any]] = {
        "text": text_blocks(),
        "thinking": thinking_blocks(),
        "tool_use": tool_use_blocks(),
        "tool_result": tool_result_blocks(),
        "image": image_blocks(),
        "audio": audio_blocks(),
        "raw": raw_blocks(),
        "document": document_blocks(),
        "video": video_blocks(),
        "server_tool_use": server_tool_use_blocks(),
        "server_tool_result": server_tool_result_blocks(),
    }
    chosen = kinds if kinds is not None else list(table)
    return st.one_of([table[k] for k in chosen])


def usages() -> st.SearchStrategy[Usage]:
    """A :class:`Usage` with any mix of reported and unreported figures."""
    count = st.none() | st.integers(min_value=0, max_value=10**7)
    return st.builds(
        Usage,
        count,
        count,
        count,
        count,
        reasoning_tokens=count,
        cost_usd=st.none() | st.floats(min_value=0, max_value=100, allow_nan=False),
    )


def contexts() -> st.SearchStrategy[dict[str, Any]]:
    """Keyword arguments for the context fields, each present or not."""
    return st.fixed_dictionaries(
        {},
        optional={
            "uuid": _ids("u-"),
            "session_id": _ids("s-"),
            "parent_tool_use_id": _ids("toolu_"),
            "model": st.sampled_from(["claude-sonnet-4-5", "gpt-5", "gemini-2.5-pro"]),
            "message_id": _ids("msg_"),
            "timestamp": st.sampled_from(["2026-01-01T00:00:00Z", 1766445145513, 1.5]),
        },
    )


def _with_context(builder: Any, *args: Any, **kwargs: Any) -> st.SearchStrategy[Any]:
    return st.tuples(st.builds(builder, *args, **kwargs), contexts()).map(
        lambda t: dataclasses.replace(t[0], **t[1])
    )


def _content(
    block_strategy: st.SearchStrategy[Block],
) -> st.SearchStrategy[str | tuple[Block, ...]]:
    return st.text(max_size=30) | st.lists(block_strategy, max_size=4).map(tuple)


def assistant_messages(
    *, content: st.SearchStrategy[Block] | None = None
) -> st.SearchStrategy[AssistantMessage]:
    """An :class:`AssistantMessage` with usage, stop reason and context."""
    return _with_context(
        AssistantMessage,
        _content(content if content is not None else blocks()),
        usage=st.none() | usages(),
        stop_reason=st.none() | st.sampled_from(["end_turn", "tool_use", "stop", "length"]),
        extra=_extras(None),
    )


def role_messages(*, content: st.SearchStrategy[Block] | None = None) -> st.SearchStrategy[Any]:
    """A system, user, assistant or tool message."""
    block_strategy = content if content is not None else blocks()
    return st.one_of(
        _with_context(
            SystemMessage, _content(text_blocks()), role=st.sampled_from(["system", "developer"])
        ),
        _with_context(UserMessage, _content(block_strategy)),
        assistant_messages(content=block_strategy),
        _with_context(
            ToolMessage, st.lists(tool_result_blocks(), min_size=1, max_size=2).map(tuple)
        ),
    )


def flat_messages() -> st.SearchStrategy[Any]:
    """A flat message of any content kind, with role and context."""
    role = st.sampled_from(_ROLES)

    def media(cls: type[Any], block_strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.tuples(block_strategy, contexts(), role).map(
            lambda t: cls(
                data=t[0].data,
                url=t[0].url,
                file_id=t[0].file_id,
                media_type=t[0].media_type,
                role=t[2],
                **t[1],
            )
        )

    return st.one_of(
        _with_context(TextMessage, st.text(), role=role, extra=_extras(None)),
        _with_context(
            ThinkingMessage,
            st.text(),
            signature=st.none() | st.text(_BASE64, min_size=1),
            role=role,
        ),
        _with_context(
            ToolUseMessage,
            _ids("call_"),
            st.sampled_from(["shell", "Read"]),
            json_objects(),
            role=role,
        ),
        _with_context(
            ToolResultMessage,
            _ids("call_"),
            _content(text_blocks()),
            is_error=st.none() | st.booleans(),
            role=role,
        ),
        media(ImageMessage, image_blocks()),
        media(AudioMessage, audio_blocks()),
        st.tuples(document_blocks(), contexts(), role).map(
            lambda t: _flat_of(DocumentMessage, t[0], t[2], t[1])
        ),
        st.tuples(video_blocks(), contexts(), role).map(
            lambda t: _flat_of(VideoMessage, t[0], t[2], t[1])
        ),
        _with_context(RawMessage, json_values(max_leaves=5), role=st.none() | role),
        _with_context(
            ServerToolUseMessage,
            _ids("srvtoolu_"),
            st.sampled_from(_SERVER_TOOLS),
            json_objects(),
            provider=st.sampled_from(_SERVER_PROVIDERS),
            role=role,
        ),
        _with_context(
            ServerToolResultMessage,
            _ids("srvtoolu_"),
            st.sampled_from(_SERVER_TOOLS),
            json_values(max_leaves=5),
            provider=st.sampled_from(_SERVER_PROVIDERS),
            role=role,
        ),
    )


def _flat_of(cls: type[Any], block: Any, role: str, context: dict[str, Any]) -> Any:
    """The flat message of ``cls`` holding a block's fields, with a role and context."""
    fields = {f.name: getattr(block, f.name) for f in dataclasses.fields(block)}
    return cls(**fields, role=role, **context)


def session_messages() -> st.SearchStrategy[Any]:
    """A result, error, init, stream-event or invalid-line message."""
    return st.one_of(
        _with_context(
            ResultMessage,
            subtype=st.none() | st.sampled_from(["success", "error_max_turns"]),
            result=st.none() | st.text(max_size=20),
            is_error=st.none() | st.booleans(),
            duration_ms=st.none() | st.integers(min_value=0, max_value=10**7),
            num_turns=st.none() | st.integers(min_value=0, max_value=100),
            total_cost_usd=st.none() | st.floats(min_value=0, max_value=10),
            usage=st.none() | usages(),
            structured_output=json_values(max_leaves=3),
            stop_reason=st.none() | st.sampled_from(["end_turn", "max_tokens"]),
            terminal_reason=st.none() | st.sampled_from(["completed", "max_turns"]),
            errors=st.none() | st.lists(st.text(max_size=10), max_size=2).map(tuple),
            api_error_status=st.none() | st.sampled_from([429, 529]),
            permission_denials=st.none()
            | st.lists(json_objects(max_size=2), max_size=2).map(tuple),
            model_usage=st.none() | json_objects(keys=st.sampled_from(["claude-haiku-4-5"])),
            deferred_tool_use=st.none()
            | st.builds(ToolUseBlock, _ids("toolu_"), st.just("Bash"), _tool_inputs()),
            origin=st.none() | st.just({"kind": "human"}),
        ),
        _with_context(
            ErrorMessage,
            st.text(max_size=30),
            code=st.none() | st.sampled_from(["429", "overloaded"]),
        ),
        _with_context(
            InitMessage,
            cwd=st.none() | st.just("/work"),
            tools=st.none() | st.lists(st.sampled_from(["Bash", "Read"])).map(tuple),
        ),
        _with_context(StreamEventMessage, json_objects(max_size=3)),
        _with_context(
            InvalidLineMessage,
            st.text(max_size=30),
            reason=st.text(max_size=20),
            line=st.none() | st.integers(min_value=1, max_value=10**6),
        ),
        agent_events(),
        session_records(),
    )


def session_records() -> st.SearchStrategy[Any]:
    """A session-file record: progress, file snapshot, title, queued prompt, turn settings.

    Progress reports carry a sub-agent's turn or not; turn boundaries are included.
    """
    word = st.text("abcdefghij_", min_size=1, max_size=10)
    maybe_word = st.none() | word
    turn = st.builds(UserMessage, st.text(max_size=20)) | st.builds(
        AssistantMessage, st.lists(text_blocks(), max_size=2).map(tuple)
    )
    return st.one_of(
        _with_context(
            ProgressMessage,
            st.none() | st.sampled_from(["hook_progress", "bash_progress", "agent_progress"]),
            st.none()
            | json_objects(keys=st.sampled_from(["output", "agentId", "prompt"]), max_size=2),
            tool_use_id=st.none() | _ids("toolu_"),
            progress_id=st.none() | _ids("bash-progress-"),
            message=st.none() | turn,
        ),
        _with_context(
            FileSnapshotMessage,
            st.none()
            | st.fixed_dictionaries(
                {"trackedFileBackups": json_objects(keys=st.sampled_from(["a.py", "b.md"]))}
            ),
            message_uuid=st.none() | _ids("u-"),
            is_update=st.none() | st.booleans(),
        ),
        _with_context(TitleMessage, maybe_word, leaf_uuid=st.none() | _ids("u-")),
        _with_context(
            QueueOperationMessage,
            st.none() | st.sampled_from(["enqueue", "dequeue", "remove"]),
            maybe_word,
        ),
        _with_context(
            TurnContextMessage,
            st.none() | _ids("turn-"),
            cwd=st.none() | st.just("/work"),
            approval_policy=st.none() | st.sampled_from(["on-request", "never"]),
            sandbox_policy=st.none() | st.just({"type": "workspace-write"}),
            effort=st.none() | st.sampled_from(["low", "high"]),
        ),
        _with_context(
            TurnEventMessage,
            st.sampled_from(["task_started", "task_complete", "turn_aborted"]),
            turn_id=st.none() | _ids("turn-"),
            reason=st.none() | st.just("interrupted"),
            last_message=maybe_word,
            context_window=st.none() | st.integers(min_value=0, max_value=10**6),
        ),
    )


def agent_events() -> st.SearchStrategy[Any]:
    """A harness event: task lifecycle, hook, compaction, status, rate limit, reset, other."""
    word = st.text("abcdefghij_", min_size=1, max_size=10)
    maybe_word = st.none() | word
    task_usage = json_objects(
        keys=st.sampled_from(["total_tokens", "tool_uses", "duration_ms"]),
        values=st.integers(min_value=0, max_value=10**6),
    )
    statuses = ["pending", "running", "completed", "failed", "stopped", "killed"]
    return st.one_of(
        _with_context(
            TaskEventMessage,
            st.sampled_from(["task_started", "task_progress", "task_notification", "task_updated"]),
            task_id=_ids("task-"),
            description=maybe_word,
            task_type=st.none() | st.sampled_from(["local_bash", "local_agent"]),
            tool_use_id=st.none() | _ids("toolu_"),
            status=st.none() | st.sampled_from(statuses),
            summary=maybe_word,
            usage=st.none() | task_usage,
            patch=st.none() | st.sampled_from(statuses).map(lambda v: {"status": v}),
        ),
        _with_context(
            HookEventMessage,
            st.sampled_from(["hook_started", "hook_progress", "hook_response"]),
            hook_id=st.none() | _ids("hook-"),
            hook_name=st.none() | st.sampled_from(["PreToolUse:Bash", "Stop"]),
            hook_event=st.none() | st.sampled_from(["PreToolUse", "Stop"]),
            stdout=maybe_word,
            exit_code=st.none() | st.integers(min_value=0, max_value=255),
            outcome=st.none() | st.sampled_from(["success", "error", "cancelled"]),
        ),
        _with_context(
            CompactBoundaryMessage,
            st.none()
            | st.fixed_dictionaries(
                {
                    "trigger": st.sampled_from(["manual", "auto"]),
                    "pre_tokens": st.integers(min_value=0, max_value=10**6),
                }
            ),
        ),
        _with_context(StatusMessage, st.none() | st.sampled_from(["requesting", "compacting"])),
        _with_context(
            RateLimitMessage,
            st.none()
            | st.fixed_dictionaries(
                {"status": st.sampled_from(["allowed", "allowed_warning", "rejected"])},
                optional={
                    "resetsAt": st.integers(min_value=0, max_value=2**31),
                    "rateLimitType": st.sampled_from(["five_hour", "seven_day"]),
                    "utilization": st.floats(min_value=0, max_value=1),
                },
            ),
        ),
        _with_context(
            SystemEventMessage,
            st.sampled_from(["thinking_tokens", "api_retry", "future_kind"]),
            json_objects(keys=st.sampled_from(["tokens", "attempt", "note"]), max_size=2),
        ),
        _with_context(ConversationResetMessage, st.none() | _ids("conv-")),
    )


def harness_user_messages(
    *, content: st.SearchStrategy[Block] | None = None
) -> st.SearchStrategy[UserMessage]:
    """A :class:`UserMessage` with the fields an agent harness sets, each present or not.

    The fields are the compaction ``summary`` marker, ``origin`` and ``tool_use_result``.
    Kept out of :func:`role_messages`, whose turns every format carries whole; these fields
    are the harness's (Claude Code writes them back, providers leave them out).
    """
    return _with_context(
        UserMessage,
        _content(content if content is not None else blocks()),
        summary=st.none() | st.just("compaction"),
        origin=st.none() | st.sampled_from([{"kind": "human"}, {"kind": "task-notification"}]),
        tool_use_result=st.none() | json_values(max_leaves=3),
    )


def messages() -> st.SearchStrategy[Message]:
    """Any message: role (harness-marked user turns included), flat or session."""
    return st.one_of(role_messages(), harness_user_messages(), flat_messages(), session_messages())


def streams(
    *, elements: st.SearchStrategy[Message] | None = None, min_size: int = 0, max_size: int = 12
) -> st.SearchStrategy[list[Message]]:
    """A list of messages, as a stream from any source would hold them."""
    return st.lists(
        elements if elements is not None else messages(), min_size=min_size, max_size=max_size
    )


def _tool_inputs() -> st.SearchStrategy[FrozenDict]:
    values = st.text(max_size=10) | st.integers(min_value=0, max_value=100)
    keys = st.sampled_from(["command", "path", "query"])
    return st.dictionaries(keys, values, max_size=2).map(FrozenDict)


_WIRE_EXTRAS = tuple(
    FrozenDict(d)
    for d in (
        {},
        {"cache_control": {"type": "ephemeral"}},
        {"prompt_cache_breakpoint": {"mode": "explicit"}},
        {"thoughtSignature": "c2lnbmF0dXJl"},
        {"type": "output_text", "logprobs": []},  # only on the model's text: see below
        {"item": {"type": "agent_message", "id": "item_1"}},
        {"parentId": "p-1", "data": {"content": ""}},
        {"part": {"sessionID": "ses_1"}},
        {"delta": True},
        {"x_new": 1},
    )
)
"""Wire fields the provider codecs and agent CLI adapters leave in a text block's extra."""
_CALL_EXTRAS = tuple(
    FrozenDict(d)
    for d in (
        {},
        {"id": "fc_1", "status": "completed"},
        {"thoughtSignature": "c2lnbmF0dXJl"},
        {"caller": {"type": "direct"}},
        {"method": "item/started", "params": {"item": {"type": "commandExecution"}}},
        {"type": "function"},
    )
)
"""Wire fields the codecs and adapters leave in a tool call's extra."""


def _rich_prompt(draw: st.DrawFn, prompt: str, session: str | None) -> UserMessage:
    # An output part in a user message is OpenAI Responses' own oddity, not a prompt's.
    extras = [
        e if e.get("type") != "output_text" else FrozenDict({"type": "input_text"})
        for e in _WIRE_EXTRAS
    ]
    blocks: list[Block] = [TextBlock(prompt, extra=draw(st.sampled_from(extras)))]
    media = image_blocks() | audio_blocks() | document_blocks() | video_blocks()
    blocks.extend(draw(st.lists(media, max_size=1)))
    return UserMessage(tuple(blocks), session_id=session)


@st.composite
def _conversation(
    draw: st.DrawFn,
    view: str | None,
    broken: bool,
    min_turns: int,
    max_turns: int,
    *,
    rich: bool = False,
) -> list[Message]:
    chosen = view if view is not None else draw(st.sampled_from(["blocks", "flat", "mixed"]))
    # how the block view carries results: one user message (Anthropic), one tool message per
    # result (OpenAI), or one user record per result (Claude Code)
    style = draw(st.sampled_from(["anthropic", "openai", "claude_code"]))
    session = draw(st.none() | _ids("s-"))
    out: list[Message] = []
    if draw(st.booleans()):
        out.append(SystemMessage(draw(st.text(max_size=20)), session_id=session))
    for turn in range(draw(st.integers(min_value=min_turns, max_value=max_turns))):
        turn_view = chosen if chosen != "mixed" else draw(st.sampled_from(["blocks", "flat"]))
        prompt = draw(st.text(max_size=20))
        if rich and turn_view == "blocks" and draw(st.booleans()):
            out.append(_rich_prompt(draw, prompt, session))
        else:
            out.append(
                UserMessage(prompt, session_id=session)
                if turn_view == "blocks"
                else TextMessage(prompt, role="user", session_id=session)
            )
        said = draw(st.text(max_size=20))
        calls = [
            ToolUseBlock(
                f"toolu_{turn}_{k}",
                draw(st.sampled_from(["Bash", "Read"])),
                draw(_tool_inputs()),
                extra=draw(st.sampled_from(_CALL_EXTRAS)) if rich else FrozenDict(),
            )
            for k in range(draw(st.integers(min_value=0, max_value=3)))
        ]
        results: list[ToolResultBlock] = []
        for call in calls:
            fate = draw(st.sampled_from(["ok", "missing", "duplicate"])) if broken else "ok"
            output: str | tuple[Block, ...] = draw(st.text(max_size=12))
            if rich and draw(st.booleans()):
                output = (TextBlock(str(output)), draw(image_blocks()))
            result = ToolResultBlock(call.id, output, is_error=draw(st.booleans()))
            if fate != "missing":
                results.append(result)
            if fate == "duplicate":
                results.append(ToolResultBlock(call.id, "again"))
        if broken and draw(st.booleans()):
            results.insert(
                draw(st.integers(0, len(results))), ToolResultBlock(f"orphan_{turn}", "?")
            )
        if draw(st.booleans()):
            results = draw(st.permutations(results))
        usage = draw(st.none() | st.builds(Usage, st.integers(0, 10**4), st.integers(0, 10**4)))
        if turn_view == "blocks":
            lead: list[Block] = []
            if rich:
                lead.extend(draw(st.lists(thinking_blocks(), max_size=1)))
                lead.append(TextBlock(said, extra=draw(st.sampled_from(_WIRE_EXTRAS))))
                lead.extend(draw(st.lists(raw_blocks(), max_size=1)))
            else:
                lead.append(TextBlock(said))
            out.append(
                AssistantMessage(
                    (*lead, *calls),
                    usage=usage,
                    message_id=f"msg_{turn}",
                    session_id=session,
                )
            )
            if results and style == "anthropic":
                content: tuple[Block, ...] = tuple(results)
                if broken and draw(st.booleans()):
                    content = (TextBlock("note"), *content)
                out.append(UserMessage(content, session_id=session))
            elif results and style == "openai":
                out.extend(ToolMessage((r,), session_id=session) for r in results)
            else:
                out.extend(UserMessage((r,), session_id=session) for r in results)
        else:
            out.append(TextMessage(said, message_id=f"msg_{turn}", session_id=session))
            out.extend(
                ToolUseMessage(c.id, c.name, c.input, message_id=f"msg_{turn}", session_id=session)
                for c in calls
            )
            role: Literal["user", "tool"] = "user" if draw(st.booleans()) else "tool"
            out.extend(
                ToolResultMessage(
                    r.tool_use_id, r.content, is_error=r.is_error, role=role, session_id=session
                )
                for r in results
            )
        if draw(st.integers(0, 4)) == 0:
            out.append(StreamEventMessage({"type": "message_stop"}, session_id=session))
    if draw(st.booleans()):
        out.append(
            ResultMessage(
                subtype="success",
                usage=draw(st.none() | usages()),
                total_cost_usd=draw(st.none() | st.floats(min_value=0, max_value=10)),
                session_id=session,
            )
        )
    return out


def conversations(
    *,
    view: str | None = None,
    broken: bool = False,
    min_turns: int = 0,
    max_turns: int = 5,
    rich: bool = False,
) -> st.SearchStrategy[list[Message]]:
    """A conversation as an agent loop records it, with tool calls and their results.

    An optional system prompt, then turns: user text, an assistant turn with text and up to
    three tool calls (ids unique in the conversation), and the calls' results; sometimes a
    stream event between turns and a result message at the end. ``view`` is ``"blocks"``
    (results carried Anthropic-, OpenAI- or Claude-Code-style), ``"flat"``, ``"mixed"``
    (each turn picks), or ``None`` for any. Results may come in any order.

    With ``broken=True`` some turns are damaged the ways real histories are: results
    missing (dangling calls), duplicated, orphaned (answering no call), or placed after
    other user content.

    With ``rich=True`` block-view turns also carry what converting between formats must
    handle: images, audio, documents and video in prompts, images in results, thinking
    signed by any provider, raw
    blocks, and wire fields in ``extra`` that provider codecs and agent CLI adapters leave
    there (cache hints, Gemini signatures, Responses item fields, log record fields).
    """
    if view not in (None, "blocks", "flat", "mixed"):
        raise ValueError(f"view must be 'blocks', 'flat', 'mixed' or None, found {view!r}")
    return _conversation(view, broken, min_turns, max_turns, rich=rich)


# ------------------------------------------------------------------------ request settings

_TOOL_NAME = st.from_regex(r"[a-z][a-z0-9_]{0,15}", fullmatch=True)
_PROPERTY_TYPES = [
    {"type": "string"},
    {"type": "integer"},
    {"type": "number"},
    {"type": "boolean"},
    {"type": "array", "items": {"type": "string"}},
]


@st.composite
def _json_schemas(draw: st.DrawFn) -> FrozenDict:
    properties = draw(st.dictionaries(_TOOL_NAME, st.sampled_from(_PROPERTY_TYPES), max_size=3))
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    required = draw(
        st.lists(st.sampled_from(sorted(properties)), unique=True) if properties else st.just([])
    )
    if required:
        schema["required"] = required
    return FrozenDict(schema)


def tool_definitions(
    *, extra: st.SearchStrategy[FrozenDict] | None = None
) -> st.SearchStrategy[ToolDefinition]:
    """A :class:`ToolDefinition`: a function name, maybe a description, a schema, ``strict``.

    ``extra`` defaults to an occasional wire field no provider models (``x_new``).
    """
    return st.builds(
        ToolDefinition,
        _TOOL_NAME,
        description=st.none() | st.text(min_size=1, max_size=30),
        input_schema=st.none() | _json_schemas(),
        strict=st.none() | st.booleans(),
        extra=extra
        if extra is not None
        else json_objects(keys=st.just("x_new"), values=st.integers(), max_size=1),
    )


def tool_choices(*, names: st.SearchStrategy[str] | None = None) -> st.SearchStrategy[ToolChoice]:
    """A :class:`ToolChoice` of any mode (``tool`` with a name from ``names``)."""
    return st.builds(ToolChoice, st.sampled_from(["auto", "any", "none"])) | st.builds(
        ToolChoice, st.just("tool"), name=names if names is not None else _TOOL_NAME
    )


@st.composite
def _settings(draw: st.DrawFn, portable: bool) -> RequestSettings:
    empty = st.just(EMPTY)
    tools = st.lists(
        tool_definitions(extra=empty if portable else None)
        | (st.nothing() if portable else raw_blocks()),
        max_size=3,
        unique_by=lambda t: getattr(t, "name", id(t)),
    ).map(tuple)
    drawn = draw(st.none() | tools)
    names = [t.name for t in drawn or () if isinstance(t, ToolDefinition)]
    choice = tool_choices(names=st.sampled_from(names) if names else None)
    unit = st.sampled_from([0, 1]) | st.floats(min_value=0, max_value=1)
    max_tokens = draw(st.none() | st.integers(min_value=1, max_value=200_000))
    stop = draw(st.none() | st.lists(st.text(min_size=1, max_size=8), max_size=4).map(tuple))
    provider = None if portable else draw(st.none() | st.sampled_from(_PROVIDERS))
    spelled: dict[str, JsonValue] = {}  # Chat: what the settings could come back as
    if provider == "openai_chat" and max_tokens is not None and draw(st.booleans()):
        spelled["max_tokens"] = "max_tokens"
    if provider == "openai_chat" and stop is not None and len(stop) == 1 and draw(st.booleans()):
        spelled["stop"] = "string"
    return RequestSettings(
        model=draw(st.none() | st.sampled_from(["model-x", "claude-x", "gpt-x"])),
        max_tokens=max_tokens,
        temperature=draw(st.none() | unit),
        top_p=draw(st.none() | unit),
        stop=stop,
        tools=drawn,
        tool_choice=draw(st.none() | choice),
        provider=provider,
        spelled=spelled,
        extra=EMPTY
        if portable
        else draw(json_objects(keys=st.sampled_from(["stream", "x_new"]), max_size=2)),
    )


_PROVIDERS = ["anthropic", "openai_chat", "openai_responses", "gemini", "bedrock"]


def request_settings(*, portable: bool = False) -> st.SearchStrategy[RequestSettings]:
    """:class:`RequestSettings` with any mix of fields set.

    With ``portable=True`` only what every provider's keys can hold is drawn: no ``extra``,
    no raw tools, no provider (the settings are made by hand). Otherwise they may come from
    any provider, with extra keys and raw tools.
    """
    return _settings(portable)

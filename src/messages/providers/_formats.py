"""Which wire keys and types belong to which format: the one table every encoder consults.

``extra`` holds wire fields of the format a value was decoded from, and a :class:`RawBlock`
holds a whole block of it. Written into another format's request they would make it
invalid, so an encoder asks :func:`owner` about every ``extra`` key and :func:`raw_is_own`
about every raw block before writing it (``_policy.put_extra`` applies the answer). The
rule, documented for users in ``docs/providers/index.md``:

- a key the target uses at that place is written back (unless the encoder wrote that
  field itself);
- a key of another provider's format that carries meaning (cache hints, image detail,
  signatures, citations, participant names) cannot be carried: the caller's policy decides;
- a key that describes a record rather than what was said (item ids and statuses, type
  tags, response envelopes, every field of an agent CLI log record) is left out;
- a key no table lists is written back only when nothing says it came from elsewhere: its
  spelling fits the target (snake_case for Anthropic and OpenAI, camelCase for Gemini),
  no other key beside it belongs to another format, and the message carrying it was not
  decoded from a response or a log. New fields appear in every API all the time, so an
  unknown field of the target's own requests is kept; otherwise the policy decides.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final
from typing import Literal

from ..blocks import RawBlock

__all__ = [
    "ANTHROPIC",
    "BEDROCK",
    "BEDROCK_BLOCKS",
    "CHAT",
    "CITATIONS",
    "GEMINI",
    "LOG_FIELDS",
    "PROVIDERS",
    "RESPONSES",
    "RESPONSE_FIELDS",
    "ROLES",
    "TYPES",
    "USAGE_FIELDS",
    "Owner",
    "Place",
    "fits",
    "foreign_citations",
    "owner",
    "raw_block_is_own",
    "raw_is_own",
    "response_extra",
    "role_is_own",
]

ANTHROPIC: Final = "anthropic"
"""Anthropic Messages."""
CHAT: Final = "openai_chat"
"""OpenAI Chat Completions."""
RESPONSES: Final = "openai_responses"
"""OpenAI Responses."""
GEMINI: Final = "gemini"
"""Google Gemini ``generateContent``."""
BEDROCK: Final = "bedrock"
"""Amazon Bedrock Converse (``Converse`` / ``ConverseStream``)."""
PROVIDERS: Final = (ANTHROPIC, CHAT, RESPONSES, GEMINI, BEDROCK)
"""The provider formats, in the order the registry lists them."""

Place = Literal[
    "message", "text", "thinking", "tool_use", "tool_result", "image", "audio", "document", "video"
]
"""Where an ``extra`` sits: on a role message, or on a block of that kind."""
Owner = Literal["own", "content", "record", "unknown"]
"""What :func:`owner` says about a key (see the module docstring)."""


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_NONE: Final[frozenset[str]] = frozenset()

# Per format and place: (fields that carry meaning, fields that describe the record).
# Listed are the keys a decoder of that format leaves in ``extra`` there: unmodelled wire
# fields, and modelled ones kept as the wire's null.
_FIELDS: Final[dict[str, dict[str, tuple[frozenset[str], frozenset[str]]]]] = {
    ANTHROPIC: {
        "message": (_NONE, _words("role")),
        "text": (_words("citations cache_control"), _NONE),
        "thinking": (_words("signature"), _NONE),
        "tool_use": (_words("cache_control"), _words("caller")),
        "tool_result": (_words("cache_control is_error content"), _NONE),
        "image": (_words("cache_control"), _NONE),
        "audio": (_words("cache_control"), _NONE),
        "document": (_words("cache_control title context citations"), _NONE),
        "video": (_NONE, _NONE),
    },
    CHAT: {
        "message": (
            _words(
                """name refusal audio function_call tool_calls tool_call_id annotations
                reasoning_content reasoning reasoning_details"""
            ),
            _words("content completion"),
        ),
        # ``content_part``: a lone text that came as a one-part list (see the Chat decoder).
        "text": (_words("prompt_cache_breakpoint"), _words("content_part")),
        "thinking": (_NONE, _words("reasoning_fields reasoning_detail")),
        "tool_use": (_NONE, _words("extra_content")),
        "tool_result": (_words("name"), _words("content")),
        "image": (_words("detail prompt_cache_breakpoint"), _NONE),
        "audio": (_words("transcript prompt_cache_breakpoint"), _words("expires_at")),
        "document": (_words("prompt_cache_breakpoint"), _NONE),
        "video": (_NONE, _NONE),
    },
    RESPONSES: {
        "message": (_NONE, _words("type id status phase role")),
        "text": (_words("annotations prompt_cache_breakpoint"), _words("type item logprobs")),
        "thinking": (_words("summary encrypted_content content"), _words("type id status")),
        "tool_use": (_words("namespace caller"), _words("type id status")),
        "tool_result": (_words("caller namespace"), _words("type id status")),
        "image": (_words("detail image_url file_id prompt_cache_breakpoint"), _words("type")),
        "audio": (_NONE, _NONE),
        "document": (_words("prompt_cache_breakpoint detail"), _words("type")),
        "video": (_NONE, _NONE),
    },
    GEMINI: {
        "message": (_NONE, _words("role")),
        "text": (_words("thoughtSignature"), _words("thought partMetadata")),
        "thinking": (_words("thoughtSignature"), _words("partMetadata")),
        "tool_use": (_words("thoughtSignature"), _words("functionCall partMetadata")),
        "tool_result": (_words("thoughtSignature"), _words("functionResponse partMetadata")),
        "image": (
            _words("videoMetadata mediaResolution thoughtSignature"),
            _words("inlineData fileData partMetadata"),
        ),
        "audio": (
            _words("videoMetadata mediaResolution thoughtSignature"),
            _words("inlineData fileData partMetadata"),
        ),
        "document": (
            _words("videoMetadata mediaResolution thoughtSignature"),
            _words("inlineData fileData partMetadata"),
        ),
        "video": (
            _words("videoMetadata mediaResolution thoughtSignature"),
            _words("inlineData fileData partMetadata"),
        ),
    },
    BEDROCK: {
        "message": (_NONE, _words("role")),
        # ``json``: the value of a JSON tool-result part; the block's text says the same.
        "text": (_NONE, _words("json")),
        "thinking": (_NONE, _NONE),
        "tool_use": (_NONE, _NONE),
        "tool_result": (_NONE, _NONE),
        "image": (_words("bucketOwner"), _NONE),
        "audio": (_words("bucketOwner"), _NONE),
        "document": (_words("bucketOwner"), _NONE),
        "video": (_words("bucketOwner"), _NONE),
    },
}

RESPONSE_FIELDS: Final = {
    ANTHROPIC: _words(
        """id type role model content stop_reason stop_sequence stop_details usage container
        diagnostics context_management"""
    ),
    CHAT: _words(
        """id object created model choices usage system_fingerprint service_tier
        prompt_filter_results completion"""
    ),
    RESPONSES: _words(
        """id object created_at status error incomplete_details instructions
        max_output_tokens max_tool_calls model output parallel_tool_calls
        previous_response_id reasoning store temperature text tool_choice tools top_p
        top_logprobs truncation usage user metadata background service_tier
        prompt_cache_key safety_identifier conversation prompt"""
    ),
    GEMINI: _words(
        """candidates usageMetadata modelVersion responseId promptFeedback createTime
        modelStatus"""
    ),
    BEDROCK: _words(
        """output metrics additionalModelResponseFields trace performanceConfig serviceTier"""
    ),
}
"""Fields of each format's response body that a decoded assistant message keeps in extra."""

USAGE_FIELDS: Final = {
    ANTHROPIC: _words(
        """input_tokens output_tokens cache_read_input_tokens cache_creation_input_tokens
        cache_creation output_tokens_details server_tool_use service_tier"""
    ),
    CHAT: _words(
        """prompt_tokens completion_tokens total_tokens prompt_tokens_details
        completion_tokens_details"""
    ),
    RESPONSES: _words(
        "input_tokens output_tokens total_tokens input_tokens_details output_tokens_details"
    ),
    GEMINI: _words(
        """promptTokenCount candidatesTokenCount totalTokenCount cachedContentTokenCount
        thoughtsTokenCount toolUsePromptTokenCount promptTokensDetails
        candidatesTokensDetails cacheTokensDetails toolUsePromptTokensDetails trafficType"""
    ),
    BEDROCK: _words(
        """inputTokens outputTokens totalTokens cacheReadInputTokens cacheWriteInputTokens
        cacheDetails"""
    ),
}
"""Fields of each format's usage object."""

LOG_FIELDS: Final = _words(
    """type subtype message item items method params part parentId parentUuid
    parent_tool_use_id data delta text_elements error output arguments intentionSummary
    cwd gitBranch isSidechain isMeta isCompactSummary requestId request_id sessionId
    sessionID session_id messageID messageId userType version permissionMode
    thinkingMetadata todos toolUseResult tool_use_result id uuid timestamp jsonrpc result
    update sessionUpdate toolCallId callID kind status locations rawInput rawOutput time
    state metadata snapshot ephemeral turnId threadId thread_id itemId completedAtMs
    startedAtMs event tool_id tool_name parameters"""
)
"""Fields of agent CLI log records (Claude Code, Codex, Gemini CLI, OpenCode, Copilot, ACP)
that adapters keep on the messages and blocks they decode: never content of a request."""

TYPES: Final = {
    ANTHROPIC: _words(
        """text image document search_result thinking redacted_thinking tool_use
        tool_result server_tool_use web_search_tool_result web_fetch_tool_result
        code_execution_tool_result bash_code_execution_tool_result
        text_editor_code_execution_tool_result tool_search_tool_result container_upload
        mcp_tool_use mcp_tool_result compaction"""
    ),
    CHAT: _words("text image_url input_audio file refusal function custom"),
    RESPONSES: _words(
        """input_text output_text input_image input_file input_audio output_audio refusal
        summary_text reasoning_text reasoning message function_call function_call_output
        custom_tool_call custom_tool_call_output web_search_call file_search_call
        computer_call computer_call_output code_interpreter_call image_generation_call
        local_shell_call local_shell_call_output shell_call shell_call_output
        apply_patch_call apply_patch_call_output mcp_call mcp_list_tools
        mcp_approval_request mcp_approval_response item_reference compaction"""
    ),
    GEMINI: _NONE,
    BEDROCK: _NONE,
}
"""The ``type`` tags of each format's blocks, parts and items (Gemini parts have none)."""

_LOG_TYPES: Final = _words(
    """resource_link resource diff terminal content command_execution file_change
    mcp_tool_call web_search todo_list agent_message user_message tool step-start
    step-finish patch snapshot agent subtask retry"""
)
"""Content types of agent CLI logs (ACP content blocks, Codex items, OpenCode parts)."""

CITATIONS: Final = {
    ANTHROPIC: _words(
        """char_location page_location content_block_location web_search_result_location
        search_result_location"""
    ),
    CHAT: _words("url_citation"),
    RESPONSES: _words("url_citation file_citation container_file_citation file_path"),
    GEMINI: _NONE,
    BEDROCK: _words("web documentChar documentPage documentChunk searchResultLocation"),
}
"""Citation types each format carries (Gemini cites per candidate, never per part; a
Converse citation's type is the member of its ``location`` union)."""

ROLES: Final = {
    ANTHROPIC: _words("user assistant"),
    CHAT: _words("system developer user assistant tool function"),
    RESPONSES: _words("system developer user assistant"),
    GEMINI: _words("user model function"),
    BEDROCK: _words("user assistant"),
}
"""The message roles each format's requests have."""

_SNAKE: Final = re.compile(r"[a-z][a-z0-9_]*")
_CAMEL: Final = re.compile(r"[a-z][A-Za-z0-9]*")


def fits(key: str, target: str) -> bool:
    """Whether a name is spelled the way the target spells its own (Gemini: camelCase)."""
    return bool((_CAMEL if target in (GEMINI, BEDROCK) else _SNAKE).fullmatch(key))


def _union(target: str, which: int) -> frozenset[str]:
    return frozenset().union(
        *(
            fields[which]
            for name, table in _FIELDS.items()
            if name != target
            for fields in table.values()
        )
    )


_OTHERS_CONTENT: Final = {name: _union(name, 0) for name in PROVIDERS}
_OTHERS_RECORD: Final = {name: _union(name, 1) for name in PROVIDERS}
_ANY_RESPONSE: Final = frozenset().union(*RESPONSE_FIELDS.values())


def owner(key: str, target: str, place: Place) -> Owner:
    """Whose an ``extra`` key at ``place`` is, from the target's point of view.

    ``"own"``: the target uses it there. ``"content"``: another provider's field that
    carries meaning. ``"record"``: a field describing a record (another format's ids, tags
    and envelopes, the target's own key at another place, any agent log field).
    ``"unknown"``: no table lists it.

    >>> owner("cache_control", "anthropic", "text"), owner("cache_control", "gemini", "text")
    ('own', 'content')
    >>> owner("item", "openai_responses", "text"), owner("item", "openai_responses", "tool_use")
    ('own', 'record')
    >>> owner("parentUuid", "openai_chat", "message"), owner("x_new", "openai_chat", "text")
    ('record', 'unknown')
    """
    content, record = _FIELDS[target][place]
    if key in content or key in record:
        return "own"
    if key in _OTHERS_CONTENT[target]:
        return "content"
    if (
        key in _OTHERS_RECORD[target]
        or key in LOG_FIELDS
        or (place == "message" and key in _ANY_RESPONSE)
        or any(key in fields[0] or key in fields[1] for fields in _FIELDS[target].values())
    ):
        return "record"
    return "unknown"


def foreign_citations(citations: object, target: str) -> bool:
    """Whether some citation in a tuple of Citations is not of a type the target has.

    Chat and Responses share the ``url_citation`` type but not its spelling: Chat nests the
    fields (``Citation.nested``), and only a Chat response carries them.

    >>> from messages import Citation
    >>> cited = Citation("url_citation", url="https://a.example", nested=True)
    >>> foreign_citations((cited,), "openai_chat"), foreign_citations((cited,), "openai_responses")
    (False, True)
    """
    own = CITATIONS[target]
    if not isinstance(citations, tuple):
        return True
    return any(
        getattr(c, "type", None) not in own or getattr(c, "nested", False) != (target == CHAT)
        for c in citations
    )


_GEMINI_METADATA: Final = _words(
    "thought thoughtSignature videoMetadata mediaResolution partMetadata"
)
_GEMINI_DATA: Final = _words(
    """text inlineData fileData functionCall functionResponse executableCode
    codeExecutionResult toolCall toolResponse"""
)

BEDROCK_BLOCKS: Final = _words(
    """text image document video audio toolUse toolResult guardContent cachePoint
    reasoningContent citationsContent searchResult toolAddition toolRemoval"""
)
"""The members of a Converse ``ContentBlock`` union: a block is an object with one of them."""


_NOT_THERE: Final = {
    (ANTHROPIC, "compaction"): _words("id"),
    (RESPONSES, "compaction"): _words("content signature tool_changes cache_control"),
}
"""Types two formats share by name but not by shape: the keys only the other's has. A
Responses ``compaction`` item has an ``id``; Anthropic's block has ``content``."""


def raw_is_own(data: object, target: str) -> bool:
    """Whether a raw block's data is a block of the target's format, to be written as it is.

    Anthropic and OpenAI blocks are objects with a ``type``: one the target lists, or one no
    format lists (a type invented after this table) spelled like the target's, on an object
    whose keys are spelled like the target's too. Another format's type, an agent log's
    content type, or an object without ``type`` is not the target's. A Gemini part has no
    ``type``: it is an object of camelCase keys with a data field besides the metadata,
    and its data fields hold objects (as every Gemini data field but ``text`` does).

    >>> raw_is_own({"type": "document", "source": {}}, "anthropic")
    True
    >>> raw_is_own({"type": "web_search_call", "id": "ws_1"}, "anthropic")
    False
    >>> raw_is_own({"type": "compaction", "id": "cmp_1", "encrypted_content": "x"}, "anthropic")
    False
    >>> raw_is_own({"type": "resource_link", "uri": "file:///a"}, "openai_chat")
    False
    >>> raw_is_own({"executableCode": {"code": "print(1)"}}, "gemini")
    True
    """
    if not isinstance(data, Mapping):
        return False
    keys = list(data)
    if target == BEDROCK:
        # One member of the ContentBlock union this table knows. A member added after it
        # cannot be told from a Gemini part of a new kind (both are one camelCase key over
        # an object), so by its data alone it is not taken for Bedrock's: the Bedrock
        # decoder marks the ones it kept (see raw_block_is_own).
        return len(keys) == 1 and keys[0] in BEDROCK_BLOCKS
    if target == GEMINI:
        data_keys = [k for k in keys if k not in _GEMINI_METADATA]
        return (
            "type" not in keys
            and not any(k in BEDROCK_BLOCKS and k not in _GEMINI_DATA for k in data_keys)
            and all(isinstance(k, str) and fits(k, GEMINI) for k in keys)
            and bool(data_keys)
            and all(
                k not in LOG_FIELDS and (k == "text" or isinstance(data[k], Mapping))
                for k in data_keys
            )
        )
    tag = data.get("type")
    if not isinstance(tag, str):
        return False
    if tag in TYPES[target]:
        return not any(k in data for k in _NOT_THERE.get((target, tag), ()))
    if any(tag in TYPES[name] for name in PROVIDERS if name != target) or tag in _LOG_TYPES:
        return False
    return bool(_SNAKE.fullmatch(tag)) and all(isinstance(k, str) and fits(k, target) for k in keys)


def raw_block_is_own(block: RawBlock, target: str) -> bool:
    """Whether a raw block is the target's, to be written as it is.

    A block its decoder marked with a ``provider`` (a Converse member newer than this
    library, which its data cannot tell from a Gemini part) is that provider's only;
    any other is judged by its data (:func:`raw_is_own`).

    >>> raw_block_is_own(RawBlock({"newMember": {}}, provider="bedrock"), "bedrock")
    True
    >>> raw_block_is_own(RawBlock({"newMember": {}}, provider="bedrock"), "gemini")
    False
    >>> raw_block_is_own(RawBlock({"newMember": {}}), "gemini")
    True
    """
    if block.provider is not None:
        return block.provider == target
    return raw_is_own(block.data, target)


def role_is_own(role: str, target: str) -> bool:
    """Whether a whole raw message with this role can go into the target's request as it is.

    That is a role the target has, or one no format has (a role invented after this table)
    spelled like the target's names; another format's role cannot.

    >>> role_is_own("function", "openai_chat"), role_is_own("function", "anthropic")
    (True, False)
    """
    if role in ROLES[target]:
        return True
    if any(role in ROLES[name] for name in PROVIDERS):
        return False
    return fits(role, target)


def response_extra(
    extra: Mapping[str, object], target: str, *, usage: bool = False
) -> dict[str, object]:
    """The fields of a response body (or of its ``usage``) an encoder writes from ``extra``.

    The target's own fields are written; another format's response or usage fields (and
    message fields, which a response of another format keeps beside them) are left out;
    a field no table lists is written when spelled like the target's.

    >>> response_extra({"stop_sequence": None, "system_fingerprint": "fp", "x_new": 1}, "anthropic")
    {'stop_sequence': None, 'x_new': 1}
    """
    table = USAGE_FIELDS if usage else RESPONSE_FIELDS
    own = table[target]
    others = frozenset().union(*(v for k, v in table.items() if k != target))
    out: dict[str, object] = {}
    for key, value in extra.items():
        if key in own:
            out[key] = value
        elif key in others or owner(key, target, "message") != "unknown":
            continue
        elif fits(key, target):
            out[key] = value
    return out

"""What belongs to which provider format: block types, block fields and message fields.

An encoder uses these tables to tell content of *another* provider's format, which it cannot
carry and hands to the caller's unsupported policy, from fields of its own format (known ones
and new ones alike), which it writes back as they are. A field or type in no table is taken
to be the target's own: new fields appear in every API all the time.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "ANTHROPIC_BLOCK_KEYS",
    "ANTHROPIC_CITATIONS",
    "ANTHROPIC_MESSAGE_KEYS",
    "ANTHROPIC_TYPES",
    "CHAT_MESSAGE_KEYS",
    "CHAT_PART_TYPES",
    "CHAT_TOOL_CALL_TYPES",
    "GEMINI_BLOCK_KEYS",
    "GEMINI_MESSAGE_KEYS",
    "OPENAI_BLOCK_KEYS",
    "OPENAI_CITATIONS",
    "RESPONSES_BLOCK_KEYS",
    "RESPONSES_MESSAGE_KEYS",
    "RESPONSES_TYPES",
]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


ANTHROPIC_TYPES: Final = _words(
    """text image document search_result thinking redacted_thinking tool_use tool_result
    server_tool_use web_search_tool_result web_fetch_tool_result code_execution_tool_result
    bash_code_execution_tool_result text_editor_code_execution_tool_result
    tool_search_tool_result container_upload mcp_tool_use mcp_tool_result compaction"""
)
"""Anthropic Messages content block types."""
CHAT_PART_TYPES: Final = _words("text image_url input_audio file refusal")
"""OpenAI Chat Completions content part types."""
CHAT_TOOL_CALL_TYPES: Final = _words("function custom")
"""OpenAI Chat Completions ``tool_calls`` entry types."""
RESPONSES_TYPES: Final = _words(
    """input_text output_text input_image input_file output_audio summary_text
    reasoning_text reasoning message function_call function_call_output custom_tool_call
    custom_tool_call_output web_search_call file_search_call computer_call
    computer_call_output code_interpreter_call image_generation_call local_shell_call
    local_shell_call_output mcp_call mcp_list_tools mcp_approval_request
    mcp_approval_response item_reference"""
)
"""OpenAI Responses content part and item types."""

ANTHROPIC_CITATIONS: Final = _words(
    """char_location page_location content_block_location web_search_result_location
    search_result_location"""
)
"""Anthropic citation types (``text.citations``)."""
OPENAI_CITATIONS: Final = _words("url_citation file_citation container_file_citation file_path")
"""OpenAI annotation types (``message.annotations``, ``output_text.annotations``)."""

ANTHROPIC_BLOCK_KEYS: Final = _words("cache_control citations caller toolset_name")
"""Anthropic block fields (the block views of the other formats have none of them)."""
OPENAI_BLOCK_KEYS: Final = _words("detail prompt_cache_breakpoint annotations logprobs")
"""OpenAI part fields (image ``detail``, cache breakpoints, output annotations)."""
RESPONSES_BLOCK_KEYS: Final = _words("status call_id")
"""OpenAI Responses item fields that a decoder may keep on a block."""
GEMINI_BLOCK_KEYS: Final = _words(
    """thought thoughtSignature thought_signature mediaResolution media_resolution
    videoMetadata video_metadata"""
)
"""Gemini part fields (signatures, media hints)."""

ANTHROPIC_MESSAGE_KEYS: Final = _words(
    "type id stop_sequence stop_details container diagnostics context_management"
)
"""Fields of an Anthropic response ``Message`` besides role and content."""
CHAT_MESSAGE_KEYS: Final = _words(
    """name refusal tool_calls tool_call_id audio function_call annotations completion
    reasoning_content reasoning reasoning_details"""
)
"""Fields of an OpenAI Chat message besides role and content (``completion`` is where the
Chat codec keeps the rest of a ChatCompletion)."""
RESPONSES_MESSAGE_KEYS: Final = _words("status phase")
"""Fields of an OpenAI Responses message item that a decoder may keep on a message."""
GEMINI_MESSAGE_KEYS: Final = _words("parts")
"""Fields of a Gemini ``Content`` besides its role."""

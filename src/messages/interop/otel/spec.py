"""The names the OpenTelemetry GenAI conventions give (private to ``otel``).

The span attributes, the part types this bridge models, and the finish reasons.
"""

from __future__ import annotations

from typing import Final

from ...blocks import AudioBlock
from ...blocks import ImageBlock
from ...blocks import VideoBlock
from ...usage import StopReason

__all__ = [
    "FINISH",
    "INPUT",
    "MEDIA_TYPES",
    "MODALITY",
    "NAME",
    "OUTPUT",
    "OWN",
    "SYSTEM",
    "VERSIONS",
]

NAME: Final = "otel"
"""The name used in errors."""
VERSIONS: Final = "opentelemetry-util-genai 1.3b0 (GenAI semantic conventions, messages)"
"""The message types this bridge was tested against."""
INPUT: Final = "gen_ai.input.messages"
"""The span attribute of the messages sent to the model."""
OUTPUT: Final = "gen_ai.output.messages"
"""The span attribute of the messages the model returned."""
SYSTEM: Final = "gen_ai.system_instructions"
"""The span attribute of the system instructions: a list of parts."""

MODALITY: Final[dict[str, type[ImageBlock | AudioBlock | VideoBlock]]] = {
    "image": ImageBlock,
    "audio": AudioBlock,
    "video": VideoBlock,
}
"""The block a ``blob``, ``uri`` or ``file`` part of each ``modality`` becomes."""
FINISH: Final = {
    StopReason.END_TURN: "stop",
    StopReason.STOP_SEQUENCE: "stop",
    StopReason.MAX_TOKENS: "length",
    StopReason.TOOL_USE: "tool_call",
    StopReason.REFUSAL: "content_filter",
    StopReason.ERROR: "error",
}
"""The finish reason written for each kind of stop reason another format spelled."""
OWN: Final = frozenset(
    [
        "text",
        "reasoning",
        "tool_call",
        "tool_call_response",
        "server_tool_call",
        "server_tool_call_response",
        "blob",
        "uri",
        "file",
    ]
)
"""The part types this bridge models (any other is a generic part, kept raw)."""
MEDIA_TYPES: Final = frozenset(("blob", "uri", "file"))
"""The part types that carry media."""

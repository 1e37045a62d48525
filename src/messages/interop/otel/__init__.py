"""OpenTelemetry GenAI messages, both ways: the three span attributes of a conversation.

``gen_ai.input.messages``, ``gen_ai.output.messages`` and ``gen_ai.system_instructions``.

Observability tools (Langfuse, Phoenix, Logfire, Datadog) record conversations in the shape
the OpenTelemetry GenAI semantic conventions give: a message is ``{"role", "parts",
"name"?, "finish_reason"?}`` and a part one of ``text``, ``reasoning``, ``tool_call``,
``tool_call_response``, ``server_tool_call``, ``server_tool_call_response``, ``blob``,
``uri``, ``file``, ``compaction`` or any other ``type`` (a generic part). This bridge reads
and writes that JSON (parsed, or as the attribute's JSON text), and the message classes of
``opentelemetry-util-genai`` (``InputMessage``, ``OutputMessage`` and their parts), which it
reads by their fields without importing the package.

- :func:`to_messages` / :func:`from_messages`: a list of OTel messages and back, with the
  loss policy for what the conventions have no place for (signatures, ``is_error``...);
- :func:`from_attributes` / :func:`to_attributes`: the three span attributes at once (the
  system instructions are a list of parts, not messages).

Nothing here imports OpenTelemetry. Tested against ``opentelemetry-util-genai`` 1.3b0: every
message written is built as that package's ``InputMessage``/``OutputMessage`` in the tests.

>>> from messages import SystemMessage, UserMessage
>>> from_messages([UserMessage("Hi")])
[{'role': 'user', 'parts': [{'type': 'text', 'content': 'Hi'}]}]
>>> to_messages([{"role": "assistant", "parts": [{"type": "text", "content": "Hello"}],
...               "finish_reason": "stop"}])
[AssistantMessage(content=(TextBlock(text='Hello'),), stop_reason='stop')]
"""

from __future__ import annotations

from .reading import from_attributes
from .reading import to_messages
from .spec import INPUT
from .spec import NAME
from .spec import OUTPUT
from .spec import SYSTEM
from .spec import VERSIONS
from .writing import from_messages
from .writing import to_attributes

__all__ = [
    "INPUT",
    "NAME",
    "OUTPUT",
    "SYSTEM",
    "VERSIONS",
    "from_attributes",
    "from_messages",
    "to_attributes",
    "to_messages",
]

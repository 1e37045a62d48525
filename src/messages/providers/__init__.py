"""Provider API codecs: one module per API, one shared surface.

Every provider module exposes ``NAME``, ``encode_request(conversation, *, unsupported=...)``,
``decode_request(body)``, ``decode_response(body)``, ``encode_response(message)`` and
``accumulator()``; see ``_base`` for the shared types.
"""

__all__: list[str] = []

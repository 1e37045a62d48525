"""Agent CLI adapters: one module per source, one shared surface.

Every adapter module exposes ``NAME``, ``decode(obj) -> Message``,
``encode(message) -> dict``, ``detect(obj) -> bool`` and
``iter_decode(lines, *, strict=False) -> Iterator[Message]``; see ``_base`` for the
line-reading rules they share.
"""

__all__: list[str] = []

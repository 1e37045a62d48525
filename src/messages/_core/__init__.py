"""The library's core machinery, private: frozen JSON, fields, fast construction, wire reads.

- :mod:`.frozen`: :class:`FrozenDict`, ``freeze``/``thaw``, the stored plain form;
- :mod:`.fields`: what the value types share (role and timestamp aliases, field freezing);
- :mod:`.make`: the one home of unchecked construction (the fenced fast paths);
- :mod:`.jsontext`: JSON text in and out, strict, with the library's own errors;
- :mod:`.wire`: the checked readers every decoder uses;
- :mod:`.anthropic_blocks`: the Anthropic-shaped block codec that ``parse_blocks``, the
  Claude Code adapter and the Anthropic provider share.
"""

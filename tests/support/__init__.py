"""Helpers the test files share, one module per concern.

- ``adapter_files``: reading agent-log fixtures and checking exact round trips;
- ``provider_checks``: provider fixtures, strict request validators, conversation views;
- ``provider_strategies``: Hypothesis strategies for provider-shaped conversations;
- ``history_checks``: tool call/result pairing checks for the history tools;
- ``mutation``: changing a value after handing it over (``scribble``).
"""

"""Helpers the test files share, one module per concern.

- ``adapter_files``: reading agent-log fixtures and checking exact round trips;
- ``provider_checks``: provider fixtures, strict request validators, conversation views, and
  the shared policy and response checks;
- ``provider_strategies``: Hypothesis strategies for provider-shaped conversations;
- ``provider_specs``: what the provider contract suite needs to know about each provider;
- ``provider_cases``: the format-specific error and policy cases the contract suite runs;
- ``history_checks``: tool call/result pairing checks for the history tools;
- ``mutation``: changing a value after handing it over (``scribble``).
"""

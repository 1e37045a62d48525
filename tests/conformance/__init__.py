"""Conformance against the official provider SDKs: ``oracle`` judges, the tests feed it."""

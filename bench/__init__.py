"""Benchmarks for hermes_decl; run them with ``python -m bench``."""

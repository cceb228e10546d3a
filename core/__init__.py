"""Doppel's engine: documents in, sentence-length signatures, suffix-tree matching, scores.

Never imports Qt (an import-linter contract and a test enforce it)."""

ENGINE_VERSION = "2"

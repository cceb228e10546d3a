"""Doppel's user-facing layer: the command line (and, later, the desktop GUI)."""

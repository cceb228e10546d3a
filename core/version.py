"""Doppel's version: the installed distribution's, read in one place for the command line, the
window and what the reports record."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version


def doppel_version() -> str:
    """The installed distribution's version ("0+unknown" when run from a bare source tree)."""
    try:
        return version("doppel-check")
    except PackageNotFoundError:
        return "0+unknown"

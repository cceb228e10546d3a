"""Doppel's user-facing layer: the command line (`app.cli`, no Qt) and the desktop app
(`app.gui`, the `gui` extra). Neither imports the other; `app.launcher` routes between them.

The version lives here so both read it from one place."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version


def app_version() -> str:
    """The installed distribution's version ("0+unknown" when run from a bare source tree)."""
    try:
        return version("doppel-check")
    except PackageNotFoundError:
        return "0+unknown"

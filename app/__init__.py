"""Doppel's user-facing layer: the command line (`app.cli`, no Qt) and the desktop app
(`app.gui`, the `gui` extra). Neither imports the other; `app.launcher` routes between them.

Both read the version from `app_version` (`core.version`, which the reports read too)."""

from __future__ import annotations

from core.version import doppel_version


def app_version() -> str:
    """The installed distribution's version ("0+unknown" when run from a bare source tree)."""
    return doppel_version()

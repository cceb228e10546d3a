"""Finds the files shipped in `resources/` the same way from source and from a frozen bundle.

From source the folder sits beside the `core` package; in a PyInstaller bundle it is unpacked
under `sys._MEIPASS` with the same relative layout."""

from __future__ import annotations

import sys
from pathlib import Path


def resources_root() -> Path:
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root is not None:
        return Path(frozen_root) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def resource_path(*parts: str) -> Path:
    """The path of a shipped resource, e.g. `resource_path("samples", "original.txt")`."""
    return resources_root().joinpath(*parts)

"""Finds the files shipped in `resources/` the same way from source and from a frozen bundle.

From source the folder sits beside the `core` package; in a PyInstaller bundle it is unpacked
under `sys._MEIPASS` with the same relative layout; installed from a wheel
(`pip install doppel-check`) it is the package `doppel_resources` (pyproject.toml maps the
folder to it)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def resources_root() -> Path:
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root is not None:
        return Path(frozen_root) / "resources"
    beside = Path(__file__).resolve().parent.parent / "resources"
    if beside.is_dir():
        return beside
    installed = importlib.util.find_spec("doppel_resources")
    if installed is not None and installed.submodule_search_locations:
        return Path(next(iter(installed.submodule_search_locations)))
    return beside  # nothing shipped: every lookup then names the missing file


def resource_path(*parts: str) -> Path:
    """The path of a shipped resource, e.g. `resource_path("samples", "original.txt")`."""
    return resources_root().joinpath(*parts)

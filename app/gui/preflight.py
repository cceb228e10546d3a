"""Can the window open here? Checked before Qt is imported, because Qt's own answer to a
missing display or a missing system library is to abort the process with a message about
"platform plugins" that names the wrong library (docs/packaging.md, "Linux").

`gui_problem()` returns None when the window can open, else the message a teacher reads:
what is missing and how to get it. Imports no Qt."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

INSTALL_GUI = "pip install 'doppel-check[gui]'"

#: Qt platforms that need no display (tests, screenshots, a framebuffer)
_HEADLESS = frozenset(
    {"offscreen", "minimal", "minimalegl", "vnc", "linuxfb", "eglfs", "vkkhrdisplay"}
)

#: shared-library names whose Debian package is not the plain rule of `debian_package`
_PACKAGES = {
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libgobject-2.0.so.0": "libglib2.0-0",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libOpenGL.so.0": "libopengl0",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb-util.so.1": "libxcb-util1",
}

_NOT_FOUND = re.compile(r"^\s*(\S+)\s*=>\s*not found", re.MULTILINE)


def debian_package(library: str) -> str:
    """The Debian/Ubuntu package that ships a shared library: libxcb-cursor.so.0 →
    libxcb-cursor0, libxkbcommon-x11.so.0 → libxkbcommon-x11-0 (a hyphen when the name ends
    in a digit), with the few exceptions listed above."""
    if library in _PACKAGES:
        return _PACKAGES[library]
    name, _, version = library.partition(".so.")
    name = name.lower()
    major = version.split(".")[0]
    if not major:
        return name
    return f"{name}-{major}" if name[-1].isdigit() else f"{name}{major}"


def platform_name(environ: Mapping[str, str], system: str) -> str:
    """The Qt platform plugin the app will load: QT_QPA_PLATFORM's first choice, else the
    system's default (xcb on a Linux X11 session, wayland on a Wayland one)."""
    chosen = environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if chosen:
        return chosen
    if not system.startswith("linux"):
        return "native"
    if environ.get("WAYLAND_DISPLAY") and environ.get("XDG_SESSION_TYPE") == "wayland":
        return "wayland"
    return "xcb"


def plugin_path(platform: str) -> Path | None:
    """The Qt platform plugin's library (libq<platform>.so), where PySide6 has it."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "Qt" / "plugins" / "platforms" / f"libq{platform}.so"
    return path if path.exists() else None


def missing_libraries(library: Path) -> list[str]:
    """The shared libraries `library` needs that the system cannot find, as `ldd` reports
    them (directly or through another library); [] when ldd is not there to ask."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return []
    try:
        out = subprocess.run(
            [ldd, str(library)], capture_output=True, text=True, timeout=30, check=False
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return sorted(set(_NOT_FOUND.findall(out)))


def gui_problem(
    environ: Mapping[str, str] | None = None,
    system: str = sys.platform,
    has_qt: Callable[[], bool] | None = None,
    missing: Callable[[str], Sequence[str]] | None = None,
) -> str | None:
    """Why the window cannot open here, in words, or None when it can. The arguments are for
    tests: the environment, `sys.platform`, whether PySide6 is installed, and the libraries a
    platform plugin misses."""
    environ = os.environ if environ is None else environ
    if not (has_qt or _has_qt)():
        return (
            "The desktop app is not installed: this Doppel has the command line only.\n"
            f"Install it with:  {INSTALL_GUI}\n"
            "(the command line works without it: doppel compare A B, doppel batch FOLDER)"
        )
    if not system.startswith("linux"):
        return None  # Windows and macOS always have a display and ship what Qt needs
    platform = platform_name(environ, system)
    if platform not in _HEADLESS:
        if platform == "wayland" and not environ.get("WAYLAND_DISPLAY"):
            return _no_display("WAYLAND_DISPLAY is not set")
        if platform == "xcb" and not environ.get("DISPLAY"):
            return _no_display("DISPLAY is not set")
    absent = list((missing or _missing_for_platform)(platform))
    if absent:
        packages = sorted({debian_package(name) for name in absent})
        return (
            f"The window cannot open: Qt's '{platform}' display support needs system "
            f"libraries that are missing: {', '.join(absent)}.\n"
            f"On Debian or Ubuntu:  sudo apt-get install {' '.join(packages)}\n"
            "(other Linux systems name the packages after the same libraries; the README's "
            "Linux notes list them)"
        )
    return None


def _has_qt() -> bool:
    return importlib.util.find_spec("PySide6") is not None


def _missing_for_platform(platform: str) -> list[str]:
    path = plugin_path(platform)
    return missing_libraries(path) if path is not None else []


def _no_display(why: str) -> str:
    return (
        f"The window cannot open: there is no display ({why}).\n"
        "Run Doppel from a desktop session, or use the command line: doppel compare A B, "
        "doppel batch FOLDER (doppel --help lists the commands).\n"
        "For a picture without a display: QT_QPA_PLATFORM=offscreen doppel gui --demo "
        "--screenshot shot.png"
    )

"""Can the window open here? Checked before Qt is imported, because Qt's own answer to a
missing display or a missing system library is to abort the process with a message about
"platform plugins" that names the wrong library (docs/packaging.md, "Linux").

`gui_problem()` returns None when the window can open, else the message a teacher reads:
what is missing and how to get it. Imports no Qt."""

from __future__ import annotations

import ctypes
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
    reachable: Callable[[str, Mapping[str, str]], bool] | None = None,
    program: str = "doppel",
) -> str | None:
    """Why the window cannot open here, in words, or None when it can. `program` is how the
    teacher starts Doppel ("doppel", or "Doppel" for the packaged app), for the commands the
    message suggests. The other arguments are for tests: the environment, `sys.platform`,
    whether PySide6 is installed, the libraries a platform plugin misses, and whether a
    platform's display answers."""
    environ = os.environ if environ is None else environ
    if not (has_qt or _has_qt)():
        return (
            "The desktop app is not installed: this Doppel has the command line only.\n"
            f"Install it with:  {INSTALL_GUI}\n"
            f"(the command line works without it: {program} compare A B, {program} batch FOLDER)"
        )
    if not system.startswith("linux"):
        return None  # Windows and macOS always have a display and ship what Qt needs
    platform = platform_name(environ, system)
    if platform not in _HEADLESS:
        if platform == "wayland" and not environ.get("WAYLAND_DISPLAY"):
            return _no_display("WAYLAND_DISPLAY is not set", program)
        if platform == "xcb" and not environ.get("DISPLAY"):
            return _no_display("DISPLAY is not set", program)
        if platform in ("xcb", "wayland") and not (reachable or display_answers)(platform, environ):
            name = environ["DISPLAY" if platform == "xcb" else "WAYLAND_DISPLAY"]
            return _no_display(
                f"{'DISPLAY' if platform == 'xcb' else 'WAYLAND_DISPLAY'} is {name}, but no "
                "display server answered there, or it refused this user",
                program,
            )
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


def display_answers(platform: str, environ: Mapping[str, str]) -> bool:
    """Whether the display server of `platform` accepts a connection: X11 through libxcb's
    own `xcb_connect` (what Qt does first), Wayland by its socket. True when it cannot be
    asked (libxcb itself missing is reported as a missing library instead)."""
    if platform == "wayland":
        name = environ.get("WAYLAND_DISPLAY", "")
        runtime = environ.get("XDG_RUNTIME_DIR", "")
        socket = Path(name) if Path(name).is_absolute() else Path(runtime) / name
        return socket.exists()
    xcb = _libxcb()
    if xcb is None:
        return True
    connection = xcb.xcb_connect(environ.get("DISPLAY", "").encode(), None)
    try:
        return bool(xcb.xcb_connection_has_error(connection) == 0)
    finally:
        xcb.xcb_disconnect(connection)


def _libxcb() -> ctypes.CDLL | None:
    frozen = getattr(sys, "_MEIPASS", None)  # the packaged app carries its own copy
    names = [str(Path(frozen) / "libxcb.so.1")] if frozen else []
    for name in [*names, "libxcb.so.1"]:
        try:
            xcb = ctypes.CDLL(name)
        except OSError:
            continue
        xcb.xcb_connect.restype = ctypes.c_void_p
        xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
        xcb.xcb_connection_has_error.restype = ctypes.c_int
        xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
        xcb.xcb_disconnect.restype = None
        xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
        return xcb
    return None


def _has_qt() -> bool:
    return importlib.util.find_spec("PySide6") is not None


def _missing_for_platform(platform: str) -> list[str]:
    path = plugin_path(platform)
    return missing_libraries(path) if path is not None else []


def _no_display(why: str, program: str) -> str:
    return (
        f"The window cannot open: there is no display ({why}).\n"
        f"Run Doppel from a desktop session, or use the command line: {program} compare A B, "
        f"{program} batch FOLDER ({program} --help lists the commands).\n"
        f"For a picture without a display: QT_QPA_PLATFORM=offscreen {program} gui --demo "
        "--screenshot shot.png"
    )

"""Routing between the command line and the window (one command table), and the window's
preflight: a missing `gui` extra, display or system library is a readable message, never
Qt's abort. No Qt is imported here: these tests run in the headless lane too."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from app import launcher
from app.cli.commands import COMMANDS, build_parser, is_command_line
from app.cli.main import main
from app.gui import preflight
from app.gui.preflight import debian_package, gui_problem, missing_libraries, platform_name
from core.resources import resource_path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = resource_path("samples")
HAS_QT = preflight._has_qt()


def test_every_command_of_the_table_is_in_the_help(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for command in COMMANDS:
        assert command.name in out
    assert {c.name for c in COMMANDS} >= {"compare", "batch", "phrases", "languages", "self-test"}


def test_the_parser_knows_every_command_of_the_table() -> None:
    parser = build_parser()
    for command in COMMANDS:
        args = parser.parse_args([command.name, *_minimal_arguments(command.name)])
        assert args.command == command.name


def _minimal_arguments(name: str) -> list[str]:
    return {
        "compare": ["a", "b"],
        "report": ["a", "b"],
        "batch": ["folder"],
        "archive": ["info"],
        "phrases": ["a"],
    }.get(name, [])


@pytest.mark.parametrize(
    ("argv", "command_line"),
    [
        (["compare", "a", "b"], True),
        (["report", "a", "b", "--pdf", "r.pdf"], True),
        (["batch", "folder", "--json"], True),
        (["archive", "check", "folder", "--json"], True),
        (["phrases", "a", "--json"], True),
        (["languages"], True),
        (["self-test"], True),
        (["--self-test"], True),
        (["--version"], True),
        (["--help"], True),
        ([], False),
        (["essay.docx", "copy.pdf"], False),
        (["--demo"], False),
        (["gui", "--demo"], False),
    ],
)
def test_the_packaged_app_routes_from_the_command_table(argv, command_line) -> None:
    assert is_command_line(argv) is command_line


def test_the_packaged_app_runs_batch_json_on_the_command_line(capsys, monkeypatch) -> None:
    opened: list[list[str]] = []
    monkeypatch.setattr(launcher, "open_window", lambda argv: opened.append(list(argv)) or 0)
    code = launcher.packaged_main(["batch", str(SAMPLES), "--json", "--no-cache"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and opened == []
    assert len(data["documents"]) >= 3 and data["pairs"]


def test_the_packaged_app_opens_the_window_for_files_and_no_arguments(monkeypatch) -> None:
    opened: list[list[str]] = []
    monkeypatch.setattr(launcher, "open_window", lambda argv: opened.append(list(argv)) or 0)
    assert launcher.packaged_main([]) == 0
    assert launcher.packaged_main(["essay.docx", "copy.pdf"]) == 0
    assert launcher.packaged_main(["gui", "--demo"]) == 0
    assert launcher.main(["gui", "--theme", "dark"]) == 0
    assert opened == [[], ["essay.docx", "copy.pdf"], ["--demo"], ["--theme", "dark"]]


def test_the_command_line_does_not_run_the_window(capsys) -> None:
    assert main(["gui", "--demo"]) == 2
    assert "not a command-line command" in capsys.readouterr().err


def test_without_the_gui_extra_the_window_says_how_to_install_it() -> None:
    message = gui_problem({"DISPLAY": ":0"}, "linux", has_qt=lambda: False)
    assert message is not None and "pip install 'doppel-check[gui]'" in message


def test_without_a_display_the_window_says_so() -> None:
    message = gui_problem({}, "linux", has_qt=lambda: True, missing=lambda p: [])
    assert message is not None and "no display" in message and "DISPLAY" in message
    wayland = {"XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": ""}
    assert "no display" in (gui_problem(wayland, "linux", lambda: True, lambda p: []) or "")


def answers(platform: str, environ) -> bool:
    return True


def test_a_display_that_does_not_answer_is_no_display() -> None:
    message = gui_problem(
        {"DISPLAY": ":7"}, "linux", lambda: True, lambda p: [], lambda p, e: False
    )
    assert message is not None and "DISPLAY is :7, but no display server answered" in message
    wayland = {"XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-9"}
    message = gui_problem(wayland, "linux", lambda: True, lambda p: [], lambda p, e: False)
    assert message is not None and "WAYLAND_DISPLAY is wayland-9" in message


def test_a_wayland_display_answers_by_its_socket(tmp_path: Path) -> None:
    (tmp_path / "wayland-1").touch()
    environ = {"XDG_RUNTIME_DIR": str(tmp_path), "WAYLAND_DISPLAY": "wayland-1"}
    assert preflight.display_answers("wayland", environ)
    assert not preflight.display_answers("wayland", {**environ, "WAYLAND_DISPLAY": "wayland-2"})


def test_the_packaged_app_names_itself_in_the_message() -> None:
    message = gui_problem({}, "linux", lambda: True, lambda p: [], answers, program="Doppel")
    assert message is not None and "Doppel compare A B" in message


def test_a_display_or_offscreen_is_enough() -> None:
    fine = {"DISPLAY": ":0"}
    assert gui_problem(fine, "linux", lambda: True, lambda p: [], answers) is None
    offscreen = {"QT_QPA_PLATFORM": "offscreen"}
    assert gui_problem(offscreen, "linux", has_qt=lambda: True, missing=lambda p: []) is None
    assert gui_problem({}, "win32", has_qt=lambda: True, missing=lambda p: ["x"]) is None


def test_missing_system_libraries_are_named_with_their_packages() -> None:
    absent = ["libxcb-cursor.so.0", "libxcb-icccm.so.4"]
    message = gui_problem({"DISPLAY": ":0"}, "linux", lambda: True, lambda p: absent, answers)
    assert message is not None
    assert "libxcb-cursor.so.0" in message and "'xcb'" in message
    assert "apt-get install libxcb-cursor0 libxcb-icccm4" in message


@pytest.mark.parametrize(
    ("library", "package"),
    [
        ("libxcb-cursor.so.0", "libxcb-cursor0"),
        ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
        ("libxcb-render-util.so.0", "libxcb-render-util0"),
        ("libdbus-1.so.3", "libdbus-1-3"),
        ("libEGL.so.1", "libegl1"),
        ("libglib-2.0.so.0", "libglib2.0-0"),
        ("libfontconfig.so.1", "libfontconfig1"),
    ],
)
def test_debian_package_names(library, package) -> None:
    assert debian_package(library) == package


def test_platform_follows_qt_qpa_platform_then_the_session() -> None:
    assert platform_name({"QT_QPA_PLATFORM": "offscreen"}, "linux") == "offscreen"
    assert platform_name({"QT_QPA_PLATFORM": "xcb:display=:1"}, "linux") == "xcb"
    assert platform_name({"DISPLAY": ":0"}, "linux") == "xcb"
    session = {"XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0"}
    assert platform_name(session, "linux") == "wayland"
    assert platform_name({}, "darwin") == "native"


@pytest.mark.skipif(sys.platform == "win32", reason="a shell script stands in for ldd")
def test_missing_libraries_reads_what_ldd_reports(tmp_path: Path, monkeypatch) -> None:
    ldd = tmp_path / "ldd"
    ldd.write_text(
        "#!/bin/sh\n"
        "echo '\tlibxcb.so.1 => /lib/libxcb.so.1 (0x1)'\n"
        "echo '\tlibxcb-icccm.so.4 => not found'\n"
        "echo '\tlibxcb-keysyms.so.1 => not found'\n"
        "echo '\tlibxcb-icccm.so.4 => not found'\n",
        encoding="utf-8",
    )
    ldd.chmod(ldd.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert missing_libraries(tmp_path / "libqxcb.so") == [
        "libxcb-icccm.so.4",
        "libxcb-keysyms.so.1",
    ]


def doppel_gui_demo(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`doppel gui --demo` in a process of its own, as a teacher would start it."""
    return subprocess.run(
        [sys.executable, "-m", "app", "gui", "--demo"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="displays are a Linux matter")
def test_doppel_gui_without_a_display_exits_with_a_message_not_an_abort() -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "XDG_SESSION_TYPE"}
    }
    done = doppel_gui_demo(env)
    assert done.returncode == 2, done.stderr  # not Qt's abort (a negative signal number)
    assert done.stderr.startswith("doppel gui: ")
    if HAS_QT:
        assert "no display" in done.stderr
    else:
        assert "pip install 'doppel-check[gui]'" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or preflight._libxcb() is None,
    reason="needs libxcb to ask an X display",
)
def test_doppel_gui_with_a_display_nobody_answers_exits_with_a_message() -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"QT_QPA_PLATFORM", "WAYLAND_DISPLAY"}}
    env["DISPLAY"] = ":77"  # no X server listens there
    done = doppel_gui_demo(env)
    assert done.returncode == 2, done.stderr
    expected = "no display server answered" if HAS_QT else "pip install 'doppel-check[gui]'"
    assert expected in done.stderr


def test_doppel_gui_help_needs_neither_qt_nor_a_display(capsys, monkeypatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.setattr(preflight, "_has_qt", lambda: False)
    with pytest.raises(SystemExit) as exit_info:
        launcher.main(["gui", "--help"])
    assert exit_info.value.code == 0
    assert "--screenshot" in capsys.readouterr().out


def test_starting_doppel_does_not_load_the_pdf_library() -> None:
    """fpdf2 (and fontTools) take most of a second to import: only writing a PDF loads them,
    not `doppel`'s start, the command table, or a comparison."""
    code = (
        "import sys, app.launcher, app.cli.commands, app.cli.report, core.reports.evidence; "
        "from core.reports.evidence import Paper, paper_for_territory, evidence_report; "
        "sys.exit(1 if {'fpdf', 'fontTools'} & set(sys.modules) else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr

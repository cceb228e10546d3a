"""Where `doppel`, `doppel-gui` and the packaged app start: the command line or the window.

`doppel COMMAND ...` runs the command line (`app.cli`, no Qt); `doppel gui ...` opens the
window. The packaged app opens the window unless its first argument is one of the command
table's commands (`app.cli.commands.is_command_line`), so `Doppel essay.docx` (Open With)
opens the window and `Doppel batch FOLDER --json` runs the batch. Before Qt is imported, the
window's preflight (`app.gui.preflight`) turns a missing `gui` extra, a missing display or a
missing system library into a readable message and exit code 2, never Qt's abort."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from app.cli.commands import is_command_line
from app.cli.main import main as cli_main
from app.gui.arguments import build_parser
from app.gui.preflight import gui_problem

EXIT_NO_WINDOW = 2


def main(argv: Sequence[str] | None = None) -> int:
    """`doppel`: a command; `doppel gui ...` opens the window."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["gui"]:
        return open_window(argv[1:])
    return cli_main(argv)


def gui_main(argv: Sequence[str] | None = None) -> int:
    """`doppel-gui [FILE...] [--demo] ...`: the window."""
    return open_window(list(sys.argv[1:] if argv is None else argv))


def packaged_main(argv: Sequence[str] | None = None) -> int:
    """The packaged app: a command of the table runs as on the command line, anything else
    (no arguments, files to open, the window's own options) opens the window."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if is_command_line(argv):
        return cli_main(argv)
    return main(argv if argv[:1] == ["gui"] else ["gui", *argv])


def open_window(argv: Sequence[str]) -> int:
    program = _program()
    # the window's own arguments first: --help and a bad option need neither Qt nor a display
    build_parser(f"{program} gui").parse_args(argv)
    problem = gui_problem(program=program)
    if problem is not None:
        _say(problem, program)
        return EXIT_NO_WINDOW
    try:
        from app.gui.application import main as window_main  # Qt loads only for the window
    except ImportError as error:  # a Qt library the preflight could not foresee
        _say(
            f"The window cannot open: {error}.\nThe README's Linux notes list what Qt needs.",
            program,
        )
        return EXIT_NO_WINDOW
    return window_main(argv)


def _program() -> str:
    """How the teacher started Doppel: "Doppel" for the packaged app, else "doppel"."""
    return "Doppel" if getattr(sys, "frozen", False) else "doppel"


def _say(message: str, program: str) -> None:
    if sys.stderr is not None:  # None in a windowed app on Windows
        print(f"{program} gui: {message}", file=sys.stderr)


if __name__ == "__main__":  # python -m app.launcher
    sys.exit(main())

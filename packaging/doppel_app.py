"""The packaged app's entry point: the window by default, the command line for a command.

`Doppel` (double-click) and `Doppel essay1.docx essay2.pdf` (Open With, drag onto the icon)
open the window; `Doppel compare A B`, `Doppel --self-test`, `Doppel --version` and the other
`doppel` commands run as on the command line."""

from __future__ import annotations

import multiprocessing
import sys

COMMANDS = {"compare", "languages", "gui", "self-test", "--self-test", "--version", "-h", "--help"}


def main() -> int:
    multiprocessing.freeze_support()  # worker processes of a frozen app start here too
    argv = sys.argv[1:]
    if argv and argv[0] in COMMANDS:
        from app.cli.compare import main as cli_main

        return cli_main(argv)
    from app.gui.application import main as gui_main

    return gui_main(argv)


if __name__ == "__main__":
    sys.exit(main())

"""The packaged app's entry point: the window by default, the command line for a command.

`Doppel` (double-click) and `Doppel essay1.docx essay2.pdf` (Open With, drag onto the icon)
open the window; `Doppel compare A B`, `Doppel batch FOLDER --json`, `Doppel --self-test`,
`Doppel --version` and every other command of the command table (`app.cli.commands`) run as
on the command line. The routing is `app.launcher.packaged_main`'s: no second list here."""

from __future__ import annotations

import multiprocessing
import sys


def main() -> int:
    multiprocessing.freeze_support()  # worker processes of a frozen app start here too
    from app.launcher import packaged_main

    return packaged_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())

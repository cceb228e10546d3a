"""The window's own arguments: `doppel gui [FILE...] [--demo] [--theme ...] [--screenshot PATH]`.

Kept apart from `app.gui.application` and free of Qt, so `doppel gui --help` and a bad option
are answered before the preflight and before Qt loads: on a machine with no display, or with
the command line only."""

from __future__ import annotations

import argparse


def build_parser(prog: str = "doppel gui") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Open the Doppel window.")
    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="documents or folders to open, or a .doppelcase case file",
    )
    parser.add_argument("--demo", action="store_true", help="open the bundled sample essays")
    parser.add_argument(
        "--theme",
        choices=("system", "light", "dark"),
        default="system",
        help="colour scheme (default: follow the system)",
    )
    parser.add_argument(
        "--screenshot",
        metavar="PATH",
        help="save a PNG of the window once the comparison is shown, then exit",
    )
    return parser

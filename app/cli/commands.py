"""The one table of `doppel` commands. The parser, `doppel --help`, the dispatch in
`app.cli.main` and the packaged app's routing (`app.launcher`: a command runs on the command
line, anything else opens the window) all read it, so a new command is added here once.

Each command module has `configure(parser)` (its arguments) and `run(args) -> int` (its exit
code). `gui` is listed for the help and the routing, but the command line never runs it: the
launcher opens the window without this package importing Qt."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app import app_version
from app.cli import archive, batch, compare, languages, phrases, report, self_test


@dataclass(frozen=True, slots=True)
class Command:
    name: str
    summary: str  # one line in `doppel --help`
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int] | None  # None: not run here (the window)


def _configure_gui(parser: argparse.ArgumentParser) -> None:
    # everything after `gui` belongs to the window's own parser (app.gui.application)
    parser.add_argument("gui_args", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)


COMMANDS: tuple[Command, ...] = (
    Command("compare", "compare two documents", compare.configure, compare.run),
    Command(
        "report",
        "write the evidence report of two documents (PDF, HTML)",
        report.configure,
        report.run,
    ),
    Command("batch", "check folders of submissions against each other", batch.configure, batch.run),
    Command(
        "archive",
        "keep earlier years in an archive index, and check new submissions against it",
        archive.configure,
        archive.run,
    ),
    Command(
        "phrases",
        "list the phrases repeated in one or more documents",
        phrases.configure,
        phrases.run,
    ),
    Command(
        "languages", "list the languages Doppel can analyse", languages.configure, languages.run
    ),
    Command(
        "self-test",
        "check this installation on the bundled samples (also --self-test)",
        self_test.configure,
        self_test.run,
    ),
    Command(
        "gui",
        "open the desktop app (doppel gui [FILE...] [--demo] [--screenshot PATH])",
        _configure_gui,
        None,
    ),
)

#: options that stand for a command when they come first
OPTION_COMMANDS: dict[str, str] = {"--self-test": "self-test"}
#: the commands of the table the command line does not run (the launcher opens the window)
WINDOW_COMMANDS = frozenset(c.name for c in COMMANDS if c.run is None)
#: options the parser answers by itself (and exits)
PARSER_OPTIONS = ("--version", "-h", "--help")


def command(name: str) -> Command:
    """The command called `name` (KeyError if there is none)."""
    return {c.name: c for c in COMMANDS}[name]


def is_command_line(argv: Sequence[str]) -> bool:
    """Whether `argv` asks for a command-line command (or the parser's own options) rather
    than the window: what the packaged app routes on."""
    if not argv:
        return False
    first = argv[0]
    names = {c.name for c in COMMANDS if c.run is not None}
    return first in names or first in OPTION_COMMANDS or first in PARSER_OPTIONS


def build_parser() -> argparse.ArgumentParser:
    """The `doppel` parser, one subparser per command of the table. Each parsed namespace
    carries its command's own parser as `command_parser`, for usage errors found later."""
    parser = argparse.ArgumentParser(
        prog="doppel",
        description="Doppel finds the sentence blocks two documents share (offline).",
    )
    parser.add_argument("--version", action="version", version=f"doppel {app_version()}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for entry in COMMANDS:
        sub = subparsers.add_parser(entry.name, help=entry.summary, add_help=entry.run is not None)
        entry.configure(sub)
        sub.set_defaults(command_parser=sub)
    return parser

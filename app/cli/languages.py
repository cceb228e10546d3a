"""`doppel languages`: the languages Doppel can analyse (shipped sentence models and stop
lists), one per line as `code  name`."""

from __future__ import annotations

import argparse

from core.documents.language import available_languages


def configure(parser: argparse.ArgumentParser) -> None:
    """`doppel languages` takes no arguments."""
    parser.description = "List the languages Doppel can analyse, with their codes for --lang."


def run(args: argparse.Namespace) -> int:
    for info in available_languages():
        print(f"{info.code}  {info.name}")
    return 0

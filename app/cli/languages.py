"""`doppel languages`: the languages Doppel can analyse (shipped sentence models and stop
lists), one per line as `code  name`, then how the reworded-passage detector stems its words."""

from __future__ import annotations

import argparse

from core.detection.stems import stemmer_kind
from core.documents.language import available_languages


def configure(parser: argparse.ArgumentParser) -> None:
    """`doppel languages` takes no arguments."""
    parser.description = "List the languages Doppel can analyse, with their codes for --lang."


def run(args: argparse.Namespace) -> int:
    for info in available_languages():
        print(f"{info.code}  {info.name:<11} stems: {stemmer_kind(info.code)}")
    return 0

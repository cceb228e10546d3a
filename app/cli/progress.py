"""The progress line a long command (`doppel batch`, `doppel archive add | check`) keeps on
the terminal's last line, on standard error: written only when standard error is a terminal
(not into a log or a pipe), and only when what it shows changes (a job of 100,000 documents
reports each one; the line shows tenths of a per cent)."""

from __future__ import annotations

import sys
from typing import TextIO

#: the line's width: the per cent, and the message cut to fit
WIDTH = 70


class TerminalProgress:
    """A `core.progress.Progress` that draws one line on `stream` (standard error by
    default), if it is a terminal; `clear` wipes it before what comes next is printed."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        # (asked once: a call a document is a system call a document otherwise)
        self.shown = self.stream is not None and self.stream.isatty()
        self.line = ""

    def __call__(self, fraction: float, message: str = "") -> None:
        if not self.shown:
            return
        line = f"\r{100 * fraction:5.1f}%  {message[: WIDTH - 10]:<{WIDTH - 10}}"
        if line != self.line:
            self.line = line
            print(line, end="", file=self.stream, flush=True)

    def clear(self) -> None:
        if self.shown and self.line:
            print("\r" + " " * WIDTH + "\r", end="", file=self.stream, flush=True)
            self.line = ""

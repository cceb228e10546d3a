"""The progress line of a long command: drawn on a terminal only, and only when it changes."""

from __future__ import annotations

import io

from app.cli.progress import WIDTH, TerminalProgress


class Terminal(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty
        self.asked = 0

    def isatty(self) -> bool:
        self.asked += 1
        return self.tty


def test_a_terminal_gets_the_line_when_it_changes_and_a_clear_wipes_it() -> None:
    terminal = Terminal(tty=True)
    progress = TerminalProgress(terminal)
    for k in range(990):  # (a document each: the per cent shows tenths)
        progress(k / 10_000, "Reading")
    progress(0.5, "Reading")
    progress(0.5, "Filing")
    written = terminal.getvalue().split("\r")[1:]
    assert len(written) == 102  # 0.0% … 9.9%, then 50.0% twice (its message changed)
    assert written[0] == f"{'0.0':>5}%  {'Reading':<{WIDTH - 10}}"
    assert written[-1].startswith(" 50.0%  Filing")
    assert terminal.asked == 1  # (asked once, not a call a document)
    progress.clear()
    assert terminal.getvalue().endswith("\r" + " " * WIDTH + "\r")
    progress.clear()  # (nothing shown since: nothing written)
    assert terminal.getvalue().endswith("Filing" + " " * (WIDTH - 16) + "\r" + " " * WIDTH + "\r")
    progress(0.5, "Filing")  # (shown again after a clear)
    assert terminal.getvalue().endswith(" 50.0%  Filing" + " " * (WIDTH - 16))


def test_a_log_or_a_pipe_gets_nothing() -> None:
    log = Terminal(tty=False)
    progress = TerminalProgress(log)
    progress(0.25, "Reading")
    progress.clear()
    assert log.getvalue() == ""


def test_a_long_message_is_cut_to_the_line() -> None:
    terminal = Terminal(tty=True)
    TerminalProgress(terminal)(1.0, "x" * 500)
    assert len(terminal.getvalue()) == 1 + WIDTH - 2

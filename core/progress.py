"""The one shape of a progress callback, for every long engine job (comparing, finding phrases,
shared words, the folder check and its common text).

The engine calls it now and then with the fraction done (0..1) and, where it has something to
say, what it is doing ("Reading essay.docx"); it never goes back. The callback reports it
(a progress bar, a line on stderr) and may raise `core.errors.Cancelled` to stop the job: the
exception goes through the engine to the job's caller. A callback takes both arguments, the
message with a default (`def progress(fraction: float, message: str = "")`, or
`lambda fraction, message="": ...`), because low-level loops have only a fraction to give."""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    """`progress(fraction)` or `progress(fraction, message)`; may raise Cancelled."""

    def __call__(self, fraction: float, message: str = "", /) -> None: ...

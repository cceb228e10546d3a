"""Pausing Python's cyclic garbage collector around jobs that allocate millions of small,
acyclic objects (documents, comparisons, phrase trees). No Qt here: the command line uses it
too. Measured: with the collector running, the phrase engine takes 2.5-2.9 times as long
(bench/bench_phrases.py), and a 300-page document froze the window for 100 ms at a time."""

from __future__ import annotations

import gc
import threading


class CyclicGcPaused:
    """Python's cyclic garbage collector off while a worker builds a document or a comparison.

    Analysing a 300-page document allocates millions of small objects, and every full collection
    the growing heap triggers holds the interpreter lock while it scans all of them: the window
    froze for 100 ms at a time (bench/bench_ui.py). These objects hold no cycles, so nothing is
    lost by collecting once, afterwards; loaded documents are then frozen out of later scans
    (`gc.freeze` in `Session._load`). Nested and concurrent uses are counted."""

    _lock = threading.Lock()
    _depth = 0

    def __enter__(self) -> None:
        with CyclicGcPaused._lock:
            if CyclicGcPaused._depth == 0:
                gc.disable()
            CyclicGcPaused._depth += 1

    def __exit__(self, *exc: object) -> None:
        with CyclicGcPaused._lock:
            CyclicGcPaused._depth -= 1
            if CyclicGcPaused._depth == 0:
                gc.enable()

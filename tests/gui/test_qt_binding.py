"""The Qt binding keeps Python's reference counts right across signals (PySide6 6.12.0 did not:
emitting True a thousand times aborted the interpreter, so pyproject.toml excludes it)."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    flag = Signal(bool)
    anything = Signal(object)


def test_emitting_values_does_not_drop_references(qapp) -> None:
    emitter = _Emitter()
    emitter.anything.connect(lambda value: None)
    value = object()
    before = (sys.getrefcount(True), sys.getrefcount(value))
    for _ in range(100):
        emitter.flag.emit(True)
        emitter.anything.emit(value)
    assert (sys.getrefcount(True), sys.getrefcount(value)) == before

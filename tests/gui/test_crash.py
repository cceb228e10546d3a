"""An uncaught exception is logged and shown with copyable details; the app keeps running."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication, QMessageBox

from app.gui import crash as crash


def test_uncaught_exception_goes_to_the_log_and_a_dialog(qtbot, tmp_path: Path, monkeypatch):
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    logger = logging.getLogger("doppel")
    handlers = list(logger.handlers)
    try:
        log_path = crash.setup_logging(tmp_path)
        crash.install_excepthook(lambda: None)
        try:
            raise RuntimeError("something broke")
        except RuntimeError:
            sys.excepthook(*sys.exc_info())
        qtbot.waitUntil(
            lambda: any(isinstance(w, QMessageBox) for w in QApplication.topLevelWidgets())
        )
        box = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox))
        assert "something broke" in box.text()
        assert "RuntimeError: something broke" in box.detailedText()
        box.close()
        for handler in logger.handlers:
            handler.flush()
        assert "RuntimeError: something broke" in log_path.read_text(encoding="utf-8")
    finally:
        for handler in logger.handlers[len(handlers) :]:
            handler.close()
        logger.handlers[:] = handlers

"""Uncaught exceptions: logged to a rotating file in the platform's log folder and shown in a
dialog with copyable details; the app keeps running (Vorta's `__main__.py`/`log.py` pattern)."""

from __future__ import annotations

import logging
import sys
import traceback
from collections.abc import Callable
from logging.handlers import RotatingFileHandler
from pathlib import Path
from types import TracebackType

from platformdirs import user_log_dir
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

log = logging.getLogger("doppel")
_open_boxes: set[QMessageBox] = set()
CRASH_TITLE = "Something went wrong"


def log_folder() -> Path:
    return Path(user_log_dir("Doppel", "Doppel"))


def setup_logging(folder: Path | None = None) -> Path:
    """Send the app's log to `doppel.log` (1 MB, 3 backups) in the platform log folder."""
    folder = folder or log_folder()
    path = folder / "doppel.log"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = RotatingFileHandler(
            path, maxBytes=1_000_000, backupCount=3, encoding="utf-8"
        )
    except OSError:  # a read-only home must not stop the app
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    return path


def show_error(parent: QWidget | None, title: str, text: str, details: str = "") -> None:
    """A warning dialog whose details can be copied (Show Details… is selectable text)."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, parent)
    if details:
        box.setDetailedText(details)
    # without a parent nothing else holds the box: keep it until it is closed
    _open_boxes.add(box)
    box.finished.connect(lambda _result: _open_boxes.discard(box))
    box.open()


def install_excepthook(
    parent_finder: Callable[[], QWidget | None] = QApplication.activeWindow,
) -> None:
    crash_shown = [False]  # a dialog is on its way

    def hook(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, error, tb)
            return
        details = "".join(traceback.format_exception(kind, error, tb))
        log.error("uncaught exception\n%s", details)
        if crash_shown[0] or any(box.windowTitle() == CRASH_TITLE for box in _open_boxes):
            return  # one at a time: a failing repaint must not open a dialog per frame
        crash_shown[0] = True

        def show() -> None:
            crash_shown[0] = False  # from here on the open box itself says one is shown
            show_error(
                parent_finder(),
                CRASH_TITLE,
                f"Doppel hit an unexpected problem: {error!r}\n\nYour documents are untouched. "
                f"The details below are also in {log_folder() / 'doppel.log'}.",
                details,
            )

        QTimer.singleShot(0, show)  # from the event loop, not inside the handler that failed

    sys.excepthook = hook

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
    def hook(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, error, tb)
            return
        details = "".join(traceback.format_exception(kind, error, tb))
        log.error("uncaught exception\n%s", details)
        # show it from the event loop, not from inside whatever handler failed
        QTimer.singleShot(
            0,
            lambda: show_error(
                parent_finder(),
                "Something went wrong",
                f"Doppel hit an unexpected problem: {error}\n\nYour documents are untouched. "
                f"The details below are also in {log_folder() / 'doppel.log'}.",
                details,
            ),
        )

    sys.excepthook = hook

"""Undoing what the teacher does to the document list: Remove and Clear All (Edit › Undo).

Each command keeps what it took out (`Session.remove_paths` returns it), so undoing puts the
documents back in their former places as they were — a loaded document is not read again — and
brings back the comparison that was on screen. Commands name documents by path, not by row, so
files added or removed in between (which are not on the stack) never confuse them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtGui import QUndoCommand

from app.gui.session import Removed, Session
from core.reports.wording import plural


def remove_text(paths: Sequence[Path]) -> str:
    """ "Remove essay-b.docx", "Remove 2 Documents": the command's name in the Edit menu."""
    if len(paths) == 1:
        return f"Remove {paths[0].name}"
    return f"Remove {plural(len(paths), 'Document')}"


class RemoveDocuments(QUndoCommand):
    """Remove documents from the list (and Clear All: all of them)."""

    def __init__(self, session: Session, paths: Sequence[Path], text: str = "") -> None:
        super().__init__(text or remove_text(paths))
        self.session = session
        self.paths = list(paths)
        self.removed: Removed | None = None

    def redo(self) -> None:
        self.removed = self.session.remove_paths(self.paths)

    def undo(self) -> None:
        if self.removed is not None:
            self.session.restore(self.removed)
            self.removed = None  # (the documents belong to the list again)


def clear_command(session: Session) -> RemoveDocuments:
    paths = [entry.path for entry in session.documents.entries()]
    return RemoveDocuments(session, paths, "Clear All")

"""The list of documents the teacher added: each one loading, loaded, failed or changed on disk.

A file that fails to load stays in the list with its error in plain words, so the teacher sees
what happened to every file they dropped."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QBrush, QPalette
from PySide6.QtWidgets import QApplication

from app.gui.compare.colours import failed_colour
from app.gui.models.row_model import ModelIndex, RowTableModel
from core.documents.document import Document


class Status(Enum):
    LOADING = "loading"
    LOADED = "loaded"
    FAILED = "failed"


@dataclass(frozen=True)
class DocumentEntry:
    path: Path
    status: Status = Status.LOADING
    document: Document | None = None
    error: str = ""  # the reason, in plain words, when it failed
    changed_on_disk: bool = False
    # a template (the prompt, a handout): not compared itself; what the others share with it
    # is left out of their scores
    template: bool = False

    @property
    def note(self) -> str:
        if self.status is Status.LOADING:
            return "Loading…"
        if self.status is Status.FAILED:
            return self.error
        notes = list(self.document.warnings) if self.document else []
        if self.changed_on_disk:
            notes.insert(0, "changed on disk since it was loaded: Re-check (F5) to reload")
        if self.template:
            notes.insert(0, "template: what the other documents share with it is left out")
        return "; ".join(notes)


ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1


class DocumentListModel(RowTableModel[DocumentEntry]):
    COL_NAME, COL_FORMAT, COL_SENTENCES, COL_LANGUAGE, COL_NOTES = range(5)
    HEADERS = ("Document", "Format", "Sentences", "Language", "Notes")
    NUMERIC_COLUMNS = frozenset({COL_SENTENCES})

    # -- the list ----------------------------------------------------------------------

    def entries(self) -> list[DocumentEntry]:
        return list(self._items)

    def loaded(self) -> list[Document]:
        """The loaded documents to compare (templates are not compared themselves)."""
        return [e.document for e in self._items if e.document is not None and not e.template]

    def templates(self) -> list[Document]:
        return [e.document for e in self._items if e.document is not None and e.template]

    def is_template(self, path: Path) -> bool:
        row = self.row_of(path)
        return row >= 0 and self._items[row].template

    def row_of(self, path: Path) -> int:
        for row, entry in enumerate(self._items):
            if entry.path == path:
                return row
        return -1

    def add(self, path: Path) -> bool:
        """Add a file as loading; False if it is already in the list."""
        if self.row_of(path) >= 0:
            return False
        row = len(self._items)
        self.beginInsertRows(QModelIndex(), row, row)
        self._items.append(DocumentEntry(path))
        self.endInsertRows()
        return True

    def update(self, path: Path, **changes: Any) -> None:
        row = self.row_of(path)
        if row < 0:
            return  # removed while it loaded
        self._items[row] = replace(self._items[row], **changes)
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.HEADERS) - 1))

    def remove_rows(self, rows: list[int]) -> None:
        for row in sorted(set(rows), reverse=True):
            if 0 <= row < len(self._items):
                self.beginRemoveRows(QModelIndex(), row, row)
                del self._items[row]
                self.endRemoveRows()

    def clear(self) -> None:
        self.beginResetModel()
        self._items.clear()
        self.endResetModel()

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        entry = self._items[index.row()]
        column = index.column()
        doc = entry.document
        if role == ENTRY_ROLE:
            return entry
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.COL_NAME:
                return entry.path.name
            if column == self.COL_FORMAT:
                return doc.format if doc else entry.path.suffix.lstrip(".").lower()
            if column == self.COL_SENTENCES:
                return doc.sentence_count if doc else None
            if column == self.COL_LANGUAGE:
                return doc.language if doc else None
            if column == self.COL_NOTES:
                return entry.note
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{entry.path}\n{entry.note}".strip()
        if role == Qt.ItemDataRole.FontRole and entry.template:
            font = QApplication.font()
            font.setItalic(True)
            return font
        if role == Qt.ItemDataRole.ForegroundRole and entry.status is not Status.LOADED:
            palette = QApplication.palette()
            if entry.status is Status.FAILED:
                return QBrush(failed_colour(palette))
            return palette.brush(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self.alignment(column)
        return None

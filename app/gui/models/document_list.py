"""The list of documents the teacher added: each one loading, loaded, failed or changed on disk.

A file that fails to load stays in the list with its error in plain words, so the teacher sees
what happened to every file they dropped (the window also says so in a message bar above the
list). With more than two documents, each submission shows its strongest partner: the largest
share of it found in one other document, and which (`core.batch.partners`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, Qt
from PySide6.QtGui import QBrush, QPalette
from PySide6.QtWidgets import QApplication, QStyle

from app.gui.compare.colours import failed_colour
from app.gui.models.row_model import ModelIndex, RowTableModel
from core.batch.partners import StrongestPartner
from core.documents.document import Document
from core.reports.wording import MOST_FOUND_IN, found_in, most_found_in, plural


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
    COL_NAME, COL_PARTNER, COL_FORMAT, COL_SENTENCES, COL_LANGUAGE, COL_NOTES = range(6)
    HEADERS = ("Document", MOST_FOUND_IN, "Format", "Sentences", "Language", "Notes")
    HEADER_TIPS = (
        "",
        "The largest share of this document found in one other document, and which "
        "(with more than two documents)",
        "",
        "",
        "",
        "Why a file could not be read, and what to know about the others",
    )
    NUMERIC_COLUMNS = frozenset({COL_SENTENCES})

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._partners: dict[Path, StrongestPartner[Path]] = {}
        self._partners_shown = False

    # -- strongest partners --------------------------------------------------------------

    def set_partners(
        self, partners: Mapping[Path, StrongestPartner[Path]], shown: bool = True
    ) -> None:
        """Each document's strongest partner (by path; absent: nothing of it is found in
        another), `shown` when there are more than two documents to find it among."""
        if dict(partners) == self._partners and shown == self._partners_shown:
            return
        self._partners = dict(partners)
        self._partners_shown = shown
        if self._items:
            last = len(self._items) - 1
            self.dataChanged.emit(
                self.index(0, self.COL_PARTNER), self.index(last, self.COL_PARTNER)
            )

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            section == self.COL_PARTNER
            and orientation is Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
        ):
            return "Most found\nin another"  # (two lines: the list is often narrow)
        return super().headerData(section, orientation, role)

    def partner(self, path: Path) -> StrongestPartner[Path] | None:
        return self._partners.get(path)

    def partners_shown(self) -> bool:
        """Whether the strongest partners mean something (more than two documents)."""
        return self._partners_shown

    def _partner_text(self, entry: DocumentEntry) -> str | None:
        if not self._partners_shown or entry.template or entry.document is None:
            return None
        found = self._partners.get(entry.path)
        if found is None:
            return "–"  # nothing of it is found in another document
        return most_found_in(found.share, found.partner.name)

    def _partner_tip(self, entry: DocumentEntry) -> str | None:
        found = self._partners.get(entry.path)
        if found is None:
            if self._partners_shown and entry.document is not None and not entry.template:
                return f"Nothing of {entry.path.name} was found in another document."
            return None
        return found_in(found.share, entry.path.name, found.partner.name) + (
            " (double-click to open the pair)"
        )

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

    def insert(self, row: int, entry: DocumentEntry) -> bool:
        """Put `entry` back at `row` (clamped to the list); False if its path is listed."""
        if self.row_of(entry.path) >= 0:
            return False
        row = max(0, min(row, len(self._items)))
        self.beginInsertRows(QModelIndex(), row, row)
        self._items.insert(row, entry)
        self.endInsertRows()
        return True

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
            if column == self.COL_PARTNER:
                return self._partner_text(entry)
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == self.COL_PARTNER:
                return self._partner_tip(entry)
            lines = [str(entry.path)]
            if doc is not None:  # (the columns that may be hidden)
                lines.append(
                    f"{doc.format.upper()} · {plural(doc.sentence_count, 'sentence')} · "
                    f"{doc.language}"
                )
            return "\n".join([*lines, entry.note]).strip()
        if (
            role == Qt.ItemDataRole.DecorationRole
            and column == self.COL_NAME
            and doc is not None
            and doc.tampering
        ):  # disguised to hide copying: marked where the eye goes first
            style = QApplication.style()
            return style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
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

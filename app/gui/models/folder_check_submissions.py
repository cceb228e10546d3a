"""The submissions of a folder check, one a row: the class read one essay at a time. Each row
is a submission with the most of it found in one other document and that document
(`core.batch.partners.standings`, the rule the JSON, CSV, report and `doppel batch` list by),
the pair they make under a custom role (double-clicking opens it), and numbers for sorting. The
filter proxy searches the names of both documents."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QSortFilterProxyModel, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QStyle

from app.gui.models.row_model import ModelIndex, RowTableModel
from core.batch.partners import Standing, standings
from core.batch.result import BatchResult, PairResult
from core.reports.html import display_names
from core.reports.wording import (
    MOST_FOUND_IN,
    NOTHING_FOUND_IN_ANOTHER,
    most_found_in,
    passage_kinds,
    percent,
    verdict_line,
)

STANDING_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2
PAIR_ROLE = Qt.ItemDataRole.UserRole + 3


class SubmissionModel(RowTableModel[Standing]):
    """One row per submission of a folder check's result, the most found in another first."""

    COL_NAME, COL_SHARE, COL_PARTNER, COL_PAIRS = range(4)
    HEADERS = ("Submission", MOST_FOUND_IN, "Found in", "Pairs")
    HEADER_TIPS = (
        "",
        "The largest share of this submission's sentences found in one other document, word "
        "for word or edited",
        "The document that share is found in",
        "Pairs with copied text found that this submission is in",
    )
    NUMERIC_COLUMNS = frozenset({COL_SHARE, COL_PAIRS})

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.result: BatchResult | None = None
        self.names: list[str] = []
        self._pairs: dict[frozenset[int], PairResult] = {}

    def set_result(self, result: BatchResult | None, names: list[str] | None = None) -> None:
        self.result = result
        if result is None:
            self.names, self._pairs = [], {}
            self.set_items(())
            return
        self.names = names if names is not None else display_names(result)
        self._pairs = {frozenset((p.a, p.b)): p for p in result.pairs}
        self.set_items(standings(len(result.documents), result.pairs))

    def standing(self, row: int) -> Standing:
        return self.item(row)

    def pair_of(self, standing: Standing) -> PairResult | None:
        """The pair of the submission and its strongest partner (None without a partner)."""
        if standing.partner is None:
            return None
        return self._pairs.get(frozenset((standing.document, standing.partner)))

    def summary(self, standing: Standing) -> str:
        """ "essay-a.docx: 41.0% in essay-b.docx" (or nothing found in another document)."""
        partner = self.names[standing.partner] if standing.partner is not None else None
        return f"{self.names[standing.document]}: {most_found_in(standing.share, partner)}"

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        result = self.result
        if not index.isValid() or result is None:
            return None
        standing = self._items[index.row()]
        column = index.column()
        if role == STANDING_ROLE:
            return standing
        if role == PAIR_ROLE:
            return self.pair_of(standing)
        partner = self.names[standing.partner] if standing.partner is not None else ""
        name = self.names[standing.document]
        if result.documents[standing.document].archive:
            name += " (earlier year)"
        if role == SORT_ROLE:
            return (name.casefold(), standing.share, partner.casefold(), standing.pairs)[column]
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.COL_NAME:
                return name
            if column == self.COL_SHARE:
                return percent(standing.share) if standing.partner is not None else "—"
            if column == self.COL_PARTNER:
                return partner or NOTHING_FOUND_IN_ANOTHER
            return str(standing.pairs)
        disguises = result.documents[standing.document].tampering
        if role == Qt.ItemDataRole.DecorationRole and column == self.COL_NAME and disguises:
            # disguised to hide copying (look-alike letters, hidden text): marked at the name
            style = QApplication.style()
            return style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        if role == Qt.ItemDataRole.ForegroundRole and standing.partner is None:
            return _muted()
        if role == Qt.ItemDataRole.ToolTipRole:
            pair = self.pair_of(standing)
            lines = [self.summary(standing)]
            if pair is not None:
                lines.append(
                    verdict_line(
                        pair.flagged,
                        pair.copied_a,
                        pair.copied_b,
                        passage_kinds(pair.verified_blocks, pair.reworded_passages),
                        self.names[pair.a],
                        self.names[pair.b],
                    )
                )
                lines.append("Double-click to read the pair side by side.")
            lines += [f"Disguised: {t.message}." for t in disguises]
            lines.append(str(result.documents[standing.document].path))
            return "\n".join(lines)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self.alignment(column)
        return None


def _muted() -> QColor:
    return QGuiApplication.palette().color(QPalette.ColorRole.PlaceholderText)


class SubmissionFilterProxy(QSortFilterProxyModel):
    """Sorts by SORT_ROLE; shows the submissions whose name, or whose partner's, contains the
    filter text (case-insensitive)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self._text = ""

    def set_text(self, text: str) -> None:
        text = text.strip().casefold()
        if text != self._text:
            self._text = text
            if hasattr(self, "endFilterChange"):
                self.beginFilterChange()
                self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
            else:  # pragma: no cover
                self.invalidateRowsFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: ModelIndex) -> bool:
        model = self.sourceModel()
        if not self._text or not isinstance(model, SubmissionModel):
            return True
        standing = model.standing(source_row)
        names = [model.names[standing.document]]
        if standing.partner is not None:
            names.append(model.names[standing.partner])
        return any(self._text in name.casefold() for name in names)

    def standing(self, index: QModelIndex) -> Standing | None:
        value = index.data(STANDING_ROLE) if index.isValid() else None
        return value if isinstance(value, Standing) else None

    def pair(self, index: QModelIndex) -> PairResult | None:
        value = index.data(PAIR_ROLE) if index.isValid() else None
        return value if isinstance(value, PairResult) else None

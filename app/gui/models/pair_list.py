"""Every pair of the loaded documents, ranked by Jaccard: the view for three or more documents."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from app.gui.models.row_model import ModelIndex, RowTableModel
from app.gui.session import RankedPair
from core.reports.wording import percent

PAIR_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2


class PairTableModel(RowTableModel[RankedPair]):
    COL_A, COL_B, COL_JACCARD, COL_COVERAGE_A, COL_COVERAGE_B, COL_BLOCKS = range(6)
    HEADERS = ("Document A", "Document B", "Jaccard", "A in B", "B in A", "Blocks")
    NUMERIC_COLUMNS = frozenset(range(COL_JACCARD, COL_BLOCKS + 1))

    def set_pairs(self, pairs: list[RankedPair]) -> None:
        self.set_items(pairs)

    def pair(self, row: int) -> RankedPair:
        return self.item(row)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        c = self._items[index.row()].comparison
        column = index.column()
        values = (
            c.a.name,
            c.b.name,
            c.jaccard,
            c.coverage_a,
            c.coverage_b,
            c.counts.verified + c.counts.split,
        )
        if role == PAIR_ROLE:
            return self._items[index.row()]
        if role == SORT_ROLE:
            return values[column]
        if role == Qt.ItemDataRole.DisplayRole:
            value = values[column]
            return percent(value) if isinstance(value, float) else value
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{c.a.path}\n{c.b.path}"
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self.alignment(column)
        return None

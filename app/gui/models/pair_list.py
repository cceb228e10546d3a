"""Every pair of the loaded documents with copied text found, in the folder check's ranking
(`core.batch.ranking.rank_key`): the view for three or more documents."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from app.gui.models.row_model import ModelIndex, RowTableModel
from app.gui.session import RankedPair
from core.comparison import Comparison
from core.reports.wording import percent, verdict_line

PAIR_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2


def pair_headline(comparison: Comparison) -> str:
    """The verdict, both shares and the passages of a pair, in a line (its row's tooltip)."""
    return verdict_line(
        comparison.flagged,
        comparison.copied_a,
        comparison.copied_b,
        (p.kind for p in comparison.passages),
        comparison.a.name,
        comparison.b.name,
    )


class PairTableModel(RowTableModel[RankedPair]):
    COL_A, COL_B, COL_COPIED, COL_BLOCKS, COL_REWORDED, COL_JACCARD = range(6)
    HEADERS = ("Document A", "Document B", "Copied", "Blocks", "Edited", "Jaccard")
    HEADER_TIPS = (
        "",
        "",
        "How much of one document is found in the other (the larger of the two shares), "
        "word for word or edited",
        "Verified blocks (word for word)",
        "Reworded passages (edited)",
        "The paper's score, from the verified blocks alone",
    )
    NUMERIC_COLUMNS = frozenset(range(COL_COPIED, COL_JACCARD + 1))

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
            max(c.copied_a, c.copied_b),
            len(c.result.pieces),  # verified blocks after splitting, as the folder check counts
            len(c.reworded_passages),
            c.jaccard,
        )
        if role == PAIR_ROLE:
            return self._items[index.row()]
        if role == SORT_ROLE:
            return values[column]
        if role == Qt.ItemDataRole.DisplayRole:
            value = values[column]
            return percent(value) if isinstance(value, float) else value
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{pair_headline(c)}\n{c.a.path}\n{c.b.path}"
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self.alignment(column)
        return None

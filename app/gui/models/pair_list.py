"""Every pair of the loaded documents with copied text found, in the folder check's ranking
(`core.batch.ranking.rank_key`): the view for three or more documents. Its headline is how much
of each document is found in the other (both shares, and the larger, which ranks); Jaccard
stays, named as the paper's score. A pair that is the most of one of its documents found in any
other (`core.batch.partners.strongest_partners`, the rule the folder check lists submissions
by) says so in its tooltip."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt

from app.gui.models.row_model import ModelIndex, RowTableModel
from app.gui.session import RankedPair, strongest_partners_of
from core.batch.partners import StrongestPartner
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
    (
        COL_A,
        COL_B,
        COL_COPIED,
        COL_COPIED_A,
        COL_COPIED_B,
        COL_BLOCKS,
        COL_REWORDED,
        COL_JACCARD,
    ) = range(8)
    HEADERS = (
        "Document A",
        "Document B",
        "Copied",
        "A in B",
        "B in A",
        "Blocks",
        "Edited",
        "Jaccard (paper)",
    )
    HEADER_TIPS = (
        "",
        "",
        "How much of one document is found in the other (the larger of the two shares), "
        "word for word or edited",
        "Share of A's sentences inside a passage found in B, word for word or edited",
        "Share of B's sentences inside a passage found in A, word for word or edited",
        "Verified blocks (word for word)",
        "Reworded passages (edited)",
        "The paper's score, from the verified blocks alone",
    )
    NUMERIC_COLUMNS = frozenset(range(COL_COPIED, COL_JACCARD + 1))

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._strongest: dict[Path, StrongestPartner[Path]] = {}

    def set_pairs(self, pairs: list[RankedPair]) -> None:
        self._strongest = strongest_partners_of(pairs)
        self.set_items(pairs)

    def pair(self, row: int) -> RankedPair:
        return self.item(row)

    def strongest_for(self, pair: RankedPair) -> list[str]:
        """A line for each document of `pair` whose largest share found in any other document
        is in this pair: "The most of a.docx found in another document: 62.0% (this pair)"."""
        c = pair.comparison
        found = []
        for doc, partner in ((c.a, c.b), (c.b, c.a)):
            best = self._strongest.get(doc.path)
            if best is not None and best.partner == partner.path:
                found.append(
                    f"The most of {doc.name} found in another document: "
                    f"{percent(best.share)} (this pair)"
                )
        return found

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        item = self._items[index.row()]
        c = item.comparison
        column = index.column()
        copied_a, copied_b = c.copied_a, c.copied_b
        values = (
            c.a.name,
            c.b.name,
            max(copied_a, copied_b),
            copied_a,
            copied_b,
            len(c.result.pieces),  # verified blocks after splitting, as the folder check counts
            len(c.reworded_passages),
            c.jaccard,
        )
        if role == PAIR_ROLE:
            return item
        if role == SORT_ROLE:
            return values[column]
        if role == Qt.ItemDataRole.DisplayRole:
            value = values[column]
            return percent(value) if isinstance(value, float) else value
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [pair_headline(c), *self.strongest_for(item), str(c.a.path), str(c.b.path)]
            return "\n".join(lines)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self.alignment(column)
        return None

"""The pairs of a folder check as a table: a real model (one PairResult per row, numbers for
sorting, the PairResult under a custom role) and the filter proxy that applies the threshold
(on the copied share: `core.batch.clusters.reaches`, as every surface) and a search by document
name."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QSortFilterProxyModel, Qt

from app.gui.models.row_model import ModelIndex, RowTableModel
from core.batch.clusters import reaches
from core.batch.result import BatchResult, PairResult
from core.reports.html import display_names
from core.reports.wording import passage_kinds, percent, verdict_line

PAIR_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2


class FolderCheckPairModel(RowTableModel[PairResult]):
    """One row per pair of a folder check's result, in the engine's ranking (copied text found,
    then the larger copied share, then Jaccard). The headline is how much of each document is
    found in the other (Copied, A in B, B in A); Jaccard, the paper's score, comes last."""

    (
        COL_A,
        COL_B,
        COL_COPIED,
        COL_COPIED_A,
        COL_COPIED_B,
        COL_BLOCKS,
        COL_REWORDED,
        COL_LONGEST,
        COL_JACCARD,
    ) = range(9)
    HEADERS = (
        "Document A",
        "Document B",
        "Copied",
        "A in B",
        "B in A",
        "Blocks",
        "Edited",
        "Longest",
        "Jaccard (paper)",
    )
    HEADER_TIPS = (
        "",
        "",
        "How much of one document is found in the other: the larger of A in B and B in A",
        "Share of A's sentences inside a passage found in B, word for word or edited",
        "Share of B's sentences inside a passage found in A, word for word or edited",
        "Verified blocks (word for word): sentences with the same lengths and first words",
        "Reworded passages (edited): the same content words in partly different wording",
        "Sentences in the longest verified block",
        "The paper's score: share of all sentences of the two documents shared word for word",
    )
    NUMERIC_COLUMNS = frozenset(range(COL_COPIED, COL_JACCARD + 1))

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.result: BatchResult | None = None
        self.names: list[str] = []  # each document's display name, by index

    def set_result(self, result: BatchResult | None) -> None:
        self.result = result
        self.names = display_names(result) if result is not None else []
        self.set_items(result.pairs if result is not None else ())

    def pair(self, row: int) -> PairResult:
        return self.item(row)

    def row_of(self, pair: PairResult) -> int:
        for row, item in enumerate(self._items):
            if item is pair:
                return row
        return -1

    def name(self, document: int) -> str:
        return self.names[document]

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        result = self.result
        if not index.isValid() or result is None:
            return None
        pair = self._items[index.row()]
        column = index.column()
        if role == PAIR_ROLE:
            return pair
        if role == SORT_ROLE:
            if column == self.COL_A:
                return self.names[pair.a].casefold()
            if column == self.COL_B:
                return self.names[pair.b].casefold()
            return self._numbers(pair)[column - self.COL_COPIED]
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.COL_A:
                return self.names[pair.a]
            if column == self.COL_B:
                return self.names[pair.b]
            value = self._numbers(pair)[column - self.COL_COPIED]
            return percent(value) if isinstance(value, float) else str(value)
        if role == Qt.ItemDataRole.ToolTipRole:
            return "\n".join(
                [self.headline(pair), *(_describe(result, i) for i in (pair.a, pair.b))]
            )
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self.alignment(column)
        return None

    def headline(self, pair: PairResult) -> str:
        """The verdict, both shares and the passages of `pair`, in a line."""
        return pair_headline(pair, self.names)

    @staticmethod
    def _numbers(pair: PairResult) -> tuple[float, float, float, int, int, int, float]:
        return (
            pair.copied,
            pair.copied_a,
            pair.copied_b,
            pair.verified_blocks,
            pair.reworded_passages,
            pair.longest_block,
            pair.jaccard,
        )


def pair_headline(pair: PairResult, names: list[str]) -> str:
    """ "Copied text found: 62.0% of a.docx is found in b.docx, …; 3 passages: …" """
    return verdict_line(
        pair.flagged,
        pair.copied_a,
        pair.copied_b,
        passage_kinds(pair.verified_blocks, pair.reworded_passages),
        names[pair.a],
        names[pair.b],
    )


def _describe(result: BatchResult, document: int) -> str:
    doc = result.documents[document]
    return f"{doc.path}" + (" (earlier year)" if doc.archive else "")


class PairFilterProxy(QSortFilterProxyModel):
    """Sorts by SORT_ROLE; shows the pairs at or above the threshold (`reaches`: copied text
    found, the copied share at or above it) whose document names contain the filter text
    (either document, case-insensitive)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self._threshold = 0.0
        self._text = ""

    def threshold(self) -> float:
        return self._threshold

    def set_threshold(self, threshold: float) -> None:
        if threshold != self._threshold:
            self._threshold = threshold
            self._refilter()

    def text(self) -> str:
        return self._text

    def set_text(self, text: str) -> None:
        text = text.strip().casefold()
        if text != self._text:
            self._text = text
            self._refilter()

    def _refilter(self) -> None:
        # begin/endFilterChange replace invalidateRowsFilter from Qt 6.10 (6.8 still allowed)
        if hasattr(self, "endFilterChange"):
            self.beginFilterChange()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:  # pragma: no cover
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: ModelIndex) -> bool:
        model = self.sourceModel()
        if not isinstance(model, FolderCheckPairModel):
            return True
        pair = model.pair(source_row)
        if not reaches(pair, self._threshold):
            return False
        if not self._text:
            return True
        return any(self._text in model.name(i).casefold() for i in (pair.a, pair.b))

    def pair(self, index: QModelIndex) -> PairResult | None:
        value = index.data(PAIR_ROLE) if index.isValid() else None
        return value if isinstance(value, PairResult) else None

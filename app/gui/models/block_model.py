"""The table of a comparison's listed blocks: a model with one row per block, and its filter.

Rows start in the engine's order (row r is `comparison.blocks[r]`) and the model sorts itself
(see `BlockTableModel`), so INDEX_ROLE gives a row's block index, the number the rest of the
view uses, and BLOCK_ROLE the block itself. Positions are shown as sentence numbers (what a
teacher can find in the document), sorted by the engine's numbers through SORT_ROLE.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter, QPixmap

from app.gui.compare.colours import NEUTRAL_LIGHT, swatch_colour
from app.gui.compare.marks import colour_slots
from app.gui.models.row_model import ModelIndex, RowTableModel
from core.comparison import Comparison
from core.detection.verification import BlockOutcome, BlockState
from core.documents.document import Document

BLOCK_ROLE = Qt.ItemDataRole.UserRole + 1  # the BlockOutcome
INDEX_ROLE = Qt.ItemDataRole.UserRole + 2  # its index in comparison.blocks
SORT_ROLE = Qt.ItemDataRole.UserRole + 3  # a number (or folded text) to sort the column by

STATE_LABELS = {
    BlockState.VERIFIED: "Verified",
    BlockState.SPLIT: "Split",
    BlockState.DISCARDED: "Discarded",
}
_STATE_ORDER = {BlockState.VERIFIED: 0, BlockState.SPLIT: 1, BlockState.DISCARDED: 2}
OPENING_WORDS = 10


def kept_sentences(block: BlockOutcome) -> int:
    return sum(piece.length for piece in block.pieces)


def sentence_range(document: Document, position: int, length: int) -> tuple[int, int]:
    """1-based sentence numbers of `length` signature positions from `position`."""
    indices = document.signature.sentence_indices
    return indices[position] + 1, indices[position + length - 1] + 1


def opening_words(document: Document, position: int, count: int = OPENING_WORDS) -> str:
    sentence = document.sentences[document.signature.sentence_indices[position]]
    words = document.text[sentence.start : sentence.end].split()
    return " ".join(words[:count]) + (" …" if len(words) > count else "")


class BlockTableModel(RowTableModel[BlockOutcome]):
    """One row per listed block of a comparison (none without a comparison).

    The model sorts itself (`sort`), from keys computed in one pass: a proxy sorting 10,000
    blocks of two novels through `data()` makes ~150,000 calls into Python, 0.4 s on the UI
    thread, against ~10 ms here. Rows are therefore a permutation of the blocks (the items, in
    row order); INDEX_ROLE gives a row's block index and `row_of` the way back."""

    COL_NUMBER, COL_STATE, COL_A, COL_B, COL_LENGTH, COL_KEPT, COL_WORDS = range(7)
    # (COL_WORDS: the block's opening words in A, so a teacher recognises the passage)
    HEADERS = (
        "#",
        "State",
        "Sentences in A",
        "Sentences in B",
        "Length",
        "Kept",
        "Opening words in A",
    )
    HEADER_TIPS = (
        "The block's number, in the order it appears in A",
        "Verified: every sentence starts with the same words. Split: some do not, the rest is "
        "kept. Discarded: the sentence lengths agree by chance",
        "Where the block is in document A (sentence numbers)",
        "Where the block is in document B (sentence numbers)",
        "Sentences in a row with the same lengths in both documents",
        "Sentences kept as copied after comparing their first words",
        "How the block begins in document A",
    )
    NUMERIC_COLUMNS = frozenset({COL_NUMBER, COL_LENGTH, COL_KEPT})

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._comparison: Comparison | None = None
        self._blocks: tuple[BlockOutcome, ...] = ()  # in the engine's order
        self._slots: list[int | None] = []
        self._rows: list[int] = []  # row -> block index
        self._inverse: list[int] = []  # block index -> row
        self._sort_column = self.COL_NUMBER
        self._sort_order = Qt.SortOrder.AscendingOrder
        self._discarded_icon: QIcon | None = None

    def set_comparison(
        self, comparison: Comparison | None, slots: list[int | None] | None = None
    ) -> None:
        """Show `comparison`'s blocks; `slots` are their colour slots when already known."""
        self.beginResetModel()
        self._comparison = comparison
        self._blocks = comparison.blocks if comparison is not None else ()
        self._slots = slots if slots is not None else colour_slots(self._blocks)
        self._set_rows(self._sorted_rows(self._sort_column, self._sort_order))
        self.endResetModel()

    def comparison(self) -> Comparison | None:
        return self._comparison

    def block(self, row: int) -> BlockOutcome:
        """The block shown in `row`."""
        return self.item(row)

    def block_index(self, row: int) -> int:
        return self._rows[row]

    def row_of(self, block_index: int) -> int:
        """The row showing block `block_index`, or -1."""
        return self._inverse[block_index] if 0 <= block_index < len(self._inverse) else -1

    def colour_slot(self, block_index: int) -> int | None:
        return self._slots[block_index]

    def sort(  # Qt override
        self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder
    ) -> None:
        if not 0 <= column < len(self.HEADERS):
            column, order = self.COL_NUMBER, Qt.SortOrder.AscendingOrder  # -1: the engine's order
        self._sort_column, self._sort_order = column, order
        rows = self._sorted_rows(column, order)
        if rows == self._rows:
            return
        self.layoutAboutToBeChanged.emit()
        before = self.persistentIndexList()
        blocks = [self._rows[index.row()] for index in before]
        self._set_rows(rows)
        after = [
            self.index(self._inverse[block], index.column())
            for index, block in zip(before, blocks, strict=True)
        ]
        self.changePersistentIndexList(before, after)
        self.layoutChanged.emit()

    def _set_rows(self, rows: list[int]) -> None:
        self._rows = rows
        self._items = [self._blocks[block_index] for block_index in rows]
        self._inverse = [0] * len(rows)
        for row, block_index in enumerate(rows):
            self._inverse[block_index] = row

    def _sorted_rows(self, column: int, order: Qt.SortOrder) -> list[int]:
        blocks = self._blocks
        keys = [self._sort_key(column, i, block) for i, block in enumerate(blocks)]
        # Python's sort is stable in both directions: equal keys keep the engine's order
        descending = order == Qt.SortOrder.DescendingOrder
        return sorted(range(len(blocks)), key=keys.__getitem__, reverse=descending)

    # --- the table -----------------------------------------------------------------------

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self._comparison is None:
            return None
        row, column = index.row(), index.column()
        if not (0 <= row < len(self._items)):
            return None
        block_index = self._rows[row]
        block = self._items[row]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(block_index, column, block, self._comparison)
        if role == SORT_ROLE:
            return self._sort_key(column, block_index, block)
        if role == BLOCK_ROLE:
            return block
        if role == INDEX_ROLE:
            return block_index
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{STATE_LABELS[block.state]}: {block.reason}"
        if role == Qt.ItemDataRole.DecorationRole and column == self.COL_NUMBER:
            return self._swatch(block_index)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self.alignment(column)
        return None

    def _display(
        self, block_index: int, column: int, block: BlockOutcome, comparison: Comparison
    ) -> str:
        raw = block.raw
        if column == self.COL_NUMBER:
            return str(block_index + 1)
        if column == self.COL_STATE:
            return STATE_LABELS[block.state]
        if column == self.COL_A:
            return _range_text(sentence_range(comparison.a, raw.a_start, raw.length))
        if column == self.COL_B:
            return _range_text(sentence_range(comparison.b, raw.b_start, raw.length))
        if column == self.COL_LENGTH:
            return str(raw.length)
        if column == self.COL_KEPT:
            return str(kept_sentences(block))
        return opening_words(comparison.a, raw.a_start)

    def _sort_key(self, column: int, block_index: int, block: BlockOutcome) -> int | str:
        """What `column` sorts `block` by: a number, or the opening words case-folded."""
        raw = block.raw
        keys = {
            self.COL_NUMBER: block_index,
            self.COL_STATE: _STATE_ORDER[block.state],
            self.COL_A: raw.a_start,
            self.COL_B: raw.b_start,
            self.COL_LENGTH: raw.length,
            self.COL_KEPT: kept_sentences(block),
        }
        if column in keys:
            return keys[column]
        assert self._comparison is not None
        return opening_words(self._comparison.a, raw.a_start).casefold()

    def _swatch(self, block_index: int) -> QColor | QIcon:
        slot = self._slots[block_index]
        if slot is not None:
            return swatch_colour(slot)
        if self._discarded_icon is None:  # drawn once, when first asked for
            self._discarded_icon = _hatched_icon()
        return self._discarded_icon


class StateFilter(Enum):
    """Which blocks the table lists."""

    ALL = "all"
    VERIFIED = "verified"
    SPLIT = "split"
    DISCARDED = "discarded"


STATE_FILTER_LABELS = {
    StateFilter.ALL: "All blocks",
    StateFilter.VERIFIED: "Verified",
    StateFilter.SPLIT: "Split",
    StateFilter.DISCARDED: "Discarded",
}


class BlockFilterProxy(QSortFilterProxyModel):
    """Filters the blocks by state and by the hide-discarded toggle.

    Sorting is handed to the BlockTableModel (see there why); SORT_ROLE is still the sort role,
    so the proxy sorts numerically if it is ever given another source model."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self._state = StateFilter.ALL
        self._hide_discarded = False

    def sort(  # Qt override
        self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder
    ) -> None:
        source = self.sourceModel()
        if isinstance(source, BlockTableModel):
            source.sort(column, order)
        else:
            super().sort(column, order)

    def set_state_filter(self, state: StateFilter) -> None:
        if state != self._state:
            self._change_filter(lambda: setattr(self, "_state", state))

    def state_filter(self) -> StateFilter:
        return self._state

    def set_hide_discarded(self, hide: bool) -> None:
        if hide != self._hide_discarded:
            self._change_filter(lambda: setattr(self, "_hide_discarded", hide))

    def hide_discarded(self) -> bool:
        return self._hide_discarded

    def _change_filter(self, change: Callable[[], None]) -> None:
        # Qt 6.10 brackets a filter change; older Qt (the project allows 6.7) re-filters after
        if hasattr(self, "beginFilterChange"):
            self.beginFilterChange()
            change()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            change()
            self.invalidateRowsFilter()

    def accepts(self, block: BlockOutcome) -> bool:
        """Whether `block` passes the filter (the view's next/previous use it too)."""
        if self._hide_discarded and block.state is BlockState.DISCARDED:
            return False
        return self._state is StateFilter.ALL or block.state.value == self._state.value

    def filterAcceptsRow(
        self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex
    ) -> bool:
        source = self.sourceModel()
        if isinstance(source, BlockTableModel):  # direct: no QVariant round trip per row
            return self.accepts(source.block(source_row))
        block = source.index(source_row, 0, source_parent).data(BLOCK_ROLE)
        return block is not None and self.accepts(block)

    def proxy_row(self, block_index: int) -> int:
        """The shown row of a block, or -1 when it is filtered out."""
        model = self.sourceModel()
        row = model.row_of(block_index) if isinstance(model, BlockTableModel) else block_index
        source = model.index(row, 0)
        return self.mapFromSource(source).row() if source.isValid() else -1

    def block_index(self, proxy_row: int) -> int:
        value = self.index(proxy_row, 0).data(INDEX_ROLE)
        return -1 if value is None else int(value)


def _range_text(span: tuple[int, int]) -> str:
    first, last = span
    return f"{first}–{last}" if last != first else str(first)


def _hatched_icon() -> QIcon:
    """A grey hatched square: the table's sign for a discarded block (no colour of its own)."""
    pixmap = QPixmap(12, 12)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    grey = QColor(NEUTRAL_LIGHT)
    painter.setPen(grey)
    painter.setBrush(QBrush(grey, Qt.BrushStyle.BDiagPattern))
    painter.drawRect(0, 0, 11, 11)
    painter.end()
    return QIcon(pixmap)

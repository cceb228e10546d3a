"""The table of a comparison's listed items: a model with one row per block of SL+ST (verified,
split or discarded) and per reworded passage, and its filter.

Items are numbered as the view numbers them (`marks`: the blocks, then the reworded passages);
INDEX_ROLE gives a row's item number, the number the rest of the view uses, and BLOCK_ROLE the
item itself (a `BlockOutcome`, or the reworded `Passage`). The "#" a teacher reads is another
thing: `marks.number_items` numbers the rows the filter lets through, 1, 2, 3… and R1, R2…
without gaps, and `BlockFilterProxy.numbering` holds the numbering in use (the model alone
numbers every item). The model sorts itself (see
`BlockTableModel`), first in reading order along A, so both kinds of passage interleave as they
do in the text. Positions are shown as sentence numbers (what a teacher can find in the
document), sorted by the engine's numbers through SORT_ROLE.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter, QPen, QPixmap

from app.gui.compare.colours import (
    NEUTRAL_LIGHT,
    REWORDED_LINE_LIGHT,
    reworded_swatch_fill,
    swatch_colour,
)
from app.gui.compare.marks import (
    Listed,
    Numbering,
    PreparedView,
    listed_items,
    listed_order,
    number_items,
    piece_passages,
    reworded_line,
    sentences_text,
)
from app.gui.models.row_model import ModelIndex, RowTableModel
from core.comparison import Comparison
from core.detection.passages import Passage, PassageKind
from core.detection.verification import BlockOutcome, BlockState
from core.documents.document import Document
from core.reports.palette import colour_slots
from core.reports.wording import PASSAGE_KINDS, percent

BLOCK_ROLE = Qt.ItemDataRole.UserRole + 1  # the item: a BlockOutcome, or a reworded Passage
INDEX_ROLE = Qt.ItemDataRole.UserRole + 2  # its number (blocks, then reworded passages)
SORT_ROLE = Qt.ItemDataRole.UserRole + 3  # a number (or folded text) to sort the column by

#: a reworded passage's "state": it is not a block of SL+ST
REWORDED_STATE = "Reworded"
STATE_LABELS = {
    BlockState.VERIFIED: "Verified",
    BlockState.SPLIT: "Split",
    BlockState.DISCARDED: "Discarded",
}
_STATE_ORDER = {BlockState.VERIFIED: 0, BlockState.SPLIT: 1, BlockState.DISCARDED: 3}
_REWORDED_ORDER = 2
#: the Kind column of a discarded block, and its blank numbers: not a passage at all
NOT_A_PASSAGE = "—"
OPENING_WORDS = 10


def kept_sentences(block: BlockOutcome) -> int:
    return sum(piece.length for piece in block.pieces)


def sentence_range(document: Document, position: int, length: int) -> tuple[int, int]:
    """1-based sentence numbers of `length` signature positions from `position`."""
    indices = document.signature.sentence_indices
    return indices[position] + 1, indices[position + length - 1] + 1


def opening_words(document: Document, position: int, count: int = OPENING_WORDS) -> str:
    """The opening words of the sentence at signature `position`."""
    return sentence_opening(document, document.signature.sentence_indices[position], count)


def sentence_opening(document: Document, sentence: int, count: int = OPENING_WORDS) -> str:
    """The opening words of sentence `sentence` (an index into Document.sentences)."""
    found = document.sentences[sentence]
    words = document.text[found.start : found.end].split()
    return " ".join(words[:count]) + (" …" if len(words) > count else "")


def state_of(item: Listed) -> str:
    """What the State column says of an item."""
    return REWORDED_STATE if isinstance(item, Passage) else STATE_LABELS[item.state]


class BlockTableModel(RowTableModel[Listed]):
    """One row per listed item of a comparison (none without a comparison): its blocks, then
    its reworded passages.

    The model sorts itself (`sort`), from keys computed in one pass: a proxy sorting 10,000
    blocks of two novels through `data()` makes ~150,000 calls into Python, 0.4 s on the UI
    thread, against ~10 ms here. Rows are therefore a permutation of the items (in row order);
    INDEX_ROLE gives a row's item number and `row_of` the way back."""

    (
        COL_NUMBER,
        COL_KIND,
        COL_STATE,
        COL_A,
        COL_B,
        COL_LENGTH,
        COL_KEPT,
        COL_SHARED,
        COL_SIMILARITY,
        COL_WORDS,
    ) = range(10)
    # (COL_WORDS: the item's opening words in A, so a teacher recognises the passage)
    HEADERS = (
        "#",
        "Kind",
        "State",
        "Sentences in A",
        "Sentences in B",
        "Length",
        "Kept",
        "Shared words",
        "Similarity",
        "Opening words in A",
    )
    HEADER_TIPS = (
        "The block's number (R1, R2…: a reworded passage's), in the order they appear in A, "
        "counting what is listed",
        "Word for word: a verified block of SL+ST. Edited: a reworded passage, the same content "
        "words in partly different wording",
        "Verified: every sentence starts with the same words. Split: some do not, the rest is "
        "kept. Discarded: the sentence lengths agree by chance. Reworded: found by the "
        "reworded-passage search",
        "Where it is in document A (sentence numbers)",
        "Where it is in document B (sentence numbers)",
        "A block: sentences in a row with the same lengths in both documents. A reworded "
        "passage: its sentences in A",
        "Sentences counted as copied (of a block: after comparing their first words)",
        "Content words both sides hold, whatever their order (stop words are not counted)",
        "How alike the two sides' content words are, rare words weighing more (a block: its "
        "least alike passage)",
        "How it begins in document A",
    )
    NUMERIC_COLUMNS = frozenset({COL_NUMBER, COL_LENGTH, COL_KEPT, COL_SHARED, COL_SIMILARITY})

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._comparison: Comparison | None = None
        self._listed: tuple[Listed, ...] = ()  # by item number
        self._slots: list[int | None] = []
        self._pieces: dict[tuple[int, int], Passage] = {}
        self._place: list[int] = []  # item number -> its place in reading order along A
        self._order: list[int] = []  # item numbers in reading order along A
        self._numbering = Numbering(0, {})  # every item numbered (the proxy numbers its rows)
        self._rows: list[int] = []  # row -> item number
        self._inverse: list[int] = []  # item number -> row
        self._sort_column = self.COL_NUMBER
        self._sort_order = Qt.SortOrder.AscendingOrder
        self._discarded_icon: QIcon | None = None
        self._reworded_icon: QIcon | None = None

    def set_comparison(
        self, comparison: Comparison | None, prepared: PreparedView | None = None
    ) -> None:
        """Show `comparison`'s items; `prepared` (its `prepare_view`) saves working them out."""
        self.beginResetModel()
        self._comparison = comparison
        if prepared is not None and prepared.comparison is not comparison:
            prepared = None
        if comparison is None:
            self._listed, self._slots, self._pieces, order = (), [], {}, []
        elif prepared is not None:
            self._listed = prepared.items
            self._slots, self._pieces, order = prepared.slots, prepared.pieces, prepared.order
        else:
            self._listed = listed_items(comparison)
            self._slots = colour_slots(comparison.blocks)
            self._pieces = piece_passages(comparison)
            order = listed_order(comparison)
        self._order = order
        self._place = [0] * len(self._listed)
        for place, index in enumerate(order):
            self._place[index] = place
        self._numbering = (
            number_items(comparison, order) if comparison is not None else Numbering(0, {})
        )
        self._set_rows(self._sorted_rows(self._sort_column, self._sort_order))
        self.endResetModel()

    def comparison(self) -> Comparison | None:
        return self._comparison

    def block(self, row: int) -> Listed:
        """The item shown in `row`."""
        return self.item(row)

    def block_index(self, row: int) -> int:
        return self._rows[row]

    def row_of(self, block_index: int) -> int:
        """The row showing item `block_index`, or -1."""
        return self._inverse[block_index] if 0 <= block_index < len(self._inverse) else -1

    def colour_slot(self, block_index: int) -> int | None:
        """A block's colour slot; None for a discarded block and a reworded passage."""
        return self._slots[block_index] if block_index < len(self._slots) else None

    def listed(self) -> tuple[Listed, ...]:
        """Every item, by number."""
        return self._listed

    def reading_order(self) -> list[int]:
        """Every item's number, in reading order along A (then B)."""
        return self._order

    def numbering(self) -> Numbering:
        """Every item numbered, as if all were listed (a filter's are the proxy's)."""
        return self._numbering

    def sort(  # Qt override
        self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder
    ) -> None:
        if not 0 <= column < len(self.HEADERS):
            column, order = self.COL_NUMBER, Qt.SortOrder.AscendingOrder  # -1: reading order
        self._sort_column, self._sort_order = column, order
        rows = self._sorted_rows(column, order)
        if rows == self._rows:
            return
        self.layoutAboutToBeChanged.emit()
        before = self.persistentIndexList()
        items = [self._rows[index.row()] for index in before]
        self._set_rows(rows)
        after = [
            self.index(self._inverse[item], index.column())
            for index, item in zip(before, items, strict=True)
        ]
        self.changePersistentIndexList(before, after)
        self.layoutChanged.emit()

    def _set_rows(self, rows: list[int]) -> None:
        self._rows = rows
        self._items = [self._listed[index] for index in rows]
        self._inverse = [0] * len(rows)
        for row, index in enumerate(rows):
            self._inverse[index] = row

    def _sorted_rows(self, column: int, order: Qt.SortOrder) -> list[int]:
        listed = self._listed
        keys = [self._sort_key(column, i, item) for i, item in enumerate(listed)]
        # Python's sort is stable in both directions: equal keys keep the items' order
        descending = order == Qt.SortOrder.DescendingOrder
        return sorted(range(len(listed)), key=keys.__getitem__, reverse=descending)

    # --- the table -----------------------------------------------------------------------

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self._comparison is None:
            return None
        row, column = index.row(), index.column()
        if not (0 <= row < len(self._items)):
            return None
        number = self._rows[row]
        item = self._items[row]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(number, column, item, self._comparison)
        if role == SORT_ROLE:
            return self._sort_key(column, number, item)
        if role == BLOCK_ROLE:
            return item
        if role == INDEX_ROLE:
            return number
        if role == Qt.ItemDataRole.ToolTipRole:
            if isinstance(item, Passage):
                return reworded_line(item)
            return f"{STATE_LABELS[item.state]}: {item.reason}"
        if role == Qt.ItemDataRole.DecorationRole and column == self.COL_NUMBER:
            return self._swatch(number, item)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self.alignment(column)
        return None

    def _passages(self, number: int, item: Listed) -> list[Passage]:
        """The passages a row stands for: a reworded passage, or a block's kept pieces."""
        if isinstance(item, Passage):
            return [item]
        return [
            found
            for part in range(len(item.pieces))
            if (found := self._pieces.get((number, part))) is not None
        ]

    def _display(self, number: int, column: int, item: Listed, comparison: Comparison) -> str:
        if isinstance(item, Passage):
            length = item.a_sentences[1] - item.a_sentences[0]
            texts = {
                self.COL_NUMBER: self._numbering.label(number),
                self.COL_KIND: PASSAGE_KINDS[PassageKind.REWORDED],
                self.COL_STATE: REWORDED_STATE,
                self.COL_A: sentences_text(item.a_sentences),
                self.COL_B: sentences_text(item.b_sentences),
                self.COL_LENGTH: str(length),
                self.COL_KEPT: str(length),
                self.COL_WORDS: sentence_opening(comparison.a, item.a_sentences[0]),
            }
        else:
            raw = item.raw
            texts = {
                self.COL_NUMBER: self._numbering.label(number),
                self.COL_KIND: NOT_A_PASSAGE
                if item.state is BlockState.DISCARDED
                else PASSAGE_KINDS[PassageKind.VERIFIED],
                self.COL_STATE: STATE_LABELS[item.state],
                self.COL_A: _range_text(sentence_range(comparison.a, raw.a_start, raw.length)),
                self.COL_B: _range_text(sentence_range(comparison.b, raw.b_start, raw.length)),
                self.COL_LENGTH: str(raw.length),
                self.COL_KEPT: str(kept_sentences(item)),
                self.COL_WORDS: opening_words(comparison.a, raw.a_start),
            }
        if column in texts:
            return texts[column]
        passages = self._passages(number, item)
        if not passages:
            return NOT_A_PASSAGE
        if column == self.COL_SHARED:
            return f"{sum(p.shared_words for p in passages):,}"
        return percent(min(p.similarity for p in passages))

    def _sort_key(self, column: int, number: int, item: Listed) -> int | float | str:
        """What `column` sorts an item by: a number, or the opening words case-folded."""
        comparison = self._comparison
        assert comparison is not None
        if column == self.COL_NUMBER:
            return self._place[number]
        if column in (self.COL_SHARED, self.COL_SIMILARITY):
            passages = self._passages(number, item)
            if not passages:
                return -1
            if column == self.COL_SHARED:
                return sum(p.shared_words for p in passages)
            return min(p.similarity for p in passages)
        if isinstance(item, Passage):
            length = item.a_sentences[1] - item.a_sentences[0]
            keys: dict[int, int] = {
                self.COL_KIND: 1,
                self.COL_STATE: _REWORDED_ORDER,
                self.COL_A: item.a_sentences[0],
                self.COL_B: item.b_sentences[0],
                self.COL_LENGTH: length,
                self.COL_KEPT: length,
            }
            if column in keys:
                return keys[column]
            return sentence_opening(comparison.a, item.a_sentences[0]).casefold()
        raw = item.raw
        keys = {
            self.COL_KIND: 2 if item.state is BlockState.DISCARDED else 0,
            self.COL_STATE: _STATE_ORDER[item.state],
            self.COL_A: comparison.a.signature.sentence_indices[raw.a_start],
            self.COL_B: comparison.b.signature.sentence_indices[raw.b_start],
            self.COL_LENGTH: raw.length,
            self.COL_KEPT: kept_sentences(item),
        }
        if column in keys:
            return keys[column]
        return opening_words(comparison.a, raw.a_start).casefold()

    def _swatch(self, number: int, item: Listed) -> QColor | QIcon:
        if isinstance(item, Passage):
            if self._reworded_icon is None:  # drawn once, when first asked for
                self._reworded_icon = reworded_icon()
            return self._reworded_icon
        slot = self._slots[number]
        if slot is not None:
            return swatch_colour(slot)
        if self._discarded_icon is None:
            self._discarded_icon = _hatched_icon()
        return self._discarded_icon


class StateFilter(Enum):
    """Which items the table lists (the first, every passage holding copied text, is the
    default)."""

    COPIED = "copied"
    ALL = "all"
    VERIFIED = "verified"
    SPLIT = "split"
    REWORDED = "reworded"
    DISCARDED = "discarded"


STATE_FILTER_LABELS = {
    StateFilter.COPIED: "Passages with copied text",
    StateFilter.ALL: "All passages and blocks",
    StateFilter.VERIFIED: "Verified (word for word)",
    StateFilter.SPLIT: "Split (word for word)",
    StateFilter.REWORDED: "Reworded (edited)",
    StateFilter.DISCARDED: "Discarded",
}


class BlockFilterProxy(QSortFilterProxyModel):
    """Filters the items by state (a reworded passage's is REWORDED) and by the
    hide-discarded toggle, and numbers what it lets through: the numbering in use
    (`numbering`, `marks.number_items`), which the "#" column shows and the view's tooltips,
    overview strips and navigation read. `numbering_changed` says when it may have changed.

    Sorting is handed to the BlockTableModel (see there why); SORT_ROLE is still the sort role,
    so the proxy sorts numerically if it is ever given another source model."""

    numbering_changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self._state = StateFilter.COPIED
        self._hide_discarded = False
        self._numbering: Numbering | None = None  # worked out when first asked for

    def setSourceModel(self, source: QAbstractItemModel) -> None:  # Qt override
        previous = self.sourceModel()
        if previous is not None:
            previous.modelReset.disconnect(self._renumber)
        super().setSourceModel(source)
        source.modelReset.connect(self._renumber)
        self._renumber()

    def numbering(self) -> Numbering:
        """The numbers of the items listed now: 1, 2, 3… and R1, R2… in reading order."""
        if self._numbering is None:
            source = self.sourceModel()
            comparison = source.comparison() if isinstance(source, BlockTableModel) else None
            if not isinstance(source, BlockTableModel) or comparison is None:
                self._numbering = Numbering(0, {})
            else:
                items = source.listed()
                self._numbering = number_items(
                    comparison, source.reading_order(), lambda index: self.accepts(items[index])
                )
        return self._numbering

    def data(  # Qt override: the "#" column shows this filter's numbers
        self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        source = self.sourceModel()
        if (
            role == Qt.ItemDataRole.DisplayRole
            and index.column() == BlockTableModel.COL_NUMBER
            and isinstance(source, BlockTableModel)
        ):
            row = self.mapToSource(self.index(index.row(), index.column())).row()
            return self.numbering().label(source.block_index(row)) if row >= 0 else None
        return super().data(index, role)

    def _renumber(self) -> None:
        self._numbering = None
        if self.rowCount():
            self.dataChanged.emit(
                self.index(0, BlockTableModel.COL_NUMBER),
                self.index(self.rowCount() - 1, BlockTableModel.COL_NUMBER),
                [Qt.ItemDataRole.DisplayRole],
            )
        self.numbering_changed.emit()

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
        self._renumber()

    def accepts(self, item: Listed) -> bool:
        """Whether `item` passes the filter (the view's next/previous use it too). Discarded
        blocks (lengths that agree by chance) are listed only on request: under "All" unless
        hidden, or under "Discarded"."""
        if isinstance(item, Passage):
            return self._state in (StateFilter.COPIED, StateFilter.ALL, StateFilter.REWORDED)
        discarded = item.state is BlockState.DISCARDED
        if self._state is StateFilter.COPIED:
            return not discarded
        if self._state is StateFilter.ALL:
            return not (discarded and self._hide_discarded)
        return bool(item.state.value == self._state.value)

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


def reworded_icon() -> QIcon:
    """A reworded passage's sign, as the panes draw one: pale violet with a dashed underline."""
    pixmap = QPixmap(12, 12)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.fillRect(0, 0, 12, 9, reworded_swatch_fill())
    pen = QPen(QColor(REWORDED_LINE_LIGHT), 2, Qt.PenStyle.DashLine)
    painter.setPen(pen)
    painter.drawLine(0, 10, 12, 10)
    painter.end()
    return QIcon(pixmap)


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

"""The "Shared phrases" tab of the side-by-side view: the phrases both documents use, longest
first, in a filterable table.

The list is the engine's (`core.shared_words.shared_phrases`, found on a worker by the view);
this module only shows it. Choosing a row (a click, or the arrow keys) emits `phrase_chosen`
with the phrase; clicking the chosen row again, or Enter on it, emits `phrase_again` (the view
moves on to the next occurrences); clearing the selection (Ctrl+click, Esc) emits
`phrase_chosen(None)`.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QItemSelection,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QKeyEvent, QPalette
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.gui.models.row_model import setup_result_table
from core.documents.sentences import word_spans
from core.shared_words import SharedPhrase, SharedPhrases

COL_PHRASE = 0
COL_WORDS = 1
COL_IN_A = 2
COL_IN_B = 3
COLUMN_COUNT = 4

HEADERS = {
    COL_PHRASE: "Phrase",
    COL_WORDS: "Words",
    COL_IN_A: "In A",
    COL_IN_B: "In B",
}
HEADER_TIPS = {
    COL_PHRASE: "Words both documents use in this order, inside one sentence (case ignored)",
    COL_WORDS: "How many words the phrase has",
    COL_IN_A: "How many times it occurs in document A",
    COL_IN_B: "How many times it occurs in document B",
}
PHRASE_ROLE = Qt.ItemDataRole.UserRole + 1  # the SharedPhrase
SORT_ROLE = Qt.ItemDataRole.UserRole + 2
_NUMERIC_COLUMNS = (COL_WORDS, COL_IN_A, COL_IN_B)

HINT_TEXT = "Click a phrase to show it in both documents · click it again for the next place"


class SharedPhraseModel(QAbstractTableModel):
    """One row per shared phrase, in the engine's order (longest first)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._phrases: tuple[SharedPhrase, ...] = ()

    def set_phrases(self, phrases: Sequence[SharedPhrase]) -> None:
        self.beginResetModel()
        self._phrases = tuple(phrases)
        self.endResetModel()

    def phrases(self) -> tuple[SharedPhrase, ...]:
        return self._phrases

    def phrase(self, row: int) -> SharedPhrase:
        return self._phrases[row]

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self._phrases)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else COLUMN_COUNT

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation != Qt.Orientation.Horizontal or section not in HEADERS:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return HEADER_TIPS[section]
        if role == Qt.ItemDataRole.TextAlignmentRole and section in _NUMERIC_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._phrases):
            return None
        phrase = self._phrases[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == COL_PHRASE:
                return phrase.quote  # as A writes it; the match ignores case and punctuation
            return str(_number(phrase, column))
        if role == SORT_ROLE:
            return phrase.text if column == COL_PHRASE else _number(phrase, column)
        if role == PHRASE_ROLE:
            return phrase
        if role == Qt.ItemDataRole.ToolTipRole and column == COL_PHRASE:
            return phrase.quote  # a long phrase is clipped in its cell
        if role == Qt.ItemDataRole.TextAlignmentRole and column in _NUMERIC_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


def _number(phrase: SharedPhrase, column: int) -> int:
    if column == COL_WORDS:
        return phrase.length
    return len(phrase.in_a) if column == COL_IN_A else len(phrase.in_b)


class PhraseFilterProxy(QSortFilterProxyModel):
    """Sorts by SORT_ROLE and keeps the phrases containing the filter's words (case and
    punctuation ignored: "news, or" finds "read the news or download")."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self._needle = ""

    @staticmethod
    def needle(text: str) -> str:
        """The filter text as the phrases' words are kept: case-folded words, one space apart."""
        return " ".join(text[a:b].casefold() for a, b in word_spans(text))

    @staticmethod
    def matches(phrase: SharedPhrase, needle: str) -> bool:
        return needle in phrase.text

    def set_filter_text(self, text: str) -> None:
        needle = self.needle(text)
        if needle == self._needle:
            return
        # Qt 6.10 brackets a filter change; older Qt (the project allows 6.7) re-filters after
        if hasattr(self, "beginFilterChange"):
            self.beginFilterChange()
            self._needle = needle
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self._needle = needle
            self.invalidateRowsFilter()

    def filtering(self) -> bool:
        return bool(self._needle)

    def filterAcceptsRow(
        self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex
    ) -> bool:
        source = self.sourceModel()
        if not self._needle or not isinstance(source, SharedPhraseModel):
            return True
        return self.matches(source.phrase(source_row), self._needle)

    def phrase(self, proxy_row: int) -> SharedPhrase | None:
        value = self.index(proxy_row, COL_PHRASE).data(PHRASE_ROLE)
        return value if isinstance(value, SharedPhrase) else None


class SharedPhrasesPanel(QWidget):
    """A filter box, a status line and the table of shared phrases. See the module docstring."""

    phrase_chosen = Signal(object)  # the SharedPhrase now chosen, or None
    phrase_again = Signal(object)  # the chosen SharedPhrase, asked for again

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._result: SharedPhrases | None = None
        self._chosen: SharedPhrase | None = None
        self._chosen_at_press: SharedPhrase | None = None

        self.model = SharedPhraseModel(self)
        self.proxy = PhraseFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter phrases")
        self.filter.setClearButtonEnabled(True)
        self.filter.setToolTip("Show only the phrases containing these words")
        self.filter.setMaximumWidth(260)
        self.status = QLabel()
        self.status.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.place = QLabel()  # which occurrence the panes show
        self.place.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.table = QTableView()
        self._setup_table()

        bar = QHBoxLayout()
        bar.setContentsMargins(2, 4, 2, 2)
        bar.setSpacing(8)
        bar.addWidget(self.filter)
        bar.addWidget(self.status, 1)
        bar.addWidget(self.place)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)

        self.filter.textChanged.connect(self._on_filter)
        self.table.selectionModel().selectionChanged.connect(self._on_selection)
        self.table.clicked.connect(self._on_clicked)
        self.table.viewport().installEventFilter(self)
        self.table.installEventFilter(self)
        self.set_result(None)

    # --- public API ----------------------------------------------------------------------

    def set_pending(self) -> None:
        """No list yet: the phrases are being looked for."""
        self._show(None, "Looking for the phrases both documents use…")

    def set_failed(self, reason: str) -> None:
        self._show(None, f"The shared phrases could not be listed: {reason}")

    def set_result(self, result: SharedPhrases | None) -> None:
        """Show the engine's list (None: no comparison, an empty panel)."""
        self._show(result, self._summary(result))

    def result(self) -> SharedPhrases | None:
        return self._result

    def chosen(self) -> SharedPhrase | None:
        return self._chosen

    def choose(self, phrase: SharedPhrase | None) -> None:
        """Select the row of `phrase` (None clears the selection)."""
        rows = [r for r in range(self.proxy.rowCount()) if self.proxy.phrase(r) is phrase]
        if phrase is None or not rows:
            self.table.clearSelection()
            return
        self.table.selectRow(rows[0])

    def set_place(self, text: str) -> None:
        self.place.setText(text)

    def shown_count(self) -> int:
        return self.proxy.rowCount()

    # --- behaviour -----------------------------------------------------------------------

    def _setup_table(self) -> None:
        table = self.table
        header = setup_result_table(table, self.proxy)
        # longest first; the sort is stable, so equal lengths keep the engine's order (the most
        # occurrences first)
        table.sortByColumn(COL_WORDS, Qt.SortOrder.DescendingOrder)
        table.setTabKeyNavigation(False)
        header.setStretchLastSection(False)
        header.setSectionResizeMode(COL_PHRASE, QHeaderView.ResizeMode.Stretch)
        for column in _NUMERIC_COLUMNS:
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(column, 70)

    def _show(self, result: SharedPhrases | None, status: str) -> None:
        self._result = result
        self.table.clearSelection()  # the chosen phrase goes with the list (emits None)
        self.model.set_phrases(result.phrases if result is not None else ())
        self._set_chosen(None)
        self.status.setText(status)
        self.status.setToolTip(status)
        self.filter.setEnabled(bool(result and result.phrases))

    def _summary(self, result: SharedPhrases | None) -> str:
        if result is None:
            return ""
        shown = len(result.phrases)
        words = f"{result.min_words} or more words"
        if not shown:
            return f"No phrase of {words} is found in both documents."
        if result.capped:
            listed = f"The {shown:,} longest of {result.total:,} phrases of {words}"
        elif shown == 1:
            listed = f"1 phrase of {words}"
        else:
            listed = f"{shown:,} phrases of {words}"
        found = f"{listed} found in both documents, longest first"
        if self.proxy.filtering():
            found += f" · {self.proxy.rowCount():,} match the filter"
        return f"{found} · {HINT_TEXT}"

    def _on_filter(self, text: str) -> None:
        chosen = self._chosen
        if chosen is not None and not self.proxy.matches(chosen, self.proxy.needle(text)):
            # its row goes, and its highlight with it: no other row takes its place
            self.table.selectionModel().clear()
        self.proxy.set_filter_text(text)
        if self._result is not None:
            self.status.setText(self._summary(self._result))

    def _on_selection(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        rows = self.table.selectionModel().selectedRows()
        self._set_chosen(self.proxy.phrase(rows[0].row()) if rows else None)

    def _set_chosen(self, phrase: SharedPhrase | None) -> None:
        if phrase is self._chosen:
            return
        self._chosen = phrase
        if phrase is None:
            self.place.setText("")
        self.phrase_chosen.emit(phrase)

    def _on_clicked(self, index: QModelIndex) -> None:
        phrase = self.proxy.phrase(index.row())
        if phrase is not None and phrase is self._chosen_at_press and phrase is self._chosen:
            self.phrase_again.emit(phrase)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.table.viewport() and event.type() == QEvent.Type.MouseButtonPress:
            self._chosen_at_press = self._chosen  # before the press changes the selection
        elif (
            watched is self.table
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
        ):
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self._chosen is not None:
                self.phrase_again.emit(self._chosen)
                return True
            if event.key() == Qt.Key.Key_Escape and self._chosen is not None:
                self.table.clearSelection()
                return True
        return super().eventFilter(watched, event)

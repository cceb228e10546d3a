"""The "Shared phrases" tab of the side-by-side view: the phrases both documents use, longest
first, in a filterable table.

The list is the engine's (`core.shared_words.shared_phrases`, found on a worker by the view);
this module only shows it. Choosing a row (a click, or the arrow keys) emits `phrase_chosen`
with the phrase; clicking the chosen row again, or Enter on it, emits `phrase_again` (the view
moves on to the next occurrences); clearing the selection (Ctrl+click, Esc) emits
`phrase_chosen(None)`.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QItemSelection, QModelIndex, QObject, Qt, Signal
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

from app.gui.models.phrase_model import PhraseFilterProxy, SharedPhraseModel
from app.gui.models.row_model import setup_result_table
from core.shared_words import SharedPhrase, SharedPhrases

HINT_TEXT = "Click a phrase to show it in both documents · click it again for the next place"


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
        table.sortByColumn(SharedPhraseModel.COL_WORDS, Qt.SortOrder.DescendingOrder)
        table.setTabKeyNavigation(False)
        header.setStretchLastSection(False)
        header.setSectionResizeMode(SharedPhraseModel.COL_PHRASE, QHeaderView.ResizeMode.Stretch)
        for column in sorted(SharedPhraseModel.NUMERIC_COLUMNS):
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

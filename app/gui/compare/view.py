"""The side-by-side view of one comparison: the verdict and scores on top, documents A and B side
by side with the copied passages marked (verified blocks, word for word, and reworded passages,
edited, each in its own style), and below them two tabs: the table of blocks and passages, and
the phrases both documents share.

What the panes mark and what the tooltips say is worked out without Qt in `marks`
(`prepare_view`, on a worker); this module turns it into widgets. `ComparisonView` lays the
widgets out and keeps the panes, the table and the current item in step: a click on a passage
in one pane brings its partner into view in the other, a table row brings both, and
next/previous walk the shown items of both kinds along A. Items are numbered as in `marks`: the
blocks, then the reworded passages; the numbers a teacher reads (table, tooltips, strips) are
the table filter's `Numbering` (`BlockFilterProxy.numbering`), consecutive over what it lists.
Beside each pane's scrollbar an overview strip marks where that document's listed passages lie;
clicking one selects it like its table row. The shared phrases are found by a background job
of their own once a comparison is shown (they take seconds on long documents, the blocks do
not wait for them); choosing one shows every occurrence in both panes.
"""

from __future__ import annotations

from functools import partial

import shiboken6
from PySide6.QtCore import (
    QByteArray,
    QCoreApplication,
    QDataStream,
    QItemSelectionModel,
    QLocale,
    QModelIndex,
    Qt,
    QThreadPool,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QFont, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QScrollBar,
    QSizePolicy,
    QSplitter,
    QTableView,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.gui.compare.marks import (
    Mark,
    Numbering,
    PreparedView,
    Span,
    block_spans,
    mark_spans,
    mark_tooltip,
    overview_marks,
    overview_tooltip,
    prepare_view,
)
from app.gui.compare.phrases_panel import SharedPhrasesPanel
from app.gui.compare.results_panel import ResultsPanel
from app.gui.compare.text_pane import TextPane
from app.gui.crash import log
from app.gui.models.block_model import (
    STATE_FILTER_LABELS,
    BlockFilterProxy,
    BlockTableModel,
    StateFilter,
)
from app.gui.models.row_model import setup_result_table
from app.gui.tasks import LatestTask, TaskContext, TaskRunner
from app.gui.view_state import read_state, write_state
from core.comparison import Comparison
from core.detection.passages import Passage
from core.detection.verification import BlockState
from core.documents.document import Document
from core.reports.wording import plural
from core.shared_words import SharedPhrase, SharedPhrases, shared_phrases

STATE_MAGIC = "doppel.comparison-view"
# 3: the table's Kind, Shared words and Similarity columns; 2: before them (read, but for the
# table's header: its widths belong to other columns now); 1: no Shared phrases tab (likewise)
STATE_VERSION = 3
TAB_BLOCKS = 0
TAB_PHRASES = 1
#: the shared phrases are looked for this long after a comparison is shown (`_find_phrases`)
PHRASES_DELAY_MS = 250
HINT_TEXT = "Click a marked passage to find it in the other document · F8 next passage"


def language_name(code: str) -> str:
    locale = QLocale(code)
    if locale.language() == QLocale.Language.C:
        return code
    return QLocale.languageToString(locale.language())


# --- widgets -----------------------------------------------------------------------------


class DocumentHeader(QWidget):
    """A pane's title: which document it shows, and what the engine made of it."""

    def __init__(self, letter: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.letter = letter
        self.title = QLabel()
        font = QFont(self.font())
        font.setWeight(QFont.Weight.DemiBold)
        font.setPointSizeF(max(font.pointSizeF(), 9.0) * 1.1)
        self.title.setFont(font)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details = QLabel()
        self.details.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        # a long file name must not widen the window: the title takes what is left, and clips
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 6, 4, 4)
        layout.setSpacing(12)
        layout.addWidget(self.title, 1)
        layout.addWidget(self.details)
        self.set_document(None)

    def set_document(self, document: Document | None) -> None:
        if document is None:
            self.title.setText(f"{self.letter}  ·  no document")
            self.details.setText("")
            self.setToolTip("")
            return
        self.title.setText(f"{self.letter}  ·  {document.name}")
        parts = [
            document.format.upper(),
            plural(document.sentence_count, "sentence"),
            language_name(document.language),
        ]
        too_long = len(document.signature.too_long)
        if too_long:
            parts.append(f"{too_long:,} too long to use")
        self.details.setText("  ·  ".join(parts))
        self.setToolTip("\n".join([str(document.path), *document.warnings]))


class ComparisonView(QWidget):
    """Documents A and B side by side, their shared blocks marked, a results panel above and
    the tables of blocks and of shared phrases below. See the module docstring.

    The shared phrases are found through `runner`, the app's TaskRunner; without one the view
    runs them on Qt's global thread pool (`_own_runner`)."""

    block_selected = Signal(int)  # the item's number: a block's index, or a reworded passage's
    phrases_ready = Signal(object)  # the SharedPhrases of the comparison shown

    def __init__(self, parent: QWidget | None = None, runner: TaskRunner | None = None) -> None:
        super().__init__(parent)
        self._comparison: Comparison | None = None
        self._prepared: PreparedView | None = None
        self._current = -1
        self._order: list[int] = []  # item numbers (blocks, reworded passages) in A order
        self._sync = False
        self._syncing = False  # set while one pane moves the other, and while jumping
        self.runner = runner if runner is not None else self._own_runner()
        self._phrases_job = LatestTask(self.runner)  # the phrases of the comparison shown
        self._phrases_timer = QTimer(self)
        self._phrases_timer.setSingleShot(True)
        self._phrases_timer.setInterval(PHRASES_DELAY_MS)
        self._phrases_timer.timeout.connect(self._start_phrases)
        self._found: SharedPhrase | None = None  # the phrase shown in the panes
        self._found_at = (0, 0)  # which of its occurrences in A and in B is in view

        self.results = ResultsPanel()
        self.pane_a = TextPane()
        self.pane_b = TextPane()
        self.pane_a.setPlaceholderText("Document A's text appears here.")
        self.pane_b.setPlaceholderText("Document B's text appears here.")
        self.strip_a = self.pane_a.overview
        self.strip_b = self.pane_b.overview
        for strip, letter in ((self.strip_a, "A"), (self.strip_b, "B")):
            strip.setAccessibleName(f"Where the copied passages are in document {letter}")
        self.header_a = DocumentHeader("A")
        self.header_b = DocumentHeader("B")

        self.block_model = BlockTableModel(self)
        self.proxy = BlockFilterProxy(self)
        self.proxy.setSourceModel(self.block_model)
        self.table = QTableView()
        self._setup_table()
        self.phrases = SharedPhrasesPanel()

        self._create_actions()
        self.state_filter = QComboBox()
        for state, label in STATE_FILTER_LABELS.items():
            self.state_filter.addItem(label, state)
        self.state_filter.setToolTip("Which blocks and passages the table lists")
        self.shown_count = QLabel()
        self.shown_count.setForegroundRole(QPalette.ColorRole.PlaceholderText)

        self.panes_splitter = QSplitter(Qt.Orientation.Horizontal)
        self.panes_splitter.addWidget(_titled(self.header_a, self.pane_a))
        self.panes_splitter.addWidget(_titled(self.header_b, self.pane_b))
        self.panes_splitter.setChildrenCollapsible(False)
        self.panes_splitter.setHandleWidth(10)

        self.main_splitter = QSplitter(Qt.Orientation.Vertical)
        self.main_splitter.addWidget(self.panes_splitter)
        self.main_splitter.addWidget(self._bottom_area())
        self.main_splitter.setStretchFactor(0, 3)
        self.main_splitter.setStretchFactor(1, 1)
        self.main_splitter.setHandleWidth(10)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 8)
        layout.setSpacing(4)
        layout.addWidget(self.results)
        layout.addWidget(_rule())
        layout.addWidget(self.main_splitter, 1)

        self.pane_a.mark_clicked.connect(lambda mark: self._on_mark_clicked(self.pane_a, mark))
        self.pane_b.mark_clicked.connect(lambda mark: self._on_mark_clicked(self.pane_b, mark))
        self.strip_a.item_clicked.connect(self.select_block)
        self.strip_b.item_clicked.connect(self.select_block)
        self.proxy.numbering_changed.connect(self._show_overview)
        self.table.selectionModel().currentRowChanged.connect(self._on_row_changed)
        self.state_filter.currentIndexChanged.connect(self._on_state_filter)
        self.proxy.rowsInserted.connect(self._update_shown_count)
        self.proxy.rowsRemoved.connect(self._update_shown_count)
        self.proxy.modelReset.connect(self._update_shown_count)
        self.proxy.layoutChanged.connect(self._update_shown_count)
        self.phrases.phrase_chosen.connect(self._on_phrase_chosen)
        self.phrases.phrase_again.connect(lambda _phrase: self._step_found())
        self.pane_a.verticalScrollBar().valueChanged.connect(
            lambda _v: self._sync_scroll(self.pane_a, self.pane_b)
        )
        self.pane_b.verticalScrollBar().valueChanged.connect(
            lambda _v: self._sync_scroll(self.pane_b, self.pane_a)
        )
        self.set_comparison(None)

    # --- public API ----------------------------------------------------------------------

    def set_comparison(
        self, comparison: Comparison | None, prepared: PreparedView | None = None
    ) -> None:
        """Show a comparison (None clears everything); `prepared` saves the GUI thread work."""
        if comparison is not None and (prepared is None or prepared.comparison is not comparison):
            prepared = prepare_view(comparison)
        self._comparison = comparison
        self._prepared = prepared if comparison is not None else None
        self._current = -1
        self._cancel_phrases()
        self.phrases.set_result(None)  # clears the chosen phrase too
        self.results.set_comparison(comparison)
        self.block_model.set_comparison(comparison, prepared)
        self.header_a.set_document(comparison.a if comparison else None)
        self.header_b.set_document(comparison.b if comparison else None)
        if comparison is None:
            self._order = []
            self.pane_a.clear_document()
            self.pane_b.clear_document()
            self._enable_navigation()
            self._set_phrases_tab_title(None)
            return
        assert prepared is not None
        self._order = prepared.order
        self.pane_a.set_text(comparison.a.text)
        self.pane_b.set_text(comparison.b.text)
        by_piece = {(words.block, words.part): words for words in prepared.shared}

        def describe(document: Document, mark: Mark) -> str:
            numbering = self.proxy.numbering()  # the numbers listed when it is hovered
            return mark_tooltip(comparison, mark, by_piece, document, numbering, prepared.long)

        marks_a, marks_b, emphasis_a, emphasis_b = prepared.indexed()
        self.pane_a.set_marks(marks_a, partial(describe, comparison.a), emphasis_a)
        self.pane_b.set_marks(marks_b, partial(describe, comparison.b), emphasis_b)
        self._enable_navigation()
        self._find_phrases(comparison)
        if prepared.largest is not None:  # open at the copy: the largest passage, selected
            QTimer.singleShot(0, self, partial(self._open_at, comparison, prepared.largest))

    def _open_at(self, comparison: Comparison, index: int) -> None:
        """Select item `index` once the panes have laid out, unless another comparison (or a
        selection by the teacher) came first."""
        if self._comparison is comparison and self._current < 0:
            self.select_block(index)

    def comparison(self) -> Comparison | None:
        return self._comparison

    def clear_selection(self) -> None:
        """Select nothing: no item current, no table row selected."""
        self._set_current(-1)

    def current_block(self) -> int:
        """The selected item's number (a block's index, or a reworded passage's), or -1."""
        return self._current

    def set_hide_discarded(self, hide: bool) -> None:
        """Hide (or show again) the discarded blocks' marks and table rows."""
        if self.hide_discarded_action.isChecked() != hide:
            self.hide_discarded_action.setChecked(hide)  # comes back here through toggled
            return
        self.pane_a.set_show_discarded(not hide)
        self.pane_b.set_show_discarded(not hide)
        self.proxy.set_hide_discarded(hide)  # renumbers: the strips follow (`_show_overview`)
        if hide and self._current >= 0 and self._current_block_state() is BlockState.DISCARDED:
            self._set_current(-1)

    def hide_discarded(self) -> bool:
        return self.hide_discarded_action.isChecked()

    def set_sync_scroll(self, on: bool) -> None:
        """Scroll the two panes together, each at the same share of its length."""
        if self.sync_scroll_action.isChecked() != on:
            self.sync_scroll_action.setChecked(on)
            return
        self._sync = on
        if on:
            self._sync_scroll(self.pane_a, self.pane_b)

    def sync_scroll(self) -> bool:
        return self._sync

    def set_emphasise_shared(self, on: bool) -> None:
        """Emphasise (or not) the words a passage (either kind) shares with its partner."""
        if self.emphasise_action.isChecked() != on:
            self.emphasise_action.setChecked(on)
            return
        self.pane_a.set_show_emphasis(on)
        self.pane_b.set_show_emphasis(on)

    def emphasise_shared(self) -> bool:
        return self.emphasise_action.isChecked()

    def shared_phrases(self) -> SharedPhrases | None:
        """The shared phrases of the comparison shown, once found."""
        return self.phrases.result()

    def show_phrases(self) -> None:
        """Bring the Shared phrases tab forward."""
        self.tabs.setCurrentIndex(TAB_PHRASES)

    def set_state_filter(self, state: StateFilter) -> None:
        self.state_filter.setCurrentIndex(self.state_filter.findData(state))

    def select_block(self, index: int) -> None:
        """Make item `index` current (a block, or a reworded passage: see `marks`): both panes
        scroll to it and its table row is selected."""
        if self._comparison is None or not 0 <= index < len(self.block_model.listed()):
            return
        span_a, span_b = block_spans(self._comparison, index)
        self._jump(index, span_a, span_b)

    def next_block(self) -> None:
        """The next shown item along A (a block or a reworded passage), wrapping around."""
        self._step(+1)

    def previous_block(self) -> None:
        """The previous shown item along A, wrapping around to the last."""
        self._step(-1)

    def shown_blocks(self) -> list[int]:
        """The numbers of the items (blocks and reworded passages) the filters let through, in
        A order: what next/previous step through."""
        if self._comparison is None:
            return []
        items = self.block_model.listed()
        return [i for i in self._order if self.proxy.accepts(items[i])]

    def save_state(self) -> QByteArray:
        """The splitters' sizes, the tables' headers, the tab shown and whether shared words
        are emphasised, for QSettings."""
        state, stream = write_state(
            STATE_MAGIC,
            STATE_VERSION,
            (
                self.main_splitter.saveState(),
                self.panes_splitter.saveState(),
                self.table.horizontalHeader().saveState(),
                self.phrases.table.horizontalHeader().saveState(),
            ),
        )
        stream.writeInt32(self.tabs.currentIndex())
        stream.writeBool(self.emphasise_shared())
        return state

    def restore_state(self, state: QByteArray) -> bool:
        """Restore what `save_state` wrote (or an earlier version: all but the table's header,
        whose columns changed); False (and nothing changed) if it is not that."""
        found = read_state(state, STATE_MAGIC, STATE_VERSION, 4)
        current = found is not None
        if found is None:
            found = read_state(state, STATE_MAGIC, 2, 4)
        if found is None:
            older = read_state(state, STATE_MAGIC, 1, 3)
            if older is None:
                return False
            main, panes, header = older[0]
            phrases_header, tab, emphasise = None, TAB_BLOCKS, True
        else:
            (main, panes, header, phrases_header), stream = found
            tab = stream.readInt32()
            emphasise = stream.readBool()
            if stream.status() != QDataStream.Status.Ok:
                return False
        restored = [
            self.main_splitter.restoreState(main),
            self.panes_splitter.restoreState(panes),
        ]
        if current:
            restored.append(self.table.horizontalHeader().restoreState(header))
        if phrases_header is not None:
            restored.append(self.phrases.table.horizontalHeader().restoreState(phrases_header))
        if 0 <= tab < self.tabs.count():
            self.tabs.setCurrentIndex(tab)
        self.set_emphasise_shared(emphasise)
        return all(restored)

    # --- behaviour -----------------------------------------------------------------------

    def _create_actions(self) -> None:
        self.next_action = QAction("Next passage", self)
        self.next_action.setShortcuts([QKeySequence(Qt.Key.Key_F8), QKeySequence("Ctrl+]")])
        self.next_action.setToolTip(
            "Next passage along A, word for word or edited, or block listed (F8)"
        )
        self.next_action.triggered.connect(self.next_block)
        self.previous_action = QAction("Previous passage", self)
        self.previous_action.setShortcuts(
            [QKeySequence(Qt.Modifier.SHIFT | Qt.Key.Key_F8), QKeySequence("Ctrl+[")]
        )
        self.previous_action.setToolTip("Previous passage along A (Shift+F8)")
        self.previous_action.triggered.connect(self.previous_block)
        self.hide_discarded_action = QAction("Hide discarded blocks", self)
        self.hide_discarded_action.setCheckable(True)
        self.hide_discarded_action.setToolTip(
            "Hide the blocks whose sentence lengths agree only by chance"
        )
        self.hide_discarded_action.toggled.connect(self.set_hide_discarded)
        self.sync_scroll_action = QAction("Scroll panes together", self)
        self.sync_scroll_action.setCheckable(True)
        self.sync_scroll_action.setToolTip("Scrolling one document scrolls the other with it")
        self.sync_scroll_action.toggled.connect(self.set_sync_scroll)
        self.emphasise_action = QAction("Emphasise shared words", self)
        self.emphasise_action.setCheckable(True)
        self.emphasise_action.setChecked(True)
        self.emphasise_action.setToolTip(
            "Inside each copied passage, show the words both sides share in a stronger shade: in "
            "a verified block those used in the same order (all of them when it is word for "
            "word), in a reworded passage the content words both use (underlined)"
        )
        self.emphasise_action.toggled.connect(self.set_emphasise_shared)
        for action in (self.next_action, self.previous_action):
            self.addAction(action)  # shortcuts work even before the window adds its menus

    def _setup_table(self) -> None:
        table = self.table
        header = setup_result_table(table, self.proxy)
        table.setTabKeyNavigation(False)  # Tab leaves the table; the arrows move in it
        blocks = BlockTableModel
        table.sortByColumn(blocks.COL_NUMBER, Qt.SortOrder.AscendingOrder)
        header.setStretchLastSection(True)
        widths = {
            blocks.COL_NUMBER: 60,
            blocks.COL_KIND: 104,
            blocks.COL_STATE: 84,
            blocks.COL_A: 112,
            blocks.COL_B: 112,
            blocks.COL_LENGTH: 62,
            blocks.COL_KEPT: 54,
            blocks.COL_SHARED: 100,
            blocks.COL_SIMILARITY: 80,
        }
        for column, width in widths.items():
            header.resizeSection(column, width)
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(blocks.COL_WORDS, QHeaderView.ResizeMode.Stretch)

    def _bottom_area(self) -> QWidget:
        """Two tabs, Blocks and Shared phrases, with the view's buttons beside them."""
        hint = QLabel(HINT_TEXT)
        hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        hint.setToolTip(HINT_TEXT)
        hint.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        bar = QHBoxLayout()
        bar.setContentsMargins(2, 4, 2, 2)
        bar.setSpacing(8)
        bar.addWidget(self.state_filter)
        bar.addWidget(self.shown_count)
        bar.addSpacing(12)
        bar.addWidget(hint, 1)  # takes the room that is left, and clips when there is none
        blocks = QWidget()
        layout = QVBoxLayout(blocks)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)

        buttons = QWidget()
        row = QHBoxLayout(buttons)
        row.setContentsMargins(0, 0, 0, 2)
        row.setSpacing(2)
        for action in (
            self.previous_action,
            self.next_action,
            self.hide_discarded_action,
            self.sync_scroll_action,
            self.emphasise_action,
        ):
            button = QToolButton()
            button.setDefaultAction(action)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.setAutoRaise(True)
            row.addWidget(button)

        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(blocks, "Passages")
        self.tabs.addTab(self.phrases, "Shared phrases")
        self.tabs.setTabToolTip(
            TAB_BLOCKS,
            "The passages the two documents share, word for word (verified blocks) and edited "
            "(reworded passages), and the blocks whose lengths agree by chance",
        )
        self.tabs.setTabToolTip(
            TAB_PHRASES, "The phrases of several words both documents use, longest first"
        )
        self.tabs.setCornerWidget(buttons, Qt.Corner.TopRightCorner)
        font = QFont(self.tabs.tabBar().font())
        font.setWeight(QFont.Weight.DemiBold)
        self.tabs.tabBar().setFont(font)
        return self.tabs

    def _enable_navigation(self) -> None:
        has_items = bool(self.block_model.listed())
        self.next_action.setEnabled(has_items)
        self.previous_action.setEnabled(has_items)

    def _current_block_state(self) -> BlockState | None:
        """The current block's state (None: no item, or a reworded passage)."""
        if self._comparison is None or self._current < 0:
            return None
        item = self.block_model.listed()[self._current]
        return None if isinstance(item, Passage) else item.state

    def _step(self, direction: int) -> None:
        shown = self.shown_blocks()
        if not shown:
            return
        if self._current in shown:
            target = shown[(shown.index(self._current) + direction) % len(shown)]
        else:
            target = shown[0] if direction > 0 else shown[-1]
        self.select_block(target)

    def _show_overview(self) -> None:
        """Give each pane's overview strip the marks of the items listed now (hidden discarded
        blocks left out), worded with the numbers listed now."""
        comparison, prepared = self._comparison, self._prepared
        if comparison is None or prepared is None or prepared.comparison is not comparison:
            self.strip_a.set_marks([], 0)
            self.strip_b.set_marks([], 0)
            return
        numbering = self.proxy.numbering()
        hidden = self.hide_discarded()
        blocks = comparison.blocks

        def shown(index: int) -> bool:
            if not numbering.label(index):
                return False
            return not (
                hidden and index < len(blocks) and blocks[index].state is BlockState.DISCARDED
            )

        marks_a, marks_b, _, _ = prepared.indexed()
        for strip, marks, document in (
            (self.strip_a, marks_a, comparison.a),
            (self.strip_b, marks_b, comparison.b),
        ):
            in_a = document is comparison.a
            strip.set_marks(
                overview_marks(marks.items, shown),
                len(document.text),
                partial(self._strip_tooltip, comparison, numbering, in_a),
            )

    def _strip_tooltip(
        self, comparison: Comparison, numbering: Numbering, in_a: bool, mark: Mark
    ) -> str:
        long = self._prepared.long if self._prepared is not None else None
        return overview_tooltip(comparison, mark, numbering, in_a, long)

    def _on_mark_clicked(self, pane: TextPane, mark: Mark) -> None:
        """The clicked pane stays put; the other brings the partner of what was clicked."""
        if self._comparison is None:
            return
        long = self._prepared.long if self._prepared is not None else None
        span_a, span_b = mark_spans(self._comparison, mark, long)
        if pane is self.pane_a:
            self._jump(mark.block, None, span_b)
        else:
            self._jump(mark.block, span_a, None)

    def _jump(self, index: int, span_a: Span | None, span_b: Span | None) -> None:
        self._syncing = True  # the panes move to their own targets, not each other's
        try:
            if span_a is not None:
                self.pane_a.show_span(*span_a)
            if span_b is not None:
                self.pane_b.show_span(*span_b)
        finally:
            self._syncing = False
        self._set_current(index)
        self.block_selected.emit(index)

    def _set_current(self, index: int) -> None:
        self._current = index
        block = index if index >= 0 else None
        self.pane_a.set_current_block(block)
        self.pane_b.set_current_block(block)
        self.strip_a.set_current(block)
        self.strip_b.set_current(block)
        selection = self.table.selectionModel()
        row = self.proxy.proxy_row(index) if index >= 0 else -1
        selection.blockSignals(True)  # the row follows the block; it must not jump back
        try:
            if row < 0:
                selection.clear()
            else:
                proxy_index = self.proxy.index(row, 0)
                selection.setCurrentIndex(
                    proxy_index,
                    QItemSelectionModel.SelectionFlag.ClearAndSelect
                    | QItemSelectionModel.SelectionFlag.Rows,
                )
                self.table.scrollTo(proxy_index)
        finally:
            selection.blockSignals(False)
        self.table.viewport().update()

    def _on_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            index = self.proxy.block_index(current.row())
            if index >= 0 and index != self._current:
                self.select_block(index)

    def _on_state_filter(self, _position: int) -> None:
        state = self.state_filter.currentData()
        if isinstance(state, StateFilter):
            self.proxy.set_state_filter(state)
            if self._current >= 0:
                self._set_current(self._current)  # re-select its row if it is still listed

    def _update_shown_count(self, *_args: object) -> None:
        total = self.block_model.rowCount()
        shown = self.proxy.rowCount()
        if shown != total:
            self.shown_count.setText(f"{shown:,} of {total:,}")
            return
        comparison = self._comparison
        reworded = total - len(comparison.blocks) if comparison is not None else 0
        listed = plural(total - reworded, "block")
        if reworded:
            listed += f", {plural(reworded, 'reworded passage')}"
        self.shown_count.setText(f"{listed} listed")

    # --- shared phrases ------------------------------------------------------------------

    def _own_runner(self) -> TaskRunner:
        """A runner for a view given none. Its jobs run on Qt's global pool, not on a pool of
        the view's: deleting a pool waits for its jobs, and a job waiting for the interpreter
        lock that the deleting thread holds would never end. Jobs are cancelled when the view
        goes, and waited for (briefly, the lock released) when the application quits."""
        runner = TaskRunner()  # no parent: alive until the last callback has run
        runner.pool = QThreadPool.globalInstance()
        self.destroyed.connect(lambda: runner.cancel_all())
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(runner.shutdown)
        return runner

    def _find_phrases(self, comparison: Comparison) -> None:
        """Look for the shared phrases on a worker; the panel says so until they come.

        The job starts PHRASES_DELAY_MS later, once the comparison is on screen: a worker
        running Python competes for the interpreter lock, and beside the GUI thread laying out
        two novels it stretched the window's longest freeze by half (bench/bench_ui.py). An
        inline runner (tests) starts it at once."""
        self.phrases.set_pending()
        self._set_phrases_tab_title(None)
        if self.runner.synchronous:
            self._start_phrases()
        else:
            self._phrases_timer.start()

    def _start_phrases(self) -> None:
        comparison = self._comparison
        if comparison is None:
            return
        a, b = comparison.a, comparison.b

        def op(context: TaskContext) -> SharedPhrases:
            return shared_phrases(a, b, progress=lambda _fraction, _message="": context.check())

        # (a result reaches a view that is still there: the job outlives a closed window)
        def done(result: SharedPhrases) -> None:
            if shiboken6.isValid(self.phrases):
                self.phrases.set_result(result)
                self._set_phrases_tab_title(result)
                self.phrases_ready.emit(result)

        def error(exc: BaseException, details: str) -> None:
            if shiboken6.isValid(self.phrases):
                log.error("Listing the shared phrases failed\n%s", details)
                self.phrases.set_failed(f"an internal error ({exc!r})")

        # another comparison shown before they come supersedes them (`_cancel_phrases`)
        self._phrases_job.run(op, done, on_error=error)

    def _cancel_phrases(self) -> None:
        self._phrases_timer.stop()
        self._phrases_job.abandon()  # its result would be stale

    def _set_phrases_tab_title(self, result: SharedPhrases | None) -> None:
        title = "Shared phrases"
        if result is not None:
            title += f" ({result.total:,})"
        self.tabs.setTabText(TAB_PHRASES, title)

    def _on_phrase_chosen(self, phrase: SharedPhrase | None) -> None:
        """Show every occurrence of `phrase` in both panes (None: none), the first in view."""
        self._found = phrase
        self._found_at = (0, 0)
        self.pane_a.set_found(phrase.in_a if phrase is not None else [])
        self.pane_b.set_found(phrase.in_b if phrase is not None else [])
        if phrase is not None:
            self._show_found()

    def _step_found(self) -> None:
        """The next occurrence of the shown phrase in each pane, wrapping round."""
        phrase = self._found
        if phrase is None:
            return
        at_a, at_b = self._found_at
        self._found_at = ((at_a + 1) % len(phrase.in_a), (at_b + 1) % len(phrase.in_b))
        self._show_found()

    def _show_found(self) -> None:
        phrase = self._found
        assert phrase is not None
        at_a, at_b = self._found_at
        self._syncing = True  # each pane goes to its own occurrence
        try:
            self.pane_a.show_span(*phrase.in_a[at_a])
            self.pane_b.show_span(*phrase.in_b[at_b])
        finally:
            self._syncing = False
        self.phrases.set_place(
            f"A {at_a + 1} of {len(phrase.in_a)} · B {at_b + 1} of {len(phrase.in_b)}"
        )

    def _sync_scroll(self, source: TextPane, target: TextPane) -> None:
        if not self._sync or self._syncing:
            return
        self._syncing = True
        try:
            _follow(source.verticalScrollBar(), target.verticalScrollBar())
        finally:
            self._syncing = False


def _follow(source: QScrollBar, target: QScrollBar) -> None:
    """Move `target` to the same share of its range as `source` is at."""
    if source.maximum() <= source.minimum():
        return
    share = (source.value() - source.minimum()) / (source.maximum() - source.minimum())
    target.setValue(target.minimum() + round(share * (target.maximum() - target.minimum())))


def _titled(header: QWidget, pane: QWidget) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(2)
    layout.addWidget(header)
    layout.addWidget(pane, 1)
    return box


def _rule() -> QFrame:
    line = QFrame()
    line.setFrameShape(QFrame.Shape.HLine)
    line.setFrameShadow(QFrame.Shadow.Plain)
    line.setForegroundRole(QPalette.ColorRole.Mid)
    return line

"""Doppel's main window: two tabs, Compare (the documents on the left, the comparison on the
right) and Folder check (a whole class at once).

Layout and wiring only: the `Session` decides what runs, the `ComparisonView` shows a result,
the `FolderCheckView` runs folder checks; a pair opened from a folder check is loaded and
compared in the background here and shown in the Compare tab. Removing documents is undone
through a QUndoStack (`app.gui.undo`), case files are saved and opened by `CaseFiles`, the
evidence report is exported and printed by `EvidenceExport`; message bars above the document
list say which files could not be read and what opening a case found."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    QUrl,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDesktopServices,
    QDragEnterEvent,
    QDropEvent,
    QGuiApplication,
    QKeySequence,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app import app_version
from app.gui.case_file import CaseFiles, OpenedCase, is_case_file
from app.gui.compare.marks import PreparedView, prepare_view
from app.gui.compare.view import ComparisonView
from app.gui.crash import log, log_folder, show_error
from app.gui.evidence_export import EvidenceExport
from app.gui.folder_check.controller import readable_error
from app.gui.folder_check.view import FolderCheckView
from app.gui.message_bar import Level, MessageBar
from app.gui.models.document_list import DocumentListModel, Status
from app.gui.models.pair_list import SORT_ROLE, PairTableModel
from app.gui.session import RankedPair, Session
from app.gui.settings import Settings
from app.gui.settings_dialog import SettingsDialog
from app.gui.tasks import LatestTask, TaskContext, TaskRunner
from app.gui.undo import RemoveDocuments, clear_command
from core.batch.result import PairResult
from core.comparison import Comparison
from core.documents.extract import SUPPORTED_SUFFIXES
from core.reports.wording import plural

#: a job shorter than this never shows the progress bar (no flashing on quick checks)
PROGRESS_DELAY_MS = 400
#: files that could not be read, each shown with its reason; more are summarised (Show All)
INLINE_FAILURES = 2
FILE_FILTER = "Documents ({});;All files (*)".format(
    " ".join(f"*{s}" for s in sorted(SUPPORTED_SUFFIXES))
)


class MainWindow(QMainWindow):
    comparison_shown = Signal(object)  # the Comparison now on screen

    def __init__(
        self,
        settings: Settings,
        runner: TaskRunner | None = None,
        folder_check_cache: Path | None = None,
    ) -> None:
        """`folder_check_cache` is the folder check's document cache file (None: the
        platform's, which `doppel batch` uses too)."""
        super().__init__()
        self.settings = settings
        self.runner = runner or TaskRunner(self)
        self.session = Session(self.runner, settings, self, prepare=prepare_view)
        self.folder_check_cache = folder_check_cache
        self._pair_job = LatestTask(self.runner)  # a pair from the folder check being opened
        self._pair_job.ended.connect(lambda: self._busy_changed(self.busy))
        self._opened: PreparedView | None = None  # its preparation, made on the worker
        self.setWindowTitle("Doppel")
        self.setAcceptDrops(True)
        screen = QGuiApplication.primaryScreen()
        room = screen.availableGeometry() if screen is not None else None
        if room is not None and room.width() > 0:  # a first start on a small laptop screen
            self.resize(min(1400, room.width() * 95 // 100), min(900, room.height() * 95 // 100))
        else:
            self.resize(1400, 900)

        self.undo_stack = QUndoStack(self)
        self.cases = CaseFiles(self.runner, settings, self.session, self)
        self.evidence = EvidenceExport(self.runner, settings, self)
        # what could not be read, and what opening a case found: said in place, never only in
        # a tooltip or a column scrolled out of view (made first: first in the Tab order)
        self.failures_bar = MessageBar()
        self.failures_bar.dismissed.connect(self._failures_dismissed)
        self._dismissed_failures: frozenset[tuple[Path, str]] = frozenset()
        self.case_bar = MessageBar()
        # disguises undone before the check (look-alike letters, invisible characters, hidden
        # text): evidence in themselves, so said above the list, not only in the Notes column
        self.disguises_bar = MessageBar()
        self.disguises_bar.dismissed.connect(self._disguises_dismissed)
        self._dismissed_disguises: frozenset[tuple[Path, str]] = frozenset()
        self.documents_view = self._table(self.session.documents)
        self.documents_view.setAccessibleName("Documents")
        # right-click: Use as Template, Remove Selected
        self.documents_view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self._size_document_columns()
        self.documents_view.doubleClicked.connect(self._document_activated)
        documents_box = QWidget()
        documents_layout = QVBoxLayout(documents_box)
        documents_layout.setContentsMargins(0, 0, 0, 0)
        documents_layout.setSpacing(4)
        documents_layout.addWidget(self.case_bar)
        documents_layout.addWidget(self.failures_bar)
        documents_layout.addWidget(self.disguises_bar)
        documents_layout.addWidget(self.documents_view, 1)
        self.pairs = PairTableModel(self)
        self.pairs_proxy = QSortFilterProxyModel(self)
        self.pairs_proxy.setSourceModel(self.pairs)
        self.pairs_proxy.setSortRole(SORT_ROLE)
        self.pairs_view = self._table(self.pairs_proxy)
        self.pairs_view.setSortingEnabled(True)
        self.pairs_view.activated.connect(self._pair_activated)  # double-click or Enter
        # every title readable: the list is narrow and scrolls sideways rather than cut headers;
        # the copied share first, so the narrow list shows it beside the names
        pairs_header = self.pairs_view.horizontalHeader()
        pairs_header.moveSection(pairs_header.visualIndex(PairTableModel.COL_COPIED), 0)
        for column in range(self.pairs.columnCount()):
            pairs_header.resizeSection(
                column, max(pairs_header.sectionSize(column), pairs_header.sectionSizeHint(column))
            )
        self.pairs_label = QLabel(
            "Pairs with copied text found, most copied first (double-click to open):"
        )
        self.pairs_label.setWordWrap(True)
        self.pairs_box = QWidget()
        pairs_layout = QVBoxLayout(self.pairs_box)
        pairs_layout.setContentsMargins(0, 0, 0, 0)
        pairs_layout.addWidget(self.pairs_label)
        pairs_layout.addWidget(self.pairs_view)
        self.pairs_box.hide()

        left = QSplitter(Qt.Orientation.Vertical)
        left.setMinimumWidth(260)
        left.addWidget(documents_box)
        left.addWidget(self.pairs_box)
        left.setStretchFactor(0, 3)  # the documents (and the bars above them) first
        left.setStretchFactor(1, 2)
        self.left_splitter = left

        self.view = ComparisonView(runner=self.runner)
        self.empty = QLabel(
            "<h2>Drop documents here</h2>"
            "<p>Drag two or more essays (.docx, .pdf, .odt, .rtf, .html, .txt) or a folder onto "
            "this window, or use File › Open.</p>"
            "<p>Doppel finds the passages they share, copied word for word or edited, and "
            "shows them side by side. Nothing leaves this computer.</p>"
        )
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.view)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.stack)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([420, 980])

        self.folder_check_view = FolderCheckView(settings, self.runner, folder_check_cache)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.splitter, "Compare")
        self.tabs.addTab(self.folder_check_view, "Folder check")
        self.setCentralWidget(self.tabs)

        self._build_status_bar()
        self._build_menus()
        self._connect()
        self._restore()

    # -- construction -----------------------------------------------------------------------

    def _table(self, model: QAbstractItemModel) -> QTableView:
        table = QTableView()
        table.setModel(model)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setAlternatingRowColors(True)
        table.verticalHeader().hide()
        table.horizontalHeader().setHighlightSections(False)
        table.setWordWrap(False)
        table.setTabKeyNavigation(False)  # Tab moves on to the next control
        return table

    def _size_document_columns(self) -> None:
        """Every header readable: each column at least as wide as its title. Fixed widths
        otherwise: re-measuring every row on each load froze the window for seconds with a
        folder of 100 files; the notes (warnings) take the rest.

        The list is often narrow (the comparison takes most of a laptop's screen), so the
        format, sentences and language columns start hidden: the name's tooltip and the
        comparison's headers say them, and the header's context menu shows them again."""
        header = self.documents_view.horizontalHeader()
        model = DocumentListModel
        widths = {
            model.COL_NAME: 100,
            model.COL_PARTNER: 100,
            model.COL_FORMAT: 50,
            model.COL_SENTENCES: 64,
            model.COL_LANGUAGE: 42,
        }
        for column, width in widths.items():
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(column, max(width, header.sectionSizeHint(column)))
        # the notes take what is left, down to the width of their title
        header.setSectionResizeMode(model.COL_NOTES, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(min(header.sectionSizeHint(model.COL_NOTES), 60))
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.column_actions: dict[int, QAction] = {}
        for column in (model.COL_FORMAT, model.COL_SENTENCES, model.COL_LANGUAGE, model.COL_NOTES):
            action = QAction(f"Show {model.HEADERS[column]}", header)
            action.setCheckable(True)
            action.toggled.connect(
                lambda on, c=column: self.documents_view.setColumnHidden(c, not on)
            )
            header.addAction(action)
            self.column_actions[column] = action
            shown = column == model.COL_NOTES
            action.setChecked(shown)
            self.documents_view.setColumnHidden(column, not shown)
        # the strongest partner means something only with more than two documents
        self.documents_view.setColumnHidden(model.COL_PARTNER, True)

    def _fit_document_headers(self) -> None:
        """After a restored layout: widen any column narrower than its title."""
        header = self.documents_view.horizontalHeader()
        for column in range(header.count() - 1):  # (the last one stretches)
            if header.sectionSize(column) < header.sectionSizeHint(column):
                header.resizeSection(column, header.sectionSizeHint(column))

    def _build_status_bar(self) -> None:
        self.progress_bar = QProgressBar()
        self.progress_bar.setRange(0, 1000)
        self.progress_bar.setMaximumWidth(220)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel_jobs)
        self.progress_label = QLabel()
        for widget in (self.progress_label, self.progress_bar, self.cancel_button):
            self.statusBar().addPermanentWidget(widget)
            widget.hide()
        self.progress_timer = QTimer(self)
        self.progress_timer.setSingleShot(True)
        self.progress_timer.setInterval(PROGRESS_DELAY_MS)
        self.progress_timer.timeout.connect(self._show_progress)

    def _action(
        self,
        text: str,
        slot: Callable[[], object] | Callable[[bool], object],
        shortcut: QKeySequence | QKeySequence.StandardKey | None = None,
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(slot)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        self.open_action = self._action("&Open…", self.open_files, QKeySequence.StandardKey.Open)
        self.open_folder_action = self._action(
            "Open &Folder…", self.open_folder, QKeySequence("Ctrl+Shift+O")
        )
        self.open_case_action = self._action("Open C&ase…", self.cases.open)
        self.open_case_action.setToolTip(
            "Open a saved case: its documents, settings and the pair that was on screen"
        )
        self.save_case_action = self._action(
            "&Save Case…", self.save_case, QKeySequence.StandardKey.Save
        )
        self.save_case_action.setToolTip(
            "Save the documents, the settings and the pair on screen, to come back to later"
        )
        self.export_evidence_action = self._action(
            "&Export Evidence…", self.export_evidence, QKeySequence("Ctrl+E")
        )
        self.export_evidence_action.setToolTip(
            "Save the evidence report of the pair on screen as a PDF or a web page"
        )
        self.print_preview_action = self._action("Print Pre&view…", self.print_preview)
        self.print_action = self._action(
            "&Print…", self.print_evidence, QKeySequence.StandardKey.Print
        )
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        self.recheck_action = self._action(
            "Re-&check Changed Files", lambda: self.session.recheck(), QKeySequence("F5")
        )
        self.remove_action = self._action(
            "&Remove Selected", self.remove_selected, QKeySequence.StandardKey.Delete
        )
        self.clear_action = self._action("C&lear All", self.clear_documents)
        self.template_action = self._action(
            "Use as &Template", self.toggle_template, QKeySequence("Ctrl+T")
        )
        self.template_action.setCheckable(True)
        self.template_action.setToolTip(
            "A template (the assignment prompt, a handout) is not compared itself: what the "
            "other documents share with it is left out of their scores"
        )
        self.quit_action = self._action("&Quit", self.close, QKeySequence.StandardKey.Quit)
        file_menu.insertActions(
            self.recent_menu.menuAction(),
            [self.open_action, self.open_folder_action, self.open_case_action],
        )
        file_menu.addAction(self.save_case_action)
        file_menu.addAction(self.recheck_action)
        file_menu.addSeparator()
        for action in (self.export_evidence_action, self.print_preview_action, self.print_action):
            file_menu.addAction(action)
        file_menu.addSeparator()
        self.check_folder_action = self._action("Check a Whole &Folder…", self.check_folder)
        self.export_csv_action = self._action(
            "Export Folder Check as &CSV…", lambda: self.folder_check_view.export_csv()
        )
        self.export_html_action = self._action(
            "Export Folder Check as &HTML Report…", lambda: self.folder_check_view.export_html()
        )
        for action in (
            self.check_folder_action,
            self.export_csv_action,
            self.export_html_action,
            self.folder_check_view.add_to_archive_action,  # (enabled by the view itself)
        ):
            file_menu.addAction(action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)

        edit_menu = bar.addMenu("&Edit")
        self.undo_action = self.undo_stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action = self.undo_stack.createRedoAction(self, "&Redo")
        self.redo_action.setShortcuts(
            [QKeySequence("Ctrl+Shift+Z"), *QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)]
        )
        for action in (self.undo_action, self.redo_action):
            # the window's, not a text pane's (they are read-only: they have nothing to undo)
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            edit_menu.addAction(action)
        edit_menu.addSeparator()
        for action in (self.remove_action, self.clear_action):
            edit_menu.addAction(action)
        edit_menu.addSeparator()
        edit_menu.addAction(self.template_action)
        # Delete removes documents only while the list has the focus, never from a text pane
        self.remove_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.template_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.documents_view.addAction(self.template_action)
        self.documents_view.addAction(self.remove_action)

        view_menu = bar.addMenu("&View")
        self.compare_tab_action = self._action(
            "&Compare", lambda: self.tabs.setCurrentWidget(self.splitter), QKeySequence("Ctrl+1")
        )
        self.folder_check_tab_action = self._action(
            "&Folder Check",
            lambda: self.tabs.setCurrentWidget(self.folder_check_view),
            QKeySequence("Ctrl+2"),
        )
        view_menu.addAction(self.compare_tab_action)
        view_menu.addAction(self.folder_check_tab_action)
        view_menu.addSeparator()
        for action in (
            self.view.next_action,
            self.view.previous_action,
            self.view.hide_discarded_action,
            self.view.sync_scroll_action,
            self.view.emphasise_action,
        ):
            view_menu.addAction(action)
            self.addAction(action)

        tools = bar.addMenu("&Tools")
        self.settings_action = self._action(
            "Comparison &Settings…", self.edit_settings, QKeySequence.StandardKey.Preferences
        )
        if self.settings_action.shortcut().isEmpty():
            self.settings_action.setShortcut(QKeySequence("Ctrl+,"))
        tools.addAction(self.settings_action)
        self._comparison_actions_changed()

        help_menu = bar.addMenu("&Help")
        help_menu.addAction(self._action("&About Doppel", self.about))
        help_menu.addAction(
            self._action(
                "Open &Log Folder",
                lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(log_folder()))),
            )
        )

    def _connect(self) -> None:
        session = self.session
        session.comparison_ready.connect(self._show_comparison)
        session.comparison_cleared.connect(lambda: self._show_comparison(None))
        session.pairs_ranked.connect(self._show_pairs)
        session.busy_changed.connect(self._busy_changed)
        session.progress.connect(self._progress)
        session.failed.connect(self._job_failed)
        session.pairs_ranked.connect(lambda _pairs: self._partners_changed())
        self.documents_view.selectionModel().selectionChanged.connect(self._selection_changed)
        documents = self.session.documents
        documents.modelReset.connect(self._selection_changed)
        for signal in (
            documents.modelReset,
            documents.rowsInserted,
            documents.rowsRemoved,
            documents.dataChanged,
        ):
            signal.connect(self._documents_changed)
        self._selection_changed()
        self._documents_changed()
        for task_owner in (self.cases, self.evidence):
            task_owner.busy_changed.connect(self._busy_changed)
            task_owner.progress.connect(self._progress)
            task_owner.failed.connect(self._job_failed)
        self.evidence.busy_changed.connect(lambda _busy: self._comparison_actions_changed())
        self.evidence.saved.connect(
            lambda path: self.statusBar().showMessage(f"Evidence report saved: {path}", 15_000)
        )
        self.cases.saved.connect(self._case_saved)
        self.cases.opened.connect(self._case_opened)
        self.view.hide_discarded_action.setChecked(self.settings.hide_discarded())
        self.view.sync_scroll_action.setChecked(self.settings.sync_scroll())
        self.view.set_hide_discarded(self.settings.hide_discarded())
        self.view.set_sync_scroll(self.settings.sync_scroll())
        self.view.hide_discarded_action.toggled.connect(self.settings.set_hide_discarded)
        self.view.sync_scroll_action.toggled.connect(self.settings.set_sync_scroll)
        self.folder_check_view.pair_opened.connect(self.open_folder_check_pair)
        # quotations and references ticked in the Folder check tab re-score the Compare tab
        self.folder_check_view.setup.exclusions_changed.connect(self.session.options_changed)
        # (the folder check logs its own failures)
        self.folder_check_view.failed.connect(
            lambda text, details: show_error(self, "Doppel", text, details)
        )
        folder_check = self.folder_check_view
        folder_check.finished.connect(lambda _result: self._folder_check_changed())
        folder_check.check.busy_changed.connect(lambda _busy: self._folder_check_changed())
        self._folder_check_changed()

    # -- state -------------------------------------------------------------------------

    def _restore(self) -> None:
        s = self.settings
        if (geometry := s.state("geometry")) is not None:
            self.restoreGeometry(geometry)
        if (state := s.state("splitter")) is not None:
            self.splitter.restoreState(state)
        if (state := s.state("left_splitter")) is not None:
            self.left_splitter.restoreState(state)
        # ("document_list_header": the list's layout since it has the strongest partner column)
        if (state := s.state("document_list_header")) is not None:
            self.documents_view.horizontalHeader().restoreState(state)
            self._fit_document_headers()
            for column, action in self.column_actions.items():
                action.setChecked(not self.documents_view.isColumnHidden(column))
            self._partners_changed()
        if (state := s.state("comparison_view")) is not None:
            self.view.restore_state(state)
        # ("batch_view": the key the Folder check tab's layout has always been saved under)
        if (state := s.state("batch_view")) is not None:
            self.folder_check_view.restore_state(state)

    def save_state(self) -> None:
        s = self.settings
        s.set_state("geometry", self.saveGeometry())
        s.set_state("splitter", self.splitter.saveState())
        s.set_state("left_splitter", self.left_splitter.saveState())
        s.set_state("document_list_header", self.documents_view.horizontalHeader().saveState())
        s.set_state("comparison_view", self.view.save_state())
        s.set_state("batch_view", self.folder_check_view.save_state())
        s.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_state()
        self.runner.shutdown()
        super().closeEvent(event)

    # -- files -------------------------------------------------------------------------

    def add_paths(self, paths: Sequence[str | Path], remember: bool = True) -> None:
        """Open files and folders; `remember` them in the recent files and the last folder.
        A case file (.doppelcase) among them is opened as a case instead."""
        files = [Path(p).resolve() for p in paths]
        if not files:
            return
        cases = [f for f in files if is_case_file(f) and f.is_file()]
        if cases:
            self.open_case(cases[0])
            if len(files) > 1:
                self.statusBar().showMessage(
                    f"Opened the case {cases[0].name}; the other files were not added", 15_000
                )
            return
        self.session.add_paths(files)
        if remember:
            self.settings.add_recent_files([str(f) for f in files if f.is_file()])
            self.settings.set_last_folder(files[-1].parent if files[-1].is_file() else files[-1])

    def open_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(
            self, "Open Documents", self.settings.last_folder(), FILE_FILTER
        )
        if files:
            self.tabs.setCurrentWidget(self.splitter)
        self.add_paths(files)

    def open_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Open Folder", self.settings.last_folder())
        if folder:
            self.tabs.setCurrentWidget(self.splitter)
            self.add_paths([folder])

    def check_folder(self) -> None:
        """The Folder check tab, with a folder of submissions to add."""
        self.tabs.setCurrentWidget(self.folder_check_view)
        self.folder_check_view.setup.inputs.add_folder_button.click()

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.settings.recent_files()
        for path in recent:
            action = self.recent_menu.addAction(Path(path).name)
            action.setToolTip(path)
            action.triggered.connect(lambda _=False, p=path: self.add_paths([p]))
        if not recent:
            self.recent_menu.addAction("No recent files").setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear Menu", self.settings.clear_recent_files)

    def remove_selected(self) -> None:
        """Remove the selected documents (Edit › Undo puts them back)."""
        paths = self._selected_paths()
        if paths:
            self.undo_stack.push(RemoveDocuments(self.session, paths))

    def clear_documents(self) -> None:
        """Remove every document (Edit › Undo puts them back)."""
        if self.session.documents.entries():
            self.undo_stack.push(clear_command(self.session))

    # -- cases -------------------------------------------------------------------------

    def open_case(self, path: Path) -> None:
        self.tabs.setCurrentWidget(self.splitter)
        self.cases.open_path(path)

    def save_case(self) -> None:
        if not self.cases.can_save():
            self.statusBar().showMessage("Nothing to save: add documents first", 10_000)
            return
        self.cases.save()

    def _case_saved(self, path: Path) -> None:
        self.settings.add_recent_files([str(path)])
        self.statusBar().showMessage(f"Case saved: {path}", 15_000)

    def _case_opened(self, opened: OpenedCase) -> None:
        # the case replaced the list: what the stack would undo belongs to the list before
        self.undo_stack.clear()
        self.settings.add_recent_files([str(opened.path)])
        self.folder_check_view.setup.show_exclusion_settings()
        level = Level.INFORMATION if opened.all_there else Level.WARNING
        self.case_bar.show_message(
            opened.summary(), level, opened.details(), f"The case {opened.path.name}"
        )
        self.case_bar.show_all_button.setVisible(len(opened.details()) > 1)

    # -- the evidence report ---------------------------------------------------------------

    def export_evidence(self) -> None:
        comparison = self.view.comparison()
        if comparison is not None:
            self.evidence.export(comparison)

    def print_evidence(self) -> None:
        comparison = self.view.comparison()
        if comparison is not None:
            self.evidence.print_(comparison)

    def print_preview(self) -> None:
        comparison = self.view.comparison()
        if comparison is not None:
            self.evidence.print_preview(comparison)

    def _comparison_actions_changed(self) -> None:
        """Export and print only with a comparison on screen, one report at a time."""
        ready = self.view.comparison() is not None and not self.evidence.busy
        for action in (self.export_evidence_action, self.print_preview_action, self.print_action):
            action.setEnabled(ready)

    # -- the document list -------------------------------------------------------------

    def _documents_changed(self, *_args: object) -> None:
        """Say which files could not be read, and which were disguised, in the bars above the
        list."""
        self._show_disguises()
        failed = [e for e in self.session.documents.entries() if e.status is Status.FAILED]
        key = frozenset((e.path, e.error) for e in failed)
        if not failed:
            self._dismissed_failures = frozenset()
            self.failures_bar.hide()
            return
        if key <= self._dismissed_failures:
            return  # closed by the teacher, and nothing new failed since
        if len(failed) <= INLINE_FAILURES:  # each with its reason
            lines = [
                f"<b>{html.escape(e.path.name)}</b> could not be read: {html.escape(e.error)}"
                for e in failed
            ]
            text = "<br>".join(lines)
        else:  # the names, and every reason behind Show All
            names = ", ".join(f"<b>{html.escape(e.path.name)}</b>" for e in failed[:3])
            more = f" and {len(failed) - 3} more" if len(failed) > 3 else ""
            text = f"{plural(len(failed), 'file')} could not be read: {names}{more}."
        details = [f"{e.path.name}: {e.error}  ({e.path})" for e in failed]
        if self.failures_bar.isHidden() or self.failures_bar.text() != text:
            self.failures_bar.show_message(
                text,
                Level.ERROR,
                details if len(failed) > INLINE_FAILURES else (),
                "Files That Could Not Be Read",
            )

    def _disguised(self) -> list[tuple[Path, str]]:
        """(path, the disguises in words) of each loaded document that had any."""
        return [
            (e.path, "; ".join(t.message for t in e.document.tampering))
            for e in self.session.documents.entries()
            if e.document is not None and e.document.tampering
        ]

    def _show_disguises(self) -> None:
        disguised = self._disguised()
        key = frozenset(disguised)
        if not disguised:
            self._dismissed_disguises = frozenset()
            self.disguises_bar.hide()
            return
        if key <= self._dismissed_disguises:
            return  # closed by the teacher, and nothing new since
        if len(disguised) <= INLINE_FAILURES:  # each with what was found
            text = "<br>".join(
                f"<b>{html.escape(path.name)}</b> was disguised: {html.escape(what)}."
                for path, what in disguised
            )
        else:
            names = ", ".join(f"<b>{html.escape(path.name)}</b>" for path, _ in disguised[:3])
            more = f" and {len(disguised) - 3} more" if len(disguised) > 3 else ""
            text = (
                f"{plural(len(disguised), 'document')} had text disguised to hide copying "
                f"(undone before the check): {names}{more}."
            )
        details = [f"{path.name}: {what}  ({path})" for path, what in disguised]
        if self.disguises_bar.isHidden() or self.disguises_bar.text() != text:
            self.disguises_bar.show_message(
                text,
                Level.WARNING,
                details if len(disguised) > INLINE_FAILURES else (),
                "Disguised Documents",
            )

    def _disguises_dismissed(self) -> None:
        self._dismissed_disguises = frozenset(self._disguised())

    def _failures_dismissed(self) -> None:
        self._dismissed_failures = frozenset(
            (e.path, e.error) for e in self.session.documents.entries() if e.status is Status.FAILED
        )

    def _partners_changed(self) -> None:
        hidden = not self.session.documents.partners_shown()
        self.documents_view.setColumnHidden(DocumentListModel.COL_PARTNER, hidden)

    def _selected_paths(self) -> list[Path]:
        entries = self.session.documents.entries()
        rows = [i.row() for i in self.documents_view.selectionModel().selectedRows()]
        return [entries[row].path for row in rows if 0 <= row < len(entries)]

    def toggle_template(self, on: bool) -> None:
        """Mark the selected documents as templates (or as submissions again)."""
        paths = self._selected_paths()
        if paths:
            self.session.set_templates(paths, on)
        self._selection_changed()

    def _selection_changed(self) -> None:
        paths = self._selected_paths()
        self.template_action.setEnabled(bool(paths))
        self.template_action.setChecked(
            bool(paths) and all(self.session.documents.is_template(p) for p in paths)
        )

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            # dropped on the tab bar or the menus while the Folder check tab shows
            if self.tabs.currentWidget() is self.folder_check_view and not any(
                is_case_file(p) for p in paths
            ):
                self.folder_check_view.add_inputs(paths)
            else:
                self.add_paths(paths)

    # -- results -----------------------------------------------------------------------

    def _show_comparison(self, comparison: Comparison | None) -> None:
        prepared = self.session.prepared_for(comparison) if comparison is not None else None
        if self._opened is not None and self._opened.comparison is not comparison:
            self._opened = None  # something else is shown: let the opened pair go
        if prepared is None and self._opened is not None:
            prepared = self._opened
        self.view.set_comparison(comparison, prepared)
        self.stack.setCurrentWidget(self.view if comparison is not None else self.empty)
        self._comparison_actions_changed()
        if comparison is not None:
            self.setWindowTitle(f"{comparison.a.name} ↔ {comparison.b.name} — Doppel")
        else:
            self.setWindowTitle("Doppel")
        self.comparison_shown.emit(comparison)

    def _show_pairs(self, pairs: list[RankedPair]) -> None:
        self.pairs.set_pairs(pairs)
        # the larger copied share, ties in the ranking's order (the proxy's sort is stable)
        self.pairs_view.sortByColumn(PairTableModel.COL_COPIED, Qt.SortOrder.DescendingOrder)
        self.pairs_box.setVisible(bool(pairs))

    def _pair_activated(self, index: QModelIndex) -> None:
        source = self.pairs_proxy.mapToSource(index)
        a, b = self.pairs.pair(source.row()).paths
        self.session.open_pair(a, b)

    def open_folder_check_pair(self, pair: PairResult) -> None:
        """Compare a pair of the folder check in the background as the check scored it (its
        options, each document's exclusions, from its cache while the files are unchanged:
        `checked_comparison`), then show it in the Compare tab."""
        result = self.folder_check_view.result
        if result is None:
            return
        a, b = result.documents[pair.a].path, result.documents[pair.b].path
        # new documents from the cache or their files, archived ones from the index
        source = self.folder_check_view.check.documents()
        message = f"Opening {a.name} and {b.name}…"

        def op(context: TaskContext) -> PreparedView:
            context.progress(0.0, message)
            with source as documents:  # (opens the cache and the index on the worker)
                comparison = documents.comparison(
                    result, pair, progress=context.engine_progress(message, 0.0, 1.0)
                )
            return prepare_view(comparison)

        def done(prepared: PreparedView) -> None:
            self._opened = prepared
            self.tabs.setCurrentWidget(self.splitter)
            self._show_comparison(prepared.comparison)

        def error(exc: BaseException, details: str) -> None:
            text = f"{a.name} and {b.name} could not be opened: {readable_error(exc)}"
            self._job_failed(text, details)

        # a pair asked for while another opens supersedes it
        self._pair_job.run(op, done, on_progress=self._progress, on_error=error)
        self._busy_changed(self.busy)

    def _folder_check_changed(self) -> None:
        ready = self.folder_check_view.result is not None and not self.folder_check_view.busy
        self.export_csv_action.setEnabled(ready)
        self.export_html_action.setEnabled(ready)

    def _document_activated(self, index: QModelIndex) -> None:
        """Double-clicking a document opens the pair with its strongest partner (the most of
        it found in another), else its first ranked pair."""
        entry = self.session.documents.entries()[index.row()]
        strongest = self.session.documents.partner(entry.path)
        if strongest is not None:
            self.session.open_pair(entry.path, strongest.partner)
            return
        for pair in self.session.ranked:
            if entry.path in pair.paths:
                self.session.open_pair(*pair.paths)
                return

    # -- progress ----------------------------------------------------------------------

    def _job_failed(self, text: str, details: str) -> None:
        log.error("%s\n%s", text, details)
        show_error(self, "Doppel", text, details)

    @property
    def busy(self) -> bool:
        """A job the status bar reports on runs: loads, comparisons, opening a pair, a case
        saved or opened, an evidence report written."""
        return self.session.busy or self._pair_job.busy or self.cases.busy or self.evidence.busy

    def cancel_jobs(self) -> None:
        self.session.cancel()
        self._pair_job.abandon()
        self.cases.cancel()
        self.evidence.cancel()
        self._busy_changed(self.busy)

    def _busy_changed(self, _busy: bool) -> None:
        busy = self.busy  # the session's jobs or a pair being opened
        if busy:
            if not self.progress_bar.isVisible() and not self.progress_timer.isActive():
                self.progress_bar.setValue(0)
                self.progress_label.setText("Working…")
                self.progress_timer.start()
        else:
            self.progress_timer.stop()
            for widget in (self.progress_label, self.progress_bar, self.cancel_button):
                widget.hide()

    def _show_progress(self) -> None:
        if self.busy:
            for widget in (self.progress_label, self.progress_bar, self.cancel_button):
                widget.show()

    def _progress(self, fraction: float, message: str) -> None:
        self.progress_bar.setValue(int(1000 * fraction))
        if message:
            self.progress_label.setText(message)

    # -- dialogs -----------------------------------------------------------------------

    def edit_settings(self) -> None:
        dialog = SettingsDialog(
            self.settings.signature_options(),
            self.settings.match_options(),
            self.settings.exclusion_options(),
            self,
            paper=self.settings.evidence_paper(),
        )
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            self.settings.set_evidence_paper(dialog.paper_choice())
            signature, match = dialog.options()
            self.settings.set_engine_options(signature, match)
            self.settings.set_exclusion_options(dialog.exclusion_options())
            self.folder_check_view.setup.show_exclusion_settings()
            self.session.options_changed()

    def about(self) -> None:
        QMessageBox.about(
            self,
            "About Doppel",
            f"<h3>Doppel {app_version()}</h3>"
            "<p>An offline plagiarism checker for teachers: it finds the blocks of sentences "
            "two documents share with the sentence-length suffix-tree method (SL+ST) and "
            "verifies each block by the first words of its sentences, and beside them the "
            "passages copied and then edited (the same content words, reworded).</p>"
            "<p>Nothing you open leaves this computer.</p>",
        )

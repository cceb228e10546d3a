"""The Folder check tab: choose folders of submissions (and earlier years), check them all at
once, and read the result as a ranked pair table, the submissions one by one (each with the
most of it found in one other document), a similarity matrix and groups of linked documents;
open any pair side by side, export CSV, the HTML report or the evidence reports of chosen
pairs. When most pairs share one passage most of the class holds (a pasted prompt), a message
bar says so above the results and offers to check again without it. The earlier years may be
an archive index; after a check, "Add to Archive…" files its submissions in one, for the
checks of the years after.

Layout and wiring: the `SetupPanel` (`setup_panel.py`) holds what to check and how; the
`FolderCheck` controller runs the engine and the exports through the window's TaskRunner; this
view lays out the results, turns the controller's signals into widgets and the teacher's clicks
into its calls. The only thing worked out here is the time left, from the elapsed time and the
fraction done (the engine reports progress, not speed)."""

from __future__ import annotations

import html
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import (
    QByteArray,
    QDataStream,
    QItemSelectionModel,
    QModelIndex,
    QPoint,
    Qt,
    QUrl,
    Signal,
)
from PySide6.QtGui import QAction, QDesktopServices, QDragEnterEvent, QDropEvent, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTableView,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.gui.compare.colours import failed_colour
from app.gui.evidence_export import paper_for
from app.gui.folder_check.archive_add import AddToArchiveDialog, add_choices
from app.gui.folder_check.archive_summary import IndexSummary, added_text, index_exists
from app.gui.folder_check.common_hint_bar import CommonHintBar
from app.gui.folder_check.controller import EvidenceFormat, FolderCheck
from app.gui.folder_check.heatmap import SimilarityHeatmap
from app.gui.folder_check.setup_panel import DEFAULT_THRESHOLD_PERCENT, SetupPanel, SetupState
from app.gui.message_bar import Level, MessageBar
from app.gui.models.folder_check_pairs import FolderCheckPairModel, PairFilterProxy
from app.gui.models.folder_check_submissions import SubmissionFilterProxy, SubmissionModel
from app.gui.session import expand
from app.gui.settings import Settings
from app.gui.tasks import TaskRunner
from app.gui.view_state import read_state, write_state
from core.archive.add import AddResult
from core.archive.index_file import default_index_path
from core.batch.clusters import clusters, reaches
from core.batch.result import BatchResult, PairResult
from core.reports.batch_export import evidence_file_names, submissions_csv_path
from core.reports.evidence.paper import Paper
from core.reports.html import failed_names
from core.reports.wording import (
    LEFT_OUT,
    batch_left_out,
    exclusion_lines,
    percent,
    plural,
    share_text,
)

# (the name this view's saved layout has carried since the first release: kept, so a teacher's
# layout survives the rename to "folder check")
STATE_MAGIC = "doppel.batch-view"
# 4: the archive index as the earlier years; 3: the pair table's copied shares and reworded
# passages (2 and 1 restore but for the table's header: its widths belong to other columns
# now); 2: the templates and the common-text share
STATE_VERSION = 4
#: no estimate before this much time or progress: early rates say little about the whole run
ETA_MIN_SECONDS = 2.0
ETA_MIN_FRACTION = 0.05
#: what each evidence format is called in menus and file dialogs
EVIDENCE_FORMATS: dict[EvidenceFormat, tuple[str, str]] = {
    "pdf": ("PDF", "PDF files (*.pdf)"),
    "html": ("HTML", "HTML files (*.html)"),
}


def exclusions_tooltip(lines: list[str]) -> str:
    """`exclusion_lines` as a tooltip: every line (the common passages too), as rich text so
    a file name or a passage is never read as markup and long lines wrap; "" for none."""
    if not lines:
        return ""
    body = "<br>".join(html.escape(line) for line in lines)
    return f"<p style='white-space:pre-wrap'>{body}</p>"


def eta_text(elapsed: float, fraction: float) -> str:
    """The time left, said roughly ("about 40 s left"), or "" while it cannot be known."""
    if elapsed < ETA_MIN_SECONDS or fraction < ETA_MIN_FRACTION or fraction >= 1.0:
        return ""
    left = elapsed * (1.0 - fraction) / fraction
    if left < 10:
        return "a few seconds left"
    if left < 60:
        return f"about {5 * round(left / 5)} s left"
    minutes = round(left / 60)
    if minutes < 60:
        return f"about {minutes} min left"
    hours, minutes = divmod(minutes, 60)
    return f"about {hours} h {minutes} min left"


class FolderCheckView(QWidget):
    """See the module docstring. `cache_path` is the document cache's file (the platform
    cache when None); `clock` gives seconds, for the time-left estimate."""

    finished = Signal(object)  # BatchResult, once on screen
    cancelled = Signal()
    failed = Signal(str, str)  # a readable message, and details
    pair_opened = Signal(object)  # the PairResult of `result` to read side by side
    # the CSV file, the report's index.html, an evidence file or the folder of several
    exported = Signal(object)

    def __init__(
        self,
        settings: Settings,
        runner: TaskRunner,
        cache_path: Path | None = None,
        parent: QWidget | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(parent)
        self.settings = settings
        self.check = FolderCheck(runner, settings, cache_path, self)
        self._clock = clock
        self._started_at = 0.0
        # what the job in flight exports: "" (none: a check), "report" or "evidence"
        self._exporting = ""
        self.setAcceptDrops(True)

        self.setup = SetupPanel(settings, runner=runner)
        self._build_results()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 8)
        layout.setSpacing(6)
        layout.addWidget(self.setup)
        layout.addLayout(self._progress_row())
        layout.addWidget(self.hint_bar)
        layout.addWidget(self.disguises_bar)
        layout.addWidget(self.cache_bar)
        layout.addWidget(self.archive_bar)
        layout.addWidget(self.results_splitter, 1)
        self._connect()
        self._set_busy(False)
        self._show_result(None)

    # -- construction -----------------------------------------------------------------------

    def _progress_row(self) -> QHBoxLayout:
        self.progress_bar = QProgressBar()
        self.progress_bar.setRange(0, 1000)
        self.progress_bar.setTextVisible(False)
        self.progress_bar.setFixedWidth(220)
        self.progress_label = QLabel()
        self.progress_label.setTextFormat(Qt.TextFormat.PlainText)
        self.progress_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.eta_label = QLabel()
        self.eta_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        # idle, the same row says what the last check found and how the last job ended
        self.summary_label = QLabel()
        self.summary_label.setTextFormat(Qt.TextFormat.RichText)
        self.summary_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.status_label = QLabel()
        self.status_label.setTextFormat(Qt.TextFormat.RichText)
        self.status_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.status_label.setWordWrap(True)  # an error message wraps rather than widen the window
        self.status_label.setMaximumWidth(560)
        self.status_label.linkActivated.connect(lambda link: QDesktopServices.openUrl(QUrl(link)))
        row = QHBoxLayout()
        row.setSpacing(10)
        row.addWidget(self.progress_bar)
        row.addWidget(self.eta_label)
        row.addWidget(self.progress_label, 1)
        row.addWidget(self.summary_label, 1)
        row.addWidget(self.status_label)
        return row

    def _build_results(self) -> None:
        self.pairs = FolderCheckPairModel(self)
        self.proxy = PairFilterProxy(self)
        self.proxy.setSourceModel(self.pairs)
        self.pairs_view = QTableView()
        self.pairs_view.setModel(self.proxy)
        self.pairs_view.setSortingEnabled(True)
        self.pairs_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        # several pairs can be chosen at once: their evidence is exported together
        self.pairs_view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.pairs_view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.pairs_view.setAlternatingRowColors(True)
        self.pairs_view.setWordWrap(False)
        self.pairs_view.setTabKeyNavigation(False)
        self.pairs_view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.pairs_view.verticalHeader().hide()
        # compact rows: a class's pairs are read as a list, more of them fit on screen
        self.pairs_view.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.pairs_view.horizontalHeader()
        header.setHighlightSections(False)
        for column in (FolderCheckPairModel.COL_A, FolderCheckPairModel.COL_B):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        metrics = self.fontMetrics()
        for column in range(FolderCheckPairModel.COL_COPIED, len(FolderCheckPairModel.HEADERS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            title = FolderCheckPairModel.HEADERS[column]
            header.resizeSection(column, max(62, metrics.horizontalAdvance(title) + 24))
        # the larger copied share, ties in the engine's ranking (the proxy's sort is stable)
        self.pairs_view.sortByColumn(FolderCheckPairModel.COL_COPIED, Qt.SortOrder.DescendingOrder)

        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Filter by document name")
        self.filter_edit.setClearButtonEnabled(True)
        self.export_csv_button = QPushButton("Export CSV…")
        self.export_csv_button.setToolTip(
            "The listed pairs, and beside them each submission with the most of it found in "
            "another (…-submissions.csv)"
        )
        self.export_html_button = QPushButton("Export HTML Report…")
        # the evidence of the chosen pairs, in the format picked from its menu
        self.evidence_actions = {
            kind: QAction(f"Export Evidence as {label}…", self)
            for kind, (label, _) in EVIDENCE_FORMATS.items()
        }
        evidence_menu = QMenu(self)
        for kind, action in self.evidence_actions.items():
            action.triggered.connect(lambda _checked=False, k=kind: self.export_evidence(k))
            evidence_menu.addAction(action)
        self.evidence_button = QPushButton("Export Evidence…")
        self.evidence_button.setToolTip(
            "The evidence report of each selected pair, as PDF or HTML: one pair, one file; "
            "several, one file each in a folder"
        )
        self.evidence_button.setMenu(evidence_menu)
        # the check's submissions into an archive index, for the checks of later years
        self.add_to_archive_action = QAction("Add These Submissions to the Archive…", self)
        self.add_to_archive_action.setToolTip(
            "Keep these submissions in an archive index, so later years' checks compare new "
            "work with them (files already there are not added twice)"
        )
        self.add_to_archive_button = QPushButton("Add to Archive…")
        self.add_to_archive_button.setToolTip(self.add_to_archive_action.toolTip())
        tools = QHBoxLayout()
        tools.addWidget(self.filter_edit, 1)
        tools.addWidget(self.evidence_button)
        tools.addWidget(self.export_csv_button)
        tools.addWidget(self.export_html_button)
        tools.addWidget(self.add_to_archive_button)

        self.submissions = SubmissionModel(self)
        self.submissions_proxy = SubmissionFilterProxy(self)
        self.submissions_proxy.setSourceModel(self.submissions)
        self.submissions_view = QTableView()
        self.submissions_view.setModel(self.submissions_proxy)
        self.submissions_view.setSortingEnabled(True)
        self.submissions_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.submissions_view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.submissions_view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.submissions_view.setAlternatingRowColors(True)
        self.submissions_view.setWordWrap(False)
        self.submissions_view.setTabKeyNavigation(False)
        self.submissions_view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.submissions_view.verticalHeader().hide()
        self.submissions_view.verticalHeader().setDefaultSectionSize(
            self.fontMetrics().height() + 8
        )
        sub_header = self.submissions_view.horizontalHeader()
        sub_header.setHighlightSections(False)
        for column in (SubmissionModel.COL_NAME, SubmissionModel.COL_PARTNER):
            sub_header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        sub_header.setSectionResizeMode(SubmissionModel.COL_SHARE, QHeaderView.ResizeMode.Fixed)
        sub_header.resizeSection(
            SubmissionModel.COL_SHARE,
            self.fontMetrics().horizontalAdvance(SubmissionModel.HEADERS[1]) + 32,
        )
        sub_header.setSectionResizeMode(SubmissionModel.COL_PAIRS, QHeaderView.ResizeMode.Fixed)
        sub_header.resizeSection(SubmissionModel.COL_PAIRS, 56)
        self.submissions_view.sortByColumn(SubmissionModel.COL_SHARE, Qt.SortOrder.DescendingOrder)

        self.pairs_hint = _hint("Double-click a pair (or press Enter) to read it side by side.")
        self.result_tabs = QTabWidget()
        self.result_tabs.setDocumentMode(True)
        self.result_tabs.addTab(self.pairs_view, "Pairs")
        self.result_tabs.addTab(self.submissions_view, "Submissions")
        self.result_tabs.setTabToolTip(
            1, "Each submission with the most of it found in one other document"
        )
        pairs_box = QWidget()
        pairs_layout = QVBoxLayout(pairs_box)
        pairs_layout.setContentsMargins(0, 0, 0, 0)
        pairs_layout.setSpacing(4)
        pairs_layout.addLayout(tools)
        pairs_layout.addWidget(self.result_tabs, 1)
        pairs_layout.addWidget(self.pairs_hint)

        self.hint_bar = CommonHintBar()
        # submissions disguised to hide copying (look-alike letters, hidden text): said in
        # place, each also marked in the Submissions tab
        self.disguises_bar = MessageBar()
        # the document cache could not be used (a full or read-only disk, another program's
        # lock, a file that is not Doppel's): the check ran without it, and says so
        self.cache_bar = MessageBar()
        # what adding the check's submissions to an archive did
        self.archive_bar = MessageBar()

        self.heatmap = SimilarityHeatmap()
        self.clusters_tree = QTreeWidget()
        self.clusters_tree.setHeaderHidden(True)
        self.clusters_tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.failed_tree = QTreeWidget()
        self.failed_tree.setColumnCount(2)
        self.failed_tree.setHeaderLabels(["File", "Reason"])
        self.failed_tree.setRootIsDecorated(False)
        self.failed_tree.setWordWrap(False)
        self.failed_tree.header().resizeSection(0, 160)
        self.common_tree = QTreeWidget()
        self.common_tree.setColumnCount(2)
        self.common_tree.setHeaderLabels(["In", "Text"])
        self.common_tree.setRootIsDecorated(False)
        self.common_tree.setWordWrap(False)
        self.common_tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.common_tree.header().resizeSection(0, 90)
        self.common_box = _group("Left out as common text", self.common_tree)
        self.heatmap_box = _group("Similarity matrix", self.heatmap)
        self.clusters_box = _group("Groups linked at the threshold", self.clusters_tree)
        self.failed_box = _group("Could not be read", self.failed_tree)

        # the pairs and the unreadable files (which need width for their reasons) on the left;
        # the matrix and the groups it outlines on the right
        self.pairs_splitter = QSplitter(Qt.Orientation.Vertical)
        self.pairs_splitter.addWidget(pairs_box)
        self.pairs_splitter.addWidget(self.failed_box)
        self.pairs_splitter.setStretchFactor(0, 4)
        self.pairs_splitter.setStretchFactor(1, 1)
        self.pairs_splitter.setChildrenCollapsible(False)
        self.side_splitter = QSplitter(Qt.Orientation.Vertical)
        self.side_splitter.addWidget(self.heatmap_box)
        self.side_splitter.addWidget(self.clusters_box)
        self.side_splitter.addWidget(self.common_box)
        self.side_splitter.setStretchFactor(0, 3)
        self.side_splitter.setStretchFactor(1, 2)
        self.side_splitter.setStretchFactor(2, 2)
        self.side_splitter.setChildrenCollapsible(False)

        self.results_splitter = QSplitter(Qt.Orientation.Horizontal)
        self.results_splitter.addWidget(self.pairs_splitter)
        self.results_splitter.addWidget(self.side_splitter)
        self.results_splitter.setStretchFactor(0, 5)
        self.results_splitter.setStretchFactor(1, 4)
        self.results_splitter.setChildrenCollapsible(False)
        self.results_splitter.setSizes([700, 560])

    def _connect(self) -> None:
        check = self.check
        check.progressed.connect(self._progress)
        check.finished.connect(self._finished)
        check.cancelled.connect(self._cancelled)
        check.failed.connect(self._failed)
        check.exported.connect(self._exported)
        check.busy_changed.connect(self._set_busy)
        self.setup.start_button.clicked.connect(self.start)
        self.setup.cancel_button.clicked.connect(self.cancel)
        self.setup.threshold_spin.valueChanged.connect(self._threshold_changed)
        self.filter_edit.textChanged.connect(self.proxy.set_text)
        self.pairs_view.activated.connect(self._open_index)  # double-click or Enter
        self.pairs_view.selectionModel().currentRowChanged.connect(self._row_changed)
        self.heatmap.pair_clicked.connect(self.select_pair)
        self.heatmap.pair_activated.connect(self.open_pair)
        self.export_csv_button.clicked.connect(lambda: self.export_csv())
        self.export_html_button.clicked.connect(lambda: self.export_html())
        check.evidence_exported.connect(self._evidence_exported)
        check.archive_added.connect(self._archive_added)
        self.add_to_archive_button.clicked.connect(self.add_to_archive_action.trigger)
        self.add_to_archive_action.triggered.connect(lambda: self.add_to_archive())
        self.filter_edit.textChanged.connect(self.submissions_proxy.set_text)
        self.submissions_view.activated.connect(self._open_submission)
        self.pairs_view.selectionModel().selectionChanged.connect(self._update_evidence)
        self.submissions_view.selectionModel().selectionChanged.connect(self._update_evidence)
        self.result_tabs.currentChanged.connect(self._tab_changed)
        self.pairs_view.customContextMenuRequested.connect(
            lambda point: self._context_menu(self.pairs_view, point)
        )
        self.submissions_view.customContextMenuRequested.connect(
            lambda point: self._context_menu(self.submissions_view, point)
        )
        self.hint_bar.leave_out.connect(self.leave_out_common_text)

    # -- inputs -----------------------------------------------------------------------------

    def add_inputs(self, paths: Iterable[str | Path]) -> None:
        self.setup.inputs.add_paths(paths)

    def add_archives(self, paths: Iterable[str | Path]) -> None:
        self.setup.archives.add_paths(paths)

    def threshold(self) -> float:
        """The pairs listed and drawn: those whose copied share is at or above this (set in the
        setup; `core.batch.clusters.reaches`)."""
        return self.setup.threshold()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if not paths:
            return
        event.acceptProposedAction()
        point = self.setup.mapFrom(self, event.position().toPoint())
        self.setup.target_at(point).add_paths(paths)

    # -- running ----------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self.check.busy

    @property
    def result(self) -> BatchResult | None:
        return self.check.result

    def start(self) -> bool:
        """Check the chosen folders; False when there is nothing to check or a job runs."""
        setup = self.setup
        inputs = setup.inputs.paths()
        if self.check.busy:
            return False
        if not inputs:
            self._status("Add a folder of submissions first.")
            return False
        if not setup.ready():  # an index that cannot be used: its list says why
            self._status("Choose other earlier years: the archive index cannot be used.")
            return False
        self._show_result(None)
        self.archive_bar.hide()
        self._started_at = self._clock()
        self._exporting = ""
        self._status("")
        self.progress_label.setText("Starting…")
        return self.check.start(
            inputs,
            setup.archives.folders(),
            setup.student_folders.isChecked(),
            setup.exclusion_options(),
            expand(setup.templates.paths()),
            index=setup.index(),
        )

    def cancel(self) -> None:
        self.check.cancel()

    def _set_busy(self, busy: bool) -> None:
        for widget in (self.progress_bar, self.progress_label, self.eta_label):
            widget.setVisible(busy)
        self.status_label.setVisible(not busy)
        self.summary_label.setVisible(not busy)
        self.setup.set_busy(busy)
        has_result = self.check.result is not None
        self.export_csv_button.setEnabled(not busy and has_result)
        self.export_html_button.setEnabled(not busy and has_result)
        self._update_add_to_archive(busy)
        self.hint_bar.leave_out_button.setEnabled(not busy)
        self._update_evidence()
        if busy:
            self.progress_bar.setRange(0, 0 if self._exporting == "report" else 1000)
            self.progress_bar.setValue(0)
            self.eta_label.clear()
        else:
            self.progress_label.clear()
            self._exporting = ""

    def _progress(self, fraction: float, message: str) -> None:
        if self._exporting != "report":
            self.progress_bar.setValue(round(1000 * fraction))
            self.eta_label.setText(eta_text(self._clock() - self._started_at, fraction))
        if message:
            self.progress_label.setText(message)

    def _finished(self, result: BatchResult) -> None:
        self._show_result(result)
        seconds = self._clock() - self._started_at
        took = f"{seconds:.1f} s" if seconds < 60 else f"{seconds / 60:.0f} min"
        self._status(f"Checked in {took}.")
        self.finished.emit(result)

    def _cancelled(self) -> None:
        self._status(
            {
                "": "Cancelled.",
                "report": "The report was not written.",
                "evidence": "The evidence export was cancelled.",
                "archive": "Adding to the archive was cancelled; what it had filed stays.",
            }[self._exporting]
        )
        self.cancelled.emit()

    def _failed(self, text: str, details: str) -> None:
        self._status(text, error=True)
        self.failed.emit(text, details)

    def _status(self, text: str, *, error: bool = False, rich: bool = False) -> None:
        if not rich:
            text = html.escape(text)
        if error:
            colour = failed_colour(self.palette()).name()
            text = f'<span style="color:{colour}">{text}</span>'
        self.status_label.setText(text)
        self.status_label.setToolTip("")

    # -- results ----------------------------------------------------------------------------

    def _show_result(self, result: BatchResult | None) -> None:
        self.pairs.set_result(result)
        self.submissions.set_result(result, self.pairs.names)
        self.hint_bar.set_hint(result.common_hint if result is not None else None)
        self._show_disguises(result)
        self._show_cache_notices(self.check.cache_notices if result is not None else [])
        self.proxy.set_threshold(self.threshold())
        self.heatmap.set_result(result, self.pairs.names, self.threshold())
        self._fill_failed(result)
        self._fill_common(result)
        self._refresh_threshold_views()
        has_result = result is not None and not self.check.busy
        self.export_csv_button.setEnabled(has_result)
        self.export_html_button.setEnabled(has_result)
        self._update_add_to_archive()
        self._update_evidence()

    def _show_disguises(self, result: BatchResult | None) -> None:
        """Name the submissions disguised to hide copying, with what was found in each."""
        names = self.pairs.names
        disguised = (
            [(names[k], d) for k, d in enumerate(result.documents) if d.tampering]
            if result is not None
            else []
        )
        if not disguised:
            self.disguises_bar.hide()
            return
        shown = ", ".join(f"<b>{html.escape(name)}</b>" for name, _ in disguised[:3])
        more = f" and {len(disguised) - 3} more" if len(disguised) > 3 else ""
        first = disguised[0][1].tampering[0].message
        text = (
            f"{shown}{more}: {html.escape(first)}."
            if len(disguised) == 1 and len(disguised[0][1].tampering) == 1
            else f"{plural(len(disguised), 'submission')} disguised to hide copying "
            f"(undone before the check): {shown}{more}."
        )
        details = [f"{name}: {t.message}" for name, d in disguised for t in d.tampering]
        self.disguises_bar.show_message(
            text, Level.WARNING, details if len(details) > 1 else (), "Disguised Submissions"
        )

    def _show_cache_notices(self, notices: list[str]) -> None:
        if not notices:
            self.cache_bar.hide()
            return
        text = html.escape(notices[0][:1].upper() + notices[0][1:]) + "."
        if len(notices) > 1:
            text += f" ({len(notices) - 1} more: Show All)"
        self.cache_bar.show_message(
            text,
            Level.INFORMATION,
            notices if len(notices) > 1 else (),
            "The Document Cache",
        )

    def _threshold_changed(self, _value: int) -> None:
        self.proxy.set_threshold(self.threshold())
        self.heatmap.set_threshold(self.threshold())
        self._refresh_threshold_views()

    def _refresh_threshold_views(self) -> None:
        result = self.pairs.result
        self._fill_clusters(result)
        self._title_tabs()
        self.summary_label.setText(self._summary(result))
        # what was left out and why, in full (the common passages too), where the summary
        # names only the count
        lines = exclusion_lines(result) if result is not None else []
        archive = self.check.archive if result is not None else None
        if archive is not None:  # the keys led to these: the rest shares nothing with the class
            lines.insert(
                0,
                f"{self.check.archive_compared:,} of the archive's "
                f"{plural(archive.documents, 'document')} shared enough with the submissions "
                f"to be compared ({archive.path}).",
            )
        self.summary_label.setToolTip(exclusions_tooltip(lines))

    def _summary(self, result: BatchResult | None) -> str:
        if result is None:
            return "Add folders of submissions above, then Start Check."
        threshold = self.threshold()
        listed = sum(1 for p in result.pairs if reaches(p, threshold))
        reworded_only = sum(1 for p in result.pairs if p.flagged and not p.pieces)
        parts = [f"<b>{plural(len(result.pairs), 'pair')}</b> with copied text found"]
        if threshold > 0:
            parts[0] += f" (<b>{listed:,}</b> at {share_text(threshold)} or more)"
        if reworded_only:
            parts[0] += f", {reworded_only:,} of them edited only"
        parts.append(plural(len(result.documents), "document"))
        if result.failed:
            parts.append(f"{len(result.failed):,} unreadable")
        parts.append(
            f"{result.compared_pairs:,} of {result.possible_pairs:,} pairs compared in full"
        )
        left = batch_left_out(result)
        if left is not None:
            parts.append(f"{plural(left.sentences, 'sentence')} {LEFT_OUT.lower()}")
        archive = self.check.archive
        if archive is not None:  # the archive is not listed whole: say what it was
            years = f" ({archive.years})" if archive.years else ""
            parts.append(f"against the archive's {plural(archive.documents, 'document')}{years}")
        return " · ".join(parts)

    def _fill_clusters(self, result: BatchResult | None) -> None:
        self.clusters_tree.clear()
        if result is None:
            return
        names = self.pairs.names
        threshold = self.threshold()
        groups = clusters(result.pairs, threshold)
        member_of = {index: number for number, group in enumerate(groups) for index in group}
        best: dict[int, float] = {}
        for pair in result.pairs:  # ranked: a group's first pair is its strongest link
            home = member_of.get(pair.a)
            if home is not None and home not in best and member_of.get(pair.b) == home:
                best[home] = pair.copied
        for number, group in enumerate(groups):
            title = (
                f"Group {number + 1}: {plural(len(group), 'document')}, "
                f"up to {percent(best.get(number, 0.0))}"
            )
            top = QTreeWidgetItem([title])
            for index in group:
                doc = result.documents[index]
                child = QTreeWidgetItem([names[index] + (" (earlier year)" if doc.archive else "")])
                child.setToolTip(0, str(doc.path))
                top.addChild(child)
            self.clusters_tree.addTopLevelItem(top)
            top.setExpanded(True)
        if not groups:
            empty = QTreeWidgetItem(["No documents are linked at this threshold."])
            empty.setDisabled(True)
            self.clusters_tree.addTopLevelItem(empty)
        self.clusters_box.setTitle(f"Groups linked at the threshold ({len(groups)})")

    def _fill_failed(self, result: BatchResult | None) -> None:
        self.failed_tree.clear()
        failed = result.failed if result is not None else ()
        names = failed_names(result) if result is not None else []
        for name, item in zip(names, failed, strict=True):
            row = QTreeWidgetItem([name, item.error])
            row.setToolTip(0, str(item.path))
            row.setToolTip(1, item.error)
            self.failed_tree.addTopLevelItem(row)
        self.failed_box.setTitle(f"Could not be read ({len(failed)})")
        self.failed_box.setVisible(bool(failed))

    def _fill_common(self, result: BatchResult | None) -> None:
        """The common text left out (when that exclusion was on), most documents first."""
        self.common_tree.clear()
        on = result is not None and result.exclusions.common_share is not None
        self.common_box.setVisible(on)
        if result is None or not on:
            return
        for passage in result.common_text:
            text = passage.text or "(its text could not be read again)"
            row = QTreeWidgetItem([f"{passage.documents} of {result.common_counted}", text])
            row.setToolTip(1, text)
            self.common_tree.addTopLevelItem(row)
        if not result.common_text:
            empty = QTreeWidgetItem(["", "No text was found in that many submissions."])
            empty.setDisabled(True)
            self.common_tree.addTopLevelItem(empty)
        self.common_box.setTitle(f"Left out as common text ({len(result.common_text)})")

    def common_passages(self) -> list[tuple[str, str]]:
        """(in how many, text) of each listed common passage."""
        return [(row.text(0), row.text(1)) for row in _children(self.common_tree)]

    def failed_files(self) -> list[tuple[str, str]]:
        """(name, reason) of each file listed as unreadable."""
        return [(row.text(0), row.text(1)) for row in _children(self.failed_tree)]

    def cluster_names(self) -> list[list[str]]:
        """The listed groups, each as its members' names."""
        groups = [
            [member.text(0) for member in _children(g)] for g in _children(self.clusters_tree)
        ]
        return [group for group in groups if group]

    # -- pairs ------------------------------------------------------------------------------

    def select_pair(self, pair: PairResult) -> None:
        """Select `pair` in the table (clearing the name filter if it hides it)."""
        row = self.pairs.row_of(pair)
        if row < 0:
            return
        index = self.proxy.mapFromSource(self.pairs.index(row, 0))
        if not index.isValid() and self.proxy.text():
            self.filter_edit.clear()
            index = self.proxy.mapFromSource(self.pairs.index(row, 0))
        if not index.isValid():
            return
        self.pairs_view.selectionModel().setCurrentIndex(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.pairs_view.scrollTo(index)

    def selected_pair(self) -> PairResult | None:
        return self.proxy.pair(self.pairs_view.currentIndex())

    def open_pair(self, pair: PairResult) -> None:
        if self.pairs.result is not None:
            self.pair_opened.emit(pair)

    def _open_index(self, index: QModelIndex) -> None:
        pair = self.proxy.pair(index)
        if pair is not None:
            self.open_pair(pair)

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.heatmap.set_selected(self.proxy.pair(current))

    # -- exports ----------------------------------------------------------------------------

    def export_csv(self, path: str | Path | None = None) -> bool:
        """Write the listed pairs (at or above the threshold) as CSV; asks where if no `path`."""
        if self.check.result is None:
            return False
        if path is None:
            start = str(Path(self.settings.last_folder()) / "folder-check.csv")
            chosen, _ = QFileDialog.getSaveFileName(
                self, "Export CSV", start, "CSV files (*.csv);;All files (*)"
            )
            if not chosen:
                return False
            path = Path(chosen) if Path(chosen).suffix else Path(chosen).with_suffix(".csv")
        path = Path(path)
        self.settings.set_last_folder(path.parent)
        return self.check.export_csv(path, self.threshold())

    def export_html(self, folder: str | Path | None = None) -> bool:
        """Write the HTML report into `folder` in the background; asks where if no folder."""
        if self.check.result is None or self.check.busy:
            return False
        if folder is None:
            chosen = QFileDialog.getExistingDirectory(
                self,
                "Export HTML Report (into an empty folder, or over an earlier report)",
                self.settings.last_folder(),
            )
            if not chosen:
                return False
            folder = chosen
        folder = Path(folder)
        self.settings.set_last_folder(folder)
        self._exporting = "report"
        self._started_at = self._clock()
        if not self.check.export_html(folder, self.threshold()):
            self._exporting = ""
            return False
        return True

    def _exported(self, path: Path) -> None:
        self._exporting = ""
        url = QUrl.fromLocalFile(str(path)).toString()
        saved = f'Saved <a href="{url}">{html.escape(path.name)}</a>'
        beside = submissions_csv_path(path)
        if path.suffix.lower() == ".csv" and beside.exists():
            other = QUrl.fromLocalFile(str(beside)).toString()
            saved += f' and <a href="{other}">{html.escape(beside.name)}</a>'
        self._status(saved, rich=True)
        self.status_label.setToolTip(str(path))
        self.exported.emit(path)

    # -- evidence ---------------------------------------------------------------------------

    def selected_pairs(self) -> list[PairResult]:
        """The pairs chosen in the tab on screen, in its order: the selected pairs, or the
        pairs of the selected submissions with their strongest partners (each pair once)."""
        if self.result_tabs.currentWidget() is self.submissions_view:
            view, pair_of = self.submissions_view, self.submissions_proxy.pair
        else:
            view, pair_of = self.pairs_view, self.proxy.pair
        rows = sorted(view.selectionModel().selectedRows(), key=lambda index: index.row())
        found: list[PairResult] = []
        for index in rows:
            pair = pair_of(index)
            if pair is not None and all(pair is not known for known in found):
                found.append(pair)
        return found

    def export_evidence(
        self,
        file_format: EvidenceFormat = "pdf",
        target: str | Path | None = None,
        pairs: Iterable[PairResult] | None = None,
    ) -> bool:
        """Export the evidence report of each of `pairs` (by default the selected ones) in
        the background: one pair to the file `target`, several into the folder `target`, one
        file each named from both documents; asks where when no `target`."""
        chosen = list(pairs) if pairs is not None else self.selected_pairs()
        result = self.check.result
        if result is None or self.check.busy or not chosen:
            return False
        label, pattern = EVIDENCE_FORMATS[file_format]
        suffix = f".{file_format}"
        names = self.pairs.names
        files = evidence_file_names([(names[p.a], names[p.b]) for p in chosen], suffix)
        last = Path(self.settings.last_folder())
        if len(chosen) == 1:
            if target is None:
                picked, _ = QFileDialog.getSaveFileName(
                    self, f"Export Evidence as {label}", str(last / files[0]), pattern
                )
                if not picked:
                    return False
                target = picked
            path = Path(target)
            if path.suffix.lower() != suffix:
                path = path.with_name(path.name + suffix)
            paths = [path]
            self.settings.set_last_folder(path.parent)
        else:
            if target is None:
                picked = QFileDialog.getExistingDirectory(
                    self,
                    f"Export Evidence of {len(chosen)} Pairs as {label} (one file each)",
                    str(last),
                )
                if not picked:
                    return False
                target = picked
            folder = Path(target)
            if self._inside_inputs(folder):
                self._status(
                    "Evidence is not written into a folder being checked: the next check "
                    "would read the reports as submissions. Choose another folder."
                )
                return False
            existing = [p.name for p in folder.iterdir()] if folder.is_dir() else []
            pairs_named = [(names[p.a], names[p.b]) for p in chosen]
            paths = [folder / name for name in evidence_file_names(pairs_named, suffix, existing)]
            self.settings.set_last_folder(folder)
        self._exporting = "evidence"
        self._started_at = self._clock()
        paper = Paper(paper_for(self.settings))  # the setting, else the locale's custom
        if not self.check.export_evidence(chosen, paths, file_format, paper=paper):
            self._exporting = ""
            return False
        return True

    def _inside_inputs(self, folder: Path) -> bool:
        """Whether `folder` is, or lies inside, a folder the check read."""
        request = self.check.request
        if request is None:
            return False
        here = folder.resolve()
        checked = [p.resolve() for p in (*request.inputs, *request.archives) if p.is_dir()]
        return any(here == p or p in here.parents for p in checked)

    def _evidence_exported(self, paths: list[Path]) -> None:
        self._exporting = ""
        if not paths:  # every pair failed: the controller's message says why
            return
        if len(paths) == 1:
            url = QUrl.fromLocalFile(str(paths[0])).toString()
            self._status(f'Saved <a href="{url}">{html.escape(paths[0].name)}</a>', rich=True)
            self.status_label.setToolTip(str(paths[0]))
            self.exported.emit(paths[0])
            return
        folder = paths[0].parent if paths else Path()
        url = QUrl.fromLocalFile(str(folder)).toString()
        self._status(
            f"Saved {plural(len(paths), 'evidence report')} in "
            f'<a href="{url}">{html.escape(folder.name or str(folder))}</a>',
            rich=True,
        )
        self.status_label.setToolTip("\n".join(str(p) for p in paths))
        self.exported.emit(folder)

    def _update_evidence(self, *_args: object) -> None:
        chosen = len(self.selected_pairs()) if self.check.result is not None else 0
        ready = chosen > 0 and not self.check.busy
        self.evidence_button.setEnabled(ready)
        for action in self.evidence_actions.values():
            action.setEnabled(ready)
        self.evidence_button.setText(
            f"Export Evidence ({chosen})…" if chosen > 1 else "Export Evidence…"
        )

    def _context_menu(self, view: QTableView, point: QPoint) -> None:
        index = view.indexAt(point)
        if not index.isValid():
            return
        menu = QMenu(self)
        open_action = menu.addAction("Open Side by Side")
        open_action.triggered.connect(
            lambda: (
                self._open_submission(index)
                if view is self.submissions_view
                else self._open_index(index)
            )
        )
        menu.addSeparator()
        for action in self.evidence_actions.values():
            menu.addAction(action)
        menu.popup(view.viewport().mapToGlobal(point))
        self.context_menu = menu  # (kept for tests)

    # -- the archive ------------------------------------------------------------------------

    def _update_add_to_archive(self, busy: bool | None = None) -> None:
        """Offered once a check finished, while no job runs (`busy`: as just announced)."""
        busy = self.check.busy if busy is None else busy
        ready = self.check.result is not None and not busy
        self.add_to_archive_action.setEnabled(ready)
        self.add_to_archive_button.setEnabled(ready)

    def add_to_archive(self, index: str | Path | None = None) -> bool:
        """Add the finished check's submissions to the archive index at `index` (made there if
        there is none) in the background; asks which index when none is given: the one the
        check was against, the default one, or another file."""
        result, request = self.check.result, self.check.request
        if result is None or request is None or self.check.busy:
            return False
        if index is None:
            index = self._choose_archive(sum(1 for d in result.documents if not d.archive))
            if index is None:
                return False
        self.archive_bar.hide()
        self._exporting = "archive"
        self._started_at = self._clock()
        if not self.check.add_to_archive(Path(index).absolute()):
            self._exporting = ""
            return False
        return True

    def _choose_archive(self, submissions: int) -> Path | None:
        """Which index the submissions go to (the question confirms, with their count)."""
        in_use = self.check.request.index if self.check.request is not None else None
        summary = self.setup.archives.summary()
        known = summary if summary is not None and summary.path == in_use else None
        if in_use is not None and known is None:
            known = IndexSummary(in_use)
        default = default_index_path()
        choices = add_choices(in_use, default, index_exists(default))
        dialog = AddToArchiveDialog(submissions, choices, known, self)
        dialog.exec()
        choice = dialog.choice()
        if choice is None:
            return None
        if choice.index is not None:
            return choice.index
        picked, _ = QFileDialog.getSaveFileName(
            self,
            "Add to Which Archive Index? (an existing one, or a new file)",
            str(Path(self.settings.last_folder()) / "archive.sqlite3"),
            "Archive indexes (*.sqlite3);;All files (*)",
            options=QFileDialog.Option.DontConfirmOverwrite,
        )
        if not picked:
            return None
        path = Path(picked)
        self.settings.set_last_folder(path.parent)
        return path if path.suffix else path.with_suffix(".sqlite3")

    def _archive_added(self, added: AddResult) -> None:
        self._exporting = ""
        failed = [f"{f.path}: {f.error}" for f in added.failed]
        self.archive_bar.show_message(
            html.escape(added_text(added)),
            Level.WARNING if failed else Level.INFORMATION,
            failed,
            "Not Added to the Archive",
        )
        self._status("")
        self.archive_bar.setToolTip(str(added.info.path))
        if self.setup.index() == added.info.path:  # the list's line counts them now
            self.setup.show_index_summary(IndexSummary(added.info.path, added.info))

    # -- the passage most of the class shares ----------------------------------------------

    def leave_out_common_text(self) -> bool:
        """Check again, leaving out text common to the class at the share the message bar
        suggested (the setup's common-text option, ticked and set, so the teacher sees it)."""
        result = self.check.result
        hint = result.common_hint if result is not None else None
        if hint is None or self.check.busy:
            return False
        self.setup.common_check.setChecked(True)
        self.setup.common_spin.setValue(round(hint.share * 100))
        self.hint_bar.hide()
        return self.start()

    # -- submissions ------------------------------------------------------------------------

    def _open_submission(self, index: QModelIndex) -> None:
        pair = self.submissions_proxy.pair(index)
        if pair is not None:
            self.open_pair(pair)

    def _tab_changed(self, _index: int) -> None:
        on_pairs = self.result_tabs.currentWidget() is self.pairs_view
        self.pairs_hint.setText(
            "Double-click a pair (or press Enter) to read it side by side."
            if on_pairs
            else "Double-click a submission to read it beside the document it shares most with."
        )
        self._update_evidence()

    def _title_tabs(self) -> None:
        listed = self.proxy.rowCount() if self.pairs.result is not None else 0
        documents = self.submissions.rowCount()
        self.result_tabs.setTabText(0, f"Pairs ({listed:,})" if self.pairs.result else "Pairs")
        self.result_tabs.setTabText(
            1, f"Submissions ({documents:,})" if self.submissions.result else "Submissions"
        )

    # -- state ------------------------------------------------------------------------------

    def save_state(self) -> QByteArray:
        """Splitters, the table header, the threshold, the mode and the folders, for QSettings."""
        state, stream = write_state(
            STATE_MAGIC,
            STATE_VERSION,
            (
                self.results_splitter.saveState(),
                self.side_splitter.saveState(),
                self.pairs_splitter.saveState(),
                self.pairs_view.horizontalHeader().saveState(),
            ),
        )
        self.setup.state().write(stream)
        return state

    def restore_state(self, state: QByteArray) -> bool:
        """Restore what `save_state` wrote; False (and nothing changed) if it is not that."""
        found = None
        for version in (STATE_VERSION, 3, 2, 1):
            found = read_state(state, STATE_MAGIC, version, 4)
            if found is not None:
                break
        if found is None:
            return False
        parts, stream = found
        setup = SetupState.read(stream, version)
        if stream.status() != QDataStream.Status.Ok:
            return False
        results, side, pairs, header = parts
        self.results_splitter.restoreState(results)
        self.side_splitter.restoreState(side)
        self.pairs_splitter.restoreState(pairs)
        if version >= 3:
            self.pairs_view.horizontalHeader().restoreState(header)
        else:  # saved before reworded passages: the threshold was a Jaccard, not a copied share
            setup = replace(setup, threshold_percent=DEFAULT_THRESHOLD_PERCENT)
        self.setup.restore(setup)
        return True


def _children(parent: QTreeWidget | QTreeWidgetItem) -> list[QTreeWidgetItem]:
    item = parent.invisibleRootItem() if isinstance(parent, QTreeWidget) else parent
    found = (item.child(k) for k in range(item.childCount()))
    return [child for child in found if child is not None]


def _hint(text: str) -> QLabel:
    label = QLabel(text)
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    return label


def _group(title: str, content: QWidget) -> QGroupBox:
    box = QGroupBox(title)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(6, 6, 6, 6)
    layout.addWidget(content)
    return box

"""The Folder check tab: choose folders of submissions (and earlier years), check them all at
once, and read the result as a ranked pair table, a similarity matrix and groups of linked
documents; open any pair side by side, export CSV or the HTML report.

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
    Qt,
    QUrl,
    Signal,
)
from PySide6.QtGui import QDesktopServices, QDragEnterEvent, QDropEvent, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTableView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.gui.compare.colours import failed_colour
from app.gui.folder_check.controller import FolderCheck
from app.gui.folder_check.heatmap import SimilarityHeatmap
from app.gui.folder_check.setup_panel import DEFAULT_THRESHOLD_PERCENT, SetupPanel, SetupState
from app.gui.models.folder_check_pairs import FolderCheckPairModel, PairFilterProxy
from app.gui.session import expand
from app.gui.settings import Settings
from app.gui.tasks import TaskRunner
from app.gui.view_state import read_state, write_state
from core.batch.clusters import clusters, reaches
from core.batch.result import BatchResult, PairResult
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
# 3: the pair table's copied shares and reworded passages (2 and 1 restore but for the table's
# header: its widths belong to other columns now); 2: the templates and the common-text share
STATE_VERSION = 3
#: no estimate before this much time or progress: early rates say little about the whole run
ETA_MIN_SECONDS = 2.0
ETA_MIN_FRACTION = 0.05


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
    pair_opened = Signal(object, object)  # the two documents' paths
    exported = Signal(object)  # the CSV file, or the report's index.html

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
        self._exporting = False
        self.setAcceptDrops(True)

        self.setup = SetupPanel(settings)
        self._build_results()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 8)
        layout.setSpacing(6)
        layout.addWidget(self.setup)
        layout.addLayout(self._progress_row())
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
        self.pairs_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
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
        for column in range(FolderCheckPairModel.COL_COPIED, len(FolderCheckPairModel.HEADERS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(column, 62)
        # the larger copied share, ties in the engine's ranking (the proxy's sort is stable)
        self.pairs_view.sortByColumn(FolderCheckPairModel.COL_COPIED, Qt.SortOrder.DescendingOrder)

        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Filter by document name")
        self.filter_edit.setClearButtonEnabled(True)
        self.export_csv_button = QPushButton("Export CSV…")
        self.export_html_button = QPushButton("Export HTML Report…")
        tools = QHBoxLayout()
        tools.addWidget(self.filter_edit, 1)
        tools.addWidget(self.export_csv_button)
        tools.addWidget(self.export_html_button)
        pairs_box = QWidget()
        pairs_layout = QVBoxLayout(pairs_box)
        pairs_layout.setContentsMargins(0, 0, 0, 0)
        pairs_layout.setSpacing(4)
        pairs_layout.addLayout(tools)
        pairs_layout.addWidget(self.pairs_view, 1)
        pairs_layout.addWidget(
            _hint("Double-click a pair (or press Enter) to read it side by side.")
        )

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
        self._show_result(None)
        self._started_at = self._clock()
        self._exporting = False
        self._status("")
        self.progress_label.setText("Starting…")
        return self.check.start(
            inputs,
            setup.archives.paths(),
            setup.student_folders.isChecked(),
            setup.exclusion_options(),
            expand(setup.templates.paths()),
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
        if busy:
            self.progress_bar.setRange(0, 0 if self._exporting else 1000)
            self.progress_bar.setValue(0)
            self.eta_label.clear()
        else:
            self.progress_label.clear()
            self._exporting = False

    def _progress(self, fraction: float, message: str) -> None:
        if not self._exporting:
            self.progress_bar.setValue(round(1000 * fraction))
            self.eta_label.setText(eta_text(self._clock() - self._started_at, fraction))
        if message:
            self.progress_label.setText(message)

    def _finished(self, result: BatchResult) -> None:
        self._show_result(result)
        seconds = self._clock() - self._started_at
        self._status(
            f"Checked in {seconds:.1f} s."
            if seconds < 60
            else f"Checked in {seconds / 60:.0f} min."
        )
        self.finished.emit(result)

    def _cancelled(self) -> None:
        self._status("Cancelled." if not self._exporting else "The report was not written.")
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
        self.proxy.set_threshold(self.threshold())
        self.heatmap.set_result(result, self.pairs.names, self.threshold())
        self._fill_failed(result)
        self._fill_common(result)
        self._refresh_threshold_views()
        has_result = result is not None and not self.check.busy
        self.export_csv_button.setEnabled(has_result)
        self.export_html_button.setEnabled(has_result)

    def _threshold_changed(self, _value: int) -> None:
        self.proxy.set_threshold(self.threshold())
        self.heatmap.set_threshold(self.threshold())
        self._refresh_threshold_views()

    def _refresh_threshold_views(self) -> None:
        result = self.pairs.result
        self._fill_clusters(result)
        self.summary_label.setText(self._summary(result))
        # what was left out and why, in full (the common passages too), where the summary
        # names only the count
        lines = exclusion_lines(result) if result is not None else []
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
        result = self.pairs.result
        if result is not None:
            self.pair_opened.emit(result.documents[pair.a].path, result.documents[pair.b].path)

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
                "Export HTML Report (index.html and a pairs folder are written into it)",
                self.settings.last_folder(),
            )
            if not chosen:
                return False
            folder = chosen
        folder = Path(folder)
        self.settings.set_last_folder(folder)
        self._exporting = True
        self._started_at = self._clock()
        if not self.check.export_html(folder, self.threshold()):
            self._exporting = False
            return False
        return True

    def _exported(self, path: Path) -> None:
        self._exporting = False
        url = QUrl.fromLocalFile(str(path)).toString()
        self._status(f'Saved <a href="{url}">{html.escape(path.name)}</a>', rich=True)
        self.status_label.setToolTip(str(path))
        self.exported.emit(path)

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
        for version in (STATE_VERSION, 2, 1):
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
        if version == STATE_VERSION:
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

"""The Folder check tab's setup panel: what to check (folders of submissions, earlier years,
templates), how (one subfolder per student, the threshold, what to leave out) and the Start
and Cancel buttons.

The earlier years are folders, or one archive index (`EarlierYears`): a check reads either,
never both — the engine checks against one index (`core.archive.check`), and folders worth
keeping beside an index belong in it (`doppel archive add`, or "Add to Archive…" after a
check). An index stands in the list as one line, "Archive: 12,345 documents, 2019–2025", read
on a worker; one that cannot be used says why in words, and Start waits for another choice.

It holds the widgets and reads them (`exclusion_options`, `state`); the Folder check view
composes it with the results and starts the checks. Quotations and references are one setting
with the Compare tab's: ticking one here saves it and emits `exclusions_changed`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from PySide6.QtCore import QDataStream, QPoint, Qt, Signal
from PySide6.QtGui import QBrush, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QSpinBox,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from app.gui.compare.colours import failed_colour
from app.gui.folder_check.archive_summary import (
    IndexSummary,
    index_exists,
    other_settings,
    read_summary,
)
from app.gui.settings import Settings
from app.gui.tasks import LatestTask, TaskRunner
from core.archive.index_file import default_index_path
from core.documents.extract import SUPPORTED_SUFFIXES
from core.options import ExclusionOptions

DEFAULT_THRESHOLD_PERCENT = 0  # as `doppel batch`: every pair with copied text found
DEFAULT_COMMON_PERCENT = 50  # "more than half of the submissions", when common text is left out

MODE_ALL = "Every submission is compared with every other."
MODE_ARCHIVE = (
    "Submissions are compared with each other and with earlier years, "
    "earlier years not with each other."
)
STUDENT_NOTE = " A student's own files are not compared."
FILE_FILTER = "Documents ({})".format(" ".join(f"*{s}" for s in sorted(SUPPORTED_SUFFIXES)))
INDEX_FILTER = "Archive indexes (*.sqlite3);;All files (*)"
EARLIER_HINT = "Not compared with each other. Folders, or one archive index (it holds its years)."
#: where a list's item keeps its path (its text may be a summary instead)
PATH_ROLE = Qt.ItemDataRole.UserRole
#: the IndexSummary of the archive index's item (None on folders' items)
SUMMARY_ROLE = Qt.ItemDataRole.UserRole + 1


class PathList(QWidget):
    """A titled list of folders (and files) with Add and Remove buttons."""

    def __init__(self, title: str, hint: str, *, files: bool = False) -> None:
        super().__init__()
        self.title = QLabel(f"<b>{title}</b>")
        self.hint = QLabel(hint)
        self.hint.setWordWrap(True)
        self.hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.list.setMinimumHeight(60)
        self.add_folder_button = QPushButton("Add Folder…")
        self.add_files_button = QPushButton("Add Files…") if files else None
        self.remove_button = QPushButton("Remove")
        self.remove_button.setEnabled(False)
        self.buttons = buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.add_folder_button)
        if self.add_files_button is not None:
            buttons.addWidget(self.add_files_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.title)
        layout.addWidget(self.hint)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        self.remove_button.clicked.connect(self.remove_selected)
        self.list.itemSelectionChanged.connect(
            lambda: self.remove_button.setEnabled(bool(self.list.selectedItems()))
        )

    def items(self) -> list[QListWidgetItem]:
        found = (self.list.item(row) for row in range(self.list.count()))
        return [item for item in found if item is not None]

    def paths(self) -> list[Path]:
        return [Path(item.data(PATH_ROLE)) for item in self.items()]

    def add_paths(self, paths: Iterable[str | Path]) -> int:
        known = set(self.paths())
        added = 0
        for raw in paths:
            path = Path(raw).absolute()
            if path not in known:
                item = QListWidgetItem(str(path))
                item.setData(PATH_ROLE, str(path))
                item.setToolTip(str(path))
                self.list.addItem(item)
                known.add(path)
                added += 1
        return added

    def remove_selected(self) -> None:
        for item in self.list.selectedItems():
            self.list.takeItem(self.list.row(item))

    def clear(self) -> None:
        self.list.clear()


class EarlierYears(PathList):
    """The earlier years: folders, or one archive index shown as its summary (see the module
    docstring). Choosing an index replaces the folders, adding a folder replaces the index;
    `index_chosen` asks the panel to read the index's summary (`show_summary` shows it)."""

    index_chosen = Signal(object)  # the index's Path

    def __init__(self) -> None:
        super().__init__("Earlier years (optional)", EARLIER_HINT)
        self.archive_button = QPushButton("Use Archive…")
        self.archive_button.setToolTip(
            "Check against an archive index: earlier years' submissions kept in one file "
            "(made by Add to Archive… after a check, or doppel archive add). It replaces the "
            "folders: the years worth keeping belong in the index."
        )
        self.archive_menu = QMenu(self)
        self.default_index_action = self.archive_menu.addAction("The Default Archive")
        self.index_file_action = self.archive_menu.addAction("An Archive Index File…")
        self.archive_button.setMenu(self.archive_menu)
        self.archive_menu.aboutToShow.connect(self.refresh_default)
        self.buttons.insertWidget(1, self.archive_button)

    def refresh_default(self) -> None:
        """Offer the default index only where there is one (read before the menu shows)."""
        path = default_index_path()
        there = index_exists(path)
        self.default_index_action.setEnabled(there)
        self.default_index_action.setText(
            "The Default Archive" if there else "The Default Archive (none yet)"
        )
        self.default_index_action.setToolTip(str(path))

    def folders(self) -> list[Path]:
        return [Path(i.data(PATH_ROLE)) for i in self.items() if i.data(SUMMARY_ROLE) is None]

    def index_item(self) -> QListWidgetItem | None:
        return next((i for i in self.items() if i.data(SUMMARY_ROLE) is not None), None)

    def index_path(self) -> Path | None:
        item = self.index_item()
        return Path(item.data(PATH_ROLE)) if item is not None else None

    def summary(self) -> IndexSummary | None:
        item = self.index_item()
        summary = item.data(SUMMARY_ROLE) if item is not None else None
        return summary if isinstance(summary, IndexSummary) else None

    def add_paths(self, paths: Iterable[str | Path]) -> int:
        """Add folders (replacing an index); a file that is an archive index is chosen as
        the index instead (a drop of one)."""
        chosen = [Path(raw).absolute() for raw in paths]
        indexes = [p for p in chosen if p.is_file() and index_exists(p)]
        if indexes:
            self.set_index(indexes[-1])
            return 1
        if chosen and self.index_item() is not None:
            self.clear()
        return super().add_paths(chosen)

    def set_index(self, path: Path) -> None:
        """Check against the index at `path` (replacing whatever was chosen); its summary
        is asked for (`index_chosen`)."""
        self.clear()
        path = Path(path).absolute()
        item = QListWidgetItem()
        item.setData(PATH_ROLE, str(path))
        item.setData(SUMMARY_ROLE, IndexSummary(path))
        item.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_DriveHDIcon))
        self.list.addItem(item)
        self.show_summary(IndexSummary(path))
        self.index_chosen.emit(path)

    def show_summary(self, summary: IndexSummary) -> None:
        """Show what the chosen index holds, or why it cannot be used (a summary of an
        index no longer chosen is dropped)."""
        item = self.index_item()
        if item is None or Path(item.data(PATH_ROLE)) != summary.path:
            return
        item.setData(SUMMARY_ROLE, summary)
        item.setText(summary.text)
        item.setToolTip(
            f"{summary.path}\n{summary.problem}" if summary.problem else str(summary.path)
        )
        colour = failed_colour(self.palette())
        item.setForeground(QBrush(colour) if summary.problem else QBrush())
        if summary.problem:
            self.hint.setText(summary.problem)
            self.hint.setForegroundRole(QPalette.ColorRole.WindowText)  # (not faded)
            self.hint.setStyleSheet(f"color: {colour.name()}")
        else:
            self._plain_hint()

    def clear(self) -> None:
        super().clear()
        self._plain_hint()

    def remove_selected(self) -> None:
        super().remove_selected()
        if self.index_item() is None:
            self._plain_hint()

    def show_note(self, text: str) -> None:
        """A note on the chosen index under the list (not a problem: it can be used)."""
        self.hint.setText(text)
        self.hint.setForegroundRole(QPalette.ColorRole.WindowText)
        self.hint.setStyleSheet("")

    def _plain_hint(self) -> None:
        self.hint.setText(EARLIER_HINT)
        self.hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.hint.setStyleSheet("")


@dataclass(frozen=True)
class SetupState:
    """The panel's choices as the window remembers them between sessions."""

    threshold_percent: int = DEFAULT_THRESHOLD_PERCENT
    student_folders: bool = False
    inputs: list[str] = field(default_factory=list)
    archives: list[str] = field(default_factory=list)
    templates: list[str] = field(default_factory=list)
    common: bool = False
    common_percent: int = DEFAULT_COMMON_PERCENT
    archive_index: str = ""  # the archive index chosen as the earlier years ("" for none)

    def write(self, stream: QDataStream) -> None:
        stream.writeInt32(self.threshold_percent)
        stream.writeBool(self.student_folders)
        stream.writeQStringList(self.inputs)
        stream.writeQStringList(self.archives)
        stream.writeQStringList(self.templates)
        stream.writeBool(self.common)
        stream.writeInt32(self.common_percent)
        stream.writeQString(self.archive_index)

    @classmethod
    def read(cls, stream: QDataStream, version: int) -> SetupState:
        """What `write` wrote; version 1 had no templates and no common text, versions before
        4 no archive index (check `stream.status()` after)."""
        threshold = stream.readInt32()
        student_folders = stream.readBool()
        inputs = stream.readQStringList()
        archives = stream.readQStringList()
        if version < 2:
            return cls(threshold, student_folders, inputs, archives)
        templates = stream.readQStringList()
        common = stream.readBool()
        common_percent = stream.readInt32()
        index = stream.readQString() if version >= 4 else ""
        return cls(
            threshold, student_folders, inputs, archives, templates, common, common_percent, index
        )


class SetupPanel(QWidget):
    """See the module docstring."""

    exclusions_changed = Signal()  # quotations or references ticked here (a shared setting)

    def __init__(
        self,
        settings: Settings,
        parent: QWidget | None = None,
        *,
        runner: TaskRunner | None = None,
    ) -> None:
        """`runner` reads an archive index's summary (inline when None)."""
        super().__init__(parent)
        self.settings = settings
        self._busy = False
        # the chosen index's summary: the newest choice wins
        self._summary_job = LatestTask(runner or TaskRunner(self, synchronous=True))
        self.inputs = PathList(
            "Submissions",
            "Drop folders here or add them; files in subfolders count too.",
            files=True,
        )
        self.archives = EarlierYears()
        self.templates = PathList(
            "Templates (optional)",
            "The prompt or a handout: what submissions share with it is left out.",
            files=True,
        )
        self.common_check = QCheckBox("Leave out text in more than")
        self.common_check.setToolTip(
            "Sentences holding text that more than this share of the submissions contain (a "
            "prompt or handout everyone pasted) are left out of the scores and listed"
        )
        self.common_spin = QSpinBox()
        self.common_spin.setRange(1, 99)
        self.common_spin.setSuffix(" %")
        self.common_spin.setValue(DEFAULT_COMMON_PERCENT)
        self.quotes_check = QCheckBox("quotations")
        self.quotes_check.setToolTip(
            "Leave out text in quotation marks and block quotes (as in Comparison Settings)"
        )
        self.references_check = QCheckBox("references")
        self.references_check.setToolTip(
            "Leave out a references section at the end (as in Comparison Settings)"
        )
        excluded = self.settings.exclusion_options()
        self.quotes_check.setChecked(excluded.quotations)
        self.references_check.setChecked(excluded.references)
        self.common_spin.setEnabled(False)
        self.student_folders = QCheckBox("One subfolder per student")
        self.student_folders.setToolTip(
            "Each subfolder of a submissions folder holds one student's files: they are not "
            "compared with each other"
        )
        self.threshold_spin = QSpinBox()
        self.threshold_spin.setRange(0, 100)
        self.threshold_spin.setSuffix(" %")
        self.threshold_spin.setValue(DEFAULT_THRESHOLD_PERCENT)
        self.threshold_spin.setToolTip(
            "Show pairs where at least this much of one document is found in the other (the "
            "copied share, word for word or edited); 0 % shows every pair with copied text "
            "found. Changing it does not need a new check."
        )
        self.mode_label = QLabel()
        self.mode_label.setWordWrap(True)
        self.mode_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.start_button = QPushButton("Start Check")
        self.start_button.setDefault(True)
        self.cancel_button = QPushButton("Cancel")

        threshold_row = QHBoxLayout()
        threshold_row.addWidget(QLabel("Threshold (copied share)"))
        threshold_row.addWidget(self.threshold_spin)
        threshold_row.addStretch(1)
        common_row = QHBoxLayout()
        common_row.setSpacing(4)
        common_row.addWidget(self.common_check)
        common_row.addWidget(self.common_spin)
        common_row.addWidget(QLabel("of them"))
        common_row.addStretch(1)
        leave_out_row = QHBoxLayout()
        leave_out_row.setSpacing(8)
        leave_out_row.addWidget(QLabel("Leave out"))
        leave_out_row.addWidget(self.quotes_check)
        leave_out_row.addWidget(self.references_check)
        leave_out_row.addStretch(1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        options = QWidget()
        options_layout = QVBoxLayout(options)
        options_layout.setContentsMargins(0, 0, 0, 0)
        options_layout.setSpacing(6)
        options_layout.addWidget(QLabel("<b>Check</b>"))
        options_layout.addWidget(self.student_folders)
        options_layout.addLayout(threshold_row)
        options_layout.addLayout(common_row)
        options_layout.addLayout(leave_out_row)
        options_layout.addWidget(self.mode_label)
        options_layout.addStretch(1)
        options_layout.addLayout(buttons)

        setup_layout = QHBoxLayout(self)
        setup_layout.setContentsMargins(0, 0, 0, 0)
        setup_layout.setSpacing(16)
        setup_layout.addWidget(self.inputs, 3)
        setup_layout.addWidget(self.archives, 2)
        setup_layout.addWidget(self.templates, 2)
        setup_layout.addWidget(options, 3)
        self.setMaximumHeight(200)
        self._connect()
        self._update_mode()
        self.set_busy(False)

    def _connect(self) -> None:
        self.inputs.add_folder_button.clicked.connect(lambda: self._choose_folder(self.inputs))
        if self.inputs.add_files_button is not None:
            self.inputs.add_files_button.clicked.connect(lambda: self._choose_files(self.inputs))
        self.archives.add_folder_button.clicked.connect(lambda: self._choose_folder(self.archives))
        self.archives.default_index_action.triggered.connect(
            lambda: self.use_index(default_index_path())
        )
        self.archives.index_file_action.triggered.connect(self._choose_index)
        self.archives.index_chosen.connect(self.read_index_summary)
        self.templates.add_folder_button.clicked.connect(
            lambda: self._choose_folder(self.templates)
        )
        if self.templates.add_files_button is not None:
            self.templates.add_files_button.clicked.connect(
                lambda: self._choose_files(self.templates)
            )
        self.quotes_check.toggled.connect(self._exclusion_ticked)
        self.references_check.toggled.connect(self._exclusion_ticked)
        self.common_check.toggled.connect(self.common_spin.setEnabled)
        for paths in (self.inputs, self.archives):
            model = paths.list.model()
            model.rowsInserted.connect(self._update_mode)
            model.rowsRemoved.connect(self._update_mode)
        self.student_folders.toggled.connect(self._update_mode)

    def set_busy(self, busy: bool) -> None:
        """A check or an export runs: Cancel instead of Start."""
        self._busy = busy
        self.cancel_button.setEnabled(busy)
        self.start_button.setEnabled(not busy and self.ready())

    def ready(self) -> bool:
        """Something to check, and no earlier years that cannot be used."""
        summary = self.archives.summary()
        return self.inputs.list.count() > 0 and not (summary is not None and summary.problem)

    # -- the archive index ----------------------------------------------------------------

    def use_index(self, path: str | Path) -> None:
        """Check against the archive index at `path` (its summary is read in the background;
        what cannot be used says why)."""
        self.archives.set_index(Path(path))

    def index(self) -> Path | None:
        """The archive index chosen as the earlier years, if one is."""
        return self.archives.index_path()

    def read_index_summary(self, path: Path | None = None) -> None:
        """Read the summary of the chosen index (again: after an add) on a worker."""
        path = path or self.archives.index_path()
        if path is None:
            return
        self._summary_job.run(lambda _context: read_summary(path), self._summary_read)

    def show_index_summary(self, summary: IndexSummary) -> None:
        """What the chosen index holds now (an add's `info` saves reading it again)."""
        self._summary_read(summary)

    def _summary_read(self, summary: IndexSummary) -> None:
        self.archives.show_summary(summary)
        if summary.usable and summary.info is not None and summary.path == self.index():
            note = other_settings(summary.info.options, self.settings.signature_options())
            if note:
                self.archives.show_note(note)
        self._update_mode()

    def _choose_index(self) -> None:
        start = self.archives.index_path() or Path(self.settings.last_folder())
        chosen, _ = QFileDialog.getOpenFileName(
            self, "Use an Archive Index", str(start), INDEX_FILTER
        )
        if chosen:
            self.use_index(chosen)
            self.settings.set_last_folder(Path(chosen).parent)

    def target_at(self, point: QPoint) -> PathList:
        """The list a drop at `point` (this panel's coordinates) adds to: the earlier years or
        the templates when dropped on them, else the submissions."""
        for box in (self.archives, self.templates):
            if box.rect().contains(box.mapFrom(self, point)):
                return box
        return self.inputs

    def threshold(self) -> float:
        return self.threshold_spin.value() / 100

    def set_threshold(self, threshold: float) -> None:
        self.threshold_spin.setValue(round(100 * threshold))

    def _choose_folder(self, target: PathList) -> None:
        title = {
            id(self.archives): "Add Earlier Years",
            id(self.templates): "Add a Folder of Templates",
        }.get(id(target), "Add Submissions Folder")
        folder = QFileDialog.getExistingDirectory(self, title, self.settings.last_folder())
        if folder:
            target.add_paths([folder])
            self.settings.set_last_folder(folder)

    def _choose_files(self, target: PathList | None = None) -> None:
        target = target or self.inputs
        title = "Add Templates" if target is self.templates else "Add Submissions"
        files, _ = QFileDialog.getOpenFileNames(
            self, title, self.settings.last_folder(), FILE_FILTER
        )
        if files:
            target.add_paths(files)
            self.settings.set_last_folder(Path(files[-1]).parent)

    def _update_mode(self, *_args: object) -> None:
        """Say who is compared with whom, and offer Start when there is something to check."""
        text = MODE_ARCHIVE if self.archives.list.count() else MODE_ALL
        if self.student_folders.isChecked():
            text += STUDENT_NOTE
        self.mode_label.setText(text)
        self.start_button.setEnabled(not self._busy and self.ready())

    def exclusion_options(self) -> ExclusionOptions:
        """What this check leaves out: common text as set here, quotations and references as
        ticked here (the same settings as the Compare tab's), the template phrase length from
        Comparison Settings."""
        return replace(
            self.settings.exclusion_options(),
            quotations=self.quotes_check.isChecked(),
            references=self.references_check.isChecked(),
            common_share=self.common_spin.value() / 100 if self.common_check.isChecked() else None,
        )

    def _exclusion_ticked(self) -> None:
        """Quotations and references are one setting in both tabs."""
        self.settings.set_exclusion_options(
            replace(
                self.settings.exclusion_options(),
                quotations=self.quotes_check.isChecked(),
                references=self.references_check.isChecked(),
            )
        )
        self.exclusions_changed.emit()

    def show_exclusion_settings(self) -> None:
        """Tick quotations and references as the settings say (after Comparison Settings)."""
        options = self.settings.exclusion_options()
        for box, on in (
            (self.quotes_check, options.quotations),
            (self.references_check, options.references),
        ):
            box.blockSignals(True)
            box.setChecked(on)
            box.blockSignals(False)

    def state(self) -> SetupState:
        return SetupState(
            self.threshold_spin.value(),
            self.student_folders.isChecked(),
            [str(p) for p in self.inputs.paths()],
            [str(p) for p in self.archives.folders()],
            [str(p) for p in self.templates.paths()],
            self.common_check.isChecked(),
            self.common_spin.value(),
            str(self.index() or ""),
        )

    def restore(self, state: SetupState) -> None:
        self.threshold_spin.setValue(state.threshold_percent)
        self.student_folders.setChecked(state.student_folders)
        for paths, chosen in (
            (self.inputs, state.inputs),
            (self.archives, state.archives),
            (self.templates, state.templates),
        ):
            paths.clear()
            paths.add_paths(chosen)
        if state.archive_index:
            self.use_index(state.archive_index)
        self.common_check.setChecked(state.common)
        self.common_spin.setValue(state.common_percent)
        self.common_spin.setEnabled(state.common)

"""The evidence report of the pair on screen: File › Export Evidence… (PDF or HTML), Print
Preview… and Print….

The report is gathered and written on a worker (`core.reports.evidence`; the window never
waits); printing lays the report's HTML out with QTextDocument on the GUI thread, which takes
a moment only. The paper size follows the locale (Letter where Letter is the custom, A4
elsewhere) unless the settings say otherwise."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QLocale, QObject, Signal
from PySide6.QtGui import QPageSize, QTextDocument
from PySide6.QtPrintSupport import QPrintDialog, QPrinter, QPrintPreviewDialog
from PySide6.QtWidgets import QDialog, QFileDialog, QWidget

from app.gui.settings import Settings
from app.gui.tasks import LatestTask, TaskContext, TaskRunner
from core.comparison import Comparison
from core.reports.batch_export import evidence_file_names
from core.reports.evidence.paper import paper_for_territory

PAPERS = ("a4", "letter")  # `core.reports.evidence.Paper`'s values
PDF_FILTER = "PDF document (*.pdf)"
HTML_FILTER = "Web page (*.html *.htm)"


def locale_paper(locale: QLocale | None = None) -> str:
    """ "letter" where Letter is the custom, else "a4"."""
    territory = QLocale.territoryToCode((locale or QLocale()).territory())
    return paper_for_territory(territory).value


def paper_for(settings: Settings) -> str:
    """The paper size to use: the setting, or the locale's when it is "auto"."""
    chosen = settings.evidence_paper()
    return chosen if chosen in PAPERS else locale_paper()


def suggested_name(comparison: Comparison, suffix: str = ".pdf") -> str:
    """ "Doppel evidence - essay-a vs essay-b.pdf": the folder check's name for the pair's
    report (`evidence_file_names`: safe on every file system, not too long)."""
    pair = (comparison.a.path.name, comparison.b.path.name)
    return f"Doppel evidence - {evidence_file_names([pair], suffix)[0]}"


def _page_size(paper: str) -> QPageSize:
    size_id = QPageSize.PageSizeId.Letter if paper == "letter" else QPageSize.PageSizeId.A4
    return QPageSize(size_id)


def readable_reason(error: BaseException) -> str:
    """Why writing failed, in words: the system's reason for a file error."""
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return f"an internal error ({error!r})"


@dataclass(frozen=True)
class Written:
    path: Path
    kind: str  # "PDF" or "HTML"


class EvidenceExport(QObject):
    """Exports and prints the evidence report, one job at a time, through the app's runner."""

    saved = Signal(object)  # the Path written
    failed = Signal(str, str)  # a readable message naming the file, and details
    busy_changed = Signal(bool)
    progress = Signal(float, str)

    def __init__(self, runner: TaskRunner, settings: Settings, parent: QWidget) -> None:
        super().__init__(parent)
        self.parent_widget = parent
        self.settings = settings
        self._job = LatestTask(runner)
        self._job.ended.connect(lambda: self.busy_changed.emit(self.busy))
        self._printed: QTextDocument | None = None  # what Print Preview draws
        self.preview_dialog: QPrintPreviewDialog | None = None

    @property
    def busy(self) -> bool:
        return self._job.busy

    def cancel(self) -> None:
        """Stop the export under way (nothing is written: files are replaced whole or not)."""
        if self._job.abandon():
            self.busy_changed.emit(False)

    # -- exporting ---------------------------------------------------------------------

    def export(self, comparison: Comparison) -> None:
        """Ask where to save (PDF or HTML), then write the report there in the background."""
        html_last = self.settings.evidence_format() == "html"
        suffix = ".html" if html_last else ".pdf"
        start = Path(self.settings.export_folder()) / suggested_name(comparison, suffix)
        chosen, selected = QFileDialog.getSaveFileName(
            self.parent_widget,
            "Export Evidence",
            str(start),
            f"{PDF_FILTER};;{HTML_FILTER}",
            HTML_FILTER if html_last else PDF_FILTER,
        )
        if not chosen:
            return
        path = Path(chosen)
        if path.suffix.lower() not in (".pdf", ".html", ".htm"):
            path = path.with_name(path.name + (".html" if selected == HTML_FILTER else ".pdf"))
        self.settings.set_export_folder(path.parent)
        self.write(comparison, path)

    def write(self, comparison: Comparison, path: Path) -> None:
        """Write the report of `comparison` to `path`: HTML for .html/.htm, else PDF."""
        html = path.suffix.lower() in (".html", ".htm")
        self.settings.set_evidence_format("html" if html else "pdf")
        paper = paper_for(self.settings)
        message = f"Writing the evidence report {path.name}…"

        def op(context: TaskContext) -> Written:
            # (the report engine and its PDF library load on the first export, not at start)
            from core.reports import evidence

            context.progress(0.0, message)
            report = evidence.evidence_report(comparison)
            context.progress(0.6, message)
            if html:
                evidence.write_evidence_html(report, path, paper=evidence.Paper(paper))
                return Written(path, "HTML")
            evidence.write_evidence_pdf(report, path, paper=evidence.Paper(paper))
            return Written(path, "PDF")

        def done(written: Written) -> None:
            self.saved.emit(written.path)

        def error(exc: BaseException, details: str) -> None:
            self.failed.emit(
                f"The evidence report could not be saved as {path.name} "
                f"(in {path.parent}): {readable_reason(exc)}",
                details,
            )

        self._job.run(op, done, on_progress=self.progress.emit, on_error=error)
        self.busy_changed.emit(self.busy)

    # -- printing ----------------------------------------------------------------------

    def make_printer(self, comparison: Comparison) -> QPrinter:
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        printer.setPageSize(_page_size(paper_for(self.settings)))
        printer.setDocName(suggested_name(comparison, ""))
        return printer

    def print_(self, comparison: Comparison) -> None:
        """The print dialog, then the report made, laid out and printed on a worker: a long
        pair's report is a hundred pages and more, seconds of layout the window never waits
        for (QTextDocument and QPainter on a QPrinter are made for use outside the GUI
        thread; the printer is not touched here until the job is done)."""
        printer = self.make_printer(comparison)
        dialog = QPrintDialog(printer, self.parent_widget)
        dialog.setWindowTitle("Print Evidence")
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        paper = paper_for(self.settings)
        message = "Printing the evidence report…"

        def op(context: TaskContext) -> None:
            from core.reports import evidence

            context.progress(0.0, message)
            report = evidence.evidence_report(comparison)
            html = evidence.evidence_html(report, evidence.Paper(paper))
            context.progress(0.3, message)
            context.check()
            document = QTextDocument()
            document.setHtml(html)
            document.print_(printer)

        def error(exc: BaseException, details: str) -> None:
            self.failed.emit(
                f"The evidence report could not be printed: {readable_reason(exc)}", details
            )

        self._job.run(op, lambda _none: None, on_progress=self.progress.emit, on_error=error)
        self.busy_changed.emit(self.busy)

    def print_preview(self, comparison: Comparison) -> None:
        """The report in Qt's print preview (its HTML made on a worker), to print from there.
        (The preview lays the pages out on the GUI thread, as QPrintPreviewDialog draws there:
        a moment for an essay, seconds for a pair of books, for which Print… is the way.)"""
        printer = self.make_printer(comparison)

        def show(document: QTextDocument) -> None:
            self._printed = document
            dialog = QPrintPreviewDialog(printer, self.parent_widget)
            dialog.setWindowTitle("Print Preview — Doppel Evidence")
            dialog.paintRequested.connect(document.print_)
            dialog.finished.connect(lambda _result: self._preview_closed())
            self.preview_dialog = dialog
            dialog.resize(900, 1000)
            dialog.open()

        self._with_html(comparison, show)

    def _preview_closed(self) -> None:
        if self.preview_dialog is not None:
            self.preview_dialog.deleteLater()
        self.preview_dialog = None
        self._printed = None

    def _with_html(self, comparison: Comparison, use: Callable[[QTextDocument], object]) -> None:
        """Make the report's HTML on a worker, then `use` it laid out in a QTextDocument."""
        paper = paper_for(self.settings)
        message = "Preparing the evidence report for printing…"

        def op(context: TaskContext) -> str:
            from core.reports import evidence

            context.progress(0.0, message)
            report = evidence.evidence_report(comparison)
            context.progress(0.6, message)
            return evidence.evidence_html(report, evidence.Paper(paper))

        def done(html: str) -> None:
            document = QTextDocument()
            document.setHtml(html)
            use(document)

        def error(exc: BaseException, details: str) -> None:
            self.failed.emit(
                f"The evidence report could not be printed: {readable_reason(exc)}", details
            )

        self._job.run(op, done, on_progress=self.progress.emit, on_error=error)
        self.busy_changed.emit(self.busy)

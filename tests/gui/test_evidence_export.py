"""File › Export Evidence…, Print Preview… and Print… for the pair on screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtGui import QPageSize
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import QDialog, QFileDialog

from app.gui import evidence_export
from app.gui.evidence_export import (
    HTML_FILTER,
    PDF_FILTER,
    locale_paper,
    paper_for,
    suggested_name,
)
from app.gui.main_window import MainWindow
from app.gui.tasks import TaskRunner
from core.resources import resource_path

ORIGINAL = resource_path("samples", "original-essay.txt")
COPY = resource_path("samples", "reworded-copy.docx")


@pytest.fixture
def window(qtbot, settings) -> MainWindow:
    win = MainWindow(settings, TaskRunner())
    qtbot.addWidget(win)
    win.show()
    return win


@pytest.fixture
def compared(qtbot, window) -> MainWindow:
    assert not window.export_evidence_action.isEnabled()  # nothing on screen yet
    assert not window.print_action.isEnabled()
    with qtbot.waitSignal(window.comparison_shown, timeout=30_000):
        window.add_paths([ORIGINAL, COPY], remember=False)
    qtbot.waitUntil(lambda: not window.busy, timeout=30_000)
    return window


def choose(monkeypatch, path: Path, selected: str = PDF_FILTER) -> list[tuple]:
    asked: list[tuple] = []

    def dialog(*args, **kwargs):
        asked.append(args)
        return str(path), selected

    monkeypatch.setattr(QFileDialog, "getSaveFileName", dialog)
    return asked


def export(qtbot, window: MainWindow) -> Path:
    with qtbot.waitSignal(window.evidence.saved, timeout=60_000) as saved:
        window.export_evidence_action.trigger()
    return saved.args[0]


def test_the_evidence_is_exported_as_pdf_and_html(
    qtbot, compared, tmp_path: Path, monkeypatch
) -> None:
    window = compared
    assert window.export_evidence_action.isEnabled() and window.print_action.isEnabled()
    asked = choose(monkeypatch, tmp_path / "evidence.pdf")
    pdf = export(qtbot, window)
    _parent, caption, start, filters, selected = asked[0]
    assert caption == "Export Evidence" and selected == PDF_FILTER
    assert Path(start).name == "Doppel evidence - original-essay vs reworded-copy.pdf"
    assert filters == f"{PDF_FILTER};;{HTML_FILTER}"
    assert pdf == tmp_path / "evidence.pdf" and pdf.read_bytes().startswith(b"%PDF")
    assert str(pdf) in window.statusBar().currentMessage()
    from pypdf import PdfReader

    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "original-essay.txt" in text and "reworded-copy.docx" in text

    # HTML, chosen by its filter without a suffix typed; the folder is remembered
    (tmp_path / "out").mkdir()
    asked = choose(monkeypatch, tmp_path / "out" / "evidence", HTML_FILTER)
    html = export(qtbot, window)
    assert html == tmp_path / "out" / "evidence.html"
    page = html.read_text("utf-8")
    assert "original-essay.txt" in page and "reworded-copy.docx" in page
    assert Path(asked[0][2]).parent == tmp_path  # the folder of the export before
    assert window.settings.export_folder() == str(tmp_path / "out")
    assert window.settings.evidence_format() == "html"  # offered first next time


def test_a_failed_export_names_the_file_and_the_reason(
    qtbot, compared, tmp_path: Path, monkeypatch
) -> None:
    window = compared
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where a folder should be", "utf-8")
    choose(monkeypatch, blocker / "evidence.pdf")
    errors: list[str] = []
    monkeypatch.setattr(
        "app.gui.main_window.show_error",
        lambda parent, title, text, details="": errors.append(text),
    )
    with qtbot.waitSignal(window.evidence.failed, timeout=60_000):
        window.export_evidence_action.trigger()
    assert len(errors) == 1
    assert errors[0].startswith(
        f"The evidence report could not be saved as evidence.pdf (in {blocker}): "
    )
    assert "Not a directory" in errors[0] or "exists" in errors[0]
    assert window.export_evidence_action.isEnabled()  # ready for another try


def test_export_runs_in_the_background_and_can_be_cancelled(
    qtbot, compared, tmp_path: Path, monkeypatch
) -> None:
    import threading

    window = compared
    started, release = threading.Event(), threading.Event()
    from core.reports import evidence

    real = evidence.evidence_report

    def slow(comparison, **kwargs):
        started.set()
        release.wait(10)
        return real(comparison, **kwargs)

    monkeypatch.setattr(evidence, "evidence_report", slow)
    choose(monkeypatch, tmp_path / "evidence.pdf")
    window.export_evidence_action.trigger()
    qtbot.waitUntil(started.is_set, timeout=10_000)
    assert window.busy and not window.export_evidence_action.isEnabled()
    window.cancel_jobs()
    release.set()
    assert not window.busy and window.export_evidence_action.isEnabled()
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=30_000)
    assert not (tmp_path / "evidence.pdf").exists()


def test_print_sends_the_report_to_the_printer(
    qtbot, compared, tmp_path: Path, monkeypatch
) -> None:
    window = compared
    target = tmp_path / "printed.pdf"

    class AcceptingPrintDialog:
        def __init__(self, printer: QPrinter, parent) -> None:
            printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
            printer.setOutputFileName(str(target))
            self.printer = printer

        def setWindowTitle(self, title: str) -> None:
            pass

        def exec(self) -> int:
            return QDialog.DialogCode.Accepted

    monkeypatch.setattr(evidence_export, "QPrintDialog", AcceptingPrintDialog)
    window.print_action.trigger()
    qtbot.waitUntil(lambda: target.exists() and not window.busy, timeout=60_000)
    from pypdf import PdfReader

    text = "".join(page.extract_text() for page in PdfReader(target).pages)
    assert "original-essay.txt" in text and "reworded-copy.docx" in text


def test_print_preview_shows_the_report(qtbot, compared) -> None:
    window = compared
    window.print_preview_action.trigger()
    qtbot.waitUntil(lambda: window.evidence.preview_dialog is not None, timeout=60_000)
    dialog = window.evidence.preview_dialog
    assert dialog.isVisible()
    dialog.reject()
    qtbot.waitUntil(lambda: window.evidence.preview_dialog is None)


def test_the_paper_follows_the_locale_unless_chosen(settings) -> None:
    assert locale_paper(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)) == "letter"
    assert locale_paper(QLocale(QLocale.Language.French, QLocale.Country.Canada)) == "letter"
    assert locale_paper(QLocale(QLocale.Language.German, QLocale.Country.Germany)) == "a4"
    assert locale_paper(QLocale(QLocale.Language.English, QLocale.Country.UnitedKingdom)) == "a4"
    assert settings.evidence_paper() == "auto" and paper_for(settings) == locale_paper()
    settings.set_evidence_paper("letter")
    assert paper_for(settings) == "letter"
    with pytest.raises(ValueError):
        settings.set_evidence_paper("a3")


def test_the_printer_gets_the_paper_and_a_document_name(qtbot, compared) -> None:
    window = compared
    window.settings.set_evidence_paper("letter")
    comparison = window.view.comparison()
    printer = window.evidence.make_printer(comparison)
    assert printer.pageLayout().pageSize().id() == QPageSize.PageSizeId.Letter
    assert printer.docName() == "Doppel evidence - original-essay vs reworded-copy"


def test_the_suggested_name_leaves_out_what_no_file_system_allows(qtbot, compared) -> None:
    from dataclasses import replace

    comparison = compared.view.comparison()
    odd = replace(comparison, a=replace(comparison.a, path=Path('/x/a: "draft"?.docx')))
    assert suggested_name(odd) == "Doppel evidence - a- -draft vs reworded-copy.pdf"
    long = replace(comparison, a=replace(comparison.a, path=Path("/x/" + "word " * 80 + ".docx")))
    assert len(suggested_name(long).encode()) < 200  # within every file system's limit


def test_the_window_starts_without_the_pdf_library() -> None:
    """The report engine loads on the first export, not when the window's modules load."""
    import subprocess
    import sys

    code = (
        "import sys, app.gui.main_window; "
        "sys.exit(1 if {'fpdf', 'fontTools'} & set(sys.modules) else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr

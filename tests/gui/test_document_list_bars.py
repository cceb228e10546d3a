"""The document list at 1280×720: why a file could not be read is in plain sight (a message bar
above the list, not a tooltip or a column scrolled out of view), every column title is whole,
and with more than two documents each shows its strongest partner."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.gui.main_window import MainWindow
from app.gui.message_bar import Level
from app.gui.models.document_list import DocumentListModel
from app.gui.tasks import TaskRunner
from core.resources import resource_path

ORIGINAL = resource_path("samples", "original-essay.txt").resolve()
COPY = resource_path("samples", "reworded-copy.docx").resolve()
UNRELATED = resource_path("samples", "unrelated-essay.docx").resolve()


@pytest.fixture
def window(qtbot, settings) -> MainWindow:
    win = MainWindow(settings, TaskRunner())
    qtbot.addWidget(win)
    win.resize(1280, 720)
    win.show()
    return win


def load(qtbot, window: MainWindow, paths: list[Path]) -> None:
    window.add_paths(paths, remember=False)
    qtbot.waitUntil(
        lambda: not window.busy and window.view.comparison() is not None, timeout=30_000
    )


def visible_in_window(window: MainWindow, widget) -> bool:
    """Shown, and wholly inside the window (nothing to scroll or hover)."""
    if not widget.isVisible():
        return False
    top_left = widget.mapTo(window, widget.rect().topLeft())
    bottom_right = widget.mapTo(window, widget.rect().bottomRight())
    return window.rect().contains(top_left) and window.rect().contains(bottom_right)


def test_a_file_that_cannot_be_read_is_named_with_its_reason_above_the_list(
    qtbot, window, tmp_path: Path
) -> None:
    empty = tmp_path / "homework.docx"
    empty.write_bytes(b"")
    load(qtbot, window, [ORIGINAL, empty, COPY])
    bar = window.failures_bar
    assert visible_in_window(window, bar) and visible_in_window(window, bar.label)
    assert bar.level is Level.ERROR
    entry = window.session.documents.entries()[1]
    assert bar.text() == f"homework.docx could not be read: {entry.error}"
    assert entry.error in bar.text() and "empty" in entry.error
    # the whole text fits: the label is as tall as its wrapped text needs
    assert bar.label.height() >= bar.label.heightForWidth(bar.label.width())

    # dismissed, it stays away until another file fails
    bar.close_button.click()
    assert not bar.isVisible()
    broken = tmp_path / "scan.pdf"
    broken.write_bytes(b"%PDF-1.4\n garbage that is not a PDF")
    window.add_paths([broken], remember=False)
    qtbot.waitUntil(lambda: not window.busy, timeout=30_000)
    assert bar.isVisible()
    assert "homework.docx could not be read" in bar.text()
    assert "scan.pdf could not be read" in bar.text()
    # removing the files that failed takes the message away
    window.session.remove_paths([empty.resolve(), broken.resolve()])
    assert not bar.isVisible()


def test_several_failures_are_summarised_and_listed_in_full_on_request(
    qtbot, window, tmp_path: Path
) -> None:
    broken = []
    for name in ("a.pdf", "b.docx", "c.odt", "d.rtf"):
        path = tmp_path / name
        path.write_bytes(b"")
        broken.append(path)
    load(qtbot, window, [ORIGINAL, COPY, *broken])
    bar = window.failures_bar
    assert visible_in_window(window, bar)
    assert bar.text() == "4 files could not be read: a.pdf, b.docx, c.odt and 1 more."
    assert visible_in_window(window, bar.show_all_button)
    bar.show_all_button.click()
    dialog = bar.details_dialog
    assert dialog is not None and dialog.isVisible()
    lines = dialog.text.toPlainText().splitlines()
    assert len(lines) == 4 and lines[3].startswith("d.rtf: ") and "empty" in lines[3]
    dialog.close()


def test_every_column_title_is_whole_at_1280_by_720(qtbot, window, tmp_path: Path) -> None:
    broken = tmp_path / "scan.pdf"
    broken.write_bytes(b"%PDF-1.4\n garbage")
    load(qtbot, window, [ORIGINAL, COPY, UNRELATED, broken])
    view = window.documents_view
    header = view.horizontalHeader()
    shown = [c for c in range(header.count()) if not header.isSectionHidden(c)]
    assert DocumentListModel.COL_PARTNER in shown and DocumentListModel.COL_NOTES in shown
    for column in shown:
        assert header.sectionSize(column) >= header.sectionSizeHint(column), column
    # and all of them inside the list, without scrolling sideways
    assert header.length() <= view.viewport().width()
    # the hidden columns come back from the header's context menu
    action = window.column_actions[DocumentListModel.COL_LANGUAGE]
    assert action in header.actions() and not action.isChecked()
    action.setChecked(True)
    assert not header.isSectionHidden(DocumentListModel.COL_LANGUAGE)


def test_with_three_documents_each_shows_its_strongest_partner(qtbot, window) -> None:
    load(qtbot, window, [ORIGINAL, COPY, UNRELATED])
    model = window.session.documents
    assert not window.documents_view.isColumnHidden(DocumentListModel.COL_PARTNER)
    comparison = window.session.ranked[0].comparison
    texts = [model.index(row, DocumentListModel.COL_PARTNER).data() for row in range(3)]
    share_a = comparison.copied_a if comparison.a.path == ORIGINAL else comparison.copied_b
    share_b = comparison.copied_b if comparison.b.path == COPY else comparison.copied_a
    from core.reports.wording import percent

    assert texts == [
        f"{percent(share_a)} in reworded-copy.docx",
        f"{percent(share_b)} in original-essay.txt",
        "–",  # nothing of it is found in another
    ]
    tip = model.index(0, DocumentListModel.COL_PARTNER).data(3)  # ToolTipRole
    assert tip.startswith(f"{percent(share_a)} of original-essay.txt is found in reworded-copy")
    # with two documents the column goes: the comparison itself says it
    window.session.remove_paths([UNRELATED])
    qtbot.waitUntil(lambda: not window.busy, timeout=30_000)
    assert window.documents_view.isColumnHidden(DocumentListModel.COL_PARTNER)

"""The main window end to end: drop files, see the comparison, cancel, bad files, screenshot."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from app.gui import session as session_module
from app.gui.compare.marks import MarkKind
from app.gui.main_window import MainWindow
from app.gui.models.document_list import ENTRY_ROLE, Status
from app.gui.tasks import TaskRunner
from core.resources import resource_path

ORIGINAL = resource_path("samples", "original-essay.txt")
COPY = resource_path("samples", "reworded-copy.docx")


def drop(window: MainWindow, paths: list[Path]) -> None:
    """A real drag entering the window, then the QDropEvent with file URLs, as Qt sends them."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    centre = QPoint(window.width() // 2, window.height() // 2)
    buttons, modifiers = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(centre, Qt.DropAction.CopyAction, mime, buttons, modifiers)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    event = QDropEvent(QPointF(centre), Qt.DropAction.CopyAction, mime, buttons, modifiers)
    QApplication.sendEvent(window, event)
    assert event.isAccepted()


@pytest.fixture
def window(qtbot, settings) -> MainWindow:
    win = MainWindow(settings, TaskRunner())  # real worker threads
    qtbot.addWidget(win)
    win.show()
    return win


def piece_spans(pane, kind=MarkKind.PIECE) -> set[tuple[int, int]]:
    return {(m.start, m.end) for m in pane.marks() if m.kind is kind}


def test_dropping_two_files_shows_the_comparison_highlighted(qtbot, window) -> None:
    with qtbot.waitSignal(window.comparison_shown, timeout=30_000) as shown:
        drop(window, [ORIGINAL, COPY])
    comparison = shown.args[0]
    assert window.stack.currentWidget() is window.view
    expected_a, expected_b = set(), set()
    for block in comparison.blocks:
        for piece in block.pieces:
            a_chars, b_chars = comparison.piece_chars(piece)
            expected_a.add(a_chars)
            expected_b.add(b_chars)
    assert expected_a and piece_spans(window.view.pane_a) == expected_a
    assert piece_spans(window.view.pane_b) == expected_b
    assert window.view.pane_a.toPlainText() == comparison.a.text
    assert piece_spans(window.view.pane_a, MarkKind.FAILED)  # the split blocks' reworded lines
    # the title block's lengths agree by chance: discarded, not shown unless asked for
    assert window.view.hide_discarded() and not window.view.pane_a.marks_at(0)
    window.view.set_hide_discarded(False)
    assert window.view.pane_a.marks_at(0)
    assert "original-essay.txt" in window.windowTitle()


def test_a_corrupt_file_is_listed_with_its_error_and_the_good_ones_compare(
    qtbot, window, tmp_path: Path
) -> None:
    broken = tmp_path / "scan.pdf"
    broken.write_bytes(b"%PDF-1.4\n garbage that is not a PDF")
    with qtbot.waitSignal(window.comparison_shown, timeout=30_000) as shown:
        drop(window, [ORIGINAL, broken, COPY])
    assert shown.args[0].jaccard > 0
    model = window.session.documents
    entry = model.data(model.index(model.row_of(broken.resolve()), 0), ENTRY_ROLE)
    assert entry.status is Status.FAILED and "scan.pdf" not in entry.error  # a reason, not a name
    assert entry.error


def test_cancel_during_a_long_comparison_returns_to_idle_without_result_or_error(
    qtbot, window, monkeypatch
) -> None:
    started, release = threading.Event(), threading.Event()
    real_compare = session_module.compare_documents

    def slow_compare(a, b, options=None, *, progress=None, **kwargs):
        def checkpoint(fraction: float) -> None:
            started.set()
            release.wait(5)
            if progress is not None:
                progress(fraction)

        return real_compare(a, b, options, progress=checkpoint, **kwargs)

    monkeypatch.setattr(session_module, "compare_documents", slow_compare)
    errors: list[str] = []
    window.session.failed.connect(lambda text, details: errors.append(text))
    shown: list[object] = []
    window.comparison_shown.connect(shown.append)
    window.add_paths([ORIGINAL, COPY])
    qtbot.waitUntil(started.is_set, timeout=30_000)
    job = window.session._job.task  # the comparison on a worker
    assert job is not None and window.session.busy
    with qtbot.waitSignal(job.ended, timeout=10_000):
        window.cancel_button.click()
        release.set()
    qtbot.waitUntil(lambda: not window.session.busy, timeout=10_000)
    assert shown == [] and errors == []
    assert window.stack.currentWidget() is window.empty
    assert not window.progress_bar.isVisible()


def test_clicking_a_block_row_moves_both_panes_and_next_cycles(qtbot, window) -> None:
    with qtbot.waitSignal(window.comparison_shown, timeout=30_000):
        window.add_paths([ORIGINAL, COPY])
    view = window.view
    shown = view.shown_blocks()
    assert len(shown) >= 3
    view.select_block(shown[1])
    assert view.current_block() == shown[1]
    view.next_action.trigger()
    assert view.current_block() == shown[2]
    view.previous_action.trigger()
    assert view.current_block() == shown[1]


def test_settings_and_state_are_remembered(qtbot, settings) -> None:
    first = MainWindow(settings, TaskRunner(synchronous=True))
    qtbot.addWidget(first)
    first.splitter.setSizes([500, 900])
    first.view.hide_discarded_action.setChecked(True)
    first.close()
    second = MainWindow(settings, TaskRunner(synchronous=True))
    qtbot.addWidget(second)
    assert second.view.hide_discarded()
    assert settings.state("splitter") is not None


def test_screenshot_of_the_demo(tmp_path: Path, qapp, monkeypatch) -> None:
    """`doppel gui --demo --screenshot PATH` renders the window once compared, exits 0."""
    import logging
    import sys

    from PySide6.QtCore import QSettings

    from app.gui import application, crash

    # nothing of the user's: settings, log folder and the global hooks are the test's own
    monkeypatch.setattr(
        "app.gui.settings.QSettings",
        lambda *a: QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
    )
    monkeypatch.setattr(crash, "log_folder", lambda: tmp_path / "logs")
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    handlers = list(logging.getLogger("doppel").handlers)
    target = tmp_path / "main.png"
    try:
        assert application.main(["--demo", "--screenshot", str(target)]) == 0
    finally:
        logging.getLogger("doppel").handlers[:] = handlers
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "logs" / "doppel.log").exists()


def test_use_as_template_from_the_document_list(qtbot, window, tmp_path: Path) -> None:
    prompt = tmp_path / "prompt.txt"
    prompt.write_text(
        "Write about your summer holidays. Say where you went and who came with you. "
        "Describe the best day of the holidays.",
        "utf-8",
    )
    own = (
        "We drove to the coast in July with my grandparents and two cousins. "
        "The best day was a storm that flooded the campsite at midnight."
    )
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text(f"{prompt.read_text('utf-8')}\n\n{own}", "utf-8")
    second.write_text(f"{prompt.read_text('utf-8')}\n\nI stayed at home and read.", "utf-8")
    with qtbot.waitSignal(window.comparison_shown, timeout=30_000):
        drop(window, [prompt, first, second])
    qtbot.waitUntil(lambda: not window.session.busy, timeout=30_000)
    model = window.session.documents
    window.documents_view.selectRow(model.row_of(prompt.resolve()))
    action = window.template_action
    assert action.isEnabled() and not action.isChecked()
    assert action in window.documents_view.actions()  # in the list's context menu
    with qtbot.waitSignal(window.comparison_shown, timeout=30_000) as shown:
        action.trigger()
    comparison = shown.args[0]
    assert {comparison.a.name, comparison.b.name} == {"first.txt", "second.txt"}
    assert comparison.templates == ("prompt.txt",)
    assert comparison.jaccard == 0  # they shared only the prompt
    assert action.isChecked()
    font = model.index(model.row_of(prompt.resolve()), 0).data(Qt.ItemDataRole.FontRole)
    assert font.italic()

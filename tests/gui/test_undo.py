"""Edit › Undo puts removed documents back in their places, as they were, with the comparison
that was on screen; Redo removes them again."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QKeySequence

from app.gui import session as session_module
from app.gui.main_window import MainWindow
from app.gui.session import Session
from app.gui.tasks import TaskRunner
from app.gui.undo import remove_text
from core.resources import resource_path

ORIGINAL = resource_path("samples", "original-essay.txt").resolve()
COPY = resource_path("samples", "reworded-copy.docx").resolve()
UNRELATED = resource_path("samples", "unrelated-essay.docx").resolve()


def names(session: Session) -> list[str]:
    return [entry.path.name for entry in session.documents.entries()]


def test_the_command_names_read_well() -> None:
    assert remove_text([Path("/a/essay-b.docx")]) == "Remove essay-b.docx"
    assert remove_text([Path("/a/x.txt"), Path("/a/y.txt")]) == "Remove 2 Documents"


def test_undoing_a_removal_restores_the_documents_without_reading_them_again(
    qtbot, settings, monkeypatch
) -> None:
    window = MainWindow(settings, TaskRunner(synchronous=True))
    qtbot.addWidget(window)
    session = window.session
    window.add_paths([ORIGINAL, COPY, UNRELATED], remember=False)
    before = [entry.document for entry in session.documents.entries()]
    shown = session.current
    assert shown is not None and {shown.a.path, shown.b.path} == {ORIGINAL, COPY}
    assert not window.undo_action.isEnabled()

    reads: list[Path] = []
    real_load = session_module.load_document

    def counting_load(path, options=None):
        reads.append(Path(path))
        return real_load(path, options)

    monkeypatch.setattr(session_module, "load_document", counting_load)
    # the first two rows selected, removed
    window.documents_view.selectRow(0)
    window.documents_view.selectionModel().select(
        session.documents.index(1, 0),
        window.documents_view.selectionModel().SelectionFlag.Select
        | window.documents_view.selectionModel().SelectionFlag.Rows,
    )
    window.remove_action.trigger()
    assert names(session) == [UNRELATED.name]
    assert session.current is None
    assert window.undo_action.isEnabled()
    assert window.undo_action.text() == "&Undo Remove 2 Documents"

    with qtbot.waitSignal(window.comparison_shown) as shown_again:
        window.undo_action.trigger()
    assert names(session) == [ORIGINAL.name, COPY.name, UNRELATED.name]  # their places
    assert [entry.document for entry in session.documents.entries()] == before
    assert reads == []  # not read again
    assert shown_again.args[0] is shown  # the very comparison that was on screen
    assert len(session.ranked) == 1  # and the ranking with it
    assert window.redo_action.text() == "&Redo Remove 2 Documents"

    window.redo_action.trigger()
    assert names(session) == [UNRELATED.name]


def test_clear_all_is_undone_and_redone_with_the_standard_keys(qtbot, settings) -> None:
    window = MainWindow(settings, TaskRunner(synchronous=True))
    qtbot.addWidget(window)
    window.add_paths([ORIGINAL, COPY], remember=False)
    comparison = window.session.current
    assert comparison is not None
    window.clear_action.trigger()
    assert names(window.session) == [] and window.stack.currentWidget() is window.empty
    assert window.undo_action.text() == "&Undo Clear All"
    assert window.undo_action.shortcut() == QKeySequence(QKeySequence.StandardKey.Undo)
    assert QKeySequence("Ctrl+Shift+Z") in window.redo_action.shortcuts()
    edit_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Edit")
    assert edit_menu.actions()[:2] == [window.undo_action, window.redo_action]

    window.undo_action.trigger()
    assert names(window.session) == [ORIGINAL.name, COPY.name]
    assert window.session.current is comparison
    assert window.stack.currentWidget() is window.view
    window.redo_action.trigger()
    assert names(window.session) == []


def test_a_document_whose_settings_changed_meanwhile_is_analysed_again(qtbot, settings) -> None:
    from core.options import MatchOptions, SignatureOptions

    window = MainWindow(settings, TaskRunner(synchronous=True))
    qtbot.addWidget(window)
    window.add_paths([ORIGINAL, COPY], remember=False)
    window.clear_action.trigger()
    settings.set_engine_options(SignatureOptions(key_size=3), MatchOptions())
    window.session.options_changed()
    with qtbot.waitSignal(window.comparison_shown) as shown:
        window.undo_action.trigger()
    comparison = shown.args[0]
    assert comparison.a.options.key_size == 3 and comparison.b.options.key_size == 3


def test_undo_with_real_workers_brings_back_the_comparison(qtbot, settings) -> None:
    window = MainWindow(settings, TaskRunner())
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.comparison_shown, timeout=30_000):
        window.add_paths([ORIGINAL, COPY], remember=False)
    qtbot.waitUntil(lambda: not window.busy, timeout=30_000)
    window.clear_action.trigger()
    with qtbot.waitSignal(window.comparison_shown, timeout=30_000) as shown:
        window.undo_action.trigger()
    assert {shown.args[0].a.path, shown.args[0].b.path} == {ORIGINAL, COPY}


def test_a_file_that_could_not_be_read_is_read_again_when_put_back(
    qtbot, settings, tmp_path: Path, monkeypatch
) -> None:
    from app.gui.models.document_list import Status

    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"PK\x03\x04 not a zip")
    window = MainWindow(settings, TaskRunner(synchronous=True))
    qtbot.addWidget(window)
    window.add_paths([ORIGINAL, broken, COPY], remember=False)
    reads: list[Path] = []
    real_load = session_module.load_document
    monkeypatch.setattr(
        session_module, "load_document", lambda p, o=None: reads.append(p) or real_load(p, o)
    )
    window.documents_view.selectRow(1)
    window.remove_action.trigger()
    assert window.undo_action.text() == "&Undo Remove broken.docx"
    window.undo_action.trigger()
    assert names(window.session) == [ORIGINAL.name, "broken.docx", COPY.name]
    assert reads == [broken.resolve()]  # only the one with nothing to keep
    entry = window.session.documents.entries()[1]
    assert entry.status is Status.FAILED and entry.error

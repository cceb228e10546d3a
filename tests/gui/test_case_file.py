"""File › Save Case… and Open Case…: the documents, settings and pair come back, and the window
says which documents changed, moved or went missing since the case was saved."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from app.gui import case_file as case_module
from app.gui.main_window import MainWindow
from app.gui.message_bar import Level
from app.gui.tasks import TaskRunner
from core.case import load_case
from core.options import MatchOptions, SignatureOptions
from core.resources import resource_path

SAMPLES = ("original-essay.txt", "reworded-copy.docx", "unrelated-essay.docx")


@pytest.fixture
def window(qtbot, settings) -> MainWindow:
    win = MainWindow(settings, TaskRunner())  # real workers: saving and opening are jobs
    qtbot.addWidget(win)
    win.resize(1280, 720)
    win.show()
    return win


def copies(folder: Path, names=SAMPLES[:2]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in names:
        shutil.copy(resource_path("samples", name), folder / name)
        paths.append((folder / name).resolve())
    return paths


def settle(qtbot, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: not window.busy, timeout=30_000)


def save(qtbot, window: MainWindow, target: Path, monkeypatch) -> None:
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *a, **k: (str(target.with_suffix("")), "")
    )
    with qtbot.waitSignal(window.cases.saved, timeout=30_000) as saved:
        window.save_case_action.trigger()
    assert saved.args[0] == target  # the suffix added


def open_case(qtbot, window: MainWindow, path: Path, monkeypatch):
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    with qtbot.waitSignal(window.cases.opened, timeout=30_000):
        window.open_case_action.trigger()
    settle(qtbot, window)
    comparison = window.view.comparison()
    assert comparison is not None and comparison is window.session.current
    return comparison


def test_a_saved_case_opens_with_a_changed_document_named(
    qtbot, window, tmp_path: Path, monkeypatch
) -> None:
    a, b = copies(tmp_path / "class")
    settings = window.settings
    settings.set_engine_options(SignatureOptions(key_size=3), MatchOptions(min_block=3))
    with qtbot.waitSignal(window.comparison_shown, timeout=30_000):
        window.add_paths([a, b], remember=False)
    settle(qtbot, window)
    target = tmp_path / "class.doppelcase"
    save(qtbot, window, target, monkeypatch)
    case = load_case(target)
    assert [d.path for d in case.documents] == [a, b]
    assert case.documents[0].sha256 == window.session.documents.entries()[0].document.content_hash
    assert case.signature.key_size == 3 and case.match.min_block == 3
    assert case.pair is not None and set(case.pair) == {a, b}

    # later: the settings changed, the list cleared, and one essay edited
    settings.set_engine_options(SignatureOptions(), MatchOptions())
    window.clear_action.trigger()
    a.write_text(a.read_text("utf-8") + "\nA sentence added after the case was saved.", "utf-8")
    comparison = open_case(qtbot, window, target, monkeypatch)
    assert {comparison.a.path, comparison.b.path} == {a, b}  # compared again
    assert settings.signature_options().key_size == 3  # the case's settings
    assert settings.match_options().min_block == 3
    bar = window.case_bar
    assert bar.isVisible() and bar.level is Level.WARNING
    assert "original-essay.txt has changed since the case was saved" in bar.text()
    assert "reworded-copy.docx" not in bar.text()
    assert bar.details == [f"original-essay.txt: changed since the case was saved ({a})"]
    assert not window.undo_action.isEnabled()  # the stack was about the list before
    assert str(target) in settings.recent_files()


def test_a_moved_document_is_found_next_to_the_case_file(
    qtbot, window, tmp_path: Path, monkeypatch
) -> None:
    paths = copies(tmp_path / "old", SAMPLES)
    with qtbot.waitSignal(window.comparison_shown, timeout=30_000):
        window.add_paths(paths, remember=False)
    settle(qtbot, window)
    # the pair on screen is not the first ranked one: the case keeps it
    with qtbot.waitSignal(window.comparison_shown, timeout=30_000):
        window.session.open_pair(paths[0], paths[2])
    settle(qtbot, window)
    new = tmp_path / "new"
    target = new / "class.doppelcase"
    save(qtbot, window, target, monkeypatch)
    window.clear_action.trigger()
    # the class folder moved; one essay renamed on the way; one deleted
    (new / "essay-one.txt").write_bytes(paths[0].read_bytes())
    shutil.move(paths[2], new / paths[2].name)
    paths[0].unlink()
    paths[1].unlink()

    comparison = open_case(qtbot, window, target, monkeypatch)
    moved_a, moved_c = (new / "essay-one.txt").resolve(), (new / paths[2].name).resolve()
    assert (comparison.a.path, comparison.b.path) == (moved_a, moved_c)  # the saved pair
    assert [e.path for e in window.session.documents.entries()] == [moved_a, moved_c]
    text = window.case_bar.text()
    assert "original-essay.txt and unrelated-essay.docx were not where the case says" in text
    assert "found next to the case file" in text
    assert "reworded-copy.docx is missing" in text
    details = window.case_bar.details
    assert f"original-essay.txt: moved: not at {paths[0]}; found at {moved_a}" in details
    assert any(line.startswith("reworded-copy.docx: missing") for line in details)
    window.case_bar.show_all_button.click()
    dialog = window.case_bar.details_dialog
    assert dialog is not None and "reworded-copy.docx: missing" in dialog.text.toPlainText()
    dialog.close()


def test_an_unchanged_case_says_so_and_a_malformed_one_says_why(
    qtbot, window, tmp_path: Path, monkeypatch
) -> None:
    a, b = copies(tmp_path / "class")
    with qtbot.waitSignal(window.comparison_shown, timeout=30_000):
        window.add_paths([a, b], remember=False)
    settle(qtbot, window)
    target = tmp_path / "class.doppelcase"
    save(qtbot, window, target, monkeypatch)
    open_case(qtbot, window, target, monkeypatch)
    assert window.case_bar.level is Level.INFORMATION
    assert "all 2 documents as they were when it was saved" in window.case_bar.text()

    broken = tmp_path / "broken.doppelcase"
    broken.write_text('{"format": "doppel-case", "version": 99}', "utf-8")
    errors: list[str] = []
    monkeypatch.setattr(
        "app.gui.main_window.show_error",
        lambda parent, title, text, details="": errors.append(text),
    )
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(broken), ""))
    with qtbot.waitSignal(window.cases.failed, timeout=30_000):
        window.open_case_action.trigger()
    assert errors == [
        "The case broken.doppelcase could not be opened: it was saved by a newer Doppel "
        "(case format 99); this one reads format 1: update Doppel to open it"
    ]
    assert [e.path for e in window.session.documents.entries()] == [a, b]  # untouched


def test_a_case_file_dropped_or_given_on_the_command_line_opens_as_a_case(
    qtbot, window, tmp_path: Path, monkeypatch
) -> None:
    a, b = copies(tmp_path / "class")
    with qtbot.waitSignal(window.comparison_shown, timeout=30_000):
        window.add_paths([a, b], remember=False)
    settle(qtbot, window)
    target = tmp_path / "class.doppelcase"
    save(qtbot, window, target, monkeypatch)
    window.clear_action.trigger()
    with qtbot.waitSignal(window.cases.opened, timeout=30_000):
        window.add_paths([target])  # what `doppel gui class.doppelcase` and a drop do
    settle(qtbot, window)
    assert [e.path for e in window.session.documents.entries()] == [a, b]
    assert case_module.is_case_file(target)

"""A document disguised to hide copying (letters swapped for look-alikes from another script) is
said above the document list and marked in it, and the copy is still found."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.gui.main_window import MainWindow
from app.gui.message_bar import Level
from app.gui.models.document_list import DocumentListModel
from app.gui.tasks import TaskRunner
from core.resources import resource_path

pytestmark = pytest.mark.usefixtures("no_user_cache")

ORIGINAL = resource_path("samples", "original-essay.txt").resolve()
#: Latin letters and the Cyrillic letters that look the same
LOOKALIKES = str.maketrans("aeopcxAEOPCX", "аеорсхАЕОРСХ")


@pytest.fixture
def window(qtbot, settings) -> MainWindow:
    win = MainWindow(settings, TaskRunner())
    qtbot.addWidget(win)
    win.resize(1280, 720)
    win.show()
    return win


def test_a_disguised_copy_is_found_and_the_disguise_is_said_above_the_list(
    qtbot, window, tmp_path: Path
) -> None:
    text = ORIGINAL.read_text(encoding="utf-8")
    disguised = tmp_path / "essay.txt"
    disguised.write_text(text.translate(LOOKALIKES), encoding="utf-8")
    swapped = sum(text.count(ch) for ch in "aeopcxAEOPCX")
    window.add_paths([ORIGINAL, disguised], remember=False)
    qtbot.waitUntil(
        lambda: not window.busy and window.view.comparison() is not None, timeout=30_000
    )
    comparison = window.view.comparison()
    assert comparison is not None and comparison.flagged
    assert comparison.copied_a > 0.9

    bar = window.disguises_bar
    assert bar.isVisible() and bar.level is Level.WARNING
    assert bar.text() == (
        f"essay.txt was disguised: {swapped:,} Latin letters replaced by look-alikes from "
        "other scripts — a known way to hide copying."
    )
    model = window.session.documents
    rows = {e.path.name: row for row, e in enumerate(model.entries())}
    icon = model.index(rows["essay.txt"], DocumentListModel.COL_NAME)
    plain = model.index(rows["original-essay.txt"], DocumentListModel.COL_NAME)
    assert model.data(icon, 1) is not None  # Qt.DecorationRole: a warning sign
    assert model.data(plain, 1) is None
    assert "look-alikes" in model.data(model.index(rows["essay.txt"], model.COL_NOTES))

    # dismissed, it stays away; removing the document takes it away for good
    bar.close_button.click()
    assert not bar.isVisible()
    window.session.remove_paths([disguised.resolve()])
    assert not bar.isVisible()


def test_the_folder_check_names_and_marks_a_disguised_submission(
    qtbot, folder_check_view, tmp_path: Path
) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    text = ORIGINAL.read_text(encoding="utf-8")
    (folder / "original-essay.txt").write_text(text, encoding="utf-8")
    (folder / "copy.txt").write_text(text.translate(LOOKALIKES), encoding="utf-8")
    (folder / "other.txt").write_bytes(resource_path("samples", "unrelated-essay.txt").read_bytes())
    view = folder_check_view
    view.setup.inputs.add_paths([folder])
    with qtbot.waitSignal(view.finished, timeout=60_000):
        view.setup.start_button.click()

    bar = view.disguises_bar
    assert bar.isVisible() and bar.level is Level.WARNING
    assert bar.text().startswith("copy.txt: ")
    assert "Latin letters replaced by look-alikes from other scripts" in bar.text()
    model = view.submissions
    names = {model.names[model.standing(row).document]: row for row in range(model.rowCount())}
    assert model.data(model.index(names["copy.txt"], model.COL_NAME), 1) is not None
    assert model.data(model.index(names["other.txt"], model.COL_NAME), 1) is None
    tip = model.data(model.index(names["copy.txt"], model.COL_NAME), 3)  # Qt.ToolTipRole
    assert "Disguised: " in tip

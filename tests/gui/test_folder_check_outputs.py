"""The Folder check's exports refuse what `doppel batch` refuses: a CSV file or a report folder
inside one of the checked folders (it would overwrite a submission or be read as one next
time), and a report folder that is not empty and holds no Doppel report. The refusal is a
message in the view; nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from app.gui.folder_check.view import FolderCheckView
from tests.core.classmaker import write_class
from tests.gui.test_folder_check_view import run_check

pytestmark = pytest.mark.usefixtures("no_user_cache")


@pytest.fixture
def view(qtbot, folder_check_view: FolderCheckView, tmp_path: Path) -> FolderCheckView:
    folder_check_view.add_inputs([write_class(tmp_path / "class", 4, pasted=0, copy=(1, 2))])
    run_check(qtbot, folder_check_view)
    return folder_check_view


def files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_a_csv_inside_the_checked_folder_is_refused(qtbot, view, tmp_path: Path) -> None:
    before = files_under(tmp_path / "class")
    with qtbot.waitSignal(view.failed) as failed:
        assert not view.export_csv(tmp_path / "class" / "pairs.csv")
    message = failed.args[0]
    assert message.startswith("The CSV file was not written")
    assert "inside the input folder" in message
    assert "inside the input folder" in view.status_label.text()
    assert files_under(tmp_path / "class") == before


def test_a_report_inside_the_checked_folder_is_refused(
    qtbot, view, tmp_path: Path, monkeypatch
) -> None:
    before = files_under(tmp_path / "class")
    inside = tmp_path / "class" / "report"
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(inside))
    with qtbot.waitSignal(view.failed) as failed:
        view.export_html_button.click()
    assert failed.args[0].startswith("The report was not written")
    assert "inside the input folder" in failed.args[0]
    assert files_under(tmp_path / "class") == before
    assert not view.busy and view.export_html_button.isEnabled()


def test_a_folder_that_is_no_report_is_refused_untouched(qtbot, view, tmp_path: Path) -> None:
    documents = tmp_path / "Documents"
    documents.mkdir()
    (documents / "grades.ods").write_bytes(b"grades")
    with qtbot.waitSignal(view.failed) as failed:
        assert not view.export_html(documents)
    assert "holds no Doppel report" in failed.args[0]
    assert files_under(documents) == ["grades.ods"]
    # an empty folder is fine, and so is the report written there, written again
    report = tmp_path / "report"
    report.mkdir()
    for _ in range(2):
        with qtbot.waitSignal(view.exported, timeout=60_000) as exported:
            assert view.export_html(report)
        assert exported.args == [report / "index.html"]
        qtbot.waitUntil(lambda: not view.busy)

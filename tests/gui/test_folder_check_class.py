"""The Folder check tab reading a class: each submission with the most of it found in another
(the Submissions tab), the message bar for a prompt everyone pasted (and checking again without
it), the evidence reports of chosen pairs, and the submissions CSV beside the pairs'. On a
generated class (`tests.core.classmaker`), with real worker threads."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import QFileDialog

from app.gui.folder_check import controller as folder_check
from app.gui.folder_check.common_hint_bar import LEAVE_OUT_TEXT
from app.gui.folder_check.view import FolderCheckView
from app.gui.models.folder_check_submissions import SubmissionModel
from core.errors import DocumentError
from core.reports.batch_export import SUBMISSION_CSV_COLUMNS, submissions_csv_path
from core.reports.wording import NOTHING_FOUND_IN_ANOTHER, percent
from tests.core.classmaker import PROMPT, write_class
from tests.gui.test_folder_check_view import run_check

pytestmark = pytest.mark.usefixtures("no_user_cache")


@pytest.fixture
def view(folder_check_view: FolderCheckView) -> FolderCheckView:
    return folder_check_view


def checked(qtbot, view: FolderCheckView, folder: Path):
    view.add_inputs([folder])
    return run_check(qtbot, view)


def cells(view: FolderCheckView, column: int) -> list[str]:
    proxy = view.submissions_proxy
    return [proxy.index(row, column).data() for row in range(proxy.rowCount())]


def select_rows(view: FolderCheckView, rows: list[int]) -> None:
    selection = view.pairs_view.selectionModel()
    selection.clearSelection()
    for row in rows:
        selection.select(
            view.proxy.index(row, 0),
            QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows,
        )


# -- the submissions -------------------------------------------------------------------------


def test_every_submission_with_the_most_of_it_found_in_another(
    qtbot, view: FolderCheckView, tmp_path: Path
) -> None:
    result = checked(qtbot, view, write_class(tmp_path / "class", 8, pasted=0))
    (copy,) = result.pairs  # student04 holds a paragraph of student08's
    assert view.result_tabs.tabText(0) == "Pairs (1)"
    assert view.result_tabs.tabText(1) == "Submissions (8)"
    names = cells(view, SubmissionModel.COL_NAME)
    assert names[:2] == ["student08.txt", "student04.txt"]  # the most found elsewhere first
    assert sorted(names[2:]) == names[2:] and len(names) == 8
    doc = {result.documents[k].path.name: k for k in range(8)}
    shares = {copy.a: copy.copied_a, copy.b: copy.copied_b}
    assert cells(view, SubmissionModel.COL_SHARE)[:2] == [
        percent(shares[doc["student08.txt"]]),
        percent(shares[doc["student04.txt"]]),
    ]
    assert cells(view, SubmissionModel.COL_PARTNER) == [
        "student04.txt",
        "student08.txt",
        *[NOTHING_FOUND_IN_ANOTHER] * 6,
    ]
    assert cells(view, SubmissionModel.COL_SHARE)[2:] == ["—"] * 6
    tip = view.submissions_proxy.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith(f"student08.txt: {cells(view, SubmissionModel.COL_SHARE)[0]} in ")
    # sortable by name; the name filter reads both documents
    view.submissions_view.sortByColumn(SubmissionModel.COL_NAME, Qt.SortOrder.AscendingOrder)
    assert cells(view, SubmissionModel.COL_NAME)[0] == "student01.txt"
    view.filter_edit.setText("student08")
    assert cells(view, SubmissionModel.COL_NAME) == ["student04.txt", "student08.txt"]
    view.filter_edit.clear()
    # double-click (or Enter) opens the submission beside its strongest partner
    view.result_tabs.setCurrentWidget(view.submissions_view)
    row = cells(view, SubmissionModel.COL_NAME).index("student08.txt")
    with qtbot.waitSignal(view.pair_opened) as opened:
        view.submissions_view.activated.emit(view.submissions_proxy.index(row, 1))
    assert opened.args == [copy]
    nothing = cells(view, SubmissionModel.COL_NAME).index("student01.txt")
    with qtbot.assertNotEmitted(view.pair_opened):
        view.submissions_view.activated.emit(view.submissions_proxy.index(nothing, 0))


# -- the prompt everyone pasted --------------------------------------------------------------


def test_a_pasted_prompt_is_pointed_out_and_left_out_on_request(
    qtbot, view: FolderCheckView, tmp_path: Path
) -> None:
    before = checked(qtbot, view, write_class(tmp_path / "class", 8))
    # the 21 pairs of the 7 who pasted it, and student08's paragraph copied by student04
    assert len(before.pairs) == 22 and before.common_hint is not None
    bar = view.hint_bar
    assert bar.isVisible()
    assert bar.text().startswith(
        "Most pairs share the same passage (in 7 of 8 submissions): 'Discuss the causes of the "
        "First World War."
    )
    assert "probably a prompt everyone pasted" in bar.text()
    assert bar.leave_out_button.text() == LEAVE_OUT_TEXT
    bar.show_button.click()
    assert bar.dialog is not None and bar.dialog.isVisible()
    assert bar.dialog.text.toPlainText() == f"In 7 of 8 submissions (36 words):\n{PROMPT}"
    bar.dialog.close()
    assert not view.setup.common_check.isChecked()
    with qtbot.waitSignal(view.finished, timeout=60_000) as done:
        bar.leave_out_button.click()
    after = done.args[0]
    assert view.setup.common_check.isChecked() and view.setup.common_spin.value() == 50
    assert after.exclusions.common_share == 0.5 and after.common_hint is None
    assert [p.text for p in after.common_text] == [PROMPT]
    assert len(after.pairs) == 1  # the real copy
    assert not bar.isVisible() and view.common_box.isVisible()


def test_the_message_can_be_dismissed_and_a_class_without_a_prompt_has_none(
    qtbot, view: FolderCheckView, tmp_path: Path
) -> None:
    checked(qtbot, view, write_class(tmp_path / "class", 6))
    assert view.hint_bar.isVisible()
    with qtbot.waitSignal(view.hint_bar.dismissed):
        view.hint_bar.dismiss_button.click()
    assert not view.hint_bar.isVisible()
    view.setup.inputs.clear()
    checked(qtbot, view, write_class(tmp_path / "plain", 6, pasted=0))
    assert not view.hint_bar.isVisible() and view.result.common_hint is None


# -- evidence --------------------------------------------------------------------------------


def test_the_evidence_of_one_pair_is_saved_where_the_teacher_says(
    qtbot, view: FolderCheckView, tmp_path: Path, monkeypatch
) -> None:
    checked(qtbot, view, write_class(tmp_path / "class", 8, pasted=0))
    assert not view.evidence_button.isEnabled()  # nothing chosen yet
    select_rows(view, [0])
    assert view.evidence_button.isEnabled() and view.evidence_button.text() == "Export Evidence…"
    asked: list[str] = []

    def save_as(_parent, _title, start, _filter):
        asked.append(start)
        return str(tmp_path / "case"), "PDF files (*.pdf)"

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    with qtbot.waitSignal(view.check.evidence_exported, timeout=60_000) as done:
        view.evidence_actions["pdf"].trigger()
    assert Path(asked[0]).name == "student04 vs student08.pdf"  # named from both documents
    (written,) = done.args[0]
    assert written == tmp_path / "case.pdf"
    assert written.read_bytes().startswith(b"%PDF")
    assert "case.pdf" in view.status_label.text()


def test_the_evidence_of_several_pairs_goes_into_a_folder_one_file_each(
    qtbot, view: FolderCheckView, tmp_path: Path, monkeypatch
) -> None:
    checked(qtbot, view, write_class(tmp_path / "class", 4, copy=None))  # the prompt: 3 pairs
    select_rows(view, [0, 1, 2])
    assert view.evidence_button.text() == "Export Evidence (3)…"
    target = tmp_path / "evidence"
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *_args: str(target))
    progress: list[str] = []
    view.check.progressed.connect(lambda _f, message: progress.append(message))
    with qtbot.waitSignal(view.check.evidence_exported, timeout=60_000) as done:
        view.export_evidence("html")
    written = done.args[0]
    assert sorted(p.name for p in written) == [
        "student01 vs student02.html",
        "student01 vs student03.html",
        "student02 vs student03.html",
    ]
    assert all(p.parent == target and "<html" in p.read_text("utf-8").lower() for p in written)
    assert any(re.match(r"[123] of 3: Evidence of student0\d\.txt and ", m) for m in progress)
    assert "3 evidence reports" in view.status_label.text()


def test_the_evidence_of_several_pairs_never_replaces_a_file_nor_lands_in_the_class(
    qtbot, view: FolderCheckView, tmp_path: Path, monkeypatch
) -> None:
    """A file already in the chosen folder is kept (the report takes another name); a folder
    the check read is refused: the next check would read the reports as submissions."""
    folder = write_class(tmp_path / "class", 4, copy=None)
    checked(qtbot, view, folder)
    select_rows(view, [0, 1])
    target = tmp_path / "evidence"
    target.mkdir()
    mine = target / "student01 vs student02.html"
    mine.write_text("the teacher's own notes", encoding="utf-8")
    with qtbot.waitSignal(view.check.evidence_exported, timeout=60_000) as done:
        assert view.export_evidence("html", target=target)
    assert mine.read_text(encoding="utf-8") == "the teacher's own notes"
    assert "student01 vs student02 (2).html" in {p.name for p in done.args[0]}
    before = sorted(p.name for p in folder.rglob("*"))
    assert not view.export_evidence("html", target=folder)
    assert "not written into a folder being checked" in view.status_label.text()
    assert sorted(p.name for p in folder.rglob("*")) == before


def test_a_pair_whose_document_cannot_be_read_again_does_not_stop_the_others(
    qtbot, view: FolderCheckView, tmp_path: Path, monkeypatch
) -> None:
    """(A document is read again from the cache, as checked, while the cache holds it; one
    that neither the cache nor the file can give fails its own pair, not the export.)"""
    checked(qtbot, view, write_class(tmp_path / "class", 4, copy=None))
    result = view.check.result
    assert result is not None and len(result.pairs) == 3
    unreadable = result.pairs[1]
    real = folder_check.checked_comparison

    def reread(result, pair, *args, **kwargs):
        if pair is unreadable:
            raise DocumentError(result.documents[pair.a].path, "the file was replaced")
        return real(result, pair, *args, **kwargs)

    monkeypatch.setattr(folder_check, "checked_comparison", reread)
    failures: list[str] = []
    view.check.failed.connect(lambda message, details: failures.append(f"{message}|{details}"))
    with qtbot.waitSignal(view.check.evidence_exported, timeout=60_000) as done:
        assert view.export_evidence("html", target=tmp_path / "evidence", pairs=result.pairs)
    assert len(done.args[0]) == 2
    assert failures and failures[0].startswith("1 pair could not be exported")
    assert "2 reports written" in failures[0] and "the file was replaced" in failures[0]


def test_the_evidence_export_can_be_cancelled(
    qtbot, view: FolderCheckView, tmp_path: Path, monkeypatch
) -> None:
    result = checked(qtbot, view, write_class(tmp_path / "class", 4, copy=None))
    real = folder_check.checked_comparison
    go = threading.Event()

    def held_then_compare(*args, **kwargs):
        go.wait(timeout=60)  # the first pair waits until the teacher has clicked Cancel
        return real(*args, **kwargs)

    monkeypatch.setattr(folder_check, "checked_comparison", held_then_compare)
    with qtbot.waitSignal(view.check.cancelled, timeout=60_000):
        assert view.export_evidence("html", tmp_path / "out", pairs=result.pairs)
        assert view.busy and view.setup.cancel_button.isEnabled()
        view.setup.cancel_button.click()
        go.set()
    assert not (tmp_path / "out").exists()  # stopped before the first file
    assert view.status_label.text() == "The evidence export was cancelled."
    assert not view.busy


def test_the_pairs_context_menu_opens_and_exports(
    qtbot, view: FolderCheckView, tmp_path: Path
) -> None:
    checked(qtbot, view, write_class(tmp_path / "class", 4, pasted=0, copy=(0, 1)))
    select_rows(view, [0])
    rect = view.pairs_view.visualRect(view.proxy.index(0, 0))
    view._context_menu(view.pairs_view, rect.center())
    texts = [a.text() for a in view.context_menu.actions() if not a.isSeparator()]
    assert texts == [
        "Open Side by Side",
        "Export Evidence as PDF…",
        "Export Evidence as HTML…",
    ]
    with qtbot.waitSignal(view.pair_opened):
        view.context_menu.actions()[0].trigger()
    view.context_menu.close()


# -- CSV ------------------------------------------------------------------------------------


def test_the_csv_export_writes_the_submissions_beside_the_pairs(
    qtbot, view: FolderCheckView, tmp_path: Path
) -> None:
    checked(qtbot, view, write_class(tmp_path / "class", 8, pasted=0))
    target = tmp_path / "out" / "history.csv"
    with qtbot.waitSignal(view.exported):
        assert view.export_csv(target)
    beside = submissions_csv_path(target)
    assert beside == tmp_path / "out" / "history-submissions.csv"
    lines = beside.read_text("utf-8").splitlines()
    assert lines[0] == ",".join(SUBMISSION_CSV_COLUMNS) and len(lines) == 9
    assert "history.csv" in view.status_label.text()
    assert "history-submissions.csv" in view.status_label.text()

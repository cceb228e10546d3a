"""The Folder check with an archive index as its earlier years: choosing one shows what it
holds (or why it cannot be used), a check against it finds what the same check against the
archived folder finds, a pair with an archived document is read from the index after its file
is gone, and a finished check's submissions can be added to an index."""

from __future__ import annotations

import html
import os
import shutil
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray, QDataStream, QIODevice
from PySide6.QtWidgets import QMessageBox

from app.gui.folder_check import controller as controller_module
from app.gui.folder_check import setup_panel as panel_module
from app.gui.folder_check import view as view_module
from app.gui.folder_check.archive_add import AddChoice, AddToArchiveDialog, add_choices
from app.gui.folder_check.archive_summary import IndexSummary, added_text
from app.gui.folder_check.setup_panel import EARLIER_HINT, SetupPanel, SetupState
from app.gui.folder_check.view import FolderCheckView
from app.gui.models.folder_check_pairs import FolderCheckPairModel
from app.gui.tasks import TaskRunner
from core.archive.add import AddResult, add_to_archive
from core.archive.index import ArchiveIndex
from core.batch.result import BatchResult, FailedDocument
from core.batch.run import BatchOptions
from core.options import MatchOptions, SignatureOptions
from tests.core.classmaker import write_class

pytestmark = pytest.mark.usefixtures("no_user_cache")

LAST_YEAR_STUDENTS = 8
THIS_YEAR_STUDENTS = 6


def _year(when: str) -> float:
    return time.mktime(time.strptime(when, "%Y-%m-%d"))


@pytest.fixture
def years(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Last year's class (files dated 2019 and 2021) archived in an index, and this year's
    class, whose student03 pasted a paragraph of last year's student05."""
    old = write_class(tmp_path / "2021", LAST_YEAR_STUDENTS, pasted=0, copy=None, seed=1)
    for number, path in enumerate(sorted(old.iterdir())):
        stamp = _year("2019-06-01" if number < 3 else "2021-06-01")
        os.utime(path, (stamp, stamp))
    new = write_class(tmp_path / "class", THIS_YEAR_STUDENTS, pasted=0, copy=None, seed=2)
    borrowed = (old / "student05.txt").read_text("utf-8").split("\n\n")[1]
    planted = new / "student03.txt"
    planted.write_text(planted.read_text("utf-8") + "\n\n" + borrowed, "utf-8")
    index = tmp_path / "archive.sqlite3"
    with ArchiveIndex(index, create=True) as archive:
        add_to_archive([old], archive, BatchOptions(workers=1))
    return old, new, index


def documents_in(index: Path) -> int:
    with ArchiveIndex(index) as archive:
        return archive.info().documents


def pair_facts(result: BatchResult) -> set[tuple[str, str, float, float, int]]:
    """Each pair by its documents' paths, with what was found in it."""
    docs = result.documents
    return {
        (
            str(docs[p.a].path),
            str(docs[p.b].path),
            round(p.copied_a, 9),
            round(p.copied_b, 9),
            len(p.pieces),
        )
        for p in result.pairs
    }


def run_check(qtbot, view: FolderCheckView) -> BatchResult:
    with qtbot.waitSignal(view.finished, timeout=60_000) as done:
        assert view.start()
    result: BatchResult = done.args[0]
    return result


@pytest.fixture
def panel(qtbot, settings) -> SetupPanel:
    widget = SetupPanel(settings, runner=TaskRunner())  # summaries read on a real worker
    qtbot.addWidget(widget)
    return widget


# -- choosing the index ---------------------------------------------------------------------


def test_choosing_an_index_shows_what_it_holds_and_is_remembered(
    qtbot, settings, panel: SetupPanel, years, tmp_path: Path
) -> None:
    old, new, index = years
    panel.inputs.add_paths([new])
    panel.archives.add_paths([old])
    panel.use_index(index)  # an index replaces the folders: one or the other
    assert panel.archives.folders() == [] and panel.index() == index
    item = panel.archives.index_item()
    assert item is not None
    qtbot.waitUntil(lambda: item.text() == "Archive: 8 documents, 2019–2021", timeout=10_000)
    assert str(index) in item.toolTip() and panel.start_button.isEnabled()
    assert panel.archives.hint.text() == EARLIER_HINT

    state = panel.state()
    assert state.archive_index == str(index) and state.archives == []
    data = QByteArray()
    state.write(QDataStream(data, QIODevice.OpenModeFlag.WriteOnly))
    assert SetupState.read(QDataStream(data, QIODevice.OpenModeFlag.ReadOnly), 4) == state
    other = SetupPanel(settings)  # (inline: its summary is read at once)
    qtbot.addWidget(other)
    other.restore(state)
    assert other.index() == index
    assert other.archives.list.item(0).text() == "Archive: 8 documents, 2019–2021"

    panel.archives.add_paths([old])  # and a folder replaces the index
    assert panel.index() is None and panel.archives.folders() == [old]


def test_an_index_made_with_other_settings_says_so(
    qtbot, settings, panel: SetupPanel, years
) -> None:
    """The check reads the new submissions with the index's options whatever Comparison
    Settings say (the archived documents were read with them): the panel says so."""
    _, new, index = years  # (made with the default options: language detected per document)
    settings.set_engine_options(SignatureOptions(language="en", key_size=3), MatchOptions())
    panel.inputs.add_paths([new])
    panel.use_index(index)
    qtbot.waitUntil(lambda: panel.archives.hint.text() != EARLIER_HINT, timeout=10_000)
    assert panel.archives.hint.text() == (
        "This archive was made with other comparison settings (language detected per "
        "document, key size 2): the check reads this year's submissions the same way, so "
        "they compare with it."
    )
    assert panel.start_button.isEnabled()
    settings.set_engine_options(SignatureOptions(), MatchOptions())
    panel.read_index_summary()
    qtbot.waitUntil(lambda: panel.archives.hint.text() == EARLIER_HINT, timeout=10_000)


def test_a_state_saved_before_archive_indexes_still_reads(qtbot, settings, tmp_path) -> None:
    view = FolderCheckView(settings, TaskRunner(synchronous=True), tmp_path / "c.sqlite3")
    qtbot.addWidget(view)
    old, stream = view_module.write_state(
        view_module.STATE_MAGIC,
        3,
        (
            view.results_splitter.saveState(),
            view.side_splitter.saveState(),
            view.pairs_splitter.saveState(),
            view.pairs_view.horizontalHeader().saveState(),
        ),
    )
    # what version 3 wrote: no archive index after the common-text share
    stream.writeInt32(15)
    stream.writeBool(False)
    stream.writeQStringList([str(tmp_path / "class")])
    stream.writeQStringList([str(tmp_path / "last-year")])
    stream.writeQStringList([])
    stream.writeBool(False)
    stream.writeInt32(50)
    assert view.restore_state(old)
    assert view.threshold() == 0.15 and view.setup.archives.folders() == [tmp_path / "last-year"]
    assert view.setup.index() is None


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"An essay about the war, not an index.\n", "not a Doppel archive index"),
        (b"", "an empty file"),
    ],
)
def test_a_file_that_is_not_an_index_says_why_and_start_waits(
    qtbot, panel: SetupPanel, tmp_path: Path, content: bytes, reason: str
) -> None:
    essay = tmp_path / "essay.txt"
    essay.write_bytes(content)
    panel.inputs.add_paths([tmp_path])
    panel.use_index(essay)
    item = panel.archives.index_item()
    assert item is not None
    qtbot.waitUntil(lambda: item.text() == "Not usable: essay.txt", timeout=10_000)
    hint = panel.archives.hint.text()
    assert reason in hint and str(essay) in hint and hint[0].isupper()
    assert not panel.start_button.isEnabled()
    assert essay.read_bytes() == content  # left as it was
    panel.archives.list.setCurrentRow(0)
    panel.archives.remove_selected()  # another choice: Start again
    assert panel.archives.hint.text() == EARLIER_HINT and panel.start_button.isEnabled()


def test_the_document_cache_chosen_as_the_index_is_named(
    qtbot, settings, tmp_path: Path, years
) -> None:
    _, new, _ = years
    view = FolderCheckView(settings, TaskRunner(synchronous=True), tmp_path / "cache.sqlite3")
    qtbot.addWidget(view)
    view.add_inputs([new])
    run_check(qtbot, view)  # (writes the document cache)
    view.setup.use_index(tmp_path / "cache.sqlite3")
    assert "Doppel's document cache, not an archive index" in view.setup.archives.hint.text()
    assert not view.start()


def test_the_default_archive_is_offered_only_where_there_is_one(
    panel: SetupPanel, monkeypatch, years, tmp_path: Path
) -> None:
    _, _, index = years
    missing = tmp_path / "data" / "archive.sqlite3"
    monkeypatch.setattr(panel_module, "default_index_path", lambda: missing)
    panel.archives.refresh_default()
    assert not panel.archives.default_index_action.isEnabled()
    monkeypatch.setattr(panel_module, "default_index_path", lambda: index)
    panel.archives.refresh_default()
    assert panel.archives.default_index_action.isEnabled()
    panel.archives.default_index_action.trigger()
    assert panel.index() == index


# -- checking against it ---------------------------------------------------------------------


def test_a_check_against_the_index_finds_what_the_archived_folder_check_finds(
    qtbot, folder_check_view: FolderCheckView, years
) -> None:
    old, new, index = years
    view = folder_check_view
    view.add_inputs([new])
    view.add_archives([old])
    against_folder = run_check(qtbot, view)

    view.setup.use_index(index)
    qtbot.waitUntil(lambda: view.setup.archives.summary() is not None, timeout=10_000)
    qtbot.waitUntil(lambda: view.setup.archives.summary().usable, timeout=10_000)  # type: ignore[union-attr]
    against_index = run_check(qtbot, view)

    planted = (str(new / "student03.txt"), str(old / "student05.txt"))
    assert any(fact[:2] == planted for fact in pair_facts(against_index))
    assert pair_facts(against_index) == pair_facts(against_folder)
    assert view.check.archive is not None and view.check.archive.documents == LAST_YEAR_STUDENTS
    summary = html.unescape(view.summary_label.text())
    assert "against the archive's 8 documents (2019–2021)" in summary
    assert "of the archive's 8 documents shared enough" in html.unescape(
        view.summary_label.toolTip()
    )
    # the archived partner is marked as an earlier year's, as with folders
    names = [
        view.pairs.data(view.pairs.index(row, FolderCheckPairModel.COL_B))
        for row in range(view.pairs.rowCount())
    ]
    assert any("student05" in str(name) for name in names)
    tips = [
        view.pairs.data(view.pairs.index(row, FolderCheckPairModel.COL_B), 3)  # ToolTipRole
        for row in range(view.pairs.rowCount())
    ]
    assert any("(earlier year)" in str(tip) for tip in tips)


def test_an_archived_document_is_read_from_the_index_after_its_file_is_gone(
    qtbot, folder_check_view: FolderCheckView, years, tmp_path: Path
) -> None:
    old, new, index = years
    view = folder_check_view
    view.add_inputs([new])
    view.setup.use_index(index)
    result = run_check(qtbot, view)
    archived_text = (old / "student05.txt").read_text("utf-8")
    shutil.rmtree(old)  # the files of earlier years are long gone
    pair = next(p for p in result.pairs if result.documents[p.b].archive)
    with view.check.documents() as documents:
        comparison = documents.comparison(result, pair)
    assert comparison.b.text.split() == archived_text.split()
    assert comparison.a.path == new / "student03.txt"
    assert comparison.blocks  # the pasted paragraph, found again

    target = tmp_path / "evidence.html"
    with qtbot.waitSignal(view.check.evidence_exported, timeout=60_000) as written:
        assert view.export_evidence("html", target, [pair])
    assert written.args[0] == [target] and "student05" in target.read_text("utf-8")


# -- adding to it ----------------------------------------------------------------------------


def test_adding_after_a_check_files_the_submissions_once(
    qtbot, folder_check_view: FolderCheckView, years
) -> None:
    _, new, index = years
    view = folder_check_view
    assert not view.add_to_archive_button.isEnabled()  # nothing checked yet
    view.add_inputs([new])
    view.setup.use_index(index)
    first = run_check(qtbot, view)
    assert view.add_to_archive_button.isEnabled()

    with qtbot.waitSignal(view.check.archive_added, timeout=60_000) as added:
        assert view.add_to_archive(index)
    assert added.args[0].added == THIS_YEAR_STUDENTS
    assert documents_in(index) == LAST_YEAR_STUDENTS + THIS_YEAR_STUDENTS
    assert view.archive_bar.isVisible()
    assert view.archive_bar.text() == "Added 6 submissions to the archive."
    item = view.setup.archives.index_item()
    assert item is not None and item.text().startswith("Archive: 14 documents, 2019–")

    with qtbot.waitSignal(view.check.archive_added, timeout=60_000):
        assert view.add_to_archive(index)
    assert view.archive_bar.text() == "Added 0 submissions to the archive (6 already there)."
    assert documents_in(index) == LAST_YEAR_STUDENTS + THIS_YEAR_STUDENTS

    # next year's check against the index does not pair this year's files with themselves
    again = run_check(qtbot, view)
    assert pair_facts(again) == pair_facts(first)


def test_adding_to_a_new_file_makes_an_index_and_a_foreign_file_is_refused(
    qtbot, folder_check_view: FolderCheckView, years, tmp_path: Path
) -> None:
    old, new, _ = years
    view = folder_check_view
    view.add_inputs([new])
    view.add_archives([old])  # folders this time
    run_check(qtbot, view)
    fresh = tmp_path / "kept" / "new-archive.sqlite3"
    with qtbot.waitSignal(view.check.archive_added, timeout=60_000):
        assert view.add_to_archive(fresh)
    assert documents_in(fresh) == THIS_YEAR_STUDENTS

    essay = new / "student01.txt"
    before = essay.read_bytes()
    with qtbot.waitSignal(view.failed, timeout=60_000) as failed:
        assert view.add_to_archive(essay)
    text = failed.args[0]
    assert text.startswith("Adding to the archive stopped: the archive index")
    assert "not a Doppel archive index" in text and "Traceback" not in text
    assert essay.read_bytes() == before and "not a Doppel archive index" in (
        view.status_label.text()
    )


def test_what_an_add_says(years) -> None:
    _, _, index = years
    with ArchiveIndex(index) as archive:
        info = archive.info()

    def result(added: int, updated: int, unchanged: int, failed: int) -> AddResult:
        lost = tuple(FailedDocument(Path(f"/x/{k}.txt"), "unreadable") for k in range(failed))
        return AddResult(added, updated, unchanged, lost, (), info)

    forty = "Added 40 submissions to the archive (1 already there)."
    assert added_text(result(40, 0, 1, 0)) == forty
    assert added_text(result(1, 2, 0, 1)) == (
        "Added 1 submission to the archive (2 updated: their files changed). "
        "1 file could not be read and was not added."
    )


def test_the_add_question_offers_the_index_in_use_the_default_and_another_file(
    qtbot, tmp_path: Path
) -> None:
    in_use, default = tmp_path / "school.sqlite3", tmp_path / "archive.sqlite3"
    assert add_choices(in_use, default, True) == [
        AddChoice("Add to the Archive in Use", in_use),
        AddChoice("Add to the Default Archive", default),
        AddChoice("Another Index File…", None),
    ]
    assert add_choices(None, default, False) == [
        AddChoice("Start the Default Archive", default),
        AddChoice("Another Index File…", None),
    ]
    assert [c.index for c in add_choices(default, default, True)] == [default, None]

    choices = add_choices(in_use, default, True)
    summary = IndexSummary(in_use)
    dialog = AddToArchiveDialog(40, choices, summary, None)
    qtbot.addWidget(dialog)
    assert "Add the 40 submissions of this check" in dialog.text()
    assert str(in_use) in dialog.informativeText()
    dialog.open()
    dialog.button_for(choices[1]).click()
    assert dialog.choice() == choices[1]
    dialog = AddToArchiveDialog(40, choices, None, None)
    qtbot.addWidget(dialog)
    dialog.open()
    dialog.button(QMessageBox.StandardButton.Cancel).click()
    assert dialog.choice() is None


def test_adding_can_be_cancelled_and_says_so(
    qtbot, folder_check_view: FolderCheckView, years, monkeypatch
) -> None:
    _, new, index = years
    view = folder_check_view
    view.add_inputs([new])
    view.setup.use_index(index)
    run_check(qtbot, view)
    started, given_up = threading.Event(), threading.Event()

    def held(paths, archive, options, progress):  # reports until told to stop
        started.set()
        while not given_up.is_set():  # (the test's end stops it, should cancel fail)
            progress(0.5, "Reading the submissions…")
        raise AssertionError("not cancelled")

    monkeypatch.setattr(controller_module, "add_to_archive", held)
    try:
        assert view.add_to_archive(index)
        assert not view.add_to_archive_button.isEnabled() and not view.start()
        qtbot.waitUntil(started.is_set, timeout=10_000)
        with qtbot.waitSignal(view.cancelled, timeout=10_000):
            view.setup.cancel_button.click()
    finally:
        given_up.set()
    assert "Adding to the archive was cancelled" in view.status_label.text()
    assert documents_in(index) == LAST_YEAR_STUDENTS and view.add_to_archive_button.isEnabled()

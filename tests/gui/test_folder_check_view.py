"""The Folder check tab end to end: choose folders, run on real worker threads, read the pair
table, heatmap, groups and unreadable files; cancel, errors, open a pair, export CSV and HTML."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray, QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QApplication, QFileDialog, QWidget

from app.gui import tasks
from app.gui.folder_check import controller as folder_check
from app.gui.folder_check.heatmap import MAX_DOCUMENTS, SimilarityHeatmap
from app.gui.folder_check.setup_panel import MODE_ALL, MODE_ARCHIVE, SetupState
from app.gui.folder_check.view import FolderCheckView, eta_text
from app.gui.main_window import MainWindow
from app.gui.models.folder_check_pairs import (
    PAIR_ROLE,
    SORT_ROLE,
    FolderCheckPairModel,
    PairFilterProxy,
)
from app.gui.tasks import TaskRunner
from app.gui.view_state import write_state
from core.batch import run as batch_module
from core.batch.run import BatchOptions, run_batch
from core.options import MatchOptions, SignatureOptions
from core.reports.batch_export import CSV_COLUMNS, batch_to_csv
from core.reports.heatmap import heatmap
from core.reports.wording import percent
from core.resources import resource_path
from tests.core.docmakers import COPIED, FILLER_A, FILLER_B
from tests.gui_logic.edited import MONASTERY, MONASTERY_EDITED

pytestmark = pytest.mark.usefixtures("no_user_cache")

SAMPLES = ("original-essay", "reworded-copy", "unrelated-essay")


def copy_sample(name: str, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(resource_path("samples", name), folder / name))


@pytest.fixture
def collection(tmp_path: Path) -> Path:
    """The six sample files (each essay as .txt and .docx) and a file that cannot be read."""
    folder = tmp_path / "class"
    for stem in SAMPLES:
        for suffix in (".txt", ".docx"):
            copy_sample(stem + suffix, folder)
    (folder / "broken.docx").write_bytes(b"PK\x03\x04 this is not a zip")
    return folder


@pytest.fixture
def view(folder_check_view: FolderCheckView) -> FolderCheckView:
    return folder_check_view


def run_check(qtbot, view: FolderCheckView):
    with qtbot.waitSignal(view.finished, timeout=60_000) as done:
        view.setup.start_button.click()
    return done.args[0]


def drop(target: QWidget, paths: list[Path], where: QPoint | None = None) -> None:
    """A real drag entering `target`, then the drop, as Qt sends them."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    spot = where or QPoint(target.width() // 2, target.height() // 2)
    buttons, modifiers = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(spot, Qt.DropAction.CopyAction, mime, buttons, modifiers)
    QApplication.sendEvent(target, enter)
    assert enter.isAccepted()
    event = QDropEvent(QPointF(spot), Qt.DropAction.CopyAction, mime, buttons, modifiers)
    QApplication.sendEvent(target, event)
    assert event.isAccepted()


def column(view: FolderCheckView, col: int, role: int = Qt.ItemDataRole.DisplayRole) -> list:
    proxy = view.proxy
    return [proxy.index(row, col).data(role) for row in range(proxy.rowCount())]


def names_of(view: FolderCheckView) -> list[set[str]]:
    a = column(view, FolderCheckPairModel.COL_A)
    b = column(view, FolderCheckPairModel.COL_B)
    return [{x, y} for x, y in zip(a, b, strict=True)]


# -- pieces without a window ---------------------------------------------------------------


def test_time_left_is_said_roughly_and_only_once_it_can_be_known() -> None:
    assert eta_text(1.5, 0.5) == ""  # under 2 s
    assert eta_text(30.0, 0.04) == ""  # under 5 %
    assert eta_text(10.0, 1.0) == ""
    assert eta_text(10.0, 0.2) == "about 40 s left"
    assert eta_text(4.0, 0.5) == "a few seconds left"
    assert eta_text(60.0, 0.25) == "about 3 min left"
    assert eta_text(600.0, 0.1) == "about 1 h 30 min left"


def test_pair_model_sorts_by_number_filters_by_name_and_threshold(qapp, collection) -> None:
    result = run_batch(
        [collection], options=BatchOptions(signature=SignatureOptions(language="en"), workers=1)
    )
    model = FolderCheckPairModel()
    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    model.set_result(result)
    assert model.rowCount() == len(result.pairs) == 7
    assert model.columnCount() == 9
    first = model.index(0, FolderCheckPairModel.COL_JACCARD)
    assert model.data(first, PAIR_ROLE) is result.pairs[0]
    assert model.data(first, SORT_ROLE) == result.pairs[0].jaccard
    assert model.data(first) == percent(result.pairs[0].jaccard)
    assert model.data(model.index(0, FolderCheckPairModel.COL_LONGEST), SORT_ROLE) == (
        result.pairs[0].longest_block
    )
    # the copied shares (the larger, and each document's) and the passages of both kinds
    copy = next(p for p in result.pairs if p.reworded_passages)
    row = result.pairs.index(copy)
    values = {
        column: model.data(model.index(row, column))
        for column in range(FolderCheckPairModel.COL_COPIED, model.columnCount())
    }
    assert values == {
        FolderCheckPairModel.COL_COPIED: percent(copy.copied),
        FolderCheckPairModel.COL_COPIED_A: percent(copy.copied_a),
        FolderCheckPairModel.COL_COPIED_B: percent(copy.copied_b),
        FolderCheckPairModel.COL_BLOCKS: "4",
        FolderCheckPairModel.COL_REWORDED: "2",
        FolderCheckPairModel.COL_LONGEST: str(copy.longest_block),
        FolderCheckPairModel.COL_JACCARD: percent(copy.jaccard),
    }
    assert copy.copied == max(copy.copied_a, copy.copied_b) > copy.jaccard
    tip = model.data(model.index(row, 0), Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("Copied text found: ") and "4 word for word, 2 edited" in tip

    proxy = PairFilterProxy()
    proxy.setSourceModel(model)
    QAbstractItemModelTester(proxy, QAbstractItemModelTester.FailureReportingMode.Fatal)
    proxy.sort(FolderCheckPairModel.COL_JACCARD, Qt.SortOrder.AscendingOrder)
    scores = [proxy.index(r, FolderCheckPairModel.COL_JACCARD).data(SORT_ROLE) for r in range(7)]
    assert scores == sorted(scores) and scores[0] < 0.5
    proxy.set_text("UNRELATED")
    assert proxy.rowCount() == 1
    proxy.set_text("")
    proxy.set_threshold(0.8)  # on the copied share: the three identical pairs
    assert proxy.rowCount() == 3
    assert all(proxy.pair(proxy.index(r, 0)).copied >= 0.8 for r in range(3))
    proxy.set_threshold(0.5)  # the copies reach it by their share, not by Jaccard (30.8%)
    assert proxy.rowCount() == 7


def test_heatmap_documents_are_capped_and_grouped(qapp, collection) -> None:
    result = run_batch(
        [collection], options=BatchOptions(signature=SignatureOptions(language="en"), workers=1)
    )
    order = heatmap(result, 0.0, MAX_DOCUMENTS).documents
    assert len(order) == 6
    names = [result.documents[i].path.stem for i in order]
    # the four linked documents (the essay and its reworded copy) sit together, then the pair
    assert set(names[:4]) == {"original-essay", "reworded-copy"}
    assert set(names[4:]) == {"unrelated-essay"}
    assert len(heatmap(result, 0.0, 3).documents) == 3
    assert heatmap(result, 1.01, MAX_DOCUMENTS).documents == ()
    # the widget paints what the engine decided (the HTML report draws the same)
    for threshold in (0.0, 0.5):
        widget = SimilarityHeatmap()
        widget.set_result(result, [d.path.name for d in result.documents], threshold)
        expected = heatmap(result, threshold, MAX_DOCUMENTS)
        assert widget.documents() == list(expected.documents)
        assert widget.cells() == list(expected.cells)


# -- the view, end to end ------------------------------------------------------------------


def test_a_folder_check_fills_the_table_heatmap_groups_and_failed_list(
    qtbot, view, collection, tmp_path
) -> None:
    drop(view, [collection])
    assert view.setup.inputs.paths() == [collection]
    assert view.setup.mode_label.text() == MODE_ALL
    progress: list[tuple[float, str]] = []
    view.check.progressed.connect(lambda f, m: progress.append((f, m)))

    result = run_check(qtbot, view)

    assert (
        not view.busy
        and view.setup.start_button.isEnabled()
        and not view.setup.cancel_button.isEnabled()
    )
    assert not view.progress_bar.isVisible()
    assert (tmp_path / "cache.sqlite3").exists()  # the cache the test named, nobody else's
    assert progress and progress[-1][0] == 1.0
    # the table: every pair with copied text found, the most copied first (the engine's rank)
    assert view.proxy.rowCount() == 7
    shares = column(view, FolderCheckPairModel.COL_COPIED, SORT_ROLE)
    assert shares == sorted(shares, reverse=True)
    assert column(view, FolderCheckPairModel.COL_COPIED)[0] == "100%"
    assert [view.proxy.pair(view.proxy.index(r, 0)) for r in range(7)] == list(result.pairs)
    assert "<b>7 pairs</b> with copied text found" in view.summary_label.text()
    assert {"original-essay.txt", "reworded-copy.docx"} in names_of(view)
    # sorting by another column, by its number
    view.pairs_view.sortByColumn(FolderCheckPairModel.COL_BLOCKS, Qt.SortOrder.AscendingOrder)
    blocks = column(view, FolderCheckPairModel.COL_BLOCKS, SORT_ROLE)
    assert blocks == sorted(blocks) and blocks[0] == 1 and blocks[-1] == 4
    # the name filter
    view.filter_edit.setText("unrelated")
    assert names_of(view) == [{"unrelated-essay.txt", "unrelated-essay.docx"}]
    view.filter_edit.clear()
    # the unreadable file, with its reason
    ((name, reason),) = view.failed_files()
    assert name == "broken.docx" and "zip" in reason
    assert view.failed_box.isVisible()
    # groups and heatmap at 0 %: the essay with its copies, and the unrelated pair
    assert sorted(len(group) for group in view.cluster_names()) == [2, 4]
    first_group = view.clusters_tree.topLevelItem(0)
    assert first_group is not None
    assert first_group.text(0) == "Group 1: 4 documents, up to 100%"
    assert len(view.heatmap.documents()) == 6
    assert len(view.heatmap.cells()) == 2 * 7
    # a higher threshold (on the copied share): three identical pairs remain everywhere
    view.setup.threshold_spin.setValue(80)
    assert view.proxy.rowCount() == 3
    assert len(view.heatmap.cells()) == 2 * 3
    assert sorted(len(group) for group in view.cluster_names()) == [2, 2, 2]
    assert "3</b> at 80% or more" in view.summary_label.text()  # as every surface says it
    assert result is view.result


def test_heatmap_cells_have_tooltips_and_select_their_pair(qtbot, view, collection) -> None:
    view.add_inputs([collection])
    result = run_check(qtbot, view)
    heatmap = view.heatmap
    wanted = next(
        p
        for p in result.pairs
        if {result.documents[p.a].path.name, result.documents[p.b].path.name}
        == {"original-essay.txt", "reworded-copy.docx"}
    )
    cell = next(c for c in heatmap.cells() if c.pair is wanted)
    centre = heatmap.cell_rect(cell.row, cell.column).center()
    tip = heatmap.tooltip_at(centre)
    assert "original-essay.txt" in tip and "reworded-copy.docx" in tip
    assert f"Copied {percent(wanted.copied)}" in tip
    assert f"A in B {percent(wanted.copied_a)} · B in A {percent(wanted.copied_b)}" in tip
    assert "2 passages edited" in tip
    assert f"Jaccard (the paper's score) {percent(wanted.jaccard)}" in tip
    assert heatmap.tooltip_at(QPoint(1, 1)) == ""
    # a row label names its document in full
    assert str(collection) in heatmap.tooltip_at(
        QPoint(heatmap.cell_rect(0, 0).x() - 20, centre.y())
    )

    view.filter_edit.setText("unrelated")  # the pair is hidden by the filter: clicking shows it
    qtbot.mouseClick(heatmap, Qt.MouseButton.LeftButton, pos=centre)
    assert view.selected_pair() is wanted
    assert view.filter_edit.text() == ""
    assert heatmap.selected() is wanted
    with qtbot.waitSignal(view.pair_opened) as opened:
        qtbot.mouseDClick(heatmap, Qt.MouseButton.LeftButton, pos=centre)
    assert opened.args == [wanted]


def test_progress_shows_the_current_file_and_the_time_left(
    qtbot, settings, tmp_path, collection, monkeypatch
) -> None:
    monkeypatch.setattr(tasks, "PROGRESS_INTERVAL", 0.0)  # every report reaches the view
    now = [100.0]
    view = FolderCheckView(settings, TaskRunner(), tmp_path / "cache.sqlite3", clock=lambda: now[0])
    qtbot.addWidget(view)
    view.show()
    step, go_on = threading.Event(), threading.Event()
    real_run = folder_check.run_batch

    def paced_run(paths, archives, options, *, cache, progress):
        progress(0.01, "Reading first.docx")
        step.set()
        go_on.wait(10)
        go_on.clear()
        progress(0.5, "Reading essay.docx")
        step.set()
        go_on.wait(10)
        return real_run(paths, archives, options, cache=cache, progress=progress)

    monkeypatch.setattr(folder_check, "run_batch", paced_run)
    view.add_inputs([collection])
    with qtbot.waitSignal(view.finished, timeout=60_000):
        view.start()
        assert view.progress_bar.isVisible() and view.setup.cancel_button.isEnabled()
        assert not view.setup.start_button.isEnabled()
        qtbot.waitUntil(lambda: view.progress_label.text() == "Reading first.docx")
        assert view.eta_label.text() == ""  # nothing yet: too early to say
        step.clear()
        now[0] = 110.0
        go_on.set()
        qtbot.waitUntil(lambda: view.progress_label.text() == "Reading essay.docx")
        assert view.progress_bar.value() == 500
        assert view.eta_label.text() == "about 10 s left"
        go_on.set()
    assert not view.progress_bar.isVisible() and view.eta_label.text() == ""


def test_cancel_returns_to_idle_without_results_or_error(
    qtbot, view, collection, monkeypatch
) -> None:
    started, release = threading.Event(), threading.Event()
    real_load = batch_module.load_document

    def slow_load(path, options=None):
        started.set()
        release.wait(10)
        return real_load(path, options)

    monkeypatch.setattr(batch_module, "load_document", slow_load)
    failures: list[str] = []
    view.failed.connect(lambda text, details: failures.append(text))
    finished: list[object] = []
    view.finished.connect(finished.append)
    view.add_inputs([collection])
    view.start()
    qtbot.waitUntil(started.is_set, timeout=30_000)
    assert view.busy
    with qtbot.waitSignal(view.cancelled, timeout=30_000):
        view.setup.cancel_button.click()
        release.set()
    qtbot.waitUntil(lambda: not view.busy)
    assert failures == [] and finished == []
    assert view.result is None and view.proxy.rowCount() == 0
    assert view.heatmap.cells() == [] and view.failed_files() == []
    assert view.setup.start_button.isEnabled() and not view.setup.cancel_button.isEnabled()
    assert not view.progress_bar.isVisible()
    assert not view.export_csv_button.isEnabled()
    assert view.status_label.text() == "Cancelled."


def test_an_engine_error_is_a_readable_message(qtbot, view, collection, monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(collection))

    monkeypatch.setattr(folder_check, "run_batch", refuse)
    view.add_inputs([collection])
    with qtbot.waitSignal(view.failed, timeout=30_000) as failed:
        view.start()
    text, details = failed.args
    assert text == f"The folder check stopped: Permission denied: {collection}"
    assert "PermissionError" in details
    qtbot.waitUntil(lambda: not view.busy)
    assert "Permission denied" in view.status_label.text()
    assert view.setup.start_button.isEnabled() and view.result is None


def test_earlier_years_and_student_folders_limit_the_pairs(
    qtbot, settings, sync_runner, tmp_path
) -> None:
    view = FolderCheckView(settings, sync_runner, tmp_path / "cache.sqlite3")
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    klass, archive = tmp_path / "class", tmp_path / "last-year"
    copy_sample("original-essay.txt", klass / "alice")
    copy_sample("original-essay.docx", klass / "alice")  # one student's files: never compared
    copy_sample("reworded-copy.txt", klass / "bob")
    copy_sample("reworded-copy.docx", archive)
    copy_sample("unrelated-essay.txt", archive)
    copy_sample("unrelated-essay.docx", archive)  # archive against archive: never compared
    view.add_inputs([klass])
    spot = view.setup.archives.list.mapTo(view, view.setup.archives.list.rect().center())
    drop(view, [archive], spot)  # dropped on the earlier-years list
    assert view.setup.archives.paths() == [archive] and view.setup.inputs.paths() == [klass]
    view.setup.student_folders.setChecked(True)
    assert view.setup.mode_label.text().startswith(MODE_ARCHIVE)

    result = run_check(qtbot, view)

    assert all(d.archive == (archive in d.path.parents) for d in result.documents)
    pairs = [{p.parent.name + "/" + p.name for p in names} for names in _paths(result)]
    assert len(pairs) == 5
    assert {"alice/original-essay.txt", "alice/original-essay.docx"} not in pairs
    assert {"last-year/unrelated-essay.txt", "last-year/unrelated-essay.docx"} not in pairs
    assert {"bob/reworded-copy.txt", "last-year/reworded-copy.docx"} in pairs
    assert view.proxy.rowCount() == 5
    children = [name for group in view.cluster_names() for name in group]
    assert any(name.endswith("(earlier year)") for name in children)


def _paths(result) -> list[set[Path]]:
    docs = result.documents
    return [{docs[p.a].path, docs[p.b].path} for p in result.pairs]


def test_csv_export_writes_the_listed_pairs_and_remembers_the_folder(
    qtbot, view, collection, tmp_path, settings, monkeypatch
) -> None:
    view.add_inputs([collection])
    result = run_check(qtbot, view)
    view.setup.threshold_spin.setValue(80)
    out = tmp_path / "exports"
    out.mkdir()
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *a, **k: (str(out / "class-check"), "")
    )
    with qtbot.waitSignal(view.exported) as exported:
        view.export_csv_button.click()
    target = out / "class-check.csv"
    assert exported.args == [target]
    assert target.read_bytes() == batch_to_csv(result, 0.8).encode("utf-8")
    lines = target.read_text(encoding="utf-8").splitlines()
    assert lines[0] == ",".join(CSV_COLUMNS)
    assert len(lines) == 1 + 3
    assert settings.last_folder() == str(out)
    assert "class-check.csv" in view.status_label.text()


def test_html_export_runs_in_the_background_and_writes_the_report(
    qtbot, view, collection, tmp_path, settings, monkeypatch
) -> None:
    view.add_inputs([collection])
    run_check(qtbot, view)
    view.setup.threshold_spin.setValue(80)
    report = tmp_path / "report"
    report.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(report))
    with qtbot.waitSignal(view.exported, timeout=60_000) as exported:
        view.export_html_button.click()
    assert exported.args == [report / "index.html"]
    index = (report / "index.html").read_text(encoding="utf-8")
    assert "reworded-copy.docx" in index
    assert len(list((report / "pairs").glob("*.html"))) == 3  # the pairs at 80 % or more
    assert settings.last_folder() == str(report)
    qtbot.waitUntil(lambda: not view.busy)
    assert view.export_html_button.isEnabled()


def test_a_pair_found_only_by_the_reworded_detector_is_listed(
    qtbot, view, settings, tmp_path
) -> None:
    klass = tmp_path / "edited"
    klass.mkdir()
    (klass / "source.txt").write_text(FILLER_A + MONASTERY, encoding="utf-8")
    (klass / "edited.txt").write_text(FILLER_B + MONASTERY_EDITED, encoding="utf-8")
    (klass / "other.txt").write_text(COPIED, encoding="utf-8")  # shares nothing
    view.add_inputs([klass])
    result = run_check(qtbot, view)
    (pair,) = result.pairs
    names = {result.documents[i].path.name for i in (pair.a, pair.b)}
    assert names == {"source.txt", "edited.txt"}
    assert pair.flagged and not pair.pieces and pair.jaccard == 0
    assert view.proxy.rowCount() == 1
    row = {
        header: view.proxy.index(0, col).data()
        for col, header in enumerate(FolderCheckPairModel.HEADERS)
    }
    assert row["Copied"] == percent(pair.copied) != "0%"
    assert row["Blocks"] == "0" and row["Edited"] == "1" and row["Jaccard (paper)"] == "0%"
    assert "1 passage, edited" in view.proxy.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    # a threshold on the share keeps it, where one on Jaccard would have hidden it
    view.setup.threshold_spin.setValue(10)
    assert view.proxy.rowCount() == 1 and len(view.heatmap.cells()) == 2
    assert [sorted(group) for group in view.cluster_names()] == [["edited.txt", "source.txt"]]
    assert "1 of them edited only" in view.summary_label.text()

    # the strict setting: the paper's method alone finds nothing here
    signature = settings.signature_options()
    settings.set_engine_options(signature, MatchOptions(reworded=False))
    result = run_check(qtbot, view)
    assert result.pairs == () and view.proxy.rowCount() == 0
    assert view.check.request is not None
    assert view.check.request.options.match.reworded is False


def test_the_view_remembers_folders_threshold_and_mode(qtbot, settings, tmp_path) -> None:
    first = FolderCheckView(settings, TaskRunner(synchronous=True), tmp_path / "c.sqlite3")
    qtbot.addWidget(first)
    first.add_inputs([tmp_path / "a", tmp_path / "b"])
    first.add_archives([tmp_path / "old"])
    first.setup.threshold_spin.setValue(12)
    first.setup.student_folders.setChecked(True)
    state = first.save_state()
    second = FolderCheckView(settings, TaskRunner(synchronous=True), tmp_path / "c.sqlite3")
    qtbot.addWidget(second)
    assert second.restore_state(state)
    assert second.setup.inputs.paths() == [tmp_path / "a", tmp_path / "b"]
    assert second.setup.archives.paths() == [tmp_path / "old"]
    assert second.threshold() == 0.12 and second.setup.student_folders.isChecked()
    assert not second.restore_state(QByteArray(b"junk"))


def test_a_layout_saved_before_the_copied_shares_restores_but_the_table(
    qtbot, settings, tmp_path
) -> None:
    view = FolderCheckView(settings, TaskRunner(synchronous=True), tmp_path / "c.sqlite3")
    qtbot.addWidget(view)
    header = view.pairs_view.horizontalHeader()
    header.resizeSection(FolderCheckPairModel.COL_COPIED, 150)
    old, stream = write_state(
        "doppel.batch-view",
        2,
        (
            view.results_splitter.saveState(),
            view.side_splitter.saveState(),
            view.pairs_splitter.saveState(),
            header.saveState(),
        ),
    )
    SetupState(threshold_percent=20, inputs=[str(tmp_path / "class")]).write(stream)
    header.resizeSection(FolderCheckPairModel.COL_COPIED, 70)
    assert view.restore_state(old)
    # the folders come back; the threshold was a Jaccard then, so it is not read as a share
    assert view.threshold() == 0.0 and view.setup.inputs.paths() == [tmp_path / "class"]
    assert header.sectionSize(FolderCheckPairModel.COL_COPIED) == 70  # other columns then


# -- in the main window --------------------------------------------------------------------


@pytest.fixture
def window(qtbot, settings, tmp_path: Path) -> MainWindow:
    win = MainWindow(settings, TaskRunner(), folder_check_cache=tmp_path / "cache.sqlite3")
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    return win


def proxy_row(view: FolderCheckView, names: set[str]) -> int:
    return next(row for row, pair in enumerate(names_of(view)) if pair == names)


def test_double_click_or_enter_opens_the_pair_in_the_compare_tab(qtbot, window, collection) -> None:
    view = window.folder_check_view
    window.folder_check_tab_action.trigger()
    assert window.tabs.currentWidget() is view
    drop(window, [collection])  # on the window itself (the tab bar): the Folder check takes it
    assert view.setup.inputs.paths() == [collection]
    assert window.session.documents.rowCount() == 0
    run_check(qtbot, view)
    assert window.export_csv_action.isEnabled()

    row = proxy_row(view, {"original-essay.txt", "reworded-copy.docx"})
    rect = view.pairs_view.visualRect(view.proxy.index(row, FolderCheckPairModel.COL_A))
    with qtbot.waitSignal(window.comparison_shown, timeout=30_000) as shown:
        qtbot.mouseClick(view.pairs_view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.mouseDClick(view.pairs_view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    comparison = shown.args[0]
    assert {comparison.a.name, comparison.b.name} == {"original-essay.txt", "reworded-copy.docx"}
    # compared again: the same numbers as the check, both kinds of passage on screen
    pair = view.proxy.pair(view.proxy.index(row, 0))
    assert pair is not None
    assert comparison.jaccard == pytest.approx(pair.jaccard)
    assert max(comparison.copied_a, comparison.copied_b) == pytest.approx(pair.copied)
    assert len(comparison.reworded_passages) == pair.reworded_passages == 2
    assert window.view.block_model.rowCount() == len(comparison.blocks) + 2
    assert window.tabs.currentWidget() is window.splitter
    assert window.stack.currentWidget() is window.view
    assert window.view.comparison() is comparison
    assert window._opened is not None and window._opened.comparison is comparison  # prepared
    assert "original-essay.txt" in window.windowTitle()
    qtbot.waitUntil(lambda: not window.busy)

    window.tabs.setCurrentWidget(view)
    row = proxy_row(view, {"unrelated-essay.txt", "unrelated-essay.docx"})
    view.pairs_view.setFocus()
    view.pairs_view.setCurrentIndex(view.proxy.index(row, 0))
    with qtbot.waitSignal(window.comparison_shown, timeout=30_000) as shown:
        qtbot.keyClick(view.pairs_view, Qt.Key.Key_Return)
    assert {shown.args[0].a.name, shown.args[0].b.name} == {
        "unrelated-essay.txt",
        "unrelated-essay.docx",
    }
    assert window.tabs.currentWidget() is window.splitter


def test_the_window_keeps_the_folder_check_state(qtbot, settings, tmp_path, collection) -> None:
    first = MainWindow(
        settings, TaskRunner(synchronous=True), folder_check_cache=tmp_path / "c.sqlite3"
    )
    qtbot.addWidget(first)
    first.folder_check_view.add_inputs([collection])
    first.folder_check_view.setup.threshold_spin.setValue(25)
    first.close()
    second = MainWindow(
        settings, TaskRunner(synchronous=True), folder_check_cache=tmp_path / "c.sqlite3"
    )
    qtbot.addWidget(second)
    assert second.folder_check_view.setup.inputs.paths() == [collection]
    assert second.folder_check_view.threshold() == 0.25

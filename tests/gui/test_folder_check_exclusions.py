"""Exclusions in the Folder check tab: common text, templates, quotations; the pair opened from
the check shows the same scores, with the left-out text shaded."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtGui import QTextDocumentFragment

from app.gui.compare.marks import MarkKind
from app.gui.folder_check.view import FolderCheckView, exclusions_tooltip
from app.gui.main_window import MainWindow
from app.gui.tasks import TaskRunner
from core.documents.excluded_spans import ExclusionKind
from core.options import ExclusionOptions
from core.reports.wording import LEFT_OUT, batch_left_out, exclusion_lines
from core.resources import resource_path
from tests.gui.test_folder_check_view import drop, names_of, run_check

pytestmark = pytest.mark.usefixtures("no_user_cache")

PROMPT = (
    "Read the article about rivers carefully before you begin. Then write about what you "
    "learned from it in your own words. Your essay should have at least three paragraphs."
)


@pytest.fixture
def essays(tmp_path: Path) -> Path:
    """Five essays cut from the sample essay, each opening with the pasted prompt; the fifth
    also copies the first's own text."""
    text = resource_path("samples", "original-essay.txt").read_text("utf-8")
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text.replace("\n", " ")) if s]
    own = [" ".join(sentences[5 * k : 5 * k + 5]) for k in range(5)]
    folder = tmp_path / "class"
    folder.mkdir()
    for k, body in enumerate(own):
        extra = f"\n\n{own[0]}" if k == 4 else ""
        (folder / f"student{k}.txt").write_text(f"{PROMPT}\n\n{body}{extra}", "utf-8")
    return folder


@pytest.fixture
def view(folder_check_view: FolderCheckView) -> FolderCheckView:
    return folder_check_view


def test_common_text_is_left_out_and_listed(qtbot, view: FolderCheckView, essays: Path) -> None:
    view.add_inputs([essays])
    everything = run_check(qtbot, view)
    assert len(everything.pairs) == 10  # the prompt links every pair
    assert view.common_box.isHidden()

    view.setup.common_check.setChecked(True)
    assert view.setup.common_spin.isEnabled() and view.setup.common_spin.value() == 50
    result = run_check(qtbot, view)
    assert result.exclusions.common_share == 0.5
    assert names_of(view) == [{"student0.txt", "student4.txt"}]  # only the real copy is left
    assert not view.common_box.isHidden()
    (passage,) = view.common_passages()
    assert passage[0] == "5 of 5" and passage[1].startswith("Read the article about rivers")
    left = batch_left_out(result)
    assert left is not None and left.sentences == 15  # the prompt's 3 sentences in 5 essays
    assert "· 15 sentences left out of the scores" in view.summary_label.text()
    # the tooltip says it all: what was asked for, the totals and the common passages
    tip = QTextDocumentFragment.fromHtml(view.summary_label.toolTip()).toPlainText()
    assert tip.splitlines() == exclusion_lines(result)
    assert tip.startswith(f"{LEFT_OUT}: text found in more than 50%")
    assert "\n  in 5 of 5 documents: Read the article about rivers" in tip

    # one sentence left out: said in the singular
    first, *rest = result.documents
    one = replace(
        result,
        documents=(
            replace(first, signature=replace(first.signature, excluded=(0,))),
            *(replace(d, signature=replace(d.signature, excluded=())) for d in rest),
        ),
    )
    view.check.finished.emit(one)
    assert "· 1 sentence left out of the scores" in view.summary_label.text()


def test_the_exclusions_tooltip_is_escaped_rich_text() -> None:
    assert exclusions_tooltip([]) == ""
    tip = exclusions_tooltip([f"{LEFT_OUT}: template <b>a&b</b>.docx", "  in 2 of 3 documents"])
    assert "<b>a" not in tip and "&lt;b&gt;a&amp;b&lt;/b&gt;.docx" in tip
    plain = QTextDocumentFragment.fromHtml(tip).toPlainText()
    assert plain == f"{LEFT_OUT}: template <b>a&b</b>.docx\n  in 2 of 3 documents"


def test_a_template_and_quotations_from_the_tab(
    qtbot, view: FolderCheckView, settings, essays: Path, tmp_path: Path
) -> None:
    prompt = tmp_path / "prompt.txt"
    prompt.write_text(PROMPT, "utf-8")
    view.add_inputs([essays])
    drop(
        view, [prompt], view.setup.templates.mapTo(view, QPoint(10, 10))
    )  # onto the templates list
    assert view.setup.templates.paths() == [prompt]
    view.setup.quotes_check.setChecked(True)
    assert settings.exclusion_options().quotations  # one setting with the Compare tab's
    result = run_check(qtbot, view)
    assert result.templates == (prompt,)
    assert result.exclusions.quotations
    assert names_of(view) == [{"student0.txt", "student4.txt"}]
    for doc in result.documents:
        assert {s.kind for s in doc.excluded} == {ExclusionKind.TEMPLATE}


def test_an_unreadable_template_stops_the_check_with_its_name(
    qtbot, view: FolderCheckView, essays: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "handout.docx"
    broken.write_bytes(b"PK\x03\x04 not a zip")
    view.add_inputs([essays])
    view.setup.templates.add_paths([broken])
    with qtbot.waitSignal(view.failed, timeout=60_000) as failed:
        view.setup.start_button.click()
    assert "handout.docx" in failed.args[0] and "template" in failed.args[0]


def test_a_pair_opened_from_the_check_is_scored_as_the_check_scored_it(
    qtbot, settings, tmp_path: Path, essays: Path
) -> None:
    window = MainWindow(settings, TaskRunner(), folder_check_cache=tmp_path / "c.sqlite3")
    qtbot.addWidget(window)
    window.show()
    batch = window.folder_check_view
    batch.add_inputs([essays])
    batch.setup.common_check.setChecked(True)
    result = run_check(qtbot, batch)
    (pair,) = result.pairs
    with qtbot.waitSignal(window.comparison_shown, timeout=60_000) as shown:
        batch.open_pair(pair)
    comparison = shown.args[0]
    assert comparison.jaccard == pytest.approx(pair.jaccard)
    assert comparison.exclusions == ExclusionOptions(common_share=0.5)
    shaded = [m for m in window.view.pane_a.marks() if m.kind is MarkKind.EXCLUDED]
    assert shaded and comparison.a.text[shaded[0].start :].startswith("Read the article")
    assert "common text" in window.view.results.exclusions.text()


def test_the_tab_keeps_its_templates_and_share(qtbot, settings, tmp_path: Path) -> None:
    first = MainWindow(
        settings, TaskRunner(synchronous=True), folder_check_cache=tmp_path / "c.sqlite3"
    )
    qtbot.addWidget(first)
    first.folder_check_view.setup.templates.add_paths([tmp_path / "prompt.docx"])
    first.folder_check_view.setup.common_check.setChecked(True)
    first.folder_check_view.setup.common_spin.setValue(70)
    first.close()
    second = MainWindow(
        settings, TaskRunner(synchronous=True), folder_check_cache=tmp_path / "c.sqlite3"
    )
    qtbot.addWidget(second)
    assert second.folder_check_view.setup.templates.paths() == [tmp_path / "prompt.docx"]
    assert second.folder_check_view.setup.exclusion_options().common_share == 0.7


def test_quotations_are_one_setting_in_both_tabs(qtbot, settings, tmp_path: Path) -> None:
    quote = '"It was the best of times, it was the worst of times. It was the age of wisdom."'
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text(f"Teachers read every essay with care today.\n\n{quote}", "utf-8")
    second.write_text(f"Markers skim many scripts in June.\n\n{quote}", "utf-8")
    window = MainWindow(
        settings, TaskRunner(synchronous=True), folder_check_cache=tmp_path / "c.db"
    )
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.comparison_shown, timeout=30_000) as shown:
        window.add_paths([first, second], remember=False)
    assert shown.args[0].jaccard > 0
    # ticked in the Folder check tab: the Compare tab re-scores at once
    with qtbot.waitSignal(window.comparison_shown, timeout=30_000) as shown:
        window.folder_check_view.setup.quotes_check.setChecked(True)
    assert shown.args[0].jaccard == 0
    assert settings.exclusion_options().quotations
    # changed elsewhere (Comparison Settings): the Folder check tab shows it, and keeps it
    settings.set_exclusion_options(ExclusionOptions(references=True))
    window.folder_check_view.setup.show_exclusion_settings()
    assert not window.folder_check_view.setup.quotes_check.isChecked()
    assert window.folder_check_view.setup.references_check.isChecked()
    assert window.folder_check_view.setup.exclusion_options().references
    assert settings.exclusion_options() == ExclusionOptions(references=True)

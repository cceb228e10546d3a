"""Exclusions in the app: a template marked in the list, quotations left out from the settings;
the scores recompute, the left-out text is shaded in the panes and every result says why."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.gui.compare.marks import MarkKind, mark_tooltip, prepare_view
from app.gui.compare.view import ComparisonView
from app.gui.models.document_list import DocumentListModel
from app.gui.session import Session
from core.documents.excluded_spans import ExclusionKind
from core.options import ExclusionOptions
from core.reports.wording import exclusion_summary

PROMPT = (
    "Write an essay about the history of your town. Describe how the town began and why "
    "people first settled there. Explain how the town changed during the last century."
)
ESSAY_A = (
    "My town grew up beside a river crossing where traders met every spring. The first "
    "houses were built of timber cut from the nearby forest. Later the railway brought "
    "factories and new families from far away."
)
ESSAY_B = (
    "Our village started as a small farming settlement on the hill above the marsh. "
    "Shepherds drove their flocks there each summer for the fresh grass. A school and a "
    "church were built once the roads improved."
)
QUOTE = (
    '"The town is a living record of the people who made it. Every street tells a story '
    'of work and hope."'
)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {
        "prompt": tmp_path / "prompt.txt",
        "a": tmp_path / "anna.txt",
        "b": tmp_path / "ben.txt",
    }
    paths["prompt"].write_text(PROMPT, "utf-8")
    # both students paste the prompt and the same quotation, then write their own essays
    paths["a"].write_text(f"{PROMPT}\n\n{ESSAY_A}\n\n{QUOTE}", "utf-8")
    paths["b"].write_text(f"{PROMPT}\n\n{ESSAY_B}\n\n{QUOTE}", "utf-8")
    return paths


def make_session(settings, runner) -> tuple[Session, list]:
    session = Session(runner, settings, prepare=prepare_view)
    shown: list = []
    session.comparison_ready.connect(shown.append)
    return session, shown


def test_marking_a_template_leaves_its_text_out_and_the_scores_recompute(
    settings, sync_runner, files
) -> None:
    session, shown = make_session(settings, sync_runner)
    session.add_paths(files.values())
    # three documents: every pair is ranked, the most copied first; the prompt is found whole
    # in each essay, so those pairs come before the essays' own
    ranked = [{p.comparison.a.name, p.comparison.b.name} for p in session.ranked]
    assert ranked[-1] == {"anna.txt", "ben.txt"} and len(ranked) == 3
    session.open_pair(files["a"].resolve(), files["b"].resolve())
    before = shown[-1]
    assert {before.a.name, before.b.name} == {"anna.txt", "ben.txt"}
    assert before.jaccard > 0 and not before.a.excluded

    session.set_templates([files["prompt"].resolve()], True)
    after = shown[-1]
    assert after is not before
    assert {after.a.name, after.b.name} == {"anna.txt", "ben.txt"}  # the template is not compared
    assert after.jaccard < before.jaccard
    template_spans = [s for s in after.a.excluded if s.kind is ExclusionKind.TEMPLATE]
    assert template_spans and all(s.detail == "prompt.txt" for s in template_spans)
    assert after.a.text == before.a.text  # the document itself is unchanged
    assert session.documents.is_template(files["prompt"].resolve())
    row = session.documents.row_of(files["prompt"].resolve())
    notes = session.documents.index(row, DocumentListModel.COL_NOTES).data()
    assert notes.startswith("template")

    session.set_templates([files["prompt"].resolve()], False)
    assert shown[-1].jaccard == pytest.approx(before.jaccard)


def test_quotations_and_template_together_leave_nothing_shared(
    settings, sync_runner, files
) -> None:
    session, shown = make_session(settings, sync_runner)
    session.add_paths([files["a"], files["b"]])
    assert shown[-1].jaccard > 0
    session.add_paths([files["prompt"]])
    session.set_templates([files["prompt"].resolve()], True)
    assert shown[-1].jaccard > 0  # the quotation is still shared
    settings.set_exclusion_options(ExclusionOptions(quotations=True))
    session.options_changed()
    comparison = shown[-1]
    assert comparison.jaccard == 0
    kinds = {s.kind for s in comparison.b.excluded}
    assert kinds == {ExclusionKind.TEMPLATE, ExclusionKind.QUOTATION}
    assert comparison.exclusions == ExclusionOptions(quotations=True)


def test_the_view_shades_left_out_text_and_says_why(qtbot, settings, sync_runner, files) -> None:
    session, shown = make_session(settings, sync_runner)
    settings.set_exclusion_options(ExclusionOptions(quotations=True))
    session.add_paths([files["a"], files["b"]])
    comparison = shown[-1]
    view = ComparisonView()
    qtbot.addWidget(view)
    view.set_comparison(comparison, session.prepared_for(comparison))
    excluded = [m for m in view.pane_a.marks() if m.kind is MarkKind.EXCLUDED]
    assert [(m.start, m.end) for m in excluded] == [(s.start, s.end) for s in comparison.a.excluded]
    quote_start = comparison.a.text.index('"The town')
    (mark,) = [m for m in excluded if m.start == quote_start]
    tip = mark_tooltip(comparison, mark, document=comparison.a)
    assert tip.startswith("Left out of the scores · excluded: quotation")
    assert "Inside quotation marks" in tip
    # shaded, not a block: no click target, and the panel says what was left out
    assert view.pane_a.mark_at(quote_start + 2) is mark
    assert view.pane_a.block_span(-1) is None
    assert "A: 1 quotation" in view.results.exclusions.text()


def test_a_shared_reference_list_is_left_out_from_the_settings(
    settings, sync_runner, tmp_path: Path
) -> None:
    references = (
        "Works Cited\n\nSmith, John. Rivers and Towns. London: Penguin, 2019.\n\n"
        "Jones, Kate. Old Roads of England. Oxford: Oxford University Press, 2020."
    )
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text(f"{ESSAY_A}\n\n{ESSAY_B}\n\n{references}", "utf-8")
    second.write_text(f"{ESSAY_B}\n\n{ESSAY_A}\n\n{references}", "utf-8")
    session, shown = make_session(settings, sync_runner)
    session.add_paths([first, second])
    with_references = shown[-1]
    settings.set_exclusion_options(ExclusionOptions(references=True))
    session.options_changed()
    without = shown[-1]
    assert without is not with_references
    (span,) = without.a.excluded
    assert span.kind is ExclusionKind.REFERENCES and span.detail == "Works Cited"
    assert without.a.text[span.start :].startswith("Works Cited")
    assert span.end == len(without.a.text)
    # the essays' own shared paragraphs still count; the reference list no longer does
    assert 0 < without.matched_sentences < with_references.matched_sentences
    assert "references section from 'Works Cited'" in " ".join(exclusion_summary(without.a))

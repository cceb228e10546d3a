"""The results panel: the verdict, each document's copied share in large type, the passages by
kind, Jaccard as the paper's score, counts, and the empty state."""

from __future__ import annotations

from functools import cache

import pytest

from app.gui.compare.results_panel import EMPTY_TEXT, ResultsPanel, verdict_text
from core.comparison import Comparison, compare_documents
from core.documents.document import document_from_text
from core.options import ExclusionOptions, MatchOptions, SignatureOptions
from core.reports.wording import found_in, percent
from core.resources import resource_path
from tests.core.docmakers import FILLER_A, FILLER_B
from tests.gui_logic.edited import MONASTERY, MONASTERY_EDITED


@cache
def compare(name_a: str, name_b: str) -> Comparison:
    options = SignatureOptions(language="en")
    folder = resource_path("samples")
    a = document_from_text((folder / name_a).read_text("utf-8"), name_a, options)
    b = document_from_text((folder / name_b).read_text("utf-8"), name_b, options)
    return compare_documents(a, b)


def samples() -> Comparison:
    return compare("original-essay.txt", "reworded-copy.txt")


@pytest.fixture
def panel(qtbot) -> ResultsPanel:
    panel = ResultsPanel()
    qtbot.addWidget(panel)
    return panel


def test_empty_state_without_comparison(panel: ResultsPanel) -> None:
    assert panel.is_empty()
    assert panel.empty.text() == EMPTY_TEXT
    assert panel.comparison() is None


def test_shares_in_large_type_with_plain_explanations(panel: ResultsPanel) -> None:
    comparison = samples()
    panel.set_comparison(comparison)
    assert not panel.is_empty()
    # the engine's numbers: 17 of A's 27 sentences and 17 of B's 24 lie in a copied passage of
    # either kind; Jaccard is the paper's score (docs/json.md: 0.3077)
    assert panel.metric_texts() == {
        "copied_a": "63.0%",
        "copied_b": "70.8%",
        "jaccard": "30.8%",
    }
    assert panel.copied_a.caption.text() == "of A is found in B"
    assert panel.copied_b.caption.text() == "of B is found in A"
    assert panel.copied_a.explanation.text() == "17 of the 27 sentences of A"
    assert panel.copied_b.explanation.text() == "17 of the 24 sentences of B"
    # one share per document, in the words every surface uses
    assert panel.copied_a.toolTip().startswith(
        found_in(comparison.copied_a, comparison.a.name, comparison.b.name)
    )
    assert panel.copied_b.toolTip().startswith(
        found_in(comparison.copied_b, comparison.b.name, comparison.a.name)
    )
    assert "Word for word alone (verified blocks): 44.4%" in panel.copied_a.toolTip()
    # Jaccard, explained as the paper's score, smaller than the shares
    assert panel.jaccard.caption.text() == "Jaccard (the paper's score)"
    assert "verified blocks only" in panel.jaccard.explanation.text()
    big = panel.copied_a.value.font().pointSizeF()
    assert big > 1.8 * panel.copied_a.explanation.font().pointSizeF()
    assert panel.jaccard.value.font().pointSizeF() < big


def test_counts_and_verdict(panel: ResultsPanel) -> None:
    panel.set_comparison(samples())
    texts = {key: label.text() for key, label in panel.count_labels.items()}
    # 13 raw = 1 verified + 2 split + 10 discarded, of which 1 is listed (touching a piece);
    # beside them 2 reworded passages
    assert texts == {
        "raw": "13",
        "verified": "1",
        "split": "2",
        "reworded": "2",
        "discarded": "10 (1 listed)",
        "too_long": "A 0 · B 0",
        "excluded": "",
    }
    assert panel.exclusions.isHidden() and panel.count_labels["excluded"].isHidden()
    assert panel.verdict.text() == ("Copied text found — 6 passages: 4 word for word, 2 edited")
    assert "same lengths and first words" in panel.certainty.text()
    assert "content words" in panel.certainty.text()


def test_unrelated_documents_say_nothing_was_copied(panel: ResultsPanel) -> None:
    comparison = compare("original-essay.txt", "unrelated-essay.txt")
    assert not comparison.flagged
    panel.set_comparison(comparison)
    assert panel.metric_texts() == {"copied_a": "0%", "copied_b": "0%", "jaccard": "0%"}
    assert panel.verdict.text() == "No copied text found"
    assert verdict_text(comparison) == panel.verdict.text()


def test_a_pair_found_only_by_the_reworded_detector_is_copied_text(panel: ResultsPanel) -> None:
    options = SignatureOptions(language="en")
    a = document_from_text(FILLER_A + MONASTERY, "a.txt", options)
    b = document_from_text(FILLER_B + MONASTERY_EDITED, "b.txt", options)
    comparison = compare_documents(a, b)
    assert comparison.jaccard == 0 and comparison.flagged
    panel.set_comparison(comparison)
    assert panel.verdict.text() == "Copied text found — 1 passage, edited"
    assert panel.metric_texts()["jaccard"] == "0%"
    assert panel.metric_texts()["copied_a"] == percent(comparison.copied_a) != "0%"
    assert panel.count_labels["reworded"].text() == "1"
    assert panel.count_labels["verified"].text() == "0"


def test_the_strict_setting_says_reworded_passages_were_not_looked_for(
    panel: ResultsPanel,
) -> None:
    comparison = samples()
    strict = compare_documents(comparison.a, comparison.b, MatchOptions(reworded=False))
    panel.set_comparison(strict)
    assert panel.verdict.text() == "Copied text found — 4 passages, word for word"
    assert panel.count_labels["reworded"].text() == "not looked for"
    assert "not looked for" in panel.certainty.text()
    assert panel.metric_texts()["jaccard"] == "30.8%"  # the paper's score is the same


def test_clearing_returns_to_the_empty_state(panel: ResultsPanel) -> None:
    panel.set_comparison(samples())
    panel.set_comparison(None)
    assert panel.is_empty()


def test_exclusions_say_what_was_left_out_and_the_scores_recompute(panel: ResultsPanel) -> None:
    options = SignatureOptions(language="en")
    shared = "It was the best of times. It was the worst of times, it was the age of wisdom."
    own_a = "Teachers read every essay with care. They look for the student's own voice."
    own_b = "Markers skim many scripts quickly. Their time is always short in June."
    a = document_from_text(f'{own_a}\n\n"{shared}"', "a.txt", options)
    b = document_from_text(f'{own_b}\n\n"{shared}"', "b.txt", options)
    plain = compare_documents(a, b)
    assert plain.jaccard > 0
    quoted = compare_documents(a, b, exclusions=ExclusionOptions(quotations=True))
    assert quoted.jaccard == 0
    panel.set_comparison(quoted)
    assert not panel.exclusions.isHidden()
    text = panel.exclusions.text()
    assert text.startswith("Left out of the scores")
    assert "A: 1 quotation" in text and "B: 1 quotation" in text
    assert panel.count_labels["excluded"].text() == "A 2 · B 2"
    assert panel.metric_texts()["jaccard"] == "0%"

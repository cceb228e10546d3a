"""The results panel: scores in words and large type, counts, verdict, and the empty state."""

from __future__ import annotations

from functools import cache

import pytest

from app.gui.compare.results_panel import EMPTY_TEXT, ResultsPanel, verdict_text
from core.comparison import Comparison, compare_documents
from core.documents.document import document_from_text
from core.options import ExclusionOptions, SignatureOptions
from core.resources import resource_path


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


def test_scores_in_large_type_with_plain_explanations(panel: ResultsPanel) -> None:
    comparison = samples()
    panel.set_comparison(comparison)
    assert not panel.is_empty()
    # the engine's numbers (docs/json.md: 0.3077, 0.4444, 0.5)
    assert panel.metric_texts() == {
        "jaccard": "30.8%",
        "coverage_a": "44.4%",
        "coverage_b": "50.0%",
    }
    assert panel.jaccard.caption.text() == "Jaccard similarity"
    assert "shared" in panel.jaccard.explanation.text()
    assert panel.coverage_a.caption.text() == "of A is found in B"
    assert panel.coverage_a.explanation.text() == "12 of the 27 sentences of A"
    assert panel.coverage_b.explanation.text() == "12 of the 24 sentences of B"
    big = panel.jaccard.value.font().pointSizeF()
    assert big > 1.8 * panel.jaccard.explanation.font().pointSizeF()


def test_counts_and_verdict(panel: ResultsPanel) -> None:
    panel.set_comparison(samples())
    texts = {key: label.text() for key, label in panel.count_labels.items()}
    # 13 raw = 1 verified + 2 split + 10 discarded, of which 1 is listed (touching a piece)
    assert texts == {
        "raw": "13",
        "verified": "1",
        "split": "2",
        "discarded": "10 (1 listed)",
        "too_long": "A 0 · B 0",
        "excluded": "",
    }
    assert panel.exclusions.isHidden() and panel.count_labels["excluded"].isHidden()
    assert panel.verdict.text() == (
        "Copied passages found: 12 sentences of A match B, in 4 passages."
    )
    assert "same first words" in panel.certainty.text()


def test_unrelated_documents_say_nothing_was_copied(panel: ResultsPanel) -> None:
    comparison = compare("original-essay.txt", "unrelated-essay.txt")
    assert comparison.matched_sentences == 0
    panel.set_comparison(comparison)
    assert panel.metric_texts()["jaccard"] == "0%"
    assert panel.verdict.text() == "No copied passages found."
    assert verdict_text(comparison) == panel.verdict.text()


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

"""The words every surface shares (core.reports.wording): percentages, plurals, and what was
left out of the scores, for two documents and for a folder check."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.batch.common_text import CommonPassage
from core.batch.result import BatchDocument, BatchResult
from core.comparison import compare_documents
from core.detection.passages import PassageKind
from core.detection.reworded import WordChanges
from core.documents.document import document_from_text
from core.documents.excluded_spans import ExcludedSpan, ExclusionKind
from core.exclusions.apply import apply_exclusions
from core.options import ExclusionOptions, SignatureOptions
from core.reports.wording import (
    LEFT_OUT,
    PASSAGE_KIND_TITLES,
    PASSAGE_KINDS,
    batch_left_out,
    comparison_left_out,
    exclusion_lines,
    exclusions_asked,
    found_in,
    passage_counts,
    passage_kinds,
    percent,
    plural,
    share_range,
    share_text,
    verdict,
    verdict_line,
    word_changes_text,
)

EN = SignatureOptions(language="en")
QUOTED = (
    "Teachers read every essay with care. They look for the student's own voice.\n\n"
    '"It was the best of times. It was the worst of times, it was the age of wisdom."'
)
PLAIN = "Markers skim many scripts quickly. Their time is always short in June."


@pytest.mark.parametrize(
    ("share", "text"),
    [
        (0.0, "0%"),
        (0.0004, "<0.1%"),
        (0.0005, "0.1%"),
        (0.031, "3.1%"),
        (0.05, "5.0%"),
        (0.3077, "30.8%"),
        (0.9994, "99.9%"),
        (0.99996, ">99.9%"),
        (1, "100%"),
    ],
)
def test_percent_has_one_decimal_and_never_rounds_a_finding_away(share: float, text: str) -> None:
    assert percent(share) == text


@given(st.floats(0, 1, allow_nan=False))
def test_percent_says_none_and_all_only_when_they_are(share: float) -> None:
    text = percent(share)
    assert (text == "0%") == (share == 0)
    assert (text == "100%") == (share == 1)
    assert text.endswith("%")


@pytest.mark.parametrize(
    ("share", "text"),
    [(0.0, "0%"), (0.05, "5%"), (0.1, "10%"), (0.3, "30%"), (0.025, "2.5%"), (1, "100%")],
)
def test_a_chosen_share_is_said_as_given(share: float, text: str) -> None:
    assert share_text(share) == text


def test_a_range_of_shares() -> None:
    assert share_range(0.05, 0.1) == "5–10%"
    assert share_range(0.9, 1.0) == "90–100%"


def test_plural() -> None:
    assert plural(1, "sentence") == "1 sentence"
    assert plural(0, "sentence") == "0 sentences"
    assert plural(1204, "passage") == "1,204 passages"
    assert plural(2, "analysis", "analyses") == "2 analyses"


# --- the verdict, the shares, the passages -----------------------------------------------------

VERIFIED, REWORDED = PassageKind.VERIFIED, PassageKind.REWORDED


def test_the_verdict_and_the_shares_in_words() -> None:
    assert verdict(True) == "Copied text found" and verdict(False) == "No copied text found"
    assert (
        found_in(0.62, "essay.docx", "source.pdf") == "62.0% of essay.docx is found in source.pdf"
    )
    assert found_in(0.0004, "A", "B") == "<0.1% of A is found in B"  # a finding never rounds away


def test_passages_are_counted_by_kind() -> None:
    assert (
        passage_counts([VERIFIED] * 4 + [REWORDED] * 2) == "6 passages: 4 word for word, 2 edited"
    )
    assert passage_counts([REWORDED, VERIFIED]) == "2 passages: 1 word for word, 1 edited"
    assert passage_counts([REWORDED]) == "1 passage, edited"
    assert passage_counts([VERIFIED] * 3) == "3 passages, word for word"
    assert passage_counts([]) == "no passage"
    assert passage_counts([VERIFIED] * 1200 + [REWORDED]) == (
        "1,201 passages: 1,200 word for word, 1 edited"
    )
    assert passage_kinds(2, 1) == [VERIFIED, VERIFIED, REWORDED] and passage_kinds(0, 0) == []
    assert set(PASSAGE_KINDS) == set(PASSAGE_KIND_TITLES) == set(PassageKind)
    for kind in PassageKind:  # the longer name holds the short one
        assert PASSAGE_KINDS[kind] in PASSAGE_KIND_TITLES[kind]


def test_the_verdict_line_of_a_pair() -> None:
    kinds = passage_kinds(4, 2)
    assert verdict_line(True, 0.62, 0.55, kinds) == (
        "Copied text found: 62.0% of A is found in B, 55.0% of B is found in A; "
        "6 passages: 4 word for word, 2 edited"
    )
    assert verdict_line(True, 0.3, 1.0, passage_kinds(0, 1), "anna.txt", "ben.txt") == (
        "Copied text found: 30.0% of anna.txt is found in ben.txt, 100% of ben.txt is found "
        "in anna.txt; 1 passage, edited"
    )
    assert verdict_line(False, 0.0, 0.0, []) == "No copied text found"


@pytest.mark.parametrize(
    ("changes", "text"),
    [
        (WordChanges(15, 12, 2, 1, 0), "12 of 15 words the same; 2 replaced, 1 added"),
        (WordChanges(16, 16, 0, 0, 0), "16 of 16 words the same"),
        (WordChanges(1, 1, 0, 0, 0), "1 of 1 word the same"),
        (WordChanges(26, 13, 0, 13, 14), "13 of 26 words the same; 13 added, 14 left out"),
        (WordChanges(2000, 1500, 250, 250, 3), "1,500 of 2,000 words the same; 250 replaced, "
         "250 added, 3 left out"),
    ],
)  # fmt: skip
def test_what_changed_in_a_passage(changes: WordChanges, text: str) -> None:
    assert word_changes_text(changes) == text


def test_what_was_asked_is_said_in_one_order() -> None:
    everything = ExclusionOptions(
        quotations=True, references=True, template_phrase_words=7, common_share=0.4
    )
    assert exclusions_asked(everything, ["prompt.docx", "handout.pdf"]) == [
        "text found in more than 40% of the documents",
        "quotations",
        "references sections",
        "text matching the templates prompt.docx, handout.pdf (a shared block, or a shared "
        "phrase of 7 words)",
    ]
    found = {ExclusionKind.QUOTATION: 1, ExclusionKind.REFERENCES: 2}
    assert exclusions_asked(ExclusionOptions(quotations=True, references=True), (), found) == [
        "quotations — 1 quotation left out",
        "references sections — 2 sections left out",
    ]
    assert exclusions_asked(None) == exclusions_asked(ExclusionOptions()) == []


def test_a_comparison_says_what_was_asked_and_what_each_document_left_out() -> None:
    a, b = document_from_text(QUOTED, "a.txt", EN), document_from_text(PLAIN, "b.txt", EN)
    assert comparison_left_out(compare_documents(a, b)) is None  # nothing asked, nothing said
    quotes = ExclusionOptions(quotations=True, common_share=0.5)  # (no common text for two)
    left = comparison_left_out(compare_documents(a, b, exclusions=quotes))
    assert left is not None
    assert left.asked == ("quotations",)
    assert left.a == ("1 quotation (2 sentences left out, 18 words)",)
    assert left.b == ("nothing found",)
    # a document that carries exclusions from elsewhere (a folder check's common text) says so
    carried = compare_documents(apply_exclusions(a, ExclusionOptions(quotations=True)), b)
    left = comparison_left_out(carried)
    assert left is not None and left.asked == () and left.a[0].startswith("1 quotation")


def batch(share: float | None, common: tuple[CommonPassage, ...] = ()) -> BatchResult:
    doc = apply_exclusions(document_from_text(QUOTED, "a.txt", EN), ExclusionOptions(True))
    documents = (
        BatchDocument.of(doc),
        replace(
            BatchDocument.of(document_from_text(PLAIN, "b.txt", EN)),
            excluded=(ExcludedSpan(0, 10, ExclusionKind.COMMON, "in 2 of 2 documents"),),
        ),
        BatchDocument.of(document_from_text(PLAIN + " Again.", "c.txt", EN)),
    )
    return BatchResult(
        documents,
        (),
        (),
        0,
        3,
        exclusions=ExclusionOptions(quotations=True, common_share=share),
        templates=(Path("/x/prompt.txt"),),
        common_text=common,
        common_counted=3,
    )


def test_a_folder_check_says_what_it_left_out_on_every_surface() -> None:
    assert batch_left_out(replace(batch(None), exclusions=ExclusionOptions(), templates=())) is None
    passages = tuple(
        CommonPassage(f"passage {k} " + "word " * 30, 3 - k % 2, 32) for k in range(12)
    )
    left = batch_left_out(batch(0.5, passages))
    assert left is not None
    assert left.asked == (
        "text found in more than 50% of the documents — 1 sentence left out",
        "quotations — 1 quotation left out",
        "text matching the template prompt.txt (a shared block, or a shared phrase of 6 words) "
        "— 0 sentences left out",
    )
    assert (left.documents, left.sentences) == (2, 2)
    assert left.totals == "2 of 3 documents have text left out; 2 sentences left out entirely."
    lines = exclusion_lines(batch(0.5, passages), shown_common=10)
    assert lines[0] == f"{LEFT_OUT}: {'; '.join(left.asked)}. {left.totals}"
    assert lines[1].startswith("Common text (found in more than 50% of the 3 documents")
    assert lines[2].startswith("  in 3 of 3 documents: passage 0 word") and lines[2].endswith("…")
    assert len(lines[2]) == len("  in 3 of 3 documents: ") + 100
    assert lines[-1] == "  … and 2 more" and len(lines) == 2 + 10 + 1
    assert exclusion_lines(batch(0.5))[1] == (
        "No text was found in more than 50% of the 3 documents."
    )
    assert len(exclusion_lines(batch(None))) == 1  # no common text asked: no line about it

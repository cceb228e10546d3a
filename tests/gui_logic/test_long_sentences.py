"""A sentence too long for the signature (over 35 terms) that both documents hold word for word,
inside or beside a kept piece: the rule that shows it as shared (`long_sentences`), and how the
marks, the emphasis and the tooltips carry it. Hand-made documents; no Qt."""

from __future__ import annotations

from functools import cache

from app.gui.compare.long_sentences import LongSentence, identical_long_sentences
from app.gui.compare.marks import (
    MarkIndex,
    MarkKind,
    colour_slots,
    listed_order,
    mark_spans,
    mark_tooltip,
    number_items,
    overview_tooltip,
    prepare_view,
)
from core.comparison import Comparison, compare_documents
from core.documents.document import document_from_text
from core.documents.signature import MAX_PAPER_LENGTH
from core.options import MatchOptions, SignatureOptions
from tests.core.docmakers import FILLER_A, FILLER_B
from tests.gui_logic.long_text import AFTER, BEFORE, END_A, END_B, INSIDE, S0, S1, S2, S3

OPTIONS = SignatureOptions(language="en")


def compared(a: str, b: str, options: MatchOptions | None = None) -> Comparison:
    return compare_documents(
        document_from_text(a, "A.txt", OPTIONS), document_from_text(b, "B.txt", OPTIONS), options
    )


@cache
def example() -> Comparison:
    """One long sentence identical in both right before the piece, one between its second and
    third sentences, one right after it; then each document goes its own way."""
    middle = BEFORE + S0 + S1 + INSIDE + S2 + S3 + AFTER
    return compared(FILLER_A + middle + END_A, FILLER_B + middle + END_B)


def sentence_of(comparison: Comparison, text: str, in_a: bool = True) -> int:
    document = comparison.a if in_a else comparison.b
    start = document.text.index(text.strip()[:40])
    return next(s.index for s in document.sentences if s.start <= start < s.end)


def test_the_example_has_one_piece_and_three_sentences_left_out_of_the_signature() -> None:
    comparison = example()
    kept = [(i, b) for i, b in enumerate(comparison.blocks) if b.pieces]
    assert len(kept) == 1 and len(kept[0][1].pieces) == 1
    assert kept[0][1].pieces[0].length == 4  # S0 … S3: the long sentences are not in it
    for doc in (comparison.a, comparison.b):
        assert len(doc.signature.too_long) == 3
        assert all(len(doc.sentences[s].terms) > MAX_PAPER_LENGTH for s in doc.signature.too_long)


def test_identical_long_sentences_inside_and_beside_a_piece_are_shared() -> None:
    comparison = example()
    ((block, _),) = [(i, b) for i, b in enumerate(comparison.blocks) if b.pieces]
    found = identical_long_sentences(comparison)
    expected = []
    for text, inside in ((BEFORE, False), (INSIDE, True), (AFTER, False)):
        sa, sb = sentence_of(comparison, text), sentence_of(comparison, text, in_a=False)
        one, two = comparison.a.sentences[sa], comparison.b.sentences[sb]
        expected.append(
            LongSentence(
                block, 0, sa, sb, (one.start, one.end), (two.start, two.end), inside, len(one.terms)
            )
        )
    assert found == expected


def test_the_rule_holds_without_the_reworded_detector() -> None:
    middle = BEFORE + S0 + S1 + INSIDE + S2 + S3 + AFTER
    strict = compared(
        FILLER_A + middle + END_A, FILLER_B + middle + END_B, MatchOptions(reworded=False)
    )
    assert [s.inside for s in identical_long_sentences(strict)] == [False, True, False]


def test_a_long_sentence_that_differs_by_a_word_is_not_shared() -> None:
    changed = INSIDE.replace("bicycles", "tricycles")
    comparison = compared(
        FILLER_A + S0 + S1 + INSIDE + S2 + S3 + END_A,
        FILLER_B + S0 + S1 + changed + S2 + S3 + END_B,
    )
    assert any(b.pieces for b in comparison.blocks)  # the piece runs over it on both sides …
    assert identical_long_sentences(comparison) == []  # … but it is not the same sentence


def test_a_long_sentence_in_one_document_only_is_not_shared() -> None:
    comparison = compared(
        FILLER_A + S0 + S1 + INSIDE + S2 + S3 + AFTER + END_A,
        FILLER_B + S0 + S1 + S2 + S3 + END_B,
    )
    assert any(b.pieces for b in comparison.blocks)
    assert identical_long_sentences(comparison) == []


def test_a_long_sentence_beside_only_on_one_side_is_not_shared() -> None:
    # B has the same long sentence, but one sentence further away from the piece
    comparison = compared(
        FILLER_A + S0 + S1 + S2 + S3 + AFTER + END_A,
        FILLER_B + S0 + S1 + S2 + S3 + END_B + AFTER,
    )
    assert identical_long_sentences(comparison) == []


def test_each_shared_long_sentence_is_marked_in_its_blocks_colour_in_both_panes() -> None:
    comparison = example()
    found = identical_long_sentences(comparison)
    slots = colour_slots(comparison.blocks)
    prepared = prepare_view(comparison)
    for marks, side in ((prepared.marks_a, 0), (prepared.marks_b, 1)):
        long = [m for m in marks if m.kind is MarkKind.LONG]
        assert [(m.start, m.end) for m in long] == [
            (s.a_chars if side == 0 else s.b_chars) for s in found
        ]
        assert all(m.slot == slots[m.block] is not None for m in long)
    # every word of it is the same: emphasised whole, in the block's slot
    for sentence in found:
        assert any(
            (e.start, e.end) == sentence.a_chars and e.slot == slots[sentence.block]
            for e in prepared.emphasis_a
        )
        # no reworded passage's violet emphasis inside it
        assert not any(
            e.slot is None and sentence.a_chars[0] <= e.start < sentence.a_chars[1]
            for e in prepared.emphasis_a
        )


def test_a_shared_long_sentence_belongs_to_its_block() -> None:
    comparison = example()
    prepared = prepare_view(comparison)
    index = MarkIndex(prepared.marks_a)
    before, _, after = prepared.long
    # the block's extent (its frame when selected) runs over the sentences before and after
    extent = index.block_span(before.block)
    assert extent is not None
    assert extent[0] <= before.a_chars[0] and after.a_chars[1] <= extent[1]
    for sentence in prepared.long:
        top = index.at(sentence.a_chars[0] + 5)[0]
        assert top.kind is MarkKind.LONG  # over the piece, over a reworded passage made of it
        assert mark_spans(comparison, top, prepared.long) == (sentence.a_chars, sentence.b_chars)


def test_a_shared_long_sentences_tooltip_says_it_is_identical_but_too_long_to_count() -> None:
    comparison = example()
    prepared = prepare_view(comparison)
    numbering = number_items(comparison, listed_order(comparison))
    before, inside, _ = prepared.long
    for sentence, where in (
        (
            before,
            "It continues this block, which the method has to end before it: the block's length "
            "and Jaccard do not count it.",
        ),
        (
            inside,
            "It lies between sentences of this block: the copied share counts it, the "
            "block's length and Jaccard do not.",
        ),
    ):
        mark = MarkIndex(prepared.marks_b).at(sentence.b_chars[0])[0]
        tip = mark_tooltip(comparison, mark, numbering=numbering, long=prepared.long)
        name = numbering.name(sentence.block)
        assert tip.splitlines() == [
            "Verified block (word for word)",
            f"{name} · identical sentence, too long to count",
            f"Word for word the same in both documents, but with {sentence.terms} words (stop "
            f"words aside) it is over the {MAX_PAPER_LENGTH} the sentence-length method can "
            f"use. {where}",
            "Click to show it in the other document.",
        ]
        assert "reworded" not in tip.lower() and "edited" not in tip.lower()
        strip = overview_tooltip(comparison, mark, numbering, False, prepared.long)
        assert strip.splitlines()[0] == (
            f"{name} — word for word, sentence {sentence.b_sentence + 1}: identical in both, "
            "too long to count"
        )

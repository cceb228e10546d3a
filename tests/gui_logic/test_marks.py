"""What the side-by-side view draws, without Qt: the marks of each pane exactly where the
engine's blocks are, their colour slots, the emphasised shared words, the tooltips' words, and
the span index the pane hit-tests with (against a brute-force oracle).

This folder runs in the headless lane (PySide6 absent): nothing here may import Qt."""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import cache
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from app.gui.compare import marks as marks_module
from app.gui.compare.marks import (
    COLOUR_SLOTS,
    Emphasis,
    Mark,
    MarkIndex,
    MarkKind,
    SpanIndex,
    TextSpan,
    block_spans,
    colour_slots,
    combined_tooltip,
    comparison_marks,
    discarded_tooltip,
    excluded_tooltip,
    failed_tooltip,
    largest_item,
    listed_items,
    listed_order,
    mark_spans,
    mark_tooltip,
    piece_passages,
    piece_tooltip,
    prepare_view,
    reworded_emphasis,
    reworded_line,
    reworded_tooltip,
    sentences_text,
    shared_words_text,
)
from core.comparison import Comparison, compare_documents
from core.detection.passages import Passage, PassageKind, shared_word_spans, side_stems
from core.detection.verification import BlockOutcome, BlockState
from core.documents.document import document_from_text
from core.documents.excluded_spans import ExcludedSpan, ExclusionKind
from core.exclusions.quotations import BLOCK_QUOTE
from core.options import ExclusionOptions, MatchOptions, SignatureOptions
from core.reports.wording import percent
from core.resources import resource_path
from core.shared_words import shared_words
from tests.core.docmakers import COPIED, FILLER_A, FILLER_B, RESHAPED
from tests.gui_logic.edited import MONASTERY, MONASTERY_EDITED

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = SignatureOptions(language="en")


@cache
def samples() -> Comparison:
    """The bundled essays: one discarded, two split and one verified block."""
    folder = resource_path("samples")
    a = document_from_text((folder / "original-essay.txt").read_text("utf-8"), "A.txt", OPTIONS)
    b = document_from_text((folder / "reworded-copy.txt").read_text("utf-8"), "B.txt", OPTIONS)
    return compare_documents(a, b)


def compared(
    a: str,
    b: str,
    exclusions: ExclusionOptions | None = None,
    options: MatchOptions | None = None,
) -> Comparison:
    return compare_documents(
        document_from_text(a, "A.txt", OPTIONS),
        document_from_text(b, "B.txt", OPTIONS),
        options,
        exclusions=exclusions,
    )


def reworded_only() -> Comparison:
    """Two documents sharing only an edited passage."""
    return compared(FILLER_A + MONASTERY, FILLER_B + MONASTERY_EDITED)


def indexed(comparison: Comparison, state: BlockState) -> list[tuple[int, BlockOutcome]]:
    return [(i, b) for i, b in enumerate(comparison.blocks) if b.state is state]


# --- no Qt ---------------------------------------------------------------------------------


def test_the_marks_module_imports_no_qt() -> None:
    tree = ast.parse(Path(marks_module.__file__).read_text("utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    assert not {name for name in imported if name.split(".")[0] in ("PySide6", "shiboken6")}
    # nor does anything it imports (the packages on the way included)
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, app.gui.compare.marks; print(sorted(m for m in sys.modules"
            " if m.split('.')[0] in ('PySide6', 'shiboken6')))",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert loaded.stdout.strip() == "[]"


# --- which spans get which mark -----------------------------------------------------------


def test_every_kept_piece_is_marked_in_its_blocks_colour_in_both_panes() -> None:
    comparison = samples()
    slots = colour_slots(comparison.blocks)
    marks_a, marks_b = comparison_marks(comparison, slots)
    expected_a, expected_b = set(), set()
    for index, block in enumerate(comparison.blocks):
        for part, piece in enumerate(block.pieces):
            span_a, span_b = comparison.piece_chars(piece)
            expected_a.add(Mark(*span_a, MarkKind.PIECE, index, part, slots[index]))
            expected_b.add(Mark(*span_b, MarkKind.PIECE, index, part, slots[index]))
    assert {m for m in marks_a if m.kind is MarkKind.PIECE} == expected_a
    assert {m for m in marks_b if m.kind is MarkKind.PIECE} == expected_b
    assert len(expected_a) == 4


def test_failed_sentences_and_discarded_blocks_are_marked_on_their_own() -> None:
    comparison = samples()
    marks_a, marks_b = comparison_marks(comparison, colour_slots(comparison.blocks))
    failed = {
        (index, offset, comparison.a.chars_of(block.raw.a_start + offset, 1))
        for index, block in indexed(comparison, BlockState.SPLIT)
        for offset in block.failed
    }
    assert (
        failed
        and {(m.block, m.part, (m.start, m.end)) for m in marks_a if m.kind is MarkKind.FAILED}
        == failed
    )
    ((index, block),) = indexed(comparison, BlockState.DISCARDED)
    whole_b = comparison.b.chars_of(block.raw.b_start, block.raw.length)
    assert [m for m in marks_b if m.kind is MarkKind.DISCARDED] == [
        Mark(*whole_b, MarkKind.DISCARDED, index, 0, None)
    ]


def test_marks_match_the_engine_listing_one_to_one() -> None:
    comparison = samples()
    marks_a, marks_b = comparison_marks(comparison, colour_slots(comparison.blocks))
    pieces = sum(len(b.pieces) for b in comparison.blocks)
    failed = sum(len(b.failed) for b in comparison.blocks if b.state is BlockState.SPLIT)
    discarded = len(indexed(comparison, BlockState.DISCARDED))
    reworded = len(comparison.reworded_passages)
    assert reworded
    assert len(marks_a) == len(marks_b) == pieces + failed + discarded + reworded


def test_text_left_out_is_marked_with_its_place_in_the_documents_list() -> None:
    quote = '"Every street tells a story of work and hope, and of people long gone."'
    comparison = compared(
        f"{FILLER_A}{quote} {COPIED}",
        f"{FILLER_B}{COPIED}",
        ExclusionOptions(quotations=True),
    )
    assert comparison.a.excluded
    marks_a, marks_b = comparison_marks(comparison, colour_slots(comparison.blocks))
    excluded = [m for m in marks_a if m.kind is MarkKind.EXCLUDED]
    assert [(m.start, m.end, m.part, m.block) for m in excluded] == [
        (span.start, span.end, k, -1) for k, span in enumerate(comparison.a.excluded)
    ]
    assert not [m for m in marks_b if m.kind is MarkKind.EXCLUDED]


def test_colour_slots_count_kept_blocks_and_repeat_only_when_they_run_out() -> None:
    kept = BlockOutcome.__new__(BlockOutcome)
    object.__setattr__(kept, "state", BlockState.VERIFIED)
    dropped = BlockOutcome.__new__(BlockOutcome)
    object.__setattr__(dropped, "state", BlockState.DISCARDED)
    n = COLOUR_SLOTS
    slots = colour_slots([kept, dropped] + [kept] * (n + 1))
    assert slots[:2] == [0, None]
    assert slots[2 : n + 1] == list(range(1, n))
    assert slots[n + 1 :] == [0, 1]


def test_prepare_view_orders_blocks_along_a_and_emphasises_the_shared_words() -> None:
    comparison = compared(FILLER_A + COPIED, FILLER_B + COPIED)
    prepared = prepare_view(comparison)
    assert prepared.comparison is comparison
    assert prepared.slots == colour_slots(comparison.blocks)
    blocks = comparison.blocks
    starts = [(blocks[i].raw.a_start, blocks[i].raw.b_start) for i in prepared.order]
    assert sorted(prepared.order) == list(range(len(blocks))) and starts == sorted(starts)
    assert not comparison.reworded_passages  # word for word: nothing else is listed
    ((block, piece),) = [(i, p) for i, b in enumerate(blocks) for p in b.pieces]
    span_a, span_b = comparison.piece_chars(piece)
    slot = prepared.slots[block]
    assert slot is not None
    # word for word: one run, the whole piece, in its block's slot
    assert prepared.emphasis_a == [Emphasis(*span_a, slot)]
    assert prepared.emphasis_b == [Emphasis(*span_b, slot)]
    assert prepared.shared == shared_words(comparison)


def test_no_emphasis_where_nothing_is_kept() -> None:
    prepared = prepare_view(compared(FILLER_A, FILLER_B))
    assert prepared.emphasis_a == [] and prepared.emphasis_b == []


# --- reworded passages ---------------------------------------------------------------------


def test_reworded_passages_are_marked_over_their_sentences_in_both_panes() -> None:
    comparison = samples()
    marks_a, marks_b = comparison_marks(comparison, colour_slots(comparison.blocks))
    first = len(comparison.blocks)
    expected_a = [
        Mark(*p.a_chars, MarkKind.REWORDED, first + k, k, None)
        for k, p in enumerate(comparison.reworded_passages)
    ]
    expected_b = [
        Mark(*p.b_chars, MarkKind.REWORDED, first + k, k, None)
        for k, p in enumerate(comparison.reworded_passages)
    ]
    assert [m for m in marks_a if m.kind is MarkKind.REWORDED] == expected_a
    assert [m for m in marks_b if m.kind is MarkKind.REWORDED] == expected_b
    # the samples: 4 verified pieces (word for word) and reworded passages beside them
    assert len([m for m in marks_a if m.kind is MarkKind.PIECE]) == 4
    assert expected_a and all(m.slot is None for m in expected_a)


def test_items_are_the_blocks_then_the_reworded_passages_in_reading_order() -> None:
    comparison = samples()
    items = listed_items(comparison)
    blocks = len(comparison.blocks)
    assert items[:blocks] == comparison.blocks
    assert items[blocks:] == comparison.reworded_passages
    order = listed_order(comparison)
    assert sorted(order) == list(range(len(items)))
    starts = [
        item.a_chars[0]
        if isinstance(item, Passage)
        else comparison.a.chars_of(item.raw.a_start, 1)[0]
        for item in (items[i] for i in order)
    ]
    assert starts == sorted(starts)
    # both kinds interleave along A: a reworded passage is not left for last
    kinds = [isinstance(items[i], Passage) for i in order]
    assert kinds != sorted(kinds)


def test_each_kept_piece_has_its_verified_passage() -> None:
    comparison = samples()
    pieces = piece_passages(comparison)
    kept = [(i, k) for i, b in enumerate(comparison.blocks) for k in range(len(b.pieces))]
    assert sorted(pieces) == kept
    for (index, part), passage in pieces.items():
        assert passage.kind is PassageKind.VERIFIED
        assert passage.a_chars == comparison.piece_chars(comparison.blocks[index].pieces[part])[0]


def test_a_pair_found_only_by_the_reworded_detector_emphasises_its_shared_words() -> None:
    comparison = reworded_only()
    assert not comparison.result.pieces and comparison.flagged
    (passage,) = comparison.reworded_passages
    prepared = prepare_view(comparison)
    assert prepared.order == list(range(len(comparison.blocks) + 1))
    (mark,) = [m for m in prepared.marks_a if m.kind is MarkKind.REWORDED]
    assert (mark.start, mark.end) == passage.a_chars
    a, b = comparison.a, comparison.b
    # the emphasis is the engine's shared words, joined where only spaces lie between them
    words_a = shared_word_spans(a, passage.a_sentences, side_stems(b, passage.b_sentences))
    assert prepared.emphasis_a and all(e.slot is None for e in prepared.emphasis_a)
    assert reworded_emphasis(comparison)[0] == prepared.emphasis_a
    covered = {
        w for w in words_a if any(e.start <= w[0] and w[1] <= e.end for e in prepared.emphasis_a)
    }
    assert covered == set(words_a)
    emphasised_a = " ".join(a.text[e.start : e.end] for e in prepared.emphasis_a)
    emphasised_b = " ".join(b.text[e.start : e.end] for e in prepared.emphasis_b)
    for word in ("monastery", "manuscripts", "candlelight", "knotwork", "scriptorium"):
        assert word in emphasised_a and word in emphasised_b
    # the words that differ stay plain
    assert "medieval" not in emphasised_a and "middle" not in emphasised_b
    assert "decorated" not in emphasised_b and "illuminated" not in emphasised_a
    for e in prepared.emphasis_a:
        assert passage.a_chars[0] <= e.start < e.end <= passage.a_chars[1]


def test_the_strict_setting_marks_no_reworded_passage() -> None:
    strict = compared(
        FILLER_A + MONASTERY, FILLER_B + MONASTERY_EDITED, options=MatchOptions(reworded=False)
    )
    assert not strict.flagged and not strict.reworded_passages
    prepared = prepare_view(strict)
    assert not [m for m in prepared.marks_a + prepared.marks_b if m.kind is MarkKind.REWORDED]
    assert prepared.emphasis_a == [] and prepared.emphasis_b == []


def test_a_reworded_passage_says_its_kind_and_what_changed() -> None:
    comparison = reworded_only()
    (passage,) = comparison.reworded_passages
    changes = passage.changes
    assert changes.replaced or changes.added or changes.left_out  # edited, not word for word
    head = reworded_line(passage)
    assert head == (
        f"Reworded passage (edited) — {changes.same} of {changes.total} words the same; "
        + ", ".join(
            f"{n} {what}"
            for n, what in (
                (changes.replaced, "replaced"),
                (changes.added, "added"),
                (changes.left_out, "left out"),
            )
            if n
        )
    )
    tip = reworded_tooltip("Passage R1", passage)
    assert tip.splitlines() == [
        head,
        f"Passage R1 · sentences {sentences_text(passage.a_sentences)} of A, "
        f"{sentences_text(passage.b_sentences)} of B · "
        f"{percent(passage.similarity)} alike",
        "The same content words in partly different wording: copied, then edited.",
        "The words both sides share are underlined; the words that differ are plain.",
        "Click to show it in the other document.",
    ]
    mark = Mark(*passage.a_chars, MarkKind.REWORDED, len(comparison.blocks), 0, None)
    assert mark_tooltip(comparison, mark) == tip
    assert block_spans(comparison, mark.block) == (passage.a_chars, passage.b_chars)
    assert sentences_text((3, 7)) == "4–7" and sentences_text((3, 4)) == "4"


# --- where a click or a table row takes the panes ------------------------------------------


def test_a_mark_shows_its_own_part_of_the_block_in_the_other_pane() -> None:
    comparison = samples()
    marks_a, _ = comparison_marks(comparison, colour_slots(comparison.blocks))
    for mark in marks_a:
        listed = listed_items(comparison)[mark.block] if mark.block >= 0 else None
        block = listed if isinstance(listed, BlockOutcome) else None
        if mark.kind is MarkKind.REWORDED:
            passage = comparison.reworded_passages[mark.part]
            assert listed is passage
            assert mark_spans(comparison, mark) == (passage.a_chars, passage.b_chars)
        elif mark.kind is MarkKind.PIECE and block is not None:
            assert mark_spans(comparison, mark) == comparison.piece_chars(block.pieces[mark.part])
        elif mark.kind is MarkKind.FAILED and block is not None:
            span_a, span_b = mark_spans(comparison, mark)
            assert span_a == (mark.start, mark.end)
            assert span_b == comparison.b.chars_of(block.raw.b_start + mark.part, 1)
        elif mark.kind is MarkKind.DISCARDED:
            assert mark_spans(comparison, mark) == block_spans(comparison, mark.block)


def test_a_selected_block_shows_its_first_piece_or_all_of_it_when_none_is_kept() -> None:
    comparison = samples()
    (index, split), *_ = indexed(comparison, BlockState.SPLIT)
    assert block_spans(comparison, index) == comparison.piece_chars(split.pieces[0])
    ((index, discarded),) = indexed(comparison, BlockState.DISCARDED)
    raw = discarded.raw
    assert block_spans(comparison, index) == (
        comparison.a.chars_of(raw.a_start, raw.length),
        comparison.b.chars_of(raw.b_start, raw.length),
    )


# --- the tooltips' words -------------------------------------------------------------------


def test_a_verified_piece_says_so_in_plain_words() -> None:
    comparison = samples()
    ((index, block),) = indexed(comparison, BlockState.VERIFIED)
    assert piece_tooltip(f"Block {index + 1}", block, 0) == (
        "Verified block (word for word)\n"
        f"Block {index + 1} · verified\n"
        f"{block.pieces[0].length} sentences in a row have the same lengths and start with the "
        "same words in both documents.\n"
        "Click to show it in the other document."
    )


def test_a_piece_copied_word_for_word_says_so() -> None:
    comparison = compared(FILLER_A + COPIED, FILLER_B + COPIED)
    ((index, block),) = [(i, b) for i, b in enumerate(comparison.blocks) if b.pieces]
    (words,) = shared_words(comparison)
    assert words.word_for_word
    assert shared_words_text(words) == "Word for word: every word is the same, in the same order."
    tip = piece_tooltip(f"Block {index + 1}", block, 0, words)
    assert shared_words_text(words) in tip.splitlines()
    assert (
        mark_tooltip(comparison, Mark(0, 1, MarkKind.PIECE, index, 0, 0), {(index, 0): words})
        == tip
    )


def test_a_piece_alike_only_in_shape_counts_its_shared_words() -> None:
    comparison = compared(FILLER_A + COPIED, FILLER_B + RESHAPED)
    (words,) = shared_words(comparison)
    assert not words.word_for_word
    total = max(words.words_a, words.words_b)
    assert shared_words_text(words) == (
        f"{words.shared} of {total} words are the same, in the same order (the stronger "
        "shade); the rest only has the same shape."
    )
    assert 0 < words.shared < total


def test_a_split_piece_says_which_passage_it_is_and_what_else_differs() -> None:
    comparison = samples()
    (index, block), *_ = indexed(comparison, BlockState.SPLIT)
    tip = piece_tooltip(f"Block {index + 1}", block, 0)
    assert tip.startswith(
        f"Verified block (word for word)\nBlock {index + 1} · split, passage 1 of "
        f"{len(block.pieces)}\n"
    )
    assert f"{len(block.failed)} of {block.raw.length} sentences start differently" in tip


def test_a_sentence_not_verified_quotes_the_first_words_that_differ() -> None:
    comparison = samples()
    (index, block), *_ = indexed(comparison, BlockState.SPLIT)
    offset = block.failed[0]
    reason = comparison.failure_reason(block, offset)
    assert reason.startswith("first words differ: ")
    name = f"Block {index + 1}"
    assert failed_tooltip(name, reason) == (
        f"{name} · sentence not verified\n"
        f"Same length as its partner sentence, but the {reason}.\n"
        "Not counted as word for word: only the lengths agree, the sentences may be unrelated."
    )
    mark = Mark(0, 1, MarkKind.FAILED, index, offset, 0)
    assert mark_tooltip(comparison, mark) == failed_tooltip(name, reason)


def test_a_discarded_block_gives_the_engines_reason_as_a_sentence() -> None:
    comparison = samples()
    ((index, block),) = indexed(comparison, BlockState.DISCARDED)
    tip = discarded_tooltip(f"Block {index + 1}", block)
    reason = block.reason
    assert tip == (
        f"Block {index + 1} · discarded\n{reason[0].upper()}{reason[1:]}.\nNot counted as copied."
    )


def test_text_left_out_says_why_for_every_kind() -> None:
    why = {
        ExcludedSpan(0, 5, ExclusionKind.QUOTATION): "Inside quotation marks.",
        ExcludedSpan(0, 5, ExclusionKind.QUOTATION, BLOCK_QUOTE): "A block quote in the file.",
        ExcludedSpan(0, 5, ExclusionKind.REFERENCES, "References"): (
            "The references section, from the heading “References”."
        ),
        ExcludedSpan(0, 5, ExclusionKind.TEMPLATE, "prompt.docx"): (
            "The same text is in the template prompt.docx."
        ),
        ExcludedSpan(0, 5, ExclusionKind.COMMON, "in 31 of 40 documents"): (
            "Text most documents of the folder share (in 31 of 40 documents)."
        ),
    }
    for span, reason in why.items():
        assert excluded_tooltip(span) == (
            f"Left out of the scores · {span.kind.label}\n{reason}\n"
            "The document is unchanged; this text is only not counted."
        )


def test_an_excluded_mark_is_worded_from_the_panes_own_document() -> None:
    quote = '"Every street tells a story of work and hope, and of people long gone."'
    comparison = compared(
        f"{FILLER_A}{quote} {COPIED}", f"{FILLER_B}{COPIED}", ExclusionOptions(quotations=True)
    )
    span = comparison.a.excluded[0]
    mark = Mark(span.start, span.end, MarkKind.EXCLUDED, -1, 0, None)
    assert mark_tooltip(comparison, mark, document=comparison.a) == excluded_tooltip(span)
    assert mark_tooltip(comparison, mark) == ""  # no document: nothing to say


def test_a_spot_under_many_marks_names_three_and_counts_the_rest() -> None:
    marks = [Mark(0, 10, MarkKind.PIECE, block, 0, 0) for block in range(5)]
    tip = combined_tooltip(marks, lambda mark: f"block {mark.block}")
    assert tip == "block 0\n\nblock 1\n\nblock 2\n\n(and 2 more here)"
    same = combined_tooltip(marks, lambda mark: "one text")  # said once
    assert same == "one text"
    assert combined_tooltip(marks, lambda mark: "") == ""


# --- finding marks under a point ------------------------------------------------------------


def test_the_most_telling_mark_comes_first() -> None:
    index = MarkIndex(
        [
            Mark(0, 100, MarkKind.DISCARDED, 0, 0, None),
            Mark(10, 50, MarkKind.PIECE, 1, 0, 0),
            Mark(20, 30, MarkKind.FAILED, 2, 1, 1),
            Mark(0, 40, MarkKind.EXCLUDED, -1, 0, None),
        ]
    )
    assert [m.block for m in index.at(25)] == [2, 1, 0, -1]
    # a reworded passage wins over a sentence that failed verification inside it
    reworded = MarkIndex(
        [Mark(20, 30, MarkKind.FAILED, 2, 1, 1), Mark(0, 90, MarkKind.REWORDED, 5, 0, None)]
    )
    assert [m.kind for m in reworded.at(25)] == [MarkKind.REWORDED, MarkKind.FAILED]
    assert [m.block for m in index.at(60)] == [0]
    assert index.at(60, show_discarded=False) == []
    assert index.at(100) == []


def test_a_blocks_extent_runs_from_its_first_mark_to_its_last() -> None:
    index = MarkIndex(
        [
            Mark(50, 60, MarkKind.PIECE, 3, 1, 0),
            Mark(10, 20, MarkKind.PIECE, 3, 0, 0),
            Mark(30, 35, MarkKind.FAILED, 3, 2, 0),
            Mark(0, 200, MarkKind.EXCLUDED, -1, 0, None),  # not a block
        ]
    )
    assert index.block_span(3) == (10, 60)
    assert index.block_span(-1) is None and index.block_span(4) is None


spans = st.lists(
    st.tuples(st.integers(0, 300), st.integers(1, 120)).map(lambda t: TextSpan(t[0], t[0] + t[1])),
    max_size=40,
)


@given(spans, st.integers(0, 450), st.integers(0, 200))
def test_span_index_finds_what_a_scan_of_every_span_finds(
    items: list[TextSpan], low: int, width: int
) -> None:
    index = SpanIndex(items)
    high = low + width
    overlapping = [s for s in items if s.start < high and s.end > low]
    assert sorted(index.between(low, high)) == sorted(overlapping)
    starts = [s.start for s in index.between(low, high)]
    assert starts == sorted(starts)
    assert sorted(index.covering(low)) == sorted(s for s in items if s.start <= low < s.end)
    assert len(index) == len(items)


def test_a_comparison_opens_at_its_largest_copied_passage() -> None:
    """The item a comparison opens at: the passage of either kind with the most sentences of
    A; a reworded passage when that is all there is; none when nothing was copied."""
    comparison = samples()
    largest = largest_item(comparison)
    assert largest is not None and largest < len(comparison.blocks)
    size = sum(p.length for p in comparison.blocks[largest].pieces)
    assert all(sum(p.length for p in b.pieces) <= size for b in comparison.blocks)
    only = reworded_only()
    assert not any(b.pieces for b in only.blocks) and only.reworded_passages
    assert largest_item(only) == len(only.blocks)  # its first reworded passage
    unrelated = compared(FILLER_A, FILLER_B)
    assert not unrelated.flagged and largest_item(unrelated) is None

"""The numbers a teacher reads (`marks.number_items`: what is listed, 1, 2, 3… and R1, R2…
without gaps), the overview strips' marks and words, and the wording of a sentence whose first
words differ (never "reworded": that word is the reworded-passage detector's). No Qt."""

from __future__ import annotations

from functools import cache, partial

from app.gui.compare.marks import (
    OVERVIEW_KINDS,
    MarkIndex,
    MarkKind,
    Numbering,
    combined_tooltip,
    listed_items,
    listed_order,
    mark_tooltip,
    number_items,
    overview_marks,
    overview_tooltip,
    prepare_view,
)
from core.comparison import Comparison, compare_documents
from core.detection.passages import Passage, piece_sentences
from core.detection.verification import BlockState
from core.documents.document import document_from_text
from core.options import SignatureOptions
from core.resources import resource_path

OPTIONS = SignatureOptions(language="en")


@cache
def samples() -> Comparison:
    """The bundled essays: in A order a discarded block, two split blocks, reworded passage
    R1, the verified block, reworded passage R2."""
    folder = resource_path("samples")
    a = document_from_text((folder / "original-essay.txt").read_text("utf-8"), "A.txt", OPTIONS)
    b = document_from_text((folder / "reworded-copy.txt").read_text("utf-8"), "B.txt", OPTIONS)
    return compare_documents(a, b)


def not_discarded(comparison: Comparison):
    items = listed_items(comparison)
    return lambda i: isinstance(items[i], Passage) or items[i].state is not BlockState.DISCARDED


# --- numbering -----------------------------------------------------------------------------


def test_everything_listed_is_numbered_in_reading_order() -> None:
    comparison = samples()
    numbering = number_items(comparison, listed_order(comparison))
    assert [numbering.label(i) for i in listed_order(comparison)] == [
        "1",
        "2",
        "3",
        "R1",
        "4",
        "R2",
    ]


def test_hiding_the_discarded_block_leaves_no_gap() -> None:
    comparison = samples()
    assert comparison.blocks[0].state is BlockState.DISCARDED  # the first along A
    numbering = number_items(comparison, listed_order(comparison), not_discarded(comparison))
    assert numbering.label(0) == ""
    assert [numbering.label(i) for i in numbering.listed()] == ["1", "2", "R1", "3", "R2"]
    assert numbering.listed() == [i for i in listed_order(comparison) if i != 0]


def test_a_filter_numbers_what_it_lets_through() -> None:
    comparison = samples()
    split = [i for i, b in enumerate(comparison.blocks) if b.state is BlockState.SPLIT]
    numbering = number_items(comparison, listed_order(comparison), split.__contains__)
    assert {numbering.label(i) for i in split} == {"1", "2"}
    first = len(comparison.blocks)
    reworded = number_items(comparison, listed_order(comparison), lambda i: i >= first)
    assert [reworded.label(i) for i in reworded.listed()] == ["R1", "R2"]


def test_names_in_the_tooltips_follow_the_numbers() -> None:
    comparison = samples()
    numbering = number_items(comparison, listed_order(comparison), not_discarded(comparison))
    first = len(comparison.blocks)
    assert numbering.name(1) == "Block 1"
    assert numbering.name(first) == "Passage R1"
    assert numbering.name(0) == "Block (not listed)"
    assert Numbering(0, {}).name(3) == "Passage (not listed)"


def test_pane_tooltips_say_the_numbers_listed() -> None:
    comparison = samples()
    prepared = prepare_view(comparison)
    numbering = number_items(comparison, listed_order(comparison), not_discarded(comparison))
    for mark in prepared.marks_a:
        if mark.kind is MarkKind.EXCLUDED:
            continue
        tip = mark_tooltip(comparison, mark, numbering=numbering)
        assert numbering.name(mark.block) in tip
    piece = next(m for m in prepared.marks_a if m.kind is MarkKind.PIECE and m.block == 1)
    assert "\nBlock 1 · split, passage 1 of 2\n" in mark_tooltip(
        comparison, piece, None, None, numbering
    )


# --- the overview strips' marks and words --------------------------------------------------


def test_the_strip_shows_the_listed_passages_in_document_order() -> None:
    comparison = samples()
    prepared = prepare_view(comparison)
    numbering = number_items(comparison, listed_order(comparison), not_discarded(comparison))
    shown = overview_marks(prepared.marks_a, lambda i: bool(numbering.label(i)))
    assert [m.start for m in shown] == sorted(m.start for m in shown)
    assert all(m.kind in OVERVIEW_KINDS and m.kind is not MarkKind.DISCARDED for m in shown)
    assert {m.block for m in shown} == set(numbering.listed())
    every = overview_marks(prepared.marks_a, lambda i: True)
    assert any(m.kind is MarkKind.DISCARDED for m in every)
    assert not any(m.kind in (MarkKind.FAILED, MarkKind.EXCLUDED) for m in every)


def test_a_strip_marks_tooltip_names_it_with_its_own_documents_sentences() -> None:
    comparison = samples()
    prepared = prepare_view(comparison)
    numbering = number_items(comparison, listed_order(comparison), not_discarded(comparison))
    a, b = comparison.a.signature, comparison.b.signature
    block = comparison.blocks[1]  # split, two pieces
    in_a, in_b = piece_sentences(a, b, block.pieces[1])
    piece = next(
        m for m in prepared.marks_b if m.kind is MarkKind.PIECE and m.block == 1 and m.part == 1
    )
    assert overview_tooltip(comparison, piece, numbering, False) == (
        f"Block 1 — word for word, sentences {in_b[0] + 1}–{in_b[1]} (passage 2 of 2)\n"
        "Click to go to it."
    )
    assert overview_tooltip(comparison, piece, numbering, True).startswith(
        f"Block 1 — word for word, sentences {in_a[0] + 1}–{in_a[1]} (passage 2 of 2)"
    )
    passage = comparison.reworded_passages[0]
    reworded = next(m for m in prepared.marks_a if m.kind is MarkKind.REWORDED)
    first, end = passage.a_sentences
    assert overview_tooltip(comparison, reworded, numbering, True).startswith(
        f"Passage R1 — edited, sentences {first + 1}–{end}"
    )
    discarded = next(m for m in prepared.marks_a if m.kind is MarkKind.DISCARDED)
    everything = number_items(comparison, listed_order(comparison))
    assert overview_tooltip(comparison, discarded, everything, True).startswith(
        "Block 1 — discarded (the lengths agree by chance), sentences "
    )


# --- "first words differ", never "reworded" ------------------------------------------------


def test_a_sentence_whose_first_words_differ_is_never_called_reworded() -> None:
    comparison = samples()
    prepared = prepare_view(comparison)
    numbering = number_items(comparison, listed_order(comparison))
    for marks, document in ((prepared.marks_a, comparison.a), (prepared.marks_b, comparison.b)):
        index = MarkIndex(marks)
        failed = [m for m in marks if m.kind is MarkKind.FAILED]
        assert failed
        for mark in failed:
            block = comparison.blocks[mark.block]
            i, j = block.raw.a_start + mark.part, block.raw.b_start + mark.part
            key_a = " ".join(comparison.a.signature.keys[i])
            key_b = " ".join(comparison.b.signature.keys[j])
            tip = mark_tooltip(comparison, mark, document=document, numbering=numbering)
            assert f"first words differ: '{key_a}' vs '{key_b}'" in tip
            assert "reword" not in tip.lower() and "edited" not in tip.lower()
            # hovered: only a reworded passage the detector found there may say "reworded"
            here = index.at(mark.start)
            spot = combined_tooltip(
                here, partial(mark_tooltip, comparison, document=document, numbering=numbering)
            )
            if not any(m.kind is MarkKind.REWORDED for m in here):
                assert "reword" not in spot.lower()

"""The side-by-side view on the bundled samples: marks exactly where the engine says (verified
blocks and reworded passages, each in its own style), clicks and table rows that bring passages
into view, next/previous through both kinds, hiding discarded blocks, sync."""

from __future__ import annotations

import time
from functools import cache
from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray, QEvent, Qt
from PySide6.QtGui import QColor, QHelpEvent, QKeySequence, QPalette, QTextCharFormat
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolTip

from app.gui.compare.colours import (
    BLOCK_PALETTE,
    failed_colour,
    neutral_colour,
    piece_background,
    reworded_background,
    reworded_shared_background,
    reworded_underline,
    shared_colours,
)
from app.gui.compare.marks import (
    COLOUR_SLOTS,
    Emphasis,
    Mark,
    MarkKind,
    block_spans,
    largest_item,
    listed_items,
    listed_order,
    reworded_line,
)
from app.gui.compare.text_pane import (
    MARK_BLOCK_PROPERTY,
    MAX_SELECTIONS,
    Overlay,
    TextPane,
    selections_of_kind,
    selections_of_overlay,
)
from app.gui.compare.view import TAB_BLOCKS, TAB_PHRASES, ComparisonView
from app.gui.models.block_model import INDEX_ROLE, StateFilter
from app.gui.theme import dark_palette
from app.gui.view_state import write_state
from core.comparison import Comparison, compare_documents
from core.detection.passages import Passage
from core.detection.verification import BlockOutcome, BlockState
from core.documents.document import document_from_text
from core.documents.sentences import word_spans
from core.options import MatchOptions, SignatureOptions
from core.resources import resource_path
from tests.core.docmakers import COPIED, FILLER_A, FILLER_B, RESHAPED
from tests.gui_logic.long_text import AFTER, END_A, END_B, INSIDE, S0, S1, S2, S3

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "gutenberg"
NOVELS = (CORPUS / "pg2701.txt", CORPUS / "pg345.txt")


@cache
def samples() -> Comparison:
    options = SignatureOptions(language="en")
    folder = resource_path("samples")
    a = document_from_text((folder / "original-essay.txt").read_text("utf-8"), "A.txt", options)
    b = document_from_text((folder / "reworded-copy.txt").read_text("utf-8"), "B.txt", options)
    return compare_documents(a, b)


def blocks_in(state: BlockState) -> list[tuple[int, BlockOutcome]]:
    return [(i, b) for i, b in enumerate(samples().blocks) if b.state is state]


@pytest.fixture
def view(qtbot, sync_runner) -> ComparisonView:
    view = ComparisonView(runner=sync_runner)
    qtbot.addWidget(view)
    view.resize(1100, 700)
    with qtbot.waitExposed(view):
        view.show()
    view.set_state_filter(StateFilter.ALL)  # every row, discarded included (the default: below)
    view.set_comparison(samples())
    QApplication.processEvents()  # it opens at the largest passage (tested below) …
    view.clear_selection()  # … the tests here start from nothing selected
    return view


def test_a_comparison_opens_at_its_largest_passage_selected(qtbot, sync_runner) -> None:
    view = ComparisonView(runner=sync_runner)
    qtbot.addWidget(view)
    view.resize(1100, 700)
    with qtbot.waitExposed(view):
        view.show()
    comparison = samples()
    view.set_comparison(comparison)
    largest = largest_item(comparison)
    qtbot.waitUntil(lambda: view.current_block() == largest)
    block = comparison.blocks[largest]  # the samples' largest is a split block of 7 sentences
    assert sum(p.length for p in block.pieces) == 7
    assert all(sum(p.length for p in other.pieces) <= 7 for other in comparison.blocks) and all(
        p.a_sentences[1] - p.a_sentences[0] <= 7 for p in comparison.reworded_passages
    )
    current = view.table.selectionModel().currentIndex()
    assert view.proxy.data(current, INDEX_ROLE) == largest  # its row is selected
    spans_shown = block_spans(comparison, largest)
    for pane, span in zip((view.pane_a, view.pane_b), spans_shown, strict=True):
        assert pane.span_visible(*span)  # and both panes show it


def spans(pane: TextPane, kind: MarkKind) -> set[tuple[int, int]]:
    return {
        (s.cursor.selectionStart(), s.cursor.selectionEnd()) for s in selections_of_kind(pane, kind)
    }


def colours_by_block(pane: TextPane) -> dict[int, set[str]]:
    found: dict[int, set[str]] = {}
    for s in selections_of_kind(pane, MarkKind.PIECE):
        block = s.format.property(MARK_BLOCK_PROPERTY)
        found.setdefault(block, set()).add(s.format.background().color().name())
    return found


def point_in(pane: TextPane, offset: int):
    return pane.cursorRect(pane.cursor_at(offset)).center()


def click_at(pane: TextPane, offset: int) -> None:
    """A left click on the pane's text at character `offset`."""
    QTest.mouseClick(
        pane.viewport(),
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
        point_in(pane, offset),
    )


# --- marks -------------------------------------------------------------------------------


def test_panes_show_the_engines_text(view: ComparisonView) -> None:
    comparison = samples()
    assert view.pane_a.toPlainText() == comparison.a.text
    assert view.pane_b.toPlainText() == comparison.b.text
    assert view.pane_a.isReadOnly() and view.pane_b.isReadOnly()
    assert view.header_a.title.text() == "A  ·  A.txt"
    assert "27 sentences" in view.header_a.details.text()
    assert "English" in view.header_a.details.text()


def test_kept_pieces_are_highlighted_exactly_where_the_engine_says(view: ComparisonView) -> None:
    comparison = samples()
    pieces = [p for b in comparison.blocks for p in b.pieces]
    assert len(pieces) == 4
    assert spans(view.pane_a, MarkKind.PIECE) == {comparison.piece_chars(p)[0] for p in pieces}
    assert spans(view.pane_b, MarkKind.PIECE) == {comparison.piece_chars(p)[1] for p in pieces}


def test_each_block_has_one_colour_the_same_in_both_panes(view: ComparisonView) -> None:
    in_a, in_b = colours_by_block(view.pane_a), colours_by_block(view.pane_b)
    kept = [i for i, b in enumerate(samples().blocks) if b.pieces]
    assert set(in_a) == set(in_b) == set(kept)
    for block in kept:
        assert len(in_a[block]) == 1  # a split block's pieces share its colour
        assert in_a[block] == in_b[block]
    assert len({next(iter(c)) for c in in_a.values()}) == len(kept)  # and blocks differ
    palette = {QColor(c).name() for c in BLOCK_PALETTE}
    assert all(next(iter(c)) in palette for c in in_a.values())  # light pane: the hue itself


def test_failed_sentences_of_split_blocks_carry_a_red_wavy_underline(
    view: ComparisonView,
) -> None:
    comparison = samples()
    expected_a, expected_b = set(), set()
    for _, block in blocks_in(BlockState.SPLIT):
        for offset in block.failed:
            expected_a.add(comparison.a.chars_of(block.raw.a_start + offset, 1))
            expected_b.add(comparison.b.chars_of(block.raw.b_start + offset, 1))
    assert len(expected_a) == 4
    assert spans(view.pane_a, MarkKind.FAILED) == expected_a
    assert spans(view.pane_b, MarkKind.FAILED) == expected_b
    red = failed_colour(view.pane_a.palette())
    for pane in (view.pane_a, view.pane_b):
        for selection in selections_of_kind(pane, MarkKind.FAILED):
            style = selection.format.underlineStyle()
            assert style == QTextCharFormat.UnderlineStyle.WaveUnderline
            assert selection.format.underlineColor() == red
            assert red.red() > 2 * red.green()  # red, whichever theme


def test_failed_sentence_tooltip_says_why(view: ComparisonView) -> None:
    comparison = samples()
    index, block = blocks_in(BlockState.SPLIT)[0]
    offset = block.failed[0]
    start, _ = comparison.a.chars_of(block.raw.a_start + offset, 1)
    tip = view.pane_a.tooltip_at(point_in(view.pane_a, start + 3))
    assert comparison.failure_reason(block, offset) in tip  # "first words differ: 'x' vs 'y'"
    assert f"Block {index + 1}" in tip
    start_b, _ = comparison.b.chars_of(block.raw.b_start + offset, 1)
    assert comparison.failure_reason(block, offset) in view.pane_b.tooltip_at(
        point_in(view.pane_b, start_b + 3)
    )


def test_piece_and_discarded_tooltips_in_plain_words(view: ComparisonView) -> None:
    comparison = samples()
    index, verified = blocks_in(BlockState.VERIFIED)[0]
    start, _ = comparison.piece_chars(verified.pieces[0])[0]
    tip = view.pane_a.tooltip_at(point_in(view.pane_a, start + 3))
    assert tip.startswith(f"Verified block (word for word)\nBlock {index + 1} · verified")
    assert "3 sentences" in tip and "same words" in tip
    _, discarded = blocks_in(BlockState.DISCARDED)[0]
    start, _ = comparison.a.chars_of(discarded.raw.a_start, 1)
    tip = view.pane_a.tooltip_at(point_in(view.pane_a, start + 3))
    assert discarded.reason[1:] in tip


def test_tooltip_event_shows_the_marks_explanation(view: ComparisonView) -> None:
    comparison = samples()
    _, verified = blocks_in(BlockState.VERIFIED)[0]
    start, _ = comparison.piece_chars(verified.pieces[0])[0]
    pane = view.pane_a
    point = point_in(pane, start + 3)
    event = QHelpEvent(QEvent.Type.ToolTip, point, pane.viewport().mapToGlobal(point))
    QApplication.sendEvent(pane.viewport(), event)
    assert QToolTip.text() == pane.tooltip_at(point)
    assert "verified" in QToolTip.text()
    QToolTip.hideText()


def test_discarded_blocks_are_dotted_and_can_be_hidden(view: ComparisonView) -> None:
    comparison = samples()
    listed = blocks_in(BlockState.DISCARDED)
    expected = {comparison.a.chars_of(b.raw.a_start, b.raw.length) for _, b in listed}
    assert spans(view.pane_a, MarkKind.DISCARDED) == expected
    for selection in selections_of_kind(view.pane_b, MarkKind.DISCARDED):
        assert selection.format.underlineStyle() == QTextCharFormat.UnderlineStyle.DotLine
        assert selection.format.underlineColor() == neutral_colour(view.pane_b.palette())
        assert not selection.format.hasProperty(QTextCharFormat.Property.BackgroundBrush)

    view.set_hide_discarded(True)
    assert view.hide_discarded_action.isChecked()
    assert spans(view.pane_a, MarkKind.DISCARDED) == set()
    assert spans(view.pane_b, MarkKind.DISCARDED) == set()
    items = len(view.block_model.listed())
    assert view.proxy.rowCount() == items - len(listed)
    assert len(spans(view.pane_a, MarkKind.PIECE)) == 4  # the rest stays
    assert len(spans(view.pane_a, MarkKind.REWORDED)) == 2
    start, _ = comparison.a.chars_of(listed[0][1].raw.a_start, 1)
    assert view.pane_a.tooltip_at(point_in(view.pane_a, start + 3)) == ""

    view.hide_discarded_action.toggle()  # the menu's action does the same
    assert spans(view.pane_a, MarkKind.DISCARDED) == expected
    assert view.proxy.rowCount() == items


# --- reworded passages ------------------------------------------------------------------


def test_reworded_passages_are_drawn_apart_from_verified_blocks(view: ComparisonView) -> None:
    comparison = samples()
    passages = comparison.reworded_passages
    assert len(passages) == 2
    assert spans(view.pane_a, MarkKind.REWORDED) == {p.a_chars for p in passages}
    assert spans(view.pane_b, MarkKind.REWORDED) == {p.b_chars for p in passages}
    for pane in (view.pane_a, view.pane_b):
        palette = pane.palette()
        # reworded: a pale violet fill with a dashed violet underline
        for selection in selections_of_kind(pane, MarkKind.REWORDED):
            text_format = selection.format
            assert text_format.background().color() == reworded_background(palette)
            assert text_format.underlineStyle() == QTextCharFormat.UnderlineStyle.DashUnderline
            assert text_format.underlineColor() == reworded_underline(palette)
        # verified: the block's solid colour, no underline
        block_colours = set()
        for selection in selections_of_kind(pane, MarkKind.PIECE):
            text_format = selection.format
            assert text_format.underlineStyle() == QTextCharFormat.UnderlineStyle.NoUnderline
            block_colours.add(text_format.background().color().name())
        assert block_colours <= {QColor(c).name() for c in BLOCK_PALETTE}
        assert reworded_background(palette).name() not in block_colours


def test_the_shared_words_of_a_reworded_passage_are_underlined(view: ComparisonView) -> None:
    comparison = samples()
    for pane, chars in (
        (view.pane_a, [p.a_chars for p in comparison.reworded_passages]),
        (view.pane_b, [p.b_chars for p in comparison.reworded_passages]),
    ):
        palette = pane.palette()
        overlay = selections_of_overlay(pane, Overlay.SHARED_WORDS)
        inside = [s for s in overlay if any(a <= s.cursor.selectionStart() < b for a, b in chars)]
        outside = [s for s in overlay if s not in inside]
        assert inside and outside  # the edited passages' shared words, and the blocks'
        for selection in inside:
            text_format = selection.format
            assert text_format.background().color() == reworded_shared_background(palette)
            assert text_format.underlineStyle() == QTextCharFormat.UnderlineStyle.SingleUnderline
            assert text_format.underlineColor() == reworded_underline(palette)
        # a verified piece's shared words: a stronger shade of its colour, not underlined
        for selection in outside:
            style = selection.format.underlineStyle()
            assert style == QTextCharFormat.UnderlineStyle.NoUnderline
    # the words that differ stay plain: the passage holds more words than are emphasised
    passage = comparison.reworded_passages[0]
    text = comparison.a.text
    marked = [
        (s.cursor.selectionStart(), s.cursor.selectionEnd())
        for s in selections_of_overlay(view.pane_a, Overlay.SHARED_WORDS)
        if passage.a_chars[0] <= s.cursor.selectionStart() < passage.a_chars[1]
    ]
    assert 0 < len(words_in(text, marked)) < len(words_in(text, [passage.a_chars]))


def test_a_reworded_passages_tooltip_says_its_kind_and_what_changed(view: ComparisonView) -> None:
    comparison = samples()
    passage = comparison.reworded_passages[1]
    tip = view.pane_a.tooltip_at(point_in(view.pane_a, passage.a_chars[0] + 3))
    assert tip.startswith(reworded_line(passage))
    assert tip.startswith("Reworded passage (edited) — ")
    assert "words the same" in tip.splitlines()[0]
    assert "Passage R2" in tip
    tip_b = view.pane_b.tooltip_at(point_in(view.pane_b, passage.b_chars[0] + 3))
    assert tip_b.startswith(reworded_line(passage))


def test_clicking_a_reworded_passage_shows_its_partner(qtbot, view: ComparisonView) -> None:
    comparison = samples()
    number = len(comparison.blocks) + 1  # the second reworded passage, near the end
    passage = comparison.reworded_passages[1]
    (a_start, a_end), (b_start, b_end) = passage.a_chars, passage.b_chars
    view.resize(900, 520)  # panes shorter than the documents: A has to scroll
    view.pane_a.verticalScrollBar().setValue(0)
    view.pane_b.show_span(b_start, b_end)
    assert not view.pane_a.span_visible(a_start, a_end)
    with qtbot.waitSignal(view.block_selected) as blocker:
        click_at(view.pane_b, b_start + 5)
    assert blocker.args == [number]
    assert view.current_block() == number
    assert view.pane_a.span_visible(a_start, a_end)
    assert a_start <= view.pane_a.textCursor().position() < a_end
    assert view.table.currentIndex().data(INDEX_ROLE) == number
    assert view.pane_a.current_block() == view.pane_b.current_block() == number
    assert view.pane_a.block_span(number) == passage.a_chars  # the frame goes round it


def test_selecting_a_reworded_row_moves_both_panes(qtbot, view: ComparisonView) -> None:
    comparison = samples()
    number = len(comparison.blocks)
    passage = comparison.reworded_passages[0]
    row = view.proxy.proxy_row(number)
    assert view.proxy.index(row, 1).data() == "edited"
    with qtbot.waitSignal(view.block_selected) as blocker:
        view.table.selectRow(row)
    assert blocker.args == [number]
    assert passage.a_chars[0] <= view.pane_a.textCursor().position() < passage.a_chars[1]
    assert passage.b_chars[0] <= view.pane_b.textCursor().position() < passage.b_chars[1]
    assert view.shown_count.text() == "4 blocks, 2 reworded passages listed"


def test_a_strict_comparison_draws_no_reworded_passage(qtbot, sync_runner) -> None:
    comparison = samples()
    strict = compare_documents(comparison.a, comparison.b, MatchOptions(reworded=False))
    view = ComparisonView(runner=sync_runner)
    qtbot.addWidget(view)
    view.set_comparison(strict)
    assert spans(view.pane_a, MarkKind.REWORDED) == set()
    assert len(spans(view.pane_a, MarkKind.PIECE)) == 4
    assert view.block_model.rowCount() == 4
    assert "not looked for" in view.results.certainty.text()


# --- navigation --------------------------------------------------------------------------


def test_clicking_a_block_in_a_shows_its_partner_in_b(qtbot, view: ComparisonView) -> None:
    comparison = samples()
    index, block = blocks_in(BlockState.SPLIT)[0]
    (a_start, _), (b_start, b_end) = comparison.piece_chars(block.pieces[0])
    view.resize(900, 520)  # panes shorter than the documents, so B has to scroll
    bar = view.pane_b.verticalScrollBar()
    bar.setValue(bar.maximum())
    assert bar.maximum() > 0
    assert not view.pane_b.span_visible(b_start, b_end)
    with qtbot.waitSignal(view.block_selected) as blocker:
        click_at(view.pane_a, a_start + 10)
    assert blocker.args == [index]
    assert view.current_block() == index
    assert view.pane_b.span_visible(b_start, b_end)
    assert b_start <= view.pane_b.textCursor().position() < b_end
    assert view.table.currentIndex().data(INDEX_ROLE) == index
    assert view.table.selectionModel().isRowSelected(view.table.currentIndex().row())
    assert view.pane_a.current_block() == view.pane_b.current_block() == index


def test_clicking_a_failed_sentence_in_b_shows_its_partner_in_a(
    qtbot, view: ComparisonView
) -> None:
    comparison = samples()
    # a failed sentence outside every reworded passage (inside one, the passage is clicked)
    reworded = [p.b_chars for p in comparison.reworded_passages]
    index, block, offset = next(
        (i, b, offset)
        for i, b in blocks_in(BlockState.SPLIT)
        for offset in b.failed
        if not any(
            s <= comparison.b.chars_of(b.raw.b_start + offset, 1)[0] < e for s, e in reworded
        )
    )
    a_span = comparison.a.chars_of(block.raw.a_start + offset, 1)
    b_start, _ = comparison.b.chars_of(block.raw.b_start + offset, 1)
    with qtbot.waitSignal(view.block_selected) as blocker:
        click_at(view.pane_b, b_start + 3)
    assert blocker.args == [index]
    assert a_span[0] <= view.pane_a.textCursor().position() < a_span[1]


def test_clicking_unmarked_text_selects_nothing(qtbot, view: ComparisonView) -> None:
    comparison = samples()
    marked = {o for m in view.pane_a.marks() for o in range(m.start, m.end)}
    free = next(o for o in range(10, len(comparison.a.text)) if o not in marked)
    with qtbot.assertNotEmitted(view.block_selected):
        click_at(view.pane_a, free)
    assert view.current_block() == -1


def test_next_and_previous_cycle_through_both_kinds_in_a_order(qtbot, view: ComparisonView) -> None:
    comparison = samples()
    order = listed_order(comparison)
    items = listed_items(comparison)
    starts = [
        items[i].a_chars[0]
        if isinstance(items[i], Passage)
        else comparison.a.chars_of(items[i].raw.a_start, 1)[0]
        for i in order
    ]
    assert starts == sorted(starts) and len(order) == 6
    # the reworded passages are stepped to among the blocks, where they are in A
    assert [isinstance(items[i], Passage) for i in order] == [
        False,
        False,
        False,
        True,
        False,
        True,
    ]
    seen = []
    for _ in range(len(order) + 1):
        with qtbot.waitSignal(view.block_selected) as blocker:
            view.next_action.trigger()
        seen.append(blocker.args[0])
    assert seen == [*order, order[0]]  # wraps to the first
    view.previous_block()
    assert view.current_block() == order[-1]  # and back round to the last
    view.previous_block()
    assert view.current_block() == order[-2]


def test_f8_and_shift_f8_step_through_blocks_and_reworded_passages(
    qtbot, view: ComparisonView
) -> None:
    order = listed_order(samples())
    view.activateWindow()
    view.pane_a.setFocus()
    seen = []
    for _ in range(len(order)):
        with qtbot.waitSignal(view.block_selected) as blocker:
            QTest.keyClick(view.pane_a, Qt.Key.Key_F8)
        seen.append(blocker.args[0])
    assert seen == order  # both kinds, in reading order along A
    with qtbot.waitSignal(view.block_selected) as blocker:
        QTest.keyClick(view.pane_a, Qt.Key.Key_F8, Qt.KeyboardModifier.ShiftModifier)
    assert blocker.args == [order[-2]]


def test_next_skips_what_is_hidden(view: ComparisonView) -> None:
    view.set_hide_discarded(True)
    shown = view.shown_blocks()
    items = view.block_model.listed()
    assert all(
        isinstance(items[i], Passage) or items[i].state is not BlockState.DISCARDED for i in shown
    )
    visited = []
    for _ in range(len(shown)):
        view.next_block()
        visited.append(view.current_block())
    assert visited == shown
    view.set_state_filter(StateFilter.VERIFIED)
    view.next_block()
    assert samples().blocks[view.current_block()].state is BlockState.VERIFIED
    view.set_state_filter(StateFilter.REWORDED)
    view.next_block()
    assert items[view.current_block()] is samples().reworded_passages[0]
    view.next_block()
    assert items[view.current_block()] is samples().reworded_passages[1]


def test_navigation_shortcuts(view: ComparisonView) -> None:
    assert QKeySequence(Qt.Key.Key_F8) in view.next_action.shortcuts()
    assert QKeySequence("Ctrl+]") in view.next_action.shortcuts()
    assert QKeySequence("Shift+F8") in view.previous_action.shortcuts()
    assert QKeySequence("Ctrl+[") in view.previous_action.shortcuts()
    assert view.hide_discarded_action.isCheckable() and view.sync_scroll_action.isCheckable()


def test_selecting_a_table_row_moves_both_panes_into_the_block(qtbot, view: ComparisonView) -> None:
    comparison = samples()
    index, block = blocks_in(BlockState.VERIFIED)[0]
    (a_start, a_end), (b_start, b_end) = comparison.piece_chars(block.pieces[0])
    row = view.proxy.proxy_row(index)
    with qtbot.waitSignal(view.block_selected) as blocker:
        view.table.selectRow(row)
    assert blocker.args == [index]
    assert a_start <= view.pane_a.textCursor().position() < a_end
    assert b_start <= view.pane_b.textCursor().position() < b_end
    assert view.pane_a.span_visible(a_start, a_end) and view.pane_b.span_visible(b_start, b_end)


def test_select_block_follows_a_sorted_table(view: ComparisonView) -> None:
    view.table.sortByColumn(4, Qt.SortOrder.DescendingOrder)  # by length: rows move
    for index in range(4):
        view.select_block(index)
        assert view.table.currentIndex().data(INDEX_ROLE) == index


def test_sync_scroll_moves_the_other_pane_proportionally(view: ComparisonView) -> None:
    view.resize(900, 520)
    a, b = view.pane_a.verticalScrollBar(), view.pane_b.verticalScrollBar()
    assert a.maximum() > 0 and b.maximum() > 0
    a.setValue(a.maximum())
    assert b.value() == 0  # off by default
    view.sync_scroll_action.setChecked(True)
    assert view.sync_scroll()
    a.setValue(a.maximum())
    assert b.value() == b.maximum()
    b.setValue(0)
    assert a.value() == 0
    view.set_sync_scroll(False)
    a.setValue(a.maximum())
    assert b.value() == 0


# --- state -------------------------------------------------------------------------------


def test_save_and_restore_splitters_and_header(view: ComparisonView) -> None:
    view.panes_splitter.setSizes([300, 700])
    view.table.horizontalHeader().resizeSection(2, 222)
    view.phrases.table.horizontalHeader().resizeSection(2, 111)
    view.show_phrases()
    view.set_emphasise_shared(False)
    state = view.save_state()
    view.panes_splitter.setSizes([700, 300])
    view.table.horizontalHeader().resizeSection(2, 100)
    view.phrases.table.horizontalHeader().resizeSection(2, 50)
    view.tabs.setCurrentIndex(TAB_BLOCKS)
    view.set_emphasise_shared(True)
    assert view.restore_state(state)
    assert view.panes_splitter.sizes()[0] < view.panes_splitter.sizes()[1]
    assert view.table.horizontalHeader().sectionSize(2) == 222
    assert view.phrases.table.horizontalHeader().sectionSize(2) == 111
    assert view.tabs.currentIndex() == TAB_PHRASES
    assert not view.emphasise_shared() and not view.emphasise_action.isChecked()
    assert not view.restore_state(QByteArray(b"not a saved state"))


def test_a_layout_saved_before_the_phrases_tab_still_restores(view: ComparisonView) -> None:
    view.panes_splitter.setSizes([300, 700])
    view.table.horizontalHeader().resizeSection(2, 222)
    old, _ = write_state(
        "doppel.comparison-view",
        1,
        (
            view.main_splitter.saveState(),
            view.panes_splitter.saveState(),
            view.table.horizontalHeader().saveState(),
        ),
    )
    view.panes_splitter.setSizes([700, 300])
    view.table.horizontalHeader().resizeSection(2, 100)
    assert view.restore_state(old)
    assert view.panes_splitter.sizes()[0] < view.panes_splitter.sizes()[1]
    # the table's columns changed since (Kind, Shared words, Similarity): its widths stay
    assert view.table.horizontalHeader().sectionSize(2) == 100
    assert view.tabs.currentIndex() == TAB_BLOCKS and view.emphasise_shared()


def test_a_layout_saved_before_the_reworded_passages_restores_but_the_table(
    view: ComparisonView,
) -> None:
    view.panes_splitter.setSizes([300, 700])
    view.table.horizontalHeader().resizeSection(2, 222)
    view.show_phrases()
    old, stream = write_state(
        "doppel.comparison-view",
        2,
        (
            view.main_splitter.saveState(),
            view.panes_splitter.saveState(),
            view.table.horizontalHeader().saveState(),
            view.phrases.table.horizontalHeader().saveState(),
        ),
    )
    stream.writeInt32(TAB_PHRASES)
    stream.writeBool(False)
    view.panes_splitter.setSizes([700, 300])
    view.table.horizontalHeader().resizeSection(2, 100)
    view.tabs.setCurrentIndex(TAB_BLOCKS)
    assert view.restore_state(old)
    assert view.panes_splitter.sizes()[0] < view.panes_splitter.sizes()[1]
    assert view.table.horizontalHeader().sectionSize(2) == 100
    assert view.tabs.currentIndex() == TAB_PHRASES and not view.emphasise_shared()


def test_none_clears_everything(view: ComparisonView) -> None:
    view.select_block(1)
    view.set_comparison(None)
    assert view.comparison() is None
    assert view.pane_a.toPlainText() == view.pane_b.toPlainText() == ""
    assert view.pane_a.extraSelections() == [] and view.pane_b.extraSelections() == []
    assert view.block_model.rowCount() == 0
    assert view.results.is_empty()
    assert view.current_block() == -1
    assert view.header_a.title.text() == "A  ·  no document"
    view.next_block()  # nothing to go to; no error
    assert view.current_block() == -1


# --- colours -----------------------------------------------------------------------------


def contrast(one: QColor, two: QColor) -> float:
    def luminance(c: QColor) -> float:
        def channel(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return (
            0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())
        )

    high, low = sorted((luminance(one), luminance(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def themed(base: str, text: str) -> QPalette:
    palette = QPalette()
    palette.setColor(QPalette.ColorRole.Base, QColor(base))
    palette.setColor(QPalette.ColorRole.Text, QColor(text))
    return palette


@pytest.mark.parametrize(
    ("base", "text"),
    [
        ("#ffffff", "#000000"),
        ("#fafafa", "#333333"),
        ("#1e1e1e", "#e6e6e6"),
        ("#2b2b2b", "#ffffff"),
    ],
)
def test_block_colours_keep_text_readable_in_light_and_dark(qapp, base: str, text: str) -> None:
    palette = themed(base, text)
    for slot in range(len(BLOCK_PALETTE)):
        assert contrast(piece_background(slot, palette), QColor(text)) >= 4.5


def test_dark_pane_uses_dark_shades(qtbot) -> None:
    pane = TextPane()
    qtbot.addWidget(pane)
    pane.setPalette(themed("#1e1e1e", "#e6e6e6"))
    pane.set_text("one two three four")
    pane.set_marks([Mark(4, 13, MarkKind.PIECE, 0, 0, 0)])
    (selection,) = selections_of_kind(pane, MarkKind.PIECE)
    assert selection.format.background().color().lightness() < 128
    pane.setPalette(themed("#ffffff", "#000000"))  # a theme change rebuilds the marks
    (selection,) = selections_of_kind(pane, MarkKind.PIECE)
    assert selection.format.background().color() == QColor(BLOCK_PALETTE[0])


@pytest.mark.parametrize(
    ("base", "text"),
    [
        ("#ffffff", "#000000"),
        ("#fafafa", "#333333"),
        ("#1e1f22", "#e6e6e6"),
        ("#2b2b2b", "#ffffff"),
    ],
)
def test_reworded_passages_stay_readable_and_apart_in_light_and_dark(
    qapp, base: str, text: str
) -> None:
    palette = themed(base, text)
    fill, shared = reworded_background(palette), reworded_shared_background(palette)
    assert contrast(fill, QColor(text)) >= 4.5 and contrast(shared, QColor(text)) >= 4.5
    assert contrast(shared, fill) >= 1.15  # the shared words visibly stronger
    assert contrast(reworded_underline(palette), fill) >= 3  # the dashes show
    # a colour family of its own: violet, unlike every block's colour
    assert fill.hue() != -1 and 250 <= fill.hue() <= 290
    for slot in range(len(BLOCK_PALETTE)):
        assert abs(piece_background(slot, palette).hue() - fill.hue()) > 20


def test_the_palette_has_one_colour_per_slot_all_different() -> None:
    # the slots are assigned without Qt (marks.colour_slots); each needs its own colour
    assert len(set(BLOCK_PALETTE)) == len(BLOCK_PALETTE) == COLOUR_SLOTS


# --- shared words inside blocks ----------------------------------------------------------


def shown(qtbot, sync_runner, a: str, b: str) -> ComparisonView:
    options = SignatureOptions(language="en")
    view = ComparisonView(runner=sync_runner)
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.set_comparison(
        compare_documents(
            document_from_text(a, "A.txt", options), document_from_text(b, "B.txt", options)
        )
    )
    return view


def emphasised(pane: TextPane) -> list[tuple[int, int]]:
    return [
        (s.cursor.selectionStart(), s.cursor.selectionEnd())
        for s in selections_of_overlay(pane, Overlay.SHARED_WORDS)
    ]


def words_in(text: str, spans: list[tuple[int, int]]) -> list[str]:
    return [text[a:b] for s, e in spans for a, b in word_spans(text, s, e)]


def test_every_word_of_a_word_for_word_block_is_emphasised(qtbot, sync_runner) -> None:
    view = shown(qtbot, sync_runner, FILLER_A + COPIED, FILLER_B + COPIED)
    comparison = view.comparison()
    assert comparison is not None
    ((block, piece),) = [(i, p) for i, b in enumerate(comparison.blocks) for p in b.pieces]
    span_a, span_b = comparison.piece_chars(piece)
    assert emphasised(view.pane_a) == [span_a]  # one run: the whole block
    assert emphasised(view.pane_b) == [span_b]
    slot = view.block_model.colour_slot(block)
    (selection,) = selections_of_overlay(view.pane_a, Overlay.SHARED_WORDS)
    background, text = shared_colours(slot, view.pane_a.palette())
    assert selection.format.background().color() == background
    assert selection.format.foreground().color() == text
    assert background != piece_background(slot, view.pane_a.palette())  # stronger than it
    tip = view.pane_a.tooltip_at(point_in(view.pane_a, span_a[0] + 3))
    assert "Word for word" in tip


def test_only_the_shared_words_of_a_block_alike_in_shape_are_emphasised(qtbot, sync_runner) -> None:
    view = shown(qtbot, sync_runner, FILLER_A + COPIED, FILLER_B + RESHAPED)
    a, b = view.pane_a.toPlainText(), view.pane_b.toPlainText()
    marked_a = words_in(a, emphasised(view.pane_a))
    assert marked_a == words_in(b, emphasised(view.pane_b))  # the same words on both sides
    assert marked_a[:4] == ["Photosynthesis", "converts", "into", "in"]
    for differing in ("light", "energy", "chemical", "glucose", "mostly", "red", "sun"):
        assert differing not in marked_a
    piece = next(s for s in selections_of_kind(view.pane_a, MarkKind.PIECE))
    all_words = words_in(a, [(piece.cursor.selectionStart(), piece.cursor.selectionEnd())])
    assert 0 < len(marked_a) < len(all_words)
    tip = view.pane_a.tooltip_at(point_in(view.pane_a, a.index("Chlorophyll") + 3))
    assert f"{len(marked_a)} of " in tip and "same shape" in tip


def test_emphasis_can_be_switched_off_and_on(qtbot, sync_runner) -> None:
    view = shown(qtbot, sync_runner, FILLER_A + COPIED, FILLER_B + COPIED)
    assert view.emphasise_action.isChecked()  # on by default
    assert emphasised(view.pane_a)
    view.emphasise_action.trigger()
    assert not view.emphasise_shared()
    assert emphasised(view.pane_a) == [] and emphasised(view.pane_b) == []
    assert len(selections_of_kind(view.pane_a, MarkKind.PIECE)) == 1  # the block stays
    view.set_emphasise_shared(True)
    assert emphasised(view.pane_a) and view.emphasise_action.isChecked()


def test_no_emphasis_where_nothing_is_kept(qtbot, sync_runner) -> None:
    view = shown(qtbot, sync_runner, FILLER_A, FILLER_B)
    assert emphasised(view.pane_a) == [] and emphasised(view.pane_b) == []


@pytest.mark.parametrize(
    ("base", "text"),
    [
        ("#ffffff", "#000000"),
        ("#fafafa", "#333333"),
        ("#1e1f22", "#e6e6e6"),
        ("#2b2b2b", "#ffffff"),
    ],
)
def test_shared_words_stay_readable_and_stand_out_in_light_and_dark(
    qapp, base: str, text: str
) -> None:
    palette = themed(base, text)
    for slot in range(len(BLOCK_PALETTE)):
        background, foreground = shared_colours(slot, palette)
        assert contrast(background, foreground) >= 4.5
        block = piece_background(slot, palette)
        assert contrast(background, block) >= 1.5  # visibly stronger than the block


def test_emphasis_follows_the_theme(qtbot) -> None:
    pane = TextPane()
    qtbot.addWidget(pane)
    pane.setPalette(dark_palette())
    pane.set_text("one two three four")
    pane.set_marks([Mark(0, 18, MarkKind.PIECE, 0, 0, 0)], emphasis=[Emphasis(4, 13, 0)])
    (selection,) = selections_of_overlay(pane, Overlay.SHARED_WORDS)
    assert selection.format.background().color() == QColor(BLOCK_PALETTE[0])  # the hue itself
    assert selection.format.foreground().color().lightness() < 128  # with dark text on it
    pane.setPalette(themed("#ffffff", "#000000"))
    (selection,) = selections_of_overlay(pane, Overlay.SHARED_WORDS)
    assert selection.format.background().color().lightness() < QColor(BLOCK_PALETTE[0]).lightness()


# --- the pane on its own -----------------------------------------------------------------


def test_offsets_after_characters_outside_the_bmp(qtbot) -> None:
    # the engine counts code points, QTextDocument UTF-16 units: an emoji is one and two
    pane = TextPane()
    qtbot.addWidget(pane)
    text = "😀 copied words here. 🎉 more copied words."
    pane.set_text(text)
    start = text.index("more")
    pane.set_marks([Mark(start, start + 4, MarkKind.PIECE, 0, 0, 0)])
    (selection,) = selections_of_kind(pane, MarkKind.PIECE)
    assert selection.cursor.selectedText() == "more"
    assert pane.text_offset(pane.qt_position(start)) == start
    assert pane.mark_at(start + 1) is not None and pane.mark_at(start - 1) is None


def test_dense_emphasis_narrows_the_window_of_selections(qtbot) -> None:
    # an edited novel emphasises tens of thousands of words: Qt paints every selection listed,
    # on screen or not, so only those nearest the screen are made selections
    pane = TextPane()
    qtbot.addWidget(pane)
    pane.resize(600, 400)
    pane.show()
    line = "one two three four\n"
    text = line * 10_000
    pane.set_text(text)
    words = [
        Emphasis(k * len(line) + w, k * len(line) + w + 3, None)
        for k in range(10_000)
        for w in (0, 8)
    ]
    pane.set_marks([Mark(0, len(text), MarkKind.REWORDED, 0, 0, None)], emphasis=words)
    assert len(pane.emphasis()) == 20_000

    def shown() -> set[int]:
        overlay = selections_of_overlay(pane, Overlay.SHARED_WORDS)
        assert 0 < len(overlay) <= MAX_SELECTIONS
        return {s.cursor.selectionStart() for s in overlay}

    first, last = pane.visible_range()
    on_screen = {e.start for e in words if first <= e.start < last}
    assert on_screen and on_screen <= shown()
    middle = len(text) // 2
    pane.show_span(middle, middle + 10)  # scrolling on brings the words there
    first, last = pane.visible_range()
    assert first > MAX_SELECTIONS * len(line)
    on_screen = {e.start for e in words if first <= e.start < last}
    assert on_screen and on_screen <= shown()
    (reworded,) = selections_of_kind(pane, MarkKind.REWORDED)  # the passage, clipped
    assert reworded.cursor.selectionStart() <= first and reworded.cursor.selectionEnd() >= last


def test_marks_at_prefers_the_most_telling_mark(qtbot) -> None:
    pane = TextPane()
    qtbot.addWidget(pane)
    pane.set_text("x" * 100)
    pane.set_marks(
        [
            Mark(0, 100, MarkKind.DISCARDED, 0, 0, None),
            Mark(10, 50, MarkKind.PIECE, 1, 0, 0),
            Mark(20, 30, MarkKind.FAILED, 2, 1, 1),
        ]
    )
    assert [m.block for m in pane.marks_at(25)] == [2, 1, 0]
    assert [m.block for m in pane.marks_at(60)] == [0]
    pane.set_show_discarded(False)
    assert pane.marks_at(60) == []


# --- two novels --------------------------------------------------------------------------


@pytest.mark.bench
@pytest.mark.skipif(not all(p.exists() for p in NOVELS), reason="needs the shared corpus")
def test_two_novels_show_without_building_every_selection(qtbot) -> None:
    options = SignatureOptions(language="en")
    a, b = (document_from_text(p.read_text("utf-8"), p.name, options) for p in NOVELS)
    comparison = compare_documents(a, b)
    view = ComparisonView()
    qtbot.addWidget(view)
    view.resize(1400, 900)
    view.show()
    started = time.perf_counter()
    view.set_comparison(comparison)
    elapsed = time.perf_counter() - started
    print(
        f"set_comparison on {a.name} vs {b.name}: {elapsed:.3f} s, {len(comparison.blocks)} blocks"
    )
    assert len(view.pane_a.marks()) == len(comparison.blocks) + len(comparison.reworded_passages)
    # only the marks near the screen are selections (text_pane.MARK_WINDOW)
    assert 0 < len(view.pane_a.extraSelections()) < len(comparison.blocks)
    view.select_block(len(comparison.blocks) - 1)
    last = comparison.blocks[-1].raw
    assert view.pane_a.span_visible(*a.chars_of(last.a_start, last.length))
    assert view.pane_a.mark_at(view.pane_a.textCursor().position()) is not None


def test_hiding_discarded_holds_across_comparisons(view: ComparisonView) -> None:
    view.set_hide_discarded(True)
    view.set_comparison(samples())
    assert spans(view.pane_a, MarkKind.DISCARDED) == set()
    assert view.proxy.rowCount() == len(view.block_model.listed()) - 1


def test_moving_through_the_table_with_the_keyboard_follows_blocks(
    qtbot, view: ComparisonView
) -> None:
    view.select_block(1)
    view.table.setFocus()
    with qtbot.waitSignal(view.block_selected) as blocker:
        QTest.keyClick(view.table, Qt.Key.Key_Down)
    assert blocker.args == [2]
    a_span, _ = samples().piece_chars(samples().blocks[2].pieces[0])
    assert a_span[0] <= view.pane_a.textCursor().position() < a_span[1]


# --- a sentence too long for the signature, the same in both documents -----------------------


def test_an_identical_long_sentence_beside_a_block_is_drawn_as_part_of_it(
    qtbot, sync_runner
) -> None:
    middle = S0 + S1 + INSIDE + S2 + S3 + AFTER
    view = shown(qtbot, sync_runner, FILLER_A + middle + END_A, FILLER_B + middle + END_B)
    with qtbot.waitExposed(view):
        view.show()
    comparison = view.comparison()
    assert comparison is not None
    (block,) = [i for i, b in enumerate(comparison.blocks) if b.pieces]
    slot = view.block_model.colour_slot(block)
    assert slot is not None
    after = comparison.a.text.index(AFTER.strip())
    after_b = comparison.b.text.index(AFTER.strip())
    for pane, start in ((view.pane_a, after), (view.pane_b, after_b)):
        (selection,) = [
            s for s in selections_of_kind(pane, MarkKind.LONG) if s.cursor.selectionStart() == start
        ]
        # the block's colour, and none of an edited passage's dashes
        assert selection.format.background().color() == piece_background(slot, pane.palette())
        assert selection.format.underlineStyle() == QTextCharFormat.UnderlineStyle.NoUnderline
        assert selection.format.property(MARK_BLOCK_PROPERTY) == block
        # all of it emphasised, as word for word
        assert (start, start + len(AFTER.strip())) in emphasised(pane)
        # on the strip too, in the block's colour
        assert any(
            bar.mark.kind is MarkKind.LONG and bar.mark.start == start and bar.mark.slot == slot
            for bar in pane.overview.bars()
        )
    view.pane_a.show_span(after, after + 10)
    tip = view.pane_a.tooltip_at(point_in(view.pane_a, after + 5))
    assert tip.splitlines()[1] == "Block 1 · identical sentence, too long to count"
    view.pane_b.verticalScrollBar().setValue(0)
    with qtbot.waitSignal(view.block_selected) as blocker:
        click_at(view.pane_a, after + 5)
    assert blocker.args == [block]
    assert view.pane_b.span_visible(after_b, after_b + len(AFTER.strip()))

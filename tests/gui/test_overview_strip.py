"""The overview strips beside the panes' scrollbars, and the numbers a teacher reads: marks in
document order and in the panes' colours, following the filter, the hidden discarded blocks
and the theme; a click goes to the passage like its table row; the table, the panes' tooltips,
the strips and F8 all count 1, 2, 3… and R1, R2… over what is listed."""

from __future__ import annotations

from functools import cache
from itertools import pairwise

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QColor, QHelpEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolTip

from app.gui.compare.colours import (
    REWORDED_HUE,
    REWORDED_LINE_DARK,
    neutral_colour,
    swatch_colour,
)
from app.gui.compare.marks import MarkKind, block_spans, listed_order
from app.gui.compare.overview_strip import MIN_MARK, OverviewStrip
from app.gui.compare.view import ComparisonView
from app.gui.models.block_model import INDEX_ROLE, BlockTableModel, StateFilter
from app.gui.theme import dark_palette
from core.comparison import Comparison, compare_documents
from core.detection.verification import BlockState
from core.documents.document import document_from_text
from core.options import SignatureOptions
from core.resources import resource_path


@cache
def samples() -> Comparison:
    """In A order: a discarded block, two split blocks, R1, the verified block, R2."""
    options = SignatureOptions(language="en")
    folder = resource_path("samples")
    a = document_from_text((folder / "original-essay.txt").read_text("utf-8"), "A.txt", options)
    b = document_from_text((folder / "reworded-copy.txt").read_text("utf-8"), "B.txt", options)
    return compare_documents(a, b)


@pytest.fixture
def view(qtbot, sync_runner) -> ComparisonView:
    """The view as a teacher first sees it: passages with copied text, discarded hidden."""
    view = ComparisonView(runner=sync_runner)
    qtbot.addWidget(view)
    view.resize(1100, 700)
    with qtbot.waitExposed(view):
        view.show()
    view.set_hide_discarded(True)
    view.set_comparison(samples())
    QApplication.processEvents()  # it opens at the largest passage …
    view.clear_selection()  # … the tests start from nothing selected
    return view


def strips(view: ComparisonView) -> tuple[OverviewStrip, OverviewStrip]:
    return view.strip_a, view.strip_b


def table_numbers(view: ComparisonView) -> list[str]:
    column = BlockTableModel.COL_NUMBER
    return [view.proxy.index(row, column).data() for row in range(view.proxy.rowCount())]


def click(strip: OverviewStrip, y: int) -> None:
    QTest.mouseClick(
        strip,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
        QPoint(strip.width() // 2, y),
    )


# --- where and how the marks are drawn -------------------------------------------------------


def test_each_pane_has_a_strip_beside_its_scrollbar(view: ComparisonView) -> None:
    for pane, strip in ((view.pane_a, view.strip_a), (view.pane_b, view.strip_b)):
        assert strip.parent() is pane and strip.isVisible()
        viewport = pane.viewport().geometry()
        assert strip.geometry().left() == viewport.right() + 1  # between the text …
        bar = pane.verticalScrollBar()
        assert bar.isVisible()
        right = bar.mapTo(pane, QPoint(0, 0)).x()
        assert strip.geometry().right() < right  # … and the scrollbar
        assert strip.height() == viewport.height()
    assert view.strip_a.accessibleName() == "Where the copied passages are in document A"
    assert view.strip_b.accessibleName() == "Where the copied passages are in document B"
    assert "5 passages marked" in view.strip_a.accessibleDescription()


def test_marks_are_in_document_order_and_in_the_panes_colours(view: ComparisonView) -> None:
    comparison = samples()
    for strip, pane in zip(strips(view), (view.pane_a, view.pane_b), strict=True):
        bars = strip.bars()
        marks = [bar.mark for bar in bars]
        # the copied passages of both kinds, each listed item at least once
        assert {m.block for m in marks} == set(view.proxy.numbering().listed())
        assert {m.kind for m in marks} == {MarkKind.PIECE, MarkKind.REWORDED}
        # placed in document order, top to bottom, inside the scrollbar's groove
        assert [m.start for m in marks] == sorted(m.start for m in marks)
        assert [bar.start for bar in bars] == sorted(bar.start for bar in bars)
        top, height = strip.track()
        assert all(top <= bar.start and bar.end <= top + height for bar in bars)
        assert all(bar.end - bar.start >= MIN_MARK for bar in bars)
        # by their characters' share of the document
        length = len(pane.toPlainText())
        for bar in bars:
            assert abs(bar.start - (top + bar.mark.start / length * height)) <= MIN_MARK
        for bar in bars:
            if bar.mark.kind is MarkKind.PIECE:
                slot = view.block_model.colour_slot(bar.mark.block)
                assert slot is not None and bar.colour == swatch_colour(slot)
            else:
                assert bar.colour == QColor(REWORDED_HUE)
    # a split block's two pieces are two marks in its one colour
    first = comparison.blocks[1]
    assert first.state is BlockState.SPLIT and len(first.pieces) == 2
    assert len([b for b in view.strip_a.bars() if b.mark.block == 1]) == 2


def test_strips_follow_the_filter_and_the_hidden_discarded_blocks(view: ComparisonView) -> None:
    kinds = lambda strip: {bar.mark.kind for bar in strip.bars()}  # noqa: E731
    assert MarkKind.DISCARDED not in kinds(view.strip_a)  # hidden by default
    view.set_state_filter(StateFilter.REWORDED)
    for strip in strips(view):
        assert kinds(strip) == {MarkKind.REWORDED}
        assert len(strip.bars()) == 2
    view.set_state_filter(StateFilter.ALL)
    assert MarkKind.DISCARDED not in kinds(view.strip_a)  # still hidden
    view.set_hide_discarded(False)
    (discarded,) = [b for b in view.strip_a.bars() if b.mark.kind is MarkKind.DISCARDED]
    assert discarded.colour == neutral_colour(view.strip_a.palette())
    view.set_hide_discarded(True)
    assert MarkKind.DISCARDED not in kinds(view.strip_a)
    view.set_comparison(None)
    assert view.strip_a.bars() == [] and view.strip_b.bars() == []


def test_strips_follow_the_theme(view: ComparisonView) -> None:
    view.setPalette(dark_palette())
    for strip in strips(view):
        reworded = [b for b in strip.bars() if b.mark.kind is MarkKind.REWORDED]
        assert reworded and all(b.colour == QColor(REWORDED_LINE_DARK) for b in reworded)
        assert strip.grab().toImage().pixelColor(1, 1).lightness() < 128  # a dark groove


# --- a click goes to the passage -----------------------------------------------------------


def test_clicking_a_mark_goes_to_its_passage_in_both_panes(qtbot, view: ComparisonView) -> None:
    comparison = samples()
    last = listed_order(comparison)[-1]  # R2, at the end of both documents
    view.pane_a.verticalScrollBar().setValue(0)
    view.pane_b.verticalScrollBar().setValue(0)
    span_a, span_b = block_spans(comparison, last)
    assert not view.pane_a.span_visible(*span_a)
    bar = view.strip_b.bar_of(last)
    assert bar is not None
    with qtbot.waitSignal(view.block_selected) as blocker:
        click(view.strip_b, (bar.start + bar.end) // 2)
    assert blocker.args == [last]
    assert view.current_block() == last
    assert view.pane_a.span_visible(*span_a) and view.pane_b.span_visible(*span_b)
    current = view.table.selectionModel().currentIndex()
    assert view.proxy.data(current, INDEX_ROLE) == last  # its row is selected
    assert view.strip_a.current() == view.strip_b.current() == last


def test_clicking_between_marks_does_nothing(qtbot, view: ComparisonView) -> None:
    strip = view.strip_a
    bars = strip.bars()
    gaps = [(one.end, two.start) for one, two in pairwise(bars) if two.start - one.end > 10]
    assert gaps
    low, high = gaps[0]
    with qtbot.assertNotEmitted(view.block_selected):
        click(strip, (low + high) // 2)
    assert view.current_block() == -1


def test_a_marks_tooltip_names_the_passage(view: ComparisonView) -> None:
    strip = view.strip_b
    bar = next(b for b in strip.bars() if b.mark.kind is MarkKind.REWORDED)
    point = QPoint(strip.width() // 2, (bar.start + bar.end) // 2)
    event = QHelpEvent(QEvent.Type.ToolTip, point, strip.mapToGlobal(point))
    QApplication.sendEvent(strip, event)
    passage = samples().reworded_passages[0]
    first, end = passage.b_sentences
    assert QToolTip.text() == (
        f"Passage R1 — edited, sentences {first + 1}–{end}\nClick to go to it."
    )
    QToolTip.hideText()


# --- one numbering for the table, the panes, the strips and F8 ------------------------------


def test_hidden_discarded_blocks_leave_no_gap_in_the_numbers(view: ComparisonView) -> None:
    assert table_numbers(view) == ["1", "2", "R1", "3", "R2"]
    view.set_state_filter(StateFilter.ALL)
    assert table_numbers(view) == ["1", "2", "R1", "3", "R2"]  # the discarded block is hidden
    view.set_hide_discarded(False)
    assert table_numbers(view) == ["1", "2", "3", "R1", "4", "R2"]
    view.set_state_filter(StateFilter.SPLIT)
    assert table_numbers(view) == ["1", "2"]


def test_panes_strips_and_table_say_the_same_numbers(view: ComparisonView) -> None:
    comparison = samples()
    numbering = view.proxy.numbering()
    column = BlockTableModel.COL_NUMBER
    for row in range(view.proxy.rowCount()):
        item = view.proxy.index(row, 0).data(INDEX_ROLE)
        label = view.proxy.index(row, column).data()
        name = f"Block {label}" if item < len(comparison.blocks) else f"Passage {label}"
        assert numbering.name(item) == name
        span_a, _ = block_spans(comparison, item)
        view.pane_a.show_span(*span_a)
        pane_tip = view.pane_a.tooltip_at(
            view.pane_a.cursorRect(view.pane_a.cursor_at(span_a[0] + 2)).center()
        )
        assert f"{name} · " in pane_tip
        bar = view.strip_a.bar_of(item)
        assert bar is not None
        assert view.strip_a.describe(bar.mark).startswith(f"{name} — ")


def test_f8_steps_through_the_numbers_in_order(qtbot, view: ComparisonView) -> None:
    seen = []
    for _ in range(view.proxy.rowCount()):
        with qtbot.waitSignal(view.block_selected):
            QTest.keyClick(view, Qt.Key.Key_F8)
        seen.append(view.proxy.numbering().label(view.current_block()))
    assert seen == ["1", "2", "R1", "3", "R2"]

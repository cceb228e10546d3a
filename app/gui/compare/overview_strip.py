"""The overview strip beside a text pane's scrollbar: where the copied passages lie in the whole
document, in their colours, so a teacher sees at a glance how much is copied and where, and
goes to a passage with one click (as in Qt Creator's and VS Code's scrollbar annotations).

A strip mark is one of the pane's marks (`marks.overview_marks`: kept pieces and the too-long
sentences beside them in their block's hue, reworded passages in violet, discarded blocks in
grey when the table lists them and the panes show them), placed by its characters' share of the
document along the scrollbar's groove, so it sits level with the slider when the passage is in
view; at least MIN_MARK pixels tall, so a one-sentence passage shows. The bars are worked out
when the marks, the size or the scrollbar's range change, never while painting (a novel has
thousands); painting fills rectangles. Hovering a mark names it (`describe`, from the view);
clicking it emits `item_clicked` with its item's number, which the view treats like choosing
its table row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from PySide6.QtCore import QEvent, QPoint, QRect, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QHelpEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
)
from PySide6.QtWidgets import QScrollBar, QStyle, QStyleOptionSlider, QToolTip, QWidget

from app.gui.compare.colours import (
    neutral_colour,
    overview_background,
    overview_reworded,
    overview_reworded_fill,
    swatch_colour,
)
from app.gui.compare.marks import Mark, MarkKind, SpanIndex

WIDTH = 12  # px, the strip's width
MIN_MARK = 3  # px, the least height of a mark
INSET = 2  # px between a mark and the strip's sides
PADDING = 3  # px above and below the marks when the scrollbar is hidden (nothing to scroll)
REACH = 3  # px: a click or hover this close to a mark is on it


class Bar(NamedTuple):
    """A mark as drawn: pixels [start, end) down the strip, its colour and its mark."""

    start: int
    end: int
    mark: Mark
    colour: QColor


def _no_description(_mark: Mark) -> str:
    return ""


class OverviewStrip(QWidget):
    """The strip of one pane (see the module docstring). `scrollbar` is the pane's vertical
    scrollbar: the marks line up with its groove."""

    item_clicked = Signal(int)  # the clicked mark's item number

    def __init__(self, scrollbar: QScrollBar, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._bar = scrollbar
        self._marks: list[Mark] = []
        self._length = 0  # characters in the document
        self._describe: Callable[[Mark], str] = _no_description
        self._bars: SpanIndex[Bar] = SpanIndex()
        # what is painted: runs of overlapping bars of one colour and kind merged, so a
        # novel's thousands of marks paint as the few hundred rectangles a strip can show
        self._runs: list[tuple[int, int, QColor, bool]] = []  # top, bottom, colour, reworded
        self._current: int | None = None
        self.setFixedWidth(WIDTH)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setAccessibleName("Overview of the copied passages")
        self._track: tuple[int, int] | None = None  # the track the bars were laid along
        # the scrollbar showing or hiding moves the groove; a range that only grows as a long
        # document is laid out does not, and costs nothing then
        scrollbar.rangeChanged.connect(lambda _low, _high: self._follow_groove())

    # --- content -------------------------------------------------------------------------

    def set_marks(
        self,
        marks: Sequence[Mark],
        length: int,
        describe: Callable[[Mark], str] = _no_description,
    ) -> None:
        """Show `marks` (in document order) of a document `length` characters long; `describe`
        words a mark's tooltip when it is hovered."""
        self._marks = list(marks)
        self._length = length
        self._describe = describe
        items = len({mark.block for mark in self._marks})
        self.setAccessibleDescription(
            f"{items} passages marked along the document; click one to show it"
            if items
            else "No passage marked"
        )
        self._lay_out()

    def marks(self) -> list[Mark]:
        return list(self._marks)

    def set_current(self, item: int | None) -> None:
        """Outline the marks of this item (the one selected), or none."""
        if item != self._current:
            self._current = item
            self.update()

    def current(self) -> int | None:
        return self._current

    def describe(self, mark: Mark) -> str:
        """A mark's tooltip."""
        return self._describe(mark)

    def bars(self) -> list[Bar]:
        """The marks as drawn, top to bottom (tests read them)."""
        return list(self._bars.items)

    def bar_of(self, item: int) -> Bar | None:
        """The first bar of an item, or None when the strip does not show it."""
        return next((bar for bar in self._bars.items if bar.mark.block == item), None)

    def mark_at(self, y: int) -> Mark | None:
        """The mark at height `y` (or within REACH of it): the most telling, then the shortest."""
        found = self._bars.covering(y)
        if not found:
            found = self._bars.between(y - REACH, y + REACH + 1)
        if not found:
            return None
        best = min(found, key=lambda bar: (-bar.mark.kind, bar.end - bar.start, bar.mark.block))
        return best.mark

    # --- geometry ------------------------------------------------------------------------

    def track(self) -> tuple[int, int]:
        """The top and the height, in the strip's pixels, the document is laid along: the
        scrollbar's groove when it shows, else the strip less PADDING each end."""
        bar = self._bar
        if bar.isVisibleTo(self.window()) and bar.maximum() > bar.minimum():
            option = QStyleOptionSlider()
            option.initFrom(bar)
            option.orientation = bar.orientation()
            option.minimum, option.maximum = bar.minimum(), bar.maximum()
            option.sliderPosition = option.sliderValue = bar.value()
            option.singleStep, option.pageStep = bar.singleStep(), bar.pageStep()
            option.subControls = QStyle.SubControl.SC_All
            groove = bar.style().subControlRect(
                QStyle.ComplexControl.CC_ScrollBar,
                option,
                QStyle.SubControl.SC_ScrollBarGroove,
                bar,
            )
            top = bar.mapToGlobal(groove.topLeft()).y() - self.mapToGlobal(QPoint(0, 0)).y()
            if groove.height() > 0 and 0 <= top < self.height():
                return top, min(groove.height(), self.height() - top)
        return PADDING, max(1, self.height() - 2 * PADDING)

    def _follow_groove(self) -> None:
        if self.track() != self._track:
            self._lay_out()

    def _lay_out(self) -> None:
        top, height = self._track = self.track()
        palette = self.palette()
        scale = height / max(1, self._length)
        colours: dict[tuple[MarkKind, int | None], QColor] = {}
        bars: list[Bar] = []
        for mark in self._marks:
            y = top + round(mark.start * scale)
            bottom = max(y + MIN_MARK, top + round(mark.end * scale))
            if bottom > top + height:  # a short mark at the very end stays inside the track
                y, bottom = max(top, top + height - (bottom - y)), top + height
            colour = colours.get((mark.kind, mark.slot))
            if colour is None:
                colour = colours[(mark.kind, mark.slot)] = _colour(mark, palette)
            bars.append(Bar(y, bottom, mark, colour))
        self._bars = SpanIndex(bars)
        runs: list[tuple[int, int, QColor, bool]] = []
        for bar in self._bars.items:
            reworded = bar.mark.kind == MarkKind.REWORDED
            if runs and runs[-1][2] == bar.colour and runs[-1][3] == reworded:
                start, end, colour, _ = runs[-1]
                if bar.start <= end:
                    runs[-1] = (start, max(end, bar.end), colour, reworded)
                    continue
            runs.append((bar.start, bar.end, bar.colour, reworded))
        self._runs = runs
        self.update()

    # --- events --------------------------------------------------------------------------

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._lay_out()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._lay_out()  # the colours follow the theme

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            mark = self.mark_at(event.pos().y())
            text = self._describe(mark) if mark is not None else ""
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        mark = self.mark_at(event.position().toPoint().y())
        if mark is not None:
            self.item_clicked.emit(mark.block)
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        over = self.mark_at(event.position().toPoint().y()) is not None
        self.setCursor(Qt.CursorShape.PointingHandCursor if over else Qt.CursorShape.ArrowCursor)
        super().mouseMoveEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()
        painter.fillRect(self.rect(), overview_background(palette))
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1))
        painter.drawLine(0, 0, 0, self.height())  # a hairline between the text and the strip
        clip = event.rect()
        width = self.width() - 2 * INSET
        reworded_fill = overview_reworded_fill(palette)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for start, end, colour, reworded in self._runs:
            if end < clip.top() or start > clip.bottom() + 1:
                continue
            rect = QRect(INSET + 1, start, width - 1, end - start)
            if reworded:
                # edited, as in the pane: a pale fill inside a line of the violet, where word for
                # word is solid (the two kinds differ without colour too)
                painter.fillRect(rect, reworded_fill)
                painter.setPen(QPen(colour, 1))
                painter.drawRect(rect.adjusted(0, 0, -1, -1))
            else:
                painter.fillRect(rect, colour)
        if self._current is not None:
            # the selected passage: outlined in the text's colour, plain on every hue
            painter.setPen(QPen(palette.color(QPalette.ColorRole.Text), 1))
            for bar in self._bars.items:
                if bar.mark.block == self._current:
                    rect = QRect(INSET + 1, bar.start, width - 1, bar.end - bar.start)
                    painter.drawRect(rect.adjusted(-1, -1, 0, 0))
        painter.end()


def _colour(mark: Mark, palette: QPalette) -> QColor:
    if mark.kind in (MarkKind.PIECE, MarkKind.LONG) and mark.slot is not None:
        return swatch_colour(mark.slot)
    if mark.kind == MarkKind.REWORDED:
        return overview_reworded(palette)
    return neutral_colour(palette)

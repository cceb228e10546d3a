"""A read-only pane showing one document's text with the comparison's passages marked on it.

Marks are character spans into the engine's normalised text (the string the pane shows): kept
pieces in their block's colour (word for word), reworded passages in a pale violet with a dashed
violet underline (edited), sentences that failed verification with a red wavy underline,
discarded blocks with a grey dotted underline, and text left out of the scores (an exclusion:
a quotation, the references, a template's text) shaded grey, below everything else. They are
drawn as extra selections, so the document itself is never reformatted. Two novels list ~10,000
blocks each side, and building a selection costs ~20 µs of Python, so only the marks near the
screen (MARK_WINDOW characters each way) are selections at any time; scrolling out of that
window rebuilds it (~10 ms). A document of up to MARK_WINDOW characters (an essay is ~10,000)
has every mark as a selection all the time. Qt's painting and `setExtraSelections` cost grows
with every selection listed, on screen or not (an edited novel emphasises ~35,000 shared words:
4,000 selections painted in ~1 s), so where the spans are dense the window narrows, halving
until at most MAX_SELECTIONS spans are in it or it is MIN_WINDOW characters each way. The pane
answers "which mark is here?" for tooltips and clicks (through the `MarkIndex` of `marks`, where
the marks and their wording are worked out without Qt), and frames the current block or passage.

Two overlays sit on the marks, windowed the same way: the words a passage shares with its
partner (`set_emphasis`: in a verified block a stronger shade of the block's colour, in a
reworded passage a stronger violet with a solid underline; the view can switch them off) and
the occurrences of a chosen shared phrase (`set_found`: inverse video, on top of everything).
Neither is a mark: they answer no click or tooltip.

Between the text and the scrollbar sits the pane's overview strip (`overview`, an
`OverviewStrip`): the view gives it the marks to show and acts on its clicks.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from enum import IntEnum

from PySide6.QtCore import QEvent, QPoint, QRect, Qt, Signal
from PySide6.QtGui import (
    QHelpEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QTextEdit, QToolTip, QWidget

from app.gui.compare.colours import (
    excluded_colours,
    failed_colour,
    found_colours,
    neutral_colour,
    piece_background,
    reworded_background,
    reworded_shared_background,
    reworded_underline,
    shared_colours,
)
from app.gui.compare.marks import (
    Emphasis,
    Mark,
    MarkIndex,
    MarkKind,
    Span,
    SpanIndex,
    TextSpan,
    combined_tooltip,
)
from app.gui.compare.overview_strip import WIDTH as OVERVIEW_WIDTH
from app.gui.compare.overview_strip import OverviewStrip

#: text-format properties tagging each extra selection with what it marks (tests read them)
MARK_KIND_PROPERTY = QTextFormat.Property.UserProperty + 1
MARK_BLOCK_PROPERTY = QTextFormat.Property.UserProperty + 2
#: tags the selections of an overlay (emphasised shared words, a found phrase) with its Overlay
OVERLAY_PROPERTY = QTextFormat.Property.UserProperty + 3

FRAME_INSET = 4  # px between the current block's frame and the viewport's edges
DOCUMENT_MARGIN = 14  # px around the text: room for the frame, and calmer to read
# Marks this many characters before and after the screen are selections (module docstring).
MARK_WINDOW = 40_000
MAX_SELECTIONS = 1_000
MIN_WINDOW = 3_000
# Past this many characters the end of a span is not measured when centring it: measuring lays
# out every paragraph in between, which on a novel-long block would stall the UI.
MEASURED_SPAN = 20_000


class Overlay(IntEnum):
    """What an overlay selection shows (painted in this order, over the marks)."""

    SHARED_WORDS = 1  # words a passage (either kind) shares with its partner
    FOUND = 2  # an occurrence of the chosen shared phrase


def _no_description(_mark: Mark) -> str:
    return ""


class TextPane(QPlainTextEdit):
    """One document's text, its marks, and hit-testing on them."""

    mark_clicked = Signal(object)  # the Mark under a plain left click

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setUndoRedoEnabled(False)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.document().setDocumentMargin(DOCUMENT_MARGIN)
        self.viewport().setMouseTracking(True)  # the hand cursor over clickable marks
        self._marks = MarkIndex()
        self._window: tuple[int, int] | None = None  # text range whose marks are selections
        self._templates: dict[tuple[MarkKind, int | None], QTextCharFormat] = {}
        self._show_discarded = True
        self._emphasis: SpanIndex[Emphasis] = SpanIndex()
        self._show_emphasis = True
        self._found: SpanIndex[TextSpan] = SpanIndex()
        self._overlay_templates: dict[tuple[Overlay, int | None], QTextCharFormat] = {}
        self._current_block: int | None = None
        self._astral: list[int] = []  # offsets of characters Qt stores as two UTF-16 units
        self._astral_qt: list[int] = []
        self._press: QPoint | None = None
        # tooltips are worded on demand: most of a novel's 10,000 marks are never hovered
        self._describe: Callable[[Mark], str] = _no_description
        self.verticalScrollBar().valueChanged.connect(lambda _value: self._refresh_window())
        # the overview strip takes a margin on the viewport's right, beside the scrollbar
        self.overview = OverviewStrip(self.verticalScrollBar(), self)
        self.setViewportMargins(0, 0, OVERVIEW_WIDTH, 0)

    # --- content -------------------------------------------------------------------------

    def set_text(self, text: str) -> None:
        """Show `text` (the engine's normalised text) with no marks."""
        self._clear_marks()
        # QTextDocument counts UTF-16 units, the engine counts code points: they differ only
        # after characters outside the BMP (emoji, rare CJK), so only those are remembered.
        self._astral = [i for i, ch in enumerate(text) if ord(ch) > 0xFFFF] if _wide(text) else []
        self._astral_qt = [p + k for k, p in enumerate(self._astral)]
        self.setPlainText(text)

    def clear_document(self) -> None:
        self.set_text("")

    def set_marks(
        self,
        marks: MarkIndex | Iterable[Mark],
        describe: Callable[[Mark], str] = _no_description,
        emphasis: SpanIndex[Emphasis] | Iterable[Emphasis] | None = None,
    ) -> None:
        """Replace the marks; `describe` words a mark's tooltip when it is hovered. `emphasis`
        replaces the emphasised shared words too (one rebuild of the selections for both).
        Either may come indexed already (`marks.PreparedView`: indexed on a worker)."""
        if emphasis is not None:
            self._emphasis = emphasis if isinstance(emphasis, SpanIndex) else SpanIndex(emphasis)
        self._describe = describe
        self._marks = marks if isinstance(marks, MarkIndex) else MarkIndex(marks)
        self._refresh_window(force=True)

    def marks(self) -> list[Mark]:
        return list(self._marks.items)

    def set_emphasis(self, spans: Iterable[Emphasis]) -> None:
        """Replace the emphasised shared words (kept until the next `set_text`)."""
        self._emphasis = SpanIndex(spans)
        self._refresh_window(force=True)

    def emphasis(self) -> list[Emphasis]:
        return list(self._emphasis.items)

    def set_show_emphasis(self, show: bool) -> None:
        if show != self._show_emphasis:
            self._show_emphasis = show
            self._refresh_window(force=True)

    def show_emphasis(self) -> bool:
        return self._show_emphasis

    def set_found(self, spans: Iterable[Span]) -> None:
        """Show these spans as the found phrase's occurrences (an empty list clears them)."""
        self._found = SpanIndex(TextSpan(start, end) for start, end in spans)
        self._refresh_window(force=True)

    def found(self) -> list[Span]:
        return [(item.start, item.end) for item in self._found.items]

    def set_show_discarded(self, show: bool) -> None:
        if show != self._show_discarded:
            self._show_discarded = show
            self._refresh_window(force=True)

    def set_current_block(self, block: int | None) -> None:
        """Frame this block's extent (a thin outline), or nothing."""
        if block != self._current_block:
            self._current_block = block
            self.viewport().update()

    def current_block(self) -> int | None:
        return self._current_block

    def block_span(self, block: int) -> Span | None:
        """The extent of a block's marks in this pane, from its first to its last character."""
        return self._marks.block_span(block)

    # --- positions -----------------------------------------------------------------------

    def qt_position(self, offset: int) -> int:
        """A text offset as a QTextDocument position."""
        return offset + bisect_left(self._astral, offset)

    def text_offset(self, position: int) -> int:
        """A QTextDocument position as a text offset."""
        return position - bisect_left(self._astral_qt, position)

    def cursor_at(self, offset: int) -> QTextCursor:
        cursor = QTextCursor(self.document())
        cursor.setPosition(min(self.qt_position(offset), self.document().characterCount() - 1))
        return cursor

    def offset_at(self, point: QPoint) -> int:
        """The text offset of the character under `point` (viewport coordinates)."""
        cursor = self.cursorForPosition(point)
        position = cursor.position()
        # cursorForPosition gives the nearest gap between characters: left of the gap's x the
        # point is on the character before it
        if position > 0 and point.x() < self.cursorRect(cursor).x():
            position -= 1
        return self.text_offset(position)

    def marks_at(self, offset: int) -> list[Mark]:
        """The shown marks covering the character at `offset`, most telling first."""
        return self._marks.at(offset, show_discarded=self._show_discarded)

    def mark_at(self, offset: int) -> Mark | None:
        found = self.marks_at(offset)
        return found[0] if found else None

    def mark_at_point(self, point: QPoint) -> Mark | None:
        if not self._marks:
            return None
        return self.mark_at(self.offset_at(point))

    def tooltip_at(self, point: QPoint) -> str:
        """What the marks under `point` mean, in plain words (empty when unmarked)."""
        if not self._marks:
            return ""
        return combined_tooltip(self.marks_at(self.offset_at(point)), self._describe)

    # --- scrolling -----------------------------------------------------------------------

    def show_span(self, start: int, end: int) -> None:
        """Put the text cursor at `start` and scroll so the span sits in the middle."""
        cursor = self.cursor_at(start)
        self.setTextCursor(cursor)
        self.centerCursor()
        if end - start > MEASURED_SPAN:
            self._scroll_by(self.cursorRect(cursor).top() - self._line_height() * 2)
            return
        top = self.cursorRect(cursor).top()
        bottom = self.cursorRect(self.cursor_at(end)).bottom()
        height = self.viewport().height()
        if bottom - top < height:
            self._scroll_by(top - (height - (bottom - top)) // 2)
        else:  # taller than the pane: its beginning near the top
            self._scroll_by(top - self._line_height() * 2)

    def _scroll_by(self, pixels: int) -> None:
        # QPlainTextEdit scrolls by lines, not pixels
        bar = self.verticalScrollBar()
        bar.setValue(bar.value() + round(pixels / self._line_height()))

    def _line_height(self) -> int:
        return max(1, self.fontMetrics().lineSpacing())

    def span_visible(self, start: int, end: int) -> bool:
        """True when part of [start, end) is on screen."""
        first, last = self.visible_range()
        return start < last and end > first

    def visible_range(self) -> tuple[int, int]:
        """Text offsets of the first and last characters on screen."""
        viewport = self.viewport().rect()
        first = self.cursorForPosition(viewport.topLeft()).position()
        last = self.cursorForPosition(viewport.bottomRight()).position()
        return self.text_offset(first), self.text_offset(last) + 1

    # --- events --------------------------------------------------------------------------

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:  # the pane's size, or the scrollbar came or went
            viewport = self.viewport().geometry()
            self.overview.setGeometry(
                viewport.right() + 1, viewport.top(), OVERVIEW_WIDTH, viewport.height()
            )
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            text = self.tooltip_at(event.pos())
            if text:
                QToolTip.showText(event.globalPos(), text, self.viewport())
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().viewportEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._press = event.position().toPoint()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        press, self._press = self._press, None
        point = event.position().toPoint()
        if event.button() != Qt.MouseButton.LeftButton or press is None:
            return
        if (point - press).manhattanLength() >= QApplication.startDragDistance():
            return  # a drag selects text; only a click follows a block
        mark = self.mark_at_point(point)
        if mark is not None and mark.kind != MarkKind.EXCLUDED:
            self.mark_clicked.emit(mark)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        super().mouseMoveEvent(event)
        if event.buttons() == Qt.MouseButton.NoButton:
            mark = self.mark_at_point(event.position().toPoint())
            over = mark is not None and mark.kind != MarkKind.EXCLUDED
            shape = Qt.CursorShape.PointingHandCursor if over else Qt.CursorShape.IBeamCursor
            self.viewport().setCursor(shape)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._templates = {}  # light and dark themes use different shades
            self._overlay_templates = {}
            self._refresh_window(force=True)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._refresh_window()

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        frame = self._current_frame()
        if frame is None:
            return
        painter = QPainter(self.viewport())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(self.palette().color(QPalette.ColorRole.Highlight), 2)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(frame, 5, 5)
        painter.end()

    def _current_frame(self) -> QRect | None:
        """The outline around the current block's visible lines, clipped to the screen."""
        if self._current_block is None:
            return None
        span = self._marks.block_span(self._current_block)
        if span is None:
            return None
        start, end = span
        first, last = self.visible_range()
        if start >= last or end <= first:
            return None
        # only on-screen positions are measured: cheap, whatever the block's length
        top = self.cursorRect(self.cursor_at(max(start, first))).top() - 3
        bottom = self.cursorRect(self.cursor_at(max(min(end, last) - 1, 0))).bottom() + 3
        width = self.viewport().width()
        return QRect(FRAME_INSET, top, width - 2 * FRAME_INSET, bottom - top)

    # --- selections ----------------------------------------------------------------------

    def _clear_marks(self) -> None:
        self._marks = MarkIndex()
        self._emphasis = SpanIndex()
        self._found = SpanIndex()
        self._window = None
        self._current_block = None
        self.setExtraSelections([])

    def _refresh_window(self, *, force: bool = False) -> None:
        """Make the marks around the screen selections, unless they already are."""
        if not (self._marks or self._emphasis or self._found):
            if self._window is not None:  # the last overlay went
                self._window = None
                self.setExtraSelections([])
                self.viewport().update()
            return
        first, last = self.visible_range()
        if not force and self._window is not None:
            low, high = self._window
            if low <= first and last <= high:
                return
        margin = MARK_WINDOW
        while True:
            low, high = max(0, first - margin), last + margin
            marks = self._marks.between(low, high)
            if not self._show_discarded:
                marks = [m for m in marks if m.kind != MarkKind.DISCARDED]
            emphasis = self._emphasis.between(low, high) if self._show_emphasis else []
            found = self._found.between(low, high)
            if len(marks) + len(emphasis) + len(found) <= MAX_SELECTIONS or margin <= MIN_WINDOW:
                break
            margin = max(MIN_WINDOW, margin // 2)  # dense: a narrower window
        self._window = (low, high)
        layers = self._selections_for(marks, low, high)
        self.setExtraSelections(
            layers[MarkKind.EXCLUDED]
            + layers[MarkKind.DISCARDED]
            + layers[MarkKind.REWORDED]
            + layers[MarkKind.PIECE]
            + layers[MarkKind.LONG]  # over a reworded passage the detector made of it
            # over the pieces' colour; failed sentences are never inside a piece
            + self._overlay_selections(Overlay.SHARED_WORDS, emphasis, low, high)
            + layers[MarkKind.FAILED]
            + self._overlay_selections(Overlay.FOUND, found, low, high)  # on top of all
        )
        self.viewport().update()

    def _selections_for(
        self, marks: Sequence[Mark], low: int, high: int
    ) -> dict[MarkKind, list[QTextEdit.ExtraSelection]]:
        """Selections for `marks` clipped to [low, high), by kind: painted discarded first, so
        that reworded passages, kept pieces and failures paint on top. Clipping matters: Qt
        measures a new selection's whole extent, and a block as long as the novel would be laid
        out from end to end."""
        palette = self.palette()
        layers: dict[MarkKind, list[QTextEdit.ExtraSelection]] = {kind: [] for kind in MarkKind}
        document = self.document()
        last = document.characterCount() - 1
        low, high = self.qt_position(low), min(self.qt_position(high), last)
        for mark in marks:
            key = (mark.kind, mark.slot)
            template = self._templates.get(key)
            if template is None:
                template = self._templates[key] = _format_for(mark.kind, mark.slot, palette)
            text_format = QTextCharFormat(template)
            text_format.setProperty(MARK_BLOCK_PROPERTY, mark.block)
            cursor = QTextCursor(document)
            cursor.setPosition(max(self.qt_position(mark.start), low))
            cursor.setPosition(
                min(self.qt_position(mark.end), high), QTextCursor.MoveMode.KeepAnchor
            )
            selection = QTextEdit.ExtraSelection()
            selection.cursor = cursor
            selection.format = text_format
            layers[mark.kind].append(selection)
        return layers

    def _overlay_selections(
        self,
        overlay: Overlay,
        spans: Sequence[Emphasis | TextSpan],
        low: int,
        high: int,
    ) -> list[QTextEdit.ExtraSelection]:
        """Selections for an overlay's spans clipped to [low, high) (see `_selections_for`)."""
        document = self.document()
        last = document.characterCount() - 1
        palette = self.palette()
        selections = []
        for item in spans:
            slot = item.slot if isinstance(item, Emphasis) else 0
            key = (overlay, slot)
            template = self._overlay_templates.get(key)
            if template is None:
                template = self._overlay_templates[key] = _overlay_format(overlay, slot, palette)
            start, end = item.start, item.end
            cursor = QTextCursor(document)
            cursor.setPosition(min(self.qt_position(max(start, low)), last))
            cursor.setPosition(
                min(self.qt_position(min(end, high)), last), QTextCursor.MoveMode.KeepAnchor
            )
            selection = QTextEdit.ExtraSelection()
            selection.cursor = cursor
            selection.format = template
            selections.append(selection)
        return selections


def _format_for(kind: MarkKind, slot: int | None, palette: QPalette) -> QTextCharFormat:
    text_format = QTextCharFormat()
    text_format.setProperty(MARK_KIND_PROPERTY, int(kind))
    if kind in (MarkKind.PIECE, MarkKind.LONG) and slot is not None:
        text_format.setBackground(piece_background(slot, palette))
        text_format.setForeground(palette.color(QPalette.ColorRole.Text))
        if kind == MarkKind.LONG:  # part of the block, not the dashes of an edited passage
            text_format.setUnderlineStyle(QTextCharFormat.UnderlineStyle.NoUnderline)
    elif kind == MarkKind.REWORDED:
        text_format.setBackground(reworded_background(palette))
        text_format.setForeground(palette.color(QPalette.ColorRole.Text))
        text_format.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline)
        text_format.setUnderlineColor(reworded_underline(palette))
    elif kind == MarkKind.EXCLUDED:
        background, foreground = excluded_colours(palette)
        text_format.setBackground(background)
        text_format.setForeground(foreground)
    elif kind == MarkKind.FAILED:
        text_format.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        text_format.setUnderlineColor(failed_colour(palette))
    else:
        text_format.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
        text_format.setUnderlineColor(neutral_colour(palette))
    return text_format


def _overlay_format(overlay: Overlay, slot: int | None, palette: QPalette) -> QTextCharFormat:
    text_format = QTextCharFormat()
    text_format.setProperty(OVERLAY_PROPERTY, int(overlay))
    if overlay == Overlay.FOUND:
        background, foreground = found_colours(palette)
    elif slot is not None:  # inside a verified piece
        background, foreground = shared_colours(slot, palette)
    else:  # inside a reworded passage
        background = reworded_shared_background(palette)
        foreground = palette.color(QPalette.ColorRole.Text)
        text_format.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
        text_format.setUnderlineColor(reworded_underline(palette))
    text_format.setBackground(background)
    text_format.setForeground(foreground)
    return text_format


def _wide(text: str) -> bool:
    """True when `text` holds a character outside the BMP (cheap test: encode once)."""
    return len(text.encode("utf-16-le")) != 2 * len(text)


def selections_of_kind(pane: TextPane, kind: MarkKind) -> Sequence[QTextEdit.ExtraSelection]:
    """The pane's extra selections marking `kind` (for tests and diagnostics)."""
    return [s for s in pane.extraSelections() if s.format.property(MARK_KIND_PROPERTY) == int(kind)]


def selections_of_overlay(pane: TextPane, overlay: Overlay) -> Sequence[QTextEdit.ExtraSelection]:
    """The pane's extra selections drawing `overlay` (for tests and diagnostics)."""
    selections = pane.extraSelections()
    return [s for s in selections if s.format.property(OVERLAY_PROPERTY) == int(overlay)]

"""The similarity matrix of a folder check, painted: one cell per pair of documents at or above
the threshold, coloured by its copied share (how much of one document is found in the other,
word for word or edited), the documents ordered group by group so each cluster shows as a block
on the diagonal (outlined). What is shown, in what order and colour is decided in
`core.reports.heatmap`, as for the HTML report; this widget lays it out and paints it. Hovering
a cell names both documents and the scores; clicking selects that pair, double-clicking opens
it.

Beyond ~80 documents the cells are too small to point at: the most involved documents are
shown (highest copied share, then most pairs), as in the report, and the rest are counted
below."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QHelpEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from core.batch.result import BatchResult, PairResult
from core.reports.heatmap import HEATMAP_BINS, HeatCell, bin_labels, heatmap
from core.reports.wording import percent, plural

#: more documents than this make cells too small to point at
MAX_DOCUMENTS = 80
_CELL_MAX = 36  # pixels
_CELL_MIN = 3
_LABEL_CELL = 8  # below this cell size the names are left out (tooltips still say them)
_LABEL_MAX = 170  # the widest name label, in pixels (longer names are elided)
_MARGIN = 8
_LEGEND_SWATCH = QSize(12, 10)
_LEGEND_GAP = 10  # between the legend's entries

#: what the colours are of, first in the legend
LEGEND_CAPTION = "Copied"
EMPTY_TEXT = "Run a folder check to see which documents share passages."
NONE_ABOVE_TEXT = "No pair of documents at or above the threshold."


def pair_tooltip(pair: PairResult, names: list[str]) -> str:
    return (
        f"{names[pair.a]}  ↔  {names[pair.b]}\n"
        f"Copied {percent(pair.copied)} · A in B {percent(pair.copied_a)} · "
        f"B in A {percent(pair.copied_b)}\n"
        f"{plural(pair.verified_blocks, 'block')} word for word · "
        f"{plural(pair.reworded_passages, 'passage')} edited · "
        f"Jaccard (the paper's score) {percent(pair.jaccard)}"
    )


class SimilarityHeatmap(QWidget):
    pair_clicked = Signal(object)  # PairResult
    pair_activated = Signal(object)  # PairResult (double-click)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMouseTracking(False)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(220, 200)
        self._result: BatchResult | None = None
        self._names: list[str] = []
        self._threshold = 0.0
        self._order: list[int] = []  # document indices, in display order
        self._involved = 0  # documents with a pair at the threshold (shown or not)
        self._cells: list[HeatCell] = []
        self._by_position: dict[tuple[int, int], HeatCell] = {}
        self._groups: list[tuple[int, int]] = []  # (first position, size) of each cluster
        self._selected: PairResult | None = None
        # geometry, worked out in _layout
        self._cell = 0
        self._label_width = 0
        self._origin = QPoint(0, 0)
        self._label_font = QFont(self.font())

    # -- content ----------------------------------------------------------------------------

    def set_result(self, result: BatchResult | None, names: list[str], threshold: float) -> None:
        self._result, self._names, self._threshold = result, list(names), threshold
        self._selected = None
        shown = heatmap(result, threshold, MAX_DOCUMENTS) if result is not None else None
        self._order = list(shown.documents) if shown is not None else []
        self._involved = shown.involved if shown is not None else 0
        self._cells = list(shown.cells) if shown is not None else []
        self._by_position = {(c.row, c.column): c for c in self._cells}
        self._groups = list(shown.groups) if shown is not None else []
        self._layout()
        self.update()

    def set_threshold(self, threshold: float) -> None:
        self.set_result(self._result, self._names, threshold)

    def documents(self) -> list[int]:
        """The documents shown, as indices into the result, in display order."""
        return list(self._order)

    def cells(self) -> list[HeatCell]:
        """Every coloured cell (each pair twice, once on either side of the diagonal)."""
        return list(self._cells)

    def set_selected(self, pair: PairResult | None) -> None:
        if pair is not self._selected:
            self._selected = pair
            self.update()

    def selected(self) -> PairResult | None:
        return self._selected

    # -- geometry ---------------------------------------------------------------------------

    def cell_rect(self, row: int, column: int) -> QRect:
        return QRect(
            self._origin.x() + column * self._cell,
            self._origin.y() + row * self._cell,
            self._cell,
            self._cell,
        )

    def cell_at(self, pos: QPoint) -> HeatCell | None:
        n = len(self._order)
        if not n or self._cell <= 0:
            return None
        x, y = pos.x() - self._origin.x(), pos.y() - self._origin.y()
        if x < 0 or y < 0:
            return None
        column, row = x // self._cell, y // self._cell
        if row >= n or column >= n:
            return None
        return self._by_position.get((row, column))

    def tooltip_at(self, pos: QPoint) -> str:
        """What hovering at `pos` says: both names and the scores, or a label's full name."""
        cell = self.cell_at(pos)
        if cell is not None:
            return pair_tooltip(cell.pair, self._names)
        n = len(self._order)
        x, y = pos.x() - self._origin.x(), pos.y() - self._origin.y()
        if n and self._label_width and self._cell:
            if -self._label_width <= x < 0 and 0 <= y < n * self._cell:
                return self._label_tip(self._order[y // self._cell])
            if -self._label_width <= y < 0 and 0 <= x < n * self._cell:
                return self._label_tip(self._order[x // self._cell])
        return ""

    def _label_tip(self, index: int) -> str:
        if self._result is None:
            return ""
        doc = self._result.documents[index]
        return f"{doc.path}" + (" (earlier year)" if doc.archive else "")

    def _legend_rows(self) -> list[list[tuple[str | None, str, int]]]:
        """The legend's entries, (colour, label, width in pixels), in rows that fit the
        widget's width: the caption, then each bin with `bin_labels`' words (the report's)."""
        metrics = self.fontMetrics()
        swatch = _LEGEND_SWATCH.width() + 4
        entries: list[tuple[str | None, str, int]] = [
            (None, LEGEND_CAPTION, metrics.horizontalAdvance(LEGEND_CAPTION))
        ]
        entries += [
            (colour, label, swatch + metrics.horizontalAdvance(label))
            for (_, colour), label in zip(HEATMAP_BINS, bin_labels(), strict=True)
        ]
        room = self.width() - 2 * _MARGIN
        rows: list[list[tuple[str | None, str, int]]] = [[]]
        used = 0
        for entry in entries:
            if rows[-1] and used + _LEGEND_GAP + entry[2] > room:
                rows.append([])
            used = entry[2] if not rows[-1] else used + _LEGEND_GAP + entry[2]
            rows[-1].append(entry)
        return rows

    def _legend_note(self) -> str:
        if self._involved > len(self._order):
            return f"the {len(self._order)} most involved of {self._involved} documents"
        return ""

    def _legend_height(self) -> int:
        lines = len(self._legend_rows()) + (1 if self._legend_note() else 0)
        return lines * (self.fontMetrics().height() + 2) + 8

    def _layout(self) -> None:
        n = len(self._order)
        if not n:
            self._cell = 0
            return
        metrics = self.fontMetrics()
        widest = max(metrics.horizontalAdvance(self._names[i]) for i in self._order)
        room_w = self.width() - 2 * _MARGIN
        room_h = self.height() - 2 * _MARGIN - self._legend_height()
        # names take at most two fifths of the room: the cells matter more than full names
        label = min(_LABEL_MAX, widest + 8, max(60, min(room_w, room_h) * 2 // 5))
        cell = max(_CELL_MIN, min(_CELL_MAX, min(room_w - label, room_h - label) // n))
        if cell < _LABEL_CELL:  # too small to name: the matrix takes all the room
            label = 0
            cell = max(_CELL_MIN, min(_CELL_MAX, min(room_w, room_h) // n))
        font = QFont(self.font())
        if label and cell < metrics.height():
            font.setPixelSize(max(7, cell - 1))
            smaller = QFontMetrics(font)
            label = min(
                label, max(smaller.horizontalAdvance(self._names[i]) for i in self._order) + 8
            )
        self._label_font = font
        self._cell, self._label_width = cell, label
        size = n * cell
        left = _MARGIN + max(0, (room_w - label - size) // 2)  # centred in the room it has
        self._origin = QPoint(left + label, _MARGIN + label)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._layout()
        super().resizeEvent(event)

    def sizeHint(self) -> QSize:
        return QSize(420, 420)

    # -- painting ---------------------------------------------------------------------------

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()
        n = len(self._order)
        if not n:
            painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
            text = EMPTY_TEXT if self._result is None else NONE_ABOVE_TEXT
            painter.drawText(
                self.rect().adjusted(_MARGIN, _MARGIN, -_MARGIN, -_MARGIN),
                Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                text,
            )
            return
        cell = self._cell
        gap = 1 if cell >= 6 else 0
        empty = palette.color(QPalette.ColorRole.AlternateBase)
        diagonal = palette.color(QPalette.ColorRole.Mid)
        for row in range(n):
            for column in range(n):
                found = self._by_position.get((row, column))
                if found is not None:
                    colour = QColor(found.colour)
                else:
                    colour = diagonal if row == column else empty
                painter.fillRect(self.cell_rect(row, column).adjusted(0, 0, -gap, -gap), colour)
        self._paint_groups(painter, palette)
        self._paint_selection(painter, palette)
        if self._label_width:
            self._paint_labels(painter, palette)
        self._paint_legend(painter, palette)

    def _paint_groups(self, painter: QPainter, palette: QPalette) -> None:
        pen = QPen(palette.color(QPalette.ColorRole.WindowText))
        pen.setWidth(1)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for first, size in self._groups:
            corner = self.cell_rect(first, first)
            painter.drawRect(
                QRect(corner.x() - 1, corner.y() - 1, size * self._cell, size * self._cell)
            )

    def _paint_selection(self, painter: QPainter, palette: QPalette) -> None:
        if self._selected is None:
            return
        pen = QPen(palette.color(QPalette.ColorRole.Highlight))
        pen.setWidth(2)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for cell in self._cells:
            if cell.pair is self._selected:
                painter.drawRect(self.cell_rect(cell.row, cell.column).adjusted(0, 0, -1, -1))

    def _paint_labels(self, painter: QPainter, palette: QPalette) -> None:
        painter.setFont(self._label_font)
        metrics = QFontMetrics(self._label_font)
        painter.setPen(palette.color(QPalette.ColorRole.WindowText))
        width, cell = self._label_width - 6, self._cell
        for position, index in enumerate(self._order):
            name = metrics.elidedText(self._names[index], Qt.TextElideMode.ElideLeft, width)
            row = self.cell_rect(position, 0)
            painter.drawText(
                QRect(self._origin.x() - self._label_width, row.y(), width, cell),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                name,
            )
            column = self.cell_rect(0, position)
            painter.save()
            # rotated a quarter turn: the column's name reads upwards, ending above its column
            painter.translate(column.x(), self._origin.y() - 6)
            painter.rotate(-90)
            painter.drawText(
                QRect(0, 0, width, cell),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                name,
            )
            painter.restore()

    def _paint_legend(self, painter: QPainter, palette: QPalette) -> None:
        painter.setFont(self.font())
        metrics = self.fontMetrics()
        line = metrics.height() + 2
        top = self._origin.y() + len(self._order) * self._cell + 8
        room = self.width() - 2 * _MARGIN
        painter.setPen(palette.color(QPalette.ColorRole.WindowText))
        for row in self._legend_rows():  # each row centred, as the matrix is
            width = sum(w for _, _, w in row) + _LEGEND_GAP * (len(row) - 1)
            x = _MARGIN + max(0, (room - width) // 2)
            for colour, label, w in row:
                text_x = x
                if colour is not None:
                    swatch = QRect(
                        x,
                        top + (metrics.height() - _LEGEND_SWATCH.height()) // 2,
                        _LEGEND_SWATCH.width(),
                        _LEGEND_SWATCH.height(),
                    )
                    painter.fillRect(swatch, QColor(colour))
                    text_x = x + _LEGEND_SWATCH.width() + 4
                painter.drawText(
                    QRect(text_x, top, x + w - text_x, metrics.height()),
                    Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                    label,
                )
                x += w + _LEGEND_GAP
            top += line
        note = self._legend_note()
        if note:
            painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
            painter.drawText(
                QRect(_MARGIN, top, room, metrics.height()),
                Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter,
                metrics.elidedText(note, Qt.TextElideMode.ElideRight, room),
            )

    # -- interaction ------------------------------------------------------------------------

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            text = self.tooltip_at(event.pos())
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        cell = self.cell_at(event.position().toPoint())
        if cell is not None and event.button() == Qt.MouseButton.LeftButton:
            self.set_selected(cell.pair)
            self.pair_clicked.emit(cell.pair)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        cell = self.cell_at(event.position().toPoint())
        if cell is not None and event.button() == Qt.MouseButton.LeftButton:
            self.pair_activated.emit(cell.pair)
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

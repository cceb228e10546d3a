"""The summary above the side-by-side view: the verdict, each document's copied share in large
type, the passages by kind, the paper's score, the counts, and the key to the marks.

Every number comes from the Comparison as the engine computed it, and every phrase a teacher
also reads elsewhere from `core.reports.wording`; this panel only lays them out ("62.0% of A is
found in B") and says how sure the tool is: a passage is word for word when its sentences have
the same lengths and start with the same words in both documents (SL+ST, verified), and edited
when it has the same content words in partly different wording (a reworded passage).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPalette, QPen, QPixmap
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QStackedLayout,
    QVBoxLayout,
    QWidget,
)

from app.gui.compare.colours import (
    excluded_colours,
    failed_colour,
    neutral_colour,
    piece_background,
    reworded_background,
    reworded_shared_background,
    reworded_underline,
    shared_colours,
)
from core.comparison import Comparison
from core.detection.passages import copied_sentences, scored_sentence_count
from core.detection.verification import BlockState
from core.reports.wording import (
    LEFT_OUT,
    comparison_left_out,
    found_in,
    passage_counts,
    percent,
    plural,
    verdict,
)

EMPTY_TEXT = "No comparison yet. Add two documents to see what they share."
VALUE_SCALE = 2.3  # big numbers: this many times the application font
SCORE_SCALE = 1.5  # the paper's score, beside them: smaller, it is not the headline
JACCARD_CAPTION = "Jaccard (the paper's score)"
#: said when the reworded passages were not looked for (the strict setting)
STRICT_TEXT = (
    "Reworded passages were not looked for: the paper's method alone (Comparison Settings)."
)


def verdict_text(comparison: Comparison) -> str:
    """One short line: the verdict, and the passages by kind when there are any."""
    if not comparison.flagged:
        return verdict(False)
    return f"{verdict(True)} — {passage_counts(p.kind for p in comparison.passages)}"


def certainty_text(comparison: Comparison) -> str:
    """How sure the tool is, for the verdict's second line."""
    if not comparison.flagged:
        text = (
            "No run of two or more sentences has the same lengths and first words in both documents"
        )
        if comparison.options.reworded:
            return text + ", and no passage shares enough of its content words."
        return f"{text}. {STRICT_TEXT}"
    text = (
        "Word for word (a block's colour): sentence by sentence, the same lengths and first "
        "words in both documents. "
    )
    if comparison.options.reworded:
        text += (
            "Edited (violet, dashed): the same content words in partly different wording. "
            "Read them side by side to judge."
        )
    else:
        text += f"Read them side by side to judge. {STRICT_TEXT}"
    return text


def sentences_found(comparison: Comparison, a_side: bool) -> tuple[int, int]:
    """(sentences inside a copied passage, sentences counted) of A or of B: the copied share
    as the counts it is the ratio of."""
    doc = comparison.a if a_side else comparison.b
    ranges = [p.a_sentences if a_side else p.b_sentences for p in comparison.passages]
    return copied_sentences(doc, ranges), scored_sentence_count(doc)


class _Metric(QWidget):
    """A large percentage, a caption, and a line of plain explanation."""

    def __init__(
        self, caption: str, scale: float = VALUE_SCALE, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.value = QLabel("—")
        font = QFont(self.font())
        font.setPointSizeF(max(font.pointSizeF(), 9.0) * scale)
        font.setWeight(QFont.Weight.DemiBold)
        self.value.setFont(font)
        self.caption = QLabel(caption)
        self.caption.setWordWrap(True)
        bold = QFont(self.font())
        bold.setWeight(QFont.Weight.DemiBold)
        self.caption.setFont(bold)
        self.explanation = QLabel()
        self.explanation.setWordWrap(True)
        self.explanation.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.value)
        layout.addWidget(self.caption)
        layout.addWidget(self.explanation)
        layout.addStretch(1)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(150)

    def set(self, value: str, caption: str, explanation: str, tip: str) -> None:
        self.value.setText(value)
        self.caption.setText(caption)
        self.explanation.setText(explanation)
        self.setToolTip(tip)


class ResultsPanel(QWidget):
    """Scores, counts and a verdict for one comparison; an empty state without one."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._comparison: Comparison | None = None
        self.empty = QLabel(EMPTY_TEXT)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setForegroundRole(QPalette.ColorRole.PlaceholderText)

        self.copied_a = _Metric("of A is found in B")
        self.copied_b = _Metric("of B is found in A")
        self.jaccard = _Metric(JACCARD_CAPTION, SCORE_SCALE)

        self.verdict = QLabel()
        verdict_font = QFont(self.font())
        verdict_font.setPointSizeF(max(verdict_font.pointSizeF(), 9.0) * 1.15)
        verdict_font.setWeight(QFont.Weight.DemiBold)
        self.verdict.setFont(verdict_font)
        # one line: the certainty beside it wraps instead (the window fits a 1366-pixel screen)
        self.verdict.setWordWrap(False)
        self.certainty = QLabel()
        self.certainty.setWordWrap(True)
        self.certainty.setForegroundRole(QPalette.ColorRole.PlaceholderText)

        self.count_labels: dict[str, QLabel] = {}
        counts = QGridLayout()
        counts.setHorizontalSpacing(14)
        counts.setVerticalSpacing(2)
        rows = (
            ("raw", "Common runs", "Runs of 2 or more sentences with the same lengths"),
            ("verified", "Verified", "Every sentence also starts with the same words"),
            ("split", "Split", "Some sentences start differently; the rest is kept"),
            (
                "reworded",
                "Reworded",
                "Passages with the same content words in partly different wording (edited)",
            ),
            ("discarded", "Discarded", "The lengths agree by chance: not counted"),
            ("too_long", "Too long to use", "Sentences over 35 words, left out of the comparison"),
            ("excluded", "Left out", "Sentences left out of the scores by the exclusions"),
        )
        self._count_names: dict[str, QLabel] = {}
        for row, (key, title, tip) in enumerate(rows):
            name = QLabel(title)
            name.setToolTip(tip)
            number = QLabel()
            number.setToolTip(tip)
            number.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.count_labels[key] = number
            self._count_names[key] = name
            counts.addWidget(name, row, 0)
            counts.addWidget(number, row, 1)
        # what the exclusions left out, and why (shown only when one is on)
        self.exclusions = QLabel()
        self.exclusions.setWordWrap(True)
        self.exclusions.setForegroundRole(QPalette.ColorRole.PlaceholderText)

        # the key to the marks in the panes, so a first-time reader can match them to the text
        legend = QGridLayout()
        legend.setHorizontalSpacing(8)
        legend.setVerticalSpacing(4)
        self._legend_icons: list[QLabel] = []
        for row, text in enumerate(LEGEND):
            icon = QLabel()
            label = QLabel(text)
            label.setWordWrap(True)  # two lines at most, so the window fits a laptop screen
            label.setMinimumWidth(200)
            label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
            legend.addWidget(icon, row, 0)
            legend.addWidget(label, row, 1)
            self._legend_icons.append(icon)
        legend.setColumnStretch(1, 1)
        legend.setRowStretch(len(LEGEND), 1)
        self._paint_legend()

        top = QHBoxLayout()
        top.setSpacing(14)
        top.addWidget(self.copied_a, 2)
        top.addWidget(self.copied_b, 2)
        top.addWidget(self.jaccard, 2)
        top.addWidget(_separator())
        top.addLayout(counts)
        top.addWidget(_separator())
        top.addLayout(legend, 3)

        verdict_row = QHBoxLayout()
        verdict_row.setSpacing(12)
        verdict_row.addWidget(self.verdict)
        verdict_row.addWidget(self.certainty, 1)

        results = QWidget()
        column = QVBoxLayout(results)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(10)
        column.addLayout(top)
        column.addLayout(verdict_row)
        column.addWidget(self.exclusions)

        self._stack = QStackedLayout()
        self._stack.addWidget(self.empty)
        self._stack.addWidget(results)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(16, 12, 16, 12)
        outer.addLayout(self._stack)
        self.set_comparison(None)

    def comparison(self) -> Comparison | None:
        return self._comparison

    def is_empty(self) -> bool:
        return self._stack.currentWidget() is self.empty

    def set_comparison(self, comparison: Comparison | None) -> None:
        self._comparison = comparison
        if comparison is None:
            self._stack.setCurrentWidget(self.empty)
            return
        a, b = comparison.a, comparison.b
        n_a, n_b = len(a.signature), len(b.signature)
        matched = comparison.matched_sentences
        for metric, a_side in ((self.copied_a, True), (self.copied_b, False)):
            doc, partner = (a, b) if a_side else (b, a)
            letter, other = ("A", "B") if a_side else ("B", "A")
            share = comparison.copied_a if a_side else comparison.copied_b
            coverage = comparison.coverage_a if a_side else comparison.coverage_b
            found, counted = sentences_found(comparison, a_side)
            metric.set(
                percent(share),
                f"of {letter} is found in {other}",
                f"{found:,} of the {plural(counted, 'sentence')} of {letter}",
                f"{found_in(share, doc.name, partner.name)}: the share of its sentences inside "
                "a copied passage, word for word or edited.\n"
                f"Word for word alone (verified blocks): {percent(coverage)}.",
            )
        self.jaccard.set(
            percent(comparison.jaccard),
            JACCARD_CAPTION,
            "verified blocks only: sentences shared, of all",
            "SL+ST's similarity, from the verified blocks alone: "
            f"{matched:,} matched pairs ÷ ({n_a:,} + {n_b:,} − {matched:,}) sentences",
        )
        counts = comparison.counts
        listed = sum(1 for blk in comparison.blocks if blk.state is BlockState.DISCARDED)
        discarded = f"{counts.discarded:,}"
        if not comparison.result.all_discarded_listed:
            discarded += f" ({listed:,} listed)"
        self.count_labels["raw"].setText(f"{counts.raw:,}")
        self.count_labels["verified"].setText(f"{counts.verified:,}")
        self.count_labels["split"].setText(f"{counts.split:,}")
        self.count_labels["reworded"].setText(
            f"{len(comparison.reworded_passages):,}"
            if comparison.options.reworded
            else "not looked for"
        )
        self.count_labels["discarded"].setText(discarded)
        self.count_labels["too_long"].setText(
            f"A {len(a.signature.too_long):,} · B {len(b.signature.too_long):,}"
        )
        self._show_exclusions(comparison)
        self.verdict.setText(verdict_text(comparison))
        self.certainty.setText(certainty_text(comparison))
        self._stack.setCurrentIndex(1)

    def _show_exclusions(self, comparison: Comparison) -> None:
        """The "Left out" count and the line saying what was left out and why, shown when
        an exclusion is on (or a document carries one)."""
        a, b = comparison.a, comparison.b
        lines = exclusions_text(comparison)
        shown = bool(lines)
        for widget in (self._count_names["excluded"], self.count_labels["excluded"]):
            widget.setVisible(shown)
        self.exclusions.setVisible(shown)
        if not shown:
            self.exclusions.clear()
            return
        self.count_labels["excluded"].setText(
            f"A {len(a.signature.excluded):,} · B {len(b.signature.excluded):,}"
        )
        self.exclusions.setText(lines)
        self.exclusions.setToolTip(
            f"{LEFT_OUT}: the documents are unchanged, this text is only not "
            "counted (shaded grey in the panes)."
        )

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._paint_legend()  # the panes' red and grey follow the theme

    def _paint_legend(self) -> None:
        for icon, pixmap in zip(self._legend_icons, _legend_pixmaps(self.palette()), strict=True):
            icon.setPixmap(pixmap)

    def metric_texts(self) -> dict[str, str]:
        """The large numbers as shown (tests read them)."""
        return {
            "copied_a": self.copied_a.value.text(),
            "copied_b": self.copied_b.value.text(),
            "jaccard": self.jaccard.value.text(),
        }


def exclusions_text(comparison: Comparison) -> str:
    """ "Left out of the scores — A: …; B: …", or "" when no exclusion is on and neither
    document carries one (the words are `comparison_left_out`'s; this is their layout)."""
    left_out = comparison_left_out(comparison)
    if left_out is None:
        return ""
    return f"{LEFT_OUT} — A: {'; '.join(left_out.a)} · B: {'; '.join(left_out.b)}"


def _separator() -> QFrame:
    line = QFrame()
    line.setFrameShape(QFrame.Shape.VLine)
    line.setFrameShadow(QFrame.Shadow.Plain)
    line.setForegroundRole(QPalette.ColorRole.Mid)
    return line


LEGEND = (
    "Word for word: a colour per block; same words stronger",
    "Edited: violet, dashed; shared words underlined",
    "Sentence not verified: first words differ",
    "Lengths agree by chance: discarded",
    "Shaded grey: left out of the scores",
)


def _legend_pixmaps(palette: QPalette) -> tuple[QPixmap, ...]:
    return (
        _swatches(palette),
        _reworded_sample(palette),
        _line_sample(failed_colour(palette), wavy=True),
        _line_sample(neutral_colour(palette), wavy=False),
        _shade_sample(palette),
    )


def _shade_sample(palette: QPalette) -> QPixmap:
    """Text left out of the scores, as the panes shade it."""
    background, foreground = excluded_colours(palette)
    pixmap = QPixmap(28, 12)
    pixmap.fill(background)
    painter = QPainter(pixmap)
    painter.setPen(QPen(foreground, 1.4))
    for y in (4, 8):
        painter.drawLine(3, y, 25, y)
    painter.end()
    return pixmap


def _reworded_sample(palette: QPalette) -> QPixmap:
    """A reworded passage as the panes show it: the pale fill with a dashed underline, and a
    shared word in the stronger fill with a solid one."""
    pixmap = QPixmap(34, 12)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.fillRect(0, 0, 34, 10, reworded_background(palette))
    painter.fillRect(12, 0, 12, 10, reworded_shared_background(palette))
    line = reworded_underline(palette)
    painter.setPen(QPen(line, 1.4, Qt.PenStyle.DashLine))
    painter.drawLine(0, 11, 11, 11)
    painter.drawLine(25, 11, 34, 11)
    painter.setPen(QPen(line, 1.4))
    painter.drawLine(12, 11, 23, 11)
    painter.end()
    return pixmap


def _swatches(palette: QPalette) -> QPixmap:
    """Three block colours as the panes show them, each with its shared words' shade."""
    pixmap = QPixmap(34, 12)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    for k in range(3):
        painter.fillRect(k * 11, 0, 10, 12, piece_background(k, palette))
        painter.fillRect(k * 11 + 5, 0, 5, 12, shared_colours(k, palette)[0])
    painter.end()
    return pixmap


def _line_sample(colour: QColor, *, wavy: bool) -> QPixmap:
    pixmap = QPixmap(28, 12)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    if wavy:
        path = QPainterPath(QPointF(0, 8))
        for k in range(7):
            path.quadTo(QPointF(k * 4 + 2, 4 if k % 2 == 0 else 12), QPointF(k * 4 + 4, 8))
        painter.setPen(QPen(colour, 1.4))
        painter.drawPath(path)
    else:
        pen = QPen(colour, 1.6, Qt.PenStyle.DotLine)
        painter.setPen(pen)
        painter.drawLine(0, 9, 28, 9)
    painter.end()
    return pixmap

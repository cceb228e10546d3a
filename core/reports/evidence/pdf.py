"""The evidence report as a PDF, drawn with fpdf2 (pure Python, no Qt: the command line and the
app make the same file).

Fonts: DejaVu Sans, regular and bold, shipped in resources/fonts and embedded as subsets, so
the report looks the same on every system and every language Doppel analyses prints (accented
Latin, Greek, Cyrillic; Hebrew and Arabic too, drawn in visual order by fpdf2's Unicode bidi
algorithm, Arabic letters in their isolated forms). The text is real text: selectable and
searchable, and pypdf reads it back (the tests do).

The passages are laid out here, line by line, rather than by fpdf2's tables, so that A and B
stay level across page breaks: a row (a sentence of A beside its partner in B) starts on a new
page when it does not fit and would fit on an empty one; a longer row continues on the next
page from the same line on both sides, under a repeated heading ("Passage 3, continued") and
column heads. Each side's words are broken into lines by their measured widths, the words both
sides share drawn bold on a stronger shade of the passage's colour, the rest plain on its pale
shade; sentence numbers are small and grey in the margin of each row."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF
from fpdf.bidi import BidiParagraph, auto_detect_base_direction
from fpdf.enums import TableBordersLayout, TextDirection, XPos, YPos
from fpdf.fonts import FontFace

from core.atomic import write_atomic
from core.reports.evidence.facts import Cell, DocumentFacts, EvidenceReport, ReportPassage
from core.reports.evidence.html import fact_rows, when_text
from core.reports.evidence.paper import Paper
from core.reports.wording import LEFT_OUT
from core.resources import resource_path

SANS = "DejaVu"
MARGIN = 15.0  # mm, all round
BODY = 9.5  # pt
TEXT = 8.8  # pt, the passages' text
NUMBER = 6.0  # pt, sentence numbers
LINE = 4.3  # mm, a passage line
GAP = 4.0  # mm between A's column and B's
PAD = 1.4  # mm inside a passage cell
INK = (26, 26, 26)
MUTED = (90, 90, 90)
RULE = (190, 190, 190)
FOUND = ((204, 51, 17), (251, 234, 229))  # Tol's vibrant red: the frame, a pale fill
NONE_FOUND = ((68, 187, 153), (232, 246, 241))

_TOKENS = re.compile(r"\S+\s*|\s+")
_RTL = frozenset(("R", "AL"))


def evidence_pdf(report: EvidenceReport, paper: Paper = Paper.A4) -> bytes:
    """The report as the bytes of a PDF file."""
    pdf = _Document(report, paper)
    pdf.draw()
    return bytes(pdf.output())


def write_evidence_pdf(
    report: EvidenceReport, path: str | Path, *, paper: Paper = Paper.A4
) -> Path:
    """Write the report to `path` as a PDF (atomically: an existing file is replaced only by a
    complete one)."""
    return write_atomic(path, evidence_pdf(report, paper))


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def clean(text: str) -> str:
    """Text a PDF line can hold: line breaks and tabs as spaces, other control and format
    characters (zero-width, bidi controls) left out; the document's text is never changed,
    only how it is drawn."""
    text = text.replace("\r\n", " ").translate({9: " ", 10: " ", 11: " ", 12: " ", 13: " "})
    return "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf", "Cs"))


@dataclass(slots=True)
class _Piece:
    """Text drawn in one style on one line, `x` from the cell's text edge."""

    text: str
    style: str  # "num", "plain", "shared"
    x: float
    width: float


class _Document(FPDF):
    def __init__(self, report: EvidenceReport, paper: Paper) -> None:
        super().__init__(orientation="P", unit="mm", format="A4" if paper is Paper.A4 else "Letter")
        self.report = report
        self.set_margins(MARGIN, MARGIN, MARGIN)
        self.set_auto_page_break(True, margin=MARGIN + 4)
        fonts = resource_path("fonts")
        self.add_font(SANS, "", str(fonts / "DejaVuSans.ttf"))
        self.add_font(SANS, "B", str(fonts / "DejaVuSans-Bold.ttf"))
        self.set_title(report.title)
        self.set_author("Doppel")
        self.set_creator(f"Doppel {report.version}")
        self.set_subject(f"{report.a.name} and {report.b.name}: {report.verdict}")
        self.set_lang("en")
        self.alias_nb_pages()
        self._widths: dict[tuple[str, str], float] = {}
        self._continued: ReportPassage | None = None

    # --- page furniture -------------------------------------------------------------------

    def footer(self) -> None:
        self.set_y(-MARGIN)
        self.set_font(SANS, "", 7)
        self.set_text_color(*MUTED)
        r = self.report
        self.cell(
            0,
            4,
            f"Doppel evidence report · A: {r.a.name} · B: {r.b.name} · "
            f"page {self.page_no()} of {{nb}}",
            align="C",
        )

    def _font(
        self, style: str = "", size: float = BODY, colour: tuple[int, int, int] = INK
    ) -> None:
        self.set_font(SANS, style, size)
        self.set_text_color(*colour)

    def _paragraph(
        self, text: str, style: str = "", size: float = BODY, colour: tuple[int, int, int] = INK
    ) -> None:
        self._font(style, size, colour)
        self.multi_cell(0, size * 0.5, clean(text), align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.ln(1.2)

    def _heading(self, text: str, room: float = 30) -> None:
        if self.get_y() + room > self.page_break_trigger:
            self.add_page()
        self.ln(3)
        self._font("B", 12.5)
        self.cell(0, 7, text, align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.set_draw_color(*RULE)
        self.line(self.l_margin, self.get_y(), self.w - self.r_margin, self.get_y())
        self.ln(2)

    # --- the report -----------------------------------------------------------------------

    def draw(self) -> None:
        self.add_page()
        self._cover()
        self._documents()
        self._check()
        self._maps()
        self._reading()
        self._passages()

    def _cover(self) -> None:
        r = self.report
        self._font("B", 17)
        self.multi_cell(0, 8, clean(r.title), align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.ln(1)
        self._paragraph(
            f"Checked on {when_text(r.checked_at)} with Doppel {r.version}. "
            f"A is {r.a.name}; B is {r.b.name}.",
            size=8.5,
            colour=MUTED,
        )
        line, fill = FOUND if r.flagged else NONE_FOUND
        self.set_draw_color(*line)
        self.set_fill_color(*fill)
        self.set_line_width(0.6)
        self._font("B", 13)
        self.cell(
            0,
            10,
            f"  {r.verdict}",
            border=1,
            fill=True,
            align="L",
            new_x=XPos.LMARGIN,
            new_y=YPos.NEXT,
        )
        self.set_line_width(0.2)
        self.ln(2)
        for line_text in r.findings:
            self._paragraph(line_text, size=10.5)
        for doc in r.documents:
            for disguise in doc.disguises:
                self._paragraph(f"{doc.label}, {doc.name}: {disguise}.", "B", 10.5, FOUND[0])
        self._paragraph(r.jaccard, size=8.5, colour=MUTED)

    def _table(
        self, rows: Sequence[Sequence[str]], widths: Sequence[float], heads: bool, mono: int = -1
    ) -> None:
        self._font("", 8.5)
        self.set_draw_color(*RULE)
        self.set_fill_color(255, 255, 255)
        with self.table(
            col_widths=widths,
            width=self.epw,
            text_align="LEFT",
            first_row_as_headings=heads,
            headings_style=FontFace(emphasis="BOLD"),
            borders_layout=TableBordersLayout.HORIZONTAL_LINES,
            line_height=4.2,
            padding=1.2,
        ) as table:
            for index, values in enumerate(rows):
                row = table.row()
                for column, value in enumerate(values):
                    if column == 0:
                        row.cell(clean(value), style=FontFace(emphasis="BOLD"))
                    elif index == mono:
                        row.cell(clean(value), style=FontFace(size_pt=7.4))
                    else:
                        row.cell(clean(value))

    def _documents(self) -> None:
        r = self.report
        self._heading("The documents")
        rows = [("", "A", "B"), *fact_rows(r)]
        mono = next(i for i, row in enumerate(rows) if row[0] == "SHA-256")
        self._table(rows, (28, 76, 76), heads=True, mono=mono)
        self.ln(1)
        for doc in r.documents:
            if doc.file_note:
                self._paragraph(f"{doc.label}, {doc.name}: {doc.file_note}.", "", 8.5, FOUND[0])
            for warning in doc.warnings:
                self._paragraph(f"{doc.label}, {doc.name}: {warning}", "", 8.5, MUTED)

    def _check(self) -> None:
        r = self.report
        self._heading("How the check ran")
        rows: list[tuple[str, str]] = [(s.label, s.value) for s in r.settings]
        rows.append(
            (
                LEFT_OUT,
                "; ".join(r.left_out) if r.left_out else "nothing (no exclusion was asked for)",
            )
        )
        rows += [
            (f"Left out of {d.label}", "; ".join(d.left_out)) for d in r.documents if d.left_out
        ]
        self._table(rows, (38, 142), heads=False)

    def _maps(self) -> None:
        self._heading("Where the passages lie", room=60)
        self._paragraph(
            "Each bar is one document, from its start on the left to its end on the right; "
            "the coloured stretches are the passages found in the other document, numbered as "
            "below.",
            size=8.5,
            colour=MUTED,
        )
        for doc in self.report.documents:
            self._map(doc)

    def _map(self, doc: DocumentFacts) -> None:
        if self.get_y() + 26 > self.page_break_trigger:
            self.add_page()
        self._font("B", 9)
        self.cell(
            0, 5, clean(f"{doc.label}: {doc.name}"), align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT
        )
        x, y, width, height = self.l_margin, self.get_y() + 3.2, self.epw, 7.0
        self.set_fill_color(255, 255, 255)
        self.set_draw_color(120, 120, 120)
        self.rect(x, y, width, height, style="DF")
        self._font("", 6.5, MUTED)
        last_label = -10.0
        for mark in doc.map:
            left = x + mark.start * width
            span = max(0.7, (mark.end - mark.start) * width)
            self.set_fill_color(*_rgb(mark.colour))
            self.rect(left, y, min(span, x + width - left), height, style="F")
            if left - last_label >= 4:  # a number over its passage, where there is room
                self.text(left, y - 0.8, mark.label)
                last_label = left
        self.set_draw_color(120, 120, 120)
        self.rect(x, y, width, height, style="D")
        self.set_y(y + height + 1.5)
        legend = (
            "   ".join(f"{m.label}: {round(m.start * 100)}–{round(m.end * 100)}%" for m in doc.map)
            or "no passage"
        )
        self._paragraph(legend, size=7.5, colour=MUTED)
        self.ln(1)

    def _reading(self) -> None:
        r = self.report
        self._heading("How to read this report")
        for line in r.how_to_read:
            self._paragraph(line, size=9)
        self._heading("What this method does not detect", room=40)
        for line in r.limits:
            self._font("", 9)
            self.cell(4, 4.5, "•")
            self.multi_cell(0, 4.5, clean(line), align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
            self.ln(1)

    # --- the passages side by side --------------------------------------------------------

    def _passages(self) -> None:
        r = self.report
        if not r.passages:
            return
        self.add_page()
        self._heading("The passages, side by side")
        self.set_auto_page_break(False)
        for passage in r.passages:
            self._passage(passage)
        self.set_auto_page_break(True, margin=MARGIN + 4)

    @property
    def _bottom(self) -> float:
        return self.h - MARGIN - 6

    @property
    def _column(self) -> float:
        return (self.epw - GAP) / 2

    def _passage(self, passage: ReportPassage) -> None:
        width = self._column - 2 * PAD
        rows = [(self._lines(row.a, width), self._lines(row.b, width)) for row in passage.rows]
        first = max(len(rows[0][0]), len(rows[0][1]), 1) if rows else 1
        if self.get_y() + 22 + min(first, 4) * LINE > self._bottom:
            self.add_page()
        self.ln(3)
        self._passage_head(passage, continued=False)
        for a_lines, b_lines in rows:
            height = max(len(a_lines), len(b_lines), 1) * LINE + 2 * PAD
            body = self._bottom - self.t_margin - 20
            if self.get_y() + height > self._bottom and height <= body:
                self._break(passage)
            self._row(passage, a_lines, b_lines)
        self.ln(2)

    def _break(self, passage: ReportPassage) -> None:
        self.add_page()
        self._passage_head(passage, continued=True)

    def _passage_head(self, passage: ReportPassage, continued: bool) -> None:
        r = self.report
        x, y = self.l_margin, self.get_y()
        self.set_fill_color(*_rgb(passage.colour))
        self.rect(x, y, 2.2, 5.2, style="F")
        self.set_xy(x + 3.5, y)
        self._font("B", 9.5)
        title = f"{passage.name} — {passage.kind_text}"
        self.cell(
            0,
            5.2,
            title + (", continued" if continued else ""),
            new_x=XPos.LMARGIN,
            new_y=YPos.NEXT,
        )
        if not continued:
            self._font("", 8, MUTED)
            self.multi_cell(
                0, 3.8, clean(passage.summary) + ".", new_x=XPos.LMARGIN, new_y=YPos.NEXT
            )
        self.ln(0.8)
        column = self._column
        top = self.get_y()
        heights = []
        for offset, (doc, where) in enumerate(((r.a, passage.a_where), (r.b, passage.b_where))):
            self.set_xy(self.l_margin + offset * (column + GAP), top)
            self._font("B", 8)
            self.multi_cell(
                column, 3.8, clean(f"{doc.label}: {doc.name}"), new_x=XPos.LEFT, new_y=YPos.NEXT
            )
            self.set_x(self.l_margin + offset * (column + GAP))
            self._font("", 7, MUTED)
            self.multi_cell(column, 3.4, clean(where), align="L", new_x=XPos.LEFT, new_y=YPos.NEXT)
            heights.append(self.get_y())
        self.set_y(max(heights) + 0.6)
        self.set_draw_color(150, 150, 150)
        self.line(self.l_margin, self.get_y(), self.w - self.r_margin, self.get_y())
        self.ln(0.4)

    def _row(
        self, passage: ReportPassage, a_lines: list[list[_Piece]], b_lines: list[list[_Piece]]
    ) -> None:
        count = max(len(a_lines), len(b_lines), 1)
        fill, strong = _rgb(passage.fill), _rgb(passage.strong)
        sides = ((a_lines, self.l_margin), (b_lines, self.l_margin + self._column + GAP))
        y = self.get_y()
        self._fill_band(sides, y, PAD, fill)
        y += PAD
        for index in range(count):
            if y + LINE > self._bottom:
                self._fill_band(sides, y, self._bottom - y, fill, through=index)
                self._break(passage)
                y = self.get_y()
            self._fill_band(sides, y, LINE, fill, through=index)
            for lines, left in sides:
                if index < len(lines):
                    self._draw_line(lines[index], left + PAD, y, strong)
            y += LINE
        self._fill_band(sides, y, PAD, fill, through=count - 1)
        y += PAD
        self.set_y(y + 0.5)

    def _fill_band(
        self,
        sides: Sequence[tuple[list[list[_Piece]], float]],
        y: float,
        height: float,
        fill: tuple[int, int, int],
        through: int = 0,
    ) -> None:
        """The pale shade behind a stretch of both cells (an empty side, where the other has
        more sentences, stays white)."""
        if height <= 0:
            return
        self.set_fill_color(*fill)
        for lines, left in sides:
            if lines:
                self.rect(left, y, self._column, height, style="F")

    def _draw_line(
        self, pieces: list[_Piece], left: float, y: float, strong: tuple[int, int, int]
    ) -> None:
        baseline = y + LINE * 0.74
        for piece in pieces:
            if piece.style == "shared":
                self.set_fill_color(*strong)
                self.rect(left + piece.x - 0.3, y + 0.35, piece.width + 0.6, LINE - 0.5, style="F")
                self._font("B", TEXT)
            elif piece.style == "num":
                self._font("", NUMBER, MUTED)
            else:
                self._font("", TEXT)
            self.text(left + piece.x, baseline, piece.text)

    # --- breaking a cell's text into lines ------------------------------------------------

    def _width(self, text: str, style: str) -> float:
        key = (text, style)
        known = self._widths.get(key)
        if known is None:
            self._set_style(style)
            known = self._widths[key] = self.get_string_width(text)
        return known

    def _set_style(self, style: str) -> None:
        if style == "shared":
            self.set_font(SANS, "B", TEXT)
        elif style == "num":
            self.set_font(SANS, "", NUMBER)
        else:
            self.set_font(SANS, "", TEXT)

    def _lines(self, cell: Cell, width: float) -> list[list[_Piece]]:
        """`cell`'s text broken into lines of at most `width` mm, each as pieces of one style."""
        tokens: list[tuple[str, str]] = []
        if cell.first_sentence is not None:
            tokens.append((f"{cell.first_sentence}  ", "num"))
        for run in cell.runs:
            style = "shared" if run.shared else "plain"
            tokens += [(m.group(), style) for m in _TOKENS.finditer(clean(run.text))]
        lines: list[list[_Piece]] = [[]]
        x = 0.0
        for text, style in tokens:
            word = text.rstrip()
            if not word:  # spaces: kept inside a line, dropped at its start
                if lines[-1]:
                    advance = self._width(text, style)
                    lines[-1].append(_Piece(text, style, x, advance))
                    x += advance
                continue
            parts = self._fitting(word, style, width)
            for index, part in enumerate(parts):
                if x + self._width(part, style) > width and lines[-1]:
                    lines.append([])
                    x = 0.0
                shown = part + text[len(word) :] if index == len(parts) - 1 else part
                advance = self._width(shown, style)
                lines[-1].append(_Piece(shown, style, x, advance))
                x += advance
        merged = [list(_merge(line)) for line in lines if line]
        if _is_rtl(cell.text):
            return [self._visual(line, width) for line in merged]
        return merged

    def _fitting(self, word: str, style: str, width: float) -> list[str]:
        """`word`, or for a word wider than a line (a long URL, a hash) the pieces of it that
        fit, so nothing is ever drawn past the column."""
        parts = []
        while len(word) > 1 and self._width(word, style) > width:
            low, high = 1, len(word) - 1
            while low < high:
                middle = (low + high + 1) // 2
                if self._width(word[:middle], style) <= width:
                    low = middle
                else:
                    high = middle - 1
            parts.append(word[:low])
            word = word[low:]
        return [*parts, word]

    def _visual(self, line: list[_Piece], width: float) -> list[_Piece]:
        """A line holding right-to-left text: its words in visual order (Unicode bidi
        algorithm) as one piece, shared if all its words are, set against the right edge when
        the cell's text runs right to left; the sentence number stays where it was."""
        numbers = [piece for piece in line if piece.style == "num"]
        words = [piece for piece in line if piece.style != "num"]
        text = "".join(piece.text for piece in words).strip()
        if not text:
            return numbers
        style = "shared" if all(p.style == "shared" for p in words if p.text.strip()) else "plain"
        visual = BidiParagraph(text=text).get_reordered_string()
        advance = self._width(visual, style)
        start = words[0].x
        if auto_detect_base_direction(text) == TextDirection.RTL:
            start = max(start, width - advance)
        return [*numbers, _Piece(visual, style, start, advance)]


def _merge(line: list[_Piece]) -> Iterator[_Piece]:
    """Neighbouring pieces of one style as one (fewer text objects, words kept together)."""
    pending: _Piece | None = None
    for piece in line:
        if pending is not None and pending.style == piece.style:
            pending = _Piece(
                pending.text + piece.text, piece.style, pending.x, pending.width + piece.width
            )
            continue
        if pending is not None:
            yield pending
        pending = piece
    if pending is not None:
        yield pending


def _is_rtl(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) in _RTL for ch in text)

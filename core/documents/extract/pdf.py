"""Reads the text layer of a PDF with pypdf, page by page, and rebuilds paragraphs.

A PDF stores positioned lines, not paragraphs. pypdf reports each piece of text with its text
matrix (a visitor callback), so every line gets a position and font size. From those:
- running headers, footers and page numbers are recognised as lines at the top or bottom of
  pages that repeat once digits are ignored ("Chapter 3 - 41", "Page 7 of 40"), and removed;
- a paragraph break is a line gap clearly taller than the usual line pitch, a first-line
  indent, or a short line ending a sentence; other line ends are wraps, which normalisation
  joins (and de-hyphenates).
Rules and thresholds are in docs/formats.md ("PDF")."""

from __future__ import annotations

import itertools
import logging
import math
import re
import statistics
from collections import Counter
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

from core.documents.extract.raw import RAW_TEXT_FACTOR, RawText, library_message, size_words
from core.documents.extract.sniff import looks_like
from core.errors import (
    CorruptDocument,
    DocumentError,
    DocumentTooLarge,
    EmptyDocument,
    EncryptedDocument,
    NoTextLayer,
)

# pypdf reports recoverable damage through logging. With no handler configured anywhere Python
# prints such records to stderr; a NullHandler stops that while still letting an application
# that configures logging see them (they propagate as usual).
logging.getLogger("pypdf").addHandler(logging.NullHandler())

# A page "has text" from this many letters or digits on: a scan often carries a stray page
# number or a scanner app's stamp in its text layer, never a paragraph.
MIN_TEXT_CHARS_PER_PAGE = 20
# How many lines at each end of a page may be running headers or footers.
EDGE_LINES = 3
# A line shorter than this share of the usual line length, ending a sentence, ends a paragraph.
# Lines inside a paragraph are longer: ragged-right text rarely leaves a quarter of a line empty.
SHORT_LINE = 0.75
# Running lines are short; a long repeated line is content.
MAX_RUNNING_LINE_CHARS = 150
# The work one PDF may cost (docs/formats.md, "Limits"): its pages' drawing instructions
# (decoded content streams) and the operations in them. 1,000 pages of a novel, as fpdf2 prints
# them, hold 5.3 MB of instructions and 290,000 operations. A 1 MB file can inflate to gigabytes
# of instructions (pypdf only limits each stream, to 75 MB), which pypdf parses at about 2 s per
# MB: without these limits one small file could keep a check busy for hours.
MAX_CONTENT_BYTES = 64 * 1024 * 1024
MAX_OPERATIONS = 5_000_000

_ALNUM = re.compile(r"[^\W_]")
_DIGITS = re.compile(r"\d+")
_ROMAN_PAGE = re.compile(r"[\W_]*[ivxlcdm]{1,7}[\W_]*")
_PAGE_NUMBER_KEY = re.compile(
    r"[\W_]*(?:page|p\.?|pag\.?|pg\.?|seite|página|pagina|blz\.?)?[\W_]*#"
    r"(?:[\W_]*(?:of|/|de|von|sur|di|van)[\W_]*#)?[\W_]*"
)
_SENTENCE_END = tuple(".!?:\"'”’»)…")


@dataclass(frozen=True, slots=True)
class _Line:
    text: str
    x: float | None  # start of the line in page space (points); None when unknown
    y: float | None  # baseline height in page space, growing upwards
    size: float  # effective font size in points (0 when unknown)


@dataclass(frozen=True, slots=True)
class _Layout:
    """Measurements over the whole document that paragraph detection compares against."""

    pitch: float | None  # usual baseline-to-baseline distance, in font sizes
    typical_length: float  # usual line length, in characters


def read_pdf(data: bytes, path: Path, *, max_chars: int) -> RawText:
    """The text of the PDF in `data`. `max_chars` is the limit on extracted text: reading stops
    with DocumentTooLarge once the pages read so far hold RAW_TEXT_FACTOR times as much."""
    if data.find(b"%PDF-", 0, 1024) < 0:
        raise CorruptDocument(
            path, f"it is not a PDF: it does not start with a PDF header{looks_like(data)}"
        )

    from pypdf import PdfReader  # imported late: only needed for PDFs
    from pypdf.errors import DependencyError

    try:
        reader = PdfReader(BytesIO(data), strict=False)
        _unlock(reader, path)
        pages = list(reader.pages)
    except DocumentError:
        raise
    except DependencyError as exc:
        raise _needs_cryptography(path) from exc
    except Exception as exc:
        if b"/Encrypt" in data:
            raise EncryptedDocument(
                path, f"it is encrypted in a way that cannot be opened ({library_message(exc)})"
            ) from exc
        raise CorruptDocument(
            path, f"the PDF is damaged or incomplete and cannot be read ({library_message(exc)})"
        ) from exc
    if not pages:
        raise EmptyDocument(path, "the PDF has no pages")

    page_lines: list[list[_Line]] = []
    unreadable: list[int] = []
    total_chars = 0
    budget = _Budget(path, len(pages))
    for number, page in enumerate(pages, start=1):
        try:
            budget.page = number
            budget.add_content(page)
            lines = _page_lines(page, budget)
        except DocumentError:
            raise
        except DependencyError as exc:
            raise _needs_cryptography(path) from exc
        except Exception:  # one broken page should not cost the other pages
            unreadable.append(number)
            lines = []
        total_chars += sum(len(line.text) + 1 for line in lines)
        if total_chars > max_chars * RAW_TEXT_FACTOR:
            raise DocumentTooLarge(
                path,
                f"its text is longer than the limit of {max_chars:,} characters (reading "
                f"stopped at page {number} of {len(pages)})",
            )
        page_lines.append(lines)

    if len(unreadable) == len(pages):
        raise CorruptDocument(path, "none of its pages could be read; the PDF is damaged")
    warnings: list[str] = []
    if unreadable:
        warnings.append(f"page(s) {_page_list(unreadable)} could not be read and were left out")

    empty = [
        n
        for n, lines in enumerate(page_lines, start=1)
        if _alnum_count(lines) < MIN_TEXT_CHARS_PER_PAGE
    ]
    if len(empty) == len(pages):
        found = sum(_alnum_count(lines) for lines in page_lines)
        raise NoTextLayer(
            path,
            f"it has no text layer: its {len(pages)} page(s) hold only images or drawings "
            f"({found} letters or digits could be read), so it looks scanned. Run it through "
            'OCR (text recognition, e.g. "Make searchable" in a PDF editor) and check it again',
        )
    empty = [n for n in empty if n not in unreadable]
    if empty:
        warnings.append(
            f"page(s) {_page_list(empty)} hold no text (blank, or scanned images needing OCR)"
        )

    page_lines, removed = _remove_running_lines(page_lines)
    warnings.extend(removed)
    return RawText(_assemble(page_lines), tuple(warnings))


class _Budget:
    """The drawing instructions and operations read so far, refused past the limits."""

    def __init__(self, path: Path, pages: int) -> None:
        self.path = path
        self.pages = pages
        self.page = 0
        self.content_bytes = 0
        self.operations = 0

    def add_content(self, page: Any) -> None:
        contents = page.get_contents()  # decoded once; pypdf keeps it
        if contents is not None:
            self.content_bytes += len(contents.get_data())
            if self.content_bytes > MAX_CONTENT_BYTES:
                self._refuse(
                    f"drawing instructions than the limit of {size_words(MAX_CONTENT_BYTES)} "
                    "(a 1,000-page document has about 5 MiB)"
                )

    def operation(self, *_: Any) -> None:
        self.operations += 1
        if self.operations > MAX_OPERATIONS:
            self._refuse(
                f"drawing operations than the limit of {MAX_OPERATIONS:,} (a 1,000-page "
                "document has about 300,000)"
            )

    def _refuse(self, what: str) -> None:
        raise DocumentTooLarge(
            self.path,
            f"its pages hold more {what}; reading stopped at page {self.page} of {self.pages}",
        )


def _unlock(reader: Any, path: Path) -> None:
    """Open an encrypted PDF with the empty user password (an "owner password only" PDF, which
    restricts printing or copying, opens this way); anything else is EncryptedDocument."""
    from pypdf import PasswordType

    if reader.is_encrypted and reader.decrypt("") == PasswordType.NOT_DECRYPTED:
        raise EncryptedDocument(
            path,
            "it is password-protected; open it with its password, save or print a copy without "
            "the password, and check that copy",
        )


def _needs_cryptography(path: Path) -> EncryptedDocument:
    return EncryptedDocument(
        path,
        "it is encrypted with AES, and opening it needs the 'cryptography' package, which is "
        "not installed with this copy of Doppel",
    )


def _page_list(numbers: list[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:10])
    return shown + (f" and {len(numbers) - 10} more" if len(numbers) > 10 else "")


def _alnum_count(lines: list[_Line]) -> int:
    return sum(len(_ALNUM.findall(line.text)) for line in lines)


def _page_lines(page: Any, budget: _Budget) -> list[_Line]:
    """The page's non-blank lines in pypdf's reading order, with positions.

    pypdf calls the visitor with each run of text it appends to its output, newline runs
    included, so joining the runs gives exactly `page.extract_text()`; the run's matrices give
    the position of the text that starts it."""
    runs: list[tuple[str, Any, Any, Any]] = []

    def visit(text: Any, cm: Any, tm: Any, font: Any, font_size: Any) -> None:
        runs.append((str(text), cm, tm, font_size))

    output = page.extract_text(visitor_text=visit, visitor_operand_before=budget.operation)
    if "".join(run[0] for run in runs) != output:
        # Should pypdf ever report runs differently, keep its text and lose only positions.
        return [_Line(line, None, None, 0.0) for line in output.split("\n") if line.strip()]

    lines: list[_Line] = []
    parts: list[str] = []
    place: tuple[float, float, float] | None = None
    for text, cm, tm, font_size in runs:
        for index, piece in enumerate(text.split("\n")):
            if index:
                lines.append(_make_line(parts, place))
                parts, place = [], None
            if piece:
                # Only a run's first piece starts where its matrices say.
                if place is None and index == 0 and piece.strip():
                    place = _position(cm, tm, font_size)
                parts.append(piece)
    lines.append(_make_line(parts, place))
    return [line for line in lines if line.text.strip()]


def _make_line(parts: list[str], place: tuple[float, float, float] | None) -> _Line:
    text = "".join(parts)
    if place is None:
        return _Line(text, None, None, 0.0)
    return _Line(text, place[0], place[1], place[2])


def _position(cm: Any, tm: Any, font_size: Any) -> tuple[float, float, float] | None:
    """(x, y, font size) of text drawn with text matrix `tm` under transformation `cm`."""
    try:
        a, b, c, d, e, f = (float(v) for v in cm)
        _, _, tc, td, te, tf = (float(v) for v in tm)
        x = te * a + tf * c + e
        y = te * b + tf * d + f
        # The font's vertical scale: text drawn at "1 Tf" under a 12x matrix is 12 pt.
        size = float(font_size) * math.hypot(tc * a + td * c, tc * b + td * d)
    except (TypeError, ValueError):
        return None
    if not all(math.isfinite(v) for v in (x, y, size)):
        return None
    return x, y, abs(size)


def _running_key(text: str) -> str | None:
    """What a line is, ignoring its numbers: lines with the same key on many pages are running
    headers, footers or page numbers."""
    line = " ".join(text.split()).lower()
    if not line or len(line) > MAX_RUNNING_LINE_CHARS:
        return None
    if _ROMAN_PAGE.fullmatch(line):
        return "#"  # front matter numbered i, ii, iii ...
    return _DIGITS.sub("#", line)


def _edge_indices(lines: list[_Line]) -> set[int]:
    """Indices of the lines at the top and bottom of a page, both in reading order and by
    height (some producers write the header last)."""
    count = len(lines)
    edges = set(range(min(EDGE_LINES, count))) | set(range(max(0, count - EDGE_LINES), count))
    placed = sorted((line.y, i) for i, line in enumerate(lines) if line.y is not None)
    edges.update(i for _, i in placed[:EDGE_LINES])
    edges.update(i for _, i in placed[-EDGE_LINES:])
    return edges


def _remove_running_lines(pages: list[list[_Line]]) -> tuple[list[list[_Line]], list[str]]:
    """Drop lines that recur (digits aside) at the edges of several pages: on at least 3 pages,
    or on all pages but one in documents of up to 4 pages. Counting pages rather than requiring
    "most" pages also catches headers that change per chapter ("Chapter 4: Methods 17").

    Only runs of such lines reaching the very edge of a page are dropped: a body line that
    happens to recur near the top of a few pages (a paragraph pasted twice) has body text above
    it and stays."""
    if len(pages) < 2:
        return pages, []
    min_pages = max(2, len(pages) - 1) if len(pages) <= 4 else 3
    keys = [[_running_key(line.text) for line in lines] for lines in pages]
    pages_with: dict[str, set[int]] = {}
    for page_index, lines in enumerate(pages):
        for line_index in _edge_indices(lines):
            key = keys[page_index][line_index]
            if key is not None:
                pages_with.setdefault(key, set()).add(page_index)
    running = {key for key, found in pages_with.items() if len(found) >= min_pages}

    removed: set[tuple[int, int]] = set()
    found_at: dict[str, list[tuple[int, int]]] = {}
    for page_index, lines in enumerate(pages):
        placed = [i for _, i in sorted((ln.y, i) for i, ln in enumerate(lines) if ln.y is not None)]
        reading = list(range(len(lines)))
        for order in (reading, reading[::-1], placed, placed[::-1]):
            for line_index in order[:EDGE_LINES]:
                key = keys[page_index][line_index]
                if key not in running:
                    break
                if (page_index, line_index) not in removed:
                    removed.add((page_index, line_index))
                    found_at.setdefault(key, []).append((page_index, line_index))

    warnings: list[str] = []
    for key, found in found_at.items():
        page_count = len({page_index for page_index, _ in found})
        first_page, first_line = found[0]
        example = " ".join(pages[first_page][first_line].text.split())
        if len(example) > 60:
            example = example[:57] + "..."
        if _PAGE_NUMBER_KEY.fullmatch(key):
            warnings.append(f"removed page numbers (like '{example}') from {page_count} pages")
        else:
            at_top = sum(line_index < len(pages[p]) / 2 for p, line_index in found)
            kind = "header" if at_top * 2 >= len(found) else "footer"
            warnings.append(f"removed running {kind} '{example}' from {page_count} pages")
    kept = [
        [line for line_index, line in enumerate(lines) if (page_index, line_index) not in removed]
        for page_index, lines in enumerate(pages)
    ]
    return kept, warnings


def _measure(pages: list[list[_Line]]) -> _Layout:
    ratios: Counter[float] = Counter()
    lengths: list[int] = []
    for lines in pages:
        for previous, line in itertools.pairwise(lines):
            if previous.y is not None and line.y is not None and line.size > 0:
                ratio = (previous.y - line.y) / line.size
                if 0.5 < ratio < 4:
                    ratios[round(ratio * 20) / 20] += 1
        lengths.extend(len(line.text.strip()) for line in lines)
    # The commonest gap is the line pitch: most line ends are wraps inside a paragraph.
    pitch = ratios.most_common(1)[0][0] if ratios else None
    typical = statistics.median(lengths) if lengths else 0.0
    return _Layout(pitch, float(typical))


def _left_margin(lines: list[_Line]) -> float | None:
    starts = Counter(round(line.x) for line in lines if line.x is not None)
    if not starts:
        return None
    margin, count = starts.most_common(1)[0]
    return float(margin) if count >= 3 else None


def _assemble(pages: list[list[_Line]]) -> str:
    """Join all lines: "\\n\\n" where a paragraph starts, "\\n" (a wrap) elsewhere."""
    layout = _measure(pages)
    out: list[str] = []
    previous: _Line | None = None
    previous_margin: float | None = None
    for lines in pages:
        margin = _left_margin(lines)
        for position, line in enumerate(lines):
            if previous is not None:
                same_page = position > 0
                starts = _starts_paragraph(
                    previous, line, layout, margin, previous_margin, same_page
                )
                out.append("\n\n" if starts else "\n")
            out.append(line.text)
            previous, previous_margin = line, margin
    return "".join(out)


def _starts_paragraph(
    previous: _Line,
    line: _Line,
    layout: _Layout,
    margin: float | None,
    previous_margin: float | None,
    same_page: bool,
) -> bool:
    # A short line that ends a sentence ends its paragraph: lines inside a paragraph run to
    # (nearly) the full width.
    previous_text = previous.text.strip()
    if len(previous_text) < SHORT_LINE * layout.typical_length and previous_text.endswith(
        _SENTENCE_END
    ):
        return True
    # A first-line indent after a line that started at the margin (a block quote, indented
    # on every line, stays one paragraph).
    size = line.size or previous.size or 10.0
    if (
        margin is not None
        and previous_margin is not None
        and line.x is not None
        and previous.x is not None
        and line.x - margin > 0.8 * size
        and abs(previous.x - previous_margin) < 0.5 * size
    ):
        return True
    # Extra space above the line. Only on the same page: across a page break the gap means
    # nothing, and a line that goes up (a new column) continues the text.
    if same_page and layout.pitch is not None and previous.y is not None and line.y is not None:
        gap = (previous.y - line.y) / size
        if gap > layout.pitch * 1.3:
            return True
    return False

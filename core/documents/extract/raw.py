"""What a format reader hands back before normalisation, and how it words a library's failure."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from core.documents.normalize import normalize_text
from core.documents.tampering import Tampering

# A reader's raw text may run this many times over the text limit before normalisation (which
# only removes whitespace and invisible characters) has the last word; past it, the document is
# refused without normalising, and the PDF reader stops reading pages.
RAW_TEXT_FACTOR = 2


@dataclass(frozen=True, slots=True)
class RawText:
    """Text as a format reader found it: paragraphs separated by blank lines, lines by "\\n".

    `warnings` are plain-language notes a teacher can act on ("removed running header ...");
    they travel unchanged into `ExtractedText.warnings`. `block_quotes` are `[start, end)` spans
    of `text` (this raw text, before normalisation) that the file marks as block quotes; `extract`
    finds them again in the normalised text (`locate_in_normalised`)."""

    text: str
    warnings: tuple[str, ...] = ()
    block_quotes: tuple[tuple[int, int], ...] = ()
    # disguises the reader undid (hidden .docx text it left out): core.documents.tampering
    tampering: tuple[Tampering, ...] = ()


# Paragraph styles whose text is a quotation, compared without case, spaces, hyphens or
# underscores: Word's built-in names (Word writes the English name in w:name whatever the
# language of its interface, and a localised style id; pandoc writes "Block Text" for a
# Markdown block quote), the style ids localised Word versions write, and LibreOffice's
# "Quotations" in a document it saved as .docx.
QUOTE_STYLE_NAMES = frozenset(
    {"quote", "intensequote", "blocktext", "blockquote", "quotation", "quotations",
     "zitat", "intensiveszitat", "citation", "citationintense", "cita", "citadestacada",
     "citazione", "citazioneintensa", "citaat", "duidelijkcitaat", "cytat", "citat", "citát",
     "lainaus", "tsitaat", "цитата", "alıntı"}
)  # fmt: skip


def is_quote_style_name(name: str) -> bool:
    """True for the name or id of a quotation paragraph style (QUOTE_STYLE_NAMES)."""
    key = "".join(ch for ch in name.casefold() if ch.isalnum())
    return key in QUOTE_STYLE_NAMES


def derived_quote_styles(styles: Mapping[str, tuple[bool, str | None]]) -> frozenset[str]:
    """The styles that are quote styles or based on one at any depth. `styles` maps each style
    to (whether it is a quote style itself, the style it is based on or None). Each style is
    settled once, so a long chain of styles costs linear time; a cycle ends a chain."""
    known: dict[str, bool] = {}
    for style in styles:
        chain: list[str] = []
        on_chain: set[str] = set()
        current: str | None = style
        quote = False
        while current is not None and current in styles and current not in on_chain:
            if current in known:
                quote = known[current]
                break
            chain.append(current)
            on_chain.add(current)
            own, current = styles[current]
            if own:
                quote = True
                break
        for name in chain:
            known[name] = quote
    return frozenset(name for name, quote in known.items() if quote)


def join_paragraphs(
    paragraphs: Iterable[tuple[str, bool]],
) -> tuple[str, tuple[tuple[int, int], ...]]:
    """Paragraph texts joined by blank lines, and the spans of those flagged True (block
    quotes) in the joined text; consecutive flagged paragraphs make one span (one quotation of
    several paragraphs), empty paragraphs between them notwithstanding."""
    texts: list[str] = []
    spans: list[list[int]] = []
    position = 0
    previous_flagged = False
    for text, flagged in paragraphs:
        if texts:
            position += 2  # the "\n\n" before this paragraph
        if text.strip():
            if flagged and previous_flagged:
                spans[-1][1] = position + len(text)
            elif flagged:
                spans.append([position, position + len(text)])
            previous_flagged = flagged
        texts.append(text)
        position += len(text)
    return "\n\n".join(texts), tuple((a, b) for a, b in spans)


_RAW_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_MAX_TRIES = 1000  # a short paragraph found mid-paragraph this often is given up on


def locate_in_normalised(
    raw: str, raw_spans: Sequence[tuple[int, int]], text: str
) -> tuple[tuple[int, int], ...]:
    """The spans of `text` (= normalize_text(raw)) that hold the paragraphs of `raw` lying
    inside each of `raw_spans`. Normalisation changes lengths (joined lines, collapsed spaces,
    NFKC), so positions cannot be carried over: each raw paragraph is normalised on its own and
    found in `text` at a paragraph boundary, searching forward from the previous paragraph's
    end. A paragraph that cannot be found (normalisation joined it with a neighbour) is skipped,
    so a span may come out shorter or not at all, never wrong."""
    if not raw_spans:
        return ()
    wanted = sorted(raw_spans)
    last_end = wanted[-1][1]
    located: list[tuple[int, int, int, int]] = []  # raw start, raw end, text start, text end
    cursor = 0
    start = 0
    for brk in (*_RAW_PARAGRAPH_BREAK.finditer(raw, 0, last_end), None):
        end = last_end if brk is None else brk.start()
        piece = normalize_text(raw[start:end]) if start < end else ""
        if piece:
            found = _find_paragraph(text, piece, cursor)
            if found >= 0:
                located.append((start, end, found, found + len(piece)))
                cursor = found + len(piece)
        if brk is None:
            break
        start = brk.end()
    spans: list[tuple[int, int]] = []
    for raw_start, raw_end in wanted:
        inside = [(a, b) for s, e, a, b in located if raw_start <= s and e <= raw_end]
        if inside:
            spans.append((inside[0][0], inside[-1][1]))
    return tuple(spans)


def _find_paragraph(text: str, piece: str, cursor: int) -> int:
    """Where `piece` starts in `text` from `cursor` on, at whole-paragraph boundaries; -1."""
    position = cursor
    for _ in range(_MAX_TRIES):
        found = text.find(piece, position)
        if found < 0:
            return -1
        end = found + len(piece)
        if (found == 0 or text[found - 1] == "\n") and (end == len(text) or text[end] == "\n"):
            return found
        position = found + 1
    return -1


def library_message(exc: BaseException, limit: int = 160) -> str:
    """A parsing library's exception as a short phrase for the end of a reason."""
    message = " ".join(str(exc).split()) or type(exc).__name__
    return message if len(message) <= limit else message[: limit - 3] + "..."


def size_words(n: int) -> str:
    """A size in words: "200.0 MiB" from 1 MiB on, else "1,234 bytes"."""
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):,.1f} MiB"
    return f"{n:,} bytes"


def sizes_compared(size: int, limit: int) -> tuple[str, str]:
    """`size` and `limit` in words, in exact bytes when rounding would make them look the same
    ("the file is 200.0 MiB; the limit is 200.0 MiB" says nothing)."""
    shown, allowed = size_words(size), size_words(limit)
    if shown == allowed and size != limit:
        return f"{size:,} bytes", f"{limit:,} bytes"
    return shown, allowed

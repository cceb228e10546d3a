"""Normalises extracted text into the one string Doppel both displays and analyses.

Every format's extractor hands its raw text to `normalize_text`, so a text typed in Word, saved
as PDF, or hard-wrapped in a .txt file comes out the same (up to paragraph breaks). The rules,
and why each serves a plagiarism checker, are in docs/formats.md ("Normalisation").

The function is pure, idempotent (`normalize_text(normalize_text(x)) == normalize_text(x)`) and
built from `str.replace`, `unicodedata` and a handful of regular expressions, so it runs at
tens of MB/s on whole novels (docs/formats.md has the measurement)."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from core.documents import disguise
from core.documents.disguise import Counts, as_tampering
from core.documents.tampering import Tampering

# Quotes: a copy keeps its words but often changes quote style (Word's autocorrect turns ' into
# ’; pasting into a plain editor turns it back; a PDF keeps whichever the writer had). Mapping all
# of them to the two ASCII forms makes "don’t" and "don't" the same term.
_SINGLE_QUOTES = "\u2018\u2019\u201a\u201b\u2032\u2039\u203a\u02bc\u00b4"  # ‘ ’ ‚ ‛ ′ ‹ › ʼ ´
_DOUBLE_QUOTES = "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb"  # “ ” „ ‟ ″ « »

# Invisible characters that split words for a machine but not for a reader (zero-width space and
# joiners, word joiner, a byte-order mark left inside the text). The soft hyphen is handled on its
# own below because at a line end it marks a hyphenated word.
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"

# Control characters carry no text; tab and the line breaks are whitespace and are kept.
_CONTROLS = "".join(
    chr(c)
    for c in [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]
    if chr(c) not in "\t\n\r\x0b\x0c\x85"
)

_TRANSLATION: dict[int, str | None] = {
    **dict.fromkeys(map(ord, _SINGLE_QUOTES), "'"),
    **dict.fromkeys(map(ord, _DOUBLE_QUOTES), '"'),
    **dict.fromkeys(map(ord, _INVISIBLE + _CONTROLS), None),
    ord("\r"): "\n",
    ord("\x0b"): "\n",  # vertical tab: Word's manual line break in plain-text exports
    ord("\x85"): "\n",  # NEXT LINE
    ord("\u2028"): "\n",  # LINE SEPARATOR
    ord("\x0c"): "\n\n",  # form feed: a page break ends a paragraph
    ord("\u2029"): "\n\n",  # PARAGRAPH SEPARATOR
}

# Applied with str.replace, one character at a time and only when present: str.translate
# looks every character of a non-ASCII text up in a dict (about 40 ms per MB), while these
# characters are rare, so finding and replacing each is over ten times faster.
_REPLACEMENTS: tuple[tuple[str, str], ...] = tuple(
    (chr(code), replacement or "") for code, replacement in _TRANSLATION.items()
)

# NFKC turns ″ ‴ ⁗ into primes and ŉ into ʼn; these are the only quote-like characters NFKC can
# produce, so mapping them once more after NFKC keeps the function idempotent.
_AFTER_NFKC: dict[int, str] = {ord("\u2032"): "'", ord("\u02bc"): "'"}

_SOFT_HYPHEN_BREAK = re.compile(r"\u00ad[^\S\n]*\n[^\S\n]*")
# The patterns only match what must change (a lone space is left alone) and start with a
# specific character where they can: on a 1 MB novel this makes them several times faster.
_SPACE_RUN = re.compile(r" [^\S\n]+|[^\S\n ][^\S\n]*")
_SPACE_AT_LINE_EDGE = re.compile(r" \n ?|\n ")
# A hyphen or dash at a line end, before a word character (the one before is checked in
# _join_at_dash: a look-behind here would be tried at every position of the text).
_BREAK_AFTER_DASH = re.compile(r"[-\u2010\u2013\u2014]\n(?=\w)")
_PARAGRAPH_BREAK = re.compile(r"\n{2,}")


def _join_at_dash(match: re.Match[str]) -> str:
    start = match.start()
    before = match.string[start - 1] if start else ""
    if not (before.isalnum() or before == "_"):
        return match.group(0)  # "a list -\nitem": not attached to a word, an ordinary wrap
    dash = match.group(0)[0]
    after = match.string[match.end()]
    # "hyphen-\nated" is one word broken by the typesetter: only a true hyphen between a letter
    # and a lowercase letter is taken for that. Otherwise ("Anglo-\nSaxon", "COVID-\n19",
    # "1914–\n1918", "yes—\nno") the dash belongs to the text and the line joins without a space.
    if dash in "-\u2010" and before.isalpha() and after.isalpha() and after.islower():
        return ""
    return dash


def normalize_text(text: str) -> str:
    """The displayed-and-analysed form of `text` (rules in docs/formats.md, "Normalisation").

    Paragraphs are separated by exactly one blank line ("\\n\\n"); inside a paragraph there are
    no line breaks and no runs of spaces; the result has no leading or trailing whitespace.
    Disguises are undone (core.documents.disguise); `normalize_with_report` also says which."""
    return _normalise(text, Counter())


def normalize_with_report(
    text: str, *, undisguise: bool = True
) -> tuple[str, tuple[Tampering, ...]]:
    """`normalize_text(text)`, and the disguises undone on the way (look-alike letters folded,
    invisible characters dropped, look-alike spaces and full stops replaced), with counts.
    `undisguise=False` leaves disguises as they are (what Doppel did before it undid them: the
    evaluation measures the difference)."""
    counts: Counts = Counter()
    return _normalise(text, counts, undisguise=undisguise), as_tampering(counts)


def _normalise(text: str, counts: Counts, *, undisguise: bool = True) -> str:
    text = text.replace("\r\n", "\n")
    # ASCII holds no disguise: both stages are skipped
    ascii_only = text.isascii() or not undisguise
    if not ascii_only:
        disguise.count_dropped_invisibles(text, counts)
    for character, replacement in _REPLACEMENTS:
        if character in text:
            text = text.replace(character, replacement)
    if "\u00ad" in text:
        text = _SOFT_HYPHEN_BREAK.sub("", text).replace("\u00ad", "")
    seen: disguise.Scan | None = None
    if not ascii_only:
        seen = disguise.scan(text)
        text = disguise.undisguise_characters(text, counts, seen)
    if not unicodedata.is_normalized("NFKC", text):
        # NFKC expands ligatures (ﬁ → fi), full-width forms and compatibility spaces; invisible
        # characters are already gone so NFKC composes across the gaps they left.
        text = unicodedata.normalize("NFKC", text).translate(_AFTER_NFKC)
        seen = None  # it may have made letters of other scripts (㎞ → km)
    text = _SPACE_RUN.sub(" ", text)
    text = _SPACE_AT_LINE_EDGE.sub("\n", text)
    text = _BREAK_AFTER_DASH.sub(_join_at_dash, text)
    # Paragraphs are separated by blank lines; the line breaks left inside one are wraps.
    paragraphs = _PARAGRAPH_BREAK.split(text)
    text = "\n\n".join(paragraph.replace("\n", " ") for paragraph in paragraphs).strip()
    if not ascii_only:
        # look-alike letters last: they are judged by word and paragraph, so on the final ones
        # (whose letters are among those scanned, unless NFKC made new ones)
        text = disguise.fold_lookalikes(text, counts, seen)
    return text

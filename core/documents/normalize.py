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

# Whitespace is tidied in passes over the whole text, each as cheap as its job allows: `re`
# finds a pattern that starts with a fixed string by a fast string search, but one that starts
# with a class is tried at every position (on the nine test novels, 5 MB, the four passes took
# 0.3 s this way, and 0.07 s as below).
#
# After the replacements and NFKC, the only whitespace a text can hold is the space, "\n" and
# these (every other character of str.isspace, which is also `re`'s \s, is replaced above or
# made a space by NFKC; tests/core/test_normalize_passes.py checks every code point). A text
# without them needs only runs of spaces collapsed, a search for a fixed "  ".
WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)  # every character of str.isspace (and of `re`'s \s), in code point order
_OTHER_SPACES = "".join(
    c
    for c in WHITESPACE
    if c not in " \n" and ord(c) not in _TRANSLATION and unicodedata.normalize("NFKC", c) == c
)  # "\t" and U+1680 OGHAM SPACE MARK
# Runs of whitespace inside a line that are not a lone space, made one space (a lone space is
# left alone: the pattern only matches what must change).
_SPACE_RUN = re.compile(r" [^\S\n]+|[^\S\n ][^\S\n]*")
_SPACES = re.compile("  +")  # the same, when the space is a line's only whitespace
# A hyphen or dash at a line end, before a word character (the one before is checked in
# _join_at_dash: a look-behind here would be tried at every position of the text). One pattern
# per dash, so each starts with a fixed string: their matches never overlap, and one
# replacement changes no character another reads (_join_at_dash reads the characters either
# side of "dash + line break", and keeps the dash whenever a line break or dash is before it).
_DASHES = "-\u2010\u2013\u2014"
_BREAK_AFTER_DASH = tuple(
    (f"{dash}\n", re.compile(f"{re.escape(dash)}\n(?=\\w)")) for dash in _DASHES
)
_PARAGRAPH_BREAK = re.compile(r"\n\n+")  # (not \n{2,}: that starts with no fixed string)
# A character the replacements removed (a control character), so free to stand for a
# paragraph break while the line breaks inside paragraphs become spaces.
_PLACEHOLDER = "\x00"


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
    text = _tidy_whitespace(text)
    if not ascii_only:
        # look-alike letters last: they are judged by word and paragraph, so on the final ones
        # (whose letters are among those scanned, unless NFKC made new ones)
        text = disguise.fold_lookalikes(text, counts, seen)
    return text


def _tidy_whitespace(text: str) -> str:
    """`text` (whose only whitespace is the space, "\n" and _OTHER_SPACES) with each line's
    runs of whitespace made one space and its edges stripped, the line breaks after a hyphen
    taken out where they split a word (`_join_at_dash`), each paragraph made one line, and
    the paragraphs separated by one blank line."""
    if any(space in text for space in _OTHER_SPACES):
        text = _SPACE_RUN.sub(" ", text)
    elif "  " in text:
        text = _SPACES.sub(" ", text)
    # No two spaces are next to each other now: a space at a line's edge is one space.
    text = text.replace(" \n", "\n").replace("\n ", "\n")
    for dash_break, pattern in _BREAK_AFTER_DASH:
        if dash_break in text:
            text = pattern.sub(_join_at_dash, text)
    # Paragraphs are separated by blank lines; the line breaks left inside one are wraps.
    if _PLACEHOLDER in text:  # (cannot be: the replacements removed it; kept for safety)
        paragraphs = _PARAGRAPH_BREAK.split(text)
        return "\n\n".join(paragraph.replace("\n", " ") for paragraph in paragraphs).strip()
    text = _PARAGRAPH_BREAK.sub(_PLACEHOLDER, text).replace("\n", " ")
    return text.replace(_PLACEHOLDER, "\n\n").strip()

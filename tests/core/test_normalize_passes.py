"""Normalisation's whitespace passes (`normalize._tidy_whitespace`: searches for fixed strings,
one pattern per dash, a placeholder for paragraph breaks) against the four whole-text passes
they replaced, kept here as the oracle; and the fact they rely on, checked on every code point:
after the replacements and NFKC, a text's only whitespace is " ", "\\n" and `_OTHER_SPACES`."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.documents import disguise, normalize
from core.documents.normalize import normalize_with_report

# -- The former passes (the oracle) ---------------------------------------------------------------

_FORMER_SPACE_RUN = re.compile(r" [^\S\n]+|[^\S\n ][^\S\n]*")
_FORMER_SPACE_AT_LINE_EDGE = re.compile(r" \n ?|\n ")
_FORMER_BREAK_AFTER_DASH = re.compile(r"[-\u2010\u2013\u2014]\n(?=\w)")
_FORMER_PARAGRAPH_BREAK = re.compile(r"\n{2,}")


def former_tidy(text: str) -> str:
    text = _FORMER_SPACE_RUN.sub(" ", text)
    text = _FORMER_SPACE_AT_LINE_EDGE.sub("\n", text)
    text = _FORMER_BREAK_AFTER_DASH.sub(normalize._join_at_dash, text)
    paragraphs = _FORMER_PARAGRAPH_BREAK.split(text)
    return "\n\n".join(paragraph.replace("\n", " ") for paragraph in paragraphs).strip()


def former_normalise(text: str, *, undisguise: bool = True) -> tuple[str, Counter[object]]:
    """`normalize._normalise` as it was, with the former passes."""
    counts: disguise.Counts = Counter()
    text = text.replace("\r\n", "\n")
    ascii_only = text.isascii() or not undisguise
    if not ascii_only:
        disguise.count_dropped_invisibles(text, counts)
    for character, replacement in normalize._REPLACEMENTS:
        if character in text:
            text = text.replace(character, replacement)
    if "\u00ad" in text:
        text = normalize._SOFT_HYPHEN_BREAK.sub("", text).replace("\u00ad", "")
    seen: disguise.Scan | None = None
    if not ascii_only:
        seen = disguise.scan(text)
        text = disguise.undisguise_characters(text, counts, seen)
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text).translate(normalize._AFTER_NFKC)
        seen = None
    text = former_tidy(text)
    if not ascii_only:
        text = disguise.fold_lookalikes(text, counts, seen)
    return text, Counter(counts)


# -- The fact the fast passes rely on -------------------------------------------------------------


def test_whitespace_is_every_space_character_of_python_and_re() -> None:
    every = {chr(c) for c in range(0x110000) if chr(c).isspace()}
    assert set(normalize.WHITESPACE) == every
    assert every == {chr(c) for c in range(0x110000) if re.fullmatch(r"\s", chr(c))}


def test_only_the_other_spaces_survive_the_replacements_and_nfkc() -> None:
    """Each whitespace character is replaced, made " " by NFKC, or one of " \\n" and
    _OTHER_SPACES; and NFKC makes no whitespace but " " out of any character."""
    assert normalize._OTHER_SPACES == "\t\u1680"
    for space in normalize.WHITESPACE:
        replaced = ord(space) in normalize._TRANSLATION
        nfkc = unicodedata.normalize("NFKC", space)
        assert replaced or nfkc == " " or space in " \n" + normalize._OTHER_SPACES
    for code in range(0x110000):
        nfkc = unicodedata.normalize("NFKC", chr(code))
        if nfkc != chr(code):
            assert all(c == " " or not c.isspace() for c in nfkc), hex(code)


def test_the_placeholder_is_removed_by_the_replacements() -> None:
    assert normalize._TRANSLATION[ord(normalize._PLACEHOLDER)] is None


# -- Hypothesis: the same text, the same report ----------------------------------------------------

_PIECES = [
    "a", "B", "word", "É", "ß", "_", "1", "19", "x", "é", "Ω",
    "-", "\u2010", "\u2013", "\u2014", "--", "'", ".", ",", "!", "\x00",
    " ", "  ", "\t", "\u1680", "\xa0", "\u2003", "\u3000", "\n", "\n\n", "\n \n", " \n ",
    "\r\n", "\r", "\x0b", "\x0c", "\x85", "\u2028", "\u2029", "\u00ad", "\u200b", "ﬁ", "а",
]  # fmt: skip
spacey_text = st.lists(st.sampled_from(_PIECES), max_size=50).map("".join)
# what _tidy_whitespace is given: any characters, whitespace only " ", "\n" and the others
_ALLOWED_SPACES = " \n" + normalize._OTHER_SPACES
tidy_input = st.text(
    alphabet=st.one_of(
        st.sampled_from([*_ALLOWED_SPACES, "-", "\u2010", "\u2013", "\u2014", "\x00", "a", "B"]),
        st.characters(blacklist_characters=normalize.WHITESPACE),
    ),
    max_size=60,
)


@settings(max_examples=600, deadline=None)
@given(tidy_input)
@example("a-\nb\u2014\nc \n\n\n d\t\te")
@example("x-\n\u2014\ny\u2013\nz-\n-\nw")
@example("a\x00b\n\nc")
@example("\u1680 a  b \n c")
def test_tidy_whitespace_is_the_former_passes(text: str) -> None:
    assert normalize._tidy_whitespace(text) == former_tidy(text)


@settings(max_examples=400, deadline=None)
@given(st.one_of(spacey_text, st.text()), st.booleans())
@example("hyphen-\nated line\u2014\nend 1914\u2013\n1918 list -\nitem\n\n\n\npara", True)
def test_normalisation_is_the_former_one(text: str, undisguise: bool) -> None:
    expected_text, expected_counts = former_normalise(text, undisguise=undisguise)
    found_text, found_report = normalize_with_report(text, undisguise=undisguise)
    assert found_text == expected_text
    assert found_report == disguise.as_tampering(expected_counts)  # type: ignore[arg-type]

"""normalize_text: each rule on examples; its invariants, idempotence included, by Hypothesis.

The disguise rules it applies have their own tests (test_disguise.py); here they are part of
the invariants."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.documents.normalize import normalize_text, normalize_with_report


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # ligatures and other compatibility forms (NFKC)
        ("the ﬁrst ﬂoor ﬀ", "the first floor ff"),
        ("Ｆｕｌｌｗｉｄｔｈ １２３", "Fullwidth 123"),
        ("x² H₂O", "x2 H2O"),
        ("e\u0301te\u0301", "été"),  # decomposed accents composed
        ("\u2026", "..."),
        # quotes: typographic and straight treated alike
        ("‘single’ ‚low‛ it’s don′t", "'single' 'low' it's don't"),
        ("“double” „low‟ 12″ «guillemets» ‹angle›", '"double" "low" 12" "guillemets" \'angle\''),
        ("rock ʼn´ roll", "rock 'n' roll"),
        ("ŉ", "'n"),  # NFKC gives ʼn: still an apostrophe
        # invisible characters removed, non-breaking spaces made spaces
        ("zero\u200bwidth\u200c join\u200d\u2060ers\ufeff", "zerowidth joiners"),
        ("soft\u00adhyphen", "softhyphen"),
        ("non\u00a0breaking\u202fspaces\u2007here", "non breaking spaces here"),
        ("ctrl\x00\x07chars\x7f\x9b", "ctrlchars"),
        # line ends
        ("a\r\nb\rc\n", "a b c"),
        ("one\r\n\r\ntwo", "one\n\ntwo"),
        ("line\u2028sep\u2029para", "line sep\n\npara"),
        ("page\x0cbreak", "page\n\nbreak"),
        # hyphenation across a line end
        ("hyphen-\nated", "hyphenated"),
        ("hyphen-  \n   ated", "hyphenated"),
        ("soft\u00ad\nhyphen", "softhyphen"),
        ("Anglo-\nSaxon", "Anglo-Saxon"),  # capital follows: a real hyphen, kept
        ("COVID-\n19", "COVID-19"),
        ("pages 10-\n20", "pages 10-20"),
        ("1914–\n1918", "1914–1918"),
        ("yes—\nno", "yes—no"),
        ("a list -\nitem", "a list - item"),  # no letter before the hyphen
        ("end-\n\nnext", "end-\n\nnext"),  # a paragraph break is never joined
        # hard wraps inside paragraphs, paragraph breaks kept as exactly one blank line
        ("one\ntwo\nthree", "one two three"),
        ("para one\nwrapped\n\n\n\npara two", "para one wrapped\n\npara two"),
        ("para one\n  \t \npara two", "para one\n\npara two"),
        # spaces
        ("  lots   of\t\tspace  ", "lots of space"),
        ("\n\n\nleading and trailing\n\n\n", "leading and trailing"),
        ("", ""),
        (" \n\t ", ""),
    ],
)
def test_rule(raw: str, expected: str) -> None:
    assert normalize_text(raw) == expected


# Characters the rules act on, so Hypothesis exercises them often.
_TRICKY = (
    "aAzZéü1 -\u2010\u2013\u2014\n\r\t\u00a0\u00ad\u200b\u200d\ufeff\u2028\u2029\x0c\x0b\x85"
    "'\"‘’“”″‴ʼŉ«»ﬁﬂ\u0301\u0308\u0345ᄀ가ㄱ²Ｆ\u3000\x00"
)
# ... and those the disguise rules act on (core.documents.disguise): look-alike letters of
# several scripts, with letters that are evidence of each (t, д, λ), invisible characters,
# blanks and full stops of other scripts, and the letters that make some of them genuine
_DISGUISES = (
    "tdkmcoepxyiITHBKM аАеЕоОсСрРхХуКМТНВіјѕһԁдж ρΡοΟνΝαΑιΙγμδλ ꓮᎪ օսհն ё й ë "
    "\u034f\u3164\uffa0\u115f\u1160\U000e0041\U000e007f\U0001f3f4\ufe0f\ufe00\U000e0100\u180e"
    "\u1820\u180b\u2061\u2062\u2800\u2801\u0589\u1362\u3002\uff61\u2024\ufe52\uff0e\u0660"
    "\u06f0\u06d4 中文 ש ع \u200c\u200e\u202e\u206a\u17b4\u1780 ."
)
tricky_text = st.text(alphabet=st.sampled_from(_TRICKY), max_size=60)
disguised_text = st.text(alphabet=st.sampled_from(_TRICKY + _DISGUISES), max_size=60)


@settings(max_examples=500)
@given(st.one_of(st.text(), tricky_text, disguised_text))
@example("e\u200b\u0301")  # removing the invisible character lets NFKC compose
@example("α-\n\u0345")  # ypogegrammeni is "lowercase" but not a letter: no join
@example("a-\nb-\nc")
@example("‴")  # NFKC turns it into primes
@example("Aᅟ。")  # the filler goes, and with it the only Hangul of the sentence
@example("dհ։")  # the Armenian letter is folded, so the Armenian full stop is foreign
@example("⠀︀")  # a variation selector after a blank
@example("Νԁ.Α")  # folding "ԁ" (not a letter Russian uses) must not change the paragraph's script
@example("Á٠")  # an accent before a dot
@example("Á\u200eA")  # a mark inside a word
@example("А\u2029A.ԁ")  # a paragraph of look-alikes only takes its script from its neighbour
def test_idempotent(text: str) -> None:
    once = normalize_text(text)
    assert normalize_text(once) == once


@settings(max_examples=1000)
@given(st.one_of(tricky_text, disguised_text))
def test_report_matches_text_and_nothing_is_left_to_undo(text: str) -> None:
    """normalize_with_report gives normalize_text's text; normalising it again finds no
    disguise (every one was undone the first time)."""
    once, _ = normalize_with_report(text)
    assert once == normalize_text(text)
    assert normalize_with_report(once) == (once, ())


def test_undisguise_off_is_the_old_normalisation() -> None:
    text = "The c\u0430t s\u0430t\u2800on the m\u0430t\u3002"
    assert normalize_with_report(text, undisguise=False) == (text, ())
    assert normalize_with_report(text)[0] == "The cat sat on the mat."


@settings(max_examples=500)
@given(st.one_of(st.text(), tricky_text, disguised_text))
def test_output_shape(text: str) -> None:
    out = normalize_text(text)
    assert out == out.strip()
    assert "\r" not in out and "\n\n\n" not in out
    assert not re.search(r"(?<!\n)\n(?!\n)", out)  # every line break is a paragraph break
    assert not re.search(r"[^\S\n]{2,}|[^\S ]", out.replace("\n\n", ""))  # single plain spaces
    assert not re.search(r" \n|\n ", out)
    assert not set(out) & set("‘’‚‛“”„‟«»\u00ad\u200b\ufeff\x00")


words = st.lists(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789.,;:!?", min_size=1),
    max_size=30,
)
separators = st.sampled_from([" ", "  ", "\t", "\n", " \n ", "\r\n"])


@given(words, st.data())
def test_plain_words_survive_unchanged(word_list: list[str], data: st.DataObject) -> None:
    """Without hyphens, quotes or special characters, only the whitespace between words may
    change, and never into nothing."""
    text = "".join(w + data.draw(separators) for w in word_list)
    assert normalize_text(text).split() == text.split()

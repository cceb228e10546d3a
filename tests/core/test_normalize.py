"""normalize_text: each rule on examples; its invariants, idempotence included, by Hypothesis."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.documents.normalize import normalize_text


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
tricky_text = st.text(alphabet=st.sampled_from(_TRICKY), max_size=60)


@settings(max_examples=500)
@given(st.one_of(st.text(), tricky_text))
@example("e\u200b\u0301")  # removing the invisible character lets NFKC compose
@example("α-\n\u0345")  # ypogegrammeni is "lowercase" but not a letter: no join
@example("a-\nb-\nc")
@example("‴")  # NFKC turns it into primes
def test_idempotent(text: str) -> None:
    once = normalize_text(text)
    assert normalize_text(once) == once


@settings(max_examples=500)
@given(st.one_of(st.text(), tricky_text))
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

"""Sentence records: NLTK Punkt sentences with character spans, and their terms.

A term is a word token (at least one letter or digit), case-folded, that is not a stop word
(spec §1). Every sentence and term keeps its `[start, end)` span into the document text, which
is the same string the viewer shows.

`split_sentences` cuts the text into paragraphs at blank lines (always a sentence boundary),
lets the language's Punkt model split each paragraph, and keeps only segments with at least one
letter or digit: a separator such as "* * *" or a lone "—" is not a sentence a teacher would
recognise, and as a sentence of length 0 it would make unrelated documents that share a
separator style look alike. `word_spans` finds the word tokens: runs of letters, digits and
combining marks, joined across an internal apostrophe or hyphen ("don't", "well-known") and,
between digits, across "." or "," ("3.14", "1,000"). See docs/languages.md."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.documents.language import Language


@dataclass(frozen=True, slots=True)
class Term:
    text: str  # case-folded form used for keys
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Sentence:
    index: int  # position among the document's sentences
    start: int
    end: int
    terms: tuple[Term, ...]

    @property
    def length(self) -> int:
        """ℓ: the number of terms (words left after stop-word removal)."""
        return len(self.terms)


def _combining_marks_class() -> str:
    """A regex class body of every combining mark (Unicode category M*) in planes 0 and 1,
    so a decomposed "é" or a vowel sign stays inside its word. Built once, ~15 ms."""
    ranges: list[tuple[int, int]] = []
    for cp in range(0x20000):
        if unicodedata.category(chr(cp)).startswith("M"):
            if ranges and ranges[-1][1] == cp - 1:
                ranges[-1] = (ranges[-1][0], cp)
            else:
                ranges.append((cp, cp))
    return "".join(f"\\U{a:08x}-\\U{b:08x}" if a != b else f"\\U{a:08x}" for a, b in ranges)


_PIECE = rf"[^\W_]+(?:[{_combining_marks_class()}]+[^\W_]*)*"  # letters/digits (+ marks)
_JOINER = r"(?:['\-\u2010\u2011]|(?<=\d)[.,](?=\d))"  # ' and hyphens; . and , inside numbers
_WORD = re.compile(rf"{_PIECE}(?:{_JOINER}{_PIECE})*")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")  # a blank (or whitespace-only) line


def word_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """The `[start, end)` spans of the word tokens in `text[start:end]`, absolute in `text`."""
    stop = len(text) if end is None else end
    return [m.span() for m in _WORD.finditer(text, start, stop)]


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    """The `[start, end)` spans of the paragraphs of `text`: the non-empty runs between blank
    (or whitespace-only) lines."""
    spans = []
    position = 0
    for brk in _PARAGRAPH_BREAK.finditer(text):
        spans.append((position, brk.start()))
        position = brk.end()
    spans.append((position, len(text)))
    return [(a, b) for a, b in spans if a < b]


def split_sentences(
    text: str, language: Language, *, remove_stopwords: bool = True
) -> tuple[Sentence, ...]:
    """The sentences of `text` with their terms, spans absolute in `text`, indexed 0..n-1.

    Paragraph breaks always end a sentence; inside a paragraph Punkt decides. Segments with
    no letter or digit are dropped. Terms are the case-folded word tokens, without the
    language's stop words when `remove_stopwords`."""
    finditer = _WORD.finditer
    is_stopword: Callable[[str], bool] | None = None
    if remove_stopwords:
        # the plain set lookup is the fast path; Greek needs its accent-blind lookup
        is_stopword = (
            language.is_stopword if language.accent_insensitive else language.stopwords.__contains__
        )
    sentences: list[Sentence] = []
    for para_start, para_end in paragraph_spans(text):
        for rel_start, rel_end in language.span_tokenize(text[para_start:para_end]):
            start, end = para_start + rel_start, para_start + rel_end
            words = [(m.group().casefold(), *m.span()) for m in finditer(text, start, end)]
            if not words:
                continue  # no letter or digit: not a sentence
            if is_stopword is not None:
                words = [w for w in words if not is_stopword(w[0])]
            terms = tuple([Term(*w) for w in words])
            sentences.append(Sentence(len(sentences), start, end, terms))
    return tuple(sentences)

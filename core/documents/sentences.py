"""Sentence records: NLTK Punkt sentences with character spans, and their terms.

A term is a word token (at least one letter or digit), case-folded, that is not a stop word
(spec §1). Every sentence and term keeps its `[start, end)` span into the document text, which
is the same string the viewer shows.

`split_sentences` cuts the text into paragraphs at blank lines (always a sentence boundary),
lets the language's Punkt model split each paragraph, joins back the Punkt pieces that do not
start a sentence (`join_reason`: a lowercase continuation such as the dialogue tag in '"Is it
you?" cried his wife', a list marker "2." cut off its item, the number after "Fig." or "No.",
what follows "e.g."), and keeps only segments with at least one letter or digit: a separator
such as "* * *" or a lone "—" is not a sentence a teacher would recognise, and as a sentence of
length 0 it would make unrelated documents that share a separator style look alike.
`word_spans` finds the word tokens: runs of letters, digits and combining marks, joined across
an internal apostrophe or hyphen ("don't", "well-known") and, between digits, across "." or ","
("3.14", "1,000"). See docs/languages.md."""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from collections.abc import Iterable

    from core.documents.language import Language


@dataclass(frozen=True, slots=True)
class Term:
    """One term of a sentence as a record of its own (`Sentence.terms`)."""

    text: str  # case-folded form used for keys
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence's span and its terms, held as three parallel tuples (the terms' case-folded
    texts and their `[start, end)` spans): the nine test novels hold 439,000 terms, and three
    tuples per sentence cost a fraction of a record per term to make, store and read back."""

    index: int  # position among the document's sentences
    start: int
    end: int
    term_texts: tuple[str, ...]  # case-folded form used for keys, in text order
    term_starts: tuple[int, ...]
    term_ends: tuple[int, ...]

    def __post_init__(self) -> None:
        if not len(self.term_texts) == len(self.term_starts) == len(self.term_ends):
            raise ValueError("a sentence needs as many term starts and ends as term texts")

    @classmethod
    def from_terms(cls, index: int, start: int, end: int, terms: Iterable[Term]) -> Sentence:
        """The sentence holding `terms` (in text order)."""
        listed = list(terms)
        return cls(
            index,
            start,
            end,
            tuple([t.text for t in listed]),
            tuple([t.start for t in listed]),
            tuple([t.end for t in listed]),
        )

    @property
    def terms(self) -> tuple[Term, ...]:
        """The terms as `Term` records (made on each call: the hot paths read the tuples)."""
        return tuple(map(Term, self.term_texts, self.term_starts, self.term_ends))

    @property
    def length(self) -> int:
        """ℓ: the number of terms (words left after stop-word removal)."""
        return len(self.term_texts)


# `_sentences` makes a document's records in bulk, with tuples of equal length by construction:
# it sets the six slots through their descriptors, as the frozen dataclass's `__init__` does
# through six `object.__setattr__` calls and a length check (~1 µs of 2 a sentence; 51,000
# sentences in the nine test novels).
_SENTENCE_SLOTS = tuple(getattr(Sentence, field.name).__set__ for field in fields(Sentence))


def _sentence(
    index: int,
    start: int,
    end: int,
    term_texts: tuple[str, ...],
    term_starts: tuple[int, ...],
    term_ends: tuple[int, ...],
) -> Sentence:
    """`Sentence(index, start, end, term_texts, term_starts, term_ends)`, for tuples known to
    be of one length."""
    sentence = object.__new__(Sentence)
    set_index, set_start, set_end, set_texts, set_starts, set_ends = _SENTENCE_SLOTS
    set_index(sentence, index)
    set_start(sentence, start)
    set_end(sentence, end)
    set_texts(sentence, term_texts)
    set_starts(sentence, term_starts)
    set_ends(sentence, term_ends)
    return sentence


def _combining_marks_class(first: int, stop: int) -> str:
    """A regex class body of every combining mark (Unicode category M*) from code point
    `first` to `stop` (excluded), so a decomposed "é" or a vowel sign stays inside its word.
    Built once, ~15 ms."""
    ranges: list[tuple[int, int]] = []
    for cp in range(first, stop):
        if unicodedata.category(chr(cp)).startswith("M"):
            if ranges and ranges[-1][1] == cp - 1:
                ranges[-1] = (ranges[-1][0], cp)
            else:
                ranges.append((cp, cp))
    return "".join(f"\\U{a:08x}-\\U{b:08x}" if a != b else f"\\U{a:08x}" for a, b in ranges)


# A combining mark of plane 0 or 1. Two classes, as `re` tests a class of plane-0 characters
# with one table look-up but one holding plane-1 characters range by range (~300 ranges), and
# the class is tried after every word: the plane-1 class is only tried on plane-1 characters.
_MARK = (
    rf"(?:[{_combining_marks_class(0, 0x10000)}]"
    rf"|(?=[\U00010000-\U0001ffff])[{_combining_marks_class(0x10000, 0x20000)}])"
)
# The quantifiers are possessive (`++`, `*+`: what they took is never given back), which
# spares `re` keeping the places to backtrack to; it never would: letters, marks and joiners
# are disjoint classes and everything after a piece is optional, so the matches are the same.
_PIECE = rf"[^\W_]++(?:{_MARK}++[^\W_]*+)*+"  # letters/digits (+ marks)
_JOINER = r"(?:['\-\u2010\u2011]|(?<=\d)[.,](?=\d))"  # ' and hyphens; . and , inside numbers
_WORD = re.compile(rf"{_PIECE}(?:{_JOINER}{_PIECE})*+")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")  # a blank (or whitespace-only) line

# The same pattern as one capturing group: `re.split` then hands back the text cut into
# alternating runs of non-word characters and words, whose lengths give every word's span
# without a match object per word (`_split_words`). On ASCII text (nearly every sentence of
# an English text, once normalised) it is the same as the ASCII pattern, which `re` runs ~1.6×
# faster (a class of ASCII characters is one bitmap test, `\w` a Unicode look-up): in ASCII,
# `[^\W_]` is [A-Za-z0-9], `\d` is [0-9], and no character is a combining mark or a Unicode
# hyphen.
_WORD_SPLIT = re.compile(f"({_WORD.pattern})")
_ASCII_PIECE = r"[A-Za-z0-9]++"
_ASCII_WORD_SPLIT = re.compile(
    rf"({_ASCII_PIECE}(?:(?:['\-]|(?<=[0-9])[.,](?=[0-9])){_ASCII_PIECE})*+)"
)


def _split_words(text: str, offset: int = 0) -> tuple[list[str], list[int], list[int]]:
    """The word tokens of `text` (as written), their starts and their ends, plus `offset`.

    One pass of the pattern: `parts` alternates non-words and words, [gap, word, gap, ...,
    word, gap], so word k is `parts[2k + 1]` and the running sum of the lengths gives where
    each part starts. The words are exactly `_WORD.finditer`'s matches (the same pattern,
    scanned the same way; it cannot match the empty string)."""
    parts = (_ASCII_WORD_SPLIT if text.isascii() else _WORD_SPLIT).split(text)
    positions = list(itertools.accumulate(map(len, parts), initial=offset))
    return parts[1::2], positions[1:-1:2], positions[2::2]


def word_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """The `[start, end)` spans of the word tokens in `text[start:end]`, absolute in `text`."""
    _, starts, ends = _split_words(text[start:end], start)
    return list(zip(starts, ends, strict=True))


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


# -- Joining Punkt pieces that do not start a sentence ------------------------------------------

# What may follow a sentence's end mark inside the sentence: closing quotes and brackets.
_CLOSERS = frozenset("\"')]}»”’›")

# Abbreviations that introduce the rest of their sentence and so never end one ("for example",
# "that is", "compare"), case-folded, without the final period. Punkt models trained on news
# text miss some (the English one knows none of the first four), and a capital after one is then
# taken for a new sentence: "Many cities, e.g. London, ...". One set for every language: none of
# them is a word in another shipped language.
NEVER_FINAL = frozenset(
    {
        "e.g", "i.e", "cf", "viz",  # English (Latin)
        "z.b", "d.h", "bzw", "vgl",  # German
        "p.ex", "p.ej", "t.ex", "f.eks",  # French/Portuguese, Spanish, Swedish, Danish/Norwegian
        "bijv", "np", "např", "npr",  # Dutch, Polish, Czech, Slovene
        "esim", "örn", "т.е", "напр", "π.χ",  # Finnish, Turkish, Russian, Greek
    }
)  # fmt: skip

# Abbreviations that stand before a number ("Fig. 3", "No. 5", "pp. 45", "et al. (2010)"): a
# piece that starts with a digit after one of them continues the sentence. Only before a digit,
# so that "no" and "art", which are words too, still end a sentence before anything else.
BEFORE_NUMBER = frozenset(
    {
        "no", "nos", "nr", "fig", "figs", "pp", "vol", "vols", "ch", "chap", "sec", "sect",
        "eq", "eqs", "tab", "art", "ca", "approx", "al", "op",
        "abb", "kap", "cap", "pag", "pág", "núm", "blz", "obr", "rys", "рис", "стр",
    }
)  # fmt: skip

# The word before a piece's final "." (a dotted abbreviation whole: "e.g", "z.B"), not the end
# of a longer run of letters and digits.
_LAST_WORD = re.compile(r"(?<![^\W_])[^\W\d_]+(?:\.[^\W\d_]+)*(?=\.\Z)")
# A piece that is only a list marker, "2.", "iv.", "B.": Punkt cuts it off "2. Remove the lid."
_ROMAN = r"(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3})"
_MARKER = re.compile(rf"(?:\d{{1,3}}|{_ROMAN}|{_ROMAN.upper()}|[^\W\d_])\.")


def _first_letter(text: str, start: int, end: int) -> str:
    """The first character of the first word token in `text[start:end]` ("" if none)."""
    if text[start].isalnum():
        return text[start]
    match = _WORD.search(text, start, end)
    return text[match.start()] if match else ""


def _end_mark(text: str, start: int, end: int) -> str:
    """The mark that ends `text[start:end]` (non-empty), behind closing quotes and brackets."""
    position = end - 1
    while position > start and text[position] in _CLOSERS:
        position -= 1
    return text[position]


def _is_marker(text: str, start: int, end: int) -> bool:
    return end - start <= 5 and _MARKER.fullmatch(text, start, end) is not None


def _caseless_reason(
    text: str, piece: tuple[int, int], following: tuple[int, int], letter: str
) -> str | None:
    """The rules of `join_reason` that do not depend on letter case; "item" when `following`
    is a list marker (it starts a sentence whatever its case), None when case decides.
    `letter` is `_first_letter` of `following`."""
    a_start, a_end = piece
    b_start, b_end = following
    if _is_marker(text, a_start, a_end):
        return "marker"
    if text[a_end - 1] == ".":
        last = _LAST_WORD.search(text, max(a_start, a_end - 12), a_end)
        if last is not None:
            word = last.group().casefold()
            if word in NEVER_FINAL:
                return "abbreviation"
            if word in BEFORE_NUMBER and letter.isdigit():
                opening = text[b_start] in "(["
                if text[b_start + opening].isdigit():
                    return "number"  # "Fig. 2." too, though "2." alone looks like a marker
    return "item" if _is_marker(text, b_start, b_end) else None


def _survey(
    text: str, pieces: list[tuple[int, int]], firsts: list[bool]
) -> tuple[bool, list[str | None], list[str]]:
    """Whether the writer uses sentence capitals (see `uses_sentence_capitals`), and what
    `join_reason` needs to know about each piece and the one before it, each worked out once:
    its case-free reason (None for a paragraph's first piece) and its first letter.

    `pieces` are the pieces of every paragraph in one list (one container for the whole text,
    not one per paragraph: fewer objects for the cyclic garbage collector to trace), and
    `firsts` says which of them starts a paragraph."""
    upper = lower = 0
    reasons: list[str | None] = []
    letters: list[str] = []
    previous = (0, 0)
    for piece, first in zip(pieces, firsts, strict=True):
        letter = _first_letter(text, *piece)
        reason = None
        if first:
            upper += letter.isupper()
            lower += letter.islower()
        else:
            reason = _caseless_reason(text, previous, piece, letter)
            if reason is None and _end_mark(text, *previous) == ".":
                upper += letter.isupper()
                lower += letter.islower()
        reasons.append(reason)
        letters.append(letter)
        previous = piece
    return upper >= lower, reasons, letters


def _flat(pieces: list[list[tuple[int, int]]]) -> tuple[list[tuple[int, int]], list[bool]]:
    """Pieces listed by paragraph as one list, and which of them starts a paragraph."""
    flat = [piece for paragraph in pieces for piece in paragraph]
    firsts = [index == 0 for paragraph in pieces for index in range(len(paragraph))]
    return flat, firsts


def uses_sentence_capitals(text: str, pieces: list[list[tuple[int, int]]]) -> bool:
    """Whether the writer starts sentences with a capital letter, judged on Punkt's `pieces`
    (non-empty lists of non-empty spans, one list per paragraph, absolute in `text`).

    The first letters of the pieces that start a paragraph or follow a piece ending in "."
    decide: capitals when the uppercase ones are at least as many as the lowercase ones (a tie,
    or no cased letter at all, counts as capitals). A writer who uses capitals starts those
    pieces with one, since Punkt ends a piece at a period before a capital: 99.7-100% of them
    in the nine test novels, against 11-25% when only names and "I" keep their capitals and 0%
    in all lowercase. Pieces after "?" and "!" are left out (dialogue tags start lowercase), and
    so are those a case-free rule of `join_reason` joins (after "e.g.")."""
    return _survey(text, *_flat(pieces))[0]


def _reason(caseless: str | None, letter: str, capitals: bool) -> str | None:
    if caseless is not None:
        return None if caseless == "item" else caseless
    return "lowercase" if capitals and letter.islower() else None


def join_reason(
    text: str, piece: tuple[int, int], following: tuple[int, int], capitals: bool
) -> str | None:
    """Why the Punkt piece `following` continues the sentence of the piece `piece` just before
    it (non-empty spans absolute in `text`, one paragraph), or None when `following` starts a
    sentence of its own:

    - "marker": `piece` is only a list marker ("2.", "iv.", "b."), cut off its item; while a
      `following` that is a marker starts a sentence whatever else holds;
    - "abbreviation": `piece` ends in an abbreviation that never ends a sentence (NEVER_FINAL);
    - "number": `piece` ends in an abbreviation that stands before a number (BEFORE_NUMBER) and
      `following` starts with a digit, or with "(" or "[" and a digit;
    - "lowercase": the first word of `following` starts with a lowercase letter (str.islower,
      so any cased script; a letter without case never joins, nor does a digit) and the writer
      uses sentence capitals (`capitals`, see `uses_sentence_capitals`).

    Punkt ends a piece only at ".", "?" or "!" (and Greek ";"), perhaps followed by closing
    quotes or brackets, so these are the only marks a joined piece can follow."""
    letter = _first_letter(text, *following)
    return _reason(_caseless_reason(text, piece, following, letter), letter, capitals)


def sentence_spans(text: str, language: Language) -> list[tuple[int, int]]:
    """The `[start, end)` spans of the sentences of `text`, before segments without a letter or
    digit are dropped: the language's Punkt pieces of each paragraph, each joined to the one
    before where `join_reason` says it continues that sentence."""
    pieces: list[tuple[int, int]] = []
    firsts: list[bool] = []
    for start, end in paragraph_spans(text):
        found = language.span_tokenize(text[start:end])
        if found:
            pieces.extend([(start + a, start + b) for a, b in found] if start else found)
            firsts.append(True)
            firsts.extend(itertools.repeat(False, len(found) - 1))
    if not pieces:
        return []
    capitals, reasons, letters = _survey(text, pieces, firsts)
    spans: list[tuple[int, int]] = []
    start, end = pieces[0]
    for (following_start, following_end), first, caseless, letter in itertools.islice(
        zip(pieces, firsts, reasons, letters, strict=True), 1, None
    ):
        if first or _reason(caseless, letter, capitals) is None:
            spans.append((start, end))
            start = following_start
        end = following_end
    spans.append((start, end))
    return spans


def split_sentences(
    text: str, language: Language, *, remove_stopwords: bool = True
) -> tuple[Sentence, ...]:
    """The sentences of `text` with their terms, spans absolute in `text`, indexed 0..n-1.

    Paragraph breaks always end a sentence; inside a paragraph Punkt decides, and a piece that
    does not start a sentence is joined to the one before (`sentence_spans`, `join_reason`).
    Segments with no letter or digit are dropped. Terms are the case-folded word tokens,
    without the language's stop words when `remove_stopwords`."""
    return _sentences(text, sentence_spans(text, language), language, remove_stopwords)


def _sentences(
    text: str, spans: list[tuple[int, int]], language: Language, remove_stopwords: bool
) -> tuple[Sentence, ...]:
    """The records of the sentences at `spans`: each sentence's words as `word_spans` finds
    them, case-folded one by one, the stop words left out, equal terms one string object.
    Every step runs over a whole sentence in C (map, compress), none per word in Python."""
    split, ascii_split = _WORD_SPLIT.split, _ASCII_WORD_SPLIT.split
    casefold = str.casefold
    compress, accumulate = itertools.compress, itertools.accumulate
    # One string object per distinct word of the document: `known.setdefault(word, word)` is
    # the word's first occurrence. The terms then point at a few thousand strings, not at
    # hundreds of thousands (a novel's 100,000 terms, 10,000 distinct), which is what the
    # later stages read again and again (signature keys, stems, the cache). The stop words
    # are in it from the start with None, so the same one look-up per word, in C, also says
    # whether a word is kept. Greek looks its stop words up without accents, word by word.
    if remove_stopwords and not language.accent_insensitive:
        known: dict[str, str | None] = dict.fromkeys(language.stopwords)
    else:
        known = {}
    canonical = known.setdefault
    accent_blind = (
        language.is_stopword if remove_stopwords and language.accent_insensitive else None
    )
    sentences: list[Sentence] = []
    for start, end in spans:
        piece = text[start:end]
        # [gap, word, gap, ..., word, gap] (see _split_words). An ASCII sentence is split
        # lowercased, which is each word case-folded: in ASCII, str.casefold is str.lower, and
        # it only turns letters into letters.
        if piece.isascii():
            parts = ascii_split(piece.lower())
            words = parts[1::2]
        else:
            parts = split(piece)
            words = list(map(casefold, parts[1::2]))
        if not words:
            continue  # no letter or digit: not a sentence
        positions = list(accumulate(map(len, parts), initial=start))
        starts, ends = positions[1:-1:2], positions[2::2]
        found = list(map(canonical, words, words))  # (None for a stop word)
        if accent_blind is not None:
            found = [
                None if accent_blind(word) else kept
                for word, kept in zip(words, found, strict=True)
            ]
        sentence = _sentence(
            len(sentences),
            start,
            end,
            cast("tuple[str, ...]", tuple(compress(found, found))),  # (no None is kept)
            tuple(compress(starts, found)),
            tuple(compress(ends, found)),
        )
        sentences.append(sentence)
    return tuple(sentences)

"""The words two compared documents share: inside each verified block, sentence pair by sentence
pair (the side-by-side view emphasises them), and as phrases over the whole documents (the
"Shared phrases" list). See docs/phrases.md, "In the app".

Shared words of a sentence pair: the words of a longest common subsequence of the two
sentences' case-folded word tokens (`core.documents.sentences.word_spans`, stop words included: the
signature leaves them out, a reader does not), so a word counts as shared only where both
sentences use it in the same order. A word-for-word copy shares every word; a sentence that only
has its partner's shape (the same length and first words) shares the few words it repeats.
Past MAX_ALIGNED_WORDS words in either sentence the quadratic LCS gives way to a multiset
intersection (each word shared as often as it occurs in both, each word of A matched to the
next unmatched occurrence in B, so B's side of the pairs need not be in reading order).
Matched words that follow each other in both texts, with the same characters between them (any
whitespace alike), are merged into runs, across sentence boundaries too, so a copied block is
one run and the view draws few selections; a run takes in the punctuation right before and
after it when both texts have the same (the full stop of a copied sentence). A run's text is
thus the same in A and in B but for case and whitespace.

Shared phrases: the maximal phrases of at least MIN_PHRASE_WORDS words that occur in both
documents (`core.detection.phrase_array`, the compact suffix array, with `min_docs=2`: the same
phrases as `core.detection.phrases`), each grown past the engine's length limit for as long as
all its occurrences go on with the same words, longest first, at most MAX_PHRASES of them."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from core.comparison import Comparison
from core.detection.long_sentences import LongPair, identical_long_sentences
from core.detection.phrase_array import PhraseTable, PhraseWords, find_phrases
from core.documents.document import Document
from core.documents.sentences import word_spans
from core.progress import Progress

Span = tuple[int, int]

#: past this many words in a sentence the LCS (quadratic) gives way to a multiset intersection
MAX_ALIGNED_WORDS = 200
#: the shortest phrase listed: 3-word runs ("one of the", "as well as") are in any two essays
MIN_PHRASE_WORDS = 4
#: the most phrases listed (the longest): two long documents on one subject share thousands
MAX_PHRASES = 500
#: the phrase engine's `max_len`; a longer shared run is grown afterwards (`_grow`)
SEED_WORDS = 8


# --- shared words inside verified blocks ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class SharedRun:
    """Words matched one to one, consecutively in both texts: `[a_start, a_end)` of A's text
    (first word's start to last word's end) and `[b_start, b_end)` of B's, `words` words each."""

    a_start: int
    a_end: int
    b_start: int
    b_end: int
    words: int


@dataclass(frozen=True, slots=True)
class PieceWords:
    """The shared words of one verified piece: `comparison.blocks[block].pieces[part]`."""

    block: int
    part: int
    # in A order (and in B order, but for sentences past MAX_ALIGNED_WORDS, matched as a multiset)
    runs: tuple[SharedRun, ...]
    words_a: int  # all the words of the piece's sentences in A
    words_b: int

    @property
    def shared(self) -> int:
        return sum(run.words for run in self.runs)

    @property
    def word_for_word(self) -> bool:
        return self.shared == self.words_a == self.words_b


def common_words(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int]]:
    """Pairs `(i, j)` with `a[i] == b[j]`: a longest common subsequence, increasing in both,
    or past MAX_ALIGNED_WORDS a multiset intersection: increasing in `a`, not always in `b`."""
    if len(a) > MAX_ALIGNED_WORDS or len(b) > MAX_ALIGNED_WORDS:
        return _multiset_matches(a, b)
    # a shared beginning and end are part of some LCS: only the middle needs the table
    head = 0
    while head < len(a) and head < len(b) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < len(a) - head and tail < len(b) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    middle = _lcs(a[head : len(a) - tail], b[head : len(b) - tail])
    return (
        [(k, k) for k in range(head)]
        + [(i + head, j + head) for i, j in middle]
        + [(len(a) - tail + k, len(b) - tail + k) for k in range(tail)]
    )


def _lcs(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int]]:
    """The classic table: lengths[i][j] is the LCS of a[i:] and b[j:]; then one walk."""
    n, m = len(a), len(b)
    if not n or not m:
        return []
    lengths = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below, word = lengths[i], lengths[i + 1], a[i]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if word == b[j] else max(below[j], row[j + 1])
    pairs = []
    i = j = 0
    while i < n and j < m:
        if a[i] == b[j]:
            pairs.append((i, j))
            i += 1
            j += 1
        elif lengths[i + 1][j] >= lengths[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def _multiset_matches(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int]]:
    """Each word of `a` matched to the next unmatched occurrence of it in `b`."""
    where: defaultdict[str, list[int]] = defaultdict(list)
    for j in range(len(b) - 1, -1, -1):
        where[b[j]].append(j)  # reversed: pop() gives the earliest first
    pairs = []
    for i, word in enumerate(a):
        left = where.get(word)
        if left:
            pairs.append((i, left.pop()))
    return pairs


def shared_words(comparison: Comparison) -> tuple[PieceWords, ...]:
    """The shared words of every verified piece of `comparison`, aligned sentence by sentence:
    A's sentence at signature position `a_start + k` with B's at `b_start + k`; a too-long
    sentence identical in both inside or beside the piece (`core.detection.long_sentences`)
    shares all its words."""
    a, b = comparison.a, comparison.b
    owners = [(n, k) for n, block in enumerate(comparison.blocks) for k in range(len(block.pieces))]
    pieces = [piece for block in comparison.blocks for piece in block.pieces]
    longs: dict[int, list[LongPair]] = {}
    for pair in identical_long_sentences(a, b, pieces):
        longs.setdefault(pair.piece, []).append(pair)
    found = []
    for number, ((index, part), piece) in enumerate(zip(owners, pieces, strict=True)):
        runs, words_a, words_b = _piece_runs(
            a, b, range(piece.a_start, piece.a_start + piece.length), piece.b_start
        )
        for pair in longs.get(number, ()):
            one, two = a.sentences[pair.a_sentence], b.sentences[pair.b_sentence]
            words = len(word_spans(a.text, one.start, one.end))
            runs.append(SharedRun(one.start, one.end, two.start, two.end, words))
            words_a += words
            words_b += words
        runs.sort(key=lambda run: run.a_start)
        found.append(PieceWords(index, part, tuple(runs), words_a, words_b))
    return tuple(found)


def _piece_runs(
    a: Document, b: Document, positions: range, b_first: int
) -> tuple[list[SharedRun], int, int]:
    indices_a, indices_b = a.signature.sentence_indices, b.signature.sentence_indices
    runs: list[_Run] = []
    words_a = words_b = 0
    # the last matched word in each text, as (sentence index, word index, words in sentence)
    last_a: tuple[int, int, int] | None = None
    last_b: tuple[int, int, int] | None = None
    for k, position in enumerate(positions):
        sa = a.sentences[indices_a[position]]
        sb = b.sentences[indices_b[b_first + k]]
        spans_a = word_spans(a.text, sa.start, sa.end)
        spans_b = word_spans(b.text, sb.start, sb.end)
        words_a += len(spans_a)
        words_b += len(spans_b)
        tokens_a = [a.text[s:e].casefold() for s, e in spans_a]
        tokens_b = [b.text[s:e].casefold() for s, e in spans_b]
        for i, j in common_words(tokens_a, tokens_b):
            here_a = (sa.index, i, len(spans_a))
            here_b = (sb.index, j, len(spans_b))
            (a_start, a_end), (b_start, b_end) = spans_a[i], spans_b[j]
            if (
                runs
                and _next_word(last_a, here_a)
                and _next_word(last_b, here_b)
                and _same_gap(a.text[runs[-1].a_end : a_start], b.text[runs[-1].b_end : b_start])
            ):
                run = runs[-1]
                run.a_end, run.b_end, run.words = a_end, b_end, run.words + 1
                run.a_ceiling, run.b_ceiling = sa.end, sb.end
            else:
                runs.append(
                    _Run(a_start, a_end, b_start, b_end, 1, sa.start, sa.end, sb.start, sb.end)
                )
            last_a, last_b = here_a, here_b
    return [run.with_punctuation(a.text, b.text) for run in runs], words_a, words_b


@dataclass(slots=True)
class _Run:
    """A run being built, with the sentence bounds its punctuation must stay inside: the start
    of its first word's sentence (floor) and the end of its last word's (ceiling)."""

    a_start: int
    a_end: int
    b_start: int
    b_end: int
    words: int
    a_floor: int
    a_ceiling: int
    b_floor: int
    b_ceiling: int

    def with_punctuation(self, text_a: str, text_b: str) -> SharedRun:
        """The run with the punctuation right before and after it, where A and B agree."""
        before_a = _punctuation_before(text_a, self.a_start, self.a_floor)
        before_b = _punctuation_before(text_b, self.b_start, self.b_floor)
        after_a = _punctuation_after(text_a, self.a_end, self.a_ceiling)
        after_b = _punctuation_after(text_b, self.b_end, self.b_ceiling)
        same_before = text_a[before_a : self.a_start] == text_b[before_b : self.b_start]
        same_after = text_a[self.a_end : after_a] == text_b[self.b_end : after_b]
        return SharedRun(
            before_a if same_before else self.a_start,
            after_a if same_after else self.a_end,
            before_b if same_before else self.b_start,
            after_b if same_after else self.b_end,
            self.words,
        )


def _same_gap(one: str, two: str) -> bool:
    """Whether the characters between two words are the same, any whitespace alike."""
    return one == two or _SPACES.sub(" ", one) == _SPACES.sub(" ", two)


_SPACES = re.compile(r"\s+")


def _punctuation_after(text: str, end: int, ceiling: int) -> int:
    """Where the characters after `end` that are neither space nor word stop (by `ceiling`)."""
    while end < ceiling and not text[end].isspace() and not text[end].isalnum():
        end += 1
    return end


def _punctuation_before(text: str, start: int, floor: int) -> int:
    while start > floor and not text[start - 1].isspace() and not text[start - 1].isalnum():
        start -= 1
    return start


def _next_word(last: tuple[int, int, int] | None, here: tuple[int, int, int]) -> bool:
    """True when the word `here` comes right after `last` (the next sentence's first word
    follows a sentence's last one): (sentence index, word index, words in the sentence)."""
    if last is None:
        return False
    sentence, word, count = last
    if here[0] == sentence:
        return here[1] == word + 1
    return here[0] == sentence + 1 and word == count - 1 and here[1] == 0


# --- shared phrases ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SharedPhrase:
    """A phrase both documents use, with every place it occurs: `[start, end)` spans of A's
    text and of B's, in reading order."""

    words: tuple[str, ...]  # case-folded
    in_a: tuple[Span, ...]
    in_b: tuple[Span, ...]
    quote: str  # its first occurrence in A as written (case, punctuation), spaces collapsed

    @property
    def text(self) -> str:
        return " ".join(self.words)

    @property
    def length(self) -> int:
        return len(self.words)


@dataclass(frozen=True, slots=True)
class SharedPhrases:
    """The phrases two documents share, longest first (then the most occurrences, then
    alphabetically), at most `limit` of the `total` found."""

    phrases: tuple[SharedPhrase, ...]
    total: int
    min_words: int
    limit: int

    @property
    def capped(self) -> bool:
        return self.total > len(self.phrases)


def shared_phrases(
    a: Document,
    b: Document,
    *,
    min_words: int = MIN_PHRASE_WORDS,
    limit: int = MAX_PHRASES,
    progress: Progress | None = None,
    seed_words: int = SEED_WORDS,
) -> SharedPhrases:
    """The maximal phrases of at least `min_words` words found in both `a` and `b`.

    Maximal as in `core.detection.phrases` (no phrase one word longer has the same
    occurrences); a phrase of the engine's SEED_WORDS words is grown word by word, left and
    right, while every one of its occurrences goes on with the same word inside its sentence, so
    a copied sentence is one phrase rather than a chain of overlapping 8-word ones.
    `seed_words` is the engine's `max_len` (at least `min_words`). `progress` may raise
    Cancelled.

    The engine is the compact suffix array (`core.detection.phrase_array`): a few ints a word,
    so two 10-million-character documents, or one against a copy of itself (where every phrase
    repeats), fit in a few hundred MB. Only the maximal phrases of `min_words` or more are
    looked at, one at a time."""
    if min_words < 1 or seed_words < 1 or limit < 0:
        raise ValueError("min_words and seed_words must be at least 1, limit at least 0")
    seed_len = max(seed_words, min_words)
    words = PhraseWords()
    words.add_document(a)
    words.add_document(b)
    table = find_phrases(
        words,
        max_len=seed_len,
        min_count=2,
        min_docs=2,
        progress=None if progress is None else (lambda f, m="": progress(0.9 * f, m)),
    )
    if progress is not None:
        progress(0.9)
    in_b = words.doc_starts[1]
    listed: dict[tuple[tuple[int, ...], int], SharedPhrase] = {}
    for length, positions, _ in table.listing(min_length=min_words, maximal_only=True):
        starts = positions
        if length == seed_len:
            if _inside_chain(table, starts, length):
                continue  # the phrase one word to the left grows over this one
            starts, length = _grow(starts, length, words)
        key = (tuple(starts), length)
        if key in listed:
            continue
        spans: tuple[list[Span], list[Span]] = ([], [])
        for g in starts:
            spans[g >= in_b].append((words.starts[g], words.ends[g + length - 1]))
        start, end = spans[0][0]
        listed[key] = SharedPhrase(
            words.phrase(starts[0], length),
            tuple(spans[0]),
            tuple(spans[1]),
            " ".join(a.text[start:end].split()),
        )
    ordered = sorted(
        listed.values(), key=lambda p: (-p.length, -(len(p.in_a) + len(p.in_b)), p.text)
    )
    if progress is not None:
        progress(1.0)
    return SharedPhrases(tuple(ordered[:limit]), len(ordered), min_words, limit)


def _inside_chain(table: PhraseTable, starts: list[int], length: int) -> bool:
    """True when every occurrence (global positions, `core.detection.phrase_array`) is preceded
    by the same word in its sentence and the phrase of `length` words starting one word to the
    left occurs as often: that phrase then has exactly these occurrences shifted one word left,
    and grows into the same longer phrase."""
    words = table.words
    ids = words.ids
    before = -1
    for g in starts:
        if words.starts_sentence(g) or (before != -1 and ids[g - 1] != before):
            return False
        before = ids[g - 1]
    return table.count_at(starts[0] - 1, length) == len(starts)


def _grow(starts: list[int], length: int, words: PhraseWords) -> tuple[list[int], int]:
    """Grow the occurrences right, then left, while all go on with one word in their sentence."""
    ids, end = words.ids, words.sentence_end
    while True:
        following = -1
        for g in starts:
            q = g + length
            if q >= end[g] or (following != -1 and ids[q] != following):
                following = -1
                break
            following = ids[q]
        if following == -1:
            break
        length += 1
    while True:
        previous = -1
        for g in starts:
            if words.starts_sentence(g) or (previous != -1 and ids[g - 1] != previous):
                previous = -1
                break
            previous = ids[g - 1]
        if previous == -1:
            break
        starts = [g - 1 for g in starts]
        length += 1
    return starts, length

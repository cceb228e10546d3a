"""Repeated phrases from a word suffix array: the list `core.detection.phrases` gives, in a few
4-byte ints a word instead of a Python node per distinct phrase. See docs/phrases.md,
"The compact method".

The paper's word suffix tree (`core.detection.phrases`, "suffix-tree") keeps a dict and a list
for every distinct phrase of up to m words, repeated or not: about 2 KB a word at m = 8, so two
9.5 MB documents need far more memory than a desktop has. The inverted index keeps only the
repeated phrases, but a tuple key and a list for each, and a document checked against a copy of
itself repeats all of them. This module keeps the same tree implicitly, as flat arrays:

- the words of all the documents end to end (`PhraseWords`): a word id, its character span and
  the end of its sentence, per word;
- the suffix array: every word position, sorted by the words from there to the end of its
  sentence, at most m of them (the tree's leaves, in order);
- the LCP array: how many words each suffix shares with the one before it, at most m.

The tree's internal nodes are then the LCP intervals (Abouelhoda, Kurtz and Ohlebusch, "Replacing
suffix trees with enhanced suffix arrays", 2004): a run of the suffix array whose neighbours
share at least ℓ words, visited bottom-up with a stack. An interval with value ℓ whose parent
has value ℓp stands for the phrases of ℓp + 1 .. ℓ words starting at its positions, all with
its positions as their occurrences; the shorter ones are inside the ℓ-word one (not maximal),
which is maximal unless ℓ < m and every occurrence follows the same word in its sentence.
`PhraseTable` keeps the intervals that pass min_count and min_docs (five ints each) and hands
the phrases out one at a time, in `repeated_phrases`' order, so a caller can print a long list
without holding it.

Sorting: the positions are bucketed by their first word (a counting sort), and each bucket is
sorted by the bytes of its word ids (big-endian, fixed width: byte order is word order, and a
suffix that ends sorts before its longer neighbours); a bucket of more than _DIRECT_SORT
positions is first split by its next word, again by counting, so the sort keys in memory at
once stay few. Word ids follow the words' alphabetical order, so suffix-array order is the
phrases' alphabetical order, the last key of the listing.

Space: six arrays of n 4-byte ints (ids, spans, sentence ends, suffix array, LCP), the ids
again as 2- or 4-byte keys, the word table, and five ints per listed interval; the sort's keys
for one bucket at a time (about 40 bytes a word in all at m = 8, docs/benchmarks.md). Time:
O(n log n) comparisons of short byte strings, then O(n) for the intervals and O(n·m) at worst
(every phrase repeated) to check the documents and maximal flags."""

from __future__ import annotations

import re
import sys
from array import array
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import repeat

from core.detection.phrases import Occurrence, Phrase, PhraseInput, Ticker
from core.documents.document import Document
from core.documents.language import get_language
from core.documents.sentences import word_spans
from core.progress import Progress

SUFFIX_ARRAY = "suffix-array"

#: a group of suffixes this large or smaller is sorted by its byte keys at once; a larger one
#: is split by its next word first (a counting sort: 4 bytes a position, not ~130). Small
#: enough that one sort, a C call that keeps the interpreter lock, lasts a few milliseconds:
#: the app looks for phrases on a worker beside the window
_DIRECT_SORT = 1 << 13
#: a character that sorts before the space joining a phrase's words
_LOW = re.compile(r"[\x00-\x20]")
#: units of work (positions sorted or visited, occurrences listed) between two progress calls
_WORK_PER_CHECK = 1 << 14


class PhraseWords:
    """All the documents' words end to end, case-folded, as flat arrays: a word's global
    position is its document's first position plus its index among the document's words.

    Fill it with `add_document` (or `add_input`) one document at a time, so a caller can let
    each `Document` go once its words are in."""

    def __init__(self) -> None:
        self._known: dict[str, int] = {}
        self._sorted = True
        self.names: list[str] = []  # word id -> word; ids in alphabetical order once sorted
        self.ids = array("i")  # global position -> word id
        self.starts = array("i")  # global position -> [start, end) in its document's text
        self.ends = array("i")
        self.sentence_end = array("i")  # global position -> one past its sentence's last word
        self.doc_starts: list[int] = []  # each document's first global position

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def documents(self) -> int:
        return len(self.doc_starts)

    def add_document(self, doc: Document, remove_stopwords: bool = False) -> None:
        """The words of `doc`'s sentences, as `core.detection.phrases.phrase_input` finds them."""
        is_stopword = get_language(doc.language).is_stopword if remove_stopwords else None
        text = doc.text
        self.doc_starts.append(len(self.ids))
        for sentence in doc.sentences:
            before = len(self.ids)
            for a, b in word_spans(text, sentence.start, sentence.end):
                word = text[a:b].casefold()
                if is_stopword is not None and is_stopword(word):
                    continue
                self._add(word, a, b)
            self.sentence_end.extend(repeat(len(self.ids), len(self.ids) - before))

    def add_input(self, data: PhraseInput) -> None:
        """The words of a `PhraseInput` (tests, and callers that have one already)."""
        self.doc_starts.append(len(self.ids))
        for sentence in data.sentences:
            for term in sentence:
                self._add(term.text, term.start, term.end)
            self.sentence_end.extend(repeat(len(self.ids), len(sentence)))

    def _add(self, word: str, start: int, end: int) -> None:
        wid = self._known.get(word)
        if wid is None:
            wid = self._known[word] = len(self.names)
            self.names.append(word)
            self._sorted = False
        self.ids.append(wid)
        self.starts.append(start)
        self.ends.append(end)

    def sort_names(self) -> None:
        """Renumber the words in alphabetical order (then suffix order is phrase order)."""
        if self._sorted:
            return
        order = sorted(range(len(self.names)), key=self.names.__getitem__)
        rank = [0] * len(order)
        for new, old in enumerate(order):
            rank[old] = new
        self.names = [self.names[old] for old in order]
        self._known = {word: wid for wid, word in enumerate(self.names)}
        renumbered = array("i")
        for chunk in range(0, len(self.ids), _WORK_PER_CHECK):  # (slices: no long C call)
            renumbered.extend(map(rank.__getitem__, self.ids[chunk : chunk + _WORK_PER_CHECK]))
        self.ids = renumbered
        self._sorted = True

    def document_of(self, position: int) -> int:
        return bisect_right(self.doc_starts, position) - 1

    def starts_sentence(self, position: int) -> bool:
        """Whether the word at `position` is its sentence's first."""
        end = self.sentence_end
        return position == 0 or end[position - 1] != end[position]

    def phrase(self, position: int, length: int) -> tuple[str, ...]:
        return tuple(map(self.names.__getitem__, self.ids[position : position + length]))


def words_of(inputs: Sequence[PhraseInput]) -> PhraseWords:
    words = PhraseWords()
    for data in inputs:
        words.add_input(data)
    return words


class PhraseTable:
    """The repeated phrases of `words`, as LCP intervals of its suffix array: interval t covers
    suffix-array entries `lo[t]..hi[t]` (the phrase's occurrences) and stands for the phrases
    of `shallow[t] + 1 .. deep[t]` words starting there; the `deep[t]`-word one is maximal when
    `top_maximal[t]`, the shorter ones never are. Intervals are in post-order (a node after its
    children), so those holding phrases of one length are in alphabetical order."""

    def __init__(
        self,
        words: PhraseWords,
        max_len: int,
        suffixes: array[int],
        lcp: array[int],
    ) -> None:
        self.words = words
        self.max_len = max_len
        self.suffixes = suffixes
        self.lcp = lcp  # lcp[i]: words suffixes[i - 1] and suffixes[i] share (≤ max_len)
        self.lo = array("i")
        self.hi = array("i")
        self.shallow = array("i")
        self.deep = array("i")
        self.top_maximal = array("b")
        self._inverse: array[int] | None = None
        self._text_order: bool | None = None

    @property
    def total(self) -> int:
        """The number of phrases listed."""
        return sum(self.deep) - sum(self.shallow)

    @property
    def maximal_total(self) -> int:
        return sum(self.top_maximal)

    def __len__(self) -> int:
        return self.total

    def _lengths(self) -> tuple[list[array[int]], list[array[int]]]:
        """For each length (index 0 unused), the intervals holding a maximal phrase of it, and
        those holding one that is not, each in post-order (so alphabetical)."""
        lo, shallow, deep, top = self.lo, self.shallow, self.deep, self.top_maximal
        maximal = [array("i") for _ in range(self.max_len + 1)]
        inside = [array("i") for _ in range(self.max_len + 1)]
        for t in range(len(lo)):
            value = deep[t]
            for length in range(shallow[t] + 1, value):
                inside[length].append(t)
            (maximal if top[t] else inside)[value].append(t)
        return maximal, inside

    def _by_count(self, chosen: array[int], length: int) -> Iterator[int]:
        """`chosen` (alphabetical) in listing order: more occurrences first, then as given."""
        if self._text_order is None:
            self._text_order = any(_LOW.search(name) for name in self.words.names)
        lo, hi = self.lo, self.hi
        if self._text_order:
            # a word with a space or a control character (never from a document: they have
            # none): text order need not be word order
            def text(t: int) -> str:
                return " ".join(self.words.phrase(self.suffixes[lo[t]], length))

            chosen = array("i", sorted(chosen, key=text))
        groups: dict[int, array[int]] = {}
        for t in chosen:
            size = hi[t] - lo[t]
            group = groups.get(size)
            if group is None:
                group = groups[size] = array("i")
            group.append(t)
        for size in sorted(groups, reverse=True):
            yield from groups.pop(size)

    def listing(
        self, min_length: int = 1, maximal_only: bool = False
    ) -> Iterator[tuple[int, list[int], bool]]:
        """`(length, occurrences as ascending global positions, maximal)` for every phrase of
        at least `min_length` words, in `repeated_phrases`' order: maximal first, then longer,
        then more occurrences, then alphabetically."""
        sa, lo, hi = self.suffixes, self.lo, self.hi
        maximal, inside = self._lengths()
        if maximal_only:
            inside = []
        for flag, lists in ((True, maximal), (False, inside)):
            for length in range(len(lists) - 1, max(min_length, 1) - 1, -1):
                chosen, lists[length] = lists[length], array("i")  # let each go once listed
                for t in self._by_count(chosen, length):
                    yield length, sorted(sa[lo[t] : hi[t] + 1]), flag

    def phrases(self) -> Iterator[Phrase]:
        """The phrases as `core.detection.phrases.Phrase`s, in `repeated_phrases`' order."""
        words = self.words
        starts, ends, doc_starts = words.starts, words.ends, words.doc_starts
        one = len(doc_starts) == 1
        for length, positions, maximal in self.listing():
            last = length - 1
            occurrences = []
            for g in positions:
                d = 0 if one else bisect_right(doc_starts, g) - 1
                occurrences.append(Occurrence(d, starts[g], ends[g + last], g - doc_starts[d]))
            yield Phrase(words.phrase(positions[0], length), tuple(occurrences), maximal)

    def count_at(self, position: int, length: int) -> int:
        """How often the phrase of `length` (≤ max_len) words at `position` occurs; 0 when its
        sentence ends first."""
        if self.words.sentence_end[position] - position < length:
            return 0
        if self._inverse is None:
            inverse = array("i", bytes(4 * len(self.suffixes)))
            for i, g in enumerate(self.suffixes):
                inverse[g] = i
            self._inverse = inverse
        lcp, n = self.lcp, len(self.lcp)
        i = self._inverse[position]
        count = 1
        j = i
        while j > 0 and lcp[j] >= length:
            count += 1
            j -= 1
        j = i + 1
        while j < n and lcp[j] >= length:
            count += 1
            j += 1
        return count


def find_phrases(
    words: PhraseWords,
    max_len: int,
    min_count: int = 2,
    min_docs: int = 1,
    progress: Progress | None = None,
) -> PhraseTable:
    """Every phrase of 1..`max_len` words occurring at least `min_count` times in at least
    `min_docs` documents, as a `PhraseTable` (the same phrases, occurrences and maximal flags
    as `core.detection.phrases.repeated_phrases`). `progress` as there: called now and then,
    never going back, 1.0 once at the end; it may raise `core.errors.Cancelled`."""
    if max_len < 1 or min_count < 1 or min_docs < 1:
        raise ValueError("max_len, min_count and min_docs must be at least 1")
    ticker = Ticker(progress)
    words.sort_names()
    suffixes, lcp = _suffix_array(words, max_len, ticker)
    table = PhraseTable(words, max_len, suffixes, lcp)
    _intervals(table, min_count, min_docs, ticker)
    ticker.finish()
    return table


def repeated_phrases(
    docs: Sequence[PhraseInput],
    max_len: int,
    min_count: int = 2,
    min_docs: int = 1,
    progress: Progress | None = None,
) -> list[Phrase]:
    """`core.detection.phrases.repeated_phrases` by this method, as a list (for the tests)."""
    return list(find_phrases(words_of(docs), max_len, min_count, min_docs, progress).phrases())


# --- the suffix array --------------------------------------------------------------------


def _suffix_array(words: PhraseWords, m: int, ticker: Ticker) -> tuple[array[int], array[int]]:
    """Every position, sorted by its next (at most) m words inside its sentence, and the LCP
    array: lcp[i] = the words suffixes i - 1 and i share, at most m (lcp[0] = 0). Progress:
    the first 60%, the counting sort 10% of it."""
    ids, end = words.ids, words.sentence_end
    n, vocabulary = len(ids), len(words.names)
    width = 2 if vocabulary <= 1 << 16 else 4
    packed = array("H" if width == 2 else "I", ids)
    if sys.byteorder == "little":
        packed.byteswap()
    blob = packed.tobytes()  # each id big-endian in `width` bytes: byte order is word order
    del packed
    # the counting sort by first word: positions ascending inside each bucket (10%)
    counts = [0] * vocabulary
    for chunk in range(0, n, _WORK_PER_CHECK):
        for w in ids[chunk : chunk + _WORK_PER_CHECK]:
            counts[w] += 1
        ticker.report(0.05 * chunk / n)
    slot = [0] * vocabulary
    total = 0
    for w, c in enumerate(counts):
        slot[w] = total
        total += c
    suffixes = array("i", bytes(4 * n))
    for chunk in range(0, n, _WORK_PER_CHECK):
        for g in range(chunk, min(chunk + _WORK_PER_CHECK, n)):
            w = ids[g]
            suffixes[slot[w]] = g
            slot[w] += 1
        ticker.report(0.05 + 0.05 * chunk / n)
    lcp = array("i", bytes(4 * n))
    # groups [start, stop) of suffixes sharing their first `depth` words, yet to be sorted
    todo: list[tuple[int, int, int]] = []
    start = 0
    for c in counts:
        if c > 1:
            todo.append((start, start + c, 1))
        start += c
    del counts, slot
    done = 0  # positions sorted or split (a split group's positions count again when sorted)
    next_check = _WORK_PER_CHECK
    while todo:
        start, stop, depth = todo.pop()
        if depth >= m:
            lcp[start + 1 : stop] = array("i", repeat(m, stop - start - 1))
        elif stop - start <= _DIRECT_SORT:
            _sort_directly(suffixes, lcp, blob, width, end, start, stop, depth, m)
        else:
            _split_by_next_word(suffixes, lcp, ids, end, start, stop, depth, todo)
        done += stop - start
        if done >= next_check:
            next_check = done + _WORK_PER_CHECK
            ticker.report(0.1 + 0.5 * min(done / n, 1.0))
    return suffixes, lcp


def _sort_directly(
    suffixes: array[int],
    lcp: array[int],
    blob: bytes,
    width: int,
    end: array[int],
    start: int,
    stop: int,
    depth: int,
    m: int,
) -> None:
    """Sort a group sharing its first `depth` words by the rest of each suffix's words (as
    bytes), and set the LCPs inside it."""
    members = suffixes[start:stop].tolist()
    keys = [
        blob[width * (g + depth) : width * (g + m if g + m < end[g] else end[g])] for g in members
    ]
    order = sorted(range(len(members)), key=keys.__getitem__)
    suffixes[start:stop] = array("i", [members[k] for k in order])
    previous = keys[order[0]]
    for i in range(1, len(order)):
        key = keys[order[i]]
        if key == previous:
            shared = len(key)
        else:  # the bytes they share: the leading zero bytes of one xor the other
            limit = min(len(key), len(previous))
            differ = int.from_bytes(key[:limit], "big") ^ int.from_bytes(previous[:limit], "big")
            shared = limit - (differ.bit_length() + 7) // 8
        lcp[start + i] = depth + shared // width
        previous = key


def _split_by_next_word(
    suffixes: array[int],
    lcp: array[int],
    ids: array[int],
    end: array[int],
    start: int,
    stop: int,
    depth: int,
    todo: list[tuple[int, int, int]],
) -> None:
    """Order a large group sharing its first `depth` words by its next word (a counting sort,
    those whose sentence ends first before the rest), and queue the parts."""
    members = suffixes[start:stop]
    keys = array("i", (ids[g + depth] + 1 if g + depth < end[g] else 0 for g in members))
    values = sorted(set(keys))
    bucket = {value: k for k, value in enumerate(values)}
    counts = [0] * len(values)
    for key in keys:
        counts[bucket[key]] += 1
    slot = [0] * len(values)
    total = start
    for k, c in enumerate(counts):
        slot[k] = total
        total += c
    for g, key in zip(members, keys, strict=True):
        k = bucket[key]
        suffixes[slot[k]] = g
        slot[k] += 1
    del members, keys
    part = start
    for value, c in zip(values, counts, strict=True):
        if part > start:
            lcp[part] = depth
        if c > 1:
            if value == 0:  # every one of them ends here: equal suffixes
                lcp[part + 1 : part + c] = array("i", repeat(depth, c - 1))
            else:
                todo.append((part, part + c, depth + 1))
        part += c


# --- the intervals -------------------------------------------------------------------------


def _intervals(table: PhraseTable, min_count: int, min_docs: int, ticker: Ticker) -> None:
    """The bottom-up walk over the LCP intervals, keeping those that hold listed phrases.
    Progress: 60% to 100%."""
    words, m = table.words, table.max_len
    sa, lcp = table.suffixes, table.lcp
    ids, end, doc_starts = words.ids, words.sentence_end, words.doc_starts
    n = len(sa)
    lo, hi, shallow, deep, top = table.lo, table.hi, table.shallow, table.deep, table.top_maximal
    several = min_docs > 1

    def keep(first: int, last: int, above: int, value: int) -> None:
        if several:
            where = sa[first : last + 1]
            if bisect_right(doc_starts, min(where)) == bisect_right(doc_starts, max(where)):
                return  # one document
            if min_docs > 2 and len({bisect_right(doc_starts, g) for g in where}) < min_docs:
                return
        maximal = value == m
        if not maximal:  # unless every occurrence follows the same word in its sentence
            g = sa[first]
            if g == 0 or end[g - 1] != end[g]:
                maximal = True
            else:
                before = ids[g - 1]
                for i in range(first + 1, last + 1):
                    g = sa[i]
                    if g == 0 or end[g - 1] != end[g] or ids[g - 1] != before:
                        maximal = True
                        break
        lo.append(first)
        hi.append(last)
        shallow.append(above)
        deep.append(value)
        top.append(maximal)

    singles = min_count == 1 and min_docs == 1
    stack_value = [0]  # the root: phrases of no words
    stack_first = [0]
    next_check = _WORK_PER_CHECK
    for i in range(1, n + 1):
        value = lcp[i] if i < n else 0
        if singles:  # suffix i - 1 alone: the phrases only it starts
            g = sa[i - 1]
            length = min(m, end[g] - g)
            above = max(lcp[i - 1] if i > 1 else 0, value)
            if length > above:
                lo.append(i - 1)
                hi.append(i - 1)
                shallow.append(above)
                deep.append(length)
                top.append(length == m or g == 0 or end[g - 1] != end[g])
        first = i - 1
        while value < stack_value[-1]:
            inner = stack_value.pop()
            first = stack_first.pop()
            if i - first >= min_count:
                keep(first, i - 1, max(value, stack_value[-1]), inner)
        if value > stack_value[-1]:
            stack_value.append(value)
            stack_first.append(first)
        if i >= next_check:
            next_check = i + _WORK_PER_CHECK
            ticker.report(0.6 + 0.4 * i / n)

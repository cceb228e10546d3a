"""Repeated phrases (paper B, spec §6): every word sequence of at most m words that occurs at
least `min_count` times, with where it occurs, found by two interchangeable methods.

"suffix-tree" is the paper's procedure: a word suffix tree of depth at most m built with a
parent list in O(n·m). "inverted-index" is the comparison method the paper sets out against
it: word → positions, extended one word at a time. Both return the same list (a Hypothesis
test holds them to it). Phrases never cross a sentence boundary. See docs/phrases.md."""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from core.documents.document import Document
from core.documents.language import get_language
from core.documents.sentences import Term, word_spans
from core.progress import Progress

DEFAULT_MAX_LEN = 8  # longest phrase considered (the paper's example uses 3; docs/phrases.md)
SUFFIX_TREE = "suffix-tree"
INVERTED_INDEX = "inverted-index"
METHODS = (SUFFIX_TREE, INVERTED_INDEX)

#: units of work (words read, positions extended, nodes or occurrences visited) between two
#: progress calls: at most about 0.1 s (the tree reads a word in 5-10 µs at m = 8-12), so a
#: cancel is honoured within a fraction of a second, and the calls cost nothing
_WORK_PER_CHECK = 1 << 14


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One place a phrase occurs: `[start, end)` characters of the document's text, from the
    first word's start to the last word's end; `word` is the first word's index among all the
    document's words (so the phrase covers words `word` .. `word + len(phrase) - 1`)."""

    document: int  # index into the inputs given to repeated_phrases
    start: int
    end: int
    word: int


@dataclass(frozen=True, slots=True)
class Phrase:
    words: tuple[str, ...]
    occurrences: tuple[Occurrence, ...]  # sorted by document, then position
    # False when a phrase one word longer (on either side) has the same count: then every
    # occurrence of this phrase extends the same way, and it is "inside a longer phrase with
    # the same occurrences". (Counts never grow as a phrase extends, so any longer repeated
    # phrase with the same count implies such a one-word step.) Phrases of max_len words are
    # always maximal: the engine saw nothing longer.
    maximal: bool

    @property
    def text(self) -> str:
        return " ".join(self.words)

    @property
    def length(self) -> int:
        return len(self.words)

    @property
    def count(self) -> int:
        return len(self.occurrences)

    @property
    def documents(self) -> tuple[int, ...]:
        """The distinct documents it occurs in, ascending."""
        return tuple(sorted({o.document for o in self.occurrences}))


@dataclass(frozen=True, slots=True)
class PhraseInput:
    """The word tokens of one document, case-folded, grouped by sentence, with their spans in
    the document's text. Sentences may be empty (every word was a stop word)."""

    sentences: tuple[tuple[Term, ...], ...]

    @property
    def word_count(self) -> int:
        return sum(len(s) for s in self.sentences)


def phrase_input(doc: Document, remove_stopwords: bool = False) -> PhraseInput:
    """Every word of `doc`'s sentences, case-folded (spec §6: stop words stay by default, as in
    the paper's simplest form; the document's own signature options do not matter here)."""
    is_stopword = get_language(doc.language).is_stopword if remove_stopwords else None
    sentences = []
    for sentence in doc.sentences:
        terms = [
            Term(doc.text[a:b].casefold(), a, b)
            for a, b in word_spans(doc.text, sentence.start, sentence.end)
        ]
        if is_stopword is not None:
            terms = [t for t in terms if not is_stopword(t.text)]
        sentences.append(tuple(terms))
    return PhraseInput(tuple(sentences))


def repeated_phrases(
    docs: Sequence[PhraseInput],
    max_len: int = DEFAULT_MAX_LEN,
    min_count: int = 2,
    min_docs: int = 1,
    method: str = SUFFIX_TREE,
    progress: Progress | None = None,
) -> list[Phrase]:
    """Every phrase of 1..`max_len` words occurring at least `min_count` times (overlapping
    occurrences count) in at least `min_docs` different documents, sorted maximal first, then
    longer first, then more frequent first, then alphabetically. Document numbers in the
    occurrences are positions in `docs`.

    `progress` (as for `core.detection.matching.match_signatures`) is called now and then with the
    fraction done, never going back, and with 1.0 at the end; it may raise
    `core.errors.Cancelled` to stop the work (the exception goes through to the caller)."""
    if max_len < 1 or min_count < 1 or min_docs < 1:
        raise ValueError("max_len, min_count and min_docs must be at least 1")
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}: choose one of {', '.join(METHODS)}")
    ticker = Ticker(progress)
    corpus = _Corpus(docs)
    find = _suffix_tree if method == SUFFIX_TREE else _inverted_index
    found = find(corpus, max_len, min_count, min_docs, ticker)
    starts = corpus.starts
    term_starts = [t.start for doc in docs for sentence in doc.sentences for t in sentence]
    term_ends = [t.end for doc in docs for sentence in doc.sentences for t in sentence]
    phrases = []
    total = sum(len(positions) for _, positions, _ in found) or 1
    done = 0
    next_check = _WORK_PER_CHECK
    for words, positions, maximal in found:
        last = len(words) - 1
        occurrences = []
        for g in positions:
            d = bisect_right(starts, g) - 1
            occurrences.append(Occurrence(d, term_starts[g], term_ends[g + last], g - starts[d]))
        phrases.append(Phrase(words, tuple(occurrences), maximal))
        done += len(positions)
        if done >= next_check:
            next_check = done + _WORK_PER_CHECK
            ticker.report(_FOUND + (1.0 - _FOUND) * done / total)
    phrases.sort(key=lambda p: (not p.maximal, -p.length, -p.count, p.text))
    ticker.finish()
    return phrases


# what both methods hand back: (words, occurrences as global word positions ascending (see
# _Corpus), maximal); every phrase listed counts >= min_count in >= min_docs documents
_Found = list[tuple[tuple[str, ...], list[int], bool]]

#: the share of the progress bar the methods take; turning their finds into Phrases is the rest
_FOUND = 0.95


class _Corpus:
    """All the documents' words end to end. A word's global position is its document's start
    plus its index in the document: one int per occurrence instead of a (document, index) pair
    keeps both methods' position lists small, and out of the cyclic collector's way."""

    def __init__(self, docs: Sequence[PhraseInput]) -> None:
        self.starts: list[int] = []  # global position of each document's first word
        self.sentences: list[tuple[Term, ...]] = []  # every document's, in order
        size = 0
        for doc in docs:
            self.starts.append(size)
            self.sentences.extend(doc.sentences)
            size += doc.word_count
        self.size = size

    def in_documents(self, positions: list[int], min_docs: int) -> bool:
        """Whether ascending global positions lie in at least `min_docs` documents."""
        if min_docs == 1:
            return True
        starts = self.starts
        first = bisect_right(starts, positions[0])
        if first == bisect_right(starts, positions[-1]):  # one document: the common case
            return False
        return min_docs == 2 or len({bisect_right(starts, g) for g in positions}) >= min_docs


class Ticker:
    """Hands `progress` the fraction done, never going backwards; 1.0 only once, at the end."""

    __slots__ = ("last", "progress")

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress
        self.last = 0.0

    def report(self, fraction: float) -> None:
        if self.progress is not None:
            self.last = max(self.last, min(fraction, 0.999))
            self.progress(self.last)

    def finish(self) -> None:
        if self.progress is not None:
            self.last = 1.0
            self.progress(1.0)


def _suffix_tree(
    corpus: _Corpus, max_len: int, min_count: int, min_docs: int, ticker: Ticker
) -> _Found:
    """The paper's procedure. Nodes live in parallel lists (node 0 is the root); a node stands
    for one word and its root path spells a phrase. For each word, the word is added under the
    root and under every node of the parent list (the nodes ending at the previous word, none
    at depth m), counting and recording the occurrence; the nodes reached become the next
    parent list. The list starts empty in every sentence, so no phrase crosses one. Each word
    touches at most m nodes: O(n·m) time, and O(n·m) nodes and occurrences at most.

    Progress: building is 80% of the method's share (by words read), the maximal flags 5% and
    the traversal 15% (by nodes)."""
    total_words = corpus.size or 1
    next_check = _WORK_PER_CHECK
    ids: dict[str, int] = {}  # the hash table of interned words
    names: list[str] = []
    children: list[dict[int, int]] = [{}]  # word id -> node
    counts = [0]
    depth = [0]
    parent = [-1]
    # the node of the same phrase without its first word (the node one level up on the same
    # step), so left extensions are known for the maximal flag
    suffix = [-1]
    where: list[list[int]] = [[]]  # global positions of the phrase's first word
    position = 0  # global position of the current word (_Corpus)
    for sentence in corpus.sentences:
        parents: list[int] = []  # shallowest first, so node k on it has depth k + 1
        for term in sentence:
            wid = ids.get(term.text)
            if wid is None:
                wid = ids[term.text] = len(names)
                names.append(term.text)
            reached: list[int] = []
            shorter = 0
            for node in (0, *parents):
                child = children[node].get(wid)
                if child is None:
                    child = len(counts)
                    children[node][wid] = child
                    children.append({})
                    counts.append(0)
                    depth.append(depth[node] + 1)
                    parent.append(node)
                    suffix.append(shorter)
                    where.append([])
                counts[child] += 1
                where[child].append(position - depth[child] + 1)
                if depth[child] < max_len:
                    reached.append(child)
                shorter = child
            parents = reached
            position += 1
            if position >= next_check:  # one comparison a word; a call every step of words
                next_check = position + _WORK_PER_CHECK
                ticker.report(_FOUND * 0.8 * position / total_words)
    nodes = len(counts)
    not_maximal = [False] * nodes
    for chunk in range(1, nodes, _WORK_PER_CHECK):
        for node in range(chunk, min(chunk + _WORK_PER_CHECK, nodes)):
            for inside in (parent[node], suffix[node]):  # the phrase less its last / first word
                if inside > 0 and counts[inside] == counts[node]:
                    not_maximal[inside] = True
        ticker.report(_FOUND * (0.8 + 0.05 * chunk / nodes))
    # the traversal: a child never counts more, nor occurs in more documents, than its parent,
    # so a node under min_count or min_docs closes its subtree. (A phrase one word longer with
    # the same count has the same documents, so the maximal flags stand as computed.)
    found: _Found = []
    stack: list[tuple[int, tuple[str, ...]]] = [(0, ())]
    seen = 0  # children looked at
    next_check = _WORK_PER_CHECK
    while stack:
        node, words = stack.pop()
        below = children[node]
        for wid, child in below.items():
            if counts[child] >= min_count and corpus.in_documents(where[child], min_docs):
                phrase = (*words, names[wid])
                found.append((phrase, where[child], not not_maximal[child]))
                stack.append((child, phrase))
        seen += len(below)
        if seen >= next_check:
            next_check = seen + _WORK_PER_CHECK
            ticker.report(_FOUND * (0.85 + 0.15 * seen / nodes))
    return found


def _inverted_index(
    corpus: _Corpus, max_len: int, min_count: int, min_docs: int, ticker: Ticker
) -> _Found:
    """Word → positions, then phrase by phrase: the phrases of k + 1 words are the repeated
    phrases of k words followed, in the same sentence, by one more word, grouped by that word.
    Only phrases counted at least `min_count` times in at least `min_docs` documents are kept
    and extended: a longer phrase never counts more, and its documents are among the shorter
    one's. (Nor does that change a maximal flag: a phrase one word longer with the same count
    has the same occurrences shifted, so the same documents, and is kept too.) O(n·m) phrase
    steps as well, but every step hashes a k-word key.

    Progress: the index is 20% of the method's share (by words), the extensions 70% (by
    positions, each level's size standing in for the levels still to come: levels never grow)
    and the maximal flags 10% (by phrases)."""
    total_words = corpus.size or 1
    words: list[str] = []  # by global position
    sentence_end: list[int] = []  # for each position, the end of its sentence
    for sentence in corpus.sentences:
        end = len(words) + len(sentence)
        words.extend(t.text for t in sentence)
        sentence_end.extend([end] * len(sentence))
    index: defaultdict[tuple[str, ...], list[int]] = defaultdict(list)
    for chunk in range(0, len(words), _WORK_PER_CHECK):
        for p in range(chunk, min(chunk + _WORK_PER_CHECK, len(words))):
            index[(words[p],)].append(p)
        ticker.report(_FOUND * 0.2 * min(chunk + _WORK_PER_CHECK, len(words)) / total_words)
    level = {
        k: v for k, v in index.items() if len(v) >= min_count and corpus.in_documents(v, min_docs)
    }
    del index
    found: dict[tuple[str, ...], list[int]] = {}
    length = 1
    extended = 0  # positions extended so far, all levels
    while level:
        found.update(level)
        if length == max_len:
            break
        size = sum(len(v) for v in level.values())
        # levels never grow, so this level's size bounds each level still to come
        estimate = extended + size * (max_len - length)
        next_check = extended + _WORK_PER_CHECK
        longer: defaultdict[tuple[str, ...], list[int]] = defaultdict(list)
        for phrase, positions in level.items():
            for p in positions:
                q = p + length
                if q < sentence_end[p]:
                    longer[(*phrase, words[q])].append(p)
            extended += len(positions)
            if extended >= next_check:
                next_check = extended + _WORK_PER_CHECK
                ticker.report(_FOUND * (0.2 + 0.7 * extended / estimate))
        level = {
            k: v
            for k, v in longer.items()
            if len(v) >= min_count and corpus.in_documents(v, min_docs)
        }
        length += 1
    ticker.report(_FOUND * 0.9)
    not_maximal: set[tuple[str, ...]] = set()
    for looked, (phrase, positions) in enumerate(found.items(), 1):
        if len(phrase) > 1:
            for inside in (phrase[:-1], phrase[1:]):  # both are found: they count no less
                if len(found[inside]) == len(positions):
                    not_maximal.add(inside)
        if looked % _WORK_PER_CHECK == 0:
            ticker.report(_FOUND * (0.9 + 0.1 * looked / len(found)))
    return [(phrase, pos, phrase not in not_maximal) for phrase, pos in found.items()]

"""Repeated phrases (paper B, spec §6): every word sequence of at most m words that occurs at
least `min_count` times, with where it occurs, found by two interchangeable methods.

"suffix-tree" is the paper's procedure: a word suffix tree of depth at most m built with a
parent list in O(n·m). "inverted-index" is the comparison method the paper sets out against
it: word → positions, extended one word at a time. Both return the same list (a Hypothesis
test holds them to it). Phrases never cross a sentence boundary. See docs/phrases.md."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from core.document import Document
from core.language import get_language
from core.sentences import Term, word_spans

DEFAULT_MAX_LEN = 8  # longest phrase considered (the paper's example uses 3; docs/phrases.md)
SUFFIX_TREE = "suffix-tree"
INVERTED_INDEX = "inverted-index"
METHODS = (SUFFIX_TREE, INVERTED_INDEX)


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
) -> list[Phrase]:
    """Every phrase of 1..`max_len` words occurring at least `min_count` times (overlapping
    occurrences count) in at least `min_docs` different documents, sorted maximal first, then
    longer first, then more frequent first, then alphabetically. Document numbers in the
    occurrences are positions in `docs`."""
    if max_len < 1 or min_count < 1 or min_docs < 1:
        raise ValueError("max_len, min_count and min_docs must be at least 1")
    if method == SUFFIX_TREE:
        found = _suffix_tree(docs, max_len, min_count)
    elif method == INVERTED_INDEX:
        found = _inverted_index(docs, max_len, min_count)
    else:
        raise ValueError(f"unknown method {method!r}: choose one of {', '.join(METHODS)}")
    terms = [tuple(t for sentence in doc.sentences for t in sentence) for doc in docs]
    phrases = []
    for words, positions, maximal in found:
        if len({d for d, _ in positions}) < min_docs:
            continue
        last = len(words) - 1
        occurrences = tuple(
            Occurrence(d, terms[d][w].start, terms[d][w + last].end, w)
            for d, w in sorted(positions)
        )
        phrases.append(Phrase(words, occurrences, maximal))
    phrases.sort(key=lambda p: (not p.maximal, -p.length, -p.count, p.text))
    return phrases


# what both methods hand back: (words, occurrences as (document, first word index), maximal)
_Found = list[tuple[tuple[str, ...], list[tuple[int, int]], bool]]


def _suffix_tree(docs: Sequence[PhraseInput], max_len: int, min_count: int) -> _Found:
    """The paper's procedure. Nodes live in parallel lists (node 0 is the root); a node stands
    for one word and its root path spells a phrase. For each word, the word is added under the
    root and under every node of the parent list (the nodes ending at the previous word, none
    at depth m), counting and recording the occurrence; the nodes reached become the next
    parent list. The list starts empty in every sentence, so no phrase crosses one. Each word
    touches at most m nodes: O(n·m) time, and O(n·m) nodes and occurrences at most."""
    ids: dict[str, int] = {}  # the hash table of interned words
    names: list[str] = []
    children: list[dict[int, int]] = [{}]  # word id -> node
    counts = [0]
    depth = [0]
    word = [-1]
    parent = [-1]
    # the node of the same phrase without its first word (the node one level up on the same
    # step), so left extensions are known for the maximal flag
    suffix = [-1]
    where: list[list[tuple[int, int]]] = [[]]
    for d, doc in enumerate(docs):
        position = 0  # index of the current word among the document's words
        for sentence in doc.sentences:
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
                        word.append(wid)
                        parent.append(node)
                        suffix.append(shorter)
                        where.append([])
                    counts[child] += 1
                    where[child].append((d, position - depth[child] + 1))
                    if depth[child] < max_len:
                        reached.append(child)
                    shorter = child
                parents = reached
                position += 1
    not_maximal = [False] * len(counts)
    for node in range(1, len(counts)):
        for inside in (parent[node], suffix[node]):  # the phrase less its last / first word
            if inside > 0 and counts[inside] == counts[node]:
                not_maximal[inside] = True
    # the traversal: a child never counts more than its parent, so a node under min_count
    # closes its subtree
    found: _Found = []
    stack: list[tuple[int, tuple[str, ...]]] = [(0, ())]
    while stack:
        node, words = stack.pop()
        for wid, child in children[node].items():
            if counts[child] >= min_count:
                phrase = (*words, names[wid])
                found.append((phrase, where[child], not not_maximal[child]))
                stack.append((child, phrase))
    return found


def _inverted_index(docs: Sequence[PhraseInput], max_len: int, min_count: int) -> _Found:
    """Word → positions, then phrase by phrase: the phrases of k + 1 words are the repeated
    phrases of k words followed, in the same sentence, by one more word, grouped by that word.
    Only phrases counted at least `min_count` times are extended (a longer phrase never counts
    more). O(n·m) phrase steps as well, but every step hashes a k-word key."""
    words: list[list[str]] = []
    sentence_end: list[list[int]] = []  # for each position, the end of its sentence
    for doc in docs:
        flat: list[str] = []
        ends: list[int] = []
        for sentence in doc.sentences:
            end = len(flat) + len(sentence)
            flat.extend(t.text for t in sentence)
            ends.extend([end] * len(sentence))
        words.append(flat)
        sentence_end.append(ends)
    index: defaultdict[tuple[str, ...], list[tuple[int, int]]] = defaultdict(list)
    for d, flat in enumerate(words):
        for p, w in enumerate(flat):
            index[(w,)].append((d, p))
    level = {k: v for k, v in index.items() if len(v) >= min_count}
    found: dict[tuple[str, ...], list[tuple[int, int]]] = {}
    length = 1
    while level:
        found.update(level)
        if length == max_len:
            break
        longer: defaultdict[tuple[str, ...], list[tuple[int, int]]] = defaultdict(list)
        for phrase, positions in level.items():
            for d, p in positions:
                q = p + length
                if q < sentence_end[d][p]:
                    longer[(*phrase, words[d][q])].append((d, p))
        level = {k: v for k, v in longer.items() if len(v) >= min_count}
        length += 1
    not_maximal: set[tuple[str, ...]] = set()
    for phrase, positions in found.items():
        if len(phrase) > 1:
            for inside in (phrase[:-1], phrase[1:]):  # both are found: they count no less
                if len(found[inside]) == len(positions):
                    not_maximal.add(inside)
    return [(phrase, pos, phrase not in not_maximal) for phrase, pos in found.items()]

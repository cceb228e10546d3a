"""Repeated phrases (paper B): the paper's worked example, both methods against each other and
against a brute-force count, the maximal flag, character offsets and sentence boundaries,
min_docs, progress and cancelling."""

from __future__ import annotations

import random
from collections import Counter
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core.detection.phrase_array
import core.detection.phrases
import core.shared_words
from core.detection import phrase_array
from core.detection.phrase_array import SUFFIX_ARRAY
from core.detection.phrases import (
    DEFAULT_MAX_LEN,
    INVERTED_INDEX,
    METHODS,
    SUFFIX_TREE,
    Phrase,
    PhraseInput,
    phrase_input,
    repeated_phrases,
)
from core.documents.document import Document, document_from_text
from core.documents.sentences import Term
from core.errors import Cancelled
from core.options import SignatureOptions

PAPER = "can drive trucks safely. men drive cars safely. men can drive trucks."
PAPER_PHRASES = {
    ("drive",): 3,
    ("can",): 2,
    ("trucks",): 2,
    ("safely",): 2,
    ("men",): 2,
    ("can", "drive"): 2,
    ("drive", "trucks"): 2,
    ("can", "drive", "trucks"): 2,
}


#: the paper's two methods and the compact one (`core.detection.phrase_array`)
ALL_METHODS = (*METHODS, SUFFIX_ARRAY)


def find(
    docs: list[PhraseInput],
    max_len: int = DEFAULT_MAX_LEN,
    min_count: int = 2,
    min_docs: int = 1,
    method: str = SUFFIX_TREE,
    progress: Recorder | None = None,
) -> list[Phrase]:
    """`repeated_phrases` by any of the three methods."""
    if method == SUFFIX_ARRAY:
        return phrase_array.repeated_phrases(docs, max_len, min_count, min_docs, progress)
    return repeated_phrases(docs, max_len, min_count, min_docs, method=method, progress=progress)


def english(text: str, name: str = "text") -> Document:
    return document_from_text(text, name, SignatureOptions(language="en"))


def from_words(sentences: list[list[str]]) -> tuple[str, PhraseInput]:
    """A text of the given sentences ("w w w. w w.") and its phrase input, spans into it."""
    text = ""
    grouped = []
    for sentence in sentences:
        terms = []
        for k, word in enumerate(sentence):
            if k:
                text += " "
            terms.append(Term(word, len(text), len(text) + len(word)))
            text += word
        text += ". "
        grouped.append(tuple(terms))
    return text, PhraseInput(tuple(grouped))


def as_counts(phrases: list[Phrase]) -> dict[tuple[str, ...], int]:
    return {p.words: p.count for p in phrases}


@pytest.mark.parametrize("method", ALL_METHODS)
def test_the_papers_worked_example_exactly(method: str) -> None:
    doc = english(PAPER)
    assert len(doc.sentences) == 3
    phrases = find([phrase_input(doc)], max_len=3, method=method)
    assert as_counts(phrases) == PAPER_PHRASES
    assert len(phrases) == len(PAPER_PHRASES)  # nothing listed twice


@pytest.mark.parametrize("method", ALL_METHODS)
def test_the_paper_example_maximal_flags_and_order(method: str) -> None:
    phrases = find([phrase_input(english(PAPER))], max_len=3, method=method)
    # can, drive trucks, … all sit inside "can drive trucks" with the same two occurrences;
    # drive (3), men and safely (whose neighbours differ) are maximal
    assert [(p.text, p.maximal) for p in phrases] == [
        ("can drive trucks", True),
        ("drive", True),
        ("men", True),
        ("safely", True),
        ("can drive", False),
        ("drive trucks", False),
        ("can", False),
        ("trucks", False),
    ]


@pytest.mark.parametrize("method", ALL_METHODS)
def test_maximal_on_a_hand_example(method: str) -> None:
    # "red fox" twice, one of them inside "the red fox" (left extension differs: not same count)
    _, data = from_words([["the", "red", "fox", "ran"], ["a", "red", "fox", "ran"], ["red", "x"]])
    phrases = {p.text: p for p in find([data], max_len=4, method=method)}
    assert phrases["red fox ran"].count == 2 and phrases["red fox ran"].maximal
    assert not phrases["red fox"].maximal  # always followed by "ran"
    assert not phrases["fox ran"].maximal  # always preceded by "red"
    assert not phrases["fox"].maximal
    assert phrases["red"].count == 3 and phrases["red"].maximal  # "red x" breaks the tie
    assert not phrases["ran"].maximal


@pytest.mark.parametrize("method", ALL_METHODS)
def test_a_phrase_of_max_len_words_is_maximal(method: str) -> None:
    _, data = from_words([["a", "b", "c"], ["a", "b", "c"]])
    phrases = {p.text: p.maximal for p in find([data], max_len=2, method=method)}
    assert phrases == {"a b": True, "b c": True, "a": False, "b": False, "c": False}


@pytest.mark.parametrize("method", ALL_METHODS)
def test_character_offsets_slice_the_documents_text(method: str) -> None:
    docs = [
        english("The Quick brown fox, it said, jumped. Then the quick brown fox slept.", "a"),
        english("A quick brown fox! Nobody saw the quick brown fox.", "b"),
    ]
    phrases = find([phrase_input(d) for d in docs], method=method)
    assert phrases
    found = {p.text for p in phrases}
    assert "the quick brown fox" in found
    for phrase in phrases:
        for o in phrase.occurrences:
            text = docs[o.document].text[o.start : o.end]
            assert text.casefold().split() == list(phrase.words)
    quick = next(p for p in phrases if p.text == "the quick brown fox")
    assert quick.documents == (0, 1) and quick.count == 3
    assert [docs[o.document].text[o.start : o.end] for o in quick.occurrences] == [
        "The Quick brown fox",
        "the quick brown fox",
        "the quick brown fox",
    ]


@pytest.mark.parametrize("method", ALL_METHODS)
def test_phrases_never_cross_a_sentence_boundary(method: str) -> None:
    # "trucks men" and "safely men" are adjacent words twice over, but across a full stop
    doc = english("Drive trucks. Men walk. Drive trucks. Men walk.")
    phrases = find([phrase_input(doc)], max_len=4, method=method)
    assert {p.text for p in phrases} == {
        "drive trucks",
        "men walk",
        "drive",
        "trucks",
        "men",
        "walk",
    }
    assert all(
        any(s.start <= o.start and o.end <= s.end for s in doc.sentences)
        for p in phrases
        for o in p.occurrences
    )


@pytest.mark.parametrize("method", ALL_METHODS)
def test_min_docs_keeps_phrases_shared_across_documents(method: str) -> None:
    docs = [
        phrase_input(english("We sat by the sea. We sat by the sea.")),
        phrase_input(english("The sea was calm.")),
    ]
    one = as_counts(find(docs, method=method))
    two = as_counts(find(docs, min_docs=2, method=method))
    assert one[("we", "sat", "by", "the", "sea")] == 2
    assert two == {("the", "sea"): 3, ("the",): 3, ("sea",): 3}
    assert find(docs, min_docs=3, method=method) == []


@pytest.mark.parametrize("method", ALL_METHODS)
def test_min_count_one_lists_every_phrase(method: str) -> None:
    _, data = from_words([["a", "b", "c"]])
    assert as_counts(find([data], min_count=1, method=method)) == {
        ("a",): 1,
        ("b",): 1,
        ("c",): 1,
        ("a", "b"): 1,
        ("b", "c"): 1,
        ("a", "b", "c"): 1,
    }


def test_stop_words_are_kept_unless_asked() -> None:
    doc = english("The cat sat on the mat. The cat sat on the mat.")
    kept = {p.text for p in repeated_phrases([phrase_input(doc)]) if p.maximal}
    assert kept == {"the cat sat on the mat", "the"}  # "the" occurs 4 times
    dropped = repeated_phrases([phrase_input(doc, remove_stopwords=True)])
    assert {p.text for p in dropped if p.maximal} == {"cat sat mat"}
    occurrence = next(p for p in dropped if p.maximal).occurrences[0]
    assert doc.text[occurrence.start : occurrence.end] == "cat sat on the mat"


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown method"):
        repeated_phrases([], method="bogus")
    with pytest.raises(ValueError):
        repeated_phrases([], max_len=0)
    assert repeated_phrases([]) == []
    assert DEFAULT_MAX_LEN > 3  # longer than the paper's example, for plagiarism work


def brute_force(
    sentences_per_doc: list[list[list[str]]], max_len: int, min_count: int, min_docs: int
) -> dict[tuple[str, ...], int]:
    counts: Counter[tuple[str, ...]] = Counter()
    docs: dict[tuple[str, ...], set[int]] = {}
    for d, sentences in enumerate(sentences_per_doc):
        for sentence in sentences:
            for i in range(len(sentence)):
                for k in range(1, max_len + 1):
                    if i + k <= len(sentence):
                        gram = tuple(sentence[i : i + k])
                        counts[gram] += 1
                        docs.setdefault(gram, set()).add(d)
    return {g: n for g, n in counts.items() if n >= min_count and len(docs[g]) >= min_docs}


sentence = st.lists(st.sampled_from("abcd"), min_size=0, max_size=7)
document = st.lists(sentence, min_size=0, max_size=5)


class Recorder:
    """A progress callback that records the fractions and cancels at call `cancel_at`."""

    def __init__(self, cancel_at: int | None = None) -> None:
        self.calls: list[float] = []
        self.cancel_at = cancel_at

    def __call__(self, fraction: float) -> None:
        self.calls.append(fraction)
        if len(self.calls) == self.cancel_at:
            raise Cancelled

    def assert_well_behaved(self) -> None:
        assert self.calls, "never called"
        assert all(0.0 <= f <= 1.0 for f in self.calls)
        assert self.calls == sorted(self.calls)  # never goes back
        assert self.calls[-1] == 1.0 and self.calls.count(1.0) == 1  # ends exactly once, at 1


@settings(max_examples=300, deadline=None)
@given(
    corpus=st.lists(document, min_size=1, max_size=4),
    max_len=st.integers(1, 5),
    min_count=st.integers(1, 3),
    min_docs=st.integers(1, 4),
    work_per_check=st.integers(1, 5),
    cancel_at=st.integers(1, 40),
)
def test_both_methods_give_identical_output(
    corpus: list[list[list[str]]],
    max_len: int,
    min_count: int,
    min_docs: int,
    work_per_check: int,
    cancel_at: int,
) -> None:
    inputs = [from_words(doc)[1] for doc in corpus]
    tree, index = (
        repeated_phrases(inputs, max_len, min_count, min_docs, method=method) for method in METHODS
    )
    assert tree == index
    assert as_counts(tree) == brute_force(corpus, max_len, min_count, min_docs)
    for phrase in tree:  # maximal means no one-word-longer listed phrase with the same count
        longer = [p for p in tree if p.length == phrase.length + 1 and p.count == phrase.count]
        inside = any(p.words[1:] == phrase.words or p.words[:-1] == phrase.words for p in longer)
        assert phrase.maximal == (not inside)
        places = [(o.document, o.word) for o in phrase.occurrences]
        assert places == sorted(places) and len(set(places)) == len(places)
    # progress, called often here (every few units of work), changes nothing and ends at 1.0;
    # raising Cancelled from it at any call stops the work
    with mock.patch.object(core.detection.phrases, "_WORK_PER_CHECK", work_per_check):
        for method, expected in zip(METHODS, (tree, index), strict=True):
            recorder = Recorder()
            args = (inputs, max_len, min_count, min_docs, method)
            assert repeated_phrases(*args, progress=recorder) == expected
            recorder.assert_well_behaved()
            canceller = Recorder(cancel_at)
            if cancel_at <= len(recorder.calls):
                with pytest.raises(Cancelled):
                    repeated_phrases(*args, progress=canceller)
                assert len(canceller.calls) == cancel_at
            else:
                assert repeated_phrases(*args, progress=canceller) == expected


@pytest.fixture(scope="module")
def large() -> list[PhraseInput]:
    """Two documents of 40,000 words each (several progress steps), sentences of 3 to 12 words
    drawn from 300 words, so there are phrases shared by both. (No text behind them: the spans
    are made up, which the engine does not look at.)"""
    rng = random.Random(7)
    vocabulary = [f"w{k}" for k in range(300)]
    docs = []
    for _ in range(2):
        sentences: list[tuple[Term, ...]] = []
        words = 0
        while words < 40_000:
            picked = rng.choices(vocabulary, k=rng.randint(3, 12))
            sentences.append(tuple(Term(w, 0, 0) for w in picked))
            words += len(picked)
        docs.append(PhraseInput(tuple(sentences)))
    return docs


def engine(method: str) -> object:
    """The module whose _WORK_PER_CHECK paces `method`'s progress calls."""
    return core.detection.phrase_array if method == SUFFIX_ARRAY else core.detection.phrases


@pytest.mark.parametrize("method", ALL_METHODS)
def test_progress_on_a_large_input(method: str, large: list[PhraseInput]) -> None:
    assert sum(d.word_count for d in large) > engine(method)._WORK_PER_CHECK  # type: ignore[attr-defined]
    recorder = Recorder()
    phrases = find(large, max_len=3, min_docs=2, method=method, progress=recorder)
    recorder.assert_well_behaved()
    assert len(recorder.calls) >= 3  # along the way, not only at the end
    assert phrases and all(p.documents == (0, 1) for p in phrases if p.length == 3)


@pytest.mark.parametrize("method", ALL_METHODS)
def test_cancel_stops_the_work(method: str, large: list[PhraseInput]) -> None:
    canceller = Recorder(cancel_at=2)  # the first call passes, the second cancels
    with pytest.raises(Cancelled):
        find(large, max_len=3, method=method, progress=canceller)
    assert len(canceller.calls) == 2 and canceller.calls[-1] < 1.0


@pytest.mark.parametrize("method", ALL_METHODS)
def test_cancel_inside_one_long_sentence(method: str) -> None:
    # no full stop in 10,000 words (a PDF without punctuation), ten progress steps long: the
    # first call still comes after one step of words, not once the sentence is read
    rng = random.Random(3)
    words = rng.choices([f"w{k}" for k in range(50)], k=10_000)
    data = PhraseInput((tuple(Term(w, 0, 0) for w in words),))
    canceller = Recorder(cancel_at=1)
    with (
        mock.patch.object(engine(method), "_WORK_PER_CHECK", 1_000),
        pytest.raises(Cancelled),
    ):
        find([data], max_len=2, method=method, progress=canceller)
    assert canceller.calls[0] < 0.2


# --- the compact method (core.detection.phrase_array) against the paper's tree -------------

# words that are prefixes of each other ("a" < "ab" < "a-b"), and one with a character that
# sorts before the space joining a phrase's words, so text order is not word order
tricky_sentence = st.lists(st.sampled_from(["a", "ab", "a-b", "b", "c", "a\x1f"]), max_size=8)
tricky_document = st.lists(tricky_sentence, max_size=6)


@settings(max_examples=300, deadline=None)
@given(
    corpus=st.lists(tricky_document, min_size=1, max_size=4),
    max_len=st.integers(1, 6),
    min_count=st.integers(1, 3),
    min_docs=st.integers(1, 3),
    direct_sort=st.sampled_from([1, 2, 3, 1 << 16]),
    work_per_check=st.integers(1, 7),
    cancel_at=st.integers(1, 40),
)
def test_the_suffix_array_lists_what_the_tree_lists(
    corpus: list[list[list[str]]],
    max_len: int,
    min_count: int,
    min_docs: int,
    direct_sort: int,
    work_per_check: int,
    cancel_at: int,
) -> None:
    inputs = [from_words(doc)[1] for doc in corpus]
    tree = repeated_phrases(inputs, max_len, min_count, min_docs, method=SUFFIX_TREE)
    assert as_counts(tree) == brute_force(corpus, max_len, min_count, min_docs)
    # small groups sorted at once, larger ones split by their next word first: both ways
    with mock.patch.object(core.detection.phrase_array, "_DIRECT_SORT", direct_sort):
        assert phrase_array.repeated_phrases(inputs, max_len, min_count, min_docs) == tree
        table = phrase_array.find_phrases(
            phrase_array.words_of(inputs), max_len, min_count, min_docs
        )
    assert (table.total, table.maximal_total) == (len(tree), sum(p.maximal for p in tree))
    # the maximal phrases alone, from some length on (what shared_phrases reads), same order
    words = table.words
    for min_length in (1, 3):
        listed = [
            (p.length, [o.word + words.doc_starts[o.document] for o in p.occurrences])
            for p in tree
            if p.maximal and p.length >= min_length
        ]
        found = [
            (length, positions)
            for length, positions, _ in table.listing(min_length, maximal_only=True)
        ]
        assert found == listed
    with mock.patch.object(core.detection.phrase_array, "_WORK_PER_CHECK", work_per_check):
        recorder = Recorder()
        assert phrase_array.repeated_phrases(inputs, max_len, min_count, min_docs, recorder) == tree
        recorder.assert_well_behaved()
        canceller = Recorder(cancel_at)
        if cancel_at <= len(recorder.calls):
            with pytest.raises(Cancelled):
                phrase_array.repeated_phrases(inputs, max_len, min_count, min_docs, canceller)
            assert len(canceller.calls) == cancel_at


@settings(max_examples=100, deadline=None)
@given(corpus=st.lists(tricky_document, min_size=1, max_size=3), max_len=st.integers(1, 5))
def test_count_at_counts_the_phrase_at_a_position(
    corpus: list[list[list[str]]], max_len: int
) -> None:
    words = phrase_array.words_of([from_words(doc)[1] for doc in corpus])
    table = phrase_array.find_phrases(words, max_len)
    sentences = [sentence for doc in corpus for sentence in doc]
    counts = Counter(
        tuple(s[i : i + k])
        for s in sentences
        for k in range(1, max_len + 1)
        for i in range(len(s) - k + 1)
    )
    position = 0
    for sentence in sentences:
        for i in range(len(sentence)):
            for length in range(1, max_len + 1):
                expected = (
                    counts[tuple(sentence[i : i + length])] if i + length <= len(sentence) else 0
                )
                assert table.count_at(position + i, length) == expected
        position += len(sentence)


def test_words_of_a_document_are_its_phrase_input() -> None:
    doc = english(
        "The Quick brown fox, it said, jumped. Then the well-known fox slept 3.14 hours. "
        "Nobody saw the quick brown fox."
    )
    for remove in (False, True):
        data = phrase_input(doc, remove_stopwords=remove)
        words = phrase_array.PhraseWords()
        words.add_document(doc, remove_stopwords=remove)
        expected = phrase_array.words_of([data])
        expected.sort_names()
        words.sort_names()
        assert words.names == expected.names
        for field in ("ids", "starts", "ends", "sentence_end", "doc_starts"):
            assert getattr(words, field) == getattr(expected, field)


def test_the_suffix_array_stays_compact_where_the_tree_does_not() -> None:
    """Python memory (tracemalloc: deterministic for one input) a word, a document of 4,000
    words against a copy of itself, where every phrase repeats: the tree keeps a node with a
    dict and a list per distinct phrase, the suffix array a few ints a word."""
    import tracemalloc

    rng = random.Random(5)
    vocabulary = [f"w{k}" for k in range(2_000)]
    sentences = []
    while sum(len(s) for s in sentences) < 4_000:
        sentences.append(rng.choices(vocabulary, k=rng.randint(4, 30)))
    data = from_words(sentences)[1]
    n = 2 * data.word_count

    def peak(job: object) -> float:
        tracemalloc.start()
        try:
            job()  # type: ignore[operator]
            return tracemalloc.get_traced_memory()[1] / n
        finally:
            tracemalloc.stop()

    def compact() -> None:
        table = phrase_array.find_phrases(phrase_array.words_of([data, data]), 8, 2, 2)
        for _ in table.listing(min_length=4, maximal_only=True):
            pass

    def tree() -> None:
        repeated_phrases([data, data], 8, 2, 2, method=SUFFIX_TREE)

    compact_bytes, tree_bytes = peak(compact), peak(tree)
    assert compact_bytes < 120  # bytes a word, for the table and its largest sort
    assert tree_bytes > 10 * compact_bytes


# --- shared phrases: the compact engine against the implementation it replaced ----------


def oracle_shared_phrases(
    a: Document, b: Document, min_words: int, limit: int, seed_words: int
) -> core.shared_words.SharedPhrases:
    """`core.shared_words.shared_phrases` as it was before the suffix array (the inverted
    index, Python lists of words and sentence bounds), kept as the test's oracle."""
    from core.shared_words import SharedPhrase, SharedPhrases

    seed_len = max(seed_words, min_words)
    inputs = [phrase_input(a), phrase_input(b)]
    found = repeated_phrases(
        inputs, max_len=seed_len, min_count=2, min_docs=2, method=INVERTED_INDEX
    )
    words = [[t.text for sentence in doc.sentences for t in sentence] for doc in inputs]
    terms = [[t for sentence in doc.sentences for t in sentence] for doc in inputs]
    bounds = []
    for doc in inputs:
        starts: list[int] = []
        ends: list[int] = []
        position = 0
        for sentence in doc.sentences:
            starts.extend([position] * len(sentence))
            ends.extend([position + len(sentence)] * len(sentence))
            position += len(sentence)
        bounds.append((starts, ends))
    counts = {p.words: p.count for p in found if p.length == seed_len}

    def inside_chain(phrase: Phrase, places: list[tuple[int, int]]) -> bool:
        before = set()
        for d, w in places:
            if w == bounds[d][0][w]:
                return False
            before.add(words[d][w - 1])
            if len(before) > 1:
                return False
        return counts.get((before.pop(), *phrase.words[:-1])) == phrase.count

    def grow(places: list[tuple[int, int]], length: int) -> tuple[list[tuple[int, int]], int]:
        while True:
            nexts: set[str] = set()
            for d, w in places:
                if w + length >= bounds[d][1][w]:
                    nexts.clear()
                    break
                nexts.add(words[d][w + length])
            if len(nexts) != 1:
                break
            length += 1
        while True:
            previous: set[str] = set()
            for d, w in places:
                if w == bounds[d][0][w]:
                    previous.clear()
                    break
                previous.add(words[d][w - 1])
            if len(previous) != 1:
                break
            places = [(d, w - 1) for d, w in places]
            length += 1
        return places, length

    listed: dict[tuple[tuple[tuple[int, int], ...], int], SharedPhrase] = {}
    for phrase in found:
        if not phrase.maximal or phrase.length < min_words:
            continue
        places = [(o.document, o.word) for o in phrase.occurrences]
        length = phrase.length
        if length == seed_len:
            if inside_chain(phrase, places):
                continue
            places, length = grow(places, length)
        key = (tuple(places), length)
        if key in listed:
            continue
        first_doc, first_word = places[0]
        spans: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
        for d, w in places:
            spans[d].append((terms[d][w].start, terms[d][w + length - 1].end))
        start, end = spans[0][0]
        listed[key] = SharedPhrase(
            tuple(words[first_doc][first_word : first_word + length]),
            tuple(spans[0]),
            tuple(spans[1]),
            " ".join(a.text[start:end].split()),
        )
    ordered = sorted(
        listed.values(), key=lambda p: (-p.length, -(len(p.in_a) + len(p.in_b)), p.text)
    )
    return SharedPhrases(tuple(ordered[:limit]), len(ordered), min_words, limit)


prose_sentence = st.lists(
    st.sampled_from(["the", "fox", "ran", "far", "The", "Fox", "sat", "still"]),
    min_size=1,
    max_size=12,
).map(lambda ws: " ".join(ws) + ".")


@settings(max_examples=150, deadline=None)
@given(
    a_sentences=st.lists(prose_sentence, min_size=1, max_size=8),
    b_own=st.lists(prose_sentence, max_size=6),
    copied=st.lists(st.integers(0, 7), max_size=8),
    min_words=st.integers(1, 5),
    seed_words=st.integers(1, 6),
    limit=st.integers(0, 6),
)
def test_shared_phrases_lists_what_the_inverted_index_listed(
    a_sentences: list[str],
    b_own: list[str],
    copied: list[int],
    min_words: int,
    seed_words: int,
    limit: int,
) -> None:
    from core.shared_words import shared_phrases

    b_sentences = [a_sentences[k % len(a_sentences)] for k in copied] + b_own
    rng = random.Random(len(copied))
    rng.shuffle(b_sentences)
    a = english(" ".join(a_sentences), "a")
    b = english(" ".join(b_sentences) or "Nothing here.", "b")
    expected = oracle_shared_phrases(a, b, min_words, limit, seed_words)
    got = shared_phrases(a, b, min_words=min_words, limit=limit, seed_words=seed_words)
    assert got == expected


def test_shared_phrases_of_a_document_and_its_copy_match_the_oracle() -> None:
    rng = random.Random(11)
    vocabulary = [f"w{k}" for k in range(40)]
    text = " ".join(
        " ".join(rng.choices(vocabulary, k=rng.randint(3, 25))).capitalize() + "."
        for _ in range(300)
    )
    a, b = english(text, "a"), english(text, "b")
    from core.shared_words import shared_phrases

    assert shared_phrases(a, b) == oracle_shared_phrases(a, b, 4, 500, 8)

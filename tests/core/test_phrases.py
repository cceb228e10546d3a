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

import core.detection.phrases
from core.detection.phrases import (
    DEFAULT_MAX_LEN,
    METHODS,
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


@pytest.mark.parametrize("method", METHODS)
def test_the_papers_worked_example_exactly(method: str) -> None:
    doc = english(PAPER)
    assert len(doc.sentences) == 3
    phrases = repeated_phrases([phrase_input(doc)], max_len=3, method=method)
    assert as_counts(phrases) == PAPER_PHRASES
    assert len(phrases) == len(PAPER_PHRASES)  # nothing listed twice


@pytest.mark.parametrize("method", METHODS)
def test_the_paper_example_maximal_flags_and_order(method: str) -> None:
    phrases = repeated_phrases([phrase_input(english(PAPER))], max_len=3, method=method)
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


@pytest.mark.parametrize("method", METHODS)
def test_maximal_on_a_hand_example(method: str) -> None:
    # "red fox" twice, one of them inside "the red fox" (left extension differs: not same count)
    _, data = from_words([["the", "red", "fox", "ran"], ["a", "red", "fox", "ran"], ["red", "x"]])
    phrases = {p.text: p for p in repeated_phrases([data], max_len=4, method=method)}
    assert phrases["red fox ran"].count == 2 and phrases["red fox ran"].maximal
    assert not phrases["red fox"].maximal  # always followed by "ran"
    assert not phrases["fox ran"].maximal  # always preceded by "red"
    assert not phrases["fox"].maximal
    assert phrases["red"].count == 3 and phrases["red"].maximal  # "red x" breaks the tie
    assert not phrases["ran"].maximal


@pytest.mark.parametrize("method", METHODS)
def test_a_phrase_of_max_len_words_is_maximal(method: str) -> None:
    _, data = from_words([["a", "b", "c"], ["a", "b", "c"]])
    phrases = {p.text: p.maximal for p in repeated_phrases([data], max_len=2, method=method)}
    assert phrases == {"a b": True, "b c": True, "a": False, "b": False, "c": False}


@pytest.mark.parametrize("method", METHODS)
def test_character_offsets_slice_the_documents_text(method: str) -> None:
    docs = [
        english("The Quick brown fox, it said, jumped. Then the quick brown fox slept.", "a"),
        english("A quick brown fox! Nobody saw the quick brown fox.", "b"),
    ]
    phrases = repeated_phrases([phrase_input(d) for d in docs], method=method)
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


@pytest.mark.parametrize("method", METHODS)
def test_phrases_never_cross_a_sentence_boundary(method: str) -> None:
    # "trucks men" and "safely men" are adjacent words twice over, but across a full stop
    doc = english("Drive trucks. Men walk. Drive trucks. Men walk.")
    phrases = repeated_phrases([phrase_input(doc)], max_len=4, method=method)
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


@pytest.mark.parametrize("method", METHODS)
def test_min_docs_keeps_phrases_shared_across_documents(method: str) -> None:
    docs = [
        phrase_input(english("We sat by the sea. We sat by the sea.")),
        phrase_input(english("The sea was calm.")),
    ]
    one = as_counts(repeated_phrases(docs, method=method))
    two = as_counts(repeated_phrases(docs, min_docs=2, method=method))
    assert one[("we", "sat", "by", "the", "sea")] == 2
    assert two == {("the", "sea"): 3, ("the",): 3, ("sea",): 3}
    assert repeated_phrases(docs, min_docs=3, method=method) == []


@pytest.mark.parametrize("method", METHODS)
def test_min_count_one_lists_every_phrase(method: str) -> None:
    _, data = from_words([["a", "b", "c"]])
    assert as_counts(repeated_phrases([data], min_count=1, method=method)) == {
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


@pytest.mark.parametrize("method", METHODS)
def test_progress_on_a_large_input(method: str, large: list[PhraseInput]) -> None:
    assert sum(d.word_count for d in large) > core.detection.phrases._WORK_PER_CHECK
    recorder = Recorder()
    phrases = repeated_phrases(large, max_len=3, min_docs=2, method=method, progress=recorder)
    recorder.assert_well_behaved()
    assert len(recorder.calls) >= 3  # along the way, not only at the end
    assert phrases and all(p.documents == (0, 1) for p in phrases if p.length == 3)


@pytest.mark.parametrize("method", METHODS)
def test_cancel_stops_the_work(method: str, large: list[PhraseInput]) -> None:
    canceller = Recorder(cancel_at=2)  # the first call passes, the second cancels
    with pytest.raises(Cancelled):
        repeated_phrases(large, max_len=3, method=method, progress=canceller)
    assert len(canceller.calls) == 2 and canceller.calls[-1] < 1.0


@pytest.mark.parametrize("method", METHODS)
def test_cancel_inside_one_long_sentence(method: str) -> None:
    # no full stop in 10,000 words (a PDF without punctuation), ten progress steps long: the
    # first call still comes after one step of words, not once the sentence is read
    rng = random.Random(3)
    words = rng.choices([f"w{k}" for k in range(50)], k=10_000)
    data = PhraseInput((tuple(Term(w, 0, 0) for w in words),))
    canceller = Recorder(cancel_at=1)
    with (
        mock.patch.object(core.detection.phrases, "_WORK_PER_CHECK", 1_000),
        pytest.raises(Cancelled),
    ):
        repeated_phrases([data], max_len=2, method=method, progress=canceller)
    assert canceller.calls[0] < 0.2

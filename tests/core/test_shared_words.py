"""Shared words inside verified blocks (a longest common subsequence per aligned sentence pair)
and shared phrases between two documents, against hand examples and brute-force oracles."""

from __future__ import annotations

from collections import defaultdict
from functools import cache
from itertools import pairwise

from docmakers import COPIED, FILLER_A, FILLER_B, RESHAPED
from hypothesis import given, settings
from hypothesis import strategies as st

from core.comparison import compare_documents
from core.detection.phrases import phrase_input
from core.documents.document import Document, document_from_text
from core.documents.sentences import word_spans
from core.options import SignatureOptions
from core.shared_words import (
    MAX_ALIGNED_WORDS,
    MIN_PHRASE_WORDS,
    SEED_WORDS,
    common_words,
    shared_phrases,
    shared_words,
)


def english(text: str, name: str = "text") -> Document:
    return document_from_text(text, name, SignatureOptions(language="en"))


def words_of(text: str, span: tuple[int, int]) -> list[tuple[int, int]]:
    return word_spans(text, *span)


def covered(spans: list[tuple[int, int]], runs: list[tuple[int, int]]) -> list[bool]:
    return [any(s >= a and e <= b for a, b in runs) for s, e in spans]


# --- shared words ------------------------------------------------------------------------


def test_a_word_for_word_block_shares_every_word_in_one_run() -> None:
    comparison = compare_documents(english(FILLER_A + COPIED), english(FILLER_B + COPIED))
    (piece,) = shared_words(comparison)
    block = comparison.blocks[piece.block]
    span_a, span_b = comparison.piece_chars(block.pieces[piece.part])
    assert piece.word_for_word
    assert piece.words_a == piece.words_b == len(words_of(comparison.a.text, span_a))
    assert piece.shared == piece.words_a
    (run,) = piece.runs  # consecutive words merge, across sentence boundaries too
    assert (run.a_start, run.a_end) == span_a  # with the final full stop: the same in both
    assert (run.b_start, run.b_end) == span_b
    assert comparison.a.text[run.a_start : run.a_end] == COPIED


def test_a_block_alike_only_in_shape_shares_only_the_words_it_repeats() -> None:
    comparison = compare_documents(english(FILLER_A + COPIED), english(FILLER_B + RESHAPED))
    (piece,) = shared_words(comparison)
    assert not piece.word_for_word
    a, b = comparison.a.text, comparison.b.text
    shared_a = [a[r.a_start : r.a_end] for r in piece.runs]
    shared_b = [b[r.b_start : r.b_end] for r in piece.runs]
    assert shared_a == shared_b  # a run is the same words on both sides
    assert shared_a == [
        "Photosynthesis converts",
        "into",
        "in",
        "Chlorophyll absorbs",
        "and",
        "from",
        "Oxygen is released as a",
        "of",
        "molecules.",  # punctuation both have next to a run goes with it
    ]
    span_a, _ = comparison.piece_chars(comparison.blocks[piece.block].pieces[piece.part])
    spans = words_of(a, span_a)
    marked = covered(spans, [(r.a_start, r.a_end) for r in piece.runs])
    assert [a[s:e] for (s, e), m in zip(spans, marked, strict=True) if not m][:4] == [
        "light",
        "energy",
        "chemical",
        "energy",
    ]
    assert piece.shared == sum(marked)


def test_punctuation_joins_a_run_only_where_both_texts_have_it() -> None:
    a = english(FILLER_A + COPIED)
    b = english(FILLER_B + COPIED.replace("glucose.", "glucose!"))
    (piece,) = shared_words(compare_documents(a, b))
    runs = [a.text[r.a_start : r.a_end] for r in piece.runs]
    assert runs[0].endswith("in glucose")  # "." against "!": the run stops
    assert runs[1].startswith("Chlorophyll") and runs[-1].endswith("molecules.")
    assert runs == [b.text[r.b_start : r.b_end] for r in piece.runs]


def test_words_match_ignoring_case_and_keep_their_own_spans() -> None:
    assert common_words(["the", "cat"], ["the", "cat"]) == [(0, 0), (1, 1)]
    assert common_words(["a", "b", "c", "d"], ["b", "x", "d"]) == [(1, 0), (3, 2)]
    assert common_words([], ["a"]) == [] and common_words(["a"], []) == []


def test_very_long_sentences_fall_back_to_a_multiset_intersection() -> None:
    n = MAX_ALIGNED_WORDS + 1
    a = [f"w{k}" for k in range(n)]
    b = list(reversed(a))  # an LCS would keep one word; the multiset keeps all
    pairs = common_words(a, b)
    assert len(pairs) == n
    assert all(a[i] == b[j] for i, j in pairs)
    assert len({j for _, j in pairs}) == n


@cache
def lcs_length(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    if not a or not b:
        return 0
    if a[0] == b[0]:
        return 1 + lcs_length(a[1:], b[1:])
    return max(lcs_length(a[1:], b), lcs_length(a, b[1:]))


WORDS = st.lists(st.sampled_from("abcd"), max_size=12)


@given(WORDS, WORDS)
@settings(max_examples=300, deadline=None)
def test_common_words_are_a_longest_common_subsequence(a: list[str], b: list[str]) -> None:
    pairs = common_words(a, b)
    assert all(a[i] == b[j] for i, j in pairs)
    assert all(i1 < i2 and j1 < j2 for (i1, j1), (i2, j2) in pairwise(pairs))
    assert len(pairs) == lcs_length(tuple(a), tuple(b))


@given(WORDS)
@settings(max_examples=50, deadline=None)
def test_a_sentence_shares_all_its_words_with_itself(a: list[str]) -> None:
    assert common_words(a, list(a)) == [(k, k) for k in range(len(a))]


# --- shared phrases ----------------------------------------------------------------------


def test_a_copied_sentence_is_one_phrase_not_a_chain_of_short_ones() -> None:
    long_sentence = (
        "The committee agreed after a long and heated debate that the old bridge over the "
        "river should be rebuilt in stone before the winter floods arrive."
    )
    a = english(f"{FILLER_A}{long_sentence} The end came quickly.")
    b = english(f"{long_sentence} {FILLER_B}")
    found = shared_phrases(a, b)
    first = found.phrases[0]
    assert first.length == len(long_sentence.split()) > SEED_WORDS
    start = a.text.index("The committee")
    assert first.in_a == ((start, start + len(long_sentence) - 1),)  # to "arrive", no "."
    assert first.in_b == ((0, len(long_sentence) - 1),)
    # nothing else inside it: its shorter pieces have exactly its occurrences
    assert all(p.length < first.length for p in found.phrases[1:])
    assert not any(p.text in first.text for p in found.phrases[1:] if p.in_a == first.in_a)


def test_phrases_are_listed_longest_first_then_most_used() -> None:
    a = english(
        "We went to the big red barn by the lake. The big red barn was empty. "
        "Someone said that the quick brown fox jumps over the lazy dog at noon."
    )
    b = english(
        "They painted the big red barn by the lake again. The big red barn stood. "
        "A teacher wrote that the quick brown fox jumps over the lazy dog at dusk."
    )
    found = shared_phrases(a, b)
    texts = [p.text for p in found.phrases]
    assert texts[0] == "that the quick brown fox jumps over the lazy dog at"
    assert "the big red barn by the lake" in texts
    assert "the big red barn" in texts  # occurs more often than its longer phrase
    barn = found.phrases[texts.index("the big red barn")]
    assert len(barn.in_a) == 2 and len(barn.in_b) == 2
    lengths = [p.length for p in found.phrases]
    assert lengths == sorted(lengths, reverse=True)
    assert min(lengths) >= MIN_PHRASE_WORDS
    assert not found.capped and found.total == len(found.phrases)


def test_the_list_is_capped_and_says_so() -> None:
    sentences = [f"Word{k} one two three four five." for k in range(6)]
    text = " ".join(sentences)
    found = shared_phrases(english(text), english(text), min_words=2, limit=3)
    assert len(found.phrases) == 3 and found.total > 3 and found.capped


def test_no_shared_phrase_in_unrelated_documents() -> None:
    assert shared_phrases(english(FILLER_A), english(FILLER_B)).phrases == ()


VOCAB = ["red", "green", "blue", "cat"]
SENTENCES = st.lists(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=9), max_size=5)


def text_of(sentences: list[list[str]]) -> str:
    return " ".join(" ".join([s[0].capitalize(), *s[1:]]) + "." for s in sentences)


def oracle(docs: list[Document]) -> dict[tuple[str, ...], list[tuple[int, tuple[int, int]]]]:
    """Every phrase inside a sentence, any length, with its occurrences (document, span)."""
    where: defaultdict[tuple[str, ...], list[tuple[int, tuple[int, int]]]] = defaultdict(list)
    for d, doc in enumerate(docs):
        for sentence in phrase_input(doc).sentences:
            for i in range(len(sentence)):
                for j in range(i + 1, len(sentence) + 1):
                    words = tuple(t.text for t in sentence[i:j])
                    where[words].append((d, (sentence[i].start, sentence[j - 1].end)))
    return where


@given(SENTENCES, SENTENCES, st.integers(2, 4), st.integers(2, 5))
@settings(max_examples=200, deadline=None)
def test_shared_phrases_match_a_brute_force_count(
    sentences_a: list[list[str]], sentences_b: list[list[str]], min_words: int, seed: int
) -> None:
    docs = [english(text_of(sentences_a)), english(text_of(sentences_b))]
    found = shared_phrases(*docs, min_words=min_words, seed_words=seed)
    where = oracle(docs)

    def count(words: tuple[str, ...]) -> int:
        return len(where.get(words, ()))

    def maximal(words: tuple[str, ...]) -> bool:
        return all(
            count(longer) < count(words)
            for word in VOCAB
            for longer in ((word, *words), (*words, word))
        )

    listed = {p.words: p for p in found.phrases}
    assert len(listed) == len(found.phrases)
    for phrase in found.phrases:  # sound: exact occurrences, in both, long enough, maximal
        occurrences = where[phrase.words]
        assert phrase.in_a == tuple(s for d, s in occurrences if d == 0)
        assert phrase.in_b == tuple(s for d, s in occurrences if d == 1)
        assert phrase.in_a and phrase.in_b
        assert phrase.length >= min_words and maximal(phrase.words)
    seed = max(seed, min_words)
    for words, occurrences in where.items():  # complete, wherever the engine can see it
        in_both = {d for d, _ in occurrences} == {0, 1}
        if not in_both or len(words) < min_words or not maximal(words):
            continue
        windows = [words[k : k + seed] for k in range(max(1, len(words) - seed + 1))]
        if any(count(w) == count(words) for w in windows):
            assert words in listed
    keys = [(-p.length, -(len(p.in_a) + len(p.in_b)), p.text) for p in found.phrases]
    assert keys == sorted(keys)

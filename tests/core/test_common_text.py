"""Common text in a batch (core.batch.common_text): text more than a share of the documents hold is
found exactly (a brute-force oracle holds the chunked count to it), its sentences are excluded
whole, and the documents themselves never change."""

from __future__ import annotations

import pickle
import random
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.batch import common_text as common_text
from core.batch.common_text import (
    ChunkedCounter,
    CommonTextFinder,
    drop_sentences,
    exclude_common_text,
    find_common_text,
    fingerprint_document,
    frequent_fingerprints,
    minimum_documents,
)
from core.detection.phrases import phrase_input
from core.documents.document import Document, document_from_text, with_exclusions
from core.documents.excluded_spans import ExcludedSpan, ExclusionKind
from core.errors import Cancelled
from core.options import SignatureOptions

EN = SignatureOptions(language="en")
PROMPT = (
    "Read the passage below and answer the questions that follow. Discuss how the author "
    "uses the setting to build tension in the opening chapters. Refer closely to the "
    "language of the text in your answer."
)
PROMPT_SENTENCES = 3


def sentence(rng: random.Random, vocabulary: list[str]) -> str:
    return " ".join(rng.choice(vocabulary) for _ in range(rng.randint(4, 14))).capitalize() + "."


def essays(count: int, seed: int = 1, sentences: int = 20) -> list[list[str]]:
    """Essays of random sentences over a large vocabulary: nothing repeats by chance."""
    rng = random.Random(seed)
    vocabulary = [f"w{k}" for k in range(3000)]
    return [[sentence(rng, vocabulary) for _ in range(sentences)] for _ in range(count)]


def documents(texts: list[str]) -> list[Document]:
    return [document_from_text(t, f"essay{k:02d}.txt", EN) for k, t in enumerate(texts)]


def with_prompt(count: int, holders: int, seed: int = 1) -> list[Document]:
    """`count` essays, the first `holders` of them starting with the prompt paragraph."""
    bodies = essays(count, seed)
    return documents(
        [(PROMPT + "\n\n" if k < holders else "") + " ".join(body) for k, body in enumerate(bodies)]
    )


def excluded_sentences(doc: Document, spans: tuple[ExcludedSpan, ...]) -> list[int]:
    return [s.index for s in doc.sentences if any(x.start <= s.start < x.end for x in spans)]


def test_a_prompt_pasted_into_8_of_10_essays_is_found_and_excluded_at_half() -> None:
    docs = with_prompt(10, 8)
    found = find_common_text(docs, 0.5)
    assert found.counted == 10 and found.minimum == 6
    assert sorted(found.spans) == list(range(8))
    for k in range(8):
        spans = found.spans[k]
        assert [s.kind for s in spans] == [ExclusionKind.COMMON] * PROMPT_SENTENCES
        assert all(s.detail == "in 8 of 10 documents" for s in spans)
        assert excluded_sentences(docs[k], spans) == list(range(PROMPT_SENTENCES))
        assert found.dropped[k] == tuple(range(PROMPT_SENTENCES))
        assert docs[k].text[spans[0].start : spans[-1].end] == PROMPT  # whole sentences
    (passage,) = found.passages
    assert passage.text == PROMPT
    assert passage.documents == 8
    assert passage.words == len(PROMPT.split())


@pytest.mark.parametrize("share", [0.8, 0.9])
def test_the_prompt_is_not_excluded_where_it_is_not_in_more_than_the_share(share: float) -> None:
    found = find_common_text(with_prompt(10, 8), share)
    assert found.spans == {} and found.passages == ()


@pytest.mark.parametrize(
    ("share", "holders", "common"),
    [
        (0.5, 5, False),  # exactly half is not more than half
        (0.5, 6, True),
        (0.7, 7, False),  # 0.7 is read as the decimal typed, not as 0.69999…
        (0.7, 8, True),
        (0.3, 3, False),
        (0.3, 4, True),
        (0.1, 1, False),  # in one document: not shared, whatever the share
        (0.1, 2, True),
    ],
)
def test_text_in_exactly_the_share_is_not_excluded(share: float, holders: int, common: bool):
    found = find_common_text(with_prompt(10, holders), share)
    assert bool(found.passages) is common
    assert minimum_documents(share, 10) == max(2, round(share * 10) + 1)


def test_a_common_phrase_excludes_the_whole_sentence_holding_it() -> None:
    bodies = essays(6, seed=3, sentences=8)
    phrase = "as the famous saying goes in class"
    texts = []
    for k, body in enumerate(bodies):
        if k < 4:  # a student's own sentence, with the shared 7 words inside it
            body[2] = f"W{k}a w{k}b {phrase} w{k}c w{k}d."
        texts.append(" ".join(body))
    docs = documents(texts)
    found = find_common_text(docs, 0.5, phrase_words=6)
    for k in range(4):
        (span,) = found.spans[k]
        assert excluded_sentences(docs[k], (span,)) == [2]
        sentence = docs[k].sentences[2]
        assert (span.start, span.end) == (sentence.start, sentence.end)
        assert span.detail == "in 4 of 6 documents"
    (passage,) = found.passages  # the shared words, not the sentences around them
    assert passage.text == phrase
    assert (passage.documents, passage.words) == (4, 7)
    assert find_common_text(docs, 0.5, phrase_words=8).passages == ()  # 7 words < 8


def test_phrases_never_cross_a_sentence_boundary() -> None:
    bodies = essays(4, seed=5, sentences=6)
    texts = []
    for k, body in enumerate(bodies):
        # the same six words in every essay, but three end one sentence and three start the next
        body[1] = f"W{k}x w{k}y alpha beta gamma."
        body[2] = f"Delta epsilon zeta w{k}z w{k}q."
        texts.append(" ".join(body))
    assert find_common_text(documents(texts), 0.5, phrase_words=6).passages == ()
    assert find_common_text(documents(texts), 0.5, phrase_words=3).passages  # within each


def test_a_short_common_sentence_is_a_block() -> None:
    bodies = essays(5, seed=7, sentences=6)
    docs = documents(["Task two.\n\n" + " ".join(b) for b in bodies])
    found = find_common_text(docs, 0.5)  # two words: no phrase of six, but a whole sentence
    assert [p.text for p in found.passages] == ["Task two."]
    assert all(found.dropped[k] == (0,) for k in range(5))


def test_exclusions_never_change_the_documents() -> None:
    docs = with_prompt(10, 8)
    before = [(d.text, d.sentences, d.signature, d.excluded) for d in docs]
    excluded, found = exclude_common_text(docs, 0.5)
    assert [(d.text, d.sentences, d.signature, d.excluded) for d in docs] == before
    for k, (doc, new) in enumerate(zip(docs, excluded, strict=True)):
        assert (new.text, new.sentences, new.content_hash) == (
            doc.text,
            doc.sentences,
            doc.content_hash,
        )
        if k < 8:
            assert new.excluded == found.spans[k]
            assert new.signature.excluded == tuple(range(PROMPT_SENTENCES))
            assert len(new.signature) == len(doc.signature) - PROMPT_SENTENCES
        else:
            assert new is doc


def test_signature_without_the_sentences_equals_with_exclusions() -> None:
    text = (
        "Opening words of the essay. " + "Long " + " ".join(["long"] * 39) + " sentence here. "
        'She said "every word in here" and left. Middle sentence stays. The end is near now.'
    )
    doc = document_from_text(text, "a.txt", EN)
    assert doc.signature.too_long  # a sentence over the length cap
    quote = doc.text.index('"every')
    partial = with_exclusions(  # a quotation inside a sentence: its terms go, the sentence stays
        doc, [ExcludedSpan(quote, quote + 22, ExclusionKind.QUOTATION)]
    )
    for base in (doc, partial):
        for dropped in ([0], [1], [0, 1, 4], [2], [3, 4], list(range(len(doc.sentences)))):
            spans = [
                ExcludedSpan(doc.sentences[s].start, doc.sentences[s].end, ExclusionKind.COMMON)
                for s in dropped
            ]
            expected = with_exclusions(base, (*base.excluded, *spans)).signature
            assert drop_sentences(base.signature, dropped) == expected


def test_fingerprints_read_the_words_phrase_input_gives() -> None:
    doc = document_from_text("Don't panic: it's 3.14 and well-known. The END, the end.", "x", EN)
    prints = fingerprint_document(doc, 2)
    words = phrase_input(doc).sentences
    assert prints.sentence_count == len(words) == 2
    for s, terms in enumerate(words):
        assert len(prints.sentence_shingles(s)) == max(0, len(terms) - 1)
    again = document_from_text("DON'T panic: it's 3.14 and WELL-KNOWN.", "y", EN)
    assert fingerprint_document(again, 2).blocks[0] == prints.blocks[0]  # case-folded
    assert pickle.loads(pickle.dumps(prints)) == prints


# --- the count: the chunked passes against brute force --------------------------------------

fingerprint_sets = st.lists(st.frozensets(st.integers(0, 12), max_size=8), max_size=14)
shares = st.sampled_from([0.05, 0.1, 0.2, 0.25, 0.3, 1 / 3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.9])


def brute_force(sets: list[frozenset[int]], share: float) -> dict[int, int]:
    counts: dict[int, int] = {}
    for held in sets:
        for f in held:
            counts[f] = counts.get(f, 0) + 1
    return {f: n for f, n in counts.items() if more_than(n, share, len(sets))}


def more_than(n: int, share: float, total: int) -> bool:
    """`n` documents are more than `share` (read as the decimal typed) of `total`, and two."""
    return n > Fraction(repr(share)) * total and n >= 2


@given(fingerprint_sets, shares, st.integers(1, 5), st.integers(0, 20))
@settings(max_examples=300, deadline=None)
def test_the_chunked_count_is_exact(sets, share, chunk_documents, chunk_fingerprints) -> None:
    found = frequent_fingerprints(
        sets, share, chunk_fingerprints=chunk_fingerprints, chunk_documents=chunk_documents
    )
    assert found == brute_force(sets, share)


def test_candidates_are_a_superset_and_chunks_stay_small() -> None:
    rng = random.Random(2)
    sets = [frozenset(rng.sample(range(400), 40)) | {999} for _ in range(300)]
    counter = ChunkedCounter(0.5, chunk_fingerprints=200, chunk_documents=5)
    for held in sets:
        counter.add(held)
    candidates = counter.candidates()
    assert counter.chunks == 60  # 5 documents (200 fingerprints) per chunk
    assert 999 in candidates
    assert frequent_fingerprints(sets, 0.5, chunk_fingerprints=200, chunk_documents=5) == {999: 300}


VOCABULARY = ["a", "b", "c", "d"]
sentence_words = st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=5)
collections_of_words = st.lists(
    st.lists(sentence_words, min_size=1, max_size=4), min_size=2, max_size=7
)


def oracle(docs: list[list[list[str]]], share: float, n: int) -> list[set[int]]:
    """By brute force over the words: the sentences holding a sentence or an n-word phrase
    found in more than `share` of the documents (and two at least)."""

    def grams(words: list[str]) -> set[tuple[str, ...]]:
        return {tuple(words[k : k + n]) for k in range(len(words) - n + 1)}

    held = [{("s", *s) for s in doc} | {("p", *g) for s in doc for g in grams(s)} for doc in docs]
    common = {
        x for x in set().union(*held) if more_than(sum(x in h for h in held), share, len(docs))
    }
    return [
        {
            k
            for k, s in enumerate(doc)
            if ("s", *s) in common or any(("p", *g) in common for g in grams(s))
        }
        for doc in docs
    ]


@given(collections_of_words, shares, st.integers(2, 3), st.integers(1, 3))
@settings(max_examples=150, deadline=None)
def test_the_excluded_sentences_are_those_brute_force_finds(docs, share, n, chunk) -> None:
    texts = ["\n\n".join(" ".join(s) + "." for s in doc) for doc in docs]
    loaded = documents(texts)
    found = find_common_text(loaded, share, n, chunk_fingerprints=0, chunk_documents=chunk)
    expected = oracle(docs, share, n)
    for k, doc in enumerate(loaded):
        assert set(found.dropped.get(k, ())) == expected[k]
        assert excluded_sentences(doc, found.spans.get(k, ())) == sorted(expected[k])
    for passage in found.passages:
        assert found.minimum <= passage.documents <= len(docs)


# --- what the batch relies on ----------------------------------------------------------------


def test_archived_documents_are_excluded_but_not_counted() -> None:
    docs = with_prompt(10, 6)  # 6 of 10 hold it: over half of all, but the last 4 are archived
    counted = [k < 6 or k >= 9 for k in range(10)]  # …and one of them is new
    found = find_common_text(docs, 0.5, counted=counted)
    assert found.counted == 7 and found.passages[0].documents == 6
    both = find_common_text(with_prompt(10, 8), 0.5, counted=[k < 3 for k in range(10)])
    assert both.counted == 3 and both.passages[0].documents == 3
    assert sorted(both.spans) == list(range(8))  # archived holders are excluded too
    assert both.spans[7][0].detail == "in 3 of 3 documents"


def test_sentences_already_excluded_are_not_counted_again() -> None:
    docs = with_prompt(10, 8)
    templated = [
        with_exclusions(
            d,
            [ExcludedSpan(0, d.sentences[PROMPT_SENTENCES - 1].end, ExclusionKind.TEMPLATE)],
        )
        if k < 5
        else d
        for k, d in enumerate(docs)
    ]
    assert find_common_text(templated, 0.5).passages == ()  # only 3 un-excluded holders
    found = find_common_text(templated, 0.2)
    assert found.passages[0].documents == 3
    assert sorted(found.spans) == [5, 6, 7]


def test_a_discarded_document_is_neither_counted_nor_excluded() -> None:
    docs = with_prompt(10, 6)
    with CommonTextFinder(0.5, 6) as finder:
        for k, doc in enumerate(docs):
            finder.add(k, fingerprint_document(doc, 6))
        finder.discard(9)  # failed later: 6 of 9 is still over half
        finder.discard(0)  # 5 of 8 too
        found = finder.finish(lambda k: docs[k])
    assert found.counted == 8 and found.passages[0].documents == 5
    assert sorted(found.spans) == [1, 2, 3, 4, 5]


def test_the_same_passage_twice_in_a_document_is_listed_once() -> None:
    bodies = essays(4, seed=11, sentences=5)
    docs = documents(
        [PROMPT + "\n\n" + " ".join(b) + "\n\n" + PROMPT for b in bodies[:3]]
        + [" ".join(bodies[3])]
    )
    found = find_common_text(docs, 0.5)
    assert [(p.text, p.documents) for p in found.passages] == [(PROMPT, 3)]
    assert all(len(found.spans[k]) == 2 * PROMPT_SENTENCES for k in range(3))


def test_an_unreadable_source_lists_the_passage_without_text() -> None:
    docs = with_prompt(6, 5)
    with CommonTextFinder(0.5, 6) as finder:
        for k, doc in enumerate(docs):
            finder.add(k, fingerprint_document(doc, 6))
        found = finder.finish(lambda k: None)
    assert [(p.text, p.documents) for p in found.passages] == [("", 5)]
    assert sorted(found.spans) == list(range(5))


def test_spans_lie_in_sentence_order_and_never_overlap() -> None:
    found = find_common_text(with_prompt(10, 8), 0.5)
    for spans in found.spans.values():
        assert all(a.end <= b.start for a, b in pairwise(spans))


def test_a_bad_share_is_refused() -> None:
    for share in (0.0, 1.0, -0.5, 2.0):
        with pytest.raises(ValueError, match="between 0 and 1"):
            CommonTextFinder(share, 6)


def test_the_last_passes_can_be_cancelled(monkeypatch) -> None:
    monkeypatch.setattr(common_text, "CHECK_EVERY", 4)
    docs = with_prompt(20, 18)
    calls: list[int] = []

    seen: list[float] = []

    def progress(fraction: float, message: str = "") -> None:
        calls.append(1)
        if len(calls) == 3:
            raise Cancelled

    with CommonTextFinder(0.5, 6) as finder:
        for k, doc in enumerate(docs):
            finder.add(k, fingerprint_document(doc, 6))
        with pytest.raises(Cancelled):
            finder.finish(lambda k: docs[k], progress=progress)
        found = finder.finish(lambda k: docs[k], progress=lambda f, m="": seen.append(f))
    # reported on the way, going forward and never reaching 1; the same result
    assert seen and seen == sorted(seen) and seen[0] > 0 and seen[-1] < 1
    assert found.passages[0].documents == 18

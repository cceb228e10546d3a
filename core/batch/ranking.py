"""Which pairs of a set of documents are worth comparing, and the order pairs are listed in:
one rule for the folder check and for the window's list of pairs (three or more documents).

Candidates (spec §5): two documents can only have a verified block if they share a composite
bigram (the length and key of two consecutive sentences), because a kept piece is a run of
aligned sentences whose lengths and keys agree (spec §3). An inverted index from composite
bigrams to documents gives the candidate pairs. Under the default short-sentence rule a piece
holds two sentences with a full key, so a bigram of two short sentences can be left out of the
index; with a minimum block of one sentence the index holds single sentences instead.

Ranking: Jaccard, highest first; then the larger coverage (the share of one document found in
the other), highest first; then the documents' order (the first document, then the second),
so equal scores always list in the same order."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Protocol

from core.documents.signature import Signature
from core.options import MatchOptions, ShortSentenceRule


class Scored(Protocol):
    """What ranking reads of a pair: a batch's PairResult, a Comparison."""

    @property
    def jaccard(self) -> float: ...

    @property
    def coverage_a(self) -> float: ...

    @property
    def coverage_b(self) -> float: ...


def rank_key(pair: Scored, a: int, b: int) -> tuple[float, float, int, int]:
    """The sort key of a pair of documents `a` and `b` (their positions in the documents'
    order): Jaccard descending, the larger coverage descending, then `a`, then `b`. The folder
    check and the window's pair list both sort by it."""
    return -pair.jaccard, -max(pair.coverage_a, pair.coverage_b), a, b


def candidate_pairs(
    signatures: Sequence[Signature],
    allowed: Callable[[int, int], bool],
    options: MatchOptions,
) -> set[tuple[int, int]]:
    """Pairs (i < j) sharing a composite bigram (a composite sentence, with min_block 1)."""
    key_ids: dict[tuple[str, ...], int] = {}
    full_key_only = options.short_sentences is ShortSentenceRule.FULL_KEY
    width = 1 if options.min_block < 2 else 2
    postings: dict[tuple[int, ...], list[int]] = {}
    for doc, signature in enumerate(signatures):
        codes = [key_ids.setdefault(key, len(key_ids)) for key in signature.keys]
        symbols = signature.symbols
        short = [signature.is_short(p) for p in range(len(symbols))]
        seen: set[tuple[int, ...]] = set()
        for p in range(len(symbols) - width + 1):
            if full_key_only and all(short[p : p + width]):
                continue  # a kept piece holds full-key sentences: this cannot start one
            gram = tuple(
                itertools.chain.from_iterable(
                    zip(symbols[p : p + width], codes[p : p + width], strict=True)
                )
            )
            if gram not in seen:
                seen.add(gram)
                postings.setdefault(gram, []).append(doc)
    pairs: set[tuple[int, int]] = set()
    for docs in postings.values():
        if len(docs) > 1:
            for i, j in itertools.combinations(docs, 2):
                if allowed(i, j):
                    pairs.add((i, j))
    return pairs

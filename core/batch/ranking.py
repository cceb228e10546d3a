"""Which pairs of a set of documents are worth comparing, and the order pairs are listed in:
one rule for the folder check and for the window's list of pairs (three or more documents).

Candidates (spec §5): two documents can only have a verified block if they share a composite
bigram (the length and key of two consecutive sentences), because a kept piece is a run of
aligned sentences whose lengths and keys agree (spec §3). An inverted index from composite
bigrams to documents gives the candidate pairs. Under the default short-sentence rule a piece
holds two sentences with a full key, so a bigram of two short sentences can be left out of the
index; with a minimum block of one sentence the index holds single sentences instead.

Ranking: pairs with copied text found (the verdict) first; then the larger copied share (how
much of one document lies in passages found in the other, both kinds; Jaccard with the
paper's method alone, --strict), highest first; then
Jaccard (the paper's score), highest first; then the documents' order (the first document,
then the second), so equal scores always list in the same order."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol

from core.detection.reworded import DEFAULT_SETTINGS, RewordSettings, WordProfile, strong_threshold
from core.documents.signature import Signature
from core.options import MatchOptions, ShortSentenceRule


class Scored(Protocol):
    """What ranking reads of a pair: a batch's PairResult, a Comparison."""

    @property
    def flagged(self) -> bool: ...

    @property
    def headline(self) -> float: ...

    @property
    def jaccard(self) -> float: ...

    @property
    def coverage_a(self) -> float: ...

    @property
    def coverage_b(self) -> float: ...


def rank_key(pair: Scored, a: int, b: int) -> tuple[bool, float, float, float, int, int]:
    """The sort key of a pair of documents `a` and `b` (their positions in the documents'
    order): flagged first, the headline descending (the larger copied share; Jaccard with the
    paper's method alone, which then gives the order from before the reworded detector),
    Jaccard descending, the larger coverage descending, then `a`, then `b`. The folder check
    and the window's pair list both sort by it."""
    coverage = max(pair.coverage_a, pair.coverage_b)
    return not pair.flagged, -pair.headline, -pair.jaccard, -coverage, a, b


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


def reworded_candidates(
    profiles: Sequence[WordProfile | None],
    allowed: Callable[[int, int], bool],
    settings: RewordSettings = DEFAULT_SETTINGS,
) -> set[tuple[int, int]]:
    """Pairs (i < j) with a sentence of i and a sentence of j that could be a strong seed:
    sharing at least `strong_threshold` of the larger one's size in distinct stems. Every
    reworded passage holds a strong seed, so no pair outside this set can have one.

    Found by prefix filtering (Bayardo, Ma and Srikant, "Scaling up all pairs similarity
    search", WWW 2007; the length and positional filters of Xiao, Wang, Lin and Yu, "Efficient
    similarity joins for near duplicate detection", WWW 2008). With the stems ordered rarest
    first (by the sentences holding them, across the documents), two sentences sharing t stems
    share one among the first |S| − t + 1 stems of each; a sentence S needs at least
    t(S) = strong_threshold(|S|) shared stems with any partner (the larger one's threshold is
    the larger), so only its first |S| − t(S) + 1 stems are indexed and probed. A probe is
    dropped when the partner's size rules it out (its threshold above the smaller size), or
    when the stems after the first shared one cannot reach the threshold; the rest are checked
    by intersecting the two sentences. Exact, not approximate: a test holds it to every pair's
    detector result."""
    frequency: Counter[str] = Counter()  # sentences holding the stem: names count many times
    for profile in profiles:
        if profile is not None:
            for stems in profile.stems:
                frequency.update(set(stems))
    order = {w: k for k, w in enumerate(sorted(frequency, key=lambda w: (frequency[w], w)))}
    # prefix stem -> (document, sentence, position of the stem in the sentence's order, the
    # sentence's size, its threshold)
    index: dict[int, list[tuple[int, int, int, int, int]]] = {}
    units: list[list[frozenset[int]]] = []
    pairs: set[tuple[int, int]] = set()
    least = settings.strong_shared
    for doc, profile in enumerate(profiles):
        own: list[frozenset[int]] = []
        units.append(own)
        if profile is None:
            continue
        found: set[int] = set()  # earlier documents paired with this one
        barred: set[int] = {doc}  # earlier documents it may not be paired with (and itself)
        for stems in profile.stems:
            ranks = sorted({order[w] for w in stems})
            size = len(ranks)
            if size < least:
                continue
            unit = frozenset(ranks)
            need = strong_threshold(size, settings)
            prefix = ranks[: size - need + 1]
            probed: set[tuple[int, int]] = set()
            for position, rank in enumerate(prefix):
                for other, k, other_position, other_size, other_need in index.get(rank, ()):
                    if other in found or other in barred or (other, k) in probed:
                        continue
                    probed.add((other, k))  # its first stem shared with this sentence
                    # the larger sentence's threshold, within reach of both sizes and of the
                    # stems from the first shared one on
                    both = need if need > other_need else other_need
                    if (
                        both > size - position
                        or both > other_size - other_position
                        or len(unit & units[other][k]) < both
                    ):
                        continue
                    if allowed(other, doc):
                        found.add(other)
                    else:
                        barred.add(other)
            number = len(own)
            own.append(unit)
            for position, rank in enumerate(prefix):
                index.setdefault(rank, []).append((doc, number, position, size, need))
        pairs.update((other, doc) for other in found)
    return pairs

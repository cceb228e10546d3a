"""Two signatures in, verified blocks and scores out: suffix tree → verification → score.

The cost on long documents is the raw-block count, which grows with the product of the lengths
(spec §2): most raw blocks are two sentences whose lengths agree by chance. The tree reports
them in groups (every A start against every B start, one length). For a group of two-sentence
blocks only the pairs whose keys both agree can survive, so those are found through a key index
and the rest are counted without being visited one by one; blocks shorter than the minimum are
counted the same way. Every raw block is counted. The discarded blocks a reader can learn from
are listed (spec §2, "present them summarised"): those touching a kept piece (on its diagonal or
a neighbouring one, at most one sentence away: a reworded, inserted or dropped sentence at the
edge of a copied passage), and those of three or more sentences, the longest
`MAX_LISTED_DISCARDED` of them.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left
from dataclasses import dataclass

from core.detection.scoring import Score, score_pieces
from core.detection.suffix_tree import GeneralizedSuffixTree, RawBlock
from core.detection.verification import BlockOutcome, BlockState, VerifiedBlock, verify_block
from core.documents.signature import Key, Signature
from core.options import MatchOptions
from core.progress import Progress

#: discarded blocks of 3+ sentences listed at most (the longest); all are always counted
MAX_LISTED_DISCARDED = 10_000
#: with keep_all_discarded: a bound on the listing so memory stays bounded on huge inputs
MAX_ALL_DISCARDED = 1_000_000
#: (position, diagonal) marks kept to find blocks touching a piece; past this, pathological
#: repetition (one sentence pasted thousands of times) lists fewer touching blocks
MAX_ANCHORS = 4_000_000

#: raw blocks handled between two progress calls (a few milliseconds of work)
_PAIRS_PER_CHECK = 1 << 16


@dataclass(frozen=True, slots=True)
class BlockCounts:
    raw: int
    verified: int
    split: int
    discarded: int


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The outcome of matching two signatures (positions are signature positions)."""

    blocks: tuple[BlockOutcome, ...]  # verified, split, and the listed discarded; sorted
    counts: BlockCounts  # every raw block is counted, listed or not
    pieces: tuple[VerifiedBlock, ...]  # every kept piece, sorted by (a_start, b_start)
    score: Score
    all_discarded_listed: bool  # True when `blocks` holds every discarded block


def intern_keys(a: Signature, b: Signature) -> tuple[list[int], list[int]]:
    """Keys as small ints, equal exactly when the keys are equal."""
    table: dict[Key, int] = {}
    keys_a = [table.setdefault(k, len(table)) for k in a.keys]
    keys_b = [table.setdefault(k, len(table)) for k in b.keys]
    return keys_a, keys_b


def touches(raw: RawBlock, piece: VerifiedBlock) -> bool:
    """On the piece's diagonal or a neighbouring one, and at most one sentence away in A."""
    if abs((raw.b_start - raw.a_start) - (piece.b_start - piece.a_start)) > 1:
        return False
    gap = max(
        raw.a_start - (piece.a_start + piece.length), piece.a_start - (raw.a_start + raw.length)
    )
    return gap <= 1


def _anchors(codes_a: list[int], codes_b: list[int], width: int) -> dict[int, set[int]]:
    """A position -> diagonals of shared composite runs of `width` at most one sentence away.

    Every kept piece is made of such runs (a piece of k >= width sentences), so a block can
    touch a piece only where it meets an anchor on a diagonal within one of its own."""
    starts: dict[tuple[int, ...], list[int]] = {}
    for q in range(len(codes_b) - width + 1):
        starts.setdefault(tuple(codes_b[q : q + width]), []).append(q)
    anchors: dict[int, set[int]] = {}
    marks = 0
    for p in range(len(codes_a) - width + 1):
        for q in starts.get(tuple(codes_a[p : p + width]), ()):
            for x in range(max(p - 2, 0), p + width + 2):
                anchors.setdefault(x, set()).add(q - p)
            marks += width + 4
            if marks > MAX_ANCHORS:
                return anchors
    return anchors


class _Collector:
    """Receives the tree's pair groups; verifies, counts, and keeps what will be listed."""

    def __init__(
        self,
        a: Signature,
        b: Signature,
        options: MatchOptions,
        keep_all_discarded: bool,
        max_listed: int,
    ) -> None:
        self.options = options
        self.keys_a, self.keys_b = intern_keys(a, b)
        self.short_a = [a.is_short(p) for p in range(len(a))]
        composite: dict[tuple[int, int], int] = {}
        codes_a = [
            composite.setdefault(c, len(composite))
            for c in zip(a.symbols, self.keys_a, strict=True)
        ]
        codes_b = [
            composite.setdefault(c, len(composite))
            for c in zip(b.symbols, self.keys_b, strict=True)
        ]
        self.anchors = _anchors(codes_a, codes_b, 1 if options.min_block < 2 else 2)
        self.keep_all = keep_all_discarded
        self.max_listed = MAX_ALL_DISCARDED if keep_all_discarded else max_listed
        self.kept: list[BlockOutcome] = []  # verified and split
        self.longest: list[tuple[int, int, int, BlockOutcome]] = []  # bounded min-heap
        self.near_pieces: list[RawBlock] = []  # discarded blocks that may touch a piece
        self.raw = 0
        self.discarded = 0

    def verify(self, i: int, j: int, length: int) -> BlockOutcome:
        raw = RawBlock(i, j, length)
        return verify_block(raw, self.keys_a, self.keys_b, self.short_a, self.options)

    def sink(self, a_starts: list[int], b_starts: list[int], length: int) -> None:
        pairs = len(a_starts) * len(b_starts)
        self.raw += pairs
        min_block = self.options.min_block
        if self.keep_all or length >= 3 or min_block == 1:  # each block is verified, listed
            for i in a_starts:
                for j in b_starts:
                    self._file(self.verify(i, j, length))
            return
        # Two sentences, min_block >= 2: only pairs whose two keys both agree can survive.
        kept: set[tuple[int, int]] = set()
        if min_block == 2:
            for i, j in self._key_agreeing_pairs(a_starts, b_starts):
                outcome = self.verify(i, j, 2)
                if outcome.state is not BlockState.DISCARDED:
                    self.kept.append(outcome)
                    kept.add((i, j))
        self.discarded += pairs - len(kept)
        self._note_near_pieces(a_starts, b_starts, length, kept)

    def _key_agreeing_pairs(
        self, a_starts: list[int], b_starts: list[int]
    ) -> list[tuple[int, int]]:
        ka, kb = self.keys_a, self.keys_b
        if len(a_starts) * len(b_starts) <= 16:
            return [
                (i, j)
                for i in a_starts
                for j in b_starts
                if ka[i] == kb[j] and ka[i + 1] == kb[j + 1]
            ]
        by_keys: dict[tuple[int, int], list[int]] = {}
        for j in b_starts:
            by_keys.setdefault((kb[j], kb[j + 1]), []).append(j)
        return [(i, j) for i in a_starts for j in by_keys.get((ka[i], ka[i + 1]), ())]

    def _file(self, outcome: BlockOutcome) -> None:
        if outcome.state is not BlockState.DISCARDED:
            self.kept.append(outcome)
            return
        self.discarded += 1
        raw = outcome.raw
        if raw.length >= 3 or self.keep_all:
            entry = (raw.length, -raw.a_start, -raw.b_start, outcome)
            if len(self.longest) < self.max_listed:
                heapq.heappush(self.longest, entry)
            elif self.longest and entry[:3] > self.longest[0][:3]:
                heapq.heapreplace(self.longest, entry)
        self._note_near_pieces([raw.a_start], [raw.b_start], raw.length, set())

    def _note_near_pieces(
        self, a_starts: list[int], b_starts: list[int], length: int, skip: set[tuple[int, int]]
    ) -> None:
        """Keep, as candidates, the pairs of the group that meet an anchor on a diagonal within
        one of their own; visiting only the anchored diagonals keeps this off the product."""
        anchors = self.anchors
        b_set: set[int] | None = None
        for i in a_starts:
            diagonals: set[int] = set()
            for x in range(i, i + length):
                found = anchors.get(x)
                if found:
                    diagonals |= found
            if not diagonals:
                continue
            if b_set is None:
                b_set = set(b_starts)
            near = {d + step for d in diagonals for step in (-1, 0, 1)}
            for d in near:
                j = i + d
                if j in b_set and (i, j) not in skip:
                    self.near_pieces.append(RawBlock(i, j, length))

    def result(self, n_a: int, n_b: int) -> MatchResult:
        pieces = sorted(p for o in self.kept for p in o.pieces)
        listed: dict[RawBlock, BlockOutcome] = {e[3].raw: e[3] for e in self.longest}
        for raw in _touching(self.near_pieces, pieces):
            if raw not in listed:
                listed[raw] = self.verify(raw.a_start, raw.b_start, raw.length)
        blocks = sorted(
            [*self.kept, *listed.values()], key=lambda o: (o.raw.a_start, o.raw.b_start)
        )
        verified = sum(1 for o in self.kept if o.state is BlockState.VERIFIED)
        return MatchResult(
            blocks=tuple(blocks),
            counts=BlockCounts(self.raw, verified, len(self.kept) - verified, self.discarded),
            pieces=tuple(pieces),
            score=score_pieces(pieces, n_a, n_b),
            all_discarded_listed=len(listed) == self.discarded,
        )


def _touching(candidates: list[RawBlock], pieces: list[VerifiedBlock]) -> list[RawBlock]:
    """The candidate blocks that touch a kept piece (see `touches`)."""
    if not candidates or not pieces:
        return []
    by_diagonal: dict[int, list[VerifiedBlock]] = {}
    for piece in pieces:  # sorted by a_start, so every list is too
        by_diagonal.setdefault(piece.b_start - piece.a_start, []).append(piece)
    starts = {d: [p.a_start for p in ps] for d, ps in by_diagonal.items()}
    found = []
    for raw in dict.fromkeys(candidates):
        d = raw.b_start - raw.a_start
        for near in (d - 1, d, d + 1):
            on_diagonal = by_diagonal.get(near)
            if not on_diagonal:
                continue
            # pieces on one diagonal do not overlap: only the two around raw can be near
            k = bisect_left(starts[near], raw.a_start)
            if any(touches(raw, p) for p in on_diagonal[max(k - 1, 0) : k + 1]):
                found.append(raw)
                break
    return found


def match_signatures(
    a: Signature,
    b: Signature,
    options: MatchOptions | None = None,
    *,
    keep_all_discarded: bool = False,
    max_listed_discarded: int = MAX_LISTED_DISCARDED,
    progress: Progress | None = None,
) -> MatchResult:
    """Raw blocks, verification and score for two signatures built with the same options.

    `keep_all_discarded` lists every discarded block (up to MAX_ALL_DISCARDED); otherwise the
    informative ones are listed (module docstring). Every block is counted either way."""
    options = options or MatchOptions()
    if a.key_size != b.key_size or a.length_cap != b.length_cap:
        raise ValueError("both signatures must be built with the same options")
    collector = _Collector(a, b, options, keep_all_discarded, max_listed_discarded)

    done = [0.0]

    def report(share: float, offset: float) -> Progress | None:
        if progress is None:
            return None

        def step(fraction: float, message: str = "") -> None:
            done[0] = offset + share * fraction
            progress(done[0])

        return step

    sink = collector.sink
    if progress is not None:
        # one tree step can hand over millions of pairs (two long texts): check between groups
        # too, so a cancel is honoured within a fraction of a second however large the input
        def sink(a_starts: list[int], b_starts: list[int], length: int) -> None:
            collector.sink(a_starts, b_starts, length)
            if collector.raw >= next_check[0]:
                next_check[0] = collector.raw + _PAIRS_PER_CHECK
                progress(done[0])

    next_check = [_PAIRS_PER_CHECK]
    tree = GeneralizedSuffixTree(a.symbols, b.symbols, progress=report(0.4, 0.0))
    tree.report_maximal_pairs(sink, 2, progress=report(0.55, 0.4))  # L >= 2 (§2)
    del tree
    result = collector.result(len(a), len(b))
    if progress is not None:
        progress(1.0)
    return result

"""Two signatures in, verified blocks and scores out: suffix tree → verification → score.

The cost on long documents is the raw-block count, which grows with the product of the lengths
(spec §2): most raw blocks are two sentences whose lengths agree by chance. The tree reports
them in groups (every A start against every B start, one length); for the common group of
two-sentence blocks only the pairs whose keys both agree can survive, so they are found through
a key index and the rest are counted without being visited one by one. Every raw block is
counted; the discarded blocks a reader can learn from are listed (spec §2, "present them
summarised"): those touching a kept piece, and those of three or more sentences, the longest
`MAX_LISTED_DISCARDED` of them.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass

from core.options import MatchOptions
from core.scoring import Score, score_pieces
from core.signature import Key, Signature
from core.suffix_tree import Checkpoint, GeneralizedSuffixTree, RawBlock
from core.verification import BlockOutcome, BlockState, VerifiedBlock, verify_block

#: discarded blocks of 3+ sentences listed at most (the longest); all are always counted
MAX_LISTED_DISCARDED = 10_000

#: called with the fraction done (0..1); raises core.errors.Cancelled to stop
Progress = Callable[[float], None]


@dataclass(frozen=True, slots=True)
class BlockCounts:
    raw: int
    verified: int
    split: int
    discarded: int


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The outcome of matching two signatures (positions are signature positions)."""

    blocks: tuple[BlockOutcome, ...]  # verified, split, and the notable discarded; sorted
    counts: BlockCounts  # every raw block is counted, shown or not
    pieces: tuple[VerifiedBlock, ...]  # every kept piece, sorted by (a_start, b_start)
    score: Score
    all_discarded_listed: bool  # True when `blocks` lists every discarded block


def intern_keys(a: Signature, b: Signature) -> tuple[list[int], list[int]]:
    """Keys as small ints, equal exactly when the keys are equal."""
    table: dict[Key, int] = {}
    keys_a = [table.setdefault(k, len(table)) for k in a.keys]
    keys_b = [table.setdefault(k, len(table)) for k in b.keys]
    return keys_a, keys_b


def _near_shared_runs(codes: list[int], partner: list[int], width: int) -> bytearray:
    """1 at positions within one of a run of `width` composite symbols that the partner also
    has. Every kept piece lies in such runs (a piece of k >= width sentences is made of them),
    so only discarded blocks that reach these positions can touch a kept piece."""
    shared = {tuple(partner[q : q + width]) for q in range(len(partner) - width + 1)}
    near = bytearray(len(codes) + 2)
    for p in range(len(codes) - width + 1):
        if tuple(codes[p : p + width]) in shared:
            for q in range(max(p - 1, 0), p + width + 1):
                near[q] = 1
    return near


def match_signatures(
    a: Signature,
    b: Signature,
    options: MatchOptions | None = None,
    *,
    keep_all_discarded: bool = False,
    max_listed_discarded: int = MAX_LISTED_DISCARDED,
    progress: Progress | None = None,
) -> MatchResult:
    options = options or MatchOptions()
    if a.key_size != b.key_size or a.length_cap != b.length_cap:
        raise ValueError("both signatures must be built with the same options")
    min_length = max(options.min_block, 2)  # a raw block has at least two sentences (§2)
    keys_a, keys_b = intern_keys(a, b)
    short_a = [a.is_short(p) for p in range(len(a))]
    composite: dict[tuple[int, int], int] = {}
    codes_a = [composite.setdefault(c, len(composite)) for c in zip(a.symbols, keys_a, strict=True)]
    codes_b = [composite.setdefault(c, len(composite)) for c in zip(b.symbols, keys_b, strict=True)]
    width = 1 if options.min_block < 2 else 2
    near_a = _near_shared_runs(codes_a, codes_b, width)
    near_b = _near_shared_runs(codes_b, codes_a, width)
    fast_two = options.min_block == 2  # a two-sentence block needs both keys to match

    outcomes: list[BlockOutcome] = []
    longest_discarded: list[tuple[int, int, int, BlockOutcome]] = []  # a bounded min-heap
    pending: list[RawBlock] = []  # discarded blocks that may touch a kept piece
    raw_count = 0
    discarded_count = 0

    def keep_discarded(outcome: BlockOutcome) -> None:
        raw = outcome.raw
        entry = (raw.length, -raw.a_start, -raw.b_start, outcome)
        if keep_all_discarded or len(longest_discarded) < max_listed_discarded:
            heapq.heappush(longest_discarded, entry)
        elif entry[:3] > longest_discarded[0][:3]:
            heapq.heapreplace(longest_discarded, entry)

    def check(i: int, j: int, length: int) -> None:
        nonlocal discarded_count
        outcome = verify_block(RawBlock(i, j, length), keys_a, keys_b, short_a, options)
        if outcome.state is not BlockState.DISCARDED:
            outcomes.append(outcome)
            return
        discarded_count += 1
        if length >= 3 or keep_all_discarded:
            keep_discarded(outcome)
        elif (near_a[i] or near_a[i + 1]) and (near_b[j] or near_b[j + 1]):
            pending.append(outcome.raw)

    def sink(a_starts: list[int], b_starts: list[int], length: int) -> None:
        nonlocal raw_count, discarded_count
        raw_count += len(a_starts) * len(b_starts)
        if not (fast_two and length == 2 and not keep_all_discarded):
            for i in a_starts:
                for j in b_starts:
                    check(i, j, length)
            return
        # Two sentences with min_block 2: only pairs whose two keys both agree can be kept, so
        # pair them through a key index instead of trying the whole product.
        if len(a_starts) * len(b_starts) <= 16:
            candidates = [
                (i, j)
                for i in a_starts
                for j in b_starts
                if keys_a[i] == keys_b[j] and keys_a[i + 1] == keys_b[j + 1]
            ]
        else:
            by_keys: dict[tuple[int, int], list[int]] = {}
            for j in b_starts:
                by_keys.setdefault((keys_b[j], keys_b[j + 1]), []).append(j)
            candidates = [
                (i, j) for i in a_starts for j in by_keys.get((keys_a[i], keys_a[i + 1]), ())
            ]
        kept: set[tuple[int, int]] = set()
        for i, j in candidates:
            outcome = verify_block(RawBlock(i, j, 2), keys_a, keys_b, short_a, options)
            if outcome.state is not BlockState.DISCARDED:
                outcomes.append(outcome)
                kept.add((i, j))
        discarded_count += len(a_starts) * len(b_starts) - len(kept)
        near_is = [i for i in a_starts if near_a[i] or near_a[i + 1]]
        if near_is:
            near_js = [j for j in b_starts if near_b[j] or near_b[j + 1]]
            pending.extend(
                RawBlock(i, j, 2) for i in near_is for j in near_js if (i, j) not in kept
            )

    def report(share: float, offset: float) -> Checkpoint | None:
        if progress is None:
            return None
        return lambda fraction: progress(offset + share * fraction)

    tree = GeneralizedSuffixTree(a.symbols, b.symbols, checkpoint=report(0.4, 0.0))
    tree.report_maximal_pairs(sink, min_length, checkpoint=report(0.55, 0.4))
    del tree

    pieces = sorted(p for o in outcomes for p in o.pieces)
    touching = _touching(pending, pieces)
    outcomes.extend(verify_block(raw, keys_a, keys_b, short_a, options) for raw in touching)
    outcomes.extend(entry[3] for entry in longest_discarded)
    listed_all = len(longest_discarded) + len(touching) == discarded_count
    outcomes.sort(key=lambda o: (o.raw.a_start, o.raw.b_start))
    verified = sum(1 for o in outcomes if o.state is BlockState.VERIFIED)
    split = sum(1 for o in outcomes if o.state is BlockState.SPLIT)
    if progress is not None:
        progress(1.0)
    return MatchResult(
        blocks=tuple(outcomes),
        counts=BlockCounts(raw_count, verified, split, discarded_count),
        pieces=tuple(pieces),
        score=score_pieces(pieces, len(a), len(b)),
        all_discarded_listed=listed_all,
    )


def _touching(candidates: list[RawBlock], pieces: list[VerifiedBlock]) -> list[RawBlock]:
    """The candidate blocks that overlap or adjoin a kept piece in both documents."""
    if not candidates or not pieces:
        return []
    by_a: dict[int, list[VerifiedBlock]] = {}
    for piece in pieces:
        for p in range(piece.a_start - 1, piece.a_start + piece.length + 1):
            by_a.setdefault(p, []).append(piece)
    touching = []
    for raw in candidates:
        near = {
            id(p): p for q in range(raw.a_start, raw.a_start + raw.length) for p in by_a.get(q, ())
        }
        if any(
            raw.b_start <= p.b_start + p.length and p.b_start - 1 < raw.b_start + raw.length
            for p in near.values()
        ):
            touching.append(raw)
    return touching

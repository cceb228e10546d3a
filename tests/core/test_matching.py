"""Verification and scoring against independent oracles and the paper's examples (spec §3-4)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from core.detection.diagonal import diagonal_maximal_pairs
from core.detection.matching import match_signatures
from core.detection.scoring import score_pieces
from core.detection.verification import BlockState, VerifiedBlock
from core.documents.signature import Signature
from core.options import MatchOptions, ShortSentenceRule


def signature(symbols: list[int], keys: list[tuple[str, ...]]) -> Signature:
    return Signature(tuple(symbols), tuple(keys), tuple(range(len(symbols))), (), 2, True)


def full(word: str) -> tuple[str, str]:
    return (word, "x")


def composite_runs(a: Signature, b: Signature, options: MatchOptions) -> list[VerifiedBlock]:
    """Oracle: verified blocks are the maximal common runs over the alphabet (ℓ, key) holding
    enough full-key sentences (spec §3, the equivalence the batch engine relies on)."""
    composite = {}
    code_a = [composite.setdefault(c, len(composite)) for c in zip(a.symbols, a.keys, strict=False)]
    code_b = [composite.setdefault(c, len(composite)) for c in zip(b.symbols, b.keys, strict=False)]
    literal = options.short_sentences is ShortSentenceRule.LITERAL
    kept = []
    for run in diagonal_maximal_pairs(code_a, code_b, 1):
        weight = sum(1 for k in range(run.length) if literal or not a.is_short(run.a_start + k))
        if weight >= options.min_block:
            kept.append(VerifiedBlock(run.a_start, run.b_start, run.length))
    return sorted(kept)


keys = st.sampled_from([("p", "q"), ("p", "r"), ("s", "t"), ("oh",), ()])
sig_items = st.lists(st.tuples(st.integers(0, 3), keys), max_size=40)


@given(sig_items, sig_items, st.integers(1, 3), st.booleans())
@settings(max_examples=300)
def test_pieces_are_the_composite_runs(items_a, items_b, min_block, literal) -> None:
    a = signature([s for s, _ in items_a], [k for _, k in items_a])
    b = signature([s for s, _ in items_b], [k for _, k in items_b])
    rule = ShortSentenceRule.LITERAL if literal else ShortSentenceRule.FULL_KEY
    options = MatchOptions(min_block=min_block, short_sentences=rule)
    everything = match_signatures(a, b, options, keep_all_discarded=True)
    summarised = match_signatures(a, b, options)
    assert set(summarised.blocks) == {
        block
        for block in everything.blocks
        if block.state is not BlockState.DISCARDED
        or block.raw.length >= 3
        or _touches(block.raw, everything.pieces)
    }
    uncapped = match_signatures(a, b, options, max_listed_discarded=0)
    assert set(uncapped.blocks) == {
        block
        for block in everything.blocks
        if block.state is not BlockState.DISCARDED or _touches(block.raw, everything.pieces)
    }
    for keep_all in (False, True):
        result = match_signatures(a, b, options, keep_all_discarded=keep_all)
        oracle_pieces = [p for p in composite_runs(a, b, options)]
        # pieces come from raw blocks of length >= max(min_block, 2)
        oracle_pieces = [p for p in oracle_pieces if _inside_raw_block(a, b, p)]
        assert list(result.pieces) == oracle_pieces
        counts = result.counts
        raw = diagonal_maximal_pairs(a.symbols, b.symbols, 2)  # whatever min_block is
        assert counts.raw == len(raw)
        assert counts.verified + counts.split + counts.discarded == counts.raw
        listed = [bl for bl in result.blocks if bl.state is BlockState.DISCARDED]
        if keep_all:
            assert len(result.blocks) == counts.raw
        else:
            assert len(listed) <= counts.discarded
        for block in result.blocks:
            for k in range(block.raw.length):
                i, j = block.raw.a_start + k, block.raw.b_start + k
                assert (k in block.failed) == (a.keys[i] != b.keys[j])


def _touches(raw, pieces) -> bool:
    """Oracle for 'touching a kept piece': on its diagonal or a neighbouring one, with at most
    one sentence between them in A."""
    for p in pieces:
        same_alignment = abs((raw.b_start - raw.a_start) - (p.b_start - p.a_start)) <= 1
        a_positions = set(range(raw.a_start, raw.a_start + raw.length))
        near_piece = set(range(p.a_start - 2, p.a_start + p.length + 2))
        if same_alignment and a_positions & near_piece:
            return True
    return False


def _inside_raw_block(a: Signature, b: Signature, piece: VerifiedBlock) -> bool:
    raw = diagonal_maximal_pairs(a.symbols, b.symbols, 2)
    return any(
        r.a_start - r.b_start == piece.a_start - piece.b_start
        and r.a_start <= piece.a_start
        and piece.a_start + piece.length <= r.a_start + r.length
        for r in raw
    )


def test_paper_example_split_five_into_two_and_two() -> None:
    ks = [full(w) for w in ["one", "two", "three", "four", "five"]]
    a = signature([3, 4, 5, 6, 7], ks)
    b = signature([3, 4, 5, 6, 7], [*ks[:2], full("other"), *ks[3:]])
    result = match_signatures(a, b)
    (block,) = result.blocks
    assert block.state is BlockState.SPLIT
    assert block.failed == (2,)
    assert block.pieces == (VerifiedBlock(0, 0, 2), VerifiedBlock(3, 3, 2))
    assert (result.counts.verified, result.counts.split, result.counts.discarded) == (0, 1, 0)
    assert result.score.matched_count == 4


def test_paper_example_discard_four_with_two_failures() -> None:
    ks = [full(w) for w in ["one", "two", "three", "four"]]
    a = signature([3, 4, 5, 6], ks)
    b = signature([3, 4, 5, 6], [ks[0], full("x"), full("y"), ks[3]])
    result = match_signatures(a, b)
    (block,) = result.blocks
    assert block.state is BlockState.DISCARDED
    assert block.failed == (1, 2)
    assert block.pieces == ()
    assert result.score.jaccard == 0.0


def test_short_sentences_do_not_count_but_may_stay_inside() -> None:
    a = signature([1, 5, 1, 6], [("oh",), full("a"), ("no",), full("b")])
    b = signature([1, 5, 1, 6], [("oh",), full("a"), ("no",), full("b")])
    (block,) = match_signatures(a, b).blocks
    assert block.state is BlockState.VERIFIED
    assert block.pieces == (VerifiedBlock(0, 0, 4),)
    assert block.short == (0, 2)
    # two short sentences alone are not evidence under the project rule…
    a2 = signature([1, 1], [("oh",), ("no",)])
    (lone,) = match_signatures(a2, a2, keep_all_discarded=True).blocks
    assert lone.state is BlockState.DISCARDED and lone.failed == ()
    # …but are under the paper's literal rule
    literal = MatchOptions(short_sentences=ShortSentenceRule.LITERAL)
    (kept,) = match_signatures(a2, a2, literal).blocks
    assert kept.state is BlockState.VERIFIED


def test_identical_signatures_score_one() -> None:
    ks = [full(str(k)) for k in range(10)]
    a = signature([3, 1, 4, 1, 5, 9, 2, 6, 5, 3], ks)
    score = match_signatures(a, a).score
    assert (score.jaccard, score.coverage_a, score.coverage_b) == (1.0, 1.0, 1.0)


def test_greedy_matching_longest_first_never_reuses_a_position() -> None:
    # A's positions 0-3 match B twice: at 0-3 (length 4) and, overlapping, 2-4 at 5-7 (length 3)
    pieces = [VerifiedBlock(0, 0, 4), VerifiedBlock(2, 5, 3), VerifiedBlock(6, 9, 2)]
    score = score_pieces(pieces, 10, 12)
    assert score.matched == ((0, 0), (1, 1), (2, 2), (3, 3), (4, 7), (6, 9), (7, 10))
    assert score.jaccard == 7 / (10 + 12 - 7)
    assert score.coverage_a == 0.7
    assert score.coverage_b == 7 / 12


def test_ties_prefer_lower_a_then_lower_b() -> None:
    score = score_pieces([VerifiedBlock(5, 0, 2), VerifiedBlock(0, 0, 2)], 8, 8)
    assert score.matched == ((0, 0), (1, 1))


def test_nothing_shared_scores_zero() -> None:
    a = signature([1, 2, 3], [full("a"), full("b"), full("c")])
    b = signature([4, 5, 6], [full("a"), full("b"), full("c")])
    result = match_signatures(a, b)
    assert result.blocks == () and result.score.jaccard == 0.0
    assert match_signatures(signature([], []), signature([], [])).score.jaccard == 0.0


def test_progress_reaches_one_and_cancel_stops() -> None:
    import pytest

    from core.errors import Cancelled

    rng = random.Random(7)
    syms = [rng.randrange(36) for _ in range(12000)]
    a = signature(syms, [full(str(rng.randrange(5))) for _ in range(12000)])
    seen: list[float] = []
    match_signatures(a, a, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 1.0

    def cancel(_: float) -> None:
        raise Cancelled

    with pytest.raises(Cancelled):
        match_signatures(a, a, progress=cancel)

"""Clusters: documents linked, directly or through others, by pairs with copied text found (a
verified block or a reworded passage) whose copied share reaches a threshold."""

from __future__ import annotations

from core.batch.clusters import clusters, reaches
from core.batch.result import PairResult
from core.detection.reworded import RewordedPassage
from core.detection.verification import VerifiedBlock


def pair(a: int, b: int, copied: float, jaccard: float = 0.1) -> PairResult:
    """A pair with a verified block, `copied` the larger of its shares."""
    return PairResult(
        a=a,
        b=b,
        jaccard=jaccard,
        coverage_a=jaccard,
        coverage_b=jaccard,
        verified_blocks=1,
        longest_block=2,
        pieces=(VerifiedBlock(0, 0, 2),),
        copied_a=copied / 2,
        copied_b=copied,
    )


def edited(a: int, b: int, copied: float) -> PairResult:
    """A pair found by the reworded detector alone (no verified block, Jaccard 0)."""
    passage = RewordedPassage((0, 3), (1, 4), (), 9, 0.6)
    return PairResult(a, b, 0.0, 0.0, 0.0, 0, 0, (), copied, copied, (passage,))


def test_a_chain_links_transitively() -> None:
    # 0-1, 1-2, 2-3: 0 and 3 share nothing but are one group
    pairs = [pair(0, 1, 0.5), pair(2, 1, 0.4), pair(3, 2, 0.3)]
    assert clusters(pairs, 0.3) == [[0, 1, 2, 3]]


def test_the_threshold_excludes_weak_links_and_is_inclusive() -> None:
    pairs = [pair(0, 1, 0.5), pair(1, 2, 0.1), pair(3, 4, 0.2)]
    assert clusters(pairs, 0.2) == [[0, 1], [3, 4]]
    assert clusters(pairs, 0.05) == [[0, 1, 2], [3, 4]]
    assert clusters(pairs, 0.6) == []


def test_groups_are_sorted_by_size_then_first_index() -> None:
    pairs = [
        pair(9, 7, 0.9),
        pair(5, 6, 0.9),
        pair(2, 8, 0.9),
        pair(8, 4, 0.9),
        pair(1, 3, 0.9),
    ]
    assert clusters(pairs, 0.5) == [[2, 4, 8], [1, 3], [5, 6], [7, 9]]


def test_no_pairs_no_groups() -> None:
    assert clusters([], 0.0) == []


def test_a_document_paired_with_itself_is_not_a_group() -> None:
    assert clusters([pair(3, 3, 1.0)], 0.5) == []


def test_joining_two_groups_through_a_late_pair() -> None:
    pairs = [pair(0, 1, 0.5), pair(2, 3, 0.5), pair(4, 5, 0.5), pair(1, 3, 0.5)]
    assert clusters(pairs, 0.5) == [[0, 1, 2, 3], [4, 5]]


def test_both_kinds_link_and_the_threshold_is_on_the_copied_share() -> None:
    pairs = [edited(0, 1, 0.4), pair(1, 2, 0.3, jaccard=0.9), edited(3, 4, 0.1)]
    assert clusters(pairs, 0.3) == [[0, 1, 2]]  # the edited copy links 0 to 1, Jaccard 0
    assert clusters(pairs, 0.35) == [[0, 1]]  # a high Jaccard does not reach a share of 35%
    assert clusters(pairs, 0.0) == [[0, 1, 2], [3, 4]]


def test_a_pair_without_copied_text_links_nothing() -> None:
    nothing = PairResult(0, 1, 0.0, 0.0, 0.0, 0, 0, (), copied_a=0.5, copied_b=0.5)
    assert not nothing.flagged and not reaches(nothing, 0.0)
    assert clusters([nothing], 0.0) == []
    assert reaches(edited(0, 1, 0.2), 0.2) and not reaches(edited(0, 1, 0.2), 0.21)

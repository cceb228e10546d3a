"""Clusters: documents linked, directly or through others, by pairs at or above a threshold."""

from __future__ import annotations

from core.batch.clusters import clusters
from core.batch.result import PairResult


def pair(a: int, b: int, jaccard: float) -> PairResult:
    return PairResult(
        a=a,
        b=b,
        jaccard=jaccard,
        coverage_a=jaccard,
        coverage_b=jaccard,
        verified_blocks=1,
        longest_block=2,
        pieces=(),
    )


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

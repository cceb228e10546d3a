"""Clusters of a folder check: groups of documents linked, directly or through others, by pairs
with copied text found (a verified block or a reworded passage) whose copied share reaches a
threshold (connected components, found with union-find).

`reaches` is the one rule for "a pair at or above the threshold" on every surface: the pairs
listed (JSON, CSV, the table), the report's pair pages, the heatmap's cells and these groups.
The threshold is on the copied share, the headline of a pair (the larger of the two shares of
each document's sentences inside copied passages of either kind), not on Jaccard; with
--strict (the paper's method alone) it is on Jaccard, as it was before reworded passages."""

from __future__ import annotations

from collections.abc import Sequence

from core.batch.result import PairResult


def reaches(pair: PairResult, threshold: float) -> bool:
    """Whether `pair` has copied text found and a copied share at or above `threshold` (with
    --strict, the paper's method alone: a Jaccard at or above it, as before)."""
    return pair.flagged and pair.headline >= threshold


def clusters(pairs: Sequence[PairResult], threshold: float) -> list[list[int]]:
    """Groups of document indices (each sorted) with two or more members, largest first, then
    by their first index. Documents with no pair reaching the threshold belong to no group."""
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]  # path halving keeps the trees shallow
            x = parent[x]
        return x

    for pair in pairs:
        if reaches(pair, threshold) and pair.a != pair.b:
            ra, rb = root(pair.a), root(pair.b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)

    groups: dict[int, list[int]] = {}
    for member in parent:
        groups.setdefault(root(member), []).append(member)
    found = [sorted(group) for group in groups.values() if len(group) >= 2]
    found.sort(key=lambda group: (-len(group), group[0]))
    return found

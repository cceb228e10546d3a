"""Clusters of a folder check: groups of documents linked, directly or through others, by pairs
at or above a Jaccard threshold (connected components, found with union-find)."""

from __future__ import annotations

from collections.abc import Sequence

from core.batch.result import PairResult


def clusters(pairs: Sequence[PairResult], threshold: float) -> list[list[int]]:
    """Groups of document indices (each sorted) with two or more members, largest first, then
    by their first index. Documents with no pair at the threshold belong to no group."""
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]  # path halving keeps the trees shallow
            x = parent[x]
        return x

    for pair in pairs:
        if pair.jaccard >= threshold and pair.a != pair.b:
            ra, rb = root(pair.a), root(pair.b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)

    groups: dict[int, list[int]] = {}
    for member in parent:
        groups.setdefault(root(member), []).append(member)
    found = [sorted(group) for group in groups.values() if len(group) >= 2]
    found.sort(key=lambda group: (-len(group), group[0]))
    return found

"""The O(m·n) diagonal scan for raw blocks: the reference the suffix tree is tested against.

Every maximal run of equal symbols along a diagonal (fixed j - i) is one maximal pair."""

from __future__ import annotations

from collections.abc import Sequence

from core.detection.suffix_tree import RawBlock


def diagonal_maximal_pairs(
    a: Sequence[int], b: Sequence[int], min_length: int = 2
) -> list[RawBlock]:
    m, n = len(a), len(b)
    found: list[RawBlock] = []
    for offset in range(-(m - 1), n):  # offset = j - i
        i = max(0, -offset)
        run_start = -1
        while i < m and i + offset < n:
            if a[i] == b[i + offset]:
                if run_start < 0:
                    run_start = i
            elif run_start >= 0:
                if i - run_start >= min_length:
                    found.append(RawBlock(run_start, run_start + offset, i - run_start))
                run_start = -1
            i += 1
        if run_start >= 0 and i - run_start >= min_length:
            found.append(RawBlock(run_start, run_start + offset, i - run_start))
    return found

"""The score of a comparison (spec §4): matched sentence pairs, Jaccard and coverages.

M is a one-to-one set of aligned sentence pairs taken from the verified blocks greedily, longest
block first (ties: lower A position, then lower B position), never using a position twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from core.detection.verification import VerifiedBlock


@dataclass(frozen=True, slots=True)
class Score:
    n_a: int  # signature lengths
    n_b: int
    matched: tuple[tuple[int, int], ...]  # M: (A position, B position), sorted

    @property
    def matched_count(self) -> int:
        return len(self.matched)

    @property
    def jaccard(self) -> float:
        """|M| / (n_A + n_B - |M|): 1 for identical documents, 0 with nothing verified."""
        union = self.n_a + self.n_b - len(self.matched)
        return len(self.matched) / union if union else 0.0

    @property
    def coverage_a(self) -> float:
        """The share of A's sentences found in B."""
        return len(self.matched) / self.n_a if self.n_a else 0.0

    @property
    def coverage_b(self) -> float:
        return len(self.matched) / self.n_b if self.n_b else 0.0


def score_pieces(pieces: Iterable[VerifiedBlock], n_a: int, n_b: int) -> Score:
    used_a: set[int] = set()
    used_b: set[int] = set()
    matched: list[tuple[int, int]] = []
    for piece in sorted(pieces, key=lambda p: (-p.length, p.a_start, p.b_start)):
        for k in range(piece.length):
            i, j = piece.a_start + k, piece.b_start + k
            if i not in used_a and j not in used_b:
                used_a.add(i)
                used_b.add(j)
                matched.append((i, j))
    return Score(n_a, n_b, tuple(sorted(matched)))

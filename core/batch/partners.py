"""Each submission's strongest partner: with more than two documents, a teacher reads the class
one submission at a time ("how much of this essay is found in another, and in which?"), not
pair by pair. One rule for the folder check, its reports and the window's document list.

A document's share in a pair is how much of *it* is found in the partner (`copied_a` for the
pair's first document, `copied_b` for its second), so a short essay copied whole into a long
one reads 100% while the long one reads its own, smaller share. The strongest partner is the
pair with the largest such share; ties go to the partner listed first (the pairs' own order)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from core.comparison import Comparison

K = TypeVar("K", bound=Hashable)
K_co = TypeVar("K_co", bound=Hashable, covariant=True)


class SharedPair(Protocol[K_co]):  # pragma: no cover - a protocol
    """What the rule reads of a pair (a PairResult with its document indices, or any pair
    with keys for its documents): both documents and each one's copied share."""

    @property
    def a(self) -> K_co: ...

    @property
    def b(self) -> K_co: ...

    @property
    def copied_a(self) -> float: ...

    @property
    def copied_b(self) -> float: ...


@dataclass(frozen=True, slots=True)
class StrongestPartner(Generic[K]):
    """`document`'s largest share found in one other document, and that document."""

    document: K
    partner: K
    share: float  # of `document`'s scored sentences, 0..1


def strongest_partners(pairs: Iterable[SharedPair[K]]) -> dict[K, StrongestPartner[K]]:
    """For every document in a flagged pair, its strongest partner (documents in no pair with
    copied text are absent: nothing of them is found elsewhere)."""
    best: dict[K, StrongestPartner[K]] = {}
    for pair in pairs:
        for document, partner, share in (
            (pair.a, pair.b, pair.copied_a),
            (pair.b, pair.a, pair.copied_b),
        ):
            if share <= 0:
                continue
            known = best.get(document)
            if known is None or share > known.share:
                best[document] = StrongestPartner(document, partner, share)
    return best


@dataclass(frozen=True, slots=True)
class Standing:
    """One submission as the class view lists it: the most of it found in one other document
    (`share`, 0 when nothing is), that document (`partner`, None when none), and how many
    pairs with copied text it is in."""

    document: int
    partner: int | None
    share: float
    pairs: int


def standings(count: int, pairs: Iterable[SharedPair[int]]) -> list[Standing]:
    """Every document 0..count-1 with its strongest partner (`strongest_partners`), the most
    found in another first; ties (and the documents with nothing found, last) in the
    documents' order. The folder check's Submissions list, the batch JSON, CSV, report and
    `doppel batch` all list submissions in this order."""
    listed = list(pairs)
    best = strongest_partners(listed)
    linked = [0] * count
    for pair in listed:
        if pair.copied_a > 0 or pair.copied_b > 0:
            linked[pair.a] += 1
            linked[pair.b] += 1
    rows = [
        Standing(d, best[d].partner, best[d].share, linked[d])
        if d in best
        else Standing(d, None, 0.0, linked[d])
        for d in range(count)
    ]
    rows.sort(key=lambda row: (-row.share, row.document))
    return rows


@dataclass(frozen=True, slots=True)
class _ByPath:
    a: Path
    b: Path
    copied_a: float
    copied_b: float


def strongest_partners_by_path(
    comparisons: Iterable[Comparison],
) -> dict[Path, StrongestPartner[Path]]:
    """`strongest_partners` of compared pairs (the window's three or more documents), each
    document known by its path."""
    return strongest_partners(
        _ByPath(c.a.path, c.b.path, c.copied_a, c.copied_b) for c in comparisons
    )

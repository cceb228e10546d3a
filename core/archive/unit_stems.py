"""A document's sentences that could hold a strong seed, as their stems' hashes: what its word
keys are made of, and what a check verifies a probe on (`core.archive.probes`).

The units table keeps one row a document: `UnitStems.to_bytes`, its sentences' numbers, their
sizes and their stems back to back (little-endian). One row a document, not one a sentence:
an add inserts a few thousand rows a chunk instead of a hundred thousand, and a reading
process packs the row itself (`core.archive.prepared`), so the add's own process stores it as
it comes. A check reads the rows of the documents its probes point at and takes the sentences
it needs from them."""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np
from numpy.typing import NDArray

from core.archive.keys import key_hashes
from core.detection.reworded import DEFAULT_SETTINGS, RewordSettings, WordProfile

Ints = NDArray[np.int64]

_COUNT = np.dtype("<i4")  # how many sentences, each one's number, each one's size
_STEM = np.dtype("<i8")


class DamagedUnits(ValueError):
    """A units row does not hold what `UnitStems.to_bytes` writes."""


@dataclass(frozen=True, slots=True, eq=False)
class UnitStems:
    """Sentences as their distinct stems' hashes: each one's number in its document's word
    profile (`numbers`, rising), and its stems, sorted, back to back (`stems`; sentence k's
    are `stems[starts[k]:starts[k + 1]]`)."""

    numbers: Ints
    starts: Ints
    stems: Ints

    def __len__(self) -> int:
        return len(self.numbers)

    @property
    def sizes(self) -> Ints:
        return np.diff(self.starts)

    def stems_of(self, k: int) -> frozenset[int]:
        return frozenset(self.stems[self.starts[k] : self.starts[k + 1]].tolist())

    def to_bytes(self) -> bytes:
        head = np.concatenate(([len(self.numbers)], self.numbers, self.sizes)).astype(_COUNT)
        return head.tobytes() + self.stems.astype(_STEM).tobytes()

    @classmethod
    def of_sets(cls, sentences: Sequence[tuple[int, frozenset[int]]]) -> UnitStems:
        """`(number, stems)` of each sentence (numbers rising) as UnitStems."""
        sizes = np.fromiter((len(s) for _, s in sentences), dtype=np.int64, count=len(sentences))
        starts = np.zeros(len(sentences) + 1, dtype=np.int64)
        np.cumsum(sizes, out=starts[1:])
        stems = np.fromiter(
            chain.from_iterable(sorted(s) for _, s in sentences), dtype=np.int64, count=starts[-1]
        )
        numbers = np.fromiter((n for n, _ in sentences), dtype=np.int64, count=len(sentences))
        return cls(numbers, starts, stems)


def units_row(profile: WordProfile | None, settings: RewordSettings = DEFAULT_SETTINGS) -> bytes:
    """The units row (`UnitStems.to_bytes`) of the sentences of `profile` that could hold a
    strong seed (at least `strong_shared` distinct stems). Made where a document is read, one
    at a time: a few sets and sorts a sentence in plain Python cost less there than numpy's
    steps on arrays of a few hundred stems, and the document's stems are hashed afresh (most
    of an essay's stems are distinct, and a process's cache of the stems it met, large enough
    to help, cost more in misses than the hashing it saved: measured on the add of 10,000)."""
    sentences = profile.stems if profile is not None else ()
    hashed = key_hashes({*chain.from_iterable(sentences)}).__getitem__
    numbers: list[int] = []
    sizes: list[int] = []
    stems: list[int] = []
    least = settings.strong_shared
    for number, sentence in enumerate(sentences):
        if len(sentence) < least:
            continue
        distinct = sorted(set(map(hashed, sentence)))
        if len(distinct) >= least:
            numbers.append(number)
            sizes.append(len(distinct))
            stems += distinct
    head = array("i", [len(numbers), *numbers, *sizes])
    body = array("q", stems)
    if sys.byteorder == "big":  # (the row is little-endian everywhere)
        head.byteswap()
        body.byteswap()
    return head.tobytes() + body.tobytes()


@dataclass(frozen=True, slots=True, eq=False)
class UnitRows:
    """Units rows (`UnitStems.to_bytes`) read at once, on arrays with no Python step a row (a
    filing reads thousands: its chunk's, and those of archived sentences under keys it opens):
    how many sentences each row holds, and each sentence's row, number, size and where its
    stems begin (in the rows' 4-byte words). Only the sentences asked for are gathered
    (`units`): a check wants a few of each row it reads."""

    counts: Ints
    row: Ints
    numbers: Ints
    sizes: Ints
    begins: Ints
    words: NDArray[np.int32]

    @classmethod
    def of(cls, rows: Sequence[bytes]) -> UnitRows:
        """The rows' sentences (DamagedUnits when one is not such a row)."""
        lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
        if (lengths < _COUNT.itemsize).any() or (lengths % _COUNT.itemsize).any():
            raise DamagedUnits("a units row is cut short")
        words = np.frombuffer(b"".join(rows), dtype=_COUNT)
        first = np.zeros(len(rows), dtype=np.int64)  # each row's first word
        np.cumsum(lengths[:-1] // _COUNT.itemsize, out=first[1:])
        counts = words[first].astype(np.int64) if len(rows) else first
        if (counts < 0).any() or (lengths < (1 + 2 * counts) * _COUNT.itemsize).any():
            raise DamagedUnits("a units row is cut short")
        row = np.repeat(np.arange(len(rows), dtype=np.int64), counts)
        within = np.arange(len(row), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
        numbers = words[first[row] + 1 + within].astype(np.int64)
        sizes = words[first[row] + 1 + counts[row] + within].astype(np.int64)
        per_row = np.bincount(row, weights=sizes, minlength=len(rows)).astype(np.int64)
        if (sizes < 0).any() or (lengths != (1 + 2 * counts + 2 * per_row) * 4).any():
            raise DamagedUnits("a units row's sizes do not match its stems")
        # each sentence's stems: two words each (the low one first), after its row's head and
        # the row's earlier sentences' stems
        before = np.cumsum(sizes) - sizes - np.repeat(np.cumsum(per_row) - per_row, counts)
        begins = first[row] + 1 + 2 * counts[row] + 2 * before
        return cls(counts, row, numbers, sizes, begins, words)

    def units(self, which: Ints | None = None) -> UnitStems:
        """The sentences at the places `which` (all when None), in that order."""
        if which is None:
            which = np.arange(len(self.numbers), dtype=np.int64)
        sizes = self.sizes[which]
        starts = np.zeros(len(which) + 1, dtype=np.int64)
        np.cumsum(sizes, out=starts[1:])
        nth = np.arange(int(starts[-1]), dtype=np.int64) - np.repeat(starts[:-1], sizes)
        at = np.repeat(self.begins[which], sizes) + 2 * nth
        stems = (self.words[at + 1].astype(np.int64) << 32) | (
            self.words[at].astype(np.int64) & 0xFFFFFFFF
        )
        return UnitStems(self.numbers[which], starts, stems)

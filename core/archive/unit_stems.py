"""A document's sentences that could hold a strong seed, as their stems' hashes: what its word
keys are made of, and what a check verifies a probe on (`core.archive.probes`).

The units table keeps one row a document: `UnitStems.to_bytes`, its sentences' numbers, their
sizes and their stems back to back (little-endian). One row a document, not one a sentence:
an add inserts a few thousand rows a chunk instead of a hundred thousand, made a few hundred
documents at a time from the stems its reading processes handed on as text (`units_rows`;
`core.archive.prepared`). A check reads the rows of the documents its probes point at and
takes the sentences it needs from them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np
from numpy.typing import NDArray

from core.archive.stem_hashing import hash_stems, sentence_sizes
from core.detection.reworded import DEFAULT_SETTINGS, RewordSettings

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


def units_rows(
    documents: Sequence[tuple[str, bytes]], settings: RewordSettings = DEFAULT_SETTINGS
) -> list[bytes]:
    """For each document's stems (`core.archive.stem_hashing.joined`: their text and each
    sentence's size), its units row (`UnitStems.to_bytes`): the sentences that could hold a
    strong seed (at least `strong_shared` distinct stems), each as its distinct stems'
    hashes, sorted. Made for many documents at once, on arrays: their stems hashed together
    (`hash_stems`), and one sort of every stem by its sentence and hash
    (`distinct_in_sentences`) in place of a set and a sort a sentence."""
    sizes = [sentence_sizes(packed) for _, packed in documents]
    per_document = np.fromiter(map(len, sizes), dtype=np.int64, count=len(sizes))
    every = np.concatenate(sizes) if sizes else np.zeros(0, dtype=np.int64)
    holding = [text for (text, _), held in zip(documents, sizes, strict=True) if held.sum()]
    hashes = hash_stems(holding)
    if len(hashes) != int(every.sum()):
        raise ValueError("the stems' text does not hold as many stems as their sentences")
    least = settings.strong_shared
    sentence = np.repeat(np.arange(len(every), dtype=np.int64), every)
    enough = every[sentence] >= least  # (fewer stems than that: fewer distinct ones too)
    hashes, sentence = hashes[enough], sentence[enough]
    hashes, sentence = distinct_in_sentences(hashes, sentence)
    distinct = np.bincount(sentence, minlength=len(every))
    could = distinct >= least
    stems = hashes[could[sentence]]
    kept = np.flatnonzero(could)
    kept_sizes = distinct[kept]
    document = np.repeat(np.arange(len(documents), dtype=np.int64), per_document)[kept]
    numbers = kept - (np.cumsum(per_document) - per_document)[document]
    counts = np.bincount(document, minlength=len(documents))
    starts = np.zeros(len(kept) + 1, dtype=np.int64)
    np.cumsum(kept_sizes, out=starts[1:])
    return _rows(counts, UnitStems(numbers, starts, stems))


#: the bits of a hash in `distinct_in_sentences`'s sort key (a sentence's number above them)
_HASH_BITS = 39
_SIGN = np.uint64(1 << 63)


def distinct_in_sentences(hashes: Ints, sentence: Ints) -> tuple[Ints, Ints]:
    """The distinct `(hash, sentence)` pairs, by sentence (`sentence` rising, as stems come)
    then hash. One sort of a 64-bit key, the sentence's number above its hash's highest bits:
    a quarter of the cost of sorting the pairs (`np.lexsort`). Two different hashes of a
    sentence that share those bits may come out of order; the pairs are then sorted exactly
    (the bench's essays hold 2,578 pairs of distinct stems in a sentence each, so about one
    essay in two hundred million meets this)."""
    order: Ints | None
    if len(sentence) and int(sentence[-1]) >> (63 - _HASH_BITS):
        order = np.lexsort((hashes, sentence))
    else:
        # (the sign bit flipped: unsigned order is then the hashes' signed order)
        high = ((hashes.view(np.uint64) ^ _SIGN) >> np.uint64(64 - _HASH_BITS)).view(np.int64)
        order = np.argsort((sentence << _HASH_BITS) | high)
        hashes, sentence = hashes[order], sentence[order]
        falling = (sentence[1:] == sentence[:-1]) & (hashes[1:] < hashes[:-1])
        order = np.lexsort((hashes, sentence)) if falling.any() else None
    if order is not None:
        hashes, sentence = hashes[order], sentence[order]
    first = np.ones(len(hashes), dtype=np.bool_)
    first[1:] = (hashes[1:] != hashes[:-1]) | (sentence[1:] != sentence[:-1])
    return hashes[first], sentence[first]


def _rows(counts: Ints, units: UnitStems) -> list[bytes]:
    """Each document's units row, its `counts` sentences of `units` in turn."""
    numbers = units.numbers.astype(_COUNT).tobytes()
    sizes = units.sizes.astype(_COUNT).tobytes()
    stems = units.stems.astype(_STEM).tobytes()
    heads = np.asarray(counts, dtype=_COUNT)
    at = (np.cumsum(counts) - counts).tolist()
    begins = units.starts[[*at, len(units)]].tolist()
    width, wide = _COUNT.itemsize, _STEM.itemsize
    return [
        heads[k : k + 1].tobytes()
        + numbers[width * a : width * (a + n)]
        + sizes[width * a : width * (a + n)]
        + stems[wide * begins[k] : wide * begins[k + 1]]
        for k, (a, n) in enumerate(zip(at, counts.tolist(), strict=True))
    ]


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

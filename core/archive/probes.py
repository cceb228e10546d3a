"""A check's word keys against the postings filed under them, on arrays (numpy).

Each new sentence's keys (`core.archive.keys.unit_keys`) are its *probes*. A probe meets every
posting filed under its key; the few postings that could hold a strong seed with the probe's
sentence are kept, and only their archived sentences are read and verified (their stems
shared). Two filters decide which could, neither ever dropping a strong seed:

- the length and position filters (`core.archive.keys.could_share`): enough stems must be
  left after the key, in both sentences, for the larger of the two thresholds;
- the stem mask: two sentences sharing a strong seed meet under the key of their first
  shared stems, and each other stem they share comes after it in both and has its bit set in
  the mask of the archived sentence's stems after the key (`core.archive.keys.mask_after`,
  held in the posting), so the key's length and the new sentence's stems after the probe's
  position whose bit is set must reach that threshold.

At 100,000 archived essays a new essay's probes met 2,001 postings; the first filter kept
1,193, the mask 402, all of which really share a strong seed's stems; a term of 100 met
369,939, and the mask kept 10,104 (9,039 really sharing; a mask of 128 bits of all the
sentence's stems kept 45,119: docs/benchmarks.md). A test holds these arrays equal to the
filters one posting at a time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from core.archive.chunk_keys import Ints, thresholds
from core.archive.keys import MASK_BITS, WordKey, WordUnit
from core.archive.postings import Postings, picked


@dataclass(frozen=True, slots=True, eq=False)
class Met:
    """The postings some probes met and kept: for each, which probe, the posting, and the
    stems its sentence and the probe's must share (the larger threshold)."""

    probe: Ints
    postings: Postings
    both: Ints


def kept(
    units: Sequence[WordUnit], probes: Sequence[tuple[int, WordKey]], postings: Postings
) -> Met:
    """The `postings` (of the probes' keys) each probe (`(its sentence in units, its key)`)
    meets and keeps: those under its key that pass the length, position and mask filters."""
    count = len(probes)
    sentence = np.fromiter((s for s, _ in probes), dtype=np.int64, count=count)
    key = np.fromiter((k[0] for _, k in probes), dtype=np.int64, count=count)
    position = np.fromiter((k[1] for _, k in probes), dtype=np.int64, count=count)
    reach = np.fromiter((k[2] - 1 for _, k in probes), dtype=np.int64, count=count)
    postings = picked(postings, np.argsort(postings["key"], kind="stable"))
    low = np.searchsorted(postings["key"], key, side="left")
    many = np.searchsorted(postings["key"], key, side="right") - low
    probe = np.repeat(np.arange(count, dtype=np.int64), many)
    first = np.repeat(np.cumsum(many) - many, many)
    met = picked(postings, np.repeat(low, many) + np.arange(len(probe), dtype=np.int64) - first)
    sentence = sentence[probe]
    sizes = np.fromiter((u.size for u in units), dtype=np.int64, count=len(units))
    needs = np.fromiter((u.need for u in units), dtype=np.int64, count=len(units))
    size = met["size"].astype(np.int64)
    both = np.maximum(needs[sentence], thresholds(size))
    reach = reach[probe]
    passes = (both <= sizes[sentence] - position[probe] + reach) & (
        both <= size - met["position"].astype(np.int64) + reach
    )
    firsts = np.cumsum(sizes) - sizes  # (each new sentence's first place among all their stems)
    after = _counts_after(units, firsts[sentence] + position[probe], met["mask"])
    passes &= reach + 1 + after >= both
    return Met(probe[passes], picked(met, passes), both[passes])


def _counts_after(units: Sequence[WordUnit], places: Ints, masks: NDArray[np.uint64]) -> Ints:
    """For each (place of a new sentence's stem, among all their stems back to back; archived
    mask): how many of that sentence's stems after the place have their bit set in the mask
    (`_AT_ONCE` at a time: what is held stays small for a term's probes)."""
    # each place's sentence's stems after it, counted by bit (a stem's bit: its hash mod
    # MASK_BITS): the counts of the places after it, summed from the sentence's end
    by_bit = np.zeros((sum(u.size for u in units), MASK_BITS), dtype=np.int32)
    first = 0
    for u in units:
        ones = np.zeros((u.size, MASK_BITS), dtype=np.int32)
        ones[np.arange(u.size), np.array(u.stems, dtype=np.int64) & (MASK_BITS - 1)] = 1
        by_bit[first : first + u.size - 1] = np.cumsum(ones[:0:-1], axis=0)[::-1]
        first += u.size
    counts = np.zeros(len(places), dtype=np.int64)
    for start in range(0, len(places), _AT_ONCE):
        part = slice(start, start + _AT_ONCE)
        bits = np.unpackbits(  # (bits 0 to MASK_BITS - 1 of each mask)
            masks[part].astype("<u8").view(np.uint8).reshape(-1, MASK_BITS // 8),
            axis=1,
            bitorder="little",
        )
        counts[part] = (bits * by_bit[places[part]]).sum(axis=1)
    return counts


#: postings whose masks are counted at once (each unpacked to MASK_BITS counts)
_AT_ONCE = 8_192

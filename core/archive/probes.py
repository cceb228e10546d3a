"""A check's word keys against the postings filed under them, on arrays (numpy).

Each new sentence's keys (`core.archive.keys.unit_keys`) are its *probes*. A probe meets every
posting filed under its key; the few postings that could hold a strong seed with the probe's
sentence are kept, and only their archived sentences are read and verified (their stems
shared). Two filters decide which could, neither ever dropping a strong seed:

- the length and position filters (`core.archive.keys.could_share`): enough stems must be
  left after the key, in both sentences, for the larger of the two thresholds;
- the stem mask: each shared stem's bit is set in the archived sentence's mask
  (`core.archive.keys.stem_mask`, held in the posting), so the new sentence's stems whose bit
  is set must be at least that threshold.

At 100,000 archived essays a new essay's probes met 9,453 postings; the first filter kept
6,155, the mask (128 bits) 420, of which 358 really share a strong seed's stems (a mask of
64 bits kept 1,050; docs/benchmarks.md). A test holds these arrays equal to the filters one
posting at a time."""

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
    passes &= _mask_counts(units, sentence, met["mask"]) >= both
    return Met(probe[passes], picked(met, passes), both[passes])


def _mask_counts(units: Sequence[WordUnit], sentence: Ints, masks: NDArray[np.uint64]) -> Ints:
    """For each (new sentence, archived mask): how many of the sentence's stems have their bit
    set in the mask (`_AT_ONCE` at a time: what is held stays small for a term's probes)."""
    # each new sentence's stems counted by bit (a stem's bit: its hash mod MASK_BITS)
    by_bit = np.zeros((len(units), MASK_BITS), dtype=np.int32)
    for n, u in enumerate(units):
        np.add.at(by_bit[n], np.array(u.stems, dtype=np.int64) & (MASK_BITS - 1), 1)
    counts = np.zeros(len(sentence), dtype=np.int64)
    for start in range(0, len(sentence), _AT_ONCE):
        part = slice(start, start + _AT_ONCE)
        bits = np.unpackbits(  # (each mask's words, the low one first: bits 0 to MASK_BITS - 1)
            masks[part].astype("<u8").view(np.uint8).reshape(-1, MASK_BITS // 8),
            axis=1,
            bitorder="little",
        )
        counts[part] = (bits * by_bit[sentence[part]]).sum(axis=1)
    return counts


#: postings whose masks are counted at once (each unpacked to MASK_BITS counts)
_AT_ONCE = 8_192

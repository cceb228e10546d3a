"""The word keys of a whole chunk of sentences at once, on arrays (numpy): what an add files.

`core.archive.keys.unit_keys` gives the keys of a few sentences one at a time (a check's, or a
removed document's); an add files tens of thousands of sentences a chunk, and there the same
rule runs on flat arrays: every sentence's stems back to back, and each step (the order, the
first prefix, the open keys, each longer key) one operation over all of them. Profiled on the
benchmark collection, filing a thousand essays into an index of 10,000 spent more time making
keys one sentence at a time than in SQLite (docs/benchmarks.md). A test holds these keys equal
to `unit_keys`'s for arbitrary sentences, orders and open keys.

The hashes are the same: a longer key is its shorter key's hash times a 64-bit odd constant,
exclusive-or its new stem's hash, in 64-bit arithmetic (`core.archive.keys.longer_keys`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from core.archive.keys import LONGEST, MASK_BITS, MIX, StemOrder
from core.archive.unit_stems import UnitStems
from core.detection.reworded import DEFAULT_SETTINGS, RewordSettings, strong_threshold

Ints = NDArray[np.int64]
#: which of some keys (of one length, shorter than LONGEST, each as many times as the chunk's
#: sentences reach it) are open: the chunk's `unit_keys` callback on arrays
OpenAmong = Callable[[Ints, int], NDArray[np.bool_]]

_MIXER = np.uint64(MIX)
_TOP_BIT = np.uint64(1 << 63)


@dataclass(frozen=True, slots=True, eq=False)
class UnitArrays:
    """Sentences back to back: each one's distinct stems (hashes) in the order, where each
    sentence's stems begin (and, last, where the last one's end), and each one's strong
    threshold (the stems a partner must share)."""

    stems: Ints
    starts: Ints
    needs: Ints

    @property
    def sizes(self) -> Ints:
        return np.diff(self.starts)


@dataclass(frozen=True, slots=True, eq=False)
class FiledKeys:
    """The keys sentences file: for each, which sentence (its place in the UnitArrays), the
    key's hash, its last stem's position in the sentence, and its length in stems."""

    unit: Ints
    key: Ints
    position: Ints
    length: Ints

    def at(self, which: NDArray[np.bool_] | Ints) -> FiledKeys:
        """These keys where `which` (a mask, or places) says."""
        return FiledKeys(
            self.unit[which], self.key[which], self.position[which], self.length[which]
        )


def owners(starts: Ints) -> Ints:
    """For each stem of units back to back (`starts`), which unit it belongs to."""
    return np.repeat(np.arange(len(starts) - 1, dtype=np.int64), np.diff(starts))


def unit_arrays(
    units: UnitStems, order: StemOrder, settings: RewordSettings = DEFAULT_SETTINGS
) -> UnitArrays:
    """`units` (sentences that could hold a strong seed, each one's stems sorted by hash, as
    the units table keeps them) with their stems in `order` (`StemOrder.rank`: fewest
    sentences first, then the hash)."""
    return _in_order(units.stems, units.starts, order, settings)


def _in_order(stems: Ints, starts: Ints, order: StemOrder, settings: RewordSettings) -> UnitArrays:
    """Each unit's stems by the order's rank: by their counts, then their hashes. Units come
    with their stems sorted by hash (packed so), so one stable sort of one number a stem (its
    unit's, then its count) does it; else a sort by all three."""
    counts = order.counts_of(stems)
    owner = owners(starts)
    rising = stems[1:] > stems[:-1]
    begins = starts[1:-1]
    rising[begins[(begins > 0) & (begins < len(stems))] - 1] = True  # (where a unit begins)
    if rising.all():
        in_order = np.argsort((owner << 32) | counts, kind="stable")
    else:
        in_order = np.lexsort((stems, counts, owner))
    return UnitArrays(stems[in_order], starts, thresholds(np.diff(starts), settings))


def thresholds(sizes: Ints, settings: RewordSettings = DEFAULT_SETTINGS) -> Ints:
    """`strong_threshold` of each of `sizes` (sentences' distinct stems)."""
    largest = int(sizes.max()) if len(sizes) else 0
    table = np.array([strong_threshold(s, settings) for s in range(largest + 1)], dtype=np.int64)
    found: Ints = table[sizes]
    return found


def masks_after(units: UnitArrays) -> NDArray[np.uint64]:
    """For each stem of `units` (back to back, in the order), `core.archive.keys.mask_after`
    of its sentence at its place: the bits of the sentence's stems after it. A posting's mask
    is its key's last stem's. One scan over all the sentences at once, each step doubling how
    many of the places after a stem its mask has taken in (a sentence of n stems: log₂ n
    steps)."""
    stems, starts = units.stems, units.starts
    count = len(stems)
    if not count:
        return np.zeros(0, dtype=np.uint64)
    # each place's own bit, then OR-ed with those up to `span` places after it in its sentence
    reached = np.left_shift(np.uint64(1), stems.view(np.uint64) & np.uint64(MASK_BITS - 1))
    place = np.arange(count, dtype=np.int64)
    end = starts[1:][owners(starts)]  # (where each place's sentence ends)
    span, longest = 1, int(np.diff(starts).max())
    while span < longest:
        within = place[: count - span] + span < end[: count - span]
        reached[: count - span] |= np.where(within, reached[span:], np.uint64(0))
        span *= 2
    after = np.zeros(count, dtype=np.uint64)  # (the places after: the next place's, within)
    following = place[:-1] + 1 < end[:-1]
    after[:-1][following] = reached[1:][following]
    return after


def longer(units: UnitArrays, filed: FiledKeys, length: int) -> FiledKeys:
    """The keys one stem longer of `filed` (keys of `length` stems): each with every later stem
    within the first |S| − t + ℓ + 1 of its sentence (`core.archive.keys.longer_keys`)."""
    reach = units.sizes - units.needs
    many = np.maximum(reach[filed.unit] + length - filed.position, 0)
    total = int(many.sum())
    unit = np.repeat(filed.unit, many)
    # each key's later stems: its position + 1, + 2, … (`many` of them)
    step = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(many) - many, many)
    position = np.repeat(filed.position + 1, many) + step
    stem = units.stems[units.starts[unit] + position]
    mixed = (np.repeat(filed.key, many).view(np.uint64) * _MIXER) ^ stem.view(np.uint64)
    key = (mixed ^ _TOP_BIT).view(np.int64)
    return FiledKeys(unit, key, position, np.full(total, length + 1, dtype=np.int64))


def chunk_keys(units: UnitArrays, open_among: OpenAmong) -> FiledKeys:
    """The keys each of `units` files under the open keys, one length at a time, as
    `core.archive.keys.unit_keys` gives them: `open_among(keys, length)` says which of the
    `keys` of `length` stems are open (a key as many times as `units` reach it; an add also
    opens those the units would fill)."""
    owner = owners(units.starts)
    position = np.arange(len(units.stems), dtype=np.int64) - units.starts[owner]
    first = position <= (units.sizes - units.needs)[owner]
    frontier = FiledKeys(
        owner[first], units.stems[first], position[first], np.ones(int(first.sum()), np.int64)
    )
    parts: list[FiledKeys] = []
    length = 1
    while len(frontier.key):
        if length < LONGEST:
            is_open = open_among(frontier.key, length)
        else:
            is_open = np.zeros(len(frontier.key), dtype=np.bool_)
        parts.append(frontier.at(~is_open))
        frontier = longer(units, frontier.at(is_open), length)
        length += 1
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return FiledKeys(empty, empty, empty, empty)
    return FiledKeys(*(np.concatenate([getattr(p, f) for p in parts]) for f in FiledKeys.__slots__))

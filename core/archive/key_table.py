"""Distinct 64-bit keys in a hash table on arrays: where each of many values is among them, in
a few vectorized steps instead of a binary search each.

A filing asks, of every key a chunk's sentences reach (about a million), whether it is open,
and of every stem, its count in the order: `np.searchsorted` into the sorted keys spends about
15 mispredicted branches a value on it (measured: 70 ms for 1.3 million values among 2,200
keys, 98 ms among 12,000; this table: 29 and 42 ms). The table is open addressing with linear
probing, at most half full: a value's first slot is its key's top bits after a multiplication
by an odd constant (keys are hashes already; the multiplication spreads any that are not), and
nearly every value is answered by its first slot, the rest in a few more rounds over those
left."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

Ints = NDArray[np.int64]

_SPREAD = np.uint64(0x9E3779B97F4A7C15)


class KeyTable:
    """`keys` (sorted, distinct) in a hash table: `find` gives each value's place among them."""

    def __init__(self, keys: Ints) -> None:
        self.keys = keys
        self.bits = max(3, len(keys).bit_length() + 1)  # (2^bits ≥ twice the keys)
        size = 1 << self.bits
        self.table = np.zeros(size, dtype=np.int64)
        self.places = np.zeros(size, dtype=np.int64)  # a key's place + 1 (0: the slot is free)
        pending = np.arange(len(keys), dtype=np.int64)
        slots = self._first_slots(keys)
        while len(pending):
            free = self.places[slots] == 0
            # (of the keys pending for one free slot, the first takes it; the rest move on)
            taken, first = np.unique(slots[free], return_index=True)
            winners = pending[free][first]
            self.table[taken] = keys[winners]
            self.places[taken] = winners + 1
            moving = np.ones(len(pending), dtype=np.bool_)
            moving[np.flatnonzero(free)[first]] = False
            pending = pending[moving]
            slots = (slots[moving] + 1) & (size - 1)

    def _first_slots(self, values: Ints) -> Ints:
        spread = values.view(np.uint64) * _SPREAD
        slots: Ints = (spread >> np.uint64(64 - self.bits)).astype(np.int64)
        return slots

    def find(self, values: Ints) -> Ints:
        """Each of `values`' place in `keys` (-1: not there)."""
        found = np.full(len(values), -1, dtype=np.int64)
        if not len(self.keys) or not len(values):
            return found
        mask = (1 << self.bits) - 1
        slots = self._first_slots(values)
        # (the first round asks of every value, in place: no list of those asking to gather)
        places = self.places[slots]
        used = places != 0
        hit = used & (self.table[slots] == values)
        found[hit] = places[hit] - 1
        asking = np.flatnonzero(used & ~hit)
        slots = (slots[asking] + 1) & mask
        while len(asking):
            places = self.places[slots]
            hit = (places != 0) & (self.table[slots] == values[asking])
            found[asking[hit]] = places[hit] - 1
            # (a free slot ends the search: the key is not there; an other key's, goes on)
            going = (places != 0) & ~hit
            asking = asking[going]
            slots = (slots[going] + 1) & mask
        return found

    def holds(self, values: Ints) -> NDArray[np.bool_]:
        """Which of `values` are among the keys."""
        held: NDArray[np.bool_] = self.find(values) >= 0
        return held


def more_than(values: Ints, line: int) -> Ints:
    """The distinct values that occur more than `line` times among `values` (sorted). A filing
    asks it of every key its sentences reach, to open those they fill: sorting them all
    (`np.unique`) took 65 ms for a chunk's 0.9 million pairs, so they are first tallied by
    their first slot's bits, in a table of at least twice as many counters (a value's count is
    at most its counter's), and only those whose counter is over the line are sorted: 18 ms
    for the pairs, nearly all distinct; 30 ms against 34 for the first chunk's half a million
    single stems, where the common ones crowd many counters."""
    if len(values) <= line:
        return np.zeros(0, dtype=np.int64)
    bits = max(3, len(values).bit_length() + 1)
    slots = ((values.view(np.uint64) * _SPREAD) >> np.uint64(64 - bits)).astype(np.intp)
    tally = np.bincount(slots, minlength=1 << bits)
    crowded = values[tally[slots] > line]
    distinct, counts = np.unique(crowded, return_counts=True)
    found: Ints = distinct[counts > line]
    return found

"""A Bloom filter of the keys one segment of postings holds, so a look-up reads only the
buckets of the segments that may hold its keys.

An archive of 100,000 essays keeps its word postings in eight segments, and one new essay's
keys are each in one or two of them (a small segment held 33 of an essay's 442 keys, the
largest 317): without a filter a look-up read one bucket per key in every segment. Filters are
small because keys are few: a key holds at most its line of postings in a segment, so the
eight segments hold 8.7 million distinct keys, about 10 MB of filters at `BITS_PER_KEY`.

The filter is *blocked*: all `_PROBES` bits of a key are in one 64-bit word (Putze, Sanders
and Singler, "Cache-, hash- and space-efficient Bloom filters", 2007), so testing a key reads
one word. It never says a key held is not held (the look-up stays exact); about 2% of the keys
it is asked about, not held, are said to be (a bucket read for nothing)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

#: filter bits per distinct key
BITS_PER_KEY = 10
_PROBES = 5  # bits set per key, in one word: 6 bits of the mixed key choose each
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)


def _mixed(keys: NDArray[np.int64]) -> NDArray[np.uint64]:
    """The keys through SplitMix64's finaliser: every bit of a key moves every bit (keys are
    hashes already, but a filter should not rest on how they were made)."""
    z = keys.astype(np.int64, copy=False).view(np.uint64)
    z = (z ^ (z >> np.uint64(30))) * _MIX_1
    z = (z ^ (z >> np.uint64(27))) * _MIX_2
    mixed: NDArray[np.uint64] = z ^ (z >> np.uint64(31))
    return mixed


@dataclass(frozen=True, slots=True, eq=False)
class Probe:
    """Keys made ready to test against any filter: each key's top 32 mixed bits (which choose
    its word) and the bits it sets in that word."""

    high: NDArray[np.uint64]
    bits: NDArray[np.uint64]

    @classmethod
    def of(cls, keys: NDArray[np.int64]) -> Probe:
        mixed = _mixed(keys)
        bits = np.zeros(len(keys), dtype=np.uint64)
        one = np.uint64(1)
        for probe in range(_PROBES):
            bits |= one << ((mixed >> np.uint64(6 * probe)) & np.uint64(63))
        return cls(mixed >> np.uint64(32), bits)

    def words_in(self, words: int) -> NDArray[np.intp]:
        """Each key's word in a filter of `words`."""
        return ((self.high * np.uint64(words)) >> np.uint64(32)).astype(np.intp)


@dataclass(frozen=True, slots=True, eq=False)
class KeyFilter:
    """The filter's words (64 bits each)."""

    words: NDArray[np.uint64]

    @classmethod
    def of(cls, keys: NDArray[np.int64]) -> KeyFilter:
        """The filter of `keys` (repeats count once)."""
        words = np.zeros(max(1, -(-len(keys) * BITS_PER_KEY // 64)), dtype=np.uint64)
        probe = Probe.of(keys)
        np.bitwise_or.at(words, probe.words_in(len(words)), probe.bits)
        return cls(words)

    def may_hold(self, probe: Probe) -> NDArray[np.bool_]:
        """False for each of the probe's keys the segment surely does not hold."""
        held: NDArray[np.bool_] = (self.words[probe.words_in(len(self.words))] & probe.bits) == (
            probe.bits
        )
        return held

    def to_bytes(self) -> bytes:
        return self.words.astype("<u8", copy=False).tobytes()

    @classmethod
    def from_bytes(cls, data: bytes | memoryview) -> KeyFilter:
        """The filter written as `data` (a whole number of words, at least one)."""
        if not len(data) or len(data) % 8:
            raise ValueError(f"a key filter of {len(data)} bytes")
        return cls(np.frombuffer(data, dtype="<u8").astype(np.uint64, copy=False))

"""Stems' hashes, worked out on arrays for many stems at once: what the word keys and the
units table are made of (`core.archive.keys`, `core.archive.unit_stems`).

A stem's hash is a polynomial over its UTF-8 bytes, each plus one (so no byte is worth
nothing), modulo 2^64, then put through MurmurHash3's 64-bit finaliser (every bit of the
result depends on every bit of the polynomial) and read as a signed 64-bit integer (SQLite's
INTEGER). Stable across processes, machines and Python versions, like the sentence keys'
CRC-32 and Adler-32 (`core.archive.keys.key_hash`), but unlike them worked out for many
documents' stems in a few steps on arrays: an add's readers hand on each document's stems as
text (`joined`, 0.02 ms an essay), and the add hashes a few hundred documents' at once
(0.05 ms an essay, against 0.1–0.17 for CRC-32 and Adler-32 one document at a time) and
makes their units rows (`core.archive.unit_stems.units_rows`; docs/benchmarks.md, "The
thirteenth session"). A check hashes its new documents' stems the same way.

Two different stems with the same hash only add a candidate that the exact comparison drops
(the units table and the word keys hold hashes, never text)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import numpy as np
from numpy.typing import NDArray

from core.detection.reworded import WordProfile

Ints = NDArray[np.int64]

#: what stands between two stems of a document's text (`joined`): no stem holds it (stems are
#: made of words: letters, digits, marks and joiners; `core.documents.sentences`)
SEPARATOR = "\x1f"
_SEPARATOR_BYTE = ord(SEPARATOR)
#: the polynomial's base (odd: invertible modulo 2^64)
PRIME = 0xC2B2AE3D27D4EB4F
#: MurmurHash3's fmix64 constants
_FMIX = (0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53)
_SIZES = np.dtype("<i4")


def joined(profile: WordProfile | None) -> tuple[str, bytes]:
    """A document's stems as `hash_stems` reads them: every stem of every sentence, in order,
    `SEPARATOR` between two; and how many stems each sentence has (int32, little-endian)."""
    stems = profile.stems if profile is not None else ()
    sizes = np.fromiter(map(len, stems), dtype=_SIZES, count=len(stems))
    return SEPARATOR.join(chain.from_iterable(stems)), sizes.tobytes()


def sentence_sizes(sizes: bytes) -> Ints:
    """The sizes `joined` packed."""
    return np.frombuffer(sizes, dtype=_SIZES).astype(np.int64)


def hash_stems(texts: Sequence[str]) -> Ints:
    """The hash of every stem of `texts` (each `SEPARATOR`-joined stems, at least one, as
    `joined` makes them: "" is one empty stem), in order."""
    if not texts:
        return np.zeros(0, dtype=np.int64)
    # (a lone surrogate, which no word holds, is hashed too rather than stop a whole batch)
    data = np.frombuffer(SEPARATOR.join(texts).encode("utf-8", "surrogatepass"), dtype=np.uint8)
    ends = np.flatnonzero(data == _SEPARATOR_BYTE)
    starts = np.concatenate(([0], ends + 1))
    lengths = np.append(ends, len(data)) - starts
    # Horner's rule a byte place at a time, over the stems at least that long: longest first,
    # so they are always the first `many` (an essay's stems are short: a few dozen steps)
    by_length = np.argsort(-lengths, kind="stable")
    starts, lengths = starts[by_length], lengths[by_length]
    longer = -lengths
    value = np.zeros(len(starts), dtype=np.uint64)
    prime = np.uint64(PRIME)
    one = np.uint64(1)
    for place in range(int(lengths[0]) if len(lengths) else 0):
        many = int(np.searchsorted(longer, -place, side="left"))  # stems longer than `place`
        part = value[:many]
        part *= prime
        part += data[starts[:many] + place]
        part += one
    value = _fmix(value)
    hashes = np.empty(len(value), dtype=np.uint64)
    hashes[by_length] = value
    return hashes.view(np.int64)


def _fmix(value: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """MurmurHash3's 64-bit finaliser, in place."""
    shift = np.uint64(33)
    value ^= value >> shift
    value *= np.uint64(_FMIX[0])
    value ^= value >> shift
    value *= np.uint64(_FMIX[1])
    value ^= value >> shift
    return value


def stem_sets(profile: WordProfile) -> list[frozenset[int]]:
    """Each sentence of `profile` as the set of its stems' hashes."""
    text, packed = joined(profile)
    sizes = sentence_sizes(packed)
    hashes = hash_stems([text]).tolist() if sizes.sum() else []
    ends = np.cumsum(sizes).tolist()
    return [frozenset(hashes[a:b]) for a, b in zip([0, *ends], ends, strict=False)]

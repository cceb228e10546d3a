"""The keys an archive index files each document under, so a check reads only the postings of
the new documents' keys (docs/scale.md, "The index").

Two kinds, one for each detector, each a *superset* rule: a pair the check would find always
shares a key, so looking up the keys loses nothing, and every pair the keys suggest is then
compared exactly as `doppel batch` compares it.

- **Sentence keys (SL+ST).** A verified piece is a run of aligned sentences whose lengths and
  key terms agree (spec §3), so two documents with a piece share a *composite sentence* (the
  length and key of one sentence) and, with pieces of two sentences or more, a *composite
  bigram* (two consecutive ones): the candidate rule of `core.batch.ranking.candidate_pairs`.
  Both are filed. Bigrams are the fast path (far fewer documents share one); single sentences
  serve checks that drop sentences from archived documents (the common-text exclusion: a
  dropped sentence makes neighbours of two that were not, a bigram no index holds, while each
  kept sentence is still there) and `--min-block 1`. Under the default short-sentence rule
  only keys holding a sentence with a full key are looked up: a kept piece holds one.
- **Word keys (reworded passages).** Every reworded passage holds a strong seed: two sentences
  sharing at least `strong_threshold` of the larger one's distinct stems. With the stems in a
  fixed total order, two sentences sharing t stems share their first i shared stems within the
  first |S| − t + i stems of each, whatever the order (prefix filtering: Bayardo, Ma and
  Srikant, WWW 2007; Xiao et al., WWW 2008). A key of one stem is enough while few sentences
  hold it; "said" or a character's name is in thousands of an archive's sentences, and a key in
  every sentence makes a check read the whole archive. So keys grow with the archive
  (variable-length prefixes, after Wang, Li and Feng, SIGMOD 2012): a key is a run of stems in
  the order, and it is *open* once more archived sentences are filed under it than its line
  (`OpenLine`: `OPEN_ABOVE` for one stem, doubled for each stem more); a sentence files each of
  its first-prefix stems, and in place of an open key, that key with each later stem the next
  prefix allows (`unit_keys`), up to `LONGEST` stems. Two sentences sharing a strong seed file
  the same key: their first shared stem alone if it is not open, else it with their second
  shared stem if that is not open, and so on (at `LONGEST`, whether open or not). When a key
  opens, the sentences filed under it are filed under its longer keys instead
  (`core.archive.index`), so every archived sentence is always filed under exactly the keys the
  current open keys give it, and no key but the longest holds more than its line in any of the
  index's segments (`core.archive.postings`: a key opens when a filing or a merge fills it; the
  longest keys are a sentence copied into hundreds of documents, where every copy is a pair a
  check must compare anyway). Each key carries its last stem's position, the sentence's size
  and the stem mask of its stems after the key for the length, position and mask filters
  (`could_share`, `mask_after`;
  `core.archive.probes`), and a probe that passes them is verified on the archived sentence's
  stems alone (the index's units table), never on a whole record. The
  order is rarest first by the sentences holding each stem, counted when the archive was started
  (`StemOrder`; made again while the archive is small), then frozen; a stem met later ranks as
  the rarest. The order and the open keys only make postings short; what is found never depends
  on them (a test holds it over arbitrary orders and open keys).

Keys are 64-bit hashes, stable across processes, machines and Python versions: a composite
sentence's, CRC-32 and Adler-32 of its UTF-8 text side by side (`key_hash`, a tenth of a
cryptographic hash's cost, which matters when every archived sentence files several); a
stem's, a polynomial over its bytes worked out on arrays for many documents' stems at once
(`core.archive.stem_hashing`). A key made of two (a composite bigram, a word key of several
stems) mixes their hashes in 64-bit arithmetic, with no text hashed again. Two different keys
with the same hash only add a candidate that the exact comparison drops."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import NamedTuple
from zlib import adler32, crc32

import numpy as np
from numpy.typing import NDArray

from core.archive.key_table import KeyTable
from core.detection.reworded import DEFAULT_SETTINGS, RewordSettings, strong_threshold
from core.documents.signature import Signature
from core.options import MatchOptions, ShortSentenceRule

#: separates the parts of what is hashed (no term or stem holds it)
_UNIT = "\x1f"
_TERM = "\x1e"


_SIGN = 1 << 63


def key_hash(text: str) -> int:
    """A stable signed 64-bit hash of `text` (SQLite's INTEGER)."""
    return key_hashes((text,))[text]


def key_hashes(texts: Iterable[str]) -> dict[str, int]:
    """Each of `texts` -> its `key_hash`, in one pass (no call a text: a reading process
    hashes every sentence of every document it reads)."""
    return {text: ((crc32(data := text.encode()) << 32) | adler32(data)) - _SIGN for text in texts}


def sentence_hashes(signature: Signature) -> list[int]:
    """Each composite sentence's hash (its length and key), in the signature's order: the
    `key_hash` of its text, worked out in one pass (every archived sentence has one)."""
    texts = [
        f"1{_UNIT}{symbol}{_TERM}{_TERM.join(key)}"
        for symbol, key in zip(signature.symbols, signature.keys, strict=True)
    ]
    return list(map(key_hashes(texts).__getitem__, texts))


def bigram_hashes(hashes: Sequence[int]) -> list[int]:
    """Each composite bigram's hash: two consecutive sentences' `hashes` mixed as a longer
    word key's stems are (no text hashed again; the order matters)."""
    return [(((a * MIX) ^ b) & _MASK) - _SIGN for a, b in pairwise(hashes)]


@dataclass(frozen=True, slots=True)
class SentenceKeys:
    """A document's sentence keys: composite sentences and composite bigrams (hashes), each
    with whether every sentence in it has a short key (fewer terms than the key size)."""

    singles: dict[int, bool]  # hash -> short
    bigrams: dict[int, bool]

    def all(self) -> set[int]:
        return {*self.singles, *self.bigrams}

    def wanted(self, options: MatchOptions, *, drops: bool) -> set[int]:
        """The keys to look up for a check with `options`: bigrams, or single sentences when
        archived documents may lose sentences (`drops`) or a piece may be one sentence; under
        the full-key rule, only keys holding a sentence with a full key."""
        keys = self.singles if drops or options.min_block < 2 else self.bigrams
        full_key_only = options.short_sentences is ShortSentenceRule.FULL_KEY
        return {k for k, short in keys.items() if not (full_key_only and short)}


def sentence_keys(signature: Signature) -> SentenceKeys:
    """Every composite sentence and composite bigram of `signature`."""
    hashes = sentence_hashes(signature)
    size = signature.key_size
    short = [len(key) < size for key in signature.keys]  # (`Signature.is_short`)
    singles = dict(zip(hashes, short, strict=True))
    bigrams = dict(zip(bigram_hashes(hashes), (a and b for a, b in pairwise(short)), strict=True))
    return SentenceKeys(singles, bigrams)


#: a word key of one stem is *open* (its sentences are filed under longer keys) once more than
#: this many archived sentences are filed under it: what a check reads per key it looks up
OPEN_ABOVE = 64
#: each stem more in a key multiplies its line by this: a key of ℓ stems opens past
#: OPEN_ABOVE × OPEN_GROWTH^(ℓ − 1) sentences. Opening a key files each of its sentences under
#: several longer ones, so a pair opened as soon as a single would multiplies the rows; measured
#: on the 30,000-essay benchmark index, doubling the line for pairs files 24 rows a sentence
#: instead of 64 (19,607 open pairs instead of 288,966), while a check still reads at most 64
#: postings per stem and 128 per pair (docs/benchmarks.md). Both numbers are kept in the index
#: (its meta table, "open_above" and "open_growth"): an index goes on with the rule it was made
#: with
OPEN_GROWTH = 2
#: the most stems in a word key (such a key is filed under whether open or not); at most the
#: smallest strong threshold (`RewordSettings.strong_shared`), which prefix filtering needs
LONGEST = 3
#: the order is made again from the whole archive while it was made from fewer sentences
#: than this and the archive has twice as many (a first add of a handful of documents does
#: not fix the order for good)
SAMPLE_UNITS = 50_000


@dataclass(frozen=True, slots=True)
class OpenLine:
    """When a word key opens: past `above` sentences for a key of one stem, `growth` times as
    many for each stem more."""

    above: int
    growth: int

    def at(self, length: int) -> int:
        """The sentences a key of `length` stems holds before it opens."""
        return int(self.above * self.growth ** (length - 1))


class StemOrder:
    """The fixed order of stems (by their hashes): fewest sentences holding it first (as
    counted when the order was made, over `sample` sentences), then the hash; a stem it does
    not know counts 0 (the rarest)."""

    def __init__(self, counts: Mapping[int, int], sample: int) -> None:
        self.counts = counts
        self.sample = sample
        self._arrays: tuple[NDArray[np.int64], NDArray[np.int64]] | None = None
        self._table: KeyTable | None = None

    def arrays(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The stems it counts (sorted) and their counts, as arrays (made once)."""
        if self._arrays is None:
            known = np.fromiter(self.counts.keys(), dtype=np.int64, count=len(self.counts))
            counted = np.fromiter(self.counts.values(), dtype=np.int64, count=len(self.counts))
            arrangement = np.argsort(known)
            self._arrays = known[arrangement], counted[arrangement]
        return self._arrays

    def counts_of(self, stems: NDArray[np.int64]) -> NDArray[np.int64]:
        """Each of `stems`' count (0 for a stem never counted: the rarest), on arrays."""
        known, counted = self.arrays()
        if not len(known):
            return np.zeros(len(stems), dtype=np.int64)
        if self._table is None:
            self._table = KeyTable(known)
        places = self._table.find(stems)
        counts: NDArray[np.int64] = np.where(places >= 0, counted[places], 0)
        return counts

    def rank(self, stem: int) -> tuple[int, int]:
        return self.counts.get(stem, 0), stem

    def numbers(self, stems: Iterable[int]) -> dict[int, int]:
        """`stems` numbered in the order (sorting by these numbers is sorting by `rank`)."""
        return {h: k for k, h in enumerate(sorted(set(stems), key=self.rank))}


@dataclass(frozen=True, slots=True)
class WordUnit:
    """A sentence as the word keys read it: its unit in the profile, its distinct stems (hashes)
    in the order, and how many it must share with a partner for a strong seed (its own
    threshold)."""

    unit: int
    stems: tuple[int, ...]
    need: int

    @property
    def size(self) -> int:
        return len(self.stems)


def word_units(
    units: Iterable[tuple[int, frozenset[int]]],
    order: StemOrder,
    settings: RewordSettings = DEFAULT_SETTINGS,
    *,
    numbers: Mapping[int, int] | None = None,
) -> list[WordUnit]:
    """The sentences (`(unit, stems)`) that could hold a strong seed (at least
    `strong_shared` distinct stems), their stems in `order` (`numbers`: `order.numbers` of
    every stem, when the caller has them for many documents at once)."""
    least = settings.strong_shared
    chosen = [(unit, stems) for unit, stems in units if len(stems) >= least]
    # every stem numbered in the order once, then each sentence sorted by the numbers
    if numbers is None:
        numbers = order.numbers(h for _, stems in chosen for h in stems)
    number = numbers.__getitem__
    return [
        WordUnit(unit, tuple(sorted(stems, key=number)), strong_threshold(len(stems), settings))
        for unit, stems in chosen
    ]


#: what a key is multiplied by before its next stem is mixed in (64-bit, odd)
MIX = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1


class WordKey(NamedTuple):
    """A key a sentence files (or looks up): its hash, its last stem's position in the
    sentence, and how many stems it holds. (A named tuple: a large add makes millions.)"""

    key: int
    position: int
    length: int


_key = tuple.__new__  # (a WordKey without the named tuple's Python-level constructor)


def first_keys(unit: WordUnit) -> list[WordKey]:
    """Each stem among the first |S| − t + 1 as a key alone."""
    return [
        _key(WordKey, (stem, p, 1))
        for p, stem in enumerate(unit.stems[: unit.size - unit.need + 1])
    ]


def longer_keys(unit: WordUnit, key: WordKey) -> list[WordKey]:
    """`key` (an open key of `unit`) with each later stem among the first |S| − t + ℓ + 1,
    ℓ being `key`'s length."""
    start, length = key[1] + 1, key[2] + 1
    stems, mixed = unit.stems, key[0] * MIX
    return [
        _key(WordKey, ((((mixed ^ stems[q]) & _MASK) - _SIGN), q, length))
        for q in range(start, unit.size - unit.need + length)
    ]


def unit_keys(
    units: Sequence[WordUnit], open_among: Callable[[Counter[int], int], Collection[int]]
) -> list[list[WordKey]]:
    """The keys each of `units` files (or looks up) under the open keys, one length at a time:
    `open_among(keys, length)` says which of `keys` (the keys of `length` stems, shorter than
    `LONGEST`, each with how many of `units` reach it) are open — an add also opens those the
    units would fill.

    Two sentences sharing t stems share their first i shared stems within the first
    |S| − t + i of each: if the first shared stem is not open, both file it alone; if it is,
    both file it with each later stem in reach, the second shared stem among them; and so on
    to `LONGEST`. A run of common stems is far more particular than any of them: "said" is in
    every tenth sentence of a novel, "said" with "letter" in few."""
    filed: list[list[WordKey]] = [[] for _ in units]
    frontier = [(k, key) for k, unit in enumerate(units) for key in first_keys(unit)]
    length = 1
    while frontier:
        if length < LONGEST:
            opened = open_among(Counter(key[0] for _, key in frontier), length)
        else:
            opened = ()
        following: list[tuple[int, WordKey]] = []
        for k, key in frontier:
            if key[0] in opened:
                following += [(k, longer) for longer in longer_keys(units[k], key)]
            else:
                filed[k].append(key)
        frontier = following
        length += 1
    return filed


def could_share(unit: WordUnit, key: WordKey, size: int, other: int) -> bool:
    """Whether a sentence of `size` stems whose key was at `other` (`key`, a key of `unit`)
    could still share the stems a strong seed needs: the larger threshold, within reach of the
    stems from the key on (the length and position filters; a key's position is its last
    stem's, with the others shared before it)."""
    both = max(unit.need, needed(size))
    reach = key[2] - 1
    return both <= unit.size - key[1] + reach and both <= size - other + reach


#: bits of a posting's stem mask (at most 64: one unsigned 64-bit number). A mask of only the
#: stems after the key keeps, with 64 bits, as few postings as 128 bits of all the sentence's
#: stems did for one essay at 100,000 archived essays (402 of 1,193, all of them really sharing
#: a strong seed's stems), and a quarter as many for a term of 100 (10,104 against 45,119;
#: docs/benchmarks.md)
MASK_BITS = 64


def mask_after(stems: Sequence[int], position: int) -> int:
    """The stem mask of a sentence's stems (hashes, in the order) after `position`: bit h mod
    MASK_BITS set for each (what a word posting holds, `position` being its key's last stem's).
    Two sentences sharing a strong seed meet under the key made of their first shared stems,
    so every other stem they share comes after that key in both, and has its bit set in both
    masks: a new sentence cannot share more stems with an archived one than its key's length
    and its stems after its probe's position whose bit is set in the posting's mask. A check
    counts those before it reads any archived sentence."""
    mask = 0
    for stem in stems[position + 1 :]:
        mask |= 1 << (stem & (MASK_BITS - 1))
    return mask


#: `strong_threshold` of each sentence size up to 255 stems (a check asks it for every probe)
_NEEDS = tuple(strong_threshold(size, DEFAULT_SETTINGS) for size in range(256))


def needed(size: int) -> int:
    """The stems a sentence of `size` stems must share for a strong seed (`strong_threshold`)."""
    return _NEEDS[size] if size < 256 else strong_threshold(size, DEFAULT_SETTINGS)

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
  fixed total order, two sentences sharing t stems share their first shared stem within the
  first |S| − t + 1 stems of each, and their first two within the first |S| − t + 2 (prefix
  filtering: Bayardo, Ma and Srikant, WWW 2007; Xiao et al., WWW 2008), whatever the order. A
  stem alone is a good key only when it is rare: "said" or a character's name is in thousands
  of an archive's sentences, and a key in every sentence makes a check read the whole archive.
  So a sentence files its *rare* prefix stems alone and its other prefix stems *in pairs*
  (`unit_keys`): the first shared stem is rare (filed alone by both), or it and the second are
  both common (the order puts the rarest first) and filed as a pair by both. Each key carries
  its position and the sentence's size for the length and position filters
  (`could_share`), and a probe that passes them is verified on the archived sentence's stems
  alone (the index's units table), never on a whole record. The order is rarest first by the
  sentences holding each stem, counted when the archive was started (`StemOrder`; made again
  while the archive is small), then frozen: a key filed once stays valid, and a stem met later
  ranks as the rarest. The order and the rare/common line only make postings short; what is
  found never depends on them (a test holds it over arbitrary orders).

Keys are 64-bit hashes (CRC-32 and Adler-32 of the UTF-8 text side by side: stable across
processes, machines and Python versions, and a tenth of a cryptographic hash's cost, which
matters when every archived sentence files several). Two different keys with the same hash only
add a candidate that the exact comparison drops."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from zlib import adler32, crc32

from core.detection.reworded import DEFAULT_SETTINGS, RewordSettings, WordProfile, strong_threshold
from core.documents.signature import Signature
from core.options import MatchOptions, ShortSentenceRule

#: separates the parts of what is hashed (no term or stem holds it)
_UNIT = "\x1f"
_TERM = "\x1e"


_SIGN = 1 << 63


def key_hash(text: str) -> int:
    """A stable signed 64-bit hash of `text` (SQLite's INTEGER)."""
    data = text.encode()
    return ((crc32(data) << 32) | adler32(data)) - _SIGN


def _sentence(signature: Signature, position: int) -> str:
    return f"{signature.symbols[position]}{_TERM}{_TERM.join(signature.keys[position])}"


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
    parts = [_sentence(signature, p) for p in range(len(signature))]
    short = [signature.is_short(p) for p in range(len(signature))]
    singles: dict[int, bool] = {}
    for p, part in enumerate(parts):
        singles[key_hash(f"1{_UNIT}{part}")] = short[p]
    bigrams: dict[int, bool] = {}
    for p in range(len(parts) - 1):
        bigrams[key_hash(f"2{_UNIT}{parts[p]}{_UNIT}{parts[p + 1]}")] = short[p] and short[p + 1]
    return SentenceKeys(singles, bigrams)


#: a stem is *rare* when fewer than this share of the sentences the order was made from hold
#: it: a rare stem is filed alone, the others only in pairs (see `unit_keys`). Kept in the
#: index with the order (`StemOrder.rare_below`): an index is read with the line it was made
#: with, whatever this says later
RARE_SHARE = 1 / 1_000
#: the order is made again from the whole archive while it was made from fewer sentences
#: than this and the archive has twice as many (a first add of a handful of documents does
#: not fix the order for good)
SAMPLE_UNITS = 50_000


class StemOrder:
    """The fixed order of stems (by their hashes): fewest sentences holding it first (as
    counted when the order was made, over `sample` sentences), then the hash; a stem it does
    not know counts 0 (the rarest). `rare_below`: the count under which a stem is rare."""

    def __init__(
        self, counts: Mapping[int, int], sample: int, rare_below: int | None = None
    ) -> None:
        self.counts = counts
        self.sample = sample
        self.rare_below = max(2, int(sample * RARE_SHARE)) if rare_below is None else rare_below

    def rank(self, stem: int) -> tuple[int, int]:
        return self.counts.get(stem, 0), stem

    def numbers(self, stems: Iterable[int]) -> dict[int, int]:
        """`stems` numbered in the order (sorting by these numbers is sorting by `rank`)."""
        return {h: k for k, h in enumerate(sorted(set(stems), key=self.rank))}

    def rare(self, stem: int) -> bool:
        return self.counts.get(stem, 0) < self.rare_below

    @staticmethod
    def counted(units: Iterable[Iterable[int]]) -> Counter[int]:
        """The sentences holding each stem (hash), over `units` (each one sentence's stems)."""
        counts: Counter[int] = Counter()
        for stems in units:
            counts.update(set(stems))
        return counts


class StemHashes(dict[str, int]):
    """Stem -> its hash, worked out once per stem (kept across documents)."""

    def __missing__(self, stem: str) -> int:
        value = self[stem] = key_hash(stem)
        return value


def stem_hashes(profile: WordProfile, cache: StemHashes) -> list[frozenset[int]]:
    """Each sentence of `profile` as the set of its stems' hashes."""
    get = cache.__getitem__
    return [frozenset(map(get, stems)) for stems in profile.stems]


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


def eligible(stems: frozenset[int], settings: RewordSettings = DEFAULT_SETTINGS) -> bool:
    """Whether a sentence of these stems could hold a strong seed."""
    return len(stems) >= settings.strong_shared


_MIX = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1


def pair_key(first: int, second: int) -> int:
    """The key of two stems (hashes) filed together, in their order."""
    return (((first * _MIX) ^ second) & _MASK) - _SIGN


def unit_keys(unit: WordUnit, order: StemOrder) -> list[tuple[int, int, bool]]:
    """What a sentence files, or looks up: `(key, position, pair)`.

    Two sentences sharing t stems share their first shared stem (in the order) within the
    first |S| − t + 1 stems of each, and their first two within the first |S| − t + 2. So: the
    rare stems among the first |S| − t + 1 are keys alone (`position`: the stem's), and every
    two stems that are not rare among the first |S| − t + 2 are a key together (`position`:
    the second one's). If the first shared stem is rare, both sentences file it alone; if it
    is not, neither is the second (the order puts the rarest first), and both file the pair.
    A pair of common stems is far more particular than either: "said" is in every tenth
    sentence of a novel, "said" with "letter" in few."""
    stems, count, line = unit.stems, order.counts.get, order.rare_below
    first = len(stems) - unit.need + 1
    keys = [(stem, p, False) for p, stem in enumerate(stems[:first]) if count(stem, 0) < line]
    common = [(p, stem) for p, stem in enumerate(stems[: first + 1]) if count(stem, 0) >= line]
    for k, (_, a) in enumerate(common):
        mixed = a * _MIX
        keys += [((((mixed ^ b) & _MASK) - _SIGN), q, True) for q, b in common[k + 1 :]]
    return keys


def could_share(unit: WordUnit, position: int, pair: bool, size: int, other: int) -> bool:
    """Whether a sentence of `size` stems whose key was at `other` (a key at `position` of
    `unit`) could still share the stems a strong seed needs: the larger threshold, within
    reach of the stems from the key on (the length and position filters)."""
    both = max(unit.need, _need(size))
    reach = 1 if pair else 0  # (a pair's position is its second stem's: one shared before)
    return both <= unit.size - position + reach and both <= size - other + reach


def _need(size: int) -> int:
    return strong_threshold(size, DEFAULT_SETTINGS)

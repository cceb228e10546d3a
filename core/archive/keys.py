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
  fixed total order, two sentences sharing t stems share one among the first |S| − t + 1 stems
  of each (prefix filtering, as in `core.batch.ranking.reworded_candidates`), whatever the
  order: so each archived sentence files only that prefix, with its position and size for the
  length and position filters. The order is rarest first by the sentences holding each stem
  when the archive was started (`StemOrder`), frozen so that a key filed once stays valid; a
  stem met later ranks as the rarest. The order only makes lookups short; what is found never
  depends on it.

Keys are 64-bit hashes (CRC-32 and Adler-32 of the UTF-8 text side by side: stable across
processes, machines and Python versions, and a tenth of a cryptographic hash's cost, which
matters when every archived sentence files several). Two different keys with the same hash only
add a candidate that the exact comparison drops."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
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


class StemOrder:
    """The fixed order of stems: fewest sentences holding it first (as counted when the order
    was made), then the stem itself; a stem it does not know counts 0 (the rarest)."""

    def __init__(self, counts: Mapping[str, int]) -> None:
        self.counts = counts

    def rank(self, stem: str) -> tuple[int, str]:
        return self.counts.get(stem, 0), stem

    def ranks(self, stems: Iterable[str]) -> dict[str, int]:
        """`stems` numbered in the order (sorting by these numbers is sorting by `rank`)."""
        get = self.counts.get
        count = {s: get(s, 0) for s in set(stems)}
        # (by count, ties by the stem: a stable sort of the stems sorted alone)
        return {s: k for k, s in enumerate(sorted(sorted(count), key=count.__getitem__))}

    @staticmethod
    def counted(profiles: Iterable[WordProfile | None]) -> dict[str, int]:
        """The sentences holding each stem in `profiles` (what a new order is made from)."""
        counts: Counter[str] = Counter()
        for profile in profiles:
            if profile is not None:
                for stems in profile.stems:
                    counts.update(set(stems))
        return dict(counts)


@dataclass(frozen=True, slots=True)
class OrderedUnit:
    """A sentence of a profile as the word keys read it: its distinct stems in the order, and
    how many it must share with a partner for a strong seed (its own threshold)."""

    unit: int
    stems: tuple[str, ...]
    need: int

    @property
    def size(self) -> int:
        return len(self.stems)

    @property
    def prefix(self) -> tuple[str, ...]:
        return self.stems[: len(self.stems) - self.need + 1]


def ordered_units(
    profile: WordProfile,
    order: StemOrder,
    settings: RewordSettings = DEFAULT_SETTINGS,
    ranks: Mapping[str, int] | None = None,
) -> Iterator[OrderedUnit]:
    """The sentences of `profile` that could hold a strong seed (at least `strong_shared`
    distinct stems), their stems in `order` (`ranks`: the order's numbers of every stem of
    the profile, when the caller has them)."""
    if ranks is None:
        ranks = order.ranks(s for stems in profile.stems for s in stems)
    position = ranks.__getitem__
    least = settings.strong_shared
    for unit, stems in enumerate(profile.stems):
        distinct = set(stems)
        if len(distinct) >= least:
            ordered = tuple(sorted(distinct, key=position))
            yield OrderedUnit(unit, ordered, strong_threshold(len(ordered), settings))


#: a filed prefix stem: (its hash, the sentence's unit, its position in the sentence's ordered
#: stems, the sentence's size in distinct stems)
PrefixStem = tuple[int, int, int, int]


def prefix_stems(
    profile: WordProfile,
    order: StemOrder,
    ranks: Mapping[str, int] | None = None,
    hashes: dict[str, int] | None = None,
    settings: RewordSettings = DEFAULT_SETTINGS,
) -> list[PrefixStem]:
    """What an archived document files: each sentence's prefix stems (`ranks` as for
    `ordered_units`; `hashes`: a cache of stem hashes the caller keeps across documents).
    The same stems as `ordered_units`' prefixes, worked out on the ranks' numbers (this runs
    for every sentence an archive holds)."""
    if ranks is None:
        ranks = order.ranks(s for stems in profile.stems for s in stems)
    if hashes is None:
        hashes = {}
    number = ranks.__getitem__
    stem_of = {ranks[s]: s for stems in profile.stems for s in stems}
    least = settings.strong_shared
    out: list[PrefixStem] = []
    for unit, stems in enumerate(profile.stems):
        ordered = sorted(set(map(number, stems)))
        size = len(ordered)
        if size < least:
            continue
        for position, rank in enumerate(ordered[: size - strong_threshold(size, settings) + 1]):
            stem = stem_of[rank]
            h = hashes.get(stem)
            if h is None:
                h = hashes[stem] = key_hash(stem)
            out.append((h, unit, position, size))
    return out

"""Reworded passages: copied text that was edited, beside SL+ST's verified blocks.

SL+ST needs sentences of equal length that open with the same words, so a copy that gains or
loses a word per sentence, or opens its sentences differently, walks past it. This detector
aligns *sentences by the content words they share*, after the seeding / extension / filtering
pipeline of the PAN text-alignment task (Sanchez-Perez, Sidorov and Gelbukh, "A winning approach
to text alignment for text reuse detection at PAN 2014"):

1. **Words.** Each sentence is the list of its terms (the signature's words: stop words out,
   case folded), stemmed (`core.detection.stems`). A stem's weight is its rarity in the pair:
   log((m + n + 1) / (sentences of A holding it + sentences of B holding it)), so names and
   words both documents repeat everywhere count little and a rare shared word counts much.
2. **Seeds.** A sentence of A and a sentence of B are aligned when they share at least
   `min_shared` stems and the weight of what they share is at least `seed_similarity` of the
   lighter sentence's weight (the weighted overlap coefficient: a sentence merged from two keeps
   each of them whole, so a merge or a split gives two seeds on one sentence). Stems in more
   than `common_share` of B's sentences (and at least `min_posting` of them) are not looked up:
   "said" in a novel would pair every sentence with every other.
3. **Extension.** Seeds within `max_gap` sentences of each other in both documents form one
   passage (connected components): sentences reordered within a passage stay in it, an
   unaligned sentence or two between aligned ones is bridged.
4. **Filtering.** A passage is kept when it has at least `min_seeds` seeds, shares at least
   `min_passage_shared` distinct stems, and its two sides are alike as a whole: the weighted
   Dice coefficient of the stems of A's sentences and of B's sentences in the passage is at
   least `passage_similarity`. Chance seeds between unrelated texts are scattered; where they do
   cluster, the text around them differs and this test drops them. A single aligned pair of
   sentences is a passage only when it shares at least `single_shared` stems at a Dice of at
   least `single_similarity` (one long sentence copied and reworded).

Sentences inside SL+ST's verified pieces belong to it: no seed holds one, and a passage is cut
where one of them lies inside it (in A or in B), so a copy whose middle is word for word shows
as a verified block between two reworded passages.

Every threshold, and the measurement that chose it, is in docs/engine.md ("Reworded passages").
Everything here is a function of the two documents alone (the folder check's result for a pair
is exactly the comparison of that pair), and deterministic."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from core.detection.stems import stemmer
from core.documents.document import Document
from core.documents.excluded_spans import SpanSet, sentences_for_scoring
from core.documents.sentences import Sentence


@dataclass(frozen=True, slots=True)
class RewordSettings:
    """The detector's thresholds (docs/engine.md gives the measurement behind each)."""

    min_shared: int = 3
    seed_similarity: float = 0.5
    max_gap: int = 4
    min_seeds: int = 2
    min_passage_shared: int = 8
    passage_similarity: float = 0.45
    # one aligned sentence pair alone is a passage only with this much in common
    single_shared: int = 7
    single_similarity: float = 0.5
    # every passage holds a strong seed: one sharing at least `strong_shared` stems and at
    # least `strong_share` of the larger sentence's (what the folder check's index looks for:
    # core.batch.ranking.reworded_candidates)
    strong_shared: int = 5
    strong_share: float = 0.4
    common_share: float = 0.05
    min_posting: int = 40


DEFAULT_SETTINGS = RewordSettings()


@dataclass(frozen=True, slots=True)
class WordProfile:
    """A document's sentences as the detector reads them: the sentences scored (not excluded),
    each as the stems of its terms, in order."""

    language: str
    sentence_indices: tuple[int, ...]  # unit -> index into Document.sentences
    stems: tuple[tuple[str, ...], ...]  # unit -> stems of its terms, in text order

    def __len__(self) -> int:
        return len(self.stems)


def word_profile(sentences: Sequence[Sentence], language: str) -> WordProfile:
    """The profile of `sentences` (as scored: excluded words already dropped)."""
    stem = stemmer(language)
    return WordProfile(
        language=language,
        sentence_indices=tuple(s.index for s in sentences),
        stems=tuple([tuple(map(stem, s.term_texts)) for s in sentences]),
    )


def without_sentences(profile: WordProfile, dropped: Collection[int]) -> WordProfile:
    """`profile` without the sentences `dropped` (indices), as when they are excluded whole."""
    gone = set(dropped)
    if not gone:
        return profile
    keep = [u for u, s in enumerate(profile.sentence_indices) if s not in gone]
    return WordProfile(
        profile.language,
        tuple(profile.sentence_indices[u] for u in keep),
        tuple(profile.stems[u] for u in keep),
    )


def document_profile(doc: Document) -> WordProfile:
    """The profile of `doc` as it is scored (its exclusions left out, like its signature)."""
    sentences: Sequence[Sentence] = doc.sentences
    if doc.excluded:
        sentences, _ = sentences_for_scoring(doc.text, doc.sentences, SpanSet(doc.excluded))
    return word_profile(sentences, doc.language)


@dataclass(frozen=True, slots=True)
class AlignedSentences:
    """A seed: a sentence of A and one of B that share enough of their content words."""

    a: int  # indices into Document.sentences
    b: int
    shared: int  # distinct stems both hold
    similarity: float  # weighted overlap coefficient, 0..1


@dataclass(frozen=True, slots=True)
class RewordedPassage:
    """Sentences of A and of B that say the same thing in partly different words."""

    a_sentences: tuple[int, int]  # [first, end) indices into Document.sentences
    b_sentences: tuple[int, int]
    pairs: tuple[AlignedSentences, ...]  # the aligned sentences, by A then B
    shared_stems: int  # distinct stems both sides hold
    similarity: float  # weighted Dice of the two sides' stems, 0..1


def find_reworded(
    a: WordProfile,
    b: WordProfile,
    verified: tuple[Collection[int], Collection[int]] = ((), ()),
    settings: RewordSettings = DEFAULT_SETTINGS,
) -> tuple[RewordedPassage, ...]:
    """The reworded passages A and B share, ordered by their place in A. `verified` holds the
    sentences of A and of B (indices) inside SL+ST's verified pieces: they belong to SL+ST, no
    seed holds one, and a passage is cut where one lies inside it. Symmetric: B against A
    finds the same passages, mirrored."""
    sets_a = [frozenset(s) for s in a.stems]
    sets_b = [frozenset(s) for s in b.stems]
    df_a, df_b = _sentence_frequency(sets_a), _sentence_frequency(sets_b)
    weight = _weights(df_a, df_b, len(sets_a) + len(sets_b))
    common = _common(df_a, len(sets_a), settings) | _common(df_b, len(sets_b), settings)
    verified_a, verified_b = (set(v) for v in verified)
    seeds = _seeds(a, b, sets_a, sets_b, weight, common, verified_a, verified_b, settings)
    if not seeds:
        return ()
    cuts_a = _units_of(a, verified_a)
    cuts_b = _units_of(b, verified_b)
    passages = []
    for component in _components(seeds, settings.max_gap):
        for run in _cut_at(component, cuts_a, lambda seed: seed.i):
            for part in _cut_at(run, cuts_b, lambda seed: seed.j):
                passage = _passage(a, b, part, weight, settings)
                if passage is not None:
                    passages.append(passage)
    passages.sort(key=lambda p: (p.a_sentences, p.b_sentences))
    return tuple(passages)


def _units_of(profile: WordProfile, sentences: set[int]) -> set[int]:
    return {u for u, s in enumerate(profile.sentence_indices) if s in sentences}


def stem_weights(a: WordProfile, b: WordProfile) -> dict[str, float]:
    """Each stem's rarity weight in the pair (see the module's docs)."""
    df_a = _sentence_frequency([frozenset(s) for s in a.stems])
    df_b = _sentence_frequency([frozenset(s) for s in b.stems])
    return _weights(df_a, df_b, len(a) + len(b))


def _sentence_frequency(sets: list[frozenset[str]]) -> Counter[str]:
    """Stem -> the sentences holding it."""
    df: Counter[str] = Counter()
    for s in sets:
        df.update(s)
    return df


def _weights(df_a: Counter[str], df_b: Counter[str], sentences: int) -> dict[str, float]:
    """log((m + n + 1) / df), df the sentences of both documents holding the stem."""
    total = sentences + 1
    return {w: math.log(total / n) for w, n in (df_a + df_b).items()}


@dataclass(frozen=True, slots=True)
class _Seed:
    i: int  # units
    j: int
    shared: frozenset[str]
    similarity: float
    strong: bool  # shares enough to anchor a passage (RewordSettings.strong_shared)


def strong_threshold(size: int, settings: RewordSettings = DEFAULT_SETTINGS) -> int:
    """The stems a sentence of `size` distinct stems must share with a partner no larger
    than itself for a strong seed."""
    return max(settings.strong_shared, math.ceil(settings.strong_share * size))


def _seeds(
    a: WordProfile,
    b: WordProfile,
    sets_a: list[frozenset[str]],
    sets_b: list[frozenset[str]],
    weight: dict[str, float],
    common: set[str],
    verified_a: set[int],
    verified_b: set[int],
    settings: RewordSettings,
) -> list[_Seed]:
    postings: dict[str, list[int]] = defaultdict(list)
    for j, stems in enumerate(sets_b):
        for w in stems:
            postings[w].append(j)
    # (math.fsum: a sum over a set, whose order follows the process's string hashing, rounded
    # exactly: the same scores in every process, so a check is the same wherever it runs)
    mass_b = [math.fsum(weight[w] for w in s) for s in sets_b]
    seeds: list[_Seed] = []
    for i, stems in enumerate(sets_a):
        if len(stems) < settings.min_shared or a.sentence_indices[i] in verified_a:
            continue
        counts: Counter[int] = Counter()
        for w in stems:
            units = postings.get(w)
            if units is not None and w not in common:
                counts.update(units)
        if not counts:
            continue
        mass_a = math.fsum(weight[w] for w in stems)
        for j, n in counts.items():
            if n < settings.min_shared:
                continue
            if b.sentence_indices[j] in verified_b:
                continue
            shared = stems & sets_b[j]
            similarity = math.fsum(weight[w] for w in shared) / min(mass_a, mass_b[j])
            if similarity >= settings.seed_similarity:
                larger = max(len(stems), len(sets_b[j]))
                strong = len(shared) >= strong_threshold(larger, settings)
                seeds.append(_Seed(i, j, shared, similarity, strong))
    return seeds


def _common(df: Counter[str], sentences: int, settings: RewordSettings) -> set[str]:
    """The stems of a document too common to look up: in more than `common_share` of its
    `sentences` and in more than `min_posting` of them."""
    cap = max(settings.min_posting, int(settings.common_share * sentences))
    return {w for w, n in df.items() if n > cap}


def _components(seeds: list[_Seed], gap: int) -> list[list[_Seed]]:
    """Seeds linked when within `gap` units of each other in A and in B, as connected
    components (union-find over a window sorted by A)."""
    order = sorted(range(len(seeds)), key=lambda k: (seeds[k].i, seeds[k].j))
    parent = list(range(len(seeds)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    window: list[int] = []
    for k in order:
        seed = seeds[k]
        window = [t for t in window if seed.i - seeds[t].i <= gap]
        for t in window:
            if abs(seeds[t].j - seed.j) <= gap:
                parent[root(k)] = root(t)
        window.append(k)
    groups: dict[int, list[_Seed]] = defaultdict(list)
    for k in order:
        groups[root(k)].append(seeds[k])
    return list(groups.values())


def _cut_at(seeds: list[_Seed], cuts: set[int], unit: Callable[[_Seed], int]) -> list[list[_Seed]]:
    """`seeds` in runs, in the order of `unit` (their A or their B sentence), cut wherever a
    unit of `cuts` (a verified sentence) lies between two of them."""
    runs: list[list[_Seed]] = [[]]
    for seed in sorted(seeds, key=lambda s: (unit(s), s.i, s.j)):
        run = runs[-1]
        if run and any(u in cuts for u in range(unit(run[-1]) + 1, unit(seed))):
            runs.append([])
        runs[-1].append(seed)
    return [sorted(r, key=lambda s: (s.i, s.j)) for r in runs if r]


def _passage(
    a: WordProfile,
    b: WordProfile,
    seeds: list[_Seed],
    weight: dict[str, float],
    settings: RewordSettings,
) -> RewordedPassage | None:
    single = len(seeds) < settings.min_seeds
    if not any(s.strong for s in seeds):
        return None
    shared = frozenset().union(*(s.shared for s in seeds))
    if len(shared) < (settings.single_shared if single else settings.min_passage_shared):
        return None
    first_i, last_i = min(s.i for s in seeds), max(s.i for s in seeds)
    first_j, last_j = min(s.j for s in seeds), max(s.j for s in seeds)
    similarity = weighted_dice(
        Counter(w for stems in a.stems[first_i : last_i + 1] for w in stems),
        Counter(w for stems in b.stems[first_j : last_j + 1] for w in stems),
        weight,
    )
    if similarity < (settings.single_similarity if single else settings.passage_similarity):
        return None
    return RewordedPassage(
        a_sentences=(a.sentence_indices[first_i], a.sentence_indices[last_i] + 1),
        b_sentences=(b.sentence_indices[first_j], b.sentence_indices[last_j] + 1),
        pairs=tuple(
            AlignedSentences(
                a.sentence_indices[s.i], b.sentence_indices[s.j], len(s.shared), s.similarity
            )
            for s in seeds
        ),
        shared_stems=len(shared),
        similarity=similarity,
    )


def weighted_dice(a: Counter[str], b: Counter[str], weight: dict[str, float]) -> float:
    """2·Σ min(a_w, b_w)·weight_w / (Σ a_w·weight_w + Σ b_w·weight_w); 0 for two empty sides."""
    common = sum(min(n, b[w]) * weight.get(w, 0.0) for w, n in a.items() if w in b)
    total = sum(n * weight.get(w, 0.0) for w, n in a.items()) + sum(
        n * weight.get(w, 0.0) for w, n in b.items()
    )
    return 2 * common / total if total > 0 else 0.0


@dataclass(frozen=True, slots=True)
class WordChanges:
    """How the content words of A's side of a passage differ from B's side."""

    total: int  # content words on A's side
    same: int  # in both, whatever the order
    replaced: int
    added: int  # on A's side only
    left_out: int  # on B's side only


def word_changes(a_words: Sequence[str], b_words: Sequence[str]) -> WordChanges:
    """The changes between two sides' stems, whatever their order (a reworded passage moves
    words and sentences): the same are the stems both hold (counted as often as both hold
    them); of the rest, as many as both sides have are replaced, A's others added and B's
    others left out."""
    a, b = Counter(a_words), Counter(b_words)
    same = sum((a & b).values())
    extra_a, extra_b = len(a_words) - same, len(b_words) - same
    replaced = min(extra_a, extra_b)
    return WordChanges(len(a_words), same, replaced, extra_a - replaced, extra_b - replaced)

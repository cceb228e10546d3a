"""The methods compared in the evaluation (issues 7 and 12): Doppel's default (SL+ST and
reworded passages), SL+ST alone, the reworded-passage detector alone, and the baselines the
SL+ST paper names.

Not shipped in the app: the runner (bench/evaluate.py) imports `all_methods()` and calls, for
every method, `prepare(doc)` once per document, then `score(suspicious, source)` per pair, for
the methods that localise `passages(suspicious, source)`, and `verdict(suspicious, source)`,
which is None for a method without a verdict of its own (the baselines have a score only).
Scores are in [0, 1], higher is more similar; "containment" variants measure how much of the
suspicious document is found in the source, the others are symmetric resemblances.

Same input for every method
---------------------------
Every method reads the same `core.documents.document.Document` (the runner analyses each
text once, with `SignatureOptions(language="en")`), so differences come from the method, not
from preprocessing:

- word tokens: `core.documents.sentences.word_spans` over each of the document's own sentences, in
  order, case-folded (`str.casefold`) — the tokens the engine takes its terms from. Text
  outside every sentence (a "* * *" separator) has no word tokens anyway.
- stop words: the document language's list (`core.documents.language.get_language(doc.language)`),
  the list the engine removes before counting sentence lengths.
- sentence lengths: `doc.signature.symbols`, literally the engine's ℓ (terms left after stop
  words; sentences with ℓ > 35 are left out, as in the engine).

The methods and their parameters
--------------------------------
Doppel's default ("Doppel (SL+ST + reworded)") and the reworded-passage detector alone
("Reworded"): `core.comparison.compare_documents(suspicious, source)` with Doppel's default
options (`MatchOptions()`: SL+ST's verified blocks and, beside them, reworded passages,
`core.detection.reworded`), compared once per pair for both. Doppel's score is
`Comparison.copied_a`, the share of the suspicious document's sentences inside a copied
passage of either kind ("x% of A is found in B"); its verdict is `Comparison.flagged`, "copied
text found" (a verified block or a reworded passage) — Doppel's own decision, with no
threshold to tune. Its passages are `Comparison.passages` (both kinds) as character spans.
"Reworded" counts only the reworded passages (`PassageKind.REWORDED`): its score is the share
of the suspicious document's sentences inside one, its verdict "a reworded passage found", its
passages those passages. For both, passages that overlap or touch (only whitespace between
them) in both documents are merged into one detection, so a copy whose middle is word for word
(a reworded passage, a verified block, a reworded passage, side by side) is one passage, as
it is one copy.

SL+ST ("SL+ST", "SL+ST containment"): the paper's method alone:
`core.comparison.compare_documents(suspicious, source, MatchOptions(reworded=False))` (what
`doppel compare --strict` runs); the score is `Comparison.jaccard`, the containment variant
`Comparison.coverage_a` (the suspicious document is A), and its verdict is a verified block
found (`Comparison.result.pieces`: what the folder check listed by default before the
reworded passages). Passages are the verified pieces as character spans
(`Comparison.piece_chars`); pieces on the same diagonal that overlap or are adjacent (no
sentence between them) are merged into one passage, so a copied passage the engine finds as
two touching pieces is one detection. Pieces separated by a sentence whose key differs stay
separate: that is what the engine reports.

Shingling ("Shingling w=4", "Shingling w=10", each with a containment variant): Broder's
word w-shingles — contiguous windows of w word tokens over the document's whole token stream
(crossing sentence boundaries, as Broder's shingles run over the token sequence), stop words
kept, case folded. A document is its *set* of distinct shingles. Resemblance
r(A, B) = |S(A) ∩ S(B)| / |S(A) ∪ S(B)|; containment of the suspicious document A in the
source B: c(A, B) = |S(A) ∩ S(B)| / |S(A)| (Broder, "On the resemblance and containment of
documents", 1997). w = 4 is the shingle size of Broder's worked example there; w = 10 is the
size Broder, Glassman, Manasse and Zweig used to cluster the web ("Syntactic clustering of the
Web", 1997) — both from memory of the papers, not checked offline. No min-hash sketching:
the sets are compared exactly (sketches only approximate these values). A document with fewer
than w words has no shingle.

SpotSigs ("SpotSigs"): Theobald, Siddharth, Paepcke, "SpotSigs: robust and efficient near
duplicate detection in large web collections", SIGIR 2008. Antecedents: the articles and the
forms of be, can, will, have, do — a, an, the, is, are, was, were, be, been, being, am, can,
could, will, would, has, have, had, do, does, did. A spot signature is an antecedent followed
by a chain of the next c content words at spot distance d: the chain's m-th word (m = 1..c)
is the (m·d)-th word after the antecedent that is not a stop word (stop words — the
language's list plus the antecedents, since "could" and "would" are not on NLTK's English
list — are skipped, never chained). The token stream is the whole document (chains cross
sentence boundaries, as in the authors' code, which tokenises the whole page); a chain cut
short by the end of the document is dropped. Parameters: d = 1, c = 2 — the setting of the
paper's worked example ("at a rally to kick off a weeklong campaign" gives a:rally:kick and
a:weeklong:campaign: d = 1, c = 2, the stop word "to" skipped), which is the one setting of
the paper that could be checked offline (the example is quoted in public write-ups of the
paper). The tuned settings of the paper's experiments could not be verified offline; the
public Java code derived from the authors' release (github.com/luismmontielg/spotsigs,
spotsigs.config) uses spot distance 1 for every antecedent, a chain length of 1 and a similar
antecedent list (it adds shall, should, done and a few French and Spanish articles, and leaves
out a, an, were, been, being, am). c = 1 makes a feature of an antecedent and a single word,
far too common to tell copying from chance in essays on one topic, so c = 2 is used. A document
is the *multiset* of its spot signatures; similarity is the multiset Jaccard
Σ_f min(a_f, b_f) / Σ_f max(a_f, b_f) over the counts a_f, b_f (the paper's measure; no
partitioning or index pruning, which only speed up finding pairs above a threshold).

Wang's method ("Wang k=3"): features are the runs of k consecutive sentence lengths
(ℓ_i, …, ℓ_{i+k-1}) of `doc.signature.symbols` (the SL+ST paper describes Wang et al.'s
method as taking runs of consecutive sentence lengths as features); a document is the set of
its runs, compared with the Jaccard coefficient. The seed text of the SL+ST paper does not
give Wang's k; k = 3 is chosen here: one length is shared by nearly every pair of documents,
and lengths concentrate on a few values, so pairs of lengths still match by chance between
unrelated texts; with three the chance matches become rare, while a copied passage of m
sentences still gives m − 2 shared features. Measured on 18 unrelated 2,000-word excerpts of
the nine Gutenberg novels (153 pairs), the mean Jaccard of unrelated pairs is 0.70 for k = 1,
0.13 for k = 2, 0.015 for k = 3 and 0.001 for k = 4 (max 0.85, 0.39, 0.09, 0.01); k = 4 would
need four copied sentences for one shared feature. SL+ST itself needs only two sentences
because it verifies them by their first words; Wang's method has no verification. A document
with fewer than k sentences has no feature.

WCopyfind-style phrase matcher ("WCopyfind n=6", "WCopyfind n=6 resemblance"): the tool
teachers use today (Bloomfield's WCopyfind) reports the runs of at least n words two documents
share. As WCopyfind's defaults (from memory of its manual, not checked offline): shortest
phrase to match n = 6, letter case and punctuation ignored (the word tokens above, case
folded), stop words kept, and "most imperfections to allow" = 0: runs are exact, no mismatched
word is bridged. Runs cross sentence boundaries. A run is maximal (it cannot be extended
either way); every maximal run of ≥ n words is found, whatever the diagonal (a source phrase
occurring twice gives two runs). The score is the share of the suspicious document's words
inside some run; the resemblance variant is (matched words of A + matched words of B) /
(words of A + words of B). WCopyfind's "fewest matches to report" (a pair-level cut-off) is
not applied: the evaluation tunes each method's threshold. Passages are the runs as character
spans, from the first word's start to the last word's end in each document; runs that overlap
or touch in both documents are merged into one passage.

Screening
---------
`screen(prepared)` states what a pair must share for a score above 0 (bench/eval_p4p.py skips
the pairs that do not, and scores them 0): shingling, SpotSigs, Wang and the phrase matcher a
feature (a score is 0 when the two feature sets are disjoint; the phrase matcher's runs start
from a shared n-word window); SL+ST a signature entry (ℓ, key), since a verified block needs a
sentence whose length and key (first two terms) both agree; the reworded detector at least
`RewordSettings.min_shared` distinct stems of the two documents' terms (stop words out,
stemmed: its profile, `document_profile`), since each of its seeds is a sentence pair sharing
that many; Doppel's default either of the two.

Costs and caches
----------------
`Prepared.feature_count` is what the method keeps per document: SL+ST one (ℓ, key) entry per
signature position; Doppel's default that and the stems of every sentence's terms (the
reworded detector's profile, `core.detection.reworded.document_profile`, built inside
`compare_documents`); shingling the distinct shingles; SpotSigs the distinct spot signatures (a
count each); Wang the distinct runs; the phrase matcher one n-word window per position (its
index). Methods of one `family` (a score and its containment or resemblance variant) prepare
the same features, so a `Prepared` of one can be passed to the other, and they share a pair
cache: SL+ST compares a pair once for both scores and the passages, Doppel's default once
for itself and "Reworded", the phrase matcher finds the runs once. The caches hold small
summaries (scores, spans), keyed by the identity of the two documents; `clear_caches(methods)`
empties them (do it before timing a family, or time only the first method of each family, or
the second one will look free).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from core.comparison import compare_documents
from core.detection.passages import copied_share, verified_sentences
from core.detection.reworded import DEFAULT_SETTINGS, document_profile
from core.detection.verification import VerifiedBlock
from core.documents.document import Document
from core.documents.language import get_language
from core.documents.sentences import word_spans
from core.options import MatchOptions

Span = tuple[int, int]  # [start, end) characters of Document.text
F = TypeVar("F")  # a feature
# what a pair must share for a non-zero score: (features, how many of them) alternatives; a
# pair sharing fewer than n of the features of every alternative scores 0 (and is not flagged)
Screen = tuple[tuple[frozenset[object], int], ...]


@dataclass(frozen=True)
class Prepared:
    doc: Document
    features: object  # whatever the method keeps per document
    feature_count: int  # features stored for this document (for the cost table)


class Method(Protocol):
    name: str  # short, for tables
    family: str  # the method without its score variant (cost is per family)
    localises: bool  # True when passages() reports where the copying is

    def prepare(self, doc: Document) -> Prepared: ...

    def score(self, suspicious: Prepared, source: Prepared) -> float: ...

    def passages(self, suspicious: Prepared, source: Prepared) -> list[tuple[Span, Span]]: ...

    def verdict(self, suspicious: Prepared, source: Prepared) -> bool | None: ...

    def screen(self, prepared: Prepared) -> Screen: ...

    def clear_cache(self) -> None: ...


# ---------------------------------------------------------------------------- shared input


@dataclass(frozen=True, slots=True)
class Words:
    """A document's word tokens, case-folded, in order, with their character spans."""

    words: tuple[str, ...]
    spans: tuple[Span, ...]

    def __len__(self) -> int:
        return len(self.words)


def document_words(doc: Document) -> Words:
    """The word tokens of the document's sentences (the engine's tokens), case-folded."""
    text = doc.text
    words: list[str] = []
    spans: list[Span] = []
    intern = sys.intern
    for sentence in doc.sentences:
        for start, end in word_spans(text, sentence.start, sentence.end):
            words.append(intern(text[start:end].casefold()))
            spans.append((start, end))
    return Words(tuple(words), tuple(spans))


def stopword_test(doc: Document) -> Callable[[str], bool]:
    """Whether a case-folded word is a stop word of the document's language."""
    language = get_language(doc.language)
    if language.accent_insensitive:
        return language.is_stopword
    return language.stopwords.__contains__


def resemblance(a: frozenset[object], b: frozenset[object]) -> float:
    """|A ∩ B| / |A ∪ B|; 0 when both are empty."""
    if not a and not b:
        return 0.0
    common = len(a & b)
    return common / (len(a) + len(b) - common)


def containment(a: frozenset[object], b: frozenset[object]) -> float:
    """|A ∩ B| / |A|: the share of A found in B; 0 when A is empty."""
    return len(a & b) / len(a) if a else 0.0


def multiset_jaccard(a: Counter[F], b: Counter[F]) -> float:
    """Σ min(a_f, b_f) / Σ max(a_f, b_f); 0 when both are empty."""
    if len(a) > len(b):
        a, b = b, a
    common = sum(min(count, b[f]) for f, count in a.items() if f in b)
    union = a.total() + b.total() - common  # Σ max = Σ a + Σ b − Σ min
    return common / union if union else 0.0


# ---------------------------------------------------------------------------------- SL+ST


def signature_entries(doc: Document) -> frozenset[object]:
    """The document's distinct (ℓ, key) signature entries: a verified block needs at least one
    sentence whose length and key both agree."""
    return frozenset(zip(doc.signature.symbols, doc.signature.keys, strict=True))


@dataclass(frozen=True, slots=True)
class _SlstOutcome:
    jaccard: float
    coverage: float
    passages: tuple[tuple[Span, Span], ...]
    found: bool  # a verified block


class _PairCache:
    """Per-pair results of one family, keyed by the identity of the two documents (which are
    kept with the result, so an id() reused by a later object is never mistaken for them)."""

    def __init__(self) -> None:
        self._entries: dict[tuple[int, int], tuple[Document, Document, object]] = {}

    def get(self, suspicious: Document, source: Document) -> object | None:
        entry = self._entries.get((id(suspicious), id(source)))
        if entry is None or entry[0] is not suspicious or entry[1] is not source:
            return None
        return entry[2]

    def put(self, suspicious: Document, source: Document, value: object) -> None:
        self._entries[(id(suspicious), id(source))] = (suspicious, source, value)

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


def merge_diagonal_pieces(pieces: Iterable[VerifiedBlock], gap: int = 0) -> list[VerifiedBlock]:
    """Pieces on one diagonal (same b_start − a_start) that overlap, or leave at most `gap`
    signature positions between them, merged into one; sorted by (a_start, b_start)."""
    by_diagonal: dict[int, list[VerifiedBlock]] = {}
    for piece in pieces:
        by_diagonal.setdefault(piece.b_start - piece.a_start, []).append(piece)
    merged: list[VerifiedBlock] = []
    for diagonal, group in by_diagonal.items():
        group.sort()
        start, end = group[0].a_start, group[0].a_start + group[0].length
        for piece in group[1:]:
            if piece.a_start <= end + gap:
                end = max(end, piece.a_start + piece.length)
            else:
                merged.append(VerifiedBlock(start, start + diagonal, end - start))
                start, end = piece.a_start, piece.a_start + piece.length
        merged.append(VerifiedBlock(start, start + diagonal, end - start))
    return sorted(merged)


#: the paper's method alone: no reworded passages (`doppel compare --strict`)
STRICT = MatchOptions(reworded=False)


class SLST:
    """The paper's method in Doppel's engine: `compare_documents` with the reworded passages
    off, scored by Jaccard or by the suspicious document's coverage; passages from the verified
    pieces."""

    localises = True

    def __init__(
        self,
        *,
        containment: bool = False,
        options: MatchOptions | None = None,
        cache: _PairCache | None = None,
    ) -> None:
        self.containment = containment
        self.options = options or STRICT
        self.family = "SL+ST"
        self.name = "SL+ST containment" if containment else "SL+ST"
        self.cache = cache if cache is not None else _PairCache()

    def prepare(self, doc: Document) -> Prepared:
        return Prepared(doc, doc.signature, len(doc.signature))

    def outcome(self, suspicious: Prepared, source: Prepared) -> _SlstOutcome:
        cached = self.cache.get(suspicious.doc, source.doc)
        if isinstance(cached, _SlstOutcome):
            return cached
        comparison = compare_documents(suspicious.doc, source.doc, self.options)
        merged = merge_diagonal_pieces(comparison.result.pieces)
        outcome = _SlstOutcome(
            comparison.jaccard,
            comparison.coverage_a,
            tuple(comparison.piece_chars(piece) for piece in merged),
            bool(comparison.result.pieces),
        )
        self.cache.put(suspicious.doc, source.doc, outcome)
        return outcome

    def score(self, suspicious: Prepared, source: Prepared) -> float:
        outcome = self.outcome(suspicious, source)
        return outcome.coverage if self.containment else outcome.jaccard

    def passages(self, suspicious: Prepared, source: Prepared) -> list[tuple[Span, Span]]:
        return list(self.outcome(suspicious, source).passages)

    def verdict(self, suspicious: Prepared, source: Prepared) -> bool:
        return self.outcome(suspicious, source).found

    def screen(self, prepared: Prepared) -> Screen:
        return ((signature_entries(prepared.doc), 1),)

    def clear_cache(self) -> None:
        self.cache.clear()


# ------------------------------------------------------------------------ Doppel's default


def merge_touching(
    passages: Iterable[tuple[Span, Span]], text_a: str, text_b: str
) -> list[tuple[Span, Span]]:
    """Passages that overlap or touch (only whitespace between them) in both documents merged
    into one, repeatedly until none does; sorted."""

    def near(x: Span, y: Span, text: str) -> bool:
        if x[0] > y[0]:
            x, y = y, x
        return y[0] <= x[1] or not text[x[1] : y[0]].strip()

    merged = sorted(passages)
    changed = True
    while changed:
        changed = False
        out: list[tuple[Span, Span]] = []
        for a, b in merged:
            for k, (oa, ob) in enumerate(out):
                if near(a, oa, text_a) and near(b, ob, text_b):
                    out[k] = (
                        (min(a[0], oa[0]), max(a[1], oa[1])),
                        (min(b[0], ob[0]), max(b[1], ob[1])),
                    )
                    changed = True
                    break
            else:
                out.append((a, b))
        merged = sorted(out)
    return merged


@dataclass(frozen=True, slots=True)
class _DoppelOutcome:
    copied: float  # Comparison.copied_a
    reworded_share: float  # the same, reworded passages only
    flagged: bool  # Comparison.flagged
    reworded_found: bool
    passages: tuple[tuple[Span, Span], ...]  # both kinds, touching ones merged
    reworded_passages: tuple[tuple[Span, Span], ...]
    verified: tuple[frozenset[int], ...]  # A's and B's sentences inside verified pieces


class Doppel:
    """Doppel's default comparison (SL+ST and reworded passages): scored by the suspicious
    document's copied share, judged by its verdict; or ("Reworded") the reworded passages
    alone."""

    localises = True

    def __init__(self, *, reworded_only: bool = False, cache: _PairCache | None = None) -> None:
        self.reworded_only = reworded_only
        self.options = MatchOptions()
        self.family = "Doppel"
        self.name = "Reworded" if reworded_only else "Doppel (SL+ST + reworded)"
        self.cache = cache if cache is not None else _PairCache()

    def prepare(self, doc: Document) -> Prepared:
        count = len(doc.signature) + sum(len(s.terms) for s in doc.sentences)
        return Prepared(doc, doc.signature, count)

    def outcome(self, suspicious: Prepared, source: Prepared) -> _DoppelOutcome:
        cached = self.cache.get(suspicious.doc, source.doc)
        if isinstance(cached, _DoppelOutcome):
            return cached
        a, b = suspicious.doc, source.doc
        comparison = compare_documents(a, b, self.options)
        reworded = comparison.reworded_passages
        outcome = _DoppelOutcome(
            comparison.copied_a,
            copied_share(comparison.a, (p.a_sentences for p in reworded)),
            comparison.flagged,
            bool(reworded),
            tuple(
                merge_touching(
                    ((p.a_chars, p.b_chars) for p in comparison.passages), a.text, b.text
                )
            ),
            tuple(merge_touching(((p.a_chars, p.b_chars) for p in reworded), a.text, b.text)),
            tuple(
                frozenset(side)
                for side in verified_sentences(
                    comparison.a.signature, comparison.b.signature, comparison.result.pieces
                )
            ),
        )
        self.cache.put(a, b, outcome)
        return outcome

    def score(self, suspicious: Prepared, source: Prepared) -> float:
        outcome = self.outcome(suspicious, source)
        return outcome.reworded_share if self.reworded_only else outcome.copied

    def passages(self, suspicious: Prepared, source: Prepared) -> list[tuple[Span, Span]]:
        outcome = self.outcome(suspicious, source)
        return list(outcome.reworded_passages if self.reworded_only else outcome.passages)

    def verdict(self, suspicious: Prepared, source: Prepared) -> bool:
        outcome = self.outcome(suspicious, source)
        return outcome.reworded_found if self.reworded_only else outcome.flagged

    def screen(self, prepared: Prepared) -> Screen:
        profile = document_profile(prepared.doc)
        stems = frozenset(w for sentence in profile.stems for w in sentence)
        need = DEFAULT_SETTINGS.min_shared
        if self.reworded_only:
            return ((stems, need),)
        return ((stems, need), (signature_entries(prepared.doc), 1))

    def clear_cache(self) -> None:
        self.cache.clear()


# ------------------------------------------------------------------------------ shingling


class Shingling:
    """Broder's word w-shingles, compared as sets: resemblance, or containment of the
    suspicious document in the source."""

    localises = False

    def __init__(self, w: int = 4, *, containment: bool = False) -> None:
        if w < 1:
            raise ValueError("the shingle size must be at least 1")
        self.w = w
        self.containment = containment
        self.family = f"Shingling w={w}"
        self.name = f"{self.family} containment" if containment else self.family

    def prepare(self, doc: Document) -> Prepared:
        words = document_words(doc).words
        w = self.w
        shingles = frozenset(words[i : i + w] for i in range(len(words) - w + 1))
        return Prepared(doc, shingles, len(shingles))

    def score(self, suspicious: Prepared, source: Prepared) -> float:
        a, b = suspicious.features, source.features
        assert isinstance(a, frozenset) and isinstance(b, frozenset)
        return containment(a, b) if self.containment else resemblance(a, b)

    def passages(self, suspicious: Prepared, source: Prepared) -> list[tuple[Span, Span]]:
        return []

    def screen(self, prepared: Prepared) -> Screen:
        assert isinstance(prepared.features, frozenset)
        return ((prepared.features, 1),)

    def verdict(self, suspicious: Prepared, source: Prepared) -> None:
        return None

    def clear_cache(self) -> None:
        pass


# ------------------------------------------------------------------------------- SpotSigs

#: articles and the forms of be, can, will, have, do (Theobald et al. 2008)
ARTICLES = ("a", "an", "the")
AUXILIARIES = (
    *("is", "are", "was", "were", "be", "been", "being", "am"),
    *("can", "could", "will", "would"),
    *("has", "have", "had", "do", "does", "did"),
)
ANTECEDENTS = frozenset(ARTICLES + AUXILIARIES)


def spot_signatures(
    words: Sequence[str],
    is_stopword: Callable[[str], bool],
    *,
    distance: int = 1,
    chain: int = 2,
    antecedents: frozenset[str] = ANTECEDENTS,
) -> Counter[tuple[str, ...]]:
    """The multiset of spot signatures (antecedent, w_1, …, w_c): w_m is the (m·distance)-th
    non-stop word after the antecedent; antecedents count as stop words. Chains cut short by
    the end of the text are dropped."""
    content: list[str] = []  # the non-stop words, in order
    # for each token: the content words before it, i.e. the index in `content` of the first
    # content word at or after it
    next_content: list[int] = []
    for word in words:
        next_content.append(len(content))
        if word not in antecedents and not is_stopword(word):
            content.append(word)
    signatures: Counter[tuple[str, ...]] = Counter()
    reach = distance * chain
    for i, word in enumerate(words):
        if word not in antecedents:
            continue
        first = next_content[i]  # the antecedent is a stop word: first content word after it
        if first + reach - 1 >= len(content):
            continue
        signatures[(word, *content[first + distance - 1 : first + reach : distance])] += 1
    return signatures


class SpotSigs:
    """Spot signatures (Theobald, Siddharth, Paepcke 2008), multiset Jaccard."""

    localises = False

    def __init__(self, *, distance: int = 1, chain: int = 2) -> None:
        if distance < 1 or chain < 1:
            raise ValueError("spot distance and chain length must be at least 1")
        self.distance = distance
        self.chain = chain
        self.family = (
            "SpotSigs" if (distance, chain) == (1, 2) else f"SpotSigs d={distance} c={chain}"
        )
        self.name = self.family

    def prepare(self, doc: Document) -> Prepared:
        signatures = spot_signatures(
            document_words(doc).words,
            stopword_test(doc),
            distance=self.distance,
            chain=self.chain,
        )
        return Prepared(doc, signatures, len(signatures))

    def score(self, suspicious: Prepared, source: Prepared) -> float:
        a, b = suspicious.features, source.features
        assert isinstance(a, Counter) and isinstance(b, Counter)
        return multiset_jaccard(a, b)

    def passages(self, suspicious: Prepared, source: Prepared) -> list[tuple[Span, Span]]:
        return []

    def screen(self, prepared: Prepared) -> Screen:
        assert isinstance(prepared.features, Counter)
        return ((frozenset(prepared.features), 1),)

    def verdict(self, suspicious: Prepared, source: Prepared) -> None:
        return None

    def clear_cache(self) -> None:
        pass


# ----------------------------------------------------------------------------------- Wang


class WangSentenceLengths:
    """Runs of k consecutive sentence lengths (the engine's ℓ), Jaccard over the sets."""

    localises = False

    def __init__(self, k: int = 3) -> None:
        if k < 1:
            raise ValueError("k must be at least 1")
        self.k = k
        self.family = f"Wang k={k}"
        self.name = self.family

    def prepare(self, doc: Document) -> Prepared:
        symbols, k = doc.signature.symbols, self.k
        runs = frozenset(symbols[i : i + k] for i in range(len(symbols) - k + 1))
        return Prepared(doc, runs, len(runs))

    def score(self, suspicious: Prepared, source: Prepared) -> float:
        a, b = suspicious.features, source.features
        assert isinstance(a, frozenset) and isinstance(b, frozenset)
        return resemblance(a, b)

    def passages(self, suspicious: Prepared, source: Prepared) -> list[tuple[Span, Span]]:
        return []

    def screen(self, prepared: Prepared) -> Screen:
        assert isinstance(prepared.features, frozenset)
        return ((prepared.features, 1),)

    def verdict(self, suspicious: Prepared, source: Prepared) -> None:
        return None

    def clear_cache(self) -> None:
        pass


# ------------------------------------------------------------------- WCopyfind-style runs


@dataclass(frozen=True, slots=True)
class PhraseIndex:
    """A document's words and, for every n-word window, the positions where it starts."""

    words: Words
    windows: dict[tuple[str, ...], list[int]]


@dataclass(frozen=True, slots=True)
class Run:
    """A maximal run of equal words: A positions [a_start, a_start + length), B likewise."""

    a_start: int
    b_start: int
    length: int


def maximal_runs(a: PhraseIndex, b: PhraseIndex, n: int) -> list[Run]:
    """Every maximal run of at least n equal words between A and B, sorted."""
    a_words, b_words = a.words.words, b.words.words
    len_a, len_b = len(a_words), len(b_words)
    windows = b.windows
    runs: list[Run] = []
    for i in range(len_a - n + 1):
        positions = windows.get(a_words[i : i + n])
        if not positions:
            continue
        for j in positions:
            if i and j and a_words[i - 1] == b_words[j - 1]:
                continue  # not left-maximal: the run was found from an earlier i
            length = n
            while i + length < len_a and j + length < len_b:
                if a_words[i + length] != b_words[j + length]:
                    break
                length += 1
            runs.append(Run(i, j, length))
    return runs


def covered(runs: Iterable[tuple[int, int]]) -> int:
    """How many positions the [start, end) intervals cover together."""
    total = 0
    reach = 0
    for start, end in sorted(runs):
        if end <= reach:
            continue
        total += end - max(start, reach)
        reach = end
    return total


def merge_runs(runs: Iterable[Run]) -> list[tuple[Span, Span]]:
    """Runs that overlap or touch in both documents merged: word-position spans [start, end)
    in A and in B, sorted."""
    groups: list[list[int]] = []  # [a_start, a_end, b_start, b_end]
    open_groups: list[list[int]] = []
    for run in sorted(runs, key=lambda r: (r.a_start, r.b_start)):
        a0, a1 = run.a_start, run.a_start + run.length
        b0, b1 = run.b_start, run.b_start + run.length
        open_groups = [g for g in open_groups if g[1] >= a0]  # runs arrive by a_start
        for group in open_groups:
            if b0 <= group[3] and group[2] <= b1:
                group[1] = max(group[1], a1)
                group[2] = min(group[2], b0)
                group[3] = max(group[3], b1)
                break
        else:
            group = [a0, a1, b0, b1]
            groups.append(group)
            open_groups.append(group)
    return sorted(((g[0], g[1]), (g[2], g[3])) for g in groups)


@dataclass(frozen=True, slots=True)
class _RunsOutcome:
    matched_a: int  # words of A inside some run
    matched_b: int
    passages: tuple[tuple[Span, Span], ...]


class PhraseMatcher:
    """Shared runs of at least n words, in the style of WCopyfind (no imperfections)."""

    localises = True

    def __init__(
        self, n: int = 6, *, containment: bool = True, cache: _PairCache | None = None
    ) -> None:
        if n < 1:
            raise ValueError("the shortest phrase must have at least 1 word")
        self.n = n
        self.containment = containment
        self.family = f"WCopyfind n={n}"
        self.name = self.family if containment else f"{self.family} resemblance"
        self.cache = cache if cache is not None else _PairCache()

    def prepare(self, doc: Document) -> Prepared:
        words = document_words(doc)
        tokens, n = words.words, self.n
        windows: dict[tuple[str, ...], list[int]] = {}
        for i in range(len(tokens) - n + 1):
            windows.setdefault(tokens[i : i + n], []).append(i)
        return Prepared(doc, PhraseIndex(words, windows), max(len(tokens) - n + 1, 0))

    def outcome(self, suspicious: Prepared, source: Prepared) -> _RunsOutcome:
        cached = self.cache.get(suspicious.doc, source.doc)
        if isinstance(cached, _RunsOutcome):
            return cached
        a, b = suspicious.features, source.features
        assert isinstance(a, PhraseIndex) and isinstance(b, PhraseIndex)
        runs = maximal_runs(a, b, self.n)
        a_spans, b_spans = a.words.spans, b.words.spans
        passages = tuple(
            ((a_spans[a0][0], a_spans[a1 - 1][1]), (b_spans[b0][0], b_spans[b1 - 1][1]))
            for (a0, a1), (b0, b1) in merge_runs(runs)
        )
        outcome = _RunsOutcome(
            covered((r.a_start, r.a_start + r.length) for r in runs),
            covered((r.b_start, r.b_start + r.length) for r in runs),
            passages,
        )
        self.cache.put(suspicious.doc, source.doc, outcome)
        return outcome

    def score(self, suspicious: Prepared, source: Prepared) -> float:
        outcome = self.outcome(suspicious, source)
        a, b = suspicious.features, source.features
        assert isinstance(a, PhraseIndex) and isinstance(b, PhraseIndex)
        if self.containment:
            return outcome.matched_a / len(a.words) if len(a.words) else 0.0
        total = len(a.words) + len(b.words)
        return (outcome.matched_a + outcome.matched_b) / total if total else 0.0

    def passages(self, suspicious: Prepared, source: Prepared) -> list[tuple[Span, Span]]:
        return list(self.outcome(suspicious, source).passages)

    def verdict(self, suspicious: Prepared, source: Prepared) -> None:
        return None

    def screen(self, prepared: Prepared) -> Screen:
        assert isinstance(prepared.features, PhraseIndex)
        return ((frozenset(prepared.features.windows), 1),)

    def clear_cache(self) -> None:
        self.cache.clear()


# -------------------------------------------------------------------------------- the set


def all_methods() -> list[Method]:
    """The methods of the evaluation, Doppel's default first, then SL+ST alone; variants of a
    family share its cache."""
    doppel_cache = _PairCache()
    slst_cache = _PairCache()
    runs_cache = _PairCache()
    return [
        Doppel(cache=doppel_cache),
        Doppel(reworded_only=True, cache=doppel_cache),
        SLST(cache=slst_cache),
        SLST(containment=True, cache=slst_cache),
        Shingling(4),
        Shingling(4, containment=True),
        Shingling(10),
        Shingling(10, containment=True),
        SpotSigs(distance=1, chain=2),
        WangSentenceLengths(3),
        PhraseMatcher(6, containment=True, cache=runs_cache),
        PhraseMatcher(6, containment=False, cache=runs_cache),
    ]


def clear_caches(methods: Iterable[Method]) -> None:
    """Forget every cached pair (SL+ST comparisons, phrase runs)."""
    for method in methods:
        method.clear_cache()

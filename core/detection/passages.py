"""Copied passages of both kinds, as a teacher reads them: SL+ST's verified pieces (word for
word) and the reworded passages beside them, each with its sentences, its characters, how many
of its words are the same and what changed; the verdict and each document's copied share.

The verdict (`flagged`) is "copied text found": the pair shares a verified piece or a reworded
passage. A document's copied share is the share of its scored sentences (those not excluded)
inside a passage of either kind. docs/engine.md, "Verdict and shares"."""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from core.detection.long_sentences import LongPair, identical_long_sentences
from core.detection.reworded import (
    RewordedPassage,
    WordChanges,
    WordProfile,
    stem_weights,
    weighted_dice,
    word_changes,
)
from core.detection.stems import stemmer
from core.detection.verification import VerifiedBlock
from core.documents.document import Document
from core.documents.excluded_spans import SpanSet, sentences_for_scoring
from core.documents.sentences import Sentence
from core.documents.signature import Signature


class PassageKind(StrEnum):
    VERIFIED = "verified"  # SL+ST: lengths and first words agree, word for word or nearly
    REWORDED = "reworded"  # the same content words, edited


@dataclass(frozen=True, slots=True)
class Passage:
    kind: PassageKind
    a_sentences: tuple[int, int]  # [first, end) indices into Document.sentences
    b_sentences: tuple[int, int]
    a_chars: tuple[int, int]  # [start, end) in Document.text
    b_chars: tuple[int, int]
    changes: WordChanges  # A's content words against B's
    similarity: float  # weighted Dice of the two sides' stems, 0..1

    @property
    def shared_words(self) -> int:
        """Content words both sides hold, whatever their order."""
        return self.changes.same


def build_passages(
    a: Document,
    b: Document,
    profile_a: WordProfile,
    profile_b: WordProfile,
    pieces: Iterable[VerifiedBlock],
    reworded: Iterable[RewordedPassage],
) -> tuple[Passage, ...]:
    """Every passage of both kinds, ordered by its place in A (then in B).

    A verified passage takes in the too-long sentences identical in both documents right
    beside its piece (`long_sentences`); a reworded passage made only of such sentences is that
    verified passage's, not an edited one of its own."""
    weight = stem_weights(profile_a, profile_b)
    side_a, side_b = _Side(a, profile_a), _Side(b, profile_b)
    pieces = list(pieces)
    beside: dict[int, list[LongPair]] = {}
    for pair in identical_long_sentences(a, b, pieces):
        if not pair.inside:
            beside.setdefault(pair.piece, []).append(pair)
    taken_a: set[int] = set()
    taken_b: set[int] = set()
    passages = []
    for number, piece in enumerate(pieces):
        (a0, a1), (b0, b1) = piece_sentences(a.signature, b.signature, piece)
        for pair in beside.get(number, ()):
            a0, a1 = min(a0, pair.a_sentence), max(a1, pair.a_sentence + 1)
            b0, b1 = min(b0, pair.b_sentence), max(b1, pair.b_sentence + 1)
            taken_a.add(pair.a_sentence)
            taken_b.add(pair.b_sentence)
        passages.append(
            _passage(PassageKind.VERIFIED, side_a, side_b, (a0, a1), (b0, b1), None, weight)
        )
    for found in reworded:
        if taken_a.issuperset(range(*found.a_sentences)) and taken_b.issuperset(
            range(*found.b_sentences)
        ):
            continue  # identical too-long sentences beside a piece: the piece's passage
        partner = {p.b: p.a for p in found.pairs}
        passages.append(
            _passage(
                PassageKind.REWORDED,
                side_a,
                side_b,
                found.a_sentences,
                found.b_sentences,
                partner,
                weight,
            )
        )
    passages.sort(key=lambda p: (p.a_sentences, p.b_sentences, p.kind))
    return tuple(passages)


class _Side:
    """A document with its profile indexed by sentence."""

    def __init__(self, doc: Document, profile: WordProfile) -> None:
        self.doc = doc
        self.stems = dict(zip(profile.sentence_indices, profile.stems, strict=True))

    def words(self, sentences: Iterable[int]) -> list[str]:
        return [w for s in sentences for w in self.stems.get(s, ())]

    def chars(self, first: int, end: int) -> tuple[int, int]:
        return self.doc.sentences[first].start, self.doc.sentences[end - 1].end


def _passage(
    kind: PassageKind,
    a: _Side,
    b: _Side,
    a_range: tuple[int, int],
    b_range: tuple[int, int],
    partner: dict[int, int] | None,
    weight: dict[str, float],
) -> Passage:
    a_sentences = range(*a_range)
    b_sentences: Sequence[int] = range(*b_range)
    if partner is not None:  # B's sentences in the order of their A partners (reordering)
        b_sentences = sorted(b_sentences, key=lambda s: (partner.get(s, a_range[1]), s))
    a_words, b_words = a.words(a_sentences), b.words(b_sentences)
    return Passage(
        kind=kind,
        a_sentences=a_range,
        b_sentences=b_range,
        a_chars=a.chars(*a_range),
        b_chars=b.chars(*b_range),
        changes=word_changes(a_words, b_words),
        similarity=weighted_dice(Counter(a_words), Counter(b_words), weight),
    )


def scored_sentence_count(doc: Document) -> int:
    """The sentences a share is of: all but those left out entirely by exclusions."""
    return doc.sentence_count - len(doc.signature.excluded)


def copied_share(doc: Document, ranges: Iterable[tuple[int, int]]) -> float:
    """The share of `doc`'s scored sentences inside any of `ranges` ([first, end) sentence
    indices), 0..1."""
    return share_inside(doc.sentence_count, doc.signature.excluded, ranges)


def share_inside(
    sentence_count: int, excluded: Collection[int], ranges: Iterable[tuple[int, int]]
) -> float:
    """The share of a document's `sentence_count` sentences, less those `excluded` entirely,
    inside any of `ranges` ([first, end) sentence indices), 0..1."""
    counted = sentence_count - len(excluded)
    if counted <= 0:
        return 0.0
    return sentences_inside(excluded, ranges) / counted


def sentences_inside(excluded: Collection[int], ranges: Iterable[tuple[int, int]]) -> int:
    """How many sentences, not `excluded`, lie inside any of `ranges` ([first, end))."""
    return len({s for first, end in ranges for s in range(first, end)}.difference(excluded))


def copied_sentences(doc: Document, ranges: Iterable[tuple[int, int]]) -> int:
    """How many of `doc`'s scored sentences lie inside any of `ranges`: the count behind
    `copied_share` ("17 of the 27 sentences")."""
    return sentences_inside(doc.signature.excluded, ranges)


def verified_sentences(
    a: Signature, b: Signature, pieces: Iterable[VerifiedBlock]
) -> tuple[set[int], set[int]]:
    """The sentences of A and of B inside verified pieces (a sentence too long for the
    signature between two of a piece's sentences included): what the reworded detector leaves
    to SL+ST."""
    inside_a: set[int] = set()
    inside_b: set[int] = set()
    for piece in pieces:
        (a0, a1), (b0, b1) = piece_sentences(a, b, piece)
        inside_a.update(range(a0, a1))
        inside_b.update(range(b0, b1))
    return inside_a, inside_b


def piece_sentences(
    a: Signature, b: Signature, piece: VerifiedBlock
) -> tuple[tuple[int, int], tuple[int, int]]:
    """The sentences [first, end) a verified piece covers in A and in B (a sentence left out
    of the signature between two of its sentences is inside the range)."""
    last = piece.length - 1
    return (
        (a.sentence_indices[piece.a_start], a.sentence_indices[piece.a_start + last] + 1),
        (b.sentence_indices[piece.b_start], b.sentence_indices[piece.b_start + last] + 1),
    )


def verified_by_first_sentence(a: Signature, passages: Iterable[Passage]) -> dict[int, Passage]:
    """The verified passages, each by its piece's first aligned sentence in A: its first
    sentence that is in A's signature (a passage may open with identical too-long sentences
    beside its piece, which the signature lacks: `long_sentences`). How a piece finds its
    passage: `verified_by_first_sentence(...)[a.sentence_indices[piece.a_start]]`."""
    indices = a.sentence_indices
    found: dict[int, Passage] = {}
    for passage in passages:
        if passage.kind is not PassageKind.VERIFIED:
            continue
        at = bisect_left(indices, passage.a_sentences[0])
        if at < len(indices) and indices[at] < passage.a_sentences[1]:
            found[indices[at]] = passage
    return found


def shared_word_spans(
    doc: Document, sentences: tuple[int, int], partner_stems: Iterable[str]
) -> list[tuple[int, int]]:
    """The character spans of the content words of `doc`'s sentences [first, end) whose stem
    the partner side holds too: the words to emphasise."""
    wanted = set(partner_stems)
    stem = stemmer(doc.language)
    chosen: Sequence[Sentence] = doc.sentences[sentences[0] : sentences[1]]
    if doc.excluded:
        chosen, _ = sentences_for_scoring(doc.text, chosen, SpanSet(doc.excluded))
    return [(t.start, t.end) for s in chosen for t in s.terms if stem(t.text) in wanted]


def passage_shared_words(
    a: Document, b: Document, passage: Passage
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The words to emphasise on each side of `passage`: in A, the content words whose stem
    B's side holds, and the other way round (character spans, in order)."""
    a_range, b_range = passage.a_sentences, passage.b_sentences
    return (
        shared_word_spans(a, a_range, side_stems(b, b_range)),
        shared_word_spans(b, b_range, side_stems(a, a_range)),
    )


def side_stems(doc: Document, sentences: tuple[int, int]) -> set[str]:
    """The stems of the content words of `doc`'s sentences [first, end)."""
    stem = stemmer(doc.language)
    chosen: Sequence[Sentence] = doc.sentences[sentences[0] : sentences[1]]
    if doc.excluded:
        chosen, _ = sentences_for_scoring(doc.text, chosen, SpanSet(doc.excluded))
    return {stem(t.text) for s in chosen for t in s.terms}

"""Sentences too long for the signature that are identical in both documents, inside or beside a
verified piece: part of the copied passage, though SL+ST cannot count them.

The paper's alphabet has 36 letters, so a sentence of more than 35 terms is left out of the
signature (`core.documents.signature`): SL+ST never compares it. Where such a sentence sits in a
copied passage, two cases arise:

- *inside* a piece, between two of its aligned sentences: the piece's sentence range already
  runs over it (`passages.piece_sentences`), so the copied share counts it, but nothing compared
  its words;
- *beside* a piece, right before its first or right after its last sentence, in both documents
  at once (a block cannot run over a sentence the signature lacks on one side only, and where
  it lacks it on both, the block stops at the piece's edge when the next signature sentence
  differs). Without this rule such a sentence is left out of the verified passage, and the
  reworded-passage detector, which compares words, reports it as an *edited* passage of one
  sentence although not a word differs.

The rule (`identical_long_sentences`): a too-long sentence of A and one of B are part of the
piece when they are the same text (whitespace aside) and sit at aligned places: inside, in the
same gap between two aligned sentences, paired in order when both gaps hold the same number of
too-long sentences; beside, walking outward from the piece's first (last) sentence in both
documents at once, for as long as both neighbours are too long and identical. The verified
passages take them in (`passages.build_passages`), their words are shared words
(`core.shared_words`), and the window draws them as part of their block."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from core.detection.verification import VerifiedBlock
from core.documents.document import Document


@dataclass(frozen=True, slots=True)
class LongPair:
    """A too-long sentence identical in A and B, inside or beside a piece."""

    piece: int  # index into the pieces given to `identical_long_sentences`
    a_sentence: int  # index into a.sentences
    b_sentence: int
    inside: bool  # between two of the piece's sentences, or beside it


def identical_long_sentences(
    a: Document, b: Document, pieces: Sequence[VerifiedBlock]
) -> list[LongPair]:
    """Every too-long sentence pair that belongs to one of `pieces` (the module's docstring),
    in A order; a sentence belongs to the first piece that claims it."""
    long_a, long_b = set(a.signature.too_long), set(b.signature.too_long)
    if not long_a or not long_b:
        return []
    index_a, index_b = a.signature.sentence_indices, b.signature.sentence_indices
    found: dict[int, LongPair] = {}
    for number, piece in enumerate(pieces):
        last = piece.length - 1
        pairs: list[tuple[int, int, bool]] = []
        for k in range(last):  # the gaps between aligned sentences of the piece
            gap_a = _long_between(long_a, index_a, piece.a_start + k)
            gap_b = _long_between(long_b, index_b, piece.b_start + k)
            if len(gap_a) == len(gap_b):
                pairs += [(sa, sb, True) for sa, sb in zip(gap_a, gap_b, strict=True)]
        first_a, first_b = index_a[piece.a_start], index_b[piece.b_start]
        last_a, last_b = index_a[piece.a_start + last], index_b[piece.b_start + last]
        for start_a, start_b, step in ((first_a - 1, first_b - 1, -1), (last_a + 1, last_b + 1, 1)):
            pairs += [
                (sa, sb, False) for sa, sb in _outward(a, b, long_a, long_b, start_a, start_b, step)
            ]
        for sa, sb, inside in pairs:
            if sa not in found and same_text(a, sa, b, sb):
                found[sa] = LongPair(number, sa, sb, inside)
    return [found[s] for s in sorted(found)]


def same_text(a: Document, sa: int, b: Document, sb: int) -> bool:
    """Whether sentence `sa` of A and `sb` of B read the same, whitespace aside."""
    one, two = a.sentences[sa], b.sentences[sb]
    return a.text[one.start : one.end].split() == b.text[two.start : two.end].split()


def _long_between(long: set[int], indices: tuple[int, ...], position: int) -> list[int]:
    """The too-long sentences between signature positions `position` and `position + 1`."""
    return [s for s in range(indices[position] + 1, indices[position + 1]) if s in long]


def _outward(
    a: Document,
    b: Document,
    long_a: set[int],
    long_b: set[int],
    sa: int,
    sb: int,
    step: int,
) -> Iterator[tuple[int, int]]:
    """From sentences `sa` and `sb` outward (`step` -1: back, +1: on), the pairs of too-long
    sentences in a row that read the same."""
    while (
        0 <= sa < len(a.sentences)
        and 0 <= sb < len(b.sentences)
        and sa in long_a
        and sb in long_b
        and same_text(a, sa, b, sb)
    ):
        yield sa, sb
        sa += step
        sb += step

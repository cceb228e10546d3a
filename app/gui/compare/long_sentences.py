"""The window's view of `core.detection.long_sentences`: each too-long sentence identical in
both documents inside or beside a kept piece, with its block, piece and characters, so it is
drawn, numbered and explained as part of that block. No Qt."""

from __future__ import annotations

from dataclasses import dataclass

from core.comparison import Comparison
from core.detection import long_sentences

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class LongSentence:
    """A sentence too long for the signature, identical in A and B, inside or beside a piece."""

    block: int  # the block (its index in comparison.blocks) whose piece it belongs to
    piece: int  # which of the block's pieces
    a_sentence: int  # index into comparison.a.sentences
    b_sentence: int
    a_chars: Span  # [start, end) in each document's text
    b_chars: Span
    inside: bool  # between two of the piece's sentences (the copied share counts it) or beside
    terms: int  # its length in terms (over the signature's limit)


def identical_long_sentences(comparison: Comparison) -> list[LongSentence]:
    """Every too-long sentence that is part of a kept piece, in A order
    (`core.detection.long_sentences.identical_long_sentences`)."""
    a, b = comparison.a, comparison.b
    owners = [(n, k) for n, block in enumerate(comparison.blocks) for k in range(len(block.pieces))]
    pieces = [piece for block in comparison.blocks for piece in block.pieces]
    found = []
    for pair in long_sentences.identical_long_sentences(a, b, pieces):
        one, two = a.sentences[pair.a_sentence], b.sentences[pair.b_sentence]
        block, part = owners[pair.piece]
        found.append(
            LongSentence(
                block,
                part,
                pair.a_sentence,
                pair.b_sentence,
                (one.start, one.end),
                (two.start, two.end),
                pair.inside,
                len(one.terms),
            )
        )
    return found

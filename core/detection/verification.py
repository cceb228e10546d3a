"""Verification of raw blocks by the sentences' keys (spec §3): verified, split or discarded.

Equal lengths do not make equal sentences, so the keys (first terms) of every aligned sentence
pair are compared. Positions whose keys differ cut the block into pieces; a piece survives as a
verified block when it holds enough sentences. Under the project's rule (the default) a sentence
with fewer terms than the key size ("Oh!", "It is.") may sit inside a piece when its key equals
its partner's, but does not count towards the piece's minimum length.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from core.detection.suffix_tree import RawBlock
from core.options import MatchOptions, ShortSentenceRule


class BlockState(StrEnum):
    VERIFIED = "verified"  # every key matched: the whole block is kept
    SPLIT = "split"  # some keys failed, at least one piece survives
    DISCARDED = "discarded"  # no piece survives


@dataclass(frozen=True, slots=True, order=True)
class VerifiedBlock:
    """A run of aligned sentences whose lengths and keys agree: evidence of copying."""

    a_start: int  # signature positions
    b_start: int
    length: int


@dataclass(frozen=True, slots=True)
class BlockOutcome:
    """What verification made of one raw block."""

    raw: RawBlock
    state: BlockState
    failed: tuple[int, ...]  # offsets within the block whose keys differ
    pieces: tuple[VerifiedBlock, ...]  # the surviving verified blocks, in order
    # offsets of aligned short sentences (fewer terms than the key size) whose keys match; a
    # short sentence whose key differs is in `failed`
    short: tuple[int, ...]

    @property
    def reason(self) -> str:
        """Why the block ended in its state, in plain words."""
        raw = self.raw
        if self.state is BlockState.VERIFIED:
            return f"all {raw.length} sentences start with the same words"
        failed = len(self.failed)
        if self.state is BlockState.SPLIT:
            kept = sum(p.length for p in self.pieces)
            return (
                f"{failed} of {raw.length} sentences start differently; "
                f"{len(self.pieces)} piece(s) with {kept} sentences kept"
            )
        if failed == raw.length:
            return "no sentence starts with the same words: the lengths agree by chance"
        if failed == 0:
            return "the sentences agree, but too few of them have enough words to be sure"
        return "the pieces left after removing sentences that start differently are too short"


def verify_block(
    raw: RawBlock,
    keys_a: Sequence[int],
    keys_b: Sequence[int],
    short_a: Sequence[bool],
    options: MatchOptions,
) -> BlockOutcome:
    """Verify one raw block. Keys are interned (equal keys, equal ints) for speed."""
    i, j, length = raw.a_start, raw.b_start, raw.length
    min_block = options.min_block
    literal = options.short_sentences is ShortSentenceRule.LITERAL
    failed: list[int] = []
    short: list[int] = []
    pieces: list[VerifiedBlock] = []
    piece_start = 0
    piece_weight = 0  # sentences that count towards the minimum
    for k in range(length):
        if keys_a[i + k] != keys_b[j + k]:
            if piece_weight >= min_block:
                pieces.append(VerifiedBlock(i + piece_start, j + piece_start, k - piece_start))
            failed.append(k)
            piece_start = k + 1
            piece_weight = 0
            continue
        if short_a[i + k]:  # equal keys: the partner is short too
            short.append(k)
            if not literal:
                continue
        piece_weight += 1
    if piece_weight >= min_block:
        pieces.append(VerifiedBlock(i + piece_start, j + piece_start, length - piece_start))
    if not failed and pieces:
        state = BlockState.VERIFIED
    elif pieces:
        state = BlockState.SPLIT
    else:
        state = BlockState.DISCARDED
    return BlockOutcome(raw, state, tuple(failed), tuple(pieces), tuple(short))

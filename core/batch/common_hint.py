"""The prompt everyone pasted, noticed: after a folder check that left no common text out, is
most of what it found one passage most of the class shares? Then every surface says so and
offers the common-text exclusion (`ExclusionOptions.common_share`, `--exclude-common`).

The text is found exactly as that exclusion finds it (`core.batch.common_text`, at the share
the hint suggests, `HINT_SHARE`: text in more than half the submissions), so leaving it out
leaves out what the hint showed. It is only worth saying when that text is why the pairs were
found: the hint is given when *most* pairs with copied text (more than half) have a copied
passage holding it on both sides (and three pairs at least), and the text is in three
submissions at least (two who share a passage may simply have copied it; in a class of three,
two are more than half). A class where a short line ("Task 2.") is everywhere but pairs come
from real copying gets no hint; nor does a class where nothing is common.

Cost: the fingerprints are those the exclusion uses (made by the workers, cached beside each
document), and the counting's first pass keeps only candidates; for a class with nothing in
common it finds none and stops there (docs/batch.md, "The prompt everyone pasted")."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from core.batch.common_text import CommonPassage, CommonText
from core.batch.result import BatchDocument, PairResult
from core.detection.passages import piece_sentences

#: the share of the submissions text must be in (more than) for the hint, and the share it
#: suggests leaving out: "more than half of the class"
HINT_SHARE = 0.5
#: text in fewer submissions than this is never called a prompt (two who share a passage
#: may have copied it; in a class of three, two are more than half)
MIN_HOLDERS = 3
#: nor is a passage behind fewer pairs than this
MIN_PAIRS = 3


@dataclass(frozen=True, slots=True)
class CommonTextHint:
    """Text most submissions share, which most pairs were found for."""

    share: float  # the share it is in more than, and the --exclude-common it suggests
    passages: tuple[CommonPassage, ...]  # the common text, most widespread first
    counted: int  # the submissions the share is of (new ones: not the archive)
    pairs: int  # pairs with copied text whose copied passages hold it on both sides
    flagged: int  # pairs with copied text, in all

    @property
    def passage(self) -> CommonPassage:
        """The most widespread passage (what a message quotes)."""
        return self.passages[0]

    @property
    def holding(self) -> int:
        """The submissions holding (part of) the most widespread passage."""
        return self.passages[0].documents


def copied_sentences(
    pair: PairResult, a: BatchDocument, b: BatchDocument
) -> tuple[set[int], set[int]]:
    """The sentences (indices) of each side inside the pair's copied passages, both kinds."""
    inside_a: set[int] = set()
    inside_b: set[int] = set()
    for piece in pair.pieces:
        (a0, a1), (b0, b1) = piece_sentences(a.signature, b.signature, piece)
        inside_a.update(range(a0, a1))
        inside_b.update(range(b0, b1))
    for passage in pair.reworded:
        inside_a.update(range(*passage.a_sentences))
        inside_b.update(range(*passage.b_sentences))
    return inside_a, inside_b


def common_text_hint(
    documents: Sequence[BatchDocument],
    pairs: Sequence[PairResult],
    common: CommonText,
    holding: Sequence[Collection[int]],
    share: float = HINT_SHARE,
) -> CommonTextHint | None:
    """The hint for a check of `documents` that found `pairs`, given the common text found at
    `share` (`common`, with the documents left as they were) and, by document, the sentences
    holding it (`holding[i]`). None unless some text is common to `MIN_HOLDERS` submissions
    or more, and more than half the pairs with copied text (`MIN_PAIRS` at least) have a
    copied passage holding it on both sides."""
    passages = tuple(p for p in common.passages if p.documents >= MIN_HOLDERS)
    if not passages:
        return None
    flagged = [p for p in pairs if p.flagged]
    sharing = 0
    for pair in flagged:
        held_a, held_b = holding[pair.a], holding[pair.b]
        if not held_a or not held_b:
            continue
        inside_a, inside_b = copied_sentences(pair, documents[pair.a], documents[pair.b])
        if not inside_a.isdisjoint(held_a) and not inside_b.isdisjoint(held_b):
            sharing += 1
    if sharing < MIN_PAIRS or 2 * sharing <= len(flagged):
        return None
    return CommonTextHint(share, passages, common.counted, sharing, len(flagged))

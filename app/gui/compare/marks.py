"""What the side-by-side view draws, worked out without Qt: the marks of each pane, their
colour slots, the emphasised shared words, and the tooltips, so they are tested headless.

A `Mark` is a character span of a document's text (the engine's normalised text, which the pane
shows) with what it means: a kept piece of a block in its colour slot (word for word), a
reworded passage (edited copying: `core.detection.passages`), a sentence that failed
verification, a discarded block, or text left out of the scores. `prepare_view` works out
everything showing a comparison needs (on a worker: the session calls it right after
comparing); `MarkIndex` answers "which marks are here?" for the pane's clicks and tooltips, and
the `…_tooltip` functions word a mark for a teacher. The Qt side (`text_pane`, `colours`,
`view`) only turns these into formats, colours and widgets. Nothing here imports PySide6.

The view lists, marks and steps through *listed items*, numbered in one range: the blocks of
SL+ST first (`comparison.blocks[i]` is item i: verified, split or discarded), then the reworded
passages (`comparison.reworded_passages[k]` is item `len(blocks) + k`). A mark's `block` is its
item's number, so a reworded passage is framed, clicked and stepped to like a block.

That number is internal. What a teacher reads (the table's "#", the tooltips, the overview
strips) is a `Numbering`, made by `number_items` alone: the items the table lists, in reading
order along A, numbered 1, 2, 3… (blocks) and R1, R2… (reworded passages) without gaps, so
hidden discarded blocks and a filter leave none. The table's filter owns the numbering in use
(`block_model.BlockFilterProxy.numbering`); everything else reads it there.

A sentence too long for the signature that both documents hold word for word, inside or beside
a kept piece, is marked as part of that block (`MarkKind.LONG`, `long_sentences`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Generic, NamedTuple, Protocol, TypeVar

from app.gui.compare.long_sentences import LongSentence, identical_long_sentences
from core.comparison import Comparison
from core.detection.passages import (
    Passage,
    PassageKind,
    passage_shared_words,
    piece_sentences,
    verified_by_first_sentence,
)
from core.detection.verification import BlockOutcome, BlockState
from core.documents.document import Document
from core.documents.excluded_spans import ExcludedSpan, ExclusionKind
from core.documents.signature import MAX_PAPER_LENGTH
from core.exclusions.quotations import BLOCK_QUOTE
from core.reports.palette import BLOCK_PALETTE, colour_slots
from core.reports.wording import (
    LEFT_OUT,
    PASSAGE_KIND_TITLES,
    percent,
    word_changes_text,
)
from core.shared_words import PieceWords, shared_words

Span = tuple[int, int]
#: what the view lists: a block of SL+ST, or a reworded passage (the module's docstring)
Listed = BlockOutcome | Passage

#: how many colours kept blocks take in turn (`colours.BLOCK_PALETTE` has one per slot)
COLOUR_SLOTS = len(BLOCK_PALETTE)
#: a tooltip names at most this many of the marks under the pointer
TOOLTIP_MARKS = 3


# --- the records -------------------------------------------------------------------------


class MarkKind(IntEnum):
    """What a mark shows; higher wins when marks overlap (tooltip and click)."""

    # left out of the scores (core.documents.excluded_spans): shaded, not a block, not clickable
    EXCLUDED = -1
    DISCARDED = 0
    PIECE = 1
    FAILED = 2
    # a reworded passage: copied and edited. It wins over a failed sentence inside it (that
    # sentence is not word for word, but the passage around it is counted as copied)
    REWORDED = 3
    # a sentence too long for the signature, the same in both documents, inside or beside a
    # kept piece (`long_sentences`): part of that block. It wins over the piece around it and
    # over a reworded passage the detector made of it (not a word of it was edited)
    LONG = 4


@dataclass(frozen=True, slots=True)
class Mark:
    start: int  # [start, end) into the document text, in Python str offsets
    end: int
    kind: MarkKind
    block: int  # the listed item's number (the module's docstring); -1 for EXCLUDED
    part: int  # PIECE: index among the block's pieces; FAILED: offset in the block;
    # EXCLUDED: index in the document's `excluded`; REWORDED: index in
    # comparison.reworded_passages; LONG: index in `identical_long_sentences`; else 0
    slot: int | None  # colour slot of a kept block (`colour_slots`), None otherwise


@dataclass(frozen=True, slots=True)
class Emphasis:
    """Shared words inside a kept piece: `[start, end)`, drawn in a stronger shade of `slot`;
    `slot` None: the words a reworded passage's two sides share, drawn in the reworded style."""

    start: int
    end: int
    slot: int | None


class TextSpan(NamedTuple):
    """A plain `[start, end)` of a document's text (an occurrence of a chosen phrase)."""

    start: int
    end: int


# --- finding spans -----------------------------------------------------------------------


class Spanned(Protocol):
    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...


S = TypeVar("S", bound=Spanned)


class SpanIndex(Generic[S]):
    """Spans sorted by start, with the running maximum of their ends, so those overlapping a
    range or covering an offset are found by bisection (spans may overlap: blocks can share
    text). A pane keeps one per layer: marks, emphasised words, a found phrase."""

    def __init__(self, items: Iterable[S] = ()) -> None:
        self.items: list[S] = sorted(items, key=lambda item: (item.start, item.end))
        self._starts = [item.start for item in self.items]
        self._reach: list[int] = []
        furthest = -1
        for item in self.items:
            furthest = max(furthest, item.end)
            self._reach.append(furthest)

    def __len__(self) -> int:
        return len(self.items)

    def between(self, low: int, high: int) -> list[S]:
        """The spans overlapping `[low, high)`, in start order."""
        found = []
        k = bisect_left(self._starts, high) - 1
        while k >= 0 and self._reach[k] > low:
            if self.items[k].end > low:
                found.append(self.items[k])
            k -= 1
        found.reverse()
        return found

    def covering(self, offset: int) -> list[S]:
        """The spans holding the character at `offset`, latest start first."""
        found = []
        k = bisect_right(self._starts, offset) - 1
        while k >= 0 and self._reach[k] > offset:
            if self.items[k].end > offset:
                found.append(self.items[k])
            k -= 1
        return found


class MarkIndex(SpanIndex[Mark]):
    """A pane's marks: which are at an offset (most telling first), and each block's extent."""

    def __init__(self, marks: Iterable[Mark] = ()) -> None:
        super().__init__(marks)
        self._extents: dict[int, Span] = {}
        for mark in self.items:
            if mark.kind == MarkKind.EXCLUDED:
                continue  # not a block
            low, high = self._extents.get(mark.block, (mark.start, mark.end))
            self._extents[mark.block] = (min(low, mark.start), max(high, mark.end))

    def at(self, offset: int, *, show_discarded: bool = True) -> list[Mark]:
        """The marks covering the character at `offset`, most telling first: the highest
        kind, then the shortest, then the first block."""
        found = [
            mark
            for mark in self.covering(offset)
            if show_discarded or mark.kind != MarkKind.DISCARDED
        ]
        found.sort(key=lambda m: (-m.kind, m.end - m.start, m.block))
        return found

    def block_span(self, block: int) -> Span | None:
        """The extent of a block's marks, from its first to its last character."""
        return self._extents.get(block)


def combined_tooltip(marks: Iterable[Mark], describe: Callable[[Mark], str]) -> str:
    """The tooltip of a spot covered by `marks` (most telling first): each different
    description once, at most TOOLTIP_MARKS of them, and how many more there are."""
    tips = dict.fromkeys(describe(mark) for mark in marks)
    tips.pop("", None)
    shown = list(tips)[:TOOLTIP_MARKS]
    if len(tips) > len(shown):
        shown.append(f"(and {len(tips) - len(shown)} more here)")
    return "\n\n".join(shown)


# --- what the view lists -------------------------------------------------------------------


def listed_items(comparison: Comparison) -> tuple[Listed, ...]:
    """Every item the view lists, by number: the blocks, then the reworded passages."""
    return (*comparison.blocks, *comparison.reworded_passages)


def reworded_part(comparison: Comparison, index: int) -> int | None:
    """The index in `comparison.reworded_passages` of listed item `index`, or None for a
    block."""
    blocks = len(comparison.blocks)
    return index - blocks if index >= blocks else None


def largest_item(comparison: Comparison) -> int | None:
    """The listed item a comparison opens at: the copied passage with the most sentences of A
    (a verified or split block by its kept pieces, a reworded passage by its sentences), the
    first in A among equals; None when nothing was copied."""
    sizes = {
        index: sum(piece.length for piece in block.pieces)
        for index, block in enumerate(comparison.blocks)
        if block.pieces
    }
    blocks = len(comparison.blocks)
    for part, passage in enumerate(comparison.reworded_passages):
        sizes[blocks + part] = passage.a_sentences[1] - passage.a_sentences[0]
    if not sizes:
        return None
    return max(sizes, key=lambda k: (sizes[k], -block_spans(comparison, k)[0][0], -k))


def item_spans(comparison: Comparison, item: Listed) -> tuple[Span, Span]:
    """The whole extent of a listed item in A and in B (a block's raw extent)."""
    if isinstance(item, Passage):
        return item.a_chars, item.b_chars
    raw = item.raw
    return (
        comparison.a.chars_of(raw.a_start, raw.length),
        comparison.b.chars_of(raw.b_start, raw.length),
    )


def listed_order(comparison: Comparison) -> list[int]:
    """The listed items' numbers in reading order along A (then B, then number): the order
    next/previous step through both kinds of passage, and the table's first order."""
    keys = []
    for index, item in enumerate(listed_items(comparison)):
        span_a, span_b = item_spans(comparison, item)
        keys.append((span_a[0], span_b[0], index))
    return [index for _, _, index in sorted(keys)]


@dataclass(frozen=True, slots=True)
class Numbering:
    """The numbers a teacher reads for the listed items (the module's docstring): `labels` by
    item number ("3", "R2"); an item the table does not list has none."""

    blocks: int  # items below this number are blocks; the rest are reworded passages
    labels: Mapping[int, str]

    def label(self, index: int) -> str:
        """The item's number as shown ("3", "R2"), or "" when it is not listed."""
        return self.labels.get(index, "")

    def name(self, index: int) -> str:
        """How the tooltips name an item: "Block 3", "Passage R2"; "Block (not listed)" for one
        the table does not list (a discarded block under the default filter)."""
        word = "Block" if index < self.blocks else "Passage"
        label = self.labels.get(index)
        return f"{word} {label}" if label else f"{word} (not listed)"

    def listed(self) -> list[int]:
        """The numbered items, in the order of their numbers (reading order along A)."""
        return list(self.labels)


def number_items(
    comparison: Comparison, order: Sequence[int], listed: Callable[[int], bool] | None = None
) -> Numbering:
    """The one numbering rule: the items `listed` lets through (all, without it), taken in
    `order` (`listed_order`: reading order along A), numbered 1, 2, 3… if blocks and R1, R2…
    if reworded passages, each kind without gaps."""
    blocks = len(comparison.blocks)
    labels: dict[int, str] = {}
    counted_blocks = counted_passages = 0
    for index in order:
        if listed is not None and not listed(index):
            continue
        if index < blocks:
            counted_blocks += 1
            labels[index] = str(counted_blocks)
        else:
            counted_passages += 1
            labels[index] = f"R{counted_passages}"
    return Numbering(blocks, labels)


def piece_passages(comparison: Comparison) -> dict[tuple[int, int], Passage]:
    """The verified `Passage` of each kept piece, by (block, part): what changed between its
    two sides, counted as for a reworded passage (the block table's shared words)."""
    a = comparison.a.signature
    verified = verified_by_first_sentence(a, comparison.passages)
    found: dict[tuple[int, int], Passage] = {}
    for index, block in enumerate(comparison.blocks):
        for part, piece in enumerate(block.pieces):
            passage = verified.get(a.sentence_indices[piece.a_start])
            if passage is not None:
                found[(index, part)] = passage
    return found


# --- a comparison's marks ----------------------------------------------------------------


@dataclass(frozen=True)
class PreparedView:
    """What showing a comparison needs that is plain data: worked out on a worker thread (the
    session does it right after comparing), so putting a result on screen stays short."""

    comparison: Comparison
    slots: list[int | None]  # colour slot per listed block
    order: list[int]  # listed items (blocks, then reworded passages) in A order
    marks_a: list[Mark]
    marks_b: list[Mark]
    shared: tuple[PieceWords, ...] = ()  # the shared words of every kept piece
    emphasis_a: list[Emphasis] = field(default_factory=list)  # ... as spans in each pane,
    emphasis_b: list[Emphasis] = field(default_factory=list)  # with the reworded passages'
    # the verified passage of each kept piece, by (block, part)
    pieces: dict[tuple[int, int], Passage] = field(default_factory=dict)
    # the marks and the emphasis indexed for each pane (sorting 35,000 emphasised words of an
    # edited novel takes ~0.3 s: done here, on the worker, not on the GUI thread)
    indexes: tuple[MarkIndex, MarkIndex, SpanIndex[Emphasis], SpanIndex[Emphasis]] | None = None
    largest: int | None = None  # the item the view opens at (`largest_item`)
    # the too-long sentences both documents share inside or beside a piece (`MarkKind.LONG`)
    long: tuple[LongSentence, ...] = ()

    @property
    def items(self) -> tuple[Listed, ...]:
        return listed_items(self.comparison)

    def indexed(self) -> tuple[MarkIndex, MarkIndex, SpanIndex[Emphasis], SpanIndex[Emphasis]]:
        """Pane A's and pane B's marks and emphasis, indexed (`indexes`, or made now)."""
        if self.indexes is not None:
            return self.indexes
        return (
            MarkIndex(self.marks_a),
            MarkIndex(self.marks_b),
            SpanIndex(self.emphasis_a),
            SpanIndex(self.emphasis_b),
        )


def prepare_view(comparison: Comparison) -> PreparedView:
    slots = colour_slots(comparison.blocks)
    long = tuple(identical_long_sentences(comparison))
    marks_a, marks_b = comparison_marks(comparison, slots, long)
    shared = shared_words(comparison)
    emphasis_a, emphasis_b = emphasis_spans(shared, slots)
    reworded_a, reworded_b = reworded_emphasis(comparison)
    long_a, long_b = long_emphasis(long, slots)
    # a long sentence is word for word: its block's shade, not a reworded passage's violet
    emphasis_a += _outside(reworded_a, long_a) + long_a
    emphasis_b += _outside(reworded_b, long_b) + long_b
    return PreparedView(
        comparison,
        slots,
        listed_order(comparison),
        marks_a,
        marks_b,
        shared,
        emphasis_a,
        emphasis_b,
        piece_passages(comparison),
        (MarkIndex(marks_a), MarkIndex(marks_b), SpanIndex(emphasis_a), SpanIndex(emphasis_b)),
        largest_item(comparison),
        long,
    )


def long_emphasis(
    long: Iterable[LongSentence], slots: list[int | None]
) -> tuple[list[Emphasis], list[Emphasis]]:
    """The too-long sentences both documents share, each as one emphasised span (every word is
    the same) in its block's colour slot, in pane A and pane B."""
    in_a: list[Emphasis] = []
    in_b: list[Emphasis] = []
    for sentence in long:
        slot = slots[sentence.block]
        in_a.append(Emphasis(*sentence.a_chars, slot))
        in_b.append(Emphasis(*sentence.b_chars, slot))
    return in_a, in_b


def _outside(spans: list[Emphasis], covers: list[Emphasis]) -> list[Emphasis]:
    """`spans` less those inside one of `covers`."""
    if not covers:
        return spans
    index = SpanIndex(covers)
    return [
        span
        for span in spans
        if not any(c.start <= span.start and span.end <= c.end for c in index.covering(span.start))
    ]


def emphasis_spans(
    shared: tuple[PieceWords, ...], slots: list[int | None]
) -> tuple[list[Emphasis], list[Emphasis]]:
    """The shared words' runs as emphasis in pane A and pane B, in their block's colour slot."""
    in_a: list[Emphasis] = []
    in_b: list[Emphasis] = []
    for piece in shared:
        slot = slots[piece.block]
        if slot is None:
            continue
        for run in piece.runs:
            in_a.append(Emphasis(run.a_start, run.a_end, slot))
            in_b.append(Emphasis(run.b_start, run.b_end, slot))
    return in_a, in_b


def reworded_emphasis(comparison: Comparison) -> tuple[list[Emphasis], list[Emphasis]]:
    """The words each side of a reworded passage shares with the other (content words whose
    stem the partner side holds: `core.detection.passages.passage_shared_words`), as emphasis in
    pane A and pane B; words next to each other (only spaces between) are one span."""
    a, b = comparison.a, comparison.b
    in_a: list[Emphasis] = []
    in_b: list[Emphasis] = []
    for passage in comparison.reworded_passages:
        words_a, words_b = passage_shared_words(a, b, passage)
        in_a += _joined(a.text, words_a)
        in_b += _joined(b.text, words_b)
    return in_a, in_b


def _joined(text: str, spans: Iterable[Span]) -> list[Emphasis]:
    """`spans` (in order) as emphasis, those with only whitespace between them merged."""
    joined: list[Emphasis] = []
    for start, end in spans:
        if joined and (last := joined[-1]).end <= start and not text[last.end : start].strip():
            joined[-1] = Emphasis(last.start, end, None)
        else:
            joined.append(Emphasis(start, end, None))
    return joined


def comparison_marks(
    comparison: Comparison,
    slots: list[int | None],
    long: Sequence[LongSentence] | None = None,
) -> tuple[list[Mark], list[Mark]]:
    """The marks of pane A and pane B, in one pass over the listed items.

    Kept pieces (verified and split blocks) get their block's colour slot; the sentences of a
    split block that failed verification are marked on their own; a discarded block is marked
    over its whole extent; a reworded passage over its sentences in each document; a too-long
    sentence both documents share beside or inside a piece (`long`: `identical_long_sentences`
    unless given) in its block's colour slot."""
    a, b = comparison.a, comparison.b
    marks_a: list[Mark] = []
    marks_b: list[Mark] = []
    for index, block in enumerate(comparison.blocks):
        raw = block.raw
        slot = slots[index]
        if block.state is BlockState.DISCARDED:
            span_a = a.chars_of(raw.a_start, raw.length)
            span_b = b.chars_of(raw.b_start, raw.length)
            marks_a.append(Mark(*span_a, MarkKind.DISCARDED, index, 0, None))
            marks_b.append(Mark(*span_b, MarkKind.DISCARDED, index, 0, None))
            continue
        for part, piece in enumerate(block.pieces):
            span_a, span_b = comparison.piece_chars(piece)
            marks_a.append(Mark(*span_a, MarkKind.PIECE, index, part, slot))
            marks_b.append(Mark(*span_b, MarkKind.PIECE, index, part, slot))
        for offset in block.failed:
            span_a = a.chars_of(raw.a_start + offset, 1)
            span_b = b.chars_of(raw.b_start + offset, 1)
            marks_a.append(Mark(*span_a, MarkKind.FAILED, index, offset, slot))
            marks_b.append(Mark(*span_b, MarkKind.FAILED, index, offset, slot))
    first = len(comparison.blocks)
    for part, passage in enumerate(comparison.reworded_passages):
        marks_a.append(Mark(*passage.a_chars, MarkKind.REWORDED, first + part, part, None))
        marks_b.append(Mark(*passage.b_chars, MarkKind.REWORDED, first + part, part, None))
    if long is None:
        long = identical_long_sentences(comparison)
    for k, sentence in enumerate(long):
        slot = slots[sentence.block]
        marks_a.append(Mark(*sentence.a_chars, MarkKind.LONG, sentence.block, k, slot))
        marks_b.append(Mark(*sentence.b_chars, MarkKind.LONG, sentence.block, k, slot))
    for doc, marks in ((a, marks_a), (b, marks_b)):
        for k, span in enumerate(doc.excluded):  # part: the span's index in doc.excluded
            marks.append(Mark(span.start, span.end, MarkKind.EXCLUDED, -1, k, None))
    return marks_a, marks_b


# --- the tooltips' words -------------------------------------------------------------------


def mark_tooltip(
    comparison: Comparison,
    mark: Mark,
    shared: dict[tuple[int, int], PieceWords] | None = None,
    document: Document | None = None,
    numbering: Numbering | None = None,
    long: Sequence[LongSentence] | None = None,
) -> str:
    """What a mark means, in plain words (its tooltip); `shared` is the pieces' shared words
    by (block, part); `document` is the pane's document (for its exclusions); `numbering` the
    numbers shown (every item listed, without it); `long` the comparison's
    `identical_long_sentences` (worked out, without it)."""
    if mark.kind == MarkKind.EXCLUDED:
        return excluded_tooltip(document.excluded[mark.part]) if document is not None else ""
    if numbering is None:
        numbering = number_items(comparison, listed_order(comparison))
    name = numbering.name(mark.block)
    if mark.kind == MarkKind.REWORDED:
        return reworded_tooltip(name, comparison.reworded_passages[mark.part])
    if mark.kind == MarkKind.LONG:
        if long is None:
            long = identical_long_sentences(comparison)
        return long_tooltip(name, long[mark.part])
    block = comparison.blocks[mark.block]
    if mark.kind == MarkKind.PIECE:
        words = shared.get((mark.block, mark.part)) if shared else None
        return piece_tooltip(name, block, mark.part, words)
    if mark.kind == MarkKind.FAILED:
        return failed_tooltip(name, comparison.failure_reason(block, mark.part))
    return discarded_tooltip(name, block)


def piece_tooltip(
    name: str, block: BlockOutcome, part: int, words: PieceWords | None = None
) -> str:
    """A kept piece of a block (`name`: "Block 3", as `Numbering.name` gives it)."""
    length = block.pieces[part].length
    same = (
        f"{length} sentences in a row have the same lengths and start with the same words "
        "in both documents."
    )
    if block.state is BlockState.VERIFIED:
        head = f"{name} · verified"
        detail = same
    else:
        head = f"{name} · split, passage {part + 1} of {len(block.pieces)}"
        detail = (
            f"{same} Elsewhere in this block {len(block.failed)} of {block.raw.length} "
            "sentences start differently (red wavy underline)."
        )
    if words is not None:
        detail += "\n" + shared_words_text(words)
    title = PASSAGE_KIND_TITLES[PassageKind.VERIFIED]
    return f"{title}\n{head}\n{detail}\nClick to show it in the other document."


def long_tooltip(name: str, sentence: LongSentence) -> str:
    """A sentence too long for the signature that both documents hold word for word, inside or
    beside one of the block's pieces (`long_sentences`)."""
    where = (
        "It lies between sentences of this block: the copied share counts it, the block's "
        "length and Jaccard do not."
        if sentence.inside
        else "It continues this block, which the method has to end before it: the block's length "
        "and Jaccard do not count it."
    )
    return (
        f"{PASSAGE_KIND_TITLES[PassageKind.VERIFIED]}\n"
        f"{name} · identical sentence, too long to count\n"
        f"Word for word the same in both documents, but with {sentence.terms} words (stop words "
        f"aside) it is over the {MAX_PAPER_LENGTH} the sentence-length method can use. {where}\n"
        "Click to show it in the other document."
    )


def sentences_text(sentences: tuple[int, int]) -> str:
    """Sentences [first, end) as a teacher numbers them: "16–19", or "16" for one."""
    first, end = sentences
    return f"{first + 1}–{end}" if end - first > 1 else str(first + 1)


def reworded_line(passage: Passage) -> str:
    """A reworded passage's kind and what changed, in a line: "Reworded passage (edited) —
    12 of 15 words the same; 2 replaced, 1 added"."""
    return f"{PASSAGE_KIND_TITLES[PassageKind.REWORDED]} — {word_changes_text(passage.changes)}"


def reworded_tooltip(name: str, passage: Passage) -> str:
    """A reworded passage (`name`: "Passage R1"): its kind and what changed, where it is, what
    it means."""
    return (
        f"{reworded_line(passage)}\n"
        f"{name} · sentences {sentences_text(passage.a_sentences)} of A, "
        f"{sentences_text(passage.b_sentences)} of B · {percent(passage.similarity)} alike\n"
        "The same content words in partly different wording: copied, then edited.\n"
        "The words both sides share are underlined; the words that differ are plain.\n"
        "Click to show it in the other document."
    )


def shared_words_text(words: PieceWords) -> str:
    """How much of a kept piece is word for word, in plain words."""
    if words.word_for_word:
        return "Word for word: every word is the same, in the same order."
    total = max(words.words_a, words.words_b)
    return (
        f"{words.shared:,} of {total:,} words are the same, in the same order (the "
        "stronger shade); the rest only has the same shape."
    )


def failed_tooltip(name: str, reason: str) -> str:
    """A sentence of a split block whose first words differ from its partner's (`reason`:
    `Comparison.failure_reason`, the keys quoted). Only the lengths agree: the two sentences
    may be unrelated, so it is never called reworded (that word is the reworded-passage
    detector's)."""
    return (
        f"{name} · sentence not verified\n"
        f"Same length as its partner sentence, but the {reason}.\n"
        "Not counted as word for word: only the lengths agree, the sentences may be unrelated."
    )


def excluded_tooltip(span: ExcludedSpan) -> str:
    """Why a shaded passage is not counted, in plain words."""
    why = {
        ExclusionKind.QUOTATION: (
            "A block quote in the file."
            if span.detail == BLOCK_QUOTE
            else "Inside quotation marks."
        ),
        ExclusionKind.REFERENCES: f"The references section, from the heading “{span.detail}”.",
        ExclusionKind.TEMPLATE: f"The same text is in the template {span.detail}.",
        ExclusionKind.COMMON: f"Text most documents of the folder share ({span.detail}).",
    }[span.kind]
    return (
        f"{LEFT_OUT} · {span.kind.label}\n{why}\n"
        "The document is unchanged; this text is only not counted."
    )


def discarded_tooltip(name: str, block: BlockOutcome) -> str:
    reason = block.reason[:1].upper() + block.reason[1:]
    return f"{name} · discarded\n{reason}.\nNot counted as copied."


# --- where a mark's partner is ------------------------------------------------------------


def mark_spans(
    comparison: Comparison, mark: Mark, long: Sequence[LongSentence] | None = None
) -> tuple[Span, Span]:
    """The spans in A and in B of the part of its item that `mark` shows (`long`: the
    comparison's `identical_long_sentences`, worked out without it)."""
    if mark.kind == MarkKind.REWORDED:
        passage = comparison.reworded_passages[mark.part]
        return passage.a_chars, passage.b_chars
    if mark.kind == MarkKind.LONG:
        sentence = (identical_long_sentences(comparison) if long is None else long)[mark.part]
        return sentence.a_chars, sentence.b_chars
    block = comparison.blocks[mark.block]
    raw = block.raw
    if mark.kind == MarkKind.PIECE:
        return comparison.piece_chars(block.pieces[mark.part])
    if mark.kind == MarkKind.FAILED:
        return (
            comparison.a.chars_of(raw.a_start + mark.part, 1),
            comparison.b.chars_of(raw.b_start + mark.part, 1),
        )
    return block_spans(comparison, mark.block)


def block_spans(comparison: Comparison, index: int) -> tuple[Span, Span]:
    """Where a selected item is shown: a block's first kept piece, or the whole block when
    none; a reworded passage's sentences."""
    part = reworded_part(comparison, index)
    if part is not None:
        passage = comparison.reworded_passages[part]
        return passage.a_chars, passage.b_chars
    block = comparison.blocks[index]
    if block.pieces:
        return comparison.piece_chars(block.pieces[0])
    return item_spans(comparison, block)


# --- the overview strips ------------------------------------------------------------------

#: what an overview strip marks: the copied passages of both kinds (and, when the table lists
#: them and the panes show them, the discarded blocks)
OVERVIEW_KINDS = frozenset({MarkKind.PIECE, MarkKind.LONG, MarkKind.REWORDED, MarkKind.DISCARDED})


def overview_marks(marks: Iterable[Mark], shown: Callable[[int], bool]) -> list[Mark]:
    """The marks of a pane that its overview strip shows, in order along the document: those of
    OVERVIEW_KINDS whose item is `shown` (listed by the table and not hidden)."""
    kept = [m for m in marks if m.kind in OVERVIEW_KINDS and shown(m.block)]
    kept.sort(key=lambda m: (m.start, m.end, m.kind))
    return kept


def overview_tooltip(
    comparison: Comparison,
    mark: Mark,
    numbering: Numbering,
    in_a: bool,
    long: Sequence[LongSentence] | None = None,
) -> str:
    """A strip mark's tooltip, with sentence numbers of its own document (A when `in_a`):
    "Block 3 — word for word, sentences 12–15"."""
    name = numbering.name(mark.block)
    if mark.kind == MarkKind.REWORDED:
        passage = comparison.reworded_passages[mark.part]
        what = f"edited, {_sentences(passage.a_sentences if in_a else passage.b_sentences)}"
    elif mark.kind == MarkKind.LONG:
        sentence = (identical_long_sentences(comparison) if long is None else long)[mark.part]
        index = sentence.a_sentence if in_a else sentence.b_sentence
        what = (
            f"word for word, {_sentences((index, index + 1))}: identical in both, too long to count"
        )
    else:
        block = comparison.blocks[mark.block]
        a, b = comparison.a.signature, comparison.b.signature
        if mark.kind == MarkKind.PIECE:
            in_both = piece_sentences(a, b, block.pieces[mark.part])
            what = f"word for word, {_sentences(in_both[0] if in_a else in_both[1])}"
            if block.state is BlockState.SPLIT:
                what += f" (passage {mark.part + 1} of {len(block.pieces)})"
        else:
            raw = block.raw
            signature, start = (a, raw.a_start) if in_a else (b, raw.b_start)
            first = signature.sentence_indices[start]
            end = signature.sentence_indices[start + raw.length - 1] + 1
            what = f"discarded (the lengths agree by chance), {_sentences((first, end))}"
    return f"{name} — {what}\nClick to go to it."


def _sentences(sentences: tuple[int, int]) -> str:
    """ "sentences 12–15", "sentence 12"."""
    first, end = sentences
    return f"sentence{'s' if end - first > 1 else ''} {sentences_text(sentences)}"

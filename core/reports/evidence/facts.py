"""What an evidence report says, gathered once from a comparison: the documents' facts, the
check, the findings in words, every copied passage as aligned rows of emphasised text, the page
maps, and the method's reading guide and limits. Both renderers (`pdf`, `html`) read only this,
so the PDF and the HTML page never disagree.

A passage is laid out as rows, each holding one sentence (or a few) of A beside its partner in
B, so the two sides stay level however long the passage and however the pages break. In a
verified passage the rows follow the piece's aligned sentences (a sentence left out of the
signature, e.g. one too long for the paper's alphabet, sits in a row of its own between them);
in an edited passage, whose sentences may be reordered, merged or split, the i-th sentence of A
stands beside the i-th of B. The words both sides share are emphasised; the rest, the words that
differ, are plain (`Run.shared`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache, lru_cache
from itertools import zip_longest
from pathlib import Path

from core.comparison import Comparison
from core.detection.passages import (
    Passage,
    PassageKind,
    copied_sentences,
    passage_shared_words,
    scored_sentence_count,
    verified_by_first_sentence,
)
from core.documents.document import Document
from core.documents.language import available_languages
from core.documents.sentences import word_spans
from core.documents.signature import MAX_PAPER_LENGTH
from core.fingerprint import file_sha256
from core.options import ShortSentenceRule
from core.reports.evidence.method import HOW_TO_READ, LIMITS, jaccard_line
from core.reports.palette import BLOCK_PALETTE, REWORDED_HUE, colour_slots, mix
from core.reports.wording import (
    PASSAGE_KINDS,
    comparison_left_out,
    passage_counts,
    percent,
    plural,
    verdict,
    word_changes_text,
)
from core.shared_words import shared_words
from core.version import doppel_version

#: how much of a passage's hue is laid on white: behind its text, behind its shared words
FILL = 0.22
STRONG = 0.55


@dataclass(frozen=True, slots=True)
class MapMark:
    """Where one passage lies in a document: `[start, end)` as shares of its text (0..1)."""

    start: float
    end: float
    colour: str  # "#RRGGBB"
    label: str  # the passage's number, "3"
    kind: PassageKind


@dataclass(frozen=True, slots=True)
class DocumentFacts:
    """One compared document, as a reader checks it is the file they hold."""

    label: str  # "A" or "B"
    name: str
    path: str
    format: str  # "DOCX", "PDF", …
    size: int | None  # bytes, None when the file is not there
    sha256: str  # of the file's bytes as checked
    modified: datetime | None  # the file's modification time (local, with its offset)
    # set when the file on disk is not the one checked: changed since, or gone
    file_note: str | None
    sentences: int
    words: int
    language: str  # "English (detected)"
    left_out: tuple[str, ...]  # what exclusions left out of this document (may be empty)
    warnings: tuple[str, ...]  # noticed while reading it
    # disguises undone before the check (look-alike letters, invisible characters, hidden
    # text), in words: findings in themselves, shown with the verdict
    disguises: tuple[str, ...]
    found_share: float  # the share of its scored sentences found in the other document
    found_sentences: int
    scored_sentences: int
    map: tuple[MapMark, ...]


@dataclass(frozen=True, slots=True)
class Run:
    """A stretch of one side's text: words both sides share (`shared`) or not."""

    text: str
    shared: bool


@dataclass(frozen=True, slots=True)
class Cell:
    """One side of a row: its sentences' text as runs (empty: the other side has more)."""

    runs: tuple[Run, ...]
    first_sentence: int | None  # 1-based sentence number of the first sentence, None if empty

    @property
    def text(self) -> str:
        return "".join(run.text for run in self.runs)


@dataclass(frozen=True, slots=True)
class Row:
    a: Cell
    b: Cell


@dataclass(frozen=True, slots=True)
class ReportPassage:
    label: str  # as the window numbers it by default: "3" (block 3), "R1" (edited passage 1)
    name: str  # "Block 3", "Block 3, piece 2 of 2", "Passage R1": what the report calls it
    kind: PassageKind
    kind_text: str  # "word for word", "edited"
    colour: str  # the app's colour of the passage: its block's hue, violet if edited
    a_where: str  # "sentences 12–15 of 80, 14% into the document"
    b_where: str
    summary: str  # what the sides share: "4 sentences, word for word" / the word changes
    rows: tuple[Row, ...]

    @property
    def fill(self) -> str:
        """The pale shade behind the passage's text (on white paper)."""
        return mix(self.colour, FILL)

    @property
    def strong(self) -> str:
        """The stronger shade behind the words both sides share."""
        return mix(self.colour, STRONG)


@dataclass(frozen=True, slots=True)
class Setting:
    """One line of "how the check ran": a label and its value."""

    label: str
    value: str


@dataclass(frozen=True, slots=True)
class EvidenceReport:
    title: str
    a: DocumentFacts
    b: DocumentFacts
    checked_at: datetime
    version: str
    settings: tuple[Setting, ...]
    left_out: tuple[str, ...]  # the exclusions asked for (empty: nothing left out)
    flagged: bool
    verdict: str  # "Copied text found"
    findings: tuple[str, ...]  # the scores in words
    jaccard: str  # the paper's measure in one line
    passages: tuple[ReportPassage, ...]
    how_to_read: tuple[str, ...]
    limits: tuple[str, ...]

    @property
    def documents(self) -> tuple[DocumentFacts, DocumentFacts]:
        return self.a, self.b


def evidence_report(
    comparison: Comparison, *, checked_at: datetime | None = None
) -> EvidenceReport:
    """Everything the report of `comparison` says. `checked_at` (default: now) is when the
    check ran, shown with the local time zone's offset. Reads each file once more, to show its
    size and date and to say if it changed since it was checked; never writes."""
    when = (checked_at or datetime.now()).astimezone()
    c = comparison
    passages = _report_passages(c)
    left = comparison_left_out(c)
    left_a, left_b = (left.a, left.b) if left is not None else ((), ())
    sides_a = [(p.a_sentences, p.a_chars) for p in c.passages]
    sides_b = [(p.b_sentences, p.b_chars) for p in c.passages]
    a = _facts("A", c.a, c.copied_a, sides_a, passages, left_a)
    b = _facts("B", c.b, c.copied_b, sides_b, passages, left_b)
    return EvidenceReport(
        title=f"Evidence report: {c.a.name} and {c.b.name}",
        a=a,
        b=b,
        checked_at=when,
        version=doppel_version(),
        settings=_settings(c),
        left_out=left.asked if left is not None else (),
        flagged=c.flagged,
        verdict=verdict(c.flagged),
        findings=_findings(c, a, b),
        jaccard=jaccard_line(c.jaccard),
        passages=tuple(passages),
        how_to_read=HOW_TO_READ,
        limits=LIMITS,
    )


# --- the documents --------------------------------------------------------------------------


def _facts(
    label: str,
    doc: Document,
    share: float,
    sides: Sequence[tuple[tuple[int, int], tuple[int, int]]],
    passages: Sequence[ReportPassage],
    left_out: tuple[str, ...],
) -> DocumentFacts:
    """`doc`'s facts; `sides` is each passage's (sentences, characters) in `doc`."""
    size, modified, note = _file_state(doc)
    length = max(1, len(doc.text))
    marks = tuple(
        MapMark(start / length, end / length, rp.colour, rp.label, rp.kind)
        for rp, (_, (start, end)) in zip(passages, sides, strict=True)
    )
    return DocumentFacts(
        label=label,
        name=doc.name,
        path=str(doc.path),
        format=doc.format.upper(),
        size=size,
        sha256=doc.content_hash,
        modified=modified,
        file_note=note,
        sentences=doc.sentence_count,
        words=len(word_spans(doc.text)),
        language=_language(doc),
        left_out=left_out,
        warnings=doc.load_warnings + doc.analysis_warnings,
        disguises=tuple(t.message for t in doc.tampering),
        found_share=share,
        found_sentences=copied_sentences(doc, [sentences for sentences, _ in sides]),
        scored_sentences=scored_sentence_count(doc),
        map=marks,
    )


def _file_state(doc: Document) -> tuple[int | None, datetime | None, str | None]:
    """The file's size and modification time now, and a note if it is not the file checked."""
    try:
        stat = doc.path.stat()
        if not doc.path.is_file():
            return None, None, "not a regular file now"
        digest = _fingerprint(doc.path, stat.st_mtime_ns, stat.st_size)
    except OSError:
        return None, None, "not found at this path when the report was made"
    modified = datetime.fromtimestamp(stat.st_mtime).astimezone()
    if digest != doc.content_hash:
        note = (
            "the file at this path has changed since it was checked: the fingerprint above "
            "is of the version checked"
        )
        return stat.st_size, modified, note
    return stat.st_size, modified, None


@lru_cache(maxsize=256)
def _fingerprint(path: Path, _mtime_ns: int, _size: int) -> str:
    """A file's SHA-256, read again only when its date or size changed: the reports of a
    folder check's pairs name the same submissions over and over."""
    return file_sha256(path)


@cache
def _language_names() -> dict[str, str]:
    return {info.code: info.name.capitalize() for info in available_languages()}


def _language(doc: Document) -> str:
    name = _language_names().get(doc.language, doc.language)
    how = {
        "detected": "detected",
        "default": "assumed",
        "partner": "as the other document",
        "option": "chosen",
    }.get(doc.language_source, doc.language_source)
    return f"{name} ({how})" if how else name


# --- the check and the findings ---------------------------------------------------------------


def _settings(c: Comparison) -> tuple[Setting, ...]:
    sig = c.a.options
    match = c.options
    method = (
        "SL+ST (the sentence-length suffix-tree method) and Doppel's search for edited passages"
        if match.reworded
        else "SL+ST (the sentence-length suffix-tree method) alone (--strict)"
    )
    words = "stop words removed" if sig.remove_stopwords else "every word counted"
    cap = (
        f"sentences of more than {MAX_PAPER_LENGTH} counted words are not compared by length"
        if sig.length_cap
        else "every sentence length used (--no-length-cap)"
    )
    short = (
        "sentences shorter than the key count towards a block (--literal-short)"
        if match.short_sentences is ShortSentenceRule.LITERAL
        else "sentences shorter than the key do not count towards a block's length"
    )
    language = "detected per document" if sig.language == "auto" else sig.language
    return (
        Setting("Method", method),
        Setting(
            "Block",
            f"at least {plural(match.min_block, 'sentence')} in a row, verified by the first "
            f"{plural(sig.key_size, 'counted word')} of each sentence",
        ),
        Setting("Words", f"{words}; {cap}; {short}"),
        Setting("Language", language),
    )


def _findings(c: Comparison, a: DocumentFacts, b: DocumentFacts) -> tuple[str, ...]:
    if not c.flagged:
        return (
            f"No passage of {a.name} was found in {b.name}, word for word or edited.",
            f"{plural(a.scored_sentences, 'sentence')} of A and "
            f"{plural(b.scored_sentences, 'sentence')} of B were compared.",
        )
    counts = passage_counts(p.kind for p in c.passages)
    return (
        f"{percent(a.found_share)} of A's sentences ({a.found_sentences:,} of "
        f"{a.scored_sentences:,}) are found in B, and {percent(b.found_share)} of B's "
        f"({b.found_sentences:,} of {b.scored_sentences:,}) are found in A.",
        f"They lie in {counts}.",
    )


# --- the passages ---------------------------------------------------------------------------


def _report_passages(c: Comparison) -> list[ReportPassage]:
    pieces = _verified_pieces(c)
    verified = verified_by_first_sentence(c.a.signature, c.passages)
    firsts = {id(passage): first for first, passage in verified.items()}
    a_spans, b_spans = _verified_shared_spans(c)
    found = []
    edited = 0
    for passage in c.passages:
        if passage.kind is PassageKind.VERIFIED:
            piece = pieces.get(firsts.get(id(passage), -1))
            if piece is None:  # (every verified passage has its piece)
                piece = _Piece("?", "Block", BLOCK_PALETTE[0], [])
            label, name, colour, pairs = piece.label, piece.name, piece.colour, piece.pairs
            shared_a, shared_b = a_spans, b_spans
            summary = f"{_sizes(passage)}; {_verified_summary(passage)}"
        else:
            edited += 1
            label, colour = f"R{edited}", REWORDED_HUE
            name = f"Passage {label}"
            shared_a, shared_b = (
                _SpanLookup(spans) for spans in passage_shared_words(c.a, c.b, passage)
            )
            pairs = []
            summary = (
                f"{_sizes(passage)}; {word_changes_text(passage.changes)} (content words, "
                "counted from A's side)"
            )
        found.append(
            ReportPassage(
                label=label,
                name=name,
                kind=passage.kind,
                kind_text=PASSAGE_KINDS[passage.kind],
                colour=colour,
                a_where=_where(c.a, passage.a_sentences, passage.a_chars),
                b_where=_where(c.b, passage.b_sentences, passage.b_chars),
                summary=summary,
                rows=tuple(_rows(c, passage, pairs, shared_a, shared_b)),
            )
        )
    return found


def _sizes(passage: Passage) -> str:
    """ "5 sentences in A and 4 in B" """
    (a0, a1), (b0, b1) = passage.a_sentences, passage.b_sentences
    return f"{plural(a1 - a0, 'sentence')} in A and {b1 - b0:,} in B"


def _verified_summary(passage: Passage) -> str:
    changes = passage.changes
    if changes.same == changes.total and not changes.added:
        return "every counted word the same"
    return f"{word_changes_text(changes)} (content words, counted from A's side)"


@dataclass(frozen=True, slots=True)
class _Piece:
    label: str  # its block's number among the kept blocks along A, as the window lists them
    name: str
    colour: str  # its block's, as in the app (`palette.colour_slots`)
    pairs: list[tuple[int, int]]  # its aligned sentences (A index, B index)


def _verified_pieces(c: Comparison) -> dict[int, _Piece]:
    """Each verified piece, keyed by its first aligned sentence in A."""
    found: dict[int, _Piece] = {}
    ia, ib = c.a.signature.sentence_indices, c.b.signature.sentence_indices
    kept = 0
    for block, slot in zip(c.blocks, colour_slots(c.blocks), strict=True):
        if not block.pieces:
            continue
        kept += 1
        for part, piece in enumerate(block.pieces, start=1):
            pairs = [(ia[piece.a_start + k], ib[piece.b_start + k]) for k in range(piece.length)]
            name = f"Block {kept}"
            if len(block.pieces) > 1:
                name += f", piece {part} of {len(block.pieces)}"
            found[pairs[0][0]] = _Piece(str(kept), name, BLOCK_PALETTE[slot or 0], pairs)
    return found


class _SpanLookup:
    """Sorted character spans, asked which of them meet a stretch of text."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        self.spans = sorted(spans)
        self.starts = [s for s, _ in self.spans]

    def within(self, start: int, end: int) -> list[tuple[int, int]]:
        from bisect import bisect_left

        i = max(0, bisect_left(self.starts, start) - 1)
        found = []
        while i < len(self.spans) and self.spans[i][0] < end:
            s, e = self.spans[i]
            if e > start:
                found.append((max(s, start), min(e, end)))
            i += 1
        return found


def _verified_shared_spans(c: Comparison) -> tuple[_SpanLookup, _SpanLookup]:
    """The words each verified piece's sentences share with their partners (stop words too:
    a reader reads them), over the whole comparison."""
    pieces = shared_words(c)
    a = [(r.a_start, r.a_end) for p in pieces for r in p.runs]
    b = [(r.b_start, r.b_end) for p in pieces for r in p.runs]
    return _SpanLookup(a), _SpanLookup(b)


def _rows(
    c: Comparison,
    passage: Passage,
    anchors: Sequence[tuple[int, int]],
    shared_a: _SpanLookup,
    shared_b: _SpanLookup,
) -> Iterator[Row]:
    """The passage's rows: anchored pairs level with each other, the sentences between two
    anchors (or all of an edited passage's) side by side in order."""
    (a0, a1), (b0, b1) = passage.a_sentences, passage.b_sentences
    i, j = a0, b0
    for anchor_a, anchor_b in [*anchors, (a1, b1)]:
        for x, y in zip_longest(range(i, anchor_a), range(j, anchor_b)):
            yield Row(_cell(c.a, x, shared_a), _cell(c.b, y, shared_b))
        if anchor_a < a1 and anchor_b < b1:
            yield Row(_cell(c.a, anchor_a, shared_a), _cell(c.b, anchor_b, shared_b))
        i, j = anchor_a + 1, anchor_b + 1


def _cell(doc: Document, index: int | None, shared: _SpanLookup) -> Cell:
    if index is None:
        return Cell((), None)
    sentence = doc.sentences[index]
    runs: list[Run] = []
    position = sentence.start
    for start, end in shared.within(sentence.start, sentence.end):
        if start > position:
            runs.append(Run(doc.text[position:start], False))
        runs.append(Run(doc.text[start:end], True))
        position = end
    if position < sentence.end:
        runs.append(Run(doc.text[position : sentence.end], False))
    return Cell(tuple(_merged(runs)), index + 1)


def _merged(runs: Iterable[Run]) -> Iterator[Run]:
    """Neighbouring runs of one kind as one; whitespace between two shared runs stays shared,
    so a copied sentence reads as one emphasised stretch."""
    pending: Run | None = None
    for run in runs:
        if pending is not None and (
            pending.shared == run.shared or (not run.text.strip() and pending.shared)
        ):
            pending = Run(pending.text + run.text, pending.shared)
            continue
        if pending is not None:
            yield pending
        pending = run
    if pending is not None:
        yield pending


def _where(doc: Document, sentences: tuple[int, int], chars: tuple[int, int]) -> str:
    first, end = sentences
    span = f"sentence {first + 1:,}" if end - first == 1 else f"sentences {first + 1:,}–{end:,}"
    into = round(100 * chars[0] / max(1, len(doc.text)))
    return f"{span} of {doc.sentence_count:,}, {into}% into the document"

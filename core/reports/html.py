"""The HTML report of a folder check (`doppel batch --html DIR`): an index with the run summary
(and, when most pairs share one passage most of the class holds, a note saying so: the pasted
prompt of `core.batch.common_hint`), the pairs ranked by the verdict and the copied share, each
submission with the most of it found in one other document (more than two documents:
`core.batch.partners.standings`), a heatmap of the copied shares and the clusters, and one
side-by-side page per pair whose copied share is at or above the threshold
(`core.batch.clusters.reaches`, one rule with the listed pairs), with each copied passage in its
own colour: a verified block (word for word) filled, a reworded passage (edited) underlined with
a dashed line and the words it shares with the other side filled, what changed on hover. Its
heatmap is `core.reports.heatmap`'s, as in the window.

A pair page works out its passages from the documents it loads
(`core.detection.passages.build_passages`, with each document's `document_profile`): the
verified pieces and the reworded passages the check found, with the words each kind changed
(`word_changes_text`); the emphasised words are `passage_shared_words`.

Its words are `core.reports.wording`'s, as in the window and on the command line; the templates
word nothing on their own. Wording's `percent` (a measured share), `share_text` (a chosen one,
the threshold), `plural`, `LEFT_OUT`, the kinds' names (`KIND_WORDS`) and the verdict
(`COPIED_TEXT_FOUND`) are globals of every template (`report_environment`): a
number shown with its noun is `plural(n, "pair")`, never a hand-made "s". What a check left
out comes worded in the context (`_exclusion_view`: the `batch_left_out` lines; each pair page
side: the document's `exclusion_summary`), and the heatmap's legend is `bin_labels()`.

The report is self-contained (inline CSS and SVG, a few lines of optional inline script, no
network) so a teacher can open it from a USB stick or mail it. Every document text and file
name reaches the page through Jinja2's autoescaping: highlighted text is cut into
(text, block) segments here and the template escapes each one, so a submission containing
`<script>` shows as text and never runs. File names whose bytes are not UTF-8 are shown with
U+FFFD (`core.reports.batch_export.display_text`): every page is valid UTF-8.

The report is written whole or not at all: into a new folder beside DIR, then swapped in (the
earlier report moved aside, the new one renamed into place, the earlier one removed), so a
failure midway leaves the earlier report as it was, never an index linking to pages of
another check. Files the teacher put into an earlier report's folder are moved into the new
one. A folder that is not empty and holds no Doppel report is refused (`report_folder_problem`):
nothing is mixed into it, and no folder that is not a Doppel report is ever removed.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import pairwise
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from core.atomic import write_atomic
from core.batch.clusters import clusters, reaches
from core.batch.inputs import is_report_page
from core.batch.result import BatchDocument, BatchResult, PairResult
from core.detection.passages import (
    Passage,
    PassageKind,
    build_passages,
    passage_shared_words,
    piece_sentences,
)
from core.detection.reworded import RewordedPassage, document_profile
from core.detection.verification import VerifiedBlock
from core.documents.document import Document, with_exclusions
from core.documents.excluded_spans import ExcludedSpan, ExclusionKind
from core.errors import DocumentError
from core.reports.batch_export import display_text, submission_standings
from core.reports.heatmap import HEATMAP_BINS, bin_labels, heatmap
from core.reports.palette import BLOCK_PALETTE
from core.reports.wording import (
    LEFT_OUT,
    MOST_FOUND_IN,
    NOTHING_FOUND_IN_ANOTHER,
    PASSAGE_KIND_TITLES,
    PASSAGE_KINDS,
    batch_left_out,
    common_hint_text,
    exclusion_summary,
    passage_kinds,
    percent,
    plural,
    share_text,
    verdict,
    verdict_line,
    word_changes_text,
)
from core.resources import resource_path

#: the heatmap shows at most this many documents (the most involved); more is unreadable
MAX_HEATMAP_DOCUMENTS = 60
#: the index lists at most this many pairs (the highest ranked); every pair is in --json/--csv
MAX_TABLE_PAIRS = 5000
#: linking pairs listed under each cluster (the strongest)
MAX_CLUSTER_LINKS = 10
#: documents kept loaded while pair pages are written (a document is in several pairs)
LOADED_DOCUMENTS = 64
#: common passages listed on the index (the most widespread); every one is in --json
MAX_COMMON_PASSAGES = 200

PAIRS_FOLDER = "pairs"
_PAIR_PAGE = re.compile(r"^\d{4,}\.html$")
_TEMPORARY = re.compile(r"^\.(index|\d{4,})\.html\.[^/\\]*\.tmp$")

# heatmap geometry, in SVG user units (the SVG scales down to the page width): the matrix
# aims at this width, with cells between these sizes, and labels cut to this many characters
_MATRIX_WIDTH = 720
_CELL_SIZES = (12, 30)
_LABEL_CHARS = 28


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of document text and the passages covering it (1-based numbers)."""

    text: str
    block: int | None  # the passage whose colour it takes: the lowest covering it
    blocks: tuple[int, ...]  # every passage covering it (more than one where they overlap)
    starts: tuple[int, ...]  # passages that begin here (anchors and number badges go here)
    # left out of scoring: the first kind (in ExclusionKind's order) of the spans covering it
    excluded: ExclusionKind | None = None
    why: str = ""  # the covering spans' reasons, for the tooltip
    shared: bool = False  # inside a word to emphasise (shared with the other side)


@dataclass(frozen=True, slots=True)
class _Passage:
    """A copied passage as a pair page shows it."""

    number: int
    kind: PassageKind
    colour: str
    a_span: tuple[int, int]  # characters, [start, end); (0, 0) when the text is missing
    b_span: tuple[int, int]
    a_sentences: tuple[int, int]  # 1-based sentence numbers, first and last
    b_sentences: tuple[int, int]
    changes: str  # what changed, in words ("" when a document could not be loaded)
    excerpt: str

    @property
    def label(self) -> str:
        """ "word for word" or "edited"."""
        return PASSAGE_KINDS[self.kind]

    @property
    def title(self) -> str:
        """The tooltip of its text: "Passage 3, edited: 9 of 12 words the same; 3 replaced"."""
        head = f"Passage {self.number}, {self.label}"
        return f"{head}: {self.changes}" if self.changes else head


@dataclass(frozen=True, slots=True)
class _PairRow:
    rank: int
    pair: PairResult
    name_a: str
    name_b: str
    href: str | None  # from the index; None below the threshold
    above: bool

    @property
    def headline(self) -> str:
        """The verdict, both shares and the passages, with the documents' names."""
        pair = self.pair
        kinds = passage_kinds(pair.verified_blocks, pair.reworded_passages)
        return verdict_line(
            pair.flagged, pair.copied_a, pair.copied_b, kinds, self.name_a, self.name_b
        )


@dataclass(frozen=True, slots=True)
class _Cell:
    x: int
    y: int
    colour: str
    title: str
    href: str | None


def pair_page_name(rank: int) -> str:
    """The file name of the pair ranked `rank` (1-based) under `pairs/`."""
    return f"{rank:04d}.html"


class ReportFolderError(OSError):
    """The report cannot be written into the folder asked for (`str(error)` says why)."""

    def __init__(self, folder: Path, reason: str) -> None:
        super().__init__(f"{folder}: {reason}")
        self.folder = folder
        self.reason = reason


def report_folder_problem(folder: str | Path) -> str | None:
    """Why a report must not be written into `folder`, or None: it may be a new folder, an
    empty one, or an earlier Doppel report (its index carries Doppel's marker)."""
    target = Path(folder)
    if not target.exists() and not target.is_symlink():
        return None
    if not target.is_dir():
        return "it is a file, not a folder"
    try:
        names = [entry.name for entry in os.scandir(target)]
    except OSError as error:
        return f"the folder cannot be read ({error.strerror or error})"
    if not [name for name in names if not name.startswith(".")]:
        return None  # empty (or a .DS_Store): nothing to mix with
    if is_report_page(target / "index.html"):
        return None
    return (
        "the folder is not empty and holds no Doppel report: choose an empty folder or a new "
        "name (nothing in it was changed)"
    )


def write_html_report(
    result: BatchResult,
    folder: str | Path,
    *,
    threshold: float,
    load_document: Callable[[BatchDocument], Document],
) -> Path:
    """Write the report into `folder` (created if needed) and return the path of its index.

    `load_document` gives the full Document (text, sentences) of a BatchDocument; it is called
    only for documents in pairs at or above `threshold`, and a document it cannot load is named
    on its pair pages instead of failing the report. The report is written into a folder of
    its own beside `folder` and swapped in whole (`_install`): an earlier report there is
    replaced only by a complete one, and files the teacher added to it are kept. Raises
    ReportFolderError for a folder that is not empty and holds no Doppel report."""
    target = Path(os.path.realpath(folder))  # (a link to a folder: the folder it names)
    problem = report_folder_problem(target)
    if problem is not None:
        raise ReportFolderError(target, problem)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = _new_folder(target.parent, f".{target.name}.new-")
    try:
        _write_report(result, staging, threshold=threshold, load_document=load_document)
        _install(staging, target)
    except BaseException:
        _remove_report(staging, everything=True)
        raise
    return Path(folder) / "index.html"


def _write_page(path: Path, html: str) -> Path:
    """One page, atomically, in UTF-8 whatever the file names in it."""
    return write_atomic(path, display_text(html))


def _write_report(
    result: BatchResult,
    target: Path,
    *,
    threshold: float,
    load_document: Callable[[BatchDocument], Document],
) -> Path:
    """The report's files, written into the (new, empty) folder `target`."""
    env = report_environment()
    names = display_names(result)
    generated = datetime.now().strftime("%Y-%m-%d %H:%M")

    rows = [
        _PairRow(
            rank=rank,
            pair=pair,
            name_a=names[pair.a],
            name_b=names[pair.b],
            href=f"{PAIRS_FOLDER}/{pair_page_name(rank)}" if reaches(pair, threshold) else None,
            above=reaches(pair, threshold),
        )
        for rank, pair in enumerate(result.pairs, start=1)
    ]
    linked = [row for row in rows if row.above]

    pair_template = env.get_template("pair.html")
    loader = _DocumentLoader(result.documents, load_document)
    for position, row in enumerate(linked):
        page = pair_page_name(row.rank)
        previous = linked[position - 1] if position > 0 else None
        following = linked[position + 1] if position + 1 < len(linked) else None
        html = pair_template.render(
            **_pair_context(result, row, loader, threshold),
            previous=pair_page_name(previous.rank) if previous else None,
            next=pair_page_name(following.rank) if following else None,
            linked_count=len(linked),
            generated=generated,
        )
        _write_page(target / PAIRS_FOLDER / page, html)

    groups = clusters(result.pairs, threshold)
    index = env.get_template("index.html").render(
        exclusions=_exclusion_view(result),
        result=result,
        names=names,
        threshold=threshold,
        rows=rows[:MAX_TABLE_PAIRS],
        total_pairs=len(rows),
        table_capped=len(rows) > MAX_TABLE_PAIRS,
        max_table_pairs=MAX_TABLE_PAIRS,
        above_count=len(linked),
        archive_count=sum(1 for d in result.documents if d.archive),
        failed=list(zip(failed_names(result), result.failed, strict=True)),
        disguised=[
            (names[k], [t.message for t in d.tampering])
            for k, d in enumerate(result.documents)
            if d.tampering
        ],
        heatmap=_heatmap(result, names, rows, threshold),
        clusters=_cluster_views(groups, names, rows, result),
        submissions=_submission_views(result, names, rows),
        hint=_hint_view(result),
        generated=generated,
    )
    return _write_page(target / "index.html", index)


def highlight_segments(
    text: str,
    spans: Sequence[tuple[int, int]],
    excluded: Sequence[ExcludedSpan] = (),
    shared: Sequence[tuple[int, int]] = (),
) -> list[Segment]:
    """Cut `text` into segments by the character spans of passages 1..n (spans may overlap;
    empty or out-of-range parts are clipped), by the edges of the `excluded` spans, which
    segments note (shaded on the page), and by the `shared` spans (words to emphasise).
    Joined, the segments' texts are `text`."""
    starts_at: dict[int, list[int]] = {}
    ends_at: dict[int, list[int]] = {}
    cuts = {0, len(text)}
    emphasis_from: dict[int, int] = {}  # emphasised spans by where they start and end
    emphasis_to: dict[int, int] = {}
    for start, end in shared:
        start, end = max(0, start), min(len(text), end)
        if start < end:
            emphasis_from[start] = emphasis_from.get(start, 0) + 1
            emphasis_to[end] = emphasis_to.get(end, 0) + 1
            cuts.update((start, end))
    for number, (start, end) in enumerate(spans, start=1):
        start, end = max(0, start), min(len(text), end)
        if start >= end:
            continue
        starts_at.setdefault(start, []).append(number)
        ends_at.setdefault(end, []).append(number)
        cuts.update((start, end))
    out_from: dict[int, list[int]] = {}  # excluded spans by where they start and end
    out_to: dict[int, list[int]] = {}
    for k, span in enumerate(excluded):
        start, end = max(0, span.start), min(len(text), span.end)
        if start < end:
            out_from.setdefault(start, []).append(k)
            out_to.setdefault(end, []).append(k)
            cuts.update((start, end))
    kinds = list(ExclusionKind)
    ordered = sorted(cuts)
    segments: list[Segment] = []
    active: set[int] = set()
    out: set[int] = set()
    emphasised = 0  # emphasised spans open here
    for here, there in pairwise(ordered):
        active.difference_update(ends_at.get(here, ()))
        out.difference_update(out_to.get(here, ()))
        emphasised += emphasis_from.get(here, 0) - emphasis_to.get(here, 0)
        beginning = tuple(sorted(starts_at.get(here, ())))
        active.update(beginning)
        out.update(out_from.get(here, ()))
        covering = tuple(sorted(active))
        kind, why = None, ""
        if out:
            covered_by = sorted((excluded[k] for k in out), key=lambda e: kinds.index(e.kind))
            kind = covered_by[0].kind
            why = "; ".join(
                dict.fromkeys(
                    e.kind.label + (f" ({e.detail})" if e.detail else "") for e in covered_by
                )
            )
        piece = text[here:there]
        last = segments[-1] if segments else None
        if (
            last is not None
            and not beginning
            and last.blocks == covering
            and (last.excluded, last.why, last.shared) == (kind, why, emphasised > 0)
        ):
            segments[-1] = replace(last, text=last.text + piece)
        else:
            segments.append(
                Segment(
                    piece,
                    covering[0] if covering else None,
                    covering,
                    beginning,
                    kind,
                    why,
                    emphasised > 0,
                )
            )
    return segments


def display_names(result: BatchResult) -> list[str]:
    """Each document's path relative to the folder all inputs share, so two students'
    `essay.docx` stay apart (the full path where that still leaves two names the same); bytes
    of a name that are not UTF-8 shown as U+FFFD (`display_text`: for showing, never for
    opening the file)."""
    return _names([d.path for d in result.documents], result)


def failed_names(result: BatchResult) -> list[str]:
    """The files that failed, named the same way as the documents."""
    return _names([f.path for f in result.failed], result)


def _names(paths: Sequence[Path], result: BatchResult) -> list[str]:
    every = [d.path for d in result.documents] + [f.path for f in result.failed]
    try:
        root: Path | None = Path(os.path.commonpath([str(p.parent) for p in every]))
    except ValueError:  # no paths, absolute and relative mixed, or different drives
        root = None
    names = [display_text(_relative(path, root)) for path in paths]
    seen: dict[str, int] = {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
    return [
        display_text(str(path)) if seen[name] > 1 else name
        for path, name in zip(paths, names, strict=True)
    ]


def _relative(path: Path, root: Path | None) -> str:
    if root is not None:
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            pass
    return path.name


def report_environment() -> Environment:
    # autoescape=True for every template, whatever its file name: no document text or file
    # name ever reaches a page unescaped (and no template marks document content |safe)
    env = Environment(
        loader=FileSystemLoader(str(resource_path("report"))),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    # the words every surface shares (their results are escaped like any other text)
    env.globals.update(
        percent=percent,
        share_text=share_text,
        plural=plural,
        LEFT_OUT=LEFT_OUT,
        # each kind of passage in words, by its JSON name: KIND_WORDS["reworded"] == "edited"
        KIND_WORDS={kind.value: words for kind, words in PASSAGE_KINDS.items()},
        COPIED_TEXT_FOUND=verdict(True),
        MOST_FOUND_IN=MOST_FOUND_IN,
        NOTHING_FOUND_IN_ANOTHER=NOTHING_FOUND_IN_ANOTHER,
    )
    return env


class _DocumentLoader:
    """Loads full documents on demand, keeping the most recently used few."""

    def __init__(
        self,
        documents: Sequence[BatchDocument],
        load: Callable[[BatchDocument], Document],
    ) -> None:
        self._documents = documents
        self._load = load
        self._kept: OrderedDict[int, Document | str] = OrderedDict()

    def get(self, index: int) -> Document | str:
        """The document, or the reason it could not be loaded."""
        if index in self._kept:
            self._kept.move_to_end(index)
            return self._kept[index]
        loaded: Document | str
        batch = self._documents[index]
        try:
            loaded = self._load(batch)
        except (DocumentError, OSError) as error:  # moved or deleted since the check
            loaded = f"its text could not be read again ({error})"
        if (
            isinstance(loaded, Document)
            and loaded.excluded != batch.excluded
            and loaded.content_hash == batch.content_hash
        ):
            # what the check left out, so the pieces point at the sentences it scored
            loaded = with_exclusions(loaded, batch.excluded)
        self._kept[index] = loaded
        if len(self._kept) > LOADED_DOCUMENTS:
            self._kept.popitem(last=False)
        return loaded


def _pair_context(
    result: BatchResult, row: _PairRow, loader: _DocumentLoader, threshold: float
) -> dict[str, object]:
    pair = row.pair
    batch_a, batch_b = result.documents[pair.a], result.documents[pair.b]
    doc_a, doc_b = loader.get(pair.a), loader.get(pair.b)
    notes: list[str] = []
    for side, batch, doc in (("A", batch_a, doc_a), ("B", batch_b, doc_b)):
        name = row.name_a if side == "A" else row.name_b
        notes += [f"{side} ({name}) was disguised: {t.message}." for t in batch.tampering]
        if isinstance(doc, str):
            notes.append(f"{side} ({name}): {doc}")
        elif doc.content_hash != batch.content_hash:
            notes.append(
                f"{side} ({name}) has changed since the check: the highlighted passages may "
                "not match what was compared"
            )

    pieces = [p for p in pair.pieces if _fits(p, doc_a, doc_b)]
    reworded = [r for r in pair.reworded if _fits_reworded(r, doc_a, doc_b)]
    for kept, found, what in (
        (pieces, pair.pieces, "block"),
        (reworded, pair.reworded, "edited passage"),
    ):
        outside = len(found) - len(kept)
        if outside:
            notes.append(
                f"{plural(outside, what)} "
                + (
                    "falls outside the current text and is not shown"
                    if outside == 1
                    else "fall outside the current text and are not shown"
                )
            )
    passages, shared_a, shared_b = _passages(batch_a, batch_b, doc_a, doc_b, pieces, reworded)
    sides = [
        _side("a", row.name_a, batch_a, doc_a, [p.a_span for p in passages], shared_a),
        _side("b", row.name_b, batch_b, doc_b, [p.b_span for p in passages], shared_b),
    ]
    shown = {
        span.kind for doc in (doc_a, doc_b) if isinstance(doc, Document) for span in doc.excluded
    }
    return {
        "row": row,
        "pair": pair,
        "threshold": threshold,
        "passages": passages,
        # by passage number: its kind (the CSS class) and its tooltip
        "kinds": {p.number: p.kind.value for p in passages},
        "titles": {p.number: p.title for p in passages},
        # the legend: both kinds, always (a page says what each style means)
        "passage_kinds": [
            {"kind": kind.value, "label": PASSAGE_KINDS[kind], "title": PASSAGE_KIND_TITLES[kind]}
            for kind in PassageKind
        ],
        "notes": notes,
        "palette": BLOCK_PALETTE,
        "sides": sides,
        # the kinds of excluded text shaded on this page, for the legend
        "excluded_kinds": [kind for kind in ExclusionKind if kind in shown],
    }


def _passages(
    batch_a: BatchDocument,
    batch_b: BatchDocument,
    doc_a: Document | str,
    doc_b: Document | str,
    pieces: Sequence[VerifiedBlock],
    reworded: Sequence[RewordedPassage],
) -> tuple[list[_Passage], list[tuple[int, int]], list[tuple[int, int]]]:
    """The pair's passages of both kinds in the order of A, numbered from 1, and the words of
    its reworded passages to emphasise on each side. With both documents loaded, the passages
    are `build_passages`' on them (with what changed); otherwise the sentences come from the
    check's records and the text from the side that loaded, if any."""
    if isinstance(doc_a, Document) and isinstance(doc_b, Document):
        found = build_passages(
            doc_a, doc_b, document_profile(doc_a), document_profile(doc_b), pieces, reworded
        )
        shared_a: list[tuple[int, int]] = []
        shared_b: list[tuple[int, int]] = []
        views = []
        for number, passage in enumerate(found, start=1):
            views.append(_passage_view(number, passage.kind, doc_a, doc_b, passage))
            if passage.kind is PassageKind.REWORDED:
                words_a, words_b = passage_shared_words(doc_a, doc_b, passage)
                shared_a += words_a
                shared_b += words_b
        return views, shared_a, shared_b
    ranges = [
        (*piece_sentences(batch_a.signature, batch_b.signature, piece), PassageKind.VERIFIED)
        for piece in pieces
    ]
    ranges += [(r.a_sentences, r.b_sentences, PassageKind.REWORDED) for r in reworded]
    ranges.sort()
    views = [
        _passage_view(number, kind, doc_a, doc_b, (a_range, b_range))
        for number, (a_range, b_range, kind) in enumerate(ranges, start=1)
    ]
    return views, [], []


def _passage_view(
    number: int,
    kind: PassageKind,
    doc_a: Document | str,
    doc_b: Document | str,
    found: Passage | tuple[tuple[int, int], tuple[int, int]],
) -> _Passage:
    if isinstance(found, Passage):
        a_range, b_range = found.a_sentences, found.b_sentences
        a_span, b_span = found.a_chars, found.b_chars
        changes = word_changes_text(found.changes)
    else:
        a_range, b_range = found
        a_span, b_span = _sentence_span(doc_a, a_range), _sentence_span(doc_b, b_range)
        changes = ""
    return _Passage(
        number=number,
        kind=kind,
        colour=BLOCK_PALETTE[(number - 1) % len(BLOCK_PALETTE)],
        a_span=a_span,
        b_span=b_span,
        a_sentences=(a_range[0] + 1, a_range[1]),
        b_sentences=(b_range[0] + 1, b_range[1]),
        changes=changes,
        excerpt=_excerpt(doc_a, a_span) or _excerpt(doc_b, b_span),
    )


def _fits(piece: VerifiedBlock, a: Document | str, b: Document | str) -> bool:
    for doc, start in ((a, piece.a_start), (b, piece.b_start)):
        if isinstance(doc, Document) and (
            piece.length < 1 or start < 0 or start + piece.length > len(doc.signature)
        ):
            return False
    return True


def _fits_reworded(passage: RewordedPassage, a: Document | str, b: Document | str) -> bool:
    for doc, (first, end) in ((a, passage.a_sentences), (b, passage.b_sentences)):
        if isinstance(doc, Document) and not 0 <= first < end <= doc.sentence_count:
            return False
    return True


def _sentence_span(doc: Document | str, sentences: tuple[int, int]) -> tuple[int, int]:
    """The characters of sentences [first, end), or (0, 0) without the text."""
    first, end = sentences
    if not isinstance(doc, Document) or not 0 <= first < end <= doc.sentence_count:
        return (0, 0)
    return doc.sentences[first].start, doc.sentences[end - 1].end


def _excerpt(doc: Document | str, span: tuple[int, int], limit: int = 90) -> str:
    if not isinstance(doc, Document):
        return ""
    text = " ".join(doc.text[span[0] : span[1]].split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _side(
    key: str,
    name: str,
    batch: BatchDocument,
    doc: Document | str,
    spans: list[tuple[int, int]],
    shared: list[tuple[int, int]],
) -> dict[str, object]:
    if isinstance(doc, str):
        return {
            "key": key,
            "name": name,
            "batch": batch,
            "segments": [],
            "missing": doc,
            "left_out": [],
        }
    return {
        "key": key,
        "name": name,
        "batch": batch,
        "segments": highlight_segments(doc.text, spans, doc.excluded, shared),
        "missing": None,
        # what the page shades, in the window's words
        "left_out": exclusion_summary(doc),
    }


def _exclusion_view(result: BatchResult) -> dict[str, object] | None:
    """What the index says about exclusions, in the window's and the command line's words
    (`batch_left_out`): what was asked for, what it left out, and the common text found. None
    when no exclusion was asked for."""
    left = batch_left_out(result)
    if left is None:
        return None
    return {
        "asked": left.asked,
        "totals": left.totals,
        "sentences": left.sentences,
        "common_on": left.common is not None,
        "common": left.common or "",
        "passages": result.common_text[:MAX_COMMON_PASSAGES],
        "passage_count": len(result.common_text),
        "capped": len(result.common_text) > MAX_COMMON_PASSAGES,
        "max_passages": MAX_COMMON_PASSAGES,
        "counted": result.common_counted,
    }


def _heatmap(
    result: BatchResult, names: list[str], rows: list[_PairRow], threshold: float
) -> dict[str, object] | None:
    """The matrix of `core.reports.heatmap` (the pairs at or above the threshold, the most
    involved documents, cluster by cluster), laid out in SVG units. None when no pair reaches
    the threshold."""
    shown = heatmap(result, threshold, MAX_HEATMAP_DOCUMENTS)
    order = shown.documents
    if not order:
        return None
    cell = max(_CELL_SIZES[0], min(_CELL_SIZES[1], _MATRIX_WIDTH // len(order)))
    font = max(9, min(12, round(cell * 0.62)))
    longest = max(len(_shorten(names[i])) for i in order)
    label_width = round(longest * font * 0.62) + 10  # about the widest label
    top = label_width  # the column labels are the same names, rotated
    size = len(order) * cell
    cells: list[_Cell] = []
    for heat in shown.cells:
        row, pair = rows[heat.index], heat.pair
        title = f"{row.headline}; Jaccard (the paper's score) {percent(pair.jaccard)}"
        cells.append(
            _Cell(
                x=label_width + heat.column * cell,
                y=top + heat.row * cell,
                colour=heat.colour,
                title=title,
                href=row.href,
            )
        )
    labels = [
        {
            "position": position,
            "index": index,
            "short": _shorten(names[index]),
            "name": names[index],
            "archive": result.documents[index].archive,
        }
        for position, index in enumerate(order)
    ]
    boxes = [
        {"x": label_width + first * cell, "y": top + first * cell, "size": count * cell - 1}
        for first, count in shown.groups
    ]
    legend = [
        {"colour": colour, "label": label}
        for (_, colour), label in zip(HEATMAP_BINS, bin_labels(), strict=True)
    ]
    return {
        "cells": cells,
        "labels": labels,
        "cell": cell,
        "font": font,
        "label_width": label_width,
        "top": top,
        "width": label_width + size + 4,
        "height": top + size + 4,
        "size": size,
        "shown": len(order),
        "involved": shown.involved,
        "capped": shown.capped,
        "legend": legend,
        "boxes": boxes,
    }


def _shorten(name: str) -> str:
    return name if len(name) <= _LABEL_CHARS else "…" + name[-(_LABEL_CHARS - 1) :]


def _cluster_views(
    groups: list[list[int]], names: list[str], rows: list[_PairRow], result: BatchResult
) -> list[dict[str, object]]:
    member_of = {index: number for number, group in enumerate(groups) for index in group}
    links: dict[int, list[_PairRow]] = {}
    for row in rows:  # ranked: the strongest links come first
        home = member_of.get(row.pair.a)
        if row.above and home is not None and member_of.get(row.pair.b) == home:
            links.setdefault(home, []).append(row)
    views: list[dict[str, object]] = []
    for number, group in enumerate(groups):
        found = links.get(number, [])
        views.append(
            {
                "number": number + 1,
                "members": [
                    {"name": names[i], "archive": result.documents[i].archive} for i in group
                ],
                "links": found[:MAX_CLUSTER_LINKS],
                "link_count": len(found),
            }
        )
    return views


def _submission_views(
    result: BatchResult, names: list[str], rows: list[_PairRow]
) -> list[dict[str, object]]:
    """Each submission with the most of it found in one other document, most first, and the
    pair's row (its page, when it reaches the threshold); [] for two documents or fewer (the
    one pair says it all)."""
    if len(result.documents) <= 2:
        return []
    row_of = {frozenset((row.pair.a, row.pair.b)): row for row in rows}
    views: list[dict[str, object]] = []
    for standing in submission_standings(result):
        d, partner = standing.document, standing.partner
        row = None
        if partner is not None:
            row = row_of.get(frozenset((d, partner)))
        views.append(
            {
                "name": names[d],
                "archive": result.documents[d].archive,
                "share": standing.share,
                "partner": names[partner] if partner is not None else None,
                "partner_archive": partner is not None and result.documents[partner].archive,
                "pairs": standing.pairs,
                "href": row.href if row is not None else None,
                "headline": row.headline if row is not None else "",
            }
        )
    return views


def _hint_view(result: BatchResult) -> dict[str, object] | None:
    """The pasted prompt the check noticed, in the window's words, or None."""
    hint = result.common_hint
    if hint is None:
        return None
    return {
        "message": common_hint_text(hint),
        "share": hint.share,
        "passages": hint.passages[:MAX_COMMON_PASSAGES],
        "counted": hint.counted,
    }


def _new_folder(parent: Path, prefix: str) -> Path:
    """A new, empty folder in `parent` with a name no other has (the mode a plain mkdir
    gives)."""
    while True:
        folder = parent / f"{prefix}{secrets.token_hex(4)}"
        try:
            folder.mkdir()
            return folder
        except FileExistsError:
            continue


def _owned(folder: Path, entry: Path) -> bool:
    """Whether `entry` of the report folder `folder` is one of the report's own files (its
    index, its pair pages and their folder): everything else is the teacher's."""
    relative = entry.relative_to(folder).parts
    if relative in (("index.html",), (PAIRS_FOLDER,)):
        return True
    return (
        len(relative) == 2
        and relative[0] == PAIRS_FOLDER
        and _PAIR_PAGE.match(relative[1]) is not None
    )


def _install(staging: Path, target: Path) -> None:
    """Put the complete report `staging` where `target` is: renamed into place when there is
    nothing there; else the earlier folder moved aside, the new one renamed into place, the
    teacher's own files moved over from the earlier one, and the earlier report's own files
    removed. Where the earlier folder cannot be moved (a program holds it open, on Windows),
    the new files replace the earlier report's one by one, the index last."""
    if not target.exists():
        staging.rename(target)
        return
    with contextlib.suppress(OSError):
        staging.chmod(stat.S_IMODE(target.stat().st_mode))  # the earlier folder's mode
    aside = target.with_name(f".{target.name}.old-{secrets.token_hex(4)}")
    try:
        target.rename(aside)
    except OSError:
        _install_in_place(staging, target)
        return
    try:
        staging.rename(target)
    except BaseException:
        aside.rename(target)  # the earlier report, as it was
        raise
    try:
        _carry_over(aside, target)
        _remove_report(aside)
    except OSError:
        pass  # the new report is in place; whatever is left stays in `aside`, never lost


def _carry_over(old: Path, new: Path) -> None:
    """Move what the teacher put into the earlier report folder `old` (not its own files)
    into the new report `new`; anything that cannot be moved stays in `old`."""
    for entry in sorted(old.iterdir()):
        if entry.name == PAIRS_FOLDER and entry.is_dir() and not entry.is_symlink():
            for inner in sorted(entry.iterdir()):
                if not _owned(old, inner):
                    _move(inner, new / PAIRS_FOLDER / inner.name)
        elif not _owned(old, entry):
            _move(entry, new / entry.name)


def _move(source: Path, destination: Path) -> None:
    if destination.exists() or destination.is_symlink():
        return
    try:
        destination.parent.mkdir(exist_ok=True)
        source.rename(destination)
    except OSError:
        pass  # left where it was: never lost


def _remove_report(folder: Path, *, everything: bool = False) -> None:
    """Remove a report's own files from `folder` (index.html, the pair pages, the write's
    temporary files) and the folder if that leaves it empty: nothing else. With
    `everything`, `folder` is a new folder this write made, and all of it goes."""
    pairs = folder / PAIRS_FOLDER
    for directory in (pairs, folder):
        try:
            entries = list(directory.iterdir())
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir() and not entry.is_symlink():
                continue
            if everything or _owned(folder, entry) or _is_temporary(entry.name):
                entry.unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            directory.rmdir()  # (not when something of the teacher's is in it: it stays)


def _is_temporary(name: str) -> bool:
    """A temporary file `write_atomic` left of a report file (".index.html.x1y2.tmp")."""
    return _TEMPORARY.match(name) is not None


def _install_in_place(staging: Path, target: Path) -> None:
    """Replace the earlier report's files in `target` with the new ones of `staging`, each
    atomically: the pair pages first, then the index (so the index never links to a page
    that is not there), then the earlier pages this report has not; `staging` is removed."""
    pairs = target / PAIRS_FOLDER
    pairs.mkdir(exist_ok=True)
    written = set()
    staged_pairs = staging / PAIRS_FOLDER
    if staged_pairs.is_dir():
        for page in sorted(staged_pairs.iterdir()):
            page.replace(pairs / page.name)
            written.add(page.name)
    (staging / "index.html").replace(target / "index.html")
    for entry in pairs.iterdir():
        if entry.is_file() and _PAIR_PAGE.match(entry.name) and entry.name not in written:
            entry.unlink(missing_ok=True)
    _remove_report(staging, everything=True)

"""The HTML report of a folder check (`doppel batch --html DIR`): an index with the run summary,
the ranked pairs, a similarity heatmap and the clusters, and one side-by-side page per pair at
or above the threshold with each verified block in its own colour. Its heatmap is
`core.reports.heatmap`'s, as in the window.

Its words are `core.reports.wording`'s, as in the window and on the command line; the templates
word nothing on their own. Wording's `percent` (a measured share), `share_text` (a chosen one,
the threshold), `plural` and `LEFT_OUT` are globals of every template (`_environment`): a
number shown with its noun is `plural(n, "pair")`, never a hand-made "s". What a check left
out comes worded in the context (`_exclusion_view`: the `batch_left_out` lines; each pair page
side: the document's `exclusion_summary`), and the heatmap's legend is `bin_labels()`.

The report is self-contained (inline CSS and SVG, a few lines of optional inline script, no
network) so a teacher can open it from a USB stick or mail it. Every document text and file
name reaches the page through Jinja2's autoescaping: highlighted text is cut into
(text, block) segments here and the template escapes each one, so a submission containing
`<script>` shows as text and never runs. Every file goes through `write_atomic`; pair pages are
written before the index, so the index never links to a page that is not complete.
"""

from __future__ import annotations

import os
import re
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from core.atomic import write_atomic
from core.batch.clusters import clusters
from core.batch.result import BatchDocument, BatchResult, PairResult
from core.detection.verification import VerifiedBlock
from core.documents.document import Document, with_exclusions
from core.documents.excluded_spans import ExcludedSpan, ExclusionKind
from core.errors import DocumentError
from core.reports.heatmap import HEATMAP_BINS, bin_labels, heatmap
from core.reports.wording import (
    LEFT_OUT,
    batch_left_out,
    exclusion_summary,
    percent,
    plural,
    share_text,
)
from core.resources import resource_path

#: Paul Tol's colour-blind-safe "light" scheme, in his order (the app's side-by-side view uses
#: the same colours in the same order along A: app/gui/compare/colours.py)
BLOCK_PALETTE: tuple[str, ...] = (
    "#77AADD",
    "#EE8866",
    "#EEDD88",
    "#FFAABB",
    "#99DDFF",
    "#44BB99",
    "#BBCC33",
    "#AAAA00",
)

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

# heatmap geometry, in SVG user units (the SVG scales down to the page width): the matrix
# aims at this width, with cells between these sizes, and labels cut to this many characters
_MATRIX_WIDTH = 720
_CELL_SIZES = (12, 30)
_LABEL_CHARS = 28


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of document text and the verified blocks covering it (1-based numbers)."""

    text: str
    block: int | None  # the block whose colour it takes: the lowest covering it
    blocks: tuple[int, ...]  # every block covering it (more than one where pieces overlap)
    starts: tuple[int, ...]  # blocks that begin here (anchors and number badges go here)
    # left out of scoring: the first kind (in ExclusionKind's order) of the spans covering it
    excluded: ExclusionKind | None = None
    why: str = ""  # the covering spans' reasons, for the tooltip


@dataclass(frozen=True, slots=True)
class _Block:
    number: int
    colour: str
    a_span: tuple[int, int]
    b_span: tuple[int, int]
    a_sentences: tuple[int, int]  # 1-based sentence numbers, first and last
    b_sentences: tuple[int, int]
    length: int
    excerpt: str


@dataclass(frozen=True, slots=True)
class _PairRow:
    rank: int
    pair: PairResult
    name_a: str
    name_b: str
    href: str | None  # from the index; None below the threshold
    above: bool


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
    on its pair pages instead of failing the report. Files the report owns (index.html and
    pairs/NNNN.html) are replaced, stale pair pages of an earlier report removed, and anything
    else in the folder left alone."""
    target = Path(folder)
    env = _environment()
    names = display_names(result)
    generated = datetime.now().strftime("%Y-%m-%d %H:%M")

    rows = [
        _PairRow(
            rank=rank,
            pair=pair,
            name_a=names[pair.a],
            name_b=names[pair.b],
            href=f"{PAIRS_FOLDER}/{pair_page_name(rank)}" if pair.jaccard >= threshold else None,
            above=pair.jaccard >= threshold,
        )
        for rank, pair in enumerate(result.pairs, start=1)
    ]
    linked = [row for row in rows if row.above]

    pair_template = env.get_template("pair.html")
    loader = _DocumentLoader(result.documents, load_document)
    written: set[str] = set()
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
        write_atomic(target / PAIRS_FOLDER / page, html)
        written.add(page)
    _remove_stale_pair_pages(target / PAIRS_FOLDER, written)

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
        heatmap=_heatmap(result, names, rows, threshold),
        clusters=_cluster_views(groups, names, rows, result),
        generated=generated,
    )
    return write_atomic(target / "index.html", index)


def highlight_segments(
    text: str, spans: Sequence[tuple[int, int]], excluded: Sequence[ExcludedSpan] = ()
) -> list[Segment]:
    """Cut `text` into segments by the character spans of blocks 1..n (spans may overlap;
    empty or out-of-range parts are clipped), and by the edges of the `excluded` spans, which
    segments note (shaded on the page). Joined, the segments' texts are `text`."""
    starts_at: dict[int, list[int]] = {}
    ends_at: dict[int, list[int]] = {}
    cuts = {0, len(text)}
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
    for here, there in pairwise(ordered):
        active.difference_update(ends_at.get(here, ()))
        out.difference_update(out_to.get(here, ()))
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
            and (last.excluded, last.why) == (kind, why)
        ):
            segments[-1] = Segment(
                last.text + piece, last.block, last.blocks, last.starts, last.excluded, last.why
            )
        else:
            segments.append(
                Segment(piece, covering[0] if covering else None, covering, beginning, kind, why)
            )
    return segments


def display_names(result: BatchResult) -> list[str]:
    """Each document's path relative to the folder all inputs share, so two students'
    `essay.docx` stay apart (the full path where that still leaves two names the same)."""
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
    names = [_relative(path, root) for path in paths]
    seen: dict[str, int] = {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
    return [str(path) if seen[name] > 1 else name for path, name in zip(paths, names, strict=True)]


def _relative(path: Path, root: Path | None) -> str:
    if root is not None:
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            pass
    return path.name


def _environment() -> Environment:
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
    env.globals.update(percent=percent, share_text=share_text, plural=plural, LEFT_OUT=LEFT_OUT)
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
        if isinstance(doc, str):
            notes.append(f"{side} ({name}): {doc}")
        elif doc.content_hash != batch.content_hash:
            notes.append(
                f"{side} ({name}) has changed since the check: the highlighted passages may "
                "not match what was compared"
            )

    blocks: list[_Block] = []
    pieces = [p for p in pair.pieces if _fits(p, doc_a, doc_b)]
    if len(pieces) < len(pair.pieces):
        outside = len(pair.pieces) - len(pieces)
        notes.append(
            f"{plural(outside, 'block')} "
            + (
                "falls outside the current text and is not shown"
                if outside == 1
                else "fall outside the current text and are not shown"
            )
        )
    for number, piece in enumerate(pieces, start=1):
        a_span = _span(doc_a, piece.a_start, piece.length)
        b_span = _span(doc_b, piece.b_start, piece.length)
        blocks.append(
            _Block(
                number=number,
                colour=BLOCK_PALETTE[(number - 1) % len(BLOCK_PALETTE)],
                a_span=a_span,
                b_span=b_span,
                a_sentences=_sentence_numbers(doc_a, piece.a_start, piece.length),
                b_sentences=_sentence_numbers(doc_b, piece.b_start, piece.length),
                length=piece.length,
                excerpt=_excerpt(doc_a, a_span) or _excerpt(doc_b, b_span),
            )
        )
    sides = [
        _side("a", row.name_a, batch_a, doc_a, [b.a_span for b in blocks]),
        _side("b", row.name_b, batch_b, doc_b, [b.b_span for b in blocks]),
    ]
    shown = {
        span.kind for doc in (doc_a, doc_b) if isinstance(doc, Document) for span in doc.excluded
    }
    return {
        "row": row,
        "pair": pair,
        "threshold": threshold,
        "blocks": blocks,
        "notes": notes,
        "palette": BLOCK_PALETTE,
        "sides": sides,
        # the kinds of excluded text shaded on this page, for the legend
        "excluded_kinds": [kind for kind in ExclusionKind if kind in shown],
    }


def _fits(piece: VerifiedBlock, a: Document | str, b: Document | str) -> bool:
    for doc, start in ((a, piece.a_start), (b, piece.b_start)):
        if isinstance(doc, Document) and (
            piece.length < 1 or start < 0 or start + piece.length > len(doc.signature)
        ):
            return False
    return True


def _span(doc: Document | str, position: int, length: int) -> tuple[int, int]:
    return doc.chars_of(position, length) if isinstance(doc, Document) else (0, 0)


def _sentence_numbers(doc: Document | str, position: int, length: int) -> tuple[int, int]:
    if not isinstance(doc, Document):
        return (0, 0)
    indices = doc.signature.sentence_indices
    return indices[position] + 1, indices[position + length - 1] + 1


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
        "segments": highlight_segments(doc.text, spans, doc.excluded),
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
        title = (
            f"{row.name_a} \u2194 {row.name_b}: Jaccard {percent(pair.jaccard)} "
            f"({plural(pair.verified_blocks, 'block')})"
        )
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


def _remove_stale_pair_pages(folder: Path, written: set[str]) -> None:
    """Pair pages of an earlier report into the same folder that this one did not rewrite."""
    if not folder.is_dir():
        return
    for entry in folder.iterdir():
        if entry.is_file() and _PAIR_PAGE.match(entry.name) and entry.name not in written:
            entry.unlink(missing_ok=True)

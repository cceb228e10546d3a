"""The evidence report as one self-contained HTML page: inline styles, no script, no image or
font fetched from anywhere, so it opens from a USB stick or a mail and prints well (print
styles: page size, repeated column heads, rows kept whole). Every document text and file name
reaches the page through Jinja2's autoescaping (`core.reports.html.report_environment`): a
submission containing `<script>` shows as text; right-to-left text is set `dir="auto"` in its
cell."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from core.atomic import write_atomic
from core.reports.evidence.facts import DocumentFacts, EvidenceReport
from core.reports.evidence.paper import Paper
from core.reports.html import report_environment
from core.reports.wording import percent

#: the page map's resolution: one cell per hundredth of the document
MAP_CELLS = 100
BLANK = "#FFFFFF"


def evidence_html(report: EvidenceReport, paper: Paper = Paper.A4) -> str:
    """The report as a page of HTML (what `write_evidence_html` writes, and the app prints)."""
    template = report_environment().get_template("evidence.html")
    return template.render(
        r=report,
        when=when_text(report.checked_at),
        written=when_text(datetime.now().astimezone()),
        page_size="A4" if paper is Paper.A4 else "letter",
        facts=fact_rows(report),
        maps=[(doc, map_cells(doc)) for doc in report.documents],
    )


def write_evidence_html(
    report: EvidenceReport, path: str | Path, *, paper: Paper = Paper.A4
) -> Path:
    """Write the page to `path` (atomically: an existing file is replaced only when complete)."""
    return write_atomic(path, evidence_html(report, paper))


def when_text(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M (UTC%z)").replace("(UTC+0000)", "(UTC)")


def size_text(size: int | None) -> str:
    """ "12,345 bytes (12.1 KiB)"; "—" when the file is not there."""
    if size is None:
        return "—"
    if size < 1024:
        return f"{size:,} bytes"
    value = size / 1024
    unit = "KiB"
    for bigger in ("MiB", "GiB"):
        if value < 1024:
            break
        value, unit = value / 1024, bigger
    return f"{size:,} bytes ({value:.1f} {unit})"


def fact_rows(report: EvidenceReport) -> list[tuple[str, str, str]]:
    """The documents' facts as (label, A's value, B's value) rows: the cover's table."""
    rows: list[tuple[str, Callable[[DocumentFacts], str]]] = [
        ("File", lambda d: d.name),
        ("Location", lambda d: d.path),
        ("Format", lambda d: d.format),
        ("Size", lambda d: size_text(d.size)),
        ("SHA-256", lambda d: d.sha256),
        ("Modified", lambda d: when_text(d.modified) if d.modified else "—"),
        ("Sentences", lambda d: f"{d.sentences:,}"),
        ("Words", lambda d: f"{d.words:,}"),
        ("Language", lambda d: d.language),
        (
            "Found in the other",
            lambda d: (
                f"{percent(d.found_share)} of its sentences "
                f"({d.found_sentences:,} of {d.scored_sentences:,})"
            ),
        ),
    ]
    return [(label, read(report.a), read(report.b)) for label, read in rows]


def map_cells(doc: DocumentFacts, cells: int = MAP_CELLS) -> list[str]:
    """The page map as `cells` colours: each cell the colour of the passage covering most of
    its stretch of the document, white where none does (a passage shorter than a cell still
    colours the cell it falls in)."""
    colours = [BLANK] * cells
    cover = [0.0] * cells
    for mark in doc.map:
        first = min(cells - 1, int(mark.start * cells))
        last = min(cells - 1, max(first, int(mark.end * cells - 1e-9)))
        for i in range(first, last + 1):
            share = min(mark.end, (i + 1) / cells) - max(mark.start, i / cells)
            if share >= cover[i] or colours[i] == BLANK:
                colours[i], cover[i] = mark.colour, max(share, 1e-9)
    return colours

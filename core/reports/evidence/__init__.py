"""The evidence report of one pair: everything a reader who has never seen Doppel needs to
weigh a comparison (docs/report.md), as a PDF (fonts embedded, `write_evidence_pdf`) or a
self-contained HTML page (`write_evidence_html`; `evidence_html` gives the page as text, which
the app prints). `evidence_report` gathers the facts once; both renderers read only that.

    report = evidence_report(comparison)            # a frozen EvidenceReport
    write_evidence_pdf(report, "case.pdf", paper=Paper.A4)
    write_evidence_html(report, "case.html")

Only `paper` is imported with the package: the rest loads on first use (the PDF library takes
most of a second to import, which no command but an export should pay, nor the window's start).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from core.reports.evidence.paper import LETTER_TERRITORIES, Paper, paper_for_territory

if TYPE_CHECKING:
    from core.reports.evidence.facts import (
        DocumentFacts,
        EvidenceReport,
        ReportPassage,
        evidence_report,
    )
    from core.reports.evidence.html import evidence_html, write_evidence_html
    from core.reports.evidence.pdf import evidence_pdf, write_evidence_pdf

#: where each name of the package lives (loaded on first use)
_HOMES = {
    "DocumentFacts": "facts",
    "EvidenceReport": "facts",
    "ReportPassage": "facts",
    "evidence_report": "facts",
    "evidence_html": "html",
    "write_evidence_html": "html",
    "evidence_pdf": "pdf",
    "write_evidence_pdf": "pdf",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{home}"), name)


__all__ = [
    "LETTER_TERRITORIES",
    "DocumentFacts",
    "EvidenceReport",
    "Paper",
    "ReportPassage",
    "evidence_html",
    "evidence_pdf",
    "evidence_report",
    "paper_for_territory",
    "write_evidence_html",
    "write_evidence_pdf",
]

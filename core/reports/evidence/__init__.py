"""The evidence report of one pair: everything a reader who has never seen Doppel needs to
weigh a comparison (docs/report.md), as a PDF (fonts embedded, `write_evidence_pdf`) or a
self-contained HTML page (`write_evidence_html`; `evidence_html` gives the page as text, which
the app prints). `evidence_report` gathers the facts once; both renderers read only that.

    report = evidence_report(comparison)            # a frozen EvidenceReport
    write_evidence_pdf(report, "case.pdf", paper=Paper.A4)
    write_evidence_html(report, "case.html")
"""

from __future__ import annotations

from core.reports.evidence.facts import (
    DocumentFacts,
    EvidenceReport,
    Paper,
    ReportPassage,
    evidence_report,
)
from core.reports.evidence.html import evidence_html, write_evidence_html
from core.reports.evidence.pdf import write_evidence_pdf

__all__ = [
    "DocumentFacts",
    "EvidenceReport",
    "Paper",
    "ReportPassage",
    "evidence_html",
    "evidence_report",
    "write_evidence_html",
    "write_evidence_pdf",
]

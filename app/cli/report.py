"""`doppel report A B --pdf FILE --html FILE`: the evidence report of one pair (docs/report.md),
as a PDF (fonts embedded, A4 or Letter) and/or a self-contained HTML page, with every option and
exclusion `doppel compare` has. It prints the verdict and where each report went.

A report is never written over one of the documents it compares (or a template): the inputs
are the teacher's files, never changed. Exit codes: 0 written, 2 a document could not be read
or a report could not be written (each named on stderr with the reason)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from app.cli.compare import EXIT_INPUT, EXIT_OK, compared
from app.cli.options import UsageError, add_engine_options, add_exclusion_options
from core.reports.evidence import Paper, paper_for_territory
from core.reports.wording import verdict_line


def configure(report: argparse.ArgumentParser) -> None:
    """The arguments of `doppel report`."""
    report.description = (
        "Write the evidence report of two documents: who they are (name, size, SHA-256 "
        "fingerprint, dates), how the check ran, the verdict and the shares in words, every "
        "copied passage side by side with the shared words emphasised, where the passages "
        "lie, and how to read it. For a colleague or a panel; it states findings, not "
        "accusations."
    )
    report.add_argument("a", metavar="A", help="first document")
    report.add_argument("b", metavar="B", help="second document")
    report.add_argument("--pdf", metavar="FILE", help="write the report as a PDF")
    report.add_argument("--html", metavar="FILE", help="write the report as one HTML page")
    report.add_argument(
        "--paper",
        choices=[p.value for p in Paper],
        default=None,
        help="the PDF's page size [default: letter where the locale is US, Canada, Mexico, "
        "…; a4 elsewhere]",
    )
    add_engine_options(report)
    add_exclusion_options(report)


def default_paper(environ: dict[str, str] | os._Environ[str] = os.environ) -> Paper:
    """Letter where the locale's territory uses it (LC_PAPER, LC_ALL, LANG: "en_US.UTF-8"),
    A4 everywhere else."""
    for name in ("LC_ALL", "LC_PAPER", "LANG"):
        value = environ.get(name, "")
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            return paper_for_territory(value.split(".")[0].split("@")[0].partition("_")[2])
    return Paper.A4


def _outputs(args: argparse.Namespace) -> list[tuple[str, Path]]:
    chosen = [
        (kind, Path(value)) for kind, value in (("pdf", args.pdf), ("html", args.html)) if value
    ]
    if not chosen:
        raise UsageError("say where to write the report: --pdf FILE and/or --html FILE")
    inputs = {Path(p).resolve() for p in (args.a, args.b, *args.template)}
    for kind, path in chosen:
        if path.resolve() in inputs:
            raise UsageError(
                f"--{kind} {path} is one of the documents compared: a report never replaces "
                "a document"
            )
        if path.is_dir():
            raise UsageError(f"--{kind} {path} is a folder: give a file name")
    return chosen


def run(args: argparse.Namespace) -> int:
    # (imported here: the PDF library takes most of a second, which no other command pays)
    from core.reports.evidence import evidence_report, write_evidence_html, write_evidence_pdf

    outputs = _outputs(args)
    comparison = compared(args)
    if comparison is None:
        return EXIT_INPUT
    report = evidence_report(comparison)
    paper = Paper(args.paper) if args.paper else default_paper()
    print(
        verdict_line(
            comparison.flagged,
            comparison.copied_a,
            comparison.copied_b,
            (p.kind for p in comparison.passages),
            comparison.a.name,
            comparison.b.name,
        )
    )
    status = EXIT_OK
    for kind, path in outputs:
        try:
            if kind == "pdf":
                written = write_evidence_pdf(report, path, paper=paper)
            else:
                written = write_evidence_html(report, path, paper=paper)
        except OSError as error:
            reason = error.strerror or str(error)
            print(f"doppel: cannot write {path}: {reason}", file=sys.stderr)
            status = EXIT_INPUT
            continue
        print(f"Evidence report ({kind.upper()}): {written}")
    return status

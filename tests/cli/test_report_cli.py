"""`doppel report A B --pdf FILE --html FILE`: the evidence report from the command line, with
compare's options; it never writes over a document it compares."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from app.cli.main import main
from app.cli.report import default_paper
from core.reports.evidence import Paper
from core.resources import resource_path

SAMPLES = resource_path("samples")
ORIGINAL = SAMPLES / "original-essay.txt"
COPY_DOCX = SAMPLES / "reworded-copy.docx"


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    try:
        code = main([str(a) for a in argv])
    except SystemExit as stop:  # a usage error: argparse prints the usage and exits
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_report_writes_a_pdf_and_an_html_page(capsys, tmp_path: Path) -> None:
    pdf, page = tmp_path / "out" / "case.pdf", tmp_path / "case.html"
    code, out, err = run(
        capsys, "report", ORIGINAL, COPY_DOCX, "--pdf", pdf, "--html", page, "--paper", "letter"
    )
    assert code == 0, err
    assert out.startswith("Copied text found: 63.0% of original-essay.txt")
    assert f"Evidence report (PDF): {pdf}" in out and f"Evidence report (HTML): {page}" in out
    reader = PdfReader(io.BytesIO(pdf.read_bytes()))
    assert round(float(reader.pages[0].mediabox.height)) == 792  # Letter
    assert "reworded-copy.docx" in reader.pages[0].extract_text()
    assert "original-essay.txt" in page.read_text(encoding="utf-8")


def test_report_takes_compares_options(capsys, tmp_path: Path) -> None:
    page = tmp_path / "strict.html"
    code, out, _ = run(
        capsys, "report", ORIGINAL, COPY_DOCX, "--html", page, "--strict", "--exclude-quotes"
    )
    assert code == 0 and "edited" not in out.split(";")[-1]
    text = page.read_text(encoding="utf-8")
    assert "alone (--strict)" in text and "quotations" in text


def test_report_needs_somewhere_to_write(capsys) -> None:
    code, _, err = run(capsys, "report", ORIGINAL, COPY_DOCX)
    assert code == 2 and "--pdf FILE and/or --html FILE" in err


def test_report_never_replaces_a_document(capsys, tmp_path: Path) -> None:
    essay = tmp_path / "essay.txt"
    essay.write_text(ORIGINAL.read_text(encoding="utf-8"), encoding="utf-8")
    before = essay.read_bytes()
    code, _, err = run(capsys, "report", essay, COPY_DOCX, "--pdf", essay)
    assert code == 2 and "is one of the documents compared" in err
    assert essay.read_bytes() == before


def test_an_unreadable_document_is_named(capsys, tmp_path: Path) -> None:
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"not a zip at all")
    code, _, err = run(capsys, "report", ORIGINAL, broken, "--pdf", tmp_path / "r.pdf")
    assert code == 2 and "broken.docx" in err
    assert not (tmp_path / "r.pdf").exists()


def test_an_unwritable_target_is_named(capsys, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    code, _, err = run(capsys, "report", ORIGINAL, COPY_DOCX, "--pdf", blocker / "r.pdf")
    assert code == 2 and "cannot write" in err and "r.pdf" in err


@pytest.mark.parametrize(
    ("environ", "paper"),
    [
        ({"LANG": "en_US.UTF-8"}, Paper.LETTER),
        ({"LANG": "fr_CA.UTF-8"}, Paper.LETTER),
        ({"LANG": "en_GB.UTF-8"}, Paper.A4),
        ({"LC_PAPER": "de_DE.UTF-8", "LANG": "en_US.UTF-8"}, Paper.A4),
        ({"LC_ALL": "C"}, Paper.A4),
        ({}, Paper.A4),
    ],
)
def test_the_default_paper_follows_the_locale(environ: dict[str, str], paper: Paper) -> None:
    assert default_paper(environ) is paper

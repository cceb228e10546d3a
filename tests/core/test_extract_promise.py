"""The central promise: the same text typed or exported differently extracts to the same text.

A hard-wrapped .txt is the reference; .md, .docx, .odt, .rtf, .html and a four-page PDF with a
running header and page numbers must give the same words in the same order."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from docmakers import (
    SAMPLE_PROSE,
    make_docx,
    make_html,
    make_md,
    make_odt,
    make_pdf,
    make_rtf,
    make_txt,
)

from core.documents.extract import extract
from core.documents.normalize import normalize_text

HEADER = "The Flood – a story for Year 9"


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = make_txt(tmp_path_factory.mktemp("txt") / "flood.txt", SAMPLE_PROSE, wrap=70)
    return extract(path).text


def test_the_reference_is_the_normalised_prose(reference: str) -> None:
    assert reference == normalize_text("\n\n".join(SAMPLE_PROSE))
    assert "ﬁ" not in reference and "first boats" in reference  # ligature expanded
    assert '"We should move the animals," said Marta' in reference  # quotes made plain
    assert reference.count("\n\n") == len(SAMPLE_PROSE) - 1  # wraps joined, paragraphs kept


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("flood.md", make_md),
        ("flood.docx", make_docx),
        ("flood.odt", make_odt),
        ("flood.rtf", make_rtf),
        ("flood.html", make_html),
        ("flood.htm", make_html),
    ],
)
def test_every_editable_format_gives_the_reference_text(
    tmp_path: Path, reference: str, name: str, make: Callable[..., Path]
) -> None:
    extracted = extract(make(tmp_path / name, SAMPLE_PROSE))
    assert extracted.text == reference  # exactly, paragraph breaks included


def test_crlf_and_unwrapped_text_give_the_reference_text(tmp_path: Path, reference: str) -> None:
    crlf = make_txt(tmp_path / "crlf.txt", SAMPLE_PROSE, wrap=55, newline="\r\n")
    unwrapped = make_txt(tmp_path / "long-lines.txt", SAMPLE_PROSE, wrap=None)
    assert extract(crlf).text == reference
    assert extract(unwrapped).text == reference


@pytest.fixture(scope="module")
def pdf_text(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, tuple[str, ...], int]:
    # The typesetter hyphenated one word across a line end, as a word processor would.
    paragraphs = list(SAMPLE_PROSE)
    paragraphs[1] = paragraphs[1].replace("disagreed with her", "dis-\nagreed with her")
    path = make_pdf(
        tmp_path_factory.mktemp("pdf") / "flood.pdf",
        paragraphs,
        header=HEADER,
        footer_page_numbers=True,
        font_size=12,
        page_format=(148, 210),  # A5
    )
    from pypdf import PdfReader

    pages = len(PdfReader(path).pages)
    raw = "".join(page.extract_text() for page in PdfReader(path).pages)
    assert "dis-\nagreed" in raw and "ﬁ" in raw  # the PDF really has both problems
    extracted = extract(path)
    return extracted.text, extracted.warnings, pages


def test_the_pdf_gives_the_reference_words(
    pdf_text: tuple[str, tuple[str, ...], int], reference: str
) -> None:
    text, _, pages = pdf_text
    assert pages >= 3
    assert words(text) == words(reference)


def test_the_pdf_keeps_paragraphs_and_joins_wraps(
    pdf_text: tuple[str, tuple[str, ...], int], reference: str
) -> None:
    text, _, _ = pdf_text
    assert text == reference  # line wraps joined, page breaks bridged, paragraphs kept
    assert "disagreed with her" in text


def test_the_pdf_loses_its_running_header_and_page_numbers(
    pdf_text: tuple[str, tuple[str, ...], int],
) -> None:
    text, warnings, pages = pdf_text
    assert "Flood" not in text and "Year 9" not in text
    assert not re.search(r"Page \d", text)
    assert f"removed running header '{HEADER}' from {pages} pages" in warnings
    assert f"removed page numbers (like 'Page 1') from {pages} pages" in warnings

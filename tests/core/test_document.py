"""Loading documents end to end: the recorded facts, and one book as PDF and as plain text."""

from __future__ import annotations

import difflib
import hashlib
from pathlib import Path

import pytest
from docmakers import SAMPLE_PROSE, make_docx, make_pdf, make_txt

from core.comparison import compare_documents
from core.documents.document import load_document
from core.errors import DocumentError, EmptyDocument, UnsupportedFormat
from core.options import SignatureOptions
from core.resources import resource_path


def book_paragraphs() -> list[str]:
    """A 'book' of a dozen pages: the sample essays (titles as chapter headings) and prose."""
    paragraphs: list[str] = []
    for name in ("original-essay", "unrelated-essay", "reworded-copy"):
        text = resource_path("samples", f"{name}.txt").read_text(encoding="utf-8")
        paragraphs += [" ".join(p.split()) for p in text.split("\n\n") if p.strip()]
    return paragraphs + list(SAMPLE_PROSE) * 2


def test_a_book_as_pdf_and_as_plain_text_come_out_nearly_identical(tmp_path: Path) -> None:
    paragraphs = book_paragraphs()
    pdf = make_pdf(
        tmp_path / "book.pdf",
        paragraphs,
        header="Collected Essays - Draft for class 9B",
        footer_page_numbers=True,
    )
    txt = make_txt(tmp_path / "book.txt", paragraphs, wrap=72)
    from_pdf, from_txt = load_document(pdf), load_document(txt)
    assert from_pdf.format == "pdf" and from_txt.format == "txt"
    assert "9B" not in from_pdf.text and "Page 2" not in from_pdf.text
    assert any("header" in w or "footer" in w or "page number" in w for w in from_pdf.warnings)
    assert from_pdf.sentence_count > 100
    ratio = difflib.SequenceMatcher(
        None, from_pdf.signature.symbols, from_txt.signature.symbols, autojunk=False
    ).ratio()
    assert ratio >= 0.99, ratio
    comparison = compare_documents(from_pdf, from_txt)
    assert comparison.coverage_a >= 0.97 and comparison.coverage_b >= 0.97
    assert comparison.jaccard >= 0.95


def test_a_loaded_document_records_what_it_is(tmp_path: Path) -> None:
    path = make_docx(tmp_path / "essay.docx", list(SAMPLE_PROSE))
    doc = load_document(path)
    assert doc.path == path and doc.name == "essay.docx"
    assert doc.format == "docx"
    assert doc.content_hash == hashlib.sha256(path.read_bytes()).hexdigest()
    assert doc.char_count == len(doc.text) > 0
    assert doc.sentence_count == len(doc.sentences) > 5
    assert doc.language == "en" and doc.language_source == "detected"
    assert isinstance(doc.warnings, tuple)
    for sentence in doc.sentences:
        assert (
            doc.text[sentence.start : sentence.end].strip()
            == doc.text[sentence.start : sentence.end]
        )


def test_a_chosen_language_is_recorded_as_chosen(tmp_path: Path) -> None:
    path = make_txt(tmp_path / "essay.txt", list(SAMPLE_PROSE))
    doc = load_document(path, SignatureOptions(language="de"))
    assert (doc.language, doc.language_source) == ("de", "chosen")


def test_an_unsure_language_falls_back_to_english_with_a_note(tmp_path: Path) -> None:
    path = tmp_path / "short.txt"
    path.write_text("Ok.", encoding="utf-8")
    doc = load_document(path)
    assert (doc.language, doc.language_source) == ("en", "default")
    assert any("language" in w for w in doc.warnings)


@pytest.mark.parametrize(
    ("name", "content", "error"),
    [("notes.xyz", b"hello", UnsupportedFormat), ("blank.txt", b"  \n\n ", EmptyDocument)],
)
def test_bad_input_raises_a_typed_error_naming_the_file(
    tmp_path: Path, name: str, content: bytes, error: type[DocumentError]
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(error) as info:
        load_document(path)
    assert name in str(info.value)


def test_an_unsure_copy_is_read_in_the_language_of_its_original() -> None:
    from core.documents.document import document_from_text

    copied = "Dort lernen die Kinder lesen. Sie ist immer offen."
    rest = (
        " Die Gemeinde hat im letzten Jahr das Budget gekürzt, und deshalb sind die"
        " Öffnungszeiten kürzer geworden. Viele Bürger haben sich darüber beschwert, weil sie"
        " am Abend nicht mehr kommen können."
    ) * 2
    short, original = document_from_text(copied, "a.txt"), document_from_text(copied + rest)
    assert (short.language_source, original.language) == ("default", "de")
    comparison = compare_documents(short, original)
    assert (comparison.a.language, comparison.a.language_source) == ("de", "partner")
    assert comparison.coverage_a == 1.0
    assert any("that of" in w for w in comparison.a.warnings)


def test_a_paragraph_of_many_periods_loads_without_a_time_limit(tmp_path: Path) -> None:
    # NLTK 3.10 ran Punkt's text-wide pattern under a 5 s wall-clock limit: this file failed
    path = tmp_path / "initials.txt"
    path.write_text("x. " * 300_000, encoding="utf-8")
    doc = load_document(path, SignatureOptions(language="en"))
    assert doc.char_count > 800_000

"""Word .docx: body and tables in document order, notes at the end, no headers or footers."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from docmakers import Block, Table, make_docx

from core.documents.extract import extract
from core.errors import CorruptDocument, EmptyDocument, EncryptedDocument


def docx_with_body(path: Path, body_xml: str) -> Path:
    """A .docx whose body is `body_xml` (w:, mc:, wps: and v: prefixes are declared), for
    constructs python-docx cannot write: tracked changes, fields, text boxes, content controls."""
    import docx

    buffer = io.BytesIO()
    docx.Document().save(buffer)
    source = zipfile.ZipFile(buffer)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "word/document.xml":
                content = content.replace(b"<w:body>", b"<w:body>" + body_xml.encode(), 1)
            target.writestr(item, content)
    path.write_bytes(out.getvalue())
    return path


def paragraphs(path: Path) -> list[str]:
    return extract(path).text.split("\n\n")


def test_tables_come_in_document_order(tmp_path: Path) -> None:
    blocks: list[Block] = [
        "Before the table.",
        Table.of([["Name", "Score"], ["Ada", "Ninety."]]),
        "After the table.",
    ]
    assert paragraphs(make_docx(tmp_path / "t.docx", blocks)) == [
        "Before the table.",
        "Name",
        "Score",
        "Ada",
        "Ninety.",
        "After the table.",
    ]


def test_nested_table_and_merged_cells_are_read_once(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_paragraph("Intro.")
    table = document.add_table(rows=2, cols=2)
    merged = table.cell(0, 0).merge(table.cell(0, 1))
    merged.text = "Merged heading."
    inner = table.cell(1, 0).add_table(rows=1, cols=2)
    inner.cell(0, 0).text = "Inner left."
    inner.cell(0, 1).text = "Inner right."
    table.cell(1, 1).text = "Outer right."
    document.add_paragraph("Outro.")
    path = tmp_path / "nested.docx"
    document.save(str(path))
    # python-docx puts an empty paragraph after a nested table in its cell; it vanishes.
    assert paragraphs(path) == [
        "Intro.",
        "Merged heading.",
        "Inner left.",
        "Inner right.",
        "Outer right.",
        "Outro.",
    ]


def test_headers_and_footers_are_left_out(tmp_path: Path) -> None:
    path = make_docx(
        tmp_path / "h.docx", ["Body text only."], header="Running head", footer="Page foot"
    )
    assert extract(path).text == "Body text only."


def test_footnotes_follow_the_body_with_a_warning(tmp_path: Path) -> None:
    path = make_docx(
        tmp_path / "n.docx",
        ["A claim that needs a source.", "More text."],
        footnotes=["Smith, The Book, p. 4.", "Jones, Another Book."],
    )
    extracted = extract(path)
    assert extracted.text.split("\n\n") == [
        "A claim that needs a source.",
        "More text.",
        "Smith, The Book, p. 4.",
        "Jones, Another Book.",
    ]
    assert extracted.warnings == ("added 2 footnote(s) at the end of the text",)


def test_what_a_reader_sees_and_only_that(tmp_path: Path) -> None:
    body = (
        # a tracked insertion is text; a tracked deletion is not
        "<w:p><w:r><w:t>Kept </w:t></w:r><w:ins w:id='1' w:author='a'><w:r><w:t>inserted"
        "</w:t></w:r></w:ins><w:del w:id='2' w:author='a'><w:r><w:delText>deleted</w:delText>"
        "</w:r></w:del><w:r><w:t xml:space='preserve'> text.</w:t></w:r></w:p>"
        # a field: the instruction is hidden, its result is shown
        "<w:p><w:r><w:t xml:space='preserve'>See </w:t></w:r><w:r><w:fldChar "
        "w:fldCharType='begin'/></w:r><w:r><w:instrText>HYPERLINK \"http://x.org\"</w:instrText>"
        "</w:r><w:r><w:fldChar w:fldCharType='separate'/></w:r><w:r><w:t>the site</w:t></w:r>"
        "<w:r><w:fldChar w:fldCharType='end'/></w:r><w:r><w:t>.</w:t></w:r></w:p>"
        # tab, line break, non-breaking and soft hyphens
        "<w:p><w:r><w:t>Tab</w:t><w:tab/><w:t>and</w:t><w:br/><w:t>break, e</w:t>"
        "<w:noBreakHyphen/><w:t>mail, hy</w:t><w:softHyphen/><w:t>phen.</w:t></w:r></w:p>"
        # a text box drawn twice (modern and legacy markup): read once, after its paragraph
        "<w:p><w:r><w:t xml:space='preserve'>Anchor paragraph. </w:t></w:r><w:r>"
        "<mc:AlternateContent><mc:Choice Requires='wps'><w:drawing><wps:txbx><w:txbxContent>"
        "<w:p><w:r><w:t>Box text.</w:t></w:r></w:p></w:txbxContent></wps:txbx></w:drawing>"
        "</mc:Choice><mc:Fallback><w:pict><v:textbox><w:txbxContent><w:p><w:r><w:t>Box text."
        "</w:t></w:r></w:p></w:txbxContent></v:textbox></w:pict></mc:Fallback>"
        "</mc:AlternateContent></w:r><w:r><w:t>Anchor ends.</w:t></w:r></w:p>"
        # a content control around a paragraph
        "<w:sdt><w:sdtPr><w:alias w:val='Title'/></w:sdtPr><w:sdtContent><w:p><w:r>"
        "<w:t>In a control.</w:t></w:r></w:p></w:sdtContent></w:sdt>"
    )
    assert paragraphs(docx_with_body(tmp_path / "x.docx", body)) == [
        "Kept inserted text.",
        "See the site.",
        "Tab and break, e-mail, hyphen.",
        "Anchor paragraph. Anchor ends.",
        "Box text.",
        "In a control.",
    ]


def test_whitespace_only_document_is_empty(tmp_path: Path) -> None:
    path = make_docx(tmp_path / "blank.docx", ["   ", "", "\t"], header="Header text")
    with pytest.raises(EmptyDocument, match=r"blank\.docx: it contains no words"):
        extract(path)


def test_password_protected_docx(tmp_path: Path) -> None:
    # Word saves an encrypted .docx as an OLE2 compound file with an EncryptedPackage stream.
    path = tmp_path / "secret.docx"
    path.write_bytes(
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(200) + "EncryptedPackage".encode("utf-16-le")
    )
    with pytest.raises(EncryptedDocument, match=r"secret\.docx: it is password-protected"):
        extract(path)


def test_old_word_document_renamed(tmp_path: Path) -> None:
    path = tmp_path / "old.docx"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(500) + b"WordDocument")
    with pytest.raises(CorruptDocument, match=r"old\.docx: .*Word 97-2003 document \(\.doc\)"):
        extract(path)


def test_a_zip_that_is_not_a_word_document(tmp_path: Path) -> None:
    path = tmp_path / "archive.docx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("notes.txt", "not a word document")
    with pytest.raises(CorruptDocument, match=r"archive\.docx: it cannot be opened as a Word"):
        extract(path)


@pytest.mark.parametrize("keep", [0.5, 0.95])
def test_truncated_docx(tmp_path: Path, keep: float) -> None:
    data = make_docx(tmp_path / "whole.docx", ["Some text.", "More text."]).read_bytes()
    path = tmp_path / "cut.docx"
    path.write_bytes(data[: int(len(data) * keep)])
    with pytest.raises(CorruptDocument, match=r"cut\.docx: the file is damaged or incomplete"):
        extract(path)


def test_not_a_zip_at_all(tmp_path: Path) -> None:
    path = tmp_path / "plain.docx"
    path.write_text("I saved my essay as text and renamed it.", encoding="utf-8")
    with pytest.raises(CorruptDocument, match=r"plain\.docx: it is not a Word \.docx file"):
        extract(path)


def quote_texts(path: Path) -> list[str]:
    extracted = extract(path)
    return [extracted.text[a:b] for a, b in extracted.block_quotes]


def test_quote_paragraphs_are_found_in_the_normalised_text(tmp_path: Path) -> None:
    path = make_docx(
        tmp_path / "quotes.docx",
        [
            "Yes.",
            "An   essay with “curly quotes”, a ﬁ ligature and spaces.",
            "Yes.",  # the same text as the first paragraph, but a quote this time
            "Own words again.",
            "First quoted paragraph.",
            "Second quoted paragraph, part of the same quotation.",
        ],
        quotes={2, 4, 5},
        footnotes=["A note."],
    )
    extracted = extract(path)
    assert extracted.block_quotes == (
        (extracted.text.index("Yes.", 1), extracted.text.index("Yes.", 1) + 4),
        (
            extracted.text.index("First quoted"),
            extracted.text.index("same quotation.") + len("same quotation."),
        ),
    )
    assert quote_texts(path)[1] == (
        "First quoted paragraph.\n\nSecond quoted paragraph, part of the same quotation."
    )


def test_a_quote_styled_paragraph_with_a_line_break_and_no_quotes(tmp_path: Path) -> None:
    body = (
        '<w:p><w:pPr><w:pStyle w:val="Normal"/></w:pPr><w:r><w:t>Own.</w:t></w:r></w:p>'
        '<w:p><w:pPr><w:pStyle w:val="Quote"/></w:pPr><w:r><w:t xml:space="preserve">'
        "Quoted  line one</w:t><w:br/><w:t>line two.</w:t></w:r></w:p>"
    )
    assert quote_texts(docx_with_body(tmp_path / "br.docx", body)) == ["Quoted line one line two."]
    assert extract(make_docx(tmp_path / "none.docx", ["Plain.", "Text."])).block_quotes == ()

"""OpenDocument .odt: body, lists and tables in order, notes at the end, no page headers."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from docmakers import Block, Table, make_odt

from core.documents.extract import extract
from core.errors import CorruptDocument, EmptyDocument, EncryptedDocument, UnsupportedFormat


def paragraphs(path: Path) -> list[str]:
    return extract(path).text.split("\n\n")


def test_tables_come_in_document_order(tmp_path: Path) -> None:
    blocks: list[Block] = ["Before.", Table.of([["Name", "Score"], ["Ada", "Ninety."]]), "After."]
    assert paragraphs(make_odt(tmp_path / "t.odt", blocks)) == [
        "Before.",
        "Name",
        "Score",
        "Ada",
        "Ninety.",
        "After.",
    ]


def test_spaces_tabs_and_line_breaks(tmp_path: Path) -> None:
    # odfpy's teletype writes runs of spaces as text:s, tabs as text:tab, "\n" as line-break.
    path = make_odt(tmp_path / "s.odt", ["Two  spaces,\ta tab and a\nline break.", "Next."])
    assert paragraphs(path) == ["Two spaces, a tab and a line break.", "Next."]


def test_page_header_is_left_out_and_footnotes_come_last(tmp_path: Path) -> None:
    path = make_odt(
        tmp_path / "n.odt",
        ["A claim that needs a source.", "More text."],
        header="Running head",
        footnotes=["Smith, The Book, p. 4."],
    )
    extracted = extract(path)
    # the note's citation mark "1" is not spliced into the sentence
    assert extracted.text.split("\n\n") == [
        "A claim that needs a source.",
        "More text.",
        "Smith, The Book, p. 4.",
    ]
    assert extracted.warnings == ("added 1 footnote/endnote paragraph(s) at the end of the text",)


def test_lists_sections_and_comments(tmp_path: Path) -> None:
    from odf.office import Annotation
    from odf.opendocument import OpenDocumentText
    from odf.text import H, List, ListItem, P, Section

    document = OpenDocumentText()
    document.text.addElement(H(outlinelevel=1, text="Heading"))
    items = List()
    for text in ("First item.", "Second item."):
        item = ListItem()
        item.addElement(P(text=text))
        items.addElement(item)
    document.text.addElement(items)
    section = Section(name="S1")
    paragraph = P(text="In a section.")
    comment = Annotation()
    comment.addElement(P(text="A reviewer's comment."))
    paragraph.addElement(comment)
    section.addElement(paragraph)
    document.text.addElement(section)
    path = tmp_path / "l.odt"
    document.save(str(path))
    assert paragraphs(path) == ["Heading", "First item.", "Second item.", "In a section."]


def rewrite(path: Path, changes: dict[str, bytes]) -> None:
    source = zipfile.ZipFile(io.BytesIO(path.read_bytes()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            target.writestr(item, changes.get(item.filename, source.read(item.filename)))
    path.write_bytes(out.getvalue())


def test_password_protected_odt(tmp_path: Path) -> None:
    path = make_odt(tmp_path / "secret.odt", ["Hidden."])
    manifest = zipfile.ZipFile(path).read("META-INF/manifest.xml")
    manifest = manifest.replace(
        b'manifest:full-path="content.xml"',
        b'manifest:full-path="content.xml"><manifest:encryption-data '
        b'manifest:checksum-type="SHA1/1K" manifest:checksum="x"/></manifest:file-entry>'
        b'<manifest:file-entry manifest:media-type="" manifest:full-path="dummy"',
    )
    rewrite(path, {"META-INF/manifest.xml": manifest})
    with pytest.raises(EncryptedDocument, match=r"secret\.odt: it is password-protected"):
        extract(path)


def test_spreadsheet_renamed_odt(tmp_path: Path) -> None:
    path = make_odt(tmp_path / "sheet.odt", ["Cells."])
    rewrite(path, {"mimetype": b"application/vnd.oasis.opendocument.spreadsheet"})
    with pytest.raises(UnsupportedFormat, match=r"sheet\.odt: it is an OpenDocument spreadsheet"):
        extract(path)


def test_damaged_content_part_is_reported_not_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # odfpy itself would print the whole broken part to stdout and return a partial document.
    path = make_odt(tmp_path / "bad.odt", ["Text."])
    rewrite(path, {"content.xml": b"<office:document-content>unclosed"})
    with pytest.raises(CorruptDocument, match=r"bad\.odt: its part content\.xml is damaged"):
        extract(path)
    assert capsys.readouterr().out == ""


def test_entity_expansion_is_refused(tmp_path: Path) -> None:
    """A "billion laughs" content part must fail fast, not expand (odfpy parses with defusedxml)."""
    bomb = (
        b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa">'
        b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">'
        b"]><office:document-content>&c;</office:document-content>"
    )
    path = make_odt(tmp_path / "laughs.odt", ["Text."])
    rewrite(path, {"content.xml": bomb})
    with pytest.raises(CorruptDocument, match=r"laughs\.odt"):
        extract(path)


def test_empty_odt(tmp_path: Path) -> None:
    with pytest.raises(EmptyDocument, match=r"empty\.odt"):
        extract(make_odt(tmp_path / "empty.odt", ["", "  "]))


def test_paragraphs_in_the_quotations_style_are_block_quotes(tmp_path: Path) -> None:
    blocks: list[Block] = ["Own words.", "Quoted words.", Table.of([["Cell."]]), "More own words."]
    extracted = extract(make_odt(tmp_path / "q.odt", blocks, quotes={1}))
    assert [extracted.text[a:b] for a, b in extracted.block_quotes] == ["Quoted words."]
    assert extract(make_odt(tmp_path / "none.odt", blocks)).block_quotes == ()

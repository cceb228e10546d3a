"""RTF: escapes decoded in the document's code page, paragraphs and cells kept apart, headers,
footers, footnotes and hyperlink targets left out."""

from __future__ import annotations

from pathlib import Path

import pytest
from docmakers import Block, Table, make_rtf

from core.documents.extract import extract
from core.errors import CorruptDocument, EmptyDocument


def rtf(tmp_path: Path, body: str, name: str = "doc.rtf", code_page: int = 1252) -> Path:
    path = tmp_path / name
    path.write_bytes(
        (
            f"{{\\rtf1\\ansi\\ansicpg{code_page}\\deff0{{\\fonttbl{{\\f0 Times;}}}}\\f0 "
            + body
            + "}"
        ).encode("latin-1")
    )
    return path


def test_escapes(tmp_path: Path) -> None:
    body = (
        r"Caf\'e9 \u8220?quoted\u8221? and \u-10179?\u-8704? emoji, "
        r"\'93curly\'94 \'96 dash, \{braces\} and a back\\slash.\par"
    )
    assert extract(rtf(tmp_path, body)).text == (
        'Café "quoted" and 😀 emoji, "curly" – dash, {braces} and a back\\slash.'
    )


def test_code_page_of_the_document_is_used(tmp_path: Path) -> None:
    # \'e8 is è in Windows-1252 but č in Windows-1250
    assert extract(rtf(tmp_path, r"P\'f8\'edli\'9a \'e8esk\'fd\par", code_page=1250)).text == (
        "Příliš český"
    )


def test_paragraphs_line_breaks_and_tables(tmp_path: Path) -> None:
    blocks: list[Block] = [
        "First paragraph,\nwith a line break.",
        Table.of([["Cell one.", "Cell two."], ["Cell three.", "Cell four."]]),
        "Last paragraph.",
    ]
    assert extract(make_rtf(tmp_path / "t.rtf", blocks)).text.split("\n\n") == [
        "First paragraph, with a line break.",
        "Cell one.",
        "Cell two.",
        "Cell three.",
        "Cell four.",
        "Last paragraph.",
    ]


def test_headers_footers_footnotes_and_link_targets_are_left_out(tmp_path: Path) -> None:
    path = make_rtf(tmp_path / "h.rtf", ["Body text here."], header="Running head", footer="Page")
    assert extract(path).text == "Body text here."
    body = (
        r'See {\field{\*\fldinst{HYPERLINK "http://example.com"}}{\fldrslt{the site}}} '
        r"now.{\footnote\pard A note.}\par"
    )
    assert extract(rtf(tmp_path, body)).text == "See the site now."


def test_cut_short_file_gives_its_text_and_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "cut.rtf"
    path.write_bytes(rb"{\rtf1\ansi{\fonttbl{\f0 Times;}}\f0 Complete first paragraph.\par Half a")
    extracted = extract(path)
    assert extracted.text == "Complete first paragraph.\n\nHalf a"
    assert extracted.warnings == (
        "the RTF file seems to be cut short (unclosed groups); its end may be missing",
    )


def test_not_rtf(tmp_path: Path) -> None:
    path = tmp_path / "fake.rtf"
    path.write_text("Just some text saved with the wrong name.", encoding="utf-8")
    with pytest.raises(CorruptDocument, match=r"fake.rtf: it is not an RTF document"):
        extract(path)


def test_empty_rtf(tmp_path: Path) -> None:
    with pytest.raises(EmptyDocument, match=r"blank\.rtf"):
        extract(rtf(tmp_path, r"\par \par {\header Only a header\par}", name="blank.rtf"))

"""The work a document may cost is bounded for every format: XML elements in a .docx or .odt,
tags in a web page, groups in an RTF file, drawing instructions in a PDF. Past a limit the
document is refused with a message that names the limit; below it, memory stays flat however
the content is shaped (streamed, not built into a tree)."""

from __future__ import annotations

import io
import os
import resource
import subprocess
import sys
import textwrap
import tracemalloc
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from docmakers import SAMPLE_PROSE, make_docx, make_html, make_odt, make_raw_pdf, make_rtf
from test_extract_docx import docx_with_body

import core.documents.extract as extract_module
import core.documents.extract.html as html_module
import core.documents.extract.pdf as pdf_module
import core.documents.extract.rtf as rtf_module
import core.documents.extract.xmlstream as xmlstream
from core.documents.extract import extract
from core.errors import CorruptDocument, DocumentTooLarge

MiB = 1024 * 1024
ROOT = Path(__file__).resolve().parents[2]


def empty_paragraphs(count: int) -> str:
    return "<w:p/>" * count


def odt_with_body(path: Path, body_xml: str) -> Path:
    """An .odt whose body starts with `body_xml` (text: prefix declared)."""
    make_odt(path, ["Opening sentence of the essay."])
    source = zipfile.ZipFile(io.BytesIO(path.read_bytes()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "content.xml":
                content = content.replace(b"<office:text>", b"<office:text>" + body_xml.encode())
            target.writestr(item, content)
    path.write_bytes(out.getvalue())
    return path


# --- .docx and .odt: the element budget -------------------------------------------------------


@pytest.mark.parametrize("suffix", [".docx", ".odt"])
def test_a_part_with_too_many_elements_is_refused(
    tmp_path: Path, suffix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(xmlstream, "MAX_XML_ELEMENTS", 20_000)  # the styles use about 3,000
    if suffix == ".docx":
        path = docx_with_body(tmp_path / "padded.docx", empty_paragraphs(20_000))
        part = "word/document.xml"
    else:
        path = odt_with_body(tmp_path / "padded.odt", "<text:p/>" * 20_000)
        part = "content.xml"
    with pytest.raises(DocumentTooLarge) as raised:
        extract(path)
    assert str(raised.value) == (
        f"padded{suffix}: its part {part} has more XML elements than the limit of 20,000 for a "
        "whole document (a 1,000-page document has under 800,000); not opened"
    )


@pytest.mark.parametrize("suffix", [".docx", ".odt"])
def test_the_budget_is_shared_by_all_parts(
    tmp_path: Path, suffix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Styles and relationships count too: the limit is for the document, not for each part.
    The last part read (the text) is refused once the ones before it used up the budget."""
    path = (make_docx if suffix == ".docx" else make_odt)(tmp_path / f"doc{suffix}", ["Text."])
    reader = sys.modules[f"core.documents.extract.{suffix[1:]}"]
    used: list[tuple[str, int]] = []
    real = xmlstream.parse_part

    def recording(
        chunks: Iterable[bytes],
        handler: xmlstream.Handler,
        budget: xmlstream.ElementBudget,
        part: str,
    ) -> None:
        real(chunks, handler, budget, part)
        used.append((part, budget.used))

    monkeypatch.setattr(reader, "parse_part", recording)
    extract(path)
    counts = [count for _, count in used]
    assert len(used) >= 2 and counts == sorted(counts)  # each part adds to the others' count
    monkeypatch.setattr(reader, "parse_part", real)
    monkeypatch.setattr(xmlstream, "MAX_XML_ELEMENTS", counts[-2] + 1)
    with pytest.raises(DocumentTooLarge, match=f"its part {used[-1][0]} has more XML elements"):
        extract(path)


@pytest.mark.parametrize(
    "body",
    [
        '<!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa">]>',  # before the root: a DTD
    ],
)
def test_a_document_type_declaration_is_refused(tmp_path: Path, body: str) -> None:
    path = make_docx(tmp_path / "dtd.docx", ["Text."])
    source = zipfile.ZipFile(io.BytesIO(path.read_bytes()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "word/document.xml":
                content = content.replace(b"?>", b"?>" + body.encode(), 1)
            target.writestr(item, content)
    path.write_bytes(out.getvalue())
    with pytest.raises(CorruptDocument, match=r"declares a document type \(DTD\)"):
        extract(path)


def test_deep_nesting_is_read(tmp_path: Path) -> None:
    """python-docx's tree refused more than 256 levels; the stream keeps counters, not stacks."""
    depth = 20_000
    body = "<w:sdt><w:sdtContent>" * depth + "<w:p><w:r><w:t>Deep.</w:t></w:r></w:p>"
    body += "</w:sdtContent></w:sdt>" * depth
    assert extract(docx_with_body(tmp_path / "deep.docx", body)).text == "Deep."


@pytest.mark.parametrize("suffix", [".docx", ".odt", ".html"])
def test_reading_stops_once_the_text_is_over_the_limit(
    tmp_path: Path, suffix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(extract_module, "MAX_TEXT_CHARS", 1000)
    makers: dict[str, Callable[..., Path]] = {
        ".docx": make_docx,
        ".odt": make_odt,
        ".html": make_html,
    }
    path = makers[suffix](tmp_path / f"long{suffix}", SAMPLE_PROSE * 3)
    with pytest.raises(
        DocumentTooLarge, match=rf"long\{suffix}: its text is longer than the limit of 1,000"
    ):
        extract(path)


_IN_A_SMALL_PROCESS = textwrap.dedent(
    """
    import sys
    from core.documents.extract import extract
    from core.errors import DocumentError
    try:
        print("text:", extract(sys.argv[1]).text[:60])
    except DocumentError as error:
        print(type(error).__name__, error)
    """
)


def run_limited(path: Path, megabytes: int = 512) -> str:
    """What extract() gives for `path` in a child process limited to `megabytes` of address
    space: a reader that builds too much fails there instead of swapping."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (megabytes * MiB, megabytes * MiB))

    result = subprocess.run(
        [sys.executable, "-c", _IN_A_SMALL_PROCESS, str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=limit,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_AS"), reason="needs RLIMIT_AS (POSIX)")
def test_a_million_paragraphs_are_read_in_bounded_memory(tmp_path: Path) -> None:
    """900,000 paragraphs (22 MB of XML in a 0.3 MB file, within every zip limit): with
    python-docx's tree the process peaked at 505 MB of address space; streamed, at 36 MB."""
    marks = [f'<w:p w:rsidR="00{n % 251:06X}"/>' for n in range(900_000)]
    body = "<w:p><w:r><w:t>Only this sentence is text.</w:t></w:r></w:p>" + "".join(marks)
    path = docx_with_body(tmp_path / "million.docx", body)
    assert run_limited(path, megabytes=256) == "text: Only this sentence is text."


# --- web pages -----------------------------------------------------------------------------------


def test_a_page_with_too_many_tags_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(html_module, "MAX_HTML_TAGS", 1_000)
    path = tmp_path / "tags.html"
    path.write_text("<p>Text.</p>" + "<b></b>" * 1_000)
    with pytest.raises(DocumentTooLarge) as raised:
        extract(path)
    assert str(raised.value) == (
        "tags.html: it has more HTML tags than the limit of 1,000 (a 1,000-page document has "
        "well under 100,000); not opened"
    )


def test_deeply_nested_tags_cost_little_memory(tmp_path: Path) -> None:
    """50,000 nested elements: bs4 built a Tag object for each (about 750 bytes); the stream
    keeps a name and a flag per open element."""
    path = tmp_path / "nested.html"
    path.write_text("<p>Before.</p>" + "<div>" * 50_000 + "Deep text." + "</div>" * 50_000)
    tracemalloc.start()
    try:
        text = extract(path).text
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert text == "Before.\n\nDeep text."
    assert peak < 16 * MiB  # 8 MB; bs4's tree peaked at 32 MB


def test_rtf_named_html_is_refused_like_other_mislabelled_files(tmp_path: Path) -> None:
    path = tmp_path / "essay.html"
    path.write_bytes(make_rtf(tmp_path / "essay.rtf", ["Some text."]).read_bytes())
    with pytest.raises(CorruptDocument) as raised:
        extract(path)
    assert str(raised.value) == (
        "essay.html: it is not a web page: it looks like an RTF document; give it the matching "
        "file extension"
    )


# --- RTF -----------------------------------------------------------------------------------------


def rtf(body: str) -> bytes:
    return ("{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Times;}}\\f0 " + body + "}").encode()


def test_an_rtf_file_with_too_many_groups_is_refused(tmp_path: Path) -> None:
    """A million nested groups would be a million entries on striprtf's stack."""
    path = tmp_path / "nested.rtf"
    path.write_bytes(rtf("Text.\\par " + "{" * 1_000_001))
    with pytest.raises(DocumentTooLarge) as raised:
        extract(path)
    assert str(raised.value) == (
        "nested.rtf: it has 1,000,004 groups ({...}); the limit is 1,000,000 (a 1,000-page "
        "document has well under 700,000)"
    )


def test_an_rtf_file_with_more_text_than_the_limit_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(extract_module, "MAX_TEXT_CHARS", 1000)

    def never(*args: object, **kwargs: object) -> str:
        raise AssertionError("striprtf was run")

    monkeypatch.setattr("striprtf.striprtf.rtf_to_text", never)
    path = tmp_path / "long.rtf"
    path.write_bytes(rtf("{\\b Many words.} \\par " * 300))
    with pytest.raises(DocumentTooLarge, match=r"long\.rtf: its text is longer than the limit"):
        extract(path)


_RTF_SCRIPT = textwrap.dedent(
    """
    import sys
    from core.documents.extract import extract
    print(extract(sys.argv[1]).text)
    """
)


def test_field_instructions_do_not_make_striprtf_backtrack(tmp_path: Path) -> None:
    """striprtf's hyperlink pattern scans the rest of a line at every "{\\field{\\*\\fldinst{"
    and backtracks: 100,000 of them on one line took hours. Such groups are cut out before it
    runs. In a child process, so that a regression fails by the timeout instead of hanging."""
    path = tmp_path / "fields.rtf"
    path.write_bytes(rtf("Visible text. " + "{\\field{\\*\\fldinst{x}}}" * 100_000))
    result = subprocess.run(
        [sys.executable, "-c", _RTF_SCRIPT, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
    )
    assert result.stdout.strip() == "Visible text.", result.stderr


def test_pictures_and_ignorable_groups_are_cut_out_exactly() -> None:
    source = (
        "A {\\*\\shppict{\\pict\\pngblip 89{}50}}{\\nonshppict{\\pict\\bin4 }{}}x}}"
        "B \\{{\\*\\x \\} } C{\\*\\unclosed {"
    )
    assert rtf_module._without_ignorable_groups(source) == "A {\\nonshppict}B \\{ C"


# --- PDF -----------------------------------------------------------------------------------------


_PAGE_TEXTS = (
    b"The river had been rising for three days.",
    b"Nobody in the village remembered such a spring.",
    b"The schoolmaster wrote everything down.",
)


def pages(count: int, extra: bytes = b"") -> list[bytes]:
    return [b"BT /F1 12 Tf 72 720 Td (%s) Tj ET\n" % _PAGE_TEXTS[n] + extra for n in range(count)]


def test_a_pdf_with_too_many_drawing_instructions_is_refused(tmp_path: Path) -> None:
    """Pages of 70 MiB of instructions each, in a file of 0.2 MB: pypdf parses about 2 s per MB,
    so each would take minutes. The page is refused before it is parsed."""
    path = make_raw_pdf(tmp_path / "heavy.pdf", pages(3, b" " * (70 * MiB)))
    assert path.stat().st_size < MiB
    with pytest.raises(DocumentTooLarge) as raised:
        extract(path)
    assert str(raised.value) == (
        "heavy.pdf: its pages hold more drawing instructions than the limit of 64.0 MiB (a "
        "1,000-page document has about 5 MiB); reading stopped at page 1 of 3"
    )


def test_the_drawing_instructions_of_all_pages_add_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pdf_module, "MAX_CONTENT_BYTES", MiB)
    path = make_raw_pdf(tmp_path / "pages.pdf", pages(3, b" " * (400 * 1024)))
    with pytest.raises(DocumentTooLarge, match=r"limit of 1\.0 MiB .*stopped at page 3 of 3"):
        extract(path)


def test_a_pdf_with_too_many_operations_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pdf_module, "MAX_OPERATIONS", 1_000)
    path = make_raw_pdf(tmp_path / "busy.pdf", pages(2, b"q Q " * 400))  # 805 per page
    with pytest.raises(DocumentTooLarge) as raised:
        extract(path)
    assert str(raised.value) == (
        "busy.pdf: its pages hold more drawing operations than the limit of 1,000 (a "
        "1,000-page document has about 300,000); reading stopped at page 2 of 2"
    )
    assert extract(make_raw_pdf(tmp_path / "ok.pdf", pages(2))).text.startswith("The river")

"""Writes test documents of every supported format from the same paragraphs.

Each `make_*` function takes a target path and a sequence of blocks - a `str` is a paragraph,
a `Table` is a table - writes the file and returns its path. Formats with tables get a real
table; the others get one paragraph per cell, in row order, which is also how extraction
reads tables. Nothing here depends on system fonts or network access.

Tests import it as `docmakers`: pytest puts tests/core on sys.path because the folder has no
__init__.py.

    from docmakers import SAMPLE_PROSE, make_docx, make_pdf
    make_docx(tmp_path / "essay.docx", ["First paragraph.", "Second one."])
    make_pdf(tmp_path / "essay.pdf", SAMPLE_PROSE, header="My Essay", footer_page_numbers=True)
"""

from __future__ import annotations

import functools
import html
import io
import tempfile
import textwrap
import zipfile
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Table:
    """A table block: rows of cell texts."""

    rows: tuple[tuple[str, ...], ...]

    @classmethod
    def of(cls, rows: Iterable[Iterable[str]]) -> Table:
        return cls(tuple(tuple(row) for row in rows))


Block = str | Table


def flatten(blocks: Sequence[Block]) -> list[str]:
    """The blocks as extraction should see them: one paragraph per paragraph or table cell."""
    paragraphs: list[str] = []
    for block in blocks:
        if isinstance(block, Table):
            paragraphs.extend(cell for row in block.rows for cell in row)
        else:
            paragraphs.append(block)
    return paragraphs


# Original prose for tests: ten paragraphs, about four pages as a PDF. It has curly quotes and
# apostrophes, an "ﬁ" ligature character, accented letters and a number, like real essays.
SAMPLE_PROSE: tuple[str, ...] = (
    "The river had been rising for three days when the ﬁrst boats came down from the hills. "
    "Nobody in the village remembered a spring like it, and the older farmers, who liked to say "
    "they had seen everything, stood on the bridge in the evenings and said nothing at all.",
    "“We should move the animals,” said Marta, who ran the mill with her brother. “If the water "
    "reaches the lower meadows, we’ll lose the whole flock.” Her brother, who disagreed with her "
    "about most things, agreed with her about this, and they spent the afternoon driving sheep "
    "up the lane towards the church.",
    "By the fourth morning the road to the market town was closed. The baker’s cart turned back "
    "at the ford, and the children, who had been told there would be no school, ran along the "
    "bank shouting at the brown water as if it were an animal they could chase away.",
    "The schoolmaster, a careful man called Anselm Brückner, wrote everything down. He measured "
    "the river against a painted post each hour, and his notebook, which survives, records a "
    "rise of 41 centimetres between dawn and noon on the ﬁfth day.",
    "It was Brückner who suggested the dam. His idea was simple enough: if the old quarry above "
    "the village could be ﬂooded on purpose, the river would have somewhere else to go. The "
    "council argued about it for a whole evening, because the quarry belonged to a family that "
    "had not spoken to the mayor in twenty years.",
    "In the end it was the weather that decided. A second storm arrived from the west just "
    "after midnight, and by morning the water stood in the square. The family who owned the "
    "quarry sent word that they would not object, provided that nobody expected them to say so "
    "in public.",
    "The digging took two days. Men worked in shifts by lamplight, and the women of the "
    "village carried bread and soup up the hill in baskets. Marta’s brother, who had never "
    "been known to work a night in his life, was seen at the face of the cut at three in the "
    "morning, soaked to the skin and singing.",
    "When the channel was opened the water went into the quarry with a noise that people "
    "compared, afterwards, to a train. Within an hour the level in the square had fallen by a "
    "hand’s width; by evening the cobbles were showing again, slick with mud and covered in "
    "drowned leaves.",
    "The quarry became a lake, and the lake became, in time, the place where the village held "
    "its summer fair. Children who had never seen the ﬂood learned to swim in it, and the "
    "painted post by the bridge, with Brückner’s marks still on it, was left standing as a "
    "reminder that the river had once been in charge.",
    "Years later, when a journalist came from the city to write about the dam, the older "
    "farmers told him that they had known all along it would work. Marta, who was by then the "
    "oldest person in the village, listened to them without a word, and then took the "
    "journalist down to the mill to show him the notebook.",
)


# --- plain text ------------------------------------------------------------------------------


def make_txt(
    path: Path,
    blocks: Sequence[Block],
    *,
    encoding: str = "utf-8",
    wrap: int | None = 70,
    newline: str = "\n",
    bom: bool = False,
) -> Path:
    """Paragraphs separated by a blank line, hard-wrapped at `wrap` columns (None: no wrap) the
    way a plain-text editor or e-mail client does - at spaces, never inside a hyphenated word.
    `bom` writes the byte-order mark of "utf-8", "utf-16-le/-be" or "utf-32-le/-be"; Python's
    "utf-16" and "utf-32" codecs always write one."""
    paragraphs = flatten(blocks)
    if wrap is not None:
        paragraphs = [
            "\n".join(textwrap.wrap(p, width=wrap, break_on_hyphens=False, break_long_words=False))
            for p in paragraphs
        ]
    text = ("\n\n".join(paragraphs) + "\n").replace("\n", newline)
    data = text.encode(encoding)
    if bom:
        data = _BOMS.get(encoding.lower().replace("_", "-"), b"") + data
    path.write_bytes(data)
    return path


_BOMS = {
    "utf-8": b"\xef\xbb\xbf",
    "utf-16-le": b"\xff\xfe",
    "utf-16-be": b"\xfe\xff",
    "utf-32-le": b"\xff\xfe\x00\x00",
    "utf-32-be": b"\x00\x00\xfe\xff",
}


def make_md(
    path: Path, blocks: Sequence[Block], *, title: str | None = None, quotes: Collection[int] = ()
) -> Path:
    """A Markdown file: an optional "# title" heading, then the paragraphs, unwrapped; the
    blocks numbered in `quotes` are block quotes ("> ")."""
    paragraphs = [
        f"> {block}" if k in quotes and isinstance(block, str) else block
        for k, block in enumerate(blocks)
    ]
    parts = ([f"# {title}"] if title else []) + flatten(paragraphs)
    path.write_text("\n\n".join(parts) + "\n", encoding="utf-8")
    return path


# --- Word ------------------------------------------------------------------------------------


def make_docx(
    path: Path,
    blocks: Sequence[Block],
    *,
    header: str | None = None,
    footer: str | None = None,
    footnotes: Sequence[str] = (),
    quotes: Collection[int] = (),
    quote_style: str = "Quote",
) -> Path:
    """A .docx made by python-docx. `header`/`footer` go into the section's header and footer
    (which extraction must leave out); each footnote is referenced from the first paragraph.
    The blocks numbered in `quotes` get the paragraph style `quote_style` (a built-in name:
    "Quote", "Intense Quote", "Block Text")."""
    import docx
    from docx.enum.style import WD_STYLE_TYPE

    document = docx.Document()
    if quotes and quote_style not in [style.name for style in document.styles]:
        # python-docx's template lacks some built-in styles; Word adds them as used, like this
        document.styles.add_style(quote_style, WD_STYLE_TYPE.PARAGRAPH)
    for number, block in enumerate(blocks):
        if isinstance(block, Table):
            columns = max(len(row) for row in block.rows)
            table = document.add_table(rows=len(block.rows), cols=columns)
            for r, row in enumerate(block.rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
        else:
            document.add_paragraph(block, style=quote_style if number in quotes else None)
    section = document.sections[0]
    if header is not None:
        section.header.paragraphs[0].text = header
    if footer is not None:
        section.footer.paragraphs[0].text = footer
    buffer = io.BytesIO()
    document.save(buffer)
    data = buffer.getvalue()
    if footnotes:
        data = _add_docx_footnotes(data, footnotes)
    path.write_bytes(data)
    return path


_W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _add_docx_footnotes(data: bytes, footnotes: Sequence[str]) -> bytes:
    """python-docx cannot write footnotes: add the part, its relationship and content type, and
    footnote references at the end of the first paragraph, as Word would."""
    notes = [
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p>'
        "</w:footnote>",
        '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r>'
        "<w:continuationSeparator/></w:r></w:p></w:footnote>",
    ]
    references = []
    for number, note in enumerate(footnotes, start=1):
        notes.append(
            f'<w:footnote w:id="{number}"><w:p><w:r><w:footnoteRef/></w:r>'
            f'<w:r><w:t xml:space="preserve"> {html.escape(note)}</w:t></w:r></w:p></w:footnote>'
        )
        references.append(f'<w:r><w:footnoteReference w:id="{number}"/></w:r>')
    footnotes_xml = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        f'<w:footnotes xmlns:w="{_W_NS}">{"".join(notes)}</w:footnotes>'
    ).encode()

    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "[Content_Types].xml":
                content = content.replace(
                    b"</Types>",
                    b'<Override PartName="/word/footnotes.xml" ContentType="application/'
                    b'vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/></Types>',
                )
            elif item.filename == "word/_rels/document.xml.rels":
                content = content.replace(
                    b"</Relationships>",
                    b'<Relationship Id="rIdFootnotes" Type="http://schemas.openxmlformats.org/'
                    b'officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/>'
                    b"</Relationships>",
                )
            elif item.filename == "word/document.xml":
                content = content.replace(b"</w:p>", "".join(references).encode() + b"</w:p>", 1)
            target.writestr(item, content)
        target.writestr("word/footnotes.xml", footnotes_xml)
    return out.getvalue()


# --- OpenDocument ----------------------------------------------------------------------------


def make_odt(
    path: Path,
    blocks: Sequence[Block],
    *,
    header: str | None = None,
    footnotes: Sequence[str] = (),
    quotes: Collection[int] = (),
) -> Path:
    """An .odt made by odfpy. `header` goes into the page style's header (left out by
    extraction); footnotes are anchored at the end of the first paragraph. The blocks numbered
    in `quotes` are in an automatic style derived from LibreOffice's "Quotations", as
    LibreOffice writes a quotation indented by hand."""
    from odf import teletype
    from odf.opendocument import OpenDocumentText
    from odf.style import Header, MasterPage, PageLayout, ParagraphProperties, Style
    from odf.table import Table as OdfTable
    from odf.table import TableCell, TableColumn, TableRow
    from odf.text import Note, NoteBody, NoteCitation, P

    document = OpenDocumentText()
    if header is not None:
        layout = PageLayout(name="DoppelPage")
        document.automaticstyles.addElement(layout)
        master = MasterPage(name="Standard", pagelayoutname=layout)
        page_header = Header()
        page_header.addElement(P(text=header))
        master.addElement(page_header)
        document.masterstyles.addElement(master)

    quote_style = None
    if quotes:
        document.styles.addElement(Style(name="Quotations", family="paragraph"))
        quote_style = Style(name="P1", family="paragraph", parentstylename="Quotations")
        quote_style.addElement(ParagraphProperties(marginleft="1cm"))
        document.automaticstyles.addElement(quote_style)

    first_paragraph = None
    for number, block in enumerate(blocks):
        if isinstance(block, Table):
            table = OdfTable(name=f"Table{number}")
            table.addElement(TableColumn(numbercolumnsrepeated=max(len(r) for r in block.rows)))
            for row in block.rows:
                table_row = TableRow()
                for cell in row:
                    table_cell = TableCell()
                    paragraph = P()
                    teletype.addTextToElement(paragraph, cell)
                    table_cell.addElement(paragraph)
                    table_row.addElement(table_cell)
                table.addElement(table_row)
            document.text.addElement(table)
        else:
            paragraph = P(stylename=quote_style) if number in quotes else P()
            teletype.addTextToElement(paragraph, block)
            document.text.addElement(paragraph)
            first_paragraph = first_paragraph or paragraph
    for number, note_text in enumerate(footnotes, start=1):
        assert first_paragraph is not None, "footnotes need a paragraph to anchor them"
        note = Note(id=f"ftn{number}", noteclass="footnote")
        note.addElement(NoteCitation(text=str(number)))
        body = NoteBody()
        body.addElement(P(text=note_text))
        note.addElement(body)
        first_paragraph.addElement(note)
    buffer = io.BytesIO()
    document.write(buffer)
    path.write_bytes(buffer.getvalue())
    return path


# --- RTF -------------------------------------------------------------------------------------


def rtf_escape(text: str) -> str:
    """RTF for `text`: Windows-1252 characters as \\'xx, others as \\uN? (UTF-16 units)."""
    out: list[str] = []
    for ch in text:
        if ch in "\\{}":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\line ")
        elif ord(ch) < 128:
            out.append(ch)
        else:
            try:
                out.append(f"\\'{ch.encode('cp1252')[0]:02x}")
            except UnicodeEncodeError:
                units = ch.encode("utf-16-le")
                for i in range(0, len(units), 2):
                    unit = int.from_bytes(units[i : i + 2], "little")
                    out.append(f"\\u{unit - 65536 if unit >= 32768 else unit}?")
    return "".join(out)


def make_rtf(
    path: Path,
    blocks: Sequence[Block],
    *,
    header: str | None = None,
    footer: str | None = None,
) -> Path:
    """An RTF document as Word writes it (ANSI code page 1252, \\par paragraphs, real tables);
    `header`/`footer` groups must be left out by extraction."""
    parts = ["{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0\\froman Times New Roman;}}\n"]
    if header is not None:
        parts.append(f"{{\\header\\pard\\plain {rtf_escape(header)}\\par}}\n")
    if footer is not None:
        parts.append(f"{{\\footer\\pard\\plain {rtf_escape(footer)} \\chpgn\\par}}\n")
    parts.append("\\f0\\fs24\n")
    for block in blocks:
        if isinstance(block, Table):
            for row in block.rows:
                parts.append(
                    "\\trowd" + "".join(f"\\cellx{2000 * (i + 1)}" for i in range(len(row)))
                )
                parts.append("".join(f"\\pard\\intbl {rtf_escape(cell)}\\cell " for cell in row))
                parts.append("\\row\n")
            parts.append("\\pard\n")
        else:
            parts.append(f"\\pard {rtf_escape(block)}\\par\n")
    parts.append("}")
    path.write_bytes("".join(parts).encode("ascii"))
    return path


# --- HTML ------------------------------------------------------------------------------------


def make_html(
    path: Path,
    blocks: Sequence[Block],
    *,
    encoding: str = "utf-8",
    declare_charset: bool = True,
    title: str = "Essay",
    noise: bool = True,
    source_wrap: int | None = 70,
    quotes: Collection[int] = (),
) -> Path:
    """A web page with the paragraphs as <p> elements (source text wrapped at `source_wrap`
    columns, as editors do). `noise` adds what extraction must ignore: a style sheet, scripts,
    a <noscript> and a <template>, a hidden element and a comment. The blocks numbered in
    `quotes` are in a <blockquote>."""

    def para(text: str) -> str:
        escaped = html.escape(text, quote=False)
        if source_wrap:
            escaped = "\n".join(textwrap.wrap(escaped, source_wrap, break_on_hyphens=False))
        return f"<p>\n{escaped}\n</p>"

    head = [f'<meta charset="{encoding}">'] if declare_charset else []
    head.append(f"<title>{html.escape(title)}</title>")
    body: list[str] = []
    if noise:
        head.append("<style>p { margin: 1em; } .x::before { content: 'styled'; }</style>")
        head.append("<script>var hidden = 'script text';</script>")
        body.append("<noscript>Please enable JavaScript.</noscript>")
        body.append("<template><p>Template text.</p></template>")
        body.append('<div hidden>Hidden text.</div><div style="display: none">Undisplayed.</div>')
        body.append("<!-- a comment -->")
    for number, block in enumerate(blocks):
        if isinstance(block, Table):
            rows = "".join(
                "<tr>" + "".join(f"<td>{html.escape(c, quote=False)}</td>" for c in row) + "</tr>"
                for row in block.rows
            )
            body.append(f"<table>{rows}</table>")
        elif number in quotes:
            body.append(f"<blockquote>{para(block)}</blockquote>")
        else:
            body.append(para(block))
    if noise:
        body.append("<script>document.write('more script text');</script>")
    page = (
        "<!DOCTYPE html>\n<html>\n<head>\n"
        + "\n".join(head)
        + "\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )
    path.write_bytes(page.encode(encoding))
    return path


# --- PDF -------------------------------------------------------------------------------------

_FONT_CHARS = (
    list(range(0x20, 0x7F))
    + list(range(0xA0, 0x180))
    + [0x2010, 0x2011, 0x2013, 0x2014, 0x2018, 0x2019, 0x201C, 0x201D, 0x2026, 0x20AC]
    + [0xFB01, 0xFB02]
)


_KEEP_ALIVE: list[tempfile.TemporaryDirectory[str]] = []


@functools.cache
def unicode_font_path() -> Path:
    """A TrueType font covering Latin-1, Latin Extended-A, curly quotes, dashes and the fi/fl
    ligatures, built with fontTools (installed with fpdf2) so PDFs can hold non-Latin-1 text
    without any system font. Glyphs are plain boxes: only the text layer matters."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    names = [".notdef"] + [f"uni{code:04X}" for code in _FONT_CHARS]
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({code: f"uni{code:04X}" for code in _FONT_CHARS})
    glyphs = {}
    for name in names:
        pen = TTGlyphPen(None)
        if name != "uni0020":
            pen.moveTo((50, 0))
            pen.lineTo((50, 700))
            pen.lineTo((450, 700))
            pen.lineTo((450, 0))
            pen.closePath()
        glyphs[name] = pen.glyph()
    builder.setupGlyf(glyphs)
    builder.setupHorizontalMetrics({name: (500, 50) for name in names})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "DoppelTest", "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    folder = tempfile.TemporaryDirectory(prefix="doppel-test-font-")
    _KEEP_ALIVE.append(folder)  # removed when the test process exits
    font = Path(folder.name) / "DoppelTest.ttf"
    builder.save(str(font))
    return font


RunningText = str | Callable[[int], str] | None


def make_pdf(
    path: Path,
    blocks: Sequence[Block],
    *,
    header: RunningText = None,
    footer: RunningText = None,
    footer_page_numbers: bool = False,
    font: str = "auto",
    font_size: float = 11,
    line_spacing: float = 1.5,
    paragraph_gap: float = 4,
    page_format: str | tuple[float, float] = "A4",
) -> Path:
    """A PDF made by fpdf2 the way a word processor prints one.

    Paragraphs are wrapped by fpdf2 (a "\\n" inside one forces a line break there), lines
    `line_spacing` font sizes apart, `paragraph_gap` mm between paragraphs, on `page_format`
    pages ("A4", or (width, height) in mm). `header` and `footer` are printed on every page
    (small, top left and bottom centre): a text, or a function of the page number.
    `footer_page_numbers` is short for `footer=lambda n: f"Page {n}"`.

    `font`: "core" (Helvetica, Latin-1 only), "unicode" (the generated test font) or "auto"
    (core when every character is Latin-1)."""
    from fpdf import FPDF
    from fpdf.enums import XPos, YPos

    if footer_page_numbers and footer is None:
        footer = "Page {}".format
    paragraphs = flatten(blocks)
    samples = [*paragraphs, *(_running(t, 1) for t in (header, footer) if t is not None)]
    if font == "auto":
        font = "core" if all(_latin1(t) for t in samples) else "unicode"

    class _Document(FPDF):
        def header(self) -> None:
            if header is not None:
                self.set_font(family, size=9)
                self.cell(
                    0, 6, _running(header, self.page_no()), new_x=XPos.LMARGIN, new_y=YPos.NEXT
                )
                self.ln(4)

        def footer(self) -> None:
            if footer is not None:
                self.set_y(-15)
                self.set_font(family, size=9)
                self.cell(0, 6, _running(footer, self.page_no()), align="C")

    pdf = _Document(format=page_format)
    if font == "unicode":
        family = "DoppelTest"
        pdf.add_font(family, fname=str(unicode_font_path()))
    else:
        family = "helvetica"
    pdf.set_auto_page_break(True, margin=20)
    pdf.add_page()
    line_height = font_size * line_spacing * 25.4 / 72  # points to mm
    for paragraph in paragraphs:
        pdf.set_font(family, size=font_size)
        pdf.multi_cell(0, line_height, paragraph, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.ln(paragraph_gap)
    pdf.output(str(path))
    return path


def _running(text: str | Callable[[int], str], page: int) -> str:
    return text if isinstance(text, str) else text(page)


def _latin1(text: str) -> bool:
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


def make_image_only_pdf(path: Path, pages: int = 2) -> Path:
    """A "scanned" PDF: each page is a grey raster image and a drawn frame, with no text."""
    from fpdf import FPDF
    from PIL import Image

    pdf = FPDF()
    scan = Image.new("L", (170, 240), 230)
    for _ in range(pages):
        pdf.add_page()
        pdf.image(scan, x=20, y=20, w=170)
        pdf.rect(15, 15, 180, 260)
    pdf.output(str(path))
    return path


def encrypt_pdf(
    source: Path,
    target: Path,
    *,
    user_password: str,
    owner_password: str | None = "owner-secret",
    algorithm: str = "AES-128",
) -> Path:
    """`source` encrypted with pypdf. An empty `user_password` makes an "owner password only"
    PDF, which opens without a password (it only restricts printing or copying)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(source))
    writer.encrypt(user_password=user_password, owner_password=owner_password, algorithm=algorithm)
    with target.open("wb") as file:
        writer.write(file)
    return target


# Two documents sharing a copied passage word for word (COPIED) or only in shape (RESHAPED:
# the same lengths and first two terms, sentence by sentence, other words mostly different),
# for the shared-words tests of the engine and of the comparison view.
FILLER_A = (
    "Rivers carve valleys over many thousands of years. Glaciers leave lakes behind them. "
    "Mountains rise where plates collide slowly. "
)
FILLER_B = (
    "Bread needs flour, water and patience. Bakers rise before dawn every morning. "
    "Ovens must be hot before the loaves go in. "
)
COPIED = (
    "Photosynthesis converts light energy into chemical energy stored in glucose. "
    "Chlorophyll absorbs mostly red and blue light from the sun. "
    "Oxygen is released as a by-product of splitting water molecules."
)
RESHAPED = (
    "Photosynthesis converts solar power into sugar molecules kept in leaves. "
    "Chlorophyll absorbs chiefly violet and orange rays from lamps. "
    "Oxygen is released as a side effect of breaking molecules."
)

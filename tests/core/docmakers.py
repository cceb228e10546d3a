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


# --- formatted text: runs a reader may not see --------------------------------------------------


@dataclass(frozen=True)
class Run:
    """A run of text and its character formatting, for `make_docx_formatted` and
    `make_odt_formatted`. Colours are hex RGB ("FFFFFF"); `size` is in points."""

    text: str
    hidden: bool = False  # .docx w:vanish; .odt text:display="none"
    colour: str | None = None
    size: float | None = None
    shading: str | None = None  # the run's own background
    highlight: str | None = None  # .docx only: a highlight colour name ("yellow", "black")
    style: str | None = None  # a character style defined with `styles`


@dataclass(frozen=True)
class Para:
    """A paragraph of runs (a `str` is an unformatted run). `style` names a paragraph style
    defined with `styles`; `shading` is the paragraph's background; with `cell_shading` the
    paragraph sits alone in a table cell of that background."""

    runs: tuple[Run | str, ...]
    style: str | None = None
    shading: str | None = None
    cell_shading: str | None = None


@dataclass(frozen=True)
class StyleDef:
    """A paragraph or character style whose text is formatted like `run` (its text unused)."""

    name: str
    kind: str  # "paragraph" or "character"
    run: Run
    based_on: str | None = None


def _docx_run_properties(run: Run) -> str:
    props = []
    if run.style:
        props.append(f'<w:rStyle w:val="{run.style}"/>')
    if run.hidden:
        props.append("<w:vanish/>")
    if run.colour:
        props.append(f'<w:color w:val="{run.colour}"/>')
    if run.size is not None:
        props.append(f'<w:sz w:val="{round(run.size * 2)}"/>')
    if run.highlight:
        props.append(f'<w:highlight w:val="{run.highlight}"/>')
    if run.shading:
        props.append(f'<w:shd w:val="clear" w:color="auto" w:fill="{run.shading}"/>')
    return f"<w:rPr>{''.join(props)}</w:rPr>" if props else ""


def make_docx_formatted(
    path: Path,
    paragraphs: Sequence[Para | str],
    *,
    styles: Sequence[StyleDef] = (),
    page_colour: str | None = None,
) -> Path:
    """A .docx whose runs carry the given formatting (hidden, coloured, tiny, shaded), in
    styles too, as Word writes them: python-docx's blank document with the body, the style
    definitions and the page colour (w:background) written into its XML."""
    import docx

    body = []
    for paragraph in paragraphs:
        if isinstance(paragraph, str):
            paragraph = Para((paragraph,))
        props = []
        if paragraph.style:
            props.append(f'<w:pStyle w:val="{paragraph.style}"/>')
        if paragraph.shading:
            props.append(f'<w:shd w:val="clear" w:color="auto" w:fill="{paragraph.shading}"/>')
        runs = []
        for run in paragraph.runs:
            run = Run(run) if isinstance(run, str) else run
            text = html.escape(run.text, quote=False)
            runs.append(
                f'<w:r>{_docx_run_properties(run)}<w:t xml:space="preserve">{text}</w:t></w:r>'
            )
        xml = f"<w:p><w:pPr>{''.join(props)}</w:pPr>{''.join(runs)}</w:p>"
        if paragraph.cell_shading:
            xml = (
                '<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>'
                '<w:gridCol w:w="4000"/></w:tblGrid><w:tr><w:tc><w:tcPr><w:tcW w:w="4000" '
                'w:type="dxa"/><w:shd w:val="clear" w:color="auto" '
                f'w:fill="{paragraph.cell_shading}"/></w:tcPr>{xml}</w:tc></w:tr></w:tbl>'
            )
        body.append(xml)
    style_xml = []
    for style in styles:
        based = f'<w:basedOn w:val="{style.based_on}"/>' if style.based_on else ""
        style_xml.append(
            f'<w:style w:type="{style.kind}" w:styleId="{style.name}"><w:name '
            f'w:val="{style.name}"/>{based}{_docx_run_properties(style.run)}</w:style>'
        )

    buffer = io.BytesIO()
    docx.Document().save(buffer)
    source = zipfile.ZipFile(buffer)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "word/document.xml":
                content = content.replace(b"<w:body>", b"<w:body>" + "".join(body).encode(), 1)
                if page_colour:
                    content = content.replace(
                        b"<w:body>", f'<w:background w:color="{page_colour}"/><w:body>'.encode()
                    )
            elif item.filename == "word/styles.xml":
                content = content.replace(
                    b"</w:styles>", "".join(style_xml).encode() + b"</w:styles>"
                )
            target.writestr(item, content)
    path.write_bytes(out.getvalue())
    return path


def make_odt_formatted(
    path: Path,
    paragraphs: Sequence[Para | str],
    *,
    styles: Sequence[StyleDef] = (),
    hidden_sections: Sequence[Sequence[str]] = (),
    hidden_fields: Sequence[str] = (),
) -> Path:
    """An .odt made by odfpy whose runs are spans in automatic text styles carrying the given
    formatting (text:display="none", fo:color, fo:font-size, fo:background-color), with named
    `styles` (a character `StyleDef` is a text style). Then each of `hidden_sections` (its
    paragraphs) in a section with text:display="none", and each of `hidden_fields` as a
    paragraph "Shown. " followed by a hidden-text field holding it."""
    from odf.opendocument import OpenDocumentText
    from odf.style import ParagraphProperties, Style, TableCellProperties, TextProperties
    from odf.table import Table as OdfTable
    from odf.table import TableCell, TableColumn, TableRow
    from odf.text import HiddenText, P, Section, Span

    document = OpenDocumentText()

    def text_properties(run: Run) -> TextProperties | None:
        attributes: dict[str, str] = {}
        if run.hidden:
            attributes["display"] = "none"
        if run.colour:
            attributes["color"] = f"#{run.colour}"
        if run.size is not None:
            attributes["fontsize"] = f"{run.size}pt"
        if run.shading:
            attributes["backgroundcolor"] = f"#{run.shading}"
        return TextProperties(**attributes) if attributes else None

    for definition in styles:
        family = "text" if definition.kind == "character" else "paragraph"
        style = Style(name=definition.name, family=family)
        if definition.based_on:
            style.setAttribute("parentstylename", definition.based_on)
        properties = text_properties(definition.run)
        if properties is not None:
            style.addElement(properties)
        document.styles.addElement(style)

    counter = iter(range(1, 1_000_000))

    def automatic(family: str, parent: str | None = None) -> Style:
        style = Style(name=f"Auto{next(counter)}", family=family)
        if parent:
            style.setAttribute("parentstylename", parent)
        document.automaticstyles.addElement(style)
        return style

    for paragraph in paragraphs:
        if isinstance(paragraph, str):
            paragraph = Para((paragraph,))
        paragraph_style = None
        if paragraph.style or paragraph.shading:
            paragraph_style = automatic("paragraph", paragraph.style)
            if paragraph.shading:
                paragraph_style.addElement(
                    ParagraphProperties(backgroundcolor=f"#{paragraph.shading}")
                )
        element = P(stylename=paragraph_style) if paragraph_style else P()
        for run in paragraph.runs:
            run = Run(run) if isinstance(run, str) else run
            properties = text_properties(run)
            if properties is None and not run.style:
                element.addText(run.text)
                continue
            span_style = automatic("text", run.style)
            if properties is not None:
                span_style.addElement(properties)
            element.addElement(Span(stylename=span_style, text=run.text))
        if paragraph.cell_shading:
            cell_style = automatic("table-cell")
            cell_style.addElement(TableCellProperties(backgroundcolor=f"#{paragraph.cell_shading}"))
            table = OdfTable(name=f"Table{next(counter)}")
            table.addElement(TableColumn())
            row = TableRow()
            cell = TableCell(stylename=cell_style)
            cell.addElement(element)
            row.addElement(cell)
            table.addElement(row)
            document.text.addElement(table)
        else:
            document.text.addElement(element)
    for number, texts in enumerate(hidden_sections):
        section = Section(name=f"Hidden{number}", display="none")
        for text in texts:
            section.addElement(P(text=text))
        document.text.addElement(section)
    for text in hidden_fields:
        element = P(text="Shown. ")
        element.addElement(HiddenText(condition="ooow:1", stringvalue=text, text=text))
        document.text.addElement(element)
    buffer = io.BytesIO()
    document.write(buffer)
    path.write_bytes(buffer.getvalue())
    return path


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


def make_raw_pdf(path: Path, contents: Sequence[bytes]) -> Path:
    """A PDF written by hand, one page per content stream in `contents` (raw drawing
    instructions, e.g. b"BT /F1 12 Tf 72 720 Td (Text) Tj ET"), each stream Flate-compressed,
    with Helvetica as /F1: for pages no PDF library would write (a gigabyte of instructions)."""
    import zlib

    pages = len(contents)
    font = 3 + 2 * pages
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>"
        % (b" ".join(b"%d 0 R" % (3 + 2 * i) for i in range(pages)), pages),
    ]
    for number, content in enumerate(contents):
        stream = zlib.compress(content, 9)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 "
            b"%d 0 R >> >> /Contents %d 0 R >>" % (font, 4 + 2 * number)
        )
        objects.append(
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(stream), stream)
        )
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    path.write_bytes(bytes(out))
    return path


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

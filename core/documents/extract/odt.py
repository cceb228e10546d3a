"""Reads the text of an OpenDocument text (.odt): paragraphs, headings, lists, tables, sections
and text boxes in document order, then footnotes and endnotes. Headers and footers (kept in
the styles part) and comments are left out. Paragraphs in LibreOffice's "Quotations" style (or
a style derived from it, or another quote style: core.documents.extract.raw.QUOTE_STYLE_NAMES)
are reported as block quotes.

odfpy parses the package (with defusedxml, so entity tricks are refused); the body tree is
walked here because odfpy's own `teletype.extractText` would splice notes and comments into
the middle of sentences."""

from __future__ import annotations

import re
import zipfile
from io import BytesIO
from pathlib import Path
from typing import Any
from xml.parsers import expat as xml_parsers_expat

from core.documents.extract.raw import (
    RawText,
    derived_quote_styles,
    is_quote_style_name,
    join_paragraphs,
    library_message,
)
from core.documents.extract.sniff import looks_like
from core.documents.extract.zipguard import check_archive
from core.errors import CorruptDocument, DocumentError, EncryptedDocument, UnsupportedFormat

_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_DRAW = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
_SVG = "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
_STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"

_ELEMENT_NODE = 1
_TEXT_NODES = (3, 4)  # text and CDATA

_PARAGRAPHS = frozenset({(_TEXT, "p"), (_TEXT, "h")})
_NOTE = (_TEXT, "note")
_NOTE_BODY = (_TEXT, "note-body")
_TEXT_BOX = (_DRAW, "text-box")
_STYLE_ELEMENT = (_STYLE, "style")
_STYLE_NAME = (_TEXT, "style-name")
_SPACES = (_TEXT, "s")
_INLINE_TEXT = {(_TEXT, "tab"): "\t", (_TEXT, "line-break"): "\n"}
# Subtrees that are not running text: tracked-change records (they hold deleted text), comments,
# index templates, declarations, alt text, pictures and embedded objects.
_SKIPPED = frozenset(
    {
        (_TEXT, "tracked-changes"),
        (_OFFICE, "annotation"),
        (_OFFICE, "annotation-end"),
        (_OFFICE, "forms"),
        (_TEXT, "sequence-decls"),
        (_TEXT, "variable-decls"),
        (_TEXT, "user-field-decls"),
        (_TEXT, "table-of-content-source"),
        (_TEXT, "illustration-index-source"),
        (_TEXT, "alphabetical-index-source"),
        (_TEXT, "bibliography-source"),
        (_TEXT, "user-index-source"),
        (_TEXT, "object-index-source"),
        (_TEXT, "table-index-source"),
        (_TEXT, "note-citation"),
        (_SVG, "title"),
        (_SVG, "desc"),
        (_DRAW, "image"),
        (_DRAW, "object"),
        (_DRAW, "object-ole"),
    }
)

_XML_WHITESPACE = str.maketrans("\t\n\r", "   ")

# The XML parts odfpy parses: the document's and those of embedded objects.
_ODFPY_PARTS = re.compile(r"(?:Object [^/]+/)?(?:settings|meta|content|styles)\.xml")

_TEXT_MIMETYPE = "application/vnd.oasis.opendocument.text"


def read_odt(data: bytes, path: Path) -> RawText:
    if not data.startswith(b"PK"):
        raise CorruptDocument(
            path, f"it is not an OpenDocument .odt file (not a zip container){looks_like(data)}"
        )
    check_archive(data, path)
    _check_package(data, path)

    from odf import opendocument  # imported late: odfpy is only needed for .odt files

    try:
        document = opendocument.load(BytesIO(data))
    except Exception as exc:
        raise CorruptDocument(
            path, f"it cannot be opened as an OpenDocument text ({library_message(exc)})"
        ) from exc
    body = getattr(document, "text", None)
    if body is None:
        raise CorruptDocument(path, "it has no text body")

    notes: list[str] = []
    paragraphs = _block_texts(body, notes, _quote_styles(document))
    warnings: list[str] = []
    if notes:
        paragraphs.extend((note, False) for note in notes)
        warnings.append(f"added {len(notes)} footnote/endnote paragraph(s) at the end of the text")
    text, block_quotes = join_paragraphs(paragraphs)
    return RawText(text, tuple(warnings), block_quotes)


def _quote_styles(document: Any) -> frozenset[str]:
    """The names of the paragraph styles that are quote styles or derive from one: the
    automatic styles ("P3") a paragraph formatted by hand gets name their parent."""
    styles: dict[str, tuple[str, str | None]] = {}  # name -> (display name, parent name)
    for container in (document.styles, document.automaticstyles):
        for node in getattr(container, "childNodes", ()):
            if node.nodeType != _ELEMENT_NODE or node.qname != _STYLE_ELEMENT:
                continue
            attributes = node.attributes
            name = attributes.get((_STYLE, "name"))
            if not name or attributes.get((_STYLE, "family"), "paragraph") != "paragraph":
                continue
            styles[str(name)] = (
                str(attributes.get((_STYLE, "display-name"), "")),
                _optional(attributes.get((_STYLE, "parent-style-name"))),
            )
    # names escape spaces and other characters as _20_ ("Intense_20_Quote")
    return derived_quote_styles(
        {
            name: (is_quote_style_name(_unescape(name)) or is_quote_style_name(display), parent)
            for name, (display, parent) in styles.items()
        }
    )


def _optional(value: object) -> str | None:
    return None if value is None else str(value)


def _unescape(name: str) -> str:
    return re.sub(r"_([0-9a-fA-F]{2})_", lambda m: chr(int(m.group(1), 16)), name)


def _check_package(data: bytes, path: Path) -> None:
    """Encrypted, non-text and damaged packages, told apart before odfpy fails on them
    obscurely (or prints them: see _check_well_formed)."""
    try:
        with zipfile.ZipFile(BytesIO(data)) as archive:
            names = set(archive.namelist())
            mimetype = (
                archive.read("mimetype").decode("utf-8", "replace").strip()
                if "mimetype" in names
                else _TEXT_MIMETYPE
            )
            manifest = (
                archive.read("META-INF/manifest.xml") if "META-INF/manifest.xml" in names else b""
            )
            if b"encryption-data" in manifest:
                raise EncryptedDocument(
                    path,
                    "it is password-protected; open it in LibreOffice, remove the password "
                    "(File > Properties > Security) and save it again",
                )
            if not mimetype.startswith(_TEXT_MIMETYPE):
                kind = mimetype.rsplit(".", 1)[-1] if "opendocument" in mimetype else "unknown"
                raise UnsupportedFormat(
                    path,
                    f"it is an OpenDocument {kind}, not a text document; only .odt text is "
                    "supported",
                )
            if "content.xml" not in names:
                raise CorruptDocument(path, "it has no content part (content.xml)")
            parts = {name: archive.read(name) for name in names if _ODFPY_PARTS.fullmatch(name)}
    except DocumentError:
        raise
    except Exception as exc:
        raise CorruptDocument(
            path, f"the file is damaged or incomplete ({library_message(exc)})"
        ) from exc
    for name, xml in sorted(parts.items()):
        _check_well_formed(xml, name, path)


def _check_well_formed(xml: bytes, name: str, path: Path) -> None:
    """odfpy prints a part it cannot parse to stdout (all of it) and carries on with a partial
    document, so parts are checked first with expat: well-formedness only, since odfpy repairs
    missing namespace declarations itself. Entity declarations are refused, as odfpy's
    defusedxml would."""

    def refuse_entities(*_: object) -> None:
        raise ValueError("it declares XML entities")

    parser = xml_parsers_expat.ParserCreate()
    parser.EntityDeclHandler = refuse_entities
    try:
        parser.Parse(xml, True)
    except (xml_parsers_expat.ExpatError, ValueError) as exc:
        raise CorruptDocument(
            path, f"its part {name} is damaged, so it cannot be read ({library_message(exc)})"
        ) from exc


def _block_texts(
    container: Any, notes: list[str], quote_styles: frozenset[str] = frozenset()
) -> list[tuple[str, bool]]:
    """Paragraph texts under a block container in document order, each with whether its style
    is one of `quote_styles`; note texts go to `notes`. Iterative, so deep nesting cannot
    exhaust the stack."""
    texts: list[tuple[str, bool]] = []
    stack: list[Any] = list(reversed(container.childNodes))
    while stack:
        node = stack.pop()
        if node.nodeType != _ELEMENT_NODE or node.qname in _SKIPPED:
            continue
        if node.qname in _PARAGRAPHS:
            text_boxes: list[Any] = []
            style = node.attributes.get(_STYLE_NAME)
            quoted = style is not None and str(style) in quote_styles
            texts.append((_paragraph_text(node, notes, text_boxes), quoted))
            for box in text_boxes:
                texts.extend(_block_texts(box, notes, quote_styles))
        else:
            stack.extend(reversed(node.childNodes))
    return texts


def _paragraph_text(paragraph: Any, notes: list[str], text_boxes: list[Any]) -> str:
    parts: list[str] = []
    stack: list[Any] = list(reversed(paragraph.childNodes))
    while stack:
        node = stack.pop()
        if node.nodeType in _TEXT_NODES:
            # In ODF, line breaks in the XML are plain whitespace; real ones are text:line-break.
            parts.append(str(node.data).translate(_XML_WHITESPACE))
            continue
        if node.nodeType != _ELEMENT_NODE or node.qname in _SKIPPED:
            continue
        qname = node.qname
        if qname == _SPACES:
            count = node.attributes.get((_TEXT, "c"))
            parts.append(" " * _space_count(count))
        elif qname in _INLINE_TEXT:
            parts.append(_INLINE_TEXT[qname])
        elif qname == _NOTE:
            for child in node.childNodes:
                if child.nodeType == _ELEMENT_NODE and child.qname == _NOTE_BODY:
                    notes.extend(text for text, _ in _block_texts(child, notes) if text.strip())
        elif qname == _TEXT_BOX:
            text_boxes.append(node)
        else:
            stack.extend(reversed(node.childNodes))
    return "".join(parts)


def _space_count(value: object) -> int:
    try:
        return max(1, min(int(str(value)), 1000))
    except ValueError:
        return 1

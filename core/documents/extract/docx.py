"""Reads the text of a Word .docx: body paragraphs and tables in document order, then footnotes
and endnotes. Headers, footers and comments are left out. Paragraphs in a quote style (Word's
"Quote", "Intense Quote", "Block Text", or a style based on one) are reported as block quotes.

python-docx opens the package, but its `Document.paragraphs` skips tables and it does not
expose footnotes, so the body XML is walked here, in order, and the notes parts are read from
the package directly."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path
from typing import Any

from core.documents.extract.raw import (
    RawText,
    derived_quote_styles,
    is_quote_style_name,
    join_paragraphs,
    library_message,
)
from core.documents.extract.sniff import is_encrypted_office_file, is_ole2, looks_like
from core.documents.extract.zipguard import check_archive
from core.errors import CorruptDocument, EncryptedDocument

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"

_P = f"{_W}p"
_P_STYLE = f"{_W}pPr/{_W}pStyle"
_VAL = f"{_W}val"
_T = f"{_W}t"
_TXBX_CONTENT = f"{_W}txbxContent"
_INLINE_TEXT = {
    _T: None,  # the element's own text
    f"{_W}tab": "\t",
    f"{_W}ptab": "\t",
    f"{_W}br": "\n",
    f"{_W}cr": "\n",
    f"{_W}noBreakHyphen": "-",
    f"{_W}softHyphen": "\u00ad",
}
# Subtrees whose text is not part of what the reader sees: tracked deletions and moved-away
# text, field instructions, properties, and mc:Fallback (a second copy of mc:Choice content,
# e.g. the same text box drawn the old way).
_SKIPPED = frozenset(
    {
        f"{_W}del",
        f"{_W}moveFrom",
        f"{_W}instrText",
        f"{_W}delText",
        f"{_W}rPr",
        f"{_W}pPr",
        f"{_W}sectPr",
        f"{_W}tblPr",
        f"{_W}sdtPr",
        f"{_MC}Fallback",
    }
)
# Notes with these types are the separator lines Word draws above notes, not notes.
_SEPARATOR_NOTE_TYPES = frozenset({"separator", "continuationSeparator", "continuationNotice"})

_DOCX_KIND = "a Word (.docx) document"  # as core.documents.extract.sniff describes one

_REL_FOOTNOTES = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes"
_REL_ENDNOTES = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/endnotes"


def read_docx(data: bytes, path: Path) -> RawText:
    if is_encrypted_office_file(data):
        raise EncryptedDocument(
            path,
            "it is password-protected; open it in Word, remove the password "
            "(File > Info > Protect Document) and save it again",
        )
    if is_ole2(data):
        raise CorruptDocument(
            path,
            "it is not a .docx file but an old-style Word 97-2003 document (.doc) or another "
            "Office file; open it in Word or LibreOffice and save it as .docx",
        )
    if not data.startswith(b"PK"):
        raise CorruptDocument(
            path, f"it is not a Word .docx file (not a zip container){looks_like(data)}"
        )
    check_archive(data, path)

    import docx  # imported late: python-docx is only needed for .docx files

    try:
        document = docx.Document(BytesIO(data))
    except Exception as exc:
        raise CorruptDocument(
            path,
            f"it cannot be opened as a Word document ({library_message(exc)})"
            + looks_like(data, expected=_DOCX_KIND),
        ) from exc

    paragraphs = _block_texts(document.element.body, _quote_styles(document))
    warnings: list[str] = []
    for reltype, note_tag, kind in (
        (_REL_FOOTNOTES, f"{_W}footnote", "footnote"),
        (_REL_ENDNOTES, f"{_W}endnote", "endnote"),
    ):
        notes = _notes(document.part, reltype, note_tag, path)
        if notes:
            paragraphs.extend((note, False) for note in notes)
            warnings.append(f"added {len(notes)} {kind}(s) at the end of the text")
    text, block_quotes = join_paragraphs(paragraphs)
    return RawText(text, tuple(warnings), block_quotes)


def _quote_styles(document: Any) -> frozenset[str]:
    """The ids of the paragraph styles that are quote styles or based on one (any depth)."""
    try:
        root = document.styles.element
    except Exception:  # no usable styles part: no quote styles
        return frozenset()
    styles: dict[str, tuple[str, str | None]] = {}  # id -> (name, id of the base style)
    for style in root.iterchildren(f"{_W}style"):
        style_id = style.get(f"{_W}styleId")
        if not style_id or style.get(f"{_W}type", "paragraph") != "paragraph":
            continue
        name = style.find(f"{_W}name")
        based = style.find(f"{_W}basedOn")
        styles[style_id] = (
            "" if name is None else name.get(_VAL, ""),
            None if based is None else based.get(_VAL),
        )
    return derived_quote_styles(
        {
            sid: (is_quote_style_name(sid) or is_quote_style_name(name), base)
            for sid, (name, base) in styles.items()
        }
    )


def _notes(main_part: Any, reltype: str, note_tag: str, path: Path) -> list[str]:
    """The text of each real note in the footnotes or endnotes part, one paragraph per note
    paragraph; [] when the document has none."""
    for rel in main_part.rels.values():
        if rel.reltype != reltype or rel.is_external:
            continue
        try:
            root = _parse_xml(rel.target_part.blob)
        except Exception as exc:
            raise CorruptDocument(
                path, f"its notes part is damaged ({library_message(exc)})"
            ) from exc
        texts: list[str] = []
        for note in root.iterchildren(note_tag):
            if note.get(f"{_W}type") in _SEPARATOR_NOTE_TYPES:
                continue
            texts.extend(text for text, _ in _block_texts(note) if text.strip())
        return texts
    return []


def _parse_xml(xml: bytes) -> Any:
    from lxml import etree  # installed with python-docx

    # The same hardening python-docx uses: no entity expansion, no network.
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    return etree.fromstring(xml, parser=parser)


def _block_texts(
    container: Any, quote_styles: frozenset[str] = frozenset()
) -> list[tuple[str, bool]]:
    """Paragraph texts under a block container (body, table cell, note, text box) in document
    order, each with whether its style is one of `quote_styles`. Each table cell paragraph is
    its own paragraph, so a sentence never runs from one cell into the next. Unknown wrappers
    (content controls, custom XML, tracked insertions) are descended into; an iterative walk
    keeps deep nesting from exhausting the stack."""
    texts: list[tuple[str, bool]] = []
    stack: list[Any] = list(_reversed_children(container))
    while stack:
        element = stack.pop()
        tag = element.tag
        if not isinstance(tag, str) or tag in _SKIPPED:
            continue  # comments, processing instructions, or skipped subtrees
        if tag == _P:
            text_boxes: list[Any] = []
            style = element.find(_P_STYLE)
            quoted = style is not None and style.get(_VAL) in quote_styles
            texts.append((_paragraph_text(element, text_boxes), quoted))
            for box in text_boxes:
                texts.extend(_block_texts(box, quote_styles))
        else:
            stack.extend(_reversed_children(element))
    return texts


def _paragraph_text(paragraph: Any, text_boxes: list[Any]) -> str:
    """The visible text of one w:p. Text boxes anchored in it are collected into `text_boxes`
    to become paragraphs after it, instead of being spliced into the middle of its sentence."""
    parts: list[str] = []
    stack: list[Any] = list(_reversed_children(paragraph))
    while stack:
        element = stack.pop()
        tag = element.tag
        if not isinstance(tag, str) or tag in _SKIPPED:
            continue
        if tag in _INLINE_TEXT:
            replacement = _INLINE_TEXT[tag]
            parts.append((element.text or "") if replacement is None else replacement)
        elif tag == _TXBX_CONTENT:
            text_boxes.append(element)
        else:
            stack.extend(_reversed_children(element))
    return "".join(parts)


def _reversed_children(element: Any) -> list[Any]:
    return list(element)[::-1]

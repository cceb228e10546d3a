"""Reads the text of an RTF document with striprtf: body text, with \\u and \\'xx escapes decoded
in the document's code page. striprtf leaves out headers, footers, footnotes, comments and
pictures (they are RTF "destinations")."""

from __future__ import annotations

import re
from pathlib import Path

from core.documents.extract.raw import RawText, library_message
from core.documents.extract.sniff import is_rtf, looks_like
from core.errors import CorruptDocument

_ANSI_CODE_PAGE = re.compile(rb"\\ansicpg(\d{1,5})")
# striprtf writes "\n" for a paragraph end (\par) and for a line break (\line) alike, and
# table cells as "a|b|c". Doubling each \par (and making each cell and row end a paragraph, as
# for .docx and .odt) keeps paragraphs apart. An escaped backslash is matched first so that
# "\\par" in the text stays text.
_PARAGRAPH_END = re.compile(r"\\\\|\\(?:par|nestcell|cell|nestrow|row)(?![a-zA-Z])")
# striprtf rewrites hyperlink fields as "text(url)", putting the address into the text; renaming
# the field type keeps only the visible link text, as Word shows it.
_HYPERLINK_FIELD = re.compile(r'(\\fldinst\b[^"]{0,500}?)HYPERLINK\b')
_ESCAPED = re.compile(r"\\[\\{}]")


def read_rtf(data: bytes, path: Path) -> RawText:
    if not is_rtf(data):
        raise CorruptDocument(
            path, f"it is not an RTF document (it does not start with '{{\\rtf'){looks_like(data)}"
        )
    source = _decode_source(data)
    source = _PARAGRAPH_END.sub(
        lambda m: m.group(0) if m.group(0) == "\\\\" else "\\par\\par ", source
    )
    source = _HYPERLINK_FIELD.sub(r"\1HYPERLINK_", source)

    from striprtf.striprtf import rtf_to_text  # imported late: only needed for .rtf files

    try:
        text = str(rtf_to_text(source, errors="replace"))  # type: ignore[no-untyped-call]
    except Exception as exc:
        raise CorruptDocument(path, f"it cannot be read as RTF ({library_message(exc)})") from exc
    # striprtf turns each half of a \u surrogate pair (emoji, rare CJK) into its own character.
    text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")

    warnings: list[str] = []
    unescaped = _ESCAPED.sub("", source)
    if unescaped.count("{") > unescaped.count("}"):
        warnings.append(
            "the RTF file seems to be cut short (unclosed groups); its end may be missing"
        )
    return RawText(text, tuple(warnings))


def _decode_source(data: bytes) -> str:
    """RTF is 7-bit text with escapes, but some writers put raw 8-bit characters in it, either
    UTF-8 or in the declared ANSI code page."""
    if data.isascii():
        return data.decode("ascii")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    match = _ANSI_CODE_PAGE.search(data[:4096])
    codec = f"cp{match.group(1).decode()}" if match else "cp1252"
    try:
        return data.decode(codec, errors="replace")
    except LookupError:
        return data.decode("cp1252", errors="replace")

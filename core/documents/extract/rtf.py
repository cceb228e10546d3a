"""Reads the text of an RTF document with striprtf: body text, with \\u and \\'xx escapes decoded
in the document's code page. striprtf leaves out headers, footers, footnotes, comments and
pictures (they are RTF "destinations").

striprtf walks the file one character at a time in Python and keeps a stack entry per open
group, so before it runs: a file with more than MAX_GROUPS groups is refused (a file of
nothing but "{" would otherwise fill memory with its stack); pictures and ignorable
destinations ("{\\*\\...}" groups: embedded objects, theme data, field instructions), whose
content striprtf would only skip, are cut out at C speed, which also keeps striprtf's
hyperlink pattern (it backtracks over a whole line at every field) from running; and a file
whose remaining text is clearly over the text limit is refused without reading it."""

from __future__ import annotations

import re
from pathlib import Path

from core.documents.extract.raw import RAW_TEXT_FACTOR, RawText, library_message
from core.documents.extract.sniff import is_rtf, looks_like
from core.errors import CorruptDocument, DocumentTooLarge

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

#: Most groups ("{...}") in one file (docs/formats.md, "Limits"). Word writes a group around
#: every run of text with its own formatting; even at one per word, 1,000 pages have 650,000.
MAX_GROUPS = 1_000_000
# groups whose whole content striprtf ignores: "{\*\destination ...}" and pictures
_IGNORABLE_GROUP = re.compile(r"\{(\s*)\\\*\\|\{\\pict(?![a-zA-Z])")
# inside such a group, everything up to the next brace or binary data ("\binN" and N bytes),
# escapes ("\{", "\\") included; possessive, and used with match(), so it never backtracks
_GROUP_TOKEN = re.compile(r"(?:[^\\{}]++|\\(?!bin\d)[\s\S])*+(?:\\bin(\d{1,10}) ?|([{}]))")
# control words, symbols, hex escapes, braces and line ends: what is not text
_NOT_TEXT = re.compile(r"\\[a-zA-Z]{1,32}(?:-?\d{1,10})? ?|\\'[0-9a-fA-F]{2}|\\[^a-zA-Z]|[{}\r\n]")


def read_rtf(data: bytes, path: Path, *, max_chars: int | None = None) -> RawText:
    """The text of the RTF document in `data`. With `max_chars`, a file whose text would run
    RAW_TEXT_FACTOR times over it is refused (DocumentTooLarge) before it is parsed."""
    if not is_rtf(data):
        raise CorruptDocument(
            path, f"it is not an RTF document (it does not start with '{{\\rtf'){looks_like(data)}"
        )
    groups, binaries = data.count(b"{"), data.count(b"\\bin")
    if groups + binaries > MAX_GROUPS:
        what = f"{groups:,} groups ({{...}})"
        if binaries:
            what += f" and {binaries:,} binary objects"
        raise DocumentTooLarge(
            path,
            f"it has {what}; the limit is {MAX_GROUPS:,} (a 1,000-page document has well "
            "under 700,000)",
        )
    source = _without_ignorable_groups(_decode_source(data))
    limit = None if max_chars is None else max_chars * RAW_TEXT_FACTOR
    if limit is not None and len(source) > limit and _text_estimate(source) > limit:
        raise DocumentTooLarge(
            path, f"its text is longer than the limit of {max_chars:,} characters"
        )
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


def _text_estimate(source: str) -> int:
    """About as much text as striprtf would give (it also skips the font and style tables):
    what is left without control words, escapes and braces. Counted a megabyte at a time, so
    that no copy of a large file is made."""
    step = 1 << 20
    return sum(
        len(_NOT_TEXT.sub("", source[start : start + step]))
        for start in range(0, len(source), step)
    )


def _without_ignorable_groups(source: str) -> str:
    """`source` without the groups whose content striprtf would ignore anyway (pictures and
    "{\\*\\...}" destinations), each found by matching its braces."""
    pieces: list[str] = []
    position = 0
    while (start := _IGNORABLE_GROUP.search(source, position)) is not None:
        pieces.append(source[position : start.start()])
        pieces.append(start.group(1) or "")  # spaces before "\*" are text, read before it
        depth = 0
        position = len(source)  # an unclosed group runs to the end, as striprtf reads it
        cursor = start.start()
        while (token := _GROUP_TOKEN.match(source, cursor)) is not None:
            cursor = token.end()
            if token.group(1) is not None:
                cursor += int(token.group(1))  # binary data, braces and all
            elif token.group(2) == "{":
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    position = cursor
                    break
    pieces.append(source[position:])
    return "".join(pieces)


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

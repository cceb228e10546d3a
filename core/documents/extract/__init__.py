"""Gets the text out of a document file: the one public entry point is `extract(path)`.

The file is stat-ed (size limit), read once into memory and parsed from there; it is never
written, locked or copied. The reader for its format (one module each: plain, docx, pdf, odt,
rtf, html) returns raw text, which `core.documents.normalize.normalize_text` turns into the
string that is both displayed and analysed (spec §1: every sentence span indexes into it).

Every failure, whatever the parsing library raised, comes out as a `core.errors.DocumentError`
subclass whose message names the file and says what is wrong. Formats, limits and rules are
documented in docs/formats.md."""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.documents.extract.docx import read_docx
from core.documents.extract.html import read_html
from core.documents.extract.odt import read_odt
from core.documents.extract.pdf import read_pdf
from core.documents.extract.plain import read_plain
from core.documents.extract.raw import (
    RAW_TEXT_FACTOR,
    RawText,
    library_message,
    locate_in_normalised,
    sizes_compared,
)
from core.documents.extract.rtf import read_rtf
from core.documents.normalize import normalize_with_report
from core.documents.tampering import Tampering, merged
from core.errors import (
    CorruptDocument,
    DocumentError,
    DocumentTooLarge,
    EmptyDocument,
    UnsupportedFormat,
)

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_TEXT_CHARS",
    "SUPPORTED_SUFFIXES",
    "ExtractedText",
    "extract",
]

_FORMATS: dict[str, str] = {
    ".txt": "txt",
    ".md": "md",
    ".docx": "docx",
    ".pdf": "pdf",
    ".odt": "odt",
    ".rtf": "rtf",
    ".html": "html",
    ".htm": "html",
}
_FORMAT_NAMES = {
    "txt": "a text file",
    "md": "a Markdown file",
    "docx": "a Word document",
    "pdf": "a PDF",
    "odt": "an OpenDocument text",
    "rtf": "an RTF document",
    "html": "a web page",
}

#: File suffixes (lower case) that `extract` reads.
SUPPORTED_SUFFIXES: frozenset[str] = frozenset(_FORMATS)
#: Largest file read, in bytes (200 MiB). Essays are kilobytes and a thesis full of pictures
#: tens of MB; the whole file is held in memory while it is parsed.
MAX_FILE_BYTES: int = 200 * 1024 * 1024
#: Longest extracted text, in characters (10 million: eight times "Moby Dick", some 5,000
#: pages). The comparison's cost grows with the number of sentences.
MAX_TEXT_CHARS: int = 10_000_000


@dataclass(frozen=True)
class ExtractedText:
    """A document's text, ready for sentence splitting."""

    text: (
        str  # normalised (core.documents.normalize): what the viewer shows and the engine analyses
    )
    format: str  # "txt", "md", "docx", "pdf", "odt", "rtf" or "html"
    content_hash: str  # sha256 hex digest of the file's bytes
    warnings: tuple[str, ...]  # plain-language notes on what was changed or guessed
    # `[start, end)` spans of `text` the file marks as block quotes (.docx/.odt quote paragraph
    # styles, HTML <blockquote>, Markdown "> " paragraphs); () for the other formats
    block_quotes: tuple[tuple[int, int], ...] = ()
    # disguises undone while reading and normalising (core.documents.tampering): look-alike
    # letters folded, invisible characters dropped, hidden text left out
    tampering: tuple[Tampering, ...] = ()


def extract(path: str | Path) -> ExtractedText:
    """Read the document at `path`; raises only `core.errors.DocumentError` subclasses."""
    path = Path(path)
    suffix = path.suffix.lower()
    format_ = _FORMATS.get(suffix)
    if format_ is None:
        supported = ", ".join(sorted(SUPPORTED_SUFFIXES))
        what = f"'{suffix}' files are" if suffix else "files without an extension are"
        raise UnsupportedFormat(path, f"{what} not supported; supported: {supported}")

    data = _read_bytes(path, MAX_FILE_BYTES)
    if not data or data.isspace():  # isspace, unlike strip, copies nothing
        raise EmptyDocument(
            path, "the file is empty" + (" (it holds only spaces and line breaks)" if data else "")
        )

    raw = _read_format(format_, data, path)
    limit = MAX_TEXT_CHARS
    if len(raw.text) > limit * RAW_TEXT_FACTOR:
        raise DocumentTooLarge(path, f"its text is longer than the limit of {limit:,} characters")
    text, undisguised = normalize_with_report(raw.text)
    if len(text) > limit:
        raise DocumentTooLarge(
            path, f"its text has {len(text):,} characters; the limit is {limit:,}"
        )
    if not any(ch.isalnum() for ch in text):
        raise EmptyDocument(
            path,
            f"it contains no words ({_FORMAT_NAMES[format_]} with only spaces, punctuation, "
            "pictures or empty paragraphs)",
        )
    if format_ == "md":
        block_quotes = _markdown_block_quotes(text)
    else:
        block_quotes = locate_in_normalised(raw.text, raw.block_quotes, text)
    return ExtractedText(
        text=text,
        format=format_,
        content_hash=hashlib.sha256(data).hexdigest(),
        warnings=raw.warnings,
        block_quotes=block_quotes,
        tampering=merged(raw.tampering, undisguised),
    )


# a Markdown block quote: a paragraph whose first line starts with ">" (its other lines, joined
# to it by normalisation, may omit the ">", as Markdown allows)
_MARKDOWN_QUOTE = re.compile(r"(?:^|(?<=\n\n))>[^\n]*")


def _markdown_block_quotes(text: str) -> tuple[tuple[int, int], ...]:
    spans: list[tuple[int, int]] = []
    for match in _MARKDOWN_QUOTE.finditer(text):
        start, end = match.span()
        if spans and text[spans[-1][1] : start] == "\n\n":
            spans[-1] = (spans[-1][0], end)  # one quotation over several paragraphs
        else:
            spans.append((start, end))
    return tuple(spans)


def _read_format(format_: str, data: bytes, path: Path) -> RawText:
    readers: dict[str, Callable[[bytes, Path], RawText]] = {
        "txt": read_plain,
        "md": read_plain,
        "docx": lambda data, path: read_docx(data, path, max_chars=MAX_TEXT_CHARS),
        "odt": lambda data, path: read_odt(data, path, max_chars=MAX_TEXT_CHARS),
        "rtf": lambda data, path: read_rtf(data, path, max_chars=MAX_TEXT_CHARS),
        "html": lambda data, path: read_html(data, path, max_chars=MAX_TEXT_CHARS),
        "pdf": lambda data, path: read_pdf(data, path, max_chars=MAX_TEXT_CHARS),
    }
    try:
        return readers[format_](data, path)
    except DocumentError:
        raise
    except Exception as exc:  # the promise: no library exception escapes untyped
        raise CorruptDocument(
            path,
            f"it cannot be read as {_FORMAT_NAMES[format_]}; it may be damaged "
            f"({library_message(exc)})",
        ) from exc


def _read_bytes(path: Path, max_bytes: int) -> bytes:
    """The file's bytes, read once. Refuses folders, devices and pipes (reading a pipe would
    wait forever, reading /dev/zero would never end) by their type before opening anything,
    and anything over `max_bytes`, checked before reading and again while reading, in case the
    file grows in between. The file is opened non-blocking and its type checked again on the
    open file, so a pipe swapped in after the first check cannot hang the read either."""
    try:
        info = path.stat()  # follows symlinks: a link to /dev/zero is a device
        _check_type(path, info.st_mode)
        if info.st_size > max_bytes:
            raise DocumentTooLarge(path, _too_big(info.st_size, max_bytes))
        with open(path, "rb", opener=_open_nonblocking) as file:
            _check_type(path, os.fstat(file.fileno()).st_mode)
            # read what stat announced, and one byte more to notice a file that grew since;
            # asking for max_bytes at once would reserve that much memory for every file
            data = file.read(info.st_size + 1)
            if len(data) > info.st_size:
                data += file.read(max_bytes + 1 - len(data))
    except DocumentError:
        raise
    except OSError as exc:
        raise DocumentError(path, _os_reason(exc)) from exc
    if len(data) > max_bytes:
        raise DocumentTooLarge(path, _too_big(len(data), max_bytes))
    return data


def _check_type(path: Path, mode: int) -> None:
    if stat.S_ISDIR(mode):
        raise DocumentError(path, "it is a folder, not a document")
    if not stat.S_ISREG(mode):
        raise DocumentError(path, "it is not a regular file (a device, pipe or socket)")


def _open_nonblocking(name: str, flags: int) -> int:
    # O_NONBLOCK: opening a pipe without a writer returns at once instead of waiting
    return os.open(name, flags | getattr(os, "O_NONBLOCK", 0))


def _too_big(size: int, max_bytes: int) -> str:
    shown, limit = sizes_compared(size, max_bytes)
    return f"the file is {shown}; the limit is {limit}"


def _os_reason(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "the file does not exist (it may have been moved, renamed or deleted)"
    if isinstance(exc, PermissionError):
        return "permission denied: this user account may not read the file"
    if isinstance(exc, IsADirectoryError):
        return "it is a folder, not a document"
    if exc.errno == errno.ENAMETOOLONG:
        return "its name or path is too long"
    return f"the file cannot be read ({exc.strerror or exc})"

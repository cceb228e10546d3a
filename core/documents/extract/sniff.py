"""Recognises a file's kind from its first bytes, to explain a file whose name lies about it.

Only used to refuse and word errors ("it looks like a PDF"): readers never switch format on
this guess, so a renamed file is reported, not silently read as something else."""

from __future__ import annotations

_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # Microsoft compound file: .doc, .xls, .ppt, ...
_ENCRYPTED_OOXML = "EncryptedPackage".encode("utf-16-le")

_BINARY_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"MZ", "a Windows program"),
    (b"\x7fELF", "a program"),
    (b"Rar!", "a RAR archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"\x1f\x8b", "a gzip archive"),
)


def is_ole2(data: bytes) -> bool:
    return data.startswith(_OLE2)


def is_encrypted_office_file(data: bytes) -> bool:
    """Word and LibreOffice save a password-protected .docx as an OLE2 file holding an
    "EncryptedPackage" stream (MS-OFFCRYPTO), not as a zip."""
    return is_ole2(data) and _ENCRYPTED_OOXML in data


def binary_kind(data: bytes) -> str | None:
    """A phrase naming a recognised non-text format ("a PDF", "a Word (.docx) document"), or
    None when `data` may be text (including RTF and HTML, which are text)."""
    head = data[:2048]
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        if b"mimetypeapplication/vnd.oasis.opendocument.text" in head:
            return "an OpenDocument text (.odt)"
        if b"mimetypeapplication/vnd.oasis.opendocument" in head:
            return "an OpenDocument spreadsheet or presentation"
        if b"word/" in head:
            return "a Word (.docx) document"
        if b"xl/" in head:
            return "an Excel (.xlsx) spreadsheet"
        if b"ppt/" in head:
            return "a PowerPoint (.pptx) presentation"
        return "a zip archive"
    if is_encrypted_office_file(data):
        return "a password-protected Office document"
    if is_ole2(head):
        return "an old-style Office file (such as a Word 97-2003 .doc)"
    if head.lstrip(b" \t\r\n").startswith(b"%PDF-"):
        return "a PDF"
    for signature, description in _BINARY_SIGNATURES:
        if head.startswith(signature):
            return description
    return None


def is_rtf(data: bytes) -> bool:
    return data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{\\rtf")


def mislabelled_kind(data: bytes) -> str | None:
    """What a file that should be plain text or a web page is instead, if it is something a
    text editor never writes: a binary format or RTF (its markup would be read as words)."""
    return binary_kind(data) or ("an RTF document" if is_rtf(data) else None)


def describe_content(data: bytes) -> str | None:
    """A phrase naming what `data` looks like, text formats included, or None."""
    kind = binary_kind(data)
    if kind is not None:
        return kind
    if is_rtf(data):
        return "an RTF document"
    if data[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower().startswith((b"<!doctype html", b"<html")):
        return "a web page (HTML)"
    return None


def looks_like(data: bytes, expected: str | None = None) -> str:
    """The end of a reason: " (it looks like a PDF)", or "" when the content is not recognised
    or is the `expected` kind (a damaged .docx "looks like a Word document": no news)."""
    description = describe_content(data)
    return f" (it looks like {description})" if description not in (None, expected) else ""

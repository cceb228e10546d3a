"""Reads plain text (.txt) and Markdown (.md) files: the bytes are decoded with the detected
encoding and otherwise kept as they are. Markdown is read as plain text: its markup characters
are not words, so they do not change sentence lengths."""

from __future__ import annotations

from pathlib import Path

from core.documents.extract.encoding import decode_text
from core.documents.extract.raw import RawText
from core.documents.extract.sniff import mislabelled_kind
from core.errors import CorruptDocument


def read_plain(data: bytes, path: Path) -> RawText:
    # Text editors never write these: such a file was renamed, and reading it as text would give
    # a page of symbols instead of an explanation.
    kind = mislabelled_kind(data)
    if kind is not None:
        raise CorruptDocument(
            path, f"it is not plain text: it looks like {kind}; give it the matching file extension"
        )
    decoded = decode_text(data, path)
    return RawText(decoded.text, (decoded.warning,) if decoded.warning else ())

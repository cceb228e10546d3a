"""Typed errors for documents that cannot be used, each naming the file and the reason.

`str(error)` is the message a teacher sees (CLI stderr, GUI document list): it names the file
and says, in plain words, what is wrong and, where there is one, what to do about it."""

from __future__ import annotations

from pathlib import Path


class DocumentError(Exception):
    """A document could not be loaded. Subclasses say why."""

    #: a short machine-readable kind, stable across versions (used in JSON output)
    kind = "unreadable"

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"{self.path.name}: {reason}")


class UnsupportedFormat(DocumentError):
    kind = "unsupported-format"


class CorruptDocument(DocumentError):
    kind = "corrupt"


class EncryptedDocument(DocumentError):
    kind = "encrypted"


class NoTextLayer(DocumentError):
    kind = "no-text-layer"


class EmptyDocument(DocumentError):
    kind = "empty"


class DocumentTooLarge(DocumentError):
    kind = "too-large"


class UnsafeArchive(DocumentError):
    """A zip-based document (.docx, .odt) whose contents would expand beyond safe limits."""

    kind = "unsafe-archive"


class LanguageError(ValueError):
    """An unknown or unsupported language code was asked for."""


class Cancelled(Exception):
    """A long job stopped because its cancel flag was set."""

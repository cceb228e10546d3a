"""A file's fingerprint: the SHA-256 of its bytes, what `Document.content_hash` holds, read in
chunks (a large file never sits in memory whole) and cancellable between them. One function
for the cache, the case file and the evidence report."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from core.errors import Cancelled

CHUNK = 1 << 20


def file_sha256(path: str | Path, cancelled: Callable[[], bool] | None = None) -> str:
    """The SHA-256 of a file's bytes, in hex; OSError if unreadable. Raises `Cancelled`
    between chunks once `cancelled()` says so."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        while chunk := handle.read(CHUNK):
            if cancelled is not None and cancelled():
                raise Cancelled
            digest.update(chunk)
    return digest.hexdigest()

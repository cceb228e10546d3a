"""A file's fingerprint: the SHA-256 of its bytes, what `Document.content_hash` holds, read in
chunks (a large file never sits in memory whole) and cancellable between them. One function
for the cache, the case file and the evidence report.

Only regular files are read (after following links): a FIFO would block the read forever and a
device such as /dev/zero never ends, so anything else is an OSError before it is opened; with
`max_bytes`, so is a file larger than that (checked before reading, and again while reading,
in case it grows)."""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Callable
from pathlib import Path

from core.errors import Cancelled

CHUNK = 1 << 20


def regular_file_size(path: str | Path) -> int:
    """The size of the regular file at `path` (links followed); OSError if it is anything
    else (a folder, a FIFO, a device, a socket) or cannot be examined."""
    info = Path(path).stat()
    if not stat.S_ISREG(info.st_mode):
        what = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise OSError(errno.EISDIR if stat.S_ISDIR(info.st_mode) else errno.EINVAL, what, str(path))
    return info.st_size


def file_sha256(
    path: str | Path,
    cancelled: Callable[[], bool] | None = None,
    *,
    max_bytes: int | None = None,
) -> str:
    """The SHA-256 of a regular file's bytes, in hex; OSError if it is not a regular file, is
    larger than `max_bytes` (when given) or is unreadable. Raises `Cancelled` between chunks
    once `cancelled()` says so."""
    size = regular_file_size(path)
    if max_bytes is not None and size > max_bytes:
        raise OSError(errno.EFBIG, f"larger than {max_bytes} bytes", str(path))
    # O_NONBLOCK: should a FIFO take the file's place after the check, opening it does not wait
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    digest = hashlib.sha256()
    with os.fdopen(os.open(path, flags), "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        read = 0
        while chunk := handle.read(CHUNK):
            if cancelled is not None and cancelled():
                raise Cancelled
            read += len(chunk)
            if max_bytes is not None and read > max_bytes:
                raise OSError(errno.EFBIG, f"larger than {max_bytes} bytes", str(path))
            digest.update(chunk)
    return digest.hexdigest()

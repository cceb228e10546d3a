"""Refuses zip containers (.docx, .odt) whose contents would expand beyond safe limits.

Both python-docx and odfpy read every part of the package into memory, so a "zip bomb" (a small
file that inflates to gigabytes) would exhaust memory before any text is seen. The check reads
only the central directory: Python's zipfile never inflates an entry past the size the directory
declares (it stops there and then fails the CRC check), so declared sizes bound what the readers
can inflate, and checking them here is enough.

Limits and why (docs/formats.md, "Limits"):
- MAX_ENTRIES: a long Word document has a few dozen parts, a picture-heavy one a few hundred.
- MAX_TOTAL_BYTES: the sum of declared uncompressed sizes; everything is held in memory at once.
- MAX_RATIO: deflate cannot compress better than about 1032:1; text XML reaches 10-50:1 and
  pictures about 1:1. The ratio is only checked for entries above RATIO_FLOOR_BYTES, where
  a large inflation could hurt; a tiny, very compressible entry (a run of spaces) is harmless."""

from __future__ import annotations

import zipfile
from io import BytesIO
from pathlib import Path

from core.documents.extract.raw import library_message
from core.errors import CorruptDocument, UnsafeArchive

MAX_ENTRIES = 10_000
MAX_TOTAL_BYTES = 512 * 1024 * 1024
MAX_RATIO = 200.0
RATIO_FLOOR_BYTES = 1024 * 1024


def _size(size: int) -> str:
    return f"{size / (1024 * 1024):,.0f} MiB" if size >= 1024 * 1024 else f"{size:,} bytes"


def check_archive(
    data: bytes,
    path: Path,
    *,
    max_entries: int = MAX_ENTRIES,
    max_total_bytes: int = MAX_TOTAL_BYTES,
    max_ratio: float = MAX_RATIO,
    ratio_floor_bytes: int = RATIO_FLOOR_BYTES,
) -> None:
    """Raise UnsafeArchive when the zip in `data` would inflate beyond the limits, and
    CorruptDocument when it is not a readable zip at all. The limits are parameters so tests
    can exercise each rule on small files."""
    try:
        with zipfile.ZipFile(BytesIO(data)) as archive:
            entries = archive.infolist()
    except Exception as exc:  # zipfile raises BadZipFile, but also OSError/ValueError/EOFError
        raise CorruptDocument(
            path,
            "the file is damaged or incomplete: its zip container cannot be read "
            f"({library_message(exc)})",
        ) from exc

    if len(entries) > max_entries:
        raise UnsafeArchive(
            path, f"it holds {len(entries):,} parts (the limit is {max_entries:,}); not opened"
        )
    total = 0
    for entry in entries:
        total += entry.file_size
        if total > max_total_bytes:
            raise UnsafeArchive(
                path,
                f"its contents would expand to more than {_size(max_total_bytes)} "
                f"(part '{entry.filename}' alone declares {_size(entry.file_size)}); not opened",
            )
        if entry.file_size > ratio_floor_bytes:
            ratio = entry.file_size / max(entry.compress_size, 1)
            if ratio > max_ratio:
                raise UnsafeArchive(
                    path,
                    f"part '{entry.filename}' would expand {ratio:,.0f} times (the limit is "
                    f"{max_ratio:,.0f}), which is how zip bombs look; not opened",
                )

"""Opens the zip container of a .docx or .odt so that nothing it holds can inflate beyond safe
limits, whatever its headers say.

A zip's directory declares each part's sizes, and a crafted file can lie: Python's zipfile asks
zlib for up to 2 GiB at a time when a part is read whole, so a part that declares 1,000 bytes
but holds a gigabyte of zeros is inflated in full before its size is ever compared. Here the
directory is only a first filter (`check_archive`: part count, declared total and ratio), and
each part a reader asks for is inflated in chunks of `CHUNK_BYTES` (`SafeArchive.chunks`),
counting the bytes that really come out: a part that yields more than it declares, more than
the limit for one part, or more than the limit for all parts together, or that inflates
`MAX_RATIO` times its compressed size, is refused at that chunk. Readers get only bytes that
passed; parts they do not ask for (pictures, fonts) are never inflated at all.

Limits and why (docs/formats.md, "Limits"):
- MAX_ENTRIES: a long Word document has a few dozen parts, a picture-heavy one a few hundred.
- MAX_TOTAL_BYTES: declared uncompressed sizes of all parts, and real bytes of all parts read.
- MAX_PART_BYTES: one part read: the text's XML of 1,000 pages is 4 MB as python-docx writes
  it, 29 MB with the direct formatting Word adds to pasted text.
- MAX_RATIO: deflate cannot compress better than about 1032:1; text XML reaches 10-50:1 and
  pictures about 1:1. The ratio is only checked for parts above RATIO_FLOOR_BYTES, where a large
  inflation could hurt; a tiny, very compressible part (a run of spaces) is harmless."""

from __future__ import annotations

import struct
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from core.documents.extract.raw import library_message, sizes_compared
from core.errors import CorruptDocument, DocumentTooLarge, EncryptedDocument, UnsafeArchive

MAX_ENTRIES = 10_000
MAX_TOTAL_BYTES = 512 * 1024 * 1024
MAX_PART_BYTES = 256 * 1024 * 1024
MAX_RATIO = 200.0
RATIO_FLOOR_BYTES = 1024 * 1024
#: inflated bytes handed over at a time, and compressed bytes fed to zlib at a time
CHUNK_BYTES = 256 * 1024

_LOCAL_HEADER = b"PK\x03\x04"
_LOCAL_HEADER_SIZE = 30
_METHOD_NAMES = {
    1: "shrink",
    6: "implode",
    9: "deflate64",
    12: "bzip2",
    14: "LZMA",
    93: "Zstandard",
    95: "xz",
    98: "PPMd",
}


@dataclass(frozen=True, slots=True)
class ZipLimits:
    """The limits one archive is opened under (parameters so tests can reach each rule)."""

    entries: int
    total_bytes: int
    part_bytes: int
    ratio: float
    ratio_floor_bytes: int

    @classmethod
    def default(cls) -> ZipLimits:
        return cls(MAX_ENTRIES, MAX_TOTAL_BYTES, MAX_PART_BYTES, MAX_RATIO, RATIO_FLOOR_BYTES)


def _size(size: int) -> str:
    return f"{size / (1024 * 1024):,.0f} MiB" if size >= 1024 * 1024 else f"{size:,} bytes"


def _directory(data: bytes, path: Path) -> list[zipfile.ZipInfo]:
    try:
        with zipfile.ZipFile(BytesIO(data)) as archive:
            return archive.infolist()
    except Exception as exc:  # zipfile raises BadZipFile, but also OSError/ValueError/EOFError
        raise CorruptDocument(
            path,
            "the file is damaged or incomplete: its zip container cannot be read "
            f"({library_message(exc)})",
        ) from exc


def check_archive(
    data: bytes,
    path: Path,
    *,
    max_entries: int = MAX_ENTRIES,
    max_total_bytes: int = MAX_TOTAL_BYTES,
    max_ratio: float = MAX_RATIO,
    ratio_floor_bytes: int = RATIO_FLOOR_BYTES,
) -> list[zipfile.ZipInfo]:
    """The archive's directory, after refusing (UnsafeArchive) one whose declared sizes are
    beyond the limits; CorruptDocument when it is not a readable zip at all. Declared sizes
    may lie: `SafeArchive` checks the real ones as it inflates."""
    entries = _directory(data, path)
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
                raise UnsafeArchive(path, _ratio_reason(entry.filename, ratio, max_ratio))
    return entries


def _ratio_reason(name: str, ratio: float, limit: float) -> str:
    return (
        f"part '{name}' would expand {ratio:,.0f} times (the limit is {limit:,.0f}), which is "
        "how zip bombs look; not opened"
    )


class SafeArchive:
    """The parts of a zip archive held in memory, inflated on demand under real-byte limits.

    Opening checks the directory (`check_archive`); `chunks(name)` then inflates one part
    chunk by chunk, and `read(name)` joins them. Every refusal names the file: UnsafeArchive for
    a part that lies about its size or inflates beyond a limit, DocumentTooLarge for a part
    over MAX_PART_BYTES that does not lie, CorruptDocument for damage, EncryptedDocument for
    a zip password."""

    def __init__(self, data: bytes, path: Path, limits: ZipLimits | None = None) -> None:
        self._data = memoryview(data)
        self._path = path
        self._limits = limits = limits or ZipLimits.default()
        entries = check_archive(
            data,
            path,
            max_entries=limits.entries,
            max_total_bytes=limits.total_bytes,
            max_ratio=limits.ratio,
            ratio_floor_bytes=limits.ratio_floor_bytes,
        )
        # a name listed twice means the last entry, as in zipfile
        self._entries = {entry.filename: entry for entry in entries}
        self._folded = {name.casefold(): name for name in self._entries}
        self._inflated = 0  # real bytes handed out so far, all parts

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self._entries)

    def find(self, name: str) -> str | None:
        """The part's name as stored: `name` itself, or a name differing only in case (OPC part
        names are case-insensitive); None when there is no such part."""
        if name in self._entries:
            return name
        return self._folded.get(name.casefold())

    def read(self, name: str) -> bytes:
        return b"".join(self.chunks(name))

    def chunks(self, name: str) -> Iterator[bytes]:
        """The part's bytes, at most CHUNK_BYTES at a time, each chunk checked before it is
        handed over."""
        entry = self._entries[name]
        limits = self._limits
        if entry.flag_bits & 0x1:
            raise EncryptedDocument(
                self._path,
                f"its part '{name}' is encrypted with a zip password, which Word and LibreOffice "
                "never do; not opened",
            )
        method = entry.compress_type
        if method not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            kind = _METHOD_NAMES.get(method, f"method {method}")
            raise CorruptDocument(
                self._path,
                f"its part '{name}' is compressed with {kind}, which Word and LibreOffice never "
                "use; not opened",
            )
        if entry.file_size > limits.part_bytes:
            size, limit = sizes_compared(entry.file_size, limits.part_bytes)
            raise DocumentTooLarge(
                self._path,
                f"its part '{name}' is {size} uncompressed; the limit for one part is {limit}",
            )
        start, end = self._span(entry)
        real = 0
        crc = 0
        try:
            for chunk in self._inflate(method, start, end):
                real += len(chunk)
                self._inflated += len(chunk)
                self._check(entry, real, end - start)
                crc = zlib.crc32(chunk, crc)
                yield chunk
        except zlib.error as exc:
            raise CorruptDocument(
                self._path,
                f"the file is damaged or incomplete: its part '{name}' cannot be inflated "
                f"({library_message(exc)})",
            ) from exc
        if real != entry.file_size or crc != entry.CRC:
            raise CorruptDocument(
                self._path,
                f"the file is damaged or incomplete: its part '{name}' does not match its "
                f"checksum or size ({real:,} bytes read, {entry.file_size:,} declared)",
            )

    def _span(self, entry: zipfile.ZipInfo) -> tuple[int, int]:
        """Where the part's compressed bytes lie in the file, from its local header."""
        offset = entry.header_offset
        data = self._data
        if bytes(data[offset : offset + 4]) != _LOCAL_HEADER:
            raise CorruptDocument(
                self._path,
                f"the file is damaged or incomplete: part '{entry.filename}' is not where its "
                "zip directory says",
            )
        name_length, extra_length = struct.unpack_from("<HH", data, offset + 26)
        start = offset + _LOCAL_HEADER_SIZE + name_length + extra_length
        return start, min(start + entry.compress_size, len(data))

    def _inflate(self, method: int, start: int, end: int) -> Iterator[bytes]:
        data = self._data
        if method == zipfile.ZIP_STORED:
            for position in range(start, end, CHUNK_BYTES):
                yield bytes(data[position : min(position + CHUNK_BYTES, end)])
            return
        inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        position = start
        pending = b""
        while not inflater.eof:
            if not pending:
                if position >= end:
                    raise zlib.error("the compressed data ends early")
                pending = bytes(data[position : min(position + CHUNK_BYTES, end)])
                position += len(pending)
            chunk = inflater.decompress(pending, CHUNK_BYTES)
            pending = inflater.unconsumed_tail
            if chunk:
                yield chunk

    def _check(self, entry: zipfile.ZipInfo, real: int, compressed: int) -> None:
        """Refuse the part being inflated once `real` bytes of it came out of `compressed`
        bytes, if that is more than it declares or than any limit allows."""
        limits = self._limits
        name = entry.filename
        if real > entry.file_size:
            raise UnsafeArchive(
                self._path,
                f"part '{name}' holds more than the {_size(entry.file_size)} its zip headers "
                "declare (a crafted file: this is how zip bombs hide); not opened",
            )
        if self._inflated > limits.total_bytes:
            raise UnsafeArchive(
                self._path,
                f"its contents expand to more than {_size(limits.total_bytes)}; not opened",
            )
        if real > limits.ratio_floor_bytes:
            ratio = real / max(compressed, 1)
            if ratio > limits.ratio:
                raise UnsafeArchive(self._path, _ratio_reason(name, ratio, limits.ratio))

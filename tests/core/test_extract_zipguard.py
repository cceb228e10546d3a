"""Zip bombs in .docx and .odt are refused before anything inflates beyond the limits, whatever
the archive's headers declare: parts are inflated chunk by chunk, counting real bytes."""

from __future__ import annotations

import io
import os
import resource
import struct
import subprocess
import sys
import textwrap
import zipfile
import zlib
from pathlib import Path

import pytest
from docmakers import SAMPLE_PROSE, make_docx, make_odt

import core.documents.extract.zipguard as zipguard
from core.documents.extract import extract
from core.documents.extract.zipguard import (
    MAX_TOTAL_BYTES,
    SafeArchive,
    ZipLimits,
    check_archive,
)
from core.errors import CorruptDocument, DocumentTooLarge, EncryptedDocument, UnsafeArchive

_LOCAL_ENTRY = b"PK\x03\x04"
_CENTRAL_ENTRY = b"PK\x01\x02"
MiB = 1024 * 1024
ROOT = Path(__file__).resolve().parents[2]


def _headers(data: bytes, name: str) -> list[tuple[int, bool]]:
    """(offset, is_central) of each local and central header of the entry `name`."""
    found = []
    for signature, name_at, central in ((_LOCAL_ENTRY, 26, False), (_CENTRAL_ENTRY, 28, True)):
        position = data.find(signature)
        while position >= 0:
            (length,) = struct.unpack_from("<H", data, position + name_at)
            start = position + (46 if central else 30)
            if data[start : start + length] == name.encode():
                found.append((position, central))
            position = data.find(signature, position + 4)
    if not found:
        raise KeyError(name)
    return found


def patch_entry(
    data: bytes,
    name: str,
    *,
    size: int | None = None,
    compressed: int | None = None,
    method: int | None = None,
    flags: int | None = None,
    where: str = "both",
) -> bytes:
    """The zip with fields of `name`'s headers replaced: its uncompressed `size`, `compressed`
    size, compression `method` or general-purpose `flags`, in the local header, the central
    directory or both (`where`): an archive whose headers lie."""
    out = bytearray(data)
    for position, central in _headers(data, name):
        if (where == "local" and central) or (where == "central" and not central):
            continue
        shift = 2 if central else 0  # the central header has "version made by" first
        for value, offset, fmt in (
            (flags, 6, "<H"),
            (method, 8, "<H"),
            (compressed, 18, "<I"),
            (size, 22, "<I"),
        ):
            if value is not None:
                struct.pack_into(fmt, out, position + offset + shift, value)
    return bytes(out)


def zeros_deflated(size: int, block: int = 4 * MiB) -> bytes:
    """A raw deflate stream that inflates to `size` zero bytes (a multiple of `block`), built
    from one compressed block repeated: a full flush makes each copy independent."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    one = compressor.compress(bytes(block)) + compressor.flush(zlib.Z_FULL_FLUSH)
    end = zlib.compressobj(9, zlib.DEFLATED, -15).flush(zlib.Z_FINISH)
    return one * (size // block) + end


def with_raw_part(data: bytes, name: str, deflated: bytes, declared: int) -> bytes:
    """The package with part `name` replaced by the raw deflate stream `deflated`, its headers
    (local and central) declaring `declared` bytes: written by zipfile as a stored entry, then
    patched to say "deflate"."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            if item.filename == name:
                target.writestr(zipfile.ZipInfo(name), deflated, zipfile.ZIP_STORED)
            else:
                target.writestr(item, source.read(item.filename))
    return patch_entry(out.getvalue(), name, size=declared, method=zipfile.ZIP_DEFLATED)


def with_extra_entry(data: bytes, name: str, content: bytes) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            target.writestr(item, source.read(item.filename))
        target.writestr(name, content)
    return out.getvalue()


TEXT_PARTS = {".docx": "word/document.xml", ".odt": "content.xml"}


def package(folder: Path, suffix: str) -> bytes:
    make = make_docx if suffix == ".docx" else make_odt
    return make(folder / f"source{suffix}", SAMPLE_PROSE[:2]).read_bytes()


@pytest.fixture
def docx_bytes(tmp_path: Path) -> bytes:
    return package(tmp_path, ".docx")


# --- the directory: declared sizes ----------------------------------------------------------


def test_a_real_bomb_entry_is_refused_by_its_ratio(tmp_path: Path, docx_bytes: bytes) -> None:
    # 2 MiB of zeros deflate to about 2 KB: a ratio near 1000 where text XML reaches 10-50.
    path = tmp_path / "bomb.docx"
    path.write_bytes(with_extra_entry(docx_bytes, "word/media/image1.bin", bytes(2 * MiB)))
    with pytest.raises(
        UnsafeArchive, match=r"bomb\.docx: part 'word/media/image1\.bin' would expand"
    ):
        extract(path)


@pytest.mark.parametrize("suffix", [".docx", ".odt"])
def test_a_declared_huge_part_is_refused_without_inflating(tmp_path: Path, suffix: str) -> None:
    part = TEXT_PARTS[suffix]
    path = tmp_path / f"crafted{suffix}"
    path.write_bytes(patch_entry(package(tmp_path, suffix), part, size=0xFFFF_FFF0))  # "4 GiB"
    assert zipfile.ZipFile(path).getinfo(part).file_size > MAX_TOTAL_BYTES
    with pytest.raises(UnsafeArchive, match=rf"crafted\{suffix}: its contents would expand"):
        extract(path)


def test_each_directory_limit(docx_bytes: bytes) -> None:
    path = Path("limits.docx")
    count = len(zipfile.ZipFile(io.BytesIO(docx_bytes)).infolist())
    check_archive(docx_bytes, path)  # a normal document passes the real limits
    check_archive(docx_bytes, path, max_entries=count)
    with pytest.raises(
        UnsafeArchive, match=rf"it holds {count} parts \(the limit is {count - 1}\)"
    ):
        check_archive(docx_bytes, path, max_entries=count - 1)
    with pytest.raises(UnsafeArchive, match="would expand to more than"):
        check_archive(docx_bytes, path, max_total_bytes=10_000)
    with pytest.raises(UnsafeArchive, match="times"):
        check_archive(docx_bytes, path, max_ratio=1.5, ratio_floor_bytes=0)
    check_archive(docx_bytes, path, max_ratio=1.5, ratio_floor_bytes=10**9)  # small parts pass


def test_not_a_zip(tmp_path: Path) -> None:
    with pytest.raises(CorruptDocument, match=r"x\.odt: the file is damaged or incomplete"):
        check_archive(b"PK\x03\x04 but nothing else", tmp_path / "x.odt")


# --- the parts: real sizes --------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".docx", ".odt"])
@pytest.mark.parametrize("where", ["both", "central"])
def test_a_part_that_inflates_past_its_declared_size_is_refused(
    tmp_path: Path, suffix: str, where: str
) -> None:
    """The case zipfile gets wrong: it inflates a whole part before comparing its size."""
    part = TEXT_PARTS[suffix]
    data = with_raw_part(package(tmp_path, suffix), part, zeros_deflated(64 * MiB), 1000)
    if where == "central":  # the local header tells the truth, the directory lies
        data = patch_entry(data, part, size=64 * MiB, where="local")
    path = tmp_path / f"liar{suffix}"
    path.write_bytes(data)
    with pytest.raises(UnsafeArchive) as raised:
        extract(path)
    assert str(raised.value) == (
        f"liar{suffix}: part '{part}' holds more than the 1,000 bytes its zip headers declare "
        "(a crafted file: this is how zip bombs hide); not opened"
    )


def test_a_lie_in_the_local_header_alone_is_not_believed(tmp_path: Path) -> None:
    # The directory tells the truth (64 MiB from 64 KB: ratio 1000), the local header says 1,000.
    part = "word/document.xml"
    data = with_raw_part(package(tmp_path, ".docx"), part, zeros_deflated(64 * MiB), 64 * MiB)
    path = tmp_path / "local.docx"
    path.write_bytes(patch_entry(data, part, size=1000, where="local"))
    with pytest.raises(UnsafeArchive, match=r"'word/document\.xml' would expand 1,0\d\d times"):
        extract(path)


def test_a_part_inflating_more_than_its_compressed_size_allows_is_refused(
    tmp_path: Path, docx_bytes: bytes
) -> None:
    """The directory declares a compressed size far past the end of the file, so its declared
    ratio looks harmless; the real ratio, measured on the bytes really there, is not."""
    part = "word/document.xml"
    data = with_raw_part(docx_bytes, part, zeros_deflated(64 * MiB), 64 * MiB)
    data = patch_entry(data, part, compressed=1 << 30, where="central")
    archive = SafeArchive(data, tmp_path / "ratio.docx")
    with pytest.raises(UnsafeArchive, match=r"ratio\.docx: part 'word/document\.xml' would expand"):
        archive.read(part)


def test_reading_a_part_twice_counts_twice(docx_bytes: bytes) -> None:
    part = "word/document.xml"
    entries = zipfile.ZipFile(io.BytesIO(docx_bytes)).infolist()
    size = next(entry.file_size for entry in entries if entry.filename == part)
    limits = ZipLimits(
        entries=100,
        total_bytes=sum(entry.file_size for entry in entries),  # what the directory declares
        part_bytes=10 * MiB,
        ratio=200,
        ratio_floor_bytes=MiB,
    )
    archive = SafeArchive(docx_bytes, Path("twice.docx"), limits)
    assert archive.read(part) == zipfile.ZipFile(io.BytesIO(docx_bytes)).read(part)
    reads = 1
    with pytest.raises(UnsafeArchive, match=r"its contents expand to more than [\d,]+ bytes"):
        for _ in range(limits.total_bytes // size + 1):
            archive.read(part)
            reads += 1
    assert reads == limits.total_bytes // size


def test_a_part_over_the_part_limit_is_too_large(
    docx_bytes: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(zipguard, "MAX_PART_BYTES", 1000)
    archive = SafeArchive(docx_bytes, Path("big.docx"))
    with pytest.raises(
        DocumentTooLarge,
        match=r"big\.docx: its part 'word/document\.xml' is [\d,]+ bytes uncompressed; the "
        r"limit for one part is 1,000 bytes",
    ):
        archive.read("word/document.xml")


def test_a_part_shorter_than_declared_or_with_a_wrong_checksum_is_damaged(
    docx_bytes: bytes,
) -> None:
    part = "word/document.xml"
    size = zipfile.ZipFile(io.BytesIO(docx_bytes)).getinfo(part).file_size
    for data in (
        patch_entry(docx_bytes, part, size=size + 10),
        bytes(docx_bytes).replace(
            struct.pack("<I", zipfile.ZipFile(io.BytesIO(docx_bytes)).getinfo(part).CRC),
            b"\0\0\0\0",
        ),
    ):
        with pytest.raises(CorruptDocument, match=r"part 'word/document\.xml' does not match"):
            SafeArchive(data, Path("d.docx")).read(part)


@pytest.mark.parametrize(("method", "name"), [(12, "bzip2"), (14, "LZMA"), (9, "deflate64")])
def test_compression_methods_word_never_uses_are_refused(
    tmp_path: Path, docx_bytes: bytes, method: int, name: str
) -> None:
    """zipfile would inflate bzip2 and LZMA parts without any size bound."""
    path = tmp_path / "method.docx"
    path.write_bytes(patch_entry(docx_bytes, "word/document.xml", method=method))
    with pytest.raises(CorruptDocument, match=rf"compressed with {name}, which Word"):
        extract(path)


def test_a_zip_password_is_refused(tmp_path: Path, docx_bytes: bytes) -> None:
    path = tmp_path / "zipcrypto.docx"
    path.write_bytes(patch_entry(docx_bytes, "word/document.xml", flags=1))
    with pytest.raises(EncryptedDocument, match=r"encrypted with a zip password"):
        extract(path)


def test_a_stored_part_that_lies_is_refused(tmp_path: Path, docx_bytes: bytes) -> None:
    source = zipfile.ZipFile(io.BytesIO(docx_bytes))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:  # everything stored, uncompressed
        for item in source.infolist():
            target.writestr(item.filename, source.read(item.filename))
    path = tmp_path / "stored.docx"
    path.write_bytes(patch_entry(out.getvalue(), "word/document.xml", size=100))
    with pytest.raises(UnsafeArchive, match=r"holds more than the 100 bytes"):
        extract(path)


def test_parts_the_reader_does_not_need_are_not_inflated(tmp_path: Path, docx_bytes: bytes) -> None:
    """A picture that lies about its size is never read: only text parts are inflated."""
    lying_picture = with_raw_part(
        with_extra_entry(docx_bytes, "word/media/image1.png", b"x"),
        "word/media/image1.png",
        zeros_deflated(64 * MiB),
        1000,
    )
    path = tmp_path / "picture.docx"
    path.write_bytes(lying_picture)
    assert extract(path).text.startswith("The river had been rising")


# --- memory stays bounded: a gigabyte bomb, under a 512 MB address-space limit -----------------

_IN_A_SMALL_PROCESS = textwrap.dedent(
    """
    import sys
    from core.documents.extract import extract
    from core.errors import DocumentError
    try:
        extract(sys.argv[1])
    except DocumentError as error:
        print(type(error).__name__, error)
    """
)


def run_limited(path: Path, megabytes: int = 512) -> str:
    """What extract() says about `path` in a child process limited to `megabytes` of address
    space: a reader that inflates or builds too much fails there instead of swapping."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (megabytes * MiB, megabytes * MiB))

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", _IN_A_SMALL_PROCESS, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit,
        env=env,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_AS"), reason="needs RLIMIT_AS (POSIX)")
@pytest.mark.parametrize("suffix", [".docx", ".odt"])
def test_a_gigabyte_bomb_is_refused_in_bounded_memory(tmp_path: Path, suffix: str) -> None:
    part = TEXT_PARTS[suffix]
    path = tmp_path / f"gigabyte{suffix}"
    path.write_bytes(with_raw_part(package(tmp_path, suffix), part, zeros_deflated(1 << 30), 1000))
    assert path.stat().st_size < 2 * MiB
    assert run_limited(path) == (
        f"UnsafeArchive gigabyte{suffix}: part '{part}' holds more than the 1,000 bytes its zip "
        "headers declare (a crafted file: this is how zip bombs hide); not opened"
    )

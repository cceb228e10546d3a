"""Zip bombs in .docx and .odt are refused before python-docx or odfpy inflate anything."""

from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path

import pytest
from docmakers import SAMPLE_PROSE, make_docx, make_odt

from core.documents.extract import extract
from core.documents.extract.zipguard import MAX_TOTAL_BYTES, check_archive
from core.errors import CorruptDocument, UnsafeArchive

_CENTRAL_ENTRY = b"PK\x01\x02"


def declare_size(data: bytes, name: str, size: int) -> bytes:
    """The zip with `name`'s uncompressed size in the central directory replaced by `size`: a
    crafted archive that announces more (or less) than it holds."""
    out = bytearray(data)
    position = out.find(_CENTRAL_ENTRY)
    while position >= 0:
        name_length, extra_length, comment_length = struct.unpack_from("<HHH", out, position + 28)
        entry_name = bytes(out[position + 46 : position + 46 + name_length]).decode()
        if entry_name == name:
            struct.pack_into("<I", out, position + 24, size)
            return bytes(out)
        position = out.find(
            _CENTRAL_ENTRY, position + 46 + name_length + extra_length + comment_length
        )
    raise KeyError(name)


def with_extra_entry(data: bytes, name: str, content: bytes) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            target.writestr(item, source.read(item.filename))
        target.writestr(name, content)
    return out.getvalue()


@pytest.fixture
def docx_bytes(tmp_path: Path) -> bytes:
    return make_docx(tmp_path / "source.docx", SAMPLE_PROSE[:2]).read_bytes()


def test_a_real_bomb_entry_is_refused_by_its_ratio(tmp_path: Path, docx_bytes: bytes) -> None:
    # 2 MiB of zeros deflate to about 2 KB: a ratio near 1000 where text XML reaches 10-50.
    path = tmp_path / "bomb.docx"
    path.write_bytes(with_extra_entry(docx_bytes, "word/media/image1.bin", bytes(2 * 1024 * 1024)))
    with pytest.raises(
        UnsafeArchive, match=r"bomb\.docx: part 'word/media/image1\.bin' would expand"
    ):
        extract(path)


@pytest.mark.parametrize("suffix", [".docx", ".odt"])
def test_a_declared_huge_part_is_refused_without_inflating(tmp_path: Path, suffix: str) -> None:
    source = tmp_path / f"source{suffix}"
    if suffix == ".docx":
        make_docx(source, SAMPLE_PROSE[:2])
        part = "word/document.xml"
    else:
        make_odt(source, SAMPLE_PROSE[:2])
        part = "content.xml"
    path = tmp_path / f"crafted{suffix}"
    path.write_bytes(declare_size(source.read_bytes(), part, 0xFFFF_FFF0))  # "4 GiB"
    assert zipfile.ZipFile(path).getinfo(part).file_size > MAX_TOTAL_BYTES
    with pytest.raises(UnsafeArchive, match=rf"crafted\{suffix}: its contents would expand"):
        extract(path)


def test_a_part_that_holds_more_than_it_declares_is_corrupt(
    tmp_path: Path, docx_bytes: bytes
) -> None:
    """zipfile stops inflating at the declared size and then fails the CRC check, which is why
    checking declared sizes is enough."""
    path = tmp_path / "liar.docx"
    path.write_bytes(declare_size(docx_bytes, "word/document.xml", 100))
    with pytest.raises(CorruptDocument, match=r"liar\.docx"):
        extract(path)


def test_each_limit(docx_bytes: bytes) -> None:
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

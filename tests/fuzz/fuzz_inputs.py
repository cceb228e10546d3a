"""What the fuzzer feeds the importers: real files written by tests/core/docmakers.py and then
mutated, and files generated from Hypothesis strategies that build each format's structure.

Mutations (`mutated(seeds)`), one to four in a row:
- bytes: flips, interesting bytes (NUL, 0xFF, markup characters), truncation, a range deleted,
  duplicated (up to 64 times) or replaced by a range of another seed (a splice), random bytes
  inserted, a number in the text replaced by an interesting one (0, -1, 2**31, 10**12: PDF
  lengths and offsets, RTF \\binN, ODF repeat counts);
- zip (.docx, .odt): one part rewritten (its XML mutated as text: an element dropped, repeated
  or nested 2,000 deep, an attribute value made huge, an entity declaration added, bytes
  flipped), a part dropped, a part added twice under one name, the stored/deflated choice
  flipped, a huge but very compressible part added, or the archive's directory made to lie:
  sizes declared smaller or larger than the data, a wrong CRC, an unknown compression method;
- PDF: a /Length made wrong, a /Kids array pointing back at its own Pages (a cycle), the
  xref offsets shifted, the trailer's /Root or /Size broken.

Generated structures (`generated(fmt)`): .docx and .odt packages whose document XML is a
random tree of the format's own elements and attributes (paragraphs, runs, tables, fields,
notes, tracked changes, hidden and coloured text, spaces repeated N times...) around random
Unicode text; HTML trees with the tags and attributes the reader treats specially; RTF from
control words with random parameters, groups and destinations; PDFs from objects (catalog, page
tree, pages, content streams with text operators, fonts, ToUnicode maps, filters) with a
correct or a broken cross-reference table; text and Markdown as random bytes or random text in
random encodings, with and without byte-order marks."""

from __future__ import annotations

import functools
import io
import logging
import os
import random
import re
import struct
import sys
import tempfile
import warnings
import zipfile
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))  # docmakers

import docmakers

#: the longer run's inputs (run_fuzz.py sets it): zip parts inside every ratio limit of 20, 60
#: and 300 MB, the issue's size, which the readers parse up to their element limit, seconds
#: of CPU each, near the 5 s a case may take; the CI budget's stay at 1 and 4 MB
HEAVY = os.environ.get("DOPPEL_FUZZ_HEAVY", "") == "1"
#: the formats and the suffixes they are fuzzed under (.htm is read as .html)
FORMATS = ("txt", "md", "docx", "odt", "pdf", "rtf", "html")
SUFFIXES = {fmt: (f".{fmt}",) for fmt in FORMATS} | {"html": (".html", ".htm")}
ZIPPED = ("docx", "odt")


# --- seeds ---------------------------------------------------------------------------------

SHORT = (
    "The river had been rising for three days. Nobody remembered a spring like it.",
    "“We should move the animals,” said Marta. Her brother agreed — for once.",
    docmakers.Table.of([["Année", "Crue (cm)"], ["1910", "41"]]),
    "Ünïcödé: ﬁrst ﬂood, 3.14 m; Ελληνικά, русский, 日本語, العربية.",
)


@dataclass(frozen=True)
class Seeds:
    """Real files of every format, a few each, as bytes."""

    files: dict[str, tuple[bytes, ...]]

    def of(self, fmt: str) -> tuple[bytes, ...]:
        return self.files[fmt]

    def all(self) -> list[tuple[str, bytes]]:
        return [(fmt, data) for fmt, many in self.files.items() for data in many]

    def warm_up(self) -> list[tuple[str, bytes]]:
        """One file of each format: what a fresh worker reads before its first case."""
        return [(f".{fmt}", many[0]) for fmt, many in self.files.items()]


def make_seeds() -> Seeds:
    """Write the seed files with the project's document makers (a second or two)."""
    m = docmakers
    # (the test font has no Greek, Cyrillic, Japanese or Arabic: fpdf2 logs it, and draws boxes)
    logging.getLogger("fpdf.output").setLevel(logging.ERROR)
    prose = list(m.SAMPLE_PROSE[:2])
    latin = [p.replace("ﬁ", "fi").replace("ﬂ", "fl") for p in prose]  # for Windows-1252
    with tempfile.TemporaryDirectory(prefix="doppel-fuzz-seeds-") as name:
        folder = Path(name)

        def written(make: Callable[..., Path], suffix: str, *args: Any, **kwargs: Any) -> bytes:
            path = folder / f"seed-{len(list(folder.iterdir()))}{suffix}"
            return make(path, *args, **kwargs).read_bytes()

        files = {
            "txt": (
                written(m.make_txt, ".txt", SHORT),
                written(m.make_txt, ".txt", SHORT, encoding="utf-16-le", bom=True),
                written(m.make_txt, ".txt", latin, encoding="cp1252", newline="\r\n"),
            ),
            "md": (written(m.make_md, ".md", SHORT, title="Essay", quotes={1}),),
            "docx": (
                written(m.make_docx, ".docx", SHORT, header="Head", footer="Foot", quotes={1}),
                written(m.make_docx, ".docx", prose, footnotes=["A note."]),
            ),
            "odt": (
                written(m.make_odt, ".odt", SHORT, header="Head", quotes={1}),
                written(m.make_odt, ".odt", prose, footnotes=["A note."]),
            ),
            "pdf": (
                written(m.make_pdf, ".pdf", prose, header="Head", footer_page_numbers=True),
                written(m.make_pdf, ".pdf", SHORT, font="unicode"),
            ),
            "rtf": (written(m.make_rtf, ".rtf", SHORT, header="Head", footer="Foot"),),
            "html": (
                written(m.make_html, ".html", SHORT, quotes={1}),
                written(m.make_html, ".html", latin, encoding="cp1252", noise=False),
            ),
        }
    return Seeds(files)


T = TypeVar("T")


class Entropy:
    """Choices read from a buffer of bytes; zeros once it is used up."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def below(self, n: int) -> int:
        """A number in [0, n)."""
        if n <= 1:
            return 0
        width = 1 if n <= 256 else 2 if n <= 65536 else 4
        chunk = self.data[self.at : self.at + width]
        self.at += width
        return int.from_bytes(chunk, "little") % n if chunk else 0

    def choice(self, options: Sequence[T]) -> T:
        return options[self.below(len(options))]

    def chance(self, one_in: int) -> bool:
        """True about once in `one_in` (never once the buffer is used up)."""
        return self.below(one_in) == one_in - 1

    def raw(self, most: int) -> bytes:
        size = self.below(most + 1)
        chunk = self.data[self.at : self.at + size]
        self.at += size
        return chunk

    def text(self) -> str:
        """Prose, or odd text: every plane, controls, marks, right-to-left, look-alikes,
        invisible characters; made from the buffer's own bytes now and then."""
        kind = self.below(8)
        if kind == 7:
            units = self.raw(24)
            units = units[: len(units) // 2 * 2]
            return units.decode("utf-16-le", "surrogatepass" if self.chance(2) else "replace")
        if kind == 6:
            return self.raw(24).decode("latin-1")
        return self.choice(TEXTS)


# --- byte mutations ------------------------------------------------------------------------

INTERESTING_BYTES = b"\x00\xff\x7f\x80<>&\"'{}\\/\n\r%[]()#"
INTERESTING_NUMBERS = (
    "0",
    "-1",
    "1",
    "255",
    "65535",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967296",
    "1000000000000",
    "99999999999999999999",
    "1e308",
    "NaN",
)
_NUMBER = re.compile(rb"-?\d+")


def _position(e: Entropy, data: bytes) -> int:
    return e.below(len(data) + 1)


def _range(e: Entropy, data: bytes) -> tuple[int, int]:
    start = _position(e, data)
    return start, min(len(data), start + e.below(257))


def flip(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    if not data:
        return data
    out = bytearray(data)
    for at in [e.below(len(data)) for _ in range(1 + e.below(8))]:
        out[at] ^= 1 + e.below(255)
    return bytes(out)


def interesting_byte(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    if not data:
        return data
    out = bytearray(data)
    at = e.below(len(data))
    out[at] = e.choice(INTERESTING_BYTES)
    return bytes(out)


def truncate(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    return data[: _position(e, data)]


def delete(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    start, end = _range(e, data)
    return data[:start] + data[end:]


def duplicate(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    start, end = _range(e, data)
    times = e.choice([1, 2, 8, 64])
    at = _position(e, data)
    return data[:at] + data[start:end] * times + data[at:]


def splice(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    other = e.choice(seeds)
    start, end = _range(e, other)
    at_start, at_end = _range(e, data)
    return data[:at_start] + other[start:end] + data[at_end:]


def insert_random(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    at = _position(e, data)
    return data[:at] + (e.raw(64) or b"\x00") + data[at:]


def interesting_number(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    numbers = list(_NUMBER.finditer(data[:200_000]))
    if not numbers:
        return data
    match = e.choice(numbers)
    value = e.choice(INTERESTING_NUMBERS).encode()
    return data[: match.start()] + value + data[match.end() :]


BYTE_MUTATIONS = (
    flip,
    interesting_byte,
    truncate,
    delete,
    duplicate,
    splice,
    insert_random,
    interesting_number,
)


# --- XML mutations (inside a zip part) -------------------------------------------------------

_ELEMENT = re.compile(rb"<([A-Za-z][\w.:-]*)(?:\s[^<>]*)?>(?:[^<]*)</\1>|<[A-Za-z][\w.:-]*[^<>]*/>")
_ATTRIBUTE = re.compile(rb'([\w:.-]+)="([^"]*)"')


def xml_drop_element(e: Entropy, xml: bytes) -> bytes:
    elements = list(_ELEMENT.finditer(xml[:500_000]))
    if not elements:
        return xml
    match = e.choice(elements)
    return xml[: match.start()] + xml[match.end() :]


def xml_repeat_element(e: Entropy, xml: bytes) -> bytes:
    elements = list(_ELEMENT.finditer(xml[:500_000]))
    if not elements:
        return xml
    match = e.choice(elements)
    times = e.choice([2, 10, 1_000, 50_000])
    times = min(times, (4 << 20) // max(len(match.group(0)), 1))  # at most 4 MB more
    return xml[: match.end()] + match.group(0) * times + xml[match.end() :]


def xml_nest_deep(e: Entropy, xml: bytes) -> bytes:
    elements = list(_ELEMENT.finditer(xml[:500_000]))
    if not elements:
        return xml
    match = e.choice(elements)
    tag = re.match(rb"<([\w.:-]+)", match.group(0))
    assert tag is not None
    name = tag.group(1)
    depth = e.choice([50, 2_000, 100_000])
    wrapped = b"<%s>" % name * depth + match.group(0) + b"</%s>" % name * depth
    return xml[: match.start()] + wrapped + xml[match.end() :]


def xml_huge_attribute(e: Entropy, xml: bytes) -> bytes:
    attributes = list(_ATTRIBUTE.finditer(xml[:500_000]))
    if not attributes:
        return xml
    match = e.choice(attributes)
    value = e.choice([b"9" * 30, b"-1", b"0", b"x" * 100_000, b"99999999", b"&#0;", b"1e999", b""])
    return xml[: match.start(2)] + value + xml[match.end(2) :]


def xml_entities(e: Entropy, xml: bytes) -> bytes:
    """A DOCTYPE with entities (a small billion laughs, an external entity) before the root."""
    declaration = e.choice(
        [
            b'<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
            b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;">]>',
            b'<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
            b'<!DOCTYPE r SYSTEM "http://example.invalid/dtd">',
        ]
    )
    end = xml.find(b"?>")
    at = end + 2 if 0 <= end < 200 else 0
    out = xml[:at] + declaration + xml[at:]
    text = re.search(rb">([^<>]{3,})<", out[at + len(declaration) :])
    if text is not None and e.below(2) == 1:
        start = at + len(declaration) + text.start(1)
        out = out[:start] + e.choice([b"&d;", b"&x;", b"&undefined;"]) + out[start:]
    return out


XML_MUTATIONS = (
    xml_drop_element,
    xml_repeat_element,
    xml_nest_deep,
    xml_huge_attribute,
    xml_entities,
)


# --- zip mutations -------------------------------------------------------------------------


#: a zip whose parts hold more than this (a bomb part, say) is not unpacked and rewritten again:
#: only its bytes and its directory are mutated (it would cost the fuzzer seconds a case)
_REZIP_BYTES = 32 << 20


def _entries(data: bytes) -> list[tuple[zipfile.ZipInfo, bytes]] | None:
    """The parts of a zip, or None (not a zip, damaged, or too big to rewrite)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
            if sum(info.file_size for info in infos) > _REZIP_BYTES:
                return None
            return [(info, archive.read(info)) for info in infos]
    except Exception:
        return None


def _zip(entries: list[tuple[zipfile.ZipInfo, bytes]]) -> bytes:
    out = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a name twice (zip_twice) is the point
        with zipfile.ZipFile(out, "w") as archive:
            for info, content in entries:
                archive.writestr(info, content)
    return out.getvalue()


def zip_rewrite_part(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    entries = _entries(data)
    if not entries:
        return data
    k = e.below(len(entries))
    info, content = entries[k]
    if content.lstrip()[:1] == b"<" and e.below(2) == 1:
        content = e.choice(XML_MUTATIONS)(e, content)
    else:
        content = e.choice(BYTE_MUTATIONS)(e, content, seeds)
    entries[k] = (info, content)
    return _zip(entries)


def zip_drop_part(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    entries = _entries(data)
    if not entries:
        return data
    del entries[e.below(len(entries))]
    return _zip(entries)


def zip_twice(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    """A part added again under the same name, with other content (zipfile warns, writes)."""
    entries = _entries(data)
    if not entries:
        return data
    info, content = e.choice(entries)
    twin = zipfile.ZipInfo(info.filename, date_time=info.date_time)
    twin.compress_type = zipfile.ZIP_DEFLATED
    out = io.BytesIO(_zip(entries))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with zipfile.ZipFile(out, "a") as archive:
            archive.writestr(twin, content[: len(content) // 2] + b"<x>" * 100)
    return out.getvalue()


def zip_flip_compression(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    entries = _entries(data)
    if not entries:
        return data
    k = e.below(len(entries))
    info = entries[k][0]
    info.compress_type = (
        zipfile.ZIP_STORED if info.compress_type == zipfile.ZIP_DEFLATED else zipfile.ZIP_DEFLATED
    )
    return _zip(entries)


#: the roots a bomb part is wrapped in, so it is the main text's part of its format
_BOMB_ROOTS = {
    "word/document.xml": (
        b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        b"<w:body>",
        b"</w:body></w:document>",
    ),
    "content.xml": (
        b'<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:'
        b'1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body>'
        b"<office:text>",
        b"</office:text></office:body></office:document-content>",
    ),
}


@functools.cache
def _bomb(part: str, unit: bytes, size: int) -> tuple[bytes, int, int]:
    """A part of about `size` bytes, `unit` repeated: (raw deflate data, CRC, size), made
    once per session a megabyte at a time. A `unit` with %08X in it gets random hex there
    every 30th time, so the part compresses only ~40:1: inside every ratio limit (the issue's
    1 MB .docx of 60 MiB of empty paragraphs)."""
    head, tail = _BOMB_ROOTS.get(part, (b"<x>", b"</x>"))
    squeeze = zlib.compressobj(1, zlib.DEFLATED, -15)
    if b"%08X" in unit:
        plain = unit.replace(b"%08X", b"0")
        salt = iter(random.Random(size).getrandbits(32) for _ in range(1 << 20))
        pieces_ = [
            unit % next(salt) if k % 30 == 0 else plain for k in range((1 << 20) // len(plain))
        ]
        chunk = b"".join(pieces_)
    else:
        chunk = unit * ((1 << 20) // len(unit))
    pieces = [squeeze.compress(head)]
    crc = zlib.crc32(head)
    written = len(head)
    while written < size:
        pieces.append(squeeze.compress(chunk))
        crc = zlib.crc32(chunk, crc)
        written += len(chunk)
    pieces += [squeeze.compress(tail), squeeze.flush()]
    return b"".join(pieces), zlib.crc32(tail, crc), written + len(tail)


def _raw_zip(entries: list[tuple[str, int, bytes, int, int]]) -> bytes:
    """A zip of (name, method, data as stored, CRC, uncompressed size) entries, written by
    hand so a part can be stored already compressed."""
    out = bytearray()
    directory = bytearray()
    for name, method, data, crc, size in entries:
        encoded = name.encode()
        header = (20, 0, method, 0, 0x21, crc, len(data), size, len(encoded), 0)
        directory += b"PK\x01\x02" + struct.pack("<HHHHHHIIIHHHHHII", 20, *header, 0, 0, 0, 0,
                                                    len(out)) + encoded  # fmt: skip
        out += b"PK\x03\x04" + struct.pack("<HHHHHIIIHH", *header) + encoded + data
    count = len(entries)
    end = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, count, count, len(directory), len(out), 0)
    return bytes(out + directory + end)


def zip_bomb_part(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    """The main text's part replaced by a huge, very compressible one (declared truly: the
    directory-lying mutation may follow)."""
    entries = _entries(data)
    if not entries:
        return data
    names = [info.filename for info, _ in entries]
    main = next((n for n in _BOMB_ROOTS if n in names), names[0])
    unit = e.choice(
        [b" ", b"<w:p/>", b"<text:p/>", b'<text:s text:c="9"/>', b'<w:p w:rsidR="%08X"/>',
         b'<text:p text:id="%08X"/>']
    )  # fmt: skip
    if b"%08X" not in unit:  # ~1000:1: the ratio check refuses it, whatever its size
        size = e.choice([1 << 20, 20 << 20, 300 << 20])
    elif HEAVY:  # inside the ratio limit: parsed until the element limit (seconds of CPU)
        size = e.choice([20 << 20, 60 << 20, 300 << 20])
    else:
        size = e.choice([1 << 20, 4 << 20])
    raw = []
    for info, content in entries:
        if info.filename == main:
            raw.append((main, zipfile.ZIP_DEFLATED, *_bomb(main, unit, size)))
        else:
            raw.append((info.filename, zipfile.ZIP_STORED, content, zlib.crc32(content),
                        len(content)))  # fmt: skip
    return _raw_zip(raw)


def zip_lie(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    """A field of the central directory and of the local header made to lie: the sizes, the
    CRC or the compression method."""
    out = bytearray(data)
    # (a whole central directory header: 46 bytes; a truncated one is left alone)
    directory = [m.start() for m in re.finditer(b"PK\x01\x02", data) if m.start() + 46 <= len(data)]
    if not directory:
        return data
    at = e.choice(directory)
    field_ = e.choice(["compressed", "uncompressed", "crc", "method", "local-size"])
    value = e.choice([0, 1, 1000, 0x7FFFFFFF, 0xFFFFFFFF, 12, 14, 99])
    offsets = {
        "method": (10, "<H"),
        "crc": (16, "<I"),
        "compressed": (20, "<I"),
        "uncompressed": (24, "<I"),
    }
    if field_ == "local-size":
        (local,) = struct.unpack_from("<I", data, at + 42)
        if local + 26 <= len(data):
            struct.pack_into("<I", out, local + 22, value & 0xFFFFFFFF)
        return bytes(out)
    offset, fmt = offsets[field_]
    struct.pack_into(fmt, out, at + offset, value & (0xFFFF if fmt == "<H" else 0xFFFFFFFF))
    return bytes(out)


ZIP_MUTATIONS = (
    zip_rewrite_part,
    zip_rewrite_part,
    zip_drop_part,
    zip_twice,
    zip_flip_compression,
    zip_bomb_part,
    zip_lie,
)


# --- PDF mutations -------------------------------------------------------------------------


def pdf_length(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    lengths = list(re.finditer(rb"/Length (\d+)", data))
    if not lengths:
        return data
    match = e.choice(lengths)
    value = e.choice(INTERESTING_NUMBERS[:10]).encode()
    return data[: match.start(1)] + value + data[match.end(1) :]


def pdf_cycle(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    """The page tree's /Kids also pointing at the Pages node itself, or a page at its parent."""
    pages = re.search(rb"(\d+) 0 obj\s*<<[^>]*/Type\s*/Pages", data)
    kids = re.search(rb"/Kids\s*\[", data)
    if pages is None or kids is None:
        return data
    reference = pages.group(1) + b" 0 R "
    return data[: kids.end()] + reference * (1 + e.below(3)) + data[kids.end() :]


def pdf_xref(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    offsets = list(re.finditer(rb"(\d{10}) (\d{5}) ([nf])", data))
    if not offsets:
        return data
    out = bytearray(data)
    for match in [e.choice(offsets) for _ in range(1 + e.below(4))]:
        value = e.below(10**10)
        out[match.start(1) : match.end(1)] = b"%010d" % value
    return bytes(out)


def pdf_trailer(e: Entropy, data: bytes, seeds: tuple[bytes, ...]) -> bytes:
    replacement = e.choice(
        [
            (rb"/Root \d+ 0 R", b"/Root 999 0 R"),
            (rb"/Root \d+ 0 R", b"/Root 1 0 R /Prev 0"),
            (rb"/Size \d+", b"/Size 0"),
            (rb"/Size \d+", b"/Size 2147483647"),
            (rb"startxref\s+\d+", b"startxref\n0"),
            (rb"/Count \d+", b"/Count 2147483647"),
        ]
    )
    return re.sub(replacement[0], replacement[1], data, count=1)


PDF_MUTATIONS = (pdf_length, pdf_cycle, pdf_xref, pdf_trailer)


def mutate(seed: bytes, choices: bytes, seeds: tuple[bytes, ...], fmt: str) -> bytes:
    """`seed` (a file of `fmt`) with one to four mutations applied in turn, chosen by the bytes
    of `choices` (Hypothesis's or atheris's)."""
    e = Entropy(choices)
    data = seed
    own = ZIP_MUTATIONS if fmt in ZIPPED else PDF_MUTATIONS if fmt == "pdf" else ()
    for _ in range(1 + e.below(4)):
        if own and e.below(2) == 1:
            data = e.choice(own)(e, data, seeds)
        else:
            data = e.choice(BYTE_MUTATIONS)(e, data, seeds)
    return data


def mutated(seeds: tuple[bytes, ...], fmt: str) -> st.SearchStrategy[bytes]:
    """Seeds of `fmt`, each with one to four mutations (`mutate`)."""

    def apply(k: int, choices: bytes) -> bytes:
        return mutate(seeds[k], choices, seeds, fmt)

    return st.builds(apply, st.integers(0, len(seeds) - 1), st.binary(min_size=4, max_size=256))


# --- generated structures ------------------------------------------------------------------
#
# Each builder turns a buffer of bytes (Hypothesis's `st.binary`, one draw per case, or atheris's
# input) into a file of its format: `Entropy` reads the buffer as a series of choices, and
# once it runs dry every choice is the first option, which always ends a branch. Drawing a tree
# node by node through Hypothesis costs ~0.5 ms a choice, thousands a file: 1 case a second.


TEXTS = (
    "The quick brown fox.",
    "The river had been rising for three days when the first boats came down.",
    "Marta ran the mill with her brother. They agreed, for once.",
    "Nobody remembered a spring like it",
    " ",
    "",
    "\t\n",
    "Ünïcödé ﬁrst ﬂood 3.14",
    "\u200b\u200d\u00ad\u034f\u3164\U000e0041\ufe0f\u2800",
    "Тhе сору",  # Cyrillic look-alikes in Latin words
    "\u202eevil\u202c",
    "日本語のテキスト。",
    "مرحبا بالعالم",
    "a" * 5_000,
    "word " * 2_000,
    "\x00\x01\x1b\x7f",
    "\ud800",  # a lone surrogate: not encodable as UTF-8
    "&amp; &lt; <> \"' \\ {} %",
)


def _xml_text(text: str) -> str:
    """`text` as XML character data: characters XML cannot hold dropped, markup escaped."""
    kept = "".join(
        ch
        for ch in text
        if ch in "\t\n\r"
        or (0x20 <= ord(ch) < 0xD800 or 0xE000 <= ord(ch) < 0xFFFE or ord(ch) > 0xFFFF)
    )
    return kept.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


ATTRIBUTE_VALUES = ("0", "1", "true", "false", "on", "none", "FFFFFF", "auto", "-1",
                    "999999999", "12pt", "0.1pt", "transparent", "#ffffff", "Quote", "x", "",
                    "1e999", "2147483648", "-0", "NaN", "10000000")  # fmt: skip


@dataclass(frozen=True)
class XmlVocabulary:
    """The elements a generated tree uses: containers (may hold others), leaves, text holders,
    and the attributes to draw from."""

    containers: tuple[str, ...]
    leaves: tuple[str, ...]
    text_holders: tuple[str, ...]
    attributes: tuple[str, ...]


DOCX_XML = XmlVocabulary(
    containers=("w:p", "w:r", "w:tbl", "w:tr", "w:tc", "w:sdt", "w:sdtContent", "w:hyperlink",
                "w:ins", "w:del", "w:smartTag", "w:fldSimple", "w:rPr", "w:pPr", "w:txbxContent",
                "mc:AlternateContent", "mc:Choice", "mc:Fallback", "w:customXml", "w:x"),
    leaves=("w:tab", "w:br", "w:cr", "w:vanish", "w:webHidden", "w:specVanish", "w:noProof",
            "w:color", "w:sz", "w:szCs", "w:highlight", "w:shd", "w:pStyle", "w:rStyle",
            "w:footnoteReference", "w:sym", "w:softHyphen", "w:noBreakHyphen",
            "w:lastRenderedPageBreak"),
    text_holders=("w:t", "w:delText", "w:instrText"),
    attributes=("w:val", "w:fill", "w:color", "w:id", "xml:space", "w:char", "w:font", "w:type"),
)  # fmt: skip

ODT_XML = XmlVocabulary(
    containers=("text:p", "text:h", "text:span", "text:a", "text:list", "text:list-item",
                "text:section", "table:table", "table:table-row", "table:table-cell",
                "text:note", "text:note-body", "draw:frame", "draw:text-box", "office:annotation",
                "text:tracked-changes", "text:changed-region", "text:deletion", "text:ruby",
                "text:index-body", "text:x"),
    leaves=("text:s", "text:tab", "text:line-break", "text:soft-page-break",
            "text:note-citation", "table:covered-table-cell", "text:bookmark", "text:change"),
    text_holders=("text:span", "text:p", "text:h", "text:note-citation", "dc:creator"),
    attributes=("text:c", "text:style-name", "table:number-columns-repeated",
                "table:number-rows-repeated", "text:outline-level", "text:display",
                "table:style-name", "text:id", "text:change-id"),
)  # fmt: skip


def _attributes(e: Entropy, names: tuple[str, ...]) -> str:
    out: dict[str, str] = {}
    for _ in range(e.below(3)):
        value = e.choice(ATTRIBUTE_VALUES) if e.below(4) else e.text()[:12]
        out[e.choice(names)] = _xml_text(value).replace('"', "&quot;")
    # (one name twice makes the XML ill-formed: now and then, not at every other element)
    twice = next(iter(out), None) if e.chance(2_000) else None
    return "".join(f' {name}="{value}"' for name, value in out.items()) + (
        f' {twice}="1"' if twice else ""
    )


def _paragraph(e: Entropy, vocabulary: XmlVocabulary, shape: str) -> str:
    """A paragraph as the format writes one, `shape` with {tree} and {text} to fill, random
    trees beside the text: most generated files then hold words to find."""
    return shape.format(tree=xml_tree(e, vocabulary, 4), text=_xml_text(e.text()))


def xml_tree(e: Entropy, vocabulary: XmlVocabulary, depth: int = 0) -> str:
    """A random element of `vocabulary` and its children, about 6 deep; now and then one chain
    nested far deeper, or an element repeated hundreds of times (at most ~1 MB)."""
    kind = e.below(10)
    if kind <= 2 or depth > 6:
        if kind % 2:
            name = e.choice(vocabulary.text_holders)
            attributes = _attributes(e, vocabulary.attributes)
            return f"<{name}{attributes}>{_xml_text(e.text())}</{name}>"
        return f"<{e.choice(vocabulary.leaves)}{_attributes(e, vocabulary.attributes)}/>"
    if kind == 9 and depth < 30:  # a deep chain
        name = e.choice(vocabulary.containers)
        levels = e.choice((20, 200, 3_000))
        return f"<{name}>" * levels + xml_tree(e, vocabulary, depth + 7) + f"</{name}>" * levels
    name = e.choice(vocabulary.containers)
    children = "".join(xml_tree(e, vocabulary, depth + 1) for _ in range(e.below(5)))
    element = f"<{name}{_attributes(e, vocabulary.attributes)}>{children}</{name}>"
    repeat = e.choice((1, 1, 1, 2, 500))
    return element * min(repeat, max(1, (1 << 20) // max(len(element), 1)))


_W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
_MC = 'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"'
_R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
_DOCX_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
    'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.wordprocessingml.document.main+xml"/></Types>'
)
#: where the package's relationship says the main document is
MAIN_TARGETS = ("word/document.xml", "/word/document.xml", "word/../word/document.xml",
                "../../etc/passwd", "word/missing.xml", "http://example.invalid/x")  # fmt: skip
_RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _relationships(targets: list[tuple[str, str]]) -> str:
    items = "".join(
        f'<Relationship Id="rId{k}" Type="{_RELATIONSHIPS}/{kind}" Target="{_xml_text(target)}"/>'
        for k, (kind, target) in enumerate(targets, 1)
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?><Relationships '
        f'xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{items}'
        "</Relationships>"
    )


def build_docx(data: bytes) -> bytes:
    e = Entropy(data)
    body = "".join(
        _paragraph(e, DOCX_XML, "<w:p><w:r>{tree}<w:t>{text}</w:t></w:r></w:p>")
        if e.below(3)
        else xml_tree(e, DOCX_XML)
        for _ in range(1 + e.below(8))
    )
    document = (
        f'<?xml version="1.0" encoding="UTF-8"?><w:document {_W} {_MC} {_R}>'
        f"<w:body>{body}</w:body></w:document>"
    )
    main = e.choice(MAIN_TARGETS)
    parts = {
        "[Content_Types].xml": _DOCX_TYPES,
        "_rels/.rels": _relationships([("officeDocument", main)]),
        "word/document.xml": document,
    }
    if e.below(2):
        names = ("Quote", "Normal", "S1", "S2")
        styles = "".join(
            f'<w:style w:type="{e.choice(("paragraph", "character", "table"))}" '
            f'w:styleId="{e.choice(names)}"><w:basedOn w:val="{e.choice(names)}"/>'
            f"<w:rPr>{xml_tree(e, DOCX_XML, 5)}</w:rPr></w:style>"
            for _ in range(1 + e.below(4))
        )
        parts["word/styles.xml"] = f'<?xml version="1.0"?><w:styles {_W}>{styles}</w:styles>'
        targets = [("styles", e.choice(("styles.xml", "styles.xml#x", "../styles.xml")))]
        if e.below(2):
            notes = xml_tree(e, DOCX_XML, 3)
            parts["word/footnotes.xml"] = (
                f'<w:footnotes {_W}><w:footnote w:id="1">{notes}</w:footnote></w:footnotes>'
            )
            targets.append(("footnotes", "footnotes.xml"))
        parts["word/_rels/document.xml.rels"] = _relationships(targets)
    return _package(e, parts)


_ODF = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:dc="http://purl.org/dc/elements/1.1/"'
)


def build_odt(data: bytes) -> bytes:
    e = Entropy(data)
    body = "".join(
        _paragraph(e, ODT_XML, "<text:p>{text}<text:span>{tree}</text:span></text:p>")
        if e.below(3)
        else xml_tree(e, ODT_XML)
        for _ in range(1 + e.below(8))
    )
    names = ("P1", "T1", "Quotations", "P2")
    styles = "".join(
        f'<style:style style:name="{e.choice(names)}" '
        f'style:family="{e.choice(("paragraph", "text", "table-cell"))}" '
        f'style:parent-style-name="{e.choice(names)}"><style:text-properties '
        f'fo:color="{e.choice(("#ffffff", "#000000", "x", "", "#fffffe"))}" '
        f'fo:font-size="{e.choice(("1pt", "0pt", "12pt", "200%", "-3pt", "x", "1e308pt"))}" '
        f'text:display="{e.choice(("none", "true", "x"))}"/></style:style>'
        for _ in range(e.below(5))
    )
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_ODF}>'
        f"<office:automatic-styles>{styles}</office:automatic-styles>"
        f"<office:body><office:text>{body}</office:text></office:body></office:document-content>"
    )
    parts = {
        "mimetype": e.choice(("", "text/plain", "application/vnd.oasis.opendocument.spreadsheet"))
        if e.chance(8)
        else "application/vnd.oasis.opendocument.text",
        "content.xml": content,
        "META-INF/manifest.xml": (
            '<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:'
            'opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" '
            'manifest:media-type="application/vnd.oasis.opendocument.text"/></manifest:manifest>'
        ),
    }
    if e.below(2):
        parts["styles.xml"] = (
            f"<office:document-styles {_ODF}><office:styles>{styles}</office:styles>"
            "</office:document-styles>"
        )
    return _package(e, parts)


def _package(e: Entropy, parts: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", e.choice((zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED))) as z:
        for name, text in parts.items():
            z.writestr(name, text.encode("utf-8", "surrogatepass"))
    return out.getvalue()


HTML_TAGS = ("p", "div", "span", "br", "table", "tr", "td", "th", "ul", "li", "blockquote",
             "script", "style", "noscript", "template", "title", "head", "body", "html", "pre",
             "h1", "a", "img", "iframe", "svg", "math", "textarea", "select", "option", "q",
             "meta", "frameset", "xmp", "plaintext", "object")  # fmt: skip
HTML_ATTRIBUTES = ("hidden", 'style="display:none"', 'style="visibility:hidden"',
                   'style="color:#fff;font-size:0"', 'aria-hidden="true"', 'charset="utf-16"',
                   'http-equiv="content-type" content="text/html; charset=koi8-r"', 'lang="ru"',
                   'class="x"', 'dir="rtl"', 'style="display:none', "='broken")  # fmt: skip
HTML_ODDITIES = ("&nbsp;&#0;&#x110000;&#55296;&amp&lt&bogus;", "<!-- c -->", "<![CDATA[x]]>",
                 "<?php x ?>", "</p></div>", "<p", "&", "<!--", "<script>",
                 "</body></html>x")  # fmt: skip


def html_tree(e: Entropy, depth: int = 0) -> str:
    kind = e.below(13)
    if kind <= 3 or depth > 6:
        text = e.text()
        escaped = text.replace("&", "&amp;").replace("<", "&lt;")
        return e.choice((escaped, text, e.choice(HTML_ODDITIES)))
    if kind == 12 and depth < 3:
        return f"<{e.choice(HTML_TAGS)}>" * e.choice((100, 5_000)) + "deep"
    tag = e.choice(HTML_TAGS)
    attributes = " ".join(e.choice(HTML_ATTRIBUTES) for _ in range(e.below(3)))
    children = "".join(html_tree(e, depth + 1) for _ in range(e.below(5)))
    return f"<{tag} {attributes}>{children}{e.choice((f'</{tag}>', f'</{tag}>', ''))}"


def build_html(data: bytes) -> bytes:
    e = Entropy(data)
    head = e.choice(("", "<!DOCTYPE html>", '<?xml version="1.0" encoding="utf-16"?>',
                     '<meta charset="utf-8">', '<meta charset="bogus-charset">',
                     '<meta charset="utf-7">'))  # fmt: skip
    page = head + "".join(html_tree(e) for _ in range(1 + e.below(6)))
    encoding = e.choice(("utf-8", "utf-16-le", "utf-16", "cp1252", "koi8-r", "shift_jis"))
    bom = e.choice((b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"))
    return bom + page.encode(encoding, "replace")


RTF_WORDS = ("par", "line", "tab", "pard", "plain", "b", "i", "u", "uc", "bin", "fonttbl",
             "colortbl", "stylesheet", "header", "footer", "footnote", "pict", "object",
             "field", "fldinst", "fldrslt", "trowd", "cell", "row", "cellx", "intbl", "ansicpg",
             "deff", "f", "fs", "v", "cf", "highlight", "info", "title", "author", "shppict",
             "nonshppict", "upr", "ud", "sect", "page", "emdash", "lquote", "rquote", "~", "_",
             "-", "*", "'", "\\", "{", "}", "\n")  # fmt: skip


def rtf_tokens(e: Entropy, depth: int = 0) -> str:
    parts = []
    for _ in range(e.below(9)):
        kind = e.below(10)
        if kind <= 2:
            parts.append(e.text().replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}"))
        elif kind <= 5:
            word = e.choice(RTF_WORDS)
            number = e.choice(("", "", str(e.below(70_000) - 35_000), *INTERESTING_NUMBERS[:9]))
            if word == "'":
                parts.append("\\'" + e.choice(("e9", "ff", "00", "zz", "4", "")))
            elif word == "bin":
                parts.append(f"\\bin{number} " + e.raw(20).decode("latin-1"))
            else:
                parts.append(f"\\{word}{number} ")
        elif kind == 6 and depth < 3:
            levels = e.choice((2, 300, 20_000))
            parts.append("{" * levels + "x" + "}" * e.choice((levels, 0, levels // 2)))
        elif depth < 6:
            parts.append("{" + e.choice(("", "\\*")) + rtf_tokens(e, depth + 1) + "}")
    return "".join(parts)


def build_rtf(data: bytes) -> bytes:
    e = Entropy(data)
    head = e.choice(("{\\rtf1\\ansi\\ansicpg1252\\deff0", "{\\rtf1", "{\\rtf",
                     "{\\rtf1\\ansi\\ansicpg65001", "{\\rtf1\\mac",
                     "{\\rtf1\\ansicpg99999"))  # fmt: skip
    text = head + rtf_tokens(e) + e.choice(("}", "", "}}}}"))
    return text.encode("latin-1", "replace")


PDF_CMAPS = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap "
    b"1 begincodespacerange <00> <FF> endcodespacerange "
    b"1 beginbfrange <20> <7E> <0041> endbfrange endcmap",
    b"begincmap 1 beginbfchar <41> <D800> endbfchar endcmap",
    b"begincmap 99999 beginbfrange <00> <FFFFFFFF> <0000> endbfrange endcmap",
    b"garbage",
)


def build_pdf(data: bytes) -> bytes:
    """A PDF built object by object: catalog, page tree (sometimes a cycle), a page, its content
    stream (text operators; compressed or not; its /Length right or not), a font with or
    without a ToUnicode map; a correct cross-reference table unless a PDF mutation follows."""
    e = Entropy(data)
    operators = []
    for _ in range(1 + e.below(4)):
        text = e.text().encode("latin-1", "replace")
        escaped = text.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
        show = e.choice((b"(%s) Tj" % escaped, b"[(%s) -250 (x)] TJ" % escaped,
                         b"<%s> Tj" % escaped.hex().encode(), b"(%s) '" % escaped,
                         b"(unterminated Tj", b"[(a) 99999999999 (b)] TJ"))  # fmt: skip
        font = e.choice((b"/F1 12 Tf", b"/F1 0 Tf", b"/F9 12 Tf", b"/F1 -1e30 Tf", b""))
        matrix = e.choice((b"1 0 0 1 72 720 Tm", b"0 0 0 0 0 0 Tm", b"", b"1e38 0 0 1e38 0 0 Tm"))
        operators.append(b"BT " + font + b" " + matrix + b" " + show + b" ET")
    nesting = e.choice((0, 0, 50, 5_000))
    content = b"q " * nesting + b"\n".join(operators) + b" Q" * nesting
    compressed = e.below(2)
    content_data = zlib.compress(content) if compressed else content
    filters = b"/Filter /FlateDecode" if compressed else e.choice((b"", b"/Filter /LZWDecode"))
    length = e.choice((0, 5, 10**9)) if e.chance(5) else len(content_data)
    cmap = e.choice(PDF_CMAPS)
    # (odd ones now and then: a file whose page tree is broken stops at the page tree)
    kids = (
        e.choice((b"[3 0 R 2 0 R]", b"[]", b"3 0 R", b"[3 0 R 3 0 R]"))
        if e.chance(4)
        else b"[3 0 R]"
    )
    count = e.choice((b"0", b"-1", b"2147483647")) if e.chance(4) else b"1"
    resources = e.choice((b"<< /Font << /F1 5 0 R >> >>", b"<< /Font 5 0 R >>", b"7 0 R"))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids " + kids + b" /Count " + count + b" >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources " + resources + b" >>",
        b"<< /Length %d %s >>\nstream\n" % (length, filters) + content_data + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
        + e.choice((b"", b"/ToUnicode 6 0 R", b"/Encoding 6 0 R"))
        + b" >>",
        b"<< /Length %d >>\nstream\n" % len(cmap) + cmap + b"\nendstream",
        # resources that draw a form XObject which draws itself: a recursion
        b"<< /Font << /F1 5 0 R >> /XObject << /X1 8 0 R >> >>",
        b"<< /Type /XObject /Subtype /Form /BBox [0 0 1 1] /Resources 7 0 R /Length 7 >>\n"
        b"stream\n/X1 Do\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref_at = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref_at,
    )
    return bytes(out)


def build_plain(data: bytes) -> bytes:
    e = Entropy(data)
    if e.below(3) == 0:
        return e.raw(2_000)
    text = "".join(e.text() for _ in range(e.below(9)))
    encoding = e.choice(("utf-8", "utf-16-le", "utf-16-be", "utf-32", "cp1252", "koi8-r",
                         "gb18030", "shift_jis", "latin-1"))  # fmt: skip
    bom = e.choice((b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00"))
    return bom + text.encode(encoding, "replace")


BUILDERS: dict[str, Callable[[bytes], bytes]] = {
    "txt": build_plain,
    "md": build_plain,
    "docx": build_docx,
    "odt": build_odt,
    "pdf": build_pdf,
    "rtf": build_rtf,
    "html": build_html,
}


def build(fmt: str, data: bytes) -> bytes:
    """A file of `fmt` built from the bytes `data`; a PDF's table broken now and then."""
    built = BUILDERS[fmt](data)
    e = Entropy(data[::-1])  # (other choices from the same bytes)
    if fmt == "pdf" and e.chance(6):
        built = e.choice(PDF_MUTATIONS)(e, built, ())
    return built


def generated(fmt: str) -> st.SearchStrategy[bytes]:
    """Files of `fmt` built from one buffer of Hypothesis's bytes (see the builders)."""
    return st.builds(build, st.just(fmt), st.binary(min_size=8, max_size=1_024))

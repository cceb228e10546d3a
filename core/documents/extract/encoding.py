"""Decodes the bytes of a text file whose encoding nobody wrote down.

The order (docs/formats.md, "Encodings"): byte-order mark; UTF-16 without a mark, recognised by
where its zero bytes fall (or, without any, by one byte of each pair taking few values) and
accepted only if it decodes to plausible text; strict UTF-8; then Windows-1252 and GB18030, each
accepted only if the decoded text looks like Western or Chinese writing; then
charset-normalizer's guess; finally Latin-1, which never fails. Every reading after UTF-8 must
also look like text (`looks_like_text`): bytes that only decode as Latin-1 with control
characters everywhere are binary data, refused like a file full of zero bytes.

charset-normalizer is not asked first because on short files it is often wrong where a simple
rule is right: it read a short Windows-1252 text as cp1250 and a long French one as cp1257,
Latin-1 as cp1250, and a short GB18030 text as UTF-16. It stays as the last guess for
encodings the rules do not cover (Cyrillic, Greek, Japanese, Korean ...)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from core.documents.extract.sniff import looks_like
from core.errors import CorruptDocument


@dataclass(frozen=True, slots=True)
class DecodedText:
    text: str
    encoding: str  # Python codec name
    warning: str | None  # what a teacher should know about how it was read, if anything


_BOMS: tuple[tuple[bytes, str, str], ...] = (
    # UTF-32 first: its little-endian mark starts with UTF-16's.
    (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32"),
    (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32"),
    (b"\xef\xbb\xbf", "utf-8", "UTF-8"),
    (b"\xff\xfe", "utf-16-le", "UTF-16"),
    (b"\xfe\xff", "utf-16-be", "UTF-16"),
)

# Three or more non-ASCII, non-space characters in a row: rare in Western languages ("Größe" has
# two), but what Chinese, Cyrillic or Greek bytes look like when read as Windows-1252.
_NON_ASCII = re.compile(r"[^\x00-\x7f\s]")
_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f\s]{3,}")

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff"
_CJK_CHAR = re.compile(f"[{_CJK}]")
# What else a Chinese text encoded in GB18030 contains: ASCII, CJK punctuation and full-width
# forms, kana and bopomofo, general punctuation, symbols, Greek and Cyrillic (GB2312 has them),
# and Latin letters with pinyin tone marks.
_NOT_CHINESE = re.compile(
    "[^\\x00-\\x7f\\u00a0-\\u024f\\u02c7-\\u02d9\\u0391-\\u03c9\\u0401-\\u0451"
    "\\u2000-\\u27bf\\u2e80-\\u33ff\\ufe30-\\ufe4f\\uff00-\\uffef" + _CJK + "]"
)
# A single CJK character glued to a Latin letter: how "Größe" looks read as GB18030 ("Gr鲞e").
_GLUED_CJK = re.compile(f"(?<=[A-Za-z])[{_CJK}](?![{_CJK}])|(?<![{_CJK}])[{_CJK}](?=[A-Za-z])")
_HIGH_BYTE_RUN = re.compile(rb"[\x80-\xff]+")

_UNCHECKED_GUESSES = frozenset(
    {"utf_16", "utf_16_le", "utf_16_be", "utf_32", "utf_32_le", "utf_32_be"}
)


def decode_text(data: bytes, path: Path) -> DecodedText:
    """Decode a text file's bytes; raises CorruptDocument when they are not text at all."""
    for bom, codec, name in _BOMS:
        if data.startswith(bom):
            return _decode_marked(data[len(bom) :], codec, name)

    utf16 = _utf16_without_bom(data)
    if utf16 is not None:
        return utf16
    if data.count(0) * 1000 > len(data):
        raise CorruptDocument(path, f"it contains binary data, not text{looks_like(data)}")

    try:
        return DecodedText(data.decode("utf-8"), "utf-8", None)
    except UnicodeDecodeError:
        pass

    western = _plausible(_western(data))
    chinese = _plausible(_chinese(data))
    # Both readings can look fine on a tiny file. Chinese bytes come in pairs; Western accented
    # letters mostly stand alone, so an odd run of high bytes settles it for Western.
    if chinese is not None and (western is None or _high_bytes_paired(data)):
        return chinese
    if western is not None:
        return western

    guess = _plausible(_charset_normalizer_guess(data))
    if guess is not None:
        return guess
    latin1 = _plausible(
        DecodedText(
            data.decode("latin-1"),
            "latin-1",
            "the encoding could not be recognised; the text was read as Latin-1, so some "
            "characters may be wrong (saving the file as UTF-8 avoids this)",
        )
    )
    if latin1 is None:
        latin1 = _utf16_last_resort(data)
    if latin1 is None:
        raise CorruptDocument(path, f"it contains binary data, not text{looks_like(data)}")
    return latin1


#: Share of characters in a decoded text that may be control characters, unassigned or
#: private-use code points before it is taken for binary data. Text has next to none (a form
#: feed, an end-of-file mark); random bytes read as Latin-1 have 23 %.
MAX_ODD_SHARE = 0.02
_SAMPLE_CHARS = 32_768
_ODD_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn"})
_TEXT_CONTROLS = frozenset("\t\n\r\f\v\x1a")  # \x1a: the end-of-file mark of old DOS files


def looks_like_text(text: str) -> bool:
    """Whether `text` reads as writing rather than binary data decoded as characters: few
    control characters, unassigned or private-use code points. Checked on the start and the
    end of a long text."""
    if len(text) > _SAMPLE_CHARS:
        half = _SAMPLE_CHARS // 2
        text = text[:half] + text[-half:]
    if not text:
        return True
    odd = sum(
        1 for ch in text if ch not in _TEXT_CONTROLS and unicodedata.category(ch) in _ODD_CATEGORIES
    )
    return odd <= MAX_ODD_SHARE * len(text)


def _plausible(decoded: DecodedText | None) -> DecodedText | None:
    return decoded if decoded is not None and looks_like_text(decoded.text) else None


def _decode_marked(data: bytes, codec: str, name: str) -> DecodedText:
    note = None if name == "UTF-8" else f"encoding detected as {name} (byte-order mark)"
    try:
        return DecodedText(data.decode(codec), codec, note)
    except UnicodeDecodeError:
        text = data.decode(codec, errors="replace")
        damage = f"{text.count(chr(0xFFFD))} damaged character(s) were replaced by �"
        return DecodedText(text, codec, f"{note}; {damage}" if note else f"{name}: {damage}")


def _utf16_without_bom(data: bytes) -> DecodedText | None:
    """UTF-16 without a byte-order mark, recognised by its zero bytes. Each character is a pair
    of bytes, and the high byte is zero for ASCII: spaces and punctuation in every language,
    and all of English. So zero bytes fall on one side of the pairs only (Cyrillic letters,
    0x04xx, have none: a Russian text's zero bytes are its spaces). The text must then decode
    and look like text."""
    if len(data) % 2 or len(data) < 4:
        return None
    sample = data[:8192]
    zeros_even, zeros_odd = sample[0::2].count(0), sample[1::2].count(0)
    if zeros_odd > 2 * zeros_even:
        codec = "utf-16-le"  # the high byte comes second
    elif zeros_even > 2 * zeros_odd:
        codec = "utf-16-be"
    else:
        return None  # no zero bytes, or on both sides: binary (or UTF-32 without a mark)
    return _utf16(data, codec)


def _utf16(data: bytes, codec: str) -> DecodedText | None:
    try:
        text = data.decode(codec)
    except UnicodeDecodeError:
        return None
    if not looks_like_text(text):
        return None
    return DecodedText(text, codec, f"encoding detected as {codec.upper()} (no byte-order mark)")


def _utf16_last_resort(data: bytes) -> DecodedText | None:
    """UTF-16 without a byte-order mark or any zero byte (Chinese or Japanese without a single
    ASCII character), tried only when nothing else reads the bytes as text: one byte of each
    pair, the high one, takes far fewer values than the other."""
    if len(data) % 2 or len(data) < 64:
        return None
    sample = data[:8192]
    even, odd = set(sample[0::2]), set(sample[1::2])
    if len(odd) * 2 < len(even):
        return _utf16(data, "utf-16-le")
    if len(even) * 2 < len(odd):
        return _utf16(data, "utf-16-be")
    return None


def _western(data: bytes) -> DecodedText | None:
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return None  # bytes undefined in Windows-1252: not a Western Windows file
    non_ascii = len(_NON_ASCII.findall(text))
    in_runs = sum(len(run) for run in _NON_ASCII_RUN.findall(text))
    if in_runs > 0.2 * non_ascii:
        return None
    # Bytes 0x80-0x9F are curly quotes, dashes and € in Windows-1252 and unused controls in
    # Latin-1; without them both encodings give the same text.
    if re.search(rb"[\x80-\x9f]", data):
        name = "Windows-1252 (Western European)"
    else:
        name = "Windows-1252 / Latin-1 (Western European)"
    return DecodedText(text, "cp1252", f"encoding detected as {name}")


def _chinese(data: bytes) -> DecodedText | None:
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        return None
    cjk = len(_CJK_CHAR.findall(text))
    if cjk == 0 or _NOT_CHINESE.search(text):
        return None
    if len(_GLUED_CJK.findall(text)) > 0.1 * cjk:
        return None
    return DecodedText(text, "gb18030", "encoding detected as GB18030 (Chinese)")


def _high_bytes_paired(data: bytes) -> bool:
    return all(len(run) % 2 == 0 for run in _HIGH_BYTE_RUN.findall(data))


def _charset_normalizer_guess(data: bytes) -> DecodedText | None:
    from charset_normalizer import from_bytes  # imported late: it is only needed for rare files

    try:
        best = from_bytes(data).best()
    except Exception:  # a detector failure must not stop reading: Latin-1 still follows
        return None
    if best is None or best.encoding in _UNCHECKED_GUESSES:
        return None
    text = str(best)
    if "\ufffd" in text:
        return None
    return DecodedText(
        text,
        best.encoding,
        f"encoding detected as {best.encoding} (a guess: check that accented letters look right, "
        "or save the file as UTF-8)",
    )

"""Plain text and Markdown: the encoding is detected, not assumed, for short and long files."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest
from docmakers import SAMPLE_PROSE, make_md, make_txt
from hypothesis import given, settings
from hypothesis import strategies as st
from test_language import ESSAYS, OTHER_LANGUAGES

from core.documents.extract import encoding, extract
from core.documents.extract.encoding import decode_text
from core.documents.normalize import normalize_text
from core.errors import CorruptDocument, EmptyDocument

# Accented letters and curly quotes where the encoding has them, Chinese for GB18030.
WESTERN_1252 = "“Déjà vu,” said the naïve café owner — it’s Zoë’s façade, señor. Größe!"
WESTERN_LATIN1 = "«Déjà vu», said the naïve café owner; Zoë's façade, señor. Größe, Ångström!"
CHINESE = "“抄袭”检测：我们今天讨论文本的相似度，这是一个很重要的话题。"
EVERYTHING = f"{WESTERN_1252} {CHINESE} Ωμέγα, Привет."

SHORT = {"cp1252": "Le café “déjà” vu à Noël — naïve.", "latin-1": "Ça, c’est la vie"}


def sample(kind: str, length: str) -> list[str]:
    """One short line, or a dozen paragraphs (a few kilobytes) in the given repertoire."""
    base = {"1252": WESTERN_1252, "latin1": WESTERN_LATIN1, "zh": CHINESE, "all": EVERYTHING}[kind]
    if length == "short":
        return [base]
    if kind == "zh":
        filler = [CHINESE * 3]
    else:
        filler = [p.encode("ascii", "ignore").decode() for p in SAMPLE_PROSE]
    return [f"{i}. {base} {filler[i % len(filler)]}" for i in range(12)]


CASES = [
    # (encoding, byte-order mark, repertoire, warning expected to contain)
    ("utf-8", False, "all", None),
    ("utf-8", True, "all", None),
    ("utf-16-le", True, "all", "UTF-16"),
    ("utf-16-be", True, "all", "UTF-16"),
    ("utf-16", True, "all", "UTF-16"),
    ("utf-32", True, "all", "UTF-32"),
    ("utf-16-le", False, "1252", "UTF-16-LE"),
    ("cp1252", False, "1252", "Windows-1252 (Western European)"),
    ("latin-1", False, "latin1", "Windows-1252 / Latin-1"),  # the same text either way
    ("gb18030", False, "zh", "GB18030"),
]


@pytest.mark.parametrize("length", ["short", "long"])
@pytest.mark.parametrize(("encoding", "bom", "kind", "warning"), CASES)
def test_encoding_is_detected(
    tmp_path: Path, encoding: str, bom: bool, kind: str, warning: str | None, length: str
) -> None:
    paragraphs = sample(kind, length)
    path = make_txt(tmp_path / "essay.txt", paragraphs, encoding=encoding, bom=bom)
    extracted = extract(path)
    assert extracted.text == normalize_text("\n\n".join(paragraphs))
    if warning is None:
        assert extracted.warnings == ()
    else:
        assert len(extracted.warnings) == 1
        assert f"encoding detected as {warning}" in extracted.warnings[0]


@pytest.mark.parametrize(("encoding", "text"), sorted(SHORT.items()))
def test_short_western_text_is_not_read_as_central_european(
    tmp_path: Path, encoding: str, text: str
) -> None:
    """charset-normalizer reads these as cp1250 (“ ” and à come out wrong): rules come first."""
    data = text.encode("cp1252")
    decoded = decode_text(data, tmp_path / "x.txt")
    assert decoded.text == text
    assert decoded.encoding == "cp1252"


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("Größe", "cp1252"),  # its two high bytes also make one valid GB18030 character
        ("schön", "cp1252"),
        ("中", "gb18030"),  # its two bytes also read as Windows-1252 "ÖÐ"
        ("我用Python写代码。", "gb18030"),  # Chinese with an English word inside
        ("Příliš žluťoučký kůň úpěl ďábelské ódy. " * 5, "cp1250"),  # left to charset-normalizer
        ("Привет, мир! Это проверка кодировки текста. " * 5, "cp1251"),
    ],
)
def test_ambiguous_bytes_go_to_the_plausible_reading(text: str, encoding: str) -> None:
    decoded = decode_text(text.encode(encoding), Path("x.txt"))
    assert decoded.text == text


def test_unrecognisable_bytes_fall_back_to_latin1_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A Latin-1 text with one byte Windows-1252 lacks (0x81), which no guess recognises.
    text = WESTERN_LATIN1 * 20
    data = text.encode("latin-1") + b"\x81" + text.encode("latin-1")
    monkeypatch.setattr(encoding, "_charset_normalizer_guess", lambda data: None)
    decoded = decode_text(data, Path("x.txt"))
    assert decoded.text == text + "\x81" + text
    assert decoded.encoding == "latin-1"
    assert decoded.warning is not None and "Latin-1" in decoded.warning


# --- binary data is not text, whatever single-byte encoding would decode it ------------------


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), size=st.integers(256, 20_000))
def test_random_bytes_without_zero_bytes_are_binary(seed: int, size: int) -> None:
    """Latin-1 decodes any bytes; random ones give control characters everywhere (23 %)."""
    random = Random(seed)
    data = bytes(random.randrange(1, 256) for _ in range(size))
    with pytest.raises(CorruptDocument, match=r"x\.txt: it contains binary data, not text"):
        decode_text(data, Path("x.txt"))


@pytest.mark.parametrize("suffix", [".txt", ".md", ".html"])
def test_a_renamed_binary_file_is_refused(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"data{suffix}"
    path.write_bytes(bytes((n * 7919 + 13) % 255 + 1 for n in range(50_000)))  # no zero byte
    with pytest.raises(CorruptDocument, match=rf"data\{suffix}: it contains binary data"):
        extract(path)


# --- genuine texts are read, in every shipped language and the common legacy encodings --------

# The shipped languages' essays, and texts in other languages the tests of language detection use
TEXTS = {code: "\n\n".join(essays) for code, essays in ESSAYS.items()} | OTHER_LANGUAGES
# Encodings each language's text is saved in besides UTF-8 (Windows code pages, ISO 8859, KOI8).
LEGACY = {
    **dict.fromkeys(
        ["ca", "da", "de", "en", "es", "fi", "fr", "it", "la", "nl", "no", "nn", "pt", "sv"],
        ("cp1252", "latin-1"),
    ),
    **dict.fromkeys(["cs", "hu", "pl", "ro", "sk", "sl"], ("cp1250", "iso-8859-2")),
    "et": ("cp1257", "iso-8859-4"),
    "el": ("cp1253", "iso-8859-7"),
    "ru": ("koi8-r", "cp1251", "iso-8859-5"),
    "uk": ("koi8-u", "cp1251"),
    "tr": ("cp1254", "iso-8859-9"),
}
# Known limits (docs/formats.md): Central European and Turkish bytes that Windows-1252 also
# decodes may be read as Windows-1252, some letters wrong; saving as UTF-8 avoids it.
MISREAD = {
    (code, codec)
    for code, codecs in LEGACY.items()
    for codec in codecs
    if codec in {"cp1250", "iso-8859-2", "cp1254", "iso-8859-9"}
}


def _legacy_cases() -> list[tuple[str, str]]:
    return [(code, codec) for code, codecs in LEGACY.items() for codec in codecs]


def test_every_language_has_legacy_encodings() -> None:
    assert sorted(LEGACY) == sorted(TEXTS)


@pytest.mark.parametrize(("code", "codec"), _legacy_cases())
def test_genuine_texts_in_legacy_encodings_are_never_binary(code: str, codec: str) -> None:
    text = TEXTS[code]
    try:
        data = text.encode(codec)
    except UnicodeEncodeError:
        data = text.encode(codec, "replace")  # a letter or two the code page lacks
        text = data.decode(codec)
    decoded = decode_text(data, Path("essay.txt"))
    if (code, codec) not in MISREAD:
        assert decoded.text == text
    short = text[:60].encode(codec, "replace")
    decode_text(short, Path("short.txt"))  # read somehow, never refused


JAPANESE = "日本語のテキストです。文字コードの検出のための例文で、かなと漢字が混ざっています。"


@pytest.mark.parametrize(
    ("text", "codec"),
    [(JAPANESE, "shift_jis"), (JAPANESE, "euc-jp"), (CHINESE * 4, "gb18030"), (CHINESE, "big5")],
)
def test_east_asian_legacy_encodings_are_never_binary(text: str, codec: str) -> None:
    decode_text(text.encode(codec, "replace"), Path("essay.txt"))


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("code", sorted(TEXTS))
def test_utf16_without_a_byte_order_mark_in_every_language(code: str, codec: str) -> None:
    """Cyrillic and Greek letters have no zero byte: only spaces and punctuation do."""
    for text in (TEXTS[code], TEXTS[code][:40]):
        decoded = decode_text(text.encode(codec), Path("essay.txt"))
        assert decoded.text == text
        assert decoded.warning == f"encoding detected as {codec.upper()} (no byte-order mark)"


def test_utf16_without_any_ascii_or_mark_is_recognised_as_a_last_resort() -> None:
    text = JAPANESE * 3
    assert decode_text(text.encode("utf-16-le"), Path("x.txt")).text == text


def test_markdown_is_read_as_text(tmp_path: Path) -> None:
    extracted = extract(make_md(tmp_path / "notes.md", SAMPLE_PROSE[:2], title="The Flood"))
    assert extracted.format == "md"
    assert extracted.text == normalize_text("# The Flood\n\n" + "\n\n".join(SAMPLE_PROSE[:2]))


def test_crlf_and_tabs(tmp_path: Path) -> None:
    path = tmp_path / "dos.txt"
    path.write_bytes(b"First\tline of a\r\nwrapped paragraph.\r\n\r\nSecond paragraph.\r\n")
    assert extract(path).text == "First line of a wrapped paragraph.\n\nSecond paragraph."


def test_binary_data_is_not_text(tmp_path: Path) -> None:
    path = tmp_path / "photo.txt"
    path.write_bytes(b"\x00\x01\x02\x03binary\x00\x00" * 100)
    with pytest.raises(CorruptDocument, match=r"photo\.txt: it contains binary data"):
        extract(path)


def test_renamed_pdf_is_named_as_such(tmp_path: Path) -> None:
    path = tmp_path / "essay.txt"
    path.write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n")
    with pytest.raises(
        CorruptDocument, match=r"essay\.txt: it is not plain text: it looks like a PDF"
    ):
        extract(path)


def test_bom_only_file_is_empty(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(EmptyDocument, match=r"bom\.txt"):
        extract(path)


def test_markdown_block_quotes_are_block_quotes(tmp_path: Path) -> None:
    path = tmp_path / "quotes.md"
    path.write_text("# Title\n\nOwn.\n\n> Quoted\nlazy line.\n\n> More.\n\nOwn > not a quote.\n")
    extracted = extract(path)
    assert [extracted.text[a:b] for a, b in extracted.block_quotes] == [
        "> Quoted lazy line.\n\n> More."
    ]
    assert extract(make_txt(tmp_path / "q.txt", ["> Not in a .txt."])).block_quotes == ()

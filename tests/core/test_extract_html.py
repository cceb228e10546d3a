"""Web pages: visible text only, blocks as paragraphs, encoding from BOM/meta or detection."""

from __future__ import annotations

from pathlib import Path

import pytest
from docmakers import SAMPLE_PROSE, Block, Table, make_html

from core.documents.extract import extract
from core.documents.normalize import normalize_text
from core.errors import CorruptDocument, EmptyDocument


def page(tmp_path: Path, markup: str, name: str = "page.html", encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes(markup.encode(encoding))
    return path


def test_only_visible_text(tmp_path: Path) -> None:
    path = make_html(tmp_path / "noisy.html", ["Visible paragraph."], title="Page title")
    assert extract(path).text == "Visible paragraph."


def test_blocks_are_paragraphs_and_inline_markup_is_not(tmp_path: Path) -> None:
    markup = (
        "<html><body><h1>Title</h1><div>Some <b>bold</b> and <a href='#'>linked</a>\n"
        "   text,<br>after a break.</div><ul><li>One.</li><li>Two.</li></ul>"
        "<p>Caf&eacute;&nbsp;au&nbsp;lait &amp; &ldquo;quotes&rdquo;.</p>"
        "<pre>pre\n  formatted</pre></body></html>"
    )
    assert extract(page(tmp_path, markup)).text.split("\n\n") == [
        "Title",
        "Some bold and linked text, after a break.",
        "One.",
        "Two.",
        'Café au lait & "quotes".',
        "pre formatted",
    ]


def test_tables(tmp_path: Path) -> None:
    blocks: list[Block] = ["Before.", Table.of([["A1.", "B1."], ["A2.", "B2."]]), "After."]
    assert extract(make_html(tmp_path / "t.html", blocks)).text.split("\n\n") == [
        "Before.",
        "A1.",
        "B1.",
        "A2.",
        "B2.",
        "After.",
    ]


@pytest.mark.parametrize(
    ("encoding", "warning"),
    [
        ("utf-8", None),
        ("windows-1252", "windows-1252 (declared by the page)"),
        ("iso-8859-1", "iso-8859-1 (declared by the page)"),
        ("gb18030", "gb18030 (declared by the page)"),
        ("utf-16", "utf-16le (byte-order mark)"),
    ],
)
def test_declared_encoding_is_honoured(tmp_path: Path, encoding: str, warning: str | None) -> None:
    text = {
        "gb18030": "中文“测试”。",
        "iso-8859-1": "Déjà vu, naïve café, Zoë.",
    }.get(encoding, "Déjà vu, naïve café, Zoë. “Curly” – quotes.")
    extracted = extract(make_html(tmp_path / "e.html", [text], encoding=encoding))
    assert extracted.text == normalize_text(text)
    assert extracted.warnings == ((f"encoding detected as {warning}",) if warning else ())


def test_undeclared_encoding_is_detected_like_plain_text(tmp_path: Path) -> None:
    # A short Windows-1252 page with no charset: the case charset-normalizer gets wrong.
    text = "Le café “déjà” vu à Noël — naïve."
    path = make_html(tmp_path / "old.htm", [text], encoding="cp1252", declare_charset=False)
    extracted = extract(path)
    assert extracted.format == "html"
    assert extracted.text == normalize_text(text)
    assert extracted.warnings == ("encoding detected as Windows-1252 (Western European)",)


def test_a_long_page(tmp_path: Path) -> None:
    path = make_html(tmp_path / "long.html", SAMPLE_PROSE)
    assert extract(path).text == normalize_text("\n\n".join(SAMPLE_PROSE))


def test_deep_nesting_does_not_exhaust_the_stack(tmp_path: Path) -> None:
    markup = "<div>" * 5000 + "Deep text." + "</div>" * 5000
    assert extract(page(tmp_path, markup)).text == "Deep text."


def test_page_with_only_scripts_is_empty(tmp_path: Path) -> None:
    markup = "<html><head><title>T</title><script>x()</script></head><body> </body></html>"
    with pytest.raises(EmptyDocument, match=r"page\.html"):
        extract(page(tmp_path, markup))


def test_renamed_image_is_not_a_page(tmp_path: Path) -> None:
    path = tmp_path / "photo.html"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))
    with pytest.raises(CorruptDocument, match=r"photo\.html: it is not a web page"):
        extract(path)


def test_blockquotes_are_block_quotes_the_outermost_once(tmp_path: Path) -> None:
    markup = (
        "<html><body><p>Own words.</p><blockquote><p>Quoted\n   text,<br>one.</p>"
        "<blockquote>Nested.</blockquote><p>Two.</p></blockquote><p>After.</p>"
        "<blockquote>Again.</blockquote></body></html>"
    )
    extracted = extract(page(tmp_path, markup))
    assert [extracted.text[a:b] for a, b in extracted.block_quotes] == [
        "Quoted text, one.\n\nNested.\n\nTwo.",
        "Again.",
    ]

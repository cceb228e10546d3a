"""PDF: text layer, paragraphs rebuilt, running headers/footers removed, locked and scanned
files reported as such."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from docmakers import SAMPLE_PROSE, encrypt_pdf, make_image_only_pdf, make_pdf

import core.documents.extract
from core.documents.extract import extract
from core.documents.extract.pdf import _assemble, _Line, _remove_running_lines
from core.documents.normalize import normalize_text
from core.errors import CorruptDocument, DocumentTooLarge, EncryptedDocument, NoTextLayer

REFERENCE = normalize_text("\n\n".join(SAMPLE_PROSE))
# On narrow pages a paragraph can end on a nearly full last line at the bottom of a page; that
# break cannot be seen in the PDF, so these tests compare words (the promise test, on A5 pages,
# compares paragraphs too).
REFERENCE_WORDS = REFERENCE.split()
SMALL_PAGE = (100, 120)  # mm: seven pages from SAMPLE_PROSE at 12 pt
TITLES = ("Rising Water", "The Quarry", "The Lake", "Afterwards", "Notes")


def test_headers_that_change_per_chapter_are_removed(tmp_path: Path) -> None:
    from pypdf import PdfReader

    plain = make_pdf(tmp_path / "plain.pdf", SAMPLE_PROSE, page_format=SMALL_PAGE, font_size=12)
    chapters = len(PdfReader(plain).pages) // 3
    assert chapters >= 2

    def header(page: int) -> str:  # three or more pages per chapter
        chapter = min((page - 1) // 3, chapters - 1)
        return f"Chapter {chapter + 1}: {TITLES[chapter]}"

    path = make_pdf(
        tmp_path / "book.pdf", SAMPLE_PROSE, header=header, page_format=SMALL_PAGE, font_size=12
    )
    extracted = extract(path)
    assert extracted.text.split() == REFERENCE_WORDS
    assert "removed running header 'Chapter 1: Rising Water' from 3 pages" in extracted.warnings
    assert any(
        w.startswith("removed running header 'Chapter 2: The Quarry' from ")
        for w in extracted.warnings
    )


@pytest.mark.parametrize(
    ("footer", "example"),
    [
        ("Page {} of 9".format, "Page 1 of 9"),
        ("- {} -".format, "- 1 -"),
        (lambda n: ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"][n - 1], "i"),
    ],
)
def test_page_number_styles_are_removed(
    tmp_path: Path, footer: Callable[[int], str], example: str
) -> None:
    path = make_pdf(tmp_path / "p.pdf", SAMPLE_PROSE, footer=footer, page_format=SMALL_PAGE)
    extracted = extract(path)
    assert extracted.text.split() == REFERENCE_WORDS
    assert len(extracted.warnings) == 1
    assert extracted.warnings[0].startswith(f"removed page numbers (like '{example}') from ")


def test_double_spaced_essay_keeps_its_paragraphs(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "essay.pdf", SAMPLE_PROSE, line_spacing=2.0, paragraph_gap=9)
    assert extract(path).text == REFERENCE


def test_latin1_core_font_pdf(tmp_path: Path) -> None:
    paragraphs = ["Déjà vu: a naïve café owner, Zoë, wrote « this » in 1999. " * 4, "Fin."]
    path = make_pdf(tmp_path / "core.pdf", paragraphs, font="core")
    assert extract(path).text == normalize_text("\n\n".join(paragraphs))


def test_words_hyphenated_at_line_ends_are_joined(tmp_path: Path) -> None:
    paragraph = "A word hyphen-\nated by the typesetter, and an Anglo-\nSaxon one, and 1914-\n1918."
    assert extract(make_pdf(tmp_path / "h.pdf", [paragraph])).text == (
        "A word hyphenated by the typesetter, and an Anglo-Saxon one, and 1914-1918."
    )


def test_empty_user_password_opens(tmp_path: Path) -> None:
    plain = make_pdf(tmp_path / "plain.pdf", SAMPLE_PROSE[:2])
    for algorithm in ("RC4-128", "AES-128", "AES-256"):
        locked = encrypt_pdf(
            plain, tmp_path / f"restricted-{algorithm}.pdf", user_password="", algorithm=algorithm
        )
        assert extract(locked).text == normalize_text("\n\n".join(SAMPLE_PROSE[:2]))


@pytest.mark.parametrize("algorithm", ["RC4-128", "AES-256"])
def test_password_protected(tmp_path: Path, algorithm: str) -> None:
    plain = make_pdf(tmp_path / "plain.pdf", SAMPLE_PROSE[:2])
    locked = encrypt_pdf(
        plain, tmp_path / "locked.pdf", user_password="s3cret", algorithm=algorithm
    )
    with pytest.raises(EncryptedDocument, match=r"locked\.pdf: it is password-protected"):
        extract(locked)


def test_aes_without_the_cryptography_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """cryptography is a dev dependency only: without it pypdf cannot decrypt AES, and the
    teacher must be told why rather than shown a crash."""
    import pypdf
    from pypdf.errors import DependencyError

    plain = make_pdf(tmp_path / "plain.pdf", SAMPLE_PROSE[:1])
    locked = encrypt_pdf(plain, tmp_path / "aes.pdf", user_password="", algorithm="AES-128")

    def no_aes(self: object, password: object) -> object:
        raise DependencyError("cryptography>=3.1 is required for AES algorithm")

    monkeypatch.setattr(pypdf.PdfReader, "decrypt", no_aes)
    with pytest.raises(EncryptedDocument, match=r"aes\.pdf: .*needs the 'cryptography' package"):
        extract(locked)


def test_scanned_pdf_has_no_text_layer(tmp_path: Path) -> None:
    path = make_image_only_pdf(tmp_path / "scan.pdf", pages=3)
    with pytest.raises(NoTextLayer) as raised:
        extract(path)
    message = str(raised.value)
    assert message.startswith("scan.pdf: it has no text layer")
    assert "scanned" in message and "OCR" in message and "%" not in message


def test_some_pages_scanned(tmp_path: Path) -> None:
    from fpdf import FPDF
    from PIL import Image

    pdf = FPDF()
    pdf.set_font("helvetica", size=11)
    for number in (1, 2):
        pdf.add_page()
        text = SAMPLE_PROSE[number + 1].encode("ascii", "ignore").decode()  # core font
        pdf.multi_cell(0, 6, f"Typed page {number}. {text}")
    pdf.add_page()
    pdf.image(Image.new("L", (100, 140), 200), x=20, y=20, w=170)
    path = tmp_path / "mixed.pdf"
    pdf.output(str(path))
    extracted = extract(path)
    assert "Typed page 2." in extracted.text
    assert extracted.warnings == ("page(s) 3 hold no text (blank, or scanned images needing OCR)",)


@pytest.mark.parametrize("keep", [0.2, 0.5, 0.9])
def test_truncated_pdf(tmp_path: Path, keep: float) -> None:
    data = make_pdf(tmp_path / "whole.pdf", SAMPLE_PROSE).read_bytes()
    path = tmp_path / "cut.pdf"
    path.write_bytes(data[: int(len(data) * keep)])
    with pytest.raises(CorruptDocument, match=r"cut\.pdf: the PDF is damaged or incomplete"):
        extract(path)


def test_random_bytes_named_pdf(tmp_path: Path) -> None:
    path = tmp_path / "noise.pdf"
    path.write_bytes(bytes((i * 7919) % 251 for i in range(4000)))
    with pytest.raises(CorruptDocument, match=r"noise\.pdf: it is not a PDF"):
        extract(path)


def test_junk_before_the_header_is_tolerated(tmp_path: Path) -> None:
    data = make_pdf(tmp_path / "whole.pdf", SAMPLE_PROSE[:1]).read_bytes()
    path = tmp_path / "prefixed.pdf"
    path.write_bytes(b"\r\n\r\n" + data)
    assert extract(path).text == normalize_text(SAMPLE_PROSE[0])


def test_huge_text_stops_early(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core.documents.extract, "MAX_TEXT_CHARS", 500)
    path = make_pdf(tmp_path / "long.pdf", SAMPLE_PROSE)
    with pytest.raises(DocumentTooLarge, match=r"long\.pdf: its text is longer than the limit"):
        extract(path)


# --- the rules on synthetic pages: lines as pypdf reports them, y growing upwards -------------


def page(*texts: str, top: float = 800, pitch: float = 15, x: float = 72) -> list[_Line]:
    return [_Line(text, x, top - i * pitch, 11.0) for i, text in enumerate(texts)]


WORDS = " ".join(SAMPLE_PROSE).split()


def body(n: int) -> list[str]:
    """Eight distinct full-width lines of prose for page `n`."""
    start = n * 80
    return [" ".join(WORDS[start + 10 * i : start + 10 * (i + 1)]) for i in range(8)]


def test_a_line_repeated_on_two_of_six_pages_is_content() -> None:
    pages = [page(*body(n)) for n in range(6)]
    pages[0].insert(0, _Line("Exactly the same opening line", 72, 815, 11))
    pages[3].insert(0, _Line("Exactly the same opening line", 72, 815, 11))
    kept, warnings = _remove_running_lines(pages)
    assert kept == pages and warnings == []


def test_a_repeated_line_in_mid_page_is_content() -> None:
    pages = [page(*body(n)[:4], "A refrain, sung again", *body(n)[4:]) for n in range(6)]
    kept, warnings = _remove_running_lines(pages)
    assert kept == pages and warnings == []


def test_a_header_written_last_is_found_by_its_height() -> None:
    # Some producers draw the header after the body: last in reading order, highest on the page.
    pages = [
        [*page(*body(n), top=780), _Line(f"Essay on Floods {n + 1}", 72, 820, 9)] for n in range(6)
    ]
    kept, warnings = _remove_running_lines(pages)
    assert all("Essay" not in line.text for lines in kept for line in lines)
    assert warnings == ["removed running footer 'Essay on Floods 1' from 6 pages"] or warnings == [
        "removed running header 'Essay on Floods 1' from 6 pages"
    ]


def test_first_line_indent_starts_a_paragraph() -> None:
    lines = [
        _Line("First paragraph runs the whole width of the page and then", 72, 800, 11),
        _Line("continues on a second line that also runs the whole width", 72, 785, 11),
        _Line("and ends here with a full stop at the end of the line.", 72, 770, 11),
        _Line("An indented line begins the second paragraph, which runs", 90, 755, 11),
        _Line("on across the page like the first one did before it too.", 72, 740, 11),
    ]
    assert _assemble([lines]).split("\n\n") == [
        "First paragraph runs the whole width of the page and then\n"
        "continues on a second line that also runs the whole width\n"
        "and ends here with a full stop at the end of the line.",
        "An indented line begins the second paragraph, which runs\n"
        "on across the page like the first one did before it too.",
    ]


def test_a_block_quote_indented_on_every_line_stays_one_paragraph() -> None:
    texts = body(0)[:3] + body(1)[:3] + body(2)[:3]
    lines = [
        _Line(text, 100 if 3 <= i < 6 else 72, 800 - 15 * i, 11) for i, text in enumerate(texts)
    ]
    paragraphs = _assemble([lines]).split("\n\n")
    assert len(paragraphs) == 2  # the quote's first line is indented from the margin: a break
    assert paragraphs[1].startswith(texts[3])

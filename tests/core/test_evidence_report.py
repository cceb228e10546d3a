"""The evidence report of one pair (core.reports.evidence): its facts, its PDF read back with
pypdf (both file names, the scores, a copied sentence, fonts embedded, A4 and Letter), its HTML
page (escaped, right-to-left text set in its direction), a long pair of two novels' worth whose
passages continue across pages with A and B level, and its limits held to docs/evaluation.md."""

from __future__ import annotations

import io
import random
import re
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from core.comparison import Comparison, compare_documents
from core.detection.passages import PassageKind
from core.documents.document import document_from_text, load_document
from core.options import ExclusionOptions
from core.reports.evidence import (
    Paper,
    evidence_html,
    evidence_report,
    write_evidence_html,
    write_evidence_pdf,
)
from core.reports.evidence.facts import Cell, Run
from core.reports.evidence.html import map_cells
from core.reports.evidence.method import EVALUATION
from core.reports.evidence.pdf import _Document, _is_rtl, clean, evidence_pdf
from core.reports.wording import percent
from core.resources import resource_path

SAMPLES = resource_path("samples")
ORIGINAL = SAMPLES / "original-essay.txt"
COPY_DOCX = SAMPLES / "reworded-copy.docx"
EVALUATION_PAGE = Path(__file__).resolve().parents[2] / "docs" / "evaluation.md"
WHEN = datetime(2026, 12, 1, 14, 30).astimezone()


def squeeze(text: str) -> str:
    """Text with every run of whitespace as one space (PDF lines break anywhere)."""
    return re.sub(r"\s+", " ", text).strip()


def holds_words(text: str, sentence: str) -> bool:
    """Every word of `sentence` is in `text` (a PDF's two columns interleave their lines
    when read back, so a sentence longer than a line is not one stretch of the text)."""
    return all(word in text for word in sentence.split())


def pdf_text(data: bytes | Path) -> str:
    reader = PdfReader(data if isinstance(data, Path) else io.BytesIO(data))
    return squeeze(" ".join(page.extract_text() for page in reader.pages))


@pytest.fixture(scope="module")
def samples() -> Comparison:
    return compare_documents(load_document(ORIGINAL), load_document(COPY_DOCX))


def test_the_facts_of_the_sample_pair(samples: Comparison) -> None:
    report = evidence_report(samples, checked_at=WHEN)
    assert report.flagged and report.verdict == "Copied text found"
    assert report.a.name == "original-essay.txt" and report.b.format == "DOCX"
    assert report.a.sha256 == samples.a.content_hash and len(report.a.sha256) == 64
    assert report.a.size == ORIGINAL.stat().st_size and report.a.file_note is None
    assert report.a.sentences == samples.a.sentence_count and report.a.words > 200
    assert report.a.language == "English (detected)"
    assert percent(samples.copied_a) in report.findings[0]
    assert len(report.passages) == len(samples.passages)
    kinds = [p.kind for p in report.passages]
    assert PassageKind.VERIFIED in kinds and PassageKind.REWORDED in kinds
    # each passage is on both page maps, in order along A
    assert [m.label for m in report.a.map] == [p.label for p in report.passages]
    # named as the window lists them by default: blocks 1, 2, … and edited passages R1, R2, …
    assert [p.label for p in report.passages] == ["1", "1", "2", "R1", "3", "R2"]
    assert all(0 <= m.start < m.end <= 1 for m in report.a.map + report.b.map)


def test_verified_rows_pair_each_sentence_with_its_partner(samples: Comparison) -> None:
    """A verified passage's rows follow the piece's alignment: A's and B's sentence of a row
    are the copied sentence and its copy, emphasised as shared throughout."""
    report = evidence_report(samples, checked_at=WHEN)
    verified = [p for p in report.passages if p.kind is PassageKind.VERIFIED]
    assert verified
    for passage in verified:
        for row in passage.rows:
            assert squeeze(row.a.text).casefold() == squeeze(row.b.text).casefold()
            assert any(run.shared for run in row.a.runs)


def test_the_pdf_holds_the_names_the_scores_and_a_copied_sentence(
    samples: Comparison, tmp_path: Path
) -> None:
    report = evidence_report(samples, checked_at=WHEN)
    path = write_evidence_pdf(report, tmp_path / "case.pdf")
    text = pdf_text(path)
    assert "original-essay.txt" in text and "reworded-copy.docx" in text
    assert percent(samples.copied_a) in text and percent(samples.copied_b) in text
    assert "Copied text found" in text and samples.a.content_hash in text.replace(" ", "")
    first = next(p for p in samples.passages if p.kind is PassageKind.VERIFIED)
    sentence = samples.a.sentences[first.a_sentences[0]]
    copied = squeeze(samples.a.text[sentence.start : sentence.end])
    assert holds_words(text, copied) and copied.split(" ")[0] in text
    assert "How to read this report" in text and "does not detect" in text


def test_the_pdf_embeds_its_fonts_and_takes_either_paper(samples: Comparison) -> None:
    report = evidence_report(samples, checked_at=WHEN)
    sizes = {}
    for paper in Paper:
        reader = PdfReader(io.BytesIO(evidence_pdf(report, paper)))
        box = reader.pages[0].mediabox
        sizes[paper] = (round(float(box.width)), round(float(box.height)))
        fonts = reader.pages[0]["/Resources"]["/Font"]
        for font in fonts.values():
            descendant = font.get_object()["/DescendantFonts"][0].get_object()
            assert "/FontFile2" in descendant["/FontDescriptor"]  # embedded TrueType
        assert reader.metadata is not None and "original-essay.txt" in reader.metadata.title
    assert sizes == {Paper.A4: (595, 842), Paper.LETTER: (612, 792)}


def test_nothing_found_still_reports_the_documents(tmp_path: Path) -> None:
    unrelated = load_document(SAMPLES / "unrelated-essay.txt")
    c = compare_documents(load_document(ORIGINAL), unrelated)
    report = evidence_report(c, checked_at=WHEN)
    assert not report.flagged and not report.passages
    text = pdf_text(write_evidence_pdf(report, tmp_path / "none.pdf"))
    assert "No copied text found" in text and "unrelated-essay.txt" in text
    assert "no passage" in text


SCRIPT = "<script>alert('gotcha')</script>"
HEBREW = "הספרייה היא אחד המקומות הציבוריים האחרונים שבהם איש אינו מצפה שתקנה דבר."
GREEK = "Η βιβλιοθήκη είναι ένας από τους λίγους δημόσιους χώρους όπου κανείς δεν αγοράζει."
RUSSIAN = "Библиотека остаётся одним из немногих мест, где никто не ждёт, что вы что-то купите."


def hostile_pair(tmp_path: Path) -> Comparison:
    body = [
        f"The students wrote {SCRIPT} into their essays to see what would happen next.",
        "Each report page must show such markup as plain text and never run it anywhere.",
        HEBREW,
        GREEK,
        RUSSIAN,
        "Accented Latin such as façade, naïve, Ærø and Łódź must print with its letters whole.",
    ]
    a = tmp_path / "a <b>&amp;.txt"
    b = tmp_path / "b.txt"
    a.write_text("An opening of our own here today.\n\n" + " ".join(body), encoding="utf-8")
    b.write_text("Quite another start to this one.\n\n" + " ".join(body), encoding="utf-8")
    return compare_documents(load_document(a), load_document(b))


def test_markup_and_right_to_left_text_are_escaped_and_readable(tmp_path: Path) -> None:
    c = hostile_pair(tmp_path)
    assert c.flagged
    report = evidence_report(c, checked_at=WHEN)
    page = evidence_html(report)
    assert "<script" not in page.casefold()
    assert "&lt;script&gt;alert(&#39;gotcha&#39;)&lt;/script&gt;" in page
    assert "a &lt;b&gt;&amp;amp;.txt" in page  # the file name, escaped too
    assert 'dir="auto"' in page
    for line in (HEBREW, GREEK, RUSSIAN):
        assert line.split()[1] in page
    text = pdf_text(evidence_pdf(report))
    assert SCRIPT in text and "a <b>&amp;.txt" in text
    for line in (GREEK, RUSSIAN, "façade, naïve, Ærø and Łódź"):
        assert holds_words(text, line)
    # right-to-left text is drawn in visual order: every Hebrew word is there, reversed
    for word in HEBREW.rstrip(".").split():
        assert word in text or word[::-1] in text


def test_the_html_page_is_self_contained(samples: Comparison, tmp_path: Path) -> None:
    path = write_evidence_html(evidence_report(samples, checked_at=WHEN), tmp_path / "c.html")
    page = path.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "<script" not in page and "@page" in page and "size: A4" in page
    assert "original-essay.txt" in page and "Block 1, piece 1 of 2" in page
    letter = evidence_html(evidence_report(samples, checked_at=WHEN), Paper.LETTER)
    assert "size: letter" in letter


def test_a_changed_or_missing_file_is_noted(tmp_path: Path) -> None:
    text = ORIGINAL.read_text(encoding="utf-8")
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(text, encoding="utf-8")
    b.write_text(text, encoding="utf-8")
    c = compare_documents(load_document(a), load_document(b))
    a.write_text(text + "\nOne more line.", encoding="utf-8")
    b.unlink()
    report = evidence_report(c, checked_at=WHEN)
    assert report.a.file_note is not None and "changed since it was checked" in report.a.file_note
    assert report.b.file_note is not None and "not found" in report.b.file_note
    assert report.b.size is None
    assert "changed since it was checked" in pdf_text(evidence_pdf(report))


def test_exclusions_are_on_the_cover(tmp_path: Path) -> None:
    c = compare_documents(
        load_document(ORIGINAL),
        load_document(COPY_DOCX),
        exclusions=ExclusionOptions(quotations=True, references=True),
    )
    report = evidence_report(c, checked_at=WHEN)
    assert report.left_out and "quotations" in report.left_out[0]
    assert "quotations" in pdf_text(evidence_pdf(report))


# --- a long pair: two novels' worth ------------------------------------------------------------


def novel(rng: random.Random, sentences: int) -> list[str]:
    """Sentences of made-up words of varied lengths (no two alike by chance)."""
    syllables = ["ka", "lo", "mi", "ra", "ten", "vo", "su", "de", "pin", "gal", "or", "eth"]
    made = []
    for _ in range(sentences):
        words = [
            "".join(rng.choice(syllables) for _ in range(rng.randint(1, 4)))
            for _ in range(rng.randint(6, 30))
        ]
        made.append(" ".join(words).capitalize() + ".")
    return made


@pytest.fixture(scope="module")
def long_pair() -> Comparison:
    rng = random.Random(13)
    own_a, own_b, shared = novel(rng, 3000), novel(rng, 3000), novel(rng, 2800)
    a = " ".join(own_a[:1300] + shared + own_a[1300:])
    b = " ".join(own_b[:600] + shared + own_b[600:])
    return compare_documents(document_from_text(a, "novel-a.txt"), document_from_text(b, "b.txt"))


def test_a_long_pair_renders_with_its_sides_level_across_pages(long_pair: Comparison) -> None:
    assert long_pair.a.sentence_count > 5000 and len(long_pair.a.text.split()) > 100_000
    report = evidence_report(long_pair, checked_at=WHEN)
    longest = max(report.passages, key=lambda p: len(p.rows))
    assert len(longest.rows) >= 2000
    data = evidence_pdf(report, Paper.LETTER)
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) > 60
    # the passage goes on page after page under its repeated heading and column heads
    for number in (10, len(reader.pages) // 2, len(reader.pages) - 2):
        text = reader.pages[number].extract_text()
        assert f"{longest.name} — word for word, continued" in squeeze(text)
    last_row = longest.rows[-1]
    assert last_row.a.text == last_row.b.text
    assert holds_words(squeeze(reader.pages[-1].extract_text()), squeeze(last_row.a.text))


def test_the_pdf_lines_stay_inside_their_column() -> None:
    """Every line a cell is broken into fits its column, and the lines hold the cell's text
    (spaces at a line's start dropped), in order: nothing drawn past the edge, nothing lost."""
    pdf = _Document(
        evidence_report(
            compare_documents(
                document_from_text("One two three. Four five six."), document_from_text("Seven.")
            ),
            checked_at=WHEN,
        ),
        Paper.A4,
    )

    @settings(max_examples=150, deadline=None)
    @given(
        st.lists(
            st.tuples(st.text(min_size=0, max_size=80), st.booleans()), min_size=1, max_size=8
        ),
        st.floats(min_value=5, max_value=90),
    )
    def check(runs: list[tuple[str, bool]], width: float) -> None:
        cell = Cell(tuple(Run(text, shared) for text, shared in runs), 7)
        lines = pdf._lines(cell, width)
        for line in lines:
            for piece in line:
                assert piece.x + pdf._width(piece.text.rstrip(), piece.style) <= width + 1e-6
        drawn = "".join(p.text for line in lines for p in line if p.style != "num")
        given_text = clean("".join(t for t, _ in runs))
        if _is_rtl(given_text):  # drawn in visual order: the same characters, reordered
            assert sorted(drawn.replace(" ", "")) == sorted(given_text.replace(" ", ""))
        else:
            assert squeeze(drawn) == squeeze(given_text)

    check()


@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), max_size=6))
def test_the_page_map_colours_every_passage(spans: list[tuple[float, float]]) -> None:
    from core.reports.evidence.facts import MapMark

    marks = tuple(
        MapMark(min(s, e), max(s, e) + 1e-4, f"#0000{i:02X}", str(i), PassageKind.VERIFIED)
        for i, (s, e) in enumerate(spans)
    )

    class Doc:
        map = marks

    cells = map_cells(Doc(), 100)  # type: ignore[arg-type]
    assert len(cells) == 100
    for mark in marks:
        first = min(99, int(mark.start * 100))
        assert cells[first] != "#FFFFFF"


# --- the limits are the evaluation's --------------------------------------------------------


def test_the_limits_quote_the_latest_evaluation() -> None:
    page = EVALUATION_PAGE.read_text(encoding="utf-8")
    flat = squeeze(page)
    for key, phrase in (
        ("verbatim", "pairs with a verbatim copy were flagged"),
        ("light", "pairs (SL+ST alone"),
        ("heavy", "pairs (SL+ST alone: 1 of"),
        ("people", "of the rewrites against their original"),
    ):
        measured = EVALUATION[key]
        assert f"{measured.caught} of {measured.tried}" in flat, key
        assert phrase in flat
    negatives = EVALUATION["false_alarms"]
    assert f"Of the {negatives.tried:,} test pairs with no copying between them, " in flat
    assert f"{negatives.caught} were flagged" in flat

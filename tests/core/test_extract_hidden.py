"""Text a reader of a .docx or .odt does not see is left out of the check and counted: hidden,
white (or coloured like its background) and 1-point text, directly or through styles."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from docmakers import (
    SAMPLE_PROSE,
    Para,
    Run,
    StyleDef,
    make_docx,
    make_docx_formatted,
    make_odt,
    make_odt_formatted,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.documents.extract import extract
from core.documents.extract.visibility import (
    MIN_CONTRAST,
    UNKNOWN_RGB,
    WHITE_RGB,
    colour_reason,
    contrast,
)
from core.documents.tampering import Tampering

MAKERS: dict[str, Callable[..., Path]] = {".docx": make_docx_formatted, ".odt": make_odt_formatted}
FORMATS = sorted(MAKERS)

VISIBLE = "The river rose for three days."
SECRET = "these padding words nobody sees"  # five words


def read(
    tmp_path: Path, suffix: str, paragraphs: list[Para | str], **options: object
) -> tuple[str, tuple[Tampering, ...]]:
    extracted = extract(MAKERS[suffix](tmp_path / f"essay{suffix}", paragraphs, **options))
    return extracted.text, extracted.tampering


@pytest.mark.parametrize("suffix", FORMATS)
@pytest.mark.parametrize(
    ("run", "detail"),
    [
        (Run(SECRET, hidden=True), "hidden"),
        (Run(SECRET, colour="FFFFFF"), "white"),
        (Run(SECRET, colour="FAFAFA"), "white"),  # near-white is as invisible
        (Run(SECRET, colour="FFFF00"), "white"),  # yellow on a white page: 1.07:1
        (Run(SECRET, size=1), "1-point"),
        (Run(SECRET, size=0.5), "1-point"),
        (Run(SECRET, colour="0000FF", shading="0000FF"), "background-coloured"),
        (Run(SECRET, hidden=True, colour="FFFFFF", size=1), "hidden, white and 1-point"),
    ],
)
def test_invisible_runs_are_left_out_and_counted(
    tmp_path: Path, suffix: str, run: Run, detail: str
) -> None:
    text, tampering = read(tmp_path, suffix, [Para((VISIBLE + " ", run, " Then it fell."))])
    assert text == VISIBLE + " Then it fell."
    assert tampering == (Tampering("hidden_text", 5, detail),)
    assert tampering[0].message == (
        f"5 words of hidden text ({detail}) left out of the check — a known way to hide copying"
    )


@pytest.mark.parametrize("suffix", FORMATS)
@pytest.mark.parametrize(
    "paragraph",
    [
        Para((Run(SECRET, style="Secret"),)),  # a character style that hides
        Para((SECRET,), style="Ghost"),  # a paragraph style with white text
        Para((SECRET,), style="GhostChild"),  # ... inherited through basedOn / parent
        Para((Run(SECRET, colour="000000"),), shading="000000"),  # black on black paragraph
        Para((Run(SECRET, colour="FFFFFF"),), cell_shading="FFFFFF"),  # white cell
        Para((Run(SECRET, colour="003366"),), cell_shading="003366"),  # navy on navy
    ],
)
def test_hiding_through_styles_and_backgrounds(
    tmp_path: Path, suffix: str, paragraph: Para
) -> None:
    styles = [
        StyleDef("Secret", "character", Run("", hidden=True)),
        StyleDef("Ghost", "paragraph", Run("", colour="FFFFFF")),
        StyleDef("GhostChild", "paragraph", Run(""), based_on="Ghost"),
    ]
    text, tampering = read(tmp_path, suffix, [VISIBLE, paragraph], styles=styles)
    assert text == VISIBLE
    assert [(t.kind, t.count) for t in tampering] == [("hidden_text", 5)]


@pytest.mark.parametrize("suffix", FORMATS)
@pytest.mark.parametrize(
    "paragraph",
    [
        Para((Run(SECRET, colour="FFFFFF"),), cell_shading="000000"),  # white on a dark cell
        Para((Run(SECRET, colour="FFFFFF", shading="333333"),)),  # white on dark shading
        Para((Run(SECRET, colour="808080"),)),  # grey text: readable (3.9:1)
        Para((Run(SECRET, colour="FFFFFF"),), shading="1F3864"),  # a dark heading band
        Para((Run(SECRET, size=2),)),  # 2 points: tiny, but there
        Para((Run(SECRET, hidden=False),)),
    ],
)
def test_readable_text_is_kept_with_no_warning(
    tmp_path: Path, suffix: str, paragraph: Para
) -> None:
    text, tampering = read(tmp_path, suffix, [paragraph])
    assert text == SECRET
    assert tampering == ()


def test_docx_highlight_and_page_colour(tmp_path: Path) -> None:
    paragraphs: list[Para | str] = [
        Para((Run(SECRET, colour="FFFFFF", highlight="black"),)),  # readable on its highlight
        Para(("Navy ", Run("on navy", colour="000080", highlight="darkBlue"))),  # hidden
    ]
    text, tampering = read(tmp_path, ".docx", paragraphs)
    assert text == f"{SECRET}\n\nNavy"
    assert tampering == (Tampering("hidden_text", 2, "background-coloured"),)
    # white text on a dark page can be read; black text on it cannot
    dark: list[Para | str] = [Para((Run(VISIBLE, colour="FFFFFF"), Run(SECRET, colour="000000")))]
    text, tampering = read(tmp_path, ".docx", dark, page_colour="000000")
    assert text == VISIBLE
    assert tampering == (Tampering("hidden_text", 5, "background-coloured"),)


def test_docx_text_in_a_coloured_table_style_or_drawn_box_is_not_judged_by_colour(
    tmp_path: Path,
) -> None:
    """A table style may paint a dark header row, a shape a dark fill: neither is read, so
    white text there is kept rather than taken for hidden."""
    from test_extract_docx import docx_with_body

    body = (
        '<w:tbl><w:tblPr><w:tblStyle w:val="GridTable4-Accent1"/></w:tblPr><w:tr><w:tc><w:p>'
        '<w:r><w:rPr><w:color w:val="FFFFFF"/></w:rPr><w:t>Header cell.</w:t></w:r></w:p>'
        "</w:tc></w:tr></w:tbl><w:p><w:r><w:t>Anchor.</w:t></w:r><w:r><mc:AlternateContent>"
        "<mc:Choice Requires='wps'><w:drawing><wps:txbx><w:txbxContent><w:p><w:r><w:rPr>"
        '<w:color w:val="FFFFFF"/></w:rPr><w:t>Banner text.</w:t></w:r></w:p></w:txbxContent>'
        "</wps:txbx></w:drawing></mc:Choice></mc:AlternateContent></w:r></w:p>"
    )
    extracted = extract(docx_with_body(tmp_path / "styled.docx", body))
    assert extracted.text == "Header cell.\n\nAnchor.\n\nBanner text."
    assert extracted.tampering == ()


def test_docx_direct_formatting_overrides_styles(tmp_path: Path) -> None:
    from test_extract_docx import docx_with_body

    body = (
        # hidden by the style, shown again by the run (w:vanish w:val="0")
        '<w:p><w:r><w:rPr><w:rStyle w:val="Secret"/><w:vanish w:val="0"/></w:rPr>'
        "<w:t>Shown again.</w:t></w:r></w:p>"
        # only the paragraph mark is hidden: the text is not
        "<w:p><w:pPr><w:rPr><w:vanish/></w:rPr></w:pPr><w:r><w:t>Mark hidden.</w:t></w:r></w:p>"
        # automatic colour is always readable, whatever the style says
        '<w:p><w:pPr><w:pStyle w:val="Ghost"/></w:pPr><w:r><w:rPr><w:color w:val="auto"/>'
        "</w:rPr><w:t>Automatic.</w:t></w:r></w:p>"
    )
    path = docx_with_body(tmp_path / "direct.docx", body)
    styles = (
        '<w:style w:type="character" w:styleId="Secret"><w:name w:val="Secret"/><w:rPr>'
        '<w:vanish/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Ghost"><w:name '
        'w:val="Ghost"/><w:rPr><w:color w:val="FFFFFF"/></w:rPr></w:style>'
    )
    _patch_styles(path, styles)
    extracted = extract(path)
    assert extracted.text == "Shown again.\n\nMark hidden.\n\nAutomatic."
    assert extracted.tampering == ()


def _patch_styles(path: Path, styles_xml: str) -> None:
    import io
    import zipfile

    source = zipfile.ZipFile(io.BytesIO(path.read_bytes()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "word/styles.xml":
                content = content.replace(b"</w:styles>", styles_xml.encode() + b"</w:styles>")
            target.writestr(item, content)
    path.write_bytes(out.getvalue())


def test_odt_hidden_sections_and_fields(tmp_path: Path) -> None:
    path = make_odt_formatted(
        tmp_path / "fields.odt",
        [VISIBLE],
        hidden_sections=[["A whole hidden section of words.", "And its second paragraph."]],
        hidden_fields=["four words kept hidden"],
    )
    extracted = extract(path)
    assert extracted.text == f"{VISIBLE}\n\nShown."
    assert extracted.tampering == (Tampering("hidden_text", 14, "hidden"),)


@pytest.mark.parametrize("suffix", FORMATS)
def test_every_hidden_stretch_counts_into_one_warning(tmp_path: Path, suffix: str) -> None:
    """Every hidden stretch adds its words, wherever it is, into one warning per document."""
    paragraphs: list[Para | str] = [
        Para(("One ", Run("two three", hidden=True), " four.")),
        Para((Run("five", size=1), " six ", Run("seven eight nine", colour="FFFFFF"))),
    ]
    text, tampering = read(tmp_path, suffix, paragraphs)
    assert text == "One four.\n\nsix"
    assert tampering == (Tampering("hidden_text", 6, "hidden, white and 1-point"),)


@pytest.mark.parametrize("make", [make_docx, make_odt])
def test_ordinary_documents_raise_no_warning(tmp_path: Path, make: Callable[..., Path]) -> None:
    suffix = ".docx" if make is make_docx else ".odt"
    assert extract(make(tmp_path / f"plain{suffix}", SAMPLE_PROSE)).tampering == ()


# --- the colour rule ---------------------------------------------------------------------------

colours = st.tuples(*[st.integers(0, 255)] * 3)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(text=colours, background=colours)
def test_colour_rule(text: tuple[int, int, int], background: tuple[int, int, int]) -> None:
    ratio = contrast(text, background)
    assert 1 <= ratio <= 21
    assert ratio == pytest.approx(contrast(background, text))
    reason = colour_reason(text, background)
    assert (reason != "") == (ratio < MIN_CONTRAST)
    if reason:
        assert reason == ("white" if contrast(background, WHITE_RGB) < MIN_CONTRAST else
                          "background-coloured")  # fmt: skip
    assert colour_reason(None, background) == ""  # automatic colour
    assert colour_reason(text, UNKNOWN_RGB) == ""


def test_contrast_landmarks() -> None:
    assert contrast((0, 0, 0), WHITE_RGB) == pytest.approx(21)
    assert contrast(WHITE_RGB, WHITE_RGB) == 1
    assert contrast((0xF2, 0xF2, 0xF2), WHITE_RGB) < MIN_CONTRAST  # Word's palest grey
    assert contrast((0xD9, 0xD9, 0xD9), WHITE_RGB) > MIN_CONTRAST  # the next one: faint, seen

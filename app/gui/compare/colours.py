"""The colours of the side-by-side view: one colour per kept block, and the neutral marks.

Kept blocks take Paul Tol's colour-blind-safe "light" set in order along A, so neighbouring
blocks differ and a colour repeats only when blocks outnumber the eight colours. Tol's pale grey
is left out of the set: grey is the neutral style of discarded blocks. On a dark pane the same
hues are mixed into the pane's background, as far as light text needs to stay readable on them
(WCAG AA contrast), while a block keeps the hue a teacher associates with its table swatch.

Inside a kept block, the words its sentences share with their partners are drawn in a stronger
shade of the block's colour: darker on a light pane (as dark as the text stays readable on it),
the hue itself behind dark text on a dark pane. A chosen shared phrase is shown in inverse video
(the pane's text colour behind its background colour), unlike any block colour in either theme.

Reworded passages (copied, then edited) are one colour family of their own, violet, which Tol's
light set does not hold, drawn differently from a block: a pale violet fill (lighter than any
block's) with a dashed violet underline along the whole passage, and the words both sides share
in a stronger violet with a solid underline, so the words that differ are the ones left plain.
The dashes and underlines tell the two kinds apart without colour too (colour-blind readers,
greyscale print).

The overview strips beside the panes' scrollbars mark each passage in its hue itself (a block's
swatch colour, the reworded violet, lightened on a dark strip), over a groove a shade off the
pane's background.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette

from core.reports import palette

#: Paul Tol's "light" qualitative scheme (pale grey left out), in his recommended order: one
#: colour per colour slot, the same as the reports' (`core.reports.palette`, whose
#: `colour_slots` assigns them)
BLOCK_PALETTE = palette.BLOCK_PALETTE
# How much of the hue survives on a dark pane at most; the rest is the pane's own background.
DARK_MIX = 0.42
# WCAG AA for body text. A colour that would fall below it against the pane's text colour is
# mixed further into the background (on a dark pane, light yellow needs ~0.36 of its hue).
MIN_CONTRAST = 4.5

# Tol's "vibrant" red on light panes, his "bright" red on dark ones: a wavy underline must stand
# out from every block colour and from the text.
FAILED_LIGHT = "#CC3311"
FAILED_DARK = "#EE6677"

# Shared words on a light pane: the block's hue darkened toward black as far as the text keeps
# this contrast on it (a margin over AA), and at least by SHARED_MIN_DARKEN, else (a grey text
# colour leaves no room) dark enough for the pane's background colour as the text.
SHARED_CONTRAST = 5.0
SHARED_MIN_DARKEN = 0.2
SHARED_MAX_DARKEN = 0.32

NEUTRAL_LIGHT = "#8A8A8A"
NEUTRAL_DARK = "#A0A0A0"

# Reworded passages: violet, the swatch of table rows and the legend in both themes; the line
# (dashed under the passage, solid under its shared words) darker on a light pane, lighter on a
# dark one
REWORDED_HUE = palette.REWORDED_HUE
REWORDED_LINE_LIGHT = "#5E3A94"
REWORDED_LINE_DARK = "#C9A8F5"
# how much of the hue the fill of a passage and of its shared words take (the rest is the
# pane's background), on a light and on a dark pane; lowered further if the text needs it
REWORDED_FILL = (0.2, 0.3)
REWORDED_SHARED_FILL = (0.42, 0.55)


def is_dark(palette: QPalette) -> bool:
    """True when the text background is dark (a dark theme)."""
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


def swatch_colour(slot: int) -> QColor:
    """The block's hue itself: table swatches and the legend, the same in both themes."""
    return QColor(BLOCK_PALETTE[slot % len(BLOCK_PALETTE)])


def piece_background(slot: int, palette: QPalette) -> QColor:
    """The background of a kept piece on a pane with `palette`, readable in light and dark."""
    hue = swatch_colour(slot)
    base = palette.color(QPalette.ColorRole.Base)
    text = palette.color(QPalette.ColorRole.Text)
    share = DARK_MIX if is_dark(palette) else 1.0
    colour = _mix(hue, base, share)
    # mixing toward the background raises the contrast with the text in either theme
    while share > 0.1 and contrast_ratio(colour, text) < MIN_CONTRAST:
        share -= 0.02
        colour = _mix(hue, base, share)
    return colour


def shared_colours(slot: int, palette: QPalette) -> tuple[QColor, QColor]:
    """Background and text colour of the shared words inside a kept piece: a stronger shade of
    its block's colour than `piece_background`, readable (WCAG AA) in light and dark."""
    hue = swatch_colour(slot)
    base = palette.color(QPalette.ColorRole.Base)
    text = palette.color(QPalette.ColorRole.Text)
    if is_dark(palette):
        # the full hue (dimmed on the rest of the piece) behind the pane's dark background
        colour = hue
        while contrast_ratio(colour, base) < MIN_CONTRAST and colour.lightness() < 250:
            colour = _mix(QColor("#ffffff"), colour, 0.1)
        return colour, QColor(base)
    black = QColor("#000000")
    share = 0.0
    while (
        share + 0.02 <= SHARED_MAX_DARKEN
        and contrast_ratio(_mix(black, hue, share + 0.02), text) >= SHARED_CONTRAST
    ):
        share += 0.02
    if share >= SHARED_MIN_DARKEN:
        return _mix(black, hue, share), QColor(text)
    while share < 0.9 and contrast_ratio(_mix(black, hue, share), base) < MIN_CONTRAST:
        share += 0.02
    return _mix(black, hue, share), QColor(base)


def reworded_swatch() -> QColor:
    """The reworded passages' violet itself: table swatches and the legend, in both themes."""
    return QColor(REWORDED_HUE)


def reworded_swatch_fill() -> QColor:
    """A reworded passage's fill in a small sample (a table row's sign), on white: a little
    stronger than in the pane, so it reads at 12 pixels."""
    return _mix(reworded_swatch(), QColor("#ffffff"), 2 * REWORDED_FILL[0])


def reworded_background(palette: QPalette) -> QColor:
    """The pale fill of a reworded passage, lighter than a block's, readable in both themes."""
    return _fill(REWORDED_FILL, palette)


def reworded_shared_background(palette: QPalette) -> QColor:
    """The fill of the words a reworded passage's two sides share: a stronger violet."""
    return _fill(REWORDED_SHARED_FILL, palette)


def reworded_underline(palette: QPalette) -> QColor:
    """The underline of a reworded passage (dashed) and of its shared words (solid)."""
    return QColor(REWORDED_LINE_DARK if is_dark(palette) else REWORDED_LINE_LIGHT)


def _fill(shares: tuple[float, float], palette: QPalette) -> QColor:
    base = palette.color(QPalette.ColorRole.Base)
    text = palette.color(QPalette.ColorRole.Text)
    share = shares[1] if is_dark(palette) else shares[0]
    colour = _mix(reworded_swatch(), base, share)
    while share > 0.05 and contrast_ratio(colour, text) < MIN_CONTRAST:
        share -= 0.02
        colour = _mix(reworded_swatch(), base, share)
    return colour


def overview_reworded(palette: QPalette) -> QColor:
    """A reworded passage's mark on an overview strip: the violet itself on a light strip, a
    lighter violet on a dark one (the hue alone sinks into a dark background)."""
    return QColor(REWORDED_LINE_DARK) if is_dark(palette) else reworded_swatch()


def overview_reworded_fill(palette: QPalette) -> QColor:
    """The inside of a reworded passage's mark on an overview strip: paler, as in the pane."""
    return _mix(overview_reworded(palette), palette.color(QPalette.ColorRole.Base), 0.35)


def overview_background(palette: QPalette) -> QColor:
    """An overview strip's groove: the pane's background a little toward its text colour."""
    return _mix(
        palette.color(QPalette.ColorRole.Text), palette.color(QPalette.ColorRole.Base), 0.06
    )


def found_colours(palette: QPalette) -> tuple[QColor, QColor]:
    """Background and text colour of a chosen shared phrase's occurrences: inverse video."""
    return (
        QColor(palette.color(QPalette.ColorRole.Text)),
        QColor(palette.color(QPalette.ColorRole.Base)),
    )


def failed_colour(palette: QPalette) -> QColor:
    """The wavy underline of a sentence whose first words differ from its partner's."""
    return QColor(FAILED_DARK if is_dark(palette) else FAILED_LIGHT)


def neutral_colour(palette: QPalette) -> QColor:
    """The dotted underline of a discarded block: present, but visibly not evidence."""
    return QColor(NEUTRAL_DARK if is_dark(palette) else NEUTRAL_LIGHT)


def excluded_colours(palette: QPalette) -> tuple[QColor, QColor]:
    """Background and text colour of text left out of the scores (an exclusion): a grey
    shade a little off the page, and the palette's placeholder text colour, so it reads as
    set aside rather than as evidence."""
    base = palette.color(QPalette.ColorRole.Base)
    text = palette.color(QPalette.ColorRole.Text)
    mix = 0.10

    def blend(a: int, b: int) -> int:
        return round(a + (b - a) * mix)

    shade = QColor(
        blend(base.red(), text.red()),
        blend(base.green(), text.green()),
        blend(base.blue(), text.blue()),
    )
    return shade, QColor(palette.color(QPalette.ColorRole.PlaceholderText))


def contrast_ratio(one: QColor, two: QColor) -> float:
    """WCAG 2 contrast ratio of two colours, 1 to 21."""
    high, low = sorted((_luminance(one), _luminance(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _luminance(colour: QColor) -> float:
    def linear(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = linear(colour.redF()), linear(colour.greenF()), linear(colour.blueF())
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _mix(colour: QColor, base: QColor, share: float) -> QColor:
    return QColor.fromRgbF(
        colour.redF() * share + base.redF() * (1 - share),
        colour.greenF() * share + base.greenF() * (1 - share),
        colour.blueF() * share + base.blueF() * (1 - share),
    )

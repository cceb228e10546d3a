"""Text a reader of a .docx or .odt does not see: hidden, coloured like its background, or tiny.

Students pad an essay or break up a copied sentence with words nobody sees: text formatted as
hidden, white text on a white page, or 1-point text. Such text is left out of the check (it
would change sentence lengths and hide copying) and counted, so the teacher is told: the
readers collect each hidden stretch with `HiddenText.add` and report it as one
`Tampering("hidden_text", count=<words>, detail="hidden, white and 1-point")`.

Colours are compared by contrast, as WCAG defines it: text whose contrast with what is behind
it is below MIN_CONTRAST (white on white is 1; the palest grey Word offers, "White, Background
1, Darker 5%", is 1.12; yellow on white 1.07; black on white 21) cannot be read."""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.documents.tampering import Tampering

#: Text whose contrast with its background is below this cannot be read.
MIN_CONTRAST = 1.25
#: Text this small (in points) or smaller cannot be read: Word's smallest size is 1 pt.
MAX_INVISIBLE_POINTS = 1.0

HIDDEN = "hidden"
WHITE = "white"
BACKGROUND = "background-coloured"
TINY = "1-point"
_ORDER = (HIDDEN, WHITE, BACKGROUND, TINY)

WHITE_RGB = (255, 255, 255)
#: what is behind text whose background cannot be known (a text box in a drawn shape, a table
#: coloured by its table style): its colour is never taken for hiding
UNKNOWN_RGB = (-1, -1, -1)
_HEX = re.compile(r"#?([0-9A-Fa-f]{6})")
# Word's highlight colours (w:highlight), by name
HIGHLIGHTS: dict[str, tuple[int, int, int]] = {
    "black": (0, 0, 0),
    "blue": (0, 0, 255),
    "cyan": (0, 255, 255),
    "green": (0, 255, 0),
    "magenta": (255, 0, 255),
    "red": (255, 0, 0),
    "yellow": (255, 255, 0),
    "white": (255, 255, 255),
    "darkBlue": (0, 0, 128),
    "darkCyan": (0, 128, 128),
    "darkGreen": (0, 128, 0),
    "darkMagenta": (128, 0, 128),
    "darkRed": (128, 0, 0),
    "darkYellow": (128, 128, 0),
    "darkGray": (128, 128, 128),
    "lightGray": (192, 192, 192),
}


def parse_rgb(value: str | None) -> tuple[int, int, int] | None:
    """ "FF00AA" or "#ff00aa" as (255, 0, 170); None for "auto", "transparent" or anything
    else that is not a colour."""
    if not value:
        return None
    match = _HEX.fullmatch(value.strip())
    if match is None:
        return None
    code = int(match.group(1), 16)
    return (code >> 16, (code >> 8) & 0xFF, code & 0xFF)


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """The WCAG contrast ratio of two colours, from 1 (the same) to 21 (black and white)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def colour_reason(text: tuple[int, int, int] | None, background: tuple[int, int, int]) -> str:
    """WHITE (on a white or nearly white background) or BACKGROUND (on another colour) when
    text of colour `text` cannot be read on `background`, else "". None (automatic colour:
    black on light, white on dark) can always be read; on UNKNOWN_RGB any colour can."""
    if text is None or background == UNKNOWN_RGB or contrast(text, background) >= MIN_CONTRAST:
        return ""
    return WHITE if contrast(background, WHITE_RGB) < MIN_CONTRAST else BACKGROUND


class HiddenText:
    """The hidden stretches of one document: how many words, and how they were hidden."""

    def __init__(self) -> None:
        self.words = 0
        self.reasons: set[str] = set()

    def add(self, text: str, reasons: Iterable[str]) -> None:
        """Count the words of one hidden stretch; `reasons` say how it was hidden."""
        words = sum(1 for word in text.split() if any(ch.isalnum() for ch in word))
        if words:
            self.words += words
            self.reasons.update(reasons)

    def visible(self, parts: Iterable[tuple[str, str]]) -> str:
        """A paragraph's visible text from its (text, why hidden) parts: each run of hidden
        parts is counted as one stretch (`add`); `why` is "" for visible text, else the
        reasons joined by commas."""
        visible: list[str] = []
        stretch: list[str] = []
        reasons: set[str] = set()
        for text, why in parts:
            if why:
                stretch.append(text)
                reasons.update(why.split(","))
                continue
            if stretch:
                self.add("".join(stretch), reasons)
                stretch, reasons = [], set()
            visible.append(text)
        if stretch:
            self.add("".join(stretch), reasons)
        return "".join(visible)

    def tampering(self) -> tuple[Tampering, ...]:
        if not self.words:
            return ()
        ways = [reason for reason in _ORDER if reason in self.reasons]
        detail = ways[0] if len(ways) == 1 else ", ".join(ways[:-1]) + " and " + ways[-1]
        return (Tampering("hidden_text", self.words, detail),)

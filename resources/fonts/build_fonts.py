"""Rebuilds the fonts of the PDF evidence report from DejaVu 2.37 (Debian's fonts-dejavu-core):

    python resources/fonts/build_fonts.py /usr/share/fonts/truetype/dejavu

Each font is cut down with fontTools' subsetter to the scripts Doppel analyses and a reader
meets in essays (Latin with every accent and Vietnamese, IPA, Greek, Cyrillic, Hebrew, Arabic)
and the punctuation, currency, arrows, mathematical and geometric signs around them; hinting
and layout tables are left out (fpdf2 draws without shaping, PDF viewers ignore TrueType
hints). About a third of each font's size, so the packaged app stays within its budget
(docs/packaging.md); a report embeds only the glyphs it uses anyway."""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset

FONTS = {"DejaVuSans.ttf": "DejaVuSans.ttf", "DejaVuSans-Bold.ttf": "DejaVuSans-Bold.ttf"}
UNICODES = (
    "U+0020-007E,U+00A0-036F,U+0370-03FF,U+0400-052F,U+0590-05FF,U+0600-06FF,U+1E00-1FFF,"
    "U+2000-206F,U+20A0-20CF,U+2100-214F,U+2150-218F,U+2190-21FF,U+2200-22FF,U+2500-25FF,"
    "U+FB00-FB4F,U+FFFD"
)


def main(source: str) -> None:
    here = Path(__file__).parent
    for name, target in FONTS.items():
        subset.main(
            [
                str(Path(source) / name),
                f"--unicodes={UNICODES}",
                f"--output-file={here / target}",
                "--no-hinting",
                "--layout-features=",
                "--name-IDs=*",
                "--name-legacy",
                "--notdef-outline",
                "--glyph-names",
            ]
        )
        print(f"{target}: {(here / target).stat().st_size:,} bytes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/truetype/dejavu")

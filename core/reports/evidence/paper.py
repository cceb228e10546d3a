"""The paper an evidence report is set on, and which paper a place uses: one rule for the
command line (`doppel report`, from the locale's variables) and the window (from Qt's locale)."""

from __future__ import annotations

from enum import StrEnum


class Paper(StrEnum):
    """The page size of a PDF report (and of the HTML page's print styles)."""

    A4 = "a4"
    LETTER = "letter"


#: territories (ISO 3166-1 alpha-2) where US Letter is the custom; the rest of the world uses A4
LETTER_TERRITORIES = frozenset(
    {"US", "CA", "MX", "PH", "CL", "CO", "VE", "CR", "GT", "SV", "HN", "NI", "PA", "DO", "PR", "BZ"}
)


def paper_for_territory(territory: str) -> Paper:
    """Letter where `territory` (e.g. "US") uses it, A4 everywhere else (and when unknown)."""
    return Paper.LETTER if territory.upper() in LETTER_TERRITORIES else Paper.A4

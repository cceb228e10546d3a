"""What a format reader hands back before normalisation, and how it words a library's failure."""

from __future__ import annotations

from dataclasses import dataclass

# A reader's raw text may run this many times over the text limit before normalisation (which
# only removes whitespace and invisible characters) has the last word; past it, the document is
# refused without normalising, and the PDF reader stops reading pages.
RAW_TEXT_FACTOR = 2


@dataclass(frozen=True, slots=True)
class RawText:
    """Text as a format reader found it: paragraphs separated by blank lines, lines by "\\n".

    `warnings` are plain-language notes a teacher can act on ("removed running header ...");
    they travel unchanged into `ExtractedText.warnings`."""

    text: str
    warnings: tuple[str, ...] = ()


def library_message(exc: BaseException, limit: int = 160) -> str:
    """A parsing library's exception as a short phrase for the end of a reason."""
    message = " ".join(str(exc).split()) or type(exc).__name__
    return message if len(message) <= limit else message[: limit - 3] + "..."

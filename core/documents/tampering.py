"""Signs that a document was disguised to get past a checker, and the words a teacher reads.

Students hide copying with letters from other scripts that look like Latin ones (Cyrillic "а"
for "a"), invisible characters between letters, look-alike spaces and full stops, and text
hidden in a Word file (hidden runs, white or 1-point text). Doppel undoes each disguise before
analysis (core.documents.normalize folds look-alikes and drops invisible characters; the .docx
reader leaves hidden text out) and records what it undid here, so the teacher is told: the
disguise itself is evidence. A `Tampering` is one kind of disguise and how often it occurred.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: the kinds of disguise, as the JSON and CSV name them
TamperingKind = Literal[
    "lookalike_letters",  # letters from another script that look like the text's own
    "invisible_characters",  # characters that draw nothing, inside or between words
    "lookalike_spaces",  # spaces replaced by blanks that look like them (braille blank, …)
    "lookalike_punctuation",  # full stops from other scripts, look-alike dots
    "hidden_text",  # .docx text a reader does not see: hidden, white, or tiny
]

KINDS: tuple[TamperingKind, ...] = (
    "lookalike_letters",
    "invisible_characters",
    "lookalike_spaces",
    "lookalike_punctuation",
    "hidden_text",
)

#: said after every disguise: why the teacher is told
_WHY = "a known way to hide copying"


@dataclass(frozen=True, slots=True)
class Tampering:
    """One kind of disguise found in a document, and how much of it."""

    kind: TamperingKind
    count: int  # characters (letters, spaces, full stops), or words for hidden text
    # what was imitated or how text was hidden, in words: "Latin" (the letters imitated),
    # "hidden, white and 1-point" (hidden text); "" when nothing more is known
    detail: str = ""

    @property
    def message(self) -> str:
        """The plain-language warning, e.g. "312 Latin letters replaced by look-alikes from
        other scripts — a known way to hide copying"."""
        n = f"{self.count:,}"
        if self.kind == "lookalike_letters":
            script = f"{self.detail} " if self.detail else ""
            noun = "letter" if self.count == 1 else "letters"
            return f"{n} {script}{noun} replaced by look-alikes from other scripts — {_WHY}"
        if self.kind == "invisible_characters":
            noun = "character" if self.count == 1 else "characters"
            return f"{n} invisible {noun} inside the text, removed — {_WHY}"
        if self.kind == "lookalike_spaces":
            noun = "space" if self.count == 1 else "spaces"
            return f"{n} {noun} replaced by look-alike blank characters — {_WHY}"
        if self.kind == "lookalike_punctuation":
            noun = "full stop" if self.count == 1 else "full stops"
            return f"{n} {noun} replaced by look-alikes from other scripts — {_WHY}"
        how = f" ({self.detail})" if self.detail else ""
        noun = "word" if self.count == 1 else "words"
        return f"{n} {noun} of hidden text{how} left out of the check — {_WHY}"


def merged(*groups: tuple[Tampering, ...]) -> tuple[Tampering, ...]:
    """The disguises of several sources as one list: counts of the same kind and detail added,
    in the order of `KINDS`; kinds with a zero count left out."""
    counts: dict[tuple[TamperingKind, str], int] = {}
    for group in groups:
        for item in group:
            counts[item.kind, item.detail] = counts.get((item.kind, item.detail), 0) + item.count
    order = {kind: k for k, kind in enumerate(KINDS)}
    return tuple(
        Tampering(kind, count, detail)
        for (kind, detail), count in sorted(counts.items(), key=lambda x: (order[x[0][0]], x[0][1]))
        if count > 0
    )

"""Sentence records: NLTK Punkt sentences with character spans, and their terms.

A term is a word token (at least one letter or digit), case-folded, that is not a stop word
(spec §1). Every sentence and term keeps its `[start, end)` span into the document text, which
is the same string the viewer shows."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Term:
    text: str  # case-folded form used for keys
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Sentence:
    index: int  # position among the document's sentences
    start: int
    end: int
    terms: tuple[Term, ...]

    @property
    def length(self) -> int:
        """ℓ: the number of terms (words left after stop-word removal)."""
        return len(self.terms)

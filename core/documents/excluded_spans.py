"""What an exclusion is: a span of a document's text left out of what is scored, and why.

Exclusions never change a document's text or its sentences (what the teacher sees); they
change only its signature: words inside an excluded span are not terms, and a sentence with no
word left outside excluded spans is not in the signature at all (so it counts in neither the
blocks nor the Jaccard denominator). `core.documents.document.with_exclusions` applies them;
what to exclude is asked for with `core.options.ExclusionOptions`, and found by
`core.exclusions` (quotations, references, templates: one module each, applied by
`core.exclusions.apply`) and `core.batch.common_text` (text most documents of a batch share).
See docs/exclusions.md."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from core.documents.sentences import Sentence, word_spans


class ExclusionKind(StrEnum):
    QUOTATION = "quotation"  # inside quotation marks, or a block quote of the source file
    REFERENCES = "references"  # the trailing references / bibliography section
    TEMPLATE = "template"  # matches a template document (the prompt, a handout)
    COMMON = "common"  # found in more than the chosen share of a batch's documents

    @property
    def label(self) -> str:
        """The plain words a teacher reads: 'excluded: template'."""
        return f"excluded: {_LABELS[self]}"


_LABELS = {
    ExclusionKind.QUOTATION: "quotation",
    ExclusionKind.REFERENCES: "references",
    ExclusionKind.TEMPLATE: "template",
    ExclusionKind.COMMON: "common text",
}


@dataclass(frozen=True, slots=True)
class ExcludedSpan:
    """`[start, end)` characters of the document's text, left out of scoring."""

    start: int
    end: int
    kind: ExclusionKind
    detail: str = ""  # e.g. the template's name, the heading found, "in 31 of 40 documents"


def normalised(spans: Iterable[ExcludedSpan]) -> tuple[ExcludedSpan, ...]:
    """Spans sorted by position (then kind), empty ones dropped, exact duplicates removed.
    Overlapping spans of different kinds are all kept: each says why its text is out."""
    return tuple(sorted({s for s in spans if s.start < s.end}, key=_order))


def _order(span: ExcludedSpan) -> tuple[int, int, str, str]:
    return span.start, span.end, span.kind, span.detail


class SpanSet:
    """The union of some spans, for fast 'is this character range covered?' questions."""

    def __init__(self, spans: Iterable[ExcludedSpan | tuple[int, int]]) -> None:
        merged: list[list[int]] = []
        pairs = ((s.start, s.end) if isinstance(s, ExcludedSpan) else s for s in spans)
        for start, end in sorted(p for p in pairs if p[0] < p[1]):
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self._starts = [m[0] for m in merged]
        self._ends = [m[1] for m in merged]

    def __bool__(self) -> bool:
        return bool(self._starts)

    def covers(self, start: int, end: int) -> bool:
        """True when `[start, end)` lies wholly inside the union."""
        k = bisect.bisect_right(self._starts, start) - 1
        return k >= 0 and self._ends[k] >= end

    def overlaps(self, start: int, end: int) -> bool:
        k = bisect.bisect_left(self._ends, start + 1)
        return k < len(self._starts) and self._starts[k] < end


def sentences_for_scoring(
    text: str, sentences: Sequence[Sentence], excluded: SpanSet
) -> tuple[list[Sentence], tuple[int, ...]]:
    """The sentences as the signature sees them with `excluded` left out, and the indices of
    the sentences left out entirely: a sentence with no word (stop words included) outside the
    excluded spans is left out; otherwise its terms inside them are dropped."""
    kept: list[Sentence] = []
    dropped: list[int] = []
    for sentence in sentences:
        if not excluded.overlaps(sentence.start, sentence.end):
            kept.append(sentence)
        elif all(excluded.covers(a, b) for a, b in word_spans(text, sentence.start, sentence.end)):
            dropped.append(sentence.index)
        else:
            terms = [t for t in sentence.terms if not excluded.covers(t.start, t.end)]
            kept.append(Sentence.from_terms(sentence.index, sentence.start, sentence.end, terms))
    return kept, tuple(dropped)

"""Finding the sentences of a document that match a template (the assignment prompt, a
handout) to leave out of scoring: those inside a verified block shared with the template (the
comparison's own rule) and those holding a long phrase the template also has. See
docs/exclusions.md."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from core.detection.matching import match_signatures
from core.detection.phrases import INVERTED_INDEX, phrase_input, repeated_phrases
from core.documents.document import Document, harmonise_languages, reanalysed, with_exclusions
from core.documents.excluded_spans import ExcludedSpan, ExclusionKind
from core.options import ExclusionOptions, MatchOptions

__all__ = ["template_exclusions"]


def template_exclusions(
    doc: Document,
    templates: Sequence[Document],
    match_options: MatchOptions | None = None,
    phrase_words: int = ExclusionOptions().template_phrase_words,
) -> tuple[ExcludedSpan, ...]:
    """The sentences of `doc` that match a template, whole: each sentence inside a verified
    block shared with the template (the comparison's own rule, with `match_options`), and each
    sentence holding a phrase of `phrase_words` words (stop words included) that the template
    also has. Both documents are read without their exclusions, and with `doc`'s signature
    options. One span per sentence; detail: the template's file name."""
    if phrase_words < 2:
        raise ValueError("the template phrase length must be at least 2 words")
    doc = with_exclusions(doc, ())
    options = match_options or MatchOptions()
    starts = [s.start for s in doc.sentences]
    words = phrase_input(doc)
    spans: list[ExcludedSpan] = []
    for template in templates:
        template = with_exclusions(template, ())
        if template.options != doc.options:
            template = reanalysed(template, doc.options)
        sentences: set[tuple[int, int]] = set()
        a, b = harmonise_languages(doc, template)
        result = match_signatures(a.signature, b.signature, options)
        for block in result.blocks:
            for piece in block.pieces:
                for position in range(piece.a_start, piece.a_start + piece.length):
                    sentence = a.sentences[a.signature.sentence_indices[position]]
                    sentences.add((sentence.start, sentence.end))
        phrases = repeated_phrases(
            [words, phrase_input(template)],
            max_len=phrase_words,
            min_count=2,
            min_docs=2,
            method=INVERTED_INDEX,
        )
        for phrase in phrases:
            if phrase.length != phrase_words:
                continue
            for occurrence in phrase.occurrences:
                if occurrence.document == 0:
                    sentence = doc.sentences[bisect.bisect_right(starts, occurrence.start) - 1]
                    sentences.add((sentence.start, sentence.end))
        spans.extend(
            ExcludedSpan(start, end, ExclusionKind.TEMPLATE, template.name)
            for start, end in sorted(sentences)
        )
    return tuple(spans)

"""Every exclusion one document asks for on its own (quotations and block quotes, a
references section, template text), found together and applied: the entry point the
comparison and the batch use. Applying changes the document's signature and nothing else
(`core.documents.document.with_exclusions`); the batch's common text is found across
documents, in `core.batch.common_text`."""

from __future__ import annotations

from collections.abc import Sequence

from core.documents.document import Document, with_exclusions
from core.documents.excluded_spans import ExcludedSpan, ExclusionKind
from core.exclusions.quotations import block_quote_exclusions, find_quotations
from core.exclusions.references import find_references
from core.exclusions.templates import template_exclusions
from core.options import ExclusionOptions, MatchOptions

__all__ = ["apply_exclusions", "document_exclusions"]

#: the kinds `document_exclusions` finds (and `apply_exclusions` replaces); COMMON is the batch's
_PER_DOCUMENT = frozenset(
    {ExclusionKind.QUOTATION, ExclusionKind.REFERENCES, ExclusionKind.TEMPLATE}
)


def document_exclusions(
    doc: Document,
    options: ExclusionOptions,
    templates: Sequence[Document] = (),
    match_options: MatchOptions | None = None,
) -> tuple[ExcludedSpan, ...]:
    """Every exclusion of `doc` that `options` ask for on its own (quotations and block quotes,
    references, and the templates given: no template, no template exclusion), found in its
    text whatever it already excludes. The batch's common text is not among them."""
    spans: list[ExcludedSpan] = []
    if options.quotations:
        spans.extend(find_quotations(doc.text, doc.language))
        spans.extend(block_quote_exclusions(doc))
    if options.references:
        spans.extend(find_references(doc))
    if templates:
        spans.extend(
            template_exclusions(doc, templates, match_options, options.template_phrase_words)
        )
    return tuple(spans)


def apply_exclusions(
    doc: Document,
    options: ExclusionOptions,
    templates: Sequence[Document] = (),
    match_options: MatchOptions | None = None,
) -> Document:
    """`doc` with the exclusions of `document_exclusions` in place of any quotation,
    references or template exclusions it had; other kinds it carries (the batch's common
    text) stay."""
    kept = [s for s in doc.excluded if s.kind not in _PER_DOCUMENT]
    return with_exclusions(
        doc, [*kept, *document_exclusions(doc, options, templates, match_options)]
    )

"""Exclusions: finding what to leave out of scoring in one document (quotations, a trailing
references section, text that matches a template) and applying it. What an excluded span is
lives below, in `core.documents.excluded_spans`; the batch's common text is `core.batch`'s."""

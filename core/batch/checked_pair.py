"""A pair of a folder check as a `Comparison`, scored as the check scored it: both documents
loaded again (from the cache while their files are unchanged) with the exclusions the check
applied to each (its common text too, which two documents alone could not find), compared with
the check's match options. What the window opens side by side and what an evidence report of
the pair shows (`core.reports.evidence`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from core.batch.cache import DocumentCache
from core.batch.result import BatchDocument, BatchResult, PairResult
from core.batch.run import checked_document
from core.comparison import Comparison, compare_documents
from core.documents.document import Document
from core.options import SignatureOptions
from core.progress import Progress


def checked_comparison(
    result: BatchResult,
    pair: PairResult,
    signature: SignatureOptions,
    cache: DocumentCache | None = None,
    *,
    progress: Progress | None = None,
    load_document: Callable[[BatchDocument], Document] | None = None,
) -> Comparison:
    """The comparison of `pair` of `result` (checked with the `signature` options). Raises
    DocumentError when a document cannot be read again; `progress` may raise Cancelled.

    The exclusions were applied when the documents were loaded (`checked_document`, or
    `load_document` when given: e.g. archived documents read from an archive index), so the
    comparison only records which were asked for, for what its surfaces say was left out."""

    def load(doc: BatchDocument) -> Document:
        if load_document is not None:
            return load_document(doc)
        return checked_document(doc, signature, cache)

    doc_a = load(result.documents[pair.a])
    doc_b = load(result.documents[pair.b])
    comparison = compare_documents(doc_a, doc_b, result.match, progress=progress)
    if result.exclusions_on:
        comparison = replace(
            comparison,
            exclusions=result.exclusions,
            templates=tuple(t.name for t in result.templates),
        )
    return comparison

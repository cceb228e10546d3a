"""The whole Documents of a finished folder check, wherever they now are: a new submission from
the document cache (or its file), an archived one from the archive index it was checked
against — its file may have moved or been deleted years ago, and the index keeps its text for
exactly this (core/archive/index.py). What opening a pair side by side, its evidence report and
the HTML report read. No Qt: it runs on a worker, and opens its SQLite files there."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from core.archive.index import ArchiveIndex
from core.archive.index_file import ArchiveError
from core.batch.cache import DocumentCache
from core.batch.checked_pair import checked_comparison
from core.batch.result import BatchDocument, BatchResult, PairResult
from core.batch.run import checked_document
from core.comparison import Comparison
from core.documents.document import Document, with_exclusions
from core.errors import DocumentError
from core.options import SignatureOptions
from core.progress import Progress


@dataclass
class CheckedDocuments:
    """Opened (`with`) on the worker that reads: the document cache (`open_cache` opens it,
    or gives None: the check runs without) and the index at `index_path` (none when the check
    was against folders). `signature` is what the check read the new documents with (the
    index's own options when it was against an index). `compare` scores a pair of
    documents the cache or their files give (`checked_comparison`; the controller passes
    its own name for it, which its tests replace)."""

    signature: SignatureOptions
    open_cache: Callable[[], DocumentCache | None] = lambda: None
    index_path: Path | None = None
    compare: Callable[..., Comparison] = checked_comparison
    _cache: DocumentCache | None = field(default=None, init=False, repr=False)
    _index: ArchiveIndex | None = field(default=None, init=False, repr=False)
    _index_problem: str = field(default="", init=False, repr=False)

    def __enter__(self) -> CheckedDocuments:
        self._cache = self.open_cache()
        if self.index_path is not None:
            try:
                self._index = ArchiveIndex(self.index_path)
            except ArchiveError as error:  # said when an archived document is asked for
                self._index_problem = error.reason
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        for store in (self._cache, self._index):
            if store is not None:
                store.close()
        self._cache = self._index = None

    def document(self, doc: BatchDocument) -> Document:
        """`doc`'s whole Document as the check scored it (its exclusions applied again).
        Raises DocumentError, in words, when it cannot be read again."""
        if not doc.archive or self.index_path is None:
            return checked_document(doc, self.signature, self._cache)
        if self._index is None:
            problem = self._index_problem
            raise DocumentError(doc.path, f"the archive index cannot be read: {problem}")
        try:
            stored = self._index.document_at(doc.path)
        except ArchiveError as error:
            raise DocumentError(
                doc.path, f"the archive index cannot be read: {error.reason}"
            ) from error
        if stored is None:
            raise DocumentError(doc.path, "it is no longer in the archive index")
        return with_exclusions(stored, doc.excluded) if doc.excluded else stored

    def comparison(
        self, result: BatchResult, pair: PairResult, *, progress: Progress | None = None
    ) -> Comparison:
        """`pair` of `result` compared as the check scored it (`checked_comparison`, its
        documents read by `document`: archived ones from the index)."""
        return self.compare(
            result,
            pair,
            self.signature,
            self._cache,
            progress=progress,
            load_document=self.document,
        )

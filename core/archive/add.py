"""`doppel archive add`: earlier submissions into the archive index, incrementally.

The files are found as a folder check finds them (`core.batch.inputs`: recursively, with
`--student-folders`, the same files left out for the same reasons) and read as it reads them
(`core.batch.run.load_all`: worker processes, a file that kills its reader failed alone),
through the index itself as the document store: a content already archived (same bytes,
same options, same engine) is not read again, whatever its path. Each chunk of files is then
filed in one transaction (`ArchiveIndex.file_members`): its contents, their keys and its
files as members, on a thread of its own while the next chunk is read. An add stopped midway
(cancel, a crash) keeps every chunk filed; the unfinished chunk is read again by the next
add."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from core.archive.index import ArchiveIndex, ArchiveInfo
from core.batch.cache import PackedEntry, cache_key
from core.batch.common_text import DocumentFingerprints
from core.batch.inputs import collect_inputs
from core.batch.result import BatchDocument, FailedDocument, Submission
from core.batch.run import BatchOptions, cluster_at, load_all
from core.progress import Progress

if TYPE_CHECKING:
    from core.batch.cluster import Cluster

#: files read and filed together: one transaction each; memory holds one chunk's records
ADD_CHUNK = 2_000


@dataclass(frozen=True, slots=True)
class AddResult:
    """What an add did: members new to the index, members whose file changed (re-read and
    re-filed), files already archived as they are, and files that could not be read."""

    added: int
    updated: int
    unchanged: int
    failed: tuple[FailedDocument, ...]
    report_pages: tuple[Path, ...]
    info: ArchiveInfo


def add_to_archive(
    paths: Iterable[str | Path],
    index: ArchiveIndex,
    options: BatchOptions | None = None,
    progress: Progress | None = None,
) -> AddResult:
    """Adds the documents under `paths` to `index` (read with the index's signature options;
    `options` gives --student-folders and the worker processes, or the cluster whose workers
    read them: `options.scheduler`, ClusterError when it cannot be used)."""
    options = options or BatchOptions()
    with cluster_at(options.scheduler) as cluster:
        return _add(paths, index, options, progress, cluster)


def _add(
    paths: Iterable[str | Path],
    index: ArchiveIndex,
    options: BatchOptions,
    progress: Progress | None,
    cluster: Cluster | None,
) -> AddResult:
    collected = collect_inputs(paths, (), options.student_folders)
    submissions = list(collected.submissions)
    failed: list[FailedDocument] = []
    added = updated = 0
    chunks = [submissions[k : k + ADD_CHUNK] for k in range(0, len(submissions), ADD_CHUNK)]
    # a chunk is filed on a thread of its own (its own connection) while the next is read: the
    # filing's Python work overlaps the workers' reading instead of making them wait
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="doppel-archive-filing") as filer:
        filing: Future[tuple[int, int]] | None = None
        try:
            for number, chunk in enumerate(chunks):
                store = _ChunkStore(index)
                loaded, lost = load_all(
                    chunk,
                    index.options,
                    store,
                    options.workers,
                    _part(progress, number, len(chunks)),
                    cluster=cluster,
                )
                failed += lost
                if filing is not None:
                    new, changed = filing.result()
                    added, updated = added + new, updated + changed
                filing = filer.submit(_file, index.path, _rows(chunk, loaded, index), store.entries)
            if filing is not None:
                new, changed = filing.result()
                added, updated = added + new, updated + changed
                filing = None
        finally:
            if filing is not None:  # stopped while a chunk was being filed: let it land
                filing.exception()
    if progress is not None:
        progress(1.0, "Done")
    if not failed:
        index.drop_unused()  # (contents left by an add of an earlier version that was stopped)
    read = len(submissions) - len(failed)
    return AddResult(
        added=added,
        updated=updated,
        unchanged=read - added - updated,
        failed=tuple(sorted([*collected.failed, *failed], key=lambda f: str(f.path))),
        report_pages=collected.report_pages,
        info=index.info(),
    )


class _ChunkStore:
    """The document store a chunk is read through: what the index already holds is found
    there (not read again); what is read is kept here, and filed with its keys and members in
    one transaction (`_file`)."""

    def __init__(self, index: ArchiveIndex) -> None:
        self.index = index
        self.entries: list[PackedEntry] = []

    def batch_documents(self, keys: Iterable[str]) -> dict[str, BatchDocument]:
        return self.index.batch_documents(keys)

    def document_blobs(self, keys: Iterable[str]) -> dict[str, bytes]:
        return self.index.document_blobs(keys)

    def fingerprints(self, keys: Iterable[str]) -> dict[str, DocumentFingerprints]:
        return {}

    def put_packed(self, rows: Iterable[PackedEntry]) -> None:
        self.entries.extend(rows)

    def put_fingerprints(self, rows: Iterable[tuple[str, bytes]]) -> None:
        return None


def _file(
    path: Path, rows: list[tuple[Submission, BatchDocument, str]], entries: list[PackedEntry]
) -> tuple[int, int]:
    """(On the filing thread, with a connection of its own.) Files a chunk."""
    with ArchiveIndex(path) as index:
        return index.file_members(rows, entries)


def _rows(
    chunk: Sequence[Submission], loaded: dict[Path, BatchDocument], index: ArchiveIndex
) -> list[tuple[Submission, BatchDocument, str]]:
    return [
        (s, loaded[s.path], cache_key(loaded[s.path].content_hash, index.options))
        for s in chunk
        if s.path in loaded
    ]


def _part(progress: Progress | None, number: int, count: int) -> Progress | None:
    """`progress` for chunk `number` of `count`: its share of the bar."""
    if progress is None:
        return None

    def report(fraction: float, message: str = "") -> None:
        progress((number + min(fraction / 0.7, 1.0)) / max(count, 1) * 0.99, message)

    return report

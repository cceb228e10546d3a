"""`doppel archive add`: earlier submissions into the archive index, incrementally.

The files are found as a folder check finds them (`core.batch.inputs`: recursively, with
`--student-folders`, the same files left out for the same reasons) and read as it reads them
(`core.batch.run.load_all`: worker processes, a file that kills its reader failed alone),
through the index itself as the document store: a content already archived (same bytes,
same options, same engine) is not read again, whatever its path. Each chunk of files is then
filed in one transaction (`ArchiveIndex.file_members`) once all its files are read: its
contents, their keys and its files as members, on a thread of its own while the next chunk
is read (by the same workers: one reading of all the files). What the workers hand on of
each document is made ready for its filing a few hundred documents at a time as they come,
on another thread (`core.archive.prepared.prepare_all`), so that the filing's thread, which
an add on many cores waits for, does not do it. An add stopped midway
(cancel, a crash) keeps every chunk filed; the unfinished chunk is read again by the next
add."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from core.archive.index import ArchiveIndex, ArchiveInfo
from core.archive.prepared import HandedOn, Prepared, hand_on, prepare_all
from core.batch.cache import PackedEntry, cache_key
from core.batch.common_text import DocumentFingerprints
from core.batch.inputs import collect_inputs
from core.batch.result import BatchDocument, FailedDocument, Submission
from core.batch.run import BatchOptions, LoadedDocument, ReadJob, cluster_at, load_all
from core.progress import Progress

if TYPE_CHECKING:
    from core.batch.cluster import Cluster

#: files read and filed together: one transaction each; memory holds one chunk's records
#: (a quarter more at most: `chunk_sizes`)
ADD_CHUNK = 2_000
#: documents whose units rows are made together (`prepare_all`): enough that the steps on
#: arrays cost little each, few enough that the chunk's last ones are ready soon after it is
#: read (and that the arrays stay in the processor's cache: 256 essays cost a fifth less
#: than 2,000 at once)
PREPARE_EVERY = 256


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
    # one reading of every file (one pool of workers); each chunk is filed on a thread of its
    # own (its own connection) as soon as all its files are read, while the next are: the
    # filing's work overlaps the workers' reading instead of making them wait; what is handed
    # on is prepared on a third thread as it comes
    with (
        ThreadPoolExecutor(max_workers=1, thread_name_prefix="doppel-archive-filing") as filer,
        ThreadPoolExecutor(max_workers=1, thread_name_prefix="doppel-archive-units") as units,
    ):
        chunks = _Chunks(index, submissions, filer, units)
        try:
            _, failed = load_all(
                submissions,
                index.options,
                _Store(index),
                options.workers,
                _scaled(progress),
                # (what a chunk files of a document read: its stored rows and what was
                # prepared of it; its record comes back as a summary, not whole)
                job=ReadJob(index.options, extra=hand_on, records=False),
                cluster=cluster,
                each=chunks.take,
            )
            chunks.finish()
        finally:
            chunks.land()
    if progress is not None:
        progress(1.0, "Done")
    if not failed:
        index.drop_unused()  # (contents left by an add of an earlier version that was stopped)
    read = len(submissions) - len(failed)
    return AddResult(
        added=chunks.added,
        updated=chunks.updated,
        unchanged=read - chunks.added - chunks.updated,
        failed=tuple(sorted([*collected.failed, *failed], key=lambda f: str(f.path))),
        report_pages=collected.report_pages,
        info=index.info(),
    )


class _Store:
    """The document store an add reads through: what the index already holds is found there
    (not read again); what is read is handed to `_Chunks` with its new row, not kept here."""

    def __init__(self, index: ArchiveIndex) -> None:
        self.index = index

    def batch_documents(self, keys: Iterable[str]) -> dict[str, BatchDocument]:
        return self.index.batch_documents(keys)

    def document_blobs(self, keys: Iterable[str]) -> dict[str, bytes]:
        return self.index.document_blobs(keys)

    def fingerprints(self, keys: Iterable[str]) -> dict[str, DocumentFingerprints]:
        return {}

    def put_packed(self, rows: Iterable[PackedEntry]) -> None:
        return None

    def put_fingerprints(self, rows: Iterable[tuple[str, bytes]]) -> None:
        return None


def chunk_sizes(count: int) -> list[int]:
    """How many of an add's `count` files each chunk holds, in order: as many chunks as of
    ADD_CHUNK files (each chunk is a segment, and FANOUT segments are merged), the last of a
    third of that where the others can take the rest with a quarter more at most each. The
    last chunk's filing is the add's tail: no reading is left to overlap it, and one core
    waits for it. A chunk is read in about three times as long as it is filed, so the last
    third's reading covers most of the filing of the chunk before it (the add of 10,000
    files 666 documents in its tail instead of 2,000; docs/benchmarks.md)."""
    size = ADD_CHUNK
    chunks = -(-count // size)
    if chunks < 2:
        return [count] if count else []
    most = size + size // 4
    last = max(1, size // 3, count - (chunks - 1) * most)
    each, over = divmod(count - last, chunks - 1)
    return [each + 1] * over + [each] * (chunks - 1 - over) + [last]


class _Chunk:
    """Files in the order they were found (`chunk_sizes`), what was read of them so far, and
    what was handed on of them: being prepared (by cache key, a few hundred at a time), or
    not yet."""

    def __init__(self, files: Sequence[Submission]) -> None:
        self.waiting = len(files)
        self.read: list[tuple[int, Submission, LoadedDocument, str]] = []  # (+ its cache key)
        self.preparing: list[tuple[list[str], Future[list[Prepared]]]] = []
        self.handed: dict[str, HandedOn] = {}


class _Chunks:
    """The add's files in chunks (`chunk_sizes`), by the order they were found: each chunk is
    filed in one transaction (`_file`) once every file of it was read or failed, the chunks
    in order, one filing at a time (so that memory holds about two chunks' records)."""

    def __init__(
        self,
        index: ArchiveIndex,
        submissions: Sequence[Submission],
        filer: ThreadPoolExecutor,
        preparer: ThreadPoolExecutor,
    ) -> None:
        self.index = index
        self.filer = filer
        self.preparer = preparer
        self.chunks: list[_Chunk] = []
        self.place: dict[Path, tuple[int, int]] = {}  # path -> (its place, its chunk)
        begin = 0
        for size in chunk_sizes(len(submissions)):
            files = submissions[begin : begin + size]
            self.place.update((s.path, (begin + k, len(self.chunks))) for k, s in enumerate(files))
            self.chunks.append(_Chunk(files))
            begin += size
        self.next = 0  # the first chunk not handed to the filer
        self.filing: Future[tuple[int, int]] | None = None
        self.added = self.updated = 0

    def take(self, submission: Submission, outcome: LoadedDocument | FailedDocument) -> None:
        place, k = self.place[submission.path]
        chunk = self.chunks[k]
        chunk.waiting -= 1
        if isinstance(outcome, LoadedDocument):
            key = cache_key(outcome.document.content_hash, self.index.options)
            chunk.read.append((place, submission, outcome, key))
            if isinstance(outcome.extra, HandedOn):
                chunk.handed[key] = outcome.extra
                if len(chunk.handed) >= PREPARE_EVERY:
                    self._prepare(chunk)
        while self.next < len(self.chunks) and self.chunks[self.next].waiting == 0:
            self._file(self.chunks[self.next])
            self.next += 1

    def _prepare(self, chunk: _Chunk) -> None:
        """Hands what was handed on of `chunk` and not yet prepared to the preparing thread."""
        if chunk.handed:
            keys, handed = list(chunk.handed), list(chunk.handed.values())
            chunk.preparing.append((keys, self.preparer.submit(prepare_all, handed)))
            chunk.handed = {}

    def _file(self, chunk: _Chunk) -> None:
        self._prepare(chunk)  # (its last few: prepared while the chunk before lands)
        self.wait()
        chunk.read.sort(key=lambda row: row[0])
        rows = []
        entries = []
        for _, s, read, key in chunk.read:
            rows.append((s, read.document, key))
            if read.entry is not None:
                entries.append(read.entry)
        preparing, chunk.read, chunk.preparing = chunk.preparing, [], []
        self.filing = self.filer.submit(_file, self.index.path, rows, entries, preparing)

    def finish(self) -> None:
        """(Every file read.) Files what is left and waits for it: nothing, unless a file was
        handed on twice or never (then what was read is filed all the same)."""
        for chunk in self.chunks[self.next :]:
            self._file(chunk)
        self.next = len(self.chunks)
        self.wait()

    def wait(self) -> None:
        """Waits for the chunk being filed (its error, if any, raised here)."""
        if self.filing is not None:
            new, changed = self.filing.result()
            self.filing = None
            self.added, self.updated = self.added + new, self.updated + changed

    def land(self) -> None:
        """(Stopped while a chunk was being filed.) Lets it land, its error left to the one
        that stopped the add."""
        if self.filing is not None:
            self.filing.exception()


def _file(
    path: Path,
    rows: list[tuple[Submission, BatchDocument, str]],
    entries: list[PackedEntry],
    preparing: list[tuple[list[str], Future[list[Prepared]]]],
) -> tuple[int, int]:
    """(On the filing thread, with a connection of its own.) Files a chunk, once what was
    handed on of it is prepared (an error preparing it is the filing's)."""
    prepared = {
        key: ready
        for keys, part in preparing
        for key, ready in zip(keys, part.result(), strict=True)
    }
    with ArchiveIndex(path) as index:
        return index.file_members(rows, entries, prepared)


def _scaled(progress: Progress | None) -> Progress | None:
    """`progress` for the reading: load_all's 0–0.7 spread over the bar."""
    if progress is None:
        return None

    def report(fraction: float, message: str = "") -> None:
        progress(min(fraction / 0.7, 1.0) * 0.99, message)

    return report

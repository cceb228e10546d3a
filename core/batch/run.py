"""Checking a whole folder (spec §5): every pair of submissions that shares a verified block,
with exactly the pairwise SL+ST result, found without comparing every pair: only the candidate
pairs of the composite-bigram index (`core.batch.ranking`) are matched, and ranked there.

The inputs are collected by `core.batch.inputs` (no submission opened; pipes, devices, link
loops, unreadable folders and files over the size limit failed with their reason; Doppel's own
report pages left out). Files are analysed in worker processes (all cores), through the
on-disk cache; ranking keeps only each document's record (`BatchDocument`: signature and facts)
in memory, the texts stay in the cache. A worker ends when its parent does (killed or not), and
a batch stopped (cancel, Ctrl+C, SIGTERM through the command line) stops its workers and keeps
what was read in the cache. A worker that dies (the out-of-memory killer, a crash in a C library)
fails only the document that killed it: the documents in flight are read again in new pools,
halved until that one is alone (`load_all`); each worker's memory is capped (Linux) so one file
cannot take the whole computer's.

Exclusions (BatchOptions.exclusions and .templates, all off by default): the workers apply each
document's own (quotations, references, templates: `core.exclusions.apply`) and, when common
text is asked for, hand over its fingerprints (`core.batch.common_text`), from which the text
more than the chosen share of the documents hold is found in bounded memory; its sentences
then leave the records' signatures. Candidate pairs, comparisons and scores all use these
signatures. Without that exclusion the same text is still looked for (`suggest_common`), only
to say when most pairs were found for it (a pasted prompt: `core.batch.common_hint`). The
cache keeps documents without exclusions (they depend on the batch). See docs/batch.md.
"""

from __future__ import annotations

import itertools
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ALL_COMPLETED, FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

from core.batch.cache import (
    DocumentCache,
    PackedEntry,
    cache_key,
    content_hash_of,
    fingerprint_key,
    load_via_cache,
    pack_entry,
    pack_fingerprints,
    unpack_document,
)
from core.batch.cache_codec import CodecError
from core.batch.common_hint import HINT_SHARE, common_text_hint
from core.batch.common_text import (
    CommonText,
    CommonTextFinder,
    DocumentFingerprints,
    drop_sentences,
    fingerprint_document,
)
from core.batch.inputs import check_readable, collect_inputs
from core.batch.ranking import candidate_pairs, rank_key, reworded_candidates
from core.batch.result import BatchDocument, BatchResult, FailedDocument, PairResult, Submission
from core.detection.matching import match_signatures
from core.detection.passages import piece_sentences, share_inside, verified_sentences
from core.detection.reworded import (
    RewordedPassage,
    document_profile,
    find_reworded,
    without_sentences,
)
from core.documents.document import Document, load_document, with_exclusions
from core.documents.excluded_spans import normalised
from core.errors import DocumentError, LanguageError
from core.exclusions.apply import apply_exclusions
from core.options import ExclusionOptions, MatchOptions, SignatureOptions
from core.progress import Progress

if TYPE_CHECKING:
    from core.batch.cluster import Cluster

#: below this many files to parse, worker processes cost more than they save
PROCESS_THRESHOLD = 8


class DocumentStore(Protocol):
    """Where `load_all` finds documents already read and keeps those it reads: the document
    cache (`core.batch.cache.DocumentCache`), or an archive index being added to
    (`core.archive`). Keys are `cache_key`s."""

    def batch_documents(self, keys: Iterable[str]) -> dict[str, BatchDocument]: ...

    def document_blobs(self, keys: Iterable[str]) -> dict[str, bytes]: ...

    def fingerprints(self, keys: Iterable[str]) -> dict[str, DocumentFingerprints]: ...

    def put_packed(self, rows: Iterable[PackedEntry]) -> None: ...

    def put_fingerprints(self, rows: Iterable[tuple[str, bytes]]) -> None: ...


@dataclass(frozen=True)
class BatchOptions:
    signature: SignatureOptions = field(default_factory=SignatureOptions)
    match: MatchOptions = field(default_factory=MatchOptions)
    student_folders: bool = False  # a subfolder of an input is one student's submission
    all_pairs: bool = False  # compare every allowed pair (the naive loop, for checking)
    workers: int | None = None  # processes; None: one per core
    # what to leave out of scoring (all off by default; docs/batch.md): quotations, references,
    # text in more than `exclusions.common_share` of the documents, and text matching the
    # templates (the prompt, a handout: loaded Documents, never submissions themselves; a
    # template file inside an input folder is not checked as a submission)
    exclusions: ExclusionOptions = field(default_factory=ExclusionOptions)
    templates: tuple[Document, ...] = ()
    # without the common-text exclusion: still look for text more than half the submissions
    # share, and say so when most pairs were found for it (BatchResult.common_hint)
    suggest_common: bool = True
    # a Dask scheduler's address (e.g. tcp://host:8786): reading and comparing run on its
    # workers (`core.batch.cluster`; the `cluster` extra), with the same result
    scheduler: str | None = None

    def __post_init__(self) -> None:
        if self.workers is not None and self.workers < 1:
            raise ValueError(f"workers must be at least 1, not {self.workers}")


def usable_cores() -> int:
    """The processor cores this process may run on (its affinity where the system says)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # (not on macOS or Windows)
        return max(1, os.cpu_count() or 1)


def collect(
    paths: Iterable[str | Path], archives: Iterable[str | Path] = (), student_folders: bool = False
) -> list[Submission]:
    """The supported files under the inputs (recursively), each with its group. With
    `student_folders`, a file inside a subfolder of an input folder belongs to that
    subfolder's student; a loose file is its own student. (`core.batch.inputs.collect_inputs`
    also says what could not be collected, and why.)"""
    return list(collect_inputs(paths, archives, student_folders).submissions)


@dataclass(frozen=True, slots=True)
class ReadJob:
    """What every document of a batch needs besides its signature (sent to each worker once)."""

    signature: SignatureOptions
    match: MatchOptions = field(default_factory=MatchOptions)
    exclusions: ExclusionOptions = field(default_factory=ExclusionOptions)
    templates: tuple[Document, ...] = ()
    #: what else each document read needs, worked out where it is read (a module-level
    #: function of its record; an archive's add: `core.archive.prepared`), handed on with it
    extra: Callable[[BatchDocument], object] | None = None
    #: whether each record is handed back whole; False: its `BatchDocument.summary` only (a
    #: caller that keeps the stored rows and `extra`, not the record: an archive's add, for
    #: which the record is the largest part of what a worker sends)
    records: bool = True

    @property
    def per_document(self) -> bool:
        """Exclusions found in each document on its own (core.exclusions.apply)."""
        e = self.exclusions
        return e.quotations or e.references or bool(self.templates)

    @property
    def phrase_words(self) -> int:
        return self.exclusions.template_phrase_words


_READ_JOB: ReadJob | None = None  # in a worker process: set once by the pool's initializer


#: a worker's exit status when its parent is gone
_ORPHANED = 3

#: why a document is failed when reading it ended its worker process (killed by the system's
#: out-of-memory killer or its memory cap, a crash in a C library, a parser that exits)
KILLED_READER = (
    "reading it stopped the reader process (it may need more memory than this computer allows, "
    "or the file is built to crash readers)"
)
#: why a document is failed when reading it ran out of memory (a MemoryError, in a worker under
#: its cap or in the calling process)
OUT_OF_MEMORY = "reading it ran out of memory (the file may be far larger inside than on disk)"

#: each worker's address space (Linux: RLIMIT_AS) is its share of the computer's memory, within
#: these bounds. The largest document Doppel reads (10 million characters, or a 200 MiB file)
#: peaks at about 0.65 GB of address space in a worker (docs/batch.md), so the floor is three
#: times that; the cap stops a hostile file long before it takes a large computer's memory.
WORKER_MEMORY_FLOOR = 2 << 30
WORKER_MEMORY_CAP = 4 << 30


def worker_memory_ceiling(workers: int, physical: int | None = None) -> int | None:
    """The address space each of `workers` worker processes may use (bytes): its share of
    `physical` memory (the computer's when None), at least WORKER_MEMORY_FLOOR and at most
    WORKER_MEMORY_CAP. None where no cap is set: only Linux enforces RLIMIT_AS as meant (macOS
    ignores it, Windows has none)."""
    if sys.platform != "linux":
        return None
    if physical is None:
        try:
            physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError):
            physical = 0
    return min(WORKER_MEMORY_CAP, max(WORKER_MEMORY_FLOOR, physical // max(workers, 1)))


def _limit_memory(ceiling: int | None) -> None:
    """(In a worker.) Caps this process's address space at `ceiling` (never raising a lower
    limit already set): past it an allocation fails, a MemoryError that `read_submission` turns
    into a failed document, or a crash in C code that `load_all` survives."""
    if ceiling is None or sys.platform != "linux":
        return
    import resource  # (POSIX only)

    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = ceiling
        for current in (soft, hard):
            if current != resource.RLIM_INFINITY:
                limit = min(limit, current)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):
        pass  # a limit the system refuses: the worker runs without it


def _ready() -> bool:
    """(In a worker.) Nothing: answers that a new worker started."""
    return True


def _start_worker(job: ReadJob, memory_ceiling: int | None = None) -> None:
    """(The pool's initializer, in each worker.) Keeps the job, caps the worker's memory
    (`_limit_memory`), and makes the worker exit when its parent does: a batch killed (kill -9)
    or crashed must not leave workers behind, waiting for work forever. A thread waits on the
    parent's sentinel (a pipe on POSIX, the process handle on Windows) and ends the process when
    it fires. Ctrl+C is the parent's to handle: it stops the pool (`load_all`)."""
    global _READ_JOB
    _READ_JOB = job
    _limit_memory(memory_ceiling)
    parent = multiprocessing.parent_process()
    if parent is not None:
        sentinel = parent.sentinel

        def watch() -> None:
            multiprocessing.connection.wait([sentinel])
            os._exit(_ORPHANED)

        threading.Thread(target=watch, name="doppel-parent-watch", daemon=True).start()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass(frozen=True, slots=True)
class LoadedDocument:
    """What a worker hands back for a submission it read."""

    # the submission as scored: its signature with its per-document exclusions applied
    document: BatchDocument
    entry: PackedEntry | None  # a new cache row (of the document without exclusions)
    fingerprints: DocumentFingerprints | None  # for common text, when asked
    fingerprint_row: tuple[str, bytes] | None  # its cache row
    extra: object = None  # what the job's `extra` worked out for it


def read_submission(
    submission: Submission,
    options: SignatureOptions,
    key: str | None,
    blob: bytes | None = None,
    fingerprints: bool = False,
    job: ReadJob | None = None,
) -> LoadedDocument | FailedDocument:
    """(In a worker.) The submission's record as scored, its cache rows (packed here, in
    parallel) and, if asked, its common-text fingerprints; or why it could not be read —
    never an exception. `blob` is its cached row when the cache has it (then the file is not
    read again: only its exclusions or fingerprints were missing)."""
    job = job if job is not None else _READ_JOB
    path = submission.path
    try:
        document = unpack_document(blob) if blob is not None else None
        fresh = document is None
        if document is None:
            document = load_document(path, options)
    except (DocumentError, LanguageError) as error:
        return FailedDocument(path, getattr(error, "reason", str(error)))
    except MemoryError:  # (over the worker's cap, or out of memory in this process)
        return FailedDocument(path, OUT_OF_MEMORY)
    except Exception as error:  # an engine bug must not stop the batch
        return FailedDocument(path, f"could not be read because of an internal error ({error!r})")
    # (the file did not change since it was hashed: its rows may be stored under the key)
    storable = key is not None and key == cache_key(document.content_hash, options)
    try:
        entry = None
        own = None  # (the document's profile: its cache row's, and its record's when unexcluded)
        if fresh and storable and key is not None:
            own = document_profile(document)
            entry = _cache_row(lambda: pack_entry(key, document, own))
        prints = row = None
        if fingerprints and job is not None:
            prints = fingerprint_document(document, job.phrase_words)
            if storable and key is not None:
                packed = _cache_row(lambda: pack_fingerprints(prints))
                if packed is not None:
                    row = (fingerprint_key(key, job.phrase_words), packed)
        scored = document
        if job is not None and job.per_document:
            scored = apply_exclusions(document, job.exclusions, job.templates, job.match)
        profile = None
        if job is None or job.match.reworded:
            profile = own if own is not None and scored is document else document_profile(scored)
        record = BatchDocument.of(scored, submission, profile)
        extra = job.extra(record) if job is not None and job.extra is not None else None
        if job is not None and not job.records:
            record = record.summary()
    except MemoryError:
        return FailedDocument(path, OUT_OF_MEMORY)
    except Exception as error:
        return FailedDocument(
            path, f"could not be checked because of an internal error ({error!r})"
        )
    return LoadedDocument(record, entry, prints, row, extra)


T = TypeVar("T")

#: what `load_all` hands each outcome to (`each`): the submission, and what was read of it
#: (from the cache: its record alone) or why it failed
Taker = Callable[[Submission, "LoadedDocument | FailedDocument"], None]


def _cache_row(pack: Callable[[], T]) -> T | None:
    """A cache row, or None when the codec cannot store this value (it is then simply not
    cached: the check goes on)."""
    try:
        return pack()
    except CodecError:
        return None


#: fresh cache rows kept before they are written (each write is one transaction)
_SAVE_EVERY = 256
#: documents handed to the worker processes ahead of those working (each may carry its cached
#: row): enough to keep them busy, few enough that memory does not grow with the batch
_IN_FLIGHT_PER_WORKER = 8


def load_all(
    submissions: Sequence[Submission],
    options: SignatureOptions,
    cache: DocumentStore | None,
    workers: int | None,
    progress: Progress | None,
    *,
    job: ReadJob | None = None,
    finder: CommonTextFinder | None = None,
    cluster: Cluster | None = None,
    each: Taker | None = None,
) -> tuple[dict[Path, BatchDocument], list[FailedDocument]]:
    """Every submission as the batch scores it: from the cache when the file is unchanged
    (and nothing the cache lacks is needed), else analysed (in worker processes when there
    are enough, or on the `cluster`'s workers when given: `workers` is then not used) and
    added to the cache. With `job`, per-document exclusions are applied; with `finder`, each
    document's common-text fingerprints are handed to it (indexed by position in
    `submissions`), from the cache or computed with the document.

    With `each` (not with a finder), every submission's outcome is handed to it as it is
    ready (one from the cache: its record alone), and not kept: the cache is then not
    written, the dict returned is empty, and what is held at once stays bounded however many
    submissions there are (an archive's add)."""
    if each is not None and finder is not None:
        raise ValueError("load_all hands documents on to `each` only without a finder")
    job = job if job is not None else ReadJob(options)
    loaded: dict[Path, BatchDocument] = {}
    failed: list[FailedDocument] = []
    keys: dict[Path, str] = {}
    number = {s.path: k for k, s in enumerate(submissions)}
    counted = {s.path: not s.archive for s in submissions}
    known: set[str] = set()  # the keys the cache holds
    have_prints: set[Path] = set()
    unchanged: set[Path] = set()
    if cache is not None:
        for k, submission in enumerate(submissions):
            if progress is not None and k % 256 == 0:
                progress(0.1 * k / max(len(submissions), 1), "Looking for unchanged files…")
            if check_readable(submission.path) is not None:
                continue  # never hashed (a pipe, a device, too large): its load says why
            digest = content_hash_of(submission.path)
            if digest is not None:
                keys[submission.path] = cache_key(digest, options)
        # handed on: looked up a few at a time, so that no more than those are held
        step = _SAVE_EVERY if each is not None else max(len(submissions), 1)
        for start in range(0, len(submissions), step):
            part = submissions[start : start + step]
            hits = cache.batch_documents(keys[s.path] for s in part if s.path in keys)
            known.update(hits)
            if finder is not None:
                have_prints = _cached_fingerprints(cache, keys, hits, job, finder, number, counted)
            for submission in part:
                key = keys.get(submission.path)
                if (
                    key in hits
                    and not job.per_document
                    and (finder is None or submission.path in have_prints)
                ):
                    record = hits[key].for_submission(submission)  # nothing to do
                    if not job.match.reworded:
                        record = replace(record, profile=None)
                    unchanged.add(submission.path)
                    if each is not None:
                        each(submission, LoadedDocument(record, None, None, None))
                    else:
                        loaded[submission.path] = record
    todo = [s for s in submissions if s.path not in unchanged]
    fresh: list[PackedEntry] = []
    fresh_prints: list[tuple[str, bytes]] = []

    def work(
        submission: Submission,
    ) -> tuple[Submission, SignatureOptions, str | None, bytes | None, bool]:
        key = keys.get(submission.path) if cache is not None else None
        blob = None
        if cache is not None and key is not None and key in known:
            blob = cache.document_blobs([key]).get(key)  # read here, unpacked in the worker
        prints = finder is not None and submission.path not in have_prints
        return submission, options, key, blob, prints

    def take(submission: Submission, outcome: LoadedDocument | FailedDocument, done: int) -> None:
        path = submission.path
        if isinstance(outcome, FailedDocument):
            failed.append(outcome)
            if finder is not None and path in have_prints:
                finder.discard(number[path])
        if each is not None:
            each(submission, outcome)
        elif isinstance(outcome, LoadedDocument):
            loaded[path] = outcome.document
            if outcome.entry is not None:
                fresh.append(outcome.entry)
            if finder is not None:
                skip = outcome.document.signature.excluded
                if outcome.fingerprints is not None:
                    finder.add(number[path], outcome.fingerprints, counted=counted[path])
                    if outcome.fingerprint_row is not None:
                        fresh_prints.append(outcome.fingerprint_row)
                if skip:
                    finder.skip(number[path], skip)
        if progress is not None:
            progress(0.1 + 0.6 * done / max(len(todo), 1), f"Reading {path.name}")

    def save() -> None:
        if cache is not None:
            cache.put_packed(fresh)  # what was read survives a cancel or a crash
            cache.put_fingerprints(fresh_prints)
        fresh.clear()
        fresh_prints.clear()

    if cluster is not None:  # this process looks up and writes the cache; the workers read

        def take_saving(
            submission: Submission, outcome: LoadedDocument | FailedDocument, done: int
        ) -> None:
            take(submission, outcome, done)
            if len(fresh) + len(fresh_prints) >= _SAVE_EVERY:
                save()

        try:
            cluster.read(todo, work, job, take_saving)
        finally:
            save()  # what was read survives a cancel
        return loaded, failed
    cores = usable_cores()
    processes = min(workers, cores) if workers is not None else cores
    if len(todo) < PROCESS_THRESHOLD or processes <= 1:
        try:
            for done, submission in enumerate(todo, 1):
                take(submission, read_submission(*work(submission), job=job), done)
        finally:
            save()
        return loaded, failed
    # spawn, not fork: the caller may be a GUI with threads running, and it behaves the same on
    # Linux, macOS and Windows (and in the frozen app, whose entry point calls freeze_support)
    context = multiprocessing.get_context("spawn")
    ceiling = worker_memory_ceiling(processes)  # the same in every pool: the same outcomes
    finished = 0

    def run_pool(
        queue: deque[Submission], width: int, ahead: int, probe: bool = False
    ) -> list[Submission]:
        """Reads the submissions in `queue`, taking them from it, in a new pool of `width`
        workers with at most `ahead` handed to it at a time, and takes each outcome. A worker
        that dies breaks the pool and fails everything in flight in it: those are returned,
        none of them taken (the rest stay in `queue`); [] when none was lost. With
        `probe`, the worker is first asked to answer: if it cannot, the workers do not start
        at all (no document is to blame) and BrokenProcessPool is raised."""
        nonlocal finished
        with ProcessPoolExecutor(
            max_workers=width,
            mp_context=context,
            initializer=_start_worker,
            initargs=(job, ceiling),
        ) as pool:
            running: dict[Future[LoadedDocument | FailedDocument], Submission] = {}
            lost: list[Submission] = []
            broken = False
            try:
                if probe:
                    try:
                        pool.submit(_ready).result()
                    except BrokenProcessPool as error:
                        raise BrokenProcessPool(
                            "the reader processes stop before they are given a document"
                        ) from error
                while True:
                    while not broken and queue and len(running) < ahead:
                        following = queue.popleft()
                        try:
                            running[pool.submit(read_submission, *work(following))] = following
                        except BrokenProcessPool:
                            queue.appendleft(following)
                            broken = True
                    if not running:
                        break
                    # once broken, every future still in flight fails with it: collect them all
                    ended, _ = wait(
                        running, return_when=ALL_COMPLETED if broken else FIRST_COMPLETED
                    )
                    for future in ended:
                        submission = running.pop(future)
                        outcome = _outcome(future, submission)
                        if outcome is None:
                            lost.append(submission)
                            broken = True
                        else:
                            finished += 1
                            take(submission, outcome, finished)
                    if len(fresh) + len(fresh_prints) >= _SAVE_EVERY:
                        save()
            except BaseException:  # cancelled, interrupted or terminated: drop the work in flight
                workers_now = list((getattr(pool, "_processes", None) or {}).values())
                pool.shutdown(wait=False, cancel_futures=True)
                for process in workers_now:  # (Python 3.14 has pool.terminate_workers())
                    if process.is_alive():
                        process.terminate()
                raise
            finally:
                save()  # what was read survives the pool, broken or not
        return lost

    def isolate(suspects: list[Submission]) -> None:
        """Reads again the submissions that were in flight when a worker died: together, in a
        new pool; those in flight when that one breaks too are halved, and the halves read in
        pools of their own, until the document that kills its worker is alone in a one-worker
        pool, and failed when that breaks. One such document costs at most 3 + 2·⌈log2
        workers⌉ new pools (with the one that reads on after it), however large the batch."""
        nonlocal finished
        groups = [suspects]
        while groups:
            group = groups.pop()
            if len(group) == 1:
                if run_pool(deque(group), 1, 1, probe=True):
                    finished += 1
                    take(group[0], FailedDocument(group[0].path, KILLED_READER), finished)
                continue
            queue = deque(group)
            width = min(processes, len(group))
            again = run_pool(queue, width, width)  # none waiting: only the running are lost
            if queue:
                groups.append(list(queue))  # not handed out before it broke: together again
            half = (len(again) + 1) // 2
            groups.extend(part for part in (again[half:], again[:half]) if part)

    pending = deque(todo)
    while pending:  # (each pool takes or loses the first it is given: this ends)
        lost = run_pool(pending, processes, processes * _IN_FLIGHT_PER_WORKER)
        if lost:
            isolate(lost)
    return loaded, failed


def _outcome(
    future: Future[LoadedDocument | FailedDocument], submission: Submission
) -> LoadedDocument | FailedDocument | None:
    """A finished future's outcome; None if its pool broke (a worker died) before it was read."""
    try:
        return future.result()
    except BrokenProcessPool:
        return None
    except Exception as error:  # (it could not be sent to a worker, or its record back)
        return FailedDocument(
            submission.path, f"could not be read because of an internal error ({error!r})"
        )


def _cached_fingerprints(
    cache: DocumentStore,
    keys: dict[Path, str],
    hits: dict[str, BatchDocument],
    job: ReadJob,
    finder: CommonTextFinder,
    number: dict[Path, int],
    counted: dict[Path, bool],
) -> set[Path]:
    """Hands `finder` the cached fingerprints of the documents whose records are cached,
    a few hundred at a time; returns the documents they were found for."""
    found: set[Path] = set()
    paths = [path for path, key in keys.items() if key in hits]
    for start in range(0, len(paths), 500):
        wanted = {fingerprint_key(keys[p], job.phrase_words): p for p in paths[start : start + 500]}
        for row_key, prints in cache.fingerprints(wanted).items():
            path = wanted[row_key]
            if prints.phrase_words == job.phrase_words:
                finder.add(number[path], prints, counted=counted[path])
                found.add(path)
    return found


def may_pair(a: Submission, b: Submission) -> bool:
    if a.archive and b.archive:
        return False  # never archive against archive
    return a.group != b.group


def compare_pair(
    i: int, j: int, a: BatchDocument, b: BatchDocument, options: MatchOptions
) -> PairResult | None:
    """The result of documents i and j if copied text was found: SL+ST's verified blocks and,
    unless `options.reworded` is off, the reworded passages (exactly what
    `core.comparison.compare_documents` finds for the two documents)."""
    result = match_signatures(a.signature, b.signature, options)
    reworded: tuple[RewordedPassage, ...] = ()
    ranges = [piece_sentences(a.signature, b.signature, p) for p in result.pieces]
    if options.reworded and a.profile is not None and b.profile is not None:
        verified = verified_sentences(a.signature, b.signature, result.pieces)
        reworded = find_reworded(a.profile, b.profile, verified)
        ranges += [(r.a_sentences, r.b_sentences) for r in reworded]
    if not ranges:
        return None
    score = result.score
    return PairResult(
        a=i,
        b=j,
        jaccard=score.jaccard,
        coverage_a=score.coverage_a,
        coverage_b=score.coverage_b,
        verified_blocks=len(result.pieces),
        longest_block=max((p.length for p in result.pieces), default=0),
        pieces=result.pieces,
        copied_a=share_inside(a.sentence_count, a.signature.excluded, (r[0] for r in ranges)),
        copied_b=share_inside(b.sentence_count, b.signature.excluded, (r[1] for r in ranges)),
        reworded=reworded,
        strict=not options.reworded,
    )


def compare_candidates(
    candidates: Sequence[tuple[int, int]],
    documents: Sequence[BatchDocument],
    options: MatchOptions,
    progress: Progress | None = None,
    cluster: Cluster | None = None,
) -> list[PairResult]:
    """`compare_pair` of every candidate pair (indices into `documents`), the pairs with copied
    text found ranked (`rank_key`); progress runs from 0.7 to 1.0. On the `cluster`'s workers
    when given (the same pairs)."""
    if cluster is not None:
        return cluster.compare(candidates, documents, options, progress)
    pairs: list[PairResult] = []
    for k, (i, j) in enumerate(candidates):
        if progress is not None and k % 64 == 0:
            progress(0.7 + 0.3 * k / max(len(candidates), 1), "Comparing…")
        pair = compare_pair(i, j, documents[i], documents[j], options)
        if pair is not None:
            pairs.append(pair)
    pairs.sort(key=lambda p: rank_key(p, p.a, p.b))
    return pairs


def run_batch(
    paths: Iterable[str | Path],
    archives: Iterable[str | Path] = (),
    options: BatchOptions | None = None,
    *,
    cache: DocumentCache | None = None,
    progress: Progress | None = None,
) -> BatchResult:
    """Check the submissions under `paths` against each other and against `archives` (on the
    cluster at `options.scheduler` when set: connected first, so an unreachable one fails
    before anything is read; ClusterError says why)."""
    options = options or BatchOptions()
    with cluster_at(options.scheduler) as cluster:
        return _run_batch(paths, archives, options, cache, progress, cluster)


@contextmanager
def cluster_at(scheduler: str | None) -> Iterator[Cluster | None]:
    """The cluster at `scheduler`, connected (closed after), or None when there is none:
    Dask is imported only when a scheduler is named. ClusterError when it cannot be used."""
    if scheduler is None:
        yield None
        return
    from core.batch.cluster import Cluster  # (Dask, only when asked for)

    with Cluster(scheduler) as cluster:
        yield cluster


def _run_batch(
    paths: Iterable[str | Path],
    archives: Iterable[str | Path],
    options: BatchOptions,
    cache: DocumentCache | None,
    progress: Progress | None,
    cluster: Cluster | None,
) -> BatchResult:
    exclusions = options.exclusions
    collected = collect_inputs(paths, archives, options.student_folders)
    submissions = list(collected.submissions)
    if options.templates:  # a template is not a submission, even inside an input folder
        templates = {same_file(t.path) for t in options.templates}
        submissions = [s for s in submissions if same_file(s.path) not in templates]
    job = ReadJob(options.signature, options.match, exclusions, options.templates)
    leave_out = exclusions.common_share is not None
    finder = common_text_finder(options)
    try:
        loaded, failed = load_all(
            submissions,
            options.signature,
            cache,
            options.workers,
            progress,
            job=job,
            finder=finder,
            cluster=cluster,
        )
        common = None
        if finder is not None:
            if progress is not None:
                progress(0.7, "Finding text most documents share…")
            common = _common_text(finder, submissions, loaded, options.signature, cache, progress)
    finally:
        if finder is not None:
            finder.close()
    kept = [(k, s) for k, s in enumerate(submissions) if s.path in loaded]
    applied = common if leave_out else None
    documents = tuple(with_common_text(loaded[s.path], applied, k) for k, s in kept)

    def allowed(i: int, j: int) -> bool:
        return may_pair(kept[i][1], kept[j][1])

    if options.all_pairs:
        candidates = [
            (i, j) for i, j in itertools.combinations(range(len(kept)), 2) if allowed(i, j)
        ]
    else:
        found = candidate_pairs([d.signature for d in documents], allowed, options.match)
        if options.match.reworded:
            if progress is not None:
                progress(0.7, "Finding pairs that share sentences…")
            found |= reworded_candidates([d.profile for d in documents], allowed)
        candidates = sorted(found)
    pairs = compare_candidates(candidates, documents, options.match, progress, cluster)
    hint = None
    if common is not None and not leave_out:
        held = [common.dropped.get(k, ()) for k, _ in kept]
        hint = common_text_hint(documents, pairs, common, [set(h) for h in held])
    if progress is not None:
        progress(1.0, "Done")
    return BatchResult(
        documents=documents,
        failed=tuple(sorted([*collected.failed, *failed], key=lambda f: str(f.path))),
        pairs=tuple(pairs),
        compared_pairs=len(candidates),
        possible_pairs=_possible_pairs([s for _, s in kept]),
        exclusions=exclusions,
        templates=tuple(t.path for t in options.templates),
        common_text=applied.passages if applied is not None else (),
        common_counted=applied.counted if applied is not None else 0,
        match=options.match,
        common_hint=hint,
        report_pages=collected.report_pages,
    )


def common_text_finder(options: BatchOptions) -> CommonTextFinder | None:
    """What looks for the text most submissions share: at the exclusion's share when it is
    asked for (left out), else at the hint's (only looked for, `suggest_common`): found the
    same way either way; None when neither."""
    exclusions = options.exclusions
    if exclusions.common_share is not None:
        return CommonTextFinder(exclusions.common_share, exclusions.template_phrase_words)
    if options.suggest_common:
        return CommonTextFinder(HINT_SHARE, exclusions.template_phrase_words)
    return None


def same_file(path: Path) -> Path:
    try:
        return path.resolve()
    except OSError:
        return path.absolute()


def _common_text(
    finder: CommonTextFinder,
    submissions: Sequence[Submission],
    loaded: dict[Path, BatchDocument],
    options: SignatureOptions,
    cache: DocumentCache | None,
    progress: Progress | None = None,
) -> CommonText:
    """The finder's last passes (cancellable through `progress`); the few documents its
    passages are read from come from the cache (or their files)."""

    def load(index: int) -> Document | None:
        path = submissions[index].path
        try:
            return load_via_cache(path, options, cache, loaded[path].content_hash)
        except (DocumentError, LanguageError, OSError):
            return None

    archive = any(s.archive for s in submissions if s.path in loaded)

    def passes(fraction: float, message: str = "") -> None:
        if progress is not None:  # the bar waits at 0.7; may raise Cancelled
            progress(0.7, "Finding text most documents share…")

    return finder.finish(load, "new documents" if archive else "documents", passes)


def with_common_text(
    document: BatchDocument, common: CommonText | None, index: int
) -> BatchDocument:
    """The record with the common text found in it left out too."""
    if common is None or index not in common.spans:
        return document
    return replace(
        document,
        excluded=normalised((*document.excluded, *common.spans[index])),
        signature=drop_sentences(document.signature, common.dropped[index]),
        profile=(
            without_sentences(document.profile, common.dropped[index])
            if document.profile is not None
            else None
        ),
    )


def checked_document(
    doc: BatchDocument, options: SignatureOptions, cache: DocumentCache | None
) -> Document:
    """The full Document of a checked submission as the batch scored it: from the cache (or
    its file) with its exclusions applied again, so a pair's pieces point at the right
    sentences. Raises DocumentError if it cannot be read."""
    document = load_via_cache(doc.path, options, cache, doc.content_hash)
    if doc.excluded and document.content_hash == doc.content_hash:
        document = with_exclusions(document, doc.excluded)
    return document


def load_templates(
    paths: Iterable[str | Path], options: SignatureOptions, cache: DocumentCache | None = None
) -> tuple[Document, ...]:
    """Template files (the prompt, a handout) as Documents for BatchOptions.templates. Raises
    DocumentError for a file that cannot be read; a pipe, a device or a file over the size
    limit is refused before it is opened (hashing a pipe would wait forever)."""
    templates = []
    for raw in paths:
        path = Path(raw).absolute()
        reason = check_readable(path)
        if reason is not None:
            raise DocumentError(path, reason)
        templates.append(load_via_cache(path, options, cache))
    return tuple(templates)


def _possible_pairs(submissions: Sequence[Submission]) -> int:
    """How many pairs the mode allows, counted without listing them (N = 10,000 is 50 million)."""

    def pairs(n: int) -> int:
        return n * (n - 1) // 2

    archived = sum(1 for s in submissions if s.archive)
    groups: dict[str, int] = {}
    for s in submissions:
        if not s.archive:  # a group lies in one input, so it is all new or all archive
            groups[s.group] = groups.get(s.group, 0) + 1
    return pairs(len(submissions)) - pairs(archived) - sum(pairs(n) for n in groups.values())

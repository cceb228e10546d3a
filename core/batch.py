"""Checking a whole folder (spec §5): every pair of submissions that shares a verified block,
with exactly the pairwise SL+ST result, found without comparing every pair.

Two documents can only have a verified block if they share a composite bigram — the length and
key of two consecutive sentences — because a kept piece is a run of aligned sentences whose
lengths and keys agree (spec §3). An inverted index from composite bigrams to documents gives
the candidate pairs; only those are matched. Under the default short-sentence rule a piece
holds two sentences with a full key, so a bigram of two short sentences can be left out of the
index; with a minimum block of one sentence the index holds single sentences instead.

Files are analysed in worker processes (all cores), through the on-disk cache; ranking keeps
only each document's summary (signature and facts) in memory, the texts stay in the cache.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from core.batch_result import BatchDocument, BatchResult, FailedDocument, PairResult
from core.document import load_document
from core.document_cache import (
    DocumentCache,
    DocumentSummary,
    PackedEntry,
    cache_key,
    content_hash_of,
    pack_entry,
)
from core.errors import DocumentError, LanguageError
from core.extract import SUPPORTED_SUFFIXES
from core.matching import match_signatures
from core.options import MatchOptions, ShortSentenceRule, SignatureOptions
from core.signature import Signature

#: called with (fraction done, what is happening); raises core.errors.Cancelled to stop
BatchProgress = Callable[[float, str], None]

#: below this many files to parse, worker processes cost more than they save
PROCESS_THRESHOLD = 8


@dataclass(frozen=True, slots=True)
class Submission:
    path: Path
    group: str  # documents of one group are never compared with each other
    archive: bool


@dataclass(frozen=True)
class BatchOptions:
    signature: SignatureOptions = field(default_factory=SignatureOptions)
    match: MatchOptions = field(default_factory=MatchOptions)
    student_folders: bool = False  # a subfolder of an input is one student's submission
    all_pairs: bool = False  # compare every allowed pair (the naive loop, for checking)
    workers: int | None = None  # processes; None: one per core


def collect(
    paths: Iterable[str | Path], archives: Iterable[str | Path] = (), student_folders: bool = False
) -> list[Submission]:
    """The supported files under the inputs (recursively), each with its group. With
    `student_folders`, a file inside a subfolder of an input folder belongs to that
    subfolder's student; a loose file is its own student."""
    found: dict[Path, Submission] = {}
    for root_list, archive in ((paths, False), (archives, True)):
        for raw in root_list:
            root = Path(raw).absolute()
            if not root.is_dir():
                found.setdefault(root, Submission(root, str(root), archive))
                continue
            for path in sorted(root.rglob("*")):
                if not path.is_file() or path.suffix.lower() not in SUPPORTED_SUFFIXES:
                    continue
                if path.name.startswith((".", "~$")):  # hidden files, Word's lock files
                    continue
                relative = path.relative_to(root)
                group = str(path)
                if student_folders and len(relative.parts) > 1:
                    group = str(root / relative.parts[0])
                found.setdefault(path, Submission(path, group, archive))
    return list(found.values())


def _load(
    path: Path, options: SignatureOptions, key: str | None
) -> tuple[DocumentSummary, PackedEntry | None] | FailedDocument:
    """(In a worker.) The document's summary and its cache row (packed here, in parallel), or
    why it could not be read — never an exception."""
    try:
        document = load_document(path, options)
    except (DocumentError, LanguageError) as error:
        return FailedDocument(path, getattr(error, "reason", str(error)))
    except Exception as error:  # an engine bug must not stop the batch
        return FailedDocument(path, f"could not be read because of an internal error ({error!r})")
    entry = None
    if key is not None and key == cache_key(document.content_hash, options):
        entry = pack_entry(key, document)  # (the file did not change since it was hashed)
    return DocumentSummary.of(document), entry


def load_all(
    submissions: Sequence[Submission],
    options: SignatureOptions,
    cache: DocumentCache | None,
    workers: int | None,
    progress: BatchProgress | None,
) -> tuple[dict[Path, DocumentSummary], list[FailedDocument]]:
    """Every submission's summary: from the cache when the file is unchanged, else analysed
    (in worker processes when there are enough) and added to the cache."""
    summaries: dict[Path, DocumentSummary] = {}
    failed: list[FailedDocument] = []
    keys: dict[Path, str] = {}
    if cache is not None:
        for k, submission in enumerate(submissions):
            if progress is not None and k % 256 == 0:
                progress(0.1 * k / max(len(submissions), 1), "Looking for unchanged files…")
            digest = content_hash_of(submission.path)
            if digest is not None:
                keys[submission.path] = cache_key(digest, options)
        hits = cache.summaries(keys.values())
        for path, key in keys.items():
            if key in hits:
                summaries[path] = hits[key]
    todo = [s.path for s in submissions if s.path not in summaries]
    fresh: list[PackedEntry] = []

    def take(
        path: Path, outcome: tuple[DocumentSummary, PackedEntry | None] | FailedDocument, done: int
    ) -> None:
        if isinstance(outcome, FailedDocument):
            failed.append(outcome)
        else:
            summaries[path] = outcome[0]
            if outcome[1] is not None:
                fresh.append(outcome[1])
        if progress is not None:
            progress(0.1 + 0.6 * done / max(len(todo), 1), f"Reading {path.name}")

    def save() -> None:
        if cache is not None:
            cache.put_packed(fresh)  # what was read survives a cancel or a crash
        fresh.clear()

    processes = workers if workers is not None else (os.cpu_count() or 1)
    wanted = {path: keys.get(path) if cache is not None else None for path in todo}
    if len(todo) < PROCESS_THRESHOLD or processes <= 1:
        try:
            for done, path in enumerate(todo, 1):
                take(path, _load(path, options, wanted[path]), done)
        finally:
            save()
        return summaries, failed
    # spawn, not fork: the caller may be a GUI with threads running, and it behaves the same on
    # Linux, macOS and Windows (and in the frozen app, whose entry point calls freeze_support)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=processes, mp_context=context) as pool:
        futures = {pool.submit(_load, path, options, wanted[path]): path for path in todo}
        try:
            for done, future in enumerate(as_completed(futures), 1):
                take(futures[future], future.result(), done)
                if len(fresh) >= 256:
                    save()
        except BaseException:  # cancelled (or interrupted): drop the queued work
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        finally:
            save()
    return summaries, failed


def _allowed(a: Submission, b: Submission) -> bool:
    if a.archive and b.archive:
        return False  # never archive against archive
    return a.group != b.group


def candidate_pairs(
    signatures: Sequence[Signature],
    allowed: Callable[[int, int], bool],
    options: MatchOptions,
) -> set[tuple[int, int]]:
    """Pairs (i < j) sharing a composite bigram (a composite sentence, with min_block 1)."""
    key_ids: dict[tuple[str, ...], int] = {}
    full_key_only = options.short_sentences is ShortSentenceRule.FULL_KEY
    width = 1 if options.min_block < 2 else 2
    postings: dict[tuple[int, ...], list[int]] = {}
    for doc, signature in enumerate(signatures):
        codes = [key_ids.setdefault(key, len(key_ids)) for key in signature.keys]
        symbols = signature.symbols
        short = [signature.is_short(p) for p in range(len(symbols))]
        seen: set[tuple[int, ...]] = set()
        for p in range(len(symbols) - width + 1):
            if full_key_only and all(short[p : p + width]):
                continue  # a kept piece holds full-key sentences: this cannot start one
            gram = tuple(
                itertools.chain.from_iterable(
                    zip(symbols[p : p + width], codes[p : p + width], strict=True)
                )
            )
            if gram not in seen:
                seen.add(gram)
                postings.setdefault(gram, []).append(doc)
    pairs: set[tuple[int, int]] = set()
    for docs in postings.values():
        if len(docs) > 1:
            for i, j in itertools.combinations(docs, 2):
                if allowed(i, j):
                    pairs.add((i, j))
    return pairs


def compare_pair(
    i: int, j: int, a: Signature, b: Signature, options: MatchOptions
) -> PairResult | None:
    """The SL+ST result of documents i and j, if they share a verified block."""
    result = match_signatures(a, b, options)
    if not result.pieces:
        return None
    score = result.score
    return PairResult(
        a=i,
        b=j,
        jaccard=score.jaccard,
        coverage_a=score.coverage_a,
        coverage_b=score.coverage_b,
        verified_blocks=len(result.pieces),
        longest_block=max(p.length for p in result.pieces),
        pieces=result.pieces,
    )


def run_batch(
    paths: Iterable[str | Path],
    archives: Iterable[str | Path] = (),
    options: BatchOptions | None = None,
    *,
    cache: DocumentCache | None = None,
    progress: BatchProgress | None = None,
) -> BatchResult:
    """Check the submissions under `paths` against each other and against `archives`."""
    options = options or BatchOptions()
    submissions = collect(paths, archives, options.student_folders)
    loaded, failed = load_all(submissions, options.signature, cache, options.workers, progress)
    kept = [s for s in submissions if s.path in loaded]
    documents = tuple(
        BatchDocument(
            path=s.path,
            format=loaded[s.path].format,
            content_hash=loaded[s.path].content_hash,
            sentence_count=loaded[s.path].sentence_count,
            language=loaded[s.path].language,
            warnings=loaded[s.path].warnings,
            signature=loaded[s.path].signature,
            group=s.group,
            archive=s.archive,
        )
        for s in kept
    )

    def allowed(i: int, j: int) -> bool:
        return _allowed(kept[i], kept[j])

    if options.all_pairs:
        candidates = [
            (i, j) for i, j in itertools.combinations(range(len(kept)), 2) if allowed(i, j)
        ]
    else:
        candidates = sorted(
            candidate_pairs([d.signature for d in documents], allowed, options.match)
        )
    pairs: list[PairResult] = []
    for k, (i, j) in enumerate(candidates):
        if progress is not None and k % 64 == 0:
            progress(0.7 + 0.3 * k / max(len(candidates), 1), "Comparing…")
        found = compare_pair(i, j, documents[i].signature, documents[j].signature, options.match)
        if found is not None:
            pairs.append(found)
    pairs.sort(key=lambda p: (-p.jaccard, -max(p.coverage_a, p.coverage_b), p.a, p.b))
    if progress is not None:
        progress(1.0, "Done")
    return BatchResult(
        documents=documents,
        failed=tuple(sorted(failed, key=lambda f: str(f.path))),
        pairs=tuple(pairs),
        compared_pairs=len(candidates),
        possible_pairs=_possible_pairs(kept),
    )


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

"""`doppel archive check`: new submissions against the archive index and each other, never
archive against archive, with exactly the result of `doppel batch NEW... --against
ARCHIVED...` on the same files (a test holds the two equal).

How (docs/scale.md): the new documents are read as a folder check reads them (worker
processes, the document cache). Their keys (`core.archive.keys`) are looked up in the index:
the archived contents sharing a sentence key, and those whose word keys pass the length and
position filters and whose sentence shares enough stems with one of the new sentences, are the
only archived documents that can form a pair. Only their records are read. The batch's own
rules then run on the new documents and these: the common text (counted over the new
documents only, as with --against), the candidate pairs, the exact comparison of each, the
ranking. So a check reads the new documents, their keys' postings and their partners, never
the whole archive; the postings still grow with the archive, more slowly than it
(docs/benchmarks.md, "The archive index").

Per-document exclusions (quotations, references, templates) change archived documents
inside their sentences, where no key filed for them says what the changed sentence is: a
check with one of them, or with --all-pairs, reads every archived record (exact still, and
said: `ArchiveCheck.read_all`).

The result lists the new documents and the archived documents with copied text found (not
the whole archive), with the pairs' indices into that list."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from core.archive.index import ArchiveIndex, ArchiveInfo, Member
from core.archive.keys import StemOrder, sentence_keys, unit_keys, word_units
from core.archive.probes import kept
from core.archive.stem_hashing import stem_sets
from core.batch.cache import DocumentCache, load_via_cache
from core.batch.common_hint import MIN_HOLDERS, common_text_hint
from core.batch.common_text import CommonText, CommonTextFinder, fingerprint_document
from core.batch.inputs import collect_inputs
from core.batch.ranking import candidate_pairs, reworded_candidates
from core.batch.result import BatchDocument, BatchResult, PairResult, Submission
from core.batch.run import (
    BatchOptions,
    ReadJob,
    cluster_at,
    common_text_finder,
    compare_candidates,
    load_all,
    may_pair,
    same_file,
    with_common_text,
)
from core.detection.reworded import document_profile
from core.documents.document import Document
from core.errors import DocumentError, LanguageError
from core.exclusions.apply import apply_exclusions
from core.options import MatchOptions
from core.progress import Progress

if TYPE_CHECKING:
    from core.batch.cluster import Cluster


@dataclass(frozen=True, slots=True)
class ArchiveCheck:
    """A check against the archive: the batch result (new documents, and archived ones with
    copied text found), the archive it was checked against, how many archived documents the
    keys pointed to (and were compared, pair by pair, when a pair was a candidate), and
    whether every archived document had to be read (per-document exclusions, --all-pairs)."""

    result: BatchResult
    archive: ArchiveInfo
    looked_at: int
    read_all: bool


def check_against_archive(
    paths: Iterable[str | Path],
    index: ArchiveIndex,
    options: BatchOptions | None = None,
    *,
    cache: DocumentCache | None = None,
    progress: Progress | None = None,
) -> ArchiveCheck:
    """Checks the submissions under `paths` against each other and the archive `index`
    (read with the index's signature options; on the cluster at `options.scheduler` when set:
    the new documents read and the pairs compared on its workers, ClusterError when it cannot
    be used)."""
    options = options or BatchOptions()
    with cluster_at(options.scheduler) as cluster:
        return _check(paths, index, options, cache, progress, cluster)


def _check(
    paths: Iterable[str | Path],
    index: ArchiveIndex,
    options: BatchOptions,
    cache: DocumentCache | None,
    progress: Progress | None,
    cluster: Cluster | None,
) -> ArchiveCheck:
    signature = index.options
    exclusions = options.exclusions
    collected = collect_inputs(paths, (), options.student_folders)
    submissions = list(collected.submissions)
    templates = {same_file(t.path) for t in options.templates}
    if templates:
        submissions = [s for s in submissions if same_file(s.path) not in templates]
    job = ReadJob(signature, options.match, exclusions, options.templates)
    leave_out = exclusions.common_share is not None
    finder = common_text_finder(options)
    try:
        loaded, failed = load_all(
            submissions,
            signature,
            cache,
            options.workers,
            _scaled(progress, 0.0, 0.6),
            job=job,
            finder=finder,
            cluster=cluster,
        )
        kept = [s for s in submissions if s.path in loaded]
        new = [loaded[s.path] for s in kept]
        if progress is not None:
            progress(0.6, "Looking up the archive…")
        read_all = job.per_document or options.all_pairs
        records: dict[int, BatchDocument] = {}
        if read_all:
            everyone = set(range(len(new)))
            pointed: dict[int, set[int]] = {c: everyone for c in index.all_contents()}
        else:
            pointed = _candidate_contents(index, new, options.match, drops=leave_out)
        taken = {s.path for s in submissions} | set(templates)
        members = _ordered(
            m
            for m in index.members_of(pointed)
            if m.path not in taken and same_file(m.path) not in taken
        )
        archived = _archived_records(index, members, job, records)
        others = len(index) - index.count_members(taken)  # the archive this check is against
        documents = [*new, *archived]
        subjects = [*kept, *(Submission(m.path, m.group, archive=True) for m in members)]
        # the hint needs text in MIN_HOLDERS new documents: with fewer, none is looked for
        hinting = finder is not None and not leave_out and len(new) >= MIN_HOLDERS
        common = None
        if finder is not None and leave_out:
            _add_fingerprints(finder, index, members, archived, len(new), job.phrase_words)
            common = _finish(finder, documents, cache, index, members, others, progress)
        applied = common if leave_out else None
        documents = [with_common_text(d, applied, k) for k, d in enumerate(documents)]

        def allowed(i: int, j: int) -> bool:
            return may_pair(subjects[i], subjects[j])

        if progress is not None:
            progress(0.7, "Finding pairs that share sentences…")
        if options.all_pairs:
            found = {
                (i, j) for i, j in itertools.combinations(range(len(documents)), 2) if allowed(i, j)
            }
        elif read_all:  # (per-document exclusions: the batch's own candidates, over them all)
            found = _candidates(documents, allowed, options.match)
        else:  # new with new as a batch finds them; new with archived from the keys
            found = _candidates(documents[: len(new)], allowed, options.match)
            for k, member in enumerate(members, len(new)):
                found.update((i, k) for i in pointed[member.content] if allowed(i, k))
        candidates = sorted(found)
        pairs = compare_candidates(candidates, documents, options.match, progress, cluster)
        if hinting and finder is not None:  # the hint: the archived partners' text only
            partners = sorted({k for p in pairs for k in (p.a, p.b) if k >= len(new)})
            _add_fingerprints(
                finder,
                index,
                [members[k - len(new)] for k in partners],
                [archived[k - len(new)] for k in partners],
                len(new),
                job.phrase_words,
                numbers=partners,
            )
            common = _finish(finder, documents, cache, index, members, others, progress)
    finally:
        if finder is not None:
            finder.close()
    hint = None
    if common is not None and not leave_out:
        held = [set(common.dropped.get(k, ())) for k in range(len(documents))]
        hint = common_text_hint(documents, pairs, common, held)
    listed, pairs = _listed(documents, pairs, len(new))
    if progress is not None:
        progress(1.0, "Done")
    info = index.info()
    result = BatchResult(
        documents=tuple(listed),
        failed=tuple(sorted([*collected.failed, *failed], key=lambda f: str(f.path))),
        pairs=tuple(pairs),
        compared_pairs=len(candidates),
        possible_pairs=_possible_pairs(kept, others),
        exclusions=exclusions,
        templates=tuple(t.path for t in options.templates),
        common_text=applied.passages if applied is not None else (),
        common_counted=applied.counted if applied is not None else 0,
        match=options.match,
        common_hint=hint,
        report_pages=collected.report_pages,
    )
    return ArchiveCheck(result, info, len(pointed), read_all)


def _candidates(
    documents: Sequence[BatchDocument], allowed: Callable[[int, int], bool], match: MatchOptions
) -> set[tuple[int, int]]:
    """The batch's candidate pairs of `documents` (`core.batch.ranking`)."""
    found = candidate_pairs([d.signature for d in documents], allowed, match)
    if match.reworded:
        found |= reworded_candidates([d.profile for d in documents], allowed)
    return found


def _scaled(progress: Progress | None, low: float, high: float) -> Progress | None:
    """`progress` for a part of the job: load_all's 0–0.7 mapped onto low–high."""
    if progress is None:
        return None

    def report(fraction: float, message: str = "") -> None:
        progress(low + (high - low) * min(fraction / 0.7, 1.0), message)

    return report


def _candidate_contents(
    index: ArchiveIndex,
    new: Sequence[BatchDocument],
    match: MatchOptions,
    *,
    drops: bool,
) -> dict[int, set[int]]:
    """The archived contents a new document can form a pair with, each with those new
    documents (indices into `new`): the contents sharing a sentence key with one, and (with
    the reworded detector) those holding a sentence that shares enough stems with one of its
    sentences for a strong seed (`core.archive.keys`), verified on the archived sentence's
    stems alone (the units table), never on whole records."""
    found: dict[int, set[int]] = {}
    wanted: dict[int, set[int]] = {}  # sentence key -> new documents holding it
    for number, doc in enumerate(new):
        for key in sentence_keys(doc.signature).wanted(match, drops=drops):
            wanted.setdefault(key, set()).add(number)
    for key, contents in index.sentence_postings(wanted).items():
        for content in contents:
            found.setdefault(content, set()).update(wanted[key])
    if not match.reworded:
        return found
    units = [(n, stem_sets(doc.profile)) for n, doc in enumerate(new) if doc.profile is not None]
    order = index.stem_order({h for _, sets in units for stems in sets for h in stems})
    # a few new documents at a time: what is held (postings, probes) stays bounded however
    # many documents a term has
    for start in range(0, len(units), _WORD_GROUP):
        _verify_word_keys(index, units[start : start + _WORD_GROUP], order, found)
    return found


#: new documents whose word keys are looked up together
_WORD_GROUP = 8


def _verify_word_keys(
    index: ArchiveIndex,
    units: Sequence[tuple[int, list[frozenset[int]]]],
    order: StemOrder,
    found: dict[int, set[int]],
) -> None:
    """Adds to `found` the archived contents holding a sentence that shares the stems of a
    strong seed with a sentence of one of these new documents (`(number, its sentences)`)."""
    sentences = [(number, u) for number, sets in units for u in word_units(enumerate(sets), order)]
    filed = unit_keys([u for _, u in sentences], lambda keys, _: index.open_among(keys))
    probes = [(s, key) for s, keys in enumerate(filed) for key in keys]
    if not probes:
        return
    postings = index.word_postings({key.key for _, key in probes})
    met = kept([u for _, u in sentences], probes, postings)
    # (archived content, its sentence) -> (a new document, its sentence's stems, the stems
    # they must share) for each posting a probe kept
    pending: dict[tuple[int, int], list[tuple[int, frozenset[int], int]]] = {}
    stems = [frozenset(u.stems) for _, u in sentences]
    for probe, content, unit, both in zip(
        met.probe.tolist(),
        met.postings["content"].tolist(),
        met.postings["unit"].tolist(),
        met.both.tolist(),
        strict=True,
    ):
        s = probes[probe][0]
        number = sentences[s][0]
        if number not in found.get(content, ()):
            pending.setdefault((content, unit), []).append((number, stems[s], both))
    archived = index.unit_stems(pending)
    for (content, unit), checks in pending.items():
        theirs = archived.get((content, unit))
        if theirs is None:
            continue
        for number, mine, both in checks:
            if number not in found.get(content, ()) and len(mine & theirs) >= both:
                found.setdefault(content, set()).add(number)


def _ordered(members: Iterable[Member]) -> list[Member]:
    """Archived files in the order a folder check lists them (by their path's parts)."""
    return sorted(members, key=lambda m: tuple(os.path.normcase(p) for p in m.path.parts))


def _archived_records(
    index: ArchiveIndex, members: Sequence[Member], job: ReadJob, records: dict[int, BatchDocument]
) -> list[BatchDocument]:
    """Each archived file's record as the batch scores it: the stored record (with the
    per-document exclusions applied to its stored Document when they are asked for)."""
    contents = {m.content for m in members}
    if job.per_document:
        full = index.documents(contents)
        out = []
        for m in members:
            scored = apply_exclusions(full[m.content], job.exclusions, job.templates, job.match)
            profile = document_profile(scored) if job.match.reworded else None
            out.append(BatchDocument.of(scored, Submission(m.path, m.group, archive=True), profile))
        return out
    records.update(index.records(c for c in contents if c not in records))
    out = []
    for m in members:
        record = records[m.content].for_submission(Submission(m.path, m.group, archive=True))
        if not job.match.reworded:
            record = replace(record, profile=None)
        out.append(record)
    return out


def _add_fingerprints(
    finder: CommonTextFinder,
    index: ArchiveIndex,
    members: Sequence[Member],
    records: Sequence[BatchDocument],
    first: int,
    phrase_words: int,
    numbers: Sequence[int] | None = None,
) -> None:
    """Hands the finder the archived documents' fingerprints (not counted towards the share,
    as archived documents are not), numbered after the new ones."""
    full = index.documents({m.content for m in members})
    for k, (member, record) in enumerate(zip(members, records, strict=True)):
        number = numbers[k] if numbers is not None else first + k
        finder.add(number, fingerprint_document(full[member.content], phrase_words), counted=False)
        if record.signature.excluded:
            finder.skip(number, record.signature.excluded)


def _finish(
    finder: CommonTextFinder,
    documents: Sequence[BatchDocument],
    cache: DocumentCache | None,
    index: ArchiveIndex,
    members: Sequence[Member],
    archived: int,
    progress: Progress | None,
) -> CommonText:
    """The finder's last passes; the documents passages are read from come from the cache
    (or their files) for new documents, from the index for archived ones (numbered after the
    new ones)."""
    first = len(documents) - len(members)

    def load(number: int) -> Document | None:
        if number >= first:
            content = members[number - first].content
            return index.documents([content]).get(content)
        doc = documents[number]
        try:
            return load_via_cache(doc.path, index.options, cache, doc.content_hash)
        except (DocumentError, LanguageError, OSError):
            return None

    def passes(fraction: float, message: str = "") -> None:
        if progress is not None:  # may raise Cancelled
            progress(0.65, "Finding text most documents share…")

    return finder.finish(load, "new documents" if archived else "documents", passes)


def _possible_pairs(new: Sequence[Submission], archived: int) -> int:
    """The pairs the check allows, counted without listing them: every new document with
    every other student's new document and with every archived one."""
    groups: dict[str, int] = {}
    for s in new:
        groups[s.group] = groups.get(s.group, 0) + 1
    n = len(new)
    return n * (n - 1) // 2 - sum(g * (g - 1) // 2 for g in groups.values()) + n * archived


def _listed(
    documents: Sequence[BatchDocument], pairs: Sequence[PairResult], new: int
) -> tuple[list[BatchDocument], list[PairResult]]:
    """The new documents and the archived ones in a pair, the pairs' indices into them (the
    order kept, so the ranking's ties fall as before)."""
    paired = {k for p in pairs for k in (p.a, p.b)}
    keep = [k for k in range(len(documents)) if k < new or k in paired]
    number = {k: n for n, k in enumerate(keep)}
    listed = [replace(p, a=number[p.a], b=number[p.b]) for p in pairs]
    return [documents[k] for k in keep], listed

"""What a folder check produces (spec §5): the documents, the files that failed, and every pair
of documents with a verified block, ranked. Plain frozen data: the CLI prints it, the reports
render it, the GUI shows it, JSON is its faithful serialisation."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from core.batch.common_text import CommonPassage
from core.detection.reworded import RewordedPassage, WordProfile
from core.detection.verification import VerifiedBlock
from core.documents.document import Document
from core.documents.excluded_spans import ExcludedSpan, ExclusionKind
from core.documents.signature import Signature
from core.documents.tampering import Tampering
from core.options import ExclusionOptions, MatchOptions

if TYPE_CHECKING:  # (it reads this module's records)
    from core.batch.common_hint import CommonTextHint


@dataclass(frozen=True, slots=True)
class Submission:
    """A file to check, before it is read: where it is and whose it is. A different thing from
    the `BatchDocument` read from it (collecting the inputs opens no submission, and a file
    that cannot be read has no BatchDocument, only a FailedDocument)."""

    path: Path
    group: str  # the student it belongs to: its subfolder with --student-folders, else itself
    archive: bool = False  # from an archive (--against): compared with new submissions only


@dataclass(frozen=True, slots=True)
class BatchDocument:
    """A loaded submission, lightly: what ranking needs, not the text (kept in the cache). The
    one record of a batch document: workers make it, the cache stores it (beside the full
    Document; `for_submission` then sets whose it is on read), the result lists it."""

    path: Path
    format: str
    content_hash: str
    sentence_count: int
    language: str
    warnings: tuple[str, ...]
    signature: Signature
    group: str  # the student it belongs to: its subfolder with --student-folders, else itself
    archive: bool  # from an archive (--against): compared with new submissions only
    # what was left out of scoring and why (the signature above is without it); () when
    # nothing: `core.batch.run.checked_document` applies it to the full document again
    excluded: tuple[ExcludedSpan, ...] = ()
    # its sentences' content-word stems as scored, for the reworded-passage detector (None
    # when that detector is off: --strict)
    profile: WordProfile | None = None
    # disguises undone before analysis (their messages are among `warnings` too)
    tampering: tuple[Tampering, ...] = ()

    @classmethod
    def of(
        cls,
        document: Document,
        submission: Submission | None = None,
        profile: WordProfile | None = None,
    ) -> BatchDocument:
        """The record of `document` as it is scored (its signature and exclusions), for
        `submission` (without one: its own path, a group of its own, not from an archive),
        with its word `profile` when the reworded detector is on."""
        if submission is None:
            submission = Submission(document.path, str(document.path))
        return cls(
            path=submission.path,
            format=document.format,
            content_hash=document.content_hash,
            sentence_count=document.sentence_count,
            language=document.language,
            warnings=document.warnings,
            signature=document.signature,
            group=submission.group,
            archive=submission.archive,
            excluded=document.excluded,
            profile=profile,
            tampering=document.tampering,
        )

    def for_submission(self, submission: Submission) -> BatchDocument:
        """This record as `submission`'s (a cached record was stored for whichever file had
        the same content first)."""
        return replace(
            self, path=submission.path, group=submission.group, archive=submission.archive
        )

    def summary(self) -> BatchDocument:
        """This record without what a comparison reads (its signature, but for its options,
        its excluded spans and its word profile): what a caller that keeps only the stored
        rows needs of it (where it is from, its content hash, its facts)."""
        s = self.signature
        empty = Signature((), (), (), (), s.key_size, s.length_cap)
        return replace(self, signature=empty, excluded=(), profile=None)

    @property
    def excluded_sentences(self) -> int:
        """Sentences left out of scoring entirely (every word of theirs excluded)."""
        return len(self.signature.excluded)

    def excluded_counts(self) -> dict[ExclusionKind, int]:
        """Excluded spans by kind, every kind listed (COMMON spans are whole sentences)."""
        counts = dict.fromkeys(ExclusionKind, 0)
        for span in self.excluded:
            counts[span.kind] += 1
        return counts


@dataclass(frozen=True, slots=True)
class FailedDocument:
    """A file (or a folder, a link) the check could not use, and why."""

    path: Path
    error: str  # the reason, in plain words


@dataclass(frozen=True, slots=True)
class PairResult:
    """A pair with copied text found: its SL+ST result (Jaccard, coverages, verified pieces)
    and its reworded passages, with each document's copied share (both kinds)."""

    a: int  # indices into BatchResult.documents
    b: int
    jaccard: float
    coverage_a: float
    coverage_b: float
    verified_blocks: int  # kept pieces (verified blocks after splitting)
    longest_block: int  # sentences in the longest of them (0: none)
    pieces: tuple[VerifiedBlock, ...]  # signature positions, for side-by-side pages
    # share of each document's scored sentences inside a copied passage of either kind
    copied_a: float = 0.0
    copied_b: float = 0.0
    reworded: tuple[RewordedPassage, ...] = ()  # sentence indices of each document
    strict: bool = False  # found with the paper's method alone (--strict)

    @property
    def headline(self) -> float:
        """What the pair is ranked and thresholded by: the larger copied share; with --strict,
        the paper's Jaccard (as before the reworded detector)."""
        return self.jaccard if self.strict else self.copied

    @property
    def flagged(self) -> bool:
        """The verdict: copied text found (a verified block or a reworded passage)."""
        return bool(self.pieces or self.reworded)

    @property
    def reworded_passages(self) -> int:
        return len(self.reworded)

    @property
    def copied(self) -> float:
        """The larger of the two copied shares: how much of one is found in the other."""
        return max(self.copied_a, self.copied_b)


@dataclass(frozen=True, slots=True)
class BatchResult:
    documents: tuple[BatchDocument, ...]
    failed: tuple[FailedDocument, ...]
    pairs: tuple[PairResult, ...]  # ranked: core.batch.ranking.rank_key
    compared_pairs: int  # pairs the index let through to full comparison
    possible_pairs: int  # pairs the mode allows (what --all-pairs compares)
    # the exclusions asked for (all off by default) and the templates' files
    exclusions: ExclusionOptions = field(default_factory=ExclusionOptions)
    templates: tuple[Path, ...] = ()
    # with exclusions.common_share: the common text found, most documents first, and the
    # number of documents the share is of (the new submissions)
    common_text: tuple[CommonPassage, ...] = ()
    common_counted: int = 0
    # without that exclusion: text most submissions share that most pairs were found for (a
    # pasted prompt), to suggest leaving it out; None when there is none (core.batch.common_hint)
    common_hint: CommonTextHint | None = None
    # what decided the pairs (match.reworded False: --strict, the paper's method alone)
    match: MatchOptions = field(default_factory=MatchOptions)
    # Doppel's own report pages found in the input folders, left out (not submissions:
    # `core.batch.inputs`)
    report_pages: tuple[Path, ...] = ()

    @property
    def exclusions_on(self) -> bool:
        """Whether any exclusion was asked for (the report then says which)."""
        e = self.exclusions
        return bool(e.quotations or e.references or e.common_share is not None or self.templates)

"""Comparing two documents: the public entry point of the engine (spec §1-4).

A `Comparison` holds both documents, the options, and the match result; everything the CLI
prints, the GUI shows and the JSON contract carries is read from it. Exclusions (quotations,
references, templates: docs/exclusions.md) are applied to both documents when asked for; each
document then says what it left out (`Document.excluded`; in words:
`core.reports.wording.exclusion_summary`) and the comparison which exclusions were asked for."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from core.detection.matching import BlockCounts, MatchResult, match_signatures
from core.detection.passages import (
    Passage,
    PassageKind,
    build_passages,
    copied_share,
    verified_sentences,
)
from core.detection.reworded import (
    RewordedPassage,
    document_profile,
    find_reworded,
)
from core.detection.verification import BlockOutcome, VerifiedBlock
from core.documents.document import Document, harmonise_languages
from core.exclusions.apply import apply_exclusions
from core.options import ExclusionOptions, MatchOptions
from core.progress import Progress


@dataclass(frozen=True, slots=True)
class Comparison:
    a: Document
    b: Document
    options: MatchOptions
    result: MatchResult
    # the exclusions applied by compare_documents (None: none were asked for there; the
    # documents may still carry exclusions applied before, e.g. a batch's common text)
    exclusions: ExclusionOptions | None = None
    templates: tuple[str, ...] = ()  # names of the template documents used
    # the reworded passages (empty with MatchOptions.reworded off: --strict)
    reworded: tuple[RewordedPassage, ...] = ()
    # every copied passage of both kinds, by place in A (core.detection.passages)
    passages: tuple[Passage, ...] = ()

    @property
    def flagged(self) -> bool:
        """The verdict: copied text found (a verified block or a reworded passage)."""
        return bool(self.result.pieces or self.reworded)

    @property
    def copied_a(self) -> float:
        """The share of A's scored sentences inside a copied passage of either kind."""
        return copied_share(self.a, (p.a_sentences for p in self.passages))

    @property
    def copied_b(self) -> float:
        return copied_share(self.b, (p.b_sentences for p in self.passages))

    @property
    def headline(self) -> float:
        """What the pair is ranked by: the larger copied share; with the paper's method alone
        (MatchOptions.reworded off), Jaccard."""
        return max(self.copied_a, self.copied_b) if self.options.reworded else self.jaccard

    @property
    def reworded_passages(self) -> tuple[Passage, ...]:
        return tuple(p for p in self.passages if p.kind is PassageKind.REWORDED)

    @property
    def jaccard(self) -> float:
        return self.result.score.jaccard

    @property
    def coverage_a(self) -> float:
        return self.result.score.coverage_a

    @property
    def coverage_b(self) -> float:
        return self.result.score.coverage_b

    @property
    def matched_sentences(self) -> int:
        return self.result.score.matched_count

    @property
    def counts(self) -> BlockCounts:
        return self.result.counts

    @property
    def blocks(self) -> tuple[BlockOutcome, ...]:
        return self.result.blocks

    def failure_reason(self, block: BlockOutcome, offset: int) -> str:
        """Why the sentence pair at `offset` in `block` failed verification, quoting the keys."""
        i, j = block.raw.a_start + offset, block.raw.b_start + offset
        key_a = " ".join(self.a.signature.keys[i]) or "(no words)"
        key_b = " ".join(self.b.signature.keys[j]) or "(no words)"
        return f"first words differ: '{key_a}' vs '{key_b}'"

    def piece_chars(self, piece: VerifiedBlock) -> tuple[tuple[int, int], tuple[int, int]]:
        """Character spans of a verified block in A's text and in B's text."""
        return (
            self.a.chars_of(piece.a_start, piece.length),
            self.b.chars_of(piece.b_start, piece.length),
        )


def compare_documents(
    a: Document,
    b: Document,
    options: MatchOptions | None = None,
    *,
    keep_all_discarded: bool = False,
    progress: Progress | None = None,
    exclusions: ExclusionOptions | None = None,
    templates: Sequence[Document] = (),
) -> Comparison:
    """Find and verify the sentence blocks A and B share. `progress` may raise Cancelled.

    A document whose language detection was unsure is re-read in its partner's language first
    (`harmonise_languages`); the comparison holds the documents as compared. With `exclusions`
    or `templates`, both documents are scored without what those exclude
    (`core.exclusions.apply.apply_exclusions`: quotations and references as the options say,
    and text matching any template); without, the documents are compared as they come."""
    if replace(a.options, language="") != replace(b.options, language=""):
        raise ValueError("both documents must be analysed with the same signature options")
    a, b = harmonise_languages(a, b)
    options = options or MatchOptions()
    if exclusions is not None or templates:
        exclusions = exclusions or ExclusionOptions()
        a = apply_exclusions(a, exclusions, templates, options)
        b = apply_exclusions(b, exclusions, templates, options)
    result = match_signatures(
        a.signature,
        b.signature,
        options,
        keep_all_discarded=keep_all_discarded,
        progress=progress,
    )
    profile_a, profile_b = document_profile(a), document_profile(b)
    reworded: tuple[RewordedPassage, ...] = ()
    if options.reworded:
        if progress is not None:
            progress(1.0, "Looking for reworded passages…")
        verified = verified_sentences(a.signature, b.signature, result.pieces)
        reworded = find_reworded(profile_a, profile_b, verified)
    passages = build_passages(a, b, profile_a, profile_b, result.pieces, reworded)
    return Comparison(
        a,
        b,
        options,
        result,
        exclusions,
        tuple(t.name for t in templates),
        reworded,
        passages,
    )

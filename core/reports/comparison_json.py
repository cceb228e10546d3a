"""The JSON form of a comparison: a public contract (docs/json.md), changed only additively.

The verdict, the copied shares and the passages of both kinds (`flagged`, `copied_a`,
`copied_b`, `passages`, `options.reworded`) were added for reworded passages (issue 12); every
field before them keeps its name, type, meaning and value, and with `--strict` (the reworded
detector off) the passages are the verified blocks alone."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.comparison import Comparison
from core.detection.passages import Passage
from core.detection.verification import BlockOutcome
from core.documents.document import Document
from core.documents.tampering import Tampering
from core.options import ExclusionOptions

JSON_FORMAT_VERSION = 1


def document_to_json(doc: Document) -> dict[str, Any]:
    return {
        "path": str(doc.path),
        "format": doc.format,
        "sentences": doc.sentence_count,
        "signature_length": len(doc.signature),
        "too_long": len(doc.signature.too_long),
        "too_long_sentences": list(doc.signature.too_long),
        "language": doc.language,
        "content_hash": doc.content_hash,
        "warnings": list(doc.warnings),
        # the disguises among the warnings, by kind and count (core.documents.tampering)
        "tampering": tampering_to_json(doc.tampering),
        "excluded": [
            {"start": s.start, "end": s.end, "kind": s.kind.value, "detail": s.detail}
            for s in doc.excluded
        ],
        "excluded_sentences": list(doc.signature.excluded),
    }


def tampering_to_json(tampering: Iterable[Tampering]) -> list[dict[str, Any]]:
    """Each disguise undone before the check: its kind, count, detail and warning in words."""
    return [
        {"kind": t.kind, "count": t.count, "detail": t.detail, "message": t.message}
        for t in tampering
    ]


def block_to_json(comparison: Comparison, block: BlockOutcome) -> dict[str, Any]:
    pieces = []
    for piece in block.pieces:
        a_chars, b_chars = comparison.piece_chars(piece)
        pieces.append(
            {
                "a_start": piece.a_start,
                "b_start": piece.b_start,
                "length": piece.length,
                "a_chars": list(a_chars),
                "b_chars": list(b_chars),
            }
        )
    return {
        "a_start": block.raw.a_start,
        "b_start": block.raw.b_start,
        "length": block.raw.length,
        "state": block.state.value,
        "failed": list(block.failed),
        "short": list(block.short),
        "reason": block.reason,
        "pieces": pieces,
    }


def passage_to_json(passage: Passage) -> dict[str, Any]:
    """A copied passage of either kind: sentence and character ranges, both [start, end)."""
    return {
        "kind": passage.kind.value,
        "a_chars": list(passage.a_chars),
        "b_chars": list(passage.b_chars),
        "a_sentences": list(passage.a_sentences),
        "b_sentences": list(passage.b_sentences),
        "shared_words": passage.shared_words,
        "similarity": passage.similarity,
    }


def comparison_to_json(comparison: Comparison) -> dict[str, Any]:
    counts = comparison.counts
    sig_options = comparison.a.options
    return {
        "format_version": JSON_FORMAT_VERSION,
        "a": document_to_json(comparison.a),
        "b": document_to_json(comparison.b),
        # the verdict and each document's copied share (passages of both kinds)
        "flagged": comparison.flagged,
        "copied_a": comparison.copied_a,
        "copied_b": comparison.copied_b,
        # the paper's scores (SL+ST's verified blocks alone)
        "jaccard": comparison.jaccard,
        "coverage_a": comparison.coverage_a,
        "coverage_b": comparison.coverage_b,
        "matched_sentences": comparison.matched_sentences,
        "counts": {
            "raw": counts.raw,
            "verified": counts.verified,
            "split": counts.split,
            "discarded": counts.discarded,
        },
        "all_discarded_listed": comparison.result.all_discarded_listed,
        "options": {
            "remove_stopwords": sig_options.remove_stopwords,
            "length_cap": sig_options.length_cap,
            "key_size": sig_options.key_size,
            "min_block": comparison.options.min_block,
            "short_sentences": comparison.options.short_sentences.value,
            "reworded": comparison.options.reworded,
        },
        "exclusions": exclusions_to_json(comparison),
        "blocks": [block_to_json(comparison, b) for b in comparison.blocks],
        "passages": [passage_to_json(p) for p in comparison.passages],
    }


def exclusions_to_json(comparison: Comparison) -> dict[str, Any]:
    """The exclusions asked for (all off when none were)."""
    options = comparison.exclusions or ExclusionOptions()
    return {
        "quotations": options.quotations,
        "references": options.references,
        "templates": list(comparison.templates),
        "template_phrase_words": options.template_phrase_words,
    }

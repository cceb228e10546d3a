"""The exports of a folder check: its JSON (a public contract, docs/batch.md, changed only
additively) and the CSV of its ranked pairs. The command line prints or writes them; the
window's export writes the same files.

Which pairs are listed is one rule for every surface (`reaches`): a pair with copied text
found whose copied share (the larger of its two) is at or above the threshold; in the engine's
order (`core.batch.ranking.rank_key`: flagged first, then the share, then Jaccard)."""

from __future__ import annotations

import csv
import io
from typing import Any

from core.batch.clusters import reaches
from core.batch.result import BatchResult, PairResult

#: the CSV's columns, in order: the JSON's pair fields (columns are only ever added at the end)
CSV_COLUMNS = (
    "a",
    "b",
    "jaccard",
    "coverage_a",
    "coverage_b",
    "verified_blocks",
    "longest_block",
    "flagged",
    "copied_a",
    "copied_b",
    "reworded_passages",
)


def listed_pairs(result: BatchResult, threshold: float) -> list[PairResult]:
    """The pairs whose copied share is at or above `threshold` (`reaches`), ranked."""
    return [p for p in result.pairs if reaches(p, threshold)]


def exclusions_to_json(result: BatchResult) -> dict[str, Any]:
    """The exclusions asked for (all off when none were)."""
    e = result.exclusions
    return {
        "quotations": e.quotations,
        "references": e.references,
        "templates": [str(t) for t in result.templates],
        "template_phrase_words": e.template_phrase_words,
        "common_share": e.common_share,
    }


def batch_to_json(result: BatchResult, threshold: float) -> dict[str, Any]:
    """The JSON object of `result`, listing the pairs at or above `threshold`."""
    docs = result.documents
    return {
        "documents": [
            {
                "path": str(d.path),
                "format": d.format,
                "sentences": d.sentence_count,
                "language": d.language,
                "archive": d.archive,
                "warnings": list(d.warnings),
                "excluded_sentences": d.excluded_sentences,
                "excluded": {kind.value: n for kind, n in d.excluded_counts().items()},
            }
            for d in docs
        ],
        "failed": [{"path": str(f.path), "error": f.error} for f in result.failed],
        "pairs": [
            {
                "a": str(docs[p.a].path),
                "b": str(docs[p.b].path),
                "jaccard": p.jaccard,
                "coverage_a": p.coverage_a,
                "coverage_b": p.coverage_b,
                "verified_blocks": p.verified_blocks,
                "longest_block": p.longest_block,
                "flagged": p.flagged,
                "copied_a": p.copied_a,
                "copied_b": p.copied_b,
                "reworded_passages": p.reworded_passages,
            }
            for p in listed_pairs(result, threshold)
        ],
        "compared_pairs": result.compared_pairs,
        "possible_pairs": result.possible_pairs,
        "exclusions": exclusions_to_json(result),
        "options": {"reworded": result.match.reworded},
        "common_text": [
            {"text": c.text, "documents": c.documents, "words": c.words} for c in result.common_text
        ],
        "common_counted": result.common_counted,
    }


def batch_to_csv(result: BatchResult, threshold: float) -> str:
    """The pairs at or above `threshold` as CSV (CSV_COLUMNS), ranked; `flagged` is written
    as the JSON writes it, `true` or `false`."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for row in batch_to_json(result, threshold)["pairs"]:
        writer.writerow([_cell(row[column]) for column in CSV_COLUMNS])
    return out.getvalue()


def _cell(value: object) -> object:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value

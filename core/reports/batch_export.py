"""The exports of a folder check: its JSON (a public contract, docs/batch.md, changed only
additively), the CSV of its ranked pairs and, beside it, the CSV of its submissions (each with
the most of it found in one other document: `core.batch.partners.standings`), and the names of
the evidence reports exported for its pairs. The command line prints or writes them; the
window's export writes the same files.

Which pairs are listed is one rule for every surface (`reaches`): a pair with copied text
found whose copied share (the larger of its two) is at or above the threshold; in the engine's
order (`core.batch.ranking.rank_key`: flagged first, then the share, then Jaccard).

File names are written safely: a name whose bytes are not UTF-8 (Python keeps them as
surrogate escapes) is shown with U+FFFD where they were in the CSV files, the report and the
table (`display_text`), and kept exact in the JSON (escaped: `os.fsencode` of the string gives
the bytes back, so a script can reopen the file); control characters in a name are spelled
out in the table (`one_line`), and the csv module quotes them. An export is never written
into one of the check's inputs (`output_conflict`): it would overwrite a submission or be
checked as one next time."""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from core.batch.clusters import reaches
from core.batch.common_hint import CommonTextHint
from core.batch.partners import Standing, standings
from core.batch.result import BatchResult, PairResult
from core.reports.comparison_json import tampering_to_json

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

#: the submissions CSV's columns, in order (columns are only ever added at the end)
SUBMISSION_CSV_COLUMNS = (
    "path",
    "archive",
    "sentences",
    "share",
    "partner",
    "pairs",
    "disguised",  # the disguises undone before the check, in words ("" when none)
)
#: what the submissions CSV is called beside the pairs CSV: folder-check.csv ->
#: folder-check-submissions.csv
SUBMISSIONS_SUFFIX = "-submissions"


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


def common_hint_to_json(hint: CommonTextHint | None) -> dict[str, Any] | None:
    """The pasted prompt a check noticed (`core.batch.common_hint`), or None."""
    if hint is None:
        return None
    return {
        "share": hint.share,
        "counted": hint.counted,
        "pairs": hint.pairs,
        "flagged": hint.flagged,
        "passages": [
            {"text": c.text, "documents": c.documents, "words": c.words} for c in hint.passages
        ],
    }


def submission_standings(result: BatchResult) -> list[Standing]:
    """Every document of `result` with the most of it found in one other, most first (from
    every pair with copied text, whatever the threshold)."""
    return standings(len(result.documents), result.pairs)


def batch_to_json(result: BatchResult, threshold: float) -> dict[str, Any]:
    """The JSON object of `result`, listing the pairs at or above `threshold`."""
    docs = result.documents
    strongest = {row.document: row for row in submission_standings(result)}

    def partner(index: int) -> dict[str, Any] | None:
        row = strongest[index]
        if row.partner is None:
            return None
        return {"path": str(docs[row.partner].path), "share": row.share}

    return {
        "documents": [
            {
                "path": str(d.path),
                "format": d.format,
                "sentences": d.sentence_count,
                "language": d.language,
                "archive": d.archive,
                "warnings": list(d.warnings),
                "tampering": tampering_to_json(d.tampering),
                "excluded_sentences": d.excluded_sentences,
                "excluded": {kind.value: n for kind, n in d.excluded_counts().items()},
                "strongest_partner": partner(k),
                "flagged_pairs": strongest[k].pairs,
            }
            for k, d in enumerate(docs)
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
        "common_hint": common_hint_to_json(result.common_hint),
        "report_pages": [str(p) for p in result.report_pages],
    }


def batch_to_csv(result: BatchResult, threshold: float) -> str:
    """The pairs at or above `threshold` as CSV (CSV_COLUMNS), ranked; `flagged` is written
    as the JSON writes it, `true` or `false`."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for row in batch_to_json(result, threshold)["pairs"]:
        writer.writerow([_cell(row[column]) for column in CSV_COLUMNS])
    return display_text(out.getvalue())


def _cell(value: object) -> object:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def submissions_csv_path(pairs_csv: str | Path) -> Path:
    """Where the submissions CSV is written beside the pairs CSV `pairs_csv`."""
    path = Path(pairs_csv)
    return path.with_name(f"{path.stem}{SUBMISSIONS_SUFFIX}{path.suffix or '.csv'}")


def submissions_to_csv(result: BatchResult) -> str:
    """One row per submission (SUBMISSION_CSV_COLUMNS), the most found in another first:
    `share` is the most of it found in one other document (0..1, 0 when nothing is),
    `partner` that document ("" when none), `pairs` the pairs with copied text it is in."""
    docs = result.documents
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(SUBMISSION_CSV_COLUMNS)
    for row in submission_standings(result):
        doc = docs[row.document]
        writer.writerow(
            [
                str(doc.path),
                _cell(doc.archive),
                doc.sentence_count,
                row.share,
                str(docs[row.partner].path) if row.partner is not None else "",
                row.pairs,
                "; ".join(t.message for t in doc.tampering),
            ]
        )
    return display_text(out.getvalue())


_UNSAFE = re.compile(r'[\\/:*?"<>|\x00-\x1f]+')


def evidence_file_names(
    pairs: Sequence[tuple[str, str]], suffix: str, existing: Iterable[str] = ()
) -> list[str]:
    """A file name for the evidence report of each pair of documents (their display names),
    from both names: "essay-a vs essay-b.pdf"; safe on every system (no folder separators or
    characters Windows refuses), at most about 120 characters, no two the same, and none of
    the `existing` names (the files already in the folder: nothing is written over)."""
    names: list[str] = []
    taken = {name.casefold() for name in existing}
    for name_a, name_b in pairs:
        stems = [_safe_stem(name) for name in (name_a, name_b)]
        base = f"{stems[0]} vs {stems[1]}"
        candidate, number = f"{base}{suffix}", 2
        while candidate.casefold() in taken:
            candidate = f"{base} ({number}){suffix}"
            number += 1
        taken.add(candidate.casefold())
        names.append(candidate)
    return names


def _safe_stem(name: str, limit: int = 55) -> str:
    path = Path(name.replace("\\", "/"))
    stem = "-".join([*path.parent.parts, path.stem]) if path.parent.parts else path.stem
    stem = _UNSAFE.sub("-", stem).strip(" .-") or "document"
    return stem[:limit].rstrip(" .-")


# lone surrogates other than the escapes of undecodable bytes (U+DC80..U+DCFF)
_OTHER_SURROGATES = re.compile("[\ud800-\udc7f\udd00-\udfff]")
# what would break a line of the table or disguise a name: C0 and C1 controls, DEL, the line
# and paragraph separators, and the bidirectional overrides and isolates
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED_CONTROLS = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def display_text(text: str) -> str:
    """`text` as it can be shown and written in UTF-8: the bytes of a file name that are not
    UTF-8 (which Python keeps as surrogate escapes) become U+FFFD, one for each invalid
    sequence, as does any other lone surrogate. Text that is valid already is returned as is."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    text = _OTHER_SURROGATES.sub("\ufffd", text)
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def one_line(text: str) -> str:
    """`text` (a file name) for one line of a table: valid UTF-8 (`display_text`), and every
    control character spelled out ("\\n", "\\x1b", "\\u202e"), so a name cannot break a row or
    reorder what is shown."""
    return _CONTROLS.sub(_spelled, display_text(text))


def _spelled(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED_CONTROLS:
        return _NAMED_CONTROLS[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def output_conflict(output: str | Path, inputs: Iterable[str | Path]) -> str | None:
    """Why an export (a CSV file, a report folder) must not be written at `output`: it is one
    of the check's `inputs` (folders, files, templates), inside an input folder (it would
    overwrite a submission, or be checked as one next time), or holds an input (a report
    folder is replaced whole); None when it may be written there. Paths are compared after
    resolving links, and as the file system sees them where they exist (a folder named
    with other capitals on a case-insensitive disk is the same folder)."""
    target = Path(output)
    for raw in inputs:
        source = Path(raw)
        if _same(target, source):
            return f"it is one of the inputs ({source})"
        if any(_same(parent, source) for parent in _parents(target)):
            return (
                f"it is inside the input folder {source}: it could overwrite a submission, "
                "and the next check would read it as one; write it outside the inputs"
            )
        if any(_same(parent, target) for parent in _parents(source)):
            return f"it holds the input {source}; write it to a folder of its own"
    return None


def _parents(path: Path) -> list[Path]:
    return list(path.absolute().parents)


def _same(a: Path, b: Path) -> bool:
    try:
        if a.exists() and b.exists():
            return a.samefile(b)
    except OSError:
        pass
    return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))

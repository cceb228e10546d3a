"""`doppel compare A B`: the verdict and how much of each document is found in the other, the
paper's scores, the copied passages of both kinds (word for word and edited), then the blocks
with the reason for every split or discarded one; `--json` prints the comparison's JSON
contract (docs/json.md). A document that cannot be read is named on stderr with the reason,
and the exit code is 2."""

from __future__ import annotations

import argparse
import json
import sys

from app.cli.options import (
    add_engine_options,
    add_exclusion_options,
    any_exclusion,
    engine_options,
    exclusion_options,
)
from core.comparison import Comparison, compare_documents
from core.detection.verification import BlockState
from core.documents.document import Document, load_document
from core.errors import DocumentError
from core.reports.comparison_json import comparison_to_json
from core.reports.wording import (
    LEFT_OUT,
    PASSAGE_KINDS,
    comparison_left_out,
    percent,
    verdict_line,
    word_changes_text,
)

EXIT_OK = 0
EXIT_INPUT = 2
SHOWN_DISCARDED = 15  # discarded blocks listed in the readable summary without --all-discarded


def configure(compare: argparse.ArgumentParser) -> None:
    """The arguments of `doppel compare`."""
    compare.description = (
        "Compare two documents (.txt .md .docx .pdf .odt .rtf .html): say whether copied "
        "text was found and how much of each is found in the other, then show the passages "
        "they share, word for word (sentence blocks verified by the first words of each "
        "sentence) and edited (reworded passages; --strict leaves them out)."
    )
    compare.add_argument("a", metavar="A", help="first document")
    compare.add_argument("b", metavar="B", help="second document")
    compare.add_argument("--json", action="store_true", help="print one JSON object (docs/json.md)")
    compare.add_argument(
        "--all-discarded",
        action="store_true",
        help="list every discarded block, not only those worth reading",
    )
    add_engine_options(compare)
    add_exclusion_options(compare)


def _first_words(doc: Document, position: int, words: int = 8) -> str:
    sentence = doc.sentences[doc.signature.sentence_indices[position]]
    tokens = doc.text[sentence.start : sentence.end].split()
    snippet = " ".join(tokens[:words])
    return snippet + (" …" if len(tokens) > words else "")


def _numbers(sentences: tuple[int, int]) -> str:
    """Sentences [first, end) (0-based indices) as a teacher counts them: "5–6", "7"."""
    first, last = sentences[0] + 1, sentences[1]
    return str(first) if first == last else f"{first}–{last}"


def format_passages(c: Comparison) -> list[str]:
    """The copied passages of both kinds, in the order of A, with what changed."""
    lines = [
        "Passages, in the order of A (sentence numbers count from 1):",
        f"{'#':>3}  {'kind':<13}  {'A':>7}  {'B':>7}  what changed",
    ]
    for number, passage in enumerate(c.passages, start=1):
        lines.append(
            f"{number:>3}  {PASSAGE_KINDS[passage.kind]:<13}  "
            f"{_numbers(passage.a_sentences):>7}  {_numbers(passage.b_sentences):>7}  "
            f"{word_changes_text(passage.changes)}"
        )
    lines.append("")
    return lines


def format_summary(c: Comparison, all_discarded: bool = False) -> str:
    lines = []
    left_out = comparison_left_out(c)
    for label, doc in (("A", c.a), ("B", c.b)):
        lines.append(
            f"{label}: {doc.path} ({doc.format}, {doc.language}, {doc.sentence_count} sentences, "
            f"{len(doc.signature.too_long)} too long to use)"
        )
        lines.extend(f"   disguised: {t.message}" for t in doc.tampering)
        lines.extend(f"   note: {w}" for w in doc.load_warnings + doc.analysis_warnings)
        if left_out is not None:
            found = left_out.a if label == "A" else left_out.b
            lines.extend(f"   excluded: {line}" for line in found)
    if left_out is not None and left_out.asked:
        lines.append(f"{LEFT_OUT}: {'; '.join(left_out.asked)}")
    counts = c.counts
    strict = not c.options.reworded  # --strict: the paper's method, in today's words
    if not strict:
        lines += [
            "",
            verdict_line(c.flagged, c.copied_a, c.copied_b, (p.kind for p in c.passages)),
            "",
            "The paper's scores (verified blocks only):",
        ]
    else:
        lines.append("")
    coverage_a, coverage_b = (
        ("A found in B", "B found in A") if strict else ("Coverage of A", "Coverage of B")
    )
    note = "" if strict else "   (its sentences matched in B)"
    lines += [
        f"Jaccard similarity  {percent(c.jaccard)}   "
        f"({c.matched_sentences} matched sentences of {len(c.a.signature)} in A "
        f"and {len(c.b.signature)} in B)",
        f"{coverage_a:<20}{percent(c.coverage_a)}{note}",
        f"{coverage_b:<20}{percent(c.coverage_b)}",
        f"Blocks              {counts.raw} with equal sentence lengths: "
        f"{counts.verified} verified, {counts.split} split, {counts.discarded} discarded",
        "",
    ]
    # the longest discarded blocks are the ones worth a look
    discarded = sorted(
        (b for b in c.blocks if b.state is BlockState.DISCARDED), key=lambda b: -b.raw.length
    )
    shown = [b for b in c.blocks if b.state is not BlockState.DISCARDED]
    limit = len(discarded) if all_discarded else SHOWN_DISCARDED
    shown += discarded[:limit]
    shown.sort(key=lambda b: (b.raw.a_start, b.raw.b_start))
    unusable = [
        doc.name
        for doc in (c.a, c.b)
        if doc.sentence_count and len(doc.signature.too_long) > 0.5 * doc.sentence_count
    ]
    if unusable:
        lines.append(
            f"Most sentences of {' and '.join(unusable)} are too long to compare "
            "(over 35 words); try --no-length-cap."
        )
    if c.passages and not strict:
        lines += format_passages(c)
    if counts.verified + counts.split == 0:
        lines.append(
            "No verified blocks: the copied text found is edited (the passages above)."
            if c.flagged
            else "No verified blocks: nothing suggests copying."
        )
    if shown:
        if not strict:
            lines.append("Blocks (positions in the signature, counted from 0):")
        lines.append(f"{'A pos':>6} {'B pos':>6} {'len':>4}  {'state':<9}  first words (A)")
    indent = " " * 30
    for block in shown:
        raw = block.raw
        lines.append(
            f"{raw.a_start:>6} {raw.b_start:>6} {raw.length:>4}  {block.state.value:<9}  "
            f"{_first_words(c.a, raw.a_start)}"
        )
        if block.state is BlockState.VERIFIED:
            continue
        lines.append(indent + block.reason)
        if block.state is BlockState.SPLIT:
            lines.extend(
                f"{indent}A {raw.a_start + k} / B {raw.b_start + k}: {c.failure_reason(block, k)}"
                for k in block.failed
            )
    hidden = counts.discarded - min(limit, len(discarded))
    if hidden > 0:
        lines.append(
            f"… and {hidden} more discarded blocks: sentence lengths that agree by chance "
            "(--all-discarded lists them)"
        )
    return "\n".join(lines)


def compared(args: argparse.Namespace, keep_all_discarded: bool = False) -> Comparison | None:
    """The comparison the arguments ask for (`compare`'s and `report`'s A, B, engine options
    and exclusions), or None after naming on stderr each document that cannot be read."""
    signature_options, match_options = engine_options(args)
    exclusions = exclusion_options(args)
    docs = []
    failed = False
    for path in (args.a, args.b, *args.template):
        try:
            docs.append(load_document(path, signature_options))
        except DocumentError as error:  # the path as typed: two inputs may share a file name
            print(f"doppel: {error.path}: {error.reason}", file=sys.stderr)
            failed = True
    if failed:
        return None
    return compare_documents(
        docs[0],
        docs[1],
        match_options,
        keep_all_discarded=keep_all_discarded,
        exclusions=exclusions if any_exclusion(exclusions, args) else None,
        templates=docs[2:],
    )


def run(args: argparse.Namespace) -> int:
    comparison = compared(args, args.all_discarded)
    if comparison is None:
        return EXIT_INPUT
    if args.json:
        print(json.dumps(comparison_to_json(comparison)))
    else:
        print(format_summary(comparison, args.all_discarded))
    return EXIT_OK

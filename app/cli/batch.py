"""`doppel batch`: check folders of submissions against each other (and earlier years).

Prints a ranked table of the pairs with copied text found (verified blocks, word for word, or
reworded passages, edited), most copied first; with more than two documents, each submission
with the most of it found in one other document; the files that failed; and, when most pairs
share one passage most of the class holds (a pasted prompt), a hint to leave it out.
`--json` prints one object instead, `--csv FILE` (with FILE-submissions.csv beside it) and
`--html DIR` write exports (atomically). Exclusions (all off by default) leave quotations,
references, template text and text most submissions share out of scoring; the outputs say what
was left out and why. With `--strict` the table is the paper's, as before reworded passages
(a test holds it to the earlier output): no submissions, no hint.

Outputs are never written into the inputs (`--html`/`--csv` inside an input folder, or over a
submission, are refused, exit 2, before anything is read); `--jobs` is checked (at least 1,
capped at the cores, said on stderr); `--scheduler ADDRESS` reads and compares on a Dask
cluster's workers instead (`core.batch.cluster`; a cluster that cannot be used is said, exit
2); SIGTERM stops the batch as Ctrl+C does (the workers stopped, what was read kept in the
cache) and exits 143."""

from __future__ import annotations

import argparse
import dataclasses
import json
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from app.cli.options import (
    UsageError,
    add_cluster_option,
    add_engine_options,
    add_exclusion_options,
    engine_options,
    exclusion_options,
    scheduler_address,
)
from app.cli.progress import TerminalProgress
from core.atomic import write_atomic
from core.batch.cache import CacheRefused, DocumentCache
from core.batch.cluster import ClusterError
from core.batch.result import BatchDocument, BatchResult, PairResult
from core.batch.run import (
    BatchOptions,
    checked_document,
    load_templates,
    run_batch,
    usable_cores,
)
from core.documents.document import Document
from core.errors import DocumentError
from core.reports.batch_export import (
    batch_to_csv,
    batch_to_json,
    listed_pairs,
    one_line,
    output_conflict,
    submission_standings,
    submissions_csv_path,
    submissions_to_csv,
)
from core.reports.html import display_names, report_folder_problem
from core.reports.wording import (
    NOTHING_FOUND_IN_ANOTHER,
    common_hint_text,
    exclusion_lines,
    percent,
    plural,
    share_text,
)


def configure(batch: argparse.ArgumentParser) -> None:
    """The arguments of `doppel batch`; the engine and exclusion options are `compare`'s own,
    plus --exclude-common."""
    batch.description = (
        "Check every pair of submissions under the given folders and files, and against "
        "earlier years with --against; only pairs with copied text found (verified blocks, "
        "word for word, or reworded passages, edited) are listed, the most copied first."
    )
    batch.add_argument(
        "paths", nargs="+", metavar="PATH", help="folders (searched recursively) and files"
    )
    batch.add_argument(
        "--against",
        nargs="+",
        default=[],
        metavar="ARCHIVE",
        help="archive folders: compared with the new submissions, never with each other",
    )
    batch.add_argument(
        "--student-folders",
        action="store_true",
        help="each subfolder of an input is one student's submission: its files are not "
        "compared with each other",
    )
    batch.add_argument(
        "--threshold",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="list only pairs where at least SHARE (0-1) of one document is found in the other "
        "(the copied share, the larger of the two); the report writes pages for these pairs "
        "[default: %(default)s: every pair with copied text found]",
    )
    output = batch.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object")
    output.add_argument(
        "--csv",
        metavar="FILE",
        help="write the ranked pairs as CSV, and each submission's largest share found in "
        "another to FILE-submissions.csv beside it",
    )
    batch.add_argument("--html", metavar="DIR", help="write a self-contained HTML report")
    batch.add_argument(
        "--all-pairs",
        action="store_true",
        help="compare every pair (slow; the same result, for checking the index)",
    )
    batch.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="worker processes, at least 1 and at most the cores [default: one per core]",
    )
    batch.add_argument(
        "--no-cache", action="store_true", help="do not read or write the document cache"
    )
    batch.add_argument("--cache", metavar="FILE", help="the cache file [default: platform cache]")
    add_cluster_option(batch)
    add_exclusion_options(batch, common=True)
    add_engine_options(batch)


#: what the table's columns are, said under it
TABLE_KEY = (
    "A in B, B in A: how much of each document is found in the other (its sentences inside "
    "passages word for word or edited); copied: the larger, which ranks the pairs.",
    "Jaccard: the paper's score (verified blocks only). blocks: verified blocks (word for "
    "word); longest: the longest of them, in sentences; edited: reworded passages.",
)
#: the heading of the submissions (more than two documents)
SUBMISSIONS_HEADING = "Each submission, with the most of it found in one other document:"


def write_exports(
    args: argparse.Namespace,
    result: BatchResult,
    load_document: Callable[[BatchDocument], Document],
) -> bool:
    """--csv and --html (`load_document`: a checked document's whole Document, for the
    report's pair pages); False (said on stderr) when one cannot be written."""
    from core.reports.html import write_html_report

    what = "the CSV file"
    try:
        if args.csv:
            write_atomic(args.csv, batch_to_csv(result, args.threshold))
            write_atomic(submissions_csv_path(args.csv), submissions_to_csv(result))
        if args.html:
            what = "the report"
            index = write_html_report(
                result, Path(args.html), threshold=args.threshold, load_document=load_document
            )
            if not args.json:
                print(f"\nReport: {index}")
    except OSError as error:
        where = f" ({error.filename})" if getattr(error, "filename", None) else ""
        print(
            f"doppel: {what} could not be written: {error.strerror or error}{where}",
            file=sys.stderr,
        )
        return False
    return True


def _strict_rows(result: BatchResult, pairs: list[PairResult], threshold: float) -> list[str]:
    """The table of the paper's method alone (--strict), as it was before reworded passages:
    ranked and thresholded by Jaccard."""
    docs = result.documents
    if not pairs:
        return [
            "No pair shares a verified block"
            + (f" at Jaccard ≥ {threshold}" if threshold else "")
            + "."
        ]
    rows = [f"{'Jaccard':>8} {'A in B':>7} {'B in A':>7} {'blocks':>6} {'longest':>7}  A  ↔  B"]
    rows += [
        f"{percent(p.jaccard):>8} {percent(p.coverage_a):>7} {percent(p.coverage_b):>7} "
        f"{p.verified_blocks:>6} {p.longest_block:>7}  {one_line(docs[p.a].path.name)}  ↔  "
        f"{one_line(docs[p.b].path.name)}"
        for p in pairs
    ]
    return rows


def format_table(result: BatchResult, threshold: float) -> str:
    docs = result.documents
    pairs = listed_pairs(result, threshold)
    lines = [
        f"{len(docs)} documents, {len(result.failed)} failed; "
        f"{result.compared_pairs} of {result.possible_pairs} pairs needed a full comparison",
        "",
    ]
    if not result.match.reworded:  # --strict: the paper's method, in today's words
        lines += _strict_rows(result, pairs, threshold)
    elif pairs:
        lines.append(
            f"{'copied':>7} {'A in B':>7} {'B in A':>7} {'Jaccard':>8} {'blocks':>6} "
            f"{'edited':>6} {'longest':>7}  A  ↔  B"
        )
        for p in pairs:
            lines.append(
                f"{percent(p.copied):>7} {percent(p.copied_a):>7} {percent(p.copied_b):>7} "
                f"{percent(p.jaccard):>8} {p.verified_blocks:>6} {p.reworded_passages:>6} "
                f"{p.longest_block:>7}  {one_line(docs[p.a].path.name)}  ↔  "
                f"{one_line(docs[p.b].path.name)}"
            )
        lines += ["", *TABLE_KEY]
        if len(docs) > 2:
            lines += ["", *submission_lines(result, threshold)]
    else:
        lines.append(
            "No copied text found in any pair"
            + (f" with a copied share of {share_text(threshold)} or more" if threshold else "")
            + "."
        )
    if result.failed:
        lines += ["", "Could not be read:"]
        lines += [f"  {one_line(str(f.path))}: {one_line(f.error)}" for f in result.failed]
    disguised = [d for d in docs if d.tampering]
    if disguised:
        lines += ["", "Disguised to hide copying (undone before the check):"]
        lines += [f"  {one_line(str(d.path))}: {t.message}" for d in disguised for t in d.tampering]
    if result.report_pages:
        lines += ["", report_pages_line(result)]
    if result.exclusions_on:
        lines += ["", *exclusion_lines(result)]
    if result.common_hint is not None:
        lines += ["", hint_line(result)]
    return "\n".join(lines)


def submission_lines(result: BatchResult, threshold: float) -> list[str]:
    """Each submission with the most of it found in one other document, most first: those
    with some found (at or above `threshold`), then how many others there are."""
    names = display_names(result)
    rows = submission_standings(result)
    shown = [r for r in rows if r.partner is not None and r.share >= threshold]
    lines = [SUBMISSIONS_HEADING]
    lines += [
        f"{percent(r.share):>7}  {one_line(names[r.document])}  in  {one_line(names[r.partner])}"
        for r in shown
        if r.partner is not None
    ]
    rest = len(rows) - len(shown)
    if rest:
        what = (
            f"less than {share_text(threshold)} found in another"
            if threshold > 0
            else NOTHING_FOUND_IN_ANOTHER
        )
        lines.append(f"{'':>7}  {plural(rest, 'other submission')}: {what}")
    return lines


def report_pages_line(result: BatchResult, shown: int = 3) -> str:
    """How many of Doppel's own report pages the inputs held, left out, and where."""
    pages = result.report_pages
    folders = list(dict.fromkeys(str(page.parent) for page in pages))
    where = ", ".join(one_line(f) for f in folders[:shown])
    if len(folders) > shown:
        where += f" and {plural(len(folders) - shown, 'other folder')}"
    return (
        f"{plural(len(pages), 'Doppel report page')} left out (pages Doppel wrote, not "
        f"submissions), in {where}"
    )


def hint_line(result: BatchResult) -> str:
    """The pasted prompt the check noticed, and the option that leaves it out."""
    hint = result.common_hint
    assert hint is not None
    return (
        f"hint: {common_hint_text(hint)} To leave out text common to the class: "
        f"--exclude-common {hint.share:g}"
    )


#: the exit status after SIGTERM (128 + the signal's number, as a shell reports it)
EXIT_TERMINATED = 128 + signal.SIGTERM
EXIT_INPUT = 2


class Terminated(BaseException):
    """SIGTERM, raised in the main thread: the batch stops as after Ctrl+C (its worker
    processes stopped, what was read saved in the cache)."""


def run(args: argparse.Namespace) -> int:
    """`doppel batch`, with SIGTERM turned into a clean stop (exit 143)."""
    if threading.current_thread() is not threading.main_thread():
        return _check(args)  # (signal handlers belong to the main thread)

    def terminate(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once: let the stop finish
        raise Terminated

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        return _check(args)
    except Terminated:
        print("doppel: terminated", file=sys.stderr)
        return EXIT_TERMINATED
    finally:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)


def _workers(jobs: int | None) -> int | None:
    """--jobs, checked: at least 1 (UsageError), at most the cores (said on stderr)."""
    if jobs is None:
        return None
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1 (one worker process), not {jobs}")
    cores = usable_cores()
    if jobs > cores:
        print(
            f"doppel: --jobs {jobs} is more than the {plural(cores, 'core')} this computer "
            f"gives it: using {cores}",
            file=sys.stderr,
        )
        return cores
    return jobs


def output_problem(args: argparse.Namespace) -> str | None:
    """Why the exports asked for cannot be written where asked (an input folder, over an
    input, a folder that is no Doppel report), or None."""
    inputs = [*args.paths, *args.against, *args.template]
    if not args.no_cache and args.cache:
        inputs.append(args.cache)
    outputs: list[tuple[str, Path]] = []
    if args.csv:
        outputs += [("--csv", Path(args.csv)), ("--csv", submissions_csv_path(args.csv))]
    if args.html:
        outputs.append(("--html", Path(args.html)))
    for option, output in outputs:
        problem = output_conflict(output, inputs)
        if problem is not None:
            return f"{option} {output}: {problem}"
    if args.html:
        problem = report_folder_problem(args.html)
        if problem is not None:
            return f"--html {args.html}: {problem}"
        if args.csv and output_conflict(args.csv, [args.html]) is not None:
            return (
                f"--csv {args.csv}: it is inside the report folder {args.html}, which the "
                "report replaces whole; write it elsewhere"
            )
    return None


def _check(args: argparse.Namespace) -> int:
    if not 0.0 <= args.threshold <= 1.0:
        raise UsageError("--threshold must be between 0 and 1")
    args.jobs = _workers(args.jobs)
    problem = output_problem(args)
    if problem is not None:
        print(f"doppel: {problem}", file=sys.stderr)
        return EXIT_INPUT
    signature_options, match_options = engine_options(args)
    exclusions = exclusion_options(args)
    options = BatchOptions(
        signature=signature_options,
        match=match_options,
        student_folders=args.student_folders,
        all_pairs=args.all_pairs,
        workers=args.jobs,
        suggest_common=not args.strict,  # --strict prints exactly what it printed before
        scheduler=scheduler_address(args),
    )

    progress = TerminalProgress()

    def cache_notice(notice: str) -> None:  # the cache cannot be used or written: say why
        if sys.stderr is not None:
            progress.clear()
            print(f"doppel: {notice}", file=sys.stderr)

    try:
        cache = None if args.no_cache else DocumentCache(args.cache, notify=cache_notice)
    except CacheRefused as error:  # not Doppel's cache: left as it was
        print(f"doppel: {error}", file=sys.stderr)
        return EXIT_INPUT
    try:
        templates = load_templates(args.template, options.signature, cache)
    except DocumentError as error:
        print(f"doppel: the template {error.path}: {error.reason}", file=sys.stderr)
        if cache is not None:
            cache.close()
        return 2
    options = dataclasses.replace(options, exclusions=exclusions, templates=templates)

    try:
        result = run_batch(args.paths, args.against, options, cache=cache, progress=progress)
    except ClusterError as error:  # --scheduler: the cluster cannot be used, said why
        print(f"doppel: {error}", file=sys.stderr)
        if cache is not None:
            cache.close()
        return EXIT_INPUT
    finally:
        progress.clear()
    if args.json:
        print(json.dumps(batch_to_json(result, args.threshold)))
    else:
        print(format_table(result, args.threshold))
    written = write_exports(
        args, result, lambda doc: checked_document(doc, options.signature, cache)
    )
    if cache is not None:
        cache.close()
    return 0 if written else EXIT_INPUT

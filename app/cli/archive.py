"""`doppel archive`: earlier years' submissions in a persistent index, and checks against it.

    doppel archive add PATH... [--index FILE] [--student-folders] [--jobs N] [--json]
    doppel archive check PATH... [--index FILE] [--json | --csv FILE] [--html DIR] [...]
    doppel archive list [PATH] [--index FILE] [--json]
    doppel archive remove PATH... [--index FILE]
    doppel archive info [--index FILE] [--json]

`add` and `check` run on a Dask cluster's workers with `--scheduler ADDRESS` (docs/scale.md).
`check` takes `doppel batch`'s options and prints its table, JSON (with an `archive` object
added), CSV and HTML report: its result is exactly `doppel batch PATH... --against` the
archived files. The index is the platform's data folder's unless `--index` names one
(core/archive/index_file.py; docs/scale.md). An index that is not one, damaged or of another
format is refused in words (exit 2) and left as it was."""

from __future__ import annotations

import argparse
import dataclasses
import json
import signal
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

from app.cli.batch import (
    EXIT_INPUT,
    EXIT_TERMINATED,
    Terminated,
    _workers,
    format_table,
    output_problem,
    write_exports,
)
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
from core import ENGINE_VERSION
from core.archive.add import AddResult, add_to_archive
from core.archive.check import ArchiveCheck, check_against_archive
from core.archive.index import ArchiveIndex, ArchiveInfo, describe_options
from core.archive.index_file import ArchiveError, default_index_path
from core.batch.cache import CacheRefused, DocumentCache
from core.batch.result import BatchDocument
from core.batch.run import BatchOptions, checked_document, load_templates
from core.documents.document import Document, with_exclusions
from core.errors import DocumentError
from core.options import SignatureOptions
from core.reports.batch_export import (
    batch_to_json,
    one_line,
)
from core.reports.wording import archive_summary, plural


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Keep earlier years' submissions in an archive index (one file), and check new "
        "submissions against it: only what the new documents share with the archive is read, "
        "so a check takes about as long against 30,000 archived documents as against 1,000."
    )
    actions = parser.add_subparsers(dest="archive_command", required=True, metavar="ACTION")
    add = actions.add_parser("add", help="add documents (folders recursively) to the archive")
    add.add_argument("paths", nargs="+", metavar="PATH", help="folders and files to archive")
    _index_option(add)
    add.add_argument(
        "--student-folders",
        action="store_true",
        help="each subfolder of an input is one student's submission (kept with its files)",
    )
    _jobs_option(add)
    add_cluster_option(add)
    add.add_argument("--json", action="store_true", help="print one JSON object")
    add_engine_options(add, reading_only=True)
    add.set_defaults(command_parser=add)

    check = actions.add_parser(
        "check", help="check new submissions against each other and the archive"
    )
    check.add_argument("paths", nargs="+", metavar="PATH", help="folders and files to check")
    _index_option(check)
    check.add_argument(
        "--student-folders",
        action="store_true",
        help="each subfolder of an input is one student's submission: its files are not "
        "compared with each other (as batch)",
    )
    check.add_argument(
        "--threshold",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="list only pairs where at least SHARE (0-1) of one document is found in the other",
    )
    output = check.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object")
    output.add_argument("--csv", metavar="FILE", help="write the ranked pairs as CSV")
    check.add_argument("--html", metavar="DIR", help="write a self-contained HTML report")
    check.add_argument(
        "--all-pairs",
        action="store_true",
        help="compare every new document with every archived one (slow; the same result)",
    )
    _jobs_option(check)
    check.add_argument(
        "--no-cache", action="store_true", help="do not read or write the document cache"
    )
    check.add_argument("--cache", metavar="FILE", help="the cache file [default: platform cache]")
    add_cluster_option(check)
    add_exclusion_options(check, common=True)
    add_engine_options(check)
    check.set_defaults(command_parser=check, against=[])

    listing = actions.add_parser("list", help="list the archived documents")
    listing.add_argument("under", nargs="?", metavar="PATH", help="only those under PATH")
    _index_option(listing)
    listing.add_argument("--json", action="store_true", help="print one JSON object")
    listing.set_defaults(command_parser=listing)

    remove = actions.add_parser("remove", help="remove documents (or folders) from the archive")
    remove.add_argument("paths", nargs="+", metavar="PATH", help="archived files or folders")
    _index_option(remove)
    remove.set_defaults(command_parser=remove)

    info = actions.add_parser("info", help="what the archive holds, and its size")
    _index_option(info)
    info.add_argument("--json", action="store_true", help="print one JSON object")
    info.set_defaults(command_parser=info)


def _index_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--index",
        metavar="FILE",
        help=f"the archive index file [default: {default_index_path()}]",
    )


def _jobs_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="worker processes, at least 1 and at most the cores [default: one per core]",
    )


def run(args: argparse.Namespace) -> int:
    """`doppel archive ACTION`, with SIGTERM a clean stop (exit 143) as for `doppel batch`."""
    action: Callable[[argparse.Namespace], int] = {
        "add": _add,
        "check": _check,
        "list": _list,
        "remove": _remove,
        "info": _info,
    }[args.archive_command]
    if threading.current_thread() is not threading.main_thread():
        return _guarded(action, args)

    def terminate(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise Terminated

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        return _guarded(action, args)
    except Terminated:
        print("doppel: terminated", file=sys.stderr)
        return EXIT_TERMINATED
    finally:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)


def _guarded(action: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    try:
        return action(args)
    except ArchiveError as error:
        print(f"doppel: {error}", file=sys.stderr)
        return EXIT_INPUT


def _asked_signature(args: argparse.Namespace) -> SignatureOptions | None:
    """The signature options the flags ask for, or None when they are the defaults (then
    the index's own are used)."""
    signature, _ = engine_options(args)
    return None if signature == SignatureOptions() else signature


def _open(args: argparse.Namespace, *, create: bool = False) -> ArchiveIndex:
    asked = _asked_signature(args) if hasattr(args, "lang") else None
    index = ArchiveIndex(args.index, create=create, options=asked)
    if asked is not None and asked != index.options:
        index.close()
        raise ArchiveError(
            index.path,
            f"it was made with {describe_options(index.options)}, and a check or an add "
            "must use the same signature options (leave them out to use the index's)",
        )
    return index


# --- add ------------------------------------------------------------------------------------


def _add(args: argparse.Namespace) -> int:
    workers = _workers(args.jobs)
    options = BatchOptions(
        student_folders=args.student_folders, workers=workers, scheduler=scheduler_address(args)
    )
    progress = TerminalProgress()
    with _open(args, create=True) as index:
        try:
            result = add_to_archive(args.paths, index, options, progress)
        finally:
            progress.clear()
    if args.json:
        print(json.dumps(add_to_json(result)))
    else:
        print(add_summary(result))
    return 0


def add_summary(result: AddResult) -> str:
    info = result.info
    lines = [
        f"Archive {info.path}: {plural(result.added, 'document')} added, "
        f"{result.updated} updated (their files changed), {result.unchanged} already there.",
        archive_line(info),
    ]
    if result.failed:
        lines += ["", "Could not be read (not added):"]
        lines += [f"  {one_line(str(f.path))}: {one_line(f.error)}" for f in result.failed]
    return "\n".join(lines)


def archive_line(info: ArchiveInfo) -> str:
    """'Archive: 12,345 documents, 2019–2025 (1.2 GB)'."""
    return f"{archive_summary(info.documents, info.years)} ({_size(info.bytes)})"


def _size(count: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"


def info_to_json(info: ArchiveInfo) -> dict[str, Any]:
    return {
        "index": str(info.path),
        "documents": info.documents,
        "contents": info.contents,
        "first_year": info.first_year,
        "last_year": info.last_year,
        "bytes": info.bytes,
        "bytes_per_document": round(info.bytes_per_document),
        "options": dataclasses.asdict(info.options),
        "engine": info.engine,
    }


def add_to_json(result: AddResult) -> dict[str, Any]:
    return {
        "added": result.added,
        "updated": result.updated,
        "unchanged": result.unchanged,
        "failed": [{"path": str(f.path), "error": f.error} for f in result.failed],
        "report_pages": [str(p) for p in result.report_pages],
        "archive": info_to_json(result.info),
    }


# --- check ----------------------------------------------------------------------------------


def _check(args: argparse.Namespace) -> int:
    if not 0.0 <= args.threshold <= 1.0:
        raise UsageError("--threshold must be between 0 and 1")
    workers = _workers(args.jobs)
    problem = output_problem(args)
    if problem is not None:
        print(f"doppel: {problem}", file=sys.stderr)
        return EXIT_INPUT
    _, match = engine_options(args)
    progress = TerminalProgress()
    with _open(args) as index:

        def cache_notice(notice: str) -> None:
            progress.clear()
            print(f"doppel: {notice}", file=sys.stderr)

        try:
            cache = None if args.no_cache else DocumentCache(args.cache, notify=cache_notice)
        except CacheRefused as error:
            print(f"doppel: {error}", file=sys.stderr)
            return EXIT_INPUT
        try:
            try:
                templates = load_templates(args.template, index.options, cache)
            except DocumentError as error:
                print(f"doppel: the template {error.path}: {error.reason}", file=sys.stderr)
                return EXIT_INPUT
            options = BatchOptions(
                signature=index.options,
                match=match,
                student_folders=args.student_folders,
                all_pairs=args.all_pairs,
                workers=workers,
                exclusions=exclusion_options(args),
                templates=templates,
                suggest_common=not args.strict,
                scheduler=scheduler_address(args),
            )
            try:
                checked = check_against_archive(
                    args.paths, index, options, cache=cache, progress=progress
                )
            finally:
                progress.clear()
            if args.json:
                print(json.dumps(check_to_json(checked, args.threshold)))
            else:
                print(check_heading(checked))
                print(format_table(checked.result, args.threshold))
            return 0 if _exports(args, checked, index, cache) else EXIT_INPUT
        finally:
            if cache is not None:
                cache.close()


def check_heading(checked: ArchiveCheck) -> str:
    """What the check was against, and how much of the archive it read."""
    how = (
        "every archived document was read (exclusions inside archived documents need them all)"
        if checked.read_all
        else f"{plural(checked.looked_at, 'archived document')} shared enough to be compared"
    )
    line = f"{archive_line(checked.archive)}: {how}."
    if checked.archive.engine != ENGINE_VERSION:
        line += (
            f"\nIts documents were analysed by an earlier version of Doppel's engine "
            f"({checked.archive.engine}): add their folders again (doppel archive add) to "
            "read them with this one."
        )
    return line + "\n"


def check_to_json(checked: ArchiveCheck, threshold: float) -> dict[str, Any]:
    data = batch_to_json(checked.result, threshold)
    data["archive"] = {
        **info_to_json(checked.archive),
        "looked_at": checked.looked_at,
        "read_all": checked.read_all,
    }
    return data


def _exports(
    args: argparse.Namespace,
    checked: ArchiveCheck,
    index: ArchiveIndex,
    cache: DocumentCache | None,
) -> bool:
    """--csv and --html as `doppel batch` writes them; an archived document's text comes
    from the index (its file may be gone)."""

    def full_document(doc: BatchDocument) -> Document:
        if not doc.archive:
            return checked_document(doc, index.options, cache)
        stored = index.document_at(doc.path)
        if stored is None:
            raise DocumentError(doc.path, "it is no longer in the archive")
        return with_exclusions(stored, doc.excluded) if doc.excluded else stored

    return write_exports(args, checked.result, full_document)


# --- list, remove, info ---------------------------------------------------------------------


def _list(args: argparse.Namespace) -> int:
    with _open(args) as index:
        members = list(index.members(args.under))
    if args.json:
        print(
            json.dumps(
                {
                    "documents": [
                        {
                            "path": str(m.path),
                            "student": m.group,
                            "modified": _date(m.modified),
                            "added": _date(m.added),
                            "bytes": m.size,
                        }
                        for m in members
                    ]
                }
            )
        )
        return 0
    for m in members:
        print(f"{_date(m.modified)}  {one_line(str(m.path))}")
    print(f"{plural(len(members), 'document')}")
    return 0


def _date(seconds: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(seconds))


def _remove(args: argparse.Namespace) -> int:
    with _open(args) as index:
        removed = index.remove(args.paths)
        info = index.info()
    print(f"Removed {plural(len(removed), 'document')} from {info.path}.")
    print(archive_line(info))
    return 0 if removed else 1


def _info(args: argparse.Namespace) -> int:
    with _open(args) as index:
        info = index.info()
    if args.json:
        print(json.dumps(info_to_json(info)))
        return 0
    print(f"Index: {info.path}")
    print(archive_line(info))
    if info.contents != info.documents:
        print(f"Distinct contents: {info.contents:,} (files with the same bytes are kept once)")
    print(f"Per document: {_size(round(info.bytes_per_document))}")
    print(f"Made with: {describe_options(info.options)} (Doppel engine {info.engine})")
    return 0

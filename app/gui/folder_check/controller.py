"""The folder check controller: runs `core.batch.run.run_batch` (or, when the earlier years
are an archive index, `core.archive.check.check_against_archive`), the exports (CSV, the HTML
report, the evidence reports of chosen pairs) and the adding of a check's submissions to an
archive index (`core.archive.add.add_to_archive`) through the TaskRunner and reports back with
signals (no widgets; the Folder check view shows what it says).

A check against an index reads the new documents with the index's signature options (its
records were made with them), whatever Comparison Settings say; the request it answers
records them, so a pair opened later is read the same way. Documents are read again for a
pair, an evidence report or the HTML report through `CheckedDocuments`: archived ones from the
index, whose copy outlives their files.

Each job opens its own connection to the on-disk document cache on its worker thread (SQLite
connections belong to the thread that made them) and closes it when it ends. Tests give a cache
path of their own; by default it is the platform cache the command line uses too, so a folder
checked with `doppel batch` is warm in the app and the other way round.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Literal, TypeVar

from PySide6.QtCore import QObject, Signal

from app.gui.crash import log
from app.gui.folder_check.archive_documents import CheckedDocuments
from app.gui.settings import Settings
from app.gui.tasks import LatestTask, TaskContext, TaskRunner
from core.archive.add import AddResult, add_to_archive
from core.archive.check import ArchiveCheck, check_against_archive
from core.archive.index import ArchiveIndex, ArchiveInfo
from core.archive.index_file import ArchiveError
from core.atomic import write_atomic
from core.batch.cache import CacheRefused, DocumentCache, default_cache_path
from core.batch.checked_pair import checked_comparison
from core.batch.result import BatchDocument, BatchResult, PairResult
from core.batch.run import BatchOptions, load_templates, run_batch
from core.documents.document import Document
from core.errors import DocumentError, LanguageError
from core.options import ExclusionOptions
from core.reports.batch_export import batch_to_csv, submissions_csv_path, submissions_to_csv
from core.reports.evidence.paper import Paper
from core.reports.html import display_names, write_html_report
from core.reports.wording import plural

#: the evidence report's formats, by file suffix
EvidenceFormat = Literal["pdf", "html"]

T = TypeVar("T")


def open_cache(path: Path | None, notices: list[str] | None = None) -> DocumentCache | None:
    """The document cache at `path` (the platform's when None), or None if the file there is not
    Doppel's cache (it is left as it was): a read-only or full disk, or another program's lock,
    makes the check slower, never impossible. What went wrong goes to the log and, in words,
    to `notices` (also while the cache is in use: a disk that fills up)."""

    def notice(text: str) -> None:
        log.warning("%s", text)
        if notices is not None:
            notices.append(text)

    try:
        return DocumentCache(path, notify=notice)
    except CacheRefused as error:
        notice(str(error))
        return None
    except (OSError, sqlite3.Error) as error:  # a backstop: DocumentCache says why instead
        log.warning("document cache %s unavailable: %r", path or default_cache_path(), error)
        return None


def readable_error(error: BaseException) -> str:
    """What went wrong, in words a teacher can act on; the traceback goes to the log."""
    if isinstance(error, DocumentError | LanguageError | ArchiveError):
        return str(error)  # already names the file and the reason
    if isinstance(error, OSError):
        where = f": {error.filename}" if error.filename else ""
        return f"{error.strerror or error}{where}"
    return f"an internal error ({error!r}); the details are in the log"


@dataclass(frozen=True)
class CheckRequest:
    """What one run checks, fixed when it starts (the view may change meanwhile)."""

    inputs: tuple[Path, ...]
    archives: tuple[Path, ...]
    options: BatchOptions
    templates: tuple[Path, ...] = ()  # template files, read by the job (options.templates)
    index: Path | None = None  # the archive index the earlier years are in (archives empty)


class FolderCheck(QObject):
    """Starts, cancels and exports folder checks; one check or export at a time."""

    progressed = Signal(float, str)  # fraction done, what the engine is doing
    finished = Signal(object)  # BatchResult
    archive_added = Signal(object)  # the AddResult of `add_to_archive`
    cancelled = Signal()
    failed = Signal(str, str)  # a readable message, and the details for the log
    exported = Signal(object)  # the Path written: the CSV file, or the report's index.html
    evidence_exported = Signal(object)  # the evidence reports written: a list of Paths
    busy_changed = Signal(bool)

    def __init__(
        self,
        runner: TaskRunner,
        settings: Settings,
        cache_path: Path | None = None,
        parent: QObject | None = None,
        *,
        use_cache: bool = True,
    ) -> None:
        super().__init__(parent)
        self.runner = runner
        self.settings = settings
        self.cache_path = cache_path
        self.use_cache = use_cache
        self.result: BatchResult | None = None
        self.request: CheckRequest | None = None  # what `result` answers
        self.checked_at: datetime | None = None  # when `result` was found (for the evidence)
        # what went wrong with the document cache during the check that found `result`, in
        # words (the check ran without it, or without writing to it); [] when nothing did
        self.cache_notices: list[str] = []
        # the archive `result` was checked against (None: folders, or none)
        self.archive: ArchiveInfo | None = None
        self.archive_compared = 0  # archived documents the check's keys led to
        # one check or export at a time (`start` refuses while busy), so none is superseded
        self._job = LatestTask(runner)
        self._job.ended.connect(lambda: self.busy_changed.emit(False))

    @property
    def busy(self) -> bool:
        return self._job.busy

    def _cache(self, notices: list[str] | None = None) -> DocumentCache | None:
        return open_cache(self.cache_path, notices) if self.use_cache else None

    # -- the check ----------------------------------------------------------------------

    def start(
        self,
        inputs: Sequence[Path],
        archives: Sequence[Path] = (),
        student_folders: bool = False,
        exclusions: ExclusionOptions | None = None,
        templates: Sequence[Path] = (),
        index: Path | None = None,
    ) -> bool:
        """Check `inputs` against each other and against `archives` (folders) or the archive
        `index` (not both: the index wins), leaving out what `exclusions` and the `templates`
        files say; False if busy or empty."""
        if self.busy or not inputs:
            return False
        request = CheckRequest(
            tuple(inputs),
            () if index is not None else tuple(archives),
            BatchOptions(
                signature=self.settings.signature_options(),
                match=self.settings.match_options(),
                student_folders=student_folders,
                exclusions=exclusions or ExclusionOptions(),
            ),
            tuple(templates),
            index,
        )
        self.result = None
        self.request = None
        self.archive = None
        notices: list[str] = []  # (appended to on the worker, read once it is done)

        def with_templates(
            options: BatchOptions, cache: DocumentCache | None, context: TaskContext
        ) -> BatchOptions:
            if not request.templates:
                return options
            context.progress(0.0, "Reading the templates…")
            try:
                templates = load_templates(request.templates, options.signature, cache)
            except DocumentError as error:  # say it was a template that failed
                raise DocumentError(
                    error.path, f"the template could not be read: {error.reason}"
                ) from None
            return replace(options, templates=templates)

        def op(context: TaskContext) -> BatchResult | ArchiveCheck:
            cache = self._cache(notices)
            try:
                if request.index is not None:
                    context.progress(0.0, "Opening the archive…")
                    with ArchiveIndex(request.index) as archive:
                        options = replace(request.options, signature=archive.options)
                        return check_against_archive(
                            request.inputs,
                            archive,
                            with_templates(options, cache, context),
                            cache=cache,
                            progress=context.progress,
                        )
                return run_batch(
                    request.inputs,
                    request.archives,
                    with_templates(request.options, cache, context),
                    cache=cache,
                    progress=context.progress,
                )
            finally:
                if cache is not None:
                    cache.close()

        def done(outcome: BatchResult | ArchiveCheck) -> None:
            answered = request
            if isinstance(outcome, ArchiveCheck):
                # the new documents were read with the index's options: read them so again
                signature = outcome.archive.options
                answered = replace(request, options=replace(request.options, signature=signature))
                self.archive, self.archive_compared = outcome.archive, outcome.looked_at
                result = outcome.result
            else:
                result = outcome
            self.result, self.request = result, answered
            self.cache_notices = list(dict.fromkeys(notices))
            self.checked_at = datetime.now().astimezone()
            self.finished.emit(result)

        def error(exc: BaseException, details: str) -> None:
            log.error("folder check failed\n%s", details)
            self.failed.emit(f"The folder check stopped: {readable_error(exc)}", details)

        self._run(op, done, error, on_progress=self.progressed.emit)
        return True

    def cancel(self) -> None:
        """Stop the check or export in flight at the engine's next checkpoint."""
        self._job.cancel()  # it reports `cancelled` when it stops

    # -- exports ------------------------------------------------------------------------

    def export_csv(self, path: Path, threshold: float) -> bool:
        """Write the pairs at or above `threshold` as CSV, and the submissions beside it
        (`submissions_csv_path`), atomically, on the GUI thread: a few KB even for thousands
        of pairs. `exported` gives the pairs' file. A file inside (or over) one of the check's
        inputs is refused (`failed` says why): it could overwrite a submission, or be read as
        one next time."""
        from core.reports.batch_export import output_conflict

        if self.result is None:
            return False
        request = self.request
        inputs = [*request.inputs, *request.archives, *request.templates] if request else []
        for output in (path, submissions_csv_path(path)):
            problem = output_conflict(output, inputs)
            if problem is not None:
                self.failed.emit(f"The CSV file was not written: {output} — {problem}.", "")
                return False
        try:
            written = write_atomic(path, batch_to_csv(self.result, threshold))
            write_atomic(submissions_csv_path(path), submissions_to_csv(self.result))
        except OSError as exc:
            self.failed.emit(f"The CSV file could not be written: {readable_error(exc)}", "")
            return False
        self.exported.emit(written)
        return True

    def export_html(self, folder: Path, threshold: float) -> bool:
        """Write the HTML report into `folder` in the background; `exported` gives index.html.
        A folder inside (or holding) one of the check's inputs, or one that is not empty and
        holds no Doppel report, is refused at once (`failed` says why)."""
        from core.reports.batch_export import output_conflict
        from core.reports.html import report_folder_problem

        if self.result is None or self.request is None or self.busy:
            return False
        request = self.request
        inputs = [*request.inputs, *request.archives, *request.templates]
        problem = output_conflict(folder, inputs) or report_folder_problem(folder)
        if problem is not None:
            self.failed.emit(f"The report was not written: {folder} — {problem}.", "")
            return False
        result, source = self.result, self.documents()

        def op(context: TaskContext) -> Path:
            context.progress(0.0, "Writing the report…")
            with source as documents:

                def document(doc: BatchDocument) -> Document:
                    context.check()  # the report loads pair documents one by one: cancel between
                    return documents.document(doc)

                return write_html_report(
                    result, folder, threshold=threshold, load_document=document
                )

        def error(exc: BaseException, details: str) -> None:
            log.error("HTML report failed\n%s", details)
            self.failed.emit(f"The report could not be written: {readable_error(exc)}", details)

        self._run(op, self.exported.emit, error, on_progress=self.progressed.emit)
        return True

    def export_evidence(
        self,
        pairs: Sequence[PairResult],
        paths: Sequence[Path],
        file_format: EvidenceFormat = "pdf",
        *,
        paper: Paper = Paper.A4,
    ) -> bool:
        """Write the evidence report of each of `pairs` to the matching path of `paths` (PDF
        or HTML, on `paper`), one after the other in the
        background, with progress and cancel; `evidence_exported` gives the files written.
        Each pair is scored as the check scored it (`checked_comparison`: its options and
        exclusions, its documents from the cache while unchanged)."""
        if self.result is None or self.request is None or self.busy or not pairs:
            return False
        if len(pairs) != len(paths):
            raise ValueError("one path per pair")
        result, source = self.result, self.documents()
        checked_at = self.checked_at
        names = display_names(result)
        jobs = list(zip(pairs, paths, strict=True))

        def op(context: TaskContext) -> tuple[list[Path], list[str]]:
            # (imported here: the report engine is heavy, and only an export needs it)
            from core.reports.evidence import (
                evidence_report,
                write_evidence_html,
                write_evidence_pdf,
            )

            written: list[Path] = []
            unread: list[str] = []  # pairs whose documents could not be read again
            with source as documents:
                for k, (pair, path) in enumerate(jobs):
                    message = f"Evidence of {names[pair.a]} and {names[pair.b]}…"
                    if len(jobs) > 1:
                        message = f"{k + 1} of {len(jobs)}: {message}"
                    share = 1 / len(jobs)
                    context.progress(k * share, message)
                    try:
                        comparison = documents.comparison(
                            result,
                            pair,
                            progress=context.engine_progress(message, k * share, share * 0.6),
                        )
                    except DocumentError as error:  # the others are still worth writing
                        unread.append(f"{names[pair.a]} and {names[pair.b]}: {error}")
                        continue
                    context.progress((k + 0.6) * share, message)
                    report = evidence_report(comparison, checked_at=checked_at)
                    context.check()
                    write = write_evidence_pdf if file_format == "pdf" else write_evidence_html
                    written.append(write(report, path, paper=paper))
                context.progress(1.0, "Evidence written")
                return written, unread

        def done(outcome: tuple[list[Path], list[str]]) -> None:
            written, unread = outcome
            self.evidence_exported.emit(written)
            if unread:
                self.failed.emit(
                    f"{plural(len(unread), 'pair')} could not be exported (a document could "
                    f"not be read again); {plural(len(written), 'report')} written.",
                    "\n".join(unread),
                )

        def error(exc: BaseException, details: str) -> None:
            log.error("evidence export failed\n%s", details)
            self.failed.emit(f"The evidence could not be exported: {readable_error(exc)}", details)

        self._run(op, done, error, on_progress=self.progressed.emit)
        return True

    # -- documents and the archive ------------------------------------------------------

    def documents(self) -> CheckedDocuments:
        """Where the documents of the check on screen are read again (open it with `with` on
        the worker that reads): new ones from the cache or their files, archived ones from the
        index it was checked against. For opening a pair side by side, too."""
        request = self.request
        signature = request.options.signature if request else self.settings.signature_options()
        index = request.index if request else None
        return CheckedDocuments(signature, self._cache, index, checked_comparison)

    def add_to_archive(self, index: Path) -> bool:
        """Add the submissions of the check on screen (the files under its inputs, read again
        where they changed) to the archive index at `index`, made there with the check's
        signature options if there is none yet; `archive_added` gives what was done. False if
        there is no check or a job runs."""
        request = self.request
        if self.result is None or request is None or self.busy:
            return False
        options = BatchOptions(student_folders=request.options.student_folders)

        def op(context: TaskContext) -> AddResult:
            context.progress(0.0, "Opening the archive…")
            with ArchiveIndex(index, create=True, options=request.options.signature) as archive:
                return add_to_archive(request.inputs, archive, options, progress=context.progress)

        def error(exc: BaseException, details: str) -> None:
            log.error("adding to the archive failed\n%s", details)
            self.failed.emit(f"Adding to the archive stopped: {readable_error(exc)}", details)

        self._run(op, self.archive_added.emit, error, on_progress=self.progressed.emit)
        return True

    # -- running ------------------------------------------------------------------------

    def _run(
        self,
        op: Callable[[TaskContext], T],
        done: Callable[[T], None],
        error: Callable[[BaseException, str], None],
        *,
        on_progress: Callable[[float, str], None],
    ) -> None:
        # busy is announced first: an inline runner (tests) ends the job inside `run`; the
        # job's end announces idle (`_job.ended`)
        self.busy_changed.emit(True)
        self._job.run(
            op,
            done,
            on_progress=on_progress,
            on_error=error,
            on_cancelled=self.cancelled.emit,
        )

"""What the teacher is working on: the documents, and the comparison on screen.

A controller (no widgets): it turns "these files were dropped", "compare these two", "the
options changed" into background jobs through the TaskRunner, and reports back with signals.
With two documents loaded the comparison starts by itself; with more, every pair that can share
a passage is compared, those with copied text found are ranked as the folder check ranks them
(`core.batch.ranking.rank_key`: the larger copied share first), and the first is opened."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QFileSystemWatcher, QObject, Signal

from app.gui.compare.marks import PreparedView
from app.gui.models.document_list import DocumentEntry, DocumentListModel, Status
from app.gui.settings import Settings
from app.gui.tasks import LatestTask, TaskContext, TaskRunner
from core.batch.partners import StrongestPartner, strongest_partners_by_path
from core.batch.ranking import candidate_pairs, rank_key, reworded_candidates
from core.comparison import Comparison, compare_documents
from core.detection.reworded import document_profile
from core.documents.document import Document, load_document, reanalysed
from core.documents.extract import SUPPORTED_SUFFIXES
from core.errors import DocumentError, LanguageError
from core.exclusions.apply import apply_exclusions
from core.options import ExclusionOptions

T = TypeVar("T")

#: a comparison and the view's preparation of it (`marks.prepare_view`), made on a worker
Preparation = tuple[Comparison, PreparedView]


@dataclass(frozen=True)
class RankedPair:
    comparison: Comparison

    @property
    def paths(self) -> tuple[Path, Path]:
        return self.comparison.a.path, self.comparison.b.path


def strongest_partners_of(ranked: Iterable[RankedPair]) -> dict[Path, StrongestPartner[Path]]:
    """Each document's strongest partner among the ranked pairs (`core.batch.partners`)."""
    return strongest_partners_by_path(p.comparison for p in ranked)


@dataclass(frozen=True)
class Shown:
    """What the session showed, kept to put back as it was (undoing a removal): the documents
    and options it was computed from, the ranking, and the comparison with its preparation."""

    state: object
    ranked: tuple[RankedPair, ...]
    current: Comparison | None
    preparation: Preparation | None

    @property
    def pair(self) -> tuple[Path, Path] | None:
        return None if self.current is None else (self.current.a.path, self.current.b.path)


@dataclass(frozen=True)
class Removed:
    """Documents taken out of the list (each entry with its row before), to put back."""

    entries: tuple[tuple[int, DocumentEntry], ...]
    shown: Shown | None  # None: a job was under way, so nothing settled to put back
    at: float  # time.time() of the removal: files modified later are flagged as changed


def expand(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given, and the supported files inside folders (recursively), sorted per folder."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found += sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and p.suffix.lower() in SUPPORTED_SUFFIXES
                and not p.name.startswith((".", "~$"))  # hidden files, Word's lock files
            )
        else:
            found.append(path)
    return found


class Session(QObject):
    comparison_ready = Signal(object)  # Comparison
    comparison_cleared = Signal()
    pairs_ranked = Signal(object)  # list[RankedPair], the most copied first (rank_key)
    busy_changed = Signal(bool)
    progress = Signal(float, str)
    failed = Signal(str, str)  # a readable message, and details

    def __init__(
        self,
        runner: TaskRunner,
        settings: Settings,
        parent: QObject | None = None,
        prepare: Callable[[Comparison], PreparedView] | None = None,
    ) -> None:
        super().__init__(parent)
        # the view's plain-data preparation (`marks.prepare_view`), run on the worker right
        # after comparing; the job returns it and its `done` keeps it, on the GUI thread, so
        # only the current job's preparation is kept (`LatestTask` drops a superseded one's)
        self.prepare = prepare
        self._prepared: Preparation | None = None
        self.runner = runner
        self.settings = settings
        self.documents = DocumentListModel(self)
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self._file_changed)
        self.current: Comparison | None = None
        self.ranked: list[RankedPair] = []
        self._wanted_pair: tuple[Path, Path] | None = None
        self._loads: dict[Path, LatestTask] = {}  # each path's latest load
        self._group_depth = 0
        self._job = LatestTask(runner)  # the comparison or ranking on its way to the screen
        self._job.ended.connect(self._busy)
        self._settled_on: object = None  # the documents and options behind what is shown
        self._restoring: Shown | None = None  # set while `restore` puts documents back

    # -- documents ------------------------------------------------------------------------

    def add_paths(self, paths: Iterable[str | Path]) -> int:
        """Add files and folders; returns how many new files started loading."""
        added = 0
        with self._grouped():
            for path in expand(paths):
                path = path.resolve() if path.exists() else path.absolute()
                if self.documents.add(path):
                    self._load(path)
                    added += 1
        return added

    @contextmanager
    def _grouped(self) -> Iterator[None]:
        """Start several loads, then settle once (an inline runner finishes each at once)."""
        self._group_depth += 1
        try:
            yield
        finally:
            self._group_depth -= 1
        self._settle()

    def _load(self, path: Path, source: Document | None = None) -> None:
        """Load `path` (or re-analyse `source`, its earlier analysis) with the current options.

        The entry keeps the document it had until the new one arrives, and only the latest
        load of a path reports (`LatestTask`): a file removed, re-added or re-checked while it
        loads never receives a stale result."""
        options = self.settings.signature_options()
        job = self._loads.get(path)
        if job is None:
            job = self._loads[path] = LatestTask(self.runner)
        self.documents.update(path, status=Status.LOADING, error="")
        name = path.name

        def op(context: TaskContext) -> Document:
            context.check()
            return reanalysed(source, options) if source else load_document(path, options)

        def done(document: Document) -> None:
            if document.options != self.settings.signature_options():
                self._load(path, document)  # the options changed while it loaded
                return
            self.documents.update(path, status=Status.LOADED, document=document, error="")
            # A long document is millions of small objects that never change: keep the cyclic
            # garbage collector from rescanning them (its pauses stalled the window for 0.1 s)
            gc.freeze()
            if str(path) not in self.watcher.files() and path.exists():
                self.watcher.addPath(str(path))
            self._settle()

        def error(exc: BaseException, details: str) -> None:
            if isinstance(exc, DocumentError | LanguageError):
                reason = exc.reason if isinstance(exc, DocumentError) else str(exc)
            else:  # an engine bug: say so plainly, keep the details for the log
                reason = f"could not be read because of an internal error ({exc!r})"
                self.failed.emit(f"{name} could not be read.", details)
            self.documents.update(path, status=Status.FAILED, document=None, error=reason)
            self._settle()

        job.run(op, done, on_error=error)
        self._busy()

    def _loading(self, path: Path | None = None) -> bool:
        """Whether `path` (or any document, when None) is loading."""
        if path is not None:
            job = self._loads.get(path)
            return job is not None and job.busy
        return any(job.busy for job in self._loads.values())

    def _stop_loading(self, path: Path, reason: str) -> None:
        """Forget the load in flight for `path` (its worker's result will be ignored)."""
        job = self._loads.pop(path, None)
        if job is not None:
            job.abandon()
        row = self.documents.row_of(path)
        if row >= 0:
            entry = self.documents.entries()[row]
            if entry.document is not None:  # it keeps its earlier analysis
                self.documents.update(path, status=Status.LOADED)
            else:
                self.documents.update(path, status=Status.FAILED, error=reason)

    def remove_rows(self, rows: list[int]) -> Removed:
        """Remove these rows; returns what was removed, for `restore` (undo)."""
        entries = self.documents.entries()
        return self.remove_paths([entries[r].path for r in rows if 0 <= r < len(entries)])

    def remove_paths(self, paths: Iterable[Path]) -> Removed:
        """Remove these documents; returns what was removed, for `restore` (undo)."""
        shown = self.shown()
        wanted = set(paths)
        taken: list[tuple[int, DocumentEntry]] = []
        for row, entry in enumerate(self.documents.entries()):
            if entry.path in wanted:
                taken.append((row, entry))
        for _row, entry in taken:
            self._stop_loading(entry.path, "removed")
            self.watcher.removePath(str(entry.path))
        # what was loading keeps its place but not its load: `restore` loads it again
        kept = tuple(
            (row, self.documents.entries()[self.documents.row_of(e.path)]) for row, e in taken
        )
        self.documents.remove_rows([row for row, _ in taken])
        gc.unfreeze()  # let removed documents be collected
        self._settle()
        return Removed(kept, shown, time.time())

    def clear(self) -> Removed:
        return self.remove_rows(list(range(self.documents.rowCount())))

    def shown(self) -> Shown | None:
        """What is on screen, when it is settled (no comparison or ranking under way)."""
        if self._job.busy or self._loading():
            return None
        preparation = None
        if self.current is not None and self.prepared_for(self.current) is not None:
            preparation = self._prepared
        return Shown(self._settled_on, tuple(self.ranked), self.current, preparation)

    def restore(self, removed: Removed) -> None:
        """Put removed documents back in their former places: a loaded document as it was (not
        read again), one that was loading or failed read again; then what was on screen comes
        back as it was, or is computed again if the documents or options changed meanwhile."""
        options = self.settings.signature_options()
        shown = removed.shown
        if shown is not None and shown.pair is not None:
            self._wanted_pair = shown.pair
        with self._grouped():
            self._restoring = shown
            for row, entry in sorted(removed.entries, key=lambda e: e[0]):
                path = entry.path
                if not self.documents.insert(row, replace(entry, changed_on_disk=False)):
                    continue  # added again meanwhile
                if entry.document is None:
                    self._load(path)
                    continue
                if path.exists():
                    self.watcher.addPath(str(path))
                if _modified_since(path, removed.at) or entry.changed_on_disk:
                    self.documents.update(path, changed_on_disk=True)
                if entry.document.options != options:
                    self._load(path, entry.document)
        self._restoring = None

    def open_documents(
        self,
        documents: Sequence[Path],
        templates: Sequence[Path] = (),
        pair: tuple[Path, Path] | None = None,
    ) -> None:
        """Replace the list with these documents (and templates), to show `pair` once loaded:
        opening a case."""
        self.remove_paths([e.path for e in self.documents.entries()])
        self._wanted_pair = pair
        with self._grouped():
            for path in [*documents, *templates]:  # (absolute and resolved, as `add_paths`)
                if self.documents.add(path):
                    self._load(path)
            for path in templates:
                self.documents.update(path, template=True)

    def recheck(self, rows: list[int] | None = None) -> None:
        """Reload from disk the given rows, or every file that changed, failed, or was analysed
        with earlier settings."""
        entries = self.documents.entries()
        options = self.settings.signature_options()
        chosen = (
            [entries[r] for r in rows if 0 <= r < len(entries)]
            if rows
            else [
                e
                for e in entries
                if e.changed_on_disk
                or e.status is Status.FAILED
                or (e.document is not None and e.document.options != options)
            ]
        )
        with self._grouped():
            for entry in chosen:
                self.documents.update(entry.path, changed_on_disk=False)
                self._load(entry.path)

    def _file_changed(self, name: str) -> None:
        path = Path(name)
        self.documents.update(path, changed_on_disk=True)
        if path.exists() and name not in self.watcher.files():
            self.watcher.addPath(name)  # editors replace files: watch the new one

    # -- options --------------------------------------------------------------------------

    def options_changed(self) -> None:
        """Re-analyse documents whose signature options changed (each keeps its current
        analysis until the new one arrives), then re-run what is open."""
        options = self.settings.signature_options()
        with self._grouped():
            for entry in self.documents.entries():
                doc = entry.document
                if doc is not None and doc.options != options and not self._loading(entry.path):
                    self._load(entry.path, doc)
        # leaving the group settles: it re-runs when documents or match options changed

    # -- comparing ------------------------------------------------------------------------

    def open_pair(self, a: Path, b: Path) -> None:
        """Show the comparison of two loaded documents (from the ranking if it is there)."""
        self._wanted_pair = (a, b)
        ranked = next((p for p in self.ranked if set(p.paths) == {a, b}), None)
        if ranked is None:
            self._compare(a, b)
            return
        self._show(ranked.comparison)

    def _settle(self) -> None:
        """After loads end: compare the two documents, or rank every pair of three or more.
        Does nothing when what is on screen was computed from the same documents and options."""
        self._busy()
        if self._loading() or self._group_depth:
            return
        options = self.settings.signature_options()
        # documents still analysed with earlier settings (a cancelled re-analysis) wait for F5
        docs = [d for d in self.documents.loaded() if d.options == options]
        templates = tuple(d for d in self.documents.templates() if d.options == options)
        state = (
            tuple(id(d) for d in docs),
            tuple(id(d) for d in templates),
            options,
            self.settings.match_options(),
            self.settings.exclusion_options(),
        )
        if state == self._settled_on:
            return
        self._settled_on = state
        restoring = self._restoring
        if restoring is not None and restoring.state == state:
            self._put_back(restoring)
        elif len(docs) < 2:
            self._cancel_job()
            self._set_ranked([])
            if self.current is not None:
                self.current = None
                self.comparison_cleared.emit()
        elif len(docs) == 2:
            self._set_ranked([])
            a, b = docs[0].path, docs[1].path
            if self._wanted_pair is not None and set(self._wanted_pair) == {a, b}:
                a, b = self._wanted_pair  # (the way round it was shown: a case, an undo)
            self._compare(a, b)
        else:
            self._rank(docs)

    def _put_back(self, shown: Shown) -> None:
        """Show again what was computed from the same documents and options (an undo)."""
        self._cancel_job()
        self._settled_on = shown.state
        self._set_ranked(list(shown.ranked))
        if shown.current is None:
            if self.current is not None:
                self.current = None
                self.comparison_cleared.emit()
            return
        if shown.preparation is not None:
            self._prepared = shown.preparation
        self._show(shown.current)

    def _set_ranked(self, ranked: list[RankedPair]) -> None:
        """The ranking of three or more documents (empty otherwise), and each document's
        strongest partner in it."""
        self.ranked = ranked
        many = len(self.documents.loaded()) > 2
        self.documents.set_partners(strongest_partners_of(ranked), shown=many)
        self.pairs_ranked.emit(ranked)

    def _prepare(self, comparison: Comparison) -> Preparation | None:
        """(On the worker.) The view's preparation of the comparison about to be shown, for
        the job to return: it changes nothing here (`_keep` does, from the job's `done`)."""
        if self.prepare is None:
            return None
        return comparison, self.prepare(comparison)

    def _keep(self, preparation: Preparation | None) -> None:
        """(On the GUI thread, from the current job's `done`.) Keep its preparation."""
        if preparation is not None:
            self._prepared = preparation

    def prepared_for(self, comparison: Comparison) -> PreparedView | None:
        """The preparation made on the worker for `comparison`, if it was."""
        if self._prepared is not None and self._prepared[0] is comparison:
            return self._prepared[1]
        return None

    def _show(self, comparison: Comparison) -> None:
        """Emit `comparison_ready` for a comparison already made, once the view's preparation
        of it exists: made on a worker if it was not yet, never on the GUI thread."""
        if self.prepare is None or self.prepared_for(comparison) is not None:
            self.current = comparison
            self.comparison_ready.emit(comparison)
            return

        def op(context: TaskContext) -> tuple[Comparison, Preparation | None]:
            context.check()
            return comparison, self._prepare(comparison)

        def done(outcome: tuple[Comparison, Preparation | None]) -> None:
            prepared, preparation = outcome
            self._keep(preparation)
            self.current = prepared
            self.comparison_ready.emit(prepared)

        def error(exc: BaseException, details: str) -> None:
            self.failed.emit(f"The comparison could not be shown: {exc!r}", details)

        self._start_job(op, done, error)

    def _document(self, path: Path) -> Document | None:
        return next((d for d in self.documents.loaded() if d.path == path), None)

    # -- templates and exclusions -----------------------------------------------------------

    def set_templates(self, paths: Iterable[Path], on: bool) -> None:
        """Mark documents as templates (the prompt, a handout: not compared themselves, and
        what the others share with them is left out of their scores) or as submissions."""
        changed = False
        for path in paths:
            if self.documents.is_template(path) != on and self.documents.row_of(path) >= 0:
                self.documents.update(path, template=on)
                changed = True
        if changed:
            self.ranked = []
            self._settle()

    def _exclusions(self) -> tuple[ExclusionOptions, tuple[Document, ...]] | None:
        """The exclusions to apply (options and template documents), or None when none is on."""
        options = self.settings.exclusion_options()
        signature = self.settings.signature_options()
        templates = tuple(d for d in self.documents.templates() if d.options == signature)
        if not (options.quotations or options.references or templates):
            return None
        return options, templates

    def _compare(self, a_path: Path, b_path: Path) -> None:
        a, b = self._document(a_path), self._document(b_path)
        if a is None or b is None:
            return
        self._wanted_pair = (a_path, b_path)
        options = self.settings.match_options()
        exclusions = self._exclusions()
        excluding, templates = exclusions or (None, ())

        def op(context: TaskContext) -> tuple[Comparison, Preparation | None]:
            comparison = compare_documents(
                a,
                b,
                options,
                progress=context.engine_progress(f"Comparing {a.name} and {b.name}…"),
                exclusions=excluding,
                templates=templates,
            )
            return comparison, self._prepare(comparison)

        def done(outcome: tuple[Comparison, Preparation | None]) -> None:
            comparison, preparation = outcome
            self._keep(preparation)
            self.current = comparison
            self.comparison_ready.emit(comparison)

        def error(exc: BaseException, details: str) -> None:
            self._settled_on = None
            self.failed.emit(f"The comparison of {a.name} and {b.name} failed: {exc!r}", details)

        self._start_job(op, done, error)

    def _rank(self, docs: list[Document]) -> None:
        """Compare the pairs that can share a verified block (the batch engine's composite-
        bigram index: spec §5) or a reworded passage (its index of shared content words) and
        rank those with copied text found; the other pairs share nothing by construction."""
        options = self.settings.match_options()
        exclusions = self._exclusions()
        wanted = self._wanted_pair  # read now: the worker reads nothing that the GUI changes

        def op(context: TaskContext) -> tuple[list[RankedPair], Preparation | None]:
            scored = docs
            if exclusions is not None:
                scored = []
                for k, doc in enumerate(docs):
                    context.progress(
                        k / len(docs) / 10,
                        f"Finding what to leave out of {doc.name} ({k + 1} of {len(docs)})…",
                    )
                    scored.append(apply_exclusions(doc, *exclusions, options))
            start = 0.1 if exclusions is not None else 0.0
            found_pairs = candidate_pairs([d.signature for d in scored], lambda i, j: True, options)
            if options.reworded:
                context.check()
                profiles = [document_profile(d) for d in scored]
                found_pairs |= reworded_candidates(profiles, lambda i, j: True)
            candidates = sorted(found_pairs)
            found: list[tuple[Comparison, int, int]] = []
            for k, (i, j) in enumerate(candidates):
                context.progress(
                    start + (1 - start) * k / max(len(candidates), 1),
                    f"Comparing the pairs that share sentences ({k + 1} of {len(candidates)})…",
                )
                comparison = compare_documents(scored[i], scored[j], options)
                if exclusions is not None:  # what the results say was left out
                    comparison = replace(
                        comparison,
                        exclusions=exclusions[0],
                        templates=tuple(t.name for t in exclusions[1]),
                    )
                if comparison.flagged:
                    found.append((comparison, i, j))
            # the folder check's order: copied text found, the larger copied share, Jaccard…
            ranked = [RankedPair(c) for c, _, _ in sorted(found, key=lambda f: rank_key(*f))]
            if not ranked:
                return ranked, None
            return ranked, self._prepare(_chosen(ranked, wanted).comparison)  # opens first

        def done(outcome: tuple[list[RankedPair], Preparation | None]) -> None:
            ranked, preparation = outcome
            self._keep(preparation)
            self._set_ranked(ranked)
            if not ranked:  # nothing shared anywhere: show the first pair, and its zero
                self._compare(docs[0].path, docs[1].path)
                return
            self._show(_chosen(ranked, self._wanted_pair).comparison)

        def error(exc: BaseException, details: str) -> None:
            self._settled_on = None
            self.failed.emit(f"Comparing the documents failed: {exc!r}", details)

        self._start_job(op, done, error)

    def _start_job(
        self,
        op: Callable[[TaskContext], T],
        done: Callable[[T], None],
        error: Callable[[BaseException, str], None],
    ) -> None:
        """Run the comparison or ranking to show next; the one in flight is superseded."""
        self._job.run(op, done, on_progress=self.progress.emit, on_error=error)
        self._busy()

    def cancel(self) -> None:
        """Stop the loads and the comparison in flight at once; what is on screen stays."""
        for path in [path for path, job in self._loads.items() if job.busy]:
            self._stop_loading(path, "loading was cancelled: Re-check (F5) to load it")
        self._cancel_job()
        self._busy()

    def _cancel_job(self) -> None:
        if self._job.abandon():
            self._settled_on = None  # not computed: the next settle runs it again

    @property
    def busy(self) -> bool:
        return self._loading() or self._job.busy

    def _busy(self) -> None:
        self.busy_changed.emit(self.busy)


def _modified_since(path: Path, moment: float) -> bool:
    """Whether the file changed (or went) after `moment`."""
    try:
        return path.stat().st_mtime > moment
    except OSError:
        return True


def _chosen(ranked: list[RankedPair], wanted: tuple[Path, Path] | None) -> RankedPair:
    """The pair to open after ranking: the one asked for, else the first ranked."""
    return next((p for p in ranked if wanted and set(p.paths) == set(wanted)), ranked[0])

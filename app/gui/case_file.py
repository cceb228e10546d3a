"""File › Save Case… and Open Case…: the window's side of `core.case` (docs/case-file.md).

Saving gathers the documents (each one's SHA-256 as loaded), the options, the templates and the
pair on screen, and writes them on a worker. Opening reads and validates the file and re-checks
every document on a worker (hashing, `core.case.check_documents`), then restores the options
and loads the documents: the comparison runs again, and `OpenedCase` says which documents
changed since the case was saved, which moved (found next to the case file) and which are
missing."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QWidget

from app.gui.session import Session
from app.gui.settings import Settings
from app.gui.tasks import LatestTask, TaskContext, TaskRunner
from core.case import (
    CASE_SUFFIX,
    Case,
    CaseDocument,
    CaseError,
    CheckedDocument,
    DocumentState,
    check_documents,
    load_case,
    save_case,
)
from core.fingerprint import file_sha256
from core.reports.wording import plural

T = TypeVar("T")

CASE_FILTER = f"Doppel case (*{CASE_SUFFIX})"
#: names a message bar lists before "and N more"
SHOWN_NAMES = 3


def is_case_file(path: str | Path) -> bool:
    return Path(path).suffix.lower() == CASE_SUFFIX


@dataclass(frozen=True)
class OpenedCase:
    """A case opened: where from, what it holds, and what the re-check found."""

    path: Path
    case: Case
    checked: tuple[CheckedDocument, ...]

    def of(self, state: DocumentState) -> list[CheckedDocument]:
        return [c for c in self.checked if c.state is state]

    @property
    def all_there(self) -> bool:
        return all(c.state is DocumentState.UNCHANGED for c in self.checked)

    def summary(self) -> str:
        """What the message bar says (rich text)."""
        name = html.escape(self.path.name)
        count = plural(len(self.checked), "document")
        if self.all_there:
            return (
                f"Opened the case <b>{name}</b>: all {count} as they were when it was saved."
                if len(self.checked) > 1
                else f"Opened the case <b>{name}</b>: {count}, as it was when it was saved."
            )
        parts = [f"Opened the case <b>{name}</b>."]
        changed = self.of(DocumentState.CHANGED)
        moved = self.of(DocumentState.MOVED)
        missing = self.of(DocumentState.MISSING)
        if changed:
            verb = "has" if len(changed) == 1 else "have"
            parts.append(
                f"{_names(changed)} {verb} <b>changed</b> since the case was saved: the "
                "results may differ."
            )
        if moved:
            verb = "was" if len(moved) == 1 else "were"
            parts.append(
                f"{_names(moved)} {verb} not where the case says; found <b>next to the case "
                "file</b>, with the same content."
            )
        if missing:
            verb = "is" if len(missing) == 1 else "are"
            parts.append(f"{_names(missing)} {verb} <b>missing</b>: left out.")
        return "<br>".join(parts)  # (one line each: quicker to scan)

    def details(self) -> list[str]:
        """Every document that is not as it was, one line each (for "Show All")."""
        lines: list[str] = []
        for checked in self.checked:
            saved = checked.saved.path
            if checked.state is DocumentState.CHANGED:
                lines.append(f"{saved.name}: changed since the case was saved ({saved})")
            elif checked.state is DocumentState.MOVED:
                lines.append(f"{saved.name}: moved: not at {saved}; found at {checked.path}")
            elif checked.state is DocumentState.MISSING:
                lines.append(
                    f"{saved.name}: missing: not at {saved}, and not next to the case file"
                )
        return lines


def _names(checked: Sequence[CheckedDocument]) -> str:
    names = [f"<b>{html.escape(c.saved.path.name)}</b>" for c in checked]
    if len(names) > SHOWN_NAMES:
        more = len(names) - SHOWN_NAMES
        return ", ".join(names[:SHOWN_NAMES]) + f" and {more} more"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


class CaseFiles(QObject):
    """Saving and opening case files, in the background."""

    saved = Signal(object)  # the Path written
    opened = Signal(object)  # an OpenedCase, once its documents started loading
    failed = Signal(str, str)  # a readable message naming the file, and details
    busy_changed = Signal(bool)
    progress = Signal(float, str)

    def __init__(
        self, runner: TaskRunner, settings: Settings, session: Session, parent: QWidget
    ) -> None:
        super().__init__(parent)
        self.parent_widget = parent
        self.settings = settings
        self.session = session
        self._job = LatestTask(runner)
        self._job.ended.connect(lambda: self.busy_changed.emit(self.busy))
        self.path: Path | None = None  # the case last saved or opened

    @property
    def busy(self) -> bool:
        return self._job.busy

    def cancel(self) -> None:
        if self._job.abandon():
            self.busy_changed.emit(False)

    def _run(
        self,
        op: Callable[[TaskContext], T],
        done: Callable[[T], None],
        error: Callable[[BaseException, str], None],
    ) -> None:
        self._job.run(op, done, on_progress=self.progress.emit, on_error=error)
        self.busy_changed.emit(self.busy)

    # -- saving ------------------------------------------------------------------------

    def can_save(self) -> bool:
        return bool(self.session.documents.entries())

    def save(self) -> None:
        """Ask where, then save the case there."""
        if self.path is not None:
            start = self.path
        else:
            start = Path(self.settings.case_folder()) / f"Doppel case{CASE_SUFFIX}"
        chosen, _ = QFileDialog.getSaveFileName(
            self.parent_widget, "Save Case", str(start), CASE_FILTER
        )
        if chosen:
            path = Path(chosen)
            if path.suffix.lower() != CASE_SUFFIX:
                path = path.with_name(path.name + CASE_SUFFIX)
            self.save_to(path)

    def save_to(self, path: Path) -> None:
        """Save what is open now to `path` (hashing unreadable files on a worker)."""
        self.settings.set_case_folder(path.parent)
        documents: list[tuple[Path, str | None, bool]] = []
        for entry in self.session.documents.entries():
            digest = entry.document.content_hash if entry.document is not None else None
            documents.append((entry.path, digest, entry.template))
        current = self.session.current
        pair = None if current is None else (current.a.path, current.b.path)
        signature = self.settings.signature_options()
        match = self.settings.match_options()
        exclusions = self.settings.exclusion_options()

        def op(context: TaskContext) -> Path:
            context.progress(0.0, f"Saving the case {path.name}…")
            listed: list[tuple[CaseDocument, bool]] = []
            for where, digest, template in documents:
                if digest is None:  # not loaded (it failed): its bytes still say what it was
                    try:
                        digest = file_sha256(where, lambda: context.cancelled)
                    except OSError:
                        digest = None
                listed.append((CaseDocument(where, digest), template))
            case = Case(
                documents=tuple(d for d, template in listed if not template),
                templates=tuple(d for d, template in listed if template),
                signature=signature,
                match=match,
                exclusions=exclusions,
                pair=pair,
            )
            return save_case(case, path)

        def done(written: Path) -> None:
            self.path = written
            self.saved.emit(written)

        def error(exc: BaseException, details: str) -> None:
            reason = exc.reason if isinstance(exc, CaseError) else repr(exc)
            self.failed.emit(f"The case could not be saved as {path.name}: {reason}", details)

        self._run(op, done, error)

    # -- opening -----------------------------------------------------------------------

    def open(self) -> None:
        """Ask which case, then open it."""
        chosen, _ = QFileDialog.getOpenFileName(
            self.parent_widget,
            "Open Case",
            self.settings.case_folder(),
            f"{CASE_FILTER};;All files (*)",
        )
        if chosen:
            self.open_path(Path(chosen))

    def open_path(self, path: Path) -> None:
        """Read and re-check the case at `path` on a worker, then open what it holds."""
        path = path.absolute()
        self.settings.set_case_folder(path.parent)

        def op(context: TaskContext) -> OpenedCase:
            context.progress(0.0, f"Opening the case {path.name}…")
            case = load_case(path)
            checked = check_documents(
                [*case.documents, *case.templates], path, lambda: context.cancelled
            )
            return OpenedCase(path, case, tuple(checked))

        def error(exc: BaseException, details: str) -> None:
            if isinstance(exc, CaseError):
                self.failed.emit(f"The case {path.name} could not be opened: {exc.reason}", "")
            else:
                self.failed.emit(f"The case {path.name} could not be opened: {exc!r}", details)

        self._run(op, self._apply, error)

    def _apply(self, opened: OpenedCase) -> None:
        """Restore the case's options, then load its documents (the comparison follows)."""
        case = opened.case
        self.settings.set_engine_options(case.signature, case.match)
        self.settings.set_exclusion_options(case.exclusions)
        now = {c.saved.path: c.path for c in opened.checked if c.path is not None}
        documents = [now[d.path].resolve() for d in case.documents if d.path in now]
        templates = [now[d.path].resolve() for d in case.templates if d.path in now]
        pair = None
        if case.pair is not None and all(p in now for p in case.pair):
            pair = (now[case.pair[0]].resolve(), now[case.pair[1]].resolve())
        self.path = opened.path
        self.session.open_documents(documents, templates, pair)
        self.opened.emit(opened)

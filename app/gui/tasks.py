"""The one background-task helper every long job in the app goes through (style.md).

`TaskRunner.run(op, on_done, on_progress=..., on_error=..., on_cancelled=...)` runs
`op(context)` on a worker thread and returns a `Task[T]`, typed by what `op` returns. Whatever
happens — a result, an exception, a cancel — exactly one of the three outcome callbacks is
called, always on the GUI thread: a job that raises still reports, so the window never waits
forever (without `on_error`, its error goes to the app's log: never dropped). The job reports
progress and learns about cancel through its `TaskContext`; the engine's own progress callbacks
raise `Cancelled` through it, so cancel takes effect at the engine's next checkpoint (a few
milliseconds). A job cancelled while still queued never starts: it reports its cancel.

Every job runs with Python's cyclic garbage collector paused (`app.gc_pause`, counted across
concurrent workers): the jobs build millions of small acyclic objects, and the collections
they would trigger freeze the window. The callers do not pause it themselves.

`LatestTask` is "the newest job wins": starting a job cancels the one before it and ignores
whatever that one still reports, so a superseded job never reaches the UI.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable
from typing import Any, Generic, ParamSpec, TypeVar

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

from app.gc_pause import CyclicGcPaused
from app.gui.crash import log
from core.errors import Cancelled
from core.progress import Progress

T = TypeVar("T")
P = ParamSpec("P")

#: progress is sent to the GUI at most this often (seconds): enough for a smooth bar
PROGRESS_INTERVAL = 0.05


class TaskContext:
    """What a running job holds: progress reporting and the cancel flag."""

    def __init__(self, task: Task[Any]) -> None:
        self._task = task
        self._cancel = threading.Event()
        self._last_sent = 0.0

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def check(self) -> None:
        """Raise Cancelled if the user cancelled: call between steps of a long job."""
        if self._cancel.is_set():
            raise Cancelled

    def progress(self, fraction: float, message: str = "") -> None:
        """Report progress (0..1); raises Cancelled when the job should stop."""
        self.check()
        now = time.monotonic()
        if now - self._last_sent >= PROGRESS_INTERVAL or fraction >= 1.0:
            self._last_sent = now
            self._task._progress_from_worker.emit(float(fraction), message)

    def engine_progress(self, message: str, start: float = 0.0, share: float = 1.0) -> Progress:
        """An engine `progress` callback mapping its 0..1 onto [start, start + share], shown
        with `message` (what the teacher asked for, rather than the engine's inner steps)."""

        def report(fraction: float, _detail: str = "", /) -> None:
            self.progress(start + share * fraction, message)

        return report


class Task(QObject, Generic[T]):
    """One submitted job, whose result is a `T`. Its public signals and callbacks run on the
    GUI thread (`succeeded` carries the `T`).

    The worker emits the private `_…` signals; they reach this object's slots through queued
    connections (it lives on the GUI thread), which call the callbacks and re-emit publicly."""

    progressed = Signal(float, str)
    succeeded = Signal(object)
    failed = Signal(object, str)  # the exception and its formatted traceback
    was_cancelled = Signal()
    ended = Signal()  # after whichever outcome

    _progress_from_worker = Signal(float, str)
    _result_from_worker = Signal(object)
    _error_from_worker = Signal(object, str)
    _cancel_from_worker = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.context = TaskContext(self)
        self.running = True
        self._job: QRunnable | None = None
        self._progress_from_worker.connect(self._on_progress)
        self._result_from_worker.connect(self._on_result)
        self._error_from_worker.connect(self._on_error)
        self._cancel_from_worker.connect(self._on_cancel)

    def cancel(self) -> None:
        self.context._cancel.set()

    @Slot(float, str)
    def _on_progress(self, fraction: float, message: str) -> None:
        if self.running:
            self.progressed.emit(fraction, message)

    @Slot(object)
    def _on_result(self, result: object) -> None:
        self.running = False
        self.succeeded.emit(result)
        self.ended.emit()

    @Slot(object, str)
    def _on_error(self, error: object, details: str) -> None:
        self.running = False
        self.failed.emit(error, details)
        self.ended.emit()

    @Slot()
    def _on_cancel(self) -> None:
        self.running = False
        self.was_cancelled.emit()
        self.ended.emit()


class _Job(QRunnable, Generic[T]):
    def __init__(self, task: Task[T], op: Callable[[TaskContext], T]) -> None:
        super().__init__()
        self.task = task
        self.op = op
        # Python owns the runnable (the task keeps it until it ends): with auto-delete, Qt would
        # free it too, under the Python wrapper's feet
        self.setAutoDelete(False)

    def run(self) -> None:
        task = self.task
        try:
            try:
                task.context.check()  # cancelled while queued: it never starts
                with CyclicGcPaused():  # see the module docstring
                    result = self.op(task.context)
                task.context.check()  # cancelled at the very end: still a cancel
            except Cancelled:
                task._cancel_from_worker.emit()
            except BaseException as error:  # reported to the GUI, never lost
                task._error_from_worker.emit(error, traceback.format_exc())
            else:
                task._result_from_worker.emit(result)
        except RuntimeError:  # the app quit while this job ran: nobody is left to tell
            pass


def log_failure(error: BaseException, details: str) -> None:
    """What a job's error does when its owner gave no `on_error`: go to the app's log."""
    log.error("a background job failed: %r\n%s", error, details)


class TaskRunner(QObject):
    """Runs jobs on a thread pool (or inline, for deterministic tests) and reports on the GUI
    thread. Keeps its tasks alive until they end."""

    def __init__(self, parent: QObject | None = None, *, synchronous: bool = False) -> None:
        super().__init__(parent)
        self.synchronous = synchronous
        self.pool = QThreadPool(self)
        self._tasks: set[Task[Any]] = set()

    def run(
        self,
        op: Callable[[TaskContext], T],
        on_done: Callable[[T], None] | None = None,
        *,
        on_progress: Callable[[float, str], None] | None = None,
        on_error: Callable[[BaseException, str], None] | None = None,
        on_cancelled: Callable[[], None] | None = None,
    ) -> Task[T]:
        """Run `op(context)` on a worker (inline when synchronous); `on_done` gets its result,
        `on_error` the exception and its traceback (by default, `log_failure` logs them). The
        callbacks are connected before the job starts, so an inline job reports too."""
        # Python owns the task (no Qt parent): the runner holds it until it ends, then lets go
        task: Task[T] = Task()
        if on_progress is not None:
            task.progressed.connect(on_progress)
        if on_done is not None:
            task.succeeded.connect(on_done)
        task.failed.connect(on_error if on_error is not None else log_failure)
        if on_cancelled is not None:
            task.was_cancelled.connect(on_cancelled)
        task.ended.connect(lambda: self._forget(task))
        self._tasks.add(task)
        job = _Job(task, op)
        task._job = job
        if self.synchronous:
            job.run()
        else:
            self.pool.start(job)
        return task

    def _forget(self, task: Task[Any]) -> None:
        self._tasks.discard(task)

    @property
    def busy(self) -> bool:
        return bool(self._tasks)

    def cancel_all(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    def shutdown(self, timeout_ms: int = 3000) -> None:
        """Cancel everything and wait for the workers (on quit)."""
        self.cancel_all()
        self.pool.waitForDone(timeout_ms)


class LatestTask(QObject):
    """The newest job wins: one kind of job (the comparison on screen, the phrases of the
    comparison shown, a document's load) where only the latest request matters.

    `run` cancels the job still running before it and ignores whatever that one still reports
    (its progress, result, error or cancel), so a superseded job never reaches the UI; `abandon`
    does the same without starting another, and the owner is idle at once. `cancel` asks the job
    to stop but lets it report how it ended (a folder check saying "Cancelled."). `ended` is
    emitted after the outcome callback of a job that was not superseded or abandoned.

    Give it no Qt parent: a late result may arrive after its owner's widgets are gone, and the
    object it reaches must still exist (Python keeps it alive through the task's callbacks)."""

    ended = Signal()

    def __init__(self, runner: TaskRunner) -> None:
        super().__init__()
        self.runner = runner
        self._task: Task[Any] | None = None  # the latest job, while it runs
        self._generation = 0  # bumped by every run and abandon: older jobs are not current

    @property
    def task(self) -> Task[Any] | None:
        """The latest job while it runs, else None."""
        return self._task if self._task is not None and self._task.running else None

    @property
    def busy(self) -> bool:
        return self.task is not None

    def run(
        self,
        op: Callable[[TaskContext], T],
        on_done: Callable[[T], None] | None = None,
        *,
        on_progress: Callable[[float, str], None] | None = None,
        on_error: Callable[[BaseException, str], None] | None = None,
        on_cancelled: Callable[[], None] | None = None,
    ) -> Task[T]:
        """Start `op` as the latest job (see `TaskRunner.run`), superseding the one before."""
        self.abandon()
        generation = self._generation

        def current() -> bool:
            return self._generation == generation

        def outcome(callback: Callable[P, None] | None) -> Callable[P, None]:
            """`callback`, called only while this job is current, and the end noted after."""

            def report(*args: P.args, **kwargs: P.kwargs) -> None:
                if not current():
                    return
                try:
                    if callback is not None:
                        callback(*args, **kwargs)
                finally:
                    if current():  # (the callback may have started the next job already)
                        self._task = None
                        self.ended.emit()

            return report

        def progress(fraction: float, message: str) -> None:
            if current() and on_progress is not None:
                on_progress(fraction, message)

        task = self.runner.run(
            op,
            outcome(on_done),
            on_progress=progress,
            on_error=outcome(on_error if on_error is not None else log_failure),
            on_cancelled=outcome(on_cancelled),
        )
        if current() and task.running:  # (an inline runner has already finished it)
            self._task = task
        return task

    def cancel(self) -> None:
        """Ask the latest job to stop at its next check; it still reports how it ended."""
        if self._task is not None:
            self._task.cancel()

    def abandon(self) -> bool:
        """Cancel the latest job and ignore whatever it still reports: idle at once. True if
        a job was running."""
        task = self.task
        self._generation += 1
        self._task = None
        if task is None:
            return False
        task.cancel()
        return True

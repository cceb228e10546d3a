"""The background-task helper: outcomes reach the GUI thread, on a real worker thread too;
jobs pause the cyclic collector; the newest job wins."""

from __future__ import annotations

import gc
import logging
import threading
from collections.abc import Callable

import pytest
from PySide6.QtCore import QRunnable, QThread

from app.gui.tasks import LatestTask, Task, TaskContext, TaskRunner


def test_a_real_worker_reports_progress_and_result_on_the_gui_thread(qtbot) -> None:
    runner = TaskRunner()
    gui_thread = QThread.currentThread()
    seen: dict[str, object] = {}
    worker_started = threading.Event()

    def op(context: TaskContext) -> str:
        worker_started.set()
        seen["worker"] = threading.current_thread() is not threading.main_thread()
        context.progress(1.0, "done")
        return "result"

    def on_progress(fraction: float, message: str) -> None:
        seen["progress_on_gui"] = QThread.currentThread() is gui_thread
        seen["progress"] = (fraction, message)

    def on_done(result: object) -> None:
        seen["done_on_gui"] = QThread.currentThread() is gui_thread
        seen["result"] = result

    task = runner.run(op, on_progress=on_progress, on_done=on_done)
    with qtbot.waitSignal(task.ended, timeout=10_000):
        pass
    assert seen == {
        "worker": True,
        "progress_on_gui": True,
        "progress": (1.0, "done"),
        "done_on_gui": True,
        "result": "result",
    }
    assert not runner.busy


def test_an_exception_is_reported_never_lost(qtbot) -> None:
    runner = TaskRunner()
    errors: list[tuple[BaseException, str]] = []

    def op(context: TaskContext) -> None:
        raise ZeroDivisionError("boom")

    task = runner.run(op, on_error=lambda e, d: errors.append((e, d)))
    with qtbot.waitSignal(task.ended, timeout=10_000):
        pass
    ((error, details),) = errors
    assert isinstance(error, ZeroDivisionError) and "boom" in details and "Traceback" in details


def test_an_error_without_on_error_goes_to_the_log(sync_runner, caplog) -> None:
    def op(context: TaskContext) -> None:
        raise ZeroDivisionError("boom")

    with caplog.at_level(logging.ERROR, logger="doppel"):
        task = sync_runner.run(op)
    assert not task.running and not sync_runner.busy
    (record,) = [r for r in caplog.records if r.name == "doppel"]
    assert record.levelno == logging.ERROR
    assert "ZeroDivisionError('boom')" in record.getMessage()
    assert "Traceback" in record.getMessage()


def test_a_latest_job_without_on_error_logs_its_error_too(sync_runner, caplog) -> None:
    latest = LatestTask(sync_runner)
    ended: list[str] = []
    latest.ended.connect(lambda: ended.append("ended"))

    def op(context: TaskContext) -> None:
        raise OSError("the disk went away")

    with caplog.at_level(logging.ERROR, logger="doppel"):
        latest.run(op)
    assert any("the disk went away" in r.getMessage() for r in caplog.records)
    assert ended == ["ended"] and not latest.busy


def test_cancel_stops_a_long_job_at_its_next_check(qtbot) -> None:
    runner = TaskRunner()
    outcome: list[str] = []
    started = threading.Event()
    release = threading.Event()

    def op(context: TaskContext) -> None:
        started.set()
        release.wait(10)
        while True:  # a long job that checks its flag
            context.progress(0.5)

    task = runner.run(
        op,
        on_done=lambda _: outcome.append("done"),
        on_error=lambda *_: outcome.append("error"),
        on_cancelled=lambda: outcome.append("cancelled"),
    )
    assert started.wait(10)
    task.cancel()
    release.set()
    with qtbot.waitSignal(task.ended, timeout=10_000):
        pass
    assert outcome == ["cancelled"]


def test_synchronous_runner_runs_inline(qapp) -> None:
    runner = TaskRunner(synchronous=True)
    results: list[int] = []
    task = runner.run(lambda context: 42, results.append)
    assert results == [42] and not task.running and not runner.busy
    # a Qt object generic over its result: the subscripted type exists at run time too
    assert isinstance(task, Task) and Task[int].__args__ == (int,)


# -- the collector pause ---------------------------------------------------------------------


@pytest.fixture
def collector_on(qtbot) -> None:
    """The collector is on when the test starts: no worker of an earlier test still runs."""
    qtbot.waitUntil(gc.isenabled, timeout=10_000)


@pytest.mark.usefixtures("collector_on")
def test_every_job_runs_with_the_cyclic_collector_paused(sync_runner) -> None:
    during: list[bool] = []
    sync_runner.run(lambda context: during.append(gc.isenabled()))
    assert during == [False]
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_on")
def test_a_failing_job_turns_the_collector_back_on(sync_runner) -> None:
    errors: list[BaseException] = []

    def op(context: TaskContext) -> None:
        raise ValueError("boom")

    sync_runner.run(op, on_error=lambda error, _details: errors.append(error))
    assert [type(e) for e in errors] == [ValueError]
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_on")
def test_concurrent_jobs_keep_the_collector_paused_until_the_last_one_ends(qtbot) -> None:
    runner = TaskRunner()
    started = [threading.Event(), threading.Event()]
    release = [threading.Event(), threading.Event()]

    def job(k: int) -> Callable[[TaskContext], int]:
        def op(context: TaskContext) -> int:
            started[k].set()
            release[k].wait(10)
            return k

        return op

    first, second = runner.run(job(0)), runner.run(job(1))
    assert started[0].wait(10) and started[1].wait(10)
    assert not gc.isenabled()
    with qtbot.waitSignal(first.ended, timeout=10_000):
        release[0].set()
    assert not gc.isenabled()  # the second job still runs
    with qtbot.waitSignal(second.ended, timeout=10_000):
        release[1].set()
    assert gc.isenabled()


# -- the newest job wins ---------------------------------------------------------------------


class HeldPool:
    """Stands in for the runner's thread pool: jobs wait until the test runs them (on the GUI
    thread, so they report at once), for a deterministic order of events."""

    def __init__(self) -> None:
        self.jobs: list[QRunnable] = []

    def start(self, job: QRunnable) -> None:
        self.jobs.append(job)

    def run_next(self) -> None:
        self.jobs.pop(0).run()

    def waitForDone(self, _timeout: int = -1) -> bool:
        return True


@pytest.fixture
def held(qapp) -> tuple[TaskRunner, HeldPool]:
    runner = TaskRunner()
    pool = HeldPool()
    runner.pool = pool  # type: ignore[assignment]
    return runner, pool


class Outcomes:
    """Records every callback of the jobs started through `start`, by job name."""

    def __init__(self, latest: LatestTask) -> None:
        self.latest = latest
        self.seen: list[tuple[str, str, object]] = []
        self.ended = 0
        latest.ended.connect(self._ended)

    def _ended(self) -> None:
        self.ended += 1

    def start(self, name: str, op: Callable[[TaskContext], object]) -> Task[object]:
        return self.latest.run(
            op,
            lambda result: self.seen.append((name, "done", result)),
            on_progress=lambda fraction, _message: self.seen.append((name, "progress", fraction)),
            on_error=lambda error, _details: self.seen.append((name, "error", type(error))),
            on_cancelled=lambda: self.seen.append((name, "cancelled", None)),
        )


def test_a_new_job_asks_the_previous_one_to_stop_and_ignores_it(held) -> None:
    runner, pool = held
    latest = LatestTask(runner)
    outcomes = Outcomes(latest)
    first = outcomes.start("first", lambda context: "first")
    assert latest.busy and latest.task is first
    second = outcomes.start("second", lambda context: "second")
    assert first.context.cancelled  # asked to stop
    assert not second.context.cancelled and latest.task is second
    pool.run_next()  # the first job ends (cancelled): nobody hears of it
    assert outcomes.seen == [] and outcomes.ended == 0
    assert latest.busy
    pool.run_next()
    assert outcomes.seen == [("second", "done", "second")]
    assert outcomes.ended == 1 and not latest.busy and not runner.busy


def test_a_superseded_job_that_fails_reports_nothing(held) -> None:
    runner, pool = held
    outcomes = Outcomes(LatestTask(runner))

    def ignores_cancel(context: TaskContext) -> None:
        raise OSError("the disk went away")  # raised before its next check

    outcomes.start("first", ignores_cancel)
    outcomes.start("second", lambda context: 2)
    pool.run_next()
    pool.run_next()
    assert outcomes.seen == [("second", "done", 2)]


def test_abandon_is_idle_at_once_and_drops_the_late_outcome(held) -> None:
    runner, pool = held
    latest = LatestTask(runner)
    outcomes = Outcomes(latest)
    task = outcomes.start("only", lambda context: "late")
    assert latest.abandon() is True
    assert task.context.cancelled and not latest.busy and latest.task is None
    assert latest.abandon() is False  # nothing left to abandon
    pool.run_next()
    assert outcomes.seen == [] and outcomes.ended == 0


def test_cancel_lets_the_job_report_that_it_was_cancelled(held) -> None:
    runner, pool = held
    latest = LatestTask(runner)
    outcomes = Outcomes(latest)

    def op(context: TaskContext) -> None:
        context.progress(0.5)  # the job's next check

    outcomes.start("only", op)
    latest.cancel()
    assert latest.busy  # until the job stops
    pool.run_next()
    assert outcomes.seen == [("only", "cancelled", None)]
    assert outcomes.ended == 1 and not latest.busy


def test_a_job_cancelled_while_queued_never_starts(held) -> None:
    runner, pool = held
    started: list[str] = []
    outcome: list[str] = []
    task = runner.run(
        lambda context: started.append("started"),
        on_done=lambda _: outcome.append("done"),
        on_error=lambda *_: outcome.append("error"),
        on_cancelled=lambda: outcome.append("cancelled"),
    )
    task.cancel()  # still waiting for a worker
    pool.run_next()
    assert started == [] and outcome == ["cancelled"]
    assert not task.running and not runner.busy


def test_a_superseded_job_still_queued_never_starts(held) -> None:
    runner, pool = held
    outcomes = Outcomes(LatestTask(runner))
    started: list[str] = []

    def op(name: str) -> Callable[[TaskContext], str]:
        def run(context: TaskContext) -> str:
            started.append(name)
            return name

        return run

    outcomes.start("first", op("first"))
    outcomes.start("second", op("second"))
    pool.run_next()
    pool.run_next()
    assert started == ["second"]
    assert outcomes.seen == [("second", "done", "second")]


def test_an_outcome_callback_may_start_the_next_job(sync_runner) -> None:
    latest = LatestTask(sync_runner)
    ended: list[str] = []
    latest.ended.connect(lambda: ended.append("ended"))
    results: list[int] = []

    def then_next(result: int) -> None:
        results.append(result)
        if result == 1:
            latest.run(lambda context: 2, then_next)

    latest.run(lambda context: 1, then_next)
    assert results == [1, 2]
    assert ended == ["ended"]  # the job that was not superseded
    assert not latest.busy


def test_on_a_worker_a_superseded_result_already_sent_is_never_delivered(qtbot) -> None:
    """The race the helper exists for: the first job's progress and result are already on
    their way to the GUI thread when the second job starts."""
    runner = TaskRunner()
    latest = LatestTask(runner)
    outcomes = Outcomes(latest)

    def first_op(context: TaskContext) -> str:
        context.progress(1.0, "first")
        return "first"

    first = outcomes.start("first", first_op)
    runner.pool.waitForDone(10_000)  # finished on its worker; its signals wait in the queue
    assert outcomes.seen == []
    with qtbot.waitSignal(latest.ended, timeout=10_000):
        second = outcomes.start("second", lambda context: "second")
    assert first.context.cancelled and second.context.cancelled is False
    qtbot.waitUntil(lambda: not runner.busy, timeout=10_000)
    assert outcomes.seen == [("second", "done", "second")]
    assert outcomes.ended == 1

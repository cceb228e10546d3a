"""The background-task helper: outcomes reach the GUI thread, on a real worker thread too."""

from __future__ import annotations

import threading

from PySide6.QtCore import QThread

from app.gui.tasks import TaskContext, TaskRunner


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
    results: list[object] = []
    runner.run(lambda context: 42, on_done=results.append)
    qapp.processEvents()
    assert results == [42]

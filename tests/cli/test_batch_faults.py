"""`doppel batch` under faults: `--jobs` checked; pipes and devices in a class folder, given
directly or as a template, listed as failed (or refused) instead of hanging; a batch killed
(kill -9) or terminated (SIGTERM) leaves no worker process or resource tracker behind, and a
rerun after either gives what an uninterrupted run gives.

The runs that could hang run in a subprocess with a generous timeout (a guard against a hang,
not a timing assertion). The kill tests run the real command through a small driver script
whose documents named zz* never finish loading (in the workers too: a spawned worker runs the
driver's top level), so the batch is reliably caught with its workers busy; the driver prints
what the batch is doing on stderr, and the test waits for that, never for a time."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from app.cli.main import main
from core.batch.run import PROCESS_THRESHOLD, usable_cores
from core.resources import resource_path
from tests.core.classmaker import essay, write_class

ROOT = Path(__file__).resolve().parents[2]
#: a guard against a hang: far longer than any of these runs takes
GUARD_SECONDS = 180
POSIX = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
LINUX_PROCESSES = pytest.mark.skipif(
    not Path("/proc/self/environ").exists() or not hasattr(os, "pidfd_open"),
    reason="finds processes through /proc and waits on them with pidfds (Linux)",
)
NEEDS_WORKERS = pytest.mark.skipif(
    usable_cores() < 2, reason="worker processes need two cores (--jobs is capped)"
)
STUDENTS = 12
STUCK = ("zz1.txt", "zz2.txt")  # as many as workers: each holds one worker forever
#: the driver's arguments after the folder and --jobs (the cache file last)
DRIVER_ARGS = ("--lang", "en", "--json", "--cache")

DRIVER = r'''
"""`doppel` with two changes for the fault tests, in the parent and in every spawned worker
(which runs this file's top level too): a document named zz* never finishes loading
(DRIVER_MODE=block), or each load is reported (DRIVER_MODE=count); and the batch's progress
is printed on stderr, one line each."""
import os
import sys
import threading

import app.cli.batch as cli
import core.batch.run as run

MODE = os.environ.get("DRIVER_MODE", "block")


def say(line):
    os.write(2, (line + "\n").encode())  # one write: lines of several processes never mix
run._SAVE_EVERY = int(os.environ.get("DRIVER_SAVE_EVERY", run._SAVE_EVERY))
real_load = run.load_document


def load_document(path, options):
    if MODE == "count":
        say(f"load {path.name}")
    if MODE == "block" and path.name.startswith("zz"):
        say(f"blocking {path.name}")
        threading.Event().wait()  # until the process ends
    return real_load(path, options)


run.load_document = load_document
real_run_batch = cli.run_batch


def run_batch(*args, progress=None, **kwargs):
    def report(fraction, message=""):
        say(f"progress {message}")

    return real_run_batch(*args, progress=report, **kwargs)


cli.run_batch = run_batch

if __name__ == "__main__":
    from app.cli.main import main

    sys.exit(main())
'''


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def doppel(*argv: object, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m app ARGV` in a subprocess, within the guard."""
    return subprocess.run(
        [sys.executable, "-m", "app", *map(str, argv)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=GUARD_SECONDS,
    )


# -- --jobs ------------------------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["0", "-3"])
def test_jobs_below_one_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, jobs: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["batch", str(tmp_path), "--jobs", jobs, "--no-cache"])
    assert stopped.value.code == 2
    assert f"--jobs must be at least 1 (one worker process), not {jobs}" in capsys.readouterr().err


def test_jobs_beyond_the_cores_is_capped_and_said(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("original-essay.txt", "reworded-copy.txt"):
        (folder / name).write_bytes(resource_path("samples", name).read_bytes())
    cores = usable_cores()
    code, out, err = run(capsys, "batch", folder, "--jobs", 1000, "--no-cache", "--lang", "en")
    assert code == 0 and "2 documents" in out
    assert f"--jobs 1000 is more than the {cores} core" in err and f"using {cores}" in err


# -- pipes and devices -------------------------------------------------------------------------


@POSIX
def test_pipes_and_devices_in_a_folder_are_listed_not_read(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("original-essay.txt", "reworded-copy.txt"):
        (folder / name).write_bytes(resource_path("samples", name).read_bytes())
    os.mkfifo(folder / "pipe.txt")
    (folder / "zero.docx").symlink_to("/dev/zero")
    (folder / "loop.txt").symlink_to(folder / "loop.txt")
    direct = tmp_path / "handed-in.txt"
    os.mkfifo(direct)
    # through the cache: the files are hashed before they are read, so this is where a pipe
    # would hang and a device be read forever
    done = doppel(
        "batch", folder, direct, "--json", "--cache", tmp_path / "cache.sqlite3", "--lang", "en"
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    failed = {Path(f["path"]).name: f["error"] for f in data["failed"]}
    assert set(failed) == {"pipe.txt", "zero.docx", "loop.txt", "handed-in.txt"}
    assert "named pipe" in failed["pipe.txt"] and "named pipe" in failed["handed-in.txt"]
    assert "/dev/zero" in failed["zero.docx"] and "device" in failed["zero.docx"]
    assert "loop" in failed["loop.txt"]
    assert len(data["documents"]) == 2 and len(data["pairs"]) == 1


@POSIX
def test_a_pipe_as_template_fails_with_a_message(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "a.txt").write_bytes(resource_path("samples", "original-essay.txt").read_bytes())
    pipe = tmp_path / "prompt.txt"
    os.mkfifo(pipe)
    done = doppel("batch", folder, "--template", pipe, "--cache", tmp_path / "cache.sqlite3")
    assert done.returncode == 2
    assert f"the template {pipe}: it is a named pipe (FIFO)" in done.stderr


# -- killed and terminated batches -------------------------------------------------------------


class Lines:
    """A process's stderr, line by line, waited for with a deadline (select, no sleeping)."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stderr is not None
        self.fd = process.stderr.fileno()
        self.pending = b""
        self.lines: list[str] = []

    def wait_for(self, ready: Callable[[list[str]], bool], what: str) -> None:
        deadline = time.monotonic() + GUARD_SECONDS
        while not ready(self.lines):
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"gave up waiting for {what}: {self.lines[-8:]}"
            readable, _, _ = select.select([self.fd], [], [], remaining)
            if not readable:
                continue
            chunk = os.read(self.fd, 1 << 16)
            assert chunk, f"the batch ended before {what}: {self.lines[-8:]}"
            *complete, self.pending = (self.pending + chunk).split(b"\n")
            self.lines += [line.decode("utf-8", "replace") for line in complete]


def tagged_processes(tag: str) -> dict[int, str]:
    """Every live process whose environment carries `tag` (the batch's, its workers', its
    resource tracker's: they inherit it), with its command line."""
    marker = f"DOPPEL_FAULT_TAG={tag}".encode()
    found: dict[int, str] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            environ = Path(entry.path, "environ").read_bytes()
            command = Path(entry.path, "cmdline").read_bytes()
        except OSError:
            continue  # gone meanwhile, or not ours
        if marker in environ.split(b"\0"):
            found[int(entry.name)] = command.replace(b"\0", b" ").decode("utf-8", "replace")
    return found


def wait_until_gone(pids: Sequence[int]) -> list[int]:
    """Waits (pidfds, select) until every process of `pids` has ended, or the guard runs out;
    returns those still running."""
    handles: dict[int, int] = {}
    for pid in pids:
        try:
            handles[os.pidfd_open(pid)] = pid
        except ProcessLookupError:
            continue  # ended already
    deadline = time.monotonic() + GUARD_SECONDS
    try:
        waiting = set(handles)
        while waiting:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            readable, _, _ = select.select(list(waiting), [], [], remaining)
            waiting -= set(readable)
        return sorted(handles[fd] for fd in waiting)
    finally:
        for fd in handles:
            os.close(fd)


def make_class(folder: Path) -> Path:
    write_class(folder, STUDENTS)
    for k, name in enumerate(STUCK):
        (folder / name).write_text("\n\n".join(" ".join(essay(100 + k)) for _ in range(2)))
    assert STUDENTS + len(STUCK) >= PROCESS_THRESHOLD  # enough to use worker processes
    return folder


@pytest.fixture
def tags() -> Iterator[list[str]]:
    """The tags of the batches a test starts: whatever of them is still running when it ends
    (a failed test, a regression) is killed, by process id."""
    started: list[str] = []
    yield started
    for tag in started:
        for pid in tagged_processes(tag):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def start_blocked_batch(
    tmp_path: Path, folder: Path, cache: Path, tags: list[str], **extra_env: str
) -> tuple[subprocess.Popen[bytes], Lines, str]:
    """The batch through the driver, with two workers stuck on the zz documents, returned
    once every other document has reached the parent and both workers are stuck."""
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    tag = uuid.uuid4().hex
    tags.append(tag)
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DOPPEL_FAULT_TAG": tag,
        "DRIVER_MODE": "block",
        **extra_env,
    }
    process = subprocess.Popen(
        [sys.executable, str(driver), "batch", str(folder), "--jobs", "2", *DRIVER_ARGS, cache],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    lines = Lines(process)

    def stuck(seen: list[str]) -> bool:
        blocked = {line.split()[1] for line in seen if line.startswith("blocking ")}
        read = {line.split()[-1] for line in seen if line.startswith("progress Reading ")}
        return blocked == set(STUCK) and len(read) == STUDENTS

    lines.wait_for(stuck, "both workers stuck and every other document read")
    return process, lines, tag


def family_of(process: subprocess.Popen[bytes], tag: str) -> dict[int, str]:
    """The batch's worker processes and resource tracker (checked to be there)."""
    family = {pid: cmd for pid, cmd in tagged_processes(tag).items() if pid != process.pid}
    workers = [pid for pid, cmd in family.items() if "spawn_main" in cmd]
    trackers = [pid for pid, cmd in family.items() if "resource_tracker" in cmd]
    assert len(workers) == 2, family
    assert len(trackers) == 1, family
    return family


def uninterrupted(folder: Path) -> dict[str, object]:
    done = doppel("batch", folder, "--json", "--no-cache", "--lang", "en", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


@LINUX_PROCESSES
@NEEDS_WORKERS
def test_a_killed_batch_leaves_no_process_and_a_rerun_is_complete(
    tmp_path: Path, tags: list[str]
) -> None:
    folder = make_class(tmp_path / "class")
    cache = tmp_path / "cache.sqlite3"
    # saving every few documents: the cache holds part of the batch when it is killed
    process, _, tag = start_blocked_batch(tmp_path, folder, cache, tags, DRIVER_SAVE_EVERY="3")
    family = family_of(process, tag)

    process.kill()  # kill -9: no cleanup of its own
    process.wait(timeout=GUARD_SECONDS)
    assert wait_until_gone(list(family)) == [], family
    assert tagged_processes(tag) == {}

    rerun = doppel("batch", folder, "--json", "--cache", cache, "--lang", "en", "--jobs", "2")
    assert rerun.returncode == 0, rerun.stderr
    assert json.loads(rerun.stdout) == uninterrupted(folder)


@LINUX_PROCESSES
@NEEDS_WORKERS
def test_a_terminated_batch_stops_cleanly_and_keeps_what_it_read(
    tmp_path: Path, tags: list[str]
) -> None:
    folder = make_class(tmp_path / "class")
    cache = tmp_path / "cache.sqlite3"
    process, lines, tag = start_blocked_batch(tmp_path, folder, cache, tags)
    family = family_of(process, tag)

    process.send_signal(signal.SIGTERM)
    _, rest = process.communicate(timeout=GUARD_SECONDS)
    assert process.returncode == 128 + signal.SIGTERM
    assert "doppel: terminated" in rest.decode("utf-8", "replace")
    assert wait_until_gone(list(family)) == [], family
    assert tagged_processes(tag) == {}

    # the cache kept every document the batch had read: a rerun reads only the two it had not
    driver = tmp_path / "driver.py"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DRIVER_MODE": "count"}
    rerun = subprocess.run(
        [sys.executable, str(driver), "batch", str(folder), "--jobs", "2", *DRIVER_ARGS, cache],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=GUARD_SECONDS,
    )
    assert rerun.returncode == 0, rerun.stderr
    loads = sorted(
        line.split()[1] for line in rerun.stderr.splitlines() if line.startswith("load ")
    )
    assert loads == list(STUCK)
    assert json.loads(rerun.stdout) == uninterrupted(folder)
    assert lines.lines  # (the run was followed to the point it was stopped)

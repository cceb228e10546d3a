"""A worker process that dies while it reads a document (killed by the out-of-memory killer, a
crash in a C library, a parser that exits) fails only that document: the folder check reads the
others again in new pools, halving those in flight until the one that kills is alone, lists it
as failed with its reason, and finishes with everything else — the same pairs as the same folder
without that file, in a bounded number of pools however large the batch. A MemoryError (over a
worker's memory cap, or in the calling process) fails its document the same way, and no pool
breaks for it.

How a document kills its worker here, without touching what any other file does: the pool's
initializer (`core.batch.run._start_worker`, looked up when each pool is made) is replaced in
the test process by a function of this module, bound with the names of the files to die on.
A spawned worker imports this module to run it (pickles name functions by module), runs the real
initializer, then wraps `load_document` in the worker so that loading one of those files kills
the process for real: SIGKILL as the out-of-memory killer sends, a segmentation fault in C
(ctypes reads address 0), or os._exit. No environment variable or switch in the engine: the
engine under test is unchanged. The pools are counted by replacing `ProcessPoolExecutor` in the
test process (where it is made). The cores are set to two so that the batch uses two workers on
any machine. No sleeps, no timing."""

from __future__ import annotations

import ctypes
import functools
import math
import os
import shutil
import signal
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from core.batch import run
from core.batch.cache import DocumentCache
from core.batch.result import BatchResult
from core.batch.run import (
    _IN_FLIGHT_PER_WORKER,
    KILLED_READER,
    OUT_OF_MEMORY,
    PROCESS_THRESHOLD,
    WORKER_MEMORY_CAP,
    WORKER_MEMORY_FLOOR,
    BatchOptions,
    run_batch,
    worker_memory_ceiling,
)
from core.options import SignatureOptions
from tests.core.classmaker import write_class

EN = SignatureOptions(language="en")
WORKERS = 2
STUDENTS = 30  # more than the documents first handed to the pool (WORKERS * 8 = 16)
LINUX = pytest.mark.skipif(sys.platform != "linux", reason="only Linux caps a worker's memory")

# -- in the worker ---------------------------------------------------------------------------------

#: the real initializer (this module is imported in the test process before it is replaced, and
#: in a worker, where it never is)
_REAL_START = run._start_worker


def _die(how: str) -> None:
    """End this process the way `how` says."""
    if how == "kill" and hasattr(signal, "SIGKILL"):  # what the out-of-memory killer sends
        os.kill(os.getpid(), signal.SIGKILL)
    if how == "segfault":  # a crash in a C library (leaving no core file)
        if sys.platform != "win32":
            import resource

            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        ctypes.string_at(0)
    os._exit(9)  # a parser that exits (and "kill" where there is no SIGKILL)


def start_dying_worker(
    deaths: dict[str, str], once: str | None, job: Any, ceiling: int | None
) -> None:
    """(The pool's initializer in the tests, in each worker.) The real one, then: loading a
    file named in `deaths` ends the worker the way it says (`_die`); with `once` (a marker
    file's path), only the first time any worker loads it. A file named hog* allocates more
    than the worker's memory cap (which it checks is set)."""
    _REAL_START(job, ceiling)
    real_load = run.load_document

    def load_document(path: Path, options: SignatureOptions) -> Any:
        if path.name.startswith("hog"):
            import resource

            soft, _ = resource.getrlimit(resource.RLIMIT_AS)
            if ceiling is None or soft == resource.RLIM_INFINITY or soft > ceiling:
                raise RuntimeError(f"no memory cap in the worker ({soft})")
            bytearray(soft)  # more than the cap leaves: MemoryError
        how = deaths.get(path.name)
        if how is not None:
            if once is None:
                _die(how)
            try:
                os.close(os.open(once, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                pass  # it died once already: read it
            else:
                _die(how)
        return real_load(path, options)

    run.load_document = load_document


def start_no_worker(job: Any, ceiling: int | None) -> None:
    """(The pool's initializer in one test.) A worker that dies as it starts."""
    os._exit(9)


# -- in the test process ---------------------------------------------------------------------------


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of workers of each pool the batch makes, in order; two cores on any machine."""
    widths: list[int] = []

    class CountedPool(ProcessPoolExecutor):
        def __init__(self, max_workers: int | None = None, *args: Any, **kwargs: Any) -> None:
            widths.append(max_workers or 0)
            super().__init__(max_workers, *args, **kwargs)

    monkeypatch.setattr(run, "ProcessPoolExecutor", CountedPool)
    monkeypatch.setattr(run, "usable_cores", lambda: WORKERS)
    return widths


def dying_on(
    monkeypatch: pytest.MonkeyPatch, deaths: dict[str, str], once: Path | None = None
) -> None:
    """Workers that die when they load the files named in `deaths`, each as it says."""
    start = functools.partial(start_dying_worker, deaths, str(once) if once is not None else None)
    monkeypatch.setattr(run, "_start_worker", start)


def write_killers(folder: Path, names: tuple[str, ...]) -> None:
    """Files that would be found copied if they were read: each a copy of student03's essay."""
    for name in names:
        shutil.copyfile(folder / "student03.txt", folder / name)


def without(folder: Path, names: tuple[str, ...], where: Path) -> Path:
    """The oracle's folder: `folder` without the files in `names`."""
    shutil.copytree(folder, where, ignore=lambda _, listed: [n for n in listed if n in names])
    return where


def by_name(result: BatchResult) -> dict[str, Any]:
    """What a batch found, with the documents named by file name (the oracle reads another
    folder): the documents read, and each pair (its indices replaced by the names)."""
    names = [d.path.name for d in result.documents]
    return {
        "documents": sorted(names),
        "pairs": [(names[p.a], names[p.b], replace(p, a=0, b=0)) for p in result.pairs],
        "hint": result.common_hint,
    }


def pool_bound(killers: int) -> int:
    """The most pools a batch with `killers` documents that kill their worker may make, whatever
    its size: the first, and for each such document the pool that reads those in flight again,
    the one for the rest of those, 2·⌈log2 workers⌉ halving them (down to it alone) and the one
    that reads on (`core.batch.run.load_all`)."""
    return 1 + killers * (3 + 2 * math.ceil(math.log2(WORKERS)))


def killed_batch(
    tmp_path: Path, killers: tuple[str, ...], **options: Any
) -> tuple[BatchResult, BatchResult, Path]:
    folder = write_class(tmp_path / "class", STUDENTS)
    write_killers(folder, killers)
    oracle_folder = without(folder, killers, tmp_path / "oracle")
    oracle = run_batch([oracle_folder], options=BatchOptions(signature=EN, workers=1))
    result = run_batch([folder], options=BatchOptions(signature=EN, workers=WORKERS), **options)
    return result, oracle, folder


def test_the_batch_is_big_enough_for_workers() -> None:
    assert STUDENTS + 2 >= PROCESS_THRESHOLD
    assert STUDENTS > WORKERS * _IN_FLIGHT_PER_WORKER  # a killer after the first hand-out too


def test_a_document_that_kills_its_worker_fails_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pools: list[int]
) -> None:
    killer = ("student20x.txt",)  # handed out after the first 16: the pool is reading on
    dying_on(monkeypatch, {killer[0]: "kill"})
    result, oracle, _ = killed_batch(tmp_path, killer)
    assert [(f.path.name, f.error) for f in result.failed] == [(killer[0], KILLED_READER)]
    assert by_name(result) == by_name(oracle)  # everything else read, the same pairs found
    assert len(result.documents) == STUDENTS
    assert pools[0] == WORKERS and 2 < len(pools) <= pool_bound(1), pools
    assert 1 in pools  # it was found alone


def test_killers_among_the_first_in_flight_and_the_cache_keeps_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pools: list[int]
) -> None:
    """Two documents that kill their worker, one among the first handed out (by a crash in C),
    the other last (by exiting). What was read is in the cache."""
    killers = ("student01x.txt", "student30x.txt")
    dying_on(monkeypatch, {killers[0]: "segfault", killers[1]: "exit"})
    cache = DocumentCache(tmp_path / "cache.sqlite3")
    try:
        result, oracle, _ = killed_batch(tmp_path, killers, cache=cache)
        assert len(cache) == STUDENTS  # every document read was kept; the killers are not
    finally:
        cache.close()
    assert sorted((f.path.name, f.error) for f in result.failed) == [
        (name, KILLED_READER) for name in killers
    ]
    assert by_name(result) == by_name(oracle)
    assert len(pools) <= pool_bound(2), pools


def test_a_worker_killed_once_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pools: list[int]
) -> None:
    """A worker killed while it reads a file that reads fine the next time (the out-of-memory
    killer chose it while memory was short): the documents in flight are read again together,
    and nothing fails."""
    folder = write_class(tmp_path / "class", STUDENTS)
    marker = tmp_path / "died"
    dying_on(monkeypatch, {"student05.txt": "kill"}, once=marker)
    result = run_batch([folder], options=BatchOptions(signature=EN, workers=WORKERS))
    oracle = run_batch([folder], options=BatchOptions(signature=EN, workers=1))
    assert marker.exists()  # a worker did die
    assert result.failed == ()
    assert by_name(result) == by_name(oracle)
    # the first pool, the one that read those in flight again, and the one that read on
    assert pools == [WORKERS, WORKERS, WORKERS]


def test_workers_that_cannot_start_are_no_documents_fault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pools: list[int]
) -> None:
    """A worker that dies before it is given anything (here: every one): the batch stops with
    BrokenProcessPool after a few pools, instead of failing every document one pool at a time."""
    folder = write_class(tmp_path / "class", STUDENTS)
    monkeypatch.setattr(run, "_start_worker", start_no_worker)
    with pytest.raises(BrokenProcessPool, match="stop before they are given a document"):
        run_batch([folder], options=BatchOptions(signature=EN, workers=WORKERS))
    assert pools[-1] == 1 and len(pools) <= 4, pools


# -- memory ----------------------------------------------------------------------------------------


@LINUX
def test_a_document_over_the_memory_cap_fails_in_its_worker_without_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pools: list[int]
) -> None:
    folder = write_class(tmp_path / "class", STUDENTS)
    (folder / "hog.txt").write_text("The hog asks for more memory than a worker may use.")
    dying_on(monkeypatch, {})
    result = run_batch([folder], options=BatchOptions(signature=EN, workers=WORKERS))
    assert [(f.path.name, f.error) for f in result.failed] == [("hog.txt", OUT_OF_MEMORY)]
    assert len(result.documents) == STUDENTS
    assert pools == [WORKERS]  # a MemoryError is an outcome: the pool goes on


@pytest.mark.parametrize("where", ["load_document", "document_profile"])
def test_a_memory_error_in_the_calling_process_fails_its_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """Fewer documents than PROCESS_THRESHOLD (or one worker): read in this process, where a
    MemoryError, while it is read or after, fails its document and the batch goes on."""
    folder = write_class(tmp_path / "class", 4)
    real = getattr(run, where)

    def short_of_memory(document: Any, *args: Any) -> Any:
        name = document.name if isinstance(document, Path) else document.path.name
        if name == "student02.txt":
            raise MemoryError
        return real(document, *args)

    monkeypatch.setattr(run, where, short_of_memory)
    result = run_batch([folder], options=BatchOptions(signature=EN, workers=1))
    assert [(f.path.name, f.error) for f in result.failed] == [("student02.txt", OUT_OF_MEMORY)]
    assert len(result.documents) == 3


def test_the_memory_cap_is_a_share_of_the_computers_memory_within_bounds() -> None:
    gib = 1 << 30
    if sys.platform != "linux":
        assert worker_memory_ceiling(4, 16 * gib) is None
        return
    assert worker_memory_ceiling(8, 8 * gib) == 2 * gib  # a small laptop: the floor
    assert worker_memory_ceiling(4, 12 * gib) == 3 * gib  # its share
    assert worker_memory_ceiling(2, 64 * gib) == 4 * gib  # a large machine: the cap
    assert worker_memory_ceiling(1, 0) == 2 * gib  # memory unknown
    ceiling = worker_memory_ceiling(WORKERS)
    assert ceiling is not None and WORKER_MEMORY_FLOOR <= ceiling <= WORKER_MEMORY_CAP

"""The folder check on a Dask distributed cluster (`--scheduler`, `core.batch.cluster`) gives
exactly the local result, and stops, fails and says why as locally.

A real cluster is started once for the file: a `distributed.LocalCluster` of two worker
processes (one thread each, on 127.0.0.1 only, no dashboard), closed at the end. The local
run, in this process, is the oracle: the documents, the failed files with their reasons and
the ranked pairs must be equal, on a generated collection with planted copies (one an edited
copy) and bad files (a damaged .docx, an empty file), with and without the cache and
exclusions, against an archive, and through `doppel batch --scheduler` in a subprocess.
Without `distributed` (the headless lane installs no `cluster` extra) those tests skip; the
tests of the missing extra, and that a check without --scheduler never imports Dask, run
everywhere. No sleeps, no timing."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from core.batch import cluster as cluster_module
from core.batch.cache import DocumentCache
from core.batch.cluster import MISSING_EXTRA, NOT_SHARED, Cluster, ClusterError
from core.batch.result import BatchResult, FailedDocument, Submission
from core.batch.run import KILLED_READER, BatchOptions, load_all, run_batch
from core.errors import Cancelled
from core.options import ExclusionOptions, MatchOptions, SignatureOptions
from tests.core.docmakers import make_docx
from tests.core.test_batch import PLANTED, make_collection

ROOT = Path(__file__).resolve().parents[2]
EN = SignatureOptions(language="en")
#: a guard against a hang (never reached when all is well)
GUARD_SECONDS = 120


@pytest.fixture(scope="session")
def scheduler() -> Iterator[str]:
    """The address of a real cluster of two worker processes on this computer."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        host="127.0.0.1",
        dashboard_address=None,
    ) as local:
        yield local.scheduler_address


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Twenty essays with planted copies (PLANTED), a Word file, a damaged Word file and an
    empty file."""
    folder = tmp_path_factory.mktemp("class")
    make_collection(folder, 20)
    make_docx(folder / "word.docx", ["The word file has sentences of its own. It copies none."])
    (folder / "damaged.docx").write_bytes(b"PK\x03\x04 not a zip after all")
    (folder / "empty.txt").write_bytes(b"")
    return folder


def linked(result: BatchResult) -> set[frozenset[str]]:
    return {
        frozenset((result.documents[p.a].path.name, result.documents[p.b].path.name))
        for p in result.pairs
    }


def assert_same(remote: BatchResult, local: BatchResult) -> None:
    assert remote.documents == local.documents
    assert remote.failed == local.failed
    assert remote.pairs == local.pairs
    assert remote == local


def running_tasks(address: str) -> list[str]:
    """The tasks the scheduler knows of (none once a check is done or cancelled)."""
    import distributed

    with distributed.Client(address, timeout=GUARD_SECONDS, set_as_default=False) as client:

        def tasks(dask_scheduler: Any) -> list[str]:
            return [str(key) for key in dask_scheduler.tasks]

        found: list[str] = client.run_on_scheduler(tasks)
        return found


# -- the same result -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        BatchOptions(signature=EN),
        BatchOptions(signature=EN, match=MatchOptions(reworded=False)),
        BatchOptions(signature=EN, all_pairs=True),
        BatchOptions(signature=EN, exclusions=ExclusionOptions(quotations=True, common_share=0.5)),
    ],
    ids=["default", "strict", "all-pairs", "exclusions"],
)
def test_the_cluster_gives_the_local_result(
    scheduler: str, collection: Path, options: BatchOptions
) -> None:
    local = run_batch([collection], options=replace(options, workers=1))
    remote = run_batch([collection], options=replace(options, scheduler=scheduler))
    assert_same(remote, local)
    assert {f.path.name for f in remote.failed} == {"damaged.docx", "empty.txt"}
    edited = {frozenset(("essay05.txt", "essay06.txt"))}  # found by the reworded search only
    assert linked(remote) == (PLANTED if options.match.reworded else PLANTED - edited)


def test_against_an_archive_and_through_the_cache(
    scheduler: str, collection: Path, tmp_path: Path
) -> None:
    """The cluster's workers hand back the cache rows, which this process writes: a second
    run (local) reads everything from the cache and gives the same result."""
    archive = tmp_path / "archive"
    archive.mkdir()
    make_collection(archive, 8, seed=1)  # the same essays: every one copied whole
    options = BatchOptions(signature=EN, workers=1)
    cache = DocumentCache(tmp_path / "cache.sqlite")
    try:
        remote = run_batch(
            [collection],
            [archive],
            BatchOptions(signature=EN, scheduler=scheduler),
            cache=cache,
        )
        misses = cache.misses
        cached = run_batch([collection], [archive], options, cache=cache)
        assert cache.misses == misses  # nothing read again
    finally:
        cache.close()
    local = run_batch([collection], [archive], options)
    assert_same(remote, local)
    assert_same(cached, local)
    archived = {d.path for d in remote.documents if d.path.parent == archive}
    assert len(archived) == 8


# -- cancel ------------------------------------------------------------------------------------


@pytest.mark.parametrize("stage", ["Reading", "Comparing"])
def test_cancel_stops_the_check_and_leaves_no_task(
    scheduler: str, collection: Path, stage: str
) -> None:
    said: list[str] = []

    def cancel(fraction: float, message: str = "") -> None:
        said.append(message)
        if message.startswith(stage):
            raise Cancelled

    options = BatchOptions(signature=EN, scheduler=scheduler, all_pairs=True)
    with pytest.raises(Cancelled):
        run_batch([collection], options=options, progress=cancel)
    assert said[-1].startswith(stage)
    assert running_tasks(scheduler) == []
    # and the cluster checks on as before
    again = run_batch([collection], options=BatchOptions(signature=EN, scheduler=scheduler))
    assert linked(again) == PLANTED


# -- workers that cannot see the files -----------------------------------------------------------


def test_a_file_the_workers_cannot_find_is_failed_with_the_reason(
    scheduler: str, collection: Path, tmp_path: Path
) -> None:
    """The client lists a file the workers cannot open (here: gone from the shared path)."""
    present = collection / "essay00.txt"
    missing = tmp_path / "elsewhere" / "essay.txt"
    submissions = [Submission(present, "a"), Submission(missing, "b")]
    with Cluster(scheduler) as cluster:
        loaded, failed = load_all(submissions, EN, None, None, None, cluster=cluster)
    assert list(loaded) == [present]
    assert failed == [FailedDocument(missing, NOT_SHARED)]


try:  # (a worker plugin must be one; without the extra the tests that use it skip)
    from distributed.diagnostics.plugin import WorkerPlugin
except ImportError:  # pragma: no cover (the headless lane)
    WorkerPlugin = object


class DyingReader(WorkerPlugin):  # type: ignore[misc,valid-type]
    """(On each worker, also each one restarted after a death.) Reading a file of this name
    ends the worker process, as the out-of-memory killer or a crashing parser would."""

    name = "dying-reader"

    def __init__(self, file_name: str) -> None:
        self.file_name = file_name

    def setup(self, worker: Any) -> None:
        import os

        from core.batch import run

        real_load = run.load_document

        def load_document(path: Path, options: SignatureOptions) -> Any:
            if path.name == self.file_name:
                os._exit(9)
            return real_load(path, options)

        run.load_document = load_document


def test_a_file_that_kills_its_workers_is_failed_alone(collection: Path, tmp_path: Path) -> None:
    """The reading task holding it is split until it is alone, it is failed with the reason,
    and everything else is the local result without it (a cluster of its own: the scheduler
    gives up on a task the first time its worker dies, and restarted workers die again)."""
    distributed = pytest.importorskip("distributed")
    import dask

    folder = tmp_path / "class"
    shutil.copytree(collection, folder)
    local = run_batch([folder], [], BatchOptions(signature=EN, workers=1))  # (the oracle)
    killer = folder / "killer.txt"
    killer.write_text("An essay that ends the process reading it. " * 20, "utf-8")
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        distributed.LocalCluster(
            n_workers=2,
            processes=True,
            threads_per_worker=1,
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
    ):
        with distributed.Client(cluster, set_as_default=False) as client:
            client.register_plugin(DyingReader(killer.name))
        address = cluster.scheduler_address
        remote = run_batch([folder], [], BatchOptions(signature=EN, scheduler=address))
    assert remote.failed == tuple(
        sorted([*local.failed, FailedDocument(killer, KILLED_READER)], key=lambda f: str(f.path))
    )
    assert remote.documents == local.documents
    assert remote.pairs == local.pairs


# -- a cluster that cannot be used ---------------------------------------------------------------


def closed_port() -> int:
    """A local port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_an_unreachable_scheduler_is_said_with_its_address(
    capsys: pytest.CaptureFixture[str], collection: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("distributed")
    address = f"tcp://127.0.0.1:{closed_port()}"
    with pytest.raises(ClusterError, match=f"scheduler at {address} could not be reached"):
        Cluster(address, timeout=0.5)
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", 0.5)
    code = main(["batch", str(collection), "--no-cache", "--scheduler", address])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.startswith(f"doppel: the cluster's scheduler at {address} could not be reached")
    assert "Traceback" not in err


def test_without_the_extra_the_check_says_how_to_install_it(
    capsys: pytest.CaptureFixture[str], collection: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
    with pytest.raises(ClusterError) as raised:
        Cluster("tcp://127.0.0.1:8786")
    assert str(raised.value) == MISSING_EXTRA
    assert "pip install 'doppel-check[cluster]'" in MISSING_EXTRA
    code = main(["batch", str(collection), "--no-cache", "--scheduler", "tcp://127.0.0.1:8786"])
    out, err = capsys.readouterr()
    assert (code, out, err) == (2, "", f"doppel: {MISSING_EXTRA}\n")


def test_a_check_without_a_scheduler_never_imports_dask(collection: Path) -> None:
    script = (
        "import sys\n"
        "from app.cli.main import main\n"
        f"code = main(['batch', {str(collection)!r}, '--no-cache', '--json', '--jobs', '1'])\n"
        "assert code == 0, code\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=GUARD_SECONDS,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


# -- the command line ----------------------------------------------------------------------------


def test_doppel_batch_with_a_scheduler_prints_the_local_result(
    capsys: pytest.CaptureFixture[str], scheduler: str, collection: Path
) -> None:
    """In a subprocess, as a teacher runs it (nothing on stderr but what Doppel says), and its
    table in this process."""
    batch = [sys.executable, "-m", "app", "batch", str(collection), "--no-cache"]
    remote = subprocess.run(
        [*batch, "--json", "--scheduler", scheduler],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=GUARD_SECONDS,
    )
    assert remote.returncode == 0, remote.stderr
    assert remote.stderr == ""
    local = main(["batch", str(collection), "--no-cache", "--json", "--jobs", "1"])
    assert local == 0
    assert json.loads(remote.stdout) == json.loads(capsys.readouterr().out)
    tables = []
    for where in (["--jobs", "1"], ["--scheduler", scheduler]):
        assert main(["batch", str(collection), "--no-cache", *where]) == 0
        tables.append(capsys.readouterr().out)
    assert tables[1] == tables[0]
    assert "damaged.docx" in tables[1] and "essay00.txt" in tables[1]


# -- the archive on the cluster ------------------------------------------------------------------


def test_archive_add_and_check_on_the_cluster_equal_the_local_ones(
    scheduler: str, collection: Path, tmp_path: Path
) -> None:
    from core.archive.add import add_to_archive
    from core.archive.check import check_against_archive
    from core.archive.index import ArchiveIndex

    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    for path in collection.iterdir():
        moved = path.name in ("essay00.txt", "essay02.txt", "essay04.txt", "essay05.txt")
        ((new if moved else old) / path.name).write_bytes(path.read_bytes())
    results = []
    for at in (None, scheduler):
        with ArchiveIndex(tmp_path / f"{at is None}.sqlite3", create=True, options=EN) as index:
            added = add_to_archive([old], index, BatchOptions(workers=1, scheduler=at))
            checked = check_against_archive(
                [new], index, BatchOptions(signature=EN, workers=1, scheduler=at)
            )
            results.append((added.added, added.failed, checked.result))
    assert results[0] == results[1]
    assert results[0][2].pairs  # the new essays copy archived ones

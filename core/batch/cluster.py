"""A folder check on a Dask distributed cluster (`--scheduler ADDRESS`; the optional `cluster`
extra): reading the submissions into their records and comparing the candidate pairs run on the
cluster's workers instead of this computer's processes, with the same results, progress and
cancel. Without a scheduler none of this is used, and Dask is never imported.

What stays here, in the calling process: collecting the inputs, hashing the files, the cache
(looked up before, written after: workers only compute, and hand back the new cache rows they
packed, as local workers do), the candidate index and the ranking. What goes to the workers:
`read_submission` of a few submissions per task (its failures are FailedDocuments with their
reason, never exceptions), and `compare_pair` of a chunk of candidate pairs against the
documents' records, which are sent to every worker once per check (`Client.scatter`,
broadcast), never per pair.

Workers read the submissions by path, so they must see the folders at the same paths (a shared
folder, as Dask's workers read their data from shared storage): sending the files' bytes instead
would route every file through this computer's network link and the scheduler, which is the
bottleneck the cluster is meant to remove. A worker that cannot find a file fails it with
NOT_SHARED. A worker process that dies reading a document is restarted by its nanny and the task
tried again; a task that kills `distributed.scheduler.allowed-failures` workers (3 by default)
fails: its submissions are read one per task, and the one that still kills its workers is
failed with KILLED_READER, as locally. (A dying worker fails every task it held, so a lone
submission that failed beside others is read once more with nothing else in flight first: only
the one that kills then is failed.) Each worker's memory is its nanny's `--memory-limit`
(Dask's own ceiling); Doppel does not cap the address space of a process it does not own.

Cancel: the progress callback raising (core.errors.Cancelled, or Ctrl+C) cancels every task
not yet done (the scheduler forgets them at once; a worker finishes only the document it is
reading) and the exception goes on to the caller, who closes the Cluster."""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import CancelledError
from pathlib import Path
from types import ModuleType, TracebackType
from typing import TYPE_CHECKING, Any

from core.batch.ranking import rank_key
from core.batch.result import BatchDocument, FailedDocument, PairResult, Submission
from core.batch.run import KILLED_READER, LoadedDocument, ReadJob, compare_pair, read_submission
from core.options import MatchOptions, SignatureOptions
from core.progress import Progress
from core.version import doppel_version

if TYPE_CHECKING:
    from distributed import Future

#: seconds to wait for the scheduler to answer, and for it to have a worker
CONNECT_TIMEOUT = 10.0
#: what a check needs to be told when the extra is missing
MISSING_EXTRA = (
    "the cluster extra is not installed: pip install 'doppel-check[cluster]' "
    "(on this computer and on every worker)"
)
#: why a document is failed when a worker cannot find its file
NOT_SHARED = (
    "the cluster's worker could not open it (is the folder shared with the workers, at the "
    "same path?)"
)
#: submissions read by one task at most (fewer when the batch is small: every worker busy)
READ_CHUNK = 8
#: candidate pairs compared by one task at most
COMPARE_CHUNK = 512
#: reading tasks handed to the cluster per worker thread ahead of those finished: enough to
#: keep the workers busy across the network, few enough that memory does not grow with the batch
_TASKS_AHEAD_PER_THREAD = 4

#: a submission's reading task, as `core.batch.run.load_all` prepares it (`read_submission`'s
#: arguments): the submission, its signature options, its cache key, its cached row, whether to
#: fingerprint
Work = tuple[Submission, SignatureOptions, str | None, bytes | None, bool]
Outcome = LoadedDocument | FailedDocument


class ClusterError(Exception):
    """The cluster cannot be used (the extra missing, the scheduler unreachable, workers without
    Doppel, the connection lost); `str(error)` says why in plain words, naming the address. The
    command line prints it and exits 2."""


def _distributed() -> ModuleType:
    """The `distributed` package, imported only when a cluster is asked for."""
    try:
        import distributed
    except ImportError as error:
        raise ClusterError(MISSING_EXTRA) from error
    return distributed


class Cluster:
    """A connection to a Dask scheduler, for one check (a context manager: closed after it).
    Raises ClusterError if the extra is missing, the scheduler cannot be reached within
    `timeout` seconds (CONNECT_TIMEOUT by default) or has no worker, or its workers do not
    run this version of Doppel."""

    def __init__(self, address: str, timeout: float | None = None) -> None:
        distributed = _distributed()
        self.address = address
        timeout = CONNECT_TIMEOUT if timeout is None else timeout
        try:
            client = distributed.Client(address, timeout=timeout, set_as_default=False)
        except (OSError, ValueError, TypeError) as error:  # (a timeout is an OSError)
            raise ClusterError(
                f"the cluster's scheduler at {address} could not be reached within "
                f"{timeout:g} s ({error}): is it running, and is the address right "
                "(e.g. tcp://host:8786)?"
            ) from error
        # (Any: several of distributed's methods are untyped)
        self._client: Any = client
        try:
            self._check_workers(timeout)
        except BaseException:
            self.close()
            raise

    def _check_workers(self, timeout: float) -> None:
        """At least one worker, and every worker able to run this Doppel."""
        try:
            self._client.wait_for_workers(1, timeout=timeout)
        except Exception as error:
            raise ClusterError(
                f"the cluster's scheduler at {self.address} has no worker (none joined within "
                f"{timeout:g} s): start workers with `dask worker {self.address}`"
            ) from error
        try:
            versions = set(self._client.run(doppel_version).values())
        except Exception as error:  # (Doppel cannot be imported there)
            raise ClusterError(
                f"the workers of the cluster at {self.address} cannot run Doppel ({error}): "
                "install doppel-check with the cluster extra on every worker"
            ) from error
        here = doppel_version()
        others = sorted(versions - {here})
        if others:
            raise ClusterError(
                f"the workers of the cluster at {self.address} run Doppel "
                f"{', '.join(others)}, this computer {here}: install the same version on "
                "every worker"
            )

    @property
    def threads(self) -> int:
        """The worker threads of the cluster now (each runs one task at a time)."""
        threads: dict[str, int] = self._client.nthreads()
        return max(1, sum(threads.values()))

    def close(self) -> None:
        """Disconnects (the scheduler forgets this check's tasks and data)."""
        self._client.close()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    # -- reading ---------------------------------------------------------------------------------

    def read(
        self,
        todo: Sequence[Submission],
        work: Callable[[Submission], Work],
        job: ReadJob,
        take: Callable[[Submission, Outcome, int], None],
    ) -> None:
        """Reads the submissions in `todo` on the workers and hands each outcome to `take`
        (with how many are done), as they arrive. `work` gives a submission's task (called
        here, just before it is sent: it may read the cache). The job goes with each task (it
        is small): a job scattered to the workers once is lost for good when every worker
        holding it dies — a file that kills its readers can take both of two workers, and the
        task that reads it alone then cannot run on the restarted ones. Raises what `take`
        raises (a cancel), after cancelling the tasks in flight."""
        if not todo:
            return
        distributed = _distributed()
        size = _chunk_size(len(todo), self.threads, READ_CHUNK)
        chunks = deque(list(todo[k : k + size]) for k in range(0, len(todo), size))
        ahead = self.threads * _TASKS_AHEAD_PER_THREAD
        # each task's submissions, and whether it ran with nothing else in flight
        running: dict[Future[Any], tuple[list[Submission], bool]] = {}
        # lone submissions whose worker died while other tasks were in flight: a dying worker
        # fails every task it held, so each is read again alone before it is called a killer
        suspects: deque[list[Submission]] = deque()
        arrived = distributed.as_completed(loop=self._client.loop)
        done = 0

        def send(chunk: list[Submission], alone: bool) -> None:
            tasks = [work(submission) for submission in chunk]
            future = self._client.submit(read_chunk, tasks, job, pure=False)
            running[future] = (chunk, alone)
            arrived.add(future)

        def submit() -> None:
            while chunks and len(running) < ahead:
                send(chunks.popleft(), False)
            if suspects and not chunks and not running:
                send(suspects.popleft(), True)

        try:
            submit()
            for future in arrived:
                chunk, alone = running.pop(future)
                outcomes = self._outcomes(future, chunk, alone)
                if outcomes is None:  # one of them may kill its workers: each alone
                    chunks.extendleft([submission] for submission in reversed(chunk))
                elif not outcomes:  # (it may have died beside one that kills)
                    suspects.append(chunk)
                else:
                    for submission, outcome in zip(chunk, outcomes, strict=True):
                        done += 1
                        take(submission, outcome, done)
                submit()
        except BaseException:
            self._cancel(list(running))
            raise

    def _outcomes(
        self, future: Future[Any], chunk: list[Submission], alone: bool
    ) -> list[Outcome] | None:
        """A finished reading task's outcomes. None when a task of several failed (its
        submissions are then read one by one); [] when a lone submission's worker died while
        other tasks ran (it is read again with nothing else in flight); a lone submission
        whose task failed otherwise is failed (KILLED_READER when its worker died while it
        alone was being read)."""
        try:
            outcomes: list[Outcome] = future.result()
            return outcomes
        except CancelledError as error:
            raise self._lost(error) from error
        except Exception as error:
            if len(chunk) > 1:
                return None
            if type(error).__name__ == "KilledWorker":
                return [FailedDocument(chunk[0].path, KILLED_READER)] if alone else []
            reason = f"could not be read because of an internal error ({error!r})"
            return [FailedDocument(chunk[0].path, reason)]

    # -- comparing -------------------------------------------------------------------------------

    def compare(
        self,
        candidates: Sequence[tuple[int, int]],
        documents: Sequence[BatchDocument],
        options: MatchOptions,
        progress: Progress | None = None,
    ) -> list[PairResult]:
        """`core.batch.run.compare_candidates` on the workers: the same pairs in the same
        order. The documents are sent to every worker once; each task compares a chunk of
        candidate pairs. Progress runs from 0.7 to 1.0 as chunks finish."""
        if not candidates:
            return []
        distributed = _distributed()
        if progress is not None:
            progress(0.7, "Comparing…")
        [shared] = self._client.scatter([tuple(documents)], broadcast=True, hash=False)
        size = _chunk_size(len(candidates), self.threads, COMPARE_CHUNK)
        chunks = [list(candidates[k : k + size]) for k in range(0, len(candidates), size)]
        futures = {
            self._client.submit(compare_chunk, chunk, shared, options, pure=False): n
            for n, chunk in enumerate(chunks)
        }
        found: dict[int, list[PairResult]] = {}
        compared = 0
        try:
            for future in distributed.as_completed(futures, loop=self._client.loop):
                n = futures[future]
                found[n] = self._compared(future)
                compared += len(chunks[n])
                if progress is not None:
                    progress(0.7 + 0.3 * compared / len(candidates), "Comparing…")
        except BaseException:
            self._cancel([*futures, shared])
            raise
        shared.release()
        # in the candidates' order before ranking, as locally (ties keep that order)
        pairs = [pair for n in range(len(chunks)) for pair in found[n]]
        pairs.sort(key=lambda p: rank_key(p, p.a, p.b))
        return pairs

    def _compared(self, future: Future[Any]) -> list[PairResult]:
        """A finished comparing task's pairs; an engine error is raised as it would be
        locally."""
        try:
            pairs: list[PairResult] = future.result()
            return pairs
        except CancelledError as error:
            raise self._lost(error) from error
        except Exception as error:
            if type(error).__name__ == "KilledWorker":
                raise ClusterError(
                    f"the workers of the cluster at {self.address} kept stopping while they "
                    "compared pairs (out of memory? see the workers' --memory-limit)"
                ) from error
            raise

    # -- stopping --------------------------------------------------------------------------------

    def _cancel(self, futures: Iterable[Future[Any]]) -> None:
        """Cancels the tasks not done (and releases data sent), when a check stops; never
        raises over the reason it stopped."""
        # (when the connection is gone, the scheduler drops the tasks with the client)
        with contextlib.suppress(Exception):
            self._client.cancel(list(futures))

    def _lost(self, error: BaseException) -> ClusterError:
        return ClusterError(
            f"the cluster at {self.address} dropped the check's work ({error}): the scheduler "
            "may have stopped or restarted"
        )


def _chunk_size(count: int, threads: int, most: int) -> int:
    """Items per task: about eight tasks per worker thread (so all stay busy to the end, the
    slow ones shared out), at most `most` each."""
    return max(1, min(most, count // (threads * 8)))


# -- on the workers --------------------------------------------------------------------------------


def read_chunk(tasks: Sequence[Work], job: ReadJob) -> list[Outcome]:
    """(On a worker.) `read_submission` of each submission; a file the worker cannot find is failed
    with NOT_SHARED (the client found it: the folder is not shared at that path)."""
    outcomes: list[Outcome] = []
    for submission, options, key, blob, prints in tasks:
        outcome = read_submission(submission, options, key, blob, prints, job)
        if isinstance(outcome, FailedDocument) and blob is None and not _visible(submission.path):
            outcome = FailedDocument(submission.path, NOT_SHARED)
        outcomes.append(outcome)
    return outcomes


def _visible(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:
        return False


def compare_chunk(
    pairs: Sequence[tuple[int, int]], documents: Sequence[BatchDocument], options: MatchOptions
) -> list[PairResult]:
    """(On a worker.) `compare_pair` of each candidate pair, those with copied text found, in
    the candidates' order."""
    found = (compare_pair(i, j, documents[i], documents[j], options) for i, j in pairs)
    return [pair for pair in found if pair is not None]

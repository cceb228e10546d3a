"""The folder check on a Dask distributed cluster (`--scheduler`): the speed-up from 1 to 2
workers on this computer, against the local process pool in the same run, and the bytes a
check sends over the network per document and per compared pair.

N essays (bench/make_collection.py, planted copies) are checked cold (no cache) three ways,
each `--repeats` times, interleaved (so a busy moment of a shared machine hits all three):
the local process pool (`--jobs 2`: what `doppel batch` does without --scheduler, its
workers started by the check), and a `distributed.LocalCluster` of 1 and of 2 worker
processes (one thread each; started, and warmed with a small check, before the timing: a
cluster's workers outlive the checks). The three results must be identical. The best time
of each is reported, split into reading (up to the progress bar's 0.7) and the rest
(candidates and comparisons), and the ratios between them.

The bytes are the pickles Dask sends (protocol 5), measured on this collection: the reading
task's arguments and its outcome per document (without and with the cache, whose new rows
come back too), the documents' records broadcast to every worker before the comparisons, and
per compared pair its share of a task (two indices) and of the pairs found.

    python bench/bench_cluster.py [--count 2000] [--repeats 3] [--out FILE]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import pickle
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import distributed
from corpus import machine
from make_collection import build

from core.batch.cache import cache_key, content_hash_of
from core.batch.result import BatchResult
from core.batch.run import BatchOptions, ReadJob, collect, read_submission, run_batch
from core.options import SignatureOptions

OPTIONS = BatchOptions(signature=SignatureOptions(language="en"))


def timed(folder: Path, options: BatchOptions) -> tuple[float, float, BatchResult]:
    """(seconds in all, seconds reading, result) of one cold check."""
    read_done: list[float] = []

    def progress(fraction: float, message: str = "") -> None:
        if fraction >= 0.7 and not read_done:
            read_done.append(time.perf_counter())

    started = time.perf_counter()
    result = run_batch([folder], options=options, progress=progress)
    ended = time.perf_counter()
    return ended - started, (read_done or [ended])[0] - started, result


def rounded(value: object) -> object:
    """`value` with every float rounded to 12 digits, dataclasses as tuples: the engine's
    reworded similarities are sums over sets of stems, whose order (and so their last bits)
    depends on the process's string hashing, the same on the cluster as between two local runs
    (see cluster-report.md)."""
    if isinstance(value, float):
        return round(value, 12)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple(rounded(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, (tuple, list)):
        return tuple(rounded(v) for v in value)
    return value


def start_cluster(workers: int) -> Any:
    return distributed.LocalCluster(
        n_workers=workers,
        processes=True,
        threads_per_worker=1,
        host="127.0.0.1",
        dashboard_address=None,
    )


def size(value: object) -> int:
    return len(pickle.dumps(value, protocol=5))


def network_bytes(folder: Path, result: BatchResult) -> dict[str, float]:
    """Mean pickled bytes per document and per compared pair (see the module's docstring)."""
    options = OPTIONS.signature
    job = ReadJob(options)
    sample = collect([folder])[:200]
    tasks, plain, cached, prints = [], [], [], []
    for submission in sample:
        digest = content_hash_of(submission.path)
        key = cache_key(digest, options) if digest is not None else None
        tasks.append(size((submission, options, None, None, True)))
        outcome = read_submission(submission, options, None, None, True, job)
        plain.append(size(outcome))
        with_cache = read_submission(submission, options, key, None, True, job)
        cached.append(size(with_cache))
        prints.append(size(getattr(outcome, "fingerprints", None)))
    documents = result.documents
    found = list(result.pairs)
    return {
        "read_task_bytes_per_document": statistics.mean(tasks),
        "read_outcome_bytes_per_document_no_cache": statistics.mean(plain),
        "read_outcome_bytes_per_document_with_cache_rows": statistics.mean(cached),
        "of_which_common_text_fingerprints": statistics.mean(prints),
        "record_bytes_per_document_broadcast_per_worker": size(documents) / len(documents),
        "candidate_bytes_per_compared_pair": size([(1234, 5678)] * 512) / 512,
        "found_pair_bytes_per_pair_found": size(found) / max(len(found), 1),
        "pairs_found": len(found),
        "compared_pairs": result.compared_pairs,
        "documents": len(documents),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary) / "essays"
        build(args.count, folder)
        warm = Path(temporary) / "warm"
        build(20, warm, seed=2)
        clusters = {workers: start_cluster(workers) for workers in (1, 2)}
        try:
            configurations: dict[str, BatchOptions] = {
                "local pool, 2 processes": replace(OPTIONS, workers=2)
            }
            for workers, cluster in clusters.items():
                name = f"cluster, {workers} worker{'s' if workers > 1 else ''}"
                configurations[name] = replace(OPTIONS, scheduler=cluster.scheduler_address)
                run_batch([warm], options=configurations[name])  # the workers import Doppel
            times: dict[str, list[tuple[float, float]]] = {name: [] for name in configurations}
            results: dict[str, BatchResult] = {}
            for _ in range(args.repeats):
                for name, options in configurations.items():
                    seconds, reading, result = timed(folder, options)
                    times[name].append((seconds, reading))
                    results[name] = result
                    print(f"  {name}: {seconds:.2f} s (reading {reading:.2f} s)", flush=True)
            reference = results["local pool, 2 processes"]
            exact = {}
            for name, result in results.items():
                assert rounded(result) == rounded(reference), f"{name} differs from the local run"
                exact[name] = sum(
                    x != y for x, y in zip(result.pairs, reference.pairs, strict=True)
                )
        finally:
            for cluster in clusters.values():
                cluster.close()
        best = {name: min(runs) for name, runs in times.items()}
        local, one, two = (best[name] for name in configurations)
        report = {
            "machine": machine(),
            "command": f"python bench/bench_cluster.py --count {args.count} --repeats "
            f"{args.repeats}",
            "documents": args.count,
            "best_seconds": {n: {"all": b[0], "reading": b[1]} for n, b in best.items()},
            "runs": times,
            "speed_up_1_to_2_workers": one[0] / two[0],
            "speed_up_1_to_2_workers_reading": one[1] / two[1],
            "cluster_2_workers_over_local_pool": two[0] / local[0],
            "cluster_1_worker_over_local_pool": one[0] / local[0],
            "pairs_differing_in_last_bits_from_the_local_run": exact,
            "bytes": network_bytes(folder, reference),
        }
    print(json.dumps(report, indent=2))
    if args.out is not None:
        args.out.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()

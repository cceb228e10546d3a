"""The archive at institution scale: checks against 1,000 to 100,000 archived essays
(bench/make_archive.py), adding them, and the index's size.

For each archive size (the first N essays of one collection, by year, as hard links):

- **add**: `doppel archive add TREE --index FILE --lang en` in a fresh process, timed from
  outside (wall and CPU of the process and its workers; the peak memory of the largest of
  them), against **preprocessing** the same
  files as a cold folder check does: `load_all` of them into a new document cache (read,
  normalised, split, signed, profiled for the reworded detector, and the same rows an add keeps
  stored: the record and the whole Document), in a fresh process the same way; at the
  baseline sizes the add is timed `--add-repeats` times, each between two preprocessing runs,
  and the ratios are of the medians (each round's own is reported too, with a bootstrap
  interval of the CPU rounds' median: `median_interval`); the index's bytes per
  document (`doppel archive info`: the file and its log over the files archived);
- **check**, warm: one new essay (`one`: it copies from two archived essays, so its result is
  the same at every size) and the whole term (all new essays), each checked once in a process
  of its own first (the new essays into the document cache, the index into the OS page cache),
  then in a fresh process once more and REPEATS times (the first of these, with the process's
  one-time costs, reported apart): best and median in-process time, peak memory of that
  process (RSS high water; workers' apart), the archived documents the keys pointed to;
  then the same check through the command line (`doppel archive check … --json`, best of 3,
  wall), and the process start-up alone (`doppel --version`); at every size but the
  smallest, also **in turns with the smallest** (`--check-paired`: one process, both indexes
  open, a check against each in turn REPEATS times): the median of the rounds' ratios, which
  this machine's noise moves far less than two best times minutes apart;
- **exact**: the pairs found are the ground truth's (the planted copies of archived essays in
  the archive of that size, and the term's copies) and nothing else; up to `--batch-limit`
  archived essays, also `doppel batch NEW --against TREE`'s pairs, which must be the same.

Ratios are to the smallest size, measured in the same run.

    python bench/bench_archive.py [--sizes 1000,10000,100000]
        [--data /work/bench-data/archive-bench] [--collection 100000] [--new 100]
        [--baseline-sizes 1000,10000] [--batch-limit 10000]

Results: bench/results/archive.json, and a markdown table (`--report`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from corpus import ROOT, machine, novels
from make_archive import ONE, archive_tree, build, expected_pairs

PYTHON = sys.executable
DOPPEL = str(Path(PYTHON).parent / "doppel")
THIS = str(Path(__file__).resolve())
REPEATS = 5
SERIAL = re.compile(r"(?<![^\s])S\d+ ")
LANG = "en"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str]) -> tuple[float, float, str]:
    """Runs `command` to the end: wall seconds, CPU seconds (it and its workers), stdout."""
    cpu = children_cpu()
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode not in (0, 1):  # (1: a check found pairs)
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    return wall, children_cpu() - cpu, done.stdout


def timed_peak(command: list[str]) -> tuple[float, float, str, int]:
    """`timed`, and the peak memory (MB, high-water RSS) of the largest of its processes (it
    or a worker it started)."""
    import tempfile

    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if process.returncode not in (0, 1):
            raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}):\n{err.read()}")
        return wall, usage.ru_utime + usage.ru_stime, out.read(), usage.ru_maxrss // 1024


# --- run in a fresh process (python bench/bench_archive.py --preprocess / --check) -----------


def preprocess(tree: Path) -> None:
    """Reads every file under `tree` as a cold folder check does: analysed in worker processes
    and kept in a new document cache (the same rows an add keeps: the record and the whole
    Document), with no candidate index or comparison."""
    import tempfile

    from core.batch.cache import DocumentCache
    from core.batch.run import collect, load_all
    from core.options import SignatureOptions

    submissions = collect([tree])
    with tempfile.TemporaryDirectory() as scratch:
        cache = DocumentCache(Path(scratch) / "cache.sqlite3")
        loaded, failed = load_all(submissions, SignatureOptions(language=LANG), cache, None, None)
        cache.close()
    print(json.dumps({"documents": len(loaded), "failed": len(failed)}))


def _checked(
    index_files: list[Path], cache_file: Path, paths: list[Path], repeats: int
) -> tuple[list[list[float]], Any]:
    """Checks `paths` against each of `index_files` (all open in this process), each once to
    warm up, then `repeats` rounds of one check against each in turn: each index's times (its
    first check's first), and the last check's outcome."""
    from core.archive.check import check_against_archive
    from core.archive.index import ArchiveIndex
    from core.batch.cache import DocumentCache
    from core.batch.run import BatchOptions

    options = BatchOptions()
    cache = DocumentCache(cache_file)
    times: list[list[float]] = [[] for _ in index_files]
    outcome = None
    with contextlib.ExitStack() as stack:
        indexes = [stack.enter_context(ArchiveIndex(f)) for f in index_files]
        for _ in range(repeats + 1):
            for index, spent in zip(indexes, times, strict=True):
                started = time.perf_counter()
                outcome = check_against_archive(paths, index, options, cache=cache)
                spent.append(time.perf_counter() - started)
    cache.close()
    return times, outcome


def check(index_file: Path, cache_file: Path, paths: list[Path], repeats: int) -> None:
    """Checks `paths` against the index once to warm up, then `repeats` times; prints the
    times, the pairs (file names) and this process's peak memory."""
    (times,), outcome = _checked([index_file], cache_file, paths, repeats)
    assert outcome is not None
    result = outcome.result
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "first_s": times[0],
                "times_s": times[1:],
                "pairs": sorted(
                    sorted((result.documents[p.a].path.name, result.documents[p.b].path.name))
                    for p in result.pairs
                ),
                "documents": len(result.documents),
                "failed": len(result.failed),
                "looked_at": outcome.looked_at,
                "read_all": outcome.read_all,
                "peak_mb": own,
                "workers_peak_mb": workers,
            }
        )
    )


def check_paired(
    smallest: Path, index_file: Path, cache_file: Path, paths: list[Path], repeats: int
) -> None:
    """The same check against the smallest size's index and against `index_file` in turns,
    in one process: the two times of each round are taken within a second of each other, so
    their ratio is what this machine's noise moves least (checks minutes apart, in processes
    of their own, moved one essay's time at 1,000 by ×1.8). Prints both series."""
    (small, large), _ = _checked([smallest, index_file], cache_file, paths, repeats)
    print(json.dumps({"smallest_s": small[1:], "times_s": large[1:]}))


def batch_against(new: Path, tree: Path, cache_file: Path) -> None:
    """`doppel batch NEW --against TREE`'s pairs (file names), through a document cache."""
    from core.batch.cache import DocumentCache
    from core.batch.run import BatchOptions, run_batch
    from core.options import SignatureOptions

    cache = DocumentCache(cache_file)
    started = time.perf_counter()
    result = run_batch(
        [new], [tree], BatchOptions(signature=SignatureOptions(language=LANG)), cache=cache
    )
    seconds = time.perf_counter() - started
    cache.close()
    pairs = sorted(
        sorted((result.documents[p.a].path.name, result.documents[p.b].path.name))
        for p in result.pairs
    )
    print(json.dumps({"seconds": seconds, "pairs": pairs, "failed": len(result.failed)}))


# --- the harness ----------------------------------------------------------------------------


def collection(data: Path, archived: int, new: int) -> dict[str, Any]:
    """The collection in `data` (built when missing or smaller than asked)."""
    truth_file = data / "truth.json"
    if truth_file.exists():
        truth: dict[str, Any] = json.loads(truth_file.read_text(encoding="utf-8"))
        if truth["archived"] >= archived and truth["new"] == new:
            return truth
        raise SystemExit(f"{data} holds another collection: remove it or choose --data")
    started = time.perf_counter()
    truth = build(archived, data, new)
    print(f"built {archived} archived + {new} new essays in {time.perf_counter() - started:.0f} s")
    return truth


def names(pairs: list[list[str]]) -> set[frozenset[str]]:
    return {frozenset(p) for p in pairs}


def median_interval(values: list[float], level: float = 0.9, draws: int = 4000) -> list[float]:
    """Where the median of rounds like `values` falls `level` of the time: a bootstrap interval
    (the rounds drawn again with replacement, `draws` times; seeded, so the same rounds give the
    same interval). A target is clear of this machine's noise when the whole interval is."""
    draw = random.Random(0)
    medians = sorted(statistics.median(draw.choices(values, k=len(values))) for _ in range(draws))
    cut = round((1 - level) / 2 * draws)
    return [round(medians[cut], 2), round(medians[draws - 1 - cut], 2)]


def add_size(
    data: Path, size: int, baseline: bool, rebuild: bool, repeats: int = 1
) -> dict[str, Any]:
    """The add of the first `size` essays into a fresh index. With `baseline`, timed `repeats`
    times, each between two preprocessing runs (pre, add, pre, add, …, pre): the ratios are
    of the medians (this machine's noise moves a single run by a fifth), and each round's is
    its add over the mean of the two runs around it."""
    tree = archive_tree(data, size)
    index = data / f"index-{size}.sqlite3"
    row: dict[str, Any] = {"n": size}
    if rebuild or not index.exists():
        preprocess_command = [PYTHON, THIS, "--preprocess", str(tree)]
        add_command = [
            DOPPEL,
            "archive",
            "add",
            str(tree),
            "--index",
            str(index),
            "--lang",
            LANG,
            "--json",
        ]
        pres = [timed(preprocess_command)] if baseline else []
        adds = []
        for _ in range(repeats if baseline else 1):
            for stale in data.glob(f"index-{size}.sqlite3*"):
                stale.unlink()
            adds.append(timed_peak(add_command))
            if baseline:
                pres.append(timed(preprocess_command))
        wall = statistics.median(a[0] for a in adds)
        cpu = statistics.median(a[1] for a in adds)
        row["add_s"], row["add_cpu_s"] = round(wall, 2), round(cpu, 2)
        row["add_peak_mb"] = max(a[3] for a in adds)
        row["add_result"] = {
            k: v
            for k, v in json.loads(adds[-1][2]).items()
            if k in ("added", "updated", "unchanged")
        }
        if baseline:
            row["add_runs_s"] = [round(a[0], 2) for a in adds]
            row["add_runs_cpu_s"] = [round(a[1], 2) for a in adds]
            row["preprocess_s"] = [round(p[0], 2) for p in pres]
            row["preprocess_cpu_s"] = [round(p[1], 2) for p in pres]
            row["add_over_preprocess"] = round(wall / statistics.median(p[0] for p in pres), 2)
            row["add_over_preprocess_cpu"] = round(cpu / statistics.median(p[1] for p in pres), 2)
            row["rounds"] = [
                round(a[0] / ((before[0] + after[0]) / 2), 2)
                for a, before, after in zip(adds, pres, pres[1:], strict=False)
            ]
            row["rounds_cpu"] = [
                round(a[1] / ((before[1] + after[1]) / 2), 2)
                for a, before, after in zip(adds, pres, pres[1:], strict=False)
            ]
            row["rounds_cpu_interval"] = median_interval(row["rounds_cpu"])
    _, _, out = timed([DOPPEL, "archive", "info", "--index", str(index), "--json"])
    info = json.loads(out)
    row["documents"] = info["documents"]
    row["index_bytes"] = info["bytes"]
    row["bytes_per_document"] = round(info["bytes"] / max(info["documents"], 1))
    return row


def check_size(
    data: Path, size: int, truth: dict[str, Any], repeats: int, batch_limit: int, smallest: int
) -> dict[str, Any]:
    tree = archive_tree(data, size)
    index = data / f"index-{size}.sqlite3"
    cache = data / "new-cache.sqlite3"
    row: dict[str, Any] = {"n": size}
    checked: set[frozenset[str]] = set()
    for label, paths, wanted in (
        ("one", [data / "new" / ONE], {ONE}),
        ("term", [data / "new"], None),
    ):
        command = [PYTHON, THIS, "--check", str(index), str(cache)]
        timed([*command, "0", *map(str, paths)])  # the new essays into the cache, the index read
        _, _, out = timed([*command, str(repeats), *map(str, paths)])
        run = json.loads(out)
        expected = expected_pairs(truth, size, wanted)
        found = names(run["pairs"])
        checked = found
        cached = ["--cache", str(cache), "--json"]
        cli = [
            timed([DOPPEL, "archive", "check", *map(str, paths), "--index", str(index), *cached])[0]
            for _ in range(3)
        ]
        row[label] = {
            "best_s": round(min(run["times_s"]), 4),
            "median_s": round(statistics.median(run["times_s"]), 4),
            "first_s": round(run["first_s"], 3),
            "cli_best_s": round(min(cli), 3),
            "peak_mb": round(run["peak_mb"]),
            "workers_peak_mb": round(run["workers_peak_mb"]),
            "looked_at": run["looked_at"],
            "read_all": run["read_all"],
            "documents": run["documents"],
            "expected": len(expected),
            "found": len(found),
            "missed": sorted(sorted(p) for p in expected - found),
            "unplanted": sorted(sorted(p) for p in found - expected),
            "exact": found == expected and run["failed"] == 0,
        }
        if size != smallest:  # (the ratio to the smallest, timed in turns with it)
            paired = [PYTHON, THIS, "--check-paired", str(data / f"index-{smallest}.sqlite3")]
            _, _, out = timed([*paired, str(index), str(cache), str(repeats), *map(str, paths)])
            turns = json.loads(out)
            rounds = [a / b for a, b in zip(turns["times_s"], turns["smallest_s"], strict=True)]
            row[label]["paired_over_smallest"] = round(statistics.median(rounds), 2)
            row[label]["paired_rounds"] = [round(r, 2) for r in rounds]
        print(f"  {label}: {json.dumps(row[label])}", flush=True)
    if size <= batch_limit:
        _, _, out = timed(
            [
                PYTHON,
                THIS,
                "--batch",
                str(data / "new"),
                str(tree),
                str(data / "batch-cache.sqlite3"),
            ]
        )
        run = json.loads(out)
        found = names(run["pairs"])
        expected = expected_pairs(truth, size)
        row["batch_against"] = {
            "seconds": round(run["seconds"], 2),
            "found": len(found),
            "exact": found == expected and run["failed"] == 0,
            "same_as_archive_check": found == checked,
        }
    return row


def serial_effect(data: Path, size: int) -> dict[str, Any]:
    """The index's bytes per document for the first `size` archived essays without their
    serial words (which add one unique stem, filed as a word key, to every sentence), beside
    the same essays with them: what the generator adds to the index over plain prose."""
    tree = archive_tree(data, size)
    plain = data / f"plain-{size}"
    for path in tree.rglob("*.txt"):
        target = plain / path.relative_to(tree)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(SERIAL.sub("", path.read_text(encoding="utf-8")), encoding="utf-8")
            stat = path.stat()
            os.utime(target, (stat.st_atime, stat.st_mtime))
    out: dict[str, Any] = {"n": size}
    for label, folder in (("with_serials", tree), ("without", plain)):
        index = data / f"index-{label}-{size}.sqlite3"
        for stale in data.glob(f"{index.name}*"):
            stale.unlink()
        timed([DOPPEL, "archive", "add", str(folder), "--index", str(index), "--lang", LANG])
        _, _, info = timed([DOPPEL, "archive", "info", "--index", str(index), "--json"])
        documents, size_bytes = json.loads(info)["documents"], json.loads(info)["bytes"]
        out[label] = round(size_bytes / max(documents, 1))
    out["ratio"] = round(out["with_serials"] / out["without"], 2)
    return out


def earlier_adds(out: Path, data: Path) -> dict[int, dict[str, Any]]:
    """The add rows of an earlier run on the same collection (its indexes are reused)."""
    if not out.exists():
        return {}
    earlier = json.loads(out.read_text(encoding="utf-8"))
    if earlier.get("data") != str(data):
        return {}
    return {row["n"]: row for row in earlier["add"] if "add_s" in row}


def start_up() -> float:
    """The command line's start-up alone: `doppel --version`, best of 5 (wall)."""
    return min(timed([DOPPEL, "--version"])[0] for _ in range(5))


def ratios(rows: list[dict[str, Any]]) -> None:
    """Each size's check time and peak memory over the smallest size's (same run)."""
    base = rows[0]
    for row in rows:
        for label in ("one", "term"):
            if label in row and label in base:
                row[label]["time_over_smallest"] = round(
                    row[label]["best_s"] / base[label]["best_s"], 2
                )
                row[label]["peak_over_smallest"] = round(
                    row[label]["peak_mb"] / base[label]["peak_mb"], 2
                )


def report(result: dict[str, Any]) -> str:
    """The markdown tables of `result` (for docs/benchmarks.md)."""
    lines = [
        f"Machine: {result['machine']}. Essays of ~{result['words']} words; "
        f"{result['new']} new essays; check times warm, best of {result['repeats']} in one "
        f"process; process start-up (`doppel --version`) {result['start_up_s']:.2f} s.",
        "",
        "| archived | add (median) | preprocess | add / preprocess (wall, CPU; each round's "
        "wall) | add's peak memory "
        "| index bytes / document |",
        "|---:|---:|---:|---|---:|---:|",
    ]
    for row in result["add"]:
        pre = row.get("preprocess_s")
        add = f"{row['add_s']} s" if "add_s" in row else "—"
        lines.append(
            f"| {row['n']:,} | {add} | "
            f"{' / '.join(f'{p} s' for p in pre) if pre else '—'} | "
            f"{row.get('add_over_preprocess', '—')} / {row.get('add_over_preprocess_cpu', '—')}"
            f"{' (' + ', '.join(map(str, row['rounds'])) + ')' if row.get('rounds') else ''} | "
            f"{row.get('add_peak_mb', '—')} MB | {row['bytes_per_document']:,} |"
        )
    for row in result["add"]:
        if row.get("rounds_cpu"):
            low, high = row["rounds_cpu_interval"]
            lines += [
                "",
                f"Adding {row['n']:,}, each round's CPU over the preprocessing runs around it: "
                f"{', '.join(f'×{r}' for r in row['rounds_cpu'])}; their median "
                f"×{statistics.median(row['rounds_cpu']):.2f}, 90% bootstrap interval "
                f"×{low}–×{high}.",
            ]
    lines += [
        "",
        "| archived | check | best (in-process) | × smallest | × smallest, in turns (median "
        "of rounds) | median | command line | peak memory | × smallest | archived looked at | "
        "planted found, nothing else |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in result["check"]:
        for label in ("one", "term"):
            r = row[label]
            exact = "exact" if r["exact"] else f"missed {r['missed']}, unplanted {r['unplanted']}"
            lines.append(
                f"| {row['n']:,} | {label} | {r['best_s']:.3f} s | ×{r['time_over_smallest']} | "
                f"×{r.get('paired_over_smallest', 1.0)} | {r['median_s']:.3f} s | "
                f"{r['cli_best_s']:.2f} s | {r['peak_mb']} MB | "
                f"×{r['peak_over_smallest']} | {r['looked_at']} | "
                f"{r['found']} of {r['expected']}, {exact} |"
            )
    effect = result.get("serial_effect")
    if effect:
        lines += [
            "",
            f"Serial words: the first {effect['n']:,} essays index at {effect['with_serials']:,} "
            f"bytes per document, {effect['without']:,} without their serial words "
            f"(×{effect['ratio']}).",
        ]
    checked = [row for row in result["check"] if "batch_against" in row]
    if checked:
        lines += ["", "`doppel batch NEW --against TREE` (the same files, no index):", ""]
        for row in checked:
            b = row["batch_against"]
            lines.append(
                f"- {row['n']:,} archived: {b['seconds']} s, {b['found']} pairs, "
                f"{'exact' if b['exact'] else 'NOT exact'}, "
                f"{'the same as' if b['same_as_archive_check'] else 'DIFFERENT from'} the check"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--preprocess":
        preprocess(Path(sys.argv[2]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--check":
        index, cache, repeats, *paths = sys.argv[2:]
        check(Path(index), Path(cache), [Path(p) for p in paths], int(repeats))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--check-paired":
        smallest, index, cache, repeats, *paths = sys.argv[2:]
        files = [Path(p) for p in paths]
        check_paired(Path(smallest), Path(index), Path(cache), files, int(repeats))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--batch":
        batch_against(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--data", type=Path, default=Path("/work/bench-data/archive-bench"))
    parser.add_argument(
        "--collection", type=int, default=100_000, help="archived essays to build (once)"
    )
    parser.add_argument("--new", type=int, default=100, help="new essays (the term)")
    parser.add_argument(
        "--baseline-sizes", default="1000,10000", help="sizes timed against preprocessing"
    )
    parser.add_argument(
        "--batch-limit", type=int, default=10_000, help="largest size checked with doppel batch too"
    )
    parser.add_argument("--repeats", type=int, default=REPEATS)
    parser.add_argument(
        "--add-repeats",
        type=int,
        default=3,
        metavar="N",
        help="adds timed at each baseline size, each between two preprocessing runs",
    )
    parser.add_argument(
        "--serial-effect",
        type=int,
        default=1_000,
        metavar="N",
        help="index N essays with and without serial words (0: skip)",
    )
    parser.add_argument("--rebuild", action="store_true", help="add again to fresh indexes")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "archive.json")
    parser.add_argument("--report", type=Path, default=Path("/tmp/brief/archive-bench-report.md"))
    args = parser.parse_args()
    if not novels():
        print("corpus not found (../shared/corpus/gutenberg or $DOPPEL_CORPUS): skipped")
        return
    sizes = sorted(int(s) for s in args.sizes.split(","))
    baseline_sizes = {int(s) for s in args.baseline_sizes.split(",") if s}
    print(f"machine: {machine()}", flush=True)
    truth = collection(args.data, max(args.collection, *sizes), args.new)
    result: dict[str, Any] = {
        "machine": machine(),
        "words": truth["words"],
        "new": truth["new"],
        "collection": truth["archived"],
        "data": str(args.data),
        "repeats": args.repeats,
        "start_up_s": round(start_up(), 3),
        "add": [],
        "check": [],
    }
    earlier = earlier_adds(args.out, args.data)
    for size in sizes:
        row = add_size(args.data, size, size in baseline_sizes, args.rebuild, args.add_repeats)
        if "add_s" not in row and size in earlier:
            row = {**earlier[size], **row}  # (the add timed by an earlier run, kept)
        print(json.dumps(row), flush=True)
        result["add"].append(row)
    for size in sizes:
        print(f"check against {size}:", flush=True)
        result["check"].append(
            check_size(args.data, size, truth, args.repeats, args.batch_limit, sizes[0])
        )
    ratios(result["check"])
    if args.serial_effect:
        result["serial_effect"] = serial_effect(args.data, args.serial_effect)
        print(json.dumps(result["serial_effect"]), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2), encoding="utf-8")
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(report(result), encoding="utf-8")
    print(f"written {args.out} and {args.report}")


if __name__ == "__main__":
    main()

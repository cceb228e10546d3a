"""The folder check at scale: N essays (bench/make_collection.py) with planted copies.

For each N: a cold run (empty document cache), a warm run (the cache from the cold run), the
planted pairs found and nothing else, peak memory (this process and its workers); at N up to
1,000 also `--all-pairs` on the warm cache, which must give the identical result (the ratio is
the index's speed-up); and, as the outside anchor, a MinHash-LSH near-duplicate pass
(datasketch: word 5-shingles, 128 permutations) over the same files, timed in the same run.

    python bench/bench_batch.py [--sizes 100,1000,10000]

Common text (docs/benchmarks.md, "Common text"): `--common-prompt` starts every essay with the
same prompt paragraph; `--exclude-common SHARE` runs the batch with the common-text exclusion.
Run each configuration in its own process (peak memory is the process's), e.g.

    python bench/bench_batch.py --sizes 1000 --no-anchors --out batch-plain.json
    python bench/bench_batch.py --sizes 1000 --no-anchors --common-prompt --exclude-common 0.5 \
        --out batch-common.json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import resource
import tempfile
import time
from pathlib import Path

from corpus import ROOT, machine, novels
from make_collection import PROMPT, build

from core.batch.cache import DocumentCache
from core.batch.run import BatchOptions, run_batch
from core.options import ExclusionOptions, SignatureOptions

OPTIONS = BatchOptions(signature=SignatureOptions(language="en"))


def peak_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, workers) / 1024


def cpu_s() -> float:
    """CPU seconds of this process and its finished workers: steadier than wall time on a
    shared machine."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def found_pairs(result) -> set[frozenset[str]]:  # type: ignore[no-untyped-def]
    docs = result.documents
    return {frozenset((docs[p.a].path.name, docs[p.b].path.name)) for p in result.pairs}


def minhash_lsh_seconds(folder: Path) -> tuple[float, int]:
    from datasketch import MinHash, MinHashLSH

    started = time.perf_counter()
    lsh = MinHashLSH(threshold=0.02, num_perm=128)
    hashes = {}
    for path in sorted(folder.glob("*.txt")):
        words = path.read_text(encoding="utf-8").lower().split()
        sketch = MinHash(num_perm=128)
        sketch.update_batch(" ".join(words[k : k + 5]).encode() for k in range(len(words) - 4))
        lsh.insert(path.name, sketch)
        hashes[path.name] = sketch
    pairs = {
        frozenset((name, other))
        for name, sketch in hashes.items()
        for other in lsh.query(sketch)
        if other != name
    }
    return time.perf_counter() - started, len(pairs)


def run_size(
    count: int,
    all_pairs_limit: int,
    options: BatchOptions = OPTIONS,
    prompt: bool = False,
    anchors: bool = True,
) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "essays"
        planted = {frozenset(p) for p in build(count, folder, prompt=PROMPT if prompt else None)}
        cache = DocumentCache(Path(tmp) / "cache.sqlite3")
        started, cpu = time.perf_counter(), cpu_s()
        cold = run_batch([folder], options=options, cache=cache)
        cold_s, cold_cpu = time.perf_counter() - started, cpu_s() - cpu
        cold_peak = peak_mb()
        started, cpu = time.perf_counter(), cpu_s()
        warm = run_batch([folder], options=options, cache=cache)
        warm_s, warm_cpu = time.perf_counter() - started, cpu_s() - cpu
        row: dict[str, object] = {
            "n": count,
            "common_prompt": prompt,
            "exclude_common": options.exclusions.common_share,
            "cold_s": round(cold_s, 2),
            "warm_s": round(warm_s, 2),
            "cold_cpu_s": round(cold_cpu, 2),
            "warm_cpu_s": round(warm_cpu, 2),
            "compared_pairs": cold.compared_pairs,
            "possible_pairs": cold.possible_pairs,
            "planted": len(planted),
            "found": len(found_pairs(cold)),
            "exact": found_pairs(cold) == planted and warm.pairs == cold.pairs,
            "failed": len(cold.failed),
            "common_passages": [(c.documents, c.words) for c in cold.common_text],
            "excluded_sentences": sum(d.excluded_sentences for d in cold.documents),
            "cold_peak_mb": round(cold_peak),
            "batch_peak_mb": round(peak_mb()),  # before the comparisons below add theirs
        }
        if anchors and count <= all_pairs_limit:
            started = time.perf_counter()
            naive = run_batch(
                [folder],
                options=dataclasses.replace(options, all_pairs=True),
                cache=cache,
            )
            naive_s = time.perf_counter() - started
            row["all_pairs_s"] = round(naive_s, 2)
            row["all_pairs_over_indexed"] = round(naive_s / warm_s, 1)
            row["all_pairs_identical"] = naive.pairs == warm.pairs
        if anchors:
            lsh_s, lsh_pairs = minhash_lsh_seconds(folder)
            row["minhash_lsh_s"] = round(lsh_s, 2)
            row["minhash_lsh_pairs"] = lsh_pairs
            row["peak_mb_after_anchor"] = round(peak_mb())
        cache.close()
        return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--all-pairs-limit", type=int, default=1000)
    parser.add_argument(
        "--common-prompt", action="store_true", help="start every essay with the same prompt"
    )
    parser.add_argument(
        "--exclude-common",
        type=float,
        default=None,
        metavar="SHARE",
        help="exclude text found in more than SHARE of the essays",
    )
    parser.add_argument(
        "--no-anchors", action="store_true", help="skip --all-pairs and MinHash-LSH"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "batch.json")
    args = parser.parse_args()
    if not novels():
        print("corpus not found (../shared/corpus/gutenberg or $DOPPEL_CORPUS): skipped")
        return
    print(f"machine: {machine()}")
    options = dataclasses.replace(
        OPTIONS, exclusions=ExclusionOptions(common_share=args.exclude_common)
    )
    rows = []
    for count in (int(s) for s in args.sizes.split(",")):
        row = run_size(
            count, args.all_pairs_limit, options, args.common_prompt, not args.no_anchors
        )
        rows.append(row)
        print(json.dumps(row), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"machine": machine(), "rows": rows}, indent=2))
    print(f"written {args.out}")


if __name__ == "__main__":
    main()

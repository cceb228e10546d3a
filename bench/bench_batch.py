"""The folder check at scale: N essays (bench/make_collection.py) with planted copies.

For each N: a cold run (empty document cache), a warm run (the cache from the cold run), the
planted pairs found and nothing else, peak memory (this process and its workers); at N up to
1,000 also `--all-pairs` on the warm cache, which must give the identical result (the ratio is
the index's speed-up); and, as the outside anchor, a MinHash-LSH near-duplicate pass
(datasketch: word 5-shingles, 128 permutations) over the same files, timed in the same run.

    python bench/bench_batch.py [--sizes 100,1000,10000]
"""

from __future__ import annotations

import argparse
import json
import resource
import tempfile
import time
from pathlib import Path

from corpus import ROOT, machine, novels
from make_collection import build

from core.batch import BatchOptions, run_batch
from core.document_cache import DocumentCache
from core.options import SignatureOptions

OPTIONS = BatchOptions(signature=SignatureOptions(language="en"))


def peak_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, workers) / 1024


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


def run_size(count: int, all_pairs_limit: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "essays"
        planted = {frozenset(p) for p in build(count, folder)}
        cache = DocumentCache(Path(tmp) / "cache.sqlite3")
        started = time.perf_counter()
        cold = run_batch([folder], options=OPTIONS, cache=cache)
        cold_s = time.perf_counter() - started
        started = time.perf_counter()
        warm = run_batch([folder], options=OPTIONS, cache=cache)
        warm_s = time.perf_counter() - started
        row: dict[str, object] = {
            "n": count,
            "cold_s": round(cold_s, 2),
            "warm_s": round(warm_s, 2),
            "compared_pairs": cold.compared_pairs,
            "possible_pairs": cold.possible_pairs,
            "planted": len(planted),
            "found": len(found_pairs(cold)),
            "exact": found_pairs(cold) == planted and warm.pairs == cold.pairs,
            "failed": len(cold.failed),
            "batch_peak_mb": round(peak_mb()),  # before the comparisons below add theirs
        }
        if count <= all_pairs_limit:
            started = time.perf_counter()
            naive = run_batch(
                [folder],
                options=BatchOptions(signature=OPTIONS.signature, all_pairs=True),
                cache=cache,
            )
            naive_s = time.perf_counter() - started
            row["all_pairs_s"] = round(naive_s, 2)
            row["all_pairs_over_indexed"] = round(naive_s / warm_s, 1)
            row["all_pairs_identical"] = naive.pairs == warm.pairs
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
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "batch.json")
    args = parser.parse_args()
    if not novels():
        print("corpus not found (../shared/corpus/gutenberg or $DOPPEL_CORPUS): skipped")
        return
    print(f"machine: {machine()}")
    rows = []
    for count in (int(s) for s in args.sizes.split(",")):
        row = run_size(count, args.all_pairs_limit)
        rows.append(row)
        print(json.dumps(row), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"machine": machine(), "rows": rows}, indent=2))
    print(f"written {args.out}")


if __name__ == "__main__":
    main()

"""Times `compare` (suffix tree + verification + score) on signatures of 1k to 200k sentences.

Signatures come from the real sentences of the Gutenberg novels: A is built from runs of 40
consecutive sentences drawn at random from four novels, B from the other five, and 1% of B is
replaced by passages copied from A, so both the chance coincidences of real prose and real
copied blocks are present. The diagonal O(m·n) scan is timed on the same inputs while it stays
under a time budget. Times are reported per unit of work (m + n + raw blocks) and as ratios to
the diagonal scan in the same run; see docs/benchmarks.md.

    python bench/bench_compare.py [--sizes 1000,2000,...] [--oracle-budget SECONDS]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import time
from pathlib import Path

from corpus import ROOT, machine, novels

from core.detection.diagonal import diagonal_maximal_pairs
from core.detection.matching import match_signatures
from core.detection.suffix_tree import GeneralizedSuffixTree
from core.documents.document import document_from_text
from core.documents.signature import Signature
from core.options import SignatureOptions

RUN = 40  # consecutive sentences per drawn run: keeps the texture of real prose
COPIED_SHARE = 0.01


def pools() -> tuple[list[tuple[int, tuple[str, ...]]], list[tuple[int, tuple[str, ...]]]]:
    """(ℓ, key) of every sentence: novels 1-4 for A, 5-9 for B (no text in common)."""
    options = SignatureOptions(language="en")
    entries: list[list[tuple[int, tuple[str, ...]]]] = []
    for path in novels():
        sig = document_from_text(path.read_text(encoding="utf-8"), path.name, options).signature
        entries.append(list(zip(sig.symbols, sig.keys, strict=True)))
    pool_a = [e for novel in entries[:4] for e in novel]
    pool_b = [e for novel in entries[4:] for e in novel]
    return pool_a, pool_b


def draw(pool: list, n: int, rng: random.Random) -> list:
    out: list = []
    while len(out) < n:
        start = rng.randrange(len(pool) - RUN)
        out.extend(pool[start : start + RUN])
    return out[:n]


def signature(entries: list) -> Signature:
    n = len(entries)
    return Signature(
        symbols=tuple(e[0] for e in entries),
        keys=tuple(e[1] for e in entries),
        sentence_indices=tuple(range(n)),
        too_long=(),
        key_size=2,
        length_cap=True,
    )


def make_rewritten(pool_a: list, pool_b: list, n: int, seed: int) -> tuple[Signature, Signature]:
    """B is A copied wholesale, every 10th sentence replaced and every 25th dropped.

    The case where one long copied passage spans both documents."""
    rng = random.Random(seed)
    a = draw(pool_a, n, rng)
    b = []
    for k, entry in enumerate(a):
        if k % 25 == 24:
            continue
        b.append(pool_b[rng.randrange(len(pool_b))] if k % 10 == 9 else entry)
    return signature(a), signature(b)


def make_pair(pool_a: list, pool_b: list, n: int, seed: int) -> tuple[Signature, Signature]:
    """A and B from different novels, with 1% of B replaced by passages copied from A."""
    rng = random.Random(seed)
    a = draw(pool_a, n, rng)
    b = draw(pool_b, n, rng)
    copied = 0
    while copied < COPIED_SHARE * n:  # plant passages of 3-12 sentences copied from A
        length = rng.randint(3, 12)
        src, dst = rng.randrange(n - length), rng.randrange(n - length)
        b[dst : dst + length] = a[src : src + length]
        copied += length
    return signature(a), signature(b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", default="1000,2000,5000,10000,20000,50000,100000,200000", type=str
    )
    parser.add_argument("--oracle-budget", type=float, default=60.0, metavar="SECONDS")
    parser.add_argument("--scenarios", default="planted,rewritten")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "compare.json")
    args = parser.parse_args()
    if not novels():
        print("corpus not found (../shared/corpus/gutenberg or $DOPPEL_CORPUS): skipped")
        return
    pool_a, pool_b = pools()
    print(f"machine: {machine()}")
    print(f"pools: {len(pool_a)} sentences for A, {len(pool_b)} for B")
    rows = []
    for scenario in args.scenarios.split(","):
        print(f"\nscenario: {scenario} — {SCENARIOS[scenario].__doc__.strip().splitlines()[0]}")
        rows += run_scenario(scenario, pool_a, pool_b, args)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (whole run): {peak_mb:.0f} MB")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps({"machine": machine(), "peak_mb": round(peak_mb), "rows": rows}, indent=2)
    )
    print(f"written {args.out}")


def run_scenario(scenario: str, pool_a: list, pool_b: list, args: argparse.Namespace) -> list:
    rows = []
    oracle_on = True
    header = (
        f"{'n':>7} {'raw blocks':>11} {'kept':>5} {'listed':>7} {'J':>6} {'build µs/n':>10} "
        f"{'tree s':>8} {'µs/(n+raw)':>10} {'oracle s':>9} {'oracle/tree':>11}"
    )
    print(header)
    for n in (int(s) for s in args.sizes.split(",")):
        a, b = SCENARIOS[scenario](pool_a, pool_b, n, seed=n)
        started = time.perf_counter()
        GeneralizedSuffixTree(a.symbols, b.symbols)
        build_s = time.perf_counter() - started
        started = time.perf_counter()
        result = match_signatures(a, b)
        tree_s = time.perf_counter() - started
        work = 2 * n + result.counts.raw
        oracle_s = None
        if oracle_on:
            started = time.perf_counter()
            oracle = diagonal_maximal_pairs(a.symbols, b.symbols, 2)
            oracle_s = time.perf_counter() - started
            assert len(oracle) == result.counts.raw, "tree and oracle disagree"
            oracle_on = oracle_s * 4 < args.oracle_budget  # the next size costs ~4x
        row = {
            "scenario": scenario,
            "n": n,
            "listed": len(result.blocks),
            "raw": result.counts.raw,
            "verified": result.counts.verified,
            "split": result.counts.split,
            "jaccard": round(result.score.jaccard, 4),
            "build_seconds": round(build_s, 4),
            "build_us_per_symbol": round(1e6 * build_s / (2 * n + 2), 4),
            "tree_seconds": round(tree_s, 4),
            "us_per_unit": round(1e6 * tree_s / work, 4),
            "oracle_seconds": None if oracle_s is None else round(oracle_s, 4),
            "oracle_over_tree": None if oracle_s is None else round(oracle_s / tree_s, 2),
        }
        rows.append(row)
        kept = row["verified"] + row["split"]
        oracle_text = "-" if oracle_s is None else f"{oracle_s:9.2f}"
        ratio_text = "-" if oracle_s is None else f"{oracle_s / tree_s:11.1f}"
        print(
            f"{n:>7} {row['raw']:>11} {kept:>5} {row['listed']:>7} {row['jaccard']:>6} "
            f"{row['build_us_per_symbol']:>10} {tree_s:8.2f} "
            f"{row['us_per_unit']:>10} {oracle_text:>9} {ratio_text:>11}",
            flush=True,
        )
    return rows


SCENARIOS = {"planted": make_pair, "rewritten": make_rewritten}


if __name__ == "__main__":
    main()

"""Preprocessing throughput: MB of text per second from raw text to signature, per stage.

Stages: normalisation, sentence splitting with terms (Punkt + word tokens + stop words), and
signature building. The baseline, timed in the same run on the same text, is Python's own
`str.split()` over the text: the floor of any word-level processing in Python. Results are
written to bench/results/preprocess.json; see docs/benchmarks.md.

    python bench/bench_preprocess.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

from corpus import ROOT, machine, novels

from core.documents.language import get_language
from core.documents.normalize import normalize_text
from core.documents.sentences import split_sentences
from core.documents.signature import build_signature


def best_of(repeat: int, job: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        job()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "preprocess.json")
    args = parser.parse_args()
    paths = novels()
    if not paths:
        print("corpus not found (../shared/corpus/gutenberg or $DOPPEL_CORPUS): skipped")
        return
    english = get_language("en")
    raw = "\n\n".join(p.read_text(encoding="utf-8") for p in paths)
    megabytes = len(raw.encode("utf-8")) / 1e6
    text = normalize_text(raw)
    sentences = split_sentences(text, english)
    stages = {
        "baseline: str.split()": lambda: raw.split(),
        "normalise": lambda: normalize_text(raw),
        "sentences + terms": lambda: split_sentences(text, english),
        "signature": lambda: build_signature(sentences),
    }
    seconds = {name: best_of(args.repeat, job) for name, job in stages.items()}
    seconds["total (text to signature)"] = sum(
        s for name, s in seconds.items() if not name.startswith("baseline")
    )
    baseline = seconds["baseline: str.split()"]
    print(f"machine: {machine()}")
    print(f"text: {len(paths)} novels, {megabytes:.2f} MB, {len(sentences)} sentences")
    print(f"{'stage':<28} {'MB/s':>8} {'x baseline time':>16}")
    rows = []
    for name, s in seconds.items():
        rows.append(
            {"stage": name, "mb_per_s": round(megabytes / s, 2), "x_baseline": s / baseline}
        )
        print(f"{name:<28} {megabytes / s:8.2f} {s / baseline:16.1f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {
                "machine": machine(),
                "megabytes": megabytes,
                "sentences": len(sentences),
                "rows": rows,
            },
            indent=2,
        )
    )
    print(f"written {args.out}")


if __name__ == "__main__":
    main()

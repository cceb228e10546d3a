"""Repeated phrases (paper B): the word suffix tree against the inverted index as n and m grow.

n is the number of words, m the longest phrase (max_len); min_count = 2 throughout. The words
are the project's own (`document_from_text` + `phrase_input`: Punkt sentences, word tokens,
case-folded) of the nine Gutenberg novels in ../shared/corpus/gutenberg/, taken in file order,
whole sentences, until n words; the largest size is the whole corpus (936,958 words: 1M is
more than there is, and repeating text would change what repeats).

Every (n, m, method) runs in a fresh process (`--worker`), so one run's memory cannot pollute
the next: peak memory is the process's peak resident size (VmHWM, Linux, reset once the input
is loaded) after the run less its resident size with the input loaded, and the input's own
footprint is the resident size once loaded less before. The cyclic garbage collector is paused
in the workers, as the app's workers do while they compare (docs/benchmarks.md, "The window");
the shared-phrases case is also timed with it running.

Baseline, timed in the same process on the same words: one plain Python pass over every
phrase occurrence either method must visit (for each word, the hashes of the phrases of 1..m
words starting there, chained one word at a time, nothing stored): O(n·m) steps of the
cheapest kind. Times are reported as multiples of it, and tree / index in the same run.

Also the case the app meets: the phrases two 300-page documents share (the first 135,000 words
of the two longest novels, as in bench_ui.py), min_docs = 2, m = 8; and the worst case for the
index, the first of them against a copy of itself (every phrase repeats), m = 3, 8 and 12.

Results go to bench/results/phrases.json and the plot to docs/benchmarks-phrases.png (needs
matplotlib: `pip install -e '.[bench]'`); see docs/benchmarks.md.

    python bench/bench_phrases.py [--sizes 10000,30000,...] [--lengths 2,3,5,8,12] [--repeat 3]
    python bench/bench_phrases.py --plot-only
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import pickle
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from corpus import ROOT, machine, novels

from core.detection.phrases import INVERTED_INDEX, METHODS, SUFFIX_TREE, PhraseInput, phrase_input
from core.detection.phrases import repeated_phrases as find_phrases
from core.documents.document import document_from_text
from core.options import SignatureOptions

RESULTS = ROOT / "bench" / "results" / "phrases.json"
PLOT = ROOT / "docs" / "benchmarks-phrases.png"
SIZES = (10_000, 30_000, 100_000, 300_000, 1_000_000)
LENGTHS = (2, 3, 5, 8, 12)
SHARED_WORDS = 135_000  # a 300-page document (bench_ui.py)
COPY_LENGTHS = (3, 8, 12)
#: from this size a cell is the best of 2 runs, not of --repeat (each run takes seconds)
LARGE = 300_000


def peak_mb() -> float:
    """Peak resident memory of this process so far: VmHWM on Linux. (Not ru_maxrss: after
    fork + exec it still holds the parent's size at the fork, the whole corpus here.)"""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def resident_mb() -> float:
    """Resident memory now (Linux), else the peak so far."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return peak_mb()
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def reset_peak() -> None:
    """Start VmHWM again from the resident size now (Linux 4.0+; elsewhere nothing happens), so
    the peak is the run's and not the loading's (the pickle's bytes and objects at once)."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def best_of(repeat: int, job: Callable[[], object]) -> tuple[float, object]:
    best = float("inf")
    result: object = None
    for _ in range(repeat):
        result = None  # the previous run's output is freed before the next starts
        started = time.perf_counter()
        result = job()
        best = min(best, time.perf_counter() - started)
    return best, result


def phrase_pass(docs: list[PhraseInput], m: int) -> int:
    """The baseline: every phrase of 1..m words in every sentence, hashed one word at a time."""
    total = 0
    for doc in docs:
        for sentence in doc.sentences:
            words = [t.text for t in sentence]
            for i in range(len(words)):
                h = 0
                for w in words[i : i + m]:
                    h = hash((h, w))
                    total ^= h
    return total


def worker(path: Path, m: int, method: str, min_docs: int, repeat: int, collect: bool) -> None:
    """One measurement in this fresh process; prints one JSON line. Memory: the peak during
    the run less the resident size once the input is loaded."""
    before = resident_mb()
    docs: list[PhraseInput] = pickle.loads(path.read_bytes())
    if not collect:
        gc.disable()
    baseline, _ = best_of(repeat, lambda: phrase_pass(docs, m))
    settled = resident_mb()  # the input loaded, the pickle's bytes gone
    reset_peak()
    seconds, result = best_of(
        repeat, lambda: find_phrases(docs, max_len=m, min_docs=min_docs, method=method)
    )
    phrases = len(result) if isinstance(result, list) else 0
    print(
        json.dumps(
            {
                "seconds": seconds,
                "baseline_seconds": baseline,
                "phrases": phrases,
                "input_mb": settled - before,
                "peak_mb": peak_mb() - settled,
            }
        )
    )


def measure(
    path: Path, m: int, method: str, repeat: int, min_docs: int = 1, collect: bool = False
) -> dict[str, float]:
    out = subprocess.run(
        [
            sys.executable,
            __file__,
            "--worker",
            str(path),
            str(m),
            method,
            str(min_docs),
            str(repeat),
            "1" if collect else "0",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def load_novels() -> list[PhraseInput]:
    options = SignatureOptions(language="en")
    return [
        phrase_input(document_from_text(p.read_text(encoding="utf-8"), p.name, options))
        for p in novels()
    ]


def first_words(inputs: list[PhraseInput], n: int) -> PhraseInput:
    """Whole sentences, in order, until n words (one document)."""
    taken = []
    count = 0
    for doc in inputs:
        for sentence in doc.sentences:
            if count >= n:
                return PhraseInput(tuple(taken))
            taken.append(sentence)
            count += len(sentence)
    return PhraseInput(tuple(taken))


def shared_inputs() -> list[PhraseInput]:
    """The first 135,000 words of the two longest novels, one document each."""
    options = SignatureOptions(language="en")
    docs = []
    for path in sorted(novels(), key=lambda p: p.stat().st_size)[-2:]:
        text = path.read_text(encoding="utf-8")
        words = list(re.finditer(r"\S+", text))
        text = text[: words[SHARED_WORDS].start()] if len(words) > SHARED_WORDS else text
        docs.append(phrase_input(document_from_text(text, path.name, options)))
    return docs


def run(args: argparse.Namespace) -> dict[str, object]:
    started = time.perf_counter()
    novel_inputs = load_novels()
    available = sum(d.word_count for d in novel_inputs)
    print(f"machine: {machine()}")
    print(f"corpus: {len(novel_inputs)} novels, {available:,} words")
    rows = []
    shared = []
    copy = []
    with tempfile.TemporaryDirectory() as folder:
        inputs: dict[int, Path] = {}
        for size in args.sizes:
            doc = first_words(novel_inputs, size)
            if size > available:
                print(f"n = {size:,}: only {doc.word_count:,} words in the corpus, using them all")
            path = Path(folder) / f"{size}.pickle"
            path.write_bytes(pickle.dumps([doc]))
            inputs[doc.word_count] = path
        print(
            f"{'n':>9} {'m':>3} {'tree s':>8} {'index s':>8} {'base s':>7} {'tree×b':>7} "
            f"{'index×b':>8} {'tree/idx':>8} {'tree MB':>8} {'index MB':>8} {'input MB':>8} "
            f"{'phrases':>9}"
        )
        for n, path in inputs.items():
            repeat = min(args.repeat, 2) if n >= LARGE else args.repeat
            for m in args.lengths:
                cell = {method: measure(path, m, method, repeat) for method in METHODS}
                tree, index = cell[SUFFIX_TREE], cell[INVERTED_INDEX]
                assert tree["phrases"] == index["phrases"]
                for method, r in cell.items():
                    rows.append({"n": n, "m": m, "method": method, "repeat": repeat, **r})
                print(
                    f"{n:9,} {m:3} {tree['seconds']:8.2f} {index['seconds']:8.2f} "
                    f"{tree['baseline_seconds']:7.2f} "
                    f"{tree['seconds'] / tree['baseline_seconds']:7.1f} "
                    f"{index['seconds'] / index['baseline_seconds']:8.1f} "
                    f"{tree['seconds'] / index['seconds']:8.2f} {tree['peak_mb']:8.0f} "
                    f"{index['peak_mb']:8.0f} {tree['input_mb']:8.0f} {tree['phrases']:9,}"
                )
        path = Path(folder) / "shared.pickle"
        two = shared_inputs()
        path.write_bytes(pickle.dumps(two))
        print(f"shared phrases of two 300-page documents ({[d.word_count for d in two]} words)")
        for collect in (False, True):
            for method in METHODS:
                r = measure(path, 8, method, args.repeat, min_docs=2, collect=collect)
                shared.append(
                    {"method": method, "gc": collect, "words": [d.word_count for d in two], **r}
                )
                print(
                    f"  {method:<15} gc {'on ' if collect else 'off'} {r['seconds']:6.2f} s "
                    f"(× baseline {r['seconds'] / r['baseline_seconds']:5.1f}), "
                    f"peak {r['peak_mb']:5.0f} MB, {r['phrases']:,} phrases"
                )
        # the worst case for the index: every phrase repeats, so every level is full and each
        # step hashes a k-word key (a document checked against a wholesale copy of itself)
        path = Path(folder) / "copy.pickle"
        path.write_bytes(pickle.dumps([two[0], two[0]]))
        print(f"shared phrases of a 300-page document and its copy ({two[0].word_count} words)")
        for m in COPY_LENGTHS:
            for method in METHODS:
                r = measure(path, m, method, min(args.repeat, 2), min_docs=2)
                copy.append({"method": method, "m": m, "words": two[0].word_count, **r})
                print(
                    f"  m = {m:2} {method:<15} {r['seconds']:6.2f} s "
                    f"(× baseline {r['seconds'] / r['baseline_seconds']:5.1f}), "
                    f"peak {r['peak_mb']:5.0f} MB, {r['phrases']:,} phrases"
                )
    elapsed = time.perf_counter() - started
    print(f"bench time: {elapsed:.0f} s")
    return {
        "machine": machine(),
        "command": " ".join(["python", "bench/bench_phrases.py", *sys.argv[1:]]),
        "min_count": 2,
        "gc": "cyclic collector paused in the measured process (as in the app's workers)",
        "memory": "peak resident (VmHWM) of a fresh process less resident with the input loaded",
        "baseline": "hash of every phrase of 1..m words, chained a word at a time (O(n·m))",
        "bench_seconds": elapsed,
        "rows": rows,
        "shared": shared,
        "copy": copy,
    }


def plot(results: dict, out: Path) -> None:
    """Time and memory against n (two values of m) and against m (n near 300k), log scales."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import NullFormatter, ScalarFormatter
    except ImportError:
        print("matplotlib not installed (pip install -e '.[bench]'): no plot")
        return
    rows = results["rows"]
    sizes = sorted({r["n"] for r in rows})
    lengths = sorted({r["m"] for r in rows})
    fixed_n = min(sizes, key=lambda n: abs(n - 300_000))
    shown = [m for m in (3, 8) if m in lengths] or lengths[:1]
    colours = {SUFFIX_TREE: "tab:blue", INVERTED_INDEX: "tab:orange"}
    markers = {SUFFIX_TREE: "o", INVERTED_INDEX: "s"}

    def series(key: str, method: str, n: int | None = None, m: int | None = None) -> list:
        return [
            (r["m"] if n is not None else r["n"], r[key])
            for r in rows
            if r["method"] == method and (n is None or r["n"] == n) and (m is None or r["m"] == m)
        ]

    def draw(ax: Any, points: list, label: str, colour: str, marker: str | None, dash: str) -> None:
        ax.plot(
            [x for x, _ in points],
            [y for _, y in points],
            dash,
            color=colour,
            marker=marker,
            label=label,
        )

    fig, axes = plt.subplots(2, 2, figsize=(12, 9))
    (time_n, memory_n), (time_m, memory_m) = axes
    for m, dash in zip(shown, ("-", "--"), strict=False):
        for method in METHODS:
            for ax, key in ((time_n, "seconds"), (memory_n, "peak_mb")):
                draw(
                    ax,
                    series(key, method, m=m),
                    f"{method}, m = {m}",
                    colours[method],
                    markers[method],
                    dash,
                )
        draw(
            time_n,
            series("baseline_seconds", SUFFIX_TREE, m=m),
            f"baseline pass, m = {m}",
            "grey",
            None,
            dash,
        )
    draw(
        memory_n, series("input_mb", SUFFIX_TREE, m=shown[0]), "the input itself", "grey", None, ":"
    )
    for method in METHODS:
        for ax, key in ((time_m, "seconds"), (memory_m, "peak_mb")):
            draw(ax, series(key, method, n=fixed_n), method, colours[method], markers[method], "-")
    draw(
        time_m,
        series("baseline_seconds", SUFFIX_TREE, n=fixed_n),
        "baseline pass",
        "grey",
        None,
        "-",
    )
    draw(
        memory_m, series("input_mb", SUFFIX_TREE, n=fixed_n), "the input itself", "grey", None, ":"
    )
    titles = {
        time_n: ("Time as n grows", "n (words)", "seconds"),
        memory_n: ("Peak memory as n grows", "n (words)", "MB"),
        time_m: (f"Time as m grows (n = {fixed_n:,})", "m (max_len)", "seconds"),
        memory_m: (f"Peak memory as m grows (n = {fixed_n:,})", "m (max_len)", "MB"),
    }
    for ax, (title, xlabel, ylabel) in titles.items():
        ax.set(xscale="log", yscale="log", title=title, xlabel=xlabel, ylabel=ylabel)
        ax.yaxis.set_major_formatter(ScalarFormatter())
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=7)
    for ax in (time_m, memory_m):
        ax.set_xticks(lengths, [str(m) for m in lengths])
        ax.xaxis.set_minor_formatter(NullFormatter())
    low, high = memory_m.get_ylim()  # under two decades: label more than the powers of ten
    memory_m.set_yticks([t for t in (20, 50, 100, 200, 500, 1000, 2000, 5000) if low <= t <= high])
    fig.suptitle(
        "Repeated phrases: suffix tree vs inverted index (min_count = 2, cyclic GC paused)"
    )
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)
    print(f"written {out}")


def ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",")]


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        path, m, method, min_docs, repeat, collect = sys.argv[2:8]
        worker(Path(path), int(m), method, int(min_docs), int(repeat), collect == "1")
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=ints, default=list(SIZES))
    parser.add_argument("--lengths", type=ints, default=list(LENGTHS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--plot", type=Path, default=PLOT)
    parser.add_argument("--plot-only", action="store_true", help="redraw the plot from --out")
    args = parser.parse_args()
    if args.plot_only:
        plot(json.loads(args.out.read_text()), args.plot)
        return
    if not novels():
        print("corpus not found (../shared/corpus/gutenberg or $DOPPEL_CORPUS): skipped")
        return
    results = run(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2))
    print(f"written {args.out}")
    plot(results, args.plot)


if __name__ == "__main__":
    main()

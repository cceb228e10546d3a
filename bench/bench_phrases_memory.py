"""Repeated phrases on large documents (issue 14): peak memory and time before and after the
compact suffix array (`core.detection.phrase_array`), as the documents grow.

Three cases, each on two documents A and B of S MB each:

- **cli**: what `doppel phrases A B` does once the documents are read. Before: the paper's word
  suffix tree (the command's old default) on `phrase_input`, the whole list held and made into
  one string, as the old command printed it. After: the default method, `PhraseWords` +
  `find_phrases`, the list written a phrase at a time (to /dev/null here).
- **panel**: the app's Shared phrases panel, `shared_phrases(A, B)`. Before: the previous
  implementation (the inverted index over `phrase_input`, kept as the oracle of
  tests/core/test_phrases.py); after: `core.shared_words.shared_phrases`.
- **copy**: the panel on A against a copy of itself (every phrase repeats: the index's worst
  case).

A is the Gutenberg novels of ../shared/corpus/gutenberg/ in file order, B the same in reverse
order, cut at S MB; the two share no novel up to about 2.6 MB each. The corpus holds 5.2 MB, so
at 9.5 MB (the issue's size, near the 10-million-character limit of a document) each repeats
it: they then share most of their phrases, 4.4 million of them, the heaviest case there is.

Every (case, size, before/after) runs in a fresh process: it reads A and B (`load_document`,
as the command and the app do; not measured), then resets its peak resident size (VmHWM, Linux)
and runs the case. "run MB" is the peak during the run less the resident size before it;
"process MB" the whole process's peak, reading included (what `/usr/bin/time` would show).
Before/after ratios are of the same run, one size at a time. The cyclic garbage collector is
paused, as in the app's workers and the command. A "before" bigger than --before-max MB is not
run (the tree needs about 2 KB a word: some 7 GB at 9.5 MB).

    python bench/bench_phrases_memory.py [--sizes 0.25,0.5,1,2,9.5] [--before-max 2]

Results: bench/results/phrases_memory.json; see docs/benchmarks.md, "Repeated phrases on large
documents".
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from corpus import ROOT, machine, novels

sys.path.insert(0, str(ROOT / "tests" / "core"))  # the replaced implementation, the oracle

RESULTS = ROOT / "bench" / "results" / "phrases_memory.json"
SIZES = (0.25, 0.5, 1.0, 2.0, 9.5)
CASES = ("cli", "panel", "copy")
MB = 1_000_000


def status_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} in /proc/self/status (Linux only)")


def reset_peak() -> None:
    """Start VmHWM again from the resident size now (Linux 4.0+)."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def run_cli(a: Any, b: Any, after: bool) -> int:
    from app.cli.phrases import phrase_rows, table_rows, write_text
    from core.detection.phrase_array import PhraseWords, find_phrases
    from core.detection.phrases import SUFFIX_TREE, phrase_input, repeated_phrases

    paths = [str(a.path), str(b.path)]
    settings = (8, 2, 2)
    if after:
        words = PhraseWords()
        words.add_document(a)
        words.add_document(b)
        table = find_phrases(words, 8, 2, 2)
        with Path(os.devnull).open("w") as out:
            write_text(table_rows(table), paths, (table.total, table.maximal_total), settings, out)
        return table.total
    found = repeated_phrases([phrase_input(a), phrase_input(b)], 8, 2, 2, method=SUFFIX_TREE)
    text = io.StringIO()  # the old command made the whole list one string, then printed it
    totals = (len(found), sum(p.maximal for p in found))
    write_text(phrase_rows(found), paths, totals, settings, text)
    return len(found)


def run_panel(a: Any, b: Any, after: bool) -> int:
    if after:
        from core.shared_words import shared_phrases

        return shared_phrases(a, b).total
    from test_phrases import oracle_shared_phrases

    return oracle_shared_phrases(a, b, 4, 500, 8).total


def worker(case: str, size: float, after: bool, folder: Path) -> None:
    from core.documents.document import load_document
    from core.options import SignatureOptions

    gc.disable()
    options = SignatureOptions(language="en")
    a = load_document(folder / f"a-{size}.txt", options)
    second = f"a-{size}-copy.txt" if case == "copy" else f"b-{size}.txt"
    b = load_document(folder / second, options)
    words = sum(len(s.text.split()) for s in (a, b))  # whitespace words, for scale
    loading = status_mb("VmHWM")
    settled = status_mb("VmRSS")
    reset_peak()
    started = time.perf_counter()
    found = (run_cli if case == "cli" else run_panel)(a, b, after)
    seconds = time.perf_counter() - started
    peak = status_mb("VmHWM")
    result = {
        "seconds": seconds,
        "run_mb": peak - settled,
        "process_mb": max(loading, peak),
        "phrases": found,
        "words": words,
    }
    print(json.dumps(result))


def measure(case: str, size: float, after: bool, folder: Path) -> dict[str, float]:
    command = [sys.executable, __file__, "--worker", case, str(size), "1" if after else "0"]
    out = subprocess.run([*command, str(folder)], capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def texts(size: float) -> tuple[str, str]:
    """A (the novels in file order) and B (in reverse order), `size` MB each, the corpus
    repeated when it is shorter."""
    books = [path.read_text(encoding="utf-8") for path in novels()]
    chars = int(size * MB)

    def cut(order: list[str]) -> str:
        whole = "\n\n".join(order)
        return (whole * (chars // len(whole) + 1))[:chars]

    return cut(books), cut(books[::-1])


def run(args: argparse.Namespace) -> dict[str, object]:
    started = time.perf_counter()
    print(f"machine: {machine()}")
    rows = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for size in args.sizes:
            a, b = texts(size)
            for label, text in ((f"a-{size}", a), (f"a-{size}-copy", a), (f"b-{size}", b)):
                (folder / f"{label}.txt").write_text(text, encoding="utf-8")
        print(
            f"{'case':<6} {'MB each':>7} {'words':>10} {'phrases':>10} {'before s':>9} "
            f"{'after s':>8} {'after/before':>12} {'before run MB':>13} {'after run MB':>12} "
            f"{'after/before':>12} {'before proc MB':>14} {'after proc MB':>13}"
        )
        for size in args.sizes:
            for case in args.cases:
                after = measure(case, size, True, folder)
                before = measure(case, size, False, folder) if size <= args.before_max else None
                if before is not None:
                    assert before["phrases"] == after["phrases"], (case, size)
                rows.append({"case": case, "mb_each": size, "before": before, "after": after})

                def cell(value: float | None, digits: int = 1) -> str:
                    return "-" if value is None else f"{value:,.{digits}f}"

                print(
                    f"{case:<6} {size:7} {after['words']:10,} {after['phrases']:10,} "
                    f"{cell(before and before['seconds']):>9} {after['seconds']:8.1f} "
                    f"{cell(before and after['seconds'] / before['seconds'], 2):>12} "
                    f"{cell(before and before['run_mb'], 0):>13} {after['run_mb']:12,.0f} "
                    f"{cell(before and after['run_mb'] / max(before['run_mb'], 1), 3):>12} "
                    f"{cell(before and before['process_mb'], 0):>14} "
                    f"{after['process_mb']:13,.0f}",
                    flush=True,
                )
    elapsed = time.perf_counter() - started
    print(f"bench time: {elapsed:.0f} s")
    return {
        "machine": machine(),
        "command": " ".join(["python", "bench/bench_phrases_memory.py", *sys.argv[1:]]),
        "memory": "VmHWM during the run less VmRSS before it; process: the whole process's peak",
        "bench_seconds": elapsed,
        "rows": rows,
    }


def floats(text: str) -> list[float]:
    return [float(x) for x in text.split(",")]


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        case, size, after, folder = sys.argv[2:6]
        worker(case, float(size), after == "1", Path(folder))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=floats, default=list(SIZES), help="MB each")
    parser.add_argument("--cases", type=lambda t: t.split(","), default=list(CASES))
    parser.add_argument("--before-max", type=float, default=2.0, metavar="MB")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    if not novels():
        print("corpus not found (../shared/corpus/gutenberg or $DOPPEL_CORPUS): skipped")
        return
    results = run(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2))
    print(f"written {args.out}")


if __name__ == "__main__":
    main()

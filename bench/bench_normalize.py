"""What undoing disguises costs normalisation: `normalize_text` against the same normalisation
with the disguise stages off (`normalize_with_report(text, undisguise=False)`: what
normalize_text did before Doppel undid disguises), timed in the same run, interleaved, best of
`--repeat`, in CPU time of the process.

Texts: the nine Gutenberg novels joined (ASCII for the most part: the fast path), the same with
every apostrophe curled and every "fi" a ligature (the non-ASCII path of an English text), a
Russian and a Greek text of about 1 MB (the shipped languages' test essays, repeated: Cyrillic
or Greek with Latin words, the slowest case for the look-alike stage), and the novels disguised
with Cyrillic look-alikes in every word (the work when there is a disguise to undo). Results go
to bench/results/normalize.json; see docs/benchmarks.md.

    python bench/bench_normalize.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import gc
import json
import time
from collections.abc import Callable
from pathlib import Path

from corpus import ROOT, machine, novels
from eval_evasion import lookalikes

from core.documents.normalize import normalize_text, normalize_with_report


def old(text: str) -> str:
    return normalize_with_report(text, undisguise=False)[0]


def best_pair(repeat: int, a: Callable[[], object], b: Callable[[], object]) -> tuple[float, float]:
    """Best CPU times of `a` and `b` (this process's: steadier than wall time on a shared
    machine), run alternately so both see the same machine."""
    best = [float("inf"), float("inf")]
    gc.collect()
    for _ in range(repeat):
        for k, job in enumerate((a, b)):
            started = time.process_time()
            job()
            best[k] = min(best[k], time.process_time() - started)
    return best[0], best[1]


def texts() -> dict[str, str]:
    from tests.core.test_language import ESSAYS  # the shipped languages' test essays

    out: dict[str, str] = {}
    paths = novels()
    if paths:
        joined = "\n\n".join(p.read_text(encoding="utf-8") for p in paths)
        out["nine novels"] = joined
        out["nine novels, curled quotes and ligatures"] = joined.replace("'", "\u2019").replace(
            "fi", "\ufb01"
        )
    for code, name in (("ru", "Russian"), ("el", "Greek")):
        essays = "\n\n".join(ESSAYS[code])
        out[f"{name} essays, about 1 MB"] = "\n\n".join([essays] * (1_000_000 // len(essays)))
    if paths:
        first = paths[0].read_text(encoding="utf-8")
        out[f"{paths[0].name} disguised: Cyrillic look-alikes in every word"] = lookalikes(first)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "normalize.json")
    args = parser.parse_args()
    normalize_text("warm up: аb")  # loads the look-alike table once
    rows = []
    print(f"machine: {machine()}")
    print(f"{'text':<62} {'MB':>6} {'before ms':>10} {'now ms':>9} {'MB/s':>7} {'ratio':>6}")
    for name, text in texts().items():
        assert normalize_text(text) == old(text) or "disguised" in name, name
        megabytes = len(text.encode("utf-8")) / 1e6
        before, now = best_pair(
            args.repeat, lambda t=text: old(t), lambda t=text: normalize_text(t)
        )
        rows.append(
            {
                "text": name,
                "megabytes": round(megabytes, 2),
                "before_ms": round(1000 * before, 1),
                "now_ms": round(1000 * now, 1),
                "mb_per_s": round(megabytes / now, 1),
                "ratio": round(now / before, 2),
            }
        )
        print(
            f"{name:<62} {megabytes:6.2f} {1000 * before:10.1f} {1000 * now:9.1f} "
            f"{megabytes / now:7.1f} {now / before:6.2f}"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"machine": machine(), "rows": rows}, indent=2))
    print(f"written {args.out}")


if __name__ == "__main__":
    main()

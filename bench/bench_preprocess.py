"""Preprocessing: text to signature (+ the reworded detector's word profile), new against old,
and where the time goes.

1. Stages (MB/s on the nine novels as one text): normalisation, sentence splitting with terms,
   signature; the floor, timed in the same run on the same text, is Python's `str.split()`.
2. Text to signature (+profile), per document, as `core.documents.document._analyse` and
   `core.detection.reworded.document_profile` do it (normalise, detect the language, split
   into sentences with terms, signature, stems): the current code against the baseline, the
   code of commit BASELINE (before issue 15's preprocessing work: NLTK's Punkt run through
   NLTK), loaded from git into this process. Best of --repeat, same run, on the nine novels
   (each a document) and on --essays generated essays (bench/make_collection.py). Every
   document's sentences, signature and profile are checked equal between the two.
3. With --batch N: a cold `doppel batch` (run_batch in a fresh process, no cache, language
   detected, its worker processes) on N generated essays, new and then old: for the old, the
   process and each of its spawned workers (which import this script) patch the baseline's
   functions into core.documents.document and core.detection.reworded.

Results go to bench/results/preprocess.json; see docs/benchmarks.md ("Preprocessing").

    python bench/bench_preprocess.py [--repeat 3] [--essays 300] [--batch 1000]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from corpus import ROOT, machine, novels

#: the commit whose preprocessing is the baseline (NLTK's Punkt, as Doppel ran it)
BASELINE = "61860ae"
#: the baseline's modules, loaded in this order (name -> path)
_BASELINE_FILES = {
    "stems": "core/detection/stems.py",
    "normalize": "core/documents/normalize.py",
    "language": "core/documents/language.py",
    "sentences": "core/documents/sentences.py",
    "signature": "core/documents/signature.py",
    "reworded": "core/detection/reworded.py",
}
#: set (by this script, for its own child processes) to run a batch with the baseline patched in
_VARIANT_ENV = "DOPPEL_BENCH_PREPROCESS_VARIANT"


def load_baseline() -> types.SimpleNamespace:
    """The baseline's preprocessing modules, from git, as modules of their own (each its own
    caches: its own Punkt models, stop lists and stem memo). The baseline's reworded.py sees
    the baseline's stems; everything else it imports is today's (not preprocessing)."""
    loaded: dict[str, types.ModuleType] = {}
    for key, path in _BASELINE_FILES.items():
        source = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{BASELINE}:{path}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        name = f"baseline_{key}"
        module = types.ModuleType(name)
        module.__file__ = f"{BASELINE}:{path}"
        sys.modules[name] = module  # (dataclasses look their module up)
        real = "core.detection.stems"
        saved = sys.modules.get(real)
        if key == "reworded":
            sys.modules[real] = loaded["stems"]
        try:
            exec(compile(source, module.__file__, "exec"), module.__dict__)
        finally:
            if key == "reworded" and saved is not None:
                sys.modules[real] = saved
        loaded[key] = module
    return types.SimpleNamespace(**loaded)


def current() -> types.SimpleNamespace:
    from core.detection import reworded, stems
    from core.documents import language, normalize, sentences, signature

    return types.SimpleNamespace(
        stems=stems,
        normalize=normalize,
        language=language,
        sentences=sentences,
        signature=signature,
        reworded=reworded,
    )


def analyse(impl: types.SimpleNamespace, raw: str, times: dict[str, float] | None = None) -> Any:
    """Text to signature (+profile), as `_analyse` and `document_profile` do it (language
    detected, stop words removed, no exclusions); with `times`, each stage's time added."""
    clock = time.process_time
    t0 = clock()
    text, _ = impl.normalize.normalize_with_report(raw)
    t1 = clock()
    detection = impl.language.detect_language(text)
    language = impl.language.get_language(detection.code if detection.reliable else "en")
    t2 = clock()
    sentences = impl.sentences.split_sentences(text, language)
    t3 = clock()
    signature = impl.signature.build_signature(sentences)
    t4 = clock()
    profile = impl.reworded.word_profile(sentences, language.info.code)
    t5 = clock()
    if times is not None:
        for stage, seconds in zip(
            ("normalise", "detect language", "sentences + terms", "signature", "profile (stems)"),
            (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4),
            strict=True,
        ):
            times[stage] = times.get(stage, 0.0) + seconds
    return detection, sentences, signature, profile


def values(analysed: Any) -> tuple[Any, ...]:
    """What `analyse` found, as plain values (the baseline's classes are other classes)."""
    detection, sentences, signature, profile = analysed
    return (
        (detection.code, detection.confidence, detection.reliable),
        tuple(
            (s.index, s.start, s.end, tuple(map(dataclasses.astuple, s.terms))) for s in sentences
        ),
        dataclasses.astuple(signature),
        (profile.language, profile.sentence_indices, profile.stems),
    )


def best_of(repeat: int, job: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        job()
        times.append(time.perf_counter() - started)
    return min(times)


def compare(
    label: str,
    texts: list[str],
    old: types.SimpleNamespace,
    new: types.SimpleNamespace,
    repeat: int,
) -> dict[str, Any]:
    """Old and new text to signature (+profile) on `texts`, alternating, best of `repeat`.
    Timed in CPU seconds of this process (the work is single-threaded), which other
    processes on a shared machine disturb far less than the wall clock."""
    megabytes = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    for text in texts:  # the same records, first (and the memos warm for both)
        assert values(analyse(old, text)) == values(analyse(new, text)), f"{label}: not the same"
    best = {"old": float("inf"), "new": float("inf")}
    stages: dict[str, dict[str, float]] = {}
    for _ in range(repeat):
        for name, impl in (("old", old), ("new", new)):
            times: dict[str, float] = {}
            started = time.process_time()
            for text in texts:
                analyse(impl, text, times)
            elapsed = time.process_time() - started
            if elapsed < best[name]:
                best[name], stages[name] = elapsed, times
    ratio = best["old"] / best["new"]
    print(
        f"\n{label}: {len(texts)} documents, {megabytes:.2f} MB — old {best['old']:.2f} s, "
        f"new {best['new']:.2f} s: {ratio:.2f}x faster"
    )
    print(f"  {'stage':<20} {'old s':>7} {'old %':>6} {'new s':>7} {'new %':>6} {'old/new':>8}")
    for stage in stages["old"]:
        o, n = stages["old"][stage], stages["new"][stage]
        print(
            f"  {stage:<20} {o:7.3f} {o / sum(stages['old'].values()):6.1%} {n:7.3f} "
            f"{n / sum(stages['new'].values()):6.1%} {o / n:8.2f}"
        )
    return {
        "documents": len(texts),
        "megabytes": megabytes,
        "old_s": best["old"],
        "new_s": best["new"],
        "ratio": ratio,
        "stages": stages,
    }


def patch_in_baseline() -> None:
    """Make this process analyse documents with the baseline (its workers do the same, as
    they import this script): the functions core.documents.document and
    core.detection.reworded call, replaced by the baseline's."""
    from core.detection import reworded
    from core.documents import document

    old = load_baseline()
    document.normalize_with_report = old.normalize.normalize_with_report  # type: ignore[attr-defined]
    document.detect_language = old.language.detect_language  # type: ignore[attr-defined]
    document.get_language = old.language.get_language  # type: ignore[attr-defined]
    document.split_sentences = old.sentences.split_sentences  # type: ignore[attr-defined]
    document.build_signature = old.signature.build_signature  # type: ignore[attr-defined]
    reworded.stemmer = old.stems.stemmer  # type: ignore[attr-defined]


if os.environ.get(_VARIANT_ENV) == "old":  # (in a batch child process and its workers)
    patch_in_baseline()


def run_cold_batch(folder: Path) -> None:
    """(In a child process.) One cold batch on `folder`: prints its seconds and result."""
    from core.batch.run import BatchOptions, run_batch

    started = time.perf_counter()
    result = run_batch([folder], options=BatchOptions(), cache=None)
    elapsed = time.perf_counter() - started
    names = [d.path.name for d in result.documents]
    pairs = sorted(sorted((names[p.a], names[p.b])) for p in result.pairs)
    print(json.dumps({"seconds": elapsed, "documents": len(result.documents), "pairs": pairs}))


def cold_batches(count: int, repeat: int) -> dict[str, Any]:
    """`count` essays, a cold batch in a fresh process for each variant, alternating, best of
    `repeat` (process start and imports included)."""
    from make_collection import build

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "essays"
        build(count, folder)
        best = {"old": float("inf"), "new": float("inf")}
        outcomes: dict[str, Any] = {}
        for _ in range(repeat):
            for variant in ("old", "new"):
                env = dict(os.environ, **{_VARIANT_ENV: variant})
                started = time.perf_counter()
                done = subprocess.run(
                    [sys.executable, __file__, "--run-batch", str(folder)],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                )
                wall = time.perf_counter() - started
                outcome = json.loads(done.stdout.strip().splitlines()[-1])
                outcomes[variant] = outcome
                best[variant] = min(best[variant], wall)
        assert outcomes["old"]["pairs"] == outcomes["new"]["pairs"], "the batches' pairs differ"
    ratio = best["old"] / best["new"]
    print(
        f"\ncold batch, {count} essays (fresh process, no cache, workers): old {best['old']:.1f} s,"
        f" new {best['new']:.1f} s: {ratio:.2f}x faster; the same {len(outcomes['new']['pairs'])}"
        " pairs"
    )
    return {"essays": count, "old_s": best["old"], "new_s": best["new"], "ratio": ratio}


def stage_table(repeat: int, texts: list[str]) -> dict[str, Any]:
    """The stages on the novels as one text, against `str.split()` in the same run."""
    from core.documents.language import get_language
    from core.documents.normalize import normalize_text
    from core.documents.sentences import split_sentences
    from core.documents.signature import build_signature

    english = get_language("en")
    raw = "\n\n".join(texts)
    megabytes = len(raw.encode("utf-8")) / 1e6
    text = normalize_text(raw)
    sentences = split_sentences(text, english)
    stages = {
        "baseline: str.split()": lambda: raw.split(),
        "normalise": lambda: normalize_text(raw),
        "sentences + terms": lambda: split_sentences(text, english),
        "signature": lambda: build_signature(sentences),
    }
    seconds = {name: best_of(repeat, job) for name, job in stages.items()}
    seconds["total (text to signature)"] = sum(
        s for name, s in seconds.items() if not name.startswith("baseline")
    )
    baseline = seconds["baseline: str.split()"]
    print(f"text: {len(texts)} novels, {megabytes:.2f} MB, {len(sentences)} sentences")
    print(f"{'stage':<28} {'MB/s':>8} {'x baseline time':>16}")
    rows = []
    for name, s in seconds.items():
        rows.append(
            {"stage": name, "mb_per_s": round(megabytes / s, 2), "x_baseline": s / baseline}
        )
        print(f"{name:<28} {megabytes / s:8.2f} {s / baseline:16.1f}")
    return {"megabytes": megabytes, "sentences": len(sentences), "rows": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--essays", type=int, default=300, help="essays for part 2 (0: none)")
    parser.add_argument("--batch", type=int, default=0, help="essays for the cold batch")
    parser.add_argument("--batch-repeat", type=int, default=1)
    parser.add_argument("--run-batch", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "preprocess.json")
    args = parser.parse_args()
    if args.run_batch is not None:
        run_cold_batch(args.run_batch)
        return
    paths = novels()
    if not paths:
        print("corpus not found (../shared/corpus/gutenberg or $DOPPEL_CORPUS): skipped")
        return
    print(f"machine: {machine()}")
    texts = [p.read_text(encoding="utf-8") for p in paths]
    results: dict[str, Any] = {"machine": machine(), "baseline_commit": BASELINE}
    results["stages"] = stage_table(args.repeat, texts)
    old, new = load_baseline(), current()
    results["novels"] = compare("novels", texts, old, new, args.repeat)
    if args.essays:
        from make_collection import build

        with tempfile.TemporaryDirectory() as tmp:
            build(args.essays, Path(tmp))
            essays = [p.read_text(encoding="utf-8") for p in sorted(Path(tmp).glob("*.txt"))]
        results["essays"] = compare("essays", essays, old, new, args.repeat)
    if args.batch:
        results["cold_batch"] = cold_batches(args.batch, args.batch_repeat)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2))
    print(f"written {args.out}")


if __name__ == "__main__":
    main()

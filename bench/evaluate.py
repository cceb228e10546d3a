"""The evaluation of issues 7 and 12: Doppel's default (SL+ST and reworded passages), SL+ST
alone and the reworded detector alone against shingling, SpotSigs, Wang's sentence lengths and
a WCopyfind-style phrase matcher, on the labelled corpus of bench/eval_corpus.py, on hard
negatives (other parts of the source novels) and on human rewriting (P4P, bench/eval_p4p.py).

One command regenerates everything (`make evaluate`):

1. the corpus (bench/eval_corpus.py, fixed seed) into bench/results/eval-corpus/ (or reuse it:
   `--reuse`);
2. every text analysed once (`core.documents.document.document_from_text`, English), so every
   method reads the same sentences and tokens;
3. every method (bench/eval_methods.py) prepares every document, then scores every
   (suspicious, source) pair, and the methods that localise report their passages, the
   methods with a verdict their verdict; preparing and scoring are timed per family (a score
   and its containment or resemblance variant share their features and their per-pair work);
   the hard negatives' pairs are scored after the timed loop;
4. the measures (bench/eval_measures.py): one threshold per method, tuned for F1 on the tuning
   part (all levels together); on the test part, per level, precision, recall and F1 at that
   threshold, ROC-AUC and recall at zero false positives, the verdicts' counts, PAN's passage
   measures for the methods that localise, the hard negatives' false alarms, and the cost
   table;
5. evasion (bench/eval_evasion.py): the verbatim copies of the test part disguised character
   by character, found with and without Doppel undoing the disguises;
6. P4P (bench/eval_p4p.py), when the data is there;
7. bench/results/evaluation.json, docs/evaluation-roc.png and docs/evaluation.md.

    python bench/evaluate.py [--reuse] [--seed 2026] [--sources 40] [--suspicious 120]

Skips (exit 0) when the Gutenberg corpus is absent; without P4P only that part is left out.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import re
import textwrap
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

import eval_evasion
import eval_measures as measures
import eval_methods
import eval_p4p
from corpus import ROOT, machine, novels, p4p_dir
from eval_corpus import (
    ABBREVIATIONS,
    COPY_LEVELS,
    DEFAULT_OUT,
    LEVELS,
    TRUTH,
    CorpusConfig,
    Truth,
    generate,
    load_truth,
    read_texts,
)
from eval_measures import Case
from eval_methods import Method, Prepared, Span

from core.detection.matching import match_signatures
from core.detection.reworded import document_profile, find_reworded
from core.documents.document import Document, document_from_text
from core.options import SignatureOptions

RESULTS = ROOT / "bench" / "results" / "evaluation.json"
REPORT = ROOT / "docs" / "evaluation.md"
PLOT = ROOT / "docs" / "evaluation-roc.png"
OPTIONS = SignatureOptions(language="en")
REFERENCE = "Shingling w=4"  # the family every cost is also given as a multiple of
TABLE_LEVELS = (*COPY_LEVELS, "all")
DOPPEL = "Doppel (SL+ST + reworded)"  # Doppel's default: the method of issue 12
REWORDED = "Reworded"
SLST = "SL+ST"
OURS = ("Doppel", "SL+ST")  # the families that are Doppel's; every other one is a baseline
#: issue 12's targets at Doppel's own verdict (share of the level's positive test pairs found;
#: and no false alarm)
TARGETS = {"verbatim": 1.0, "light": 0.98, "heavy": 0.90}
DETECTOR_PAIRS = 3_200  # pairs on which the reworded detector alone is timed
SHARED_RUN = 8  # words: a hard negative sharing such a run with a source repeats a phrase


# --- running the methods -------------------------------------------------------------------


@dataclass
class Timing:
    """CPU seconds of this process (steadier than wall time on a shared machine) and wall
    seconds, of one timed stretch."""

    cpu: float = 0.0
    wall: float = 0.0


@contextmanager
def timed(into: Timing) -> Iterator[None]:
    """Time the block with the cyclic garbage collector paused, as the app's workers do while
    they compare (docs/benchmarks.md, "The window"): a full collection landing in one method's
    loop would otherwise be charged to it."""
    gc.collect()
    gc.disable()
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        yield
    finally:
        into.cpu += time.process_time() - cpu
        into.wall += time.perf_counter() - wall
        gc.enable()


@dataclass
class Run:
    """Everything measured: scores and passages per method, per pair; times per family."""

    truth: Truth
    sources: list[str]
    suspicious: list[str]
    pairs: list[tuple[str, str]]  # (suspicious, source), suspicious-major
    scores: dict[str, list[float]] = field(default_factory=dict)  # method -> per pair
    passages: dict[str, list[list[tuple[Span, Span]]]] = field(default_factory=dict)
    verdicts: dict[str, list[bool]] = field(default_factory=dict)  # methods with a verdict
    hard_pairs: list[tuple[str, str]] = field(default_factory=list)  # (hard negative, source)
    hard_scores: dict[str, list[float]] = field(default_factory=dict)
    hard_verdicts: dict[str, list[bool]] = field(default_factory=dict)
    hard_passages: dict[str, list[list[tuple[Span, Span]]]] = field(default_factory=dict)
    # the reworded detector alone: profiles prepared once, find_reworded per pair (a sample)
    detector: dict[str, float] = field(default_factory=dict)
    families: dict[str, list[str]] = field(default_factory=dict)  # family -> method names
    localising: list[str] = field(default_factory=list)  # method names
    features: dict[str, list[int]] = field(default_factory=dict)  # family -> per document
    prepare: dict[str, Timing] = field(default_factory=dict)  # family -> all documents
    score: dict[str, Timing] = field(default_factory=dict)  # family -> all pairs
    analysis: Timing = field(default_factory=Timing)  # text -> Document, all documents
    split: Timing = field(default_factory=Timing)  # str.split() over all texts: the floor
    words: int = 0


def run_methods(
    truth: Truth,
    texts: dict[str, str],
    methods: Sequence[Method],
    progress: Callable[[str], None] = print,
) -> Run:
    sources = sorted(d.name for d in truth.documents if d.role == "source")
    suspicious = sorted(d.name for d in truth.documents if d.role == "suspicious")
    hard = sorted(d.name for d in truth.documents if d.role == "hard")
    run = Run(truth, sources, suspicious, [(s, r) for s in suspicious for r in sources])
    run.hard_pairs = [(h, r) for h in hard for r in sources]
    names = sources + suspicious
    with timed(run.split):
        run.words = sum(len(texts[name].split()) for name in names)
    docs: dict[str, Document] = {}
    with timed(run.analysis):
        for name in names:
            docs[name] = document_from_text(texts[name], name, OPTIONS)
    for name in hard:  # not in the cost table: analysed outside the timed stretch
        docs[name] = document_from_text(texts[name], name, OPTIONS)
    for name, doc in docs.items():  # the truth's offsets index Document.text
        assert doc.text == texts[name], f"{name}: the analysed text differs from the file"

    for method in methods:
        run.families.setdefault(method.family, []).append(method.name)
        if method.localises:
            run.localising.append(method.name)
    by_name = {m.name: m for m in methods}
    for family, members in run.families.items():
        family_methods = [by_name[name] for name in members]
        prepared: dict[str, Prepared] = {}
        run.prepare[family] = Timing()
        with timed(run.prepare[family]):
            for name in names:
                prepared[name] = family_methods[0].prepare(docs[name])
        run.features[family] = [prepared[name].feature_count for name in names]
        for name in hard:
            prepared[name] = family_methods[0].prepare(docs[name])
        a0, b0 = prepared[names[-1]], prepared[names[0]]
        judges = [m for m in family_methods if m.verdict(a0, b0) is not None]
        for method in family_methods:
            run.scores[method.name] = []
            run.hard_scores[method.name] = []
            if method.localises:
                run.passages[method.name] = []
        for method in judges:
            run.verdicts[method.name] = []
        eval_methods.clear_caches(family_methods)
        run.score[family] = Timing()
        with timed(run.score[family]):
            for suspicious_name, source_name in run.pairs:
                a, b = prepared[suspicious_name], prepared[source_name]
                for method in family_methods:
                    run.scores[method.name].append(method.score(a, b))
                    if method.localises:
                        run.passages[method.name].append(method.passages(a, b))
                for method in judges:
                    run.verdicts[method.name].append(bool(method.verdict(a, b)))
        if family == "Doppel":
            run.detector = time_detector(run, docs, family_methods[0], prepared)
        for method in judges[1:]:  # a variant with its family's own verdict: listed once
            if run.verdicts[method.name] == run.verdicts[judges[0].name]:
                del run.verdicts[method.name]
        judges = [m for m in judges if m.name in run.verdicts]
        eval_methods.clear_caches(family_methods)
        for method in judges:
            run.hard_verdicts[method.name] = []
            run.hard_passages[method.name] = []
        for hard_name, source_name in run.hard_pairs:  # not timed
            a, b = prepared[hard_name], prepared[source_name]
            for method in family_methods:
                run.hard_scores[method.name].append(method.score(a, b))
            for method in judges:
                run.hard_verdicts[method.name].append(bool(method.verdict(a, b)))
                run.hard_passages[method.name].append(
                    method.passages(a, b) if method.localises else []
                )
        eval_methods.clear_caches(family_methods)
        took = run.prepare[family].cpu + run.score[family].cpu
        progress(f"  {family}: {took:.1f} s CPU ({', '.join(members)})")
    return run


def time_detector(
    run: Run, docs: dict[str, Document], doppel: eval_methods.Method, prepared: dict
) -> dict[str, float]:
    """The reworded detector alone, as it would run with each document's profile built once:
    `document_profile` per document, then `find_reworded` per pair (with the pair's verified
    sentences, from Doppel's comparison, already cached) on every k-th pair; and SL+ST's own
    matching (`match_signatures`: suffix tree, verification, score) on the same pairs."""
    assert isinstance(doppel, eval_methods.Doppel)
    step = max(1, len(run.pairs) // DETECTOR_PAIRS)
    sample = run.pairs[::step]
    verified = [doppel.outcome(prepared[s], prepared[r]).verified for s, r in sample]
    names = run.sources + run.suspicious
    prepare, score, matching = Timing(), Timing(), Timing()
    with timed(prepare):
        profiles = {name: document_profile(docs[name]) for name in names}
    with timed(score):
        for (s, r), (in_a, in_b) in zip(sample, verified, strict=True):
            find_reworded(profiles[s], profiles[r], (in_a, in_b))
    with timed(matching):
        for s, r in sample:
            match_signatures(docs[s].signature, docs[r].signature, eval_methods.STRICT)
    return {
        "pairs": len(sample),
        "step": step,
        "matching_us_per_pair": 1e6 * matching.cpu / len(sample),
        "prepare_ms_per_document": 1000 * prepare.cpu / len(names),
        "score_us_per_pair": 1e6 * score.cpu / len(sample),
    }


# --- measures ------------------------------------------------------------------------------


def pair_facts(run: Run) -> tuple[list[bool], list[str | None], list[str]]:
    """Per pair: positive (it has a case), the level of its copying (None for a negative),
    and its part (the suspicious document's split)."""
    levels = {d.name: d.level for d in run.truth.documents}
    splits = {d.name: d.split for d in run.truth.documents}
    positive = run.truth.positive_pairs()
    labels = [pair in positive for pair in run.pairs]
    pair_levels = [
        levels[s] if label else None for (s, _), label in zip(run.pairs, labels, strict=True)
    ]
    return labels, pair_levels, [splits[s] for s, _ in run.pairs]


def level_selection(
    level: str, labels: list[bool], pair_levels: list[str | None], splits: list[str]
) -> list[int]:
    """The test pairs of a level's table: its positives, and every negative test pair (the
    none-level documents' pairs and the unrelated pairs of the copying documents)."""
    return [
        k
        for k, split in enumerate(splits)
        if split == "test" and (not labels[k] or level in ("all", pair_levels[k]))
    ]


def pan_cases(truth: Truth, level: str) -> list[Case]:
    splits = {d.name: d.split for d in truth.documents}
    return [
        Case((c.suspicious, c.source), c.suspicious_span, c.source_span)
        for c in truth.cases
        if splits[c.suspicious] == "test" and level in ("all", c.level)
    ]


def pan_detections(
    run: Run, method: str, selection: list[int], threshold: float | None
) -> list[Case]:
    """The passages the method reports in the selected pairs (only in the pairs it flags,
    unless threshold is None): Doppel's default and the reworded detector flag by their
    verdict, the other methods by score ≥ threshold."""
    scores, found = run.scores[method], run.passages[method]
    by_verdict = method in (DOPPEL, REWORDED) and method in run.verdicts
    verdicts = run.verdicts.get(method, [])
    return [
        Case(run.pairs[k], suspicious, source)
        for k in selection
        if threshold is None or (verdicts[k] if by_verdict else scores[k] >= threshold)
        for suspicious, source in found[k]
    ]


def summarise(run: Run) -> dict[str, object]:
    """Every number of the report, JSON-ready."""
    labels, pair_levels, splits = pair_facts(run)
    tuning = [k for k, split in enumerate(splits) if split == "tuning"]
    methods = list(run.scores)
    thresholds: dict[str, float] = {}
    tuning_rows = []
    for method in methods:
        scores = [run.scores[method][k] for k in tuning]
        truth = [labels[k] for k in tuning]
        threshold = measures.tune_threshold(scores, truth)
        thresholds[method] = threshold
        tp, fp, fn, _ = measures.confusion(scores, truth, threshold)
        p, r, f1 = measures.precision_recall_f1(tp, fp, fn)
        tuning_rows.append(
            {"method": method, "threshold": threshold, "precision": p, "recall": r, "f1": f1}
        )

    first_of = {m: members[0] for members in run.families.values() for m in members}
    levels: dict[str, dict[str, object]] = {}
    verdicts: dict[str, dict[str, dict[str, int]]] = {m: {} for m in run.verdicts}
    passage_levels: dict[str, list[dict[str, object]]] = {}
    for level in TABLE_LEVELS:
        selection = level_selection(level, labels, pair_levels, splits)
        truth = [labels[k] for k in selection]
        rows = []
        for method in methods:
            scores = [run.scores[method][k] for k in selection]
            tp, fp, fn, tn = measures.confusion(scores, truth, thresholds[method])
            p, r, f1 = measures.precision_recall_f1(tp, fp, fn)
            rows.append(
                {
                    "method": method,
                    "precision": p,
                    "recall": r,
                    "f1": f1,
                    "roc_auc": measures.roc_auc(scores, truth),
                    "recall_at_zero_fp": measures.recall_at_zero_fp(scores, truth),
                    "tp": tp,
                    "fp": fp,
                    "fn": fn,
                    "tn": tn,
                }
            )
        levels[level] = {
            "positives": sum(truth),
            "negatives": len(truth) - sum(truth),
            "rows": rows,
        }
        for method, found in run.verdicts.items():
            tp = sum(1 for k in selection if found[k] and labels[k])
            fp = sum(1 for k in selection if found[k] and not labels[k])
            positives = sum(truth)
            verdicts[method][level] = {
                "tp": tp,
                "fp": fp,
                "fn": positives - tp,
                "tn": len(truth) - positives - fp,
            }
        cases = pan_cases(run.truth, level)
        passage_rows = []
        for method in run.localising:
            for flagged in (True, False):
                if (
                    not flagged
                    and method != first_of[method]
                    and run.passages[method] == run.passages[first_of[method]]
                ):
                    continue  # every pair's passages are the family's: listed once
                detections = pan_detections(
                    run, method, selection, thresholds[method] if flagged else None
                )
                pan = measures.pan_measures(cases, detections)
                passage_rows.append({"method": method, "flagged_only": flagged, **asdict(pan)})
        passage_levels[level] = passage_rows

    cost = []
    reference = run.prepare[REFERENCE].cpu + run.score[REFERENCE].cpu
    docs = len(run.sources) + len(run.suspicious)
    for family in run.families:
        prepare, score = run.prepare[family], run.score[family]
        cost.append(
            {
                "family": family,
                "features_per_document": sum(run.features[family]) / docs,
                "prepare_ms_per_document": 1000 * prepare.cpu / docs,
                "prepare_vs_reference": prepare.cpu / run.prepare[REFERENCE].cpu,
                "score_us_per_pair": 1e6 * score.cpu / len(run.pairs),
                "score_vs_reference": score.cpu / run.score[REFERENCE].cpu,
                "corpus_s": prepare.cpu + score.cpu,
                "corpus_vs_reference": (prepare.cpu + score.cpu) / reference,
                "corpus_wall_s": prepare.wall + score.wall,
            }
        )
    return {
        "machine": machine(),
        "config": asdict(run.truth.config),
        "novels": run.truth.novels,
        "corpus": corpus_facts(run.truth, labels, splits),
        "families": run.families,
        "thresholds": thresholds,
        "tuning": tuning_rows,
        "levels": levels,
        "verdicts": verdicts,
        "doppel_default": verdicts.get(DOPPEL, {}),
        "hard": hard_summary(run, thresholds, labels, pair_levels, splits),
        "passages": passage_levels,
        "cost": cost,
        "cost_reference": REFERENCE,
        "analysis_s": run.analysis.cpu,
        "analysis_ms_per_document": 1000 * run.analysis.cpu / docs,
        "analysis_vs_reference_prepare": run.analysis.cpu / run.prepare[REFERENCE].cpu,
        "split_s": run.split.cpu,
        "words": run.words,
    }


def corpus_facts(truth: Truth, labels: list[bool], splits: list[str]) -> dict[str, object]:
    docs = truth.documents
    suspicious = [d for d in docs if d.role == "suspicious"]
    per_level = {
        level: {
            part: sum(1 for d in suspicious if d.level == level and d.split == part)
            for part in ("tuning", "test")
        }
        for level in LEVELS
    }
    splits_of = {d.name: d.split for d in docs}
    cases = {
        level: {
            part: sum(
                1 for c in truth.cases if c.level == level and splits_of[c.suspicious] == part
            )
            for part in ("tuning", "test")
        }
        for level in COPY_LEVELS
    }
    pairs = {
        part: {
            "pairs": sum(1 for s in splits if s == part),
            "positive": sum(1 for s, lab in zip(splits, labels, strict=True) if s == part and lab),
        }
        for part in ("tuning", "test")
    }
    return {
        "sources": sum(1 for d in docs if d.role == "source"),
        "suspicious": len(suspicious),
        "source_words_mean": _mean([d.words for d in docs if d.role == "source"]),
        "suspicious_words_mean": _mean([d.words for d in suspicious]),
        "documents_per_level": per_level,
        "cases_per_level": cases,
        "pairs": pairs,
        "case_sentences_mean": _mean([c.sentences for c in truth.cases]),
        "case_words_mean": _mean([c.words for c in truth.cases]),
    }


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def hard_summary(
    run: Run,
    thresholds: dict[str, float],
    labels: list[bool],
    pair_levels: list[str | None],
    splits: list[str],
) -> dict[str, object]:
    """The hard negatives (other parts of the source novels): per method, false alarms at its
    tuned threshold and at its verdict, and recall at zero false positives per level with the
    hard negatives' pairs added to the level's negatives."""
    novel = {d.name: d.novel for d in run.truth.documents}
    same = [novel[h] == novel[r] for h, r in run.hard_pairs]
    hard_docs = sorted({h for h, _ in run.hard_pairs})
    rows = []
    for method in run.scores:
        scores = run.hard_scores[method]
        alarms = [k for k, score in enumerate(scores) if score >= thresholds[method]]
        row: dict[str, object] = {
            "method": method,
            "fp": len(alarms),
            "fp_same_novel": sum(1 for k in alarms if same[k]),
            "top_score": max(scores, default=0.0),
        }
        if method in run.hard_verdicts:
            found = run.hard_verdicts[method]
            row["verdict_fp"] = sum(found)
            row["verdict_fp_same_novel"] = sum(1 for k, f in enumerate(found) if f and same[k])
        recall = {}
        for level in TABLE_LEVELS:
            selection = level_selection(level, labels, pair_levels, splits)
            level_scores = [run.scores[method][k] for k in selection] + scores
            truth = [labels[k] for k in selection] + [False] * len(scores)
            recall[level] = measures.recall_at_zero_fp(level_scores, truth) if scores else None
        row["recall_at_zero_fp"] = recall
        rows.append(row)
    per_novel: dict[str, int] = {}
    for name in hard_docs:
        per_novel[novel[name]] = per_novel.get(novel[name], 0) + 1
    return {
        "documents": len(hard_docs),
        "per_novel": per_novel,
        "words_mean": _mean([d.words for d in run.truth.documents if d.role == "hard"]),
        "pairs": len(run.hard_pairs),
        "same_novel_pairs": sum(same),
        "rows": rows,
    }


def false_alarms(run: Run, texts: dict[str, str], limit: int = 40) -> dict[str, list[dict]]:
    """Per method with a verdict: the negative pairs (either part) and hard negatives' pairs it
    flags,
    with the passages it reports there (text cut to 300 characters): for whoever tunes it."""
    labels, _, splits = pair_facts(run)
    novel = {d.name: d.novel for d in run.truth.documents}
    copied_novels: dict[str, set[str]] = {}
    for case in run.truth.cases:
        copied_novels.setdefault(case.suspicious, set()).add(novel[case.source])

    def same_novel(a: str, b: str) -> bool:
        """B's novel is A's own, or that of a passage A copied."""
        return novel[a] == novel[b] or novel[b] in copied_novels.get(a, set())

    out: dict[str, list[dict]] = {}
    for method, found in run.verdicts.items():
        flagged = [
            (f"negative ({splits[k]})", run.pairs[k], run.passages[method][k])
            for k, f in enumerate(found)
            if f and not labels[k]
        ]
        flagged += [
            ("hard", pair, run.hard_passages[method][k])
            for k, (pair, f) in enumerate(
                zip(run.hard_pairs, run.hard_verdicts[method], strict=True)
            )
            if f
        ]
        out[method] = [
            {
                "kind": kind,
                "suspicious": a,
                "source": b,
                "same_novel": same_novel(a, b),
                "passages": [
                    {
                        "suspicious_span": list(sa),
                        "source_span": list(sb),
                        "suspicious_text": texts[a][slice(*sa)][:300],
                        "source_text": texts[b][slice(*sb)][:300],
                    }
                    for sa, sb in spans
                ],
            }
            for kind, (a, b), spans in flagged[:limit]
        ]
    return out


def shared_runs(run: Run, texts: dict[str, str], n: int = SHARED_RUN) -> tuple[int, str]:
    r"""Hard negatives' pairs sharing a run of n words (`\w+`, case-folded) with their source:
    phrases a novel repeats (the runs themselves never overlap); and one such run."""

    def grams(name: str) -> set[tuple[str, ...]]:
        words = re.findall(r"\w+", texts[name].casefold())
        return {tuple(words[k : k + n]) for k in range(len(words) - n + 1)}

    cache: dict[str, set[tuple[str, ...]]] = {}
    count = 0
    example = ""
    for h, r in run.hard_pairs:
        for name in (h, r):
            if name not in cache:
                cache[name] = grams(name)
        shared = cache[h] & cache[r]
        count += bool(shared)
        if shared and not example:
            example = " ".join(min(shared))
    return count, example


def examples(truth: Truth, texts: dict[str, str]) -> dict[str, dict[str, str]]:
    """For each edited level, its shortest test case: the original and the copy as inserted."""
    splits = {d.name: d.split for d in truth.documents}
    out = {}
    for level in ("light", "heavy"):
        cases = [c for c in truth.cases if c.level == level and splits[c.suspicious] == "test"]
        if not cases:
            continue
        case = min(cases, key=lambda c: (c.words, c.suspicious, c.source_span))
        out[level] = {
            "source": case.source,
            "suspicious": case.suspicious,
            "original": texts[case.source][slice(*case.source_span)],
            "copy": texts[case.suspicious][slice(*case.suspicious_span)],
        }
    return out


# --- the plot ------------------------------------------------------------------------------

STYLES = {  # family -> colour; a family's second score is drawn dashed
    "Doppel": "#000000",
    "SL+ST": "#d62728",
    "Shingling w=4": "#1f77b4",
    "Shingling w=10": "#17becf",
    "SpotSigs": "#2ca02c",
    "Wang k=3": "#9467bd",
    "WCopyfind n=6": "#ff7f0e",
}


def plot_roc(run: Run, thresholds: dict[str, float], path: Path) -> bool:
    """Recall against false positive rate on the test part, all levels and one panel per
    level; the x axis is linear up to one false positive, logarithmic above; a dot marks each
    method's tuned threshold (hollow for a family's second score), a star the verdict of the
    methods that have one. False when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        print("matplotlib not installed (pip install -e '.[bench]'): no plot")
        return False
    labels, pair_levels, splits = pair_facts(run)
    figure, axes = plt.subplots(2, 2, figsize=(11, 8.5), sharey=True)
    for axis, level in zip(axes.flat, ("all", *COPY_LEVELS), strict=True):
        selection = level_selection(level, labels, pair_levels, splits)
        truth = [labels[k] for k in selection]
        negatives = len(truth) - sum(truth)
        for family, members in run.families.items():
            for k, method in enumerate(members):
                scores = [run.scores[method][i] for i in selection]
                points = measures.roc_curve(scores, truth)
                colour = STYLES.get(family)
                axis.plot(
                    [x for x, _ in points],
                    [y for _, y in points],
                    color=colour,
                    linestyle="--" if k else "-",
                    linewidth=1.6 if k == 0 else 1.2,
                    label=method,
                )
                tp, fp, fn, tn = measures.confusion(scores, truth, thresholds[method])
                axis.plot(
                    fp / (fp + tn),
                    tp / (tp + fn),
                    marker="o" if k == 0 else "s",
                    markersize=5,
                    markerfacecolor=colour if k == 0 else "white",
                    markeredgecolor=colour,
                    linestyle="none",
                    clip_on=False,
                    zorder=5,
                )
                if method in run.verdicts:
                    found = [run.verdicts[method][i] for i in selection]
                    tp = sum(1 for f, t in zip(found, truth, strict=True) if f and t)
                    fp = sum(1 for f, t in zip(found, truth, strict=True) if f and not t)
                    axis.plot(
                        fp / negatives,
                        tp / max(sum(truth), 1),
                        marker="*",
                        markersize=11 if k == 0 else 8,
                        markerfacecolor=colour if k == 0 else "white",
                        markeredgecolor=colour,
                        linestyle="none",
                        clip_on=False,
                        zorder=6,
                    )
        axis.set_xscale("symlog", linthresh=1 / negatives, linscale=0.6)
        axis.set_xlim(0, 1)
        ticks = [0.0, *(10.0**e for e in range(math.ceil(math.log10(1 / negatives)), 1))]
        axis.set_xticks(ticks, ["0", *(f"{t:g}" for t in ticks[1:])])
        axis.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
        axis.set_ylim(-0.02, 1.02)
        axis.axvline(1 / negatives, color="0.8", linewidth=0.8, zorder=0)
        axis.grid(True, which="major", color="0.92")
        title = "all levels" if level == "all" else level
        axis.set_title(f"{title}: {sum(truth)} positive, {negatives:,} negative test pairs")
        axis.set_xlabel("false positive rate (linear up to one false positive, log above)")
        axis.set_ylabel("recall (true positive rate)")
    handles, names = axes.flat[0].get_legend_handles_labels()
    figure.legend(handles, names, loc="lower center", ncol=5, fontsize=8.5, frameon=False)
    figure.suptitle("ROC on the test part (bench/evaluate.py)", fontsize=12)
    figure.tight_layout(rect=(0, 0.07, 1, 0.97))
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reuse", action="store_true", help="use the corpus already written")
    parser.add_argument("--seed", type=int, default=CorpusConfig.seed)
    parser.add_argument("--sources", type=int, default=CorpusConfig.sources)
    parser.add_argument("--suspicious", type=int, default=CorpusConfig.suspicious)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--report", type=Path, default=REPORT)
    parser.add_argument("--plot", type=Path, default=PLOT)
    parser.add_argument(
        "--report-only", action="store_true", help="rewrite the report from --out's results"
    )
    args = parser.parse_args()
    if args.report_only:
        plot = args.plot if args.plot.exists() else None  # (no matplotlib: no plot)
        write_report(json.loads(args.out.read_text()), args.report, plot)
        print(f"written {args.report}")
        return
    paths = novels()
    if not paths:
        print("corpus not found (../shared/corpus/gutenberg or $DOPPEL_CORPUS): skipped")
        return
    print(f"machine: {machine()}")
    if p4p_dir() is None:
        print("P4P not found (../shared/corpus/p4p or $DOPPEL_P4P): that part is left out")
    summary = evaluate(
        paths,
        CorpusConfig(seed=args.seed, sources=args.sources, suspicious=args.suspicious),
        corpus=args.corpus,
        out=args.out,
        report=args.report,
        plot=args.plot,
        reuse=args.reuse,
        p4p=p4p_dir(),
    )
    print(f"written {args.out}, {args.plot}, {args.report} in {summary['total_s']:.0f} s")


def evaluate(
    paths: Sequence[Path],
    config: CorpusConfig,
    *,
    corpus: Path,
    out: Path,
    report: Path,
    plot: Path,
    reuse: bool = False,
    p4p: Path | None = None,
    progress: Callable[[str], None] = print,
) -> dict[str, object]:
    """The whole evaluation: corpus (regenerated unless `reuse` and it exists), every method,
    the measures; writes the results JSON, the plot and the report. Returns the results."""
    started = time.perf_counter()
    if reuse and (corpus / TRUTH).is_file():
        truth = load_truth(corpus)
        progress(f"reusing the corpus in {corpus}")
    else:
        truth = generate(paths, corpus, config)
    progress(f"corpus: {len(truth.documents)} documents, {len(truth.cases)} cases")
    texts = read_texts(corpus)
    run = run_methods(truth, texts, eval_methods.all_methods(), progress)
    summary = summarise(run)
    summary["hard"]["shared_runs"], summary["hard"]["shared_run_example"] = shared_runs(run, texts)
    summary["false_alarms"] = false_alarms(run, texts)
    summary["detector"] = run.detector
    summary["targets"] = TARGETS
    summary["examples"] = examples(truth, texts)
    evasion_started = time.perf_counter()
    summary["evasion"] = eval_evasion.run_evasion(truth, texts, progress)
    summary["evasion"]["wall_s"] = time.perf_counter() - evasion_started
    summary["p4p"] = None
    if p4p is not None:
        progress(f"P4P from {p4p}")
        summary["p4p"] = eval_p4p.run_p4p(p4p, eval_methods.all_methods(), progress)
    summary["date"] = time.strftime("%Y-%m-%d")
    plotted = plot_roc(run, summary["thresholds"], plot)
    summary["total_s"] = time.perf_counter() - started
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=1))
    write_report(summary, report, plot if plotted else None)
    return summary


# --- the report ----------------------------------------------------------------------------


def docstring_sections(text: str) -> dict[str, str]:
    """A module docstring's sections: a title line underlined with dashes, then its text."""
    lines = text.splitlines()
    sections: dict[str, str] = {}
    title = ""
    body: list[str] = []
    for k, line in enumerate(lines):
        if k + 1 < len(lines) and re.fullmatch(r"-{3,}", lines[k + 1]) and line.strip():
            if title:
                sections[title] = "\n".join(body).strip()
            title, body = line.strip(), []
        elif not re.fullmatch(r"-{3,}", line):
            body.append(line)
    if title:
        sections[title] = "\n".join(body).strip()
    return sections


def reflow(markdown: str, width: int = 95) -> str:
    """Paragraphs and list items re-wrapped to `width` (text filled in from the numbers leaves
    ragged lines); headings, tables, quotes, images and code blocks are left as they are."""
    out: list[str] = []
    fenced = False
    for block in re.split(r"\n{2,}", markdown):
        lines = block.split("\n")
        if fenced or lines[0].startswith("```"):
            fenced = (block.count("```") % 2 == 1) != fenced
            out.append(block)
            continue
        if lines[0].startswith(("#", "|", ">", "!", "    ")):
            out.append(block)
            continue
        items: list[list[str]] = []
        for line in lines:
            if line.startswith("- ") or not items:
                items.append([line])
            else:
                items[-1].append(line.strip())
        wrapped = []
        for item in items:
            text = re.sub(r"(\d)– (?=\d)", r"\1–", " ".join(item))  # "1,500–\n2,500"
            bullet = text.startswith("- ")
            wrapped.append(
                textwrap.fill(
                    text,
                    width=width,
                    subsequent_indent="  " if bullet else "",
                    break_on_hyphens=False,
                    break_long_words=False,
                )
            )
        out.append("\n".join(wrapped))
    return "\n\n".join(out)


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]], align: str) -> str:
    """A Markdown table; `align` has one letter per column, l or r."""
    marks = ["---:" if a == "r" else "---" for a in align]
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join(marks) + "|"]
    out += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(out)


def _f(x: float, digits: int = 2) -> str:
    return f"{x:.{digits}f}"


def _pct(part: int, whole: int) -> str:
    return f"{part} of {whole} ({100 * part / whole:.0f}%)" if whole else f"{part} of 0"


def _rows(summary: dict, level: str) -> dict[str, dict]:
    return {row["method"]: row for row in summary["levels"][level]["rows"]}


def _pan(summary: dict, level: str, method: str, flagged: bool = True) -> dict:
    return next(
        r
        for r in summary["passages"][level]
        if r["method"] == method and r["flagged_only"] == flagged
    )


def _quote(text: str) -> str:
    return "\n>\n".join("> " + paragraph for paragraph in text.split("\n\n"))


def write_report(summary: dict, path: Path, plot: Path | None) -> None:
    """docs/evaluation.md, every number from `summary` (the results JSON)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_report(summary, plot, path.parent), encoding="utf-8")


def render_report(summary: dict, plot: Path | None, folder: Path) -> str:
    config, corpus = summary["config"], summary["corpus"]
    families: dict[str, list[str]] = summary["families"]
    methods = [m for members in families.values() for m in members]
    thresholds = summary["thresholds"]
    parts = [
        _intro(summary),
        _for_teachers(summary),
        _regenerating(summary),
        _corpus(summary, config, corpus),
        _methods_section(),
        _measures_section(summary),
        _results(summary, methods, thresholds, plot, folder),
        _what_it_says(summary, methods),
        _limits(summary),
    ]
    return reflow("\n\n".join(part.strip() for part in parts)) + "\n"


def _intro(summary: dict) -> str:
    p4p = summary.get("p4p")
    p4p_time = (
        f" (of which P4P, human rewriting: {p4p['wall_s']:.0f} s)" if p4p else " (P4P absent)"
    )
    return f"""
# Evaluation: Doppel (SL+ST + reworded passages) against shingling, SpotSigs, Wang, WCopyfind

This page is written by `make evaluate` (`bench/evaluate.py`): every number on it comes from
that run, and nothing is copied from the SL+ST paper (whose results table is not in the seed
text anyway). Change the scripts, not this page. Raw results: `bench/results/evaluation.json`
(not committed).

**Run:** {summary["date"]}, seed {summary["config"]["seed"]}, the whole command (corpus,
analysis, every method, measures, plot, P4P) in {summary["total_s"]:.0f} s{p4p_time}.
**Machine:** {summary["machine"]}.
"""


def _span(values: Sequence[int]) -> str:
    """ "3" or "2–5": the range of some counts."""
    low, high = min(values), max(values)
    return str(low) if low == high else f"{low}–{high}"


def _verdict_word(found: int, positives: int) -> str:
    recall = found / positives if positives else 0.0
    if recall >= 0.95:
        return "caught"
    if recall >= 0.5:
        return "caught often, not always"
    return "caught sometimes" if recall >= 0.2 else "missed"


def _alarms_word(fp: int, negatives: int) -> str:
    if fp == 0:
        return "none here"
    return "rare" if fp / max(negatives, 1) < 0.001 else "they happen"


def _baselines(summary: dict) -> list[str]:
    return [m for f, members in summary["families"].items() if f not in OURS for m in members]


def _p4p_rows(summary: dict) -> dict[str, dict]:
    p4p = summary.get("p4p") or {}
    return {row["method"]: row for row in p4p.get("rows", [])}


def _for_teachers(summary: dict) -> str:
    verdicts = summary["verdicts"]
    doppel, strict = verdicts[DOPPEL], verdicts[SLST]
    negatives = summary["levels"]["all"]["negatives"]
    n_test = sum(v["test"] for v in summary["corpus"]["documents_per_level"].values())
    baselines = _baselines(summary)
    word_methods = [m for m in baselines if not m.startswith("Wang")]

    def positives(level: str) -> int:
        return doppel[level]["tp"] + doppel[level]["fn"]

    def found(level: str, of: dict = doppel) -> str:
        return _pct(of[level]["tp"], of[level]["tp"] + of[level]["fn"])

    def marked(level: str) -> str:
        return f"{100 * _pan(summary, level, DOPPEL, flagged=True)['recall']:.0f}%"

    heavy = _rows(summary, "heavy")
    best_heavy = max(word_methods, key=lambda m: (heavy[m]["recall_at_zero_fp"], m))
    best_heavy_found = round(heavy[best_heavy]["recall_at_zero_fp"] * positives("heavy"))
    bullets = [
        f"**Copied word for word: {_verdict_word(doppel['verbatim']['tp'], positives('verbatim'))}"
        f".** {found('verbatim')} pairs with a verbatim copy were flagged, and "
        f"{marked('verbatim')} of the copied text was marked.",
        "**Lightly edited (a few words per sentence replaced, added or removed; commas "
        f"changed): {_verdict_word(doppel['light']['tp'], positives('light'))}.** "
        f"{found('light')} pairs (SL+ST alone: {found('light', strict)}). A sentence that "
        "gains, loses or changes a meaningful word no longer has the same length and first "
        "words, which SL+ST needs; it still shares most of its words, which the reworded "
        f"passages look for. {marked('light')} of such copied text was marked.",
        "**Heavily reworded (sentences reordered, merged or split, three to six words changed "
        f"in each): {_verdict_word(doppel['heavy']['tp'], positives('heavy'))}.** "
        f"{found('heavy')} pairs (SL+ST alone: {found('heavy', strict)}); "
        f"{marked('heavy')} of the copied text was marked. For comparison, the best of the "
        "methods that look for shared runs of words, at a threshold set so that it makes no "
        f"false alarm on these tests, found {_pct(best_heavy_found, positives('heavy'))} "
        f"({best_heavy}).",
    ]
    p4p = summary.get("p4p")
    p4p_rows = _p4p_rows(summary)
    if p4p and DOPPEL in p4p_rows:
        row = p4p_rows[DOPPEL]
        best = max(baselines, key=lambda m: (p4p_rows[m]["recall_at_zero_fp"], m))
        single = p4p["by_sentences"]
        bullets.append(
            f"**Rewritten by a person: {_verdict_word(row['tp'], p4p['cases'])}.** On P4P, "
            f"{p4p['cases']} short passages (median {p4p['words_median']:.0f} words) each "
            f"rewritten by a person, Doppel flagged {_pct(row['tp'], p4p['cases'])} of the "
            f"rewrites against their original, with {row['fp']} false alarm"
            f"{'' if row['fp'] == 1 else 's'} among the {p4p['negatives']:,} pairings of a "
            "rewrite with another passage's original. People change most of the words and the "
            "build of every sentence; no method here does well: the best of the others, at a "
            "threshold set knowing every negative pair, found "
            f"{100 * p4p_rows[best]['recall_at_zero_fp']:.0f}% ({best}). Where both the "
            f"original and the rewrite are a single sentence, Doppel flagged "
            f"{_pct(*single['both one'])}; where one of them is, {_pct(*single['one'])}; "
            f"where both have two or more, {_pct(*single['more'])}."
        )
    evasion = summary.get("evasion")
    if evasion and evasion["rows"]:
        found_after = [row["found_after"] for row in evasion["rows"]]
        found_before = [row["found_before"] for row in evasion["rows"]]
        bullets.append(
            "**Copied word for word, then disguised character by character (letters replaced "
            "by Cyrillic look-alikes, invisible characters inside words, braille blanks for "
            "spaces, full stops of other scripts): "
            f"{_verdict_word(min(found_after), evasion['pairs'])}.** With each trick on its "
            f"own, {_span(found_after)} of the {evasion['pairs']} verbatim pairs were found "
            f"(before Doppel undid these disguises: {_span(found_before)}), and "
            f"{_span([row['warned'] for row in evasion['rows']])} of the "
            f"{evasion['documents']} disguised documents carry a warning naming the trick. See "
            "*Evasion* below."
        )
    hard = summary["hard"]
    hard_rows = {row["method"]: row for row in hard["rows"]}
    fp = doppel["all"]["fp"]
    if hard.get("documents"):
        hard_fp = hard_rows[DOPPEL]["verdict_fp"]
        hard_text = (
            f" Harder: {hard['documents']} documents cut from other parts of the source novels "
            "(the same characters, places and style, no copying) were compared with every "
            f"source: {hard_fp} of those {hard['pairs']:,} pairs "
            f"({hard['same_novel_pairs']:,} of them with a source from the same novel) "
            f"{'was' if hard_fp == 1 else 'were'} flagged."
        )
    else:
        hard_text = ""
        hard_fp = 0
    alarms = summary.get("false_alarms", {}).get(DOPPEL, [])
    test_alarms = [a for a in alarms if a["kind"] in ("negative (test)", "hard")]
    same = sum(1 for a in test_alarms if a.get("same_novel"))
    nature = ""
    if test_alarms:
        nature = (
            " Each of them pairs two texts of the same novel, which share its characters' "
            "names and its author's turns of phrase (there is no copying between them: the "
            "texts come from different parts of the novel)."
            if same == len(test_alarms)
            else f" {same} of them pair two texts from the same novel."
        )
    bullets.append(
        f"**False alarms: {_alarms_word(fp + hard_fp, negatives + hard.get('pairs', 0))}.** Of "
        f"the {negatives:,} test pairs with no copying between them, {fp} "
        f"{'was' if fp == 1 else 'were'} flagged.{hard_text}{nature} Essays on one topic, "
        "quoting the same texts or answering the same prompt share more than novels do — the "
        "exclusions for quotations, references and templates are there for that "
        "(docs/exclusions.md)."
    )
    still = [
        f"{_pct(doppel[level]['fn'], positives(level))} {label} copies"
        for level, label in (
            ("verbatim", "verbatim"),
            ("light", "lightly edited"),
            ("heavy", "heavily reworded"),
        )
        if doppel[level]["fn"]
    ]
    if p4p and DOPPEL in p4p_rows:
        row = p4p_rows[DOPPEL]
        still.append(
            f"{_pct(row['fn'], p4p['cases'])} of the passages rewritten by people (examples "
            "under *Human rewriting* below)"
        )
    single_text = ""
    if p4p and DOPPEL in p4p_rows and p4p["by_sentences"]["both one"][0] == 0:
        single_text = (
            " A single copied sentence on its own is not flagged (none of the "
            f"{p4p['by_sentences']['both one'][1]} one-sentence P4P cases was): a verified "
            "block needs two sentences in a row, and a reworded passage two aligned sentence "
            "pairs."
        )
    threshold = summary["thresholds"][DOPPEL]
    jaccard = summary["thresholds"][SLST]
    return f"""
## For teachers: what Doppel catches, what it misses, what the scores mean

Doppel looks for copied text in two ways. The first is the SL+ST paper's: it compares the
*shape* of two documents — how many words each sentence has — and accepts a match only where at
least two sentences in a row have the same lengths **and** start with the same two words (a
*verified block*: copied word for word, or nearly). The second is Doppel's own: **reworded
passages**, neighbouring sentences of the two documents that share enough of their less common
words ("derived" and "derives" counting as one), even where words were changed, added or left
out and sentences reordered, merged or split. A pair gets the verdict **"copied text found"** as
soon as either finds something; there is no threshold to set.

To see how far that can be trusted, this test planted passages of 3 to 15 sentences from
{summary["corpus"]["sources"]} "source" documents into {summary["corpus"]["suspicious"]}
"student" documents, word for word, lightly edited, or heavily reworded, and left a quarter of
the student documents without any copying. The counts below come from the {n_test} student
documents kept aside for testing, each compared with every source, with Doppel as it runs by
default (`doppel compare`, the folder check); "SL+ST alone" is the paper's method
(`--strict`).

{chr(10).join("- " + b for b in bullets)}

**What is still not caught:** {"; ".join(still) if still else "nothing in this test"}.{single_text}
The edits of this test replace
words by unrelated words of similar length and frequency; a person rewording with synonyms and
new sentence structure keeps fewer shared words, which is what P4P measures.

**What the verdict and the scores mean.** *Copied text found* means Doppel found at least one
verified block or reworded passage: read them side by side — it is evidence to look at, not a
judgement, and not a probability of plagiarism. *x% of A is found in B* is the share of A's
sentences inside copied passages of either kind: "how much of this essay is copied". *Jaccard*
is the SL+ST paper's score: the share of matched sentences (in verified blocks only) among all
the sentences of the two documents, so a copied passage of 10 sentences in two documents of 100
sentences each scores about 5%, and a low Jaccard can still be a real copy; a reworded copy adds
nothing to it. The best single threshold on the copied share for this corpus (tuned on the
tuning part) was {100 * threshold:.2f}%, and on the Jaccard {100 * jaccard:.2f}%: in practice,
any flagged pair deserves a look.
"""


def _regenerating(summary: dict) -> str:
    seed = CorpusConfig.seed
    return f"""
## Regenerating

```sh
make evaluate                      # installs the bench extra (matplotlib), runs the line below
python bench/evaluate.py           # corpus, every method, P4P, this page (--seed, default {seed})
python bench/evaluate.py --reuse   # the same on the corpus already in bench/results/eval-corpus/
python bench/evaluate.py --report-only   # this page again from bench/results/evaluation.json
python bench/eval_corpus.py --seed 7     # only the corpus, another seed
python bench/eval_p4p.py                 # only the P4P part, printed
```

Outputs: the corpus in `bench/results/eval-corpus/` (`srcNNN.txt`, `suspNNN.txt`,
`hardNNN.txt`, `truth.json`), `bench/results/evaluation.json`, `docs/evaluation-roc.png`, and
this page. The corpus is the same byte for byte for the same seed and the same novels. Without
the Gutenberg corpus (`../shared/corpus/gutenberg/` or `$DOPPEL_CORPUS`) the command prints a
message and exits 0; without P4P (`../shared/corpus/p4p/` or `$DOPPEL_P4P`) it leaves that
part out. P4P is research-use data and is read where it lies, never copied into the repository.
"""


def _corpus(summary: dict, config: dict, corpus: dict) -> str:
    per_level = corpus["documents_per_level"]
    cases = corpus["cases_per_level"]
    rows = []
    for level in LEVELS:
        c = cases.get(level, {"tuning": 0, "test": 0})
        rows.append(
            [
                level,
                per_level[level]["tuning"],
                per_level[level]["test"],
                c["tuning"],
                c["test"],
            ]
        )
    pairs = corpus["pairs"]
    levels_table = _table(
        ["level", "documents: tuning", "test", "copied passages: tuning", "test"],
        rows,
        "lrrrr",
    )
    example_text = []
    for level, example in summary.get("examples", {}).items():
        example_text.append(
            f"**{level.capitalize()}** (`{example['suspicious']}`, the shortest {level} case "
            f"of the test part), the original in `{example['source']}`:\n\n"
            f"{_quote(example['original'])}\n\nas copied:\n\n{_quote(example['copy'])}"
        )
    novels = summary["novels"]
    hard = summary.get("hard") or {}
    if hard.get("documents"):
        counts = ", ".join(f"{n} from {novel}" for novel, n in sorted(hard["per_novel"].items()))
        empty = [n for n in novels["source"] if n not in hard["per_novel"]]
        none_left = (
            f"; {' and '.join(empty)} had no part left, {'its' if len(empty) == 1 else 'their'} "
            "sources take all of it"
            if empty
            else ""
        )
        hard_text = (
            f"{hard['documents']} documents ({counts}{none_left}) cut from the parts of the "
            "source novels that no source document holds: the source novels are cut into runs "
            "once, the sources take some, and a hard negative is the first paragraphs of a run "
            f"left over, up to a length drawn from {config['own_words'][0]:,}–"
            f"{config['own_words'][1]:,} words like an own text (mean "
            f"{hard['words_mean']:,.0f}). They have the sources' characters, places, style and "
            "subject, and no copied text; they belong to the test part only, are compared with "
            "every source, and are reported on their own (they are not among the level "
            "tables' negatives, so those stay comparable with earlier runs)."
        )
    else:
        hard_text = "none in this corpus (made before they were added)."
    abbreviations = ", ".join(
        f"{a.capitalize()}." for a in sorted(ABBREVIATIONS, key=lambda a: (len(a), a))
    )
    return f"""
## The corpus

`bench/eval_corpus.py` builds it from the nine public-domain novels of
`../shared/corpus/gutenberg/`, with one `random.Random({config["seed"]})`:

- **Text.** Each novel is normalised (`core.documents.normalize.normalize_text`; Project Gutenberg's
  header and footer lines are cut first where present) and split into paragraphs; paragraphs
  of fewer than four words, without a lowercase letter (headings, "* * *") or starting with
  "[" (illustration notes) are dropped. Every document is a run of consecutive whole
  paragraphs, joined by blank lines, and every written text is normalised
  (`normalize_text(text) == text` is asserted), so the offsets of the ground truth index the
  very string the engine and every method read (`Document.text`).
- **Two groups of novels.** The novels are shuffled and dealt one by one to the group that is
  furthest from the words it needs: *source* novels ({", ".join(novels["source"])}) and
  *own-text* novels ({", ".join(novels["own"])}). A suspicious document's own text never comes
  from a source novel, so it shares no names or phrases with the sources.
- **Sources:** {corpus["sources"]} documents of {config["source_words"][0]:,}–
  {config["source_words"][1]:,} words (mean {corpus["source_words_mean"]:,.0f}), each a run of
  paragraphs of a source novel. **Suspicious:** {corpus["suspicious"]} documents with
  {config["own_words"][0]:,}–{config["own_words"][1]:,} words of own text from an own-text
  novel, plus their copied passages (mean {corpus["suspicious_words_mean"]:,.0f} words in all).
  Runs never overlap, so two documents share text only where it was planted. Each novel is cut
  into runs whose lengths are drawn from those ranges (a run ends at the first paragraph that
  reaches its drawn length, or before one that would pass the maximum), and documents are
  taken from the novels in turn.
- **Levels:** each suspicious document has one, a quarter each: *verbatim*, *light*, *heavy*
  or *none* (no copied text). A document of the first three carries
  {config["passages"][0]}–{config["passages"][1]} passages (equally likely) from one source, or
  from two when it has more than one passage (alternating between them); a passage is
  {config["passage_sentences"][0]}–{config["passage_sentences"][1]} consecutive sentences of
  the source (as a reader sees them: see below) of {config["passage_words"][0]}–
  {config["passage_words"][1]} words, with only spaces or paragraph breaks between its
  sentences, not overlapping another passage taken from the same source for the same
  document. Mean: {corpus["case_sentences_mean"]:.1f} sentences, {corpus["case_words_mean"]:.0f}
  words. Each passage is inserted as its own paragraph(s) at a paragraph boundary of the own
  text, drawn at random (distinct boundaries).
- **Ground truth** (`truth.json`): every document (name, role, level, split, novel, words) and
  every case (suspicious document, source document, level, the span of the passage in each,
  as character offsets into the written texts). For light and heavy the source span is the
  original passage and the suspicious span the edited passage as inserted. A pair (suspicious,
  source) is **positive** iff it has at least one case.
- **Hard negatives:** {hard_text}

### Sentences as a reader sees them

Passages are cut, and edited passages' sentences counted, by a small splitter of the
generator's own (`eval_corpus.reader_sentences`), not by the engine's, so that improving the
engine's sentence splitter does not change the corpus it is measured on. A sentence ends at
the end of a paragraph, or at ".", "!" or "?" (or a run of them, such as "?!" or "...")
followed by any closing quotes or brackets, then whitespace and a capital letter (possibly
behind opening quotes or brackets): '"Where?" cried his wife' is one sentence, '"Where?" She
turned' two. A full stop does not end a sentence after an abbreviation ({abbreviations}, in
any case) or after a single capital letter other than "I" (an initial, "J. M. Barrie").

### The edit operations

A *word* below is a space-separated token's letters, with its leading and trailing
punctuation kept apart: a word is only *plain* if it is made of ASCII letters only. The
**vocabulary** is every all-lowercase word occurring at least twice in the nine novels, with
its count; a word's *frequency band* is ⌊log₂ count⌋ (a word never seen in lowercase, such as a
name, is in band 0). There is no synonym dictionary offline, so a replacement is a word of
similar length and frequency, not of similar meaning: these edits model the *mechanics* of
disguise (how many words change), not real paraphrase.

**A word operation** takes the three kinds *replace*, *insert*, *delete* in a random order and
does the first that applies:
- *replace*: a random plain word (the first one included) becomes a vocabulary word of the same
  length and frequency band (if there is none, length ±1, then ±2; failing that any vocabulary
  word), with the original's capitalisation;
- *insert*: a word drawn from the vocabulary with the corpus frequencies (so mostly "the",
  "and", "of", "to") goes before a random word other than the first;
- *delete* (sentences of four words or more): a random plain word with no punctuation of its
  own, neither the first nor the last, is removed.

Punctuation stays attached to its word, so a sentence keeps its capital and its final stop.
**A punctuation operation** picks one of the kinds that apply — add a comma after a plain word
(not one of the last two, and not before an opening quote), remove a comma, turn a comma into
a semicolon or a semicolon into a comma — and applies it at a random place.

- **verbatim:** the passage is copied unchanged, paragraph breaks included.
- **light:** every sentence gets 1–3 word operations (uniformly) and, with probability 1/2,
  one punctuation operation. Sentence order and paragraph breaks are kept.
- **heavy:** (1) every sentence gets 3–6 word operations and, with probability 1/2, one
  punctuation operation; (2) each sentence, with probability 1/2, is **split** at a random
  comma that follows a lowercase word of two letters or more, has at least four words before
  it and three after, and precedes a plain word: the comma becomes a full stop and the next
  word takes a capital; (3) going through the sentences in order, each pair of neighbours —
  the first ending in a full stop, the second not starting with punctuation — is **merged**
  with probability 1/3, joined by ", and" or by ";" (equally likely), the second's first word
  lowercased unless it is "I" or never written in lowercase in the novels; a merged sentence is
  not merged again; (4) the sentences are **shuffled** (a uniform random order); (5) the
  passage becomes one paragraph.
- For light and heavy, the edits are drawn again (up to 10 times, the last kept) until the
  reader's splitter above finds as many sentences in the edited passage as the edits meant to
  leave, so an implausible sentence end does not stay.

{(chr(10) * 2).join(example_text)}

### Tuning and test parts

The suspicious documents are split per level: {100 * config["tuning_share"]:.0f}% of each
level's documents (drawn at random) form the **tuning** part, the rest the **test** part. The
{corpus["sources"]} sources belong to both parts: a source can be copied into a tuning document
and into a test document, but no suspicious document, and so no copy, is in both. Each method's
threshold is chosen on the tuning part; every number in the results comes from the test part.
Pairs are every suspicious document against every source:
{pairs["tuning"]["pairs"]:,} tuning pairs ({pairs["tuning"]["positive"]} positive) and
{pairs["test"]["pairs"]:,} test pairs ({pairs["test"]["positive"]} positive).

{levels_table}
"""


def _methods_section() -> str:
    sections = docstring_sections(eval_methods.__doc__ or "")
    same = sections.get("Same input for every method", "")
    params = sections.get("The methods and their parameters", "")
    # its first paragraph: what is stored (the rest is about caches, for the runner)
    costs = sections.get("Costs and caches", "").split("Methods of one `family`")[0].strip()
    return f"""
## The methods

Implemented in `bench/eval_methods.py` (not shipped in the app); the text below is that
module's own description, so it stays true to the code. Every document is analysed once by
`core.documents.document.document_from_text(text, name, SignatureOptions(language="en"))`.

### Same input for every method

{same}

### The methods and their parameters

{params}

### Features stored

{costs}
"""


def _measures_section(summary: dict) -> str:
    sections = docstring_sections(measures.__doc__ or "")
    p4p = docstring_sections(eval_p4p.__doc__ or "")
    return f"""
## The measures

Implemented in `bench/eval_measures.py`; the formulas are that module's.

### Pair level

{sections.get("Pair level", "")}

**Thresholds.** Each method gets **one** threshold, tuned for F1 on all the tuning pairs
together (every level, and the none-level documents), as a teacher would use one setting
whatever the disguise. It is then applied unchanged to the test part.

**Tables per level.** For level L, the positives are the test pairs with a case of level L;
the negatives are **all** the test pairs without a case — the pairs of the none-level
documents, and the pairs of the copying documents with the sources they did not copy from. The
negatives are thus the same {summary["levels"]["all"]["negatives"]:,} pairs in every table,
and precision at level L is tp / (tp + fp) with the tp of level L and the fp of all negatives.
"All levels" takes every positive.

**Verdicts.** Doppel's default, SL+ST alone and the reworded detector alone also decide by
themselves: a pair is flagged or not, with no threshold (`verdict` in bench/eval_methods.py).
Their true and false positives on the test part are counted per level like the rest, and set
beside each baseline's recall at zero false positives (the table "At Doppel's own verdict").
The threshold tables still list them at a tuned threshold on their scores, for the comparison
of scores.

**Hard negatives.** The pairs of the hard-negative documents with every source are scored like
the others but kept out of the level tables; their table gives each method's false alarms at
its tuned threshold and at its verdict, and its recall at zero false positives on the test part
with these pairs added to the level's negatives.

### Human rewriting (P4P)

Implemented in `bench/eval_p4p.py`; the text below is that module's.

{p4p["Data"]}

{p4p["Pairs"]}

**Screening.** {p4p["Screening"]}

**Measures.** {p4p["Measures"]}

### Passage level

{sections.get("Passage level (PAN)", "")}

Here a case is a planted passage of a test document (its suspicious span and source span) and
a detection is a passage a localising method reports (Doppel's default: its passages of both
kinds, the reworded detector its reworded passages, merged where they touch in both documents;
SL+ST: its verified pieces, pieces on one diagonal that touch merged; the phrase matcher: its
runs, merged where they touch in both documents). **Detections are taken from the pairs the
method flags** — by its verdict for Doppel's default and the reworded detector, at its tuned
threshold for the others: what a teacher would be shown. The rows "every pair" take the
passages of every test pair of the table, flagged or not (listed once for a family whose two
scores report the same passages). Per level, the cases are those of the level and the
detections those in the level's pairs (its positives and all negatives).

### Cost

Per family (a score and its containment or resemblance variant share features and per-pair
work, so they are timed once): CPU seconds of this process (steadier than wall time on a
shared machine; wall time is in the JSON), with the cyclic garbage collector paused during
each timed loop as the app's workers do. *Prepare*: building the method's features for every
document from the analysed `Document`; *score*: everything per pair — both scores of the
family, and the passages where the method localises. Ratios are against **{REFERENCE}**, timed
in the same run. The analysis every method shares (normalised text → Punkt sentences, word
tokens, stop words, signature) is timed on its own row.
"""


def _verdict_section(summary: dict) -> str:
    """Doppel's verdict per level, beside SL+ST's and the reworded detector's verdicts and each
    baseline's recall at zero false positives."""
    verdicts = summary["verdicts"]
    negatives = summary["levels"]["all"]["negatives"]
    targets = summary.get("targets", TARGETS)
    headers = ["method", *(f"{lv}" for lv in COPY_LEVELS), "all levels", "false alarms"]

    def cell(counts: dict) -> str:
        positives = counts["tp"] + counts["fn"]
        share = counts["tp"] / positives if positives else 0.0
        return f"{counts['tp']}/{positives} ({100 * share:.0f}%)"

    rows = []
    for method in verdicts:
        label = f"**{method}**, its verdict" if method == DOPPEL else f"{method}, its verdict"
        rows.append(
            [
                label,
                *(cell(verdicts[method][lv]) for lv in TABLE_LEVELS),
                verdicts[method]["all"]["fp"],
            ]
        )
    for method in _baselines(summary):
        cells = []
        for level in TABLE_LEVELS:
            row = _rows(summary, level)[method]
            positives = row["tp"] + row["fn"]
            found = round(row["recall_at_zero_fp"] * positives)
            cells.append(f"{found}/{positives} ({100 * row['recall_at_zero_fp']:.0f}%)")
        rows.append([f"{method}, recall at 0 FP", *cells, "0"])
    target_text = ", ".join(f"{lv} ≥ {100 * t:.0f}%" for lv, t in targets.items())
    met = []
    for level, target in targets.items():
        counts = verdicts[DOPPEL][level]
        share = counts["tp"] / max(counts["tp"] + counts["fn"], 1)
        best = max(
            (_rows(summary, level)[m]["recall_at_zero_fp"] for m in _baselines(summary)),
            default=0.0,
        )
        standing = "ahead" if share > best else ("level" if share == best else "behind")
        met.append(
            f"{level}: {100 * share:.1f}% against {100 * target:.0f}% "
            f"({'met' if share >= target else 'not met'}; best baseline at 0 FP "
            f"{100 * best:.1f}%: {standing})"
        )
    fp = verdicts[DOPPEL]["all"]["fp"]
    return f"""### At Doppel's own verdict (test part)

Found pairs / positive pairs per level (recall). The verdict rows are each method's own decision
(Doppel's default: `Comparison.flagged`; SL+ST alone: a verified block; the reworded detector
alone: a reworded passage), fixed before the test and the same for every level. The baseline
rows are each baseline's **recall at zero false positives**: the threshold set, after the fact,
just above the highest-scoring of the {negatives:,} negative test pairs — the best any threshold
could do for that baseline without a false alarm, so a generous comparison. The last column is
the false alarms among those negatives.

{_table(headers, rows, "lrrrrr")}

Issue 12's targets for Doppel's verdict: {target_text} of the positive pairs, no false alarm,
and at least as many as every baseline at zero false positives on each level (more, where the
baselines leave room). This run: {"; ".join(met)}; {fp} false alarm{"" if fp == 1 else "s"}.

{_alarm_quotes(summary, "negative (test)", "among the test negatives")}
"""


def _hard_section(summary: dict) -> str:
    hard = summary["hard"]
    if not hard.get("documents"):
        return "### Hard negatives: other parts of the same novels\n\nNone in this corpus."
    headers = [
        "method",
        "false alarms: tuned threshold",
        "same novel",
        "at its verdict",
        "same novel",
        "recall at 0 FP: verbatim",
        "light",
        "heavy",
        "all",
    ]
    rows = []
    for row in hard["rows"]:
        rows.append(
            [
                row["method"],
                row["fp"],
                row["fp_same_novel"],
                row.get("verdict_fp", "—"),
                row.get("verdict_fp_same_novel", "—"),
                *(_f(row["recall_at_zero_fp"][lv]) for lv in TABLE_LEVELS),
            ]
        )
    alarm_text = _alarm_quotes(summary, "hard", "here")
    example = (
        f' ("{hard["shared_run_example"]}", for one)' if hard.get("shared_run_example") else ""
    )
    runs = (
        f", though {hard['shared_runs']} pairs share a run of {SHARED_RUN} words or more: "
        f"phrases a novel repeats{example}, not copying"
        if hard.get("shared_runs")
        else f", and none shares a run of {SHARED_RUN} words with its source"
    )
    return f"""### Hard negatives: other parts of the same novels

{hard["documents"]} documents from the parts of the source novels no source holds, each
compared with every source: {hard["pairs"]:,} pairs, {hard["same_novel_pairs"]:,} of them with
a source from the same novel (the same characters, places and style). None has copied text{runs}.
False alarms at
each method's tuned threshold (from the tuning part, as in the level tables) and at its verdict,
and the recall at zero false positives on the test part when these pairs join the level's
negatives (the level tables leave them out).

{_table(headers, rows, "lrrrrrrrr")}

{alarm_text}
"""


def _alarm_quotes(summary: dict, kind: str, where: str) -> str:
    """Doppel's verdict's false alarms of one kind, the first passage of each (at most three),
    quoted; empty when there is none."""
    alarms = summary.get("false_alarms", {}).get(DOPPEL, [])
    shown = []
    for alarm in [a for a in alarms if a["kind"] == kind][:3]:
        for passage in alarm["passages"][:1]:
            novel = " (texts of the same novel)" if alarm.get("same_novel") else ""
            shown.append(
                f"`{alarm['suspicious']}` against `{alarm['source']}`{novel}:\n\n"
                f"{_quote(_clip(passage['suspicious_text']))}\n\nand\n\n"
                f"{_quote(_clip(passage['source_text']))}"
            )
    if not shown:
        return ""
    return (
        f"Doppel's verdict's false alarms {where}, the first passage of each (at most three):"
        "\n\n" + "\n\n".join(shown)
    )


def _clip(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + " …"


def _p4p_section(summary: dict) -> str:
    p4p = summary.get("p4p")
    if not p4p:
        return (
            "### Human rewriting: P4P\n\nP4P was not found for this run "
            "(`../shared/corpus/p4p/` or `$DOPPEL_P4P`): this part is left out."
        )
    headers = ["method", "recall at 0 FA", "ROC-AUC", "verdict: TP", "FP", "negatives compared"]
    rows = [
        [
            f"**{row['method']}**" if row["method"] == DOPPEL else row["method"],
            _f(row["recall_at_zero_fp"], 3),
            _f(row["roc_auc"], 3),
            row.get("tp", "—"),
            row.get("fp", "—"),
            f"{row['compared_negatives']:,}",
        ]
        for row in p4p["rows"]
    ]
    misses = [
        f"Line {m['line']}, the original:\n\n{_quote(m['original'])}\n\nthe rewrite:\n\n"
        f"{_quote(m['rewrite'])}"
        for m in p4p.get("misses", [])
    ]
    checked = sorted({note["checked"] for note in p4p["screen"].values()})
    min_shared = (
        f" (the reworded detector's screen: {p4p['min_shared']} shared stems, its "
        "`RewordSettings.min_shared` in this run)"
        if "min_shared" in p4p
        else ""
    )
    by = p4p.get("by_sentences")
    sentences_text = (
        f"Doppel's verdict by sentences: both sides one sentence {_pct(*by['both one'])} "
        f"flagged, one side {_pct(*by['one'])}, both two or more {_pct(*by['more'])}."
        if by
        else ""
    )
    return f"""### Human rewriting: P4P

{p4p["cases"]} rewritten passages (median {p4p["words_median"]:.0f} words per passage),
{p4p["identical_pairs"]} of them unchanged; {p4p["negatives"]:,} negative pairs (every rewrite
against every other original, less the {p4p["overlapping_pairs"]} ordered pairs whose
originals overlap). *Recall at 0 FA*: the share of the {p4p["cases"]} rewrites scoring above
every negative pair; *verdict*: the pairs flagged (TP among the positives, FP among the
negatives). *Negatives compared*: the pairs the screen let through (every other one scores 0);
in this run {checked[0]}–{checked[-1]} skipped pairs per family, drawn at random, were compared
anyway, and all scored 0{min_shared}. This part took {p4p["cpu_s"]:.0f} s of CPU. {sentences_text}

{_table(headers, rows, "lrrrrr")}

Rewrites Doppel's verdict misses ({len(misses)} drawn at random among the misses of at most
{eval_p4p.MISS_WORDS} words a side):

{(chr(10) * 2).join(misses)}
"""


def _evasion_section(summary: dict) -> str:
    evasion = summary.get("evasion")
    if not evasion:
        return "### Evasion: disguised characters\n\nNot measured in this run."
    pairs = evasion["pairs"]
    rows = [
        [
            row["trick"],
            _pct(row["found_before"], pairs),
            f"{100 * row['copied_before']:.1f}%",
            _pct(row["found_after"], pairs),
            f"{100 * row['copied_after']:.1f}%",
            f"{row['warned']} of {evasion['documents']}",
            f"{row['restored']} of {evasion['documents']}",
            ", ".join(f"{n:,} {kind}" for kind, n in sorted(row["characters"].items())) or "—",
        ]
        for row in evasion["rows"]
    ]
    headers = [
        "trick",
        "found before",
        "copied before",
        "found after",
        "copied after",
        "warned",
        "restored",
        "characters undone",
    ]
    table = _table(headers, rows, "lrrrrrrl")
    clean = evasion["clean_warned"]
    clean_text = (
        "none of them was changed or carries a warning"
        if not clean
        else f"{len(clean)} of them were changed or carry a warning: "
        + ", ".join(f"`{name}`" for name in clean)
    )
    return f"""### Evasion: disguised characters

The {pairs} verbatim pairs of the test part ({evasion["documents"]} suspicious documents),
each suspicious document disguised whole with one trick (bench/eval_evasion.py: Cyrillic
look-alikes for the Latin letters that have one, in every word or in the first word of each
sentence only; an invisible character inside every word, in turn a combining grapheme joiner,
a Hangul filler, a tag character, a variation selector, a Mongolian vowel separator and an
invisible operator; every space a braille blank; every full stop ending a sentence an Armenian,
Ethiopic or ideographic full stop or a one dot leader), then compared with its source by
Doppel's default comparison. *Before*: the disguised document normalised as Doppel did before
it undid these disguises; *after*: as it does now (docs/formats.md, "Normalisation"). Without
any disguise, {_pct(evasion["plain_found"], pairs)} pairs are found, with a mean copied share
of {100 * evasion["plain_copied"]:.1f}%. *Warned*: disguised documents carrying a warning;
*restored*: those whose text comes out exactly as the undisguised document's.

{table}

The {evasion["clean_documents"]} undisguised documents of the corpus were normalised the same
way: {clean_text}.
"""


def _results(
    summary: dict, methods: list[str], thresholds: dict, plot: Path | None, folder: Path
) -> str:
    out = ["## Results"]
    tuning = {row["method"]: row for row in summary["tuning"]}
    out.append(
        "### Thresholds (tuning part)\n\n"
        + _table(
            ["method", "threshold", "tuning precision", "recall", "F1"],
            [
                [
                    m,
                    f"{thresholds[m]:.4g}",
                    _f(tuning[m]["precision"]),
                    _f(tuning[m]["recall"]),
                    _f(tuning[m]["f1"]),
                ]
                for m in methods
            ],
            "lrrrr",
        )
    )
    out.append(_verdict_section(summary))
    for level in TABLE_LEVELS:
        data = summary["levels"][level]
        title = "All levels together" if level == "all" else f"Level: {level}"
        rows = [
            [
                row["method"],
                _f(row["precision"]),
                _f(row["recall"]),
                f"**{_f(row['f1'])}**",
                _f(row["roc_auc"], 3),
                _f(row["recall_at_zero_fp"]),
                row["tp"],
                row["fp"],
                row["fn"],
            ]
            for row in data["rows"]
        ]
        out.append(
            f"### {title} (test part: {data['positives']} positive, {data['negatives']:,} "
            "negative pairs)\n\n"
            + _table(
                [
                    "method",
                    "precision",
                    "recall",
                    "F1",
                    "ROC-AUC",
                    "recall at 0 FP",
                    "TP",
                    "FP",
                    "FN",
                ],
                rows,
                "lrrrrrrrr",
            )
        )
    out.append(_hard_section(summary))
    out.append(_p4p_section(summary))
    out.append(_evasion_section(summary))
    rows = []
    for level in TABLE_LEVELS:
        for r in summary["passages"][level]:
            name = r["method"] if r["flagged_only"] else f"{r['method']}, every pair"
            rows.append(
                [
                    level,
                    name,
                    _f(r["precision"]),
                    _f(r["recall"]),
                    _f(r["granularity"]),
                    f"**{_f(r['plagdet'])}**",
                    r["cases"],
                    r["detections"],
                ]
            )
    out.append(
        "### Passages (PAN measures, test part)\n\n"
        + _table(
            [
                "level",
                "method",
                "precision",
                "recall",
                "granularity",
                "plagdet",
                "cases",
                "detections",
            ],
            rows,
            "llrrrrrr",
        )
    )
    cost_rows = [
        [
            r["family"],
            f"{r['features_per_document']:,.0f}",
            _f(r["prepare_ms_per_document"], 3),
            _f(r["prepare_vs_reference"]),
            f"{r['score_us_per_pair']:,.1f}",
            _f(r["score_vs_reference"]),
            _f(r["corpus_s"]),
            _f(r["corpus_vs_reference"]),
        ]
        for r in summary["cost"]
    ]
    reference_score_us = next(
        r["score_us_per_pair"] for r in summary["cost"] if r["family"] == REFERENCE
    )
    docs = summary["corpus"]["sources"] + summary["corpus"]["suspicious"]
    pairs = (
        summary["corpus"]["pairs"]["tuning"]["pairs"] + summary["corpus"]["pairs"]["test"]["pairs"]
    )
    detector = summary.get("detector") or {}
    if "matching_us_per_pair" in detector:
        cost_rows.append(
            [
                "*SL+ST matching alone*",
                "",
                "",
                "",
                f"{detector['matching_us_per_pair']:,.1f}",
                _f(detector["matching_us_per_pair"] / reference_score_us),
                "",
                "",
            ]
        )
    if detector:
        cost_rows.append(
            [
                "*reworded detector alone*",
                "",
                _f(detector["prepare_ms_per_document"], 3),
                "",
                f"{detector['score_us_per_pair']:,.1f}",
                _f(detector["score_us_per_pair"] / reference_score_us),
                "",
                "",
            ]
        )
    detector_text = (
        "*Reworded detector alone*: `document_profile` once per document (prepare), then "
        f"`find_reworded` per pair (score), timed on {detector['pairs']:,} of the pairs (one in "
        f"{detector['step']}); `compare_documents` builds both documents' profiles again for "
        "every pair, which the Doppel row includes. *SL+ST matching alone*: "
        "`match_signatures` (suffix tree, verification, score) on the same pairs, without the "
        "rest of `compare_documents` (which, as measured in the SL+ST row, also builds the "
        "documents' word profiles and passage records with the reworded passages off)."
        if detector
        else ""
    )
    cost_rows.append(
        [
            "*shared: text → Document*",
            "",
            _f(summary["analysis_ms_per_document"], 3),
            _f(summary["analysis_vs_reference_prepare"]),
            "",
            "",
            _f(summary["analysis_s"]),
            "",
        ]
    )
    out.append(
        f"### Cost ({docs} documents, {pairs:,} pairs, {summary['words']:,} words)\n\n"
        + _table(
            [
                "family",
                "features / document",
                "prepare ms / document",
                f"× {REFERENCE}",
                "score µs / pair",
                f"× {REFERENCE}",
                "whole corpus s",
                f"× {REFERENCE}",
            ],
            cost_rows,
            "lrrrrrrr",
        )
        + f"""

*Whole corpus* = prepare every document + score every pair (the shared analysis not
included). *Features*: what each method keeps per document (SL+ST: one (ℓ, key) entry per
sentence; shingling and the phrase matcher: about one per word; SpotSigs: distinct spot
signatures; Wang: distinct runs of lengths; Doppel: SL+ST's entries and every sentence's
stems). For scale, `str.split()` over the same texts took {1000 * summary["split_s"]:.0f} ms
in the same run: the shared analysis (Punkt above all) is where the time goes, for every
method; word methods could do without sentences, SL+ST cannot. {detector_text}
"""
    )
    if plot is not None:
        try:
            relative = plot.relative_to(folder)
        except ValueError:
            relative = plot
        out.append(
            f"""### ROC on the test part

![Recall against false positive rate per method, all levels and per level]({relative.as_posix()})

Recall (true positive rate) against false positive rate, the threshold swept over every
distinct score; x is linear up to one false positive (the grey line) and logarithmic above, so
the region teachers care about — few false alarms — is readable. The dots are each method's
tuned threshold (hollow: a family's second score); the stars are the verdicts of Doppel's
default (black), the reworded detector alone (hollow black) and SL+ST alone (red). A straight
segment is a block of tied scores: for SL+ST and Wang's method, most pairs score exactly 0,
positives and negatives alike, and no threshold can separate them.
"""
        )
    return "\n\n".join(out)


def _what_it_says(summary: dict, methods: list[str]) -> str:
    """The findings, each sentence worded from the numbers (so a rerun with another seed
    cannot leave a claim the table contradicts)."""
    rows = {level: _rows(summary, level) for level in TABLE_LEVELS}

    def best(level: str, among: Sequence[str] = methods) -> str:
        return max(among, key=lambda m: (rows[level][m]["f1"], rows[level][m]["roc_auc"]))

    def best_text(level: str) -> str:
        m = best(level)
        f1 = _f(rows[level][m]["f1"])
        tied = sum(1 for other in methods if other != m and _f(rows[level][other]["f1"]) == f1)
        return f"{m}{f' and {tied} more' if tied else ''} (F1 {f1})"

    slst = {level: rows[level]["SL+ST"] for level in TABLE_LEVELS}
    ref = {level: rows[level][REFERENCE] for level in TABLE_LEVELS}
    wang = {level: rows[level]["Wang k=3"] for level in TABLE_LEVELS}
    cost = {r["family"]: r for r in summary["cost"]}
    negatives = summary["levels"]["all"]["negatives"]
    others = _baselines(summary)
    word_methods = [m for m in others if not m.startswith("Wang")]
    verdicts = summary["verdicts"]
    bullets = []

    def share(counts: dict) -> str:
        positives = counts["tp"] + counts["fn"]
        return f"{counts['tp']}/{positives} ({100 * counts['tp'] / max(positives, 1):.0f}%)"

    doppel = verdicts[DOPPEL]
    targets = summary.get("targets", TARGETS)
    missed_targets = [
        level
        for level, target in targets.items()
        if doppel[level]["tp"] / max(doppel[level]["tp"] + doppel[level]["fn"], 1) < target
    ]
    best_zero = {
        level: max(others, key=lambda m, lv=level: (rows[lv][m]["recall_at_zero_fp"], m))
        for level in COPY_LEVELS
    }
    behind = [
        level
        for level in COPY_LEVELS
        if doppel[level]["tp"] / max(doppel[level]["tp"] + doppel[level]["fn"], 1)
        < rows[level][best_zero[level]]["recall_at_zero_fp"]
    ]
    fp = doppel["all"]["fp"]
    target_text = ", ".join(f"{lv} ≥ {100 * t:.0f}%" for lv, t in targets.items())
    verdict_claim = (
        "every target is met"
        if not missed_targets and fp == 0
        else "not met: "
        + ", ".join(
            [f"{lv} below {100 * targets[lv]:.0f}%" for lv in missed_targets]
            + ([f"{fp} false alarm{'s' if fp > 1 else ''}"] if fp else [])
        )
    )
    baseline_claim = (
        "at least as many as every baseline at zero false positives on every level"
        if not behind
        else "fewer than the best baseline at zero false positives on "
        + ", ".join(
            f"{lv} ({best_zero[lv]}: {100 * rows[lv][best_zero[lv]]['recall_at_zero_fp']:.0f}%)"
            for lv in behind
        )
    )
    bullets.append(
        "**Doppel's default at its own verdict** (no threshold tuned) found "
        + ", ".join(f"{lv} {share(doppel[lv])}" for lv in COPY_LEVELS)
        + f" of the positive test pairs, with {fp} false alarm{'' if fp == 1 else 's'} among "
        f"{negatives:,} negatives. Issue 12's targets ({target_text}, "
        f"no false alarm): {verdict_claim}; and it finds {baseline_claim} (a threshold set "
        "after the fact on the test negatives, each baseline's best case)."
    )
    if REWORDED in verdicts and SLST in verdicts:
        bullets.append(
            "**What each detector contributes.** SL+ST alone (`--strict`) flags "
            + ", ".join(f"{lv} {share(verdicts[SLST][lv])}" for lv in COPY_LEVELS)
            + "; the reworded passages alone (SL+ST's verified sentences left out, as in "
            "Doppel) "
            + ", ".join(f"{lv} {share(verdicts[REWORDED][lv])}" for lv in COPY_LEVELS)
            + ". A verbatim copy is all verified blocks, so the reworded detector finds little "
            "there by design; on edited copies it does most of the work."
        )
    hard = summary["hard"]
    if hard.get("documents"):
        hard_rows = {row["method"]: row for row in hard["rows"]}
        noisy = sorted(hard["rows"], key=lambda r: (-r["fp"], r["method"]))[:3]
        bullets.append(
            f"**Hard negatives** ({hard['pairs']:,} pairs, {hard['same_novel_pairs']:,} with "
            f"a source from the same novel): Doppel's verdict flags "
            f"{hard_rows[DOPPEL]['verdict_fp']} ({hard_rows[DOPPEL]['verdict_fp_same_novel']} "
            "from the same novel). At their tuned thresholds the most false alarms are "
            + ", ".join(f"{r['method']} {r['fp']}" for r in noisy)
            + ': thresholds tuned on unrelated negatives sit close to "any shared feature", '
            "and other parts of the same novel share names and turns of phrase."
        )
    p4p = summary.get("p4p")
    if p4p:
        p4p_rows = _p4p_rows(summary)
        best_p4p = max(others, key=lambda m: (p4p_rows[m]["recall_at_zero_fp"], m))
        auc_best = max(methods, key=lambda m: (p4p_rows[m]["roc_auc"], m))
        bullets.append(
            f"**Human rewriting (P4P)**: Doppel's verdict flags "
            f"{_pct(p4p_rows[DOPPEL]['tp'], p4p['cases'])} rewrites, with "
            f"{p4p_rows[DOPPEL]['fp']} false alarms among {p4p['negatives']:,} negative pairs; "
            f"its recall at zero false alarms is {_f(p4p_rows[DOPPEL]['recall_at_zero_fp'])} "
            f"against {_f(p4p_rows[best_p4p]['recall_at_zero_fp'])} for the best baseline "
            f"({best_p4p}) and {_f(p4p_rows[SLST]['recall_at_zero_fp'])} for SL+ST alone. The "
            f"highest ROC-AUC is {auc_best}'s ({_f(p4p_rows[auc_best]['roc_auc'], 3)}). Human "
            "paraphrase keeps few words and little sentence structure; it remains the hard "
            "case for every method here."
        )

    perfect = [m for m in methods if rows["verbatim"][m]["f1"] >= 0.99]
    imperfect = [m for m in methods if m not in perfect]
    bullets.append(
        f"**Verbatim copying**: F1 of 0.99 or more for {len(perfect)} of the {len(methods)} "
        f"methods{' (not: ' + ', '.join(imperfect) + ')' if imperfect else ''}. SL+ST: F1 "
        f"{_f(slst['verbatim']['f1'])}, recall at zero false positives "
        f"{_f(slst['verbatim']['recall_at_zero_fp'])}, and its passages match the planted ones "
        f"(plagdet {_f(_pan(summary, 'verbatim', 'SL+ST')['plagdet'])})."
    )

    light_pan = _pan(summary, "light", "SL+ST")
    phrase = next((m for m in methods if m.startswith("WCopyfind")), None)
    phrase_note = ""
    if phrase is not None:
        p = _pan(summary, "light", phrase)
        comparison = "higher" if light_pan["plagdet"] > p["plagdet"] else "not higher"
        phrase_note = (
            f" The phrase matcher marks more of a lightly edited passage (PAN recall "
            f"{_f(p['recall'])}, SL+ST {_f(light_pan['recall'])}) but in "
            f"{_f(p['granularity'])} pieces per passage on average, since every edited word "
            "ends a run and only touching runs are merged (WCopyfind's *imperfections* "
            "setting, which bridges a mismatched word, is 0 here); plagdet divides by "
            f"log₂(1 + granularity), so SL+ST's plagdet ({_f(light_pan['plagdet'])}) is "
            f"{comparison} than the phrase matcher's ({_f(p['plagdet'])})."
        )
    bullets.append(
        f"**Light edits cost SL+ST {100 * (1 - slst['light']['recall']):.0f}% of its recall** "
        f"(recall {_f(slst['light']['recall'])}; {REFERENCE}: {_f(ref['light']['recall'])}; "
        f"best: {best_text('light')}). Sentence lengths count the words that are not stop "
        "words, so inserting or deleting one such word, or replacing one of a sentence's first "
        "two, breaks that sentence; a passage survives only where two consecutive sentences "
        "escaped every such edit. Word n-gram methods lose the few n-grams around each edit "
        f"and keep the rest.{phrase_note}"
    )

    heavy_best = best("heavy", word_methods)
    bullets.append(
        f"**Heavy rewording defeats SL+ST**: recall {_f(slst['heavy']['recall'])}, ROC-AUC "
        f"{_f(slst['heavy']['roc_auc'], 3)} (0.5 is chance). The word-based methods still find "
        f"most of it (best: {heavy_best}, recall {_f(rows['heavy'][heavy_best]['recall'])}, F1 "
        f"{_f(rows['heavy'][heavy_best]['f1'])}). With 3–6 word operations per sentence and "
        "the order shuffled, two consecutive sentences with equal lengths and first words "
        "almost never remain; runs of four to six untouched words do."
    )

    fp_default = verdicts[SLST]["all"]["fp"]
    alarms = (
        "no false alarm"
        if slst["all"]["fp"] == 0
        else f"{slst['all']['fp']} false alarm{'s' if slst['all']['fp'] > 1 else ''}"
    )
    bullets.append(
        f"**SL+ST makes {alarms} at its tuned threshold** (of {negatives:,} negative test pairs), "
        f"and {fp_default} with every verified block counting (its verdict): checking the "
        "first two words is what makes a sentence-length match trustworthy. **Wang's method**, "
        "the same sentence lengths without that check, is the weakest method at every level "
        f"(F1 {_f(wang['all']['f1'])} over all levels, {wang['all']['fp']} false positives at "
        f"its tuned threshold; on verbatim copies a ROC-AUC of "
        f"{_f(wang['verbatim']['roc_auc'], 3)} but a recall at zero false positives of "
        f"{_f(wang['verbatim']['recall_at_zero_fp'])}): runs of three sentence lengths recur "
        "by chance between unrelated prose, as often as in a copy."
        if best("all", ["Wang k=3", *[m for m in methods if m != "Wang k=3"]]) != "Wang k=3"
        and all(
            wang[lv]["f1"] <= min(r["f1"] for m, r in rows[lv].items() if m != REWORDED)
            for lv in TABLE_LEVELS
        )
        else f"**SL+ST makes {alarms} at its tuned threshold** (of {negatives:,} negative test "
        f"pairs), and {fp_default} with every verified block counting (its verdict). "
        f"Wang's method: F1 {_f(wang['all']['f1'])} over all levels, {wang['all']['fp']} false "
        "positives at its tuned threshold."
    )

    beaten_by = [m for m in others if rows["all"][m]["f1"] > slst["all"]["f1"]]
    bullets.append(
        f"**Overall** (all levels): SL+ST F1 {_f(slst['all']['f1'])}, ROC-AUC "
        f"{_f(slst['all']['roc_auc'], 3)}; best: {best_text('all')}. "
        + (
            f"{len(beaten_by)} of the {len(others)} baseline scores do better than SL+ST here, "
            "so on this corpus the paper's claim of higher accuracy than shingling and "
            "SpotSigs does not hold once copies are edited"
            + (
                "; it holds against Wang's method."
                if "Wang k=3" not in beaten_by
                else ", nor against Wang's method."
            )
            if beaten_by
            else "No baseline does better than SL+ST here: the paper's claim of higher "
            "accuracy holds on this corpus."
        )
    )

    ratio_features = cost[REFERENCE]["features_per_document"] / max(
        cost["SL+ST"]["features_per_document"], 1
    )
    ratio_score = cost["SL+ST"]["score_vs_reference"]
    detector = summary.get("detector") or {}
    matching = (
        f" (the matching itself, `match_signatures`, {detector['matching_us_per_pair']:,.0f} µs)"
        if "matching_us_per_pair" in detector
        else ""
    )
    bullets.append(
        f"**Cost.** SL+ST stores {cost['SL+ST']['features_per_document']:,.0f} features per "
        f"document against {cost[REFERENCE]['features_per_document']:,.0f} for {REFERENCE} "
        f"({ratio_features:.0f}× fewer), and its features come with the sentence analysis. "
        f"Comparing one pair (`compare_documents`: suffix tree, verification, scoring, "
        f"passages, in Python) takes {cost['SL+ST']['score_us_per_pair']:,.0f} µs{matching} "
        "against "
        f"{cost[REFERENCE]['score_us_per_pair']:,.0f} µs for an exact shingle-set "
        f"intersection (×{_f(ratio_score, 1)}). So the paper's efficiency claim holds here for "
        "storage"
        + (", not for the time per pair" if ratio_score > 1 else " and for the time per pair")
        + ". In a folder check most pairs are never compared at all (the composite-bigram "
        "index of docs/batch.md), which this pairwise evaluation does not measure."
    )
    if "Doppel" in cost:
        doppel_cost = cost["Doppel"]
        alone = (
            f"; the reworded detector alone, with each document's profile built once "
            f"({_f(detector['prepare_ms_per_document'], 2)} ms per document), takes "
            f"{detector['score_us_per_pair']:,.0f} µs per pair"
            if detector
            else ""
        )
        bullets.append(
            f"**Cost of Doppel's default.** `compare_documents` with the reworded passages takes "
            f"{doppel_cost['score_us_per_pair']:,.0f} µs per pair against "
            f"{cost['SL+ST']['score_us_per_pair']:,.0f} µs for SL+ST alone "
            f"(×{_f(doppel_cost['score_us_per_pair'] / cost['SL+ST']['score_us_per_pair'], 1)})"
            f"{alone}."
        )
    return "## What the numbers say\n\n" + "\n".join("- " + bullet for bullet in bullets)


def _limits(summary: dict) -> str:
    positives = [summary["levels"][level]["positives"] for level in COPY_LEVELS]
    p4p_note = (
        ": P4P, rewritten by people, is the measure of that (see its table)."
        if summary.get("p4p")
        else "."
    )
    low = sum(1 for t in summary["thresholds"].values() if t < 0.02)
    return f"""
## Limits of this evaluation

- **Synthetic disguise.** Replacements are words of similar length and frequency, not
  synonyms, and insertions are frequent words: the edits set how many words change, not how
  a student would change them. Real paraphrase (synonyms, restructured clauses) leaves fewer
  shared words than *heavy* does here, so every method's heavy-level numbers are likely
  optimistic{p4p_note}
- **Negatives from other novels.** Own text and sources come from different novels; the hard
  negatives (other parts of the source novels) are closer, but essays written for one
  assignment share vocabulary, names, quotations and prompts more than two chapters of a novel
  do, which raises every method's chance matches; these precision figures are an upper bound
  for a classroom.
- **Designed beside this corpus.** The reworded detector was built, and its thresholds set
  (docs/engine.md), while this evaluation existed, so they may fit corpora of this kind; the
  tuning/test split keeps the baselines' thresholds honest, not the detector's design. P4P,
  made by other people for another purpose, is the check on that.
- **Literary English only**, nine novels, one seed. Each level has {min(positives)}–
  {max(positives)} positive test pairs, so a difference of one or two pairs in a recall is
  within noise; rerun with another `--seed` before reading much into small gaps.
- **One threshold per method**, tuned for F1 on the tuning part. {low} of the
  {len(summary["thresholds"])} thresholds are below 0.02 — close to "any shared feature" —
  because unrelated documents here share almost nothing; in a classroom they would have to be
  higher.
- **The baselines are reimplementations** from the papers' descriptions, with the parameters
  stated above; the parameter settings of the original experiments could not be checked
  offline.
"""


if __name__ == "__main__":
    main()

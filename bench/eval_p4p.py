"""Human rewriting: every method of the evaluation on P4P (issue 12, "Measured, not asserted").

The generated corpus (bench/eval_corpus.py) disguises copies mechanically; P4P holds 856
passages each rewritten by a person (Barrón-Cedeño, Vila, Martí, Rosso, "Plagiarism Meets
Paraphrasing: Insights for the Next Generation in Automatic Plagiarism Detection",
Computational Linguistics 39(4), 2013). It is research-use data: read from
`../shared/corpus/p4p/` (or `$DOPPEL_P4P`), never copied into the repository; without it this
part is skipped with a message. `python bench/eval_p4p.py` runs this part alone and prints it
(bench/evaluate.py runs it too).

Data
----
Line i of `p4p_reference.txt` is an original passage, line i of `p4p_source.txt` its rewrite.
The lines are tokenised (spaces around punctuation; quotes written as two backquotes and two
apostrophes); `detokenise` undoes that lightly, so the engine's sentence splitter reads
ordinary prose: both quote forms become " (also where one is glued to a word), an opening
quote or bracket is joined to the next word, closing punctuation (, . ; : ? ! ) ] and the
clitics 's n't 've 'm 'd 'll 're) to the word before it; nothing else changes.

Pairs
-----
Every rewrite (the suspicious document, A) is compared with every original (B). Positives: the
856 aligned pairs (rewrite i, original i). Negatives: rewrite i against original j ≠ i, except
the ordered pairs whose two originals overlap — originals i and j sharing a run of five words or
more (words: `\\w+` runs, case-folded), as the data's README counts them; a match there is
shared text, not a false alarm.

Screening
---------
856 × 855 pairs are too many to compare one by one, and nearly all of them share nothing. Each
method states what a pair must share for a score above 0 (`Method.screen`,
bench/eval_methods.py: shingling, SpotSigs, Wang and the phrase matcher a feature; SL+ST a
signature entry (ℓ, key); the reworded detector `RewordSettings.min_shared` distinct content
stems, its seeds' minimum; Doppel's default either); an inverted index over the originals
finds the pairs that do, and only those are compared; every other negative scores 0 and is not
flagged. The screen is exact (it skips only pairs that cannot score), and is checked in each
run: a random sample of the skipped pairs of every family is compared anyway, and must score 0.

Measures
--------
Per method: recall at zero false alarms (the share of the 856 positives scoring strictly above
every negative: a threshold set knowing every negative, the best case), ROC-AUC (ties count
1/2), and, for the methods with a verdict of their own (Doppel's default, SL+ST, the reworded
detector), the verdict's true and false positives — no threshold involved.
"""

from __future__ import annotations

import random
import re
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import eval_measures as measures
import eval_methods
from corpus import P4P_FILES, p4p_dir

from core.detection.reworded import DEFAULT_SETTINGS
from core.documents.document import document_from_text
from core.options import SignatureOptions

OPTIONS = SignatureOptions(language="en")
OVERLAP_WORDS = 5  # originals sharing a run of this many words overlap
SCREEN_CHECKS = 200  # skipped pairs compared anyway per family, to check the screen
MISSES_SHOWN = 4
MISS_WORDS = 45  # the misses shown have at most this many words on each side
SEED = 2026


#: tokens written against the word before them
_CLOSING = frozenset({",", ".", ";", ":", "?", "!", ")", "]", "...", "''"})
_CLITICS = frozenset({"'s", "n't", "'ve", "'m", "'d", "'ll", "'re"})
#: tokens written against the word after them
_OPENING = frozenset({"``", "(", "["})


def detokenise(line: str) -> str:
    """A tokenised P4P line as ordinary text (see the module's docs)."""
    out: list[str] = []
    glue = True  # no space before the next token
    for token in line.split():
        before = token in _CLOSING or token.lower() in _CLITICS
        if out and not before and not glue:
            out.append(" ")
        out.append(re.sub("``|''", '"', token))  # a quote glued to a word, too
        glue = token in _OPENING
    return "".join(out)


@dataclass(frozen=True)
class P4P:
    originals: list[str]  # detokenised, line i = case i + 1
    rewrites: list[str]
    tokenised_originals: list[str]  # as distributed (for the overlap test)


def load_p4p(folder: Path) -> P4P:
    reference, source = (
        (folder / name).read_text(encoding="utf-8").splitlines() for name in P4P_FILES
    )
    reference = [line for line in reference if line.strip()]
    source = [line for line in source if line.strip()]
    if len(reference) != len(source):
        raise ValueError(f"P4P: {len(reference)} originals but {len(source)} rewrites")
    return P4P([detokenise(x) for x in reference], [detokenise(x) for x in source], reference)


def overlapping_pairs(texts: Sequence[str], n: int = OVERLAP_WORDS) -> set[tuple[int, int]]:
    """Ordered pairs (i, j), i ≠ j, of texts sharing a run of n words (`\\w+`, case-folded)."""
    holders: dict[tuple[str, ...], set[int]] = defaultdict(set)
    grams = []
    for i, text in enumerate(texts):
        words = re.findall(r"\w+", text.casefold())
        mine = {tuple(words[k : k + n]) for k in range(len(words) - n + 1)}
        grams.append(mine)
        for gram in mine:
            holders[gram].add(i)
    return {(i, j) for i, mine in enumerate(grams) for g in mine for j in holders[g] if j != i}


def screened_pairs(
    screens_a: Sequence[eval_methods.Screen], screens_b: Sequence[eval_methods.Screen]
) -> set[tuple[int, int]]:
    """The pairs (i, j) sharing, in some alternative of the screen, at least its count of
    features: the only pairs that can score above 0."""
    found: set[tuple[int, int]] = set()
    for k in range(len(screens_b[0]) if screens_b else 0):
        index: dict[object, list[int]] = defaultdict(list)
        need = screens_b[0][k][1]
        for j, screen in enumerate(screens_b):
            for feature in screen[k][0]:
                index[feature].append(j)
        for i, screen in enumerate(screens_a):
            counts: dict[int, int] = defaultdict(int)
            for feature in screen[k][0]:
                for j in index.get(feature, ()):
                    counts[j] += 1
            found.update((i, j) for j, c in counts.items() if c >= need)
    return found


def run_p4p(
    folder: Path,
    methods: Sequence[eval_methods.Method] | None = None,
    progress: Callable[[str], None] = print,
) -> dict[str, object]:
    """Every method on P4P; the results, JSON-ready."""
    started_cpu, started = time.process_time(), time.perf_counter()
    data = load_p4p(folder)
    cases = len(data.originals)
    methods = list(methods) if methods is not None else eval_methods.all_methods()
    overlaps = overlapping_pairs(data.tokenised_originals)
    originals = [
        document_from_text(t, f"original-{i + 1:03d}", OPTIONS)
        for i, t in enumerate(data.originals)
    ]
    rewrites = [
        document_from_text(t, f"rewrite-{i + 1:03d}", OPTIONS) for i, t in enumerate(data.rewrites)
    ]
    negatives = cases * (cases - 1) - len(overlaps)
    families: dict[str, list[eval_methods.Method]] = {}
    for method in methods:
        families.setdefault(method.family, []).append(method)
    rng = random.Random(SEED)
    rows = []
    verdict_hits: dict[str, dict[str, list[int] | list[tuple[int, int]]]] = {}
    screen_notes = {}
    positive_outcomes: dict[str, list[float]] = {}
    for family, members in families.items():
        first = members[0]
        prepared_a = [first.prepare(d) for d in rewrites]
        prepared_b = [first.prepare(d) for d in originals]
        candidates = screened_pairs(
            [first.screen(p) for p in prepared_a], [first.screen(p) for p in prepared_b]
        )
        compared = sorted((i, j) for i, j in candidates if i != j and (i, j) not in overlaps)
        scores: dict[str, list[float]] = {m.name: [] for m in members}  # positives
        negative_scores: dict[str, list[float]] = {m.name: [] for m in members}
        verdicts: dict[str, list[bool | None]] = {m.name: [] for m in members}
        false_alarms: dict[str, list[tuple[int, int]]] = {m.name: [] for m in members}
        for i in range(cases):
            for method in members:
                scores[method.name].append(method.score(prepared_a[i], prepared_b[i]))
                verdicts[method.name].append(method.verdict(prepared_a[i], prepared_b[i]))
        for i, j in compared:
            for method in members:
                negative_scores[method.name].append(method.score(prepared_a[i], prepared_b[j]))
                if method.verdict(prepared_a[i], prepared_b[j]):
                    false_alarms[method.name].append((i, j))
        # the screen, checked: skipped pairs compared anyway must score 0
        skipped_checked = 0
        for _ in range(SCREEN_CHECKS):
            i, j = rng.randrange(cases), rng.randrange(cases)
            if i == j or (i, j) in candidates or (i, j) in overlaps:
                continue
            skipped_checked += 1
            for method in members:
                if method.score(prepared_a[i], prepared_b[j]) != 0.0 or method.verdict(
                    prepared_a[i], prepared_b[j]
                ):
                    raise AssertionError(
                        f"{method.name}: the screen skipped rewrite {i + 1} / original {j + 1}, "
                        "which scores above 0"
                    )
        eval_methods.clear_caches(members)
        screen_notes[family] = {"compared_negatives": len(compared), "checked": skipped_checked}
        for method in members:
            positive = scores[method.name]
            negative = negative_scores[method.name]
            zeros = negatives - len(negative)
            all_scores = positive + negative + [0.0] * zeros
            labels = [True] * cases + [False] * negatives
            row: dict[str, object] = {
                "method": method.name,
                "family": family,
                "recall_at_zero_fp": measures.recall_at_zero_fp(all_scores, labels),
                "roc_auc": measures.roc_auc(all_scores, labels),
                "compared_negatives": len(compared),
                "top_negative": max(negative, default=0.0),
            }
            found = verdicts[method.name]
            if found and found[0] is not None:
                tp = sum(1 for v in found if v)
                row |= {"tp": tp, "fn": cases - tp, "fp": len(false_alarms[method.name])}
                verdict_hits[method.name] = {
                    "missed": [i for i, v in enumerate(found) if not v],
                    "false_alarms": false_alarms[method.name],
                }
            rows.append(row)
            positive_outcomes[method.name] = positive
        progress(
            f"  P4P {family}: {len(compared):,} of {negatives:,} negative pairs compared "
            f"({', '.join(m.name for m in members)})"
        )
    summary: dict[str, object] = {
        "cases": cases,
        "min_shared": DEFAULT_SETTINGS.min_shared,
        "negatives": negatives,
        "overlapping_pairs": len(overlaps),
        "identical_pairs": sum(
            1 for a, b in zip(data.originals, data.rewrites, strict=True) if a == b
        ),
        "words_median": _median([len(t.split()) for t in data.rewrites + data.originals]),
        "rows": rows,
        "screen": screen_notes,
        "verdicts": {
            name: {"missed": len(hits["missed"]), "false_alarms": hits["false_alarms"]}
            for name, hits in verdict_hits.items()
        },
    }
    doppel = next((m.name for m in methods if m.family == "Doppel"), None)
    if doppel is not None and doppel in verdict_hits:
        missed = set(verdict_hits[doppel]["missed"])
        groups: dict[str, list[int]] = {"both one": [0, 0], "one": [0, 0], "more": [0, 0]}
        for i in range(cases):
            singles = (rewrites[i].sentence_count <= 1) + (originals[i].sentence_count <= 1)
            group = groups[("more", "one", "both one")[singles]]
            group[0] += i not in missed
            group[1] += 1
        summary["by_sentences"] = groups  # [flagged, cases] by how many sides are one sentence
        summary["misses"] = _misses(data, verdict_hits[doppel]["missed"])
        summary["false_alarm_texts"] = [
            {
                "rewrite_line": i + 1,
                "original_line": j + 1,
                "rewrite": data.rewrites[i],
                "original": data.originals[j],
            }
            for i, j in verdict_hits[doppel]["false_alarms"][:10]
        ]
    summary["cpu_s"] = time.process_time() - started_cpu
    summary["wall_s"] = time.perf_counter() - started
    return summary


def _misses(data: P4P, missed: list[int] | list[tuple[int, int]]) -> list[dict[str, object]]:
    """A few positives Doppel's verdict misses, short enough to quote: drawn at random (fixed
    seed) among the misses with at most MISS_WORDS words on each side, shown by line."""
    short = [
        i
        for i in missed
        if isinstance(i, int)
        and len(data.originals[i].split()) <= MISS_WORDS
        and len(data.rewrites[i].split()) <= MISS_WORDS
    ]
    chosen = sorted(random.Random(SEED).sample(short, min(MISSES_SHOWN, len(short))))
    return [
        {"line": i + 1, "original": data.originals[i], "rewrite": data.rewrites[i]} for i in chosen
    ]


def _median(values: Sequence[int]) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return float(ordered[middle])
    return (ordered[middle - 1] + ordered[middle]) / 2


def main() -> None:
    folder = p4p_dir()
    if folder is None:
        print("P4P not found (../shared/corpus/p4p or $DOPPEL_P4P): skipped")
        return
    summary = run_p4p(folder)
    print(
        f"{summary['cases']} cases, {summary['negatives']:,} negative pairs "
        f"({summary['overlapping_pairs']} overlapping pairs left out), "
        f"{summary['cpu_s']:.0f} s CPU"
    )
    for row in summary["rows"]:  # type: ignore[attr-defined]
        verdict = f"  verdict TP {row['tp']} FP {row['fp']}" if "tp" in row else ""
        print(
            f"{row['method']:<28} recall at 0 FA {row['recall_at_zero_fp']:.3f}  "
            f"ROC-AUC {row['roc_auc']:.3f}{verdict}"
        )


if __name__ == "__main__":
    main()

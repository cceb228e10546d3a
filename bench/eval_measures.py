"""The evaluation's measures (issue 7): pair-level detection and PAN's passage-level measures.

Pair level
----------
A pair is predicted positive when its score is ≥ the threshold. With tp, fp, fn the true
positives, false positives and false negatives:

    precision = tp / (tp + fp)        (0 when nothing is predicted positive)
    recall    = tp / (tp + fn)        (0 when there is no positive)
    F1        = 2·tp / (2·tp + fp + fn) = 2·P·R / (P + R)   (0 when tp = 0)

`tune_threshold` picks, among the distinct scores, the threshold with the highest F1 (ties:
the highest such threshold). `roc_auc` is the probability that a random positive scores above
a random negative, ties counting 1/2 (the Mann–Whitney U statistic over P·N):

    AUC = (1 / (P·N)) Σ_{p ∈ positives} Σ_{n ∈ negatives} ([s_p > s_n] + ½ [s_p = s_n])

and equals the area under `roc_curve` (tied scores make one diagonal step). `recall_at_zero_fp`
is the share of positives scoring strictly above every negative: the recall of the best
threshold that lets no false positive through (1 when there is no negative, 0 when there is
no positive).

Passage level (PAN)
-------------------
Potthast, Stein, Barrón-Cedeño, Rosso, "An Evaluation Framework for Plagiarism Detection",
COLING 2010. A case s (a true copied passage) and a detection r are each a set of characters:
a span in the suspicious document and a span in the source document of one pair, |x| counting
the characters in both documents. r *detects* s iff they belong to the same pair and r
overlaps s in the suspicious document and in the source document; s ⊓ r = s ∩ r if r detects
s, else ∅. With S the cases and R the detections:

    prec_PDA(S, R) = (1/|R|) Σ_{r ∈ R} |⋃_{s ∈ S} (s ⊓ r)| / |r|
    rec_PDA(S, R)  = (1/|S|) Σ_{s ∈ S} |⋃_{r ∈ R} (s ⊓ r)| / |s|
    gran_PDA(S, R) = (1/|S_R|) Σ_{s ∈ S_R} |R_s|
    plagdet(S, R)  = F1(prec, rec) / log2(1 + gran)

where S_R is the set of cases detected by at least one detection and R_s the detections that
detect s; F1 = 2·prec·rec / (prec + rec). Conventions for the undefined cases: no detection →
precision 0; no case → recall 0; no case detected → granularity 1; prec + rec = 0 → F1 = 0
(so plagdet 0). Every case and detection must cover at least one character.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Span = tuple[int, int]  # [start, end) characters

# ------------------------------------------------------------------------------ pair level


def _check(scores: Sequence[float], labels: Sequence[bool]) -> None:
    if len(scores) != len(labels):
        raise ValueError(f"{len(scores)} scores but {len(labels)} labels")


def confusion(
    scores: Sequence[float], labels: Sequence[bool], threshold: float
) -> tuple[int, int, int, int]:
    """(tp, fp, fn, tn), a pair predicted positive iff its score ≥ threshold."""
    _check(scores, labels)
    tp = fp = fn = tn = 0
    for score, label in zip(scores, labels, strict=True):
        if score >= threshold:
            if label:
                tp += 1
            else:
                fp += 1
        elif label:
            fn += 1
        else:
            tn += 1
    return tp, fp, fn, tn


def precision_recall_f1(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    """Precision, recall and F1; each 0 where undefined (no predicted positive, no positive,
    no true positive). F1 is computed as 2·tp / (2·tp + fp + fn), so equal F1s compare equal."""
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    return precision, recall, f1


def _descending_counts(
    scores: Sequence[float], labels: Sequence[bool]
) -> list[tuple[float, int, int]]:
    """For each distinct score, highest first: (score, positives ≥ it, negatives ≥ it)."""
    _check(scores, labels)
    order = sorted(zip(scores, labels, strict=True), key=lambda x: x[0], reverse=True)
    steps: list[tuple[float, int, int]] = []
    tp = fp = 0
    for k, (score, label) in enumerate(order):
        if label:
            tp += 1
        else:
            fp += 1
        if k + 1 == len(order) or order[k + 1][0] != score:
            steps.append((score, tp, fp))
    return steps


def tune_threshold(scores: Sequence[float], labels: Sequence[bool]) -> float:
    """The threshold, among the distinct scores, with the highest F1; ties: the highest such
    threshold. Raises ValueError when there is no score."""
    steps = _descending_counts(scores, labels)
    if not steps:
        raise ValueError("no scores to choose a threshold from")
    positives = sum(1 for label in labels if label)
    best_threshold, best_f1 = steps[0][0], -1.0
    for threshold, tp, fp in steps:
        f1 = precision_recall_f1(tp, fp, positives - tp)[2]
        if f1 > best_f1:  # strictly better: on a tie the earlier (higher) threshold stays
            best_threshold, best_f1 = threshold, f1
    return best_threshold


def _class_sizes(labels: Sequence[bool]) -> tuple[int, int]:
    positives = sum(1 for label in labels if label)
    negatives = len(labels) - positives
    if not positives or not negatives:
        raise ValueError("ROC needs at least one positive and one negative")
    return positives, negatives


def roc_curve(scores: Sequence[float], labels: Sequence[bool]) -> list[tuple[float, float]]:
    """(false positive rate, true positive rate) from (0, 0) to (1, 1), one point per
    distinct score (highest first): tied scores make one step. Raises ValueError without a
    positive or without a negative."""
    positives, negatives = _class_sizes(labels)
    points = [(0.0, 0.0)]
    points.extend(
        (fp / negatives, tp / positives) for _, tp, fp in _descending_counts(scores, labels)
    )
    return points


def roc_auc(scores: Sequence[float], labels: Sequence[bool]) -> float:
    """P(a random positive scores above a random negative), ties counting 1/2 (Mann–Whitney);
    the area under `roc_curve`. Raises ValueError without a positive or without a negative."""
    positives, negatives = _class_sizes(labels)
    twice_wins = 0  # 2 per positive above a negative, 1 per tie: exact in integers
    below_tp = below_fp = 0  # counts of the higher scores already passed
    for _, tp, fp in _descending_counts(scores, labels):
        new_tp, new_fp = tp - below_tp, fp - below_fp
        # positives at this score beat every negative strictly below it, tie those at it
        twice_wins += new_tp * (2 * (negatives - fp) + new_fp)
        below_tp, below_fp = tp, fp
    return twice_wins / (2 * positives * negatives)


def recall_at_zero_fp(scores: Sequence[float], labels: Sequence[bool]) -> float:
    """The share of positives scoring strictly above every negative (1 with no negative,
    0 with no positive)."""
    _check(scores, labels)
    positive_scores = [s for s, label in zip(scores, labels, strict=True) if label]
    if not positive_scores:
        return 0.0
    negative_scores = [s for s, label in zip(scores, labels, strict=True) if not label]
    top_negative = max(negative_scores, default=-math.inf)
    return sum(1 for s in positive_scores if s > top_negative) / len(positive_scores)


# ---------------------------------------------------------------------------- passage level


@dataclass(frozen=True)
class Case:
    """A true copied passage, or a detection: the same shape."""

    pair: tuple[str, str]  # (suspicious document name, source document name)
    suspicious: Span
    source: Span

    @property
    def size(self) -> int:
        """|x|: characters in both documents."""
        return _length(self.suspicious) + _length(self.source)


@dataclass(frozen=True)
class PanScores:
    precision: float
    recall: float
    granularity: float
    plagdet: float
    cases: int
    detections: int


def _length(span: Span) -> int:
    return max(span[1] - span[0], 0)


def _overlap(a: Span, b: Span) -> Span | None:
    start, end = max(a[0], b[0]), min(a[1], b[1])
    return (start, end) if start < end else None


def _union_length(spans: Iterable[Span]) -> int:
    total = 0
    reach = -math.inf
    for start, end in sorted(spans):
        if end <= reach:
            continue
        total += end - int(max(start, reach))
        reach = end
    return total


def _detects(r: Case, s: Case) -> tuple[Span, Span] | None:
    """s ∩ r in each document when r detects s (overlaps it in both), else None."""
    if r.pair != s.pair:
        return None
    in_suspicious = _overlap(r.suspicious, s.suspicious)
    if in_suspicious is None:
        return None
    in_source = _overlap(r.source, s.source)
    if in_source is None:
        return None
    return in_suspicious, in_source


def pan_measures(cases: Sequence[Case], detections: Sequence[Case]) -> PanScores:
    """PAN's precision, recall, granularity and plagdet (see the module docstring)."""
    for item in (*cases, *detections):
        if item.size <= 0:
            raise ValueError(f"a case or detection covers no character: {item}")
    detections_of_pair: dict[tuple[str, str], list[int]] = defaultdict(list)
    for k, r in enumerate(detections):
        detections_of_pair[r.pair].append(k)
    # the detected parts, per case and per detection: (suspicious pieces, source pieces)
    per_case: list[tuple[list[Span], list[Span], int]] = []  # + how many detections
    per_detection: list[tuple[list[Span], list[Span]]] = [([], []) for _ in detections]
    for s in cases:
        susp: list[Span] = []
        src: list[Span] = []
        count = 0
        for k in detections_of_pair.get(s.pair, ()):
            common = _detects(detections[k], s)
            if common is None:
                continue
            count += 1
            susp.append(common[0])
            src.append(common[1])
            per_detection[k][0].append(common[0])
            per_detection[k][1].append(common[1])
        per_case.append((susp, src, count))
    precision = (
        sum(
            (_union_length(susp) + _union_length(src)) / r.size
            for r, (susp, src) in zip(detections, per_detection, strict=True)
        )
        / len(detections)
        if detections
        else 0.0
    )
    recall = (
        sum(
            (_union_length(susp) + _union_length(src)) / s.size
            for s, (susp, src, _) in zip(cases, per_case, strict=True)
        )
        / len(cases)
        if cases
        else 0.0
    )
    detected_counts = [count for _, _, count in per_case if count]
    granularity = sum(detected_counts) / len(detected_counts) if detected_counts else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return PanScores(
        precision=precision,
        recall=recall,
        granularity=granularity,
        plagdet=f1 / math.log2(1 + granularity),
        cases=len(cases),
        detections=len(detections),
    )

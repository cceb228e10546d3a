"""The evaluation's measures (bench/eval_measures.py) against brute force and hand-worked cases."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.eval_measures import (
    Case,
    confusion,
    pan_measures,
    precision_recall_f1,
    recall_at_zero_fp,
    roc_auc,
    roc_curve,
    tune_threshold,
)

# a few score values, so ties are common; and labelled scores with both classes present
SCORES = st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.5, 0.75, 0.9, 1.0])
LABELLED = st.lists(st.tuples(SCORES, st.booleans()), min_size=1, max_size=30)
BOTH_CLASSES = LABELLED.filter(
    lambda xs: any(label for _, label in xs) and not all(label for _, label in xs)
)


def split(xs: list[tuple[float, bool]]) -> tuple[list[float], list[bool]]:
    return [s for s, _ in xs], [label for _, label in xs]


# ------------------------------------------------------------------------------ pair level


def test_confusion_and_precision_recall_f1_by_hand() -> None:
    scores = [0.9, 0.8, 0.8, 0.4, 0.2]
    labels = [True, False, True, True, False]
    assert confusion(scores, labels, 0.8) == (2, 1, 1, 1)  # ≥ threshold is positive
    assert precision_recall_f1(2, 1, 1) == (2 / 3, 2 / 3, 2 / 3)
    assert precision_recall_f1(0, 0, 3) == (0.0, 0.0, 0.0)  # nothing predicted: 0, not NaN
    assert precision_recall_f1(0, 2, 0) == (0.0, 0.0, 0.0)
    assert tune_threshold(scores, labels) == 0.4  # F1 6/7: tp 3, fp 1, fn 0


def test_tune_threshold_prefers_the_highest_of_tied_thresholds() -> None:
    # threshold 0.9: tp 1, fp 0, fn 1 → F1 2/3; 0.5: tp 2, fp 2 → F1 2/3; 0.1: tp 2, fp 3
    assert tune_threshold([0.9, 0.7, 0.6, 0.5, 0.1], [True, False, False, True, False]) == 0.9
    with pytest.raises(ValueError):
        tune_threshold([], [])


@settings(max_examples=300, deadline=None)
@given(LABELLED)
def test_tune_threshold_maximises_f1_over_the_distinct_scores(
    xs: list[tuple[float, bool]],
) -> None:
    scores, labels = split(xs)
    chosen = tune_threshold(scores, labels)
    assert chosen in scores

    def f1(threshold: float) -> float:
        tp, fp, fn, _ = confusion(scores, labels, threshold)
        return precision_recall_f1(tp, fp, fn)[2]

    best = max(f1(t) for t in set(scores))
    assert f1(chosen) == best
    assert chosen == max(t for t in set(scores) if f1(t) == best)


def brute_force_auc(scores: list[float], labels: list[bool]) -> float:
    positives = [s for s, label in zip(scores, labels, strict=True) if label]
    negatives = [s for s, label in zip(scores, labels, strict=True) if not label]
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in positives for n in negatives)
    return wins / (len(positives) * len(negatives))


@settings(max_examples=300, deadline=None)
@given(BOTH_CLASSES)
def test_roc_auc_is_the_mann_whitney_count(xs: list[tuple[float, bool]]) -> None:
    scores, labels = split(xs)
    assert roc_auc(scores, labels) == pytest.approx(brute_force_auc(scores, labels))


@settings(max_examples=300, deadline=None)
@given(BOTH_CLASSES)
def test_roc_curve_runs_from_origin_to_corner_and_encloses_the_auc(
    xs: list[tuple[float, bool]],
) -> None:
    scores, labels = split(xs)
    points = roc_curve(scores, labels)
    assert points[0] == (0.0, 0.0)
    assert points[-1] == (1.0, 1.0)
    assert len(points) == len(set(scores)) + 1  # ties make one step
    assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in itertools.pairwise(points))
    area = sum((b[0] - a[0]) * (a[1] + b[1]) / 2 for a, b in itertools.pairwise(points))
    assert area == pytest.approx(roc_auc(scores, labels))


def test_roc_needs_both_classes() -> None:
    with pytest.raises(ValueError):
        roc_auc([0.1, 0.2], [True, True])
    with pytest.raises(ValueError):
        roc_curve([0.1, 0.2], [False, False])
    assert roc_auc([0.1, 0.9], [False, True]) == 1.0
    assert roc_auc([0.5, 0.5], [False, True]) == 0.5


@settings(max_examples=300, deadline=None)
@given(LABELLED)
def test_recall_at_zero_fp_by_brute_force(xs: list[tuple[float, bool]]) -> None:
    scores, labels = split(xs)
    positives = [s for s, label in xs if label]
    negatives = [s for s, label in xs if not label]
    clear = [p for p in positives if all(p > n for n in negatives)]
    expected = len(clear) / len(positives) if positives else 0.0
    assert recall_at_zero_fp(scores, labels) == expected
    # it is also the best recall over the thresholds that let no negative through
    recalls = [
        precision_recall_f1(*confusion(scores, labels, t)[:3])[1]
        for t in set(scores)
        if confusion(scores, labels, t)[1] == 0
    ]
    assert recall_at_zero_fp(scores, labels) == pytest.approx(max(recalls, default=0.0))


# ---------------------------------------------------------------------------- passage level

PAIR = ("susp.txt", "src.txt")
OTHER = ("susp.txt", "other.txt")


def test_a_detection_equal_to_its_case_scores_one() -> None:
    case = Case(PAIR, (10, 40), (100, 130))
    scores = pan_measures([case], [case])
    assert (scores.precision, scores.recall, scores.granularity, scores.plagdet) == (1, 1, 1, 1)
    assert (scores.cases, scores.detections) == (1, 1)


def test_a_case_detected_by_two_halves_has_granularity_two() -> None:
    case = Case(PAIR, (10, 40), (100, 130))
    halves = [Case(PAIR, (10, 25), (100, 115)), Case(PAIR, (25, 40), (115, 130))]
    scores = pan_measures([case], halves)
    assert (scores.precision, scores.recall, scores.granularity) == (1, 1, 2)
    assert scores.plagdet == pytest.approx(1 / math.log2(3))


def test_pan_by_hand_half_found_and_a_false_detection() -> None:
    case = Case(PAIR, (0, 20), (0, 20))  # 40 characters
    found = Case(PAIR, (10, 30), (10, 30))  # overlaps the case's second half in both
    wrong_pair = Case(OTHER, (0, 20), (0, 20))  # same spans, other source: detects nothing
    only_one_side = Case(PAIR, (0, 20), (50, 70))  # overlaps in the suspicious doc only
    scores = pan_measures([case], [found, wrong_pair, only_one_side])
    assert scores.precision == pytest.approx((20 / 40 + 0 + 0) / 3)
    assert scores.recall == pytest.approx(20 / 40)
    assert scores.granularity == 1


def test_pan_conventions_without_cases_or_detections() -> None:
    case = Case(PAIR, (0, 10), (0, 10))
    none_found = pan_measures([case], [])
    assert (none_found.precision, none_found.recall, none_found.granularity) == (0, 0, 1)
    assert none_found.plagdet == 0
    no_case = pan_measures([], [case])
    assert (no_case.precision, no_case.recall, no_case.plagdet) == (0, 0, 0)
    with pytest.raises(ValueError):
        pan_measures([Case(PAIR, (5, 5), (7, 7))], [case])


def chars(x: Case) -> set[tuple[tuple[str, str], str, int]]:
    return {(x.pair, "suspicious", i) for i in range(*x.suspicious)} | {
        (x.pair, "source", i) for i in range(*x.source)
    }


def brute_force_pan(cases: list[Case], detections: list[Case]) -> tuple[float, float, float]:
    def detects(r: Case, s: Case) -> bool:
        return (
            r.pair == s.pair
            and bool(set(range(*r.suspicious)) & set(range(*s.suspicious)))
            and bool(set(range(*r.source)) & set(range(*s.source)))
        )

    def meet(s: Case, r: Case) -> set[tuple[tuple[str, str], str, int]]:
        return chars(s) & chars(r) if detects(r, s) else set()

    precision = (
        sum(len(set().union(*(meet(s, r) for s in cases))) / len(chars(r)) for r in detections)
        / len(detections)
        if detections
        else 0.0
    )
    recall = (
        sum(len(set().union(*(meet(s, r) for r in detections))) / len(chars(s)) for s in cases)
        / len(cases)
        if cases
        else 0.0
    )
    counts = [sum(1 for r in detections if detects(r, s)) for s in cases]
    detected = [c for c in counts if c]
    granularity = sum(detected) / len(detected) if detected else 1.0
    return precision, recall, granularity


SPAN = st.tuples(st.integers(0, 50), st.integers(0, 50)).map(sorted).map(tuple)
ITEM = st.builds(Case, st.sampled_from([PAIR, OTHER]), SPAN, SPAN).filter(
    lambda c: len(chars(c)) > 0
)


@settings(max_examples=300, deadline=None)
@given(st.lists(ITEM, max_size=5), st.lists(ITEM, max_size=6))
def test_pan_measures_match_a_brute_force_over_character_sets(
    cases: list[Case], detections: list[Case]
) -> None:
    scores = pan_measures(cases, detections)
    precision, recall, granularity = brute_force_pan(cases, detections)
    assert scores.precision == pytest.approx(precision)
    assert scores.recall == pytest.approx(recall)
    assert scores.granularity == pytest.approx(granularity)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    assert scores.plagdet == pytest.approx(f1 / math.log2(1 + granularity))

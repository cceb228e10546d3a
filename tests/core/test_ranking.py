"""Ranking pairs (one rule for the folder check and the window's pair list): Jaccard, then the
larger coverage, then the documents' order; equal scores always list the same way."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from core.batch.ranking import rank_key
from core.batch.result import PairResult
from core.batch.run import BatchOptions, run_batch
from core.comparison import compare_documents
from core.documents.document import document_from_text
from core.options import SignatureOptions

EN = SignatureOptions(language="en")


def pair(a: int, b: int, jaccard: float, coverage_a: float, coverage_b: float) -> PairResult:
    return PairResult(a, b, jaccard, coverage_a, coverage_b, 1, 2, ())


def ranked(pairs: list[PairResult]) -> list[PairResult]:
    """As the folder check sorts its pairs."""
    return sorted(pairs, key=lambda p: rank_key(p, p.a, p.b))


def test_jaccard_then_the_larger_coverage_then_the_documents_order() -> None:
    pairs = [
        pair(0, 3, 0.2, 0.3, 0.1),
        pair(1, 2, 0.2, 0.1, 0.3),  # the same scores, mirrored: the documents' order decides
        pair(0, 2, 0.2, 0.2, 0.25),  # same Jaccard, a smaller larger coverage: after both
        pair(4, 5, 0.5, 0.5, 0.5),
        pair(0, 1, 0.2, 0.3, 0.1),  # ties with (0, 3): the second document decides
    ]
    order = ranked(pairs)
    assert [(p.a, p.b) for p in order] == [(4, 5), (0, 1), (0, 3), (1, 2), (0, 2)]


scores = st.floats(0, 1, allow_nan=False)


@given(st.lists(st.tuples(scores, scores, scores), min_size=1, max_size=12), st.randoms())
def test_the_order_does_not_depend_on_the_order_given(found, rng: random.Random) -> None:
    pairs = [pair(k, k + 1, *s) for k, s in enumerate(found)]
    shuffled = pairs[:]
    rng.shuffle(shuffled)
    assert ranked(shuffled) == ranked(pairs)
    keys = [rank_key(p, p.a, p.b) for p in ranked(pairs)]
    assert keys == sorted(keys)


ESSAY = (
    "The river floods every spring and the farmers plan for it. They move the animals to the "
    "hills in March. The water brings new soil to the fields each year. Without the flood the "
    "valley would be dry and poor. Old records show floods as far back as the twelfth century. "
    "The town keeps a stone that marks the highest water ever seen."
)


def test_three_copies_tie_and_list_in_the_documents_order(tmp_path: Path) -> None:
    """Equal scores in a real check: the folder check and the window's ranking of the same
    comparisons give the same order, by the documents' order."""
    for name in ("c.txt", "a.txt", "b.txt"):
        (tmp_path / name).write_text(ESSAY, encoding="utf-8")
    result = run_batch([tmp_path], options=BatchOptions(signature=EN, workers=1))
    assert [d.path.name for d in result.documents] == ["a.txt", "b.txt", "c.txt"]
    assert [(p.a, p.b) for p in result.pairs] == [(0, 1), (0, 2), (1, 2)]
    assert len({(p.jaccard, p.coverage_a, p.coverage_b) for p in result.pairs}) == 1
    docs = [document_from_text(ESSAY, name, EN) for name in ("a.txt", "b.txt", "c.txt")]
    comparisons = [(compare_documents(docs[i], docs[j]), i, j) for i, j in [(1, 2), (0, 2), (0, 1)]]
    # as the window sorts them (app/gui/session.py)
    window = sorted(comparisons, key=lambda c: rank_key(*c))
    assert [(i, j) for _, i, j in window] == [(0, 1), (0, 2), (1, 2)]

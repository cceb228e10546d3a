"""Ranking pairs (one rule for the folder check and the window's pair list): copied text found
first, then the larger copied share, then Jaccard, then the larger coverage, then the
documents' order; equal scores always list the same way."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from core.batch.ranking import rank_key
from core.batch.result import PairResult
from core.batch.run import BatchOptions, run_batch
from core.comparison import compare_documents
from core.detection.reworded import RewordedPassage
from core.detection.verification import VerifiedBlock
from core.documents.document import document_from_text
from core.options import SignatureOptions

EN = SignatureOptions(language="en")
PIECE = (VerifiedBlock(0, 0, 2),)
EDITED = (RewordedPassage((0, 3), (0, 3), (), 9, 0.6),)


def pair(
    a: int,
    b: int,
    jaccard: float,
    coverage_a: float,
    coverage_b: float,
    copied: tuple[float, float] | None = None,
    *,
    flagged: bool = True,
) -> PairResult:
    """A flagged pair (a verified block) whose copied shares are its coverages unless given."""
    copied_a, copied_b = copied if copied is not None else (coverage_a, coverage_b)
    return PairResult(
        a,
        b,
        jaccard,
        coverage_a,
        coverage_b,
        1 if flagged else 0,
        2 if flagged else 0,
        PIECE if flagged else (),
        copied_a=copied_a,
        copied_b=copied_b,
    )


def ranked(pairs: list[PairResult]) -> list[PairResult]:
    """As the folder check sorts its pairs."""
    return sorted(pairs, key=lambda p: rank_key(p, p.a, p.b))


def test_equal_shares_rank_by_jaccard_then_the_larger_coverage_then_the_documents_order() -> None:
    same = (0.4, 0.6)  # every pair's copied shares (mirrored for one: the larger counts)
    pairs = [
        pair(0, 3, 0.2, 0.3, 0.1, same),
        pair(1, 2, 0.2, 0.1, 0.3, same[::-1]),  # the same scores, mirrored: the documents' order
        pair(0, 2, 0.2, 0.2, 0.25, same),  # same Jaccard, a smaller larger coverage: after both
        pair(4, 5, 0.5, 0.5, 0.5, same),
        pair(0, 1, 0.2, 0.3, 0.1, same),  # ties with (0, 3): the second document decides
    ]
    order = ranked(pairs)
    assert [(p.a, p.b) for p in order] == [(4, 5), (0, 1), (0, 3), (1, 2), (0, 2)]


def test_flagged_first_then_the_larger_copied_share_then_jaccard() -> None:
    edited_only = PairResult(6, 7, 0.0, 0.0, 0.0, 0, 0, (), copied_a=0.6, copied_b=0.2,
                             reworded=EDITED)  # fmt: skip
    pairs = [
        pair(0, 1, 0.9, 0.9, 0.9, (0.3, 0.2)),  # the highest Jaccard, a small copied share
        pair(2, 3, 0.1, 0.1, 0.1, (0.2, 0.7)),  # the largest copied share, on B's side
        pair(4, 5, 0.5, 0.5, 0.5, (0.6, 0.6)),  # ties with the reworded pair: Jaccard decides
        edited_only,  # found by the reworded detector alone: Jaccard 0
        pair(8, 9, 1.0, 1.0, 1.0, (0.0, 0.0), flagged=False),  # no verdict: always last
    ]
    assert edited_only.flagged and edited_only.longest_block == 0
    order = ranked(pairs)
    assert [(p.a, p.b) for p in order] == [(2, 3), (4, 5), (6, 7), (0, 1), (8, 9)]


scores = st.floats(0, 1, allow_nan=False)


@given(
    st.lists(st.tuples(scores, scores, scores, scores, scores, st.booleans()), max_size=12),
    st.randoms(),
)
def test_the_order_does_not_depend_on_the_order_given(found, rng: random.Random) -> None:
    pairs = [
        pair(k, k + 1, j, ca, cb, (xa, xb), flagged=flag)
        for k, (j, ca, cb, xa, xb, flag) in enumerate(found)
    ]
    shuffled = pairs[:]
    rng.shuffle(shuffled)
    assert ranked(shuffled) == ranked(pairs)
    keys = [rank_key(p, p.a, p.b) for p in ranked(pairs)]
    assert keys == sorted(keys)
    order = ranked(pairs)
    # every flagged pair before every other, and the copied share never rising among them
    flags = [p.flagged for p in order]
    assert flags == sorted(flags, reverse=True)
    for first, second in itertools.pairwise(order):
        if first.flagged == second.flagged:
            assert first.copied >= second.copied


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

"""The suffix tree's maximal pairs equal the O(m·n) diagonal scan on every input (spec §2)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.detection.diagonal import diagonal_maximal_pairs
from core.detection.suffix_tree import GeneralizedSuffixTree, RawBlock, maximal_pairs


def both(a: list[int], b: list[int], min_length: int = 2) -> list[RawBlock]:
    tree = sorted(maximal_pairs(a, b, min_length))
    oracle = sorted(diagonal_maximal_pairs(a, b, min_length))
    assert tree == oracle
    return tree


symbols = st.lists(st.integers(min_value=0, max_value=4), max_size=40)


@given(symbols, symbols, st.integers(min_value=1, max_value=4))
@settings(max_examples=400)
def test_random_small_alphabet(a: list[int], b: list[int], min_length: int) -> None:
    both(a, b, min_length)


@given(
    st.lists(st.integers(min_value=0, max_value=35), max_size=120),
    st.lists(st.integers(min_value=0, max_value=35), max_size=120),
)
def test_random_paper_alphabet(a: list[int], b: list[int]) -> None:
    both(a, b)


@given(
    st.lists(st.integers(min_value=0, max_value=2), min_size=1, max_size=6),
    st.integers(min_value=1, max_value=12),
    st.integers(min_value=1, max_value=12),
    st.integers(min_value=0, max_value=5),
)
def test_periodic(period: list[int], reps_a: int, reps_b: int, shift: int) -> None:
    a = period * reps_a
    b = (period * (reps_b + 1))[shift % len(period) :]
    both(a, b)


@given(
    st.lists(st.integers(min_value=0, max_value=35), min_size=0, max_size=30),
    st.lists(st.integers(min_value=0, max_value=35), min_size=5, max_size=60),
    st.lists(st.integers(min_value=0, max_value=35), min_size=0, max_size=30),
)
def test_long_identical_run_inside_noise(prefix: list[int], shared: list[int], suffix: list[int]):
    a = prefix + shared + suffix
    b = suffix + shared + prefix
    blocks = both(a, b)
    assert RawBlock(len(prefix), len(suffix), len(shared)) in blocks or any(
        block.length > len(shared) for block in blocks
    )


def test_all_one_symbol() -> None:
    # every pair of diagonals touching a border is one maximal block: m + n - 1 of them
    blocks = both([7] * 50, [7] * 30)
    assert len(blocks) == 50 + 30 - 1 - 2  # the two corner diagonals have length 1


def test_identical_strings_give_the_whole_string() -> None:
    a = [1, 2, 3, 4, 5, 6, 7, 8]
    assert RawBlock(0, 0, 8) in both(a, list(a))


def test_empty_and_tiny_inputs() -> None:
    assert both([], []) == []
    assert both([1], [1]) == []
    assert both([], [1, 2]) == []
    assert both([1, 2], [1, 2]) == [RawBlock(0, 0, 2)]


def test_large_symbols_for_the_uncapped_alphabet() -> None:
    a = [40, 41, 99, 1000, 40, 41]
    b = [99, 1000, 40, 41, 7]
    both(a, b)


def test_tree_has_linear_size() -> None:
    a = [i % 36 for i in range(3000)]
    tree = GeneralizedSuffixTree(a, a[::-1])
    assert tree.node_count <= 2 * (2 * len(a) + 2) + 1

"""The hash table of keys against a binary search of the sorted keys (np.searchsorted): where
each value is, for any keys and values (many colliding in their first slots), and `among`
over and under the size where it takes the table (and on values in order, by their runs);
`more_than` against counting every value."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from core.archive import postings as store
from core.archive.key_table import KeyTable, more_than

INT64 = st.integers(-(2**63), 2**63 - 1)
# keys near each other and at the ends of the range, so first slots collide and wrap around
KEYS = st.one_of(INT64, st.integers(-40, 40), st.sampled_from([-(2**63), 2**63 - 1, 0, -1]))


def places(keys: np.ndarray, values: np.ndarray) -> list[int]:
    if not len(keys):
        return [-1] * len(values)
    at = np.minimum(np.searchsorted(keys, values), len(keys) - 1)
    return np.where(keys[at] == values, at, -1).tolist()


@given(st.lists(KEYS, max_size=300), st.lists(KEYS, max_size=300), st.data())
@settings(max_examples=300, deadline=None)
def test_each_value_is_found_where_the_sorted_keys_hold_it(keys, others, data) -> None:
    distinct = np.unique(np.array(keys, dtype=np.int64))
    # values: some keys, some not, repeats included
    values = np.array(
        others + data.draw(st.lists(st.sampled_from(keys), max_size=300)) if keys else others,
        dtype=np.int64,
    )
    table = KeyTable(distinct)
    assert table.find(values).tolist() == places(distinct, values)
    assert table.holds(values).tolist() == np.isin(values, distinct).tolist()


@given(arrays(np.int64, st.integers(0, 5000), elements=KEYS), st.integers(0, 2000))
@settings(max_examples=30, deadline=None)
def test_among_is_isin_with_a_table_or_without(values, cut) -> None:
    wanted = np.unique(values[:cut])
    many = np.tile(values, store.MANY_VALUES // max(len(values), 1) + 1) if len(values) else values
    for asked in (values, many):
        assert store.among(asked, wanted).tolist() == np.isin(asked, wanted).tolist()
        ordered = np.sort(asked)
        assert store.among_sorted(ordered, wanted).tolist() == np.isin(ordered, wanted).tolist()


def test_keys_that_all_share_their_first_slot_are_each_found() -> None:
    """Keys whose first slots all collide (each the inverse of the spreading constant times a
    small number, so the product's top bits are zero): found by probing on, and a value not
    there stops at the free slot after them."""
    inverse = pow(0x9E3779B97F4A7C15, -1, 2**64)
    unsigned = [(j * inverse) % 2**64 for j in range(1, 1001)]
    keys = np.unique(np.array(unsigned, dtype=np.uint64).view(np.int64))
    table = KeyTable(keys)
    assert len(set(table._first_slots(keys).tolist())) == 1
    values = np.concatenate((keys, keys + 1, keys[::-1]))
    assert table.find(values).tolist() == places(keys, values)


@given(st.lists(KEYS, max_size=400), st.lists(KEYS, max_size=20), st.integers(0, 40), st.data())
@settings(max_examples=300, deadline=None)
def test_the_values_more_than_a_line_are_those_counted_past_it(values, crowd, line, data) -> None:
    # (some values repeated past the line, the rest around it, in any order)
    many = values + [v for v in crowd for _ in range(line + data.draw(st.integers(0, 2)))]
    shuffled = data.draw(st.permutations(many))
    counted = Counter(shuffled)
    found = more_than(np.array(shuffled, dtype=np.int64), line)
    assert found.dtype == np.int64
    assert found.tolist() == sorted(v for v, n in counted.items() if n > line)

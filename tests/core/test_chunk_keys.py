"""The word keys of a chunk on arrays are the keys `unit_keys` gives one sentence at a time."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core.archive.chunk_keys import chunk_keys, masks_after, unit_arrays
from core.archive.keys import StemOrder, mask_after, unit_keys, word_units
from core.archive.unit_stems import UnitStems

HASHES = st.integers(-(2**63), 2**63 - 1)


@st.composite
def sentences(draw: st.DrawFn) -> list[frozenset[int]]:
    """Sentences of 5 to 16 distinct stems from a small pool (so they share stems and keys)."""
    pool = draw(st.lists(HASHES, min_size=5, max_size=24, unique=True))
    return draw(
        st.lists(
            st.frozensets(st.sampled_from(pool), min_size=5, max_size=16).filter(
                lambda s: len(s) >= 5
            ),
            max_size=12,
        )
    )


@given(
    sentences(),
    st.data(),
    st.integers(0, 2**16),
    st.integers(1, 5),
    st.integers(0, 6),
)
@settings(max_examples=400, deadline=None)
def test_chunk_keys_are_unit_keys(
    units: list[frozenset[int]], data: st.DataObject, salt: int, every: int, fill: int
) -> None:
    """Whatever the order, the open keys, and the keys the chunk fills itself."""
    stems = sorted({h for u in units for h in u})
    counts = data.draw(st.dictionaries(st.sampled_from(stems), st.integers(0, 9))) if stems else {}
    order = StemOrder(counts, 100)

    def opens(key: int, reached: int, length: int) -> bool:
        return (key ^ salt) % every == 0 or (fill > 0 and reached > fill * length)

    def open_one_at_a_time(keys: Counter[int], length: int) -> set[int]:
        return {k for k, n in keys.items() if opens(k, n, length)}

    def open_on_arrays(keys: np.ndarray, length: int) -> np.ndarray:
        distinct, inverse, reached = np.unique(keys, return_inverse=True, return_counts=True)
        return np.array(
            [opens(k, n, length) for k, n in zip(distinct.tolist(), reached.tolist(), strict=True)],
            dtype=np.bool_,
        )[inverse]

    one_at_a_time = unit_keys(word_units(enumerate(units), order), open_one_at_a_time)
    expected = sorted(
        (u, key.key, key.position, key.length)
        for u, keys in enumerate(one_at_a_time)
        for key in keys
    )
    arrays = unit_arrays(UnitStems.of_sets(list(enumerate(units))), order)
    filed = chunk_keys(arrays, open_on_arrays)
    got = sorted(
        zip(
            filed.unit.tolist(),
            filed.key.tolist(),
            filed.position.tolist(),
            filed.length.tolist(),
            strict=True,
        )
    )
    assert got == expected
    # and the sentences in the order, as word_units has them
    for u, unit in enumerate(word_units(enumerate(units), order)):
        start, end = arrays.starts[u], arrays.starts[u + 1]
        assert tuple(arrays.stems[start:end].tolist()) == unit.stems
        assert arrays.needs[u] == unit.need


@given(sentences(), st.data())
@settings(max_examples=200, deadline=None)
def test_units_packed_in_any_order_get_the_same_order(
    units: list[frozenset[int]], data: st.DataObject
) -> None:
    """Units come packed sorted by hash (one sort does), but a row in another order (an
    index written otherwise) is put in the same order all the same."""
    stems = sorted({h for u in units for h in u})
    counts = data.draw(st.dictionaries(st.sampled_from(stems), st.integers(0, 9))) if stems else {}
    order = StemOrder(counts, 100)
    packed = UnitStems.of_sets(list(enumerate(units)))
    shuffled = [data.draw(st.permutations(sorted(u))) for u in units]
    mixed = np.array([s for u in shuffled for s in u], dtype=np.int64)
    sorted_arrays = unit_arrays(packed, order)
    any_arrays = unit_arrays(UnitStems(packed.numbers, packed.starts, mixed), order)
    assert sorted_arrays.stems.tolist() == any_arrays.stems.tolist()
    assert sorted_arrays.starts.tolist() == any_arrays.starts.tolist()
    expected = [s for unit in word_units(enumerate(units), order) for s in unit.stems]
    assert sorted_arrays.stems.tolist() == expected


@given(
    st.lists(st.lists(HASHES, min_size=1, max_size=70), max_size=8),
    st.dictionaries(HASHES, st.integers(0, 9)),
)
@settings(max_examples=300, deadline=None)
def test_each_stems_mask_is_of_the_stems_after_it_in_its_sentence(
    units: list[list[int]], counts: dict[int, int]
) -> None:
    """`masks_after` on arrays (a scan that doubles its reach each step) against `mask_after`
    of each sentence at each place; sentences of one stem to past 64 (several steps)."""
    sets = [frozenset(u) for u in units]
    arrays = unit_arrays(UnitStems.of_sets(list(enumerate(sets))), StemOrder(counts, 100))
    got = masks_after(arrays).tolist()
    wanted = [
        mask_after(arrays.stems[a:b].tolist(), place)
        for a, b in zip(arrays.starts[:-1].tolist(), arrays.starts[1:].tolist(), strict=True)
        for place in range(b - a)
    ]
    assert got == wanted

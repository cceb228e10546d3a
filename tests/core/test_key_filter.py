"""The segments' key filters (core.archive.key_filter): never a key held said not to be, few
keys not held said to be, and what is written read back the same."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from core.archive.key_filter import BITS_PER_KEY, KeyFilter, Probe

KEYS = st.lists(st.integers(-(2**63), 2**63 - 1), max_size=300)


@given(KEYS, KEYS)
def test_every_key_held_may_be_held_and_nothing_is_lost_in_bytes(
    held: list[int], others: list[int]
) -> None:
    keys = np.array(held, dtype=np.int64)
    made = KeyFilter.of(keys)
    assert len(made.words) == max(1, -(-len(held) * BITS_PER_KEY // 64))
    assert made.may_hold(Probe.of(keys)).all()
    again = KeyFilter.from_bytes(made.to_bytes())
    asked = np.array(held + others, dtype=np.int64)
    assert (again.may_hold(Probe.of(asked)) == made.may_hold(Probe.of(asked))).all()


def test_few_keys_not_held_are_said_to_be() -> None:
    """About 2% at 10 bits a key: random keys, and keys in a row (what a poor hash gives)."""
    rng = np.random.default_rng(15)
    for held, asked in (
        (rng.integers(-(2**63), 2**63 - 1, 200_000, dtype=np.int64), None),
        (np.arange(200_000, dtype=np.int64), np.arange(200_000, 1_200_000, dtype=np.int64)),
    ):
        if asked is None:
            asked = rng.integers(-(2**63), 2**63 - 1, 1_000_000, dtype=np.int64)
            asked = asked[~np.isin(asked, held)]
        said = KeyFilter.of(held).may_hold(Probe.of(asked)).mean()
        assert 0.005 < said < 0.03


def test_a_filter_of_no_whole_word_is_refused() -> None:
    for data in (b"", b"1234567"):
        try:
            KeyFilter.from_bytes(data)
        except ValueError:
            continue
        raise AssertionError(f"{data!r} was read as a filter")

"""A check's probes against postings on arrays (`core.archive.probes.kept`), held equal to the
filters applied one posting at a time; and the stem mask never drops a strong seed."""

from __future__ import annotations

from unittest import mock

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core.archive.keys import (
    MASK_BITS,
    StemOrder,
    could_share,
    mask_after,
    needed,
    unit_keys,
    word_units,
)
from core.archive.postings import DTYPES, KeyKind
from core.archive.probes import kept
from core.detection.reworded import strong_threshold

#: stems drawn as hashes: small numbers and large ones of either sign (bits set by mod 64)
STEMS = st.one_of(st.integers(0, 40), st.integers(-(2**63), 2**63 - 1))
SENTENCES = st.lists(st.frozensets(STEMS, min_size=5, max_size=14), min_size=1, max_size=4)


def mask_count(stems: tuple[int, ...], mask: int) -> int:
    return sum((mask >> (h & (MASK_BITS - 1))) & 1 for h in stems)


@given(
    SENTENCES,
    st.lists(
        st.tuples(
            st.integers(0, 200),  # which probe's key (past the probes: a key none has)
            st.integers(0, 40),  # size
            st.integers(0, 40),  # position
            st.integers(0, 2**MASK_BITS - 1),  # mask
            st.integers(0, 3),  # content
        ),
        max_size=60,
    ),
    st.booleans(),
    st.sampled_from([1, 3, 8_192]),
)
@settings(max_examples=300, deadline=None)
def test_kept_is_the_filters_one_posting_at_a_time(new, rows, opened, at_once):
    order = StemOrder({}, 1)
    units = word_units(enumerate(new), order)
    if not units:
        return
    filed = unit_keys(units, lambda keys, _: set(keys) if opened else set())
    probes = [(s, key) for s, keys in enumerate(filed) for key in keys]
    postings = np.zeros(len(rows), dtype=DTYPES[KeyKind.WORD])
    for n, (which, size, position, mask, content) in enumerate(rows):
        key = probes[which][1].key if which < len(probes) else 12345
        postings[n] = (key, content, n, position, size, 1, mask)
    with mock.patch("core.archive.probes._AT_ONCE", at_once):  # (masks counted in parts)
        met = kept(units, probes, postings)
    got = sorted(
        zip(met.probe.tolist(), met.postings["unit"].tolist(), met.both.tolist(), strict=True)
    )
    wanted = []
    for p, (s, key) in enumerate(probes):
        u = units[s]
        for n, (_, size, position, mask, _) in enumerate(rows):
            if postings[n]["key"] != key.key:
                continue
            both = max(u.need, needed(size))
            after = mask_count(u.stems[key.position + 1 :], mask)
            if could_share(u, key, size, position) and key.length + after >= both:
                wanted.append((p, n, both))
    assert got == sorted(wanted)


@given(SENTENCES, SENTENCES, st.dictionaries(STEMS, st.integers(0, 60)), st.booleans())
@settings(max_examples=300, deadline=None)
def test_the_mask_keeps_every_strong_seed(new, old, counts, opened):
    """Every pair of sentences sharing a strong seed's stems: a probe of the new one keeps a
    posting of the old one, masks and all (the oracle: every pair), under keys of one stem or,
    with every key open, of up to the longest (where the stems before a key's last count as
    its length)."""
    order = StemOrder(counts, 1000)
    open_among = (lambda keys, _: set(keys)) if opened else (lambda keys, _: set())
    archived = word_units(enumerate(old), order)
    rows = []
    for v, keys in zip(archived, unit_keys(archived, open_among), strict=True):
        rows += [
            (k.key, 0, v.unit, k.position, v.size, k.length, mask_after(v.stems, k.position))
            for k in keys
        ]
    postings = np.array(rows, dtype=DTYPES[KeyKind.WORD])
    checked = word_units(enumerate(new), order)
    probes = [(s, key) for s, keys in enumerate(unit_keys(checked, open_among)) for key in keys]
    if not probes or not len(postings):
        return
    met = kept(checked, probes, postings)
    pairs = {
        (probes[p][0], unit)
        for p, unit in zip(met.probe.tolist(), met.postings["unit"].tolist(), strict=True)
    }
    for s, u in enumerate(checked):
        for unit, stems in enumerate(old):
            if len(stems) < 5:
                continue
            if len(set(u.stems) & stems) >= max(u.need, strong_threshold(len(stems))):
                assert (s, unit) in pairs

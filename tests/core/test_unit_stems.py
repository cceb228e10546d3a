"""A document's sentences as the units table keeps them, against sets of stem hashes worked out
one stem and one sentence at a time (the oracles): stems hashed on arrays, a chunk's units
made from its documents' stems, written as rows and read back (many rows at once), picked,
and a row that is not one refused."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.archive.keys import sentence_keys
from core.archive.prepared import hand_on, prepare_all
from core.archive.stem_hashing import PRIME, SEPARATOR, hash_stems, joined, stem_sets
from core.archive.unit_stems import (
    DamagedUnits,
    UnitRows,
    UnitStems,
    distinct_in_sentences,
    units_rows,
)
from core.batch.result import BatchDocument
from core.detection.reworded import DEFAULT_SETTINGS, WordProfile
from core.documents.signature import Signature

WORDS = st.sampled_from(["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota"])
PROFILES = st.lists(st.lists(WORDS, max_size=12).map(tuple), max_size=10)
ROWS = st.lists(
    st.lists(st.frozensets(st.integers(-(2**63), 2**63 - 1), max_size=7), max_size=5),
    max_size=6,
)
#: stems as a stemmer could make them, and some no stemmer would (empty, long, any script, a
#: lone surrogate)
STEMS = st.text(
    st.characters(blacklist_characters=SEPARATOR) | st.characters(categories=["Cs"]), max_size=40
)


def stem_hash(stem: str) -> int:
    """The oracle: a stem's hash a byte at a time in Python's own integers (the polynomial
    of its UTF-8 bytes plus one, modulo 2^64, then MurmurHash3's fmix64), signed."""
    whole = 1 << 64
    value = 0
    for byte in stem.encode("utf-8", "surrogatepass"):
        value = (value * PRIME + byte + 1) % whole
    for multiplier in (0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53):
        value = ((value ^ (value >> 33)) * multiplier) % whole
    value ^= value >> 33
    return value - whole if value >= 1 << 63 else value


def as_sets(units: UnitStems) -> list[tuple[int, frozenset[int]]]:
    return [(n, units.stems_of(k)) for k, n in enumerate(units.numbers.tolist())]


def numbered(sets: list[frozenset[int]]) -> list[tuple[int, frozenset[int]]]:
    return [(2 * n + 1, s) for n, s in enumerate(sets)]  # (numbers rising, with gaps)


def could_hold(stems: list[tuple[str, ...]]) -> list[tuple[int, frozenset[int]]]:
    """The oracle of a document's units: each sentence with at least `strong_shared` distinct
    stems, as the set of their hashes, one at a time."""
    return [
        (n, frozenset(map(stem_hash, sentence)))
        for n, sentence in enumerate(stems)
        if len(set(sentence)) >= DEFAULT_SETTINGS.strong_shared
    ]


@given(st.lists(st.lists(STEMS, max_size=8), max_size=6))
@settings(max_examples=300, deadline=None)
def test_stems_hashed_on_arrays_are_each_hashed_alone(texts: list[list[str]]) -> None:
    """Every stem of every text, in order, whatever its length or script (an empty stem
    too)."""
    holding = [stems for stems in texts if stems]
    expected = [stem_hash(s) for stems in holding for s in stems]
    assert hash_stems([SEPARATOR.join(stems) for stems in holding]).tolist() == expected


def test_a_stems_hash_spreads_over_all_64_bits() -> None:
    hashes = hash_stems([SEPARATOR.join(f"w{k}" for k in range(4096))])
    assert len(set(hashes.tolist())) == 4096
    bits = (hashes.view(np.uint64)[:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
    share = bits.mean(axis=0)
    assert ((share > 0.4) & (share < 0.6)).all()  # (each bit set in about half)


@given(st.lists(PROFILES, max_size=5))
@settings(max_examples=200, deadline=None)
def test_documents_made_together_get_the_sentences_that_could_hold_a_strong_seed(
    documents: list[list[tuple[str, ...]]],
) -> None:
    profiles = [WordProfile("en", tuple(range(len(d))), tuple(d)) for d in documents]
    rows = units_rows([joined(p) for p in profiles])
    expected = [could_hold(d) for d in documents]
    # each row is the one its sets make, packed by UnitStems (numpy) byte for byte
    assert rows == [UnitStems.of_sets(e).to_bytes() for e in expected]
    read = UnitRows.of(rows)
    assert read.counts.tolist() == list(map(len, expected))
    units = read.units()
    assert as_sets(units) == [pair for e in expected for pair in e]
    # each sentence's stems sorted by hash, as the order's one stable sort needs
    for k in range(len(units)):
        part = units.stems[units.starts[k] : units.starts[k + 1]]
        assert part.tolist() == sorted(part.tolist())
    for profile, stems in zip(profiles, documents, strict=True):
        assert stem_sets(profile) == [frozenset(map(stem_hash, s)) for s in stems]


@given(ROWS)
@settings(max_examples=200, deadline=None)
def test_rows_read_back_at_once_are_the_sentences_written(rows: list[list[frozenset[int]]]) -> None:
    written = [UnitStems.of_sets(numbered(sets)) for sets in rows]
    read = UnitRows.of([units.to_bytes() for units in written])
    assert read.counts.tolist() == [len(sets) for sets in rows]
    assert as_sets(read.units()) == [pair for sets in rows for pair in numbered(sets)]


@given(ROWS, st.data())
@settings(max_examples=200, deadline=None)
def test_sentences_asked_for_are_those_gathered_in_that_order(
    rows: list[list[frozenset[int]]], data: st.DataObject
) -> None:
    every = [pair for sets in rows for pair in numbered(sets)]
    read = UnitRows.of([UnitStems.of_sets(numbered(sets)).to_bytes() for sets in rows])
    which = data.draw(st.lists(st.integers(0, max(len(every) - 1, 0)), max_size=2 * len(every)))
    which = which if every else []
    assert as_sets(read.units(np.array(which, dtype=np.int64))) == [every[k] for k in which]
    assert read.row.tolist() == [r for r, sets in enumerate(rows) for _ in sets]


@pytest.mark.parametrize(
    "row",
    [
        b"",
        b"\x01\x00",
        np.array([2, 0, 1], dtype="<i4").tobytes(),  # (two sentences, cut short)
        np.array([1, 0, 3], dtype="<i4").tobytes() + np.zeros(2, "<i8").tobytes(),  # (3 stems?)
        np.array([1, 0, -1], dtype="<i4").tobytes(),
        np.array([-1], dtype="<i4").tobytes(),
    ],
)
def test_a_row_that_is_not_one_is_refused(row: bytes) -> None:
    good = UnitStems.of_sets([(0, frozenset({1, 2}))]).to_bytes()
    with pytest.raises(DamagedUnits):
        UnitRows.of([good, row])


def test_a_record_prepared_where_it_is_read_files_what_its_summary_cannot() -> None:
    """What a reading process hands on for a document: its keys and stems, made from the
    record it then reduces to a summary (the add's process never sees the rest)."""
    signature = Signature((3, 4), (("a", "b"), ("c", "d")), (0, 1), (), 2, True)
    stems = (("alpha", "beta", "gamma", "delta", "eps", "zeta"), ("eta",))
    profile = WordProfile("en", (0, 1), stems)
    record = BatchDocument(
        Path("x.txt"), "txt", "h", 2, "en", (), signature, "x", False, (), profile
    )
    handed = hand_on(record)
    nothing = hand_on(replace(record, profile=None))
    assert (nothing.stems, nothing.sizes) == ("", b"")
    empty, ready = prepare_all([nothing, handed])  # (made together, in the add's process)
    assert [empty] == prepare_all([nothing]) and [ready] == prepare_all([handed])  # (or alone)
    assert (ready.sentence_keys, empty.sentence_keys) == (handed.sentence_keys,) * 2
    assert UnitRows.of([empty.units]).counts.tolist() == [0]
    assert as_sets(UnitRows.of([ready.units]).units()) == [(0, frozenset(map(stem_hash, stems[0])))]
    keys = np.frombuffer(ready.sentence_keys, dtype="<i8").tolist()
    assert sorted(keys) == sorted(sentence_keys(signature).all())  # (2 sentences, 1 bigram)
    assert len(keys) == 3
    summary = record.summary()
    assert (summary.path, summary.content_hash, summary.sentence_count) == (Path("x.txt"), "h", 2)
    assert summary.profile is None and len(summary.signature) == 0
    assert summary.signature.key_size == 2


def test_stems_that_are_not_their_sentences_sizes_are_refused() -> None:
    with pytest.raises(ValueError):
        units_rows([(SEPARATOR.join("abcdef"), np.array([7], dtype="<i4").tobytes())])


@given(
    st.lists(st.lists(st.integers(0, 5), max_size=9), max_size=8),
    st.sampled_from([0, 1 << 25, 1 << 60, -(1 << 63)]),
    st.sampled_from([1, 3, 1 << 20, 1 << 24]),
)
@settings(max_examples=300, deadline=None)
def test_each_sentences_distinct_hashes_are_sorted_even_when_their_high_bits_tie(
    sentences: list[list[int]], base: int, step: int
) -> None:
    """The oracle: each sentence's set, sorted. Hashes a small `step` apart share their
    highest bits (the sort key's), so the exact sort behind it is met too; a sentence's
    number far past what the key holds as well."""
    first = 1 << 25 if base == 1 << 60 else 0  # (sentences numbered past the key's bits)
    numbers = [first + k for k, stems in enumerate(sentences) for _ in stems]
    values = [base + step * v for stems in sentences for v in stems]
    hashes, sentence = distinct_in_sentences(
        np.array(values, dtype=np.int64), np.array(numbers, dtype=np.int64)
    )
    expected = [
        (first + k, v)
        for k, stems in enumerate(sentences)
        for v in sorted({base + step * v for v in stems})
    ]
    assert list(zip(sentence.tolist(), hashes.tolist(), strict=True)) == expected

"""A document's sentences as the units table keeps them, against sets of stem hashes worked out
one sentence at a time (the oracle): made from a word profile, written as a row and read back
(many rows at once), picked, and a row that is not one refused."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.archive.keys import key_hash, sentence_keys
from core.archive.prepared import prepare
from core.archive.unit_stems import DamagedUnits, UnitRows, UnitStems, units_row
from core.batch.result import BatchDocument
from core.detection.reworded import DEFAULT_SETTINGS, WordProfile
from core.documents.signature import Signature

WORDS = st.sampled_from(["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota"])
PROFILES = st.lists(st.lists(WORDS, max_size=12).map(tuple), max_size=10)
ROWS = st.lists(
    st.lists(st.frozensets(st.integers(-(2**63), 2**63 - 1), max_size=7), max_size=5),
    max_size=6,
)


def as_sets(units: UnitStems) -> list[tuple[int, frozenset[int]]]:
    return [(n, units.stems_of(k)) for k, n in enumerate(units.numbers.tolist())]


def numbered(sets: list[frozenset[int]]) -> list[tuple[int, frozenset[int]]]:
    return [(2 * n + 1, s) for n, s in enumerate(sets)]  # (numbers rising, with gaps)


@given(PROFILES)
@settings(max_examples=200, deadline=None)
def test_a_profile_gives_each_sentence_that_could_hold_a_strong_seed(
    stems: list[tuple[str, ...]],
) -> None:
    profile = WordProfile("en", tuple(range(len(stems))), tuple(stems))
    row = units_row(profile)
    expected = [
        (n, frozenset(map(key_hash, sentence)))
        for n, sentence in enumerate(stems)
        if len(set(sentence)) >= DEFAULT_SETTINGS.strong_shared
    ]
    # the row is the one the sets make, packed by UnitStems (numpy) byte for byte
    assert row == UnitStems.of_sets(expected).to_bytes()
    units = UnitRows.of([row]).units()
    assert as_sets(units) == expected
    # each sentence's stems sorted by hash, as the order's one stable sort needs
    for k in range(len(units)):
        part = units.stems[units.starts[k] : units.starts[k + 1]]
        assert part.tolist() == sorted(part.tolist())


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
    """What a reading process hands on for a document: its keys and units row, made from
    the record it then reduces to a summary (the add's process never sees the rest)."""
    signature = Signature((3, 4), (("a", "b"), ("c", "d")), (0, 1), (), 2, True)
    stems = (("alpha", "beta", "gamma", "delta", "eps", "zeta"), ("eta",))
    profile = WordProfile("en", (0, 1), stems)
    record = BatchDocument(
        Path("x.txt"), "txt", "h", 2, "en", (), signature, "x", False, (), profile
    )
    ready = prepare(record)
    assert prepare(replace(record, profile=None)).units == units_row(None)
    assert UnitRows.of([units_row(None)]).counts.tolist() == [0]
    assert as_sets(UnitRows.of([ready.units]).units()) == [(0, frozenset(map(key_hash, stems[0])))]
    keys = np.frombuffer(ready.sentence_keys, dtype="<i8").tolist()
    assert sorted(keys) == sorted(sentence_keys(signature).all())  # (2 sentences, 1 bigram)
    assert len(keys) == 3
    summary = record.summary()
    assert (summary.path, summary.content_hash, summary.sentence_count) == (Path("x.txt"), "h", 2)
    assert summary.profile is None and len(summary.signature) == 0
    assert summary.signature.key_size == 2

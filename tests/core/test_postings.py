"""The postings store against a list of every posting written (the oracle): look-ups, merges
(a range of keys at a time) and purges."""

from __future__ import annotations

import sqlite3
from collections import Counter
from contextlib import nullcontext
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.archive import postings as store
from core.archive.index_file import SCHEMA
from core.archive.postings import DTYPES, KeyKind

# keys from a small pool (so keys share buckets and segments), spread over the whole range
KEYS = st.sampled_from([-(2**63), -(2**40), -7, 0, 5, 2**31, 2**62, 2**63 - 1, 12345678901])
FILINGS = st.lists(st.lists(st.tuples(KEYS, st.integers(0, 30)), max_size=40), max_size=8)


def connection_in(folder: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(folder / "postings.sqlite3", isolation_level=None)
    for statement in SCHEMA:
        connection.execute(statement)
    return connection


def as_postings(rows: list[tuple[int, int]]) -> store.Postings:
    postings = np.zeros(len(rows), dtype=DTYPES[KeyKind.SENTENCE])
    postings["key"] = [k for k, _ in rows]
    postings["content"] = [c for _, c in rows]
    return postings


def pairs(postings: store.Postings) -> list[tuple[int, int]]:
    return sorted(zip(postings["key"].tolist(), postings["content"].tolist(), strict=True))


@given(FILINGS, st.lists(KEYS, max_size=5), st.frozensets(st.integers(0, 30), max_size=4))
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_what_is_written_is_found_merged_and_purged(
    tmp_path_factory: pytest.TempPathFactory,
    filings: list[list[tuple[int, int]]],
    wanted: list[int],
    gone: frozenset[int],
) -> None:
    folder = tmp_path_factory.mktemp("p")
    connection = connection_in(folder)
    written: list[tuple[int, int]] = []
    keys = np.array(wanted, dtype=np.int64)
    filters = store.Filters()  # (kept across every write and merge, as a process keeps them)
    # merges two at a time, a handful of postings a range: many ranges and levels
    with mock.patch.object(store, "FANOUT", 2), mock.patch.object(store, "RANGE_POSTINGS", 4):
        for rows in filings:
            store.write_segment(connection, KeyKind.SENTENCE, as_postings(rows))
            written += rows
            while merging := store.due(connection, KeyKind.SENTENCE):
                store.merge(connection, KeyKind.SENTENCE, merging, lambda p, _: p)
            found = store.lookup(connection, KeyKind.SENTENCE, keys, filters=filters)
            assert pairs(found) == sorted(r for r in written if r[0] in wanted)
    held = store.segments(connection, KeyKind.SENTENCE)
    assert sum(s.postings for s in held) == len(written)
    assert len({s.level for s in held}) == len(held)  # (one segment a level, two at a time)
    assert pairs(store.everything(connection, KeyKind.SENTENCE)) == sorted(written)
    found = store.lookup(connection, KeyKind.SENTENCE, keys)
    assert pairs(found) == sorted(r for r in written if r[0] in wanted)
    # a purge takes the contents' postings out of the buckets of the keys: all those under the
    # keys, and whatever else of theirs shares a bucket; nothing of another content
    store.purge(connection, KeyKind.SENTENCE, keys, gone, filters)
    after = pairs(store.everything(connection, KeyKind.SENTENCE))
    assert not [r for r in after if r[0] in wanted and r[1] in gone]
    assert [r for r in after if r[1] not in gone] == sorted(r for r in written if r[1] not in gone)
    assert not Counter(after) - Counter(written)
    store.purge(connection, KeyKind.SENTENCE, None, gone)  # (every bucket)
    assert pairs(store.everything(connection, KeyKind.SENTENCE)) == sorted(
        r for r in written if r[1] not in gone
    )
    assert sum(s.postings for s in store.segments(connection, KeyKind.SENTENCE)) == len(
        [r for r in written if r[1] not in gone]
    )
    connection.close()


def test_a_key_is_read_only_in_the_segments_that_may_hold_it(tmp_path: Path) -> None:
    """Eight segments of 4,000 keys each, none shared: looking up 200 keys of one segment
    reads that segment's buckets and, through filters saying yes wrongly (about 2%), a few
    of the others' that a look-up without filters reads."""
    connection = connection_in(tmp_path)
    rng = np.random.default_rng(8)
    every = np.unique(rng.integers(-(2**63), 2**63 - 1, size=8 * 4_000, dtype=np.int64))
    rng.shuffle(every)
    for number, keys in enumerate(np.array_split(every, 8)):
        store.write_segment(connection, KeyKind.SENTENCE, as_postings([(k, number) for k in keys]))
    wanted = every[:200]
    first = store.segments(connection, KeyKind.SENTENCE)[0].id
    real = store._bucket_rows
    read: dict[bool, list[int]] = {}
    for filtered in (True, False):
        ids = read.setdefault(filtered, [])

        def counting(connection: sqlite3.Connection, asked: list[int], ids: list[int] = ids):  # type: ignore[no-untyped-def]
            ids.extend(asked)
            return real(connection, asked)

        no_filters = mock.patch.object(
            store.Filters, "of", lambda self, c, k, held: [None] * len(held)
        )
        with (
            mock.patch.object(store, "_bucket_rows", counting),
            nullcontext() if filtered else no_filters,
        ):
            found = store.lookup(connection, KeyKind.SENTENCE, wanted)
        assert sorted(found["key"].tolist()) == sorted(wanted.tolist())
    mine = {filtered: [i for i in ids if i >> 32 == first] for filtered, ids in read.items()}
    assert mine[True] == mine[False]
    others = {filtered: len(ids) - len(mine[filtered]) for filtered, ids in read.items()}
    assert others[False] > 7 * 80  # (without filters: 7 segments × the keys' buckets)
    assert others[True] < others[False] * 0.1
    connection.close()


def test_a_damaged_filter_is_damage_not_a_key_missed(tmp_path: Path) -> None:
    connection = connection_in(tmp_path)
    store.write_segment(connection, KeyKind.SENTENCE, as_postings([(5, 1), (7, 2)]))
    (bits,) = connection.execute("SELECT bits FROM filters").fetchone()
    connection.execute("UPDATE filters SET bits = ?", (bits[:4] + bytes(len(bits) - 4),))
    with pytest.raises(sqlite3.DatabaseError) as raised:
        store.lookup(connection, KeyKind.SENTENCE, np.array([5], dtype=np.int64))
    assert raised.value.sqlite_errorcode == store.SQLITE_CORRUPT
    connection.execute("DELETE FROM filters")  # (a segment without one may hold any key)
    found = store.lookup(connection, KeyKind.SENTENCE, np.array([5], dtype=np.int64))
    assert pairs(found) == [(5, 1)]
    connection.close()


def _word_postings(rows: list[tuple[int, int]]) -> store.Postings:
    postings = np.zeros(len(rows), dtype=DTYPES[KeyKind.WORD])
    postings["key"] = [k for k, _ in rows]
    postings["content"] = [c for _, c in rows]
    postings["mask"] = postings["content"].astype(np.uint64) ^ np.uint64(0xFFFF_0000_0000_FFFF)
    return postings


def _listed(postings: store.Postings) -> list[tuple[int, int, int]]:
    return list(
        zip(
            postings["key"].tolist(),
            postings["content"].tolist(),
            postings["mask"].tolist(),
            strict=True,
        )
    )


@given(
    st.lists(st.tuples(KEYS, st.integers(0, 99)), max_size=30),
    st.lists(st.tuples(KEYS, st.integers(100, 199)), max_size=30),
)
def test_postings_picked_joined_and_merged_as_numpy_would(
    first: list[tuple[int, int]], second: list[tuple[int, int]]
) -> None:
    """The plain-row copies give what numpy's own indexing and a stable sort give."""
    a, b = _word_postings(first), _word_postings(second)
    mask = a["content"] % 2 == 0
    assert _listed(store.picked(a, mask)) == _listed(a[mask])
    order = np.argsort(a["key"], kind="stable")
    assert _listed(store.picked(a, order)) == _listed(a[order])
    assert _listed(store.by_key(a)) == _listed(a[order])
    both = np.concatenate([a, b])
    assert _listed(store.joined(KeyKind.WORD, [a, b])) == _listed(both)
    sorted_a, sorted_b = store.by_key(a), store.by_key(b)
    expected = np.concatenate([sorted_a, sorted_b])
    expected = expected[np.argsort(expected["key"], kind="stable")]
    assert _listed(store.merged(KeyKind.WORD, sorted_a, sorted_b)) == _listed(expected)

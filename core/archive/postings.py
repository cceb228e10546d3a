"""The archive index's postings (what is filed under each key) as segments, written once and
merged as they grow: a log-structured store on SQLite.

Keys are hashes, so a table of postings ordered by key takes each new document's postings at
random places: every add of a chunk rewrote most of the table's pages through the write-ahead
log, and filing a thousand essays into an index of 10,000 spent more time in SQLite's B-tree
than in making the keys (docs/benchmarks.md). Here each filing writes its postings as a new
*segment*, sorted by key and cut into *buckets* of about `BUCKET` postings (one row each, its
postings packed in a blob, its row id the segment and the key's top bits: a segment is written
at the end of the table, in order), with a Bloom filter of the keys it holds
(`core.archive.key_filter`). Looking a key up reads its bucket in each segment whose filter
may hold it. When
`FANOUT` segments of one level are there, they are merged into one of the next level, a range
of keys at a time (memory holds one range): a posting is rewritten once a level, and a check
reads a few segments per level (about log₆ of the chunks filed).

What a posting holds is the kind's `DTYPES` (little-endian, packed): a sentence key's content,
or a word key's content, sentence, last stem's position, sentence size, key length and the
stem mask of the sentence's stems after the key (`core.archive.keys.mask_after`). The
store knows nothing of what keys mean; `core.archive.index` decides which postings are written,
dropped at a merge (`Merge.keep`) or taken out (`purge`)."""

from __future__ import annotations

import math
import secrets
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any
from zlib import crc32

import numpy as np
from numpy.typing import NDArray

from core.archive.key_filter import KeyFilter, Probe
from core.archive.key_table import KeyTable


class KeyKind(IntEnum):
    SENTENCE = 0
    WORD = 1


DTYPES = {
    KeyKind.SENTENCE: np.dtype([("key", "<i8"), ("content", "<i4")]),
    KeyKind.WORD: np.dtype(
        [
            ("key", "<i8"),
            ("content", "<i4"),
            ("unit", "<i4"),
            ("position", "<i4"),
            ("size", "<i4"),
            ("length", "<i1"),
            ("mask", "<u8"),
        ]
    ),
}
Postings = NDArray[np.void]
#: postings in a bucket (on average): what a look-up of one key reads per segment
BUCKET = 32
#: segments of one level merged into one of the next level. Six, measured against four (and
#: eight) on the archive benchmark (docs/benchmarks.md, "The archive index"): no merge is due
#: in an add of 10,000 (its filing 9 CPU-s against 17), and a check at 100,000 holds (one
#: essay ×1.33 of its time against 1,000, seven segments of word keys); but
#: a key opens past its line in one segment, so larger segments open more keys and file more
#: postings a sentence (the index of 100,000: 183 KB a document against 118)
FANOUT = 6
#: postings a merge holds in memory at once (33 bytes each, a word posting)
RANGE_POSTINGS = 2_000_000
_TOP = np.uint64(1 << 63)
#: values from which `among` looks them up in a hash table (`KeyTable`) rather than by a
#: binary search each (building the table costs more than the search saves for fewer)
MANY_VALUES = 50_000
#: ids in one query's list (buckets, filters, units read at once)
IN_LIST = 2_000
_SEGMENT_BITS = 32
#: SQLite's primary result code for a damaged database
SQLITE_CORRUPT = 11


@dataclass(frozen=True, slots=True)
class Segment:
    id: int
    kind: KeyKind
    level: int
    postings: int
    shift: int  # a key's bucket: its unsigned value shifted right by this (64: one bucket)
    stamp: int  # random, never the same twice: what a filter is kept by (`Filters`)


def empty(kind: KeyKind) -> Postings:
    return np.zeros(0, dtype=DTYPES[kind])


def _rows(postings: Postings) -> NDArray[np.void]:
    """`postings` as plain rows of bytes: numpy copies a structured row field by field, and
    the rows whole; picking or joining many postings is 4 to 8 times faster on the rows
    (measured on 1.6 million word postings, then of 41 bytes with a two-word mask field)."""
    rows: NDArray[np.void] = postings.view(np.dtype((np.void, postings.dtype.itemsize)))
    return rows


def picked(postings: Postings, which: NDArray[Any]) -> Postings:
    """`postings[which]` (positions, or a mask of them), copied as plain rows."""
    chosen: Postings = _rows(postings)[which].view(postings.dtype)
    return chosen


def joined(kind: KeyKind, parts: Sequence[Postings]) -> Postings:
    """The postings of `parts` one after another (of `kind`), copied as plain rows."""
    if not parts:
        return empty(kind)
    return np.concatenate([_rows(p) for p in parts]).view(DTYPES[kind])


def ascending(keys: NDArray[np.int64]) -> bool:
    return bool(np.all(keys[1:] >= keys[:-1]))


def by_key(postings: Postings) -> Postings:
    """`postings` in key order (a stable sort; as they are when they are in order already)."""
    keys = postings["key"]
    return postings if ascending(keys) else picked(postings, np.argsort(keys, kind="stable"))


def merged(kind: KeyKind, first: Postings, second: Postings) -> Postings:
    """Two runs of postings in key order as one (a key's postings of `first` before those of
    `second`), without sorting them again."""
    if not len(second) or not len(first):
        return second if not len(first) else first
    rows = np.empty(len(first) + len(second), dtype=np.dtype((np.void, DTYPES[kind].itemsize)))
    at = np.searchsorted(first["key"], second["key"], side="right") + np.arange(len(second))
    rest = np.ones(len(rows), dtype=np.bool_)
    rest[at] = False
    rows[at] = _rows(second)
    rows[rest] = _rows(first)
    both: Postings = rows.view(DTYPES[kind])
    return both


def _unsigned(keys: NDArray[np.int64]) -> NDArray[np.uint64]:
    """Keys as unsigned 64-bit numbers in the same order."""
    return keys.view(np.uint64) ^ _TOP


def _buckets(keys: NDArray[np.int64], shift: int) -> NDArray[np.uint64]:
    if shift >= 64:
        return np.zeros(len(keys), dtype=np.uint64)
    return _unsigned(keys) >> np.uint64(shift)


def _shift_for(count: int) -> int:
    """The shift that cuts `count` postings into buckets of about BUCKET."""
    bits = max(0, math.ceil(math.log2(count / BUCKET))) if count > BUCKET else 0
    return 64 - min(bits, _SEGMENT_BITS - 1)


def _first_id(segment: int) -> int:
    return segment << _SEGMENT_BITS


def segments(connection: sqlite3.Connection, kind: KeyKind) -> list[Segment]:
    return [
        Segment(id, KeyKind(k), level, count, shift, stamp)
        for id, k, level, count, shift, stamp in connection.execute(
            "SELECT id, kind, level, postings, shift, stamp FROM segments WHERE kind = ? "
            "ORDER BY id",
            (int(kind),),
        )
    ]


class Filters:
    """The key filters of the segments looked up so far, kept by their segments' stamps (what
    keys a segment may hold never changes once it is written: a purge only takes postings
    out), so a process reads each filter once. A segment without one may hold any key."""

    def __init__(self) -> None:
        self._held: dict[KeyKind, dict[int, KeyFilter | None]] = {}

    def of(
        self, connection: sqlite3.Connection, kind: KeyKind, held: Sequence[Segment]
    ) -> list[KeyFilter | None]:
        """The filters of `held` (segments of `kind`), in their order; those of segments no
        longer there are forgotten."""
        known = self._held.get(kind, {})
        missing = {s.id: s.stamp for s in held if s.stamp not in known}
        kept = {s.stamp: known[s.stamp] for s in held if s.stamp in known}
        for rows in _rows_in(
            connection, "SELECT segment, bits FROM filters", "segment", list(missing)
        ):
            for id, blob in rows:
                kept[missing.pop(id)] = KeyFilter.from_bytes(_checked(blob))
        kept.update(dict.fromkeys(missing.values()))
        self._held[kind] = kept
        return [kept[s.stamp] for s in held]


class SegmentWriter:
    """Writes one segment, in key order (postings given a sorted run at a time, each run's
    keys above the last's)."""

    def __init__(self, connection: sqlite3.Connection, kind: KeyKind, level: int, expected: int):
        self.connection = connection
        self.kind = kind
        self.shift = _shift_for(expected)
        self.count = 0
        self.last: int | None = None  # the last bucket written
        self.keys: list[NDArray[np.int64]] = []  # the distinct keys of each run added
        self.id = int(
            connection.execute(
                "INSERT INTO segments (kind, level, postings, shift, stamp) VALUES (?, ?, 0, ?, ?)",
                (int(kind), level, self.shift, secrets.randbits(63)),
            ).lastrowid
            or 0
        )

    def add(self, postings: Postings) -> None:
        """Writes `postings` (any order; sorted here unless they are in key order), all above
        what was added before."""
        if not len(postings):
            return
        postings = by_key(postings)
        keys = postings["key"]
        self.keys.append(keys[np.concatenate(([True], keys[1:] != keys[:-1]))])
        buckets = _buckets(keys, self.shift)
        starts = np.flatnonzero(np.concatenate(([True], buckets[1:] != buckets[:-1])))
        firsts = buckets[starts]
        # each bucket's postings, a view of the run's bytes (nothing copied before it is
        # sealed); every step a row is a map in C: a chunk writes tens of thousands of rows
        data = np.ascontiguousarray(_rows(postings)).view(np.uint8).data
        offsets = (np.append(starts, len(postings)) * postings.dtype.itemsize).tolist()
        bodies: list[bytes | memoryview] = list(
            map(data.__getitem__, map(slice, offsets[:-1], offsets[1:]))
        )
        ids = (firsts + np.uint64(_first_id(self.id))).tolist()
        sealed = _all_sealed(bodies)
        if int(firsts[0]) == self.last:  # (a bucket wider than a merge's range: it grows)
            before = _decoded(self.kind, [self._blob(ids[0])]).tobytes()
            self.connection.execute(
                "UPDATE buckets SET postings = ? WHERE id = ?",
                (_sealed(before + bodies[0]), ids[0]),
            )
            ids, sealed = ids[1:], sealed[1:]
        self.connection.executemany(
            "INSERT INTO buckets (id, postings) VALUES (?, ?)", zip(ids, sealed, strict=True)
        )
        self.last = int(firsts[-1])
        self.count += len(postings)

    def _blob(self, id: int) -> bytes:
        (blob,) = self.connection.execute(
            "SELECT postings FROM buckets WHERE id = ?", (id,)
        ).fetchone()
        return bytes(blob)

    def close(self) -> None:
        """Records how many postings the segment holds, and the filter of its keys (none: it
        is taken out)."""
        if self.count:
            self.connection.execute(
                "UPDATE segments SET postings = ? WHERE id = ?", (self.count, self.id)
            )
            held = KeyFilter.of(np.concatenate(self.keys))
            self.connection.execute(
                "INSERT INTO filters (segment, bits) VALUES (?, ?)",
                (self.id, _sealed(held.to_bytes())),
            )
        else:  # (everything was dropped)
            self.connection.execute("DELETE FROM segments WHERE id = ?", (self.id,))


def write_segment(
    connection: sqlite3.Connection, kind: KeyKind, postings: Postings, level: int = 0
) -> None:
    """Writes `postings` as a new segment of `level` (nothing when there are none)."""
    if len(postings):
        writer = SegmentWriter(connection, kind, level, len(postings))
        writer.add(postings)
        writer.close()


def _sealed(data: bytes | memoryview) -> bytes:
    """A bucket's blob: its postings after their CRC-32 (4 bytes, little-endian)."""
    return crc32(data).to_bytes(4, "little") + data


def _all_sealed(bodies: list[bytes | memoryview]) -> list[bytes]:
    """`_sealed` of each of `bodies`, in C a step (the checksums as 4-byte rows of one array)."""
    crcs = np.fromiter(map(crc32, bodies), dtype="<u4", count=len(bodies))
    return list(map(bytes.__add__, crcs.view("V4").tolist(), bodies))


def _checked(blob: bytes, width: int = 8) -> memoryview:
    """What a sealed blob holds (a bucket's postings, a filter's words); a checksum or length
    that is wrong is damage (SQLite checks its pages' structure, not what a blob holds)."""
    body = memoryview(blob)[4:]
    if len(body) % width or crc32(body) != int.from_bytes(blob[:4], "little"):
        raise damaged("a blob of the archive index does not hold what was written")
    return body


def damaged(message: str) -> sqlite3.DatabaseError:
    """An error that tells the index is damaged, as SQLite's own do (its result code)."""
    damage = sqlite3.DatabaseError(message)
    damage.sqlite_errorcode = SQLITE_CORRUPT
    return damage


def _decoded(kind: KeyKind, blobs: Sequence[bytes]) -> Postings:
    """The postings of `blobs` (buckets' blobs)."""
    width = DTYPES[kind].itemsize
    parts = [_checked(blob, width) for blob in blobs]
    return np.frombuffer(b"".join(parts), dtype=DTYPES[kind]) if parts else empty(kind)


def _rows_in(
    connection: sqlite3.Connection, select: str, column: str, ids: list[int]
) -> Iterator[list[Any]]:
    """The rows `select` gives where `column` is one of `ids`, `IN_LIST` ids a query (what is
    held at once)."""
    for start in range(0, len(ids), IN_LIST):
        part = ids[start : start + IN_LIST]
        yield connection.execute(
            f"{select} WHERE {column} IN ({','.join('?' * len(part))})", part
        ).fetchall()


def _bucket_rows(
    connection: sqlite3.Connection, ids: list[int]
) -> Iterator[list[tuple[int, bytes]]]:
    """The buckets of `ids` that are there, `IN_LIST` at a time."""
    return _rows_in(connection, "SELECT id, postings FROM buckets", "id", ids)


def _held_buckets(
    connection: sqlite3.Connection,
    kind: KeyKind,
    keys: NDArray[np.int64],
    leaving_out: frozenset[int],
    filters: Filters | None,
) -> Iterator[tuple[Segment, list[int]]]:
    """Each segment of `kind` (but those `leaving_out`) with the buckets of those of `keys`
    (sorted, distinct) its filter may hold."""
    held = [s for s in segments(connection, kind) if s.id not in leaving_out]
    probe = Probe.of(keys)
    for segment, key_filter in zip(
        held, (filters or Filters()).of(connection, kind, held), strict=True
    ):
        present = keys if key_filter is None else keys[key_filter.may_hold(probe)]
        if len(present):
            base = np.uint64(_first_id(segment.id))
            yield segment, (np.unique(_buckets(present, segment.shift)) + base).tolist()


def lookup(
    connection: sqlite3.Connection,
    kind: KeyKind,
    keys: NDArray[np.int64],
    *,
    leaving_out: frozenset[int] = frozenset(),
    filters: Filters | None = None,
) -> Postings:
    """Every posting filed under `keys`, in every segment of `kind` but those `leaving_out`
    (their filters kept in `filters`, read again when None)."""
    keys = np.unique(keys)
    found: list[Postings] = []
    if not len(keys):
        return empty(kind)
    ids = [
        i for _, held in _held_buckets(connection, kind, keys, leaving_out, filters) for i in held
    ]
    for rows in _bucket_rows(connection, ids):  # (every segment's at once; a term's, in parts)
        postings = _decoded(kind, [blob for _, blob in rows])
        found.append(picked(postings, among(postings["key"], keys)))
    return joined(kind, found)


def among(values: NDArray[np.int64], wanted: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Which of `values` are in `wanted` (sorted, distinct): np.isin without its sort of both
    (a bucket read holds many times the keys looked up; a filing's postings, many times the
    keys opened); many values (a filing's) through a `KeyTable` of `wanted`."""
    if not len(wanted):
        return np.zeros(len(values), dtype=np.bool_)
    if len(values) >= MANY_VALUES:
        return KeyTable(wanted).holds(values)
    at = np.minimum(np.searchsorted(wanted, values), len(wanted) - 1)
    hit: NDArray[np.bool_] = wanted[at] == values
    return hit


def among_sorted(values: NDArray[np.int64], wanted: NDArray[np.int64]) -> NDArray[np.bool_]:
    """`among` for `values` in order (postings by key, as a filing opens keys): each of
    `wanted`'s run of values found by two binary searches, so the work follows the wanted
    keys and their postings, not all the values."""
    found = np.zeros(len(values), dtype=np.bool_)
    low = np.searchsorted(values, wanted, side="left")
    many = np.searchsorted(values, wanted, side="right") - low
    runs = many > 0
    low, many = low[runs], many[runs]
    total = int(many.sum())
    if total:
        first = np.repeat(np.cumsum(many) - many, many)
        found[np.repeat(low, many) + np.arange(total, dtype=np.int64) - first] = True
    return found


def purge(
    connection: sqlite3.Connection,
    kind: KeyKind,
    keys: NDArray[np.int64] | None,
    contents: frozenset[int],
    filters: Filters | None = None,
) -> None:
    """Takes out every posting of `contents` in the buckets of `keys` (None: in every bucket,
    the slow way) in every segment of `kind` (their filters kept in `filters`)."""
    wanted = np.fromiter(contents, dtype=np.int64, count=len(contents))
    if keys is None:
        held = [
            (s, _every_bucket(connection, _first_id(s.id), _first_id(s.id + 1)))
            for s in segments(connection, kind)
        ]
    elif len(keys):
        held = [
            (s, _bucket_rows(connection, ids))
            for s, ids in _held_buckets(connection, kind, np.unique(keys), frozenset(), filters)
        ]
    else:
        held = []
    for segment, batches in held:
        taken = 0
        for rows in batches:
            for id, blob in rows:
                postings = _decoded(kind, [blob])
                gone = np.isin(postings["content"], wanted)
                if not gone.any():
                    continue
                taken += int(gone.sum())
                if gone.all():
                    connection.execute("DELETE FROM buckets WHERE id = ?", (id,))
                else:
                    connection.execute(
                        "UPDATE buckets SET postings = ? WHERE id = ?",
                        (_sealed(picked(postings, ~gone).tobytes()), id),
                    )
        if taken:
            connection.execute(
                "UPDATE segments SET postings = postings - ? WHERE id = ?", (taken, segment.id)
            )


def _every_bucket(
    connection: sqlite3.Connection, first: int, end: int
) -> Iterator[list[tuple[int, bytes]]]:
    """The buckets with ids from `first` to before `end`, a few thousand at a time (each batch
    read before the caller changes any)."""
    while True:
        rows = connection.execute(
            "SELECT id, postings FROM buckets WHERE id >= ? AND id < ? ORDER BY id LIMIT 4096",
            (first, end),
        ).fetchall()
        if not rows:
            return
        yield rows
        first = rows[-1][0] + 1


def clear(connection: sqlite3.Connection, kind: KeyKind) -> None:
    """Takes out every segment of `kind`."""
    for segment in segments(connection, kind):
        _drop(connection, segment)


def _drop(connection: sqlite3.Connection, segment: Segment) -> None:
    """Takes out `segment` (merged into another, filed again, or emptied), its freed pages
    left as they are: SQLite's `secure_delete` (on in some builds, Debian's among them)
    writes zeros over every freed page, through the log. A segment holds key hashes and
    numbers, never text; what a removal takes out of the contents and units tables (a
    document's text and stems) is still zeroed."""
    (secure,) = connection.execute("PRAGMA secure_delete").fetchone()
    connection.execute("PRAGMA secure_delete = 0")
    try:
        _drop_rows(connection, segment)
    finally:
        connection.execute(f"PRAGMA secure_delete = {int(secure)}")


def _drop_rows(connection: sqlite3.Connection, segment: Segment) -> None:
    connection.execute(
        "DELETE FROM buckets WHERE id >= ? AND id < ?",
        (_first_id(segment.id), _first_id(segment.id + 1)),
    )
    connection.execute("DELETE FROM segments WHERE id = ?", (segment.id,))
    connection.execute("DELETE FROM filters WHERE segment = ?", (segment.id,))


def postings_of(connection: sqlite3.Connection, segment: Segment) -> Postings:
    """Every posting of `segment` (tests, and small indexes)."""
    return next(_ranges_of(connection, segment.kind, [segment], 0))


def everything(connection: sqlite3.Connection, kind: KeyKind) -> Postings:
    """Every posting of `kind` (tests, and small indexes)."""
    return joined(kind, [postings_of(connection, s) for s in segments(connection, kind)])


def due(connection: sqlite3.Connection, kind: KeyKind) -> list[Segment]:
    """The segments of the lowest level that holds FANOUT of them (none: nothing to merge)."""
    levels: dict[int, list[Segment]] = {}
    for segment in segments(connection, kind):
        levels.setdefault(segment.level, []).append(segment)
    for level in sorted(levels):
        if len(levels[level]) >= FANOUT:
            return levels[level]
    return []


def _ranges_of(
    connection: sqlite3.Connection, kind: KeyKind, merging: Sequence[Segment], bits: int
) -> Iterator[Postings]:
    """The postings of `merging`, 2^bits ranges of keys one after another (each in any
    order, each range's keys above the last's)."""
    for number in range(1 << bits):
        low = number << (64 - bits) if bits else 0
        high = ((number + 1) << (64 - bits)) - 1 if bits else (1 << 64) - 1
        parts = []
        for segment in merging:
            shift = min(segment.shift, 64)
            first = _first_id(segment.id) + (low >> shift if shift < 64 else 0)
            last = _first_id(segment.id) + (high >> shift if shift < 64 else 0)
            blobs = [
                blob
                for (blob,) in connection.execute(
                    "SELECT postings FROM buckets WHERE id >= ? AND id <= ?", (first, last)
                )
            ]
            postings = _decoded(kind, blobs)
            if bits and segment.shift > 64 - bits:  # (a bucket wider than the range)
                unsigned = _unsigned(postings["key"])
                postings = picked(postings, (unsigned >= low) & (unsigned <= high))
            parts.append(postings)
        yield joined(kind, parts)


#: what a merge writes of a range of postings (the rest are dropped, or set aside by the
#: caller), told which segments are being merged (and written)
Keep = Callable[[Postings, frozenset[int]], Postings]


def merge(
    connection: sqlite3.Connection, kind: KeyKind, merging: Sequence[Segment], keep: Keep
) -> None:
    """Merges `merging` into one segment, a level above the highest of them."""
    total = sum(s.postings for s in merging)
    bits = 0
    while (total >> bits) > RANGE_POSTINGS and bits < 16:
        bits += 1
    writer = SegmentWriter(connection, kind, max(s.level for s in merging) + 1, total)
    merged = frozenset({s.id for s in merging} | {writer.id})
    for postings in _ranges_of(connection, kind, merging, bits):
        writer.add(keep(postings, merged))
    writer.close()
    for segment in merging:
        _drop(connection, segment)

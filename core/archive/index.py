"""An archive index: earlier years' submissions, analysed once and kept in one SQLite file, so a
check reads only what its new documents' keys point to (docs/scale.md).

What it keeps, per distinct content: the record a check compares (`BatchDocument`: signature,
word profile, facts) and the whole `Document` (the text and its sentences), so a pair's
evidence can be shown years later, after the files moved or were deleted; per archived file
(a *member*): its path, its student (group), when it was last modified and added; and the keys
of `core.archive.keys` (postings: key -> contents, in the segments of
`core.archive.postings`). The file's rules are in `core.archive.index_file`.

The index is made with the signature options of its first `add` (language, stop words, length
cap, key size): a check must use the same (`options`), since a record is a signature made
with them."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from core import ENGINE_VERSION
from core.archive import postings as store
from core.archive.chunk_keys import (
    FiledKeys,
    Ints,
    UnitArrays,
    chunk_keys,
    longer,
    masks_after,
    unit_arrays,
)
from core.archive.index_file import (
    INDEX_FORMAT,
    LOCK_TIMEOUT,
    TABLES,
    ArchiveError,
    Kind,
    default_index_path,
    identify,
    make_index,
)
from core.archive.key_table import KeyTable, more_than
from core.archive.keys import (
    LONGEST,
    OPEN_ABOVE,
    OPEN_GROWTH,
    SAMPLE_UNITS,
    OpenLine,
    StemOrder,
    key_hash,
    sentence_keys,
    unit_keys,
    word_units,
)
from core.archive.postings import DTYPES, KeyKind
from core.archive.prepared import Prepared, hand_on, prepare_all
from core.archive.unit_stems import DamagedUnits, UnitRows, UnitStems
from core.batch.cache import PackedEntry, codec
from core.batch.cache_codec import CodecError
from core.batch.cache_file import DAMAGED, error_code, sqlite_reason
from core.batch.result import BatchDocument, Submission
from core.documents.document import Document
from core.options import SignatureOptions

T = TypeVar("T")

#: SQLite's limit on bound values in one statement, with room to spare
_CHUNK = 500
#: postings a merge holds of the sentences it files again under longer keys before it writes
#: them as a segment: about 80 MB (the merged ranges are bounded by postings.RANGE_POSTINGS)
MOVED_POSTINGS = 2_000_000
#: SQLite's page cache (KiB) of a connection that writes: a large archive's tables are big
#: B-trees, and filing touches many of their pages again and again
CACHE_KIB = 128 * 1024
#: ... and of one that only reads (a check): it reads each bucket and record it needs about
#: once, the system's cache keeps the file warm, and the check's memory stays flat
READ_CACHE_KIB = 32 * 1024


@dataclass(frozen=True, slots=True)
class Member:
    """An archived file: where it was, its content (row id), whose it is, when it was last
    modified (seconds since the epoch) and added, and its size in bytes."""

    path: Path
    content: int
    group: str
    modified: float
    size: int
    added: float


@dataclass(frozen=True, slots=True)
class ArchiveInfo:
    """What `doppel archive info` says of an index."""

    path: Path
    documents: int  # archived files
    contents: int  # distinct contents among them
    first_year: int | None  # of the files' modification times
    last_year: int | None
    bytes: int  # the index file and its log
    options: SignatureOptions
    engine: str  # the engine version that made it

    @property
    def bytes_per_document(self) -> float:
        return self.bytes / self.documents if self.documents else 0.0

    @property
    def years(self) -> str:
        """ "2019–2025", "2024", or "" when empty."""
        if self.first_year is None or self.last_year is None:
            return ""
        if self.first_year == self.last_year:
            return str(self.first_year)
        return f"{self.first_year}–{self.last_year}"


def options_text(options: SignatureOptions) -> str:
    return json.dumps(asdict(options), sort_keys=True)


def describe_options(options: SignatureOptions) -> str:
    """The options in the command line's words."""
    words = [f"--language {options.language}", f"--key-size {options.key_size}"]
    if not options.remove_stopwords:
        words.append("--keep-stopwords")
    if not options.length_cap:
        words.append("--no-length-cap")
    return " ".join(words)


class ArchiveIndex:
    """The index file at `path` (the platform's data folder when None). With `create`, a
    missing index is made with `options` (the defaults when None); without it, a missing index
    is an ArchiveError. Raises ArchiveError for anything that is not an index (left as it
    was), a damaged one, or one of another format."""

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        create: bool = False,
        options: SignatureOptions | None = None,
        timeout: float = LOCK_TIMEOUT,
    ) -> None:
        self.path = Path(path) if path is not None else default_index_path()
        self.timeout = timeout
        self.read_only = False
        kind, reason = identify(self.path)
        if kind is Kind.FOREIGN:
            raise ArchiveError(self.path, f"{reason}; it was left as it was")
        if kind is Kind.MISSING:
            if not create:
                raise ArchiveError(
                    self.path, "there is no archive index there yet (doppel archive add makes one)"
                )
            meta = {
                "options": options_text(options or SignatureOptions()),
                "engine": ENGINE_VERSION,
                "created": repr(time.time()),
                "open_above": str(OPEN_ABOVE),
                "open_growth": str(OPEN_GROWTH),
            }
            make_index(self.path, meta)  # (False: another process made it meanwhile: use it)
        self._connection = self._connect()
        self._filters = store.Filters()  # (each segment's filter read once by this process)
        self.options = self._options()

    # --- opening --------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        connection = None
        try:
            connection = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
            tables = {
                name
                for (name,) in connection.execute(
                    "SELECT name FROM sqlite_master WHERE type='table'"
                )
            }
            row = None
            if tables == TABLES:
                row = connection.execute("SELECT value FROM meta WHERE name = 'format'").fetchone()
        except sqlite3.Error as error:
            if connection is not None:
                connection.close()
            raise self._error(error, "it cannot be opened") from error
        if tables != TABLES:
            connection.close()
            raise ArchiveError(self.path, "it is not an archive index this version can read")
        if row is None or row[0] != str(INDEX_FORMAT):
            connection.close()
            found = row[0] if row is not None else "unknown"
            raise ArchiveError(
                self.path,
                f"it is of format {found}, which this version of Doppel cannot read; "
                "it was left as it was",
            )
        connection.execute("PRAGMA synchronous = NORMAL")  # (WAL: a crash loses no commit)
        connection.execute(f"PRAGMA cache_size = -{READ_CACHE_KIB}")  # (larger once it writes)
        self._writing = False
        if not _writable(self.path):
            self.read_only = True
        return connection

    def _error(self, error: sqlite3.Error, doing: str) -> ArchiveError:
        if error_code(error) in DAMAGED:
            return ArchiveError(
                self.path,
                f"it is damaged ({error}); Doppel left it as it was: restore it from a backup, "
                "or make a new one with doppel archive add",
            )
        return ArchiveError(self.path, f"{doing}: {sqlite_reason(error, self.timeout)}")

    def _options(self) -> SignatureOptions:
        text = self._meta("options")
        try:
            return SignatureOptions(**json.loads(text)) if text else SignatureOptions()
        except (TypeError, ValueError) as error:
            raise ArchiveError(self.path, f"its options cannot be read ({error})") from error

    def _meta(self, name: str) -> str | None:
        row = self._query("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        return None if row is None else str(row[0])

    def _query(self, sql: str, values: Sequence[Any] = ()) -> sqlite3.Cursor:
        try:
            return self._connection.execute(sql, values)
        except sqlite3.Error as error:
            raise self._error(error, "it cannot be read") from error

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> ArchiveIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def engine(self) -> str:
        return self._meta("engine") or ""

    # --- what an add reads through (core.archive.add's store): contents already archived ----

    def batch_documents(self, keys: Iterable[str]) -> dict[str, BatchDocument]:
        """Records already in the index by cache key (their files need not be read again)."""
        found: dict[str, BatchDocument] = {}
        reader = codec(BatchDocument)
        for chunk in _chunks(list(dict.fromkeys(keys))):
            marks = ",".join("?" * len(chunk))
            for key, blob in self._query(
                f"SELECT key, record FROM contents WHERE key IN ({marks})", chunk
            ):
                try:
                    found[key] = reader.decode(blob)
                except CodecError:
                    continue  # (from another build: read again)
        return found

    def document_blobs(self, keys: Iterable[str]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        for chunk in _chunks(list(dict.fromkeys(keys))):
            marks = ",".join("?" * len(chunk))
            found.update(
                self._query(f"SELECT key, document FROM contents WHERE key IN ({marks})", chunk)
            )
        return found

    # --- writing --------------------------------------------------------------------------

    def _write(self, change: Any) -> None:
        """Runs `change(connection)` in one immediate transaction."""
        if self.read_only:
            raise ArchiveError(self.path, "it is read-only: nothing can be added or removed")
        connection = self._connection
        try:
            if not self._writing:
                connection.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
                self._writing = True
            connection.execute("BEGIN IMMEDIATE")
            try:
                change(connection)
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")
        except sqlite3.Error as error:
            raise self._error(error, "it cannot be written") from error

    def _order_of(self, connection: sqlite3.Connection, stems: Iterable[int] | None) -> StemOrder:
        """The frozen stem order: for `stems` only (a check needs no more), or all of it."""
        if stems is None:
            return _full_order(connection)
        counts = dict(
            _select_in(
                connection, "SELECT stem, sentences FROM stem_order WHERE stem IN ({})", list(stems)
            )
        )
        return StemOrder(counts, _order_sample(connection))

    def file_members(
        self,
        loaded: Sequence[tuple[Submission, BatchDocument, str]],
        entries: Sequence[PackedEntry] = (),
        prepared: Mapping[str, Prepared] | None = None,
    ) -> tuple[int, int]:
        """Files the `(submission, record, cache key)` of an add, with the new contents read
        for them (`entries`, stored first) and what was prepared of them where they were read
        (`prepared`, by cache key: then the record may be its summary alone): each content
        not yet filed under its keys is filed, and each file becomes a member (a changed
        file's member now points at its new content; a content no member points at any more
        is removed with its keys). The first documents ever filed make the stem order. One
        transaction: contents, keys and members land together or not at all. Returns how many
        members are new, and how many now point at a changed content."""
        added = updated = 0
        if not loaded:
            return added, updated

        def change(connection: sqlite3.Connection) -> None:
            nonlocal added, updated
            connection.executemany(
                "INSERT OR IGNORE INTO contents (key, record, document) VALUES (?, ?, ?)",
                entries,
            )
            ids = self._content_ids(connection, [key for _, _, key in loaded])
            wanted = list(dict.fromkeys(ids[key] for _, _, key in loaded))
            unfiled = {
                c
                for (c,) in _select_in(
                    connection, "SELECT id FROM contents WHERE indexed = 0 AND id IN ({})", wanted
                )
            }
            # each new content's sentence keys and sentences that could hold a strong seed
            # (as stem hashes, what the word keys and the units table are made of): prepared
            # from what was handed on where it was read (`prepared`), or here, all at once
            new: list[tuple[int, Prepared | None, BatchDocument]] = []
            for _, record, key in loaded:
                content = ids[key]
                if content in unfiled:
                    unfiled.discard(content)
                    new.append((content, (prepared or {}).get(key), record))
            here = iter(prepare_all([hand_on(r) for _, ready, r in new if ready is None]))
            fresh = [(c, ready if ready is not None else next(here)) for c, ready, _ in new]
            read = UnitRows.of([ready.units for _, ready in fresh])
            counts, sentences = read.counts, read.units()
            made = connection.execute("SELECT 1 FROM meta WHERE name = 'stem_order'").fetchone()
            if made is None:  # the archive's first documents: the order is made from them
                _make_order(connection, sentences)
            order = self._order_of(connection, None)
            keys = [np.frombuffer(ready.sentence_keys, dtype="<i8") for _, ready in fresh]
            sentence_rows = np.zeros(sum(map(len, keys)), dtype=DTYPES[KeyKind.SENTENCE])
            if keys:
                sentence_rows["key"] = np.concatenate(keys)
                sentence_rows["content"] = np.repeat([c for c, _ in fresh], list(map(len, keys)))
            store.write_segment(connection, KeyKind.SENTENCE, sentence_rows)
            connection.executemany(
                "INSERT OR REPLACE INTO units (content, sentences, stems) VALUES (?, ?, ?)",
                [(c, n, ready.units) for (c, ready), n in zip(fresh, counts.tolist(), strict=True)],
            )
            contents = np.repeat(np.array([c for c, _ in fresh], dtype=np.int64), counts)
            _file_word_keys(connection, order, contents, sentences)
            connection.executemany(
                "UPDATE contents SET indexed = 1 WHERE id = ?", [(c,) for c, _ in fresh]
            )
            old = dict(
                _select_in(
                    connection,
                    "SELECT path, content FROM members WHERE path IN ({})",
                    [str(s.path) for s, _, _ in loaded],
                )
            )
            now = time.time()
            rows = []
            for submission, _, key in loaded:
                path = str(submission.path)
                modified, size = _stat(submission.path)
                rows.append((path, ids[key], submission.group, modified, size, now))
                if path not in old:
                    added += 1
                elif old[path] != ids[key]:
                    updated += 1
            connection.executemany(
                "INSERT INTO members (path, content, grp, modified, size, added) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (path) DO UPDATE SET "
                "added = CASE WHEN content = excluded.content THEN added ELSE excluded.added END, "
                "content = excluded.content, grp = excluded.grp, modified = excluded.modified, "
                "size = excluded.size",
                rows,
            )
            _drop_orphans(connection, set(old.values()) - set(ids.values()))
            _summarise(connection)
            _make_order_again_if_small(connection)

        self._write(change)
        self._merge_what_is_due()
        return added, updated

    def _merge_what_is_due(self) -> None:
        """Merges segments while FANOUT of a level are there, one merge a transaction (a crash
        between two leaves the index whole, less merged)."""
        merged = True

        def change(connection: sqlite3.Connection) -> None:
            nonlocal merged
            merged = False
            for kind in KeyKind:
                merging = store.due(connection, kind)
                if merging:
                    _merge(connection, kind, merging)
                    merged = True
                    return

        while merged:
            self._write(change)

    def _content_ids(self, connection: sqlite3.Connection, keys: Sequence[str]) -> dict[str, int]:
        return dict(_select_in(connection, "SELECT key, id FROM contents WHERE key IN ({})", keys))

    def remove(self, paths: Iterable[str | Path]) -> list[Path]:
        """Removes the members at `paths` and under them (a folder), and the contents and keys
        no member needs any more. Returns the members removed."""
        removed: list[Path] = []

        def change(connection: sqlite3.Connection) -> None:
            contents: set[int] = set()
            for raw in paths:
                rows = connection.execute(
                    "SELECT path, content FROM members WHERE path = ? OR (path >= ? AND path < ?)",
                    _under(raw),
                ).fetchall()
                for member, content in rows:
                    removed.append(Path(member))
                    contents.add(content)
                connection.executemany(
                    "DELETE FROM members WHERE path = ?", [(p,) for p, _ in rows]
                )
            _drop_orphans(connection, contents)
            _summarise(connection)

        self._write(change)
        return removed

    def drop_unused(self) -> int:
        """Removes contents no member points at (left by an add that was stopped)."""
        gone = 0

        def change(connection: sqlite3.Connection) -> None:
            nonlocal gone
            unused = {
                c
                for (c,) in connection.execute(
                    "SELECT id FROM contents WHERE id NOT IN (SELECT content FROM members)"
                )
            }
            gone = len(unused)
            _drop_orphans(connection, unused)
            _summarise(connection)

        self._write(change)
        return gone

    # --- reading --------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._summary()[0]

    def _summary(self) -> tuple[int, int, float | None, float | None]:
        """The members, their distinct contents, and their first and last modification
        times: kept in meta by every write that changes the members (`_summarise`), so that
        a check does not count 100,000 rows."""
        try:
            return _summary(self._connection)
        except sqlite3.Error as error:
            raise self._error(error, "it cannot be read") from error

    def info(self) -> ArchiveInfo:
        documents, contents, first, last = self._summary()
        size = 0
        for suffix in ("", "-wal"):
            with contextlib.suppress(OSError):
                size += Path(f"{self.path}{suffix}").stat().st_size
        return ArchiveInfo(
            path=self.path,
            documents=documents,
            contents=contents,
            first_year=time.localtime(first).tm_year if first is not None else None,
            last_year=time.localtime(last).tm_year if last is not None else None,
            bytes=size,
            options=self.options,
            engine=self.engine,
        )

    def members(self, under: str | Path | None = None) -> Iterator[Member]:
        """Every member (under a folder or path), by path."""
        if under is None:
            cursor = self._query(
                "SELECT path, content, grp, modified, size, added FROM members ORDER BY path"
            )
        else:
            cursor = self._query(
                "SELECT path, content, grp, modified, size, added FROM members WHERE path = ? "
                "OR (path >= ? AND path < ?) ORDER BY path",
                _under(under),
            )
        for path_text, content, group, modified, size, added in cursor:
            yield Member(Path(path_text), content, group, modified, size, added)

    def members_of(self, contents: Iterable[int]) -> list[Member]:
        rows = _select_in(
            self._connection,
            "SELECT path, content, grp, modified, size, added FROM members WHERE content IN ({})",
            list(contents),
            self._error,
        )
        return [Member(Path(p), c, g, m, s, a) for p, c, g, m, s, a in rows]

    def count_members(self, paths: Iterable[Path]) -> int:
        """How many of `paths` are archived files."""
        rows = _select_in(
            self._connection,
            "SELECT count(*) FROM members WHERE path IN ({})",
            [str(p) for p in paths],
            self._error,
        )
        return sum(int(n) for (n,) in rows)

    def sentence_postings(self, keys: Iterable[int]) -> dict[int, list[int]]:
        """sentence key -> the contents filed under it."""
        found: dict[int, list[int]] = {}
        postings = self._postings(KeyKind.SENTENCE, keys)
        for key, content in zip(
            postings["key"].tolist(), postings["content"].tolist(), strict=True
        ):
            found.setdefault(key, []).append(content)
        return found

    def _postings(self, kind: KeyKind, keys: Iterable[int]) -> store.Postings:
        wanted = np.fromiter(keys, dtype=np.int64)
        try:
            return store.lookup(self._connection, kind, wanted, filters=self._filters)
        except sqlite3.Error as error:
            raise self._error(error, "it cannot be read") from error

    def word_postings(self, keys: Iterable[int]) -> store.Postings:
        """The postings filed under the word `keys` (`DTYPES[KeyKind.WORD]`)."""
        return self._postings(KeyKind.WORD, keys)

    def stem_order(self, stems: Iterable[int]) -> StemOrder:
        """The stem order, read for `stems` (hashes) only."""
        try:
            return self._order_of(self._connection, stems)
        except sqlite3.Error as error:
            raise self._error(error, "it cannot be read") from error

    def open_among(self, keys: Iterable[int]) -> set[int]:
        """Those of the word `keys` that are open (filed under longer keys)."""
        return _open_among(self._connection, keys, self._error)

    def unit_stems(self, units: Iterable[tuple[int, int]]) -> dict[tuple[int, int], frozenset[int]]:
        """(content, unit) -> that archived sentence's stems (hashes)."""
        wanted = np.unique(
            np.fromiter(((content << 32) | unit for content, unit in units), dtype=np.int64)
        )
        try:
            found, stems = _units_at(self._connection, wanted)
        except sqlite3.Error as error:
            raise self._error(error, "it cannot be read") from error
        return {
            (at >> 32, at & 0xFFFFFFFF): stems.stems_of(k) for k, at in enumerate(found.tolist())
        }

    def records(self, contents: Iterable[int]) -> dict[int, BatchDocument]:
        """The stored records of `contents` (one that cannot be read is an ArchiveError: the
        archive is the only copy)."""
        return self._decoded("record", BatchDocument, contents)

    def documents(self, contents: Iterable[int]) -> dict[int, Document]:
        """The whole stored Documents of `contents` (their text, for evidence)."""
        return self._decoded("document", Document, contents)

    def _decoded(self, column: str, kind: type[T], contents: Iterable[int]) -> dict[int, T]:
        reader = codec(kind)
        found: dict[int, T] = {}
        for content, blob in _select_in(
            self._connection,
            f"SELECT id, {column} FROM contents WHERE id IN ({{}})",
            list(contents),
            self._error,
        ):
            try:
                found[content] = reader.decode(blob)
            except CodecError as error:
                raise ArchiveError(
                    self.path, f"a document in it cannot be read ({error}); it is damaged"
                ) from error
        return found

    def document_at(self, path: str | Path) -> Document | None:
        """The stored Document of the archived file at `path` (None if it is not archived)."""
        row = self._query(
            "SELECT content FROM members WHERE path = ?", (str(Path(path)),)
        ).fetchone()
        if row is None:
            return None
        return self.documents([row[0]]).get(row[0])

    def all_contents(self) -> list[int]:
        return [c for (c,) in self._query("SELECT DISTINCT content FROM members ORDER BY content")]


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def _under(raw: str | Path) -> tuple[str, str, str]:
    """The path itself, and the bounds of every path below it as a folder (for a range
    query: the separator, and the character after it)."""
    path = str(Path(raw).absolute()).rstrip(os.sep) or os.sep
    below = path if path.endswith(os.sep) else path + os.sep
    return path, below, below[:-1] + chr(ord(os.sep) + 1)


def _stat(path: Path) -> tuple[float, int]:
    try:
        info = path.stat()
    except OSError:
        return time.time(), 0
    return info.st_mtime, info.st_size


def _chunks(values: Sequence[Any]) -> Iterator[Sequence[Any]]:
    for start in range(0, len(values), _CHUNK):
        yield values[start : start + _CHUNK]


def _select_in(
    connection: sqlite3.Connection,
    sql: str,
    values: Sequence[Any],
    error: Any = None,
) -> list[tuple[Any, ...]]:
    """Rows of `sql` (with one `IN ({})`) over `values`, a chunk at a time."""
    rows: list[tuple[Any, ...]] = []
    try:
        for chunk in _chunks(list(dict.fromkeys(values))):
            rows += connection.execute(sql.format(",".join("?" * len(chunk))), chunk).fetchall()
    except sqlite3.Error as failure:
        if error is None:
            raise
        raise error(failure, "it cannot be read") from failure
    return rows


#: what `_summarise` keeps in meta
_SUMMARY = ("documents", "contents", "first_modified", "last_modified")


def _summarise(connection: sqlite3.Connection) -> None:
    """Counts the members (in the transaction that changed them) into meta."""
    documents, contents, first, last = _counted(connection)
    connection.executemany(
        "INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?)",
        [
            (n, "" if v is None else repr(v))
            for n, v in zip(_SUMMARY, (documents, contents, first, last), strict=True)
        ],
    )


def _counted(connection: sqlite3.Connection) -> tuple[int, int, float | None, float | None]:
    documents, contents, first, last = connection.execute(
        "SELECT count(*), count(DISTINCT content), min(modified), max(modified) FROM members"
    ).fetchone()
    return int(documents), int(contents), first, last


def _summary(connection: sqlite3.Connection) -> tuple[int, int, float | None, float | None]:
    """What `_summarise` kept (counted when it is not there)."""
    kept = dict(
        connection.execute(
            f"SELECT name, value FROM meta WHERE name IN ({','.join('?' * len(_SUMMARY))})",
            _SUMMARY,
        ).fetchall()
    )
    if len(kept) < len(_SUMMARY):
        return _counted(connection)
    first, last = (float(kept[n]) if kept[n] else None for n in _SUMMARY[2:])
    return int(kept["documents"]), int(kept["contents"]), first, last


def _drop_orphans(connection: sqlite3.Connection, contents: Iterable[int]) -> None:
    """Removes those of `contents` no member points at, with their postings (taken out of the
    buckets of their keys, found again from the record, the units and the frozen order; an
    index left with no content is emptied)."""
    order: StemOrder | None = None
    reader = codec(BatchDocument)
    filters = store.Filters()
    for content in contents:
        used = connection.execute(
            "SELECT 1 FROM members WHERE content = ? LIMIT 1", (content,)
        ).fetchone()
        if used is not None:
            continue
        row = connection.execute("SELECT record FROM contents WHERE id = ?", (content,)).fetchone()
        if row is None:
            continue
        gone = frozenset({content})
        try:
            keys = sentence_keys(reader.decode(row[0]).signature).all()
        except CodecError:  # (unreadable: its postings are found the slow way)
            store.purge(connection, KeyKind.SENTENCE, None, gone)
        else:
            held_keys = np.fromiter(keys, dtype=np.int64)
            store.purge(connection, KeyKind.SENTENCE, held_keys, gone, filters)
        if order is None:
            order = _full_order(connection)
        units = word_units(_units_of(connection, content), order)
        filed = unit_keys(units, lambda keys, _: _open_among(connection, keys))
        words = np.fromiter((key.key for keys in filed for key in keys), dtype=np.int64)
        store.purge(connection, KeyKind.WORD, words, gone, filters)
        connection.execute("DELETE FROM units WHERE content = ?", (content,))
        connection.execute("DELETE FROM contents WHERE id = ?", (content,))
    if connection.execute("SELECT 1 FROM contents LIMIT 1").fetchone() is None:
        for kind in KeyKind:  # (what is left is under open keys: nothing a check reads)
            store.clear(connection, kind)


def _full_order(connection: sqlite3.Connection) -> StemOrder:
    counts = dict(connection.execute("SELECT stem, sentences FROM stem_order"))
    return StemOrder(counts, _order_sample(connection))


def _order_sample(connection: sqlite3.Connection) -> int:
    """The sentences the order was made from."""
    row = connection.execute("SELECT value FROM meta WHERE name = 'stem_order'").fetchone()
    return int(row[0]) if row is not None else 0


def _open_line(connection: sqlite3.Connection) -> OpenLine:
    """When a word key opens, as the index was made (an index made before lines grew with the
    key's length keeps one line for all)."""
    meta = dict(
        connection.execute(
            "SELECT name, value FROM meta WHERE name IN ('open_above', 'open_growth')"
        )
    )
    return OpenLine(int(meta.get("open_above", OPEN_ABOVE)), int(meta.get("open_growth", 1)))


def _open_among(connection: sqlite3.Connection, keys: Iterable[int], error: Any = None) -> set[int]:
    return {
        k
        for (k,) in _select_in(
            connection, "SELECT key FROM open_keys WHERE key IN ({})", list(keys), error
        )
    }


def _units_at(connection: sqlite3.Connection, wanted: Ints) -> tuple[Ints, UnitStems]:
    """Of `wanted` (sentences as content << 32 | unit, sorted, distinct), those the units
    table holds (sorted) and their stems: the rows of their contents, a few thousand a query,
    and the wanted sentences picked from them."""
    contents = np.unique(wanted >> 32).tolist()
    owners: list[int] = []
    blobs: list[bytes] = []
    for start in range(0, len(contents), store.IN_LIST):
        part = contents[start : start + store.IN_LIST]
        for content, blob in connection.execute(
            f"SELECT content, stems FROM units WHERE content IN ({','.join('?' * len(part))})",
            part,
        ):
            owners.append(content)
            blobs.append(blob)
    read = _parsed(blobs)
    places = (np.array(owners, dtype=np.int64)[read.row] << 32) | read.numbers
    arrangement = np.argsort(places, kind="stable")
    places = places[arrangement]
    at = np.minimum(np.searchsorted(places, wanted), max(len(places) - 1, 0))
    hit = places[at] == wanted if len(places) else np.zeros(len(wanted), dtype=np.bool_)
    return wanted[hit], read.units(arrangement[at[hit]])


def _parsed(blobs: list[bytes]) -> UnitRows:
    """Units rows read from the index (a row that is not one: damage)."""
    try:
        return UnitRows.of(blobs)
    except DamagedUnits as error:
        raise store.damaged(str(error)) from error


def _file_word_keys(
    connection: sqlite3.Connection, order: StemOrder, contents: Ints, sentences: UnitStems
) -> None:
    """Files each of `sentences` (enough stems for a strong seed; `contents`: each one's
    content) under its word keys, as a new segment: the keys the open keys give it, each key
    the sentences fill past its line opened as they are keyed (`_Opener.filling`: they go on
    to its longer keys in place), the archived sentences under the keys so opened filed
    under their longer keys with them (`_Opener.moved_in`), and, for each key these fill
    past its line, that key opened (`_Opener.settle`)."""
    opener = _Opener(connection, order)
    units = unit_arrays(sentences, order)
    filed = chunk_keys(units, opener.filling)
    filed = filed.at(np.argsort(filed.key, kind="stable"))  # (the postings in key order)
    numbers = sentences.numbers
    postings = _word_postings(filed, contents, numbers, units, masks_after(units))
    moved = opener.moved_in()
    if len(moved):
        postings = store.merged(KeyKind.WORD, postings, store.by_key(moved))
    store.write_segment(connection, KeyKind.WORD, opener.settle(postings))


def _word_postings(
    filed: FiledKeys, contents: Ints, numbers: Ints, units: UnitArrays, masks: NDArray[np.uint64]
) -> store.Postings:
    """Postings of `filed` (keys of `units`, whose contents and numbers are given, and each
    stem's mask of the stems after it: `masks_after`)."""
    postings = np.zeros(len(filed.key), dtype=DTYPES[KeyKind.WORD])
    postings["key"] = filed.key
    postings["content"] = contents[filed.unit]
    postings["unit"] = numbers[filed.unit]
    postings["position"] = filed.position
    postings["size"] = units.sizes[filed.unit]
    postings["length"] = filed.length
    postings["mask"] = masks[units.starts[filed.unit] + filed.position]  # (its key's last stem's)
    return postings


class _Opener:
    """Opens word keys that get too full: each goes into open_keys, and every sentence filed
    under it is filed under its longer keys instead, so every archived sentence stays filed
    under exactly the keys the open keys give it (`core.archive.keys.unit_keys`). A key opens
    when the postings being written (a filing's, or a merge's) hold more under it than its
    line: a key's postings in the index are at most its line in each segment."""

    def __init__(self, connection: sqlite3.Connection, order: StemOrder) -> None:
        self.connection = connection
        self.order = order
        self.filters = store.Filters()
        self.line = _open_line(connection)
        self.opened = np.sort(
            np.fromiter(
                (k for (k,) in connection.execute("SELECT key FROM open_keys")), dtype=np.int64
            )
        )
        self._open_table: KeyTable | None = None
        self.opening: list[Ints] = []  # (keys `filling` opened, for `moved_in`)

    def is_open(self, keys: Ints) -> NDArray[np.bool_]:
        if self._open_table is None:  # (made again when keys open)
            self._open_table = KeyTable(self.opened)
        return self._open_table.holds(keys)

    def filling(self, keys: Ints, length: int) -> NDArray[np.bool_]:
        """Which of `keys` (of `length` stems, shorter than LONGEST: a filing's keys, each as
        many times as its sentences reach it) are open, opening those not yet open that they
        fill past their line (`core.archive.chunk_keys.chunk_keys`' question: the sentences
        being filed go on to the longer keys at once, from the stems they have in hand,
        instead of being filed and then read back as `settle` does). The keys so opened
        wait in `opening` until `moved_in` moves what the index holds under them."""
        is_open = self.is_open(keys)
        shut = keys[~is_open]
        if not len(shut):
            return is_open
        full = more_than(shut, self.line.at(length))
        if not len(full):
            return is_open
        self._opened(full)
        self.opening.append(full)
        opened: NDArray[np.bool_] = is_open | store.among(keys, full)
        return opened

    def moved_in(self) -> store.Postings:
        """Every posting the index holds under the keys `filling` opened, filed under its
        longer keys (through those open too), in no order."""
        opening = np.concatenate(self.opening) if self.opening else np.zeros(0, dtype=np.int64)
        self.opening = []
        if not len(opening):
            return store.empty(KeyKind.WORD)
        moved = self.longer(
            store.lookup(self.connection, KeyKind.WORD, opening, filters=self.filters)
        )
        settled: list[store.Postings] = []
        while len(moved):
            on = (moved["length"] < LONGEST) & self.is_open(moved["key"])
            settled.append(store.picked(moved, ~on))
            moved = self.longer(store.picked(moved, on)) if on.any() else store.empty(KeyKind.WORD)
        return store.joined(KeyKind.WORD, settled)

    def _opened(self, keys: Ints) -> None:
        """Records `keys` (sorted, distinct) as open."""
        self.connection.executemany(
            "INSERT OR IGNORE INTO open_keys (key) VALUES (?)", [(k,) for k in keys.tolist()]
        )
        self.opened = np.union1d(self.opened, keys)
        self._open_table = None

    def full(self, postings: store.Postings) -> Ints:
        """The keys shorter than LONGEST `postings` hold more of than their line (sorted)."""
        short = postings["length"] < LONGEST
        keys, lengths = postings["key"][short], postings["length"][short]
        if not len(keys):
            return np.zeros(0, dtype=np.int64)
        if not store.ascending(keys):
            order = np.argsort(keys)
            keys, lengths = keys[order], lengths[order]
        starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
        counts = np.diff(np.append(starts, len(keys)))
        line = self.line.above * self.line.growth ** (lengths[starts].astype(np.int64) - 1)
        full: Ints = keys[starts][counts > line]
        return full

    def open(
        self, postings: store.Postings, leaving_out: frozenset[int] = frozenset()
    ) -> tuple[store.Postings, store.Postings]:
        """Opens the keys `postings` (in key order) fill: returns the postings under other
        keys, and every posting under the opened keys, here and in the index's segments (but
        those `leaving_out`), filed under its longer keys."""
        staying, moved = self._open(postings, leaving_out)
        return (postings if staying.all() else store.picked(postings, staying)), moved

    def _open(
        self, postings: store.Postings, leaving_out: frozenset[int] = frozenset()
    ) -> tuple[NDArray[np.bool_], store.Postings]:
        """`open`, the postings under other keys told by a mask (`postings` in key order)."""
        full = self.full(postings)
        if not len(full):
            return np.ones(len(postings), dtype=np.bool_), store.empty(KeyKind.WORD)
        self._opened(full)
        moving = store.among_sorted(postings["key"], full)
        archived = store.lookup(
            self.connection, KeyKind.WORD, full, leaving_out=leaving_out, filters=self.filters
        )
        return ~moving, self.longer(
            store.joined(KeyKind.WORD, [store.picked(postings, moving), archived])
        )

    def settle(
        self, postings: store.Postings, leaving_out: frozenset[int] = frozenset()
    ) -> store.Postings:
        """`postings` (to be written as a segment) with every key they fill opened, until none
        is over its line, in key order. After the first round only the keys of the postings
        just moved can be newly full: each round counts those keys' postings alone (those of
        `postings` still there, told by a mask, and those of earlier rounds: copied once).
        Keys are looked up in every segment but those `leaving_out`."""
        postings = store.by_key(postings)
        staying, moved = self._open(postings, leaving_out)
        rounds: list[store.Postings] = []  # (what each later round left in place, by key)
        while len(moved):
            wanted = np.unique(moved["key"])
            counting = staying & store.among_sorted(postings["key"], wanted)
            staying &= ~counting
            counted = [store.picked(postings, counting), moved]
            for k, earlier in enumerate(rounds):
                again = store.among_sorted(earlier["key"], wanted)
                if again.any():
                    counted.append(store.picked(earlier, again))
                    rounds[k] = store.picked(earlier, ~again)
            these = store.by_key(store.joined(KeyKind.WORD, counted))
            stay, moved = self._open(these, leaving_out)
            rounds.append(store.picked(these, stay))
        if not rounds and staying.all():  # (nothing was full)
            return postings
        settled = store.by_key(store.joined(KeyKind.WORD, rounds))
        return store.merged(KeyKind.WORD, store.picked(postings, staying), settled)

    def longer(self, postings: store.Postings) -> store.Postings:
        """Each of `postings` (a sentence under a key now open) under its keys one stem
        longer (`core.archive.chunk_keys.longer`, on the sentence's stems in the order)."""
        if not len(postings):
            return postings
        where = (postings["content"].astype(np.int64) << 32) | postings["unit"].astype(np.int64)
        wanted, which = np.unique(where, return_inverse=True)
        pairs, sentences = _units_at(self.connection, wanted)
        # (a sentence no longer in the units table has nothing left to file)
        known = store.among(wanted, pairs)
        if not known.all():
            held = known[which]
            postings = store.picked(postings, held)
            which = (np.cumsum(known) - 1)[which[held]]
        units = unit_arrays(sentences, self.order)
        masks = masks_after(units)
        moved: list[store.Postings] = []
        for length in range(1, LONGEST):
            at = postings["length"] == length
            if at.any():
                filed = FiledKeys(
                    which[at].astype(np.int64),
                    postings["key"][at],
                    postings["position"][at].astype(np.int64),
                    np.full(int(at.sum()), length, dtype=np.int64),
                )
                moved.append(
                    _word_postings(
                        longer(units, filed, length),
                        pairs >> 32,
                        pairs & 0xFFFFFFFF,
                        units,
                        masks,
                    )
                )
        return store.joined(KeyKind.WORD, moved)


def _merge(connection: sqlite3.Connection, kind: KeyKind, merging: Sequence[store.Segment]) -> None:
    """Merges `merging` into one segment. Word postings under open keys are dropped (their
    sentences are filed under longer keys already), and the keys a merged range fills past
    their line are opened: their postings, filed under longer keys, are written as new
    segments, one each time MOVED_POSTINGS of them are held (what a merge holds stays
    bounded, however large the segments merged)."""
    if kind is KeyKind.SENTENCE:
        store.merge(connection, kind, merging, lambda postings, _: postings)
        return
    opener = _Opener(connection, _full_order(connection))
    moved: list[store.Postings] = []
    sources = frozenset(s.id for s in merging)

    def write_moved(leaving_out: frozenset[int] = frozenset()) -> None:
        store.write_segment(connection, kind, opener.settle(store.joined(kind, moved), leaving_out))
        moved.clear()

    def keep(postings: store.Postings, merged: frozenset[int]) -> store.Postings:
        postings = store.by_key(postings)
        kept, more = opener.open(store.picked(postings, ~opener.is_open(postings["key"])), merged)
        moved.append(more)
        if sum(map(len, moved)) >= MOVED_POSTINGS:
            # (mid-merge, a key these fill is looked up in the segments being merged, still
            # whole, and not in the one being written: each of its postings is moved once)
            write_moved(leaving_out=merged - sources)
        return kept

    store.merge(connection, kind, merging, keep)
    write_moved()


def _units_of(connection: sqlite3.Connection, content: int) -> list[tuple[int, frozenset[int]]]:
    row = connection.execute("SELECT stems FROM units WHERE content = ?", (content,)).fetchone()
    if row is None:
        return []
    units = _parsed([row[0]]).units()
    return [(n, units.stems_of(k)) for k, n in enumerate(units.numbers.tolist())]


def _make_order(connection: sqlite3.Connection, units: UnitStems) -> None:
    """Makes the stem order from `units` (the archive's sentences so far, each its distinct
    stems): the sentences holding each stem (a stem in one sentence only is left out: it
    ranks as one never seen, as rare as can be, which keeps names, typos and one-off words
    out of the table)."""
    stems, counts = np.unique(units.stems, return_counts=True)
    shared = counts > 1
    connection.execute("DELETE FROM stem_order")
    connection.executemany(
        "INSERT INTO stem_order (stem, sentences) VALUES (?, ?)",
        zip(stems[shared].tolist(), counts[shared].tolist(), strict=True),
    )
    connection.execute(
        "INSERT OR REPLACE INTO meta (name, value) VALUES ('stem_order', ?)", (str(len(units)),)
    )


def _make_order_again_if_small(connection: sqlite3.Connection) -> None:
    """While the order was made from fewer than SAMPLE_UNITS sentences and the archive now
    holds twice as many, it is made again from all of them and every word key filed again
    (a first add of a handful of documents does not decide the order for good). Bounded: it
    happens only while the archive is small."""
    row = connection.execute("SELECT value FROM meta WHERE name = 'stem_order'").fetchone()
    sample = int(row[0]) if row is not None else 0
    if sample >= SAMPLE_UNITS:
        return
    (total,) = connection.execute("SELECT coalesce(sum(sentences), 0) FROM units").fetchone()
    if total < 2 * max(sample, 1):
        return
    rows = connection.execute("SELECT content, stems FROM units").fetchall()
    read = _parsed([blob for _, blob in rows])
    counts, everything = read.counts, read.units()
    _make_order(connection, everything)
    order = _full_order(connection)
    store.clear(connection, KeyKind.WORD)
    connection.execute("DELETE FROM open_keys")
    owners = np.repeat(np.array([c for c, _ in rows], dtype=np.int64), counts)
    _file_word_keys(connection, order, owners, everything)


__all__ = ["ArchiveError", "ArchiveIndex", "ArchiveInfo", "Member", "key_hash"]

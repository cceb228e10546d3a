"""An on-disk cache of analysed documents, so a second check of the same folder does not parse
unchanged files again.

SQLite, in the platform's cache folder. The key is the file's content hash, the engine version
and the options that shape a signature: change any of them and the entry is simply not found.
Writes are transactions (a crash mid-run leaves every committed entry usable).

The cache never trusts and never destroys what it did not make (docs/batch.md, "The document
cache"). A cache file identifies itself (`core.batch.cache_file`: SQLite's application id
"Dopl" and a `meta` table with the format); a file named as the cache that is not recognisably
Doppel's (an essay, another program's database, an empty file) is refused with `CacheRefused`
and left byte for byte as it was. Only a Doppel cache (or one made by an earlier build) is
rebuilt, when it is damaged or of another format. A cache that cannot be used (a folder, locked
by another program for longer than the timeout, read-only, on a full disk) is not an error: the
check runs without it, or without writing to it, and `notices` says why (the command line prints
them). Locked is never taken for damaged.

Values are typed, compressed JSON (`core.batch.cache_codec`), not pickles: a row cannot run
code, and one that is not a well-typed value of the allow-listed classes (`CACHED_CLASSES`) is a
miss, counted in `misses`.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar, cast

from platformdirs import user_cache_dir

from core import ENGINE_VERSION
from core.batch.cache_codec import Codec, CodecError
from core.batch.cache_file import (
    DAMAGED,
    LOCKED,
    CacheRefused,
    Kind,
    build,
    clear_orphan_logs,
    error_code,
    identify,
    os_reason,
    put_in_place,
    sqlite_reason,
)
from core.batch.common_text import DocumentFingerprints
from core.batch.result import BatchDocument
from core.detection.reworded import WordProfile, document_profile
from core.documents.document import Document, load_document
from core.documents.excluded_spans import ExcludedSpan
from core.documents.extract import MAX_FILE_BYTES
from core.documents.sentences import Sentence, Term
from core.documents.signature import Signature
from core.documents.tampering import Tampering
from core.fingerprint import file_sha256
from core.options import SignatureOptions

__all__ = [
    "CACHE_FORMAT",
    "CacheRefused",
    "DocumentCache",
    "cache_key",
    "content_hash_of",
    "load_via_cache",
    "pack_entry",
    "pack_fingerprints",
    "unpack_document",
]

#: 3: documents carry block quotes and exclusions; 4: the engine's modules moved (core/ grouped
#: by concern) and the summary is the BatchDocument record; 5: the record holds the word
#: profile of the reworded-passage detector; 6: typed JSON rows instead of pickles, the file
#: identifies itself (application id, meta table), documents carry their tampering; 7: a
#: sentence holds its terms as three tuples (texts, starts, ends), not a tuple of Term records
CACHE_FORMAT = 7
#: the common-text fingerprints' format (core.batch.common_text), part of their key
FINGERPRINT_FORMAT = 1
#: seconds to wait for another program's lock on the cache before going on without writing
LOCK_TIMEOUT = 30.0

#: every class a cache row may hold: nothing else is ever built from a row
CACHED_CLASSES: tuple[type, ...] = (
    Document,
    BatchDocument,
    DocumentFingerprints,
    Sentence,
    Term,
    Signature,
    ExcludedSpan,
    SignatureOptions,
    WordProfile,
    Tampering,
)

T = TypeVar("T")
_CODECS: dict[type, Codec[Any]] = {}


def codec(kind: type[T]) -> Codec[T]:
    """The codec of a cached class (made once per process)."""
    if kind not in _CODECS:
        _CODECS[kind] = Codec(kind, CACHED_CLASSES)
    return cast(Codec[T], _CODECS[kind])


#: a cache row: (key, encoded BatchDocument, encoded Document)
PackedEntry = tuple[str, bytes, bytes]


def pack_entry(key: str, document: Document, profile: WordProfile | None = None) -> PackedEntry:
    """(Where the document was made, e.g. a worker.) The row to store for it: the document
    without exclusions, and its record (ranking a folder reads only that: 10,000 essays in
    seconds instead of minutes). `profile`: the document's `document_profile`, when the
    caller made it already (a reader needs it for the record too)."""
    if profile is None:
        profile = document_profile(document)
    record = BatchDocument.of(document, profile=profile)
    return key, codec(BatchDocument).encode(record), codec(Document).encode(document)


def unpack_document(blob: bytes) -> Document | None:
    """(Where the document is needed, e.g. a worker.) A document row's Document, or None if
    the row is not one (from an incompatible build, damaged or crafted)."""
    try:
        return codec(Document).decode(blob)
    except CodecError:
        return None


def pack_fingerprints(fingerprints: DocumentFingerprints) -> bytes:
    """A fingerprints row's value."""
    return codec(DocumentFingerprints).encode(fingerprints)


def fingerprint_key(key: str, phrase_words: int) -> str:
    """The fingerprints row of the document whose entry has `key`, for phrases of that length."""
    return hashlib.sha256(
        f"{key}|fingerprints|{FINGERPRINT_FORMAT}|{phrase_words}".encode()
    ).hexdigest()


def default_cache_path() -> Path:
    return Path(user_cache_dir("Doppel", "Doppel")) / "documents.sqlite3"


def cache_key(content_hash: str, options: SignatureOptions) -> str:
    shape = (
        f"{CACHE_FORMAT}|{ENGINE_VERSION}|{options.language}|{options.remove_stopwords}|"
        f"{options.length_cap}|{options.key_size}|{content_hash}"
    )
    return hashlib.sha256(shape.encode()).hexdigest()


class DocumentCache:
    """The cache file at `path` (the platform's when None). Raises `CacheRefused` if the file
    there is not a Doppel cache; never raises for a cache that cannot be used (see `notices`).

    `timeout`: seconds to wait for another connection's lock (`LOCK_TIMEOUT` when None);
    `notify`: called with each notice as it happens (they are kept in `notices` too)."""

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        timeout: float | None = None,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        self.path = Path(path) if path is not None else default_cache_path()
        self.timeout = LOCK_TIMEOUT if timeout is None else timeout
        self.rebuilt = False  # True when a damaged or outdated cache file was replaced
        self.writable = False  # False: read (if open) but never written to
        self.misses = 0  # rows that did not hold a valid value (damaged, crafted, other build)
        self.notices: list[str] = []  # what went wrong with the cache, in plain words
        self._notify = notify
        self._connection: sqlite3.Connection | None = None
        self._open()

    @property
    def usable(self) -> bool:
        """False when the check runs without the cache (see `notices`)."""
        return self._connection is not None

    # --- opening --------------------------------------------------------------------------

    def _open(self) -> None:
        rebuilds = 0
        for _ in range(4):  # a file that appears or changes meanwhile is looked at again
            kind, reason = identify(self.path)
            if kind is Kind.FOREIGN:
                raise CacheRefused(self.path, reason)
            if kind is Kind.UNUSABLE:
                return self._without(reason)
            if kind is Kind.MISSING:
                if not self._make(replace=False):
                    return None
                continue
            damage = None
            if kind is Kind.OURS:
                outcome = self._connect()
                if outcome in ("open", "without"):
                    return None
                if outcome != "outdated":
                    damage = outcome
            if rebuilds:  # rebuilt once already, and still not right
                return self._without("it could not be rebuilt")
            rebuilds += 1
            if not self._make(replace=True):
                return None
            self.rebuilt = True
            if damage is not None:
                self._notice(
                    f"the document cache {self.path} was damaged ({damage}); it was rebuilt"
                )
        return self._without("it kept changing while being opened")

    def _make(self, *, replace: bool) -> bool:
        """Builds a new cache and puts it at the path (over the old one when `replace`: only
        ever a file identified as a cache). False if that failed (then the check runs without
        the cache); True if built, or if something appeared at the path meanwhile."""
        try:
            if not replace:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                in_the_way = clear_orphan_logs(self.path)
                if in_the_way is not None:
                    self._without(in_the_way)
                    return False
            temporary = build(self.path, CACHE_FORMAT)
            put_in_place(temporary, self.path, replace=replace)
        except OSError as error:
            self._without(
                f"it could not be {'rebuilt' if replace else 'made'} ({os_reason(error)})"
            )
            return False
        except sqlite3.Error as error:
            what = "rebuilt" if replace else "made"
            self._without(f"it could not be {what} ({sqlite_reason(error, self.timeout)})")
            return False
        return True

    def _connect(self) -> str:
        """Opens the cache identified as ours: "open" (for reading and writing, or reading
        only), "outdated" (of another format: to rebuild), "without", or else what damage
        SQLite found (to rebuild)."""
        try:
            connection = sqlite3.connect(self.path, timeout=self.timeout)
        except sqlite3.Error as error:
            return self._read_only(sqlite_reason(error, self.timeout))
        try:
            current = self._current(connection)
        except sqlite3.Error as error:
            connection.close()
            code = error_code(error)
            if code in DAMAGED:
                return str(error)
            if code in LOCKED:
                self._without(sqlite_reason(error, self.timeout))
                return "without"
            return self._read_only(sqlite_reason(error, self.timeout))
        if not current:
            connection.close()
            return "outdated"
        self._connection, self.writable = connection, True
        return "open"

    @staticmethod
    def _current(connection: sqlite3.Connection) -> bool:
        """True when the open file is a cache of this build's format (its tables, its meta)."""
        tables = {
            name
            for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        if tables != {"meta", "entries", "fingerprints"}:
            return False
        row = connection.execute("SELECT value FROM meta WHERE name = 'format'").fetchone()
        return row is not None and row[0] == str(CACHE_FORMAT)

    def _read_only(self, reason: str) -> str:
        """The cache could not be opened for writing: read it if it can be read (and is of this
        format), else the check runs without it."""
        uri = f"{self.path.absolute().as_uri()}?mode=ro"
        try:
            connection = sqlite3.connect(uri, uri=True, timeout=self.timeout)
        except sqlite3.Error:
            self._without(reason)
            return "without"
        try:
            current = self._current(connection)
        except sqlite3.Error:
            current = False
        if not current:
            connection.close()
            self._without(reason)
            return "without"
        self._connection, self.writable = connection, False
        self._notice(
            f"the document cache {self.path} cannot be written: {reason}; "
            "this check adds nothing to it"
        )
        return "open"

    # --- when something goes wrong ---------------------------------------------------------

    def _notice(self, text: str) -> None:
        self.notices.append(text)
        if self._notify is not None:
            self._notify(text)

    def _without(self, reason: str) -> None:
        """From now on the check runs without the cache."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        self.writable = False
        self._notice(
            f"the document cache {self.path} cannot be used: {reason}; checking without it"
        )

    def _stop_writing(self, reason: str) -> None:
        if self.writable:
            self.writable = False
            self._notice(
                f"the document cache {self.path} cannot be written: {reason}; "
                "the rest of this check adds nothing to it"
            )

    def _failed(self, error: sqlite3.Error, writing: bool) -> None:
        """An SQLite error while the cache was in use: a damaged file (still ours) is rebuilt;
        locked, read-only or full stops writing (reading goes on); anything else while reading
        stops using it. Never deleted for anything but damage."""
        code = error_code(error)
        if code in DAMAGED:
            self._rebuild_damaged(error)
        elif writing:
            self._stop_writing(sqlite_reason(error, self.timeout))
        else:
            self._without(sqlite_reason(error, self.timeout))

    def _rebuild_damaged(self, error: sqlite3.Error) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        if identify(self.path)[0] is not Kind.OURS:  # no longer what was opened: leave it
            return self._without(f"it is damaged ({error})")
        if self._make(replace=True):
            self.rebuilt = True
            self._notice(f"the document cache {self.path} was damaged ({error}); it was rebuilt")
            if self._connect() not in ("open", "without"):
                self._without("it could not be rebuilt")
        return None

    # --- reading --------------------------------------------------------------------------

    def _rows(
        self, connection: sqlite3.Connection, column: str, keys: Iterable[str], table: str
    ) -> list[tuple[str, bytes]]:
        wanted = list(dict.fromkeys(keys))
        rows: list[tuple[str, bytes]] = []
        for start in range(0, len(wanted), 500):  # SQLite's variable limit
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows += connection.execute(
                f"SELECT key, {column} FROM {table} WHERE key IN ({marks})", chunk
            ).fetchall()
        return rows

    def _blobs(
        self, column: str, keys: Iterable[str], table: str = "entries"
    ) -> list[tuple[str, bytes]]:
        if self._connection is None:
            return []
        try:
            return self._rows(self._connection, column, keys, table)
        except sqlite3.Error as error:
            self._failed(error, writing=False)
            return []

    def _read(self, column: str, keys: Iterable[str], kind: type[T], table: str) -> dict[str, T]:
        found: dict[str, T] = {}
        reader = codec(kind)
        for key, blob in self._blobs(column, keys, table):
            try:
                found[key] = reader.decode(blob)
            except CodecError:  # damaged, crafted, or from an incompatible build: a miss
                self.misses += 1
        return found

    def batch_documents(self, keys: Iterable[str]) -> dict[str, BatchDocument]:
        """The records stored by key, as stored: their path, group and archive are those of
        the file first stored under the key (`BatchDocument.for_submission` sets the file's
        own)."""
        return self._read("summary", keys, BatchDocument, "entries")

    def documents(self, keys: Iterable[str]) -> dict[str, Document]:
        return self._read("document", keys, Document, "entries")

    def document_blobs(self, keys: Iterable[str]) -> dict[str, bytes]:
        """The document rows as stored, for a worker to unpack (`unpack_document`)."""
        return {key: blob for key, blob in self._blobs("document", keys) if type(blob) is bytes}

    def fingerprints(self, keys: Iterable[str]) -> dict[str, DocumentFingerprints]:
        """Common-text fingerprints by `fingerprint_key`."""
        return self._read("data", keys, DocumentFingerprints, "fingerprints")

    # --- writing --------------------------------------------------------------------------

    def _write(self, statement: str, rows: Iterable[tuple[Any, ...]]) -> None:
        batch = list(rows)
        if not batch or self._connection is None or not self.writable:
            return
        try:
            with self._connection:  # one transaction: all of it or nothing
                self._connection.executemany(statement, batch)
        except sqlite3.Error as error:
            self._failed(error, writing=True)

    def put_fingerprints(self, rows: Iterable[tuple[str, bytes]]) -> None:
        """Rows of (`fingerprint_key`, `pack_fingerprints`), in one transaction."""
        self._write("INSERT OR REPLACE INTO fingerprints (key, data) VALUES (?, ?)", rows)

    def put_packed(self, rows: Iterable[PackedEntry]) -> None:
        self._write(
            "INSERT OR REPLACE INTO entries (key, summary, document) VALUES (?, ?, ?)", rows
        )

    def __len__(self) -> int:
        if self._connection is None:
            return 0
        try:
            row = self._connection.execute("SELECT count(*) FROM entries").fetchone()
        except sqlite3.Error as error:
            self._failed(error, writing=False)
            return 0
        return int(row[0])

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def content_hash_of(path: Path) -> str | None:
    """The SHA-256 of a file's bytes (what `Document.content_hash` holds), streamed; None if it
    is not a regular file (a FIFO is never opened, a device never read), is larger than the
    largest document read, or is unreadable: `load_document` then says what is wrong."""
    try:
        return file_sha256(path, max_bytes=MAX_FILE_BYTES)
    except OSError:
        return None


def load_via_cache(
    path: Path,
    options: SignatureOptions,
    cache: DocumentCache | None,
    content_hash: str | None = None,
) -> Document:
    """The whole Document of a file: from the cache when its content (`content_hash`, or its
    bytes now) was analysed with these options, else loaded (raising DocumentError)."""
    if cache is not None:
        digest = content_hash if content_hash is not None else content_hash_of(path)
        if digest is not None:
            found = cache.documents([cache_key(digest, options)])
            if found:
                return next(iter(found.values()))
    return load_document(path, options)

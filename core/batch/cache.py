"""An on-disk cache of analysed documents, so a second check of the same folder does not parse
unchanged files again.

SQLite, in the platform's cache folder. The key is the file's content hash, the engine version
and the options that shape a signature: change any of them and the entry is simply not found.
Writes are transactions (a crash mid-run leaves every committed entry usable); a file that is
not a readable cache (corrupt, truncated, another program's) is deleted and rebuilt. Values
are compressed pickles of `Document`s (and of their `BatchDocument` records, what ranking reads)
that only this program writes, in the user's own folder. A pickle names its classes' modules:
moving or changing a cached class means a new CACHE_FORMAT, so old entries are not found (and
rebuilt) rather than misread.
"""

from __future__ import annotations

import hashlib
import pickle
import sqlite3
import zlib
from collections.abc import Iterable
from pathlib import Path

from platformdirs import user_cache_dir

from core import ENGINE_VERSION
from core.batch.common_text import DocumentFingerprints
from core.batch.result import BatchDocument
from core.detection.reworded import document_profile
from core.documents.document import Document, load_document
from core.fingerprint import file_sha256
from core.options import SignatureOptions

#: 3: documents carry block quotes and exclusions; 4: the engine's modules moved (core/ grouped
#: by concern) and the summary is the BatchDocument record; 5: the record holds the word
#: profile of the reworded-passage detector
CACHE_FORMAT = 5
#: the common-text fingerprints' format (core.batch.common_text), part of their key
FINGERPRINT_FORMAT = 1
_SCHEMA = (
    # summary: the document's BatchDocument (what ranking reads: a few KB, not the text)
    "CREATE TABLE IF NOT EXISTS entries "
    "(key TEXT PRIMARY KEY, summary BLOB NOT NULL, document BLOB NOT NULL)",
    # a document's common-text fingerprints (core.batch.common_text), read only when a batch looks
    # for common text: a warm run then needs neither the texts nor a worker
    "CREATE TABLE IF NOT EXISTS fingerprints (key TEXT PRIMARY KEY, data BLOB NOT NULL)",
)


#: a cache row: (key, compressed BatchDocument, compressed Document)
PackedEntry = tuple[str, bytes, bytes]


def _pack(value: object) -> bytes:
    return zlib.compress(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), 3)


def _unpack(blob: bytes) -> object:
    return pickle.loads(zlib.decompress(blob))


def pack_entry(key: str, document: Document) -> PackedEntry:
    """(Where the document was made, e.g. a worker.) The row to store for it: the document
    without exclusions, and its record (ranking a folder reads only that: 10,000 essays in
    seconds instead of minutes)."""
    record = BatchDocument.of(document, profile=document_profile(document))
    return key, _pack(record), _pack(document)


def unpack_document(blob: bytes) -> Document | None:
    """(Where the document is needed, e.g. a worker.) A document row's Document, or None if
    the row is not one (from an incompatible build)."""
    try:
        value = _unpack(blob)
    except Exception:
        return None
    return value if isinstance(value, Document) else None


def pack_fingerprints(fingerprints: DocumentFingerprints) -> bytes:
    """A fingerprints row's value: a plain pickle (hashes do not compress)."""
    return pickle.dumps(fingerprints, protocol=pickle.HIGHEST_PROTOCOL)


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
    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_cache_path()
        self.rebuilt = False  # True when a corrupt cache file was replaced
        self._connection = self._open()

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            connection = sqlite3.connect(self.path, timeout=30)
            connection.execute("PRAGMA journal_mode=WAL")
            for statement in _SCHEMA:
                connection.execute(statement)
            connection.execute("SELECT count(*) FROM entries").fetchone()
            return connection
        except sqlite3.DatabaseError:
            return self._rebuild()

    def _rebuild(self) -> sqlite3.Connection:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        self.rebuilt = True
        connection = sqlite3.connect(self.path, timeout=30)
        connection.execute("PRAGMA journal_mode=WAL")
        for statement in _SCHEMA:
            connection.execute(statement)
        return connection

    def _rows(
        self, column: str, keys: Iterable[str], table: str = "entries"
    ) -> list[tuple[str, bytes]]:
        wanted = list(dict.fromkeys(keys))
        rows: list[tuple[str, bytes]] = []
        for start in range(0, len(wanted), 500):  # SQLite's variable limit
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows += self._connection.execute(
                f"SELECT key, {column} FROM {table} WHERE key IN ({marks})", chunk
            ).fetchall()
        return rows

    def _blobs(
        self, column: str, keys: Iterable[str], table: str = "entries"
    ) -> list[tuple[str, bytes]]:
        try:
            return self._rows(column, keys, table)
        except sqlite3.DatabaseError:  # corrupt under our feet: start again, all misses
            self._connection.close()
            self._connection = self._rebuild()
            return []

    def _read(self, column: str, keys: Iterable[str], kind: type) -> dict[str, object]:
        found: dict[str, object] = {}
        for key, blob in self._blobs(column, keys):
            try:
                value = _unpack(blob)
            except Exception:  # an entry from an incompatible build: a miss
                continue
            if isinstance(value, kind):
                found[key] = value
        return found

    def batch_documents(self, keys: Iterable[str]) -> dict[str, BatchDocument]:
        """The records stored by key, as stored: their path, group and archive are those of
        the file first stored under the key (`BatchDocument.for_submission` sets the file's
        own)."""
        return self._read("summary", keys, BatchDocument)  # type: ignore[return-value]

    def documents(self, keys: Iterable[str]) -> dict[str, Document]:
        return self._read("document", keys, Document)  # type: ignore[return-value]

    def document_blobs(self, keys: Iterable[str]) -> dict[str, bytes]:
        """The document rows as stored, for a worker to unpack (`unpack_document`)."""
        return dict(self._blobs("document", keys))

    def fingerprints(self, keys: Iterable[str]) -> dict[str, DocumentFingerprints]:
        """Common-text fingerprints by `fingerprint_key`."""
        found: dict[str, DocumentFingerprints] = {}
        for key, blob in self._blobs("data", keys, table="fingerprints"):
            try:
                value = pickle.loads(blob)
            except Exception:  # a row from an incompatible build: a miss
                continue
            if isinstance(value, DocumentFingerprints):
                found[key] = value
        return found

    def put_fingerprints(self, rows: Iterable[tuple[str, bytes]]) -> None:
        """Rows of (`fingerprint_key`, `pack_fingerprints`), in one transaction."""
        batch = list(rows)
        if not batch:
            return
        try:
            with self._connection:
                self._connection.executemany(
                    "INSERT OR REPLACE INTO fingerprints (key, data) VALUES (?, ?)", batch
                )
        except sqlite3.DatabaseError:
            self._connection.close()
            self._connection = self._rebuild()

    def put_packed(self, rows: Iterable[PackedEntry]) -> None:
        batch = list(rows)
        if not batch:
            return
        try:
            with self._connection:  # one transaction
                self._connection.executemany(
                    "INSERT OR REPLACE INTO entries (key, summary, document) VALUES (?, ?, ?)",
                    batch,
                )
        except sqlite3.DatabaseError:
            self._connection.close()
            self._connection = self._rebuild()

    def __len__(self) -> int:
        row = self._connection.execute("SELECT count(*) FROM entries").fetchone()
        return int(row[0])

    def close(self) -> None:
        self._connection.close()


def content_hash_of(path: Path) -> str | None:
    """The SHA-256 of a file's bytes (what `Document.content_hash` holds), None if unreadable."""
    try:
        return file_sha256(path)
    except OSError:
        return None  # load_document will say what is wrong with it


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

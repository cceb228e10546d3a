"""An on-disk cache of analysed documents, so a second check of the same folder does not parse
unchanged files again.

SQLite, in the platform's cache folder. The key is the file's content hash, the engine version
and the options that shape a signature: change any of them and the entry is simply not found.
Writes are transactions (a crash mid-run leaves every committed entry usable); a file that is
not a readable cache (corrupt, truncated, another program's) is deleted and rebuilt. Values
are compressed pickles of `Document`s that only this program writes, in the user's own folder.
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
from core.document import Document
from core.options import SignatureOptions

CACHE_FORMAT = 1
_SCHEMA = "CREATE TABLE IF NOT EXISTS documents (key TEXT PRIMARY KEY, value BLOB NOT NULL)"


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
            connection.execute(_SCHEMA)
            connection.execute("SELECT count(*) FROM documents").fetchone()
            return connection
        except sqlite3.DatabaseError:
            return self._rebuild()

    def _rebuild(self) -> sqlite3.Connection:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        self.rebuilt = True
        connection = sqlite3.connect(self.path, timeout=30)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute(_SCHEMA)
        return connection

    def get_many(self, keys: Iterable[str]) -> dict[str, Document]:
        wanted = list(dict.fromkeys(keys))
        found: dict[str, Document] = {}
        try:
            for start in range(0, len(wanted), 500):  # SQLite's variable limit
                chunk = wanted[start : start + 500]
                marks = ",".join("?" * len(chunk))
                rows = self._connection.execute(
                    f"SELECT key, value FROM documents WHERE key IN ({marks})", chunk
                ).fetchall()
                for key, value in rows:
                    try:
                        document = pickle.loads(zlib.decompress(value))
                    except Exception:  # an entry from an incompatible build: a miss
                        continue
                    if isinstance(document, Document):
                        found[key] = document
        except sqlite3.DatabaseError:  # corrupt under our feet: start again, all misses
            self._connection.close()
            self._connection = self._rebuild()
            return {}
        return found

    def put_many(self, items: Iterable[tuple[str, Document]]) -> None:
        rows = [
            (key, zlib.compress(pickle.dumps(document, protocol=pickle.HIGHEST_PROTOCOL), 3))
            for key, document in items
        ]
        if not rows:
            return
        try:
            with self._connection:  # one transaction
                self._connection.executemany(
                    "INSERT OR REPLACE INTO documents (key, value) VALUES (?, ?)", rows
                )
        except sqlite3.DatabaseError:
            self._connection.close()
            self._connection = self._rebuild()

    def __len__(self) -> int:
        row = self._connection.execute("SELECT count(*) FROM documents").fetchone()
        return int(row[0])

    def close(self) -> None:
        self._connection.close()

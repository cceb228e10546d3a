"""The document cache's file: what makes a file Doppel's cache, how one is made, and what
SQLite's errors mean for it. `core.batch.cache.DocumentCache` uses these.

A cache file identifies itself: its SQLite header carries Doppel's application id
(`APPLICATION_ID`, the ASCII bytes "Dopl") and it has a `meta` table naming its format. Before
SQLite is let near a file, `identify` reads its first 100 bytes itself: a file that is not
recognisably Doppel's cache (a student's essay, another program's database, an empty file) is
never opened by SQLite for writing, never replaced, never deleted: the cache refuses it. A cache
made by an earlier build of Doppel (before the application id) is recognised by its tables: no
more than Doppel's own three historic tables, created by exactly Doppel's statements
(`LEGACY_TABLES`), `entries` among them, and nothing else; such a file is read-only opened (SQLite's
`immutable` mode, which writes nothing) to see this. A new cache is built under a temporary name
in the same folder and linked into place, so it never exists without its identity and never
replaces a file that appeared meanwhile.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import sqlite3
import stat
from enum import Enum
from pathlib import Path

#: PRAGMA application_id of a Doppel cache: the ASCII bytes "Dopl"
APPLICATION_ID = int.from_bytes(b"Dopl", "big")
SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_BYTES = 100
_APPLICATION_ID_AT = 68
#: the first bytes of an SQLite write-ahead log (two byte orders of its checksums)
_WAL_MAGICS = (b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83")

#: the tables the cache has now; `meta` holds ("format", CACHE_FORMAT) and ("program", "Doppel")
SCHEMA = (
    "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # summary: the document's BatchDocument (what ranking reads: a few KB, not the text)
    "CREATE TABLE entries (key TEXT PRIMARY KEY, summary BLOB NOT NULL, document BLOB NOT NULL)",
    # a document's common-text fingerprints (core.batch.common_text), read only when a batch looks
    # for common text: a warm run then needs neither the texts nor a worker
    "CREATE TABLE fingerprints (key TEXT PRIMARY KEY, data BLOB NOT NULL)",
)

#: the tables of the caches earlier builds made (pickled rows, no application id), by the
#: exact statements that made them (as SQLite keeps them: without "IF NOT EXISTS")
LEGACY_TABLES = {
    "documents": "CREATE TABLE documents (key TEXT PRIMARY KEY, value BLOB NOT NULL)",
    "entries": (
        "CREATE TABLE entries (key TEXT PRIMARY KEY, summary BLOB NOT NULL, document BLOB NOT NULL)"
    ),
    "fingerprints": "CREATE TABLE fingerprints (key TEXT PRIMARY KEY, data BLOB NOT NULL)",
}

# SQLite's primary result codes (sqlite3.Error.sqlite_errorcode & 0xFF)
SQLITE_ERROR = 1
SQLITE_PERM = 3
SQLITE_BUSY = 5
SQLITE_LOCKED = 6
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_CORRUPT = 11
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14
SQLITE_NOTADB = 26
#: codes that mean the file is damaged (only ever said of a file known to be ours)
DAMAGED = frozenset({SQLITE_CORRUPT, SQLITE_NOTADB})
#: codes that mean another connection holds the lock
LOCKED = frozenset({SQLITE_BUSY, SQLITE_LOCKED})


class CacheRefused(Exception):
    """The file named as the cache is not Doppel's cache: it was left exactly as it was."""

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(
            f"the document cache {self.path} was not used: {reason}; the file was left as it was"
        )


class Kind(Enum):
    MISSING = "missing"  # nothing there: a new cache may be made
    OURS = "ours"  # Doppel's cache (its application id)
    LEGACY = "legacy"  # an earlier build's cache (its tables): may be rebuilt
    FOREIGN = "foreign"  # anything else that is a file: refused, never touched
    UNUSABLE = "unusable"  # a folder, a device, a broken link, unreadable: checked without


def error_code(error: BaseException) -> int | None:
    """SQLite's primary result code of `error`, None if it has none."""
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def sqlite_reason(error: BaseException, timeout: float) -> str:
    """What an SQLite error means for the cache, in plain words."""
    code = error_code(error)
    if code in LOCKED:
        return f"another program kept it locked for more than {timeout:g} s"
    if code == SQLITE_FULL:
        return "the disk is full"
    if code == SQLITE_READONLY:
        return "it is read-only"
    if code == SQLITE_PERM:
        return "permission denied"
    if code == SQLITE_CANTOPEN:
        return "it cannot be opened (is its folder writable?)"
    if code == SQLITE_IOERR:
        return f"reading or writing it failed ({error}: is the disk full?)"
    if code in DAMAGED:
        return f"it is damaged ({error})"
    return str(error)


def os_reason(error: OSError) -> str:
    if error.errno == errno.ENOSPC:
        return "the disk is full"
    if error.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if error.errno == errno.EROFS:
        return "its disk is read-only"
    return error.strerror or str(error)


def identify(path: Path) -> tuple[Kind, str]:
    """What the file at `path` is, and why (for FOREIGN and UNUSABLE): decided from its type
    and its first 100 bytes, read here, before SQLite opens it; only a file with SQLite's magic
    and no application id is opened, read-only and immutable, to see whether its tables are an
    earlier Doppel cache's."""
    try:
        info = path.stat()  # through links
    except FileNotFoundError:
        if path.is_symlink():
            return Kind.UNUSABLE, "it is a link to nothing"
        return Kind.MISSING, ""
    except OSError as error:
        return Kind.UNUSABLE, os_reason(error)
    if stat.S_ISDIR(info.st_mode):
        return Kind.UNUSABLE, "it is a folder"
    if not stat.S_ISREG(info.st_mode):  # a FIFO would hang the read, a device never end
        return Kind.UNUSABLE, "it is not a regular file"
    try:
        header = _read_header(path, info)
    except OSError as error:
        return Kind.UNUSABLE, os_reason(error)
    if not header:
        return Kind.FOREIGN, "it is an empty file, not a Doppel cache"
    if len(header) < HEADER_BYTES or not header.startswith(SQLITE_MAGIC):
        return Kind.FOREIGN, "it is not a Doppel cache (not an SQLite database)"
    application_id = int.from_bytes(header[_APPLICATION_ID_AT : _APPLICATION_ID_AT + 4], "big")
    if application_id == APPLICATION_ID:
        return Kind.OURS, ""
    if application_id == 0 and _legacy_tables(path):
        return Kind.LEGACY, ""
    return Kind.FOREIGN, "it is another program's SQLite database, not a Doppel cache"


def _read_header(path: Path, before: os.stat_result) -> bytes:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    descriptor = os.open(path, flags)
    with os.fdopen(descriptor, "rb") as handle:
        now = os.fstat(handle.fileno())
        if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (
            before.st_dev,
            before.st_ino,
        ):
            raise OSError(errno.EAGAIN, "it changed while being read", str(path))
        return handle.read(HEADER_BYTES)


def _legacy_tables(path: Path) -> bool:
    """True when the SQLite file at `path` holds only tables an earlier Doppel cache had
    (with their automatic primary-key indexes), `entries` among them. Read with SQLite's
    `immutable` mode: no lock, no journal, nothing written beside or into it."""
    uri = f"{path.absolute().as_uri()}?mode=ro&immutable=1"
    try:
        connection = sqlite3.connect(uri, uri=True)
    except sqlite3.Error:
        return False
    try:
        rows = connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    except sqlite3.Error:
        return False
    finally:
        connection.close()
    tables = {name: sql for kind, name, _, sql in rows if kind == "table"}
    if "entries" not in tables or not set(tables) <= set(LEGACY_TABLES):
        return False
    if any(" ".join(str(sql).split()) != LEGACY_TABLES[name] for name, sql in tables.items()):
        return False
    indexes = [(kind, name, table, sql) for kind, name, table, sql in rows if kind != "table"]
    return all(
        kind == "index" and sql is None and name == f"sqlite_autoindex_{table}_1"
        for kind, name, table, sql in indexes
    )


def build(
    path: Path,
    fmt: int,
    *,
    schema: tuple[str, ...] = SCHEMA,
    application_id: int = APPLICATION_ID,
    meta: tuple[tuple[str, str], ...] = (),
) -> Path:
    """A new, empty database of format `fmt` under a temporary name beside `path`, complete
    (application id, tables, `meta` rows, WAL mode) and closed; its path. The cache's by
    default; the archive index builds its own the same way. OSError or sqlite3.Error if it
    cannot be made (nothing is left behind then)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        connection = sqlite3.connect(temporary, isolation_level=None)
        try:
            connection.execute(f"PRAGMA application_id = {application_id}")
            connection.execute("BEGIN")
            for statement in schema:
                connection.execute(statement)
            connection.executemany(
                "INSERT INTO meta (name, value) VALUES (?, ?)",
                [("format", str(fmt)), ("program", "Doppel"), *meta],
            )
            connection.execute("COMMIT")
            connection.execute("PRAGMA journal_mode=WAL")  # kept in the file
        finally:
            connection.close()
    except BaseException:
        remove_quietly(temporary)
        raise
    return temporary


def put_in_place(temporary: Path, path: Path, *, replace: bool) -> bool:
    """Moves the built cache `temporary` to `path`: over the file there when `replace` (only
    ever a file identified as a cache), else only if nothing is there. False when something
    appeared at `path` meanwhile (then `temporary` is removed and `path` left alone)."""
    try:
        if replace:
            for suffix in ("-wal", "-shm"):  # the old file's log must not be applied to this one
                remove_quietly(Path(f"{path}{suffix}"))
            temporary.replace(path)
            return True
        try:
            os.link(temporary, path)  # fails if anything is there: never clobbers
        except FileExistsError:
            return False
        except OSError:  # a file system without hard links
            if os.path.lexists(path):
                return False
            temporary.rename(path)  # (on Windows, refuses to replace too)
            return True
        return True
    finally:
        remove_quietly(temporary)


def clear_orphan_logs(path: Path) -> str | None:
    """Before a new cache is put at `path` (nothing there): removes an SQLite log and index left
    by a cache that is gone (they would be applied to the new one); the reason if something else
    is in their place (then no cache is made)."""
    for suffix in ("-wal", "-shm"):
        leftover = Path(f"{path}{suffix}")
        try:
            info = leftover.lstat()
        except FileNotFoundError:
            continue
        except OSError as error:
            return f"{leftover.name}: {os_reason(error)}"
        if not stat.S_ISREG(info.st_mode):
            return f"{leftover.name} is in the way"
        if suffix == "-wal" and info.st_size:
            try:
                with leftover.open("rb") as handle:
                    magic = handle.read(4)
            except OSError as error:
                return f"{leftover.name}: {os_reason(error)}"
            if magic not in _WAL_MAGICS:
                return f"{leftover.name}, which is not SQLite's, is in the way"
        try:
            leftover.unlink()
        except FileNotFoundError:
            pass
        except OSError as error:
            return f"{leftover.name}: {os_reason(error)}"
    return None


def remove_quietly(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()

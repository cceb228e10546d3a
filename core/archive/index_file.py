"""The archive index's file: what makes a file a Doppel archive index, how a new one is made,
and where the default one lives.

An archive index is the user's data (every submission of earlier years, kept so the next
check can be compared with them), not a cache: it lives in the platform's *data* folder
(`default_index_path`), is never rebuilt, replaced or deleted by Doppel, and a damaged one is
reported and left as it is. It identifies itself like the document cache does
(`core.batch.cache_file`): SQLite's application id (the ASCII bytes "DplA") in its header, read
by `identify` before SQLite opens the file, and a `meta` table naming its format. Anything else
named as the index (an essay, the document cache, another program's database, an empty file) is
refused and left byte for byte as it was. A new index is built under a temporary name beside
the path and linked into place, so it never exists half made.

Safety under concurrent use and crashes: write-ahead logging (readers never wait for a writer,
and see the index as of their last transaction), every change one transaction (a crash leaves
the index as before the change), writers wait up to `LOCK_TIMEOUT` for each other."""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
from enum import Enum
from pathlib import Path

from platformdirs import user_data_dir

from core.batch.cache_file import (
    HEADER_BYTES,
    SQLITE_MAGIC,
    build,
    clear_orphan_logs,
    os_reason,
    put_in_place,
)

#: PRAGMA application_id of an archive index: the ASCII bytes "DplA"
APPLICATION_ID = int.from_bytes(b"DplA", "big")
#: the document cache's ("Dopl"), to say what such a file is
_CACHE_ID = int.from_bytes(b"Dopl", "big")
_APPLICATION_ID_AT = 68
#: the index's format (its tables, and the keys' hash functions: core.archive.keys.key_hash
#: and core.archive.stem_hashing); another format is refused with its number (never
#: converted silently)
INDEX_FORMAT = 8
#: seconds a writer waits for another before giving up (said in words)
LOCK_TIMEOUT = 60.0

SCHEMA = (
    "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # one row per distinct content (a file's bytes analysed with the archive's options): its
    # record (signature, word profile, facts: what a check compares) and its whole Document
    # (text and sentences: evidence can be shown after the file moved or was deleted)
    "CREATE TABLE contents (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, "
    "record BLOB NOT NULL, document BLOB NOT NULL, indexed INTEGER NOT NULL DEFAULT 0)",
    # one row per archived file: where it was, whose it is (the student's folder with
    # --student-folders), when it was last modified and added, its size
    "CREATE TABLE members (path TEXT PRIMARY KEY, content INTEGER NOT NULL, "
    "grp TEXT NOT NULL, modified REAL NOT NULL, size INTEGER NOT NULL, added REAL NOT NULL)",
    "CREATE INDEX members_by_content ON members (content)",
    # what is filed under each key (core.archive.postings): segments written once and merged
    # as they grow, sentence keys (composite sentences and bigrams) and word keys (runs of a
    # sentence's prefix stems, one stem longer where the shorter key is open) apart; each
    # segment cut into buckets of postings by the keys' top bits (`shift`), a bucket's row id
    # the segment's number and the bucket's; a stamp no other segment has, what a process
    # keeps the segment's filter by
    "CREATE TABLE segments (id INTEGER PRIMARY KEY, kind INTEGER NOT NULL, "
    "level INTEGER NOT NULL, postings INTEGER NOT NULL, shift INTEGER NOT NULL, "
    "stamp INTEGER NOT NULL)",
    "CREATE TABLE buckets (id INTEGER PRIMARY KEY, postings BLOB NOT NULL)",
    # each segment's Bloom filter of the keys it holds (core.archive.key_filter): a look-up
    # reads a key's bucket only in the segments that may hold it
    "CREATE TABLE filters (segment INTEGER PRIMARY KEY, bits BLOB NOT NULL)",
    # each content's sentences that could hold a strong seed, how many, and their numbers and
    # stems' hashes (core.archive.unit_stems): what its word keys are made of, and what a
    # check verifies a probe on without reading the whole record
    "CREATE TABLE units (content INTEGER PRIMARY KEY, sentences INTEGER NOT NULL, "
    "stems BLOB NOT NULL)",
    # the frozen stem order: sentences holding each stem (hash) when the order was made
    "CREATE TABLE stem_order (stem INTEGER PRIMARY KEY, sentences INTEGER NOT NULL)",
    # the open word keys: more sentences were filed under them than a check should read
    # (meta "open_above"), so they are filed under longer keys instead
    "CREATE TABLE open_keys (key INTEGER PRIMARY KEY)",
)
TABLES = frozenset(
    {
        "meta",
        "contents",
        "members",
        "segments",
        "buckets",
        "filters",
        "units",
        "stem_order",
        "open_keys",
    }
)


class ArchiveError(Exception):
    """The archive index cannot be used; `str()` says which file and why, in plain words."""

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"the archive index {self.path}: {reason}")


class Kind(Enum):
    MISSING = "missing"
    OURS = "ours"
    FOREIGN = "foreign"  # refused, left as it was


def default_index_path() -> Path:
    """The default index: the platform's data folder for Doppel (not the cache folder: a
    cleaner may empty that)."""
    return Path(user_data_dir("Doppel", "Doppel")) / "archive.sqlite3"


def identify(path: Path) -> tuple[Kind, str]:
    """What the file at `path` is, and why not an index (FOREIGN), from its type and its first
    100 bytes, read before SQLite opens it."""
    try:
        info = path.stat()
    except FileNotFoundError:
        if path.is_symlink():
            return Kind.FOREIGN, "it is a link to nothing"
        return Kind.MISSING, ""
    except OSError as error:
        return Kind.FOREIGN, os_reason(error)
    if stat.S_ISDIR(info.st_mode):
        return Kind.FOREIGN, "it is a folder, not an archive index file"
    if not stat.S_ISREG(info.st_mode):
        return Kind.FOREIGN, "it is not a regular file"
    try:
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
        with os.fdopen(os.open(path, flags), "rb") as handle:
            header = handle.read(HEADER_BYTES)
    except OSError as error:
        return Kind.FOREIGN, os_reason(error)
    if not header:
        return Kind.FOREIGN, "it is an empty file, not a Doppel archive index"
    if len(header) < HEADER_BYTES or not header.startswith(SQLITE_MAGIC):
        return Kind.FOREIGN, "it is not a Doppel archive index (not an SQLite database)"
    application_id = int.from_bytes(header[_APPLICATION_ID_AT : _APPLICATION_ID_AT + 4], "big")
    if application_id == APPLICATION_ID:
        return Kind.OURS, ""
    if application_id == _CACHE_ID:
        return Kind.FOREIGN, "it is Doppel's document cache, not an archive index"
    return Kind.FOREIGN, "it is another program's SQLite database, not a Doppel archive index"


def make_index(path: Path, meta: dict[str, str]) -> bool:
    """Builds a new, empty index with `meta` under a temporary name and links it to `path`,
    only if nothing is there. False when something appeared there meanwhile. Raises
    ArchiveError if it cannot be made."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        in_the_way = clear_orphan_logs(path)
        if in_the_way is not None:
            raise ArchiveError(path, f"it cannot be made: {in_the_way}")
        temporary = build(
            path,
            INDEX_FORMAT,
            schema=SCHEMA,
            application_id=APPLICATION_ID,
            meta=tuple(meta.items()),
        )
        return put_in_place(temporary, path, replace=False)
    except OSError as error:
        if error.errno == errno.ENOSPC:
            raise ArchiveError(path, "it cannot be made: the disk is full") from error
        raise ArchiveError(path, f"it cannot be made ({os_reason(error)})") from error
    except sqlite3.Error as error:
        raise ArchiveError(path, f"it cannot be made ({error})") from error

"""The document cache's file (core.batch.cache, core.batch.cache_file): a cache identifies
itself; anything else named as the cache is refused and left byte for byte as it was; only
Doppel's own caches (and those of earlier builds) are rebuilt; a lock, a read-only file, a full
disk or a folder in the way never deletes anything and never stops the check.

Root-independent: faults a root process would not meet (a read-only file) are injected as the
SQLite error they raise; a full disk is a child process with a file-size limit."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from docmakers import make_docx

from core.batch import cache as cache_module
from core.batch.cache import (
    CACHE_FORMAT,
    CacheRefused,
    DocumentCache,
    cache_key,
    content_hash_of,
    pack_entry,
)
from core.batch.cache_file import APPLICATION_ID, LEGACY_TABLES, Kind, identify, put_in_place
from core.batch.run import BatchOptions, run_batch
from core.documents.document import document_from_text
from core.documents.extract import MAX_FILE_BYTES
from core.fingerprint import file_sha256
from core.options import SignatureOptions

EN = SignatureOptions(language="en")
ROOT = Path(__file__).resolve().parents[2]
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX file types and limits")


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file in `folder` (hidden ones too): its bytes and modification time."""
    return {
        p.name: (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(folder.iterdir())
        if p.is_file()
    }


def sqlite_file(path: Path, statements: list[str], application_id: int = 0) -> Path:
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    if application_id:
        db.execute(f"PRAGMA application_id = {application_id}")
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()
    return path


def a_document_row(key: str = "k") -> tuple[str, bytes, bytes]:
    doc = document_from_text("A first sentence is here. A second one follows it.", "a.txt", EN)
    return pack_entry(key, doc)


OLD_STATEMENTS = [
    s.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS") for s in LEGACY_TABLES.values()
]


def write_essay(path: Path) -> None:
    path.write_text("My essay, three weeks of work. Please do not lose it.", encoding="utf-8")


FOREIGN: dict[str, Any] = {
    "essay.txt": write_essay,
    "essay.docx": lambda p: make_docx(p, ["A paragraph of a submission.", "Another one."]),
    "empty.sqlite3": lambda p: p.write_bytes(b""),
    "other.sqlite3": lambda p: sqlite_file(
        p,
        [
            "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)",
            "INSERT INTO users VALUES (1, 'x')",
        ],
    ),
    # another program's, with tables like an old Doppel cache's but its own id
    "other-id.sqlite3": lambda p: sqlite_file(p, OLD_STATEMENTS, application_id=0x12345678),
    # no id, Doppel's old tables and one more: not recognisably Doppel's
    "lookalike.sqlite3": lambda p: sqlite_file(p, [*OLD_STATEMENTS, "CREATE TABLE notes (t TEXT)"]),
    # no id, a table called entries with other columns
    "entries.sqlite3": lambda p: sqlite_file(p, ["CREATE TABLE entries (key TEXT, value BLOB)"]),
    "short.sqlite3": lambda p: p.write_bytes(b"SQLite format 3\x00 and then nothing much"),
    "garbage.sqlite3": lambda p: p.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 20),
}


@pytest.mark.parametrize("name", sorted(FOREIGN))
def test_a_file_that_is_not_a_doppel_cache_is_refused_and_left_untouched(tmp_path: Path, name):
    path = tmp_path / name
    FOREIGN[name](path)
    before = snapshot(tmp_path)
    with pytest.raises(CacheRefused) as refused:
        DocumentCache(path)
    assert str(path) in str(refused.value) and refused.value.path == path
    assert "left as it was" in str(refused.value)
    assert snapshot(tmp_path) == before  # the same bytes and dates, and nothing beside it


def test_a_new_cache_identifies_itself(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "cache.sqlite3"
    cache = DocumentCache(path)
    assert cache.usable and cache.writable and not cache.notices and not cache.rebuilt
    cache.put_packed([a_document_row()])
    cache.close()
    header = path.read_bytes()[:100]
    assert header[:16] == b"SQLite format 3\x00" and header[68:72] == b"Dopl"
    assert int.from_bytes(header[68:72], "big") == APPLICATION_ID
    with sqlite3.connect(path) as db:
        assert dict(db.execute("SELECT name, value FROM meta")) == {
            "format": str(CACHE_FORMAT),
            "program": "Doppel",
        }
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    db.close()
    assert identify(path) == (Kind.OURS, "")
    assert sorted(p.name for p in path.parent.iterdir()) == ["cache.sqlite3"]  # no temporary
    again = DocumentCache(path)
    assert len(again) == 1 and not again.rebuilt
    again.close()


@pytest.mark.parametrize(
    "tables", [["entries", "fingerprints"], ["documents", "entries", "fingerprints"], ["entries"]]
)
def test_a_cache_of_an_earlier_build_is_recognised_and_rebuilt(tmp_path: Path, tables) -> None:
    """Earlier builds made caches without an id, with these tables (pickled rows): such a file
    is Doppel's, so it may be rebuilt; its pickles are never read."""
    path = tmp_path / "documents.sqlite3"
    statements = [
        LEGACY_TABLES[t].replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS") for t in tables
    ]
    statements.append(
        "INSERT INTO entries VALUES ('k', x'80049500', x'" + pickle.dumps({"a": 1}).hex() + "')"
    )
    sqlite_file(path, statements)
    assert identify(path) == (Kind.LEGACY, "")
    cache = DocumentCache(path)
    assert cache.rebuilt and cache.usable and len(cache) == 0 and not cache.notices
    cache.close()
    assert identify(path) == (Kind.OURS, "")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["documents.sqlite3"]


def test_a_damaged_doppel_cache_is_rebuilt_and_said(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3"
    cache = DocumentCache(path)
    cache.put_packed([a_document_row()])
    cache.close()
    header = path.read_bytes()[:100]
    path.write_bytes(header + b"\x00garbage" * 2000)  # its own header, damaged pages
    said: list[str] = []
    rebuilt = DocumentCache(path, notify=said.append)
    assert rebuilt.rebuilt and rebuilt.usable and len(rebuilt) == 0
    assert said == rebuilt.notices and "damaged" in said[0] and str(path) in said[0]
    rebuilt.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    db.close()


def test_a_doppel_cache_of_another_format_is_rebuilt_quietly(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3"
    cache = DocumentCache(path)
    cache.put_packed([a_document_row()])
    cache.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = '5' WHERE name = 'format'")
    db.close()
    again = DocumentCache(path)
    assert again.rebuilt and len(again) == 0 and not again.notices
    again.close()


# --- locked: wait, then go on without writing; never delete --------------------------------


def test_a_cache_another_program_is_writing_is_read_but_not_written(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3"
    first = DocumentCache(path)
    row = a_document_row("mine")
    first.put_packed([row])
    first.close()
    inode = path.stat().st_ino
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # holds the write lock
    other.execute("INSERT INTO entries VALUES ('theirs', x'00', x'00')")
    said: list[str] = []
    cache = DocumentCache(path, timeout=0.01, notify=said.append)
    assert cache.usable and not said
    assert cache.document_blobs(["mine"]) == {"mine": row[2]}  # reading goes on
    cache.put_packed([a_document_row("new")])
    cache.put_packed([a_document_row("newer")])
    assert not cache.writable and len(said) == 1
    assert "locked" in said[0] and "cannot be written" in said[0] and str(path) in said[0]
    assert cache.documents(["mine"])  # still read after the failed write
    other.execute("COMMIT")
    other.close()
    cache.close()
    assert path.stat().st_ino == inode  # the same file: never deleted or replaced
    with sqlite3.connect(path) as db:
        keys = {k for (k,) in db.execute("SELECT key FROM entries")}
    db.close()
    assert keys == {"mine", "theirs"}


def test_a_cache_locked_even_for_reading_is_left_and_the_check_runs_without(tmp_path: Path):
    path = tmp_path / "cache.sqlite3"
    DocumentCache(path).close()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("PRAGMA locking_mode=EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")
    other.execute("INSERT INTO entries VALUES ('theirs', x'00', x'00')")
    other.execute("COMMIT")  # (exclusive locking mode: the lock stays)
    folder = tmp_path / "essays"
    folder.mkdir()
    write_essay(folder / "a.txt")
    write_essay(folder / "b.txt")
    cache = DocumentCache(path, timeout=0.01)
    assert not cache.usable and len(cache.notices) == 1
    assert "cannot be used" in cache.notices[0] and "locked" in cache.notices[0]
    result = run_batch([folder], options=BatchOptions(signature=EN, workers=1), cache=cache)
    assert len(result.documents) == 2 and len(result.pairs) == 1
    cache.close()
    other.close()
    with sqlite3.connect(path) as db:
        assert [k for (k,) in db.execute("SELECT key FROM entries")] == ["theirs"]
    db.close()


# --- injected faults: read-only, full, damaged under our feet ------------------------------


def sqlite_error(code: int, message: str) -> sqlite3.OperationalError:
    error = sqlite3.OperationalError(message)
    error.sqlite_errorcode = code
    return error


class FaultyConnection:
    """A real connection whose writes (`on="write"`) or reads of rows (`on="read"`) raise the
    SQLite error given, as a read-only file, a full disk or a damaged page would."""

    def __init__(self, real: sqlite3.Connection, error: sqlite3.Error, on: str = "write") -> None:
        self.real, self.error, self.on = real, error, on
        self.writes = 0

    def execute(self, sql: str, parameters: Any = ()) -> sqlite3.Cursor:
        if self.on == "read" and sql.startswith("SELECT key"):
            raise self.error
        return self.real.execute(sql, parameters)

    def executemany(self, sql: str, rows: Any) -> sqlite3.Cursor:
        self.writes += 1
        if self.on == "write":
            raise self.error
        return self.real.executemany(sql, rows)

    def close(self) -> None:
        self.real.close()

    def __enter__(self) -> FaultyConnection:
        self.real.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.real.__exit__(*exc)  # type: ignore[arg-type]


def inject(cache: DocumentCache, error: sqlite3.Error, on: str = "write") -> FaultyConnection:
    faulty = FaultyConnection(cache._connection, error, on)  # type: ignore[arg-type]
    cache._connection = faulty  # type: ignore[assignment]
    return faulty


READONLY = (8, "attempt to write a readonly database")
FULL = (13, "database or disk is full")
IOERR_WRITE = (778, "disk I/O error")


@pytest.mark.parametrize(
    ("fault", "words"),
    [(READONLY, "it is read-only"), (FULL, "the disk is full"), (IOERR_WRITE, "is the disk full?")],
)
def test_a_write_that_fails_stops_writing_and_deletes_nothing(tmp_path: Path, fault, words):
    path = tmp_path / "cache.sqlite3"
    cache = DocumentCache(path)
    row = a_document_row("kept")
    cache.put_packed([row])
    inode = path.stat().st_ino
    faulty = inject(cache, sqlite_error(*fault))
    cache.put_packed([a_document_row("lost")])
    cache.put_fingerprints([("f", b"x")])
    assert faulty.writes == 1  # not tried again
    assert not cache.writable and cache.usable and len(cache.notices) == 1
    assert words in cache.notices[0] and str(path) in cache.notices[0]
    assert cache.document_blobs(["kept"]) == {"kept": row[2]}
    cache.close()
    assert path.stat().st_ino == inode and identify(path) == (Kind.OURS, "")
    again = DocumentCache(path)
    assert len(again) == 1
    again.close()


def test_a_cache_damaged_under_our_feet_is_rebuilt_only_while_it_is_ours(tmp_path: Path):
    path = tmp_path / "cache.sqlite3"
    cache = DocumentCache(path)
    cache.put_packed([a_document_row("k")])
    inject(cache, sqlite_error(11, "database disk image is malformed"), on="read")
    assert cache.documents(["k"]) == {}
    assert cache.rebuilt and cache.usable and cache.writable and len(cache) == 0
    assert "damaged" in cache.notices[0]
    cache.put_packed([a_document_row("k")])
    assert len(cache) == 1
    # the file at the path is now someone's essay: it is not touched
    inject(cache, sqlite_error(11, "database disk image is malformed"), on="read")
    path.unlink()
    write_essay(path)
    before = snapshot(tmp_path)
    assert cache.documents(["k"]) == {}
    assert not cache.usable and "cannot be used" in cache.notices[-1]
    cache.put_packed([a_document_row("x")])
    cache.close()
    assert snapshot(tmp_path) == before


def test_a_read_that_fails_otherwise_stops_using_the_cache_and_deletes_nothing(tmp_path: Path):
    path = tmp_path / "cache.sqlite3"
    cache = DocumentCache(path)
    cache.put_packed([a_document_row("k")])
    inject(cache, sqlite_error(*IOERR_WRITE), on="read")
    assert cache.batch_documents(["k"]) == {} and not cache.usable
    assert cache.documents(["k"]) == {} and len(cache) == 0
    cache.close()
    again = DocumentCache(path)
    assert len(again) == 1
    again.close()


@pytest.mark.skipif(IS_ROOT or os.name != "posix", reason="root writes read-only files anyway")
def test_a_read_only_cache_file_is_read_and_not_written(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3"
    cache = DocumentCache(path)
    row = a_document_row("k")
    cache.put_packed([row])
    cache.close()
    path.chmod(0o444)
    try:
        ro = DocumentCache(path)
        assert ro.document_blobs(["k"]) == {"k": row[2]}
        ro.put_packed([a_document_row("new")])
        assert not ro.writable and ro.notices and str(path) in ro.notices[0]
        ro.close()
    finally:
        path.chmod(0o644)
    assert identify(path) == (Kind.OURS, "")


@pytest.mark.skipif(IS_ROOT or os.name != "posix", reason="root writes in read-only folders")
def test_a_cache_in_a_folder_that_cannot_be_written(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    DocumentCache(folder / "cache.sqlite3").close()
    folder.chmod(0o555)
    try:
        cache = DocumentCache(folder / "cache.sqlite3")
        cache.put_packed([a_document_row("k")])
        assert not cache.writable and cache.notices
        cache.close()
        fresh = DocumentCache(folder / "new.sqlite3")
        assert not fresh.usable and "cannot be used" in fresh.notices[0]
    finally:
        folder.chmod(0o755)
    assert identify(folder / "cache.sqlite3") == (Kind.OURS, "")


# --- a full disk, for real: a child process with a file-size limit --------------------------

CHILD = """
import json, os, resource, signal, sys
sys.path.insert(0, sys.argv[1])
from core.batch.cache import DocumentCache
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
limit = int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
cache = DocumentCache(sys.argv[2])
if cache.usable:
    cache.put_packed([(f"big{k}", os.urandom(100_000), os.urandom(100_000)) for k in range(4)])
    cache.put_packed([("after", b"x", b"y")])
print(json.dumps({"notices": cache.notices, "usable": cache.usable, "writable": cache.writable}))
cache.close()
"""


def run_child(path: Path, limit: int) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(ROOT), str(path), str(limit)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


@posix_only
def test_a_full_disk_while_writing_stops_writing_and_keeps_the_cache(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3"
    cache = DocumentCache(path)
    row = a_document_row("kept")
    cache.put_packed([row])
    cache.close()
    limit = path.stat().st_size + 64 * 1024
    said = run_child(path, limit)
    assert said["usable"] and not said["writable"] and len(said["notices"]) == 1
    assert "cannot be written" in said["notices"][0] and str(path) in said["notices"][0]
    assert identify(path) == (Kind.OURS, "")
    again = DocumentCache(path)
    assert again.document_blobs(["kept", "big0", "after"]) == {"kept": row[2]}
    again.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    db.close()


@posix_only
def test_a_full_disk_when_making_the_cache_leaves_nothing_behind(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3"
    said = run_child(path, 2048)
    assert not said["usable"] and "cannot be used" in said["notices"][0]
    assert list(tmp_path.iterdir()) == []


# --- what is in the cache's place -----------------------------------------------------------


def check_runs_without(cache: DocumentCache, folder: Path) -> None:
    folder.mkdir()
    write_essay(folder / "a.txt")
    write_essay(folder / "b.txt")
    result = run_batch([folder], options=BatchOptions(signature=EN, workers=1), cache=cache)
    assert len(result.documents) == 2 and len(result.pairs) == 1


def test_a_folder_named_as_the_cache_is_said_and_left(tmp_path: Path) -> None:
    folder = tmp_path / "cache.sqlite3"
    folder.mkdir()
    (folder / "inside.txt").write_text("kept", encoding="utf-8")
    cache = DocumentCache(folder)
    assert not cache.usable and cache.notices == [
        f"the document cache {folder} cannot be used: it is a folder; checking without it"
    ]
    check_runs_without(cache, tmp_path / "essays")
    cache.close()
    assert [p.name for p in folder.iterdir()] == ["inside.txt"]


def test_a_cache_under_a_file_cannot_be_made_and_the_check_runs(tmp_path: Path) -> None:
    write_essay(tmp_path / "essay.txt")
    before = snapshot(tmp_path)
    cache = DocumentCache(tmp_path / "essay.txt" / "cache.sqlite3")
    assert not cache.usable and "cannot be used" in cache.notices[0]
    check_runs_without(cache, tmp_path / "essays")
    assert snapshot(tmp_path) == before


@posix_only
def test_a_fifo_or_a_broken_link_named_as_the_cache_is_never_opened(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    cache = DocumentCache(fifo)  # would hang if it were opened
    assert not cache.usable and "not a regular file" in cache.notices[0]
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "nowhere")
    cache = DocumentCache(link)
    assert not cache.usable and "link to nothing" in cache.notices[0]
    assert not (tmp_path / "nowhere").exists()


def test_a_new_cache_never_replaces_a_file_that_appeared_meanwhile(tmp_path: Path) -> None:
    from core.batch.cache_file import build

    path = tmp_path / "cache.sqlite3"
    temporary = build(path, CACHE_FORMAT)
    write_essay(path)
    before = path.read_bytes()
    assert put_in_place(temporary, path, replace=False) is False
    assert path.read_bytes() == before and not temporary.exists()


def test_a_log_left_by_a_vanished_cache_is_cleared_but_anything_else_is_left(tmp_path: Path):
    path = tmp_path / "cache.sqlite3"
    cache = DocumentCache(path)
    cache.put_packed([a_document_row()])
    wal = Path(f"{path}-wal")
    assert wal.exists()  # (still open: its log is there)
    wal_bytes = wal.read_bytes()
    cache.close()
    path.unlink()
    wal.write_bytes(wal_bytes or b"\x37\x7f\x06\x82" + bytes(28))
    fresh = DocumentCache(path)
    assert fresh.usable and len(fresh) == 0
    fresh.close()
    path.unlink()
    wal.write_bytes(b"someone's notes, not a log")
    cache = DocumentCache(path)
    assert not cache.usable and "in the way" in cache.notices[0]
    assert wal.read_bytes() == b"someone's notes, not a log" and not path.exists()


# --- hashing files: type and size first, streamed ------------------------------------------


def test_content_hash_of_a_regular_file_is_its_sha256(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes(b"some bytes " * 100_000)
    expected = hashlib.sha256(path.read_bytes()).hexdigest()
    assert content_hash_of(path) == expected == file_sha256(path)
    link = tmp_path / "link.txt"
    link.symlink_to(path)
    assert content_hash_of(link) == expected


@posix_only
def test_special_files_are_never_read_to_be_hashed(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.txt"
    zero.symlink_to("/dev/zero")
    for path in (fifo, zero, tmp_path):
        assert content_hash_of(path) is None  # (a FIFO opened would hang; /dev/zero never end)
        with pytest.raises(OSError):
            file_sha256(path)


@posix_only
def test_a_check_through_the_cache_lists_special_files_and_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "a.txt").write_text("The storm came at night. The boats were tied.", encoding="utf-8")
    (folder / "b.txt").write_text("The storm came at night. The boats were tied. Yes.", "utf-8")
    os.mkfifo(folder / "pipe.txt")
    (folder / "zero.txt").symlink_to("/dev/zero")
    cache = DocumentCache(tmp_path / "cache.sqlite3")
    paths = [folder / n for n in ("pipe.txt", "zero.txt", "a.txt", "b.txt")]
    for _ in range(2):  # cold, then warm
        result = run_batch(paths, options=BatchOptions(signature=EN, workers=1), cache=cache)
        assert {f.path.name for f in result.failed} == {"pipe.txt", "zero.txt"}
        assert all(f.error for f in result.failed) and len(result.pairs) == 1
    assert len(cache) == 2
    cache.close()


def test_a_file_larger_than_any_document_is_not_hashed(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    with big.open("wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)  # sparse: nothing is written
    assert content_hash_of(big) is None
    with pytest.raises(OSError):
        file_sha256(big, max_bytes=MAX_FILE_BYTES)


def test_keys_need_no_pickles(tmp_path: Path) -> None:
    """(The key of a row is the content hash and the options: unchanged by the new format.)"""
    assert cache_key("h", EN) != cache_key("h", SignatureOptions(language="de"))
    assert a_document_row()[1][:3] == a_document_row()[2][:3] == b"DC1"
    assert cache_module.CACHE_FORMAT == CACHE_FORMAT

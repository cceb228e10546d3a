"""`doppel batch --cache FILE`: a file that is not Doppel's cache is refused (exit 2, one line
naming it) and left byte for byte as it was; a cache that cannot be used (a folder, locked,
unwritable, a full disk) is said on stderr and the check runs without it (exit 0)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli.main import main
from core.batch import cache as cache_module
from core.batch.cache import DocumentCache
from core.batch.cache_file import LEGACY_TABLES, Kind, identify

ROOT = Path(__file__).resolve().parents[2]
ESSAY = (
    "The harbour was quiet before the storm arrived in the evening. Fishermen pulled their "
    "boats high onto the stones and tied them down twice. Children watched from the sea wall "
    "until their mothers called them home. By midnight the waves were breaking over the pier."
)


def write_class(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "anna.txt").write_text(ESSAY, encoding="utf-8")
    (folder / "ben.txt").write_text(ESSAY + " Nobody slept that night.", encoding="utf-8")
    (folder / "cara.txt").write_text(
        "Bees visit many flowers each day. They carry pollen between plants. Honey is stored "
        "in wax cells. A hive can hold tens of thousands of bees.",
        encoding="utf-8",
    )
    return folder


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir() if p.is_file()}


def batch(capsys, *argv: object) -> tuple[int, str, str]:
    code = main(["batch", *map(str, argv), "--lang", "en", "--jobs", "1"])
    out, err = capsys.readouterr()
    return code, out, err


def other_database(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE grades (student TEXT, grade INTEGER)")
    db.execute("INSERT INTO grades VALUES ('anna', 17)")
    db.commit()
    db.close()


@pytest.mark.parametrize("what", ["a submission", "another program's database", "an empty file"])
def test_a_file_that_is_not_a_cache_is_refused_and_untouched(capsys, tmp_path: Path, what):
    folder = write_class(tmp_path / "class")
    if what == "a submission":  # the essay itself, as a slip of the keyboard would name it
        target = folder / "anna.txt"
    elif what == "another program's database":
        target = tmp_path / "grades.sqlite3"
        other_database(target)
    else:
        target = tmp_path / "empty.sqlite3"
        target.write_bytes(b"")
    before = snapshot(folder), snapshot(tmp_path)
    code, out, err = batch(capsys, folder, "--cache", target)
    assert code == 2 and out == ""
    (line,) = err.splitlines()
    assert line.startswith(f"doppel: the document cache {target} was not used: ")
    assert "left as it was" in line
    assert (snapshot(folder), snapshot(tmp_path)) == before


def test_a_folder_as_the_cache_is_said_and_the_check_runs(capsys, tmp_path: Path) -> None:
    folder = write_class(tmp_path / "class")
    where = tmp_path / "cachedir"
    where.mkdir()
    code, out, err = batch(capsys, folder, "--cache", where)
    assert code == 0 and "anna.txt" in out
    assert err.strip() == (
        f"doppel: the document cache {where} cannot be used: it is a folder; checking without it"
    )
    assert list(where.iterdir()) == []


def test_a_cache_that_cannot_be_made_is_said_and_the_check_runs(capsys, tmp_path: Path) -> None:
    folder = write_class(tmp_path / "class")
    target = folder / "anna.txt" / "cache.sqlite3"  # under a file: its folder cannot be made
    before = snapshot(folder)
    code, out, err = batch(capsys, folder, "--cache", target)
    assert code == 0 and "anna.txt" in out
    assert f"doppel: the document cache {target} cannot be used: " in err
    assert err.rstrip().endswith("checking without it")
    assert snapshot(folder) == before


def test_an_earlier_builds_cache_is_taken_over_and_used(capsys, tmp_path: Path) -> None:
    folder = write_class(tmp_path / "class")
    target = tmp_path / "documents.sqlite3"
    db = sqlite3.connect(target)
    db.execute("PRAGMA journal_mode=WAL")
    for name in ("entries", "fingerprints"):
        db.execute(LEGACY_TABLES[name].replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS"))
    db.commit()
    db.close()
    code, first, err = batch(capsys, folder, "--cache", target, "--json")
    assert code == 0 and err == ""
    assert identify(target) == (Kind.OURS, "")
    cache = DocumentCache(target)
    assert len(cache) == 3
    cache.close()
    code, second, err = batch(capsys, folder, "--cache", target, "--json")
    assert code == 0 and err == "" and json.loads(second) == json.loads(first)


def test_a_locked_cache_is_read_not_written_and_never_deleted(
    capsys, tmp_path: Path, monkeypatch
) -> None:
    folder = write_class(tmp_path / "class")
    target = tmp_path / "cache.sqlite3"
    DocumentCache(target).close()
    inode = target.stat().st_ino
    monkeypatch.setattr(cache_module, "LOCK_TIMEOUT", 0.01)
    other = sqlite3.connect(target, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO entries VALUES ('theirs', x'00', x'00')")
    code, out, err = batch(capsys, folder, "--cache", target)
    other.execute("COMMIT")
    other.close()
    assert code == 0 and "anna.txt" in out
    (line,) = err.splitlines()
    assert line.startswith(f"doppel: the document cache {target} cannot be written: ")
    assert "locked" in line
    assert target.stat().st_ino == inode
    with sqlite3.connect(target) as db:
        assert [k for (k,) in db.execute("SELECT key FROM entries")] == ["theirs"]
    db.close()


CHILD = """
import resource, signal, sys
sys.path.insert(0, sys.argv[1])
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
limit = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from app.cli.main import main
sys.exit(main(["batch", *sys.argv[3:], "--lang", "en", "--jobs", "1"]))
"""


@pytest.mark.skipif(os.name != "posix", reason="file-size limits are POSIX")
def test_a_full_disk_is_said_and_the_check_completes(capsys, tmp_path: Path) -> None:
    folder = write_class(tmp_path / "class")
    target = tmp_path / "cache.sqlite3"
    code, _, err = batch(capsys, folder, "--cache", target)
    assert code == 0 and err == ""
    for k in range(30):  # more new documents than the disk has room for
        words = " ".join(f"w{k}x{j}" for j in range(400))
        (folder / f"extra{k:02d}.txt").write_text(f"{words}. {words}.", encoding="utf-8")
    limit = max(p.stat().st_size for p in tmp_path.glob("cache.sqlite3*")) + 16 * 1024
    # (--strict: no common-text hint, whose spool file the limit would stop too)
    argv = [str(folder), "--cache", str(target), "--strict"]
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(ROOT), str(limit), *argv],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "33 documents, 0 failed" in done.stdout
    assert f"doppel: the document cache {target} cannot be written: " in done.stderr
    assert identify(target) == (Kind.OURS, "")
    cache = DocumentCache(target)
    assert len(cache) >= 3
    cache.close()

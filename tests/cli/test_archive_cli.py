"""`doppel archive add|check|list|remove|info`: the check's JSON is `doppel batch --against`'s
(with an `archive` object added), its pairs the same; the index refuses what is not one (exit
2, the file untouched); an add stopped by kill -9 leaves an index the next add completes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from app.cli.main import main
from core.archive.index import ArchiveIndex
from core.resources import resource_path

SAMPLES = ("original-essay.txt", "reworded-copy.docx", "unrelated-essay.txt")


def run(capsys, *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def years(tmp_path: Path) -> tuple[Path, Path]:
    """Last year's class (the original and an unrelated essay, and a broken file) and this
    year's (the reworded copy)."""
    old, new = tmp_path / "2025", tmp_path / "2026"
    old.mkdir()
    new.mkdir()
    for name in ("original-essay.txt", "unrelated-essay.txt"):
        (old / name).write_bytes(resource_path("samples", name).read_bytes())
    (old / "broken.docx").write_bytes(b"PK\x03\x04 not a zip")
    copy = resource_path("samples", "reworded-copy.docx").read_bytes()
    (new / "reworded-copy.docx").write_bytes(copy)
    return old, new


def listed(data: dict) -> dict[str, dict]:
    """The documents of a check's JSON that are new or in a pair, by path."""
    paired = {p[side] for p in data["pairs"] for side in ("a", "b")}
    return {d["path"]: d for d in data["documents"] if not d["archive"] or d["path"] in paired}


def test_add_check_list_info_remove(capsys, tmp_path: Path) -> None:
    old, new = years(tmp_path)
    index = tmp_path / "archive.sqlite3"
    code, out, _ = run(capsys, "archive", "add", old, "--index", index, "--lang", "en", "--json")
    assert code == 0
    added = json.loads(out)
    assert (added["added"], added["updated"], added["unchanged"]) == (2, 0, 0)
    assert [Path(f["path"]).name for f in added["failed"]] == ["broken.docx"]
    assert added["archive"]["documents"] == 2

    code, out, _ = run(capsys, "archive", "add", old, "--index", index)
    assert code == 0 and "0 documents added" in out and "2 already there" in out

    cache = tmp_path / "cache.sqlite3"
    code, out, _ = run(
        capsys, "archive", "check", new, "--index", index, "--json", "--cache", cache
    )
    assert code == 0
    checked = json.loads(out)
    code, out, _ = run(
        capsys, "batch", new, "--against", old, "--json", "--cache", cache, "--lang", "en"
    )
    batch = json.loads(out)
    assert checked["pairs"] == batch["pairs"]
    assert [Path(p["b"]).name for p in checked["pairs"]] == ["original-essay.txt"]
    assert listed(checked) == listed(batch)
    assert checked["possible_pairs"] == batch["possible_pairs"]
    assert checked["archive"]["documents"] == 2 and checked["archive"]["looked_at"] >= 1
    assert set(batch) <= set(checked)  # the batch's JSON, with `archive` added

    code, out, _ = run(capsys, "archive", "check", new, "--index", index, "--no-cache")
    assert code == 0
    assert (
        "Archive: 2 documents, " in out
        and "shared enough to be compared" in out
        and "reworded-copy.docx" in out
    )

    code, out, _ = run(capsys, "archive", "list", "--index", index)
    assert "original-essay.txt" in out and out.rstrip().endswith("2 documents")
    code, out, _ = run(capsys, "archive", "info", "--index", index, "--json")
    info = json.loads(out)
    assert info["documents"] == 2 and info["bytes_per_document"] > 0
    assert info["options"]["language"] == "en"

    code, out, _ = run(capsys, "archive", "remove", old / "original-essay.txt", "--index", index)
    assert code == 0 and "Removed 1 document" in out
    code, out, _ = run(capsys, "archive", "check", new, "--index", index, "--json", "--no-cache")
    assert json.loads(out)["pairs"] == []


def test_the_html_report_shows_archived_text_after_the_files_are_gone(
    capsys, tmp_path: Path
) -> None:
    old, new = years(tmp_path)
    index = tmp_path / "archive.sqlite3"
    run(capsys, "archive", "add", old, "--index", index, "--lang", "en")
    original = (old / "original-essay.txt").read_text("utf-8")
    (old / "original-essay.txt").unlink()
    report = tmp_path / "report"
    code, _, err = run(
        capsys, "archive", "check", new, "--index", index, "--no-cache", "--html", report
    )
    assert code == 0, err
    pages = " ".join(p.read_text("utf-8") for p in report.rglob("*.html"))
    first_words = " ".join(original.split()[:6])
    assert first_words in " ".join(pages.split())


def test_what_is_not_an_index_is_refused_and_left_alone(capsys, tmp_path: Path) -> None:
    essay = tmp_path / "essay.txt"
    essay.write_text("An essay, not an index.", "utf-8")
    before = (essay.read_bytes(), essay.stat().st_mtime_ns)
    for action in (["info"], ["list"], ["add", tmp_path]):
        code, _, err = run(capsys, "archive", *action, "--index", essay)
        assert code == 2
        assert f"the archive index {essay}" in err and "not a Doppel archive index" in err
    assert (essay.read_bytes(), essay.stat().st_mtime_ns) == before
    code, _, err = run(capsys, "archive", "info", "--index", tmp_path / "none.sqlite3")
    assert code == 2 and "doppel archive add" in err


def test_options_other_than_the_index_are_refused(capsys, tmp_path: Path) -> None:
    old, new = years(tmp_path)
    index = tmp_path / "archive.sqlite3"
    run(capsys, "archive", "add", old, "--index", index, "--lang", "en")
    code, _, err = run(
        capsys, "archive", "check", new, "--index", index, "--key-size", "3", "--no-cache"
    )
    assert code == 2 and "--key-size 2" in err


def test_an_add_killed_midway_leaves_an_index_the_next_add_completes(tmp_path: Path) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    text = resource_path("samples", "original-essay.txt").read_text("utf-8")
    sentences = text.split(". ")
    for k in range(60):
        # every file its own content: the sample's sentences rotated, and a number
        body = ". ".join(sentences[k % len(sentences) :] + sentences[: k % len(sentences)])
        (folder / f"essay{k:02d}.txt").write_text(f"Essay {k}. {body}", "utf-8")
    index = tmp_path / "archive.sqlite3"
    command = [sys.executable, "-m", "app", "archive", "add", str(folder)]
    command += ["--index", str(index), "--jobs", "1", "--lang", "en"]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # kill it once the index exists and holds its first contents
    assert child.stdout is not None
    while child.poll() is None:
        if index.exists():
            try:
                with ArchiveIndex(index) as opened:
                    if opened._connection.execute("SELECT count(*) FROM contents").fetchone()[0]:
                        break
            except Exception:  # (being made: look again)
                continue
    if child.poll() is None:
        os.kill(child.pid, signal.SIGKILL)
    child.wait()
    with ArchiveIndex(index) as opened:
        assert len(opened) in (0, 60)  # members are filed a chunk at a time, never half
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    with ArchiveIndex(index) as opened:
        assert len(opened) == 60
        unused = opened._connection.execute(
            "SELECT count(*) FROM contents WHERE id NOT IN (SELECT content FROM members)"
        ).fetchone()[0]
        assert unused == 0


def test_student_folders_on_check_are_the_batchs(capsys, tmp_path: Path) -> None:
    """With --student-folders, a student's new files are not compared with each other (as
    `batch --against` with it); without it they are."""
    original = resource_path("samples", "original-essay.txt").read_bytes()
    copy = resource_path("samples", "reworded-copy.docx").read_bytes()
    old, new = tmp_path / "2025", tmp_path / "2026"
    for folder, name, data in (
        (old / "ben", "essay.txt", original),
        (new / "ada", "essay.docx", copy),
        (new / "ada", "draft.txt", original),
    ):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    index = tmp_path / "archive.sqlite3"
    code, _, _ = run(capsys, "archive", "add", old, "--index", index, "--lang", "en")
    assert code == 0
    for flags, within in (["--student-folders"], 0), ([], 1):
        code, out, _ = run(
            capsys, "archive", "check", new, "--index", index, *flags, "--json", "--no-cache"
        )
        pairs = json.loads(out)["pairs"]
        assert sum(Path(p["b"]).parent.name == "ada" for p in pairs) == within
        assert sum(Path(p["b"]).parent.name == "ben" for p in pairs) == 2
        code, out, _ = run(
            capsys, "batch", new, "--against", old, *flags, "--json", "--no-cache", "--lang", "en"
        )
        assert pairs == json.loads(out)["pairs"]

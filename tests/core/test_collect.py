"""What a folder check collects (`core.batch.inputs`): every supported regular file, as a
sorted recursive search found them before; and every entry that cannot be a submission — a
named pipe, a link to a device, a link loop, a broken link, a file over the size limit, a
folder that cannot be opened — listed as failed with its reason, never opened. Doppel's own
report pages in a folder are left out and counted.

The tests with pipes and devices run the collection in a subprocess with a timeout: opening a
FIFO waits for a writer forever and reading /dev/zero never ends, so a regression shows as a
timeout (a guard, not a timing assertion) instead of a hung test run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.batch import run as run_module
from core.batch.cache import DocumentCache
from core.batch.cache import content_hash_of as real_hash_of
from core.batch.inputs import REPORT_MARKER, collect_inputs, is_report_page
from core.batch.run import BatchOptions, collect, load_templates, run_batch
from core.documents.document import Document
from core.documents.document import load_document as real_load_document
from core.documents.extract import MAX_FILE_BYTES, SUPPORTED_SUFFIXES
from core.errors import DocumentError
from core.options import SignatureOptions
from core.reports.html import write_html_report
from tests.core.classmaker import write_class

ROOT = Path(__file__).resolve().parents[2]
EN = SignatureOptions(language="en")
POSIX = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
#: a guard against a hang (a pipe opened, a device read): far longer than the work takes
GUARD_SECONDS = 120

_COLLECT = """
import json, sys
from core.batch.inputs import collect_inputs
found = collect_inputs(sys.argv[1:])
print(json.dumps({
    "submissions": [str(s.path) for s in found.submissions],
    "failed": {str(f.path): f.error for f in found.failed},
    "report_pages": [str(p) for p in found.report_pages],
}))
"""


def collect_guarded(*paths: Path) -> dict[str, Any]:
    """`collect_inputs(paths)` in a subprocess that must end within the guard."""
    done = subprocess.run(
        [sys.executable, "-c", _COLLECT, *map(str, paths)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=GUARD_SECONDS,
        check=True,
    )
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def essay_text(seed: int) -> str:
    return f"Essay number {seed} argues its own point. " * 20


@POSIX
def test_special_files_are_failed_with_their_reason_and_never_opened(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ana.txt").write_text(essay_text(1), encoding="utf-8")
    os.mkfifo(folder / "pipe.txt")
    (folder / "zero.txt").symlink_to("/dev/zero")
    (folder / "loop.docx").symlink_to(folder / "loop.docx")
    (folder / "gone.txt").symlink_to(folder / "moved-away.txt")
    sub = folder / "ben"
    sub.mkdir()
    (sub / "ben.txt").write_text(essay_text(2), encoding="utf-8")
    (sub / "back").symlink_to(folder)  # a link back up: searched once, not again
    with (folder / "huge.txt").open("wb") as big:  # sparse: no disk space used
        big.truncate(MAX_FILE_BYTES + 1)
    os.mkfifo(folder / "ignored.jpg")  # not a supported suffix: not a submission at all

    found = collect_guarded(folder)

    assert found["submissions"] == [str(folder / "ana.txt"), str(sub / "ben.txt")]
    failed = found["failed"]
    assert isinstance(failed, dict)
    reasons = {Path(path).name: reason for path, reason in failed.items()}
    assert set(reasons) == {"pipe.txt", "zero.txt", "loop.docx", "gone.txt", "back", "huge.txt"}
    assert "named pipe (FIFO)" in reasons["pipe.txt"] and "not opened" in reasons["pipe.txt"]
    assert "/dev/zero" in reasons["zero.txt"] and "a device" in reasons["zero.txt"]
    assert "loop" in reasons["loop.docx"]
    assert "does not exist" in reasons["gone.txt"]
    assert "searched already" in reasons["back"]
    # (one byte over: both sizes in bytes, so they do not read the same)
    assert reasons["huge.txt"] == (
        f"the file is {MAX_FILE_BYTES + 1:,} bytes; the limit is {MAX_FILE_BYTES:,} bytes; "
        "it was not read"
    )


@POSIX
def test_a_pipe_given_directly_is_failed_not_opened(tmp_path: Path) -> None:
    pipe = tmp_path / "essay.txt"
    os.mkfifo(pipe)
    found = collect_guarded(pipe, tmp_path / "missing.txt")
    # a missing file is left to the loader, which says it does not exist
    assert found["submissions"] == [str(tmp_path / "missing.txt")]
    assert found["failed"] == {
        str(pipe): "it is a named pipe (FIFO), not a document; it was not opened"
    }


@POSIX
def test_a_pipe_as_a_template_is_refused_before_it_is_opened(tmp_path: Path) -> None:
    pipe = tmp_path / "prompt.txt"
    os.mkfifo(pipe)
    script = (
        "import sys\n"
        "from core.batch.run import load_templates\n"
        "from core.errors import DocumentError\n"
        "from core.options import SignatureOptions\n"
        "try:\n"
        "    load_templates([sys.argv[1]], SignatureOptions(language='en'))\n"
        "except DocumentError as error:\n"
        "    print(error.reason)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(pipe)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=GUARD_SECONDS,
        check=True,
    )
    assert "named pipe (FIFO)" in done.stdout


def test_a_file_over_the_limit_is_failed_by_its_size_before_anything_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_class(tmp_path / "class", 3, pasted=0)
    big = folder / "thesis.txt"
    with big.open("wb") as out:
        out.truncate(MAX_FILE_BYTES + 1)
    hashed: list[Path] = []
    loaded: list[Path] = []

    def content_hash_of(path: Path) -> str | None:
        hashed.append(path)
        return real_hash_of(path)

    def load_document(path: Path, options: SignatureOptions) -> Document:
        loaded.append(path)
        return real_load_document(path, options)

    monkeypatch.setattr(run_module, "content_hash_of", content_hash_of)
    monkeypatch.setattr(run_module, "load_document", load_document)
    cache = DocumentCache(tmp_path / "cache.sqlite3")
    try:
        result = run_batch([folder], options=BatchOptions(signature=EN, workers=1), cache=cache)
    finally:
        cache.close()
    assert [f.path for f in result.failed] == [big]
    assert f"{MAX_FILE_BYTES + 1:,} bytes" in result.failed[0].error  # 200.0 MiB both ways
    assert big not in hashed and big not in loaded
    assert len(result.documents) == 3


def test_a_template_over_the_limit_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "prompt.txt"
    with big.open("wb") as out:
        out.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(DocumentError, match="the limit is"):
        load_templates([big], EN)


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0,
    reason="root reads any folder (CI runs as root; the next test covers it there)",
)
def test_a_folder_without_permission_is_listed_with_its_reason(tmp_path: Path) -> None:
    folder = write_class(tmp_path / "class", 2, pasted=0)
    locked = folder / "locked"
    locked.mkdir()
    (locked / "hidden-essay.txt").write_text(essay_text(3), encoding="utf-8")
    locked.chmod(0)
    try:
        found = collect_inputs([folder])
    finally:
        locked.chmod(0o755)
    assert [s.path.name for s in found.submissions] == ["student01.txt", "student02.txt"]
    (failure,) = found.failed
    assert failure.path == locked
    assert "permission denied" in failure.error and "not checked" in failure.error


def test_a_folder_that_cannot_be_opened_is_listed_with_its_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_class(tmp_path / "class", 2, pasted=0)
    locked = folder / "locked"
    locked.mkdir()
    (locked / "essay.txt").write_text(essay_text(3), encoding="utf-8")
    real_scandir = os.scandir

    def scandir(path: str | os.PathLike[str]) -> object:
        if Path(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)  # (the os module core.batch.inputs uses)
    found = collect_inputs([folder])
    assert [s.path.name for s in found.submissions] == ["student01.txt", "student02.txt"]
    assert [(f.path, "permission denied" in f.error) for f in found.failed] == [(locked, True)]
    result = run_batch([folder], options=BatchOptions(signature=EN, workers=1))
    assert [f.path for f in result.failed] == [locked]  # the batch lists it too


def test_doppels_own_report_pages_are_left_out_and_counted(tmp_path: Path) -> None:
    folder = write_class(tmp_path / "class", 4, pasted=0, copy=(1, 2))
    first = run_batch([folder], options=BatchOptions(signature=EN, workers=1))
    report = folder / "report"
    write_html_report(first, report, threshold=0.0, load_document=lambda d: _load(d.path))
    pages = sorted(report.rglob("*.html"))
    assert len(pages) >= 2 and all(is_report_page(p) for p in pages)
    # a student's own web page is a submission, whatever it says about generators
    (folder / "essay.html").write_text(
        "<html><head><meta name='generator' content='LibreOffice'></head><body><p>"
        + essay_text(9)
        + "</p></body></html>",
        encoding="utf-8",
    )
    found = collect_inputs([folder])
    assert list(found.report_pages) == pages
    assert {s.path.name for s in found.submissions} == {
        "essay.html",
        *(f"student0{k}.txt" for k in range(1, 5)),
    }
    again = run_batch([folder], options=BatchOptions(signature=EN, workers=1))
    assert again.report_pages == tuple(pages)
    assert len(again.documents) == 5 and not again.failed


def test_the_marker_is_what_the_report_templates_write() -> None:
    base = (ROOT / "resources" / "report" / "base.html").read_bytes()
    evidence = (ROOT / "resources" / "report" / "evidence.html").read_bytes()
    assert REPORT_MARKER.search(base) and REPORT_MARKER.search(evidence)


def _load(path: Path) -> Document:  # (a report page needs the documents again)
    return real_load_document(path, EN)


# -- the same files as before, in the same order -------------------------------------------

_names = st.sampled_from(["a", "b", "B", "c d", ".hidden", "~$lock", "ä", "z"])
_suffixes = st.sampled_from([".txt", ".docx", ".TXT", ".jpg", "", ".md"])
_trees = st.lists(
    st.tuples(st.lists(_names, min_size=0, max_size=3), _names, _suffixes),
    min_size=1,
    max_size=12,
)


def _old_collect(root: Path, student_folders: bool) -> list[tuple[Path, str]]:
    """The collection as it was (a sorted recursive glob): the oracle for ordinary trees."""
    found = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.suffix.lower() not in SUPPORTED_SUFFIXES:
            continue
        if path.name.startswith((".", "~$")):
            continue
        relative = path.relative_to(root)
        group = str(path)
        if student_folders and len(relative.parts) > 1:
            group = str(root / relative.parts[0])
        found.append((path, group))
    return found


@settings(max_examples=40, deadline=None)
@given(_trees, st.booleans())
def test_ordinary_folders_give_the_files_and_order_they_gave_before(
    tree: list[tuple[list[str], str, str]], student_folders: bool
) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary) / "class"
        root.mkdir()
        for folders, name, suffix in tree:
            parent = root.joinpath(*folders)
            if parent.exists() and not parent.is_dir():
                continue
            try:
                parent.mkdir(parents=True, exist_ok=True)
            except (FileExistsError, NotADirectoryError):
                continue  # a file already where a folder would go
            target = parent / f"{name}{suffix}"
            if not target.exists():
                target.write_text("text", encoding="utf-8")
        expected = _old_collect(root, student_folders)
        found = collect_inputs([root], student_folders=student_folders)
        assert [(s.path, s.group) for s in found.submissions] == expected
        assert found.failed == () and found.report_pages == ()
        assert [s.path for s in collect([root], student_folders=student_folders)] == [
            p for p, _ in expected
        ]

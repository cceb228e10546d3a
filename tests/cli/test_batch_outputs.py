"""What `doppel batch` writes: never into its inputs (an `--html` or `--csv` inside an input
folder, or over a submission, is refused with exit 2 before anything is read, and the next
check leaves Doppel's own report pages out); a report swapped in whole (a failure midway leaves
the earlier report exactly as it was; a folder that is no report is refused, untouched); and
file names that are not UTF-8, or hold control characters, written safely on every surface."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from app.cli.main import main
from core.reports import html as html_module
from core.reports.batch_export import submissions_csv_path
from core.resources import resource_path

SAMPLES = ("original-essay.txt", "reworded-copy.txt", "unrelated-essay.txt")


def write_samples(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in SAMPLES:
        (folder / name).write_bytes(resource_path("samples", name).read_bytes())
    return folder


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, by relative path, with its bytes."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


# -- outputs never inside the inputs ---------------------------------------------------------


def test_a_report_inside_an_input_folder_is_refused_and_nothing_is_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = write_samples(tmp_path / "class")
    # a student handed in a web page called index.html: the report must never replace it
    (folder / "index.html").write_text(
        "<html><body><p>My own essay about the sea and the ships.</p></body></html>", "utf-8"
    )
    before = snapshot(folder)
    for target in (folder, folder / "report", folder / "deep" / "er"):
        code, out, err = run(capsys, "batch", folder, "--html", target, "--no-cache")
        assert code == 2 and out == ""
        assert f"--html {target}:" in err
        assert "inside the input folder" in err or "one of the inputs" in err
    assert snapshot(folder) == before
    assert sorted(p.name for p in folder.iterdir()) == sorted([*SAMPLES, "index.html"])


def test_a_csv_inside_or_over_an_input_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = write_samples(tmp_path / "class")
    archive = write_samples(tmp_path / "last-year")
    loose = tmp_path / "late.txt"
    loose.write_bytes(resource_path("samples", "reworded-copy.txt").read_bytes())
    before = snapshot(tmp_path)
    cases = [
        (folder / "pairs.csv", "inside the input folder"),
        (archive / "pairs.csv", "inside the input folder"),  # --against is an input too
        (loose, "one of the inputs"),  # over the submission itself
    ]
    for target, refusal in cases:
        code, _, err = run(
            capsys, "batch", folder, loose, "--against", archive, "--csv", target, "--no-cache"
        )
        assert code == 2, err
        assert refusal in err
    assert snapshot(tmp_path) == before
    # written next to the inputs is fine
    target = tmp_path / "out" / "pairs.csv"
    code, _, _ = run(capsys, "batch", folder, "--csv", target, "--no-cache", "--lang", "en")
    assert code == 0 and target.is_file() and submissions_csv_path(target).is_file()


def test_a_link_to_an_input_folder_is_the_input_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = write_samples(tmp_path / "class")
    alias = tmp_path / "alias"
    alias.symlink_to(folder, target_is_directory=True)
    code, _, err = run(capsys, "batch", folder, "--html", alias / "report", "--no-cache")
    assert code == 2 and "inside the input folder" in err
    assert not (folder / "report").exists()


def test_a_report_folder_holding_an_input_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = write_samples(tmp_path / "work" / "class")
    code, _, err = run(capsys, "batch", folder, "--html", tmp_path / "work", "--no-cache")
    assert code == 2 and "holds the input" in err


def test_a_folder_that_is_not_a_report_is_refused_untouched(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = write_samples(tmp_path / "class")
    documents = tmp_path / "Documents"
    documents.mkdir()
    (documents / "grades.xlsx").write_bytes(b"the teacher's grades")
    code, _, err = run(capsys, "batch", folder, "--html", documents, "--no-cache")
    assert code == 2
    assert "not empty and holds no Doppel report" in err and "nothing in it was changed" in err
    assert snapshot(documents) == {"grades.xlsx": b"the teacher's grades"}


def test_the_next_check_leaves_the_report_pages_out_and_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = write_samples(tmp_path / "class")
    report = tmp_path / "report"
    code, _, _ = run(capsys, "batch", folder, "--html", report, "--no-cache", "--lang", "en")
    assert code == 0
    pages = sorted(report.rglob("*.html"))
    assert len(pages) >= 2
    # as an older version would have left it: the report inside the class folder
    shutil.copytree(report, folder / "report")
    code, out, _ = run(capsys, "batch", folder, "--no-cache", "--lang", "en")
    assert code == 0
    assert f"{len(pages)} Doppel report pages left out" in out
    assert str(folder / "report") in out
    assert "3 documents, 0 failed" in out
    code, out, _ = run(capsys, "batch", folder, "--no-cache", "--lang", "en", "--json")
    data = json.loads(out)
    assert sorted(data["report_pages"]) == sorted(
        str(folder / "report" / p.relative_to(report)) for p in pages
    )
    assert sorted(Path(d["path"]).name for d in data["documents"]) == sorted(SAMPLES)


# -- the report swapped in whole ---------------------------------------------------------------


def test_a_report_that_fails_midway_leaves_the_earlier_report_intact(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_samples(tmp_path / "class")
    for name in SAMPLES:  # more pairs: a second copy of each essay
        (folder / f"again-{name}").write_bytes((folder / name).read_bytes())
    report = tmp_path / "report"
    code, _, _ = run(capsys, "batch", folder, "--html", report, "--no-cache", "--lang", "en")
    assert code == 0
    (report / "notes.txt").write_text("the teacher's notes", "utf-8")
    earlier = snapshot(report)
    assert sum(1 for name in earlier if name.startswith("pairs/")) >= 3

    real = html_module._write_page
    written: list[Path] = []

    def failing(path: Path, html: str) -> Path:
        if len(written) == 2:  # the third page: the disk is full
            raise OSError(28, "No space left on device", str(path))
        written.append(path)
        return real(path, html.replace("Similarity report", "NEW REPORT"))

    monkeypatch.setattr(html_module, "_write_page", failing)
    code, _, err = run(
        capsys, "batch", folder, "--html", report, "--no-cache", "--lang", "en", "--threshold", "0"
    )
    assert code == 2
    assert "the report could not be written: No space left on device" in err
    assert len(written) == 2
    assert snapshot(report) == earlier  # every file as it was, and no new one
    assert sorted(p.name for p in tmp_path.iterdir()) == ["class", "report"]  # no leftovers

    monkeypatch.setattr(html_module, "_write_page", real)
    code, _, _ = run(
        capsys, "batch", folder, "--html", report, "--no-cache", "--lang", "en", "--threshold", "1"
    )
    assert code == 0
    assert (report / "notes.txt").read_text("utf-8") == "the teacher's notes"  # carried over
    linked = set(
        re.findall(r'href="pairs/(\d+\.html)"', (report / "index.html").read_text("utf-8"))
    )
    pages = {p.name for p in (report / "pairs").iterdir()}
    assert linked == pages and len(pages) == 3  # the three identical copies, nothing stale
    assert sorted(p.name for p in tmp_path.iterdir()) == ["class", "report"]


# -- names that are not UTF-8, names with control characters ---------------------------------


def _bytes_name(folder: Path, name: bytes, data: bytes) -> Path:
    """A file whose name is the bytes `name` (skips where the file system refuses them)."""
    raw = os.fsencode(folder) + b"/" + name
    try:
        descriptor = os.open(raw, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            os.write(descriptor, data)
        finally:
            os.close(descriptor)
    except (OSError, ValueError) as error:
        pytest.skip(f"the file system refuses the name {name!r}: {error}")
    return Path(os.fsdecode(raw))


def test_names_that_are_not_utf8_are_written_safely_everywhere(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    original = resource_path("samples", "original-essay.txt").read_bytes()
    copy = resource_path("samples", "reworded-copy.txt").read_bytes()
    (folder / "original.txt").write_bytes(original)
    latin1 = _bytes_name(folder, b"caf\xe9-copy.txt", copy)  # Latin-1, not UTF-8
    assert "\udce9" in str(latin1)  # Python's surrogate escape of the byte
    shown = "caf\ufffd-copy.txt"

    code, out, _ = run(capsys, "batch", folder, "--no-cache", "--lang", "en")
    assert code == 0 and shown in out

    code, out, _ = run(capsys, "batch", folder, "--no-cache", "--lang", "en", "--json")
    assert code == 0
    data = json.loads(out)
    (pair,) = data["pairs"]
    exact = {os.fsencode(pair["a"]), os.fsencode(pair["b"])}
    assert os.fsencode(latin1) in exact  # the exact bytes: a script can reopen the file
    assert all(Path(os.fsdecode(p)).is_file() for p in exact)

    target = tmp_path / "out" / "pairs.csv"
    report = tmp_path / "report"
    code, _, err = run(
        capsys, "batch", folder, "--no-cache", "--lang", "en", "--csv", target, "--html", report
    )
    assert code == 0, err
    for written in (target, submissions_csv_path(target)):
        text = written.read_bytes().decode("utf-8")  # strict: valid UTF-8
        assert shown in text
    pages = sorted(report.rglob("*.html"))
    assert len(pages) == 2
    for page in pages:
        assert shown in page.read_bytes().decode("utf-8")


def test_a_control_character_in_a_name_cannot_split_a_row(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "original.txt").write_bytes(
        resource_path("samples", "original-essay.txt").read_bytes()
    )
    copy = resource_path("samples", "reworded-copy.txt").read_bytes()
    two_lines = _bytes_name(folder, b"two\nlines.txt", copy)
    _bytes_name(folder, b"\x1b[31mred\xe2\x80\xaetxt.txt", b"")  # escape codes, right-to-left
    code, out, _ = run(capsys, "batch", folder, "--no-cache", "--lang", "en")
    assert code == 0
    rows = [line for line in out.splitlines() if "original.txt" in line and "↔" in line]
    assert len(rows) == 1 and "two\\nlines.txt" in rows[0]
    assert not [line for line in out.splitlines() if line.startswith("lines.txt")]
    assert "\x1b" not in out and "\u202e" not in out
    assert "\\x1b[31mred\\u202etxt.txt" in out  # the empty file is listed as failed, escaped

    target = tmp_path / "pairs.csv"
    code, _, _ = run(capsys, "batch", folder, "--no-cache", "--lang", "en", "--csv", target)
    assert code == 0
    (header, row) = list(csv.reader(io.StringIO(target.read_text("utf-8"), newline="")))
    assert str(two_lines) in (row[header.index("a")], row[header.index("b")])  # exact

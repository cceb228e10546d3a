"""`doppel batch` on the bundled samples: the table, the JSON contract, CSV, threshold."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

from app.cli import main
from core.resources import resource_path


def copy_samples(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("original-essay.txt", "reworded-copy.docx", "unrelated-essay.txt"):
        (folder / name).write_bytes(resource_path("samples", name).read_bytes())
    (folder / "broken.docx").write_bytes(b"PK\x03\x04 not a zip")
    return folder


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_has_documents_failed_and_ranked_pairs(capsys, tmp_path: Path) -> None:
    folder = copy_samples(tmp_path / "class")
    code, out, _ = run(capsys, "batch", folder, "--json", "--no-cache", "--lang", "en")
    assert code == 0
    data = json.loads(out)
    assert {Path(d["path"]).name for d in data["documents"]} == {
        "original-essay.txt",
        "reworded-copy.docx",
        "unrelated-essay.txt",
    }
    assert [Path(f["path"]).name for f in data["failed"]] == ["broken.docx"]
    assert data["failed"][0]["error"]
    (pair,) = data["pairs"]
    assert set(pair) == {
        "a",
        "b",
        "jaccard",
        "coverage_a",
        "coverage_b",
        "verified_blocks",
        "longest_block",
    }
    assert {Path(pair["a"]).name, Path(pair["b"]).name} == {
        "original-essay.txt",
        "reworded-copy.docx",
    }
    assert 0.3 < pair["jaccard"] < 0.32


def test_table_csv_and_threshold(capsys, tmp_path: Path) -> None:
    folder = copy_samples(tmp_path / "class")
    target = tmp_path / "out" / "pairs.csv"
    code, out, _ = run(capsys, "batch", folder, "--csv", target, "--no-cache")
    assert code == 0 and "original-essay.txt" in out and "broken.docx" in out
    rows = list(csv.DictReader(target.open(encoding="utf-8")))
    assert len(rows) == 1 and float(rows[0]["jaccard"]) > 0.3
    assert not list(target.parent.glob(".*.tmp"))  # written atomically, nothing left over
    code, out, _ = run(capsys, "batch", folder, "--json", "--threshold", "0.5", "--no-cache")
    assert json.loads(out)["pairs"] == []


def test_against_an_archive_and_a_bad_threshold(capsys, tmp_path: Path) -> None:
    new = tmp_path / "new"
    new.mkdir()
    (new / "late.txt").write_bytes(resource_path("samples", "reworded-copy.txt").read_bytes())
    archive = copy_samples(tmp_path / "2025")
    code, out, _ = run(capsys, "batch", new, "--against", archive, "--json", "--no-cache")
    data = json.loads(out)
    assert data["possible_pairs"] == 3
    assert all("late.txt" in (p["a"] + p["b"]) for p in data["pairs"])
    code, _, err = run(capsys, "batch", new, "--threshold", "2")
    assert code == 2 and "threshold" in err


def test_html_report_escapes_document_text(capsys, tmp_path: Path) -> None:
    folder = copy_samples(tmp_path / "class")
    hostile = resource_path("samples", "original-essay.txt").read_text(encoding="utf-8")
    hostile = hostile.replace(
        "Public libraries are", "<script>alert(1)</script> Public libraries are"
    )
    (folder / "sneaky.txt").write_text(hostile, encoding="utf-8")
    report = tmp_path / "report"
    code, out, _ = run(capsys, "batch", folder, "--html", report, "--no-cache", "--lang", "en")
    assert code == 0 and "Report:" in out
    pages = [report / "index.html", *sorted((report / "pairs").glob("*.html"))]
    assert len(pages) > 1
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert "<script>alert(1)</script>" not in html
    assert any(
        "&lt;script&gt;alert(1)&lt;/script&gt;" in p.read_text(encoding="utf-8") for p in pages
    )
    umask = os.umask(0)
    os.umask(umask)
    # the mode a plain write would give (mkstemp alone would make it private)
    assert (report / "index.html").stat().st_mode & 0o777 == 0o666 & ~umask

"""A copy disguised with look-alike letters is found, and every output says it was disguised:
the text table, the JSON (`tampering`: kind and count), both CSVs, the HTML report and the
evidence report. A genuine Russian essay beside it raises no warning."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from app.cli.main import main
from core.resources import resource_path

ORIGINAL = resource_path("samples", "original-essay.txt")
UNRELATED = resource_path("samples", "unrelated-essay.txt")
#: Latin letters and the Cyrillic letters that look the same
LATIN, CYRILLIC = "aeopcxAEOPCX", "аеорсхАЕОРСХ"
RUSSIAN = (
    "Москва — столица России и крупнейший город страны. Город стоит на реке Москве, в центре "
    "Восточно-Европейской равнины. В Москве много музеев, театров и парков. Каждый год "
    "сюда приезжают миллионы туристов со всего мира. Летом в парках гуляют семьи с детьми, "
    "а зимой горожане катаются на коньках. Метро Москвы считается одним из самых красивых в "
    "мире. Его станции украшены мозаикой, мрамором и скульптурами. OK, iPhone и COVID-19 "
    "здесь тоже говорят по-английски."
)


def disguised_text() -> tuple[str, int]:
    text = ORIGINAL.read_text(encoding="utf-8")
    return text.translate(str.maketrans(LATIN, CYRILLIC)), sum(map(text.count, LATIN))


def make_class(folder: Path) -> tuple[Path, int]:
    folder.mkdir()
    (folder / "original-essay.txt").write_bytes(ORIGINAL.read_bytes())
    (folder / "unrelated-essay.txt").write_bytes(UNRELATED.read_bytes())
    (folder / "russian.txt").write_text(RUSSIAN, encoding="utf-8")
    text, swapped = disguised_text()
    copy = folder / "copy <i>&.txt"  # a name the HTML must escape
    copy.write_text(text, encoding="utf-8")
    return copy, swapped


def run(capsys, *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def message(swapped: int) -> str:
    return (
        f"{swapped:,} Latin letters replaced by look-alikes from other scripts — a known way "
        "to hide copying"
    )


def test_a_disguised_copy_is_found_and_said_in_every_batch_output(capsys, tmp_path: Path) -> None:
    copy, swapped = make_class(tmp_path / "class")
    out_csv, out_html = tmp_path / "pairs.csv", tmp_path / "report"
    code, out, _ = run(capsys, "batch", tmp_path / "class", "--json", "--no-cache")
    assert code == 0
    data = json.loads(out)
    by_name = {Path(d["path"]).name: d for d in data["documents"]}
    assert by_name[copy.name]["tampering"] == [
        {
            "kind": "lookalike_letters",
            "count": swapped,
            "detail": "Latin",
            "message": message(swapped),
        }
    ]
    assert message(swapped) in by_name[copy.name]["warnings"]
    for name in ("original-essay.txt", "unrelated-essay.txt", "russian.txt"):
        assert by_name[name]["tampering"] == []
    pair = data["pairs"][0]
    assert {Path(pair["a"]).name, Path(pair["b"]).name} == {copy.name, "original-essay.txt"}
    assert pair["flagged"] and min(pair["copied_a"], pair["copied_b"]) > 0.9

    code, out, _ = run(
        capsys, "batch", tmp_path / "class", "--no-cache", "--csv", out_csv, "--html", out_html
    )
    assert code == 0
    assert "Disguised to hide copying (undone before the check):" in out
    assert f"{copy}: {message(swapped)}" in out
    assert "russian.txt:" not in out.split("Disguised to hide copying")[1]

    with (tmp_path / "pairs-submissions.csv").open(encoding="utf-8", newline="") as handle:
        rows = {Path(r["path"]).name: r for r in csv.DictReader(handle)}
    assert rows[copy.name]["disguised"] == message(swapped)
    assert rows["russian.txt"]["disguised"] == ""

    index = (out_html / "index.html").read_text(encoding="utf-8")
    assert 'id="disguised"' in index and message(swapped) in index
    assert "copy &lt;i&gt;&amp;.txt" in index and "<i>&" not in index
    pages = [p.read_text(encoding="utf-8") for p in (out_html / "pairs").glob("*.html")]
    assert any(f"was disguised: {message(swapped)}." in page for page in pages)


def test_compare_and_the_evidence_report_say_the_copy_was_disguised(capsys, tmp_path: Path) -> None:
    copy, swapped = make_class(tmp_path / "class")
    code, out, _ = run(capsys, "compare", ORIGINAL, copy, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["a"]["tampering"] == []
    assert [(t["kind"], t["count"]) for t in data["b"]["tampering"]] == [
        ("lookalike_letters", swapped)
    ]
    assert data["flagged"] and data["copied_b"] > 0.9

    code, out, _ = run(capsys, "compare", ORIGINAL, copy)
    assert f"   disguised: {message(swapped)}" in out

    report = tmp_path / "evidence.html"
    code, _, _ = run(capsys, "report", ORIGINAL, copy, "--html", report)
    assert code == 0
    page = report.read_text(encoding="utf-8")
    assert f'<p class="disguise">B, copy &lt;i&gt;&amp;.txt: {message(swapped)}.</p>' in page

"""`doppel batch` on the bundled samples: the table, the JSON contract (fields only added), CSV,
the threshold on the copied share, reworded passages and --strict."""

from __future__ import annotations

import csv
import json
import os
import random
from pathlib import Path

import pytest

from app.cli.batch import SUBMISSIONS_HEADING, TABLE_KEY
from app.cli.main import main
from core.documents.sentences import word_spans
from core.reports.batch_export import CSV_COLUMNS, SUBMISSION_CSV_COLUMNS
from core.reports.wording import LEFT_OUT, percent
from core.resources import resource_path

#: a pair's fields before reworded passages (issue 12), and the fields they added
OLD_PAIR_FIELDS = {
    "a",
    "b",
    "jaccard",
    "coverage_a",
    "coverage_b",
    "verified_blocks",
    "longest_block",
}
NEW_PAIR_FIELDS = {"flagged", "copied_a", "copied_b", "reworded_passages"}


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
    assert set(pair) == OLD_PAIR_FIELDS | NEW_PAIR_FIELDS
    assert {Path(pair["a"]).name, Path(pair["b"]).name} == {
        "original-essay.txt",
        "reworded-copy.docx",
    }
    assert 0.3 < pair["jaccard"] < 0.32
    assert pair["flagged"] is True and pair["reworded_passages"] == 2
    assert pair["verified_blocks"] == 4 and pair["longest_block"] == 5
    # the same shares as `doppel compare` on the pair
    _, out, _ = run(capsys, "compare", folder / "original-essay.txt", folder / "reworded-copy.docx",
                    "--json", "--lang", "en")  # fmt: skip
    compared = json.loads(out)
    assert (pair["copied_a"], pair["copied_b"]) == (compared["copied_a"], compared["copied_b"])


def test_strict_keeps_every_old_field_and_leaves_reworded_passages_out(
    capsys, tmp_path: Path
) -> None:
    folder = copy_samples(tmp_path / "class")
    argv = ["batch", folder, "--json", "--no-cache", "--lang", "en"]
    _, out, _ = run(capsys, *argv)
    (default,) = json.loads(out)["pairs"]
    assert json.loads(out)["options"] == {"reworded": True}
    _, out, _ = run(capsys, *argv, "--strict")
    (strict,) = json.loads(out)["pairs"]
    assert json.loads(out)["options"] == {"reworded": False}
    assert {k: strict[k] for k in OLD_PAIR_FIELDS} == {k: default[k] for k in OLD_PAIR_FIELDS}
    assert strict["reworded_passages"] == 0 and strict["flagged"] is True
    assert strict["copied_a"] < default["copied_a"]


EDITED_A = (
    "Job seekers print their applications and practise for interviews. Funding, however, "
    "remains a constant struggle. When budgets shrink, opening hours are usually the first "
    "thing to be cut. Shorter hours hurt exactly those visitors who depend on the library most."
)
EDITED_B = (
    "Job seekers print their applications and practise for interviews. Money, unfortunately, "
    "remains a permanent problem. Whenever budgets shrink, staff positions are typically the "
    "earliest thing to be reduced. Shorter hours hurt exactly those visitors who depend on the "
    "library most."
)


def reworded_only(folder: Path) -> Path:
    """Two essays sharing one edited paragraph (no two consecutive sentences alike enough for
    a verified block), and the unrelated sample."""
    folder.mkdir(parents=True)
    own = resource_path("samples", "unrelated-essay.txt").read_text(encoding="utf-8")
    own = own.split("\n\n")
    (folder / "anna.txt").write_text("\n\n".join([own[1], EDITED_A, own[2]]), encoding="utf-8")
    (folder / "ben.txt").write_text("\n\n".join([own[3], EDITED_B, own[4]]), encoding="utf-8")
    original = resource_path("samples", "original-essay.txt").read_bytes()
    (folder / "cara.txt").write_bytes(original)
    return folder


def test_a_pair_found_only_by_the_reworded_detector_is_listed(capsys, tmp_path: Path) -> None:
    folder = reworded_only(tmp_path / "class")
    argv = ["batch", folder, "--no-cache", "--lang", "en"]
    code, out, _ = run(capsys, *argv, "--json")
    assert code == 0
    pairs = {(Path(p["a"]).name, Path(p["b"]).name): p for p in json.loads(out)["pairs"]}
    found = pairs[("anna.txt", "ben.txt")]
    assert found["flagged"] is True and found["reworded_passages"] == 1
    assert found["verified_blocks"] == 0 and found["longest_block"] == 0
    assert found["jaccard"] == found["coverage_a"] == 0.0 and found["copied_a"] > 0.3
    _, out, _ = run(capsys, *argv, "--json", "--strict")
    strict = {(Path(p["a"]).name, Path(p["b"]).name) for p in json.loads(out)["pairs"]}
    assert ("anna.txt", "ben.txt") not in strict
    _, out, _ = run(capsys, *argv)  # the table lists it with its edited passage
    row = next(line for line in out.splitlines() if line.endswith("anna.txt  ↔  ben.txt"))
    assert row.split()[:7] == [
        percent(max(found["copied_a"], found["copied_b"])),
        percent(found["copied_a"]),
        percent(found["copied_b"]),
        "0%",
        "0",
        "1",
        "0",
    ]


def test_table_csv_and_threshold(capsys, tmp_path: Path) -> None:
    folder = copy_samples(tmp_path / "class")
    target = tmp_path / "out" / "pairs.csv"
    code, out, _ = run(capsys, "batch", folder, "--csv", target, "--no-cache")
    assert code == 0 and "original-essay.txt" in out and "broken.docx" in out
    lines = out.splitlines()
    header = next(k for k, line in enumerate(lines) if line.split()[:1] == ["copied"])
    assert lines[header].split()[:7] == [
        "copied", "A", "in", "B", "B", "in", "A",
    ]  # fmt: skip
    assert lines[header].split()[7:11] == ["Jaccard", "blocks", "edited", "longest"]
    assert "original-essay.txt  ↔  reworded-copy.docx" in lines[header + 1]
    assert lines[header + 3 : header + 5] == list(TABLE_KEY)
    with target.open(encoding="utf-8", newline="") as file:
        table = list(csv.reader(file))
    # the old columns in their order, then the new ones at the end
    assert table[0] == list(CSV_COLUMNS) and CSV_COLUMNS[:7] == (
        "a", "b", "jaccard", "coverage_a", "coverage_b", "verified_blocks", "longest_block",
    )  # fmt: skip
    assert CSV_COLUMNS[7:] == ("flagged", "copied_a", "copied_b", "reworded_passages")
    rows = list(csv.DictReader(target.open(encoding="utf-8")))
    assert len(rows) == 1 and float(rows[0]["jaccard"]) > 0.3
    _, out, _ = run(capsys, "batch", folder, "--json", "--no-cache")
    (pair,) = json.loads(out)["pairs"]
    assert rows[0]["flagged"] == "true" and rows[0]["reworded_passages"] == "2"
    assert float(rows[0]["copied_a"]) == pair["copied_a"]
    assert float(rows[0]["copied_b"]) == pair["copied_b"]
    assert not list(target.parent.glob(".*.tmp"))  # written atomically, nothing left over
    # the threshold is on the copied share (70.8% here), not on Jaccard (30.8%)
    code, out, _ = run(capsys, "batch", folder, "--json", "--threshold", "0.5", "--no-cache")
    assert len(json.loads(out)["pairs"]) == 1
    code, out, _ = run(capsys, "batch", folder, "--json", "--threshold", "0.75", "--no-cache")
    assert json.loads(out)["pairs"] == []
    code, out, _ = run(capsys, "batch", folder, "--threshold", "0.75", "--no-cache")
    assert "No copied text found in any pair with a copied share of 75% or more." in out


def test_against_an_archive_and_a_bad_threshold(capsys, tmp_path: Path) -> None:
    new = tmp_path / "new"
    new.mkdir()
    (new / "late.txt").write_bytes(resource_path("samples", "reworded-copy.txt").read_bytes())
    archive = copy_samples(tmp_path / "2025")
    code, out, _ = run(capsys, "batch", new, "--against", archive, "--json", "--no-cache")
    data = json.loads(out)
    assert code == 0 and data["possible_pairs"] == 3
    assert all("late.txt" in (p["a"] + p["b"]) for p in data["pairs"])
    with pytest.raises(SystemExit) as exit_info:
        main(["batch", str(new), "--threshold", "2"])
    assert exit_info.value.code == 2 and "threshold" in capsys.readouterr().err


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


# --- exclusions ------------------------------------------------------------------------------

PROMPT = (
    "Read the passage below and answer the questions that follow. Discuss how the author "
    "uses the setting to build <script>alert(2)</script> tension in the opening chapters. "
    "Refer closely to the language of the text in your answer."
)


def class_with_prompt(folder: Path) -> Path:
    """The three samples and three more essays, all but one starting with the same prompt."""
    copy_samples(folder)
    (folder / "broken.docx").unlink()
    rng = random.Random(4)
    for k in range(3):
        words = [f"v{k}x{j}" for j in range(400)]
        text = " ".join(
            " ".join(rng.choice(words) for _ in range(9)).capitalize() + "." for _ in range(25)
        )
        (folder / f"extra{k}.txt").write_text(text, encoding="utf-8")
    for path in sorted(folder.iterdir())[:-1]:
        if path.suffix == ".txt":
            path.write_text(PROMPT + "\n\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    return folder


def test_exclude_common_in_json_and_table(capsys, tmp_path: Path) -> None:
    folder = class_with_prompt(tmp_path / "class")
    argv = ["batch", folder, "--json", "--no-cache", "--lang", "en"]
    code, out, _ = run(capsys, *argv)
    plain = json.loads(out)
    assert len(plain["pairs"]) > 1  # the prompt links every holder
    # ranked as the engine ranks them: copied text found first, the larger share first
    shares = [max(p["copied_a"], p["copied_b"]) for p in plain["pairs"]]
    assert all(p["flagged"] for p in plain["pairs"]) and shares == sorted(shares, reverse=True)
    assert plain["exclusions"] == {
        "quotations": False,
        "references": False,
        "templates": [],
        "template_phrase_words": 6,
        "common_share": None,
    }
    assert plain["common_text"] == []
    assert all(d["excluded_sentences"] == 0 for d in plain["documents"])
    code, out, _ = run(capsys, *argv, "--exclude-common", "0.5")
    data = json.loads(out)
    assert code == 0
    assert data["exclusions"]["common_share"] == 0.5
    (passage,) = data["common_text"]
    assert passage["text"] == PROMPT and passage["words"] == len(word_spans(PROMPT))
    assert passage["documents"] == 4 and data["common_counted"] == 6
    (pair,) = data["pairs"]  # only the real copy is left
    assert {Path(pair["a"]).name, Path(pair["b"]).name} == {
        "original-essay.txt",
        "reworded-copy.docx",
    }
    holders = [d for d in data["documents"] if d["excluded_sentences"]]
    assert len(holders) == 4
    assert all(
        d["excluded"] == {"quotation": 0, "references": 0, "template": 0, "common": 3}
        for d in holders
    )
    code, out, _ = run(
        capsys, "batch", folder, "--no-cache", "--lang", "en", "--exclude-common", "0.5"
    )
    assert f"{LEFT_OUT}: text found in more than 50% of the documents" in out
    assert "in 4 of 6 documents: Read the passage below" in out


def test_bad_exclusion_options_are_refused(capsys, tmp_path: Path) -> None:
    folder = copy_samples(tmp_path / "class")
    for share in ("0", "1", "1.5", "-0.2"):
        with pytest.raises(SystemExit) as exit_info:
            main(["batch", str(folder), "--no-cache", "--exclude-common", share])
        assert exit_info.value.code == 2 and "--exclude-common" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["batch", str(folder), "--no-cache", "--template-phrase-words", "1"])
    assert exit_info.value.code == 2 and "--template-phrase-words" in capsys.readouterr().err
    code, _, err = run(capsys, "batch", folder, "--no-cache", "--template", tmp_path / "nope.txt")
    assert code == 2 and "nope.txt" in err


def test_a_template_file_and_quotes(capsys, tmp_path: Path) -> None:
    folder = class_with_prompt(tmp_path / "class")
    prompt = folder / "prompt.txt"
    prompt.write_text(PROMPT, encoding="utf-8")  # inside the folder: not a submission
    code, out, _ = run(
        capsys, "batch", folder, "--json", "--no-cache", "--lang", "en",
        "--template", prompt, "--exclude-quotes", "--exclude-references",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0 and "prompt.txt" not in {Path(d["path"]).name for d in data["documents"]}
    assert data["exclusions"]["templates"] == [str(prompt)]
    assert data["exclusions"]["quotations"] and data["exclusions"]["references"]
    assert sorted(d["excluded"]["template"] for d in data["documents"]) == [0, 0, 3, 3, 3, 3]
    assert len(data["pairs"]) == 1


def test_html_report_lists_common_text_escaped_and_shades_it(capsys, tmp_path: Path) -> None:
    folder = class_with_prompt(tmp_path / "class")
    report = tmp_path / "report"
    code, _, _ = run(
        capsys, "batch", folder, "--html", report, "--no-cache", "--lang", "en",
        "--exclude-common", "0.5", "--threshold", "0",
    )  # fmt: skip
    assert code == 0
    index = (report / "index.html").read_text(encoding="utf-8")
    assert "Excluded common text" in index and f"{LEFT_OUT}</h2>" in index
    assert "more than 50% of the documents" in index
    assert "<script>alert(2)</script>" not in index
    assert "build &lt;script&gt;alert(2)&lt;/script&gt; tension" in index
    assert ">4 <small>of 6</small>" in index
    (page,) = sorted((report / "pairs").glob("*.html"))
    html = page.read_text(encoding="utf-8")
    assert "excluded: common text" in html and 'class="excluded ex-common"' in html
    assert "<script>alert(2)</script>" not in html


# -- the class one submission at a time, and the prompt everyone pasted ---------------------


def test_each_submission_with_the_most_of_it_found_in_another(capsys, tmp_path: Path) -> None:
    folder = class_with_prompt(tmp_path / "class")
    target = tmp_path / "out" / "pairs.csv"
    _, out, _ = run(capsys, "batch", folder, "--json", "--no-cache", "--lang", "en")
    data = json.loads(out)
    documents = {Path(d["path"]).name: d for d in data["documents"]}
    copy, original = documents["reworded-copy.docx"], documents["original-essay.txt"]
    assert Path(copy["strongest_partner"]["path"]).name == "original-essay.txt"
    (pair,) = [p for p in data["pairs"] if {Path(p["a"]).name, Path(p["b"]).name} == {
        "reworded-copy.docx", "original-essay.txt"}]  # fmt: skip
    side = "copied_a" if Path(pair["a"]).name == "reworded-copy.docx" else "copied_b"
    assert copy["strongest_partner"]["share"] == pair[side]
    assert Path(original["strongest_partner"]["path"]).name == "reworded-copy.docx"
    assert copy["flagged_pairs"] == 1 and original["flagged_pairs"] == 4
    assert documents["unrelated-essay.txt"]["strongest_partner"] is None
    assert documents["unrelated-essay.txt"]["flagged_pairs"] == 0
    # the table says it in words, the most found first
    _, out, _ = run(capsys, "batch", folder, "--no-cache", "--lang", "en", "--csv", target)
    lines = out.splitlines()
    start = lines.index(SUBMISSIONS_HEADING)
    assert lines[start + 1] == (
        f"{percent(copy['strongest_partner']['share']):>7}  reworded-copy.docx  in  "
        "original-essay.txt"
    )
    assert lines[start + 6].split() == ["1", "other", "submission:", "nothing", "found", "in",
                                        "another", "document"]  # fmt: skip
    # and the CSV beside the pairs' lists them all
    beside = tmp_path / "out" / "pairs-submissions.csv"
    rows = list(csv.DictReader(beside.open(encoding="utf-8")))
    assert list(rows[0]) == list(SUBMISSION_CSV_COLUMNS)
    assert [Path(r["path"]).name for r in rows][:2] == ["reworded-copy.docx", "original-essay.txt"]
    assert Path(rows[0]["partner"]).name == "original-essay.txt"
    assert float(rows[0]["share"]) == copy["strongest_partner"]["share"]
    assert rows[-1]["partner"] == "" and rows[-1]["share"] == "0.0" and rows[-1]["pairs"] == "0"
    assert {r["archive"] for r in rows} == {"false"}


def test_the_pasted_prompt_is_pointed_out_with_the_option_that_leaves_it_out(
    capsys, tmp_path: Path
) -> None:
    folder = class_with_prompt(tmp_path / "class")
    argv = ["batch", folder, "--no-cache", "--lang", "en"]
    _, out, _ = run(capsys, *argv)
    (hint,) = [line for line in out.splitlines() if line.startswith("hint: ")]
    assert hint.startswith(
        "hint: Most pairs share the same passage (in 4 of 6 submissions): 'Read the passage "
        "below and answer the questions that…' — probably a prompt everyone pasted."
    )
    assert hint.endswith("To leave out text common to the class: --exclude-common 0.5")
    _, out, _ = run(capsys, *argv, "--json")
    found = json.loads(out)["common_hint"]
    assert found["share"] == 0.5 and found["counted"] == 6
    assert found["pairs"] == 6 and found["flagged"] == 7
    assert [(p["text"], p["documents"]) for p in found["passages"]] == [(PROMPT, 4)]
    # once it is left out, nothing more is suggested
    _, out, _ = run(capsys, *argv, "--exclude-common", "0.5")
    assert "hint:" not in out
    _, out, _ = run(capsys, *argv, "--exclude-common", "0.5", "--json")
    assert json.loads(out)["common_hint"] is None
    # a class without one hears nothing of it
    plain = copy_samples(tmp_path / "plain")
    _, out, _ = run(capsys, "batch", plain, "--no-cache", "--lang", "en")
    assert "hint:" not in out
    _, out, _ = run(capsys, "batch", plain, "--no-cache", "--lang", "en", "--json")
    assert json.loads(out)["common_hint"] is None


def test_strict_lists_neither_submissions_nor_the_hint(capsys, tmp_path: Path) -> None:
    folder = class_with_prompt(tmp_path / "class")
    _, out, _ = run(capsys, "batch", folder, "--no-cache", "--lang", "en", "--strict")
    assert SUBMISSIONS_HEADING not in out and "hint:" not in out

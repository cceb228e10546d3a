"""The `doppel` command line on the bundled samples and on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from core.resources import resource_path

SAMPLES = resource_path("samples")
ORIGINAL = SAMPLES / "original-essay.txt"
COPY_DOCX = SAMPLES / "reworded-copy.docx"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_samples_show_verified_split_and_discarded_blocks(capsys) -> None:
    code, out, err = run(capsys, "compare", ORIGINAL, COPY_DOCX)
    assert code == 0, err
    assert "Jaccard similarity" in out
    for state in ("verified", "split", "discarded"):
        assert f"  {state}  " in out or f"  {state} " in out
    assert "first words differ" in out


def test_json_is_one_object_with_every_state(capsys) -> None:
    code, out, _ = run(capsys, "compare", ORIGINAL, COPY_DOCX, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["a"]["format"] == "txt" and data["b"]["format"] == "docx"
    assert {b["state"] for b in data["blocks"]} == {"verified", "split", "discarded"}
    counts = data["counts"]
    assert counts["raw"] == counts["verified"] + counts["split"] + counts["discarded"]
    assert 0 < data["jaccard"] < 1


def test_txt_and_docx_of_the_same_essay_are_identical(capsys) -> None:
    code, out, _ = run(capsys, "compare", ORIGINAL, SAMPLES / "original-essay.docx", "--json")
    assert code == 0
    assert json.loads(out)["jaccard"] == 1.0


def test_unrelated_essays_share_nothing(capsys) -> None:
    code, out, _ = run(capsys, "compare", ORIGINAL, SAMPLES / "unrelated-essay.docx", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["jaccard"] == 0.0 and data["counts"]["verified"] == data["counts"]["split"] == 0


def test_all_discarded_lists_every_raw_block(capsys) -> None:
    _code, out, _ = run(capsys, "compare", ORIGINAL, COPY_DOCX, "--json", "--all-discarded")
    data = json.loads(out)
    assert data["all_discarded_listed"] is True
    assert len(data["blocks"]) == data["counts"]["raw"]


def test_options_reach_the_engine(capsys) -> None:
    code, out, _ = run(
        capsys,
        "compare",
        ORIGINAL,
        COPY_DOCX,
        "--json",
        "--lang",
        "en",
        "--min-block",
        "3",
        "--key-size",
        "1",
        "--no-length-cap",
        "--keep-stopwords",
        "--literal-short",
    )
    assert code == 0
    options = json.loads(out)["options"]
    assert options == {
        "remove_stopwords": False,
        "length_cap": False,
        "key_size": 1,
        "min_block": 3,
        "short_sentences": "literal",
    }


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("missing.txt", None, "missing.txt"),
        ("program.exe", b"MZ\x90\x00", "program.exe"),
        ("broken.docx", b"PK\x03\x04 not really a zip", "broken.docx"),
        ("empty.txt", b"", "empty.txt"),
    ],
)
def test_unreadable_input_exits_2_naming_the_file(capsys, tmp_path: Path, name, content, words):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    code, out, err = run(capsys, "compare", path, ORIGINAL)
    assert code == 2
    assert out == ""
    assert words in err and err.startswith("doppel: ")
    assert "Traceback" not in err


def test_unknown_language_is_a_usage_error(capsys) -> None:
    code, _, err = run(capsys, "compare", ORIGINAL, COPY_DOCX, "--lang", "xx")
    assert code == 2 and "xx" in err


def test_bad_option_value_is_a_usage_error(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["compare", str(ORIGINAL), str(COPY_DOCX), "--key-size", "0"])
    assert exit_info.value.code == 2


def test_languages_lists_english(capsys) -> None:
    code, out, _ = run(capsys, "languages")
    assert code == 0 and "en  english" in out


def test_version(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.startswith("doppel ")

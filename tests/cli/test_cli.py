"""The `doppel` command line on the bundled samples and on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
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


PROMPT = (
    "Public libraries face new challenges in the digital age. Many people now read on screens "
    "rather than on paper. Councils must decide how to spend limited budgets on books and "
    "computers."
)
QUOTE = (
    '"Libraries are the memory of a town and the classroom of those who left school early. '
    'They ask nothing of their visitors but curiosity and a little quiet."'
)
REFERENCES = (
    "References\n\nSmith, J. (2010). Rivers and floods. London: River Press.\n\n"
    "Jones, K. (2012). Valleys of the north. Oxford: Northern Books."
)


def submissions(tmp_path: Path) -> tuple[Path, Path, Path]:
    essay = ORIGINAL.read_text(encoding="utf-8")
    a = tmp_path / "a.txt"
    a.write_text(f"{PROMPT}\n\n{essay}\n\n{QUOTE}\n\n{REFERENCES}\n", encoding="utf-8")
    b = tmp_path / "b.txt"
    b.write_text(
        f"{PROMPT}\n\n{SAMPLES.joinpath('unrelated-essay.txt').read_text(encoding='utf-8')}"
        f"\n\n{QUOTE}\n\n{REFERENCES}\n",
        encoding="utf-8",
    )
    prompt = tmp_path / "prompt.txt"
    prompt.write_text(PROMPT, encoding="utf-8")
    return a, b, prompt


def test_exclusions_leave_shared_prompt_quotes_and_references_out_of_the_scores(
    capsys, tmp_path: Path
) -> None:
    a, b, prompt = submissions(tmp_path)
    code, out, _ = run(capsys, "compare", a, b, "--json")
    assert code == 0
    plain = json.loads(out)
    assert plain["jaccard"] > 0
    assert plain["exclusions"] == {
        "quotations": False,
        "references": False,
        "templates": [],
        "template_phrase_words": 6,
    }
    assert plain["a"]["excluded"] == [] and plain["a"]["excluded_sentences"] == []
    code, out, _ = run(
        capsys,
        "compare",
        a,
        b,
        "--json",
        "--exclude-quotes",
        "--exclude-references",
        "--template",
        prompt,
        "--template-phrase-words",
        "7",
    )
    assert code == 0
    data = json.loads(out)
    assert data["jaccard"] == 0.0 and data["matched_sentences"] == 0
    assert data["exclusions"] == {
        "quotations": True,
        "references": True,
        "templates": ["prompt.txt"],
        "template_phrase_words": 7,
    }
    kinds = {span["kind"] for span in data["a"]["excluded"]}
    assert kinds == {"quotation", "references", "template"}
    references = next(s for s in data["a"]["excluded"] if s["kind"] == "references")
    assert references["detail"] == "References"
    # the prompt, the quotation, and the references (Punkt cuts an entry after "J.")
    assert len(data["a"]["excluded_sentences"]) == 3 + 2 + 8
    assert data["a"]["signature_length"] == plain["a"]["signature_length"] - 13


def test_the_summary_says_what_was_left_out(capsys, tmp_path: Path) -> None:
    a, b, prompt = submissions(tmp_path)
    code, out, _ = run(capsys, "compare", a, b, "--exclude-quotes", "--template", prompt)
    assert code == 0
    assert "   excluded: 1 quotation (2 sentences left out, 28 words)" in out
    assert "   excluded: template prompt.txt (3 sentences left out)" in out
    assert "Left out of the scores: quotations; text matching the template prompt.txt" in out
    assert "references" not in out.split("Jaccard")[0]
    code, out, _ = run(capsys, "compare", a, b)
    assert "excluded:" not in out and "Left out" not in out


def test_nothing_found_is_said_too(capsys) -> None:
    code, out, _ = run(capsys, "compare", ORIGINAL, COPY_DOCX, "--exclude-references")
    assert code == 0
    assert out.count("   excluded: nothing found") == 2
    assert "Left out of the scores: references sections" in out


def test_an_unreadable_template_exits_2_naming_it(capsys, tmp_path: Path) -> None:
    code, out, err = run(
        capsys, "compare", ORIGINAL, COPY_DOCX, "--template", tmp_path / "missing-prompt.docx"
    )
    assert code == 2 and out == ""
    assert err.startswith("doppel: ") and "missing-prompt.docx" in err


def test_a_template_phrase_of_one_word_is_a_usage_error(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["compare", str(ORIGINAL), str(COPY_DOCX), "--template-phrase-words", "1"])
    assert exit_info.value.code == 2

"""The `doppel` command line on the bundled samples and on bad input: the verdict, the copied
shares and the passages of both kinds, --strict, and the JSON contract (fields only added)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from core.documents.document import load_document
from core.options import SignatureOptions
from core.reports.wording import PASSAGE_KINDS, percent
from core.resources import resource_path

SAMPLES = resource_path("samples")
ORIGINAL = SAMPLES / "original-essay.txt"
COPY_DOCX = SAMPLES / "reworded-copy.docx"
#: `doppel compare original-essay.txt reworded-copy.docx --json` as Doppel printed it before
#: reworded passages existed (commit 2efa191): every field it has must keep its value
BEFORE_REWORDED = Path(__file__).parent / "data" / "samples-before-reworded.json"
#: the fields the reworded passages added (issue 12)
NEW_FIELDS = {"flagged", "copied_a", "copied_b", "passages"}
#: each kind's name in the summary, as words
PASSAGE_KINDS_WORDS = {kind.value: words.split() for kind, words in PASSAGE_KINDS.items()}
PASSAGE_FIELDS = {
    "kind",
    "a_chars",
    "b_chars",
    "a_sentences",
    "b_sentences",
    "shared_words",
    "similarity",
}


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
        "reworded": True,
    }
    code, out, _ = run(capsys, "compare", ORIGINAL, COPY_DOCX, "--json", "--strict")
    assert code == 0 and json.loads(out)["options"]["reworded"] is False


# --- the verdict, the shares, the passages (issue 12) -----------------------------------------


def old_fields(data: dict) -> dict:
    """`data` without the fields added since (reworded passages, each document's disguises),
    paths as file names."""
    old = {k: v for k, v in data.items() if k not in NEW_FIELDS}
    old["options"] = {k: v for k, v in data["options"].items() if k != "reworded"}
    for side in ("a", "b"):
        fields = {k: v for k, v in data[side].items() if k != "tampering"}
        old[side] = {**fields, "path": Path(data[side]["path"]).name}
    return old


def test_json_adds_the_verdict_the_shares_and_the_passages(capsys) -> None:
    code, out, _ = run(capsys, "compare", ORIGINAL, COPY_DOCX, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["flagged"] is True
    # more of each document is copied than SL+ST's blocks alone cover
    assert data["coverage_a"] < data["copied_a"] <= 1 and data["coverage_b"] < data["copied_b"] <= 1
    passages = data["passages"]
    assert all(set(p) == PASSAGE_FIELDS for p in passages)
    kinds = [p["kind"] for p in passages]
    assert kinds.count("verified") == 4 and kinds.count("reworded") == 2
    # the verified passages are the blocks' pieces, characters and all
    pieces = [piece for block in data["blocks"] for piece in block["pieces"]]
    assert sorted((p["a_chars"], p["b_chars"]) for p in passages if p["kind"] == "verified") == (
        sorted((p["a_chars"], p["b_chars"]) for p in pieces)
    )
    # ranges are half-open, [first, end), sentences and characters alike, in the order of A
    a = load_document(ORIGINAL, SignatureOptions(language="en"))
    b = load_document(COPY_DOCX, SignatureOptions(language="en"))
    for p in passages:
        (first_a, end_a), (first_b, end_b) = p["a_sentences"], p["b_sentences"]
        assert first_a < end_a <= a.sentence_count and first_b < end_b <= b.sentence_count
        assert p["a_chars"] == [a.sentences[first_a].start, a.sentences[end_a - 1].end]
        assert p["b_chars"] == [b.sentences[first_b].start, b.sentences[end_b - 1].end]
        assert p["shared_words"] > 0 and 0 < p["similarity"] <= 1
    assert [p["a_sentences"] for p in passages] == sorted(p["a_sentences"] for p in passages)
    last = passages[-1]  # the last sentence, copied alone: one sentence, [26, 27)
    assert (last["kind"], last["a_sentences"], last["b_sentences"]) == (
        "reworded",
        [26, 27],
        [23, 24],
    )


def test_every_field_before_reworded_passages_keeps_its_value(capsys) -> None:
    """Fields only added: the sample pair's JSON, with reworded passages (the default) and
    without (--strict), holds every field Doppel printed before, with the same value."""
    before = json.loads(BEFORE_REWORDED.read_text(encoding="utf-8"))
    _, out, _ = run(capsys, "compare", ORIGINAL, COPY_DOCX, "--json")
    default = json.loads(out)
    _, out, _ = run(capsys, "compare", ORIGINAL, COPY_DOCX, "--json", "--strict")
    strict = json.loads(out)
    for data in (default, strict):
        assert set(data) == set(before) | NEW_FIELDS
        assert set(data["options"]) == set(before["options"]) | {"reworded"}
        assert old_fields(data) == before
    # --strict: the paper's method alone, so its passages are the verified ones, unchanged
    assert strict["options"]["reworded"] is False and default["options"]["reworded"] is True
    assert strict["passages"] == [p for p in default["passages"] if p["kind"] == "verified"]
    assert strict["flagged"] is True
    assert (strict["copied_a"], strict["copied_b"]) < (default["copied_a"], default["copied_b"])


def test_strict_keeps_every_field_on_pairs_with_and_without_copying(capsys, tmp_path: Path) -> None:
    """The detector only adds: on a pair with exclusions, and on an unrelated pair, --strict
    changes no field but the new ones."""
    a, b, prompt = submissions(tmp_path)
    for argv in (
        ("compare", a, b, "--json", "--exclude-quotes", "--template", prompt),
        ("compare", ORIGINAL, SAMPLES / "unrelated-essay.docx", "--json"),
    ):
        _, out, _ = run(capsys, *argv)
        default = json.loads(out)
        _, out, _ = run(capsys, *argv, "--strict")
        strict = json.loads(out)
        assert old_fields(default) == old_fields(strict)
        assert not any(p["kind"] == "reworded" for p in strict["passages"])


def test_unrelated_essays_have_no_verdict_and_no_passage(capsys) -> None:
    code, out, _ = run(capsys, "compare", ORIGINAL, SAMPLES / "unrelated-essay.docx", "--json")
    data = json.loads(out)
    assert code == 0 and data["flagged"] is False and data["passages"] == []
    assert data["copied_a"] == data["copied_b"] == 0.0
    _, out, _ = run(capsys, "compare", ORIGINAL, SAMPLES / "unrelated-essay.docx")
    assert out.splitlines()[3] == "No copied text found"


def test_the_summary_leads_with_the_verdict_then_the_papers_score_then_the_passages(
    capsys,
) -> None:
    _, out, _ = run(capsys, "compare", ORIGINAL, COPY_DOCX, "--json")
    data = json.loads(out)
    code, out, _ = run(capsys, "compare", ORIGINAL, COPY_DOCX)
    assert code == 0
    lines = out.splitlines()
    verdict = (
        f"Copied text found: {percent(data['copied_a'])} of A is found in B, "
        f"{percent(data['copied_b'])} of B is found in A; 6 passages: 4 word for word, 2 edited"
    )
    assert lines[3] == verdict  # after A, B and a blank line
    jaccard = next(k for k, line in enumerate(lines) if line.startswith("Jaccard similarity"))
    listed = lines.index("Passages, in the order of A (sentence numbers count from 1):")
    blocks = next(k for k, line in enumerate(lines) if line.startswith(" A pos"))
    assert 3 < jaccard < listed < blocks
    assert f"{percent(data['jaccard'])}" in lines[jaccard]
    rows = lines[listed + 2 : listed + 2 + len(data["passages"])]
    for row, passage in zip(rows, data["passages"], strict=True):
        words = PASSAGE_KINDS_WORDS[passage["kind"]]
        assert row.split()[1 : 1 + len(words)] == words
    edited = [row for row in rows if " edited " in row]
    assert len(edited) == 2
    assert edited[0].split()[2:4] == ["16–19", "16–19"]  # sentence numbers count from 1
    assert edited[0].endswith("17 of 26 words the same; 9 replaced, 1 left out")
    assert edited[1].endswith("27       24  8 of 8 words the same")
    # what was shown for blocks is still shown
    assert "first words differ" in out and "  split  " in out


def test_strict_output_is_todays_output(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    """With --strict, `compare` and `batch` print exactly what they printed before reworded
    passages (the outputs of commit 2efa191, kept in tests/cli/data/)."""
    monkeypatch.chdir(SAMPLES.parent.parent)  # the paths as the saved output names them
    data = Path(__file__).parent / "data"
    code, out, _ = run(
        capsys,
        "compare",
        "resources/samples/original-essay.txt",
        "resources/samples/reworded-copy.docx",
        "--strict",
    )
    assert code == 0
    assert out == (data / "compare-before-reworded.txt").read_text(encoding="utf-8")
    assert " edited " not in out
    code, out, _ = run(
        capsys, "batch", "resources/samples", "--no-cache", "--lang", "en", "--strict"
    )
    assert code == 0
    assert out == (data / "batch-before-reworded.txt").read_text(encoding="utf-8")


def test_strict_is_an_engine_option_of_compare_and_batch(capsys) -> None:
    for name in ("compare", "batch"):
        with pytest.raises(SystemExit):
            main([name, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "--strict the paper's method alone" in text
        assert "reworded (edited) passages" in text


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
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert lines["en"].endswith("stems: Snowball")
    assert lines["pl"].endswith("stems: first 6 letters")


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

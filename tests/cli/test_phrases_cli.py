"""`doppel phrases` on the bundled samples, on the paper's example and on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import app.cli.phrases
from app.cli.main import main
from core.documents.document import load_document
from core.documents.sentences import word_spans
from core.resources import resource_path

SAMPLES = resource_path("samples")
ORIGINAL = SAMPLES / "original-essay.txt"
COPY_DOCX = SAMPLES / "reworded-copy.docx"
UNRELATED = SAMPLES / "unrelated-essay.txt"


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    path = tmp_path / "paper.txt"
    path.write_text(
        "can drive trucks safely. men drive cars safely. men can drive trucks.", encoding="utf-8"
    )
    return path


@pytest.mark.parametrize("method", ["suffix-array", "suffix-tree", "inverted-index"])
def test_json_on_the_papers_example(capsys, paper: Path, method: str) -> None:
    code, out, err = run(
        capsys, "phrases", paper, "--max-len", 3, "--json", "--lang", "en", "--method", method
    )
    assert code == 0, err
    data = json.loads(out)
    assert list(data) == ["phrases"]
    first = data["phrases"][0]
    assert first == {
        "phrase": "can drive trucks",
        "words": 3,
        "count": 2,
        "documents": 1,
        "maximal": True,
        "occurrences": [
            {"document": str(paper), "start": 0, "end": 16},
            {"document": str(paper), "start": 52, "end": 68},
        ],
    }
    assert {p["phrase"]: p["count"] for p in data["phrases"]} == {
        "drive": 3,
        "can": 2,
        "trucks": 2,
        "safely": 2,
        "men": 2,
        "can drive": 2,
        "drive trucks": 2,
        "can drive trucks": 2,
    }


def test_samples_share_phrases_in_both_documents(capsys) -> None:
    code, out, err = run(capsys, "phrases", ORIGINAL, COPY_DOCX, "--json")
    assert code == 0, err
    phrases = json.loads(out)["phrases"]
    assert phrases and all(p["documents"] == 2 for p in phrases)  # default --min-docs 2
    longest = phrases[0]
    assert longest["maximal"] and longest["words"] == 8  # the default max length
    # offsets index the normalised text, the one `compare --json` uses
    texts = {str(path): load_document(path).text for path in (ORIGINAL, COPY_DOCX)}
    for p in phrases[:50]:
        for o in p["occurrences"]:
            text = texts[o["document"]]
            words = [text[a:b].casefold() for a, b in word_spans(text, o["start"], o["end"])]
            assert words == p["phrase"].split()
    # the maximal ones come first
    flags = [p["maximal"] for p in phrases]
    assert flags == sorted(flags, reverse=True)


def test_min_docs_defaults_to_one_for_a_single_file(capsys, paper: Path) -> None:
    code, out, _ = run(capsys, "phrases", paper, paper, "--json", "--lang", "en")
    assert code == 0
    two = json.loads(out)["phrases"]
    assert all(p["documents"] == 2 for p in two)
    _, out, _ = run(capsys, "phrases", UNRELATED, "--json")
    assert json.loads(out)["phrases"]  # repeats inside one essay are listed
    _, out, _ = run(capsys, "phrases", ORIGINAL, UNRELATED, "--json", "--min-docs", 1)
    assert any(p["documents"] == 1 for p in json.loads(out)["phrases"])


def test_readable_list(capsys, paper: Path) -> None:
    code, out, err = run(capsys, "phrases", paper, "--max-len", 3, "--lang", "en")
    assert code == 0, err
    assert "8 repeated phrases (4 maximal)" in out
    lines = out.splitlines()
    first = next(line for line in lines if line.endswith("can drive trucks"))
    assert first.split()[:2] == ["2", "1"] and "[1] 0-16" in first
    assert "Inside a longer phrase with the same occurrences:" in out
    assert lines.index(first) < lines.index("Inside a longer phrase with the same occurrences:")


def test_unreadable_file_is_named_and_exits_2(capsys, tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    code, out, err = run(capsys, "phrases", ORIGINAL, missing)
    assert code == 2
    assert out == ""
    assert str(missing) in err and err.startswith("doppel: ")


def test_bad_options_are_usage_errors(capsys, paper: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        run(capsys, "phrases", paper, "--max-len", 0)
    assert exit_info.value.code == 2
    with pytest.raises(SystemExit):
        run(capsys, "phrases", paper, "--method", "bogus")


@pytest.mark.parametrize("extra", [[], ["--json"], ["--min-docs", 1, "--max-len", 3, "--json"]])
def test_the_three_methods_print_the_same(capsys, extra: list[object]) -> None:
    outputs = set()
    for method in ("suffix-array", "suffix-tree", "inverted-index"):
        code, out, err = run(
            capsys, "phrases", ORIGINAL, COPY_DOCX, UNRELATED, *extra, "--method", method
        )
        assert code == 0, err
        outputs.add(out)
    assert len(outputs) == 1
    (out,) = outputs
    if "--json" in extra:  # written a phrase at a time, yet exactly what json.dumps gives
        assert out == json.dumps(json.loads(out)) + "\n"


def test_the_default_method_is_the_compact_one(capsys, paper: Path) -> None:
    default = run(capsys, "phrases", paper, "--json", "--lang", "en")
    assert default == run(
        capsys, "phrases", paper, "--json", "--lang", "en", "--method", "suffix-array"
    )
    assert default[0] == 0 and json.loads(default[1])["phrases"]


def test_the_papers_methods_refuse_inputs_over_their_limit(
    capsys, monkeypatch: pytest.MonkeyPatch, paper: Path
) -> None:
    # 12 words, twice: 24 words × --max-len 8 = 192 entries, over a limit of 100
    monkeypatch.setattr(app.cli.phrases, "LEGACY_LIMIT", 100)
    for method in ("suffix-tree", "inverted-index"):
        code, out, err = run(capsys, "phrases", paper, paper, "--lang", "en", "--method", method)
        assert code == 2 and out == ""
        assert err.startswith(f"doppel: {paper}, {paper}: 24 words; --method {method}")
        assert "limited to 100 words × --max-len (12 words at --max-len 8)" in err
        assert "Leave --method out" in err
    # at --max-len 4, 24 × 4 = 96 fits; the default method has no limit
    code, _, err = run(
        capsys, "phrases", paper, paper, "--lang", "en", "--method", "suffix-tree", "--max-len", 4
    )
    assert code == 0, err
    code, out, err = run(capsys, "phrases", paper, paper, "--lang", "en")
    assert code == 0 and "repeated phrases" in out, err


def test_every_unreadable_file_is_named(capsys, tmp_path: Path) -> None:
    missing = [tmp_path / "one.txt", tmp_path / "two.txt"]
    code, out, err = run(capsys, "phrases", missing[0], ORIGINAL, missing[1])
    assert code == 2 and out == ""
    assert all(str(path) in err for path in missing)

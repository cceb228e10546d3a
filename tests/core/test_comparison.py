"""Comparing documents through the public API: the paper's two examples, and the JSON contract."""

from __future__ import annotations

import json

import pytest

from core.comparison import compare_documents
from core.detection.verification import BlockState, VerifiedBlock
from core.documents.document import document_from_text
from core.options import SignatureOptions
from core.reports.comparison_json import comparison_to_json

EN = SignatureOptions(language="en")

S3 = "Glaciers shape valleys."  # ℓ = 3 after stop words
S4 = "Rivers carry fine sediment."  # 4
S5 = "Winds erode exposed desert rock."  # 5
S6 = "Coastal waves slowly grind cliffs into sand."  # 6 ("into" is a stop word)
S7 = "Volcanic eruptions build new islands in warm oceans."  # 7
OTHER4 = "Lakes store fresh water."  # 4, other first words
OTHER5 = "Sudden floods reshape river plains."  # 5, other first words


def doc(*sentences: str, name: str = "doc.txt"):
    return document_from_text(" ".join(sentences), name, EN)


def test_lengths_are_as_written() -> None:
    assert doc(S3, S4, S5, S6, S7).signature.symbols == (3, 4, 5, 6, 7)


def test_paper_example_five_sentences_third_fails_gives_two_blocks_of_two() -> None:
    comparison = compare_documents(doc(S3, S4, S5, S6, S7), doc(S3, S4, OTHER5, S6, S7))
    (block,) = comparison.blocks
    assert block.state is BlockState.SPLIT
    assert block.failed == (2,)
    assert block.pieces == (VerifiedBlock(0, 0, 2), VerifiedBlock(3, 3, 2))
    assert comparison.failure_reason(block, 2) == (
        "first words differ: 'winds erode' vs 'sudden floods'"
    )
    assert comparison.matched_sentences == 4
    assert comparison.jaccard == pytest.approx(4 / 6)


def test_paper_example_four_sentences_second_and_third_fail_is_discarded() -> None:
    comparison = compare_documents(doc(S3, S4, S5, S6), doc(S3, OTHER4, OTHER5, S6))
    (block,) = comparison.blocks
    assert block.state is BlockState.DISCARDED
    assert block.failed == (1, 2)
    assert comparison.counts.discarded == 1
    assert comparison.jaccard == 0.0


def test_identical_documents() -> None:
    a = doc(S3, S4, S5, S6, S7)
    comparison = compare_documents(a, doc(S3, S4, S5, S6, S7, name="b.txt"))
    assert (comparison.jaccard, comparison.coverage_a, comparison.coverage_b) == (1.0, 1.0, 1.0)
    (block,) = comparison.blocks
    assert block.state is BlockState.VERIFIED


def test_json_follows_the_contract() -> None:
    a = doc(S3, S4, S5, S6, S7, name="a.txt")
    b = doc(S7, S3, S4, OTHER5, S6, S7, name="b.txt")
    comparison = compare_documents(a, b)
    data = json.loads(json.dumps(comparison_to_json(comparison)))
    assert {"a", "b", "jaccard", "coverage_a", "coverage_b", "matched_sentences", "counts"} <= set(
        data
    )
    for side in ("a", "b"):
        assert {"path", "format", "sentences", "signature_length", "too_long"} <= set(data[side])
    assert set(data["counts"]) == {"raw", "verified", "split", "discarded"}
    assert data["matched_sentences"] == comparison.matched_sentences
    (block,) = (x for x in data["blocks"] if x["state"] != "discarded")
    assert block["state"] == "split" and block["failed"] == [2]
    for piece in block["pieces"]:
        assert set(piece) == {"a_start", "b_start", "length", "a_chars", "b_chars"}
        a_text = a.text[piece["a_chars"][0] : piece["a_chars"][1]]
        b_text = b.text[piece["b_chars"][0] : piece["b_chars"][1]]
        assert a_text == b_text  # the copied sentences, exactly
    first = block["pieces"][0]
    assert a.text[first["a_chars"][0] : first["a_chars"][1]] == f"{S3} {S4}"


def test_too_long_sentences_are_left_out_and_recorded() -> None:
    long_sentence = " ".join(f"Word{k}" for k in range(40)) + "."
    a = doc(S3, long_sentence, S4)
    assert a.signature.symbols == (3, 4)
    assert a.signature.too_long == (1,)
    uncapped = document_from_text(a.text, "a", SignatureOptions(language="en", length_cap=False))
    assert uncapped.signature.symbols == (3, 40, 4)
    assert any("longer than 35" in w for w in a.warnings)


def test_signature_options_must_agree() -> None:
    a = doc(S3, S4)
    b = document_from_text(a.text, "b", SignatureOptions(language="en", key_size=3))
    with pytest.raises(ValueError):
        compare_documents(a, b)

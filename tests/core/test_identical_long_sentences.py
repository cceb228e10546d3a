"""Too-long sentences identical in both documents, inside or beside a verified piece, are part of
the copied passage everywhere (core.detection.long_sentences): the passages of both kinds, the
shared words, and the evidence report, so the window and the report tell the same story.
The hand-made example is the window's (tests/gui_logic/long_text.py)."""

from __future__ import annotations

from core.comparison import Comparison, compare_documents
from core.detection.long_sentences import identical_long_sentences
from core.detection.passages import PassageKind, verified_by_first_sentence
from core.documents.document import document_from_text
from core.options import MatchOptions, SignatureOptions
from core.reports.evidence import evidence_report
from core.shared_words import shared_words
from tests.core.docmakers import FILLER_A, FILLER_B
from tests.gui_logic.long_text import AFTER, BEFORE, END_A, END_B, INSIDE, S0, S1, S2, S3

OPTIONS = SignatureOptions(language="en")
MIDDLE = BEFORE + S0 + S1 + INSIDE + S2 + S3 + AFTER


def compared(options: MatchOptions | None = None, after_b: str = AFTER) -> Comparison:
    a = FILLER_A + MIDDLE + END_A
    b = FILLER_B + MIDDLE.replace(AFTER, after_b) + END_B
    return compare_documents(
        document_from_text(a, "A.txt", OPTIONS), document_from_text(b, "B.txt", OPTIONS), options
    )


def sentence_of(comparison: Comparison, text: str) -> int:
    start = comparison.a.text.index(text.strip()[:40])
    return next(s.index for s in comparison.a.sentences if s.start <= start < s.end)


def test_the_verified_passage_takes_in_the_long_sentences_beside_it() -> None:
    for options in (MatchOptions(), MatchOptions(reworded=False)):
        comparison = compared(options)
        (passage,) = comparison.passages  # one passage: no "edited" one for BEFORE or AFTER
        assert passage.kind is PassageKind.VERIFIED
        first, end = passage.a_sentences
        assert (
            first == sentence_of(comparison, BEFORE) and end == sentence_of(comparison, AFTER) + 1
        )
        assert passage.changes.same == passage.changes.total  # every word the same


def test_a_long_sentence_that_differs_is_left_to_the_reworded_detector() -> None:
    comparison = compared(after_b=AFTER.replace("fossils", "skeletons"))
    verified = [p for p in comparison.passages if p.kind is PassageKind.VERIFIED]
    assert verified[0].a_sentences[1] == sentence_of(comparison, AFTER)  # AFTER not taken in
    pieces = [piece for block in comparison.blocks for piece in block.pieces]
    kinds = {p.inside for p in identical_long_sentences(comparison.a, comparison.b, pieces)}
    assert kinds == {True, False}  # INSIDE and BEFORE still are


def test_their_words_are_shared_words() -> None:
    comparison = compared()
    (piece,) = shared_words(comparison)
    assert piece.word_for_word
    covered = [(run.a_start, run.a_end) for run in piece.runs]
    for text in (BEFORE, INSIDE, AFTER):
        sentence = comparison.a.sentences[sentence_of(comparison, text)]
        assert any(s <= sentence.start and sentence.end <= e for s, e in covered), text[:20]


def test_the_evidence_report_shows_them_as_shared_in_the_word_for_word_passage() -> None:
    report = evidence_report(compared())
    (passage,) = report.passages
    assert passage.kind_text == "word for word"
    assert "every counted word the same" in passage.summary
    texts = [row.a.text for row in passage.rows]
    assert texts[0].startswith(BEFORE.strip()[:30]) and texts[-1].startswith(AFTER.strip()[:30])
    for row in passage.rows:  # A beside B, sentence by sentence, every word emphasised
        assert row.a.text == row.b.text
        assert all(run.shared for run in row.a.runs if run.text.strip())


def test_a_piece_finds_its_passage_though_the_passage_opens_before_it() -> None:
    comparison = compared()
    (piece,) = [piece for block in comparison.blocks for piece in block.pieces]
    first = comparison.a.signature.sentence_indices[piece.a_start]
    found = verified_by_first_sentence(comparison.a.signature, comparison.passages)
    assert found[first] is comparison.passages[0]
    assert comparison.passages[0].a_sentences[0] < first  # BEFORE opens it

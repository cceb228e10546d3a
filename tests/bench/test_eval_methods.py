"""The evaluation's methods (bench/eval_methods.py): hand-worked examples for each, and the
properties every method shares (identical documents score 1, unrelated ones 0; the reworded
detector alone is the exception: an identical copy is all verified blocks)."""

from __future__ import annotations

from collections import Counter

import pytest

from bench import eval_methods
from bench.eval_methods import (
    SLST,
    Doppel,
    PhraseIndex,
    PhraseMatcher,
    Prepared,
    Run,
    Shingling,
    SpotSigs,
    WangSentenceLengths,
    all_methods,
    clear_caches,
    covered,
    document_words,
    maximal_runs,
    merge_diagonal_pieces,
    merge_runs,
    merge_touching,
    multiset_jaccard,
    spot_signatures,
)
from core.comparison import compare_documents
from core.detection.verification import VerifiedBlock
from core.documents.document import Document, document_from_text
from core.documents.language import get_language
from core.options import SignatureOptions

EN = SignatureOptions(language="en")


def doc(text: str, name: str = "doc.txt") -> Document:
    return document_from_text(text, name, EN)


def words(tag: str, count: int, start: int = 0) -> list[str]:
    """`count` distinct made-up words (no stop word among them): tag + three letters."""
    out = []
    for i in range(start, start + count):
        letters = ""
        for _ in range(3):
            letters = chr(97 + i % 26) + letters
            i //= 26
        out.append(tag + letters)
    return out


def sentence(ws: list[str]) -> str:
    return " ".join([ws[0].capitalize(), *ws[1:]]) + "."


def sentences(tag: str, lengths: list[int]) -> list[str]:
    """Sentences of the given lengths (ℓ: no stop word in them), all words distinct."""
    out, position = [], 0
    for length in lengths:
        out.append(sentence(words(tag, length, position)))
        position += length
    return out


def span_of(document: Document, passage: str) -> tuple[int, int]:
    start = document.text.index(passage)
    assert document.text.find(passage, start + 1) == -1
    return start, start + len(passage)


# ----------------------------------------------------------------------------- shared input


def test_words_are_the_engines_tokens_case_folded_with_their_spans() -> None:
    d = doc("The Cat's well-known hat.\n\n* * *\n\nIt cost 3.14 Euros!")
    ws = document_words(d)
    assert ws.words == ("the", "cat's", "well-known", "hat", "it", "cost", "3.14", "euros")
    assert [d.text[a:b].casefold() for a, b in ws.spans] == list(ws.words)


# ------------------------------------------------------------------------------- shingling


def test_shingles_of_broders_rose_example() -> None:
    prepared = Shingling(4).prepare(doc("A rose is a rose is a rose."))
    assert prepared.features == {
        ("a", "rose", "is", "a"),
        ("rose", "is", "a", "rose"),
        ("is", "a", "rose", "is"),
    }
    assert prepared.feature_count == 3


def test_shingles_of_a_six_word_text_cross_sentences_and_keep_stop_words() -> None:
    prepared = Shingling(4).prepare(doc("The owl sleeps. It wakes at night."))
    assert prepared.features == {
        ("the", "owl", "sleeps", "it"),
        ("owl", "sleeps", "it", "wakes"),
        ("sleeps", "it", "wakes", "at"),
        ("it", "wakes", "at", "night"),
    }
    assert Shingling(10).prepare(doc("The owl sleeps. It wakes at night.")).feature_count == 0


def test_shingling_resemblance_and_containment_by_hand() -> None:
    a = doc("one two three four five six")  # shingles 123 4, 2345, 3456
    b = doc("one two three four five six seven eight")  # + 4567, 5678
    resemblance, containment = Shingling(4), Shingling(4, containment=True)
    assert containment.family == resemblance.family == "Shingling w=4"
    pa, pb = resemblance.prepare(a), resemblance.prepare(b)
    assert resemblance.score(pa, pb) == 3 / 5
    assert containment.score(pa, pb) == 1.0  # all of the suspicious A is in B
    assert containment.score(pb, pa) == 3 / 5


# ------------------------------------------------------------------------------- SpotSigs

PAPER_SENTENCE = (
    "At a rally to kick off a weeklong campaign for the South Carolina primary, Obama tried "
    "to set the record straight from an attack circulating widely on the Internet that is "
    "designed to play into prejudices against Muslims and fears of terrorism."
)


def test_spot_signatures_of_the_papers_example() -> None:
    prepared = SpotSigs().prepare(doc(PAPER_SENTENCE))
    assert prepared.features == Counter(
        {
            ("a", "rally", "kick"): 1,
            ("a", "weeklong", "campaign"): 1,
            ("the", "south", "carolina"): 1,
            ("the", "record", "straight"): 1,
            ("an", "attack", "circulating"): 1,
            ("the", "internet", "designed"): 1,
            ("is", "designed", "play"): 1,
        }
    )
    assert prepared.feature_count == 7


def test_spot_signatures_skip_stop_words_and_antecedents_and_drop_cut_chains() -> None:
    stop = get_language("en").stopwords.__contains__
    text = document_words(
        doc("The cat is on the mat and the dog could bark loudly at the end.")
    ).words
    assert spot_signatures(text, stop) == Counter(
        {
            ("the", "cat", "mat"): 1,
            ("is", "mat", "dog"): 1,
            ("the", "mat", "dog"): 1,
            ("the", "dog", "bark"): 1,  # "could" is an antecedent, never a chain word
            ("could", "bark", "loudly"): 1,
        }
    )  # "the end": one content word left, the chain is cut short and dropped
    assert spot_signatures(text, stop, distance=2, chain=2) == Counter(
        {
            ("the", "mat", "bark"): 1,  # the 2nd and 4th content words after "the"
            ("is", "dog", "loudly"): 1,
            ("the", "dog", "loudly"): 1,
            ("the", "bark", "end"): 1,
        }
    )


def test_spot_signatures_form_a_multiset_and_compare_by_multiset_jaccard() -> None:
    a = doc("The cat sat. The cat sat. The dog ran.")
    b = doc("The cat sat. The bird sang.")
    method = SpotSigs()
    pa, pb = method.prepare(a), method.prepare(b)
    assert pa.features[("the", "cat", "sat")] == 2  # chains cross the sentence ends
    assert pa.features == Counter({("the", "cat", "sat"): 2, ("the", "dog", "ran"): 1})
    assert pb.features == Counter({("the", "cat", "sat"): 1, ("the", "bird", "sang"): 1})
    # Σ min = 1 (cat sat), Σ max = 2 + 1 + 1
    assert method.score(pa, pb) == 1 / 4
    assert multiset_jaccard(Counter(x=2, y=1), Counter(x=1, z=1)) == 1 / 4
    assert multiset_jaccard(Counter(), Counter()) == 0.0


# ----------------------------------------------------------------------------------- Wang


def test_wang_features_are_runs_of_three_sentence_lengths() -> None:
    a = doc(" ".join(sentences("ka", [3, 4, 5, 6])))
    b = doc(" ".join(sentences("mo", [3, 4, 5, 7])))  # other words: lengths only count
    assert a.signature.symbols == (3, 4, 5, 6)
    method = WangSentenceLengths(3)
    pa, pb = method.prepare(a), method.prepare(b)
    assert pa.features == {(3, 4, 5), (4, 5, 6)}
    assert pb.features == {(3, 4, 5), (4, 5, 7)}
    assert method.score(pa, pb) == 1 / 3


def test_wang_reads_the_engines_lengths_without_stop_words() -> None:
    d = doc("The cat sat on the mat. It was a very big dog. Birds sing.")
    assert WangSentenceLengths(3).prepare(d).features == {d.signature.symbols}
    assert d.signature.symbols == (3, 2, 2)


# ---------------------------------------------------------------------------------- SL+ST


def shared_passage_docs() -> tuple[Document, Document, list[str]]:
    copied = sentences("co", [4, 5, 6, 7])
    source = doc(" ".join([*sentences("sa", [3, 8, 5]), *copied, *sentences("sb", [6, 4])]))
    suspicious = doc(" ".join([*sentences("ua", [7, 9]), *copied, *sentences("ub", [5])]))
    return suspicious, source, copied


def test_slst_scores_are_compare_documents_and_passages_its_pieces() -> None:
    suspicious, source, copied = shared_passage_docs()
    comparison = compare_documents(suspicious, source)
    jaccard, containment = SLST(), SLST(containment=True)
    ps, pt = jaccard.prepare(suspicious), jaccard.prepare(source)
    assert ps.feature_count == 7
    assert jaccard.score(ps, pt) == comparison.jaccard == 4 / (7 + 9 - 4)
    assert containment.score(ps, pt) == comparison.coverage_a == 4 / 7
    passage = " ".join(copied)
    assert jaccard.passages(ps, pt) == [(span_of(suspicious, passage), span_of(source, passage))]
    assert jaccard.passages(ps, pt) == [comparison.piece_chars(p) for p in comparison.result.pieces]


def test_slst_compares_a_pair_once_for_both_scores_and_the_passages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = []

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return compare_documents(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(eval_methods, "compare_documents", counting)
    suspicious, source, _ = shared_passage_docs()
    methods = all_methods()
    slst = [m for m in methods if m.family == "SL+ST"]
    assert [m.name for m in slst] == ["SL+ST", "SL+ST containment"]
    ps, pt = slst[0].prepare(suspicious), slst[0].prepare(source)
    for method in slst:
        method.score(ps, pt)
        method.passages(ps, pt)
    assert len(calls) == 1
    slst[1].score(pt, ps)  # the other direction is another pair
    assert len(calls) == 2
    clear_caches(methods)
    slst[1].score(ps, pt)
    assert len(calls) == 3


def test_touching_pieces_on_one_diagonal_merge_into_one_passage() -> None:
    pieces = [
        VerifiedBlock(0, 5, 2),
        VerifiedBlock(2, 7, 3),  # touches the first on diagonal +5
        VerifiedBlock(6, 11, 2),  # one position after: a sentence between, kept apart
        VerifiedBlock(3, 3, 2),  # another diagonal
    ]
    assert merge_diagonal_pieces(pieces) == [
        VerifiedBlock(0, 5, 5),
        VerifiedBlock(3, 3, 2),
        VerifiedBlock(6, 11, 2),
    ]
    assert merge_diagonal_pieces(pieces, gap=1)[0] == VerifiedBlock(0, 5, 8)


# ---------------------------------------------------------------------- WCopyfind-style


def test_phrase_matcher_finds_a_copied_ten_word_passage_exactly() -> None:
    src = words("sr", 30)
    # the copied words cross a sentence end in the source; case and punctuation are ignored
    source = doc(sentence(src[:14]) + " " + sentence(src[14:]))
    copied = src[10:20]
    own = words("su", 20)
    suspicious = doc(sentence([*own[:8], *copied, *own[8:]]))
    method = PhraseMatcher(6)
    ps, pt = method.prepare(suspicious), method.prepare(source)
    assert ps.feature_count == 30 - 6 + 1
    in_source = span_of(source, " ".join(src[10:14]) + ". " + " ".join(src[14:20]).capitalize())
    assert method.passages(ps, pt) == [(span_of(suspicious, " ".join(copied)), in_source)]
    assert method.score(ps, pt) == 10 / 30
    resemblance = PhraseMatcher(6, containment=False)
    assert resemblance.score(ps, pt) == (10 + 10) / (30 + 30)


def test_phrase_matcher_ignores_a_five_word_shared_run() -> None:
    src, own = words("sr", 20), words("su", 20)
    source = doc(sentence(src))
    suspicious = doc(sentence([*own[:8], *src[3:8], *own[8:]]))
    method = PhraseMatcher(6)
    ps, pt = method.prepare(suspicious), method.prepare(source)
    assert method.passages(ps, pt) == []
    assert method.score(ps, pt) == 0.0


def index(ws: list[str], n: int) -> PhraseIndex:
    return PhraseMatcher(n).prepare(doc(sentence(ws))).features  # type: ignore[return-value]


def test_maximal_runs_are_found_on_every_diagonal() -> None:
    phrase = words("ph", 3)
    a = index([*phrase, "xx", *phrase], 3)
    b = index(["yy", *phrase, "zz"], 3)
    assert maximal_runs(a, b, 3) == [Run(0, 1, 3), Run(4, 1, 3)]
    assert maximal_runs(b, a, 3) == [Run(1, 0, 3), Run(1, 4, 3)]
    assert maximal_runs(a, b, 4) == []


def test_runs_overlapping_in_both_documents_merge() -> None:
    runs = [Run(0, 0, 6), Run(4, 4, 6), Run(4, 20, 6), Run(10, 10, 2)]
    assert merge_runs(runs) == [((0, 12), (0, 12)), ((4, 10), (20, 26))]
    assert covered([(0, 6), (4, 10), (20, 22), (21, 22)]) == 12


# ------------------------------------------------------------------------- every method

SHARED = " ".join(
    [
        "The old lighthouse keeper climbed the stairs every evening before dusk.",
        "He was careful with the lamp, and the oil had to be checked twice.",
        "Storms came often in the autumn, and the sea turned grey and wild.",
        "Ships passing the cape would see the light and steer away from the rocks.",
        "In the spring the keeper painted the railing a bright shade of red.",
    ]
)
UNRELATED = " ".join(
    [
        "Farmers harvest wheat.",
        "Bakers knead dough patiently while ovens warm quickly.",
        "Children will sing songs.",
        "Merchants can sell apples, pears, plums and cherries cheaply.",
    ]
)


def test_method_names_are_unique_and_variants_share_their_family() -> None:
    methods = all_methods()
    names = [m.name for m in methods]
    assert len(set(names)) == len(names)
    assert names[:3] == ["Doppel (SL+ST + reworded)", "Reworded", "SL+ST"]
    families = {m.family for m in methods}
    assert families == {
        "Doppel",
        "SL+ST",
        "Shingling w=4",
        "Shingling w=10",
        "SpotSigs",
        "Wang k=3",
        "WCopyfind n=6",
    }
    assert {m.name for m in methods if m.localises} == {
        "Doppel (SL+ST + reworded)",
        "Reworded",
        "SL+ST",
        "SL+ST containment",
        "WCopyfind n=6",
        "WCopyfind n=6 resemblance",
    }


def word_methods() -> list[eval_methods.Method]:
    """Every method but the reworded detector alone (a verbatim copy is not reworded)."""
    return [m for m in all_methods() if m.name != "Reworded"]


@pytest.mark.parametrize("method", word_methods(), ids=lambda m: m.name)
def test_identical_documents_score_one_and_unrelated_ones_zero(
    method: eval_methods.Method,
) -> None:
    a, a_again, other = doc(SHARED, "a.txt"), doc(SHARED, "copy.txt"), doc(UNRELATED, "b.txt")
    pa, pa_again, po = method.prepare(a), method.prepare(a_again), method.prepare(other)
    assert pa.feature_count > 0 and po.feature_count > 0
    assert method.score(pa, pa_again) == pytest.approx(1.0)
    assert method.score(pa, po) == 0.0
    assert method.score(po, pa) == 0.0
    assert method.passages(pa, po) == []
    if method.localises:  # the whole text: to the last sentence's end, or the last word's
        ((in_a, in_again),) = method.passages(pa, pa_again)
        assert in_a == in_again
        assert in_a[0] == 0 and a.text[in_a[1] :] in ("", ".")
    else:
        assert method.passages(pa, pa_again) == []


@pytest.mark.parametrize("method", word_methods(), ids=lambda m: m.name)
def test_a_partial_copy_scores_between_zero_and_one(method: eval_methods.Method) -> None:
    a = doc(UNRELATED + " " + SHARED.split(". ", 2)[2], "partial.txt")
    b = doc(SHARED, "b.txt")
    score = method.score(method.prepare(a), method.prepare(b))
    assert 0.0 < score < 1.0
    assert isinstance(method.prepare(a), Prepared)


@pytest.mark.parametrize("method", all_methods(), ids=lambda m: m.name)
def test_verdicts_are_their_own_and_the_baselines_have_none(method: eval_methods.Method) -> None:
    a, a_again, other = doc(SHARED, "a.txt"), doc(SHARED, "copy.txt"), doc(UNRELATED, "b.txt")
    pa, pa_again, po = method.prepare(a), method.prepare(a_again), method.prepare(other)
    if method.family not in ("Doppel", "SL+ST"):
        assert method.verdict(pa, pa_again) is None
        return
    assert method.verdict(pa, po) is False
    assert method.verdict(pa, pa_again) is (method.name != "Reworded")


@pytest.mark.parametrize("method", all_methods(), ids=lambda m: m.name)
def test_the_screen_lets_a_copy_through_and_stops_unrelated_text(
    method: eval_methods.Method,
) -> None:
    """A pair sharing fewer than the screen's count of features in every alternative scores 0:
    the unrelated pair shares none; the copy shares all (bench/eval_p4p.py relies on it)."""

    def passes(x: eval_methods.Prepared, y: eval_methods.Prepared) -> bool:
        return any(
            len(fx & fy) >= need
            for (fx, need), (fy, _) in zip(method.screen(x), method.screen(y), strict=True)
        )

    a, a_again, other = doc(SHARED, "a.txt"), doc(SHARED, "copy.txt"), doc(UNRELATED, "b.txt")
    pa, pa_again, po = method.prepare(a), method.prepare(a_again), method.prepare(other)
    assert passes(pa, pa_again)
    assert not passes(pa, po) and method.score(pa, po) == 0.0


# ------------------------------------------------------------------------ Doppel's default

REWORDED = " ".join(
    [
        "Every evening before dusk, the old lighthouse keeper slowly climbed the stairs.",
        "Careful with the lamp, he had the oil checked twice.",
        "In the autumn storms came often, and the sea turned wild and grey.",
        "Passing ships would see the light from the cape and steer away from the rocks.",
        "The keeper painted the railing a bright red shade in the spring.",
    ]
)


def test_a_reworded_copy_is_found_by_doppel_and_the_reworded_detector_not_by_slst() -> None:
    """Every sentence opens differently or changes length, so no verified block survives; the
    content words stay, so Doppel's default flags the pair through a reworded passage."""
    suspicious, source = doc(REWORDED, "reworded.txt"), doc(SHARED, "source.txt")
    methods = {m.name: m for m in all_methods()}
    doppel, reworded, slst = methods["Doppel (SL+ST + reworded)"], methods["Reworded"], SLST()
    ps, pt = doppel.prepare(suspicious), doppel.prepare(source)
    comparison = compare_documents(suspicious, source)
    assert comparison.flagged and not comparison.result.pieces
    assert doppel.verdict(ps, pt) and reworded.verdict(ps, pt)
    assert doppel.score(ps, pt) == comparison.copied_a == reworded.score(ps, pt) > 0.5
    assert doppel.passages(ps, pt) == reworded.passages(ps, pt) != []
    assert not slst.verdict(ps, pt) and slst.score(ps, pt) == 0.0


def test_slst_in_the_evaluation_is_the_strict_paper_method() -> None:
    assert SLST().options.reworded is False
    assert Doppel().options.reworded is True


def test_doppel_compares_a_pair_once_for_both_of_its_scores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = []

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return compare_documents(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(eval_methods, "compare_documents", counting)
    methods = [m for m in all_methods() if m.family == "Doppel"]
    suspicious, source = doc(REWORDED, "reworded.txt"), doc(SHARED, "source.txt")
    ps, pt = methods[0].prepare(suspicious), methods[0].prepare(source)
    for method in methods:
        method.score(ps, pt)
        method.passages(ps, pt)
        method.verdict(ps, pt)
    assert len(calls) == 1


def test_passages_touching_in_both_documents_merge() -> None:
    text_a = "Aaaa aaaa. Bbbb bbbb.\n\nCccc cccc. Dddd dddd."
    text_b = "Xxxx. Aaaa aaaa. Bbbb bbbb. Cccc cccc. Yyyy. Dddd dddd."
    a = [(0, 10), (11, 21), (23, 33), (34, 44)]
    b = [(6, 16), (17, 27), (28, 38), (45, 55)]
    merged = merge_touching(zip(a, b, strict=True), text_a, text_b)
    # the first three touch in both (only whitespace between); the fourth is apart in B
    assert merged == [((0, 33), (6, 38)), ((34, 44), (45, 55))]
    assert merge_touching([((0, 10), (6, 16)), ((0, 10), (6, 16))], text_a, text_b) == [
        ((0, 10), (6, 16))
    ]

"""The reworded-passage detector (core/detection/reworded.py) and the passages of both kinds
(core/detection/passages.py): hand-made edits of a source text, each of which SL+ST misses,
and properties of the detector on generated sentences."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.comparison import compare_documents
from core.detection.passages import PassageKind, copied_share, shared_word_spans, side_stems
from core.detection.reworded import (
    RewordedPassage,
    RewordSettings,
    WordProfile,
    find_reworded,
    word_changes,
)
from core.detection.stems import stemmer, stemmer_kind
from core.documents.document import Document, document_from_text
from core.options import ExclusionOptions, MatchOptions, SignatureOptions

EN = SignatureOptions(language="en")

SOURCE = (
    "A fruit is the seed-bearing structure that develops from the ovary of a flowering plant. "
    "Botanists distinguish fleshy fruits such as berries from dry fruits such as nuts and grains. "
    "Many animals eat fleshy fruits and scatter the seeds far from the parent plant. "
    "This partnership between plants and animals shaped the evolution of colourful fruits. "
    "Farmers later selected the largest and sweetest fruits for cultivation over thousands of "
    "years."
)
UNRELATED = (
    "The railway reached the valley in the autumn of the year the mill closed. "
    "Trains brought coal from the northern pits and carried timber back to the coast. "
    "The station master kept a ledger of every wagon that passed his signal box. "
    "Children gathered on the bridge each evening to watch the express thunder underneath. "
    "When the line closed the rails were lifted and the cutting became a footpath."
)


def doc(text: str, name: str = "doc.txt", options: SignatureOptions = EN) -> Document:
    return document_from_text(text, name, options)


def reworded(a: str, b: str, **kwargs: object) -> tuple[RewordedPassage, ...]:
    return compare_documents(doc(a, "a.txt"), doc(b, "b.txt"), **kwargs).reworded  # type: ignore[arg-type]


def test_changed_openings_fail_sl_st_and_are_found_as_reworded() -> None:
    """The issue's case: "For instance, a fruit is…" against "A fruit, for instance, is…"."""
    copy = (
        "In botany, a fruit is the seed-bearing structure developing from the ovary of a "
        "flowering plant. Fleshy fruits such as berries are distinguished by botanists from dry "
        "fruits such as nuts and grains. Fleshy fruits are eaten by many animals, which scatter "
        "the seeds far from the parent plant. The evolution of colourful fruits was shaped by "
        "this partnership between plants and animals."
    )
    comparison = compare_documents(doc(copy, "copy.txt"), doc(SOURCE, "source.txt"))
    assert not comparison.result.pieces  # SL+ST alone finds nothing
    assert comparison.flagged
    [passage] = comparison.passages
    assert passage.kind is PassageKind.REWORDED
    assert passage.a_sentences == (0, 4) and passage.b_sentences == (0, 4)
    assert comparison.copied_a == 1.0 and comparison.copied_b == 0.8


def test_trimmed_sentences_that_lost_a_word_each_are_found() -> None:
    copy = (
        "A fruit is the structure that develops from the ovary of a flowering plant. "
        "Botanists distinguish fleshy fruits such as berries from dry fruits such as nuts. "
        "Animals eat fleshy fruits and scatter the seeds far from the parent plant. "
        "This partnership between plants and animals shaped the evolution of fruits."
    )
    comparison = compare_documents(doc(copy, "copy.txt"), doc(SOURCE, "source.txt"))
    assert not comparison.result.pieces
    assert [p.kind for p in comparison.passages] == [PassageKind.REWORDED]
    assert comparison.passages[0].a_sentences == (0, 4)


def test_merged_split_and_reordered_sentences_are_one_passage() -> None:
    copy = (
        "Many animals eat fleshy fruits. They scatter the seeds far from the parent plant. "
        "A fruit is the seed-bearing structure that develops from the ovary of a flowering "
        "plant, and botanists distinguish fleshy fruits such as berries from dry fruits such "
        "as nuts and grains. This partnership between plants and animals shaped the evolution "
        "of colourful fruits."
    )
    found = reworded(copy, SOURCE)
    assert len(found) == 1
    [passage] = found
    assert passage.a_sentences == (0, 4)
    assert passage.b_sentences == (0, 4)
    aligned = {(p.a, p.b) for p in passage.pairs}
    assert {(2, 0), (2, 1)} <= aligned  # the merged sentence holds two of the source's
    assert {(0, 2), (1, 2)} <= aligned  # the split sentence's halves hold one each


def test_unrelated_texts_share_no_passage() -> None:
    comparison = compare_documents(doc(UNRELATED, "u.txt"), doc(SOURCE, "s.txt"))
    assert not comparison.flagged
    assert comparison.passages == () and comparison.copied_a == 0.0


def test_strict_is_the_papers_method_alone() -> None:
    copy = SOURCE.replace("A fruit is", "In botany, a fruit is").replace(
        "Many animals", "Many hungry animals"
    )
    default = compare_documents(doc(copy, "c.txt"), doc(SOURCE, "s.txt"))
    strict = compare_documents(
        doc(copy, "c.txt"), doc(SOURCE, "s.txt"), MatchOptions(reworded=False)
    )
    assert default.reworded and not strict.reworded
    assert strict.result == default.result  # SL+ST's blocks and scores are untouched
    assert all(p.kind is PassageKind.VERIFIED for p in strict.passages)


def test_a_verbatim_middle_is_a_verified_block_between_reworded_passages() -> None:
    sentences = [
        "The committee met in the old library on a cold Tuesday morning in March.",
        "Its chairman opened the meeting by reading the minutes of the previous session aloud.",
        "Several members objected to the wording of the resolution on public transport.",
        "After a long debate the clerk proposed a compromise that satisfied most members.",
        "The treasurer then presented the accounts for the year with a small surplus.",
        "Nobody asked about the missing invoices from the summer festival that year.",
        "The meeting closed with a vote of thanks to the volunteers who ran the library.",
        "Tea and biscuits were served in the reading room while the rain kept falling.",
    ]
    edited = list(sentences)
    edited[0] = "On a cold Tuesday morning in March the committee met in the old library."
    edited[1] = "The chairman began by reading aloud the minutes of the previous session."
    edited[6] = "The meeting ended with a vote of thanks to the library's volunteers."
    edited[7] = "In the reading room, tea and biscuits were served while rain kept falling."
    comparison = compare_documents(doc(" ".join(edited), "e.txt"), doc(" ".join(sentences)))
    kinds = [(p.kind, p.a_sentences) for p in comparison.passages]
    assert kinds == [
        (PassageKind.REWORDED, (0, 2)),
        (PassageKind.VERIFIED, (2, 6)),
        (PassageKind.REWORDED, (6, 8)),
    ]
    assert comparison.copied_a == 1.0


def test_quotations_excluded_leave_both_detectors() -> None:
    copy = f'As the textbook puts it, "{SOURCE}" That is the definition we use.'
    source = doc(SOURCE, "s.txt")
    assert compare_documents(doc(copy, "c.txt"), source).flagged
    excluded = compare_documents(
        doc(copy, "c.txt"), source, exclusions=ExclusionOptions(quotations=True)
    )
    assert not excluded.flagged and excluded.passages == ()


def test_word_changes_count_same_replaced_added_and_left_out() -> None:
    changes = word_changes(["a", "b", "c", "d", "e"], ["a", "x", "c", "d", "f", "g"])
    assert (changes.total, changes.same, changes.replaced, changes.added, changes.left_out) == (
        5,
        3,
        2,
        0,
        1,
    )
    assert word_changes(["a", "b", "z"], ["a", "b"]).added == 1


def test_shared_words_are_the_content_words_both_sides_hold() -> None:
    a = doc("Fleshy fruits are eaten by many animals in the forest.", "a.txt")
    b = doc("Many animals eat fleshy fruits.", "b.txt")
    spans = shared_word_spans(a, (0, 1), side_stems(b, (0, 1)))
    # "eaten" is not stemmed to "eat": Snowball leaves irregular forms alone
    assert [a.text[s:e] for s, e in spans] == ["Fleshy", "fruits", "many", "animals"]


def test_every_language_has_a_stemmer_or_a_stated_fallback() -> None:
    assert stemmer("en")("derived") == stemmer("en")("derives")
    assert stemmer("de")("Häuser".casefold()) == stemmer("de")("häusern")
    assert stemmer("cs")("studentům") == stemmer("cs")("studenti")[:6]
    assert stemmer_kind("en") == "Snowball" and stemmer_kind("pl") == "first 6 letters"
    assert stemmer("ml")("word") == "word" and stemmer_kind("ml") == "whole words"


def test_german_reworded_copy_is_found_through_stems() -> None:
    de = SignatureOptions(language="de")
    source = (
        "Die Stadtverwaltung beschloss im Frühjahr, die alten Brücken über den Fluss zu "
        "erneuern. Die Ingenieure prüften jede Brücke und fanden schwere Schäden an den "
        "Pfeilern. Die Bürger mussten während der Bauarbeiten lange Umwege fahren. Am Ende "
        "kostete die Erneuerung der Brücken doppelt so viel wie geplant."
    )
    copy = (
        "Im Frühjahr beschloss die Stadtverwaltung die Erneuerung der alten Brücken über den "
        "Fluss. Schwere Schäden an den Pfeilern fanden die Ingenieure, als sie jede Brücke "
        "prüften. Während der Bauarbeiten fuhren die Bürger lange Umwege. Die Erneuerung der "
        "Brücken kostete am Ende doppelt so viel wie geplant."
    )
    comparison = compare_documents(doc(copy, "c.txt", de), doc(source, "s.txt", de))
    assert comparison.reworded and comparison.copied_a == 1.0


def test_a_too_long_sentence_inside_a_verified_block_is_not_also_reworded() -> None:
    """A sentence over the signature's length cap inside a word-for-word copy belongs to the
    verified block around it, not to a reworded passage of its own."""
    long = " ".join(f"Word{k}" for k in range(40)) + "."
    first, second = SOURCE[: SOURCE.index("Many")], SOURCE[SOURCE.index("Many") :]
    text = f"{first}{long} {second}"
    comparison = compare_documents(doc(text, "a.txt"), doc(text, "b.txt"))
    assert comparison.a.signature.too_long == (2,)
    [piece] = comparison.result.pieces
    assert (piece.a_start, piece.length) == (0, 5)  # the long sentence lies inside it
    assert comparison.reworded == ()


def test_copied_share_leaves_out_excluded_sentences() -> None:
    d = doc(SOURCE)
    assert copied_share(d, [(0, 2)]) == 2 / 5
    assert copied_share(d, [(0, 2), (1, 3)]) == 3 / 5


# --- properties -------------------------------------------------------------------------

words = st.sampled_from([f"w{k}" for k in range(12)])
profiles = st.lists(st.lists(words, max_size=8), max_size=20).map(
    lambda sentences: WordProfile(
        "en", tuple(range(len(sentences))), tuple(tuple(s) for s in sentences)
    )
)


@given(profiles, profiles)
@settings(max_examples=150, deadline=None)
def test_passages_are_well_formed(a: WordProfile, b: WordProfile) -> None:
    found = find_reworded(a, b)
    assert list(found) == sorted(found, key=lambda p: (p.a_sentences, p.b_sentences))
    for passage in found:
        (a0, a1), (b0, b1) = passage.a_sentences, passage.b_sentences
        assert 0 <= a0 < a1 <= len(a) and 0 <= b0 < b1 <= len(b)
        assert passage.pairs
        for pair in passage.pairs:
            assert a0 <= pair.a < a1 and b0 <= pair.b < b1
            assert pair.shared == len(set(a.stems[pair.a]) & set(b.stems[pair.b])) >= 3
        assert 0 < passage.similarity <= 1


@given(
    profiles,
    profiles,
    st.sets(st.integers(0, 19)),
    st.sets(st.integers(0, 19)),
    st.integers(1, 40),
)
@settings(max_examples=200, deadline=None)
def test_the_detector_is_symmetric(
    a: WordProfile, b: WordProfile, in_a: set[int], in_b: set[int], min_posting: int
) -> None:
    """A against B finds the passages B against A finds, mirrored: with verified sentences on
    either side, and with stems common enough to be skipped (a small `min_posting`)."""
    tuned = RewordSettings(min_posting=min_posting)
    forth = {(p.a_sentences, p.b_sentences) for p in find_reworded(a, b, (in_a, in_b), tuned)}
    back = {(p.b_sentences, p.a_sentences) for p in find_reworded(b, a, (in_b, in_a), tuned)}
    assert forth == back


@given(profiles)
@settings(max_examples=200, deadline=None)
def test_verified_sentences_are_never_reworded(a: WordProfile) -> None:
    everything = set(a.sentence_indices)
    assert find_reworded(a, a, (everything, everything)) == ()
    assert find_reworded(a, a, (everything, ())) == ()

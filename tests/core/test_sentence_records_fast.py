"""The third round of sentence-splitting speed-ups against the references of
test_sentences_fast.py (NLTK's Punkt as Doppel ran it, and the former word loop): Punkt's
shortcut for "ASCII word + mark", the flat survey of pieces, the sentence records made through
their slots, and one string object per distinct term of a document."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.documents.language import get_language
from core.documents.sentences import Sentence, _sentence, split_sentences
from tests.core.test_sentences_fast import ReferenceLanguage, assert_same, reference_sentences

# Texts of what the shortcut decides on: ASCII words and numbers before ".", "?", "!" (and
# Greek ";"), followed by a space and a word (ASCII or not, with quotes, brackets, commas) or by
# a closing mark, with abbreviations, initials, ordinals and collocations of the English model.
_WORDS = [
    "the", "The", "cat", "Smith", "Mr", "mr", "Dr", "St", "etc", "J", "b", "iv", "No", "Fig",
    "vol", "1914", "5th", "2", "3", "Jan", "Inc", "I", "However", "and", "And", "U", "S",
    "x9", "über", "Ärger", "e.g", "don't", "well-known", "naïve",
]  # fmt: skip
_MARKS = [".", ".", ".", "?", "!", ";", "..", ".'", '."', ".)", "?'", "!)", ","]
_AFTER = [" ", " ", "  ", "\n", " (", ' "', " '", " [", ")", '"', "'", "-- ", ", "]

_part = st.tuples(st.sampled_from(_WORDS), st.sampled_from(["", *_MARKS]), st.sampled_from(_AFTER))
mark_texts = st.lists(_part, max_size=30).map(lambda parts: "".join("".join(p) for p in parts))


@settings(max_examples=500, deadline=None)
@given(text=mark_texts, code=st.sampled_from(["en", "de", "el", "fr"]))
def test_word_and_mark_split_as_nltk(text: str, code: str) -> None:
    language = get_language(code)
    assert language.span_tokenize(text) == ReferenceLanguage(language).span_tokenize(text)


@settings(max_examples=200, deadline=None)
@given(text=mark_texts, keep=st.booleans(), code=st.sampled_from(["en", "el", "de"]))
def test_sentences_of_word_and_mark_texts(text: str, keep: bool, code: str) -> None:
    assert_same(text, get_language(code), remove_stopwords=not keep)


@settings(max_examples=200, deadline=None)
@given(text=mark_texts)
def test_a_document_holds_one_string_per_distinct_term(text: str) -> None:
    """Equal terms are one object (the first occurrence), and equal to the reference's."""
    for keep in (False, True):
        english = get_language("en")
        sentences = split_sentences(text, english, remove_stopwords=not keep)
        assert sentences == reference_sentences(text, english, remove_stopwords=not keep)
        first: dict[str, str] = {}
        for sentence in sentences:
            for term in sentence.term_texts:
                assert first.setdefault(term, term) is term


def test_a_record_made_through_its_slots_is_the_dataclass_s() -> None:
    made = _sentence(4, 10, 20, ("cat", "sat"), (10, 14), (13, 17))
    assert made == Sentence(4, 10, 20, ("cat", "sat"), (10, 14), (13, 17))
    assert hash(made) == hash(Sentence(4, 10, 20, ("cat", "sat"), (10, 14), (13, 17)))
    assert made.length == 2 and made.terms[1].text == "sat"

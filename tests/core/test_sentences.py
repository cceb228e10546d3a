"""Tests for core.documents.sentences: sentence and term spans, paragraph breaks, stop words, ℓ,
the word-token rules, and the Punkt pieces joined back into their sentence (splitting artefacts),
with Hypothesis properties over arbitrary text."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.documents.language import available_languages, get_language
from core.documents.sentences import (
    Sentence,
    Term,
    join_reason,
    paragraph_spans,
    split_sentences,
    uses_sentence_capitals,
    word_spans,
)

ENGLISH = get_language("en")


def texts(sentences: tuple[Sentence, ...], text: str) -> list[str]:
    return [text[s.start : s.end] for s in sentences]


def terms(sentence: Sentence) -> list[str]:
    return [t.text for t in sentence.terms]


def check_invariants(text: str, sentences: tuple[Sentence, ...]) -> None:
    """Spans ordered, non-overlapping and inside the text; indices 0..n-1; every sentence has
    a letter or digit; terms inside their sentence, ordered, and case-folded from the text."""
    previous_end = 0
    for index, sentence in enumerate(sentences):
        assert sentence.index == index
        assert previous_end <= sentence.start < sentence.end <= len(text)
        assert word_spans(text, sentence.start, sentence.end), "a sentence without a word"
        term_end = sentence.start
        for term in sentence.terms:
            assert term_end <= term.start < term.end <= sentence.end
            assert term.text == text[term.start : term.end].casefold()
            term_end = term.end
        assert sentence.length == len(sentence.terms)
        previous_end = sentence.end


# -- Punkt and paragraphs ---------------------------------------------------------------------


def test_abbreviations_do_not_end_sentences() -> None:
    text = "Dr. Smith arrived at 5 p.m. on Jan. 3. He left."
    sentences = split_sentences(text, ENGLISH)
    assert texts(sentences, text) == ["Dr. Smith arrived at 5 p.m. on Jan. 3.", "He left."]
    check_invariants(text, sentences)


def test_spans_are_absolute_in_the_original_text() -> None:
    text = "First paragraph here. Second sentence!\n\nThird one? Yes.\n\nLast line"
    sentences = split_sentences(text, ENGLISH)
    assert texts(sentences, text) == [
        "First paragraph here.",
        "Second sentence!",
        "Third one?",
        "Yes.",
        "Last line",
    ]
    assert sentences[2].start == text.index("Third")
    check_invariants(text, sentences)


def test_a_paragraph_break_always_ends_a_sentence() -> None:
    text = "CHAPTER ONE\n\nIt was a dark night\n\nand a stormy one."
    assert texts(split_sentences(text, ENGLISH), text) == [
        "CHAPTER ONE",
        "It was a dark night",
        "and a stormy one.",
    ]


def test_an_abbreviation_before_a_paragraph_break_still_ends_the_sentence() -> None:
    text = "I met Mr.\n\nSmith was there too."
    assert texts(split_sentences(text, ENGLISH), text) == ["I met Mr.", "Smith was there too."]


def test_blank_lines_with_spaces_and_extra_breaks_count_as_paragraph_breaks() -> None:
    text = "One two\n  \n\n\nthree four"
    assert texts(split_sentences(text, ENGLISH), text) == ["One two", "three four"]


def test_a_single_newline_does_not_end_a_sentence() -> None:
    text = "Roses are red\nviolets are blue."
    assert texts(split_sentences(text, ENGLISH), text) == [text]


def test_closing_quotes_stay_with_their_sentence() -> None:
    text = '"Go away." She left. (It was late.) Then?'
    assert texts(split_sentences(text, ENGLISH), text) == [
        '"Go away."',
        "She left.",
        "(It was late.)",
        "Then?",
    ]


@pytest.mark.parametrize("separator", ["* * *", "***", "—", "...", "~~~ ~~~", "§"])
def test_segments_without_a_letter_or_digit_are_not_sentences(separator: str) -> None:
    text = f"The end of one part.\n\n{separator}\n\nThe start of the next."
    sentences = split_sentences(text, ENGLISH)
    assert texts(sentences, text) == ["The end of one part.", "The start of the next."]
    assert [s.index for s in sentences] == [0, 1]


def test_a_sentence_of_stop_words_is_kept_with_length_zero() -> None:
    text = "It is. Who was it?"
    sentences = split_sentences(text, ENGLISH)
    assert texts(sentences, text) == ["It is.", "Who was it?"]
    assert [s.length for s in sentences] == [0, 0]
    assert [s.length for s in split_sentences(text, ENGLISH, remove_stopwords=False)] == [2, 3]


def test_empty_and_blank_texts_have_no_sentences() -> None:
    for text in ["", " ", "\n\n", "\n\n\n\n", "— — —"]:
        assert split_sentences(text, ENGLISH) == ()


# -- Splitting artefacts: Punkt pieces joined back (docs/languages.md) ---------------------------


def sentence_texts(text: str, code: str = "en") -> list[str]:
    sentences = split_sentences(text, get_language(code))
    check_invariants(text, sentences)
    return texts(sentences, text)


def test_a_question_mark_left_for_an_unencodable_symbol_does_not_end_the_sentence() -> None:
    # "PageRank™" saved in an encoding without ™
    text = "The PageRank? is derived from the link graph. It was patented in 1998."
    assert sentence_texts(text) == [
        "The PageRank? is derived from the link graph.",
        "It was patented in 1998.",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '"Is it you?" cried his wife. "Yes."',
            ['"Is it you?" cried his wife.', '"Yes."'],
        ),
        (
            '"Oh! my dear," said Mrs. Bennet, "you must come."',
            ['"Oh! my dear," said Mrs. Bennet, "you must come."'],
        ),
        (
            'He asked "why?" and left. Then he came back.',
            ['He asked "why?" and left.', "Then he came back."],
        ),
        ("He said (really!) that it was fine.", ["He said (really!) that it was fine."]),
        # a translation's stray space before the closing quote
        ('"Well? ", asked Mr. Samsa.', ['"Well? ", asked Mr. Samsa.']),
        (
            "No, no! shame upon all cowards! Then he left.",
            ["No, no! shame upon all cowards!", "Then he left."],
        ),
    ],
)
def test_a_lowercase_word_after_a_question_or_exclamation_mark_continues_the_sentence(
    text: str, expected: list[str]
) -> None:
    assert sentence_texts(text) == expected


def test_a_capital_or_a_digit_after_a_question_mark_still_starts_a_sentence() -> None:
    assert sentence_texts("Is it you? Yes, it is.") == ["Is it you?", "Yes, it is."]
    assert sentence_texts("Is it 2? 3 is also possible.") == ["Is it 2?", "3 is also possible."]
    assert sentence_texts('"Is it you?" "Yes."') == ['"Is it you?"', '"Yes."']


def test_a_writer_without_sentence_capitals_is_not_merged_into_one_sentence() -> None:
    chat = (
        "what is this? i dont know. lol ok! whatever man\n\nsee you tomorrow. bring the notes? ok"
    )
    assert sentence_texts(chat) == [
        "what is this?",
        "i dont know.",
        "lol ok!",
        "whatever man",
        "see you tomorrow.",
        "bring the notes?",
        "ok",
    ]


def test_whether_a_writer_uses_sentence_capitals() -> None:
    def capitals(text: str) -> bool:
        pieces = [
            [(a + s, a + e) for s, e in ENGLISH.span_tokenize(text[a:b])]
            for a, b in paragraph_spans(text)
        ]
        return uses_sentence_capitals(text, pieces)

    assert capitals("One. Two. Three. four.")
    assert not capitals("one. two. three. Four.")
    assert capitals("Is it you? no. Yes.")  # a tie counts as capitals
    # pieces after "?" and "!" say nothing: dialogue tags start lowercase
    assert capitals('"Is it you?" cried she. "Oh!" said he. "Well?" asked she.')
    # without a piece after ".", the paragraphs' first letters decide
    assert capitals("The PageRank? is derived from links")
    assert not capitals("what is this? i dont know")
    assert capitals("これは何? それは本です")  # no cased letter at all


def test_a_lowercase_word_after_a_period_continues_the_sentence() -> None:
    # abbreviations the English model does not know, or a unit, before a lowercase word
    assert sentence_texts("We bought apples, pears, etc. and then we left. Fine.") == [
        "We bought apples, pears, etc. and then we left.",
        "Fine.",
    ]
    assert sentence_texts("Use tools, i.e. hammers and saws. Smith et al. showed it.") == [
        "Use tools, i.e. hammers and saws.",
        "Smith et al. showed it.",
    ]
    assert sentence_texts("It weighed 400 lbs. of beef.") == ["It weighed 400 lbs. of beef."]
    # "etc." may end a sentence
    assert sentence_texts("We bought apples, pears, etc. Then we left.") == [
        "We bought apples, pears, etc.",
        "Then we left.",
    ]


def test_an_abbreviation_that_never_ends_a_sentence_joins_whatever_follows() -> None:
    assert sentence_texts("Many cities, e.g. London and Paris, grow. They do.") == [
        "Many cities, e.g. London and Paris, grow.",
        "They do.",
    ]
    assert sentence_texts("Compare the results (cf. Table 2) with ours.") == [
        "Compare the results (cf. Table 2) with ours."
    ]


@pytest.mark.parametrize(
    "text",
    [
        "As shown in Fig. 3 the curve rises.",
        "He lived at No. 5 Baker Street.",
        "Smith et al. (2010) showed that it works.",
        "See pp. 45-50 and Vol. 2, ch. 3 of the book.",
        "The city grew ca. 1900 to its present size.",
    ],
)
def test_a_number_after_an_abbreviation_that_stands_before_numbers_continues(text: str) -> None:
    assert sentence_texts(text) == [text]


def test_a_number_after_an_ordinary_word_still_starts_a_sentence() -> None:
    assert sentence_texts("It was in 1990. 20 years later he came back.") == [
        "It was in 1990.",
        "20 years later he came back.",
    ]
    assert sentence_texts("See Table 2. 3 rows are empty.") == ["See Table 2.", "3 rows are empty."]


def test_a_list_marker_stays_with_its_item() -> None:
    assert sentence_texts("1. Open the box. 2. Remove the lid. 3. Take out the toy.") == [
        "1. Open the box.",
        "2. Remove the lid.",
        "3. Take out the toy.",
    ]
    assert sentence_texts("iii. Results show the effect. iv. Discussion follows.") == [
        "iii. Results show the effect.",
        "iv. Discussion follows.",
    ]
    assert sentence_texts("XI. THE ADVENTURE OF THE BERYL CORONET") == [
        "XI. THE ADVENTURE OF THE BERYL CORONET"
    ]


def test_an_abbreviation_before_a_word_that_ends_its_own_sentence_is_not_split_off() -> None:
    # stock NLTK splits "Mr." off here: it counts the next word's "!" or "." for the period
    text = '"Mr. Darcy!" repeated Elizabeth. I met Mr. Darcy." She left.'
    assert sentence_texts(text) == [
        '"Mr. Darcy!" repeated Elizabeth.',
        'I met Mr. Darcy."',
        "She left.",
    ]
    text = '"Is it Mr. Darcy?" she asked.'
    assert [text[a:b] for a, b in ENGLISH.span_tokenize(text)] == [
        '"Is it Mr. Darcy?"',
        "she asked.",
    ]


def test_joining_never_crosses_a_paragraph_break() -> None:
    text = '"Is it you?"\n\ncried his wife, e.g.\n\nLondon, Fig.\n\n3 and 2.\n\nRemove it.'
    assert sentence_texts(text) == [
        '"Is it you?"',
        "cried his wife, e.g.",
        "London, Fig.",
        "3 and 2.",
        "Remove it.",
    ]


def test_a_joined_sentence_spans_its_pieces_and_has_all_their_terms() -> None:
    text = 'Intro here. "Is it you?" cried his wife. End.'
    sentences = split_sentences(text, ENGLISH)
    assert [s.index for s in sentences] == [0, 1, 2]
    joined = sentences[1]
    assert (joined.start, joined.end) == (text.index('"Is'), text.index(" End"))
    assert terms(joined) == ["cried", "wife"]
    kept = split_sentences(text, ENGLISH, remove_stopwords=False)[1]
    assert terms(kept) == ["is", "it", "you", "cried", "his", "wife"]


def test_join_reason_names_the_rule() -> None:
    def reason(text: str) -> str | None:
        piece, following = ENGLISH.span_tokenize(text)[:2]
        return join_reason(text, piece, following, capitals=True)

    assert reason("Is it you? cried she.") == "lowercase"
    assert reason("Use tools, e.g. Hammers.") == "abbreviation"
    assert reason("As in Fig. 3 here.") == "number"
    assert reason("2. Remove the lid.") == "marker"
    assert reason("Is it you? Yes.") is None
    assert reason("See Fig. 2. Then stop.") == "number"
    assert reason("Cats, e.g. 2. Remove the lid.") == "abbreviation"
    assert reason("It is one. 2. Remove the lid.") is None  # "2." starts the next item
    text = "Is it you? cried she."
    piece, following = ENGLISH.span_tokenize(text)
    assert join_reason(text, piece, following, capitals=False) is None


@pytest.mark.parametrize(
    ("code", "text", "expected"),
    [
        ("de", '"Kommst du?" fragte er. Ja.', ['"Kommst du?" fragte er.', "Ja."]),
        ("de", "Das zeigt Abb. 3 hier.", ["Das zeigt Abb. 3 hier."]),
        ("fr", "Tu viens? dit-il. Vu p.ex. Paris.", ["Tu viens? dit-il.", "Vu p.ex. Paris."]),
        ("es", "¿Vienes? preguntó él. Ver pág. 45.", ["¿Vienes? preguntó él.", "Ver pág. 45."]),
        ("ru", "Ты придёшь? спросил он. Да.", ["Ты придёшь? спросил он.", "Да."]),
        ("el", "Έρχεσαι; ρώτησε εκείνος. Ναι.", ["Έρχεσαι; ρώτησε εκείνος.", "Ναι."]),
    ],
)  # fmt: skip
def test_the_rules_hold_in_other_languages(code: str, text: str, expected: list[str]) -> None:
    assert sentence_texts(text, code) == expected


def test_a_script_without_case_never_joins() -> None:
    text = "מה זה? זה ספר. ומה זה? זו מחברת."
    assert len(sentence_texts(text)) == 4


# -- Terms ------------------------------------------------------------------------------------


def test_terms_are_case_folded_words_minus_stop_words() -> None:
    text = "The Cat sat on the MAT, didn't it?"
    (sentence,) = split_sentences(text, ENGLISH)
    assert terms(sentence) == ["cat", "sat", "mat"]
    assert sentence.length == 3
    assert sentence.terms[0] == Term("cat", text.index("Cat"), text.index("Cat") + 3)


def test_stop_words_can_be_kept() -> None:
    text = "The Cat sat on the MAT, didn't it?"
    (sentence,) = split_sentences(text, ENGLISH, remove_stopwords=False)
    assert terms(sentence) == ["the", "cat", "sat", "on", "the", "mat", "didn't", "it"]
    assert sentence.length == 8


def test_contractions_match_the_stop_list_spelling() -> None:
    text = "You don't know what you're missing, won't you see?"
    (sentence,) = split_sentences(text, ENGLISH)
    assert terms(sentence) == ["know", "missing", "see"]


def test_terms_keep_absolute_spans_for_highlighting() -> None:
    text = "Intro.\n\nA well-known author wrote 1,000 pages in 3.5 years."
    sentences = split_sentences(text, ENGLISH)
    check_invariants(text, sentences)
    assert [text[t.start : t.end] for t in sentences[1].terms] == [
        "well-known",
        "author",
        "wrote",
        "1,000",
        "pages",
        "3.5",
        "years",
    ]


def test_casefold_is_used_not_lower() -> None:
    german = get_language("de")
    text = "Die Straße ist groß. STRASSE!"
    words = [[t.text for t in s.terms] for s in split_sentences(text, german)]
    assert words == [["strasse", "gross"], ["strasse"]]


def test_every_shipped_language_splits_with_stop_words_removed() -> None:
    samples = {
        "de": "Das ist z.B. ein Satz. Und noch einer.",
        "fr": "M. Dupont est arrivé. Il est parti.",
        "ru": "Это первое предложение. А это второе.",
        "el": "Αυτή είναι η πρώτη πρόταση. Αυτή είναι η δεύτερη.",
    }
    for info in available_languages():
        language = get_language(info.code)
        text = samples.get(info.code, "Alpha beta gamma. Delta epsilon.")
        sentences = split_sentences(text, language)
        assert len(sentences) == 2, info.code
        check_invariants(text, sentences)
        kept = split_sentences(text, language, remove_stopwords=False)
        assert sum(s.length for s in kept) >= sum(s.length for s in sentences)
    (first, _) = split_sentences(samples["de"], get_language("de"))
    assert terms(first) == ["z", "b", "satz"]


# -- Word tokens ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("don't well-known", ["don't", "well-known"]),
        ("'tis the students' books", ["tis", "the", "students", "books"]),
        ("3.14 and 1,000 and 2024.", ["3.14", "and", "1,000", "and", "2024"]),
        ("end. Next,word", ["end", "Next", "word"]),
        ("p.m. e.g.", ["p", "m", "e", "g"]),
        ("snake_case -- dash—dash", ["snake", "case", "dash", "dash"]),
        ("naïve cafe\u0301 Zoë", ["naïve", "cafe\u0301", "Zoë"]),
        ("Ελληνικά και русский", ["Ελληνικά", "και", "русский"]),
        ("x² ½ Ⅻ", ["x²", "½", "Ⅻ"]),
        ("rock'n'roll mother-in-law", ["rock'n'roll", "mother-in-law"]),
        ("a--b ''quoted'' -lead trail-", ["a", "b", "quoted", "lead", "trail"]),
        ("***  —  ...", []),
    ],
)
def test_word_tokens(text: str, expected: list[str]) -> None:
    assert [text[a:b] for a, b in word_spans(text)] == expected


def test_word_spans_with_bounds_are_absolute() -> None:
    text = "alpha beta gamma delta"
    assert word_spans(text, 6, 16) == [(6, 10), (11, 16)]
    assert word_spans(text, 8) == [(8, 10), (11, 16), (17, 22)]
    assert word_spans(text, 0, 3) == [(0, 3)]


# -- Properties -------------------------------------------------------------------------------

PIECES = st.sampled_from(
    [
        "Dr.", "Mr.", "p.m.", "Jan.", "3.", "3.14", "1,000", "U.S.", "e.g.", "etc.", "A.",
        "the", "The", "cat", "don't", "well-known", "'", "-", "—", "*", "* * *", "...", "?",
        "!", '"', "(", ")", "«", "»", "é", "e\u0301", "Ω", "ς", "İ", "ß", "_", "\t", " ", " ",
        "\n", "\n\n", "\n \n", "  ", ".",
    ]
)  # fmt: skip
PROSE = st.lists(st.one_of(PIECES, st.text(max_size=5)), max_size=60).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(), PROSE), keep=st.booleans())
def test_sentence_and_term_spans_hold_for_any_text(text: str, keep: bool) -> None:
    sentences = split_sentences(text, ENGLISH, remove_stopwords=not keep)
    check_invariants(text, sentences)
    if keep:
        all_words = word_spans(text)
        in_sentences = [(t.start, t.end) for s in sentences for t in s.terms]
        # every word is in exactly one sentence: sentence segments cover all words
        assert in_sentences == all_words


ARTEFACTS = st.sampled_from(
    [
        "The", "the", "Is", "it", "you", "cried", "said", "she", "etc.", "e.g.", "i.e.", "Fig.",
        "No.", "al.", "2.", "3", "iv.", "b.", "XI.", "?", "!", ".", '?"', '!"', "?)", '"', "(",
        ")", "'", "--", " ", " ", " ", "\n", "\n\n", "\n \n", "ok", "Ω", "ω", "ß", "א", "も",
    ]
)  # fmt: skip
ARTEFACT_PROSE = st.lists(ARTEFACTS, max_size=80).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(ARTEFACT_PROSE, PROSE))
def test_joined_sentences_are_whole_punkt_pieces_of_one_paragraph(text: str) -> None:
    sentences = split_sentences(text, ENGLISH, remove_stopwords=False)
    check_invariants(text, sentences)
    paragraphs = paragraph_spans(text)
    pieces = [(a + s, a + e) for a, b in paragraphs for s, e in ENGLISH.span_tokenize(text[a:b])]
    starts, ends = {s for s, _ in pieces}, {e for _, e in pieces}
    for sentence in sentences:
        # a sentence runs from a piece's start to a piece's end, inside one paragraph
        assert sentence.start in starts and sentence.end in ends
        assert any(a <= sentence.start and sentence.end <= b for a, b in paragraphs)
    # every word token is in exactly one sentence (dropped segments have none)
    assert [(t.start, t.end) for s in sentences for t in s.terms] == word_spans(text)
    # a sentence holds every piece between its ends, and no two sentences share one
    assert len({s.start for s in sentences}) == len(sentences)


@settings(max_examples=100, deadline=None)
@given(text=st.one_of(st.text(), PROSE))
def test_spans_hold_in_greek_and_german_too(text: str) -> None:
    for code in ("el", "de"):
        check_invariants(text, split_sentences(text, get_language(code)))


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(), PROSE), start=st.integers(0, 40), width=st.integers(0, 80))
def test_word_spans_are_ordered_words_inside_the_bounds(text: str, start: int, width: int) -> None:
    start = min(start, len(text))
    end = min(len(text), start + width)
    spans = word_spans(text, start, end)
    previous = start
    for a, b in spans:
        assert previous <= a < b <= end
        word = text[a:b]
        assert any(c.isalnum() for c in word)
        # (a word may end in a mark: a combining accent, or a spacing vowel sign such as
        # Devanagari's "ा", whose combining class is 0)
        last = word[-1]
        assert word[0].isalnum() and (last.isalnum() or unicodedata.category(last).startswith("M"))
        previous = b
    # nothing with a letter or digit is left between the words
    gaps = [
        text[x:y]
        for x, y in zip([start] + [b for _, b in spans], [a for a, _ in spans] + [end], strict=True)
    ]
    assert not any(c.isalnum() and c != "_" for gap in gaps for c in gap)

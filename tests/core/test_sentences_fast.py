"""The fast sentence splitting (core.documents.punkt, and split_sentences' word loop) against
the reference: NLTK's Punkt run as Doppel ran it before (core.documents.punkt_nltk) and the
former word loop (here, `reference_sentences`). Pieces and Sentence records must be equal on
every language's test texts, on Hypothesis texts full of what Punkt decides on (abbreviations,
initials, numbers, quotes, ellipses, line breaks, mixed case), and on the shared corpus (the
nine Gutenberg novels and the P4P texts, skipped where ../shared is absent)."""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.documents import punkt_nltk
from core.documents import sentences as sentences_module
from core.documents.language import Language, available_languages, get_language
from core.documents.normalize import normalize_text
from core.documents.punkt import PunktSplitter, load_model
from core.documents.punkt_nltk import reference_splitter
from core.documents.sentences import Sentence, Term, sentence_spans, split_sentences, word_spans
from core.resources import resource_path
from tests.core.test_language import ESSAYS

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = [info.code for info in available_languages()]


# -- The reference ----------------------------------------------------------------------------


def _old_marks_class() -> str:
    """The former word pattern's one class of every combining mark of planes 0 and 1."""
    ranges: list[tuple[int, int]] = []
    for cp in range(0x20000):
        if unicodedata.category(chr(cp)).startswith("M"):
            if ranges and ranges[-1][1] == cp - 1:
                ranges[-1] = (ranges[-1][0], cp)
            else:
                ranges.append((cp, cp))
    return "".join(f"\\U{a:08x}-\\U{b:08x}" if a != b else f"\\U{a:08x}" for a, b in ranges)


_OLD_PIECE = rf"[^\W_]+(?:[{_old_marks_class()}]+[^\W_]*)*"
_OLD_WORD = re.compile(rf"{_OLD_PIECE}(?:(?:['\-\u2010\u2011]|(?<=\d)[.,](?=\d)){_OLD_PIECE})*")


class ReferenceLanguage:
    """`language` with NLTK's Punkt (as Doppel ran it) in place of the fast splitter."""

    def __init__(self, language: Language) -> None:
        self.language = language
        self.splitter = reference_splitter(language.info.code, language.info.name)

    def span_tokenize(self, text: str) -> list[tuple[int, int]]:
        return list(self.splitter.span_tokenize(text))


def reference_sentences(
    text: str, language: Language, remove_stopwords: bool = True
) -> tuple[Sentence, ...]:
    """split_sentences as it was: NLTK's pieces joined by `sentence_spans`, then each
    sentence's words found with the former pattern and case-folded one by one."""
    is_stopword = language.is_stopword
    sentences: list[Sentence] = []
    for start, end in sentence_spans(text, ReferenceLanguage(language)):  # type: ignore[arg-type]
        words = [(m.group().casefold(), *m.span()) for m in _OLD_WORD.finditer(text, start, end)]
        if not words:
            continue
        if remove_stopwords:
            words = [w for w in words if not is_stopword(w[0])]
        sentences.append(Sentence.from_terms(len(sentences), start, end, (Term(*w) for w in words)))
    return tuple(sentences)


def assert_same(text: str, language: Language, remove_stopwords: bool = True) -> None:
    reference = ReferenceLanguage(language)
    assert language.span_tokenize(text) == reference.span_tokenize(text)
    expected = reference_sentences(text, language, remove_stopwords)
    assert split_sentences(text, language, remove_stopwords=remove_stopwords) == expected


# -- Every language's test texts ----------------------------------------------------------------

LANGUAGE_TEXTS = {
    "de": ['"Kommst du?" fragte er. Ja.', "Das zeigt Abb. 3 hier. Dr. Müller kam z.B. am 3. Mai."],
    "fr": ["Tu viens? dit-il. Vu p.ex. Paris. M. Dupont arrive."],
    "es": ["¿Vienes? preguntó él. Ver pág. 45. El Sr. García llegó."],
    "ru": ["Ты придёшь? спросил он. Да. Т.е. нет."],
    "el": ["Έρχεσαι; ρώτησε εκείνος. Ναι. Π.χ. αυτό."],
}


@pytest.mark.parametrize("code", SHIPPED)
def test_every_language_splits_its_test_texts_as_nltk(code: str) -> None:
    language = get_language(code)
    texts = [*ESSAYS[code], "\n\n".join(ESSAYS[code]), *LANGUAGE_TEXTS.get(code, [])]
    texts += [text.lower() for text in texts] + [text.upper() for text in texts]
    for text in texts:
        for remove_stopwords in (True, False):
            assert_same(text, language, remove_stopwords)


def test_the_model_is_read_as_nltk_reads_it() -> None:
    for info in available_languages():
        ours = load_model(resource_path("nltk_data") / "tokenizers" / "punkt_tab" / info.name)
        theirs = punkt_nltk._params(info.name)
        assert ours.abbreviations == theirs.abbrev_types
        assert ours.collocations == theirs.collocations
        assert ours.sentence_starters == theirs.sent_starters
        assert ours.ortho_context == dict(theirs.ortho_context)


def test_the_patterns_are_nltks() -> None:
    """The fast splitter's patterns behave as NLTK's on the characters around a mark."""
    from nltk.tokenize.punkt import PunktLanguageVars, PunktToken

    from core.documents import punkt

    assert punkt._REALIGNMENT.pattern == PunktLanguageVars.re_boundary_realignment.pattern
    assert punkt._REALIGNMENT.flags == PunktLanguageVars.re_boundary_realignment.flags
    for ours, theirs in [
        (punkt._NUMERIC, PunktToken._RE_NUMERIC),
        (punkt._INITIAL, PunktToken._RE_INITIAL),
        (punkt._ELLIPSIS, PunktToken._RE_ELLIPSIS),
    ]:
        assert (ours.pattern, ours.flags) == (theirs.pattern, theirs.flags)
    assert PunktLanguageVars._word_tokenize_fmt == punkt._WORD_TOKENIZE_FMT
    assert PunktLanguageVars._period_context_fmt == punkt._PERIOD_CONTEXT_FMT
    assert PunktLanguageVars._re_multi_char_punct == punkt._MULTI_CHAR
    assert PunktLanguageVars._re_word_start == punkt._WORD_START


def test_the_model_keeps_its_vocabulary_while_splitting() -> None:
    """NLTK's model is a defaultdict that gains a word type at each look-up (a "." before
    an unknown word): its vocabulary, which language detection reads, grew with what was
    split. The fast splitter only reads its model."""
    english = get_language("en")
    before = len(english._vocabulary)
    split_sentences("He met Mr. Xqzwv. Then J. Qqqrst came at 5. Zzyzx left.", english)
    assert len(english._vocabulary) == before
    assert "xqzwv" not in english._vocabulary


# -- Hypothesis texts -----------------------------------------------------------------------------

_WORDS = [
    "the", "cat", "sat", "The", "Cat", "SAT", "Mr.", "Mrs.", "Dr.", "St.", "e.g.", "i.e.",
    "U.S.", "p.m.", "a.m.", "No.", "Fig.", "vol.", "etc.", "J.", "A.", "b.", "iv.", "2.", "3.14",
    "1,000", "1914.", "5th", "-3.", ".5", "Jan.", "Inc.", "co.", "Smith", "smith", "London",
    "I", "i", "However", "however", "And", "and", "But", "Ιησούς", "Москва", "über", "Ärger",
    "don't", "well-known", "x²", "café", "—", "--", "-", "*", "&", "@", "#", "§", "½",
]  # fmt: skip
_MARKS = [".", "?", "!", ";", ":", ",", "...", ". . .", "…", "..", "?!", "!!", ".)", '."', ".'"]
_QUOTES = ['"', "'", "(", ")", "[", "]", "{", "}", "“", "”", "‘", "’", "«", "»", "`"]
_SPACES = [" ", " ", " ", "  ", "\n", "\n\n", "\n \n", "\t", "\xa0", "\u2003", "\r", "\x0b", "\x0c"]

_piece = st.one_of(
    st.sampled_from(_WORDS),
    st.sampled_from(_MARKS),
    st.sampled_from(_QUOTES),
    st.text(min_size=1, max_size=4),
)
_token = st.builds(lambda a, b: a + b, _piece, st.sampled_from(["", "", "", *_MARKS, *_QUOTES]))
punkt_texts = st.lists(st.tuples(_token, st.sampled_from(_SPACES)), max_size=40).map(
    lambda parts: "".join(token + space for token, space in parts)
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=punkt_texts, code=st.sampled_from(["en", "de", "el", "fr", "ru", "tr"]))
def test_generated_texts_split_as_nltk(text: str, code: str) -> None:
    assert_same(text, get_language(code))


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=80), keep=st.booleans())
def test_any_text_splits_as_nltk(text: str, keep: bool) -> None:
    assert_same(text, get_language("en"), remove_stopwords=not keep)
    assert_same(text, get_language("el"), remove_stopwords=not keep)


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=60))
def test_the_word_pattern_is_the_former_one(text: str) -> None:
    """Two mark classes (plane 0, plane 1) find the words the one class found."""
    assert word_spans(text) == [m.span() for m in _OLD_WORD.finditer(text)]


# What the word pattern decides on: letters (cased, caseless, ASCII and not), digits, combining
# marks of planes 0 and 1, apostrophes, hyphens (ASCII and Unicode), "." and "," next to digits,
# the underscore (not a word character), spaces and other marks.
_WORDISH = st.lists(
    st.sampled_from(
        [
            *"aZé9٣ß_ '-.,!\n\u2010\u2011\u2019\u0301\u0345\u093f\U0001d165\U000101fd\U0001d7ce",
            *["ǅ", "İ", "Ω", "日", "x²", "½", "3.14", "1,000", "don't", "well-known"],
        ]
    ),
    max_size=40,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(text=st.one_of(_WORDISH, st.text(alphabet=st.characters(max_codepoint=127), max_size=60)))
def test_the_word_spans_are_the_former_pattern_s(text: str) -> None:
    """`word_spans` (one `re.split`, lengths summed; the ASCII pattern on ASCII text) and the
    possessive pattern find the words the former pattern's matches found, anywhere in a text."""
    expected = [m.span() for m in _OLD_WORD.finditer(text)]
    assert word_spans(text) == expected
    assert [m.span() for m in sentences_module._WORD.finditer(text)] == expected
    middle = len(text) // 3
    assert word_spans(text, middle, 2 * middle) == [
        m.span() for m in _OLD_WORD.finditer(text, middle, 2 * middle)
    ]


@settings(max_examples=200, deadline=None)
@given(text=_WORDISH, keep=st.booleans(), code=st.sampled_from(["en", "el", "de"]))
def test_the_terms_are_the_former_ones(text: str, keep: bool, code: str) -> None:
    """Each sentence's term tuples are its words, case-folded, without the stop words."""
    assert_same(text, get_language(code), remove_stopwords=not keep)


def test_a_sentence_holds_as_many_starts_and_ends_as_texts() -> None:
    sentence = Sentence.from_terms(3, 0, 9, [Term("cat", 0, 3), Term("sat", 4, 7)])
    assert sentence.terms == (Term("cat", 0, 3), Term("sat", 4, 7))
    assert sentence.length == 2 and sentence.term_texts == ("cat", "sat")
    with pytest.raises(ValueError, match="as many"):
        Sentence(0, 0, 9, ("cat", "sat"), (0, 4), (3,))


@pytest.mark.parametrize(
    "text", ["Straße. GROSSE Maße! İstanbul ǅemal ﬁne.", "a\u0301b\U0001d165c x\U000101fd."]
)
def test_words_that_fold_longer_or_carry_marks(text: str) -> None:
    assert_same(text, get_language("de"))
    assert word_spans(text) == [m.span() for m in _OLD_WORD.finditer(text)]


def test_a_splitter_made_from_a_model_splits() -> None:
    splitter = PunktSplitter(get_language("en")._splitter._model)
    assert splitter.span_tokenize("Mr. Smith came. He left.") == [(0, 15), (16, 24)]
    assert splitter.span_tokenize("") == []


# -- The shared corpus ----------------------------------------------------------------------------


def _shared(folder: str, env: str) -> list[Path]:
    candidates = [os.environ.get(env), ROOT.parent / "shared" / "corpus" / folder]
    for candidate in candidates:
        if candidate and Path(candidate).is_dir():
            found = sorted(Path(candidate).glob("*.txt"))
            if found:
                return found
    return []


CORPUS = _shared("gutenberg", "DOPPEL_CORPUS") + _shared("p4p", "DOPPEL_P4P")


@pytest.mark.bench
@pytest.mark.parametrize("path", CORPUS or [None], ids=lambda p: p.name if p else "absent")
def test_the_shared_corpus_splits_as_nltk(path: Path | None) -> None:
    if path is None:
        pytest.skip("../shared/corpus is absent")
    raw = path.read_text(encoding="utf-8")
    english = get_language("en")
    text = normalize_text(raw)
    assert_same(text, english)
    # and each raw paragraph, as written (line breaks, runs of spaces, curly quotes)
    reference = ReferenceLanguage(english)
    paragraphs = sentences_module.paragraph_spans(raw)
    for start, end in paragraphs:
        assert english.span_tokenize(raw[start:end]) == reference.span_tokenize(raw[start:end])


# -- Language detection: the same answer, found faster --------------------------------------------


def reference_detection(text: str) -> tuple[str, float, bool]:
    """detect_language as it was written before (each language scored over every word,
    each word looked up in each model one occurrence at a time), on the same data."""
    from collections import Counter

    from core.documents import language as lang

    words = lang._LETTER_WORD.findall(lang._sample(text))
    if not words:
        return "en", 0.0, False
    counts = Counter(w.casefold() for w in words)
    weights = lang._stopword_weights()
    scores = {}
    for info in available_languages():
        stopwords = lang._stop_list(info)
        score = 0.0
        for word, n in counts.items():
            key = lang._strip_accents(word) if info.code in lang._ACCENT_INSENSITIVE else word
            if key in stopwords:
                score += n * weights[key]
        scores[info.code] = score
    ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    if ranked[0][1] <= 0.0:
        return "en", 0.0, False
    shortlist = [get_language(code) for code, score in ranked[:3] if score > 0.0]
    with_vocabulary = [x for x in shortlist if len(x._vocabulary) >= lang._MIN_VOCABULARY]
    if shortlist[0] not in with_vocabulary:
        code, confidence = lang._judge_by_stopwords(ranked, words, shortlist[0])
    else:
        lowered = [w.lower() for w in words]
        known = [[w in x._vocabulary for w in lowered] for x in with_vocabulary]
        coverage = [sum(k) for k in known]
        order = sorted(range(len(with_vocabulary)), key=lambda i: -coverage[i])
        best = order[0]
        fit = min(1.0, max(0.0, (coverage[best] / len(words) - 0.5) / 0.3))
        code, confidence = with_vocabulary[best].info.code, fit
        if len(order) > 1:
            pairs = list(zip(known[best], known[order[1]], strict=True))
            only_best = sum(1 for a, b in pairs if a and not b)
            only_second = sum(1 for a, b in pairs if b and not a)
            discordant = only_best + only_second
            z = (only_best - only_second) / discordant**0.5 if discordant else 0.0
            confidence = (1.0 - 2.0 * lang._normal_tail(z)) * fit
    reliable = len(words) >= lang.MIN_WORDS and confidence >= lang.RELIABLE_CONFIDENCE
    return code, round(confidence, 4), reliable


def _detected(text: str) -> tuple[str, float, bool]:
    from core.documents.language import detect_language

    found = detect_language(text)
    return found.code, found.confidence, found.reliable


@pytest.mark.parametrize("code", SHIPPED)
def test_detection_is_the_former_one_on_every_language(code: str) -> None:
    texts = [*ESSAYS[code], " ".join(ESSAYS[code]), ESSAYS[code][0][:80]]
    for text in texts + [t.upper() for t in texts]:
        assert _detected(text) == reference_detection(text)


@settings(max_examples=150, deadline=None)
@given(text=punkt_texts)
def test_detection_is_the_former_one_on_generated_texts(text: str) -> None:
    assert _detected(text) == reference_detection(text)


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list("abcXYZ'- -_.,09\n\tÉé")) | st.characters(max_codepoint=127),
        max_size=200,
    )
)
def test_language_detection_reads_ascii_text_as_before(text: str) -> None:
    """The ASCII fast path of language detection's sample words gives the words (lowered)
    and both counts the general path gives."""
    from collections import Counter

    from core.documents import language

    words, folded, lowered = language.sample_words(text)
    general = language._LETTER_WORD.findall(text)
    assert [w.casefold() for w in words] == [w.casefold() for w in general]
    assert folded == Counter(map(str.casefold, general))
    assert lowered == Counter(map(str.lower, general))

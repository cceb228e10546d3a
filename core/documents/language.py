"""Languages: the shipped Punkt sentence models and stop lists, loaded offline, and a guess at a
text's language from its stop words.

The data lives in `resources/nltk_data/` in NLTK's own layout (`tokenizers/punkt_tab/<name>/`,
`corpora/stopwords/<name>`); `resources/build_language_data.py` regenerates it. A language is
available when both its Punkt model and its stop list are shipped. Loading never downloads:
the model files are read from the shipped folder by core.documents.punkt (Punkt's decisions
without importing NLTK, whose import alone costs ~0.5 s a process), and when NLTK is loaded the
shipped folder is put first on `nltk.data.path` too. See docs/languages.md."""

from __future__ import annotations

import math
import re
import sys
import threading
import unicodedata
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from core.documents.punkt import END_MARKS, PunktSplitter, load_model
from core.errors import LanguageError
from core.resources import resource_path

# ISO 639-1 code -> NLTK model name, for every language NLTK has a Punkt model for. Which of
# them are *available* depends on what is shipped (see available_languages).
_NLTK_NAMES = {
    "cs": "czech",
    "da": "danish",
    "de": "german",
    "el": "greek",
    "en": "english",
    "es": "spanish",
    "et": "estonian",
    "fi": "finnish",
    "fr": "french",
    "it": "italian",
    "ml": "malayalam",
    "nl": "dutch",
    "no": "norwegian",
    "pl": "polish",
    "pt": "portuguese",
    "ru": "russian",
    "sl": "slovene",
    "sv": "swedish",
    "tr": "turkish",
}
_ALIASES = {"nb": "no", "bokmål": "no", "slovenian": "sl"}

# Stop lists matched without accents: the shipped Greek list is written mostly without the
# tonos ("αυτος") while Greek text carries it ("αυτός").
_ACCENT_INSENSITIVE = frozenset({"el"})


@dataclass(frozen=True)
class LanguageInfo:
    code: str  # ISO 639-1, e.g. "en"
    name: str  # NLTK name, e.g. "english"


def _strip_accents(word: str) -> str:
    decomposed = unicodedata.normalize("NFD", word)
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if not unicodedata.combining(c))
    )


@dataclass(frozen=True, eq=False)
class Language:
    """A loaded language: its stop words (case-folded) and its Punkt sentence splitter."""

    info: LanguageInfo
    stopwords: frozenset[str]
    _splitter: PunktSplitter = field(repr=False)
    # The word types of the model's training corpus (Punkt's orthographic context), by
    # str.lower(); detect_language uses them to tell close languages apart.
    _vocabulary: Mapping[str, int] = field(repr=False, default_factory=dict)
    accent_insensitive: bool = False  # look stop words up with accents removed (Greek)

    def span_tokenize(self, text: str) -> list[tuple[int, int]]:
        """Punkt's sentence spans `[start, end)` in `text`."""
        return self._splitter.span_tokenize(text)

    def is_stopword(self, word: str) -> bool:
        """Whether `word` (any case) is one of this language's stop words."""
        key = word.casefold()
        if self.accent_insensitive:
            key = _strip_accents(key)
        return key in self.stopwords


def _data_root() -> Path:
    return resource_path("nltk_data")


def _use_shipped_data() -> Path:
    """The shipped folder; when NLTK is loaded, also put first on nltk.data.path (so
    `nltk.corpus.stopwords` and `PunktTokenizer` find our files too). Doppel's own reading
    needs no NLTK, so it is not imported for this."""
    root = str(_data_root())
    nltk = sys.modules.get("nltk")
    data = getattr(nltk, "data", None)
    if data is not None and (not data.path or data.path[0] != root):
        if root in data.path:
            data.path.remove(root)
        data.path.insert(0, root)
    return Path(root)


def _is_shipped(root: Path, name: str) -> bool:
    return (root / "tokenizers" / "punkt_tab" / name).is_dir() and (
        root / "corpora" / "stopwords" / name
    ).is_file()


@cache
def available_languages() -> tuple[LanguageInfo, ...]:
    """Every language whose Punkt model and stop list are both shipped, sorted by code."""
    root = _data_root()
    return tuple(
        LanguageInfo(code, name)
        for code, name in sorted(_NLTK_NAMES.items())
        if _is_shipped(root, name)
    )


def _resolve(code_or_name: str) -> LanguageInfo:
    key = code_or_name.strip().casefold()
    key = _ALIASES.get(key, key)
    for info in available_languages():
        if key in (info.code, info.name):
            return info
    codes = ", ".join(info.code for info in available_languages())
    raise LanguageError(f"unknown or unsupported language {code_or_name!r}; available: {codes}")


_load_lock = threading.Lock()


@cache
def _stop_list(info: LanguageInfo) -> frozenset[str]:
    path = _data_root() / "corpora" / "stopwords" / info.name
    return frozenset(line for line in path.read_text(encoding="utf-8").splitlines() if line)


@cache
def _load(info: LanguageInfo) -> Language:
    root = _use_shipped_data()
    # only the shipped model is ever read; a missing file raises, nothing is downloaded
    model_dir = root / "tokenizers" / "punkt_tab" / info.name
    try:
        model = load_model(model_dir)
    except OSError as error:
        raise LookupError(f"the Punkt model in {model_dir} cannot be read ({error})") from None
    # Greek ends questions with ";" (U+037E, which NFKC turns into U+003B)
    splitter = PunktSplitter(model, END_MARKS + ";" if info.code == "el" else END_MARKS)
    return Language(
        info=info,
        stopwords=_stop_list(info),
        _splitter=splitter,
        _vocabulary=model.ortho_context,
        accent_insensitive=info.code in _ACCENT_INSENSITIVE,
    )


def get_language(code_or_name: str) -> Language:
    """The language for an ISO 639-1 code ("en") or NLTK name ("english"), loaded once.

    Raises LanguageError, listing the available codes, for a language that is not shipped."""
    info = _resolve(code_or_name)
    with _load_lock:  # two threads asking at once load the model once
        return _load(info)


# -- Detection ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Detection:
    code: str  # ISO 639-1 code of the best guess
    confidence: float  # 0..1; how it is computed and calibrated: docs/languages.md
    reliable: bool  # confidence >= RELIABLE_CONFIDENCE and at least MIN_WORDS words


#: Below this confidence a detection is not reliable (calibrated in docs/languages.md).
RELIABLE_CONFIDENCE = 0.9
#: Fewer words than this in the text: never reliable.
MIN_WORDS = 20
#: At most this many characters are read, in up to _SAMPLE_CHUNKS evenly spaced pieces.
SAMPLE_CHARS = 20_000
_SAMPLE_CHUNKS = 5
#: How many stop-word leaders are compared on their Punkt vocabularies.
_SHORTLIST = 3
#: A Punkt model with fewer word types than this (the Russian one has 1) is no vocabulary.
_MIN_VOCABULARY = 1000

_LETTER_WORD = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*")
#: the same words in ASCII text (letters are a-z there, once the text is lowered)
_ASCII_WORD = re.compile(r"[a-z]++(?:['-][a-z]++)*+")


def _sample(text: str) -> str:
    if len(text) <= SAMPLE_CHARS:
        return text
    size = SAMPLE_CHARS // _SAMPLE_CHUNKS
    step = (len(text) - size) / (_SAMPLE_CHUNKS - 1)
    return " ".join(text[round(i * step) : round(i * step) + size] for i in range(_SAMPLE_CHUNKS))


@cache
def _stopword_weights() -> dict[str, float]:
    """Each stop word's weight: 1 / the number of shipped lists holding it, so a word only one
    language uses ("the", "och", "niet") counts fully and one many share ("a", "de") little."""
    holders: Counter[str] = Counter()
    for info in available_languages():
        holders.update(_stop_list(info))
    return {word: 1.0 / count for word, count in holders.items()}


@cache
def _stopword_holders(infos: tuple[LanguageInfo, ...]) -> dict[str, tuple[int, ...]]:
    """For each stop word, the positions in `infos` of the languages whose list holds it
    (the accent-insensitive ones left out: they are looked up by the word without accents)."""
    holders: dict[str, list[int]] = {}
    for position, info in enumerate(infos):
        if info.code not in _ACCENT_INSENSITIVE:
            for word in _stop_list(info):
                holders.setdefault(word, []).append(position)
    return {word: tuple(positions) for word, positions in holders.items()}


@cache
def _accent_blind_ascii() -> bool:
    """Whether an accent-insensitive stop list (Greek) holds a word in ASCII letters."""
    return any(
        word.isascii()
        for info in available_languages()
        if info.code in _ACCENT_INSENSITIVE
        for word in _stop_list(info)
    )


def _stopword_scores(counts: dict[str, int]) -> dict[str, float]:
    """Every language's sum, over the sample's words on its stop list, of count × weight.
    Only the stop lists are read here: Punkt models load for the shortlist alone. Each word
    is looked up once for all languages (and its accents removed once, for Greek); each
    language's sum adds its words in the same order, so it is the same number."""
    weights = _stopword_weights()
    infos = available_languages()
    holders = _stopword_holders(infos)
    accent_blind = [
        (position, _stop_list(info))
        for position, info in enumerate(infos)
        if info.code in _ACCENT_INSENSITIVE
    ]
    scores = [0.0] * len(infos)
    # (only the words some list holds are looked at; a position is either on `holders` or
    # accent-blind, so each language still adds its words in the sample's order)
    for word in [w for w in counts if w in holders]:
        n = counts[word]
        for position in holders[word]:
            scores[position] += n * weights[word]
    if accent_blind:
        blind_ascii = _accent_blind_ascii()
        for word, n in counts.items():
            if word.isascii():
                if not blind_ascii:
                    continue  # (no accent-blind list holds an ASCII word)
                key = word
            else:
                key = _strip_accents(word)
            for position, stopwords in accent_blind:
                if key in stopwords:
                    scores[position] += n * weights[key]
    return {info.code: score for info, score in zip(infos, scores, strict=True)}


def _normal_tail(z: float) -> float:
    """P(Z >= z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def detect_language(text: str) -> Detection:
    """Guess the language of `text`, offline, from the shipped data.

    1. Stop words shortlist: every shipped language scores its stop words found in a sample of
       the text, each weighted by how specific it is (see `_stopword_weights`).
    2. Vocabulary decides: among the shortlisted languages, the one whose Punkt model knows
       the most of the sample's words wins (a Punkt model lists the 20,000-80,000 word types
       of its training corpus). Confidence = (1 - p) × fit, where p is a sign test's p-value
       that the runner-up explains the words as well (words known to one model and not the
       other), and fit falls from 1 to 0 as the winner's coverage drops from 80% to 50% of the
       words (a text in a language that is not shipped).
    A language whose model has no vocabulary (Russian) is judged on its stop words alone."""
    words, folded, lowered = sample_words(_sample(text))
    if not words or not available_languages():
        return Detection(code="en", confidence=0.0, reliable=False)
    stop_scores = _stopword_scores(folded)
    ranked = sorted(stop_scores.items(), key=lambda item: (-item[1], item[0]))
    if ranked[0][1] <= 0.0:
        return Detection(code="en", confidence=0.0, reliable=False)
    shortlist = [get_language(code) for code, score in ranked[:_SHORTLIST] if score > 0.0]
    with_vocabulary = [lang for lang in shortlist if len(lang._vocabulary) >= _MIN_VOCABULARY]
    if shortlist[0] not in with_vocabulary:
        code, confidence = _judge_by_stopwords(ranked, words, shortlist[0])
    else:
        code, confidence = _judge_by_vocabulary(lowered, len(words), with_vocabulary)
    reliable = len(words) >= MIN_WORDS and confidence >= RELIABLE_CONFIDENCE
    return Detection(code=code, confidence=round(confidence, 4), reliable=reliable)


def sample_words(sample: str) -> tuple[list[str], Counter[str], Counter[str]]:
    """The sample's letter words, and their counts case-folded (for the stop lists) and
    lowered (as Punkt keys its types). ASCII text (most English and much else) is lowered
    once and matched with the ASCII pattern: the same words, lowered, and both counts the
    same (casefold and lower agree on ASCII), for a third of the work."""
    if sample.isascii():
        words = _ASCII_WORD.findall(sample.lower())
        counts = Counter(words)
        return words, counts, counts
    words = _LETTER_WORD.findall(sample)
    return words, Counter(map(str.casefold, words)), Counter(map(str.lower, words))


def _judge_by_stopwords(
    ranked: list[tuple[str, float]], words: list[str], language: Language
) -> tuple[str, float]:
    code, best = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0.0
    margin = (best - second) / best  # 0 when tied, 1 when no other language scores
    evidence = 1.0 - math.exp(-best / 8.0)  # ~0.63 at 8 specific stop words, 0.95 at 24
    # Prose has 35-50% stop words; a kindred language (Ukrainian for Russian) under 10%.
    share = sum(language.is_stopword(w.casefold()) for w in words) / len(words)
    fit = min(1.0, max(0.0, (share - 0.1) / 0.15))
    return code, margin * evidence * fit


def _judge_by_vocabulary(
    counts: dict[str, int], total: int, candidates: list[Language]
) -> tuple[str, float]:
    """`counts`: the sample's words by str.lower() (as Punkt keys its types), `total` words."""
    # each distinct word looked up once, counted as often as it occurs
    known = [counts.keys() & lang._vocabulary.keys() for lang in candidates]
    coverage = [sum(map(counts.__getitem__, k)) for k in known]
    order = sorted(range(len(candidates)), key=lambda i: -coverage[i])
    best = order[0]
    fit = min(1.0, max(0.0, (coverage[best] / total - 0.5) / 0.3))
    if len(order) == 1:
        return candidates[best].info.code, fit
    second = order[1]
    only_best = sum(counts[w] for w in known[best] - known[second])
    only_second = sum(counts[w] for w in known[second] - known[best])
    discordant = only_best + only_second
    # only_best >= only_second, as best has the higher coverage; z = 0 means no evidence.
    z = (only_best - only_second) / math.sqrt(discordant) if discordant else 0.0
    p_value = 2.0 * _normal_tail(z)  # two-sided sign test, normal approximation
    return candidates[best].info.code, (1.0 - p_value) * fit

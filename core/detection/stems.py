"""Word stems for the reworded-passage detector: "derived" and "derives" are one word to it.

NLTK's Snowball stemmers (pure Python, no download) cover Danish, Dutch, English, Finnish,
French, German, Italian, Norwegian, Portuguese, Russian, Spanish and Swedish. For the other
inflected languages Doppel analyses (Czech, Estonian, Greek, Polish, Slovene, Turkish) a word
is cut to its first `TRUNCATE` letters — truncation stemming, which information-retrieval
studies of these languages found close to a real stemmer (McNamee and Mayfield, 2004; Savoy's
light stemmers for Czech and Polish) — with Greek accents removed first. Malayalam words stay
whole (its script's vowel signs make a prefix cut land inside a syllable). docs/engine.md,
"Reworded passages"."""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Callable
from functools import cache

from nltk.stem.snowball import SnowballStemmer

#: letters kept by truncation stemming
TRUNCATE = 6

_SNOWBALL = {
    "da": "danish",
    "de": "german",
    "en": "english",
    "es": "spanish",
    "fi": "finnish",
    "fr": "french",
    "it": "italian",
    "nl": "dutch",
    "no": "norwegian",
    "pt": "portuguese",
    "ru": "russian",
    "sv": "swedish",
}
_TRUNCATED = frozenset({"cs", "el", "et", "pl", "sl", "tr"})

_lock = threading.Lock()


def stemmer_kind(language: str) -> str:
    """How words of `language` are stemmed, in words (`doppel languages` prints it)."""
    if language in _SNOWBALL:
        return "Snowball"
    if language in _TRUNCATED:
        return f"first {TRUNCATE} letters"
    return "whole words"


@cache
def stemmer(language: str) -> Callable[[str], str]:
    """A function from a case-folded word to its stem, memoised per language (a document's
    words repeat, and a Snowball call costs ~20 µs)."""
    stems: dict[str, str] = {}
    if language in _SNOWBALL:
        snowball = SnowballStemmer(_SNOWBALL[language])

        def compute(word: str) -> str:
            with _lock:  # NLTK's stemmers keep state between calls
                return str(snowball.stem(word))

    elif language in _TRUNCATED:
        accents = language == "el"

        def compute(word: str) -> str:
            if accents:
                word = "".join(
                    c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c)
                )
            return word[:TRUNCATE]

    else:

        def compute(word: str) -> str:
            return word

    def stem(word: str) -> str:
        found = stems.get(word)
        if found is None:
            if len(stems) > 200_000:  # bounded: a huge vocabulary cannot grow it forever
                stems.clear()
            found = stems[word] = compute(word)
        return found

    return stem

"""Word stems for the reworded-passage detector: "derived" and "derives" are one word to it.

NLTK's Snowball stemmers (pure Python, no download) cover Danish, Dutch, English, Finnish,
French, German, Italian, Norwegian, Portuguese, Russian, Spanish and Swedish. For the other
inflected languages Doppel analyses (Czech, Estonian, Greek, Polish, Slovene, Turkish) a word
is cut to its first `TRUNCATE` letters — truncation stemming, which information-retrieval
studies of these languages found close to a real stemmer (McNamee and Mayfield, 2004; Savoy's
light stemmers for Czech and Polish) — with Greek accents removed first. Malayalam words stay
whole (its script's vowel signs make a prefix cut land inside a syllable). docs/engine.md,
"Reworded passages".

NLTK is imported on the first Snowball stemmer asked for, not with this module: a process
that never stems (a batch without the reworded detector) does not pay its ~0.5 s import."""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Callable
from functools import cache

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


class _Stems(dict[str, str]):
    """A memo of stems: looking a known word up is a dict look-up in C (a document's words
    repeat, and a Snowball call costs ~20 µs); an unknown word is stemmed by `compute` and
    kept, up to a bound (a huge vocabulary cannot grow it forever)."""

    def __init__(self, compute: Callable[[str], str]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, word: str) -> str:
        if len(self) > 200_000:
            self.clear()
        found = self[word] = self._compute(word)
        return found


@cache
def stemmer(language: str) -> Callable[[str], str]:
    """A function from a case-folded word to its stem, memoised per language."""
    if language in _SNOWBALL:
        from nltk.stem.snowball import SnowballStemmer

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

    return _Stems(compute).__getitem__

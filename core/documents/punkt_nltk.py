"""NLTK's own Punkt, run as Doppel ran it until core/documents/punkt.py replaced it: the
reference that the fast splitter is held equal to (tests/core/test_sentences_fast.py) and the
baseline the preprocessing benchmark measures against (bench/bench_preprocess.py).

Nothing in the product calls this module; it imports `nltk` (~0.5 s) when called, not when
imported. `reference_splitter` is Doppel's splitter exactly as it was (NLTK's Punkt with the
two changes below); `stock_splitter` is NLTK's unchanged (bench/bench_splitting.py counts
what the first change removes)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

from core.documents.language import _use_shipped_data

if TYPE_CHECKING:
    from nltk.tokenize.punkt import PunktSentenceTokenizer


@cache
def _classes() -> tuple[type[Any], type[Any], type[Any]]:
    """Doppel's former subclasses of NLTK's Punkt classes, made on first use (importing nltk)."""
    from nltk.tokenize.punkt import PunktLanguageVars, PunktSentenceTokenizer

    class LinearLanguageVars(PunktLanguageVars):  # type: ignore[misc]  # nltk is untyped
        """Punkt's rules with its two text-wide patterns compiled by the stdlib `re`.

        NLTK 3.10 runs every pattern under a 5-second wall-clock limit (nltk.redos) that
        covers a whole lazy `finditer` over the text, Punkt's own work between matches
        included, so a long paragraph with many periods ("1. 2. 3. …", 900 KB) failed with
        TimeoutError. These patterns are NLTK's own and match in linear time."""

        def period_context_re(self) -> re.Pattern[str]:
            try:
                return self._re_period_context  # type: ignore[has-type,no-any-return]
            except AttributeError:
                self._re_period_context = re.compile(
                    self._period_context_fmt
                    % {
                        "NonWord": self._re_non_word_chars,
                        "SentEndChars": self._re_sent_end_chars,
                    },
                    re.UNICODE | re.VERBOSE,
                )
                return self._re_period_context

        def _word_tokenizer_re(self) -> re.Pattern[str]:
            try:
                return self._re_word_tokenizer  # type: ignore[has-type,no-any-return]
            except AttributeError:
                self._re_word_tokenizer = re.compile(
                    self._word_tokenize_fmt
                    % {
                        "NonWord": self._re_non_word_chars,
                        "MultiChar": self._re_multi_char_punct,
                        "WordStart": self._re_word_start,
                    },
                    re.UNICODE | re.VERBOSE,
                )
                return self._re_word_tokenizer

    class GreekLanguageVars(LinearLanguageVars):
        """Greek ends questions with ";" (U+037E, which NFKC turns into U+003B)."""

        sent_end_chars = (".", "?", "!", ";")

    class SentenceTokenizer(PunktSentenceTokenizer):  # type: ignore[misc]  # nltk is untyped
        """NLTK's Punkt splitter, deciding each possible sentence end on its own token.

        NLTK 3.10 asks whether *any* token of a possible end's context breaks a sentence
        before another token, so the next word's own end counts for the mark before it
        ("Mr." | "Darcy?""). Here only the token that holds the mark decides."""

        def _slices_from_text(self, text: str) -> Iterator[slice]:
            last_break = 0
            for match, context in self._match_potential_end_contexts(text):
                if self._breaks_at(context, len(context) - len(match.group("after_tok"))):
                    yield slice(last_break, match.end())
                    last_break = match.start("next_tok") if match.group("next_tok") else match.end()
            yield slice(last_break, len(text.rstrip()))

        def _breaks_at(self, context: str, mark_end: int) -> bool:
            to_cover = mark_end - sum(c.isspace() for c in context[:mark_end])
            covered = 0
            for token in self._annotate_tokens(self._tokenize_words(context)):
                covered += len(token.tok)
                if covered >= to_cover:
                    return bool(token.sentbreak)
            return False

    return LinearLanguageVars, GreekLanguageVars, SentenceTokenizer


def _params(name: str) -> Any:
    """NLTK's reading of the shipped model (NLTK reads only below a folder on its path)."""
    import nltk
    from nltk.tokenize.punkt import load_punkt_params

    root = str(_use_shipped_data())
    return load_punkt_params(nltk.data.find(f"tokenizers/punkt_tab/{name}/", paths=[root]))


@cache
def reference_splitter(code: str, name: str) -> PunktSentenceTokenizer:
    """Doppel's former splitter for the language `code` (NLTK model `name`): a fresh model,
    its own (NLTK mutates a model's ortho_context as it reads it)."""
    linear, greek, tokenizer = _classes()
    return tokenizer(_params(name), lang_vars=greek() if code == "el" else linear())


@cache
def stock_splitter(code: str, name: str) -> PunktSentenceTokenizer:
    """NLTK's Punkt unchanged (its own decision rule), with Doppel's language rules."""
    from nltk.tokenize.punkt import PunktSentenceTokenizer

    linear, greek, _ = _classes()
    return PunktSentenceTokenizer(_params(name), lang_vars=greek() if code == "el" else linear())

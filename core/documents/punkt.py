"""Punkt sentence boundaries, decided as NLTK's Punkt decides them, without NLTK's overheads.

Doppel splits paragraphs with NLTK's Punkt (Kiss and Strunk, 2006) and its shipped models
(`resources/nltk_data/tokenizers/punkt_tab/<name>/`), with one change of its own: a possible
sentence end is decided on the token that holds the mark alone (core/documents/punkt_nltk.py,
docs/languages.md). Run through NLTK, that cost ~60 µs per possible end: for each "." "?" "!"
NLTK builds a context string, word-tokenizes it through a wall-clock-guarded regex wrapper,
makes a `PunktToken` object per token (three regexes each), and annotates them all in two
generator passes, and it reads the model through `nltk`, whose import alone takes ~0.5 s in
every process. The outcome of all that depends on only two tokens: the one ending in the mark
and the one after it. So this module does the same steps on plain strings — the same patterns
(NLTK's own sources; `regex` where NLTK uses `regex`, the stdlib `re` where Doppel already
did) — and keeps each two-token decision once made. The model files are read as NLTK's
`load_punkt_params` reads them.

tests/core/test_sentences_fast.py holds `PunktSplitter.span_tokenize` equal to the NLTK splitter
Doppel used before (on every language's test texts, the Gutenberg novels, and Hypothesis
texts), so the boundaries are NLTK's, quirks included (the last-whitespace search that only
knows ASCII whitespace, the realignment of closing quotes)."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import regex

# Orthographic context flags (NLTK's _ORTHO_*): where a word type was seen, in which case.
_ORTHO_BEG_UC: Final = 1 << 1  # beginning of a sentence, upper case
_ORTHO_MID_UC: Final = 1 << 2  # middle of a sentence, upper case
_ORTHO_UNK_UC: Final = 1 << 3  # unknown position, upper case
_ORTHO_BEG_LC: Final = 1 << 4
_ORTHO_MID_LC: Final = 1 << 5
_ORTHO_UNK_LC: Final = 1 << 6
_ORTHO_UC: Final = _ORTHO_BEG_UC + _ORTHO_MID_UC + _ORTHO_UNK_UC
_ORTHO_LC: Final = _ORTHO_BEG_LC + _ORTHO_MID_LC + _ORTHO_UNK_LC

#: the marks that may end a sentence in every language (Greek adds ";")
END_MARKS: Final = ".?!"
#: Punkt's "sentences don't start with punctuation" (PunktSentenceTokenizer.PUNCTUATION)
_PUNCTUATION: Final = frozenset(";:,.!?")
#: the whitespace NLTK's `_get_last_whitespace_index` knows (string.whitespace: ASCII only)
_ASCII_SPACE: Final = " \t\n\r\x0b\x0c"
#: what NLTK's realignment pattern can start with (closing quotes and brackets)
_REALIGN_FIRST: Final = frozenset("\"')]}\u2018\u2019\u201c\u201d\xab\xbb")

# NLTK's PunktLanguageVars patterns, verbatim (nltk/tokenize/punkt.py).
_WORD_START = r"[^\(\"\`{\[:;&\#\*@\)}\]\-,]"
_MULTI_CHAR = r"(?:\-{2,}|\.{2,}|(?:\.\s){2,}\.)"
_NON_WORD = r"(?:[)\";}\]\*:@\'\({\[\u2018\u2019\u201c\u201d\xab\xbb%s])"
_WORD_TOKENIZE_FMT = r"""(
        %(MultiChar)s
        |
        (?=%(WordStart)s)\S+?  # Accept word characters until end is found
        (?= # Sequences marking a word's end
            \s|                                 # White-space
            $|                                  # End-of-string
            %(NonWord)s|%(MultiChar)s|          # Punctuation
            ,(?=$|\s|%(NonWord)s|%(MultiChar)s) # Comma if at end of word
        )
        |
        \S
    )"""
_PERIOD_CONTEXT_FMT = r"""
        %(SentEndChars)s             # a potential sentence ending
        (?=(?P<after_tok>
            %(NonWord)s              # either other punctuation
            |
            \s+(?P<next_tok>\S+)     # or whitespace and some other token
        ))"""
# NLTK compiles these with the `regex` engine (nltk.redos), whose \w, \d and \s follow its own
# Unicode tables: the same engine keeps the same answers on every character.
_REALIGNMENT = regex.compile(
    r'["\')\]}\u2018\u2019\u201c\u201d\xab\xbb]+?(?:\s+|(?=--)|$)', regex.MULTILINE
)
_NUMERIC = regex.compile(r"^-?[\.,]?\d[\d,\.-]*\.?$")
_INITIAL = regex.compile(r"[^\W\d]\.$")
_ELLIPSIS = regex.compile(r"\.\.+$")

#: decisions kept per splitter before the memo starts again (a bound on memory, not a tuning)
_MEMO_SIZE: Final = 200_000


@dataclass(frozen=True, slots=True)
class PunktModel:
    """A trained Punkt model: what NLTK's `PunktParameters` holds, read-only."""

    abbreviations: frozenset[str]  # abbrev_types.txt: types whose "." is not an end
    collocations: frozenset[tuple[str, str]]  # collocations.tab: (type before ".", type after)
    sentence_starters: frozenset[str]  # sent_starters.txt
    # ortho_context.tab: word type (str.lower) -> the orthographic contexts it was seen in;
    # also the model's vocabulary (language detection reads it)
    ortho_context: dict[str, int]


def _lines(path: Path) -> list[str]:
    """The file's lines as NLTK's TabDecoder reads them: a text file iterated line by line
    (universal newlines), each without its final "\\n"."""
    with path.open(encoding="utf-8") as file:
        return [line[:-1] if line.endswith("\n") else line for line in file]


def load_model(directory: Path) -> PunktModel:
    """The Punkt model in `directory` (NLTK's punkt_tab layout), read as NLTK's
    `load_punkt_params` reads it. Raises OSError when a file is missing."""
    collocations = frozenset(
        tuple(line.split("\t")) for line in _lines(directory / "collocations.tab")
    )
    ortho: dict[str, int] = {}
    for line in _lines(directory / "ortho_context.tab"):
        word, flags = line.split("\t")
        ortho[word] = int(flags)
    return PunktModel(
        abbreviations=frozenset(_lines(directory / "abbrev_types.txt")),
        collocations=collocations,  # type: ignore[arg-type]  # pairs, as the file holds
        sentence_starters=frozenset(_lines(directory / "sent_starters.txt")),
        ortho_context=ortho,
    )


def _type(token: str) -> str:
    """PunktToken.type: the token lower-cased, a number as "##number##"."""
    return str(_NUMERIC.sub("##number##", token.lower()))


def _without_period(word_type: str) -> str:
    """PunktToken.type_no_period."""
    return word_type[:-1] if len(word_type) > 1 and word_type[-1] == "." else word_type


class PunktSplitter:
    """Punkt's sentence spans for one model and set of end marks; safe to share between
    threads (the memo of decisions is a dict, read and written whole)."""

    def __init__(self, model: PunktModel, end_marks: str = END_MARKS) -> None:
        self._model = model
        self._end_marks = frozenset(end_marks)
        others = re.escape("".join(sorted(set(end_marks) - {"."})))
        non_word = _NON_WORD % others
        self._period_context = re.compile(
            _PERIOD_CONTEXT_FMT
            % {"NonWord": non_word, "SentEndChars": f"[{re.escape(''.join(end_marks))}]"},
            re.UNICODE | re.VERBOSE,
        )
        self._words = re.compile(
            _WORD_TOKENIZE_FMT
            % {"NonWord": non_word, "MultiChar": _MULTI_CHAR, "WordStart": _WORD_START},
            re.UNICODE | re.VERBOSE,
        )
        self._decisions: dict[tuple[str, str | None], bool] = {}
        self._lock = threading.Lock()

    def span_tokenize(self, text: str) -> list[tuple[int, int]]:
        """Punkt's sentence spans `[start, end)` in `text`, as NLTK's
        `PunktSentenceTokenizer.span_tokenize` gives them with Doppel's decision rule."""
        return self._realign(text, self._slices(text))

    # -- NLTK's _match_potential_end_contexts and _slices_from_text, fused ---------------------

    def _slices(self, text: str) -> list[tuple[int, int]]:
        slices: list[tuple[int, int]] = []
        last_break = 0
        # the previous possible end, held back until it is known not to overlap the next
        held: re.Match[str] | None = None
        held_start = held_stop = 0  # the word before it: text[held_start:held_stop]
        # the ASCII whitespace characters the text holds (usually only the space)
        spaces = [space for space in _ASCII_SPACE if space in text]
        for match in self._period_context.finditer(text):
            stop = match.start()
            # the word before: back to the last ASCII whitespace after the previous end
            # (held_stop - 1 when there is none)
            i = max([text.rfind(space, held_stop, stop) for space in spaces], default=-1)
            if i < held_stop:
                i = held_stop - 1
            # NLTK takes a whitespace at index 0 of the searched stretch for "none found"
            start = i + 1 if i > held_stop else held_start
            if held is not None and held_stop <= start and self._ends(text, held, held_start):
                slices.append((last_break, held.end()))
                following = held.start(2)
                last_break = following if following >= 0 else held.end()
            held, held_start, held_stop = match, start, stop
        if held is not None and self._ends(text, held, held_start):
            slices.append((last_break, held.end()))
            following = held.start(2)
            last_break = following if following >= 0 else held.end()
        slices.append((last_break, len(text.rstrip())))
        return slices

    def _ends(self, text: str, match: re.Match[str], word_start: int) -> bool:
        """Whether the possible end `match` ends a sentence: Doppel's `_breaks_at` on NLTK's
        context (the word before, the mark, what follows the mark)."""
        before = text[word_start : match.end()]
        word = before[:-1]
        if word.isascii() and word.isalnum():
            # The common case, decided without tokenizing the context: a word of ASCII
            # letters and digits and its mark. NLTK's word tokenizer keeps "word." whole (a
            # "." ends no token) but cuts "?", "!" (and Greek ";") off as a token of their
            # own, which always ends a sentence. After "word." the next token is the
            # punctuation mark that follows, or the next word when it is all ASCII letters
            # and digits (the tokenizer cuts no such word).
            if before[-1] != ".":
                return True
            following = match.group(2)
            if following is None:
                return self._decide(before, match.group(1))
            if following.isascii() and following.isalnum():
                return self._decide(before, following)
        context = before + match.group(1)
        # the mark's token is the one that covers the mark's non-whitespace characters
        to_cover = len(before) - (len(before) - len("".join(before.split())))
        if "\n" in context:
            tokens = [t for line in context.split("\n") for t in self._words.findall(line)]
        else:
            tokens = self._words.findall(context)
        covered = 0
        for index, token in enumerate(tokens):
            covered += len(token)
            if covered >= to_cover:
                following = tokens[index + 1] if index + 1 < len(tokens) else None
                return self._decide(token, following)
        return False

    # -- NLTK's two annotation passes, on the two tokens that matter ---------------------------

    def _decide(self, token: str, following: str | None) -> bool:
        key = (token, following)
        decision = self._decisions.get(key)
        if decision is None:
            decision = self._sentbreak(token, following)
            with self._lock:
                if len(self._decisions) >= _MEMO_SIZE:
                    self._decisions.clear()
                self._decisions[key] = decision
        return decision

    def _first_pass(self, token: str) -> tuple[bool, bool, bool]:
        """PunktSentenceTokenizer._first_pass_annotation: (sentbreak, abbr, ellipsis)."""
        if token in self._end_marks:
            return True, False, False
        if _ELLIPSIS.match(token):
            return False, False, True
        if token.endswith(".") and not token.endswith(".."):
            stem = token[:-1].lower()
            abbreviations = self._model.abbreviations
            if stem in abbreviations or stem.split("-")[-1] in abbreviations:
                return False, True, False
            return True, False, False
        return False, False, False

    def _sentbreak(self, token: str, following: str | None) -> bool:
        """Whether `token` ends a sentence when `following` comes next: the first pass, then
        PunktSentenceTokenizer._second_pass_annotation (collocations, the orthographic and
        sentence-starter heuristics, initials and ordinals)."""
        sentbreak, abbr, ellipsis = self._first_pass(token)
        if following is None or not token.endswith("."):
            return sentbreak
        model = self._model
        word_type = _without_period(_type(token))
        next_type = _type(following)
        if self._first_pass(following)[0]:
            next_type = _without_period(next_type)
        initial = _INITIAL.match(token) is not None
        if (word_type, next_type) in model.collocations:
            return False
        if (abbr or ellipsis) and not initial:
            if self._ortho(following, next_type) is True:
                return True
            if following[0].isupper() and next_type in model.sentence_starters:
                return True
        if initial or word_type == "##number##":
            starter = self._ortho(following, next_type)
            if starter is False:
                return False
            if (
                starter is None
                and initial
                and following[0].isupper()
                and not (model.ortho_context.get(next_type, 0) & _ORTHO_LC)
            ):
                return False
        return sentbreak

    def _ortho(self, token: str, token_type: str) -> bool | None:
        """PunktSentenceTokenizer._ortho_heuristic: whether `token` starts a sentence, None
        for "unknown"."""
        if token in _PUNCTUATION:
            return False
        context = self._model.ortho_context.get(token_type, 0)
        if token[0].isupper() and (context & _ORTHO_LC) and not (context & _ORTHO_MID_UC):
            return True
        if token[0].islower() and ((context & _ORTHO_UC) or not (context & _ORTHO_BEG_LC)):
            return False
        return None

    # -- NLTK's _realign_boundaries -------------------------------------------------------------

    @staticmethod
    def _realign(text: str, slices: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Closing quotes and brackets after a sentence's end mark go with that sentence."""
        spans: list[tuple[int, int]] = []
        realign = 0
        last = len(slices) - 1
        for index, (start, stop) in enumerate(slices):
            start += realign
            if index == last:
                if start < stop:
                    spans.append((start, stop))
                break
            next_start, next_stop = slices[index + 1]
            found = None
            if next_start < next_stop and text[next_start] in _REALIGN_FIRST:
                found = _REALIGNMENT.match(text[next_start:next_stop])
            if found:
                spans.append((start, next_start + len(found.group(0).rstrip())))
                realign = found.end()
            else:
                realign = 0
                if start < stop:
                    spans.append((start, stop))
        return spans

"""Evasion: the evaluation's verbatim copies disguised character by character, the way students
hide copying from checkers, found by Doppel with and without undoing the disguises.

Each trick (`TRICKS`) rewrites a whole suspicious document so that it looks the same to a
reader and differs for a machine:

- *Cyrillic look-alikes in every word*: every letter that has a Cyrillic twin (a c e o p x y,
  i j s, and the capitals A B C E H I K M O P T X Y) replaced by it;
- *Cyrillic look-alikes in first words*: the same in the first word of each sentence only
  (SL+ST verifies blocks by the first terms of their sentences);
- *invisible characters between letters*: one invisible character inside every word of two
  letters or more, in turn a combining grapheme joiner, a Hangul filler, a tag character, a
  variation selector, a Mongolian vowel separator and an invisible operator;
- *braille blanks for spaces*: every space made U+2800;
- *foreign full stops*: every full stop that ends a sentence made, in turn, an Armenian,
  Ethiopic, ideographic full stop or a one dot leader.

Every verbatim pair of the test part (a suspicious document and a source it copies from) is
compared with Doppel's default comparison twice per trick: with the suspicious document
normalised as Doppel did before it undid disguises ("before", `normalize_with_report(...,
undisguise=False)`) and as it does now ("after"). Reported per trick: the pairs found (Doppel's
verdict), the mean copied share, and how many disguised documents carry a warning. The clean
documents of the corpus are checked too: none may carry a warning, none may be changed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from unittest import mock

from eval_corpus import Truth, reader_sentences

from core.comparison import compare_documents
from core.documents import document as document_module
from core.documents.document import Document, document_from_text
from core.documents.normalize import normalize_with_report
from core.options import MatchOptions, SignatureOptions

OPTIONS = SignatureOptions(language="en")

#: Latin letters and the Cyrillic letters that look like them
CYRILLIC = dict(zip("aceopxyijsABCEHIKMOPTXY", "асеорхуіјѕАВСЕНІКМОРТХУ", strict=True))
#: invisible characters put inside words, in turn
INVISIBLES = (
    "\u034f",  # COMBINING GRAPHEME JOINER
    "\u3164",  # HANGUL FILLER
    "\U000e0041",  # TAG LATIN CAPITAL LETTER A
    "\ufe0f",  # VARIATION SELECTOR-16
    "\u180e",  # MONGOLIAN VOWEL SEPARATOR
    "\u2062",  # INVISIBLE TIMES
)
#: full stops of other scripts, in turn
FULL_STOPS = ("\u0589", "\u1362", "\u3002", "\u2024")  # ։ ። 。 ․

_WORD = re.compile(r"[A-Za-z]+")


def lookalikes(text: str) -> str:
    return "".join(CYRILLIC.get(c, c) for c in text)


def in_every_word(text: str) -> str:
    return lookalikes(text)


def in_first_words(text: str) -> str:
    out = list(text)
    for start, end in reader_sentences(text):
        word = _WORD.search(text, start, end)
        if word:
            out[word.start() : word.end()] = lookalikes(word.group())
    return "".join(out)


def invisible_inside_words(text: str) -> str:
    k = 0

    def insert(match: re.Match[str]) -> str:
        nonlocal k
        word = match.group()
        if len(word) < 2:
            return word
        middle = len(word) // 2
        character = INVISIBLES[k % len(INVISIBLES)]
        k += 1
        return word[:middle] + character + word[middle:]

    return _WORD.sub(insert, text)


def braille_spaces(text: str) -> str:
    return text.replace(" ", "\u2800")


def foreign_full_stops(text: str) -> str:
    out = list(text)
    k = 0
    for _, end in reader_sentences(text):
        # the sentence's last full stop (before closing quotes or brackets)
        position = text.rfind(".", max(0, end - 4), end)
        if position >= 0 and text[position - 1 : position] != ".":
            out[position] = FULL_STOPS[k % len(FULL_STOPS)]
            k += 1
    return "".join(out)


TRICKS: dict[str, Callable[[str], str]] = {
    "Cyrillic look-alikes in every word": in_every_word,
    "Cyrillic look-alikes in first words": in_first_words,
    "invisible characters between letters": invisible_inside_words,
    "braille blanks for spaces": braille_spaces,
    "foreign full stops": foreign_full_stops,
}


@contextmanager
def disguises_left() -> Iterator[None]:
    """`document_from_text` normalising as Doppel did before it undid disguises."""

    def old(text: str) -> tuple[str, tuple[()]]:
        return normalize_with_report(text, undisguise=False)[0], ()

    with mock.patch.object(document_module, "normalize_with_report", old):
        yield


@dataclass(frozen=True)
class _Outcome:
    found: int
    copied: float  # mean copied share of the suspicious documents


def verbatim_pairs(truth: Truth, split: str = "test") -> list[tuple[str, str]]:
    """(suspicious, source) of every verbatim pair of `split`, sorted."""
    splits = {d.name: d.split for d in truth.documents}
    return sorted(
        {
            (c.suspicious, c.source)
            for c in truth.cases
            if c.level == "verbatim" and splits[c.suspicious] == split
        }
    )


def run_evasion(
    truth: Truth,
    texts: dict[str, str],
    progress: Callable[[str], None] = print,
    tricks: dict[str, Callable[[str], str]] | None = None,
) -> dict[str, object]:
    """The evasion results (see the module docstring), as a JSON-ready dict."""
    tricks = TRICKS if tricks is None else tricks
    pairs = verbatim_pairs(truth)
    suspicious = sorted({s for s, _ in pairs})
    sources = {name: document_from_text(texts[name], name, OPTIONS) for _, name in pairs}
    options = MatchOptions()

    def outcome(docs: dict[str, Document]) -> _Outcome:
        found, copied = 0, 0.0
        for a, b in pairs:
            comparison = compare_documents(docs[a], sources[b], options)
            found += comparison.flagged
            copied += comparison.copied_a
        return _Outcome(found, copied / len(pairs) if pairs else 0.0)

    plain = outcome({name: document_from_text(texts[name], name, OPTIONS) for name in suspicious})
    rows: list[dict[str, object]] = []
    for trick, apply in tricks.items():
        progress(f"evasion: {trick}")
        disguised = {name: apply(texts[name]) for name in suspicious}
        with disguises_left():
            before_docs = {n: document_from_text(t, n, OPTIONS) for n, t in disguised.items()}
        after_docs = {n: document_from_text(t, n, OPTIONS) for n, t in disguised.items()}
        before, after = outcome(before_docs), outcome(after_docs)
        kinds: dict[str, int] = {}
        for doc in after_docs.values():
            for item in doc.tampering:
                key = item.kind + (f" ({item.detail})" if item.detail else "")
                kinds[key] = kinds.get(key, 0) + item.count
        rows.append(
            {
                "trick": trick,
                "found_before": before.found,
                "found_after": after.found,
                "copied_before": before.copied,
                "copied_after": after.copied,
                "warned": sum(1 for doc in after_docs.values() if doc.tampering),
                "restored": sum(1 for n, doc in after_docs.items() if doc.text == texts[n]),
                "characters": kinds,
            }
        )
    clean = clean_documents(texts)
    return {
        "pairs": len(pairs),
        "documents": len(suspicious),
        "plain_found": plain.found,
        "plain_copied": plain.copied,
        "rows": rows,
        "clean_documents": len(texts),
        "clean_warned": clean,
    }


def clean_documents(texts: dict[str, str]) -> list[str]:
    """The corpus documents (undisguised) that normalisation changes or warns about: none
    should be."""
    return sorted(name for name, text in texts.items() if normalize_with_report(text) != (text, ()))

"""Finding the quotations in a document to leave out of scoring: text between quotation marks
(every language's style; a single mark only where it cannot be an apostrophe) and the block
quotes the file marks as such. The rules, and what they do not catch, are in
docs/exclusions.md; the other finders are `core.exclusions.references` and
`core.exclusions.templates`, and `core.exclusions.apply` applies them all.

Like every finder, it reads the document's text only, never its current exclusions, and
returns `ExcludedSpan`s."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.documents.document import Document
from core.documents.excluded_spans import ExcludedSpan, ExclusionKind
from core.documents.sentences import paragraph_spans

__all__ = ["BLOCK_QUOTE", "block_quote_exclusions", "find_quotations"]

BLOCK_QUOTE = "block quote"  # the detail of a quotation the file marks as a block quote

# Opening mark -> the marks that close it. Normalisation (core.documents.normalize) makes every
# double mark a straight " and every single one a straight ' in a document's text; the
# typographic pairs matter for text that was not normalised.
_DOUBLE: dict[str, str] = {
    '"': '"',
    "\u201c": "\u201d",  # “…” English
    "\u201e": "\u201c\u201d",  # „…“ German, Czech…; „…” Polish, Hungarian…
    "\u201d": "\u201d",  # ”…” Swedish, Finnish
    "\u00ab": "\u00bb",  # «…» French, Russian, Italian…
    "\u00bb": "\u00ab",  # »…« Danish, German
    "\u2039": "\u203a",  # ‹…›
    "\u203a": "\u2039",  # ›…‹
    "\u300c": "\u300d",  # 「…」
    "\u300e": "\u300f",  # 『…』
}
_SINGLE: dict[str, str] = {
    "'": "'",
    "\u2018": "\u2019",  # ‘…’
    "\u201a": "\u2018\u2019",  # ‚…‘ German
}
_SINGLE_CLOSERS = frozenset("'\u2018\u2019")
# marks that also close another mark: they open only where no letter or digit precedes them
_ALSO_CLOSERS = frozenset('"\u201d\u00bb\u203a')
_MARKS = "".join(sorted({*_DOUBLE, *"".join(_DOUBLE.values()), *_SINGLE, *_SINGLE_CLOSERS}))
_MARK = re.compile(f"[{re.escape(_MARKS)}]")
# what may stand before an opening mark (besides a space), and before a closing single mark
# (besides a letter or digit)
_BEFORE_OPEN = frozenset("([{</\u2014\u2013-")
_BEFORE_SINGLE_OPEN = _BEFORE_OPEN | frozenset('"\u201c\u201e\u00ab\u00bb\u2039\u203a')
_BEFORE_SINGLE_CLOSE = frozenset('.,;:!?)]\u2026"\u201d\u00bb')
_WORD_AFTER = re.compile(r"[^\W\d_]+")
# a word after an apostrophe at a word's start that makes it an elision, not a quotation
_ELISIONS: dict[str, frozenset[str]] = {
    "en": frozenset(
        {"tis", "twas", "twere", "twill", "twould", "em", "cause", "cos", "coz", "til",
         "till", "bout", "nuff", "kay", "n", "s", "t"}
    ),
    "nl": frozenset({"s", "t", "k", "n", "m", "r"}),  # 's avonds, 't, 'k, 'n
}  # fmt: skip
_ALL_ELISIONS = frozenset().union(*_ELISIONS.values())
_SINGLE_LETTER_ELISIONS = frozenset("stkn")  # lower case only: 'I said' is a quotation


@dataclass(slots=True)
class _Open:
    position: int
    mark: str
    closers: str
    single: bool
    tentative: int = -1  # single quotes: end after a weak closer ("students' work"), or -1


def find_quotations(text: str, language: str | None = None) -> tuple[ExcludedSpan, ...]:
    """The quotations in `text`: spans from an opening quotation mark to its closing mark,
    marks included, detail the pair of marks ('"…"').

    A quotation never crosses a paragraph break (a blank line): a mark left open at the end of
    its paragraph excludes nothing. A quotation inside another is part of it (the outer one
    wins). Double marks of every style are recognised; a single mark ' ‘ ’ counts only where it
    cannot be an apostrophe: an opening one after a space or opening punctuation and before a
    letter, not starting an elision ('tis, 'em, Dutch 's); a closing one after a letter, digit
    or closing punctuation and not before a letter or digit ("don't" is one word). A closing
    single mark after an s or n and before another word ("the students' work") is only taken
    when no better closing mark follows in the paragraph. `language` (an ISO code) chooses the
    elisions; None: those of every language."""
    if language is None:
        elisions = _ALL_ELISIONS
    else:
        elisions = _ELISIONS.get(language, frozenset()) | _SINGLE_LETTER_ELISIONS
    spans: list[tuple[int, int, str]] = []
    for start, end in paragraph_spans(text):
        spans.extend(_paragraph_quotations(text, start, end, elisions))
    result: list[ExcludedSpan] = []
    reach = -1
    for start, end, detail in sorted(spans, key=lambda s: (s[0], -s[1])):
        if end <= reach:
            continue  # inside a quotation already found: the outer one wins
        if any(ch.isalnum() for ch in text[start:end]):
            result.append(ExcludedSpan(start, end, ExclusionKind.QUOTATION, detail))
            reach = end
    return tuple(result)


def _paragraph_quotations(
    text: str, start: int, end: int, elisions: frozenset[str]
) -> list[tuple[int, int, str]]:
    """Every closed pair of marks in text[start:end], nested ones too."""
    found: list[tuple[int, int, str]] = []
    stack: list[_Open] = []

    def close(entry: _Open, at: int) -> None:
        found.append((entry.position, at, f"{entry.mark}…{text[at - 1]}"))

    for match in _MARK.finditer(text, start, end):
        i = match.start()
        mark = text[i]
        before = text[i - 1] if i > start else ""
        after = text[i + 1] if i + 1 < end else ""
        if (
            mark == '"'
            and (before == "" or before.isspace() or before in _BEFORE_OPEN)
            and after.isalnum()
        ):
            # a clear opening mark: a quote left open before it was a stray mark
            k = _nearest(stack, '"')
            if k >= 0:
                del stack[k:]
            _push(stack, _Open(i, mark, '"', single=False))
            continue
        if mark in _SINGLE_CLOSERS:
            top = stack[-1] if stack else None
            if top is not None and top.single and mark in top.closers:
                strength = _single_closer(text, i, before, after, end)
                if strength == _STRONG:
                    stack.pop()
                    close(top, i + 1)
                    continue
                if strength == _WEAK:
                    if top.tentative < 0:
                        top.tentative = i + 1
                    continue
        elif stack:
            k = _closing(stack, mark, before)
            if k >= 0:
                entry = stack[k]
                del stack[k:]
                close(entry, i + 1)
                continue
        if mark in _SINGLE:
            if _opens_single(text, i, before, after, end, elisions):
                top = stack[-1] if stack else None
                if top is not None and top.single:
                    stack.pop()  # no nesting of single in single: the earlier one ends here
                    if top.tentative >= 0:
                        close(top, top.tentative)
                _push(stack, _Open(i, mark, _SINGLE[mark], single=True))
        elif mark in _DOUBLE and after and not (mark in _ALSO_CLOSERS and before.isalnum()):
            _push(stack, _Open(i, mark, _DOUBLE[mark], single=False))
    for entry in stack:
        if entry.single and entry.tentative >= 0:
            close(entry, entry.tentative)
    return found


_STRONG, _WEAK, _NOT = 2, 1, 0
# Quotations open at once, at most: real text nests two or three; a file of unclosed marks
# (thousands of 「 in one paragraph) would otherwise make every mark scan them all.
_MAX_OPEN = 32


def _push(stack: list[_Open], entry: _Open) -> None:
    if len(stack) >= _MAX_OPEN:
        del stack[0]  # the oldest open mark was a stray one
    stack.append(entry)


def _nearest(stack: list[_Open], mark: str) -> int:
    for k in range(len(stack) - 1, -1, -1):
        if stack[k].mark == mark:
            return k
    return -1


def _closing(stack: list[_Open], mark: str, before: str) -> int:
    """The index of the open quotation a double mark closes (the nearest it can close; single
    quotations opened inside it are left unclosed), or -1."""
    if mark == '"' and before == "":
        return -1
    for k in range(len(stack) - 1, -1, -1):
        if not stack[k].single and mark in stack[k].closers:
            return k
    return -1


def _single_closer(text: str, i: int, before: str, after: str, end: int) -> int:
    if after.isalnum() or not (before.isalnum() or before in _BEFORE_SINGLE_CLOSE):
        return _NOT
    if before in "sSn" and after.isspace() and i + 2 < end and text[i + 2].isalnum():
        return _WEAK  # "the students' work", "goin' home": likely an apostrophe
    return _STRONG


def _opens_single(
    text: str, i: int, before: str, after: str, end: int, elisions: frozenset[str]
) -> bool:
    if not after.isalpha() or not (
        before == "" or before.isspace() or before in _BEFORE_SINGLE_OPEN
    ):
        return False
    word = _WORD_AFTER.match(text, i + 1, end)
    if word is None:
        return False
    w = word.group()
    if len(w) == 1:
        return w not in _SINGLE_LETTER_ELISIONS
    return w.casefold() not in elisions


def block_quote_exclusions(doc: Document) -> tuple[ExcludedSpan, ...]:
    """The document's block quotes (quote paragraph styles, <blockquote>, Markdown "> ") as
    quotation spans."""
    return tuple(
        ExcludedSpan(start, end, ExclusionKind.QUOTATION, BLOCK_QUOTE)
        for start, end in doc.block_quotes
    )

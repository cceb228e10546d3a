"""Finding what to leave out of scoring in one document: quotations (quotation marks and the
file's block quotes), a trailing references section, and text that matches a template (the
assignment prompt, a handout). The model is `core.documents.excluded_spans`; `core.batch.common_text` finds text
common to a batch. Every rule, and what it does not catch, is in docs/exclusions.md.

All finders read the document's text and sentences only, never its current exclusions, and
return `ExcludedSpan`s; `apply_exclusions` hands them to `core.documents.document.with_exclusions`, which
changes the signature and nothing else."""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from core.detection.matching import match_signatures
from core.detection.phrases import INVERTED_INDEX, phrase_input, repeated_phrases
from core.documents.document import Document, harmonise_languages, reanalysed, with_exclusions
from core.documents.excluded_spans import ExcludedSpan, ExclusionKind, ExclusionOptions, SpanSet
from core.documents.sentences import word_spans
from core.options import MatchOptions

__all__ = [
    "BLOCK_QUOTE",
    "REFERENCES_FROM",
    "REFERENCE_HEADINGS",
    "apply_exclusions",
    "block_quote_exclusions",
    "document_exclusions",
    "exclusion_summary",
    "find_quotations",
    "find_references",
    "template_exclusions",
]

# The kinds `document_exclusions` finds (and `apply_exclusions` replaces); COMMON is the batch's.
_PER_DOCUMENT = frozenset(
    {ExclusionKind.QUOTATION, ExclusionKind.REFERENCES, ExclusionKind.TEMPLATE}
)


# --- quotations ----------------------------------------------------------------------------

BLOCK_QUOTE = "block quote"  # the detail of a quotation the file marks as a block quote

# Opening mark -> the marks that close it. Normalisation (core.documents.normalize) makes every double
# mark a straight " and every single one a straight ' in a document's text; the typographic
# pairs matter for text that was not normalised.
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
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
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
    for start, end in _paragraphs(text):
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


def _paragraphs(text: str) -> Iterator[tuple[int, int]]:
    position = 0
    for brk in _PARAGRAPH_BREAK.finditer(text):
        yield position, brk.start()
        position = brk.end()
    yield position, len(text)


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


# --- references ----------------------------------------------------------------------------

#: A references heading counts only from this share of the text on (by characters): one
#: nearer the start is a table of contents, or a section of an essay about sources.
REFERENCES_FROM = 0.5
_MAX_HEADING_CHARS = 80

#: Headings of a references section, by language (ISO 639-1). A document's own language and
#: English are matched, without case or accents.
REFERENCE_HEADINGS: dict[str, tuple[str, ...]] = {
    "en": ("references", "reference list", "list of references", "bibliography",
           "select bibliography", "works cited", "works consulted", "sources", "sources cited",
           "sources consulted", "list of sources", "literature cited", "cited literature",
           "further reading", "notes and references", "references and notes"),
    "cs": ("literatura", "seznam literatury", "použitá literatura", "seznam použité literatury",
           "zdroje", "seznam zdrojů", "použité zdroje", "seznam použitých zdrojů", "bibliografie",
           "prameny", "prameny a literatura"),
    "da": ("litteraturliste", "litteratur", "kilder", "kildeliste", "kildefortegnelse",
           "referencer", "bibliografi", "litteratur og kilder", "anvendt litteratur"),
    "de": ("literaturverzeichnis", "literatur", "literaturliste", "literaturangaben", "quellen",
           "quellenverzeichnis", "quellenangaben", "quellen- und literaturverzeichnis",
           "literatur- und quellenverzeichnis", "literatur und quellen", "quellen und literatur",
           "bibliographie", "bibliografie", "verwendete literatur", "zitierte literatur",
           "benutzte literatur", "referenzen"),
    "el": ("βιβλιογραφία", "αναφορές", "βιβλιογραφικές αναφορές", "πηγές", "παραπομπές",
           "βιβλιογραφία και πηγές"),
    "es": ("bibliografía", "referencias", "referencias bibliográficas", "lista de referencias",
           "obras citadas", "fuentes", "fuentes consultadas", "fuentes bibliográficas",
           "bibliografía consultada", "webgrafía"),
    "et": ("kasutatud kirjandus", "kirjandus", "allikad", "kasutatud allikad",
           "kasutatud kirjanduse loetelu", "kirjanduse loetelu", "viited", "bibliograafia"),
    "fi": ("lähteet", "lähdeluettelo", "kirjallisuus", "kirjallisuusluettelo", "käytetyt lähteet",
           "lähteet ja kirjallisuus", "bibliografia"),
    "fr": ("bibliographie", "références", "références bibliographiques", "liste des références",
           "sources", "ouvrages cités", "œuvres citées", "oeuvres citées", "sitographie",
           "webographie", "bibliographie et sitographie", "sources et bibliographie"),
    "it": ("bibliografia", "riferimenti bibliografici", "riferimenti", "fonti", "opere citate",
           "fonti bibliografiche", "sitografia", "bibliografia e sitografia", "webgrafia"),
    "nl": ("literatuurlijst", "literatuur", "bronnen", "bronnenlijst", "bronvermelding",
           "referenties", "bibliografie", "geraadpleegde literatuur", "geraadpleegde bronnen",
           "gebruikte bronnen", "literatuurverwijzingen"),
    "no": ("litteraturliste", "litteratur", "kilder", "kildeliste", "referanser",
           "referanseliste", "bibliografi", "kildehenvisninger", "litteraturhenvisninger"),
    "pl": ("bibliografia", "literatura", "źródła", "wykaz literatury", "spis literatury",
           "wykaz źródeł", "literatura przedmiotu", "wykorzystana literatura", "netografia",
           "bibliografia i netografia"),
    "pt": ("referências", "referências bibliográficas", "bibliografia", "fontes",
           "fontes consultadas", "obras citadas", "bibliografia consultada", "webgrafia"),
    "ru": ("список литературы", "литература", "библиография", "источники", "список источников",
           "список использованной литературы", "список использованных источников",
           "использованная литература", "библиографический список", "источники и литература",
           "список источников и литературы"),
    "sl": ("literatura", "viri", "viri in literatura", "literatura in viri", "seznam literature",
           "seznam virov", "bibliografija", "uporabljena literatura", "uporabljeni viri"),
    "sv": ("referenser", "referenslista", "litteraturförteckning", "litteraturlista",
           "källförteckning", "källor", "källor och litteratur", "litteratur", "bibliografi",
           "källhänvisningar"),
    "tr": ("kaynakça", "kaynaklar", "kaynak listesi", "kaynak dizini", "bibliyografya",
           "referanslar", "yararlanılan kaynaklar", "başvuru kaynakları"),
}  # fmt: skip

# An appendix after the references is not part of them: the section ends at its heading.
_APPENDIX_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("appendix", "appendices", "annex", "annexes"),
    "cs": ("příloha", "přílohy"),
    "da": ("bilag",),
    "de": ("anhang", "anhänge", "anlage", "anlagen"),
    "el": ("παράρτημα",),
    "es": ("apéndice", "apéndices", "anexo", "anexos"),
    "et": ("lisa", "lisad"),
    "fi": ("liite", "liitteet"),
    "fr": ("annexe", "annexes"),
    "it": ("appendice", "appendici", "allegato", "allegati"),
    "nl": ("bijlage", "bijlagen"),
    "no": ("vedlegg",),
    "pl": ("załącznik", "załączniki", "aneks"),
    "pt": ("apêndice", "apêndices", "anexo", "anexos"),
    "ru": ("приложение", "приложения"),
    "sl": ("priloga", "priloge"),
    "sv": ("bilaga", "bilagor"),
    "tr": ("ek", "ekler"),
}

# "7.", "7", "2.3", "VII.", "A.", "(4)" before a heading; Markdown's "#" and emphasis around it
_NUMBERING = re.compile(r"(?:\d+(?:\.\d+)*\.?|[IVXLC]+\.|[A-Z]\.|\(\d+\))\s+")
_DECORATION = "#*_ \t"
_YEAR = re.compile(r"\b(?:1[5-9]\d\d|20\d\d)\b|\bn\.\s?d\.")
# the start of a reference entry: "[1] ", "1. " or a surname (one or two words) and a comma
_ENTRY = re.compile(r"(?:\[\d+\]\s*|\d+\.\s+)?[^\W\d_][\w'\-]*(?:\s[^\W\d_][\w'\-]*)?,")
_APPENDIX_REST = re.compile(r"(?:\s+(?:[A-Z]|[IVX]+|\d+))?[.:]?(?:\s.*)?", re.DOTALL)


def _key(text: str) -> str:
    """A heading for comparison: case-folded, without accents, spaces collapsed."""
    folded = unicodedata.normalize("NFD", text.casefold().replace("ı", "i"))
    bare = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return " ".join(bare.split())


_HEADING_KEYS = {code: frozenset(map(_key, words)) for code, words in REFERENCE_HEADINGS.items()}
_APPENDIX_KEYS = {code: frozenset(map(_key, words)) for code, words in _APPENDIX_WORDS.items()}


def find_references(doc: Document) -> tuple[ExcludedSpan, ...]:
    """The trailing references section: from the last references heading that starts in the
    second half of the text (REFERENCES_FROM) to the end of the text, or to an appendix heading
    after it. A heading is a paragraph of its own that is one of REFERENCE_HEADINGS for the
    document's language or English, ignoring case, accents, a number before it ("7.", "VII."),
    Markdown marks and a colon or full stop after it; or a paragraph that starts with one and
    goes on like a reference entry (a capitalised surname and a comma, or "[1]") with a year
    within 300 characters ("References Smith, J. (2019) ...": a heading whose line break was
    lost). Detail: the heading as written."""
    text = doc.text
    headings = _HEADING_KEYS.get(doc.language, frozenset()) | _HEADING_KEYS["en"]
    threshold = len(text) * REFERENCES_FROM
    paragraphs = list(_paragraphs(text))
    for k in range(len(paragraphs) - 1, -1, -1):
        start, end = paragraphs[k]
        if start < threshold:
            break
        heading = _heading(text[start:end], headings)
        if heading is None:
            continue
        appendix = _appendix_words(doc.language)
        stop = next(
            (a for a, b in paragraphs[k + 1 :] if _is_appendix(text[a:b], appendix)), len(text)
        )
        return (ExcludedSpan(start, stop, ExclusionKind.REFERENCES, heading),)
    return ()


def _strip_heading(line: str) -> str:
    line = line.strip(_DECORATION)
    match = _NUMBERING.match(line)
    if match:
        line = line[match.end() :]
    return line.strip(_DECORATION).rstrip(":.").strip(_DECORATION)


def _heading(paragraph: str, headings: frozenset[str]) -> str | None:
    if len(paragraph) <= _MAX_HEADING_CHARS and _key(_strip_heading(paragraph)) in headings:
        return paragraph.strip(_DECORATION).rstrip(":").strip(_DECORATION)
    # a heading glued to the first entry: "References Smith, J. (2019). Title ..."
    words = paragraph.split(None, 5)
    for n in range(min(4, len(words) - 1), 0, -1):
        first = " ".join(words[:n])
        if _key(_strip_heading(first)) not in headings:
            continue
        rest = paragraph.split(None, n)[n]
        if (rest[0].isupper() or rest[0] == "[" or rest[0].isdigit()) and (
            _ENTRY.match(rest) and _YEAR.search(rest, 0, 300)
        ):
            return first.strip(_DECORATION).rstrip(":").strip(_DECORATION)
    return None


def _appendix_words(language: str) -> frozenset[str]:
    return _APPENDIX_KEYS.get(language, frozenset()) | _APPENDIX_KEYS["en"]


def _is_appendix(paragraph: str, words: frozenset[str]) -> bool:
    if len(paragraph) > _MAX_HEADING_CHARS:
        return False
    line = _strip_heading(paragraph)
    first = _WORD_AFTER.match(line)
    return (
        first is not None
        and first.start() == 0
        and _key(first.group()) in words
        and _APPENDIX_REST.fullmatch(line, first.end()) is not None
    )


# --- templates -----------------------------------------------------------------------------


def template_exclusions(
    doc: Document,
    templates: Sequence[Document],
    match_options: MatchOptions | None = None,
    phrase_words: int = ExclusionOptions().template_phrase_words,
) -> tuple[ExcludedSpan, ...]:
    """The sentences of `doc` that match a template, whole: each sentence inside a verified
    block shared with the template (the comparison's own rule, with `match_options`), and each
    sentence holding a phrase of `phrase_words` words (stop words included) that the template
    also has. Both documents are read without their exclusions, and with `doc`'s signature
    options. One span per sentence; detail: the template's file name."""
    if phrase_words < 2:
        raise ValueError("the template phrase length must be at least 2 words")
    doc = with_exclusions(doc, ())
    options = match_options or MatchOptions()
    starts = [s.start for s in doc.sentences]
    words = phrase_input(doc)
    spans: list[ExcludedSpan] = []
    for template in templates:
        template = with_exclusions(template, ())
        if template.options != doc.options:
            template = reanalysed(template, doc.options)
        sentences: set[tuple[int, int]] = set()
        a, b = harmonise_languages(doc, template)
        result = match_signatures(a.signature, b.signature, options)
        for block in result.blocks:
            for piece in block.pieces:
                for position in range(piece.a_start, piece.a_start + piece.length):
                    sentence = a.sentences[a.signature.sentence_indices[position]]
                    sentences.add((sentence.start, sentence.end))
        phrases = repeated_phrases(
            [words, phrase_input(template)],
            max_len=phrase_words,
            min_count=2,
            min_docs=2,
            method=INVERTED_INDEX,
        )
        for phrase in phrases:
            if phrase.length != phrase_words:
                continue
            for occurrence in phrase.occurrences:
                if occurrence.document == 0:
                    sentence = doc.sentences[bisect.bisect_right(starts, occurrence.start) - 1]
                    sentences.add((sentence.start, sentence.end))
        spans.extend(
            ExcludedSpan(start, end, ExclusionKind.TEMPLATE, template.name)
            for start, end in sorted(sentences)
        )
    return tuple(spans)


# --- all of them ---------------------------------------------------------------------------


def document_exclusions(
    doc: Document,
    options: ExclusionOptions,
    templates: Sequence[Document] = (),
    match_options: MatchOptions | None = None,
) -> tuple[ExcludedSpan, ...]:
    """Every exclusion of `doc` that `options` ask for on its own (quotations and block quotes,
    references, and the templates given: no template, no template exclusion), found in its
    text whatever it already excludes. The batch's common text is not among them."""
    spans: list[ExcludedSpan] = []
    if options.quotations:
        spans.extend(find_quotations(doc.text, doc.language))
        spans.extend(block_quote_exclusions(doc))
    if options.references:
        spans.extend(find_references(doc))
    if templates:
        spans.extend(
            template_exclusions(doc, templates, match_options, options.template_phrase_words)
        )
    return tuple(spans)


def apply_exclusions(
    doc: Document,
    options: ExclusionOptions,
    templates: Sequence[Document] = (),
    match_options: MatchOptions | None = None,
) -> Document:
    """`doc` with the exclusions of `document_exclusions` in place of any quotation,
    references or template exclusions it had; other kinds it carries (the batch's common
    text) stay."""
    kept = [s for s in doc.excluded if s.kind not in _PER_DOCUMENT]
    return with_exclusions(
        doc, [*kept, *document_exclusions(doc, options, templates, match_options)]
    )


# --- in plain words ------------------------------------------------------------------------


def exclusion_summary(doc: Document) -> list[str]:
    """What `doc` leaves out of scoring and why, one line per reason, e.g.
    "3 quotations (2 sentences left out, 14 words)",
    "references section from 'Works Cited' (12 sentences left out)",
    "template prompt.docx (5 sentences left out)". A sentence left out counts under every
    reason that covers part of it; a sentence that keeps some words is not counted (its
    excluded words are). [] when nothing is excluded."""
    if not doc.excluded:
        return []
    dropped = [doc.sentences[i] for i in doc.signature.excluded]
    groups: defaultdict[tuple[ExclusionKind, str], list[ExcludedSpan]] = defaultdict(list)
    for span in doc.excluded:
        detail = "" if span.kind in (ExclusionKind.QUOTATION, ExclusionKind.COMMON) else span.detail
        groups[(span.kind, detail)].append(span)
    order = list(ExclusionKind)
    lines: list[str] = []
    for (kind, detail), spans in sorted(
        groups.items(), key=lambda g: (order.index(g[0][0]), g[0][1])
    ):
        covered = SpanSet(spans)
        left_out = sum(1 for s in dropped if covered.overlaps(s.start, s.end))
        sentences = _count(left_out, "sentence")
        if kind is ExclusionKind.QUOTATION:
            blocks = sum(1 for s in spans if s.detail == BLOCK_QUOTE)
            marks = len(spans) - blocks
            what = " and ".join(
                part
                for part in (
                    _count(marks, "quotation") if marks else "",
                    _count(blocks, "block quote") if blocks else "",
                )
                if part
            )
            words = _count(_covered_words(doc.text, spans, covered), "word")
            lines.append(f"{what} ({sentences} left out, {words})")
        elif kind is ExclusionKind.REFERENCES:
            lines.append(f"references section from '{detail}' ({sentences} left out)")
        elif kind is ExclusionKind.TEMPLATE:
            lines.append(f"template {detail} ({sentences} left out)")
        else:
            passages = _count(len(spans), "passage")
            lines.append(
                f"{kind.label.removeprefix('excluded: ')}: {passages} ({sentences} left out)"
            )
    return lines


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _covered_words(text: str, spans: Iterable[ExcludedSpan], covered: SpanSet) -> int:
    words = {w for s in spans for w in word_spans(text, s.start, s.end) if covered.covers(*w)}
    return len(words)

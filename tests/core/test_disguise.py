"""Undoing character-level disguises (core.documents.disguise, through normalize_with_report):
each trick on a real copied pair gives the same comparison as the undisguised copy, with the
disguise counted; genuine texts in many scripts come out unchanged and unwarned; the shipped
look-alike table is what resources/build_confusables.py derives from its package."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest
from docmakers import FILLER_B, SAMPLE_PROSE, make_docx, make_txt
from hypothesis import given, settings
from hypothesis import strategies as st

from core.comparison import compare_documents
from core.documents import disguise
from core.documents import document as document_module
from core.documents.document import document_from_text, load_document
from core.documents.extract import extract
from core.documents.normalize import normalize_text, normalize_with_report
from core.documents.tampering import Tampering
from core.resources import resource_path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "corpus"

# Latin letters and the Cyrillic letters that look like them (what students use)
CYRILLIC = dict(zip("aceopxyijsABCEHIKMOPTXY", "асеорхуіјѕАВСЕНІКМОРТХУ", strict=True))
# invisible characters that go inside a word
INVISIBLES = (
    "\u034f",  # combining grapheme joiner
    "\u3164",  # Hangul filler
    "\uffa0",  # halfwidth Hangul filler
    "\u115f",  # Hangul choseong filler
    "\u1160",  # Hangul jungseong filler
    "\U000e0041",  # tag character
    "\U000e007f",  # cancel tag
    "\ufe0f",  # variation selector 16
    "\ufe00",  # variation selector 1
    "\U000e0100",  # variation selector 17
    "\u180e",  # Mongolian vowel separator
    "\u2062",  # invisible times
    "\u2063",  # invisible separator
    "\u2064",  # invisible plus
    "\u200b",  # zero-width space (dropped before too, counted now)
    "\u200d",  # zero-width joiner
    "\u200e",  # left-to-right mark
    "\u206a",  # deprecated format character
)
FULL_STOPS = ("\u0589", "\u1362", "\u3002", "\uff61", "\u2024", "\ufe52", "\uff0e", "\u06d4")

SOURCE = normalize_text("\n\n".join(SAMPLE_PROSE))
# a copy: the student's own paragraph, then four paragraphs of the source word for word
COPY = normalize_text("\n\n".join([FILLER_B.strip(), *SAMPLE_PROSE[2:6]]))
SENTENCES = [m.span() for m in re.finditer(r"[^.!?\n]+[.!?]+[\"']?", COPY)]


# --- the tricks, applied to chosen sentences ---------------------------------------------------


def disguise_letters(
    text: str, sentences: set[int], letters: set[str], first_word_only: bool
) -> tuple[str, int]:
    """`text` with the chosen Latin letters of the chosen sentences made Cyrillic (in their first
    word only, or everywhere), and how many letters were replaced."""
    out = list(text)
    replaced = 0
    for k in sorted(sentences):
        start, end = SENTENCES[k]
        if first_word_only:
            first = re.compile(r"[A-Za-z]+").search(text, start, end)
            assert first is not None
            start, end = first.span()
        for i in range(start, end):
            if out[i] in letters:
                out[i] = CYRILLIC[out[i]]
                replaced += 1
    return "".join(out), replaced


def insert_invisibles(text: str, sentences: set[int], chosen: list[str]) -> tuple[str, int]:
    """One invisible character (in turn from `chosen`) inside every word of two letters or more
    of the chosen sentences."""
    pieces: list[str] = []
    last = 0
    k = 0
    for s in sorted(sentences):
        start, end = SENTENCES[s]
        for word in re.compile(r"[A-Za-z]{2,}").finditer(text, start, end):
            middle = word.start() + len(word.group()) // 2
            pieces += [text[last:middle], chosen[k % len(chosen)]]
            last = middle
            k += 1
    return "".join([*pieces, text[last:]]), k


def braille_spaces(text: str, sentences: set[int]) -> tuple[str, int]:
    out = list(text)
    replaced = 0
    for k in sorted(sentences):
        start, end = SENTENCES[k]
        for i in range(start, end):
            if out[i] == " ":
                out[i] = "\u2800"
                replaced += 1
    return "".join(out), replaced


def foreign_stops(text: str, sentences: set[int], chosen: list[str]) -> tuple[str, int]:
    out = list(text)
    replaced = 0
    for k in sorted(sentences):
        start, end = SENTENCES[k]
        stop = text.rfind(".", start, end)
        if stop >= 0:
            out[stop] = chosen[replaced % len(chosen)]
            replaced += 1
    return "".join(out), replaced


sentence_sets = st.sets(st.integers(0, len(SENTENCES) - 1), min_size=1)


def found_like_the_plain_copy(disguised: str) -> tuple[Tampering, ...]:
    """Compares the disguised copy and the plain copy with the source; both comparisons must
    be the same. Returns the disguised copy's tampering."""
    source = document_from_text(SOURCE, "source.txt")
    plain = compare_documents(document_from_text(COPY, "plain.txt"), source)
    copy = document_from_text(disguised, "copy.txt")
    assert copy.text == COPY
    found = compare_documents(copy, source)
    assert plain.flagged and found.flagged
    assert found.copied_a == plain.copied_a
    assert [(p.a_chars, p.b_chars) for p in found.passages] == [
        (p.a_chars, p.b_chars) for p in plain.passages
    ]
    return copy.tampering


@settings(max_examples=25, deadline=None)
@given(
    sentence_sets,
    st.sets(st.sampled_from(sorted(CYRILLIC)), min_size=1),
    st.booleans(),
)
def test_cyrillic_lookalikes_are_found_like_the_plain_copy(
    sentences: set[int], letters: set[str], first_word_only: bool
) -> None:
    disguised, replaced = disguise_letters(COPY, sentences, letters, first_word_only)
    tampering = found_like_the_plain_copy(disguised)
    expected = (Tampering("lookalike_letters", replaced, "Latin"),) if replaced else ()
    assert tampering == expected


@settings(max_examples=25, deadline=None)
@given(sentence_sets, st.lists(st.sampled_from(INVISIBLES), min_size=1, max_size=6))
def test_invisible_characters_are_found_like_the_plain_copy(
    sentences: set[int], chosen: list[str]
) -> None:
    disguised, inserted = insert_invisibles(COPY, sentences, chosen)
    assert found_like_the_plain_copy(disguised) == (Tampering("invisible_characters", inserted),)


@settings(max_examples=15, deadline=None)
@given(sentence_sets)
def test_braille_blanks_are_found_like_the_plain_copy(sentences: set[int]) -> None:
    disguised, replaced = braille_spaces(COPY, sentences)
    assert found_like_the_plain_copy(disguised) == (Tampering("lookalike_spaces", replaced),)


@settings(max_examples=15, deadline=None)
@given(sentence_sets, st.lists(st.sampled_from(FULL_STOPS), min_size=1, max_size=4))
def test_foreign_full_stops_are_found_like_the_plain_copy(
    sentences: set[int], chosen: list[str]
) -> None:
    disguised, replaced = foreign_stops(COPY, sentences, chosen)
    assert found_like_the_plain_copy(disguised) == (Tampering("lookalike_punctuation", replaced),)


def test_all_tricks_at_once_are_counted_by_kind() -> None:
    every = set(range(len(SENTENCES)))
    text, letters = disguise_letters(COPY, every, set(CYRILLIC), first_word_only=False)
    text, stops = foreign_stops(text, every, ["\u3002"])
    text, blanks = braille_spaces(text, every)
    assert found_like_the_plain_copy(text) == (
        Tampering("lookalike_letters", letters, "Latin"),
        Tampering("lookalike_spaces", blanks),
        Tampering("lookalike_punctuation", stops),
    )


def test_without_undoing_the_disguise_the_copy_is_missed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Why this exists: analysed as before, a copy with Cyrillic look-alikes in every word, or
    with invisible characters inside its words, shares nothing with its source."""
    every = set(range(len(SENTENCES)))
    lookalikes, _ = disguise_letters(COPY, every, set(CYRILLIC), first_word_only=False)
    invisible, _ = insert_invisibles(COPY, every, ["\u034f"])
    monkeypatch.setattr(
        document_module,
        "normalize_with_report",
        lambda text: (normalize_with_report(text, undisguise=False)[0], ()),
    )
    source = document_from_text(SOURCE, "source.txt")
    for disguised in (lookalikes, invisible):
        assert not compare_documents(document_from_text(disguised, "copy.txt"), source).flagged


@settings(max_examples=25, deadline=None)
@given(sentence_sets, st.sets(st.sampled_from(sorted(CYRILLIC)), min_size=1))
def test_each_paragraph_normalises_alone_as_in_its_document(
    sentences: set[int], letters: set[str]
) -> None:
    """Decisions are made per paragraph, so extraction can find a block quote's paragraphs in
    the normalised text (core.documents.extract.raw.locate_in_normalised)."""
    disguised, _ = disguise_letters(COPY, sentences, letters, first_word_only=False)
    whole = normalize_text(disguised)
    assert whole.split("\n\n") == [normalize_text(p) for p in disguised.split("\n\n")]


# --- each rule, on examples ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected", "tampering"),
    [
        # a Latin word with Cyrillic letters inside, and the Cyrillic "а" as the English article
        (
            "The cаt sаt on а mаt and ate the fish.",
            "The cat sat on a mat and ate the fish.",
            (Tampering("lookalike_letters", 4, "Latin"),),
        ),
        # capitals keep their case; a whole capitalised word too
        (
            "ТНЕ END of the day",
            "THE END of the day",
            (Tampering("lookalike_letters", 3, "Latin"),),
        ),
        # a soft sign passes for "b"; "ё" for "ë", by its base letter
        (
            "Ьooks by Zoё and Brontë",
            "books by Zoë and Brontë",
            (Tampering("lookalike_letters", 2, "Latin"),),
        ),
        # Greek omicron and capitals, Armenian, Cherokee and Lisu letters inside Latin words
        (
            "prοblem ΤΗΕ hօuse ᏟAT ꓮpple to dodge",
            "problem THE house CAT Apple to dodge",
            (Tampering("lookalike_letters", 7, "Latin"),),
        ),
        # a Greek small letter inside a word folds; at its edge it is a symbol
        (
            "We haνe ρgh and hν, sinα, the α particle and dt.",
            "We have ρgh and hν, sinα, the α particle and dt.",
            (Tampering("lookalike_letters", 1, "Latin"),),
        ),
        # a Cyrillic word with Latin letters inside: folded into Cyrillic
        (
            "Мы читали этo слoво в книге.",
            "Мы читали это слово в книге.",
            (Tampering("lookalike_letters", 2, "Cyrillic"),),
        ),
        # with enough disguised words, Latin look-alike words too ("а", "с")
        (
            "Дом стоял нa берегу, a рядом с ним рoсла липa.",
            "Дом стоял на берегу, а рядом с ним росла липа.",
            (Tampering("lookalike_letters", 4, "Cyrillic"),),
        ),
        # a Greek word with Latin letters inside
        (
            "Η γλώσσα εiναι ωραiα.",
            "Η γλώσσα ειναι ωραια.",
            (Tampering("lookalike_letters", 2, "Greek"),),
        ),
        # invisible characters
        ("co\u034fpy and ta\u3164ke", "copy and take", (Tampering("invisible_characters", 2),)),
        ("wo\ufe0frd\U000e0041s", "words", (Tampering("invisible_characters", 2),)),
        ("a\u180eb c\u2062d", "ab cd", (Tampering("invisible_characters", 2),)),
        (
            "zero\u200bwidth and l\u200eeft",
            "zerowidth and left",
            (Tampering("invisible_characters", 2),),
        ),
        ("tan\u2061x and ab\u2061c", "tan\u2061x and abc", (Tampering("invisible_characters", 1),)),
        # look-alike spaces and full stops
        ("one\u2800two\u2800\u2800three", "one two three", (Tampering("lookalike_spaces", 3),)),
        (
            "It ended\u0589 Then\u3002 Then\u1362 Now\u2024",
            "It ended. Then. Then. Now.",
            (Tampering("lookalike_punctuation", 4),),
        ),
    ],
)
def test_rule(raw: str, expected: str, tampering: tuple[Tampering, ...]) -> None:
    assert normalize_with_report(raw) == (expected, tampering)


# --- genuine texts -----------------------------------------------------------------------------

GENUINE: dict[str, str] = {
    "ru": (
        "Вчера Джон Смит купил новый iPhone 15 Pro, и всё было OK. По формуле E = mc² энергия "
        "пропорциональна массе. Давление столба жидкости равно ρgh, где ρ — плотность, g — "
        "ускорение свободного падения, а h — высота. Длина волны λ связана с частотой ν, "
        "энергия фотона равна hν. Пусть a и b — катеты, а c — гипотенуза; тогда a² + b² = c². "
        "Компании Google и Microsoft открыли офисы в Москве, а студенты МГУ пишут на Python."
    ),
    "el": (
        "Ο Γιάννης αγόρασε ένα νέο iPhone και όλα ήταν OK. Η ενέργεια δίνεται από τον τύπο "
        "E = mc². Στη φυσική, η υδροστατική πίεση είναι p = ρgh, όπου ρ η πυκνότητα του υγρού. "
        "Η εταιρεία Google άνοιξε γραφείο στην Αθήνα, και οι φοιτητές του ΕΜΠ γράφουν κώδικα σε "
        "Python. Το άθροισμα των γωνιών α, β και γ ενός τριγώνου είναι 180 μοίρες."
    ),
    "en with physics and Russian words": (
        "The pressure at depth is p = ρgh, where ρ is the density of the fluid. A photon of "
        "frequency ν carries the energy hν. Alpha decay emits an α particle; γ rays carry no "
        "charge. In a right triangle, sinα equals the opposite side over the hypotenuse, and "
        "the angle θ is measured in radians. The Russian word дом means house, and «спасибо» "
        "means thank you."
    ),
    "he": (
        "ירושלים היא עיר עתיקה וחשובה. התלמידים קראו את הספר בכיתה ושאלו שאלות רבות. "
        'בתנ"ך כתוב: בְּרֵאשִׁית בָּרָא אֱלֹהִים, ושם העיר נכתב יְרוּשָׁלַ͏ִם. '
        "המורה הסבירה את השיעור בעזרת מחשב Dell ותוכנת Word\u200f."
    ),
    "ar": (
        "اللغة العربية من أكثر اللغات انتشارا في العالم. يتحدث بها أكثر من أربعمائة مليون "
        "إنسان. كتب الطالب بحثه عام ٢٠٢٠ باستخدام برنامج Word\u200f، ثم أرسله إلى الأستاذ."
    ),
    "fa": (
        "من می\u200cخواهم کتاب\u200cها را بخوانم. دانشجویان در کتابخانه درس می\u200cخوانند و "
        "استادان مقاله\u200cهای خود را می\u200cنویسند. این پژوهش در سال ۱۴۰۰ انجام شد."
    ),
    "hi": (
        "भारत एक विशाल देश है। यहाँ अनेक भाषाएँ बोली जाती हैं। विद्यार्थी पुस्तकालय में "
        "पढ़ते हैं और शिक्षक क्\u200dया पढ़ाते हैं, यह ध्यान से सुनते हैं।"
    ),
    "zh": (
        "我们今天学习了中国的历史。老师说，长城是世界上最伟大的建筑之一。我也喜欢用iPhone拍照。"
        "这篇文章一共有三段，每段都很短。"
    ),
    "ja": (
        "日本語の文章には、ひらがな、カタカナ、漢字が使われます。東京は日本の首都です。"
        "葛\U000e0100飾区に住んでいる友達は、毎日iPhoneで写真を撮ります．"
    ),
    "ko": "한국어는 한글로 씁니다. 서울은 대한민국의 수도입니다. 옛 한글: ᄒᆞᆫ ᄀᅠ",
    "mn": "ᠮᠣᠩᠭᠣᠯ ᠬᠡᠯᠡ ᠨᠠ\u180eᠠ ᠭ\u180b ᠪᠢᠴᠢᠭ᠃",
    "hy": "Բարեւ, ինչպե՞ս ես։ Ես սովորում եմ հայերեն։",
    "emoji": (
        "I love this \u2764\ufe0f and press 1\ufe0f\u20e3 for help. The flag "
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f flies over "
        "Edinburgh, and the family \U0001f468\u200d\U0001f469\u200d\U0001f467 waved."
    ),
    "braille": "Hello in braille: ⠓⠑⠇⠇⠕⠀⠺⠕⠗⠇⠙ is written with six dots.",
    "maths": "In Word's equations sin\u2061x + cos\u2061x, and log\u2061y as well.",
}


def _essays() -> dict[str, str]:
    from tests.core.test_language import ESSAYS  # the shipped languages' essays

    return {f"{code} essay {k}": e for code, es in ESSAYS.items() for k, e in enumerate(es)}


@pytest.mark.parametrize("name", [*GENUINE, *_essays()])
def test_genuine_text_is_unchanged_and_unwarned(name: str) -> None:
    text = GENUINE.get(name) or _essays()[name]
    before, _ = normalize_with_report(text, undisguise=False)
    assert normalize_with_report(text) == (before, ())


def _corpus(folder: str) -> list[Path]:
    path = SHARED / folder
    return sorted(path.glob("*.txt")) if path.is_dir() else []


@pytest.mark.bench
@pytest.mark.parametrize("folder", ["gutenberg", "p4p"])
def test_shared_corpora_raise_no_warning(folder: str) -> None:
    paths = _corpus(folder)
    if not paths:
        pytest.skip(f"../shared/corpus/{folder} is absent")
    for path in paths:
        text = path.read_text(encoding="utf-8")
        before, _ = normalize_with_report(text, undisguise=False)
        assert normalize_with_report(text) == (before, ()), path.name


# --- wiring: files, pasted text, block quotes ------------------------------------------------


def test_a_file_carries_its_disguises_as_warnings(tmp_path: Path) -> None:
    every = set(range(len(SENTENCES)))
    disguised, replaced = disguise_letters(COPY, every, set(CYRILLIC), first_word_only=False)
    path = make_txt(tmp_path / "copy.txt", disguised.split("\n\n"))
    assert extract(path).text == COPY
    doc = load_document(path)
    assert doc.tampering == (Tampering("lookalike_letters", replaced, "Latin"),)
    assert doc.warnings[0] == (
        f"{replaced:,} Latin letters replaced by look-alikes from other scripts — a known way "
        "to hide copying"
    )


def test_pasted_text_carries_its_disguises() -> None:
    doc = document_from_text("Тhе cat sat\u2800on the mat\u3002", "pasted")
    assert doc.text == "The cat sat on the mat."
    assert doc.tampering == (
        Tampering("lookalike_letters", 2, "Latin"),
        Tampering("lookalike_spaces", 1),
        Tampering("lookalike_punctuation", 1),
    )


def test_block_quotes_are_found_in_the_folded_text(tmp_path: Path) -> None:
    paragraphs = COPY.split("\n\n")
    every = set(range(len(SENTENCES)))
    disguised, _ = disguise_letters(COPY, every, set(CYRILLIC), first_word_only=False)
    path = make_docx(tmp_path / "quoted.docx", disguised.split("\n\n"), quotes={2})
    extracted = extract(path)
    assert extracted.text == COPY
    assert [extracted.text[a:b] for a, b in extracted.block_quotes] == [paragraphs[2]]


# --- the shipped data ----------------------------------------------------------------------------


def _build_script() -> object:
    spec = importlib.util.spec_from_file_location(
        "build_confusables", ROOT / "resources" / "build_confusables.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_confusables"] = module
    spec.loader.exec_module(module)
    return module


def test_shipped_table_equals_what_the_build_script_derives() -> None:
    pytest.importorskip("confusable_homoglyphs")
    build = _build_script()
    render: Callable[[object], str] = build.render  # type: ignore[attr-defined]
    derive: Callable[[], object] = build.derive  # type: ignore[attr-defined]
    shipped = resource_path("unicode", "confusables.json").read_text(encoding="utf-8")
    assert shipped == render(derive())


def test_shipped_table_holds_the_common_lookalikes() -> None:
    """Independent of the package: the letters students use are in the shipped classes."""
    data = json.loads(resource_path("unicode", "confusables.json").read_text(encoding="utf-8"))
    classes = {c: members for members in data["classes"] for c in members}
    for latin, cyrillic in CYRILLIC.items():
        assert cyrillic in classes[latin], (latin, cyrillic)
    for latin, greek in zip("oABEHIKMNOPTXYZ", "οΑΒΕΗΙΚΜΝΟΡΤΧΥΖ", strict=True):
        assert greek in classes[latin], (latin, greek)


# --- the fast paths ----------------------------------------------------------------------------


def test_plain_alphabets_hold_no_disguise_and_no_other_script() -> None:
    """A text whose non-ASCII characters are all in one alphabet's plain set skips the disguise
    stages: no character there may be one they act on, nor a letter of another script."""
    for name, letters in disguise.PLAIN.items():
        plain = re.compile(f"[{disguise._COMMON}{letters}]")
        for code in range(0x80, 0x10000):
            character = chr(code)
            if not plain.match(character):
                continue
            assert not disguise._SUSPECT.match(character), (name, hex(code))
            assert not disguise._IS_INVISIBLE(character), (name, hex(code))
            if unicodedata.category(character)[0] == "L":
                assert disguise._script(character) in (name, None), (name, hex(code))


@pytest.mark.parametrize(
    ("text", "plain", "ascii_letters"),
    [
        ("Привет — «мир» №5", "Cyrillic", False),
        ("Καλημέρα, κόσμε… OK", "Greek", True),
        ("Café “naïve” — fine", "Latin", True),
        ("Привет, Hello\u2800", None, True),  # a braille blank: not plain
        ("Привет, Ꭺ", None, False),  # a Cherokee letter
        ("Привет 😀", None, False),  # beyond the BMP
    ],
)
def test_scan(text: str, plain: str | None, ascii_letters: bool) -> None:
    seen = disguise.scan(text)
    assert (seen.plain, seen.ascii_letters) == (plain, ascii_letters)
    assert seen.residue == "".join(c for c in text if not c.isascii())

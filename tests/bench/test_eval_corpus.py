"""The evaluation's labelled corpus (bench/eval_corpus.py), generated from a tiny synthetic
"library" written here, so these tests run where the shared Gutenberg corpus is absent."""

from __future__ import annotations

import itertools
import random
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import eval_corpus as ec  # noqa: E402
from corpus import novels  # noqa: E402

from core.documents.normalize import normalize_text  # noqa: E402

SYLLABLES = "ba be bo da de do ka ke ko la le lo ma me mo na ne no ra re ro sa se so ta te to"
FUNCTION = ("the", "of", "and", "to", "in", "that", "it", "was", "he", "she", "had", "with")

CONFIG = ec.CorpusConfig(
    seed=7,
    sources=4,
    suspicious=16,
    source_words=(200, 300),
    own_words=(150, 250),
    passages=(1, 3),
    passage_sentences=(3, 6),
    passage_words=(20, 120),
    hard_negatives=4,
)


def write_library(folder: Path, novels: int = 4, words: int = 3_000) -> list[Path]:
    """Novels of made-up words: each novel its own vocabulary (plus shared function words),
    sentences of 6–14 words with the odd comma or semicolon, paragraphs of 2–5 sentences."""
    rng = random.Random(1)
    syllables = SYLLABLES.split()
    folder.mkdir()
    paths = []
    for k in range(novels):
        vocabulary = [
            "".join(rng.choice(syllables) for _ in range(rng.randint(2, 3))) for _ in range(300)
        ]
        paragraphs, count = [], 0
        while count < words:
            sentences = []
            for _ in range(rng.randint(2, 5)):
                length = rng.randint(6, 14)
                tokens = [
                    rng.choice(FUNCTION) if rng.random() < 0.4 else rng.choice(vocabulary)
                    for _ in range(length)
                ]
                for i in range(2, length - 2):
                    if rng.random() < 0.08:
                        tokens[i] += rng.choice([",", ",", ";"])
                sentences.append(" ".join(tokens).capitalize() + ".")
                count += length
            # hard-wrapped lines, as in Gutenberg files
            paragraphs.append("\n".join(sentences))
        path = folder / f"novel{k}.txt"
        path.write_text("Chapter One\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return write_library(tmp_path_factory.mktemp("library") / "novels")


@pytest.fixture(scope="module")
def corpus(
    library: list[Path], tmp_path_factory: pytest.TempPathFactory
) -> tuple[ec.Truth, dict[str, str]]:
    folder = tmp_path_factory.mktemp("corpus") / "eval"
    truth = ec.generate(library, folder, CONFIG)
    return truth, ec.read_texts(folder)


def test_the_same_seed_writes_the_same_files(library: list[Path], tmp_path: Path) -> None:
    first, second, other = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    ec.generate(library, first, CONFIG)
    ec.generate(library, second, CONFIG)
    ec.generate(library, other, ec.CorpusConfig(**{**CONFIG.__dict__, "seed": 8}))
    files = sorted(p.name for p in first.iterdir())
    assert files == sorted(p.name for p in second.iterdir())
    assert all((first / f).read_bytes() == (second / f).read_bytes() for f in files)
    assert (first / ec.TRUTH).read_bytes() != (other / ec.TRUTH).read_bytes()


def test_truth_round_trips_through_json(corpus: tuple[ec.Truth, dict[str, str]]) -> None:
    truth, _ = corpus
    again = ec.Truth.from_json(truth.to_json())
    assert again.config == truth.config
    assert again.documents == truth.documents
    assert again.cases == truth.cases


def test_every_text_is_normalised(corpus: tuple[ec.Truth, dict[str, str]]) -> None:
    truth, texts = corpus
    assert set(texts) == {d.name for d in truth.documents}
    for text in texts.values():
        assert normalize_text(text) == text


def test_verbatim_copies_are_exact(corpus: tuple[ec.Truth, dict[str, str]]) -> None:
    truth, texts = corpus
    verbatim = [c for c in truth.cases if c.level == "verbatim"]
    assert verbatim
    for case in verbatim:
        copy = texts[case.suspicious][case.suspicious_span[0] : case.suspicious_span[1]]
        original = texts[case.source][case.source_span[0] : case.source_span[1]]
        assert copy == original
        assert len(original.split()) >= CONFIG.passage_words[0]


def test_edited_copies_lie_inside_the_documents_and_differ(
    corpus: tuple[ec.Truth, dict[str, str]],
) -> None:
    truth, texts = corpus
    edited = [c for c in truth.cases if c.level in ("light", "heavy")]
    assert {c.level for c in edited} == {"light", "heavy"}
    for case in edited:
        (a, b), (c, d) = case.suspicious_span, case.source_span
        assert 0 <= a < b <= len(texts[case.suspicious])
        assert 0 <= c < d <= len(texts[case.source])
        copy, original = texts[case.suspicious][a:b], texts[case.source][c:d]
        assert copy != original
        # a passage is whole paragraphs of the suspicious document
        assert a == 0 or texts[case.suspicious][a - 2 : a] == "\n\n"
        assert b == len(texts[case.suspicious]) or texts[case.suspicious][b : b + 2] == "\n\n"
        # still recognisably the same passage: most of its words survive
        kept = Counter(original.lower().split()) & Counter(copy.lower().split())
        assert kept.total() > 0.3 * len(original.split())


def test_cases_follow_the_levels(corpus: tuple[ec.Truth, dict[str, str]]) -> None:
    truth, _ = corpus
    roles = {d.name: d for d in truth.documents}
    with_cases = Counter(c.suspicious for c in truth.cases)
    for doc in truth.documents:
        if doc.role == "source":
            assert doc.level is None and doc.split == "shared"
            assert doc.name not in with_cases
        elif doc.role == "hard":
            assert doc.level is None and doc.split == "test"
            assert doc.name not in with_cases
        elif doc.level == "none":
            assert doc.name not in with_cases
        else:
            assert 1 <= with_cases[doc.name] <= CONFIG.passages[1]
    for case in truth.cases:
        assert roles[case.source].role == "source"
        assert case.level == roles[case.suspicious].level
    assert truth.positive_pairs() == {(c.suspicious, c.source) for c in truth.cases}


def test_suspicious_own_text_comes_from_other_novels(
    corpus: tuple[ec.Truth, dict[str, str]],
) -> None:
    truth, texts = corpus
    assert not set(truth.novels["source"]) & set(truth.novels["own"])
    sources = " ".join(texts[d.name] for d in truth.documents if d.role == "source").split()
    windows = {tuple(sources[i : i + 5]) for i in range(len(sources) - 4)}
    for doc in truth.documents:
        assert doc.novel in truth.novels["own" if doc.role == "suspicious" else "source"]
        if doc.level == "none":
            words = texts[doc.name].split()
            assert not any(tuple(words[i : i + 5]) in windows for i in range(len(words) - 4))


def test_the_split_is_stratified_and_disjoint(corpus: tuple[ec.Truth, dict[str, str]]) -> None:
    truth, _ = corpus
    suspicious = [d for d in truth.documents if d.role == "suspicious"]
    assert len(suspicious) == CONFIG.suspicious
    assert {d.split for d in suspicious} == {"tuning", "test"}
    for level in ec.LEVELS:
        docs = [d for d in suspicious if d.level == level]
        assert len(docs) == CONFIG.suspicious // len(ec.LEVELS)
        tuning = [d for d in docs if d.split == "tuning"]
        assert len(tuning) == round(CONFIG.tuning_share * len(docs))
    assert len({d.name for d in suspicious}) == len(suspicious)


def test_word_operations_keep_the_sentence_shape() -> None:
    vocabulary = ec.Vocabulary(["the cat sat on the mat and the dog ran far away " * 3])
    rng = random.Random(3)
    sentence = 'Then the old dog, tired; ran home across the wide green field to "rest."'
    for _ in range(200):
        items = ec.edit_words(sentence, (3, 6), vocabulary, rng)
        text = ec.text_of(items)
        assert text[0].isupper()  # the first word may be replaced, never lowercased
        assert text.endswith('."')  # the stop and the closing quote stay at the end
        assert "  " not in text and normalize_text(text) == text


def test_heavy_edits_split_merge_and_reorder() -> None:
    vocabulary = ec.Vocabulary(["the cat sat on the mat and the dog ran far away " * 3])
    sentences = [
        "The first sentence is long enough, and it has a comma in the middle of it.",
        "The second one follows it closely and ends in a plain full stop.",
        "A third sentence, also rather long, carries on the story to its end.",
        "The fourth closes the passage.",
    ]
    counts = set()
    for seed in range(30):
        text, count = ec.edit_heavy(sentences, vocabulary, random.Random(seed))
        assert normalize_text(text) == text and "\n" not in text
        counts.add(count)
    assert min(counts) < len(sentences) < max(counts)  # merges and splits both happen


# ------------------------------------------------------------------ sentences as read


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("One here. Two there! Three? Four.", ["One here.", "Two there!", "Three?", "Four."]),
        # closing quotes stay with their sentence; an opening quote may precede the capital
        (
            '"Go home." "Why?" he asked. She went.',
            ['"Go home."', '"Why?" he asked.', "She went."],
        ),
        # a question inside quotes followed by lowercase does not end the sentence
        ('"Is it late?" cried his wife. It was.', ['"Is it late?" cried his wife.', "It was."]),
        ("Mr. Darcy met Mrs. Bennet and Dr. Jones at St. Paul's.", None),
        (
            "He saw J. M. Barrie there. Then he left.",
            ["He saw J. M. Barrie there.", "Then he left."],
        ),
        ("It was I. Nobody else.", ["It was I.", "Nobody else."]),
        # a lowercase or digit after the stop: no end; a paragraph end always ends one
        ("At 3 p.m. we met. The end", ["At 3 p.m. we met.", "The end"]),
        ("First paragraph without stop\n\nSecond one.", None),
        ("Wait... What? (Nothing.) Fine.", ["Wait...", "What?", "(Nothing.)", "Fine."]),
        ("It ended--_well._ Then more.", ["It ended--_well._", "Then more."]),
    ],
)
def test_reader_sentences_by_hand(text: str, sentences: list[str] | None) -> None:
    found = [text[a:b] for a, b in ec.reader_sentences(text)]
    if sentences is None:  # one sentence per paragraph
        sentences = text.split("\n\n")
    assert found == sentences


def test_reader_sentences_span_the_text_between_them() -> None:
    text = '  One. Two!\n\n"Three," she said.  Four?  '
    spans = ec.reader_sentences(text)
    assert [text[a:b] for a, b in spans] == ["One.", "Two!", '"Three," she said.', "Four?"]
    for (_, end), (start, _) in itertools.pairwise(spans):
        assert not text[end:start].strip()


def test_the_corpus_cuts_passages_at_reader_sentence_ends(
    corpus: tuple[ec.Truth, dict[str, str]],
) -> None:
    truth, texts = corpus
    for case in truth.cases:
        source = texts[case.source]
        starts = {a for a, _ in ec.reader_sentences(source)}
        ends = {b for _, b in ec.reader_sentences(source)}
        assert case.source_span[0] in starts and case.source_span[1] in ends
        original = source[slice(*case.source_span)]
        assert len(ec.reader_sentences(original)) == case.sentences


# --------------------------------------------------------------------------- hard negatives


def eight_word_runs(text: str) -> set[tuple[str, ...]]:
    words = re.findall(r"\w+", text.casefold())
    return {tuple(words[k : k + 8]) for k in range(len(words) - 7)}


def test_hard_negatives_come_from_the_source_novels_and_share_no_text(
    corpus: tuple[ec.Truth, dict[str, str]],
) -> None:
    truth, texts = corpus
    hard = [d for d in truth.documents if d.role == "hard"]
    assert len(hard) == CONFIG.hard_negatives
    sources = [d for d in truth.documents if d.role == "source"]
    source_runs = set().union(*(eight_word_runs(texts[d.name]) for d in sources))
    for doc in hard:
        assert doc.novel in truth.novels["source"] and doc.split == "test"
        text = texts[doc.name]
        assert CONFIG.own_words[0] <= doc.words == len(text.split())
        assert not eight_word_runs(text) & source_runs
    # same novels as the sources they are compared with
    assert {d.novel for d in hard} <= {d.novel for d in sources}


@pytest.mark.skipif(not novels(), reason="the shared Gutenberg corpus is absent")
def test_hard_negatives_of_the_real_novels_hold_no_source_paragraph(tmp_path: Path) -> None:
    config = ec.CorpusConfig(sources=20, suspicious=8, hard_negatives=12)
    truth = ec.generate(novels(), tmp_path / "corpus", config)
    texts = ec.read_texts(tmp_path / "corpus")
    source_paragraphs = {
        p for d in truth.documents if d.role == "source" for p in texts[d.name].split("\n\n")
    }
    hard = [d for d in truth.documents if d.role == "hard"]
    assert len(hard) == 12
    for doc in hard:
        assert doc.novel in truth.novels["source"]
        paragraphs = texts[doc.name].split("\n\n")
        assert not [p for p in paragraphs if len(p.split()) >= 8 and p in source_paragraphs]

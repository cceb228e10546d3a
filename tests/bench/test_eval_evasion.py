"""The evasion tricks of the evaluation (bench/eval_evasion.py): each changes what a machine
reads and not what a reader sees, and Doppel's normalisation undoes each exactly."""

from __future__ import annotations

import re
import sys
import unicodedata
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import eval_evasion as ee  # noqa: E402

from core.documents.document import document_from_text  # noqa: E402
from core.documents.normalize import normalize_text, normalize_with_report  # noqa: E402

TEXT = normalize_text(
    "The old mill stood by the river. Nobody had worked it for years, and the wheel was "
    'still. "It will rise again," said Marta. Her brother laughed at that.\n\n'
    "By the fourth morning the road to the market town was closed. The baker's cart turned "
    "back at the ford."
)


@pytest.mark.parametrize("trick", list(ee.TRICKS))
def test_each_trick_changes_the_text_and_is_undone(trick: str) -> None:
    disguised = ee.TRICKS[trick](TEXT)
    assert disguised != TEXT
    out, tampering = normalize_with_report(disguised)
    assert out == TEXT
    assert tampering and all(t.count > 0 for t in tampering)


def test_lookalikes_change_only_letters_with_a_cyrillic_twin() -> None:
    disguised = ee.in_every_word(TEXT)
    assert len(disguised) == len(TEXT)
    for plain, changed in zip(TEXT, disguised, strict=True):
        if plain != changed:
            assert ee.CYRILLIC[plain] == changed
            assert unicodedata.name(changed).startswith("CYRILLIC")


def test_first_words_only_changes_the_first_word_of_each_sentence() -> None:
    disguised = ee.in_first_words(TEXT)
    changed = [
        (plain, word)
        for word, plain in zip(disguised.split(), TEXT.split(), strict=True)
        if word != plain
    ]
    firsts = ["The", "Nobody", '"It', "Her", "By", "The"]
    assert changed == [(w, ee.lookalikes(w)) for w in firsts]


def test_invisible_characters_go_inside_words_in_turn() -> None:
    disguised = ee.invisible_inside_words(TEXT)
    inserted = [c for c in disguised if c not in TEXT]
    assert set(inserted) == set(ee.INVISIBLES)
    assert len(inserted) == sum(len(w) >= 2 for w in re.findall(r"[A-Za-z]+", TEXT))
    assert "".join(c for c in disguised if c not in ee.INVISIBLES) == TEXT


def test_full_stops_are_replaced_at_sentence_ends_only() -> None:
    disguised = ee.foreign_full_stops(TEXT)
    assert "." not in disguised.replace("...", "")
    assert sum(disguised.count(stop) for stop in ee.FULL_STOPS) == TEXT.count(".")


def test_before_undoing_the_disguises_the_text_is_left_as_it_was() -> None:
    disguised = ee.in_every_word(TEXT)
    with ee.disguises_left():
        before = document_from_text(disguised, "copy")
    assert before.text == disguised and before.tampering == ()
    after = document_from_text(disguised, "copy")
    assert after.text == TEXT and after.tampering

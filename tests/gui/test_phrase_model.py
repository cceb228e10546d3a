"""The shared-phrases table model and its proxy, without a window: named columns, the phrase
under a custom role, numbers to sort by, and a filter by words that ignores case and
punctuation."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester

from app.gui.models.phrase_model import (
    PHRASE_ROLE,
    SORT_ROLE,
    PhraseFilterProxy,
    SharedPhraseModel,
)
from app.gui.models.row_model import RIGHT_ALIGNED
from core.shared_words import SharedPhrase

LONG = SharedPhrase(("x",) * 5, ((0, 9), (20, 29)), ((3, 12),), "X x x x x")
NEWS = SharedPhrase(
    ("read", "the", "news", "or", "download"),
    ((0, 30),),
    ((0, 30), (40, 70)),
    "read the News, or download",
)
SHORT = SharedPhrase(("a", "b", "c"), ((0, 5),), ((0, 5), (9, 14), (20, 25)), "A b c")


@pytest.fixture
def model(qapp) -> SharedPhraseModel:
    model = SharedPhraseModel()
    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    model.set_phrases([LONG, NEWS, SHORT])
    return model


def column(model, col: int, role: int = Qt.ItemDataRole.DisplayRole) -> list[object]:
    return [model.index(row, col).data(role) for row in range(model.rowCount())]


def test_one_row_per_phrase_in_the_engines_order(model: SharedPhraseModel) -> None:
    assert model.rowCount() == 3 and model.columnCount() == len(SharedPhraseModel.HEADERS) == 4
    assert model.phrases() == (LONG, NEWS, SHORT)
    assert model.phrase(1) is NEWS
    assert column(model, SharedPhraseModel.COL_PHRASE) == [p.quote for p in (LONG, NEWS, SHORT)]
    assert column(model, SharedPhraseModel.COL_PHRASE, PHRASE_ROLE) == [LONG, NEWS, SHORT]


def test_the_numbers_are_shown_right_aligned_and_sorted_as_numbers(
    model: SharedPhraseModel,
) -> None:
    assert column(model, SharedPhraseModel.COL_WORDS) == ["5", "5", "3"]
    assert column(model, SharedPhraseModel.COL_WORDS, SORT_ROLE) == [5, 5, 3]
    assert column(model, SharedPhraseModel.COL_IN_A, SORT_ROLE) == [2, 1, 1]
    assert column(model, SharedPhraseModel.COL_IN_B) == ["1", "2", "3"]
    assert column(model, SharedPhraseModel.COL_PHRASE, SORT_ROLE) == [
        p.text for p in model.phrases()
    ]
    alignment = Qt.ItemDataRole.TextAlignmentRole
    assert column(model, SharedPhraseModel.COL_IN_B, alignment) == [RIGHT_ALIGNED] * 3
    assert column(model, SharedPhraseModel.COL_PHRASE, alignment) == [None] * 3


def test_headers_name_and_explain_each_column(model: SharedPhraseModel) -> None:
    horizontal = Qt.Orientation.Horizontal
    assert [model.headerData(c, horizontal) for c in range(4)] == [
        "Phrase",
        "Words",
        "In A",
        "In B",
    ]
    tip = model.headerData(SharedPhraseModel.COL_IN_A, horizontal, Qt.ItemDataRole.ToolTipRole)
    assert tip == "How many times it occurs in document A"
    assert model.headerData(0, Qt.Orientation.Vertical) is None


def test_the_proxy_sorts_by_number_and_filters_by_words(model: SharedPhraseModel) -> None:
    proxy = PhraseFilterProxy()
    proxy.setSourceModel(model)
    proxy.sort(SharedPhraseModel.COL_IN_B, Qt.SortOrder.DescendingOrder)
    assert [proxy.phrase(r) for r in range(proxy.rowCount())] == [SHORT, NEWS, LONG]
    proxy.set_filter_text("NEWS,   or")  # case and punctuation ignored
    assert proxy.filtering() and [proxy.phrase(r) for r in range(proxy.rowCount())] == [NEWS]
    proxy.set_filter_text("nothing like it")
    assert proxy.rowCount() == 0
    proxy.set_filter_text("")
    assert not proxy.filtering() and proxy.rowCount() == 3


def test_a_new_list_replaces_the_rows(model: SharedPhraseModel) -> None:
    model.set_phrases([SHORT])
    assert model.rowCount() == 1 and model.phrase(0) is SHORT
    model.set_phrases([])
    assert model.rowCount() == 0

"""The block table model and its filter proxy, without a window, on the bundled samples."""

from __future__ import annotations

from functools import cache

import pytest
from PySide6.QtCore import (
    QMessageLogContext,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    qInstallMessageHandler,
)
from PySide6.QtGui import QColor, QIcon
from PySide6.QtTest import QAbstractItemModelTester

from app.gui.compare.colours import swatch_colour
from app.gui.models.block_model import (
    BLOCK_ROLE,
    INDEX_ROLE,
    SORT_ROLE,
    BlockFilterProxy,
    BlockTableModel,
    StateFilter,
)
from core.comparison import Comparison, compare_documents
from core.detection.verification import BlockState
from core.documents.document import document_from_text
from core.options import SignatureOptions
from core.resources import resource_path

DISPLAY = Qt.ItemDataRole.DisplayRole


@cache
def samples() -> Comparison:
    options = SignatureOptions(language="en")
    folder = resource_path("samples")
    a = document_from_text((folder / "original-essay.txt").read_text("utf-8"), "original", options)
    b = document_from_text((folder / "reworded-copy.txt").read_text("utf-8"), "copy", options)
    return compare_documents(a, b)


@pytest.fixture
def model(qapp) -> BlockTableModel:
    model = BlockTableModel()
    model.set_comparison(samples())
    return model


@pytest.fixture
def proxy(model: BlockTableModel) -> BlockFilterProxy:
    proxy = BlockFilterProxy()
    proxy.setSourceModel(model)
    return proxy


def column(model, col: int, role: int = DISPLAY) -> list[object]:
    return [model.index(row, col).data(role) for row in range(model.rowCount())]


def test_samples_hold_every_state() -> None:
    # the tests below rely on the samples giving 1 discarded, 2 split and 1 verified block
    states = [b.state for b in samples().blocks]
    assert states == [
        BlockState.DISCARDED,
        BlockState.SPLIT,
        BlockState.SPLIT,
        BlockState.VERIFIED,
    ]


def test_one_row_per_listed_block(model: BlockTableModel) -> None:
    assert model.rowCount() == len(samples().blocks) == 4
    assert model.columnCount() == len(BlockTableModel.HEADERS)
    assert model.rowCount(model.index(0, 0)) == 0  # a table: no children
    assert model.headerData(BlockTableModel.COL_STATE, Qt.Orientation.Horizontal) == "State"
    assert model.headerData(
        BlockTableModel.COL_A, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole
    )


def test_empty_without_comparison(qapp) -> None:
    model = BlockTableModel()
    assert model.rowCount() == 0
    model.set_comparison(samples())
    model.set_comparison(None)
    assert model.rowCount() == 0


def test_display_values_are_what_a_teacher_reads(model: BlockTableModel) -> None:
    comparison = samples()
    assert column(model, BlockTableModel.COL_NUMBER) == ["1", "2", "3", "4"]
    assert column(model, BlockTableModel.COL_STATE) == ["Discarded", "Split", "Split", "Verified"]
    # raw block (3, 1, 9): signature positions 3..11 are sentences 4..12 (nothing too long)
    assert column(model, BlockTableModel.COL_A)[1] == "4–12"
    assert column(model, BlockTableModel.COL_B)[1] == "2–10"
    assert column(model, BlockTableModel.COL_LENGTH) == ["3", "9", "5", "3"]
    assert column(model, BlockTableModel.COL_KEPT) == ["0", "7", "2", "3"]
    first = comparison.a.sentences[comparison.blocks[3].raw.a_start]
    words = comparison.a.text[first.start : first.end].split()
    assert column(model, BlockTableModel.COL_WORDS)[3].startswith(" ".join(words[:5]))


def test_custom_roles_give_the_block_and_its_index(model: BlockTableModel) -> None:
    comparison = samples()
    for row, block in enumerate(comparison.blocks):
        for col in range(len(BlockTableModel.HEADERS)):
            assert model.index(row, col).data(BLOCK_ROLE) is block
            assert model.index(row, col).data(INDEX_ROLE) == row
        tip = model.index(row, BlockTableModel.COL_STATE).data(Qt.ItemDataRole.ToolTipRole)
        assert block.reason in tip


def test_sort_role_is_numeric(model: BlockTableModel) -> None:
    comparison = samples()
    assert column(model, BlockTableModel.COL_A, SORT_ROLE) == [
        b.raw.a_start for b in comparison.blocks
    ]
    assert column(model, BlockTableModel.COL_LENGTH, SORT_ROLE) == [3, 9, 5, 3]
    assert column(model, BlockTableModel.COL_KEPT, SORT_ROLE) == [0, 7, 2, 3]
    assert column(model, BlockTableModel.COL_STATE, SORT_ROLE) == [2, 1, 1, 0]


def test_decoration_is_the_block_colour(model: BlockTableModel) -> None:
    swatches = column(model, BlockTableModel.COL_NUMBER, Qt.ItemDataRole.DecorationRole)
    assert isinstance(swatches[0], QIcon)  # discarded: hatched, no colour of its own
    # kept blocks take the palette in A order
    assert swatches[1:] == [swatch_colour(0), swatch_colour(1), swatch_colour(2)]
    assert all(isinstance(s, QColor) for s in swatches[1:])
    assert model.index(1, BlockTableModel.COL_STATE).data(Qt.ItemDataRole.DecorationRole) is None


def test_sorting_is_numeric_not_textual(proxy: BlockFilterProxy) -> None:
    # as text "13–17" < "1–3" < "22–24" < "4–12"; as numbers the engine's order
    proxy.sort(BlockTableModel.COL_A, Qt.SortOrder.DescendingOrder)
    assert column(proxy, BlockTableModel.COL_A) == ["22–24", "13–17", "4–12", "1–3"]
    proxy.sort(BlockTableModel.COL_A, Qt.SortOrder.AscendingOrder)
    assert column(proxy, BlockTableModel.COL_A) == ["1–3", "4–12", "13–17", "22–24"]


def test_sorting_keeps_ties_in_engine_order(proxy: BlockFilterProxy) -> None:
    proxy.sort(BlockTableModel.COL_LENGTH, Qt.SortOrder.DescendingOrder)
    assert column(proxy, BlockTableModel.COL_LENGTH) == ["9", "5", "3", "3"]
    assert column(proxy, BlockTableModel.COL_NUMBER) == ["2", "3", "1", "4"]
    assert column(proxy, BlockTableModel.COL_NUMBER, INDEX_ROLE) == [1, 2, 0, 3]
    proxy.sort(BlockTableModel.COL_STATE)
    assert column(proxy, BlockTableModel.COL_STATE) == ["Verified", "Split", "Split", "Discarded"]


def test_block_rows_survive_sorting(model: BlockTableModel, proxy: BlockFilterProxy) -> None:
    proxy.sort(BlockTableModel.COL_LENGTH, Qt.SortOrder.DescendingOrder)
    for index in range(4):
        row = proxy.proxy_row(index)
        assert proxy.block_index(row) == index
        assert proxy.index(row, 0).data(BLOCK_ROLE) is samples().blocks[index]
        assert model.block(model.row_of(index)) is samples().blocks[index]


@pytest.mark.parametrize(
    ("state", "hide", "expected"),
    [
        (StateFilter.ALL, False, ["Discarded", "Split", "Split", "Verified"]),
        (StateFilter.VERIFIED, False, ["Verified"]),
        (StateFilter.SPLIT, False, ["Split", "Split"]),
        (StateFilter.DISCARDED, False, ["Discarded"]),
        (StateFilter.ALL, True, ["Split", "Split", "Verified"]),
        (StateFilter.DISCARDED, True, []),
    ],
)
def test_filter_by_state_and_hide_discarded(
    proxy: BlockFilterProxy, state: StateFilter, hide: bool, expected: list[str]
) -> None:
    proxy.set_state_filter(state)
    proxy.set_hide_discarded(hide)
    assert column(proxy, BlockTableModel.COL_STATE) == expected
    shown = {proxy.block_index(r) for r in range(proxy.rowCount())}
    assert {i for i in range(4) if proxy.proxy_row(i) >= 0} == shown


def test_filter_can_be_lifted(proxy: BlockFilterProxy) -> None:
    proxy.set_hide_discarded(True)
    proxy.set_state_filter(StateFilter.SPLIT)
    proxy.set_hide_discarded(False)
    proxy.set_state_filter(StateFilter.ALL)
    assert proxy.rowCount() == 4


def test_model_and_proxy_pass_qt_model_tester(qapp) -> None:
    failures: list[str] = []

    def record(_mode: object, context: QMessageLogContext, message: str) -> None:
        if context.category == "qt.modeltest":  # the tester's Warning-mode reports
            failures.append(message)

    previous = qInstallMessageHandler(record)
    try:
        model = BlockTableModel()
        proxy = BlockFilterProxy()
        proxy.setSourceModel(model)
        mode = QAbstractItemModelTester.FailureReportingMode.Warning
        testers = [QAbstractItemModelTester(model, mode), QAbstractItemModelTester(proxy, mode)]
        model.set_comparison(samples())
        held = QPersistentModelIndex(proxy.index(1, 0))  # block 2, held through sorting
        proxy.sort(BlockTableModel.COL_LENGTH, Qt.SortOrder.DescendingOrder)
        assert held.data(INDEX_ROLE) == 1
        proxy.set_state_filter(StateFilter.SPLIT)
        proxy.set_hide_discarded(True)
        proxy.set_state_filter(StateFilter.ALL)
        proxy.sort(BlockTableModel.COL_WORDS)
        proxy.sort(-1)
        model.set_comparison(None)
        model.set_comparison(samples())
        assert model.index(0, 0, QModelIndex()).isValid()
    finally:
        qInstallMessageHandler(previous)
    assert failures == []
    assert len(testers) == 2


def test_pytest_qt_model_tester(qtmodeltester, model: BlockTableModel) -> None:
    qtmodeltester.check(model, force_py=True)

"""The block table model (blocks and reworded passages) and its filter proxy, without a window,
on the bundled samples."""

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
from PySide6.QtGui import QIcon
from PySide6.QtTest import QAbstractItemModelTester

from app.gui.compare.colours import swatch_colour
from app.gui.compare.marks import prepare_view, reworded_line
from app.gui.models.block_model import (
    BLOCK_ROLE,
    INDEX_ROLE,
    SORT_ROLE,
    BlockFilterProxy,
    BlockTableModel,
    StateFilter,
)
from core.comparison import Comparison, compare_documents
from core.detection.passages import Passage
from core.detection.verification import BlockState
from core.documents.document import document_from_text
from core.options import MatchOptions, SignatureOptions
from core.reports.wording import percent
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
    """A proxy listing everything (the tests here are about every row, discarded included)."""
    proxy = BlockFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_state_filter(StateFilter.ALL)
    return proxy


def column(model, col: int, role: int = DISPLAY) -> list[object]:
    return [model.index(row, col).data(role) for row in range(model.rowCount())]


def test_samples_hold_every_state() -> None:
    # the tests below rely on the samples giving 1 discarded, 2 split and 1 verified block,
    # and two reworded passages beside them
    states = [b.state for b in samples().blocks]
    assert states == [
        BlockState.DISCARDED,
        BlockState.SPLIT,
        BlockState.SPLIT,
        BlockState.VERIFIED,
    ]
    assert len(samples().reworded_passages) == 2


def test_one_row_per_listed_block_and_reworded_passage(model: BlockTableModel) -> None:
    assert model.rowCount() == len(samples().blocks) + len(samples().reworded_passages) == 6
    assert model.columnCount() == len(BlockTableModel.HEADERS)
    assert model.rowCount(model.index(0, 0)) == 0  # a table: no children
    assert model.headerData(BlockTableModel.COL_STATE, Qt.Orientation.Horizontal) == "State"
    assert model.headerData(BlockTableModel.COL_KIND, Qt.Orientation.Horizontal) == "Kind"
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
    # in reading order along A: the reworded passages between the blocks, numbered R1, R2
    assert column(model, BlockTableModel.COL_NUMBER) == ["1", "2", "3", "R1", "4", "R2"]
    assert column(model, BlockTableModel.COL_KIND) == [
        "—",
        "word for word",
        "word for word",
        "edited",
        "word for word",
        "edited",
    ]
    assert column(model, BlockTableModel.COL_STATE) == [
        "Discarded",
        "Split",
        "Split",
        "Reworded",
        "Verified",
        "Reworded",
    ]
    # raw block (3, 1, 9): signature positions 3..11 are sentences 4..12 (nothing too long)
    assert column(model, BlockTableModel.COL_A)[1] == "4–12"
    assert column(model, BlockTableModel.COL_B)[1] == "2–10"
    first, second = comparison.reworded_passages
    assert column(model, BlockTableModel.COL_A)[3] == (
        f"{first.a_sentences[0] + 1}–{first.a_sentences[1]}"
    )
    assert column(model, BlockTableModel.COL_B)[5] == str(second.b_sentences[0] + 1)
    length = first.a_sentences[1] - first.a_sentences[0]
    assert column(model, BlockTableModel.COL_LENGTH) == ["3", "9", "5", str(length), "3", "1"]
    assert column(model, BlockTableModel.COL_KEPT) == ["0", "7", "2", str(length), "3", "1"]
    # shared words and similarity: the engine's passages (a block: its kept pieces together)
    shared = column(model, BlockTableModel.COL_SHARED)
    assert shared[0] == "—" and shared[3] == str(first.changes.same)
    assert column(model, BlockTableModel.COL_SIMILARITY)[3] == percent(first.similarity)
    assert column(model, BlockTableModel.COL_SIMILARITY)[4] == "100%"
    block = comparison.blocks[3]
    first_a = comparison.a.sentences[block.raw.a_start]
    words = comparison.a.text[first_a.start : first_a.end].split()
    assert column(model, BlockTableModel.COL_WORDS)[4].startswith(" ".join(words[:5]))
    opening = comparison.a.sentences[first.a_sentences[0]]
    words = comparison.a.text[opening.start : opening.end].split()
    assert column(model, BlockTableModel.COL_WORDS)[3].startswith(" ".join(words[:5]))


def test_custom_roles_give_the_item_and_its_number(model: BlockTableModel) -> None:
    comparison = samples()
    items = (*comparison.blocks, *comparison.reworded_passages)
    for number, item in enumerate(items):
        row = model.row_of(number)
        for col in range(len(BlockTableModel.HEADERS)):
            assert model.index(row, col).data(BLOCK_ROLE) is item
            assert model.index(row, col).data(INDEX_ROLE) == number
        tip = model.index(row, BlockTableModel.COL_STATE).data(Qt.ItemDataRole.ToolTipRole)
        if isinstance(item, Passage):
            assert tip == reworded_line(item)
            assert tip.startswith("Reworded passage (edited) — ")
        else:
            assert item.reason in tip


def test_sort_role_is_numeric(model: BlockTableModel) -> None:
    comparison = samples()
    blocks = [b.raw.a_start for b in comparison.blocks]  # (no sentence is too long)
    first, second = (p.a_sentences[0] for p in comparison.reworded_passages)
    assert column(model, BlockTableModel.COL_A, SORT_ROLE) == [
        blocks[0],
        blocks[1],
        blocks[2],
        first,
        blocks[3],
        second,
    ]
    length = comparison.reworded_passages[0].a_sentences[1] - first
    assert column(model, BlockTableModel.COL_LENGTH, SORT_ROLE) == [3, 9, 5, length, 3, 1]
    assert column(model, BlockTableModel.COL_KEPT, SORT_ROLE) == [0, 7, 2, length, 3, 1]
    assert column(model, BlockTableModel.COL_STATE, SORT_ROLE) == [3, 1, 1, 2, 0, 2]
    assert column(model, BlockTableModel.COL_NUMBER, SORT_ROLE) == list(range(6))


def test_decoration_is_the_block_colour_or_the_reworded_sign(model: BlockTableModel) -> None:
    swatches = column(model, BlockTableModel.COL_NUMBER, Qt.ItemDataRole.DecorationRole)
    assert isinstance(swatches[0], QIcon)  # discarded: hatched, no colour of its own
    # kept blocks take the palette in A order
    assert [swatches[1], swatches[2], swatches[4]] == [
        swatch_colour(0),
        swatch_colour(1),
        swatch_colour(2),
    ]
    # reworded passages: their own sign, one for all, unlike the discarded one
    assert isinstance(swatches[3], QIcon) and isinstance(swatches[5], QIcon)
    assert swatches[3].cacheKey() == swatches[5].cacheKey() != swatches[0].cacheKey()
    assert model.index(1, BlockTableModel.COL_STATE).data(Qt.ItemDataRole.DecorationRole) is None


def test_sorting_is_numeric_not_textual(proxy: BlockFilterProxy) -> None:
    # as text "13–17" < "16–19" < "1–3" < "22–24" < "27" < "4–12"; as numbers, in A order
    proxy.sort(BlockTableModel.COL_A, Qt.SortOrder.DescendingOrder)
    assert column(proxy, BlockTableModel.COL_A) == ["27", "22–24", "16–19", "13–17", "4–12", "1–3"]
    proxy.sort(BlockTableModel.COL_A, Qt.SortOrder.AscendingOrder)
    assert column(proxy, BlockTableModel.COL_A) == ["1–3", "4–12", "13–17", "16–19", "22–24", "27"]


def test_sorting_keeps_ties_in_reading_order(proxy: BlockFilterProxy) -> None:
    proxy.sort(BlockTableModel.COL_LENGTH, Qt.SortOrder.DescendingOrder)
    assert column(proxy, BlockTableModel.COL_LENGTH) == ["9", "5", "4", "3", "3", "1"]
    assert column(proxy, BlockTableModel.COL_NUMBER) == ["2", "3", "R1", "1", "4", "R2"]
    assert column(proxy, BlockTableModel.COL_NUMBER, INDEX_ROLE) == [1, 2, 4, 0, 3, 5]
    proxy.sort(BlockTableModel.COL_STATE)
    assert column(proxy, BlockTableModel.COL_STATE) == [
        "Verified",
        "Split",
        "Split",
        "Reworded",
        "Reworded",
        "Discarded",
    ]
    proxy.sort(BlockTableModel.COL_KIND)
    assert column(proxy, BlockTableModel.COL_KIND) == [
        "word for word",
        "word for word",
        "word for word",
        "edited",
        "edited",
        "—",
    ]


def test_rows_survive_sorting(model: BlockTableModel, proxy: BlockFilterProxy) -> None:
    proxy.sort(BlockTableModel.COL_LENGTH, Qt.SortOrder.DescendingOrder)
    items = (*samples().blocks, *samples().reworded_passages)
    for index, item in enumerate(items):
        row = proxy.proxy_row(index)
        assert proxy.block_index(row) == index
        assert proxy.index(row, 0).data(BLOCK_ROLE) is item
        assert model.block(model.row_of(index)) is item


@pytest.mark.parametrize(
    ("state", "hide", "expected"),
    [
        (
            StateFilter.ALL,
            False,
            ["Discarded", "Split", "Split", "Reworded", "Verified", "Reworded"],
        ),
        (StateFilter.VERIFIED, False, ["Verified"]),
        (StateFilter.SPLIT, False, ["Split", "Split"]),
        (StateFilter.REWORDED, False, ["Reworded", "Reworded"]),
        (StateFilter.DISCARDED, False, ["Discarded"]),
        (StateFilter.ALL, True, ["Split", "Split", "Reworded", "Verified", "Reworded"]),
        (StateFilter.REWORDED, True, ["Reworded", "Reworded"]),
        (StateFilter.DISCARDED, True, ["Discarded"]),  # asked for: listed though hidden
        (StateFilter.COPIED, False, ["Split", "Split", "Reworded", "Verified", "Reworded"]),
        (StateFilter.COPIED, True, ["Split", "Split", "Reworded", "Verified", "Reworded"]),
    ],
)
def test_filter_by_state_and_hide_discarded(
    proxy: BlockFilterProxy, state: StateFilter, hide: bool, expected: list[str]
) -> None:
    proxy.set_state_filter(state)
    proxy.set_hide_discarded(hide)
    assert column(proxy, BlockTableModel.COL_STATE) == expected
    shown = {proxy.block_index(r) for r in range(proxy.rowCount())}
    assert {i for i in range(6) if proxy.proxy_row(i) >= 0} == shown


def test_filter_can_be_lifted(proxy: BlockFilterProxy) -> None:
    proxy.set_hide_discarded(True)
    proxy.set_state_filter(StateFilter.SPLIT)
    proxy.set_hide_discarded(False)
    proxy.set_state_filter(StateFilter.ALL)
    assert proxy.rowCount() == 6


def test_strict_comparison_lists_the_blocks_alone(qapp) -> None:
    comparison = samples()
    strict = compare_documents(comparison.a, comparison.b, MatchOptions(reworded=False))
    model = BlockTableModel()
    model.set_comparison(strict)
    assert model.rowCount() == len(strict.blocks) == 4
    assert "edited" not in column(model, BlockTableModel.COL_KIND)


def test_the_prepared_view_gives_the_same_rows(qapp, model: BlockTableModel) -> None:
    comparison = samples()
    prepared = BlockTableModel()
    prepared.set_comparison(comparison, prepare_view(comparison))
    for col in range(len(BlockTableModel.HEADERS)):
        assert column(prepared, col) == column(model, col)


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
        proxy.set_state_filter(StateFilter.ALL)
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


def test_the_default_lists_every_passage_with_copied_text_and_no_discarded_block(
    model: BlockTableModel,
) -> None:
    proxy = BlockFilterProxy()
    proxy.setSourceModel(model)
    assert proxy.state_filter() is StateFilter.COPIED
    assert column(proxy, BlockTableModel.COL_STATE) == [
        "Split",
        "Split",
        "Reworded",
        "Verified",
        "Reworded",
    ]


def test_the_proxy_numbers_what_it_lists_without_gaps(qtbot, model: BlockTableModel) -> None:
    proxy = BlockFilterProxy()
    proxy.setSourceModel(model)
    # the discarded block is first along A: under the default filter the rest count from 1
    assert column(proxy, BlockTableModel.COL_NUMBER) == ["1", "2", "R1", "3", "R2"]
    assert column(model, BlockTableModel.COL_NUMBER) == ["1", "2", "3", "R1", "4", "R2"]
    numbers = dict(
        zip(column(proxy, 0, INDEX_ROLE), column(proxy, BlockTableModel.COL_NUMBER), strict=True)
    )
    assert numbers == proxy.numbering().labels
    proxy.sort(BlockTableModel.COL_LENGTH, Qt.SortOrder.DescendingOrder)  # numbers stay put
    assert (
        dict(
            zip(
                column(proxy, 0, INDEX_ROLE), column(proxy, BlockTableModel.COL_NUMBER), strict=True
            )
        )
        == numbers
    )
    with qtbot.waitSignal(proxy.numbering_changed):
        proxy.set_state_filter(StateFilter.VERIFIED)
    assert column(proxy, BlockTableModel.COL_NUMBER) == ["1"]
    with qtbot.waitSignal(proxy.numbering_changed):
        model.set_comparison(None)
    assert proxy.numbering().labels == {}


def test_a_split_rows_tooltip_says_sentences_start_differently_never_reworded(
    model: BlockTableModel,
) -> None:
    for row in range(model.rowCount()):
        item = model.index(row, 0).data(BLOCK_ROLE)
        if isinstance(item, Passage) or item.state is not BlockState.SPLIT:
            continue
        tip = model.index(row, BlockTableModel.COL_STATE).data(Qt.ItemDataRole.ToolTipRole)
        assert "start differently" in tip
        assert "reword" not in tip.lower() and "edited" not in tip.lower()

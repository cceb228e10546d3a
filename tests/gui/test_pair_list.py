"""The ranked pair table: a real model, values for display and for sorting."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester

from app.gui.models.pair_list import PAIR_ROLE, SORT_ROLE, PairTableModel
from app.gui.session import RankedPair
from core.comparison import compare_documents
from core.documents.document import load_document
from core.options import SignatureOptions
from core.reports.wording import percent
from core.resources import resource_path


def test_pairs_show_names_shares_and_passages_and_sort_by_number(qapp) -> None:
    options = SignatureOptions(language="en")
    names = ("original-essay.txt", "reworded-copy.txt", "unrelated-essay.txt")
    a, b, c = (load_document(resource_path("samples", n), options) for n in names)
    pairs = [RankedPair(compare_documents(a, b)), RankedPair(compare_documents(a, c))]
    model = PairTableModel()
    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    model.set_pairs(pairs)
    assert model.rowCount() == 2 and model.columnCount() == len(PairTableModel.HEADERS)
    copy = pairs[0].comparison
    first = model.index(0, PairTableModel.COL_JACCARD)
    assert model.data(first) == percent(copy.jaccard)
    assert model.data(first, SORT_ROLE) == copy.jaccard
    # the larger copied share, the passages of each kind
    copied = model.index(0, PairTableModel.COL_COPIED)
    assert model.data(copied) == percent(max(copy.copied_a, copy.copied_b)) == "70.8%"
    assert model.data(copied, SORT_ROLE) == max(copy.copied_a, copy.copied_b)
    assert model.data(model.index(0, PairTableModel.COL_BLOCKS)) == 4
    assert model.data(model.index(0, PairTableModel.COL_REWORDED)) == 2
    # the verdict and both shares, said in full
    tip = model.data(copied, Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith(
        "Copied text found: 63.0% of original-essay.txt is found in reworded-copy.txt, "
        "70.8% of reworded-copy.txt is found in original-essay.txt; "
        "6 passages: 4 word for word, 2 edited"
    )
    assert model.data(model.index(1, PairTableModel.COL_B)) == "unrelated-essay.txt"
    assert model.data(model.index(1, 0), Qt.ItemDataRole.ToolTipRole).startswith(
        "No copied text found"
    )
    assert model.data(first, PAIR_ROLE) is pairs[0]
    assert model.headerData(0, Qt.Orientation.Horizontal) == "Document A"
    assert model.headerData(PairTableModel.COL_COPIED, Qt.Orientation.Horizontal) == "Copied"


def test_both_shares_lead_and_each_documents_strongest_pair_says_so(qapp) -> None:
    options = SignatureOptions(language="en")
    names = ("original-essay.txt", "reworded-copy.txt", "original-essay.docx")
    a, b, c = (load_document(resource_path("samples", n), options) for n in names)
    copy, same = compare_documents(a, b), compare_documents(a, c)
    model = PairTableModel()
    model.set_pairs([RankedPair(same), RankedPair(copy)])
    assert model.headerData(PairTableModel.COL_JACCARD, Qt.Orientation.Horizontal) == (
        "Jaccard (paper)"
    )
    row = {
        model.headerData(col, Qt.Orientation.Horizontal): model.data(model.index(1, col))
        for col in range(model.columnCount())
    }
    assert (row["A in B"], row["B in A"]) == (percent(copy.copied_a), percent(copy.copied_b))
    assert model.data(model.index(1, PairTableModel.COL_COPIED_B), SORT_ROLE) == copy.copied_b
    # the essay is found whole in its .docx twin: that pair is the most of it found elsewhere;
    # the copy's most found elsewhere is in the original
    same_tip = model.data(model.index(0, 0), Qt.ItemDataRole.ToolTipRole)
    copy_tip = model.data(model.index(1, 0), Qt.ItemDataRole.ToolTipRole)
    assert "The most of original-essay.txt found in another document: 100% (this pair)" in same_tip
    assert "The most of original-essay.txt found" not in copy_tip
    assert "The most of reworded-copy.txt found in another document: 70.8% (this pair)" in (
        copy_tip
    )

"""The shared shape of the app's tables: one item per row, named columns, custom roles.

A model subclasses `RowTableModel[Item]`, names its columns as class constants (`COL_…`), lists
their titles in HEADERS (and, optionally, what each means in HEADER_TIPS), marks the columns of
numbers in NUMERIC_COLUMNS (their cells right-aligned, through `alignment`), and answers `data`
for a row's item. Roles for the underlying objects and for sorting are module constants beside
it (`…_ROLE = Qt.ItemDataRole.UserRole + n`), so proxies, views and tests read one name.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Generic, TypeVar

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

ModelIndex = QModelIndex | QPersistentModelIndex
Item = TypeVar("Item")

#: how numbers sit in their cells
RIGHT_ALIGNED = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


class RowTableModel(QAbstractTableModel, Generic[Item]):
    """A table of `self._items`, one per row, with the columns named in HEADERS."""

    HEADERS: tuple[str, ...] = ()
    HEADER_TIPS: tuple[str, ...] = ()  # a tooltip per column ("" for none), or none at all
    NUMERIC_COLUMNS: frozenset[int] = frozenset()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._items: list[Item] = []

    def set_items(self, items: Iterable[Item]) -> None:
        """Show these items, one per row (a model reset)."""
        self.beginResetModel()
        self._items = list(items)
        self.endResetModel()

    def item(self, row: int) -> Item:
        """The item shown in `row`."""
        return self._items[row]

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._items)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation is not Qt.Orientation.Horizontal or not 0 <= section < len(self.HEADERS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        if role == Qt.ItemDataRole.ToolTipRole and section < len(self.HEADER_TIPS):
            return self.HEADER_TIPS[section] or None
        return None  # (headers keep the table's alignment: the sort arrow sits at the right)

    def alignment(self, column: int) -> int | None:
        """The TextAlignmentRole answer of a cell in `column` (for `data`)."""
        return RIGHT_ALIGNED if column in self.NUMERIC_COLUMNS else None


def setup_result_table(table: QTableView, model: QAbstractItemModel) -> QHeaderView:
    """The look of the comparison view's result tables (blocks, shared phrases): whole rows,
    one at a time, read-only, sortable, striped, compact rows without a grid; returns the
    header for the table's own column sizes."""
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSortingEnabled(True)
    table.setAlternatingRowColors(True)
    table.setWordWrap(False)
    table.setShowGrid(False)
    table.verticalHeader().hide()
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 10)
    header = table.horizontalHeader()
    header.setHighlightSections(False)
    header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    return header

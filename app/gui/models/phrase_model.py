"""The table of the phrases two documents share: a model with one row per phrase (longest
first, as the engine lists them) and the proxy that sorts them and filters them by words.

The list is `core.shared_words.shared_phrases`'s; PHRASE_ROLE gives a row's SharedPhrase and
SORT_ROLE the number (or folded text) its column sorts by.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel, Qt

from app.gui.models.row_model import ModelIndex, RowTableModel
from core.documents.sentences import word_spans
from core.shared_words import SharedPhrase

PHRASE_ROLE = Qt.ItemDataRole.UserRole + 1  # the SharedPhrase
SORT_ROLE = Qt.ItemDataRole.UserRole + 2


class SharedPhraseModel(RowTableModel[SharedPhrase]):
    """One row per shared phrase, in the engine's order (longest first)."""

    COL_PHRASE, COL_WORDS, COL_IN_A, COL_IN_B = range(4)
    HEADERS = ("Phrase", "Words", "In A", "In B")
    HEADER_TIPS = (
        "Words both documents use in this order, inside one sentence (case ignored)",
        "How many words the phrase has",
        "How many times it occurs in document A",
        "How many times it occurs in document B",
    )
    NUMERIC_COLUMNS = frozenset({COL_WORDS, COL_IN_A, COL_IN_B})

    def set_phrases(self, phrases: Sequence[SharedPhrase]) -> None:
        self.set_items(phrases)

    def phrases(self) -> tuple[SharedPhrase, ...]:
        return tuple(self._items)

    def phrase(self, row: int) -> SharedPhrase:
        return self.item(row)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        phrase = self._items[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.COL_PHRASE:
                return phrase.quote  # as A writes it; the match ignores case and punctuation
            return str(self.number(phrase, column))
        if role == SORT_ROLE:
            return phrase.text if column == self.COL_PHRASE else self.number(phrase, column)
        if role == PHRASE_ROLE:
            return phrase
        if role == Qt.ItemDataRole.ToolTipRole and column == self.COL_PHRASE:
            return phrase.quote  # a long phrase is clipped in its cell
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self.alignment(column)
        return None

    @classmethod
    def number(cls, phrase: SharedPhrase, column: int) -> int:
        """The count a numeric column shows for `phrase`."""
        if column == cls.COL_WORDS:
            return phrase.length
        return len(phrase.in_a) if column == cls.COL_IN_A else len(phrase.in_b)


class PhraseFilterProxy(QSortFilterProxyModel):
    """Sorts by SORT_ROLE and keeps the phrases containing the filter's words (case and
    punctuation ignored: "news, or" finds "read the news or download")."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self._needle = ""

    @staticmethod
    def needle(text: str) -> str:
        """The filter text as the phrases' words are kept: case-folded words, one space apart."""
        return " ".join(text[a:b].casefold() for a, b in word_spans(text))

    @staticmethod
    def matches(phrase: SharedPhrase, needle: str) -> bool:
        return needle in phrase.text

    def set_filter_text(self, text: str) -> None:
        needle = self.needle(text)
        if needle == self._needle:
            return
        # Qt 6.10 brackets a filter change; older Qt (the project allows 6.7) re-filters after
        if hasattr(self, "beginFilterChange"):
            self.beginFilterChange()
            self._needle = needle
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self._needle = needle
            self.invalidateRowsFilter()

    def filtering(self) -> bool:
        return bool(self._needle)

    def filterAcceptsRow(
        self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex
    ) -> bool:
        source = self.sourceModel()
        if not self._needle or not isinstance(source, SharedPhraseModel):
            return True
        return self.matches(source.phrase(source_row), self._needle)

    def phrase(self, proxy_row: int) -> SharedPhrase | None:
        value = self.index(proxy_row, SharedPhraseModel.COL_PHRASE).data(PHRASE_ROLE)
        return value if isinstance(value, SharedPhrase) else None

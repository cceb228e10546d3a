"""The Shared phrases tab: the model on its own, the list for two small documents, and choosing
a phrase, which shows every occurrence in both panes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.gui.compare.phrases_panel import SharedPhrasesPanel
from app.gui.compare.text_pane import OVERLAY_PROPERTY, Overlay, TextPane, selections_of_overlay
from app.gui.compare.view import TAB_PHRASES, ComparisonView
from app.gui.models.phrase_model import SharedPhraseModel
from app.gui.tasks import TaskRunner
from core.comparison import Comparison, compare_documents
from core.documents.document import document_from_text
from core.options import SignatureOptions
from core.shared_words import SharedPhrase, SharedPhrases

TEXT_A = (
    "Our town voted to repair the old stone bridge over the river last spring. "
    "Nobody liked the plan at all. "
    "Later the old stone bridge over the river was closed for a month."
)
TEXT_B = (
    "In May the council said the old stone bridge over the river needs work. "
    "The mayor agreed to repair the old stone bridge over the river soon."
)
LONGEST = "to repair the old stone bridge over the river"
BRIDGE = "the old stone bridge over the river"


def comparison_of(a: str, b: str) -> Comparison:
    options = SignatureOptions(language="en")
    return compare_documents(
        document_from_text(a, "A.txt", options), document_from_text(b, "B.txt", options)
    )


def spans_of(text: str, phrase: str) -> tuple[tuple[int, int], ...]:
    found, at = [], text.find(phrase)
    while at >= 0:
        found.append((at, at + len(phrase)))
        at = text.find(phrase, at + 1)
    return tuple(found)


def found_spans(pane: TextPane) -> list[tuple[int, int]]:
    return [
        (pane.text_offset(s.cursor.selectionStart()), pane.text_offset(s.cursor.selectionEnd()))
        for s in selections_of_overlay(pane, Overlay.FOUND)
    ]


@pytest.fixture
def view(qtbot, sync_runner) -> ComparisonView:
    view = ComparisonView(runner=sync_runner)
    qtbot.addWidget(view)
    view.resize(1000, 700)
    with qtbot.waitExposed(view):
        view.show()
    view.show_phrases()
    view.set_comparison(comparison_of(TEXT_A, TEXT_B))
    return view


def row_of(panel: SharedPhrasesPanel, text: str) -> int:
    rows = [r for r in range(panel.proxy.rowCount()) if panel.proxy.phrase(r).text == text]
    assert len(rows) == 1
    return rows[0]


def click_row(panel: SharedPhrasesPanel, row: int) -> None:
    rect = panel.table.visualRect(panel.proxy.index(row, SharedPhraseModel.COL_PHRASE))
    QTest.mouseClick(
        panel.table.viewport(),
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
        rect.center(),
    )


# --- the list ----------------------------------------------------------------------------


def test_the_phrases_both_documents_use_are_listed_longest_first(view: ComparisonView) -> None:
    panel = view.phrases
    assert view.tabs.currentIndex() == TAB_PHRASES
    listed = [panel.proxy.phrase(r) for r in range(panel.proxy.rowCount())]
    assert [p.text for p in listed] == [LONGEST, BRIDGE]
    longest, bridge = listed
    assert longest.in_a == spans_of(TEXT_A, LONGEST) and longest.in_b == spans_of(TEXT_B, LONGEST)
    assert bridge.in_a == spans_of(TEXT_A, BRIDGE) and bridge.in_b == spans_of(TEXT_B, BRIDGE)
    row = panel.proxy.index(1, 0).row()
    cells = [
        panel.proxy.index(row, c).data()
        for c in (
            SharedPhraseModel.COL_PHRASE,
            SharedPhraseModel.COL_WORDS,
            SharedPhraseModel.COL_IN_A,
            SharedPhraseModel.COL_IN_B,
        )
    ]
    assert cells == [BRIDGE, "7", "2", "2"]
    assert view.tabs.tabText(TAB_PHRASES) == "Shared phrases (2)"
    assert "2 phrases of 4 or more words found in both documents" in panel.status.text()


def test_the_phrase_is_shown_as_a_writes_it_and_the_filter_ignores_case_and_punctuation(
    qtbot, sync_runner
) -> None:
    view = ComparisonView(runner=sync_runner)
    qtbot.addWidget(view)
    view.set_comparison(
        comparison_of(
            "They said: Read the News, or download a novel today. Nothing else happened here.",
            "Some read the news or download a novel at night. Nothing else was said.",
        )
    )
    panel = view.phrases
    texts = [
        panel.proxy.index(r, SharedPhraseModel.COL_PHRASE).data()
        for r in range(panel.proxy.rowCount())
    ]
    assert "Read the News, or download a novel" in texts
    panel.filter.setText("NEWS, or download")
    assert [panel.proxy.phrase(r).text for r in range(panel.proxy.rowCount())] == [
        "read the news or download a novel"
    ]
    assert "match the filter" in panel.status.text()
    panel.filter.setText("no such words")
    assert panel.proxy.rowCount() == 0
    panel.filter.clear()
    assert panel.proxy.rowCount() == len(texts)


def test_no_shared_phrase_says_so(qtbot, sync_runner) -> None:
    view = ComparisonView(runner=sync_runner)
    qtbot.addWidget(view)
    view.set_comparison(
        comparison_of("Rivers carve deep valleys slowly.", "Bakers rise before the dawn.")
    )
    assert view.phrases.proxy.rowCount() == 0
    assert view.phrases.status.text() == "No phrase of 4 or more words is found in both documents."
    assert view.tabs.tabText(TAB_PHRASES) == "Shared phrases (0)"


def test_a_capped_list_says_how_many_there_were(qtbot) -> None:
    panel = SharedPhrasesPanel()
    qtbot.addWidget(panel)
    phrase = SharedPhrase(("a", "b", "c", "d"), ((0, 7),), ((0, 7),), "a b c d")
    panel.set_result(SharedPhrases((phrase, phrase), total=1234, min_words=4, limit=2))
    assert panel.status.text().startswith("The 2 longest of 1,234 phrases of 4 or more words")
    panel.set_pending()
    assert panel.model.rowCount() == 0 and "Looking for" in panel.status.text()


# --- choosing a phrase -------------------------------------------------------------------


def test_clicking_a_phrase_highlights_every_occurrence_in_both_panes(
    qtbot, view: ComparisonView
) -> None:
    panel = view.phrases
    assert found_spans(view.pane_a) == [] and found_spans(view.pane_b) == []
    with qtbot.waitSignal(panel.phrase_chosen) as chosen:
        click_row(panel, row_of(panel, BRIDGE))
    assert chosen.args[0].text == BRIDGE
    assert found_spans(view.pane_a) == list(spans_of(TEXT_A, BRIDGE))
    assert found_spans(view.pane_b) == list(spans_of(TEXT_B, BRIDGE))
    first_a, first_b = spans_of(TEXT_A, BRIDGE)[0], spans_of(TEXT_B, BRIDGE)[0]
    assert view.pane_a.textCursor().position() == first_a[0]  # each pane at its first
    assert view.pane_b.textCursor().position() == first_b[0]
    assert panel.place.text() == "A 1 of 2 · B 1 of 2"

    click_row(panel, row_of(panel, LONGEST))  # another row moves the highlight
    assert found_spans(view.pane_a) == list(spans_of(TEXT_A, LONGEST))
    assert found_spans(view.pane_b) == list(spans_of(TEXT_B, LONGEST))


def test_clicking_the_chosen_phrase_again_moves_to_the_next_occurrences(
    qtbot, view: ComparisonView
) -> None:
    panel = view.phrases
    row = row_of(panel, BRIDGE)
    click_row(panel, row)
    with qtbot.waitSignal(panel.phrase_again):
        click_row(panel, row)
    second_a, second_b = spans_of(TEXT_A, BRIDGE)[1], spans_of(TEXT_B, BRIDGE)[1]
    assert view.pane_a.textCursor().position() == second_a[0]
    assert view.pane_b.textCursor().position() == second_b[0]
    assert panel.place.text() == "A 2 of 2 · B 2 of 2"
    panel.table.setFocus()
    QTest.keyClick(panel.table, Qt.Key.Key_Return)  # Enter does the same, wrapping round
    assert view.pane_a.textCursor().position() == spans_of(TEXT_A, BRIDGE)[0][0]
    assert found_spans(view.pane_a) == list(spans_of(TEXT_A, BRIDGE))  # all still shown


def test_clearing_the_selection_removes_the_highlight(qtbot, view: ComparisonView) -> None:
    panel = view.phrases
    click_row(panel, row_of(panel, BRIDGE))
    assert found_spans(view.pane_a)
    panel.table.setFocus()
    with qtbot.waitSignal(panel.phrase_chosen) as chosen:
        QTest.keyClick(panel.table, Qt.Key.Key_Escape)
    assert chosen.args == [None]
    assert found_spans(view.pane_a) == [] and found_spans(view.pane_b) == []
    assert panel.place.text() == ""

    click_row(panel, row_of(panel, BRIDGE))
    panel.filter.setText("repair")  # the chosen row is filtered out: its highlight goes
    assert panel.chosen() is None
    assert found_spans(view.pane_a) == []


def test_the_highlight_is_drawn_over_the_block_colours_and_stays_when_scrolling(
    view: ComparisonView,
) -> None:
    panel = view.phrases
    click_row(panel, row_of(panel, BRIDGE))
    selections = view.pane_a.extraSelections()
    found = selections_of_overlay(view.pane_a, Overlay.FOUND)
    last = selections[-len(found) :]  # painted last, on top of every mark
    assert all(s.format.property(OVERLAY_PROPERTY) == Overlay.FOUND for s in last)
    palette = view.pane_a.palette()
    colour = found[0].format.background().color()
    assert colour == palette.color(palette.ColorRole.Text)  # inverse video
    view.pane_a.verticalScrollBar().setValue(view.pane_a.verticalScrollBar().maximum())
    assert found_spans(view.pane_a) == list(spans_of(TEXT_A, BRIDGE))


def test_a_new_comparison_clears_the_chosen_phrase(view: ComparisonView) -> None:
    panel = view.phrases
    click_row(panel, row_of(panel, BRIDGE))
    view.set_comparison(comparison_of(TEXT_B, TEXT_A))
    assert panel.chosen() is None and found_spans(view.pane_a) == []
    assert [panel.proxy.phrase(r).text for r in range(panel.proxy.rowCount())] == [LONGEST, BRIDGE]
    view.set_comparison(None)
    assert panel.model.rowCount() == 0 and panel.status.text() == ""
    assert view.tabs.tabText(TAB_PHRASES) == "Shared phrases"


def test_phrases_are_found_on_a_worker_thread(qtbot) -> None:
    runner = TaskRunner()
    view = ComparisonView(runner=runner)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.phrases_ready, timeout=20_000) as ready:
        view.set_comparison(comparison_of(TEXT_A, TEXT_B))
        assert "Looking for" in view.phrases.status.text()  # the window did not wait
    assert [p.text for p in ready.args[0].phrases] == [LONGEST, BRIDGE]
    assert view.shared_phrases() is ready.args[0]
    runner.shutdown()


def test_a_superseded_search_never_shows_its_stale_list(qtbot) -> None:
    runner = TaskRunner()
    view = ComparisonView(runner=runner)
    qtbot.addWidget(view)
    first = comparison_of(TEXT_A, TEXT_B)
    second = comparison_of("Rivers carve deep valleys slowly.", "Bakers rise before the dawn.")
    with qtbot.waitSignal(view.phrases_ready, timeout=20_000) as ready:
        view.set_comparison(first)
        view.set_comparison(second)
    assert ready.args[0].phrases == ()
    runner.shutdown()
    assert view.phrases.model.rowCount() == 0

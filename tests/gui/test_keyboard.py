"""The keyboard alone reaches every control of the Compare tab: Tab moves through the window
(no table keeps it), and a control reached by keyboard shows that it has the focus."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication, QWidget

from app.gui.main_window import MainWindow
from app.gui.tasks import TaskRunner
from core.resources import resource_path

SAMPLES = [
    resource_path("samples", name)
    for name in ("original-essay.txt", "reworded-copy.docx", "unrelated-essay.docx")
]


def tab_stops(window: MainWindow) -> set[QWidget]:
    """Every widget Tab should reach: shown, enabled, taking focus by Tab."""
    return {
        widget
        for widget in window.findChildren(QWidget)
        if widget.isVisible()
        and widget.isEnabled()
        and widget.focusPolicy() & Qt.FocusPolicy.TabFocus
        and widget.focusProxy() is None
        and widget.window() is window
    }


def walk(window: MainWindow, start: QWidget, steps: int) -> list[QWidget]:
    """The widgets Tab moves through from `start`."""
    start.setFocus(Qt.FocusReason.OtherFocusReason)
    QApplication.processEvents()
    order: list[QWidget] = []
    for _ in range(steps):
        focused = QApplication.focusWidget()
        assert focused is not None
        order.append(focused)
        QTest.keyClick(focused, Qt.Key.Key_Tab)
    return order


@pytest.fixture
def window(qtbot, settings, tmp_path: Path) -> MainWindow:
    broken = tmp_path / "scan.pdf"
    broken.write_bytes(b"%PDF-1.4\n garbage")  # the failures bar shows, with its button
    win = MainWindow(settings, TaskRunner())
    qtbot.addWidget(win)
    win.resize(1280, 720)
    win.show()
    win.activateWindow()
    win.add_paths([*SAMPLES, broken], remember=False)
    qtbot.waitUntil(lambda: not win.busy and win.view.comparison() is not None, timeout=30_000)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    return win


def test_tab_reaches_every_control_and_leaves_the_tables(window: MainWindow) -> None:
    stops = tab_stops(window)
    assert window.view.table in stops and window.documents_view in stops
    assert window.pairs_view in stops and window.failures_bar.close_button in stops
    order = walk(window, window.documents_view, 2 * len(stops) + 4)
    table = window.view.table
    assert not table.tabKeyNavigation()  # Tab moves on: the table keeps no Tab trap
    for table_view in (window.documents_view, window.pairs_view, table):
        at = order.index(table_view)
        assert order[at + 1] is not table_view, f"Tab stays in {table_view.accessibleName()}"
    missed = stops - set(order)
    assert not missed, sorted(f"{type(w).__name__} {w.objectName()}" for w in missed)


def test_buttons_reached_by_keyboard_show_the_focus(window: MainWindow) -> None:
    stops = tab_stops(window)
    buttons = [w for w in stops if isinstance(w, QAbstractButton)]
    assert window.view.next_action in [getattr(b, "defaultAction", lambda: None)() for b in buttons]
    focused: dict[QAbstractButton, object] = {}
    window.view.table.setTabKeyNavigation(False)  # (whether it traps Tab is the test above's)
    window.documents_view.setFocus()
    for _ in range(2 * len(stops) + 4):
        widget = QApplication.focusWidget()
        if widget in buttons and widget not in focused:
            focused[widget] = widget.grab().toImage()
        if len(focused) == len(buttons):
            break
        QTest.keyClick(widget, Qt.Key.Key_Tab)
    window.documents_view.setFocus()
    QApplication.processEvents()
    for button, image in focused.items():
        assert button.grab().toImage() != image, f"{button.text()} looks the same focused"
    assert set(focused) == set(buttons)

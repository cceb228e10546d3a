"""A message bar: a message shown in place, above what it is about, until it is dealt with
(KDE's KMessageWidget, VS Code's notifications). The window shows one above the document list
for files that could not be read, and one for what opening a case found.

The text wraps (it is never cut off, at any window size); a long list is summarised in the bar
and given whole by "Show All" in a dialog whose text can be selected and copied."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette, QTextDocument
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)


class Level(Enum):
    INFORMATION = "information"
    WARNING = "warning"
    ERROR = "error"


#: each level's tint, blended into the window's colour so it reads in light and dark schemes
_TINTS = {
    Level.INFORMATION: QColor("#3daee9"),
    Level.WARNING: QColor("#f67400"),
    Level.ERROR: QColor("#da4453"),
}
_ICONS = {
    Level.INFORMATION: QStyle.StandardPixmap.SP_MessageBoxInformation,
    Level.WARNING: QStyle.StandardPixmap.SP_MessageBoxWarning,
    Level.ERROR: QStyle.StandardPixmap.SP_MessageBoxCritical,
}


def _blend(base: QColor, tint: QColor, amount: float) -> QColor:
    return QColor(
        round(base.red() * (1 - amount) + tint.red() * amount),
        round(base.green() * (1 - amount) + tint.green() * amount),
        round(base.blue() * (1 - amount) + tint.blue() * amount),
    )


class MessageBar(QFrame):
    """A dismissible message: an icon, wrapped text, "Show All" when there is more to read."""

    dismissed = Signal()  # the teacher closed it

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("MessageBar")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self._level = Level.INFORMATION
        self._details: list[str] = []
        self._details_title = ""
        self.details_dialog: DetailsDialog | None = None  # "Show All"'s, once opened
        self.icon = QLabel()
        self.icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.label.setMinimumWidth(120)
        self.show_all_button = QPushButton("Show All…")
        self.show_all_button.clicked.connect(self.show_all)
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip("Close this message")
        self.close_button.setAccessibleName("Close message")
        self.close_button.clicked.connect(self.dismiss)
        # the text has the whole width (a narrow list beside it): the buttons sit below it
        top = QHBoxLayout()
        top.setSpacing(8)
        top.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.label, 1)
        top.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.action_row = QHBoxLayout()
        self.action_row.setSpacing(6)
        self.action_row.addStretch(1)
        self.action_row.addWidget(self.show_all_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 4, 6)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addLayout(self.action_row)
        self.hide()

    def add_action(self, text: str) -> QPushButton:
        """A button of the bar's own, after those added before it (what to do about the
        message: "Leave Out Text Common to the Class", "Dismiss")."""
        button = QPushButton(text)
        self.action_row.addWidget(button)
        return button

    # -- what it says ------------------------------------------------------------------

    def show_message(
        self,
        text: str,
        level: Level = Level.WARNING,
        details: Sequence[str] = (),
        details_title: str = "",
    ) -> None:
        """Show `text` (rich text: escape names); `details`, if any, behind "Show All"."""
        self._level = level
        self._details = list(details)
        self._details_title = details_title or "Doppel"
        self.label.setText(text)
        self.setAccessibleDescription(self.label.text())
        self.show_all_button.setVisible(bool(self._details))
        self._paint()
        self.show()

    def text(self) -> str:
        """What the bar says, as plain text."""
        plain = QTextDocument()
        plain.setHtml(self.label.text())
        return plain.toPlainText()

    @property
    def level(self) -> Level:
        return self._level

    @property
    def details(self) -> list[str]:
        return list(self._details)

    def dismiss(self) -> None:
        self.hide()
        self.dismissed.emit()

    def show_all(self) -> None:
        dialog = DetailsDialog(self._details_title, self._details, self.window())
        dialog.open()  # window-modal; deletes itself on close
        self.details_dialog = dialog

    # -- how it looks ------------------------------------------------------------------

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._paint()

    def _paint(self) -> None:
        palette = QGuiApplication.palette()
        window = palette.color(QPalette.ColorRole.Window)
        tint = _TINTS[self._level]
        sheet = (
            "#MessageBar {"
            f" background-color: {_blend(window, tint, 0.18).name()};"
            f" border: 1px solid {_blend(window, tint, 0.7).name()};"
            " border-radius: 4px; }"
        )
        if sheet != self.styleSheet():  # (setting it changes the palette: no loop)
            self.setStyleSheet(sheet)
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        self.icon.setPixmap(self.style().standardIcon(_ICONS[self._level]).pixmap(size, size))


class DetailsDialog(QDialog):
    """Every line of a message bar's list, to read and copy."""

    def __init__(self, title: str, lines: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.text = QPlainTextEdit("\n".join(lines))
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.resize(640, 360)

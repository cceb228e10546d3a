"""The message bar a folder check shows when most of its pairs share one passage most of the
class holds (a prompt everyone pasted: `core.batch.common_hint`), with what to do about it:
leave text common to the class out and check again, read the passage, or dismiss the message.
The words are `core.reports.wording.common_hint_text`'s, as on the command line and in the
report; the passages are shown whole in a dialog whose text can be selected and copied."""

from __future__ import annotations

import html

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
    QVBoxLayout,
    QWidget,
)

from core.batch.common_hint import CommonTextHint
from core.reports.wording import common_hint_text, plural, share_text

LEAVE_OUT_TEXT = "Leave Out Text Common to the Class"
SHOW_TEXT = "Show Passage…"
#: the bar's tint, blended into the window's colour so it reads in light and dark schemes
_TINT = QColor("#f67400")


def passages_text(hint: CommonTextHint) -> str:
    """Every passage of `hint`, most widespread first, as plain text for reading and copying."""
    blocks = []
    for passage in hint.passages:
        where = f"In {passage.documents:,} of {plural(hint.counted, 'submission')}"
        text = passage.text or "(its text could not be read again)"
        blocks.append(f"{where} ({plural(passage.words, 'word')}):\n{text}")
    return "\n\n".join(blocks)


class CommonHintBar(QFrame):
    """Says that most pairs share one passage, and offers to leave it out (`leave_out`)."""

    leave_out = Signal()  # check again, leaving out text common to the class
    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("CommonHintBar")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.hint: CommonTextHint | None = None
        self.dialog: CommonPassageDialog | None = None  # "Show Passage…"'s, once opened
        self.icon = QLabel()
        self.icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.label.setMinimumWidth(160)
        self.leave_out_button = QPushButton(LEAVE_OUT_TEXT)
        self.leave_out_button.setDefault(False)
        self.show_button = QPushButton(SHOW_TEXT)
        self.dismiss_button = QPushButton("Dismiss")
        self.leave_out_button.clicked.connect(self.leave_out)
        self.show_button.clicked.connect(self.show_passages)
        self.dismiss_button.clicked.connect(self.dismiss)
        buttons = QHBoxLayout()
        buttons.setSpacing(6)
        buttons.addStretch(1)
        buttons.addWidget(self.leave_out_button)
        buttons.addWidget(self.show_button)
        buttons.addWidget(self.dismiss_button)
        text = QVBoxLayout()
        text.setSpacing(6)
        text.addWidget(self.label)
        text.addLayout(buttons)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(10)
        layout.addWidget(self.icon)
        layout.addLayout(text, 1)
        self.hide()

    def set_hint(self, hint: CommonTextHint | None) -> None:
        """Show the message for `hint`; hide the bar for None."""
        self.hint = hint
        if hint is None:
            self.hide()
            return
        message = html.escape(common_hint_text(hint, limit=80))
        share = share_text(hint.share)
        pairs = (
            f"All {plural(hint.pairs, 'pair')} with copied text have it"
            if hint.pairs == hint.flagged
            else f"{hint.pairs:,} of the {plural(hint.flagged, 'pair')} with copied text have it"
        )
        detail = html.escape(
            f"{pairs} in their copied passages. Leave out text found in more than {share} of "
            "the submissions to check the class again without it."
        )
        self.label.setText(f"<b>{message}</b><br>{detail}")
        self.setAccessibleDescription(self.text())
        self.leave_out_button.setToolTip(
            f"Check again, leaving out text found in more than {share} of the submissions "
            "(the option under Leave out)"
        )
        self._paint()
        self.show()

    def text(self) -> str:
        """What the bar says, as plain text."""
        plain = QTextDocument()
        plain.setHtml(self.label.text())
        return plain.toPlainText()

    def dismiss(self) -> None:
        self.hide()
        self.dismissed.emit()

    def show_passages(self) -> None:
        """The passages whole, in a dialog (window-modal; it can leave them out too)."""
        if self.hint is None:
            return
        dialog = CommonPassageDialog(self.hint, self.window())
        dialog.leave_out.connect(self.leave_out)
        dialog.open()
        self.dialog = dialog

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._paint()

    def _paint(self) -> None:
        window = QGuiApplication.palette().color(QPalette.ColorRole.Window)
        sheet = (
            "#CommonHintBar {"
            f" background-color: {_blend(window, 0.16).name()};"
            f" border: 1px solid {_blend(window, 0.65).name()};"
            " border-radius: 4px; }"
        )
        if sheet != self.styleSheet():  # (setting it changes the palette: no loop)
            self.setStyleSheet(sheet)
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_LargeIconSize)
        icon = self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxInformation)
        self.icon.setPixmap(icon.pixmap(size, size))


class CommonPassageDialog(QDialog):
    """The common passages whole, to read and copy, and the button that leaves them out."""

    leave_out = Signal()

    def __init__(self, hint: CommonTextHint, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Text most of the class shares")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        intro = QLabel(
            "Found in more than "
            f"{share_text(hint.share)} of the {plural(hint.counted, 'submission')}, most "
            "widespread first. Each passage is quoted from one submission that holds it."
        )
        intro.setWordWrap(True)
        self.text = QPlainTextEdit(passages_text(hint))
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.leave_out_button = buttons.addButton(
            LEAVE_OUT_TEXT, QDialogButtonBox.ButtonRole.AcceptRole
        )
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        self.leave_out_button.clicked.connect(self.leave_out)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)
        self.resize(640, 360)


def _blend(base: QColor, amount: float) -> QColor:
    return QColor(
        round(base.red() * (1 - amount) + _TINT.red() * amount),
        round(base.green() * (1 - amount) + _TINT.green() * amount),
        round(base.blue() * (1 - amount) + _TINT.blue() * amount),
    )

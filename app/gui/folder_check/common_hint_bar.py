"""The message bar a folder check shows when most of its pairs share one passage most of the
class holds (a prompt everyone pasted: `core.batch.common_hint`), with what to do about it:
leave text common to the class out and check again, read the passage, or dismiss the message.
The words are `core.reports.wording.common_hint_text`'s, as on the command line and in the
report; the passages are shown whole in a dialog whose text can be selected and copied. It is
the window's `MessageBar` with three actions of its own."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from app.gui.message_bar import Level, MessageBar
from core.batch.common_hint import CommonTextHint
from core.reports.wording import common_hint_text, plural, share_text

LEAVE_OUT_TEXT = "Leave Out Text Common to the Class"
SHOW_TEXT = "Show Passage…"


def passages_text(hint: CommonTextHint) -> str:
    """Every passage of `hint`, most widespread first, as plain text for reading and copying."""
    blocks = []
    for passage in hint.passages:
        where = f"In {passage.documents:,} of {plural(hint.counted, 'submission')}"
        text = passage.text or "(its text could not be read again)"
        blocks.append(f"{where} ({plural(passage.words, 'word')}):\n{text}")
    return "\n\n".join(blocks)


class CommonHintBar(MessageBar):
    """Says that most pairs share one passage, and offers to leave it out (`leave_out`)."""

    leave_out = Signal()  # check again, leaving out text common to the class

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.hint: CommonTextHint | None = None
        self.dialog: CommonPassageDialog | None = None  # "Show Passage…"'s, once opened
        self.leave_out_button = self.add_action(LEAVE_OUT_TEXT)
        self.show_button = self.add_action(SHOW_TEXT)
        self.dismiss_button = self.add_action("Dismiss")
        self.close_button.hide()  # "Dismiss" says it in words
        self.leave_out_button.clicked.connect(self.leave_out)
        self.show_button.clicked.connect(self.show_passages)
        self.dismiss_button.clicked.connect(self.dismiss)

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
        self.leave_out_button.setToolTip(
            f"Check again, leaving out text found in more than {share} of the submissions "
            "(the option under Leave out)"
        )
        self.show_message(f"<b>{message}</b><br>{detail}", Level.INFORMATION)

    def show_passages(self) -> None:
        """The passages whole, in a dialog (window-modal; it can leave them out too)."""
        if self.hint is None:
            return
        dialog = CommonPassageDialog(self.hint, self.window())
        dialog.leave_out.connect(self.leave_out)
        dialog.open()
        self.dialog = dialog


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

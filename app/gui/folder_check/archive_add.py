"""Asking where a finished check's submissions go: the archive index the check was against,
the default one (made there if there is none yet), or another file. One question that also
confirms: it says how many submissions will be added and that nothing is added twice.

Worked out apart from the dialog (`add_choices`, no Qt) so the choices are tested without a
window; the dialog (`AddToArchiveDialog`) only lays them out as buttons."""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import QAbstractButton, QMessageBox, QWidget

from app.gui.folder_check.archive_summary import IndexSummary
from core.reports.wording import plural


@dataclass(frozen=True)
class AddChoice:
    """One button of the question: its label, and the index it adds to (None: ask for a
    file)."""

    label: str
    index: Path | None


def add_choices(in_use: Path | None, default: Path, default_exists: bool) -> list[AddChoice]:
    """The index in use first (if the check was against one), then the default index (when it
    is another file), then any other file."""
    choices = []
    if in_use is not None:
        choices.append(AddChoice("Add to the Archive in Use", in_use))
    if in_use is None or in_use.resolve() != default.resolve():
        label = "Add to the Default Archive" if default_exists else "Start the Default Archive"
        choices.append(AddChoice(label, default))
    choices.append(AddChoice("Another Index File…", None))
    return choices


def add_question(submissions: int, in_use: IndexSummary | None) -> tuple[str, str]:
    """The question and what it means (rich text), for `submissions` read by the check."""
    question = (
        f"Add the {plural(submissions, 'submission')} of this check to an archive index, so "
        "later checks compare new work with them?"
    )
    details = (
        "Files already in the archive are not added twice; a file that changed is updated. "
        "The archive keeps their text, so a pair can still be read after the files are moved "
        "or deleted."
    )
    if in_use is not None:
        details += (
            f"<br><br>In use: <b>{html.escape(in_use.text)}</b><br>{html.escape(str(in_use.path))}"
        )
    return question, details


class AddToArchiveDialog(QMessageBox):
    """The question, with one button per `AddChoice` and Cancel; `choice()` after it closed
    is the one clicked (None: cancelled)."""

    def __init__(
        self,
        submissions: int,
        choices: list[AddChoice],
        in_use: IndexSummary | None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add to Archive")
        self.setIcon(QMessageBox.Icon.Question)
        question, details = add_question(submissions, in_use)
        self.setText(question)
        self.setInformativeText(details)
        self._choices: dict[QAbstractButton, AddChoice] = {}
        for number, choice in enumerate(choices):
            role = (
                QMessageBox.ButtonRole.AcceptRole
                if choice.index is not None
                else QMessageBox.ButtonRole.ActionRole
            )
            button = self.addButton(choice.label, role)
            button.setToolTip(str(choice.index) if choice.index else "Choose or name a file")
            self._choices[button] = choice
            if number == 0:
                self.setDefaultButton(button)
        self.addButton(QMessageBox.StandardButton.Cancel)

    def button_for(self, choice: AddChoice) -> QAbstractButton:
        return next(b for b, c in self._choices.items() if c == choice)

    def choice(self) -> AddChoice | None:
        clicked = self.clickedButton()
        return self._choices.get(clicked) if clicked is not None else None

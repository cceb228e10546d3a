"""The comparison settings: the engine options, whether reworded passages are looked for, and
what to leave out of the scores, with the defaults (the paper's values, reworded passages on,
nothing left out) one click away; and the paper size of evidence reports."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.gui.evidence_export import locale_paper
from core.documents.language import available_languages
from core.options import ExclusionOptions, MatchOptions, ShortSentenceRule, SignatureOptions


class SettingsDialog(QDialog):
    def __init__(
        self,
        signature: SignatureOptions,
        match: MatchOptions,
        exclusions: ExclusionOptions | None = None,
        parent: QWidget | None = None,
        paper: str = "auto",
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Comparison Settings")
        self.language = QComboBox()
        self.language.addItem("Detect automatically", "auto")
        for info in available_languages():
            self.language.addItem(f"{info.name.capitalize()} ({info.code})", info.code)
        self.stopwords = QCheckBox("Leave out stop words (the, of, and…) when counting")
        self.length_cap = QCheckBox(
            "Leave out sentences of more than 35 words (the paper's alphabet)"
        )
        self.key_size = QSpinBox()
        self.key_size.setRange(1, 10)
        self.key_size.setSuffix(" words")
        self.min_block = QSpinBox()
        self.min_block.setRange(1, 50)
        self.min_block.setSuffix(" sentences")
        self.literal_short = QCheckBox(
            "Count very short sentences (\u201cOh!\u201d) towards a block"
        )
        self.reworded = QCheckBox("Look for reworded passages too (recommended)")
        self.reworded.setToolTip(
            "Besides the blocks copied word for word (the SL+ST paper's method), find passages "
            "copied and then edited: the same content words in partly different wording. "
            "Untick for the paper's method alone."
        )

        form = QFormLayout()
        form.addRow("Language:", self.language)
        form.addRow("Shortest block:", self.min_block)
        form.addRow("Words compared per sentence:", self.key_size)
        form.addRow("", self.stopwords)
        form.addRow("", self.length_cap)
        form.addRow("", self.literal_short)
        form.addRow("", self.reworded)

        self.quotations = QCheckBox("Text in quotation marks and block quotes")
        self.references = QCheckBox("The references section at the end (Works Cited…)")
        self.template_words = QSpinBox()
        self.template_words.setRange(2, 50)
        self.template_words.setSuffix(" words")
        self.template_words.setToolTip(
            "A sentence that shares a run of this many words with a template document is "
            "left out, as is every sentence in a block shared with it"
        )
        leave_out = QFormLayout()
        leave_out.addRow("", self.quotations)
        leave_out.addRow("", self.references)
        leave_out.addRow("Template phrases from:", self.template_words)
        template_note = QLabel(
            "Mark a document as a template (the prompt, a handout) with Use as Template in "
            "its context menu: what the others share with it is left out too. Left-out text "
            "stays visible, shaded, and every result says what was left out."
        )
        template_note.setWordWrap(True)
        template_note.setEnabled(False)
        leave_out.addRow(template_note)
        exclusions_box = QGroupBox("Leave Out of the Scores")
        exclusions_box.setLayout(leave_out)
        self.paper = QComboBox()
        here = "Letter" if locale_paper() == "letter" else "A4"
        self.paper.addItem(f"As usual here ({here})", "auto")
        self.paper.addItem("A4", "a4")
        self.paper.addItem("Letter", "letter")
        self.paper.setToolTip("The page size of evidence reports saved as PDF and printed")
        reports = QFormLayout()
        reports.addRow("Paper size:", self.paper)
        reports_box = QGroupBox("Evidence Reports")
        reports_box.setLayout(reports)
        note = QLabel(
            "The defaults are the values of the SL+ST paper, with reworded passages looked for "
            "too (Doppel's addition). Changing a setting re-runs the open comparison; a folder "
            "check uses them from its next start."
        )
        note.setWordWrap(True)
        note.setEnabled(False)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok
            | QDialogButtonBox.StandardButton.Cancel
            | QDialogButtonBox.StandardButton.RestoreDefaults
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.restore_button = buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults)
        self.restore_button.clicked.connect(self.restore_defaults)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(exclusions_box)
        layout.addWidget(reports_box)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self.show_options(signature, match, exclusions or ExclusionOptions())
        self.paper.setCurrentIndex(max(self.paper.findData(paper), 0))

    def show_options(
        self, signature: SignatureOptions, match: MatchOptions, exclusions: ExclusionOptions
    ) -> None:
        index = self.language.findData(signature.language)
        self.language.setCurrentIndex(max(index, 0))
        self.stopwords.setChecked(signature.remove_stopwords)
        self.length_cap.setChecked(signature.length_cap)
        self.key_size.setValue(signature.key_size)
        self.min_block.setValue(match.min_block)
        self.literal_short.setChecked(match.short_sentences is ShortSentenceRule.LITERAL)
        self.reworded.setChecked(match.reworded)
        self.quotations.setChecked(exclusions.quotations)
        self.references.setChecked(exclusions.references)
        self.template_words.setValue(exclusions.template_phrase_words)

    def restore_defaults(self) -> None:
        self.show_options(SignatureOptions(), MatchOptions(), ExclusionOptions())
        self.paper.setCurrentIndex(0)

    def paper_choice(self) -> str:
        """ "auto", "a4" or "letter" (`Settings.evidence_paper`)."""
        return str(self.paper.currentData())

    def exclusion_options(self) -> ExclusionOptions:
        return ExclusionOptions(
            quotations=self.quotations.isChecked(),
            references=self.references.isChecked(),
            template_phrase_words=self.template_words.value(),
        )

    def options(self) -> tuple[SignatureOptions, MatchOptions]:
        rule = (
            ShortSentenceRule.LITERAL
            if self.literal_short.isChecked()
            else ShortSentenceRule.FULL_KEY
        )
        return (
            SignatureOptions(
                language=str(self.language.currentData()),
                remove_stopwords=self.stopwords.isChecked(),
                length_cap=self.length_cap.isChecked(),
                key_size=self.key_size.value(),
            ),
            MatchOptions(
                min_block=self.min_block.value(),
                short_sentences=rule,
                reworded=self.reworded.isChecked(),
            ),
        )

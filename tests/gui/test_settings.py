"""Settings: engine defaults are the engine's, values persist, restore defaults works."""

from __future__ import annotations

from PySide6.QtCore import QByteArray

from app.gui.settings_dialog import SettingsDialog
from core.options import ExclusionOptions, MatchOptions, ShortSentenceRule, SignatureOptions


def test_defaults_are_the_engine_defaults(settings) -> None:
    assert settings.signature_options() == SignatureOptions()
    assert settings.match_options() == MatchOptions()


def test_options_persist_and_restore_defaults(settings) -> None:
    signature = SignatureOptions(
        language="de", remove_stopwords=False, length_cap=False, key_size=3
    )
    match = MatchOptions(min_block=4, short_sentences=ShortSentenceRule.LITERAL)
    settings.set_engine_options(signature, match)
    settings.sync()
    assert (settings.signature_options(), settings.match_options()) == (signature, match)
    settings.restore_engine_defaults()
    assert (settings.signature_options(), settings.match_options()) == (
        SignatureOptions(),
        MatchOptions(),
    )


def test_an_impossible_stored_value_falls_back_to_defaults(settings) -> None:
    settings.store.setValue("engine/key_size", 0)
    assert settings.signature_options() == SignatureOptions()


def test_recent_files_and_window_state(settings, tmp_path) -> None:
    settings.add_recent_files(["/a.txt", "/b.txt"])
    settings.add_recent_files(["/a.txt"])
    assert settings.recent_files() == ["/a.txt", "/b.txt"]
    settings.set_state("geometry", QByteArray(b"\x01\x02"))
    assert settings.state("geometry") == QByteArray(b"\x01\x02")
    settings.set_last_folder(tmp_path)
    assert settings.last_folder() == str(tmp_path)


def test_exclusions_are_off_by_default_persist_and_restore(settings) -> None:
    assert settings.exclusion_options() == ExclusionOptions()
    chosen = ExclusionOptions(quotations=True, references=True, template_phrase_words=9)
    settings.set_exclusion_options(chosen)
    settings.sync()
    assert settings.exclusion_options() == chosen
    settings.store.setValue("exclusions/template_phrase_words", 1)  # impossible: defaults
    assert settings.exclusion_options() == ExclusionOptions()
    settings.set_exclusion_options(chosen)
    settings.restore_engine_defaults()
    assert settings.exclusion_options() == ExclusionOptions()


def test_the_settings_dialog_round_trips_the_exclusions(qtbot) -> None:
    chosen = ExclusionOptions(quotations=True, references=False, template_phrase_words=8)
    dialog = SettingsDialog(SignatureOptions(), MatchOptions(), chosen)
    qtbot.addWidget(dialog)
    assert dialog.exclusion_options() == chosen
    dialog.references.setChecked(True)
    assert dialog.exclusion_options().references
    dialog.restore_defaults()
    assert dialog.exclusion_options() == ExclusionOptions()


def test_reworded_passages_are_looked_for_by_default_and_can_be_turned_off(settings) -> None:
    assert settings.match_options().reworded  # the default: reworded passages too
    settings.set_engine_options(SignatureOptions(), MatchOptions(reworded=False))
    settings.sync()
    assert settings.match_options() == MatchOptions(reworded=False)  # the paper's method alone
    assert settings.store.value("engine/reworded") in (False, "false")
    settings.restore_engine_defaults()
    assert settings.match_options().reworded


def test_the_settings_dialog_offers_the_strict_setting(qtbot) -> None:
    dialog = SettingsDialog(SignatureOptions(), MatchOptions(), ExclusionOptions())
    qtbot.addWidget(dialog)
    assert dialog.reworded.text() == "Look for reworded passages too (recommended)"
    assert dialog.reworded.isChecked() and dialog.options()[1].reworded
    dialog.reworded.setChecked(False)
    assert dialog.options()[1] == MatchOptions(reworded=False)
    dialog.restore_defaults()
    assert dialog.reworded.isChecked()
    strict = SettingsDialog(SignatureOptions(), MatchOptions(reworded=False))
    qtbot.addWidget(strict)
    assert not strict.reworded.isChecked()


def test_export_and_case_folders_fall_back_to_the_last_folder(settings, tmp_path) -> None:
    settings.set_last_folder(tmp_path)
    assert settings.export_folder() == str(tmp_path) == settings.case_folder()
    reports, cases = tmp_path / "reports", tmp_path / "cases"
    reports.mkdir()
    cases.mkdir()
    settings.set_export_folder(reports)
    settings.set_case_folder(cases)
    assert settings.export_folder() == str(reports) and settings.case_folder() == str(cases)
    reports.rmdir()  # gone: back to the last folder
    assert settings.export_folder() == str(tmp_path)


def test_the_evidence_paper_is_automatic_unless_chosen(settings, qtbot) -> None:
    from app.gui.settings_dialog import SettingsDialog
    from core.options import ExclusionOptions, MatchOptions, SignatureOptions

    assert settings.evidence_paper() == "auto" and settings.evidence_format() == "pdf"
    settings.store.setValue("evidence/paper", "tabloid")  # hand-edited: ignored
    assert settings.evidence_paper() == "auto"
    dialog = SettingsDialog(SignatureOptions(), MatchOptions(), ExclusionOptions(), paper="letter")
    qtbot.addWidget(dialog)
    assert dialog.paper_choice() == "letter"
    dialog.paper.setCurrentIndex(dialog.paper.findData("a4"))
    assert dialog.paper_choice() == "a4"
    dialog.restore_defaults()
    assert dialog.paper_choice() == "auto"

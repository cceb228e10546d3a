"""The Folder check tab's setup panel on its own: who is compared with whom, Start and Cancel
as the check runs, drops onto the right list, and what the window remembers of it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray, QDataStream, QIODevice, QPoint

from app.gui.folder_check.setup_panel import (
    MODE_ALL,
    MODE_ARCHIVE,
    STUDENT_NOTE,
    SetupPanel,
    SetupState,
)
from core.options import ExclusionOptions


@pytest.fixture
def panel(qtbot, settings) -> SetupPanel:
    panel = SetupPanel(settings)
    qtbot.addWidget(panel)
    panel.resize(1200, 200)
    panel.show()
    return panel


def test_the_mode_says_who_is_compared_with_whom(panel: SetupPanel, tmp_path: Path) -> None:
    assert panel.mode_label.text() == MODE_ALL
    panel.archives.add_paths([tmp_path / "last-year"])
    assert panel.mode_label.text() == MODE_ARCHIVE
    panel.student_folders.setChecked(True)
    assert panel.mode_label.text() == MODE_ARCHIVE + STUDENT_NOTE


def test_start_needs_submissions_and_gives_way_to_cancel_while_busy(
    panel: SetupPanel, tmp_path: Path
) -> None:
    assert not panel.start_button.isEnabled() and not panel.cancel_button.isEnabled()
    panel.inputs.add_paths([tmp_path / "class", tmp_path / "class"])  # once only
    assert panel.inputs.paths() == [(tmp_path / "class").absolute()]
    assert panel.start_button.isEnabled()
    panel.set_busy(True)
    assert not panel.start_button.isEnabled() and panel.cancel_button.isEnabled()
    panel.set_busy(False)
    assert panel.start_button.isEnabled() and not panel.cancel_button.isEnabled()


def test_what_is_left_out_is_read_from_the_panel_and_shared_with_the_settings(
    panel: SetupPanel, settings
) -> None:
    changed: list[None] = []
    panel.exclusions_changed.connect(lambda: changed.append(None))
    panel.references_check.setChecked(True)
    assert changed and settings.exclusion_options().references  # one setting, both tabs
    panel.common_check.setChecked(True)
    panel.common_spin.setValue(70)
    assert panel.common_spin.isEnabled()
    assert panel.exclusion_options() == ExclusionOptions(references=True, common_share=0.7)
    panel.threshold_spin.setValue(25)
    assert panel.threshold() == 0.25


def test_a_drop_goes_to_the_list_it_lands_on(panel: SetupPanel) -> None:
    centre = panel.templates.rect().center()
    assert panel.target_at(panel.templates.mapTo(panel, centre)) is panel.templates
    assert panel.target_at(panel.archives.mapTo(panel, centre)) is panel.archives
    assert panel.target_at(QPoint(2, 2)) is panel.inputs  # anywhere else: the submissions


def test_its_state_round_trips_and_a_first_version_layout_still_reads(
    qtbot, settings, panel: SetupPanel, tmp_path: Path
) -> None:
    panel.inputs.add_paths([tmp_path / "a"])
    panel.templates.add_paths([tmp_path / "prompt.docx"])
    panel.threshold_spin.setValue(12)
    panel.common_check.setChecked(True)
    data = QByteArray()
    panel.state().write(QDataStream(data, QIODevice.OpenModeFlag.WriteOnly))
    state = SetupState.read(QDataStream(data, QIODevice.OpenModeFlag.ReadOnly), 2)
    assert state == panel.state()
    other = SetupPanel(settings)
    qtbot.addWidget(other)
    other.restore(state)
    assert other.state() == state and other.common_spin.isEnabled()

    old = QByteArray()  # version 1: threshold, student folders, inputs, archives
    stream = QDataStream(old, QIODevice.OpenModeFlag.WriteOnly)
    stream.writeInt32(30)
    stream.writeBool(True)
    stream.writeQStringList(["/x"])
    stream.writeQStringList([])
    read = SetupState.read(QDataStream(old, QIODevice.OpenModeFlag.ReadOnly), 1)
    assert read == SetupState(30, True, ["/x"], [])

"""Fixtures for the GUI tests: isolated settings, and a task runner that can run inline."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from app.settings import Settings
from app.tasks import TaskRunner


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings in a temporary INI file: tests never read or write the user's settings."""
    return Settings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))


@pytest.fixture
def sync_runner(qapp) -> TaskRunner:
    """Runs every job inline on the GUI thread: deterministic, for tests about what follows."""
    return TaskRunner(synchronous=True)

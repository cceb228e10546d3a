"""Fixtures for the GUI tests: isolated settings, and a task runner that can run inline."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from app.gui.folder_check.view import FolderCheckView
from app.gui.settings import Settings
from app.gui.tasks import TaskRunner
from core.batch import cache as document_cache


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings in a temporary INI file: tests never read or write the user's settings."""
    return Settings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))


@pytest.fixture
def sync_runner(qapp) -> TaskRunner:
    """Runs every job inline on the GUI thread: deterministic, for tests about what follows."""
    return TaskRunner(synchronous=True)


@pytest.fixture
def no_user_cache(monkeypatch) -> None:
    """The user's own cache folder is never touched: every test of the folder check names its
    cache file (`pytestmark = pytest.mark.usefixtures("no_user_cache")`)."""

    def refuse() -> Path:
        raise AssertionError("the test reached the user's cache folder")

    monkeypatch.setattr(document_cache, "default_cache_path", refuse)


@pytest.fixture
def folder_check_view(qtbot, settings: Settings, tmp_path: Path) -> FolderCheckView:
    """A shown Folder check tab with a real worker pool and a cache file of the test's own."""
    widget = FolderCheckView(settings, TaskRunner(), cache_path=tmp_path / "cache.sqlite3")
    qtbot.addWidget(widget)
    widget.resize(1300, 800)
    widget.show()
    return widget

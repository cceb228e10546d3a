"""A document cache that cannot be used never stops a folder check: the check runs without it
and the tab says why, in place."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.gui.message_bar import Level
from core.resources import resource_path

pytestmark = pytest.mark.usefixtures("no_user_cache")


def test_a_cache_that_is_a_folder_is_said_and_the_check_completes(
    qtbot, folder_check_view, tmp_path: Path
) -> None:
    view = folder_check_view
    blocker = tmp_path / "cache.sqlite3"  # the fixture's cache file, made a folder
    blocker.mkdir()
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("original-essay.txt", "reworded-copy.docx", "unrelated-essay.txt"):
        (folder / name).write_bytes(resource_path("samples", name).read_bytes())
    view.setup.inputs.add_paths([folder])
    with qtbot.waitSignal(view.finished, timeout=60_000) as done:
        view.setup.start_button.click()
    result = done.args[0]
    assert len(result.documents) == 3 and result.pairs

    bar = view.cache_bar
    assert bar.isVisible() and bar.level is Level.INFORMATION
    assert bar.text().startswith(f"The document cache {blocker} cannot be used: ")
    assert "checking without it" in bar.text()
    assert blocker.is_dir() and not any(blocker.iterdir())  # left as it was

"""The house's walls, checked on the source (not only at import, and besides import-linter's
contracts in pyproject.toml): the engine imports neither Qt nor the app; the command line
imports no Qt; the window and the command line never import each other."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "core"
QT = ("PySide6", "PyQt5", "PyQt6", "shiboken6")
FORBIDDEN = (*QT, "app")


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_core_never_imports_qt_or_the_gui() -> None:
    offenders = {
        str(path.relative_to(CORE.parent)): sorted(
            name for name in imported_modules(path) if name.split(".")[0] in FORBIDDEN
        )
        for path in CORE.rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}
    assert len(offenders) > 5  # the scan really saw the engine


def test_the_scan_catches_a_qt_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from PySide6.QtCore import QObject\n", encoding="utf-8")
    assert "PySide6.QtCore" in imported_modules(bad)


def _offenders(folder: Path, forbidden: tuple[str, ...]) -> dict[str, list[str]]:
    found = {
        str(path.relative_to(ROOT)): sorted(
            name
            for name in imported_modules(path)
            if any(name == f or name.startswith(f + ".") for f in forbidden)
        )
        for path in folder.rglob("*.py")
    }
    return {k: v for k, v in found.items() if v}


#: what runs without Qt installed: the command line, the launcher, and the window's parts that
#: must answer before Qt loads or be tested headless (the import-linter contract names the same)
QT_FREE = (
    "app/cli",
    "app/launcher.py",
    "app/gc_pause.py",
    "app/gui/preflight.py",
    "app/gui/arguments.py",
    "app/gui/compare/marks.py",
    "app/gui/compare/long_sentences.py",
)


def test_the_command_line_and_the_qt_free_parts_never_import_qt() -> None:
    for name in QT_FREE:
        path = ROOT / name
        assert path.exists(), name
        if path.is_dir():
            assert _offenders(path, QT) == {}, name
        else:
            assert not [m for m in imported_modules(path) if m.split(".")[0] in QT], name


def test_the_window_and_the_command_line_never_import_each_other() -> None:
    assert _offenders(ROOT / "app" / "gui", ("app.cli",)) == {}
    assert _offenders(ROOT / "app" / "cli", ("app.gui",)) == {}

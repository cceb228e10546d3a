"""The engine stays free of Qt and of the GUI: checked on the source, not only at import."""

from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parent.parent / "core"
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "app")


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

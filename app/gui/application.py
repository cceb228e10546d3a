"""Starts the desktop app: `doppel gui [FILE...] [--demo] [--screenshot PATH]`, or `doppel-gui`.

`--demo` opens the bundled sample essays; `--screenshot PATH` renders the main window once the
first comparison is on screen, saves it as PNG and exits 0 (it works offscreen, for docs and CI).
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from app.gui.arguments import build_parser
from core.resources import resource_path

DEMO_FILES = ("original-essay.txt", "reworded-copy.docx")
SCREENSHOT_TIMEOUT_MS = 60_000
SCREENSHOT_SIZE = (1400, 900)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from app.gui.crash import install_excepthook, setup_logging
    from app.gui.main_window import MainWindow
    from app.gui.settings import APPLICATION, ORGANISATION, Settings
    from app.gui.theme import apply_theme

    running = QApplication.instance()
    app = running if isinstance(running, QApplication) else QApplication(sys.argv[:1])
    app.setOrganizationName(ORGANISATION)
    app.setApplicationName(APPLICATION)
    apply_theme(app, args.theme)
    app.setWindowIcon(QIcon(str(resource_path("icons", "doppel.png"))))
    setup_logging()
    install_excepthook()
    if args.screenshot:
        # a fresh, throw-away settings file: the same picture every time, and the teacher's own
        # window state and recent files untouched
        scratch = tempfile.TemporaryDirectory(prefix="doppel-screenshot-")
        store = QSettings(str(Path(scratch.name) / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(Settings(store))
        window.resize(*SCREENSHOT_SIZE)
    else:
        window = MainWindow(Settings())
    paths = list(args.files)
    if args.demo:
        paths += [str(resource_path("samples", name)) for name in DEMO_FILES]

    if args.screenshot:
        target = args.screenshot

        def shoot(comparison: object) -> None:
            if comparison is None:
                return
            QApplication.processEvents()  # let the panes lay out their highlights
            ok = window.grab().save(target, "PNG")
            if not ok:
                print(f"doppel gui: could not write {target}", file=sys.stderr)
            app.exit(0 if ok else 1)

        def give_up() -> None:
            print(
                "doppel gui: no comparison to capture (need two readable documents)",
                file=sys.stderr,
            )
            app.exit(1)

        def idle(busy: bool) -> None:
            def check() -> None:  # after the event: a settle may start the comparison first
                if not window.session.busy and window.session.current is None:
                    give_up()  # everything loaded (or failed) and nothing to compare

            if not busy:
                QTimer.singleShot(0, check)

        window.comparison_shown.connect(lambda c: QTimer.singleShot(0, lambda: shoot(c)))
        window.session.busy_changed.connect(idle)
        QTimer.singleShot(SCREENSHOT_TIMEOUT_MS, give_up)
    window.show()
    # the demo and screenshots do not go into the teacher's recent files
    window.add_paths(paths, remember=not (args.demo or args.screenshot))
    exit_code = app.exec()
    window.close()  # saves the window state and stops the workers
    return exit_code


if __name__ == "__main__":
    sys.exit(main())

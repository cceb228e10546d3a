"""How responsive the window stays: UI-thread stalls while two 300-page PDFs load and compare,
and the time from launch to a usable window.

Stalls: a 1 ms QTimer on the GUI thread records the gap between its ticks while the documents
load and compare on worker threads and the result is put on screen; the longest gap is the
longest time the window could not respond. Baseline, same run: the same timer on an idle
window for the same duration (the machine's own timer jitter).

Launch: a child process is timed from its start until its main window is shown and the event
loop has run once. Baseline, same run: a bare PySide6 QMainWindow the same way.

    QT_QPA_PLATFORM=offscreen python bench/bench_ui.py [--pages 300]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from corpus import ROOT, machine, novels

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(ROOT / "tests" / "core"))  # the project's own document makers

WORDS_PER_PAGE = 450  # a printed page of an essay or thesis

LAUNCH_DOPPEL = """
import sys, time
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
from app.gui.main_window import MainWindow
from app.gui.settings import Settings
window = MainWindow(Settings(QSettings(sys.argv[1], QSettings.Format.IniFormat)))
window.show()
QTimer.singleShot(0, lambda: (print(time.time()), app.quit()))
app.exec()
"""
LAUNCH_BARE = """
import time
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication([])
window = QMainWindow()
window.show()
QTimer.singleShot(0, lambda: (print(time.time()), app.quit()))
app.exec()
"""


def launch_seconds(script: str, settings: Path, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.time()
        out = subprocess.run(
            [sys.executable, "-c", script, str(settings)],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        ).stdout
        times.append(float(out.strip().splitlines()[-1]) - started)
    return statistics.median(times)


def make_documents(folder: Path, pages: int) -> list[Path]:
    from docmakers import make_pdf

    paths = []
    longest = sorted(novels(), key=lambda p: p.stat().st_size)[-2:]  # both over 300 pages
    first: list[str] = []
    for number, novel in enumerate(longest):
        words = novel.read_text(encoding="utf-8").split()[: pages * WORDS_PER_PAGE]
        paragraphs = [" ".join(words[k : k + 120]) for k in range(0, len(words), 120)]
        if number == 0:
            first = paragraphs
        else:  # plant passages of the first so the comparison has something to show
            for at in (len(paragraphs) // 3, 2 * len(paragraphs) // 3):
                paragraphs[at:at] = first[at : at + 6]
        paths.append(make_pdf(folder / f"thesis-{number + 1}.pdf", paragraphs))
    return paths


def measure_stalls(paths: list[Path], settings_file: Path) -> dict[str, float]:
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from app.gui.main_window import MainWindow
    from app.gui.settings import Settings

    QApplication.instance() or QApplication([])
    window = MainWindow(Settings(QSettings(str(settings_file), QSettings.Format.IniFormat)))
    window.show()
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    timer = QTimer()
    timer.setInterval(1)
    timer.timeout.connect(tick)

    def run(duration: float | None) -> float:
        """Tick through loading, comparing and showing (None), or an idle `duration`."""
        gaps.clear()
        started = time.perf_counter()
        last[0] = started
        timer.start()
        loop = QEventLoop()
        if duration is None:
            window.comparison_shown.connect(lambda _c: QTimer.singleShot(300, loop.quit))
            QTimer.singleShot(0, lambda: window.add_paths(paths))  # the 300 ms: painting
        else:
            QTimer.singleShot(int(1000 * duration), loop.quit)
        loop.exec()
        timer.stop()
        return time.perf_counter() - started

    busy_seconds = run(None)
    busy = sorted(gaps)
    run(busy_seconds)
    idle = sorted(gaps)
    window.close()
    return {
        "load_and_compare_s": busy_seconds,
        "longest_stall_ms": 1000 * busy[-1],
        "p99_gap_ms": 1000 * busy[int(0.99 * (len(busy) - 1))],
        "idle_longest_gap_ms": 1000 * idle[-1],
        "stall_over_idle": busy[-1] / idle[-1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "ui.json")
    args = parser.parse_args()
    if len(novels()) < 2:
        print("corpus not found (../shared/corpus/gutenberg or $DOPPEL_CORPUS): skipped")
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        settings_file = folder / "settings.ini"
        print(f"machine: {machine()}")
        doppel = launch_seconds(LAUNCH_DOPPEL, settings_file, args.repeat)
        bare = launch_seconds(LAUNCH_BARE, settings_file, args.repeat)
        print(
            f"launch to usable window: {doppel:.2f} s (bare Qt window {bare:.2f} s, "
            f"x{doppel / bare:.1f})"
        )
        paths = make_documents(folder, args.pages)
        sizes = ", ".join(f"{p.name} {p.stat().st_size / 1e6:.1f} MB" for p in paths)
        print(f"documents: {sizes}")
        stalls = measure_stalls(paths, settings_file)
    print(
        f"load + compare + show: {stalls['load_and_compare_s']:.1f} s; longest UI stall "
        f"{stalls['longest_stall_ms']:.0f} ms (idle baseline {stalls['idle_longest_gap_ms']:.0f} "
        f"ms, x{stalls['stall_over_idle']:.1f}); 99th percentile gap {stalls['p99_gap_ms']:.1f} ms"
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {"machine": machine(), "launch_s": doppel, "bare_launch_s": bare, **stalls}, indent=2
        )
    )
    print(f"written {args.out}")


if __name__ == "__main__":
    main()

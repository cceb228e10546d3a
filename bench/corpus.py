"""Shared by the benchmarks: finding the Gutenberg corpus and turning it into documents."""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script from any folder

CORPUS_ENV = "DOPPEL_CORPUS"


def corpus_dir() -> Path | None:
    """`$DOPPEL_CORPUS`, else ../shared/corpus/gutenberg beside the checkout; None if absent."""
    candidates = [os.environ.get(CORPUS_ENV), ROOT.parent / "shared" / "corpus" / "gutenberg"]
    for candidate in candidates:
        if candidate and Path(candidate).is_dir() and any(Path(candidate).glob("*.txt")):
            return Path(candidate)
    return None


def novels() -> list[Path]:
    folder = corpus_dir()
    return sorted(folder.glob("*.txt")) if folder else []


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.system()} {platform.release()}"
    )

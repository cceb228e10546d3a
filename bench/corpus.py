"""Shared by the benchmarks: finding the Gutenberg corpus (and the P4P data of the evaluation)
and turning it into documents."""

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


P4P_ENV = "DOPPEL_P4P"
P4P_FILES = ("p4p_reference.txt", "p4p_source.txt")


def p4p_dir() -> Path | None:
    """`$DOPPEL_P4P`, else ../shared/corpus/p4p beside the checkout, when it holds the two P4P
    files (bench/eval_p4p.py); None if absent. Research-use data: read there, never copied."""
    candidates = [os.environ.get(P4P_ENV), ROOT.parent / "shared" / "corpus" / "p4p"]
    for candidate in candidates:
        if candidate and all((Path(candidate) / name).is_file() for name in P4P_FILES):
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

"""When the computer, not Doppel, stops a check (a full disk, a read-only folder), the command
line says so in words and with what to do, never "internal error" and never a traceback."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli.main import system_reason

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import resource, signal, sys
sys.path.insert(0, sys.argv[1])
sys.dont_write_bytecode = True
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
limit = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from app.cli.main import main
sys.exit(main(["batch", *sys.argv[3:], "--lang", "en", "--jobs", "1", "--no-cache"]))
"""


def test_full_and_read_only_disks_are_said_in_words() -> None:
    full = system_reason(OSError(errno.ENOSPC, "No space left on device", "/data/report.csv"))
    assert full is not None
    assert full.startswith("could not write /data/report.csv: the disk is full — free some space")
    assert "TMPDIR" in full
    spool = system_reason(OSError(errno.ENOSPC, "No space left on device"))
    assert spool is not None and spool.startswith("could not write a temporary file: ")
    read_only = system_reason(OSError(errno.EROFS, "Read-only file system", "/mnt/out.csv"))
    assert read_only == "could not write /mnt/out.csv: the folder is on a read-only disk"
    assert system_reason(OSError(errno.ECONNRESET, "reset")) is None  # not about disks


@pytest.mark.skipif(os.name != "posix", reason="file-size limits are POSIX")
def test_a_temporary_folder_that_fills_up_is_said_not_an_internal_error(tmp_path: Path) -> None:
    """The common-text pass spools every document's fingerprints to a temporary file; a full
    disk stops it with a sentence naming the cause and the way out."""
    folder = tmp_path / "class"
    folder.mkdir()
    for k in range(40):
        words = " ".join(f"w{k}x{j}" for j in range(300))
        (folder / f"essay{k:02d}.txt").write_text(f"{words}. {words}.", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(ROOT), str(16 * 1024), str(folder)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    assert done.returncode == 1
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("doppel: could not write a temporary file: ")
    assert f"temporary files go to {tmp_path}" in line


def test_reader_processes_that_cannot_start_are_said(capsys, monkeypatch, tmp_path: Path) -> None:
    from concurrent.futures.process import BrokenProcessPool

    from app.cli import batch as batch_command
    from app.cli.main import main

    def broken(*_args: object, **_kwargs: object) -> None:
        raise BrokenProcessPool("the reader processes stop before they are given a document")

    monkeypatch.setattr(batch_command, "run_batch", broken)
    (tmp_path / "a.txt").write_text("One sentence here. Another one there.", encoding="utf-8")
    code = main(["batch", str(tmp_path), "--no-cache"])
    _, err = capsys.readouterr()
    assert code == 1
    assert err.strip() == (
        "doppel: the reader processes could not start (the reader processes stop before they "
        "are given a document); the check was not run"
    )

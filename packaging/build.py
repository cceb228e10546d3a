"""Builds the packaged app for the machine it runs on: `make package` (or `--onefile`).

Linux and Windows get a one-folder app in dist/Doppel/, macOS a dist/Doppel.app bundle;
`--onefile` builds a single executable, dist/onefile/Doppel (slower to start: it unpacks
itself first).
Prints the bundle's size; `--check` then runs every command of the command table from the
bundle (`compare`, `batch --json`, `phrases --json`, `languages`, `self-test`, a demo
screenshot offscreen), as CI does.

    .venv/bin/python packaging/build.py [--onefile] [--check]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
LINUX_SIZE_LIMIT_MB = 195  # docs/packaging.md


def distpath(onefile: bool) -> Path:
    """dist/ for the folder app, dist/onefile/ for the single executable (same names)."""
    return DIST / "onefile" if onefile else DIST


def executable(onefile: bool) -> Path:
    if sys.platform == "darwin" and not onefile:
        return DIST / "Doppel.app" / "Contents" / "MacOS" / "Doppel"
    name = "Doppel.exe" if sys.platform == "win32" else "Doppel"
    return DIST / "onefile" / name if onefile else DIST / "Doppel" / name


def bundle(onefile: bool) -> Path:
    if onefile:
        return executable(True)
    return DIST / ("Doppel.app" if sys.platform == "darwin" else "Doppel")


def size_mb(path: Path) -> float:
    """Unpacked size on disk, each file once (the bundle links some libraries twice)."""
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files if not p.is_symlink()) / 1e6


def build(onefile: bool) -> Path:
    env = dict(os.environ, DOPPEL_ONEFILE="1" if onefile else "0")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--clean",
            "--log-level=WARN",
            "--distpath",
            str(distpath(onefile)),
            "--workpath",
            str(ROOT / "build"),
            str(ROOT / "packaging" / "doppel.spec"),
        ],
        check=True,
        cwd=ROOT,
        env=env,
    )
    return bundle(onefile)


def command_checks(samples: Path, folder: Path) -> dict[str, list[list[str]]]:
    """The bundle runs every command of the command table (app.cli.commands), each with
    arguments that make it do real work; the JSON ones are parsed."""
    original = str(samples / "original-essay.txt")
    copy = str(samples / "reworded-copy.docx")
    return {
        "compare": [["compare", original, copy], ["compare", original, copy, "--json"]],
        "batch": [["batch", str(samples), "--json", "--cache", str(folder / "cache.sqlite")]],
        "archive": [
            ["archive", "add", original, "--index", str(folder / "archive.sqlite3"), "--json"],
            [
                "archive",
                "check",
                copy,
                "--index",
                str(folder / "archive.sqlite3"),
                "--json",
                "--cache",
                str(folder / "cache.sqlite"),
            ],
            ["archive", "info", "--index", str(folder / "archive.sqlite3"), "--json"],
        ],
        "phrases": [["phrases", original, copy, "--json"]],
        "report": [
            [
                "report",
                original,
                copy,
                "--pdf",
                str(folder / "evidence.pdf"),
                "--html",
                str(folder / "evidence.html"),
            ]
        ],
        "languages": [["languages"]],
        "self-test": [["self-test"], ["--self-test"]],
        "gui": [["gui", "--demo", "--screenshot", str(folder / "demo.png")]],
    }


def check(onefile: bool) -> None:
    """Run every command of the command table from the bundle (offscreen), as CI does."""
    sys.path.insert(0, str(ROOT))
    from app.cli.commands import COMMANDS
    from core.resources import resource_path

    program = str(executable(onefile))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    version = subprocess.run([program, "--version"], check=True, env=env, capture_output=True)
    print(version.stdout.decode().strip())
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        checks = command_checks(resource_path("samples"), folder)
        unchecked = {c.name for c in COMMANDS} - set(checks)
        if unchecked:
            raise SystemExit(f"the bundle check runs no {', '.join(sorted(unchecked))}")
        for runs in checks.values():
            for argv in runs:
                done = subprocess.run(
                    [program, *argv], env=env, capture_output=True, text=True, check=False
                )
                if done.returncode != 0:
                    raise SystemExit(
                        f"the bundle's `{' '.join(argv[:2])} ...` exited {done.returncode}:\n"
                        f"{done.stdout[-2000:]}{done.stderr[-2000:]}"
                    )
                if "--json" in argv:
                    json.loads(done.stdout)  # the command line ran, not the window
                print(f"bundle: {' '.join(argv[:1])} {'--json ' if '--json' in argv else ''}ok")
        if (folder / "evidence.pdf").read_bytes()[:5] != b"%PDF-":
            raise SystemExit("the bundle's evidence report is not a PDF")
        shot = folder / "demo.png"
        if shot.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n":
            raise SystemExit("the bundle's screenshot is not a PNG")
        print(f"screenshot from the bundle: {shot.stat().st_size} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--onefile", action="store_true", help="one executable, not a folder")
    parser.add_argument("--check", action="store_true", help="run the bundle's self-test")
    parser.add_argument(
        "--max-mb",
        type=float,
        default=LINUX_SIZE_LIMIT_MB,
        help="with --check on Linux: fail when the folder bundle is larger [default: %(default)s]",
    )
    args = parser.parse_args()
    path = build(args.onefile)
    size = size_mb(path)
    print(f"built {path}: {size:.0f} MB")
    if args.check:
        check(args.onefile)
        if sys.platform.startswith("linux") and not args.onefile and size > args.max_mb:
            # what the build machine has installed can pull libraries in (GTK did once)
            raise SystemExit(f"the bundle is {size:.0f} MB, over the {args.max_mb:.0f} MB target")


if __name__ == "__main__":
    main()

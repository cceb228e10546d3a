"""The optional coverage-guided engine for the longer run: atheris (libFuzzer for Python).

    python tests/fuzz/run_fuzz.py --engine atheris [--seconds 1800] [--targets docx,pdf]
    python tests/fuzz/atheris_engine.py FORMAT [libFuzzer options...]   # one format

atheris installs from PyPI as Linux wheels for CPython (`pip install -e '.[fuzz]'`; checked
with atheris 3.0.0 on CPython 3.11, Linux x86-64); elsewhere the Hypothesis campaigns are the
fuzzer. Coverage guidance needs the importers instrumented in the fuzzing process itself, so
here the limits are libFuzzer's own, per input: -rss_limit_mb=512 and -timeout=5 (a
MemoryError counts as running out of memory too). Each input's bytes choose a seed and its
mutations, or build a file of the format (the same `mutate` and builders as the Hypothesis
campaigns: fuzz_inputs.py); the property is the same. A failure stops that format's run, its
input saved as build/fuzz/atheris/<format>/crash-*: replay it with
`python tests/fuzz/fuzz_sandbox.py FILE`, and add it to tests/fuzz/regressions/."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
OUT = Path(os.environ.get("DOPPEL_FUZZ_OUT", ROOT / "build" / "fuzz")) / "atheris"


def run_atheris(seconds: float, targets: list[str] | None) -> int:
    """Each format (or those whose names start the given targets) for its share of
    `seconds`, one libFuzzer process each; 1 if any found a failure."""
    try:
        import atheris  # noqa: F401
    except ImportError:
        print("atheris is not installed (pip install -e '.[fuzz]', Linux only)")
        return 2
    from fuzz_inputs import FORMATS

    formats = [f for f in FORMATS if targets is None or any(t.split("-")[0] == f for t in targets)]
    share = max(1, int(seconds / len(formats)))
    failed = False
    for fmt in formats:
        folder = OUT / fmt
        corpus = folder / "corpus"
        corpus.mkdir(parents=True, exist_ok=True)
        command = [
            sys.executable,
            str(Path(__file__)),
            fmt,
            f"-max_total_time={share}",
            "-rss_limit_mb=512",
            "-timeout=5",
            f"-artifact_prefix={folder}/",
            "-print_final_stats=1",
            str(corpus),
        ]
        code = subprocess.run(command, cwd=ROOT, check=False).returncode
        print(f"atheris {fmt}: {'FAILED, see ' + str(folder) if code else 'no failure'}")
        failed |= code != 0
    return 1 if failed else 0


def main() -> None:
    import atheris

    fmt = sys.argv[1]
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(HERE))
    from fuzz_inputs import make_seeds

    seeds = make_seeds().of(fmt)
    with atheris.instrument_imports():
        from core.documents.document import load_document
        from core.documents.extract import extract
        from core.errors import DocumentError
    from fuzz_inputs import SUFFIXES, build, mutate

    folder = tempfile.mkdtemp(prefix="doppel-atheris-")
    suffixes = SUFFIXES[fmt]

    def one_input(data: bytes) -> None:
        if len(data) < 2:
            return
        how, which = data[0], data[1]
        if how % 2:
            case = mutate(seeds[which % len(seeds)], data[2:], seeds, fmt)
        else:
            case = build(fmt, data[2:])
        path = Path(folder) / f"case{suffixes[which % len(suffixes)]}"
        path.write_bytes(case)
        try:
            (load_document if how % 4 == 3 else extract)(path)
        except DocumentError as error:
            cause: BaseException | None = error
            while cause is not None:
                if isinstance(cause, MemoryError):
                    raise MemoryError(f"ran out of memory: {error!r}") from error
                cause = cause.__cause__ or cause.__context__
            if not error.reason.strip():
                raise AssertionError(f"a DocumentError without a reason: {error!r}") from error
        if path.read_bytes() != case:
            raise AssertionError("the input file changed")

    atheris.Setup([sys.argv[0], *sys.argv[2:]], one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()

"""The optional coverage-guided engine for the longer run: atheris (libFuzzer for Python).

    python tests/fuzz/run_fuzz.py --engine atheris [--seconds 1800] [--targets docx,pdf]
    python tests/fuzz/atheris_engine.py FORMAT [libFuzzer options...]   # one format
    python tests/fuzz/atheris_engine.py FORMAT --case ARTIFACT          # the file it made

atheris installs from PyPI as Linux wheels for CPython (`pip install -e '.[fuzz]'`; checked
with atheris 3.0.0 on CPython 3.11, Linux x86-64); elsewhere the Hypothesis campaigns are the
fuzzer. Coverage guidance needs the importers instrumented in the fuzzing process itself, so
here the limits are libFuzzer's own, per input: -rss_limit_mb=512 and -timeout=20 (wall clock:
the instrumented code runs 3-4 times slower, and a 1.5 s case took more than 5 s); a
MemoryError counts as running out of memory too. Each input's bytes choose a seed and its
mutations, or build a file of the format (the same `mutate` and builders as the Hypothesis
campaigns: fuzz_inputs.py); the property is the same. A failure stops that format's run.
libFuzzer saves the input's bytes as build/fuzz/atheris/<format>/crash-* (or timeout-*,
oom-*); the file they made is last-case.<suffix> beside it (every input overwrites it), and
`--case ARTIFACT` makes it again. Replay it with `python tests/fuzz/fuzz_sandbox.py FILE`,
and add it to tests/fuzz/regressions/."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
OUT = Path(os.environ.get("DOPPEL_FUZZ_OUT", ROOT / "build" / "fuzz")) / "atheris"
#: libFuzzer's exit code when stopped by a signal, as at the end of -max_total_time at times
_INTERRUPTED = 72


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
            "-timeout=20",  # wall clock, and instrumented code runs 3-4 times slower
            f"-artifact_prefix={folder}/",
            "-print_final_stats=1",
            str(corpus),
        ]
        code = subprocess.run(command, cwd=ROOT, check=False).returncode
        found = code not in (0, _INTERRUPTED)  # libFuzzer: 70 a timeout, 77 a crash or OOM
        print(f"atheris {fmt}: {'FAILED, see ' + str(folder) if found else 'no failure'}")
        failed |= found
    return 1 if failed else 0


def make_case(fmt: str, data: bytes, seeds: tuple[bytes, ...]) -> tuple[str, bytes] | None:
    """The (suffix, file) an input's bytes make: its first byte says mutate or build (and, odd
    then even, extract or load_document), its second which seed and suffix."""
    from fuzz_inputs import SUFFIXES, build, mutate

    if len(data) < 2:
        return None
    how, which = data[0], data[1]
    if how % 2:
        case = mutate(seeds[which % len(seeds)], data[2:], seeds, fmt)
    else:
        case = build(fmt, data[2:])
    return SUFFIXES[fmt][which % len(SUFFIXES[fmt])], case


def main() -> None:
    fmt = sys.argv[1]
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(HERE))
    from fuzz_inputs import make_seeds

    seeds = make_seeds().of(fmt)
    if sys.argv[2:3] == ["--case"]:
        made = make_case(fmt, Path(sys.argv[3]).read_bytes(), seeds)
        assert made is not None, "an input of fewer than 2 bytes makes no file"
        target = Path(sys.argv[3]).with_suffix(made[0])
        target.write_bytes(made[1])
        print(target)
        return

    import atheris

    with atheris.instrument_imports():
        from core.documents.document import load_document
        from core.documents.extract import extract
        from core.errors import DocumentError

    folder = OUT / fmt
    folder.mkdir(parents=True, exist_ok=True)

    def one_input(data: bytes) -> None:
        made = make_case(fmt, data, seeds)
        if made is None:
            return
        suffix, case = made
        how = data[0]
        path = folder / f"last-case{suffix}"
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

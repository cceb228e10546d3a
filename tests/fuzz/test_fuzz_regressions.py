"""Every input the fuzzer ever failed on, replayed on every run (docs/reliability.md,
"Fuzzing"): tests/fuzz/regressions/<format>/<name>.<suffix>, through extract and through
load_document, in the fuzzer's sandbox (512 MB, 5 s of CPU), under the fuzzer's property.

known.json lists those that still fail, each with the reason and the failure's signatures:
they are strict xfails, so the importer's owner flips one (removes its entry) when the fix
lands, and a fix that lands unnoticed fails the run until then. Add a file here, small, for
every new failure the fuzzer finds (run_fuzz.py saves them under build/fuzz/)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fuzz_campaign import KNOWN, REGRESSIONS
from fuzz_sandbox import Sandbox

KNOWN_FAILURES: dict[str, dict[str, object]] = (
    json.loads(KNOWN.read_text(encoding="utf-8")) if KNOWN.exists() else {}
)
INPUTS = sorted(
    path
    for path in REGRESSIONS.rglob("*")
    if path.is_file() and path != KNOWN and path.suffix != ".md"
)


def _cases() -> list[object]:
    cases = []
    for path in INPUTS:
        name = path.relative_to(REGRESSIONS).as_posix()
        for mode in ("extract", "load"):
            known = KNOWN_FAILURES.get(name)
            marks = []
            if known is not None and mode in known.get("modes", ["extract", "load"]):  # type: ignore[operator]
                marks.append(pytest.mark.xfail(strict=True, reason=str(known["reason"])))
            cases.append(pytest.param(path, mode, marks=marks, id=f"{name}-{mode}"))
    if not cases:
        skip = pytest.mark.skip(reason="no input has failed the fuzzer yet")
        cases.append(pytest.param(None, "extract", marks=skip, id="none-yet"))
    return cases


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox() as running:
        yield running


def test_every_known_failure_has_its_input() -> None:
    names = {path.relative_to(REGRESSIONS).as_posix() for path in INPUTS}
    assert set(KNOWN_FAILURES) <= names
    for entry in KNOWN_FAILURES.values():
        assert entry["reason"] and entry["signatures"]


@pytest.mark.parametrize(("path", "mode"), _cases())
def test_a_past_failure_is_handled(path: Path, mode: str, sandbox: Sandbox) -> None:
    outcome = sandbox.run(path.read_bytes(), path.suffix, mode)
    assert not outcome.failed, (
        f"{outcome.status} ({outcome.signature}): {outcome.detail}\n{outcome.traceback}"
    )

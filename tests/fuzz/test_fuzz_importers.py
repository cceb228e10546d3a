"""The fuzzing budget of every test run (docs/reliability.md, "Fuzzing").

Every importer (core.documents.extract for .txt, .md, .docx, .odt, .pdf, .rtf, .html and .htm)
gets mutated real files and generated structures, and load_document gets both for every format,
end to end, each case in a worker process with 512 MB of address space and 5 s of CPU
(fuzz_sandbox.py). The property: a result, or a DocumentError with a reason; the file unchanged.

The whole budget is DOPPEL_FUZZ_SECONDS (150 s by default; 0 skips these tests), shared out by
weight (fuzz_campaign.TARGETS). A failure whose signature tests/fuzz/regressions/known.json
lists (a reported importer bug, replayed as an xfail in test_fuzz_regressions.py) is counted,
not failed; any other fails its test, naming the saved input (build/fuzz/<target>/). Each
target's throughput is printed as it ends, and all of them go to build/fuzz/report.json."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from fuzz_campaign import Result, Target, campaign, known_signatures, plan, report
from fuzz_inputs import Seeds, make_seeds
from fuzz_sandbox import Sandbox

BUDGET = float(os.environ.get("DOPPEL_FUZZ_SECONDS", "150"))
PLAN = plan(BUDGET)
RESULTS: list[Result] = []


@pytest.fixture(scope="module")
def seeds() -> Seeds:
    return make_seeds()


@pytest.fixture(scope="module")
def sandbox(seeds: Seeds) -> Iterator[Sandbox]:
    with Sandbox(warm_up=seeds.warm_up()) as running:
        running.start()
        yield running
    if RESULTS:
        report(RESULTS)


@pytest.mark.fuzz
@pytest.mark.parametrize(("target", "seconds"), PLAN, ids=[target.name for target, _ in PLAN])
def test_importers_hold_their_promise_under_fuzzing(
    target: Target,
    seconds: float,
    seeds: Seeds,
    sandbox: Sandbox,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if seconds <= 0:
        pytest.skip("DOPPEL_FUZZ_SECONDS=0")
    result = campaign(target, seeds, seconds, sandbox, known_signatures())
    RESULTS.append(result)
    with capsys.disabled():
        print(f"\n  fuzz {result.summary()}", end="")
    assert result.cases > 0
    assert not result.harness_errors, "the fuzzer's own error:\n" + "\n".join(result.harness_errors)
    assert not result.new, "\n\n".join(
        f"{f.status} ({f.signature}) on {f.saved}\n{f.detail}\n{f.traceback}" for f in result.new
    )

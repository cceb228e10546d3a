"""The longer fuzzing run, before a release: `make fuzz` (docs/reliability.md, "Fuzzing").

    python tests/fuzz/run_fuzz.py [--seconds 1800] [--targets docx-mutated,pdf-generated]
                                  [--engine hypothesis|atheris]

Runs every target (or those named) for its share of --seconds (default $DOPPEL_FUZZ_SECONDS,
else 1800), with the heavy inputs too (DOPPEL_FUZZ_HEAVY=1: zip parts of 20 to 300 MB inside
every ratio limit, fuzz_inputs.HEAVY), prints each one's throughput and findings, writes
build/fuzz/report.json and the failing inputs under build/fuzz/<target>/, and exits 1 if
anything new was found (a failure whose signature tests/fuzz/regressions/known.json does not
list). `--engine atheris` runs each format under atheris (coverage-guided libFuzzer) instead,
where it is installed (the `fuzz` extra: Linux wheels): see atheris_engine.py."""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("DOPPEL_FUZZ_HEAVY", "1")  # before fuzz_inputs reads it

from fuzz_campaign import TARGETS, Result, campaign, known_signatures, plan, report
from fuzz_inputs import make_seeds
from fuzz_sandbox import Sandbox


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=float(os.environ.get("DOPPEL_FUZZ_SECONDS", 1800))
    )
    parser.add_argument("--targets", type=lambda text: text.split(","), default=None)
    parser.add_argument("--engine", choices=("hypothesis", "atheris"), default="hypothesis")
    args = parser.parse_args()
    unknown = set(args.targets or ()) - {t.name for t in TARGETS}
    if unknown:
        parser.error(f"unknown targets {sorted(unknown)}; choose from {[t.name for t in TARGETS]}")
    if args.engine == "atheris":
        from atheris_engine import run_atheris

        return run_atheris(args.seconds, args.targets)
    seeds = make_seeds()
    known = known_signatures()
    results: list[Result] = []
    started = time.monotonic()
    with Sandbox(warm_up=seeds.warm_up()) as sandbox:
        sandbox.start()
        for target, seconds in plan(args.seconds, args.targets):
            result = campaign(target, seeds, seconds, sandbox, known)
            results.append(result)
            print(result.summary(), flush=True)
            for finding in result.new:
                print(f"  NEW {finding.signature}: {finding.detail}\n  input: {finding.saved}")
            for error in result.harness_errors:
                print(f"  HARNESS ERROR (the fuzzer's own bug): {error[:300]}")
    path = report(results)
    new = [f for r in results for f in r.new]
    cases = sum(r.cases for r in results)
    print(
        f"{cases} cases in {time.monotonic() - started:.0f} s; "
        f"{len(new)} new failure(s); report: {path}"
    )
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())

"""A fuzzing campaign: Hypothesis draws cases for a while, the sandbox runs each, failures are
saved as files and grouped by signature. Used by test_fuzz_importers.py (the CI budget) and
run_fuzz.py (`make fuzz`, the longer run before a release). See docs/reliability.md, "Fuzzing".

Hypothesis serves as the generator: its strategies build the mutated and generated inputs
(fuzz_inputs.py), and the test function runs in batches of BATCH examples, again and again
with fresh random data, until the time is up. A failing case does not stop the campaign and is
not shrunk there (each try could cost the full CPU limit): it is saved, with its outcome and
traceback, to the failures folder, and the campaign goes on. A failure whose signature is
known (tests/fuzz/regressions/known.json: an importer bug already reported, its reproducer an
xfail regression test) is counted but does not fail the run; any other is new."""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import fuzz_inputs
from fuzz_inputs import FORMATS, SUFFIXES, Seeds
from fuzz_sandbox import Outcome, Sandbox
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
REGRESSIONS = Path(__file__).resolve().parent / "regressions"
KNOWN = REGRESSIONS / "known.json"
#: where failing inputs go (build/ is not committed)
FAILURES = Path(os.environ.get("DOPPEL_FUZZ_OUT", ROOT / "build" / "fuzz"))
BATCH = 50


Case = tuple[str, bytes]  # (file suffix, contents)


@dataclass(frozen=True)
class Target:
    """What a campaign fuzzes: `cases(seeds)` draws (suffix, bytes) for `mode` ("extract":
    core.documents.extract, or "load": load_document end to end); `weight` is its share of
    the time."""

    name: str
    mode: str
    cases: Callable[[Seeds], st.SearchStrategy[Case]]
    weight: float


def _mutated(fmt: str) -> Callable[[Seeds], st.SearchStrategy[Case]]:
    return lambda seeds: st.tuples(
        st.sampled_from(SUFFIXES[fmt]), fuzz_inputs.mutated(seeds.of(fmt), fmt)
    )


def _generated(fmt: str) -> Callable[[Seeds], st.SearchStrategy[Case]]:
    return lambda seeds: st.tuples(st.sampled_from(SUFFIXES[fmt]), fuzz_inputs.generated(fmt))


def _any_format(seeds: Seeds) -> st.SearchStrategy[Case]:
    return st.one_of(
        *(_mutated(fmt)(seeds) for fmt in FORMATS), *(_generated(fmt)(seeds) for fmt in FORMATS)
    )


#: the weight of each format's two campaigns: the zip and PDF readers get the most time
_WEIGHTS = {"txt": 0.5, "md": 0.3, "docx": 1.4, "odt": 1.4, "pdf": 1.4, "rtf": 0.8, "html": 0.8}

TARGETS: tuple[Target, ...] = (
    *(
        Target(f"{fmt}-{source}", "extract", make(fmt), _WEIGHTS[fmt])
        for fmt in FORMATS
        for source, make in (("mutated", _mutated), ("generated", _generated))
    ),
    Target("any-load", "load", _any_format, 1.3),
)


def plan(total_seconds: float, names: list[str] | None = None) -> list[tuple[Target, float]]:
    """The targets (all, or those named) with their share of `total_seconds`."""
    chosen = [t for t in TARGETS if names is None or t.name in names]
    weight = sum(t.weight for t in chosen) or 1.0
    return [(t, total_seconds * t.weight / weight) for t in chosen]


@dataclass
class Finding:
    """One failure signature: how often it was hit and the first input that hit it."""

    signature: str
    status: str
    detail: str
    traceback: str
    saved: Path
    hits: int = 1
    known: bool = False


@dataclass
class Result:
    target: Target
    seconds: float = 0.0
    cases: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    findings: dict[str, Finding] = field(default_factory=dict)
    worker_starts: int = 0
    harness_errors: list[str] = field(default_factory=list)  # the fuzzer's own, not Doppel's

    @property
    def rate(self) -> float:
        return self.cases / self.seconds if self.seconds else 0.0

    @property
    def new(self) -> list[Finding]:
        return [f for f in self.findings.values() if not f.known]

    def summary(self) -> str:
        found = ", ".join(
            f"{f.signature} ×{f.hits}{' (known)' if f.known else ''}"
            for f in self.findings.values()
        )
        statuses = ", ".join(f"{status} {count}" for status, count in sorted(self.statuses.items()))
        errors = f"; {len(self.harness_errors)} harness error(s)" if self.harness_errors else ""
        return (
            f"{self.target.name}: {self.cases} cases in {self.seconds:.1f} s "
            f"({self.rate:.1f}/s; {statuses}){'; found: ' + found if found else ''}{errors}"
        )

    def as_json(self) -> dict[str, object]:
        return {
            "target": self.target.name,
            "cases": self.cases,
            "seconds": round(self.seconds, 2),
            "cases_per_second": round(self.rate, 2),
            "statuses": dict(self.statuses),
            "worker_starts": self.worker_starts,
            "harness_errors": self.harness_errors,
            "findings": [
                {
                    "signature": f.signature,
                    "status": f.status,
                    "detail": f.detail,
                    "hits": f.hits,
                    "known": f.known,
                    "saved": str(f.saved),
                }
                for f in self.findings.values()
            ],
        }


def known_signatures() -> dict[str, str]:
    """signature -> the reason it is tolerated, from known.json's entries."""
    if not KNOWN.exists():
        return {}
    entries = json.loads(KNOWN.read_text(encoding="utf-8"))
    return {
        signature: entry["reason"]
        for entry in entries.values()
        for signature in entry.get("signatures", [])
    }


def save(data: bytes, suffix: str, target: Target, outcome: Outcome) -> Path:
    """The failing input and what it did, under FAILURES/<target>/<sha>.<suffix> (+ .txt)."""
    folder = FAILURES / target.name
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{hashlib.sha256(data).hexdigest()[:16]}{suffix}"
    path.write_bytes(data)
    path.with_name(path.name + ".txt").write_text(
        f"target: {target.name}\nmode: {target.mode}\nstatus: {outcome.status}\n"
        f"signature: {outcome.signature}\ndetail: {outcome.detail}\n"
        f"seconds: {outcome.seconds:.2f}\n\n{outcome.traceback}",
        encoding="utf-8",
    )
    return path


def campaign(
    target: Target,
    seeds: Seeds,
    seconds: float,
    sandbox: Sandbox,
    known: dict[str, str] | None = None,
) -> Result:
    """Run `target` for about `seconds` (the case in flight finishes)."""
    known = known_signatures() if known is None else known
    result = Result(target)
    starts = sandbox.starts
    started = time.monotonic()
    deadline = started + seconds

    @settings(
        max_examples=BATCH,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=target.cases(seeds))
    def batch(case: Case) -> None:
        if time.monotonic() >= deadline:
            return
        suffix, data = case
        outcome = sandbox.run(data, suffix, target.mode)
        result.cases += 1
        result.statuses[outcome.status] += 1
        if not outcome.failed:
            return
        finding = result.findings.get(outcome.signature)
        if finding is not None:
            finding.hits += 1
            return
        result.findings[outcome.signature] = Finding(
            outcome.signature,
            outcome.status,
            outcome.detail,
            outcome.traceback,
            save(data, suffix, target, outcome),
            known=outcome.signature in known,
        )

    while time.monotonic() < deadline:
        try:
            batch()
        except Exception as error:  # the fuzzer's own bug (a generator): noted, not fatal
            result.harness_errors.append(f"{type(error).__name__}: {error}"[:2000])
            if len(result.harness_errors) >= 20:
                break
    result.seconds = time.monotonic() - started
    result.worker_starts = sandbox.starts - starts
    return result


def report(results: list[Result], path: Path | None = None) -> Path:
    """All results as JSON (FAILURES/report.json unless told), for the release checklist."""
    path = path or FAILURES / "report.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([r.as_json() for r in results], indent=2), encoding="utf-8")
    return path

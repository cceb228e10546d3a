"""The fuzzer's own oracle: the sandbox sees every way a case can go wrong (fuzz_sandbox.py).

The worker has cases that misbehave on purpose, one way each; each must come back as its
failure kind, with a signature, and the next case must run in a fresh worker. A tight sandbox
(1 s of CPU, 400 MB, 8 s of wall clock) keeps these quick."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fuzz_sandbox import Sandbox

ESSAY = b"The river had been rising for three days. Nobody remembered a spring like it.\n"


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(memory_mb=400, cpu_seconds=1, wall_seconds=8.0) as tight:
        yield tight


@pytest.mark.parametrize(
    ("mode", "status", "signature"),
    [
        ("_spin", "timeout", "timeout:CpuLimitExceeded:fuzz_sandbox.py:_spin"),
        ("_allocate", "oom", "oom:MemoryError:"),
        ("_wrapped_oom", "oom", "oom:MemoryError:"),  # a DocumentError from a MemoryError
        ("_crash", "crash", "crash:SIGSEGV"),
        ("_raise", "exception", "exception:KeyError:"),
        ("_no_reason", "no-reason", "no-reason:CorruptDocument:"),
        ("_block", "hang", "hang"),
        ("_modify", "modified", "modified"),
        ("_wrong_type", "exception", "wrong-type"),
    ],
)
def test_each_misbehaviour_is_caught(
    sandbox: Sandbox, mode: str, status: str, signature: str
) -> None:
    outcome = sandbox.run(ESSAY, ".txt", mode)
    assert outcome.failed
    assert outcome.status == status, outcome
    assert outcome.signature.startswith(signature), outcome
    # the worker that failed is gone; a fresh one takes the next case
    starts = sandbox.starts
    assert sandbox.run(ESSAY, ".txt").status == "ok"
    assert sandbox.starts == starts + 1


def test_good_and_bad_documents_pass(sandbox: Sandbox) -> None:
    assert sandbox.run(ESSAY, ".txt").status == "ok"
    assert sandbox.run(ESSAY, ".txt", "load").status == "ok"
    for data, suffix in ((b"", ".txt"), (b"PK\x03\x04 not a zip", ".docx"), (b"%PDF-", ".pdf")):
        outcome = sandbox.run(data, suffix)
        assert outcome.status == "document-error" and not outcome.failed, outcome


def test_a_signature_names_where_it_happened(sandbox: Sandbox) -> None:
    outcome = sandbox.run(ESSAY, ".txt", "_raise")
    assert outcome.signature == "exception:KeyError:fuzz_sandbox.py:_raise"
    assert "KeyError" in outcome.traceback and "_raise" in outcome.traceback

"""`--self-test`: proves an installed or frozen Doppel works, end to end, with no network.

It loads the bundled samples through the real import path (a .txt and a .docx), runs the
comparison, and checks the blocks and scores the samples are known to give, the reworded
passages beside them (and none with --strict, or between unrelated essays); it also checks that
every shipped language loads. A bundle missing a resource, a hidden import or a data file
fails here loudly, with a message, instead of on a teacher's desk."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from core.comparison import compare_documents
from core.detection.verification import BlockState
from core.documents.document import load_document
from core.documents.language import available_languages, get_language
from core.options import MatchOptions, SignatureOptions
from core.reports.wording import percent
from core.resources import resource_path

#: what `doppel compare original-essay.txt reworded-copy.docx` gives (tests/cli/test_cli.py)
EXPECTED_COUNTS = {"raw": 13, "verified": 1, "split": 2, "discarded": 10}
EXPECTED_MATCHED = 12
EXPECTED_SPLIT_BLOCK = (3, 1, 9)  # a_start, b_start, length: two pieces kept, two failures
#: the verified pieces, and the reworded passages beside them ([first, end) sentences of A, of
#: B): a paragraph edited word by word, and a last sentence copied alone
EXPECTED_PIECES = 4
EXPECTED_REWORDED = (((15, 19), (15, 19)), ((26, 27), (23, 24)))


def _check_samples() -> str:
    options = SignatureOptions(language="auto")
    original = load_document(resource_path("samples", "original-essay.txt"), options)
    copy = load_document(resource_path("samples", "reworded-copy.docx"), options)
    comparison = compare_documents(original, copy)
    counts = comparison.counts
    got = {
        "raw": counts.raw,
        "verified": counts.verified,
        "split": counts.split,
        "discarded": counts.discarded,
    }
    if got != EXPECTED_COUNTS:
        raise AssertionError(f"block counts {got}, expected {EXPECTED_COUNTS}")
    if comparison.matched_sentences != EXPECTED_MATCHED:
        raise AssertionError(f"{comparison.matched_sentences} matched sentences, expected 12")
    split = {
        (b.raw.a_start, b.raw.b_start, b.raw.length)
        for b in comparison.blocks
        if b.state is BlockState.SPLIT
    }
    if EXPECTED_SPLIT_BLOCK not in split:
        raise AssertionError(f"split blocks {sorted(split)} lack {EXPECTED_SPLIT_BLOCK}")
    if (original.language, copy.language) != ("en", "en"):
        raise AssertionError("the samples were not recognised as English")
    return (
        f"samples: Jaccard {percent(comparison.jaccard)}, {counts.raw} raw blocks "
        f"({counts.verified} verified, {counts.split} split, {counts.discarded} discarded)"
    )


def _check_reworded() -> str:
    options = SignatureOptions(language="auto")
    original = load_document(resource_path("samples", "original-essay.txt"), options)
    copy = load_document(resource_path("samples", "reworded-copy.docx"), options)
    unrelated = load_document(resource_path("samples", "unrelated-essay.txt"), options)
    found = compare_documents(original, copy)
    got = tuple((p.a_sentences, p.b_sentences) for p in found.reworded_passages)
    if got != EXPECTED_REWORDED:
        raise AssertionError(f"reworded passages {got}, expected {EXPECTED_REWORDED}")
    if len(found.result.pieces) != EXPECTED_PIECES or not found.flagged:
        raise AssertionError(f"{len(found.result.pieces)} verified pieces, expected 4")
    strict = compare_documents(original, copy, MatchOptions(reworded=False))
    if strict.reworded_passages or strict.result != found.result:
        raise AssertionError("--strict did not give the paper's method alone")
    if not strict.copied_a < found.copied_a:
        raise AssertionError("the reworded passages did not add to the copied share")
    apart = compare_documents(original, unrelated)
    if apart.flagged or apart.passages:
        raise AssertionError(f"unrelated essays share {len(apart.passages)} passages")
    return (
        f"reworded passages: {len(got)} beside {EXPECTED_PIECES} verified pieces, "
        f"{percent(found.copied_a)} of the original found in the copy "
        f"({percent(strict.copied_a)} with --strict); none between unrelated essays"
    )


def _check_languages() -> str:
    infos = available_languages()
    if len(infos) < 2 or "en" not in {i.code for i in infos}:
        raise AssertionError(f"shipped languages missing: {[i.code for i in infos]}")
    for info in infos:
        language = get_language(info.code)
        if len(language.span_tokenize("One. Two.")) != 2 or not language.stopwords:
            raise AssertionError(f"language {info.code} did not load")
    return f"languages: {len(infos)} load ({', '.join(i.code for i in infos)})"


CHECKS: tuple[Callable[[], str], ...] = (_check_languages, _check_samples, _check_reworded)


def run_self_test(out: TextIO | None = None) -> int:
    """Run every check; print one line each; 0 when all pass, 1 otherwise."""
    out = out if out is not None else sys.stdout  # (None in a windowed app: prints vanish)
    failed = 0
    for check in CHECKS:
        try:
            print(f"ok    {check()}", file=out)
        except Exception as error:  # every failure is reported, the rest still run
            failed += 1
            print(f"FAIL  {check.__name__.strip('_')}: {type(error).__name__}: {error}", file=out)
    print("self-test passed" if not failed else f"self-test FAILED ({failed})", file=out)
    return 0 if not failed else 1


def configure(parser: argparse.ArgumentParser) -> None:
    """`doppel self-test` takes no arguments (`doppel --self-test` is the same command)."""
    parser.description = "Check this installation on the bundled samples, with no network."


def run(args: argparse.Namespace) -> int:
    return run_self_test()

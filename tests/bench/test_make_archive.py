"""The archive benchmark's collection (bench/make_archive.py) at a tiny size: its ground truth
is what a check finds, every planted copy and nothing else, with `doppel batch --against` and
with the archive index, against the whole archive and a prefix of it. Needs the shared
Gutenberg corpus (the essays are built from it)."""

from __future__ import annotations

import collections
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from corpus import novels  # noqa: E402
from make_archive import (  # noqa: E402
    MAX_SHARED,
    ONE,
    archive_tree,
    build,
    expected_pairs,
    load_corpus,
)

from core.archive.add import add_to_archive  # noqa: E402
from core.archive.check import check_against_archive  # noqa: E402
from core.archive.index import ArchiveIndex  # noqa: E402
from core.batch.result import BatchResult  # noqa: E402
from core.batch.run import BatchOptions, run_batch  # noqa: E402
from core.options import SignatureOptions  # noqa: E402

pytestmark = [
    pytest.mark.bench,
    pytest.mark.skipif(not novels(), reason="the shared Gutenberg corpus is absent"),
]

ARCHIVED, NEW = 40, 5
EN = SignatureOptions(language="en")
OPTIONS = BatchOptions(signature=EN, workers=1)
SERIAL = re.compile(r"(?:^|\s)S\d+ ")


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("archive-bench")
    return folder, build(ARCHIVED, folder, new=NEW, seed=3)


def pairs_of(result: BatchResult) -> set[frozenset[str]]:
    docs = result.documents
    return {frozenset((docs[p.a].path.name, docs[p.b].path.name)) for p in result.pairs}


def sentences(path: Path) -> list[str]:
    """An essay's sentences without their serial words."""
    return [" ".join(s.split()) for s in SERIAL.split(path.read_text(encoding="utf-8")) if s]


def test_the_truth_plants_every_kind_across_years(collection: tuple[Path, dict[str, Any]]) -> None:
    folder, truth = collection
    assert len(list((folder / "archive").rglob("*.txt"))) == ARCHIVED
    assert len(list((folder / "new").glob("*.txt"))) == NEW
    copies = truth["copies"]
    assert {c["kind"] for c in copies} == {"verbatim", "edited", "reworded"}
    # the essay `one` copies two archived essays of different years, among the first ones
    ones = [c for c in copies if c["new"] == ONE]
    assert len(ones) == 2 and len({c["year"] for c in ones}) == 2
    assert len({c["archived"] for c in copies}) == len(copies)  # each source copied once
    assert truth["term"] and truth["within_archive"]
    for essay in folder.rglob("*.txt"):
        assert 900 <= len(essay.read_text(encoding="utf-8").split()) <= 1_200


def test_new_essays_hold_only_sentences_used_once_and_alone(
    collection: tuple[Path, dict[str, Any]],
) -> None:
    """The construction behind "nothing else": a new essay's sentences (planted passages
    aside) appear nowhere else in the collection, and each shares at most MAX_SHARED stems
    with any other sentence of the corpus."""
    folder, truth = collection
    corpus = load_corpus()
    lone = {corpus.sentences[k] for k in corpus.lone}
    holders: dict[str, set[str]] = collections.defaultdict(set)
    for essay in folder.rglob("*.txt"):
        for sentence in sentences(essay):
            holders[sentence].add(essay.name)
    copied = {c["new"] for c in truth["copies"]} | {t["b"] for t in truth["term"]}
    for essay in sorted((folder / "new").glob("*.txt")):
        if essay.name in copied:
            continue  # (its planted passage is in its source too)
        for sentence in sentences(essay):
            assert holders[sentence] == {essay.name}
            assert sentence in lone
    assert MAX_SHARED == 4


def test_doppel_batch_against_the_archive_finds_the_planted_copies_and_nothing_else(
    collection: tuple[Path, dict[str, Any]],
) -> None:
    folder, truth = collection
    for size in (ARCHIVED, ARCHIVED // 2):
        result = run_batch([folder / "new"], [archive_tree(folder, size)], OPTIONS)
        assert not result.failed
        assert pairs_of(result) == expected_pairs(truth, size)
    assert len(list(archive_tree(folder, ARCHIVED // 2).rglob("*.txt"))) == ARCHIVED // 2


def test_the_archive_check_finds_the_same(
    collection: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    folder, truth = collection
    with ArchiveIndex(tmp_path / "index.sqlite3", create=True, options=EN) as index:
        added = add_to_archive([folder / "archive"], index, OPTIONS)
        assert added.added == ARCHIVED and not added.failed
        assert added.info.years == "2019–2025"
        term = check_against_archive([folder / "new"], index, OPTIONS)
        one = check_against_archive([folder / "new" / ONE], index, OPTIONS)
    assert pairs_of(term.result) == expected_pairs(truth, ARCHIVED)
    assert pairs_of(one.result) == expected_pairs(truth, ARCHIVED, {ONE})
    assert len(pairs_of(one.result)) == 2
    # within-archive copies are never reported: archived essays are not compared
    within = {frozenset((w["source"], w["copy"])) for w in truth["within_archive"]}
    assert not within & pairs_of(term.result)
    json.dumps(truth)  # (the truth file's content is plain JSON)

"""The folder check: the composite-bigram index finds exactly the pairs the all-pairs loop
finds (spec §5), with the same scores `doppel compare` gives; modes; failures; the cache."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import batch as batch_module
from core.batch import BatchOptions, candidate_pairs, collect, compare_pair, run_batch
from core.comparison import compare_documents
from core.document import load_document
from core.document_cache import DocumentCache
from core.options import MatchOptions, ShortSentenceRule, SignatureOptions
from core.resources import resource_path
from core.signature import Signature

EN = SignatureOptions(language="en")
KEYS = [("p", "q"), ("p", "r"), ("s", "t"), ("oh",), ()]


def signature(items: list[tuple[int, tuple[str, ...]]]) -> Signature:
    return Signature(
        tuple(s for s, _ in items),
        tuple(k for _, k in items),
        tuple(range(len(items))),
        (),
        2,
        True,
    )


collections = st.lists(
    st.lists(st.tuples(st.integers(0, 3), st.sampled_from(KEYS)), max_size=25),
    min_size=2,
    max_size=7,
)


@given(collections, st.integers(1, 3), st.booleans(), st.data())
@settings(max_examples=150, deadline=None)
def test_the_index_finds_exactly_the_pairs_all_pairs_finds(docs, min_block, literal, data):
    rule = ShortSentenceRule.LITERAL if literal else ShortSentenceRule.FULL_KEY
    options = MatchOptions(min_block=min_block, short_sentences=rule)
    signatures = [signature(d) for d in docs]
    groups = data.draw(st.lists(st.integers(0, 2), min_size=len(docs), max_size=len(docs)))

    def allowed(i: int, j: int) -> bool:
        return groups[i] != groups[j] or groups[i] == 0

    everything = {
        (i, j)
        for i in range(len(docs))
        for j in range(i + 1, len(docs))
        if allowed(i, j) and compare_pair(i, j, signatures[i], signatures[j], options)
    }
    candidates = candidate_pairs(signatures, allowed, options)
    found = {
        (i, j) for i, j in candidates if compare_pair(i, j, signatures[i], signatures[j], options)
    }
    assert found == everything


def sentence(rng: random.Random, words: list[str]) -> str:
    return " ".join(rng.choice(words) for _ in range(rng.randint(4, 14))).capitalize() + "."


def make_collection(folder: Path, count: int, seed: int = 1) -> dict[str, Path]:
    """Essays of random sentences (nothing repeats by chance) with passages planted between
    known pairs: 0 copies from 1, 2 from 3, and 4 from 0 (so 0-1, 2-3, 0-4 and 1-4 are linked)."""
    rng = random.Random(seed)
    vocabulary = [f"w{k}" for k in range(3000)]
    essays = [[sentence(rng, vocabulary) for _ in range(30)] for _ in range(count)]
    essays[0][5:11] = essays[1][10:16]
    essays[2][0:5] = essays[3][20:25]
    essays[4][12:20] = essays[0][3:11]
    paths = {}
    for k, essay in enumerate(essays):
        path = folder / f"essay{k:02d}.txt"
        path.write_text(" ".join(essay), encoding="utf-8")
        paths[path.name] = path
    return paths


def names(result, pair) -> set[str]:
    return {result.documents[pair.a].path.name, result.documents[pair.b].path.name}


def test_generated_collection_indexed_equals_all_pairs_equals_compare(tmp_path: Path) -> None:
    paths = make_collection(tmp_path, 12)
    options = BatchOptions(signature=EN, workers=1)
    indexed = run_batch([tmp_path], options=options)
    naive = run_batch([tmp_path], options=BatchOptions(signature=EN, all_pairs=True, workers=1))
    assert indexed.pairs == naive.pairs
    assert naive.compared_pairs == naive.possible_pairs == 66
    assert indexed.compared_pairs < naive.compared_pairs
    linked = {frozenset(names(indexed, p)) for p in indexed.pairs}
    assert linked == {
        frozenset(p)
        for p in (
            ("essay00.txt", "essay01.txt"),
            ("essay02.txt", "essay03.txt"),
            ("essay00.txt", "essay04.txt"),
            ("essay01.txt", "essay04.txt"),
        )
    }
    for pair in indexed.pairs:  # the same scores `doppel compare` gives for that pair
        a, b = (load_document(indexed.documents[k].path, EN) for k in (pair.a, pair.b))
        comparison = compare_documents(a, b)
        assert pair.jaccard == comparison.jaccard
        assert pair.coverage_a == comparison.coverage_a
        assert pair.pieces == comparison.result.pieces
    assert [p.jaccard for p in indexed.pairs] == sorted(
        (p.jaccard for p in indexed.pairs), reverse=True
    )
    assert paths


def test_worker_processes_give_the_same_result(tmp_path: Path) -> None:
    make_collection(tmp_path, 12)
    inline = run_batch([tmp_path], options=BatchOptions(signature=EN, workers=1))
    parallel = run_batch([tmp_path], options=BatchOptions(signature=EN, workers=2))
    assert parallel.pairs == inline.pairs
    assert [d.path for d in parallel.documents] == [d.path for d in inline.documents]


def test_archive_is_never_compared_with_itself(tmp_path: Path) -> None:
    new, old = tmp_path / "new", tmp_path / "archive"
    new.mkdir()
    old.mkdir()
    for name in ("original-essay.txt", "unrelated-essay.txt"):
        (old / name).write_bytes(resource_path("samples", name).read_bytes())
    (old / "copy-in-archive.docx").write_bytes(
        resource_path("samples", "reworded-copy.docx").read_bytes()
    )
    (new / "submitted.txt").write_bytes(resource_path("samples", "reworded-copy.txt").read_bytes())
    result = run_batch([new], [old], BatchOptions(signature=EN, workers=1))
    pairs = [names(result, p) for p in result.pairs]
    assert {"original-essay.txt", "copy-in-archive.docx"} not in pairs  # archive vs archive
    assert {"submitted.txt", "original-essay.txt"} in pairs
    assert {"submitted.txt", "copy-in-archive.docx"} in pairs
    assert result.possible_pairs == 3  # the new file against each archived one


def test_one_students_files_are_not_compared_with_each_other(tmp_path: Path) -> None:
    student = tmp_path / "class" / "ana"
    student.mkdir(parents=True)
    (student / "draft.txt").write_bytes(resource_path("samples", "original-essay.txt").read_bytes())
    (student / "final.docx").write_bytes(
        resource_path("samples", "reworded-copy.docx").read_bytes()
    )
    (tmp_path / "class" / "ben.txt").write_bytes(
        resource_path("samples", "reworded-copy.txt").read_bytes()
    )
    grouped = run_batch(
        [tmp_path / "class"], options=BatchOptions(signature=EN, student_folders=True, workers=1)
    )
    assert all(names(grouped, p) != {"draft.txt", "final.docx"} for p in grouped.pairs)
    assert grouped.possible_pairs == 2
    loose = run_batch([tmp_path / "class"], options=BatchOptions(signature=EN, workers=1))
    assert any(names(loose, p) == {"draft.txt", "final.docx"} for p in loose.pairs)
    submissions = collect([tmp_path / "class"], student_folders=True)
    assert {s.group for s in submissions} == {str(student), str(tmp_path / "class" / "ben.txt")}


def test_a_file_that_fails_is_listed_and_the_batch_goes_on(tmp_path: Path) -> None:
    make_collection(tmp_path, 5)
    (tmp_path / "scan.pdf").write_bytes(b"%PDF-1.4 not really")
    (tmp_path / "empty.txt").write_bytes(b"")
    result = run_batch([tmp_path], options=BatchOptions(signature=EN, workers=1))
    assert {f.path.name for f in result.failed} == {"scan.pdf", "empty.txt"}
    assert all(f.error for f in result.failed)
    assert len(result.documents) == 5 and result.pairs


def test_the_cache_spares_a_second_run_and_survives_corruption(tmp_path: Path, monkeypatch):
    folder = tmp_path / "essays"
    folder.mkdir()
    make_collection(folder, 6)
    cache = DocumentCache(tmp_path / "cache.sqlite3")
    first = run_batch([folder], options=BatchOptions(signature=EN, workers=1), cache=cache)
    assert len(cache) == 6
    loads: list[Path] = []
    real = batch_module.load_document
    monkeypatch.setattr(batch_module, "load_document", lambda p, o: loads.append(p) or real(p, o))
    second = run_batch([folder], options=BatchOptions(signature=EN, workers=1), cache=cache)
    assert loads == [] and second.pairs == first.pairs
    (folder / "essay05.txt").write_text("Changed completely. Nothing else here.", encoding="utf-8")
    run_batch([folder], options=BatchOptions(signature=EN, workers=1), cache=cache)
    assert [p.name for p in loads] == ["essay05.txt"]  # only the changed file is read again
    other = run_batch(
        [folder],
        options=BatchOptions(signature=SignatureOptions(language="en", key_size=3), workers=1),
        cache=cache,
    )
    assert other.documents[0].signature.key_size == 3  # options are part of the key
    cache.close()

    (tmp_path / "cache.sqlite3").write_bytes(b"this is not a database" * 100)
    for suffix in ("-wal", "-shm"):
        Path(f"{tmp_path / 'cache.sqlite3'}{suffix}").unlink(missing_ok=True)
    rebuilt = DocumentCache(tmp_path / "cache.sqlite3")
    assert rebuilt.rebuilt and len(rebuilt) == 0
    again = run_batch([folder], options=BatchOptions(signature=EN, workers=1), cache=rebuilt)
    assert len(again.documents) == 6 and len(rebuilt) == 6
    with sqlite3.connect(tmp_path / "cache.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_cancel_stops_the_batch(tmp_path: Path) -> None:
    from core.errors import Cancelled

    make_collection(tmp_path, 6)

    def cancel(fraction: float, message: str) -> None:
        if fraction > 0.2:
            raise Cancelled

    with pytest.raises(Cancelled):
        run_batch([tmp_path], options=BatchOptions(signature=EN, workers=1), progress=cancel)

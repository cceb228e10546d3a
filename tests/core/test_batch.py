"""The folder check: the composite-bigram index finds exactly the pairs the all-pairs loop
finds (spec §5), with the same scores `doppel compare` gives; modes; failures; the cache."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.batch import cache as cache_module
from core.batch import run as batch_module
from core.batch.cache import DocumentCache, cache_key, content_hash_of
from core.batch.ranking import candidate_pairs, rank_key, reworded_candidates
from core.batch.result import BatchDocument
from core.batch.run import (
    BatchOptions,
    checked_document,
    collect,
    compare_pair,
    load_templates,
    run_batch,
)
from core.comparison import compare_documents
from core.detection.reworded import WordProfile, strong_threshold
from core.documents.document import load_document
from core.documents.excluded_spans import ExclusionKind
from core.documents.signature import Signature
from core.options import ExclusionOptions, MatchOptions, ShortSentenceRule, SignatureOptions
from core.resources import resource_path

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


def record(sig: Signature, profile: WordProfile | None = None) -> BatchDocument:
    """A batch record of a made-up document: only what pair comparison reads."""
    count = max((*sig.sentence_indices, *(profile.sentence_indices if profile else ())), default=-1)
    return BatchDocument(
        path=Path("made-up.txt"),
        format="txt",
        content_hash="",
        sentence_count=count + 1,
        language="en",
        warnings=(),
        signature=sig,
        group="",
        archive=False,
        profile=profile,
    )


@given(collections, st.integers(1, 3), st.booleans(), st.data())
@settings(max_examples=150, deadline=None)
def test_the_index_finds_exactly_the_pairs_all_pairs_finds(docs, min_block, literal, data):
    rule = ShortSentenceRule.LITERAL if literal else ShortSentenceRule.FULL_KEY
    options = MatchOptions(min_block=min_block, short_sentences=rule, reworded=False)
    signatures = [record(signature(d)) for d in docs]
    groups = data.draw(st.lists(st.integers(0, 2), min_size=len(docs), max_size=len(docs)))

    def allowed(i: int, j: int) -> bool:
        return groups[i] != groups[j] or groups[i] == 0

    everything = {
        (i, j)
        for i in range(len(docs))
        for j in range(i + 1, len(docs))
        if allowed(i, j) and compare_pair(i, j, signatures[i], signatures[j], options)
    }
    candidates = candidate_pairs([r.signature for r in signatures], allowed, options)
    found = {
        (i, j) for i, j in candidates if compare_pair(i, j, signatures[i], signatures[j], options)
    }
    assert found == everything


#: sentences of stems from a small vocabulary, so that sentences share words by chance often
stem_sentences = st.lists(st.sampled_from([f"w{k}" for k in range(14)]), max_size=9)


@st.composite
def word_collections(draw: st.DrawFn) -> list[list[list[str]]]:
    """Documents as sentences of stems; some copy a run of an earlier one's sentences, edited
    (words dropped, sentences shuffled), as reworded copies are."""
    docs: list[list[list[str]]] = []
    for _ in range(draw(st.integers(2, 6))):
        doc = draw(st.lists(stem_sentences, max_size=14))
        if docs and draw(st.booleans()):
            source = draw(st.sampled_from(docs))
            start = draw(st.integers(0, len(source)))
            copied = [
                [w for w in sentence if draw(st.integers(0, 4)) > 0]
                for sentence in source[start : start + draw(st.integers(1, 8))]
            ]
            copied = draw(st.permutations(copied)) if draw(st.booleans()) else copied
            at = draw(st.integers(0, len(doc)))
            doc[at:at] = copied
        docs.append(doc)
    return docs


def records_of(docs: list[list[list[str]]]) -> list[BatchDocument]:
    out = []
    for doc in docs:
        items = [(len(s), tuple(s[:2])) for s in doc]
        sig = signature(items)
        profile = WordProfile("en", tuple(range(len(doc))), tuple(tuple(s) for s in doc))
        out.append(record(sig, profile))
    return out


@given(word_collections(), st.data())
@settings(max_examples=200, deadline=None)
def test_with_reworded_passages_the_index_finds_exactly_the_pairs_all_pairs_finds(docs, data):
    """Both indexes together let through every pair the two detectors flag (all pairs)."""
    records = records_of(docs)
    options = MatchOptions()
    groups = data.draw(st.lists(st.integers(0, 2), min_size=len(docs), max_size=len(docs)))

    def allowed(i: int, j: int) -> bool:
        return groups[i] != groups[j] or groups[i] == 0

    def flagged(i: int, j: int) -> bool:
        return compare_pair(i, j, records[i], records[j], options) is not None

    everything = {
        (i, j)
        for i in range(len(docs))
        for j in range(i + 1, len(docs))
        if allowed(i, j) and flagged(i, j)
    }
    candidates = candidate_pairs([r.signature for r in records], allowed, options)
    candidates |= reworded_candidates([r.profile for r in records], allowed)
    assert {(i, j) for i, j in candidates if flagged(i, j)} == everything

    # the prefix filter is exact for its own condition too: two sentences that could make a
    # strong seed (enough stems shared for the larger one)
    def strong(x: list[str], y: list[str]) -> bool:
        shared = len(set(x) & set(y))
        return shared >= strong_threshold(max(len(set(x)), len(set(y))))

    sharing = {
        (i, j)
        for i in range(len(docs))
        for j in range(i + 1, len(docs))
        if allowed(i, j) and any(strong(x, y) for x in docs[i] for y in docs[j])
    }
    assert reworded_candidates([r.profile for r in records], allowed) == sharing


def sentence(rng: random.Random, words: list[str]) -> str:
    return " ".join(rng.choice(words) for _ in range(rng.randint(4, 14))).capitalize() + "."


def edited(text: str) -> str:
    """A sentence reworded so SL+ST cannot verify it: its second word dropped, its first
    word moved to the end."""
    words = text.rstrip(".").split()
    return " ".join([words[2].capitalize(), *words[3:], words[0].lower()]) + "."


def make_collection(folder: Path, count: int, seed: int = 1) -> dict[str, Path]:
    """Essays of random sentences (nothing repeats by chance) with passages planted between
    known pairs: 0 copies from 1, 2 from 3, and 4 from 0 (so 0-1, 2-3, 0-4 and 1-4 are
    linked), and with 7 or more essays, 5 an edited copy of 6 (linked by a reworded passage
    only)."""
    rng = random.Random(seed)
    vocabulary = [f"w{k}" for k in range(3000)]
    essays = [[sentence(rng, vocabulary) for _ in range(30)] for _ in range(count)]
    essays[0][5:11] = essays[1][10:16]
    essays[2][0:5] = essays[3][20:25]
    essays[4][12:20] = essays[0][3:11]
    if count > 6:
        essays[5][2:8] = [edited(s) for s in essays[6][14:20]]
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
    assert linked == PLANTED
    for pair in indexed.pairs:  # the same result `doppel compare` gives for that pair
        a, b = (load_document(indexed.documents[k].path, EN) for k in (pair.a, pair.b))
        comparison = compare_documents(a, b)
        assert pair.jaccard == comparison.jaccard
        assert pair.coverage_a == comparison.coverage_a
        assert pair.pieces == comparison.result.pieces
        assert pair.reworded == comparison.reworded
        assert (pair.copied_a, pair.copied_b) == (comparison.copied_a, comparison.copied_b)
    [edited_only] = [p for p in indexed.pairs if not p.pieces]
    assert names(indexed, edited_only) == {"essay05.txt", "essay06.txt"}
    assert edited_only.reworded and edited_only.copied_a == 0.2
    assert list(indexed.pairs) == sorted(indexed.pairs, key=lambda p: rank_key(p, p.a, p.b))
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

    # damaged past its header (which still says it is Doppel's cache): rebuilt
    header = (tmp_path / "cache.sqlite3").read_bytes()[:100]
    (tmp_path / "cache.sqlite3").write_bytes(header + b"this is not a database" * 100)
    for suffix in ("-wal", "-shm"):
        Path(f"{tmp_path / 'cache.sqlite3'}{suffix}").unlink(missing_ok=True)
    rebuilt = DocumentCache(tmp_path / "cache.sqlite3")
    assert rebuilt.rebuilt and len(rebuilt) == 0
    again = run_batch([folder], options=BatchOptions(signature=EN, workers=1), cache=rebuilt)
    assert len(again.documents) == 6 and len(rebuilt) == 6
    with sqlite3.connect(tmp_path / "cache.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_entries_of_an_older_cache_format_are_rebuilt_not_read(tmp_path: Path, monkeypatch) -> None:
    """Rows written before the format changed are not found, so the files are read again and
    stored anew; and a row that does not hold a BatchDocument is a miss, never misread."""
    folder = tmp_path / "essays"
    folder.mkdir()
    make_collection(folder, 5)
    cache = DocumentCache(tmp_path / "cache.sqlite3")
    current = cache_module.CACHE_FORMAT
    monkeypatch.setattr(cache_module, "CACHE_FORMAT", current - 1)
    run_batch([folder], options=BatchOptions(signature=EN, workers=1), cache=cache)
    assert len(cache) == 5
    monkeypatch.setattr(cache_module, "CACHE_FORMAT", current)
    loads: list[Path] = []
    real = batch_module.load_document
    monkeypatch.setattr(batch_module, "load_document", lambda p, o: loads.append(p) or real(p, o))
    first = run_batch([folder], options=BatchOptions(signature=EN, workers=1), cache=cache)
    assert len(loads) == 5 and len(cache) == 10  # read again, stored under the new keys
    loads.clear()
    essay = folder / "essay00.txt"
    key = cache_key(content_hash_of(essay) or "", EN)
    document_row = cache.document_blobs([key])[key]  # a Document's row where a record belongs
    cache.put_packed([(key, document_row, document_row)])
    again = run_batch([folder], options=BatchOptions(signature=EN, workers=1), cache=cache)
    assert loads == [essay] and again.pairs == first.pairs
    assert cache.misses == 1
    cache.close()


def test_cancel_stops_the_batch(tmp_path: Path) -> None:
    from core.errors import Cancelled

    make_collection(tmp_path, 6)

    def cancel(fraction: float, message: str = "") -> None:
        if fraction > 0.2:
            raise Cancelled

    with pytest.raises(Cancelled):
        run_batch([tmp_path], options=BatchOptions(signature=EN, workers=1), progress=cancel)


# --- exclusions ------------------------------------------------------------------------------

PROMPT = (
    "Read the passage below and answer the questions that follow. Discuss how the author "
    "uses the setting to build tension in the opening chapters. Refer closely to the "
    "language of the text in your answer."
)
PLANTED = {
    frozenset(p)
    for p in (
        ("essay00.txt", "essay01.txt"),
        ("essay02.txt", "essay03.txt"),
        ("essay00.txt", "essay04.txt"),
        ("essay01.txt", "essay04.txt"),
        ("essay05.txt", "essay06.txt"),  # reworded only
    )
}
COMMON = ExclusionOptions(common_share=0.5)


def collection_with_prompt(folder: Path, count: int = 12, holders: int = 10) -> None:
    """make_collection's essays (planted copies: PLANTED), the first `holders` of them
    starting with the same prompt paragraph, as if everyone pasted the assignment."""
    folder.mkdir(parents=True, exist_ok=True)
    make_collection(folder, count)
    for k in range(holders):
        path = folder / f"essay{k:02d}.txt"
        path.write_text(PROMPT + "\n\n" + path.read_text(encoding="utf-8"), encoding="utf-8")


def linked(result) -> set[frozenset[str]]:
    return {frozenset(names(result, p)) for p in result.pairs}


def test_a_prompt_everyone_pasted_no_longer_makes_pairs(tmp_path: Path) -> None:
    collection_with_prompt(tmp_path)
    plain = run_batch([tmp_path], options=BatchOptions(signature=EN, workers=1))
    assert len(plain.pairs) == 45  # every two of the ten holders share the prompt
    assert plain.common_text == () and not plain.exclusions_on
    options = BatchOptions(signature=EN, workers=1, exclusions=COMMON)
    result = run_batch([tmp_path], options=options)
    assert linked(result) == PLANTED  # the real copying stays, the prompt pairs are gone
    assert result.exclusions == COMMON and result.exclusions_on
    (passage,) = result.common_text
    assert (passage.text, passage.documents, passage.words) == (PROMPT, 10, len(PROMPT.split()))
    assert result.common_counted == 12
    for doc in result.documents:
        holder = int(doc.path.stem[-2:]) < 10
        assert doc.excluded_sentences == (3 if holder else 0)
        assert doc.excluded_counts()[ExclusionKind.COMMON] == (3 if holder else 0)
        assert all(s.detail == "in 10 of 12 documents" for s in doc.excluded)
    naive = run_batch(
        [tmp_path], options=BatchOptions(signature=EN, all_pairs=True, exclusions=COMMON, workers=1)
    )
    assert naive.pairs == result.pairs  # the index is exact on the excluded signatures too
    for pair in result.pairs:  # the pairwise result of the documents as scored
        a, b = (checked_document(result.documents[k], EN, None) for k in (pair.a, pair.b))
        assert a.signature == result.documents[pair.a].signature
        comparison = compare_documents(a, b)
        assert (pair.jaccard, pair.pieces) == (comparison.jaccard, comparison.result.pieces)
        assert a.excluded == result.documents[pair.a].excluded


def test_common_text_with_workers_and_the_cache(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "class"
    collection_with_prompt(folder)
    cache = DocumentCache(tmp_path / "cache.sqlite3")
    plain = BatchOptions(signature=EN, workers=1, suggest_common=False)
    run_batch([folder], options=plain, cache=cache)  # no fingerprints
    parsed: list[Path] = []
    printed: list[Path] = []
    real_load, real_prints = batch_module.load_document, batch_module.fingerprint_document
    monkeypatch.setattr(
        batch_module, "load_document", lambda p, o: parsed.append(p) or real_load(p, o)
    )
    monkeypatch.setattr(
        batch_module,
        "fingerprint_document",
        lambda d, n: printed.append(d.path) or real_prints(d, n),
    )
    options = BatchOptions(signature=EN, workers=1, exclusions=COMMON)
    first = run_batch([folder], options=options, cache=cache)
    assert parsed == [] and len(printed) == 12  # fingerprinted from the cached documents
    parsed.clear()
    printed.clear()
    warm = run_batch([folder], options=options, cache=cache)
    assert parsed == [] and printed == []  # the fingerprints came from the cache
    assert warm == first and linked(warm) == PLANTED
    parallel = run_batch(
        [folder], options=BatchOptions(signature=EN, workers=2, exclusions=COMMON), cache=None
    )
    assert parallel == first
    cache.close()


def test_text_in_exactly_the_share_stays(tmp_path: Path) -> None:
    collection_with_prompt(tmp_path, count=12, holders=6)  # 6 of 12 is not more than half
    result = run_batch([tmp_path], options=BatchOptions(signature=EN, workers=1, exclusions=COMMON))
    assert result.common_text == () and len(result.pairs) > len(PLANTED)
    assert all(not d.excluded for d in result.documents)


def test_archived_documents_are_excluded_but_not_counted(tmp_path: Path) -> None:
    new, archive = tmp_path / "new", tmp_path / "archive"
    collection_with_prompt(new, count=6, holders=4)  # 4 of 6 new submissions
    archive.mkdir()
    for k in range(6):  # last year's class: 6 essays, one holding the prompt too
        text = " ".join(
            sentence(random.Random(100 + k), [f"x{j}" for j in range(3000)]) for _ in range(30)
        )
        (archive / f"old{k}.txt").write_text((PROMPT + "\n\n" if k == 0 else "") + text)
    result = run_batch([new], [archive], BatchOptions(signature=EN, workers=1, exclusions=COMMON))
    assert result.common_counted == 6 and result.common_text[0].documents == 4
    old0 = next(d for d in result.documents if d.path.name == "old0.txt")
    assert old0.excluded_sentences == 3
    assert old0.excluded[0].detail == "in 4 of 6 new documents"
    assert all(
        d.path.name != "old0.txt"
        for p in result.pairs
        for d in (result.documents[p.a], result.documents[p.b])
    )


def test_a_template_is_not_a_submission_and_its_text_is_excluded(tmp_path: Path) -> None:
    collection_with_prompt(tmp_path, holders=4)
    (tmp_path / "prompt.txt").write_text(PROMPT, encoding="utf-8")  # in the input folder
    templates = load_templates([tmp_path / "prompt.txt"], EN)
    options = BatchOptions(signature=EN, workers=1, templates=templates)
    result = run_batch([tmp_path], options=options)
    assert "prompt.txt" not in {d.path.name for d in result.documents}
    assert linked(result) == PLANTED
    assert result.templates == (templates[0].path,) and result.exclusions_on
    holders = [d for d in result.documents if int(d.path.stem[-2:]) < 4]
    assert all(d.excluded_counts()[ExclusionKind.TEMPLATE] == 3 for d in holders)
    assert all(d.excluded_sentences == 3 for d in holders)
    both = run_batch(  # the prompt is template text: not listed again as common text
        [tmp_path],
        options=BatchOptions(
            signature=EN,
            workers=1,
            templates=templates,
            exclusions=ExclusionOptions(common_share=0.25),  # 4 of 12 would be more
        ),
    )
    assert both.common_text == () and linked(both) == PLANTED

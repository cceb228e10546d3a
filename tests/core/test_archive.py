"""The archive index (core/archive): a check against it is exactly `doppel batch NEW --against
ARCHIVED` on the same files (Hypothesis over generated collections and options), adding is
incremental, the keys are a superset rule (against brute force), and the index file is the
user's data: refused when it is not one, never modified then, never deleted."""

from __future__ import annotations

import contextlib
import os
import random
import sqlite3
import time
from array import array
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.archive import add as add_module
from core.archive import postings as store
from core.archive.add import ADD_CHUNK, add_to_archive, chunk_sizes
from core.archive.check import check_against_archive
from core.archive.index import ArchiveIndex
from core.archive.index_file import ArchiveError
from core.archive.keys import (
    LONGEST,
    MIX,
    OpenLine,
    StemOrder,
    could_share,
    key_hash,
    mask_after,
    sentence_keys,
    unit_keys,
    word_units,
)
from core.archive.postings import KeyKind
from core.archive.prepared import hand_on, prepare_all
from core.batch import run as run_module
from core.batch.cache import cache_key, pack_entry
from core.batch.inputs import collect_inputs
from core.batch.result import BatchDocument, BatchResult
from core.batch.run import PROCESS_THRESHOLD, BatchOptions, run_batch
from core.detection.reworded import document_profile, strong_threshold
from core.documents.document import load_document
from core.documents.signature import Signature
from core.errors import Cancelled
from core.options import ExclusionOptions, MatchOptions, ShortSentenceRule, SignatureOptions

EN = SignatureOptions(language="en")


def sentence(rng: random.Random, words: list[str]) -> str:
    return " ".join(rng.choice(words) for _ in range(rng.randint(4, 12))).capitalize() + "."


def reworded(text: str) -> str:
    """Its second word dropped and its first moved to the end: SL+ST cannot verify it."""
    words = text.rstrip(".").split()
    if len(words) < 4:
        return text
    return " ".join([words[2].capitalize(), *words[3:], words[0].lower()]) + "."


def write_collection(
    root: Path, seed: int, count: int, vocabulary: int, *, students: bool, prompt: bool
) -> tuple[Path, Path]:
    """`count` essays split between root/old (archived) and root/new, with copied passages
    (word for word and reworded) between random essays; a small vocabulary makes chance
    overlaps too. With `students`, each essay sits in a student's folder (some students in
    both years)."""
    rng = random.Random(seed)
    words = [f"w{k}" for k in range(vocabulary)]
    essays = [[sentence(rng, words) for _ in range(rng.randint(3, 14))] for _ in range(count)]
    for _ in range(count // 2):
        a, b = rng.randrange(count), rng.randrange(count)
        if a == b or len(essays[b]) < 3:
            continue
        start = rng.randrange(len(essays[b]) - 2)
        taken = essays[b][start : start + rng.randint(2, 5)]
        if rng.random() < 0.4:
            taken = [reworded(s) for s in taken]
        at = rng.randrange(len(essays[a]) + 1)
        essays[a][at:at] = taken
    if prompt:
        opening = [sentence(random.Random(0), words) for _ in range(3)]
        for essay in essays[: max(3, count * 2 // 3)]:
            essay[0:0] = opening
    old, new = root / "old", root / "new"
    for k, essay in enumerate(essays):
        year = old if rng.random() < 0.6 else new
        folder = year / f"student{rng.randrange(max(2, count // 3))}" if students else year
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"essay{k:02d}.txt").write_text(" ".join(essay), "utf-8")
    for year in (old, new):
        year.mkdir(parents=True, exist_ok=True)
    return old, new


def as_facts(result: BatchResult) -> dict[str, object]:
    """What must be equal: each pair by its documents' paths, with everything found; the
    new documents; the failures; the common text and the hint."""
    docs = result.documents
    pairs = [(str(docs[p.a].path), str(docs[p.b].path), replace(p, a=0, b=0)) for p in result.pairs]
    partners = {docs[k] for p in result.pairs for k in (p.a, p.b)}
    return {
        "pairs": pairs,
        "new": [d for d in docs if not d.archive],
        "partners": sorted(partners, key=lambda d: str(d.path)),
        "failed": result.failed,
        "common": (result.common_text, result.common_counted),
        "hint": result.common_hint,
        "possible": result.possible_pairs,
    }


def assert_same_as_batch(
    tmp_path: Path,
    old: Path,
    new: Path,
    options: BatchOptions,
    index_options: SignatureOptions,
    *,
    first: int = 0,
    open_above: int | None = None,
) -> BatchResult:
    """With `first`, the archive is added in two steps: its first `first` files (the stem
    order is made from them), then all of it. With `open_above`, the index opens its word keys
    at that line (a few sentences: the keys grow long as in a large archive)."""
    expected = run_batch([new], [old], options)
    index_path = tmp_path / "index.sqlite3"
    if index_path.exists():
        index_path.unlink()
    with small_open_line(open_above):
        index = ArchiveIndex(index_path, create=True, options=index_options)
    with index:
        if first:
            files = sorted(old.rglob("*.txt"))[:first]
            add_to_archive(files, index, replace(options, workers=1))
        add_to_archive([old], index, replace(options, workers=1))
        checked = check_against_archive([new], index, options)
    assert as_facts(checked.result) == as_facts(expected)
    return expected


def small_open_line(open_above: int | None) -> mock._patch[int] | contextlib.nullcontext[None]:
    """A new index made while this is entered opens its word keys at `open_above`."""
    if open_above is None:
        return contextlib.nullcontext()
    return mock.patch("core.archive.index.OPEN_ABOVE", open_above)


@st.composite
def check_options(draw: st.DrawFn) -> BatchOptions:
    match = MatchOptions(
        min_block=draw(st.sampled_from([1, 2, 3])),
        short_sentences=draw(st.sampled_from(list(ShortSentenceRule))),
        reworded=draw(st.booleans()),
    )
    common = draw(st.sampled_from([None, None, 0.5, 0.3]))
    exclusions = ExclusionOptions(
        quotations=draw(st.booleans()) and draw(st.booleans()), common_share=common
    )
    return BatchOptions(
        signature=EN,
        match=match,
        workers=1,
        exclusions=exclusions,
        student_folders=draw(st.booleans()),
        suggest_common=draw(st.booleans()),
    )


@given(
    seed=st.integers(0, 10_000),
    count=st.integers(2, 14),
    vocabulary=st.sampled_from([40, 300, 5000]),
    prompt=st.booleans(),
    options=check_options(),
    first=st.sampled_from([0, 0, 1, 2]),
    open_above=st.sampled_from([None, 1, 4]),
)
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_a_check_against_the_archive_is_exactly_batch_against(
    tmp_path_factory: pytest.TempPathFactory,
    seed: int,
    count: int,
    vocabulary: int,
    prompt: bool,
    options: BatchOptions,
    first: int,
    open_above: int | None,
) -> None:
    root = tmp_path_factory.mktemp("collection")
    old, new = write_collection(
        root, seed, count, vocabulary, students=options.student_folders, prompt=prompt
    )
    assert_same_as_batch(root, old, new, options, EN, first=first, open_above=open_above)


def test_the_benchmark_style_collection_and_all_pairs(tmp_path: Path) -> None:
    old, new = write_collection(tmp_path, 7, 40, 3000, students=False, prompt=False)
    expected = assert_same_as_batch(tmp_path, old, new, BatchOptions(signature=EN), EN)
    assert expected.pairs  # copies were planted across the years
    options = BatchOptions(signature=EN, workers=1)
    assert_same_as_batch(tmp_path, old, new, options, EN, first=5, open_above=2)
    assert_same_as_batch(
        tmp_path, old, new, BatchOptions(signature=EN, all_pairs=True, workers=1), EN
    )


def test_a_template_reads_every_archived_document_and_stays_exact(tmp_path: Path) -> None:
    from core.batch.run import load_templates

    old, new = write_collection(tmp_path, 11, 12, 300, students=False, prompt=True)
    template = tmp_path / "prompt.txt"
    template.write_text(next(new.glob("*.txt")).read_text("utf-8")[:200], "utf-8")
    options = BatchOptions(signature=EN, workers=1, templates=load_templates([template], EN))
    assert_same_as_batch(tmp_path, old, new, options, EN)


# --- adding -----------------------------------------------------------------------------------


def unit_rows(blob: bytes) -> list[tuple[int, frozenset[int]]]:
    """A units row, read with `array` alone, as each sentence's number and stems (the layout
    `core.archive.unit_stems` writes: how many, their numbers and sizes as 4-byte integers,
    then the stems as 8-byte ones)."""
    (count,) = array("i", blob[:4])
    head = array("i", blob[4 : 4 + 8 * count])
    stems = array("q", blob[4 + 8 * count :])
    rows, at = [], 0
    for number, size in zip(head[:count], head[count:], strict=True):
        rows.append((number, frozenset(stems[at : at + size])))
        at += size
    assert at == len(stems)
    return rows


def filed_as_the_open_keys_say(index: ArchiveIndex) -> bool:
    """Whether every archived sentence is filed under exactly the word keys the index's open
    keys give it (what a check looks up), once, and under nothing else a check reads; and
    whether no segment holds more of a key shorter than the longest than its line."""
    connection = index._connection
    opened = {k for (k,) in connection.execute("SELECT key FROM open_keys")}
    meta = dict(connection.execute("SELECT name, value FROM meta"))
    line = OpenLine(int(meta["open_above"]), int(meta["open_growth"]))
    fields = ("key", "content", "unit", "position", "size", "length", "mask")
    filed: list[tuple[int, ...]] = []
    within = True
    for segment in store.segments(connection, KeyKind.WORD):
        postings = store.postings_of(connection, segment)
        live = [
            row
            for row in zip(*(postings[f].tolist() for f in fields), strict=True)
            if row[0] not in opened
        ]
        held = Counter((row[0], row[5]) for row in live)
        within &= all(n <= line.at(length) for (_, length), n in held.items() if length < LONGEST)
        filed += live
    units = [
        (content, unit, stems)
        for content, blob in connection.execute("SELECT content, stems FROM units")
        for unit, stems in unit_rows(blob)
    ]
    order = index.stem_order({h for _, _, stems in units for h in stems})
    wanted = []
    for content, unit, stems in units:
        (u,) = word_units([(unit, stems)], order)
        (keys,) = unit_keys([u], lambda keys, _: index.open_among(keys))
        wanted += [
            (k.key, content, unit, k.position, u.size, k.length, mask_after(u.stems, k.position))
            for k in keys
        ]
    return sorted(filed) == sorted(wanted) and within


@pytest.mark.parametrize("open_above", [None, 2])
def test_adding_is_incremental_and_follows_changes(tmp_path: Path, open_above: int | None) -> None:
    old, _ = write_collection(tmp_path, 3, 10, 300, students=False, prompt=False)
    files = sorted(old.glob("*.txt"))
    for year, path in zip((2019, 2021, 2024), files[2:5], strict=True):  # (mid-June)
        os.utime(path, (time.mktime((year, 6, 15, 12, 0, 0, 0, 0, -1)),) * 2)
    with small_open_line(open_above):
        made = ArchiveIndex(tmp_path / "i.sqlite3", create=True, options=EN)
    with made as index:
        first = add_to_archive([old], index, BatchOptions(workers=1))
        assert (first.added, first.updated, first.unchanged) == (len(files), 0, 0)
        again = add_to_archive([old], index, BatchOptions(workers=1))
        assert (again.added, again.updated, again.unchanged) == (0, 0, len(files))
        # the same content under another name: a new member, one content
        twin = old / "twin.txt"
        twin.write_bytes(files[0].read_bytes())
        files[1].write_text("A changed essay with new words in it. It is different now.", "utf-8")
        third = add_to_archive([old], index, BatchOptions(workers=1))
        assert (third.added, third.updated) == (1, 1)
        assert filed_as_the_open_keys_say(index)
        if open_above is not None:  # (the small line opened keys, some to the longest)
            assert index._connection.execute("SELECT count(*) FROM open_keys").fetchone()[0]
        info = index.info()
        assert info.documents == len(files) + 1
        assert info.contents == len(files)
        assert (info.first_year, info.last_year) == (2019, time.localtime().tm_year)
        stored = index.document_at(files[1])
        assert stored is not None and "changed essay" in stored.text
        removed = index.remove([old / "twin.txt", files[2]])
        assert sorted(removed) == sorted([twin, files[2]])
        assert len(index) == len(files) - 1
        assert index.info().first_year == 2021  # (the 2019 essay was removed)
        assert filed_as_the_open_keys_say(index)
        # the first file's content is still held (its own member stays)
        assert index.document_at(files[0]) is not None
        assert index.remove([old]) and len(index) == 0
        counts = [
            index._connection.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            for t in ("contents", "segments", "buckets", "units")
        ]
        assert counts == [0, 0, 0, 0]  # nothing left behind by what was removed


@pytest.mark.parametrize("moved", [2_000_000, 80])
def test_merged_segments_keep_every_posting_and_open_the_keys_they_fill(
    tmp_path: Path, moved: int
) -> None:
    """Filings of one document each, merged two by two: the merges open keys no filing
    filled alone, drop what is filed under open keys, and every check stays the batch's —
    also when a merge writes what it moves a few postings at a time, mid-merge."""
    old, new = write_collection(tmp_path, 7, 40, 60, students=False, prompt=False)
    options = BatchOptions(signature=EN, workers=1)
    with (
        mock.patch("core.archive.index.MOVED_POSTINGS", moved),
        mock.patch("core.archive.postings.FANOUT", 2),
        mock.patch("core.archive.add.ADD_CHUNK", 3),
        mock.patch("core.archive.add.PREPARE_EVERY", 2),  # (a chunk prepared in two parts)
        mock.patch("core.archive.index.SAMPLE_UNITS", 0),  # (the first filing's order kept)
        small_open_line(6),
        ArchiveIndex(tmp_path / "i.sqlite3", create=True, options=EN) as index,
    ):
        add_to_archive([old], index, options)
        connection = index._connection
        levels = [s.level for s in store.segments(connection, KeyKind.WORD)]
        assert max(levels) >= 2 and len(levels) <= max(levels) + 1
        assert connection.execute("SELECT count(*) FROM open_keys").fetchone()[0]
        assert filed_as_the_open_keys_say(index)
        checked = check_against_archive([new], index, options).result
    assert as_facts(checked) == as_facts(run_batch([new], [old], options))


def test_a_merge_that_writes_what_it_moves_mid_merge_files_each_sentence_once(
    tmp_path: Path,
) -> None:
    """Documents sharing a few sentences fill keys at every length, so a merge that writes
    what it moves every few postings opens keys mid-merge (looked up in the segments being
    merged, not in the one being written): every sentence is still filed once, under the
    keys the open keys give it, and every check stays the batch's."""
    rng = random.Random(5)
    vocabulary = [f"{a}{b}{c}" for a in "bdfgklmnprstvz" for b in "aeiou" for c in "bdgklmnprst"]

    def sentence(words: list[str]) -> str:
        return " ".join(rng.choice(words) for _ in range(12)).capitalize() + "."

    shared = [sentence(vocabulary[:80]) for _ in range(8)]
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    for k in range(26):
        body = rng.sample(shared, 5) + [sentence(vocabulary) for _ in range(6)]
        rng.shuffle(body)
        ((old if k < 24 else new) / f"d{k:02}.txt").write_text(" ".join(body), encoding="utf-8")
    options = BatchOptions(signature=EN, workers=1)
    with (
        mock.patch("core.archive.index.MOVED_POSTINGS", 20),
        mock.patch("core.archive.postings.FANOUT", 2),
        mock.patch("core.archive.add.ADD_CHUNK", 2),
        mock.patch("core.archive.index.SAMPLE_UNITS", 0),
        small_open_line(3),
        ArchiveIndex(tmp_path / "i.sqlite3", create=True, options=EN) as index,
    ):
        add_to_archive([old], index, options)
        assert filed_as_the_open_keys_say(index)
        checked = check_against_archive([new], index, options).result
    assert as_facts(checked) == as_facts(run_batch([new], [old], options))


def test_a_checker_kept_open_sees_every_add_and_merge_of_another(tmp_path: Path) -> None:
    """A process that keeps the index open keeps each segment's key filter (read once); other
    processes' adds write new segments and merge old ones away meanwhile: its checks stay the
    batch's, and every segment has its one filter."""
    old, new = write_collection(tmp_path, 21, 36, 60, students=False, prompt=False)
    files = sorted(old.glob("*.txt"))
    options = BatchOptions(signature=EN, workers=1)
    path = tmp_path / "i.sqlite3"
    seen: set[int] = set()  # the segments the checker read filters of
    with (
        mock.patch("core.archive.postings.FANOUT", 2),
        mock.patch("core.archive.add.ADD_CHUNK", 2),
        small_open_line(4),
    ):
        ArchiveIndex(path, create=True, options=EN).close()
        with ArchiveIndex(path) as checker:
            for end in (3, 8, 15, len(files)):
                with ArchiveIndex(path) as adder:
                    add_to_archive(files[:end], adder, options)
                checked = check_against_archive([new], checker, options).result
                seen |= {
                    s.stamp for kind in KeyKind for s in store.segments(checker._connection, kind)
                }
                so_far = tmp_path / f"old-{end}"
                so_far.mkdir()
                for file in files[:end]:
                    (so_far / file.name).write_bytes(file.read_bytes())
                expected = run_batch([new], [so_far], options)
                assert pair_names(checked) == pair_names(expected)
            assert pair_names(checked)
            connection = checker._connection
            now = {s.stamp for kind in KeyKind for s in store.segments(connection, kind)}
            assert seen - now  # (segments the checker had filters of were merged away)
            segments = {s for (s,) in connection.execute("SELECT id FROM segments")}
            filtered = {s for (s,) in connection.execute("SELECT segment FROM filters")}
            assert segments == filtered


def pair_names(result: BatchResult) -> list[tuple[str, ...]]:
    docs = result.documents
    return sorted(tuple(sorted((docs[p.a].path.name, docs[p.b].path.name))) for p in result.pairs)


@given(st.integers(0, 12 * ADD_CHUNK), st.sampled_from([1, 2, 3, 4, 7, ADD_CHUNK]))
def test_an_adds_chunks_are_as_many_as_before_and_the_last_is_small(count: int, size: int) -> None:
    """As many chunks (segments) as of `size` files each; none over a quarter more; the last
    one, filed in the add's tail, a third of `size` whenever the others can take the rest."""
    with mock.patch("core.archive.add.ADD_CHUNK", size):
        sizes = chunk_sizes(count)
    assert sum(sizes) == count and all(n >= 1 for n in sizes)
    assert len(sizes) == -(-count // size)
    most = size + size // 4
    assert all(n <= most for n in sizes)
    if len(sizes) >= 2:
        *others, last = sizes
        assert last <= min(others) and max(others) - min(others) <= 1
        if count - (len(sizes) - 1) * most <= size // 3:
            assert last == max(1, size // 3)


def test_an_add_reads_once_and_files_whole_chunks_in_order(tmp_path: Path) -> None:
    """One pool of readers for the whole add, which also work out each document's keys; the
    chunks are filed whole, in the order the files were found; an add cancelled midway keeps
    the chunks filed before it, and the next add files the rest."""
    old, new = write_collection(tmp_path, 11, 40, 300, students=False, prompt=False)
    order = [s.path for s in collect_inputs([old], (), False).submissions]
    assert len(order) >= 3 * PROCESS_THRESHOLD
    filed: list[list[Path]] = []
    made_there: list[int] = []  # the documents whose keys were worked out by the readers
    real = ArchiveIndex.file_members

    def recording(
        self: ArchiveIndex, loaded: Any, entries: Any = (), prepared: Any = None
    ) -> tuple[int, int]:
        filed.append([s.path for s, _, _ in loaded])
        made_there.append(len(prepared or {}))
        return real(self, loaded, entries, prepared)

    pools: list[object] = []
    real_pool = run_module.ProcessPoolExecutor

    def counting_pool(*args: Any, **kwargs: Any) -> Any:
        pools.append(args)
        return real_pool(*args, **kwargs)

    read = 0

    def stop_midway(fraction: float, message: str = "") -> None:
        nonlocal read
        if message.startswith("Reading"):
            read += 1
            if read == len(order) // 2:
                raise Cancelled

    options = BatchOptions(signature=EN, workers=2)
    with (
        mock.patch("core.archive.add.ADD_CHUNK", 4),
        mock.patch.object(ArchiveIndex, "file_members", recording),
        mock.patch.object(run_module, "ProcessPoolExecutor", counting_pool),
        mock.patch.object(run_module, "usable_cores", lambda: 2),
        ArchiveIndex(tmp_path / "i.sqlite3", create=True, options=EN) as index,
    ):
        with pytest.raises(Cancelled):
            add_to_archive([old], index, options, progress=stop_midway)
        assert len(pools) == 1
        kept = [p for chunk in filed for p in chunk]
        assert kept == order[: len(kept)]
        assert [len(c) for c in filed] == chunk_sizes(len(order))[: len(filed)]
        assert sorted(m.path for m in index.members()) == sorted(kept)
        assert made_there == [len(c) for c in filed]  # (each content new, read by a worker)
        filed.clear()
        done = add_to_archive([old], index, options)
        assert (done.added, done.unchanged) == (len(order) - len(kept), len(kept))
        assert [p for chunk in filed for p in chunk] == order
        assert len(pools) == 2  # (one more for the second add)
        checked = check_against_archive([new], index, options).result
    assert as_facts(checked) == as_facts(run_batch([new], [old], options))


def test_an_error_preparing_a_chunk_stops_the_add_and_the_next_add_files_the_rest(
    tmp_path: Path,
) -> None:
    """What the readers handed on is prepared on a thread of its own (`prepare_all`): an error
    there is the add's, raised from it, after the chunks filed before; that chunk is not
    filed in part, and the next add files it and the rest (the check is then the batch's)."""
    old, new = write_collection(tmp_path, 13, 12, 300, students=False, prompt=False)
    order = [s.path for s in collect_inputs([old], (), False).submissions]
    real = add_module.prepare_all
    calls = 0

    def failing_second(handed: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise RuntimeError("broken while preparing")
        return real(handed)

    options = BatchOptions(signature=EN, workers=1)
    with (
        mock.patch("core.archive.add.ADD_CHUNK", 4),
        mock.patch("core.archive.add.PREPARE_EVERY", 100),  # (a chunk prepared at once)
        ArchiveIndex(tmp_path / "i.sqlite3", create=True, options=EN) as index,
    ):
        with (
            mock.patch.object(add_module, "prepare_all", failing_second),
            pytest.raises(RuntimeError, match="broken while preparing"),
        ):
            add_to_archive([old], index, options)
        first = chunk_sizes(len(order))[0]
        assert sorted(m.path for m in index.members()) == sorted(order[:first])
        done = add_to_archive([old], index, options)
        assert (done.added, done.unchanged) == (len(order) - first, first)
        checked = check_against_archive([new], index, options).result
    assert as_facts(checked) == as_facts(run_batch([new], [old], options))


def test_whole_records_filed_without_what_was_handed_on_are_prepared_alike(
    tmp_path: Path,
) -> None:
    """`file_members` prepares itself, all at once, the whole records that come without what
    a reader handed on (contents an add held but had not filed yet), beside those that come
    with it: the same units rows in the same order as when every one came with it, and the
    check is the batch's."""
    old, new = write_collection(tmp_path, 17, 10, 300, students=False, prompt=False)
    loaded, entries, handed = [], [], {}
    for submission in collect_inputs([old], (), False).submissions:
        document = load_document(submission.path, EN)
        profile = document_profile(document)
        key = cache_key(document.content_hash, EN)
        loaded.append((submission, BatchDocument.of(document, submission, profile), key))
        entries.append(pack_entry(key, document, profile))
        handed[key] = hand_on(loaded[-1][1])
    every = dict(zip(handed, prepare_all(list(handed.values())), strict=True))
    some = {key: ready for k, (key, ready) in enumerate(every.items()) if k % 3 == 0}
    rows = []
    for name, prepared in (("all", every), ("some", some), ("none", None)):
        with ArchiveIndex(tmp_path / f"{name}.sqlite3", create=True, options=EN) as index:
            assert index.file_members(loaded, entries, prepared) == (len(loaded), 0)
            rows.append(
                index._connection.execute("SELECT stems FROM units ORDER BY content").fetchall()
            )
            checked = check_against_archive([new], index, BatchOptions(signature=EN, workers=1))
            assert as_facts(checked.result) == as_facts(
                run_batch([new], [old], BatchOptions(signature=EN, workers=1))
            )
    assert rows[0] == rows[1] == rows[2] and len(rows[0]) == len(loaded)


def test_a_document_whose_record_cannot_be_read_is_removed_with_its_postings(
    tmp_path: Path,
) -> None:
    old, _ = write_collection(tmp_path, 5, 12, 300, students=False, prompt=False)
    files = sorted(old.glob("*.txt"))
    with ArchiveIndex(tmp_path / "i.sqlite3", create=True, options=EN) as index:
        add_to_archive([old], index, BatchOptions(workers=1))
        connection = index._connection
        (content,) = connection.execute(
            "SELECT content FROM members WHERE path = ?", (str(files[0]),)
        ).fetchone()
        connection.execute("UPDATE contents SET record = X'00' WHERE id = ?", (content,))
        assert index.remove([files[0]]) == [files[0]]
        held = store.everything(connection, KeyKind.SENTENCE)
        assert len(held) and content not in set(held["content"].tolist())
        assert filed_as_the_open_keys_say(index)


def test_evidence_is_kept_after_the_files_are_gone(tmp_path: Path) -> None:
    old, new = write_collection(tmp_path, 5, 16, 3000, students=False, prompt=False)
    with ArchiveIndex(tmp_path / "i.sqlite3", create=True, options=EN) as index:
        add_to_archive([old], index, BatchOptions(workers=1))
        texts = {p: p.read_text("utf-8") for p in old.glob("*.txt")}
        for path in texts:
            path.unlink()
        checked = check_against_archive([new], index, BatchOptions(signature=EN, workers=1))
        archived = [d for d in checked.result.documents if d.archive]
        assert archived
        for doc in archived:
            stored = index.document_at(doc.path)
            assert stored is not None and stored.text.split() == texts[doc.path].split()


# --- the keys are a superset rule --------------------------------------------------------------


@given(
    st.lists(
        st.lists(
            st.tuples(st.integers(0, 4), st.lists(st.sampled_from("abc"), max_size=2)),
            max_size=6,
        ),
        min_size=2,
        max_size=2,
    ),
    st.sampled_from(list(ShortSentenceRule)),
    st.integers(1, 3),
)
@settings(max_examples=300, deadline=None)
def test_sentence_keys_never_miss_a_shared_sentence_or_bigram(docs, rule, min_block):
    signatures = []
    for sentences in docs:
        signatures.append(
            Signature(
                symbols=tuple(n for n, _ in sentences),
                keys=tuple(tuple(k) for _, k in sentences),
                sentence_indices=tuple(range(len(sentences))),
                too_long=(),
                key_size=2,
                length_cap=True,
            )
        )
    a, b = signatures
    options = MatchOptions(min_block=min_block, short_sentences=rule)
    full_only = rule is ShortSentenceRule.FULL_KEY

    def grams(sig: Signature, width: int) -> set[tuple[object, ...]]:
        return {
            tuple((sig.symbols[p + k], sig.keys[p + k]) for k in range(width))
            for p in range(len(sig) - width + 1)
            if not (full_only and all(sig.is_short(p + k) for k in range(width)))
        }

    for drops in (False, True):
        width = 1 if drops or min_block < 2 else 2
        shared_brute = bool(grams(a, width) & grams(b, width))
        wanted = sentence_keys(a).wanted(options, drops=drops)
        filed = sentence_keys(b).all()
        assert bool(wanted & filed) == shared_brute


@given(
    st.lists(
        st.tuples(
            st.integers(0, 60), st.lists(st.sampled_from(["a", "b", "é", "\x1e"]), max_size=3)
        ),
        max_size=6,
    ),
    st.integers(1, 3),
)
@settings(max_examples=200, deadline=None)
def test_sentence_keys_are_the_hashes_of_the_sentences_texts(sentences, key_size):
    """The keys an index of this format holds: each composite sentence the `key_hash` of its
    text (its length, then its key's terms), each bigram its two sentences' mixed, short when
    both are."""
    signature = Signature(
        symbols=tuple(n for n, _ in sentences),
        keys=tuple(tuple(k) for _, k in sentences),
        sentence_indices=tuple(range(len(sentences))),
        too_long=(),
        key_size=key_size,
        length_cap=False,
    )
    texts = ["1\x1f" + f"{n}\x1e" + "\x1e".join(k) for n, k in sentences]
    singles = [key_hash(t) for t in texts]
    short = [len(k) < key_size for _, k in sentences]
    found = sentence_keys(signature)
    assert found.singles == dict(zip(singles, short, strict=True))
    mixed = [(((a * MIX) ^ b) & (2**64 - 1)) - 2**63 for a, b in pairwise(singles)]
    assert found.bigrams == dict(zip(mixed, map(all, pairwise(short)), strict=True))


@given(
    st.lists(st.frozensets(st.integers(0, 14), max_size=12), max_size=4),
    st.lists(st.frozensets(st.integers(0, 14), max_size=12), max_size=4),
    st.dictionaries(st.integers(0, 14), st.integers(0, 60)),
    st.integers(0, 2**16),
    st.integers(1, 4),
)
@settings(max_examples=500, deadline=None)
def test_word_keys_meet_and_pass_the_filters_for_every_strong_seed(new, old, counts, salt, every):
    """Whatever the order and whichever keys are open: every pair of sentences sharing the
    stems of a strong seed shares a word key that passes the length and position filters on
    both sides (the brute-force oracle: every pair of sentences)."""
    order = StemOrder(counts, 1000)

    def open_among(keys: Iterable[int], _: int) -> set[int]:  # (every = 1: all open)
        return {k for k in keys if (k ^ salt) % every == 0}

    archived = word_units(enumerate(old), order)
    filed = {}
    for v, keys in zip(archived, unit_keys(archived, open_among), strict=True):
        assert all(k.length <= LONGEST for k in keys)
        for key in keys:
            filed.setdefault(key.key, []).append((v.unit, key.position, v.size))
    checked = word_units(enumerate(new), order)
    for u, keys in zip(checked, unit_keys(checked, open_among), strict=True):
        met = {
            unit
            for key in keys
            for unit, other, size in filed.get(key.key, ())
            if could_share(u, key, size, other)
        }
        for unit, stems in enumerate(old):
            if len(stems) < 5:
                continue
            need = max(u.need, strong_threshold(len(stems)))
            if len(set(u.stems) & stems) >= need:
                assert unit in met


# --- the file is the user's data ----------------------------------------------------------------


def test_anything_but_an_index_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    essay = tmp_path / "essay.docx"
    essay.write_bytes(b"PK\x03\x04 not really")
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE t (x)")
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    for path in (essay, other, empty, tmp_path):
        before = (path.read_bytes(), path.stat().st_mtime_ns) if path.is_file() else None
        with pytest.raises(ArchiveError) as caught:
            ArchiveIndex(path, create=True)
        assert str(path) in str(caught.value)
        if before is not None:
            assert (path.read_bytes(), path.stat().st_mtime_ns) == before


def test_a_missing_index_is_made_only_when_adding(tmp_path: Path) -> None:
    with pytest.raises(ArchiveError, match="no archive index there yet"):
        ArchiveIndex(tmp_path / "none.sqlite3")
    assert not (tmp_path / "none.sqlite3").exists()


def test_a_damaged_index_is_reported_and_kept(tmp_path: Path) -> None:
    old, new = write_collection(tmp_path, 9, 8, 3000, students=False, prompt=False)
    path = tmp_path / "i.sqlite3"
    with ArchiveIndex(path, create=True, options=EN) as index:
        add_to_archive([old], index, BatchOptions(workers=1))
    data = bytearray(path.read_bytes())
    for at in range(4096, len(data), 4096):  # every page after the first scribbled over
        data[at + 100 : at + 4000] = os.urandom(3900)
    path.write_bytes(bytes(data))
    with pytest.raises(ArchiveError, match=r"damaged|cannot be read"), ArchiveIndex(path) as index:
        check_against_archive([new], index, BatchOptions(signature=EN, workers=1))
    assert path.read_bytes() == bytes(data)


def test_a_bucket_that_does_not_hold_what_was_written_is_damage(tmp_path: Path) -> None:
    """SQLite checks its pages, not what a blob holds: each bucket carries its checksum."""
    old, new = write_collection(tmp_path, 9, 8, 3000, students=False, prompt=False)
    path = tmp_path / "i.sqlite3"
    with ArchiveIndex(path, create=True, options=EN) as index:
        add_to_archive([old], index, BatchOptions(workers=1))
    with sqlite3.connect(path) as connection:  # one byte changed in every bucket
        connection.execute(
            "UPDATE buckets SET postings = "
            "CAST(substr(postings, 1, 9) || X'5A' || substr(postings, 11) AS BLOB)"
        )
    with pytest.raises(ArchiveError, match="damaged"), ArchiveIndex(path) as index:
        check_against_archive([new], index, BatchOptions(signature=EN, workers=1))


def test_a_units_row_that_does_not_hold_what_was_written_is_damage(tmp_path: Path) -> None:
    old, new = write_collection(tmp_path, 9, 8, 3000, students=False, prompt=False)
    # (a reworded copy of an archived essay: only the word keys find it, through its units)
    copied = sorted(old.glob("*.txt"))[0].read_text("utf-8").rstrip(".").split(". ")
    (new / "reworded.txt").write_text(" ".join(reworded(f"{s}.") for s in copied), "utf-8")
    path = tmp_path / "i.sqlite3"
    with ArchiveIndex(path, create=True, options=EN) as index:
        add_to_archive([old], index, BatchOptions(workers=1))
    with sqlite3.connect(path) as connection:  # every row four bytes short
        connection.execute("UPDATE units SET stems = substr(stems, 1, length(stems) - 4)")
    with pytest.raises(ArchiveError, match="damaged"), ArchiveIndex(path) as index:
        check_against_archive([new], index, BatchOptions(signature=EN, workers=1))


def test_two_adders_at_once_both_land(tmp_path: Path) -> None:
    import threading

    old, _ = write_collection(tmp_path, 13, 12, 3000, students=False, prompt=False)
    files = sorted(old.glob("*.txt"))
    path = tmp_path / "i.sqlite3"
    ArchiveIndex(path, create=True, options=EN).close()
    errors: list[BaseException] = []

    def add(part: list[Path]) -> None:
        try:
            with ArchiveIndex(path) as index:
                add_to_archive(part, index, BatchOptions(workers=1))
        except BaseException as error:  # (reported below)
            errors.append(error)

    threads = [threading.Thread(target=add, args=(files[k::2],)) for k in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    with ArchiveIndex(path) as index:
        assert len(index) == len(files)

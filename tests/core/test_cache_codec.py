"""The document cache's row format (core.batch.cache_codec): generated documents come back
equal, and nothing but a well-typed value of the allow-listed classes ever comes out of a row —
a malicious pickle, a mistyped field, a bomb or random bytes is a miss (CodecError), never code
and never another exception."""

from __future__ import annotations

import builtins
import dataclasses
import json
import os
import pickle
import shlex
import sqlite3
import zlib
from array import array
from pathlib import Path
from typing import Any

import pytest
from docmakers import SAMPLE_PROSE, make_docx, make_html, make_odt, make_pdf, make_rtf, make_txt
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.batch import cache as cache_module
from core.batch import cache_codec
from core.batch.cache import (
    DocumentCache,
    cache_key,
    codec,
    content_hash_of,
    fingerprint_key,
    pack_entry,
    pack_fingerprints,
    unpack_document,
)
from core.batch.cache_codec import Codec, CodecError
from core.batch.common_text import DocumentFingerprints, fingerprint_document
from core.batch.result import BatchDocument
from core.batch.run import BatchOptions, run_batch
from core.detection.reworded import WordProfile, document_profile
from core.documents.document import Document, document_from_text, load_document, with_exclusions
from core.documents.excluded_spans import ExcludedSpan, ExclusionKind
from core.documents.sentences import Sentence, Term
from core.documents.tampering import KINDS, Tampering
from core.options import SignatureOptions

EN = SignatureOptions(language="en")

VOCABULARY = "the cat sat on a mat Über naïve Ωmega 日本 don't 3.14 well-known x и café and of"
WORDS = st.sampled_from(VOCABULARY.split())
SENTENCE = st.lists(WORDS, min_size=1, max_size=12).map(lambda w: " ".join(w))
ENDING = st.sampled_from([".", "!", "?", "…", ".\n\n", '."', ""])
TEXTS = st.lists(st.tuples(SENTENCE, ENDING), min_size=1, max_size=12).map(
    lambda parts: " ".join(s + e for s, e in parts)
)
OPTIONS = st.builds(
    SignatureOptions,
    language=st.sampled_from(["en", "de", "auto"]),
    remove_stopwords=st.booleans(),
    length_cap=st.booleans(),
    key_size=st.integers(1, 4),
)
TAMPERING = st.lists(
    st.builds(
        Tampering,
        kind=st.sampled_from(KINDS),
        count=st.integers(0, 10**6),
        detail=st.text(max_size=20),
    ),
    max_size=3,
).map(tuple)


@st.composite
def documents(draw: st.DrawFn) -> Document:
    """A document as the engine makes it from generated text, with generated exclusions, block
    quotes, warnings, tampering and a path."""
    doc = document_from_text(draw(TEXTS), draw(st.text(min_size=1, max_size=30)), draw(OPTIONS))
    n = len(doc.text)
    spans = draw(
        st.lists(
            st.builds(
                ExcludedSpan,
                start=st.integers(0, n),
                end=st.integers(0, n),
                kind=st.sampled_from(list(ExclusionKind)),
                detail=st.text(max_size=10),
            ),
            max_size=4,
        )
    )
    doc = with_exclusions(doc, spans)
    quotes = draw(st.lists(st.tuples(st.integers(0, n), st.integers(0, n)), max_size=3))
    return dataclasses.replace(
        doc,
        path=Path(draw(st.sampled_from(["a.txt", "/x/y/essay é.docx", "rel/dir/b.pdf"]))),
        block_quotes=tuple(quotes),
        load_warnings=tuple(draw(st.lists(st.text(max_size=15), max_size=2))),
        tampering=draw(TAMPERING),
    )


@given(documents())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_cached_value_comes_back_equal(doc: Document) -> None:
    """decode(encode(x)) == x for the three kinds of row: the document, its record (with its
    word profile) and its common-text fingerprints."""
    assert codec(Document).decode(codec(Document).encode(doc)) == doc
    _, summary, document = pack_entry("k", doc)
    assert unpack_document(document) == doc
    record = BatchDocument.of(doc, profile=document_profile(doc))
    assert codec(BatchDocument).decode(summary) == record
    back = codec(BatchDocument).decode(codec(BatchDocument).encode(record))
    assert back == record and back.tampering == doc.tampering
    prints = fingerprint_document(doc, 3)
    assert codec(DocumentFingerprints).decode(pack_fingerprints(prints)) == prints


@given(
    st.lists(st.lists(st.text(max_size=6), max_size=5).map(tuple), max_size=8).map(tuple),
    st.lists(st.text(max_size=8), max_size=6).map(tuple),
)
def test_strings_come_back_exactly_whatever_they_hold(
    words: tuple[tuple[str, ...], ...], warnings: tuple[str, ...]
) -> None:
    """Columns of strings are written joined when none holds the separator (a space): empty
    strings, empty tuples, strings with spaces and without all come back as they were."""
    profile = WordProfile("en", tuple(range(len(words))), words)
    assert codec(WordProfile).decode(codec(WordProfile).encode(profile)) == profile
    doc = document_from_text("Some words here. And more words there.", "w.txt", EN)
    record = dataclasses.replace(
        BatchDocument.of(doc, profile=profile),
        warnings=warnings,
        signature=dataclasses.replace(doc.signature, keys=words),
    )
    assert codec(BatchDocument).decode(codec(BatchDocument).encode(record)) == record
    terms = tuple(Term(w, k, k + 1) for k, w in enumerate(warnings))
    sentence = Sentence.from_terms(0, 0, len(warnings), terms)
    changed = dataclasses.replace(doc, sentences=(sentence,))
    assert ROOT.decode(ROOT.encode(changed)) == changed


@pytest.mark.parametrize("maker", [make_txt, make_docx, make_odt, make_rtf, make_html, make_pdf])
def test_documents_of_every_format_come_back_equal(tmp_path: Path, maker) -> None:
    """Documents read from files (block quotes, warnings, their formats) through the cache."""
    path = maker(tmp_path / f"essay.{maker.__name__[5:]}", SAMPLE_PROSE)
    doc = load_document(path, EN)
    cache = DocumentCache(tmp_path / "cache.sqlite3")
    key = cache_key(doc.content_hash, EN)
    cache.put_packed([pack_entry(key, doc)])
    assert cache.documents([key]) == {key: doc}
    assert cache.batch_documents([key])[key] == BatchDocument.of(doc, profile=document_profile(doc))
    cache.close()


def test_a_document_with_tampering_keeps_it_through_the_cache(tmp_path: Path) -> None:
    doc = dataclasses.replace(
        document_from_text("One sentence here. Another one there.", "t.txt", EN),
        tampering=(Tampering("lookalike_letters", 312, "Latin"), Tampering("hidden_text", 4)),
    )
    cache = DocumentCache(tmp_path / "cache.sqlite3")
    cache.put_packed([pack_entry("k", doc)])
    assert cache.documents(["k"])["k"].tampering == doc.tampering
    assert cache.batch_documents(["k"])["k"].tampering == doc.tampering
    cache.close()


# --- what a row may not do --------------------------------------------------------------------


class _Opens:
    """Unpickled, creates the file `path` (builtins.open)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return builtins.open, (str(self.path), "w")


class _Runs:
    """Unpickled, runs a shell command that creates the file `path` (os.system)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return os.system, (f"touch {shlex.quote(str(self.path))}",)


def malicious_rows(marker: Path) -> list[bytes]:
    payloads = [pickle.dumps(_Opens(marker)), pickle.dumps(_Runs(marker))]
    return payloads + [zlib.compress(p) for p in payloads]


def test_the_malicious_pickles_do_what_they_say(tmp_path: Path) -> None:
    """(The oracle for the test below: unpickled, each payload creates its file.)"""
    for k in range(4):
        marker = tmp_path / f"proof{k}"
        blob = malicious_rows(marker)[k]
        result = pickle.loads(blob if k < 2 else zlib.decompress(blob))
        if hasattr(result, "close"):
            result.close()
        assert marker.exists()


def test_a_row_holding_a_malicious_pickle_is_a_miss_and_runs_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "essays"
    folder.mkdir()
    texts = [
        "The river rose in the night. Nobody on the farm slept at all.",
        "The river rose in the night. Nobody on the farm slept at all. Morning came late.",
    ]
    for k, text in enumerate(texts):
        (folder / f"e{k}.txt").write_text(text, encoding="utf-8")
    marker = tmp_path / "pwned"
    path = tmp_path / "cache.sqlite3"
    options = BatchOptions(signature=EN, workers=1)
    DocumentCache(path).close()
    rows = malicious_rows(marker)
    with sqlite3.connect(path) as db:  # the rows a crafted cache file would hold
        for k, name in enumerate(["e0.txt", "e1.txt"]):
            key = cache_key(content_hash_of(folder / name) or "", EN)
            db.execute("INSERT INTO entries VALUES (?, ?, ?)", (key, rows[k], rows[k + 2]))
            db.execute("INSERT INTO fingerprints VALUES (?, ?)", (fingerprint_key(key, 6), rows[k]))
    db.close()
    cache = DocumentCache(path)
    keys = [cache_key(content_hash_of(folder / n) or "", EN) for n in ("e0.txt", "e1.txt")]
    assert cache.batch_documents(keys) == {} and cache.documents(keys) == {}
    assert cache.fingerprints([fingerprint_key(k, 6) for k in keys]) == {}
    assert all(unpack_document(row) is None for row in rows)
    assert cache.misses == 6
    result = run_batch([folder], options=options, cache=cache)
    plain = run_batch([folder], options=options)
    assert result.pairs == plain.pairs and len(result.documents) == 2
    cache.close()
    assert not marker.exists()


ROOT = codec(Document)


def parts(blob: bytes) -> tuple[bytes, bytes]:
    """A row's JSON (inflated) and its tail of array bytes."""
    assert blob[:3] == cache_codec.MAGIC
    end = 7 + int.from_bytes(blob[3:7], "little")
    return zlib.decompress(blob[7:end]), blob[end:]


def frame(raw: bytes, tail: bytes = b"") -> bytes:
    """A row of JSON text `raw` (any bytes) and `tail`, as the codec lays one out."""
    packed = zlib.compress(raw)
    return cache_codec.MAGIC + len(packed).to_bytes(4, "little") + packed + tail


def good_data(doc: Document) -> Any:
    return json.loads(parts(ROOT.encode(doc))[0])


def blob_of(data: Any, tail: bytes = b"") -> bytes:
    return frame(json.dumps(data).encode(), tail)


def test_a_value_of_the_wrong_type_anywhere_is_refused() -> None:
    doc = dataclasses.replace(
        document_from_text("A first sentence here. And a second one.", "d.txt", EN),
        tampering=(Tampering("hidden_text", 3, "white"),),
    )
    data = good_data(doc)
    assert ROOT.decode(blob_of(data)) == doc
    fields = [f.name for f in dataclasses.fields(Document)]

    def altered(name: str, value: Any) -> bytes:
        changed = json.loads(json.dumps(data))
        changed[fields.index(name)] = value
        return blob_of(changed)

    bad = [
        altered("path", 7),
        altered("text", ["not", "text"]),
        altered("sentences", {"a": 1}),
        altered("load_warnings", [1]),
        altered("block_quotes", [[1, 2, 3]]),
        altered("block_quotes", [[True, 2]]),  # a bool is not an int
        altered("options", ["en", True, True, 0]),  # key_size 0: the constructor refuses
        altered("options", ["en", True, True]),
        altered("excluded", [[0], [5], ["nonsense"], [""]]),  # not an ExclusionKind
        altered("tampering", [["evil_kind"], [1], [""]]),  # not a TamperingKind
        altered("tampering", [["hidden_text"], [1, 2], [""]]),  # columns of different lengths
        blob_of([*data, None]),
        blob_of(data[:-1]),
        blob_of({"__class__": "os.system"}),
        blob_of(None),
        b"",
        b"not a row at all",
        zlib.compress(json.dumps(data).encode()),  # no header
        frame(b"{not json"),
        frame(b"[" * 100_000 + b"]" * 100_000),  # deeper than json can go
        frame(b"\xff\xfe invalid utf-8"),
        ROOT.encode(doc)[:-3],  # truncated
        ROOT.encode(doc)[:7] + b"x" * 10,  # not compressed
        cache_codec.MAGIC + (10**6).to_bytes(4, "little") + b"short",
    ]
    for keys in (
        {"joined": "a b", "lengths": [3]},  # more words counted than there are
        {"joined": "a b c", "lengths": [4, -1]},
        {"joined": "", "lengths": [0, 2]},
        {"joined": "a", "lengths": [1], "more": 1},
        {"joined": 5, "lengths": [1]},
        {"joined": "a", "lengths": [True]},
        {"joined": "x", "lengths": []},
    ):
        signature = json.loads(json.dumps(data))
        signature[fields.index("signature")][1] = keys
        bad.append(blob_of(signature))
    # a sentence's columns: index, start, end, term texts, term starts, term ends
    sentence = json.loads(json.dumps(data))
    sentence[fields.index("sentences")][4][0][0] = "a"  # a term's start: not an int
    bad.append(blob_of(sentence))
    sentence = json.loads(json.dumps(data))
    sentence[fields.index("sentences")][5][0].pop()  # a term without its end
    bad.append(blob_of(sentence))
    for blob in bad:
        with pytest.raises(CodecError):
            ROOT.decode(blob)


def test_a_compression_bomb_is_refused_before_it_is_inflated(monkeypatch) -> None:
    monkeypatch.setattr(cache_codec, "MAX_DECODED_BYTES", 1000)
    with pytest.raises(CodecError):
        ROOT.decode(frame(b" " * 100_000))


def test_arrays_are_read_from_the_tail_and_checked() -> None:
    prints = codec(DocumentFingerprints)
    good = fingerprint_document(document_from_text("One two three four. Five six.", "x", EN), 2)
    raw, tail = parts(prints.encode(good))
    data = json.loads(raw)
    assert data[1] == ["Q", 0, 4]  # two sentences: start, end of each
    assert len(tail) == 8 * sum(len(a) for a in (good.spans, good.blocks, good.shingles)) + 8 * 3
    bad = [
        ["d", 0, 4],  # not integers
        ["Q", -8, 4],
        ["Q", 0, 10**6],  # past the end of the row
        ["Q", True, 4],
        ["Q", 0],
        [7, 0, 0],
        "QQ",
    ]
    for spans in bad:
        with pytest.raises(CodecError):
            prints.decode(blob_of([data[0], spans, *data[2:]], tail))
    with pytest.raises(CodecError):
        prints.decode(blob_of(data, tail[:-1]))
    back = prints.decode(blob_of(data, tail))
    assert back == good and isinstance(back.spans, array)


@given(st.binary(max_size=300), st.sampled_from([b"", cache_codec.MAGIC]), st.booleans())
@settings(max_examples=300)
def test_random_bytes_are_a_miss_never_an_exception(raw: bytes, magic: bytes, framed: bool) -> None:
    blob = frame(raw, raw[:16]) if framed else magic + raw
    with pytest.raises(CodecError):
        ROOT.decode(blob)
    assert unpack_document(blob) is None


@given(st.data())
@settings(max_examples=200, deadline=None)
def test_a_mutated_row_is_a_valid_document_or_a_miss(data: st.DataObject) -> None:
    doc = document_from_text("The cat sat. The dog ran far away. Then it rained.", "m.txt", EN)
    raw = bytearray(parts(ROOT.encode(doc))[0])
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at] = data.draw(st.sampled_from(b'[]{}",:0123456789-.aetnrul\\ '))
    try:
        value = ROOT.decode(frame(bytes(raw)))
    except CodecError:
        return
    assert type(value) is Document


def test_a_value_that_is_not_what_its_class_declares_cannot_be_written() -> None:
    doc = document_from_text("A sentence. Another one.", "d.txt", EN)
    for wrong in (
        dataclasses.replace(doc, format=Path("txt")),  # type: ignore[arg-type]
        dataclasses.replace(doc, excluded=(ExcludedSpan(0, 1, "quotation"),)),  # type: ignore[arg-type]
        dataclasses.replace(doc, sentences=doc.sentences[0]),  # type: ignore[arg-type]
        dataclasses.replace(doc, options="en"),  # type: ignore[arg-type]
    ):
        with pytest.raises(CodecError):
            ROOT.encode(wrong)
    listed = dataclasses.replace(doc, load_warnings=["a list"])  # type: ignore[arg-type]
    assert ROOT.decode(ROOT.encode(listed)).load_warnings == ("a list",)


def test_only_allow_listed_classes_and_known_types_can_be_stored() -> None:
    @dataclasses.dataclass(frozen=True)
    class Holder:
        value: Any

    @dataclasses.dataclass(frozen=True)
    class Listed:
        items: list[int]

    with pytest.raises(TypeError, match="allow-list"):
        Codec(Document, [Document])  # its Sentence is not listed
    with pytest.raises(TypeError):
        Codec(Holder, [Holder])
    with pytest.raises(TypeError):
        Codec(Listed, [Listed])
    for kind in cache_module.CACHED_CLASSES:
        if kind in (Document, BatchDocument, DocumentFingerprints):
            Codec(kind, cache_module.CACHED_CLASSES)


def test_a_document_the_codec_cannot_store_is_checked_just_not_cached(
    tmp_path: Path, monkeypatch
) -> None:
    """A row the codec refuses costs the cache, never the document."""
    from core.batch import run as batch_run
    from core.batch.result import BatchDocument, Submission
    from core.options import SignatureOptions

    def refuse(*_args: object) -> object:
        raise CodecError("a value this codec does not store")

    monkeypatch.setattr(batch_run, "pack_entry", refuse)
    monkeypatch.setattr(batch_run, "pack_fingerprints", refuse)
    path = make_txt(tmp_path / "essay.txt", SAMPLE_PROSE)
    options = SignatureOptions(language="en")
    key = cache_key(content_hash_of(path) or "", options)
    loaded = batch_run.read_submission(
        Submission(path, str(path)), options, key, fingerprints=True, job=batch_run.ReadJob(options)
    )
    assert isinstance(loaded, batch_run.LoadedDocument)
    assert isinstance(loaded.document, BatchDocument) and loaded.document.sentence_count > 0
    assert loaded.entry is None and loaded.fingerprint_row is None
    assert loaded.fingerprints is not None


def test_a_document_read_fresh_makes_its_word_profile_once(tmp_path: Path, monkeypatch) -> None:
    """The cache row's record and the record handed back share one profile (stemming every word
    twice cost a tenth of a millisecond an essay), unless a per-document exclusion changed
    what is scored: then each has its own."""
    from core.batch import run as batch_run
    from core.batch.result import Submission
    from core.options import ExclusionOptions, SignatureOptions

    made: list[int] = []
    real = batch_run.document_profile

    def counted(doc: Any) -> Any:
        made.append(1)
        return real(doc)

    monkeypatch.setattr(batch_run, "document_profile", counted)
    path = make_txt(
        tmp_path / "essay.txt",
        (*SAMPLE_PROSE, '"A quoted line, of some length, that a teacher may leave out."'),
    )
    options = SignatureOptions(language="en")
    key = cache_key(content_hash_of(path) or "", options)
    for exclusions, profiles in ((ExclusionOptions(), 1), (ExclusionOptions(quotations=True), 2)):
        made.clear()
        job = batch_run.ReadJob(options, exclusions=exclusions)
        loaded = batch_run.read_submission(Submission(path, str(path)), options, key, job=job)
        assert isinstance(loaded, batch_run.LoadedDocument) and loaded.entry is not None
        assert len(made) == profiles
        document = unpack_document(loaded.entry[2])
        assert document is not None
        assert codec(BatchDocument).decode(loaded.entry[1]).profile == real(document)
        scored = batch_run.apply_exclusions(document, exclusions, (), job.match)
        assert loaded.document.profile == real(scored if job.per_document else document)

"""The case file: round trip, strict validation with readable errors, and the re-check."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.case import (
    CASE_FORMAT,
    CASE_VERSION,
    Case,
    CaseDocument,
    CaseError,
    DocumentState,
    case_json,
    check_documents,
    load_case,
    save_case,
)
from core.fingerprint import file_sha256
from core.options import ExclusionOptions, MatchOptions, ShortSentenceRule, SignatureOptions


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def make_case(tmp_path: Path) -> Case:
    a, b, prompt = tmp_path / "essay-a.txt", tmp_path / "essay-b.txt", tmp_path / "prompt.txt"
    a.write_bytes(b"first essay")
    b.write_bytes(b"second essay")
    prompt.write_bytes(b"the prompt")
    return Case(
        documents=(CaseDocument(a, sha(b"first essay")), CaseDocument(b, sha(b"second essay"))),
        templates=(CaseDocument(prompt, sha(b"the prompt")),),
        signature=SignatureOptions(language="de", remove_stopwords=False, key_size=3),
        match=MatchOptions(min_block=3, short_sentences=ShortSentenceRule.LITERAL, reworded=False),
        exclusions=ExclusionOptions(quotations=True, template_phrase_words=8),
        pair=(b, a),
        saved_at=datetime(2025, 3, 1, 12, 30, tzinfo=UTC),
    )


def test_a_case_round_trips(tmp_path: Path) -> None:
    case = make_case(tmp_path)
    path = save_case(case, tmp_path / "class.doppelcase")
    assert load_case(path) == case
    data = json.loads(path.read_text("utf-8"))
    assert data["format"] == CASE_FORMAT and data["version"] == CASE_VERSION
    assert data["documents"][0] == {
        "path": str(tmp_path / "essay-a.txt"),
        "sha256": sha(b"first essay"),
    }


def test_saving_replaces_the_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "class.doppelcase"
    target.write_text("old", "utf-8")
    save_case(make_case(tmp_path), target)
    assert load_case(target).pair is not None
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_the_document_hash_is_the_sha256_of_the_bytes(tmp_path: Path) -> None:
    from core.documents.document import load_document

    essay = tmp_path / "essay.txt"
    essay.write_text("The first sentence is here. The second one follows it.", "utf-8")
    assert file_sha256(essay) == load_document(essay).content_hash


def write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "bad.doppelcase"
    path.write_text(data if isinstance(data, str) else json.dumps(data), "utf-8")
    return path


def valid(tmp_path: Path) -> dict:
    return case_json(make_case(tmp_path))


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d.pop("format"), "not a Doppel case file"),
        (lambda d: d.update(format="something-else"), "not a Doppel case file"),
        (lambda d: d.update(version=CASE_VERSION + 1), "newer Doppel"),
        (lambda d: d.update(version="1"), "format version"),
        (lambda d: d.update(extra=1), 'unknown field "extra"'),
        (lambda d: d.pop("pair"), 'lacks the field "pair"'),
        (lambda d: d.update(documents={}), "documents must be a list"),
        (lambda d: d["documents"][0].update(path="essay.txt"), "absolute path"),
        (lambda d: d["documents"][0].update(sha256="abc"), "64 lowercase hexadecimal"),
        (lambda d: d["documents"].append(dict(d["documents"][0])), "twice"),
        (lambda d: d["options"]["signature"].update(key_size=0), "impossible setting"),
        (lambda d: d["options"]["signature"].update(key_size=True), "whole number"),
        (lambda d: d["options"]["signature"].update(language="../x"), "not a language"),
        (lambda d: d["options"]["match"].update(short_sentences="all"), "not a known rule"),
        (lambda d: d["options"]["match"].update(reworded="yes"), "true or false"),
        (lambda d: d["exclusions"].update(common_share="half"), "number or null"),
        (lambda d: d["exclusions"].update(common_share=2), "impossible setting"),
        (lambda d: d.update(pair=["/nowhere/a.txt", "/nowhere/b.txt"]), "two different"),
        (lambda d: d.update(saved_at="yesterday"), "not a date"),
        (lambda d: d.update(saved_at="2025-01-01T10:00:00"), "time zone"),
    ],
)
def test_anything_malformed_is_refused_with_the_file_and_the_reason(
    tmp_path: Path, change, reason: str
) -> None:
    data = valid(tmp_path)
    change(data)
    with pytest.raises(CaseError) as raised:
        load_case(write(tmp_path, data))
    assert str(raised.value).startswith("bad.doppelcase: ")
    assert reason in str(raised.value)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "not valid JSON"),
        ("{not json", "not valid JSON"),
        ("[1, 2]", "not a Doppel case file"),
        ('{"format": "doppel-case", "format": "doppel-case"}', "appears twice"),
        ('{"format": "doppel-case", "version": NaN}', "not a number JSON allows"),
    ],
)
def test_text_that_is_not_a_case_is_refused(tmp_path: Path, text: str, reason: str) -> None:
    with pytest.raises(CaseError, match=reason):
        load_case(write(tmp_path, text))


def test_binary_and_missing_files_are_refused(tmp_path: Path) -> None:
    binary = tmp_path / "image.doppelcase"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.raises(CaseError, match=r"image\.doppelcase: it is not a Doppel case file"):
        load_case(binary)
    with pytest.raises(CaseError, match=r"gone\.doppelcase: it could not be read"):
        load_case(tmp_path / "gone.doppelcase")


def test_an_inconsistent_case_is_never_written(tmp_path: Path) -> None:
    case = make_case(tmp_path)
    bad = Case(documents=case.documents, pair=(case.documents[0].path, Path("/elsewhere.txt")))
    with pytest.raises(CaseError, match="pair on screen"):
        save_case(bad, tmp_path / "x.doppelcase")
    assert not (tmp_path / "x.doppelcase").exists()


def test_the_re_check_finds_changed_moved_and_missing_documents(tmp_path: Path) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    same, edited, renamed, gone = (old / n for n in ("same.txt", "edited.txt", "a.txt", "b.txt"))
    for path in (same, edited, renamed, gone):
        path.write_bytes(path.name.encode())
    documents = [CaseDocument(p, sha(p.name.encode())) for p in (same, edited, renamed, gone)]
    edited.write_bytes(b"changed since")
    # the class folder moved next to the case file, one file renamed on the way
    (new / "copy-of-a.txt").write_bytes(renamed.read_bytes())
    (new / "unrelated.txt").write_bytes(b"something else")
    renamed.unlink()
    gone.unlink()
    checked = check_documents(documents, new / "class.doppelcase")
    assert [c.state for c in checked] == [
        DocumentState.UNCHANGED,
        DocumentState.CHANGED,
        DocumentState.MOVED,
        DocumentState.MISSING,
    ]
    assert checked[0].path == same and checked[1].path == edited
    assert checked[2].path == new / "copy-of-a.txt"
    assert checked[3].path is None


def test_a_document_saved_unreadable_is_found_by_its_name(tmp_path: Path) -> None:
    case_folder = tmp_path / "case"
    case_folder.mkdir()
    (case_folder / "scan.pdf").write_bytes(b"%PDF-broken")
    checked = check_documents(
        [CaseDocument(tmp_path / "gone" / "scan.pdf", None)], case_folder / "c.doppelcase"
    )
    assert checked[0].state is DocumentState.MOVED
    assert checked[0].path == case_folder / "scan.pdf"

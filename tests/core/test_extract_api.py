"""extract(): the public contract - formats, limits, typed errors for any bad input, and input
files left exactly as they were."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from docmakers import (
    SAMPLE_PROSE,
    make_docx,
    make_html,
    make_md,
    make_odt,
    make_pdf,
    make_rtf,
    make_txt,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import core.documents.extract
from core.documents.extract import (
    MAX_FILE_BYTES,
    MAX_TEXT_CHARS,
    SUPPORTED_SUFFIXES,
    ExtractedText,
    extract,
)
from core.errors import DocumentError, DocumentTooLarge, EmptyDocument, UnsupportedFormat

MAKERS: dict[str, Callable[..., Path]] = {
    ".txt": make_txt,
    ".md": make_md,
    ".docx": make_docx,
    ".pdf": make_pdf,
    ".odt": make_odt,
    ".rtf": make_rtf,
    ".html": make_html,
    ".htm": make_html,
}


def test_the_public_constants() -> None:
    assert frozenset(MAKERS) == SUPPORTED_SUFFIXES
    assert MAX_FILE_BYTES == 200 * 1024 * 1024
    assert MAX_TEXT_CHARS == 10_000_000


@pytest.mark.parametrize("suffix", sorted(SUPPORTED_SUFFIXES))
def test_every_format_gives_text_format_and_hash(tmp_path: Path, suffix: str) -> None:
    path = MAKERS[suffix](tmp_path / f"essay{suffix}", SAMPLE_PROSE[:3])
    extracted = extract(path)
    assert extracted.format == {".htm": "html"}.get(suffix, suffix[1:])
    assert extracted.content_hash == hashlib.sha256(path.read_bytes()).hexdigest()
    assert extracted.text.startswith("The river had been rising for three days")
    assert isinstance(extracted.warnings, tuple)
    with pytest.raises(dataclasses.FrozenInstanceError):
        extracted.text = "changed"  # type: ignore[misc]


def test_suffix_case_does_not_matter(tmp_path: Path) -> None:
    path = make_docx(tmp_path / "ESSAY.DOCX", ["Shouted name."])
    assert extract(str(path)).format == "docx"


@pytest.mark.parametrize("name", ["setup.exe", "essay.doc", "notes", "archive.tar.gz"])
def test_unsupported_format_lists_the_supported_ones(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"MZ\x90\x00")
    with pytest.raises(UnsupportedFormat) as raised:
        extract(path)
    message = str(raised.value)
    assert message.startswith(f"{name}: ")
    assert all(suffix in message for suffix in SUPPORTED_SUFFIXES)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match=r"gone\.txt: the file does not exist"):
        extract(tmp_path / "gone.txt")


def test_folder(tmp_path: Path) -> None:
    (tmp_path / "folder.docx").mkdir()
    with pytest.raises(DocumentError, match=r"folder\.docx: it is a folder"):
        extract(tmp_path / "folder.docx")


def test_permission_denied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # chmod cannot lock out root (CI containers), so the refusal is simulated at open().
    path = make_txt(tmp_path / "locked.txt", ["Secret."])

    def refuse(self: Path, *args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "open", refuse)
    with pytest.raises(DocumentError, match=r"locked\.txt: permission denied"):
        extract(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX-only")
def test_a_pipe_is_refused_without_blocking(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.txt"
    os.mkfifo(pipe)
    with pytest.raises(DocumentError, match=r"pipe\.txt: it is not a regular file"):
        extract(pipe)


def test_file_over_the_size_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = make_txt(tmp_path / "big.txt", SAMPLE_PROSE)
    monkeypatch.setattr(core.documents.extract, "MAX_FILE_BYTES", 1000)
    with pytest.raises(DocumentTooLarge, match=r"big\.txt: the file is [\d,]+ bytes; the limit"):
        extract(path)


def test_text_over_the_length_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = make_docx(tmp_path / "long.docx", SAMPLE_PROSE)
    monkeypatch.setattr(core.documents.extract, "MAX_TEXT_CHARS", 1000)
    with pytest.raises(DocumentTooLarge, match=r"long\.docx: its text"):
        extract(path)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "the file is empty"),
        (b" \r\n\t\n", "the file is empty (it holds only spaces and line breaks)"),
        ("\u200b\u00a0 -- ... !!".encode(), "it contains no words"),
    ],
)
def test_empty_text(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "blank.txt"
    path.write_bytes(content)
    with pytest.raises(EmptyDocument) as raised:
        extract(path)
    assert str(raised.value).startswith(f"blank.txt: {reason}")


@pytest.mark.parametrize("suffix", sorted(SUPPORTED_SUFFIXES))
def test_the_input_file_is_left_untouched(tmp_path: Path, suffix: str) -> None:
    folder = tmp_path / "inbox"
    folder.mkdir()
    path = MAKERS[suffix](folder / f"essay{suffix}", SAMPLE_PROSE[:3])
    old_time = 1_600_000_000_000_000_000
    os.utime(path, ns=(old_time, old_time))
    before = (path.read_bytes(), path.stat().st_mtime_ns, sorted(folder.iterdir()))
    extract(path)
    after = (path.read_bytes(), path.stat().st_mtime_ns, sorted(folder.iterdir()))
    assert after == before


@pytest.mark.parametrize("suffix", sorted(SUPPORTED_SUFFIXES))
def test_the_file_is_opened_once_for_reading(
    tmp_path: Path, suffix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = MAKERS[suffix](tmp_path / f"essay{suffix}", SAMPLE_PROSE[:3])
    opened: list[tuple[str, str]] = []
    real_open = io.open

    def recording_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        opened.append(
            (os.fspath(file) if isinstance(file, str | os.PathLike) else repr(file), mode)
        )
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(io, "open", recording_open)
    monkeypatch.setattr("builtins.open", recording_open)
    extract(path)
    assert [entry for entry in opened if entry[0] == str(path)] == [(str(path), "rb")]


# --- any bytes at all: a typed error or a result, never a library exception -----------------


@pytest.fixture(scope="module")
def valid_documents(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    folder = tmp_path_factory.mktemp("valid")
    return {
        suffix: make(folder / f"valid{suffix}", SAMPLE_PROSE[:3]).read_bytes()
        for suffix, make in MAKERS.items()
    }


def outcome(path: Path, data: bytes) -> ExtractedText | DocumentError:
    path.write_bytes(data)
    try:
        return extract(path)
    except DocumentError as error:
        assert str(error).startswith(f"{path.name}: ")
        return error


fuzz = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@fuzz
@given(suffix=st.sampled_from(sorted(SUPPORTED_SUFFIXES)), data=st.binary(max_size=3000))
def test_random_bytes(tmp_path_factory: pytest.TempPathFactory, suffix: str, data: bytes) -> None:
    outcome(tmp_path_factory.mktemp("fuzz") / f"random{suffix}", data)


@fuzz
@given(
    suffix=st.sampled_from(sorted(SUPPORTED_SUFFIXES)),
    cut=st.floats(min_value=0, max_value=1),
    flips=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), max_size=8),
)
def test_damaged_documents(
    tmp_path_factory: pytest.TempPathFactory,
    valid_documents: dict[str, bytes],
    suffix: str,
    cut: float,
    flips: list[tuple[float, int]],
) -> None:
    data = bytearray(valid_documents[suffix][: max(1, int(len(valid_documents[suffix]) * cut))])
    for where, value in flips:
        data[int(where * (len(data) - 1))] = value
    outcome(tmp_path_factory.mktemp("damaged") / f"damaged{suffix}", bytes(data))


def test_block_quotes_that_normalisation_merges_away_are_skipped_not_misplaced() -> None:
    from core.documents.extract.raw import join_paragraphs, locate_in_normalised
    from core.documents.normalize import normalize_text

    raw, spans = join_paragraphs(
        [
            ("Quoted again.", False),
            ("Broken wor\u00ad", True),  # a soft hyphen at the end joins it to the next one
            ("ds here.", False),
            ("Quoted  again.", True),
        ]
    )
    text = normalize_text(raw)
    assert [text[a:b] for a, b in locate_in_normalised(raw, spans, text)] == ["Quoted again."]
    assert locate_in_normalised(raw, spans, text)[0][0] == text.rindex("Quoted again.")

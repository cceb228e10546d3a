"""extract(): the public contract - formats, limits, typed errors for any bad input, and input
files left exactly as they were."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import os
import threading
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

    def refuse(name: str, flags: int) -> int:
        raise PermissionError(13, "Permission denied", name)

    monkeypatch.setattr(core.documents.extract, "_open_nonblocking", refuse)
    with pytest.raises(DocumentError, match=r"locked\.txt: permission denied"):
        extract(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX-only")
def test_a_pipe_is_refused_without_blocking(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.txt"
    os.mkfifo(pipe)
    with pytest.raises(DocumentError, match=r"pipe\.txt: it is not a regular file"):
        extract(pipe)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("target", ["/dev/zero", "/dev/null"])
def test_a_link_to_a_device_is_refused_by_its_type(tmp_path: Path, target: str) -> None:
    """stat follows the link: /dev/zero is a character device, refused before it is opened
    (reading it would never end)."""
    link = tmp_path / "endless.txt"
    link.symlink_to(target)
    with pytest.raises(DocumentError, match=r"endless\.txt: it is not a regular file"):
        extract(link)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX-only")
@pytest.mark.parametrize("suffix", sorted(SUPPORTED_SUFFIXES))
def test_nothing_opens_a_pipe(tmp_path: Path, suffix: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pipe, or a link to one, is refused by its type before anything opens it (opening a
    pipe waits for a writer). Every way of opening a file is watched, on the thread that
    extracts (another thread of the test process may open files meanwhile: the session's
    cluster scheduler reads /proc/diskstats)."""
    pipe = tmp_path / f"pipe{suffix}"
    os.mkfifo(pipe)
    link = tmp_path / f"link{suffix}"
    link.symlink_to(pipe)
    opened: list[str] = []
    extracting = threading.get_ident()
    real_os_open = os.open

    def watching_os_open(name: Any, *args: Any, **kwargs: Any) -> int:
        if threading.get_ident() == extracting:
            opened.append(os.fspath(name))
        return real_os_open(name, *args, **kwargs)

    real_open = io.open

    def watching_open(name: Any, *args: Any, **kwargs: Any) -> Any:
        if threading.get_ident() == extracting:
            opened.append(os.fspath(name) if isinstance(name, str | os.PathLike) else repr(name))
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(os, "open", watching_os_open)
    monkeypatch.setattr(io, "open", watching_open)
    monkeypatch.setattr("builtins.open", watching_open)
    for path in (pipe, link):
        with pytest.raises(DocumentError, match=r"it is not a regular file"):
            extract(path)
    assert opened == []


_SWAP_SCRIPT = """
import os, sys
from pathlib import Path
from core.documents.extract import extract
from core.errors import DocumentError

path = Path(sys.argv[1])
regular = os.stat(sys.argv[2])
real_stat = Path.stat
# the file is a regular file when it is looked at, and a pipe when it is opened
Path.stat = lambda self, **kw: regular if self == path else real_stat(self, **kw)
try:
    extract(path)
except DocumentError as error:
    print(error)
"""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX-only")
def test_a_pipe_swapped_in_after_the_check_does_not_hang(tmp_path: Path) -> None:
    """The file is opened without blocking and its type checked again on the open file. Run in
    a child process so that a regression (a read that waits for a writer forever) fails the
    test by its timeout instead of hanging the suite."""
    import subprocess
    import sys

    pipe = tmp_path / "swapped.txt"
    os.mkfifo(pipe)
    regular = make_txt(tmp_path / "regular.txt", ["Text."])
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-c", _SWAP_SCRIPT, str(pipe), str(regular)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert result.stdout.strip() == (
        "swapped.txt: it is not a regular file (a device, pipe or socket)"
    ), result.stderr


def test_file_just_over_the_size_limit_says_by_how_much(tmp_path: Path) -> None:
    """Rounded to 0.1 MiB both sizes would read "200.0 MiB": then they are given in bytes. The
    file is sparse, so writing it costs nothing."""
    path = tmp_path / "huge.txt"
    with path.open("wb") as file:
        file.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(DocumentTooLarge) as raised:
        extract(path)
    assert str(raised.value) == (
        "huge.txt: the file is 209,715,201 bytes; the limit is 209,715,200 bytes"
    )
    with path.open("wb") as file:
        file.truncate(MAX_FILE_BYTES + 5 * 1024 * 1024)
    with pytest.raises(DocumentTooLarge, match=r"the file is 205\.0 MiB; the limit is 200\.0 MiB"):
        extract(path)


@pytest.mark.parametrize(
    ("size", "limit", "words"),
    [
        (1000, 999, ("1,000 bytes", "999 bytes")),
        (3 * 1024 * 1024, 2 * 1024 * 1024, ("3.0 MiB", "2.0 MiB")),
        (2 * 1024 * 1024 + 1, 2 * 1024 * 1024, ("2,097,153 bytes", "2,097,152 bytes")),
        (2 * 1024 * 1024 + 1000, 2 * 1024 * 1024, ("2,098,152 bytes", "2,097,152 bytes")),
    ],
)
def test_sizes_are_compared_in_words_that_differ(
    size: int, limit: int, words: tuple[str, str]
) -> None:
    from core.documents.extract.raw import sizes_compared

    assert sizes_compared(size, limit) == words


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

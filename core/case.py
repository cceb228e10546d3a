"""A case file (`.doppelcase`): what a teacher was looking at, saved to come back to later or to
hand to a colleague: the documents (absolute paths and the SHA-256 of each file's bytes), the
engine options, the exclusions (and the template documents), and the pair on screen.

The format is plain JSON (docs/case-file.md). Reading it validates strictly: a format marker
and a version, every field's type, nothing unknown; anything malformed is a `CaseError` naming
the file and the reason. A case file holds data only: nothing in it is ever executed, and the
documents it names are only hashed (`check_documents`), never opened here.

Opening a case re-checks it (`check_documents`): each document is unchanged, changed since the
case was saved (its hash differs), moved (not at its saved path, but a file with the same hash
is next to the case file), or missing."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from core.atomic import write_atomic
from core.fingerprint import file_sha256
from core.options import ExclusionOptions, MatchOptions, ShortSentenceRule, SignatureOptions

#: what the file says it is, and the version of the layout this module reads and writes
CASE_FORMAT = "doppel-case"
CASE_VERSION = 1
CASE_SUFFIX = ".doppelcase"
#: a case file larger than this is not one (thousands of documents take a few hundred KB)
MAX_CASE_BYTES = 16 * 1024 * 1024
#: files read at a time while hashing
_SHA256 = re.compile(r"[0-9a-f]{64}")


class CaseError(Exception):
    """A case file could not be read or written; `str()` names the file and the reason (a
    clause: "it is not a Doppel case file…", "documents[2].path must be an absolute path…")."""

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"{self.path.name}: {reason}")


@dataclass(frozen=True, slots=True)
class CaseDocument:
    """A document of the case: where it was and what its bytes hashed to (None: it could not
    be read when the case was saved, so its content is unknown)."""

    path: Path
    sha256: str | None


@dataclass(frozen=True, slots=True)
class Case:
    documents: tuple[CaseDocument, ...]  # the submissions, in the list's order
    templates: tuple[CaseDocument, ...] = ()  # the prompt, a handout: left out of the scores
    signature: SignatureOptions = field(default_factory=SignatureOptions)
    match: MatchOptions = field(default_factory=MatchOptions)
    exclusions: ExclusionOptions = field(default_factory=ExclusionOptions)
    pair: tuple[Path, Path] | None = None  # the comparison on screen (A, B)
    saved_at: datetime | None = None  # (UTC) set by `save_case` when not given


class DocumentState(StrEnum):
    UNCHANGED = "unchanged"
    CHANGED = "changed"  # at its saved path, but its bytes differ from the case's hash
    MOVED = "moved"  # not at its saved path; the same bytes found next to the case file
    MISSING = "missing"  # neither


@dataclass(frozen=True, slots=True)
class CheckedDocument:
    saved: CaseDocument
    state: DocumentState
    path: Path | None  # where it is now (None: missing)


# --- writing ------------------------------------------------------------------------------


def case_json(case: Case) -> dict[str, Any]:
    """The case as the JSON object a case file holds."""
    saved_at = case.saved_at or datetime.now(UTC)
    return {
        "format": CASE_FORMAT,
        "version": CASE_VERSION,
        "saved_at": saved_at.astimezone(UTC).isoformat(timespec="seconds"),
        "documents": [_document_json(d) for d in case.documents],
        "templates": [_document_json(d) for d in case.templates],
        "options": {
            "signature": {
                "language": case.signature.language,
                "remove_stopwords": case.signature.remove_stopwords,
                "length_cap": case.signature.length_cap,
                "key_size": case.signature.key_size,
            },
            "match": {
                "min_block": case.match.min_block,
                "short_sentences": str(case.match.short_sentences),
                "reworded": case.match.reworded,
            },
        },
        "exclusions": {
            "quotations": case.exclusions.quotations,
            "references": case.exclusions.references,
            "template_phrase_words": case.exclusions.template_phrase_words,
            "common_share": case.exclusions.common_share,
        },
        "pair": None if case.pair is None else [str(p) for p in case.pair],
    }


def _document_json(document: CaseDocument) -> dict[str, Any]:
    return {"path": str(document.path), "sha256": document.sha256}


def save_case(case: Case, path: str | Path) -> Path:
    """Write `case` to `path` whole or not at all (`core.atomic`); a CaseError if it cannot."""
    target = Path(path)
    _check_case(case, target)
    text = json.dumps(case_json(case), indent=2, ensure_ascii=False) + "\n"
    try:
        return write_atomic(target, text)
    except OSError as error:
        raise CaseError(target, f"it could not be written: {error.strerror or error}") from error


def _check_case(case: Case, path: Path) -> None:
    """What `load_case` would refuse is never written."""
    everything = [*case.documents, *case.templates]
    for document in everything:
        if not document.path.is_absolute():
            raise CaseError(path, f"the document path {document.path} is not absolute")
        if document.sha256 is not None and not _SHA256.fullmatch(document.sha256):
            raise CaseError(path, f"the SHA-256 of {document.path.name} is not a SHA-256")
    paths = [d.path for d in everything]
    if len(set(paths)) != len(paths):
        raise CaseError(path, "a document is listed twice")
    if case.pair is not None:
        a, b = case.pair
        submissions = {d.path for d in case.documents}
        if a == b or a not in submissions or b not in submissions:
            raise CaseError(path, "the pair on screen is not two of the case's documents")


# --- reading ------------------------------------------------------------------------------


def load_case(path: str | Path) -> Case:
    """Read and validate a case file; a CaseError naming the file and the reason if it is
    unreadable or malformed in any way."""
    source = Path(path)
    try:
        with source.open("rb") as handle:
            raw = handle.read(MAX_CASE_BYTES + 1)
    except OSError as error:
        raise CaseError(source, f"it could not be read: {error.strerror or error}") from error
    if len(raw) > MAX_CASE_BYTES:
        raise CaseError(source, "it is too large to be a Doppel case file")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise CaseError(source, "it is not a Doppel case file (not UTF-8 text)") from error
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except ValueError as error:  # json.JSONDecodeError, and the hooks' refusals
        raise CaseError(
            source, f"it is not a Doppel case file (not valid JSON: {error})"
        ) from error
    return _parse(data, source)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f'the key "{key}" appears twice')
        result[key] = value
    return result


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


class _Reader:
    """Typed access to the JSON object, every refusal a CaseError naming the file and where."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, reason: str) -> CaseError:
        return CaseError(self.path, reason)

    def object(self, value: Any, where: str, keys: Iterable[str]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(f"{where} must be a JSON object")
        expected = list(keys)
        unknown = sorted(set(value) - set(expected))
        if unknown:
            raise self.fail(f'{where} has an unknown field "{unknown[0]}"')
        missing = [k for k in expected if k not in value]
        if missing:
            raise self.fail(f'{where} lacks the field "{missing[0]}"')
        return value

    def boolean(self, data: Mapping[str, Any], key: str, where: str) -> bool:
        value = data[key]
        if not isinstance(value, bool):
            raise self.fail(f"{where}.{key} must be true or false")
        return value

    def integer(self, data: Mapping[str, Any], key: str, where: str) -> int:
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{where}.{key} must be a whole number")
        return value

    def string(self, data: Mapping[str, Any], key: str, where: str) -> str:
        value = data[key]
        if not isinstance(value, str):
            raise self.fail(f"{where}.{key} must be text")
        return value

    def absolute_path(self, value: Any, where: str) -> Path:
        if not isinstance(value, str) or not value or "\x00" in value:
            raise self.fail(f"{where} must be a file path")
        path = Path(value)
        if not path.is_absolute():
            raise self.fail(f"{where} must be an absolute path, not {value}")
        return path


_TOP_KEYS = (
    "format",
    "version",
    "saved_at",
    "documents",
    "templates",
    "options",
    "exclusions",
    "pair",
)


def _parse(data: Any, path: Path) -> Case:
    read = _Reader(path)
    if not isinstance(data, dict) or data.get("format") != CASE_FORMAT:
        raise read.fail("it is not a Doppel case file (no doppel-case format marker)")
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise read.fail("it has no valid format version")
    if version > CASE_VERSION:
        raise read.fail(
            f"it was saved by a newer Doppel (case format {version}); this one reads format "
            f"{CASE_VERSION}: update Doppel to open it"
        )
    if version != CASE_VERSION:
        raise read.fail(f"it has an unknown case format version ({version})")
    read.object(data, "the case", _TOP_KEYS)
    saved_at = _saved_at(read, read.string(data, "saved_at", "the case"))
    documents = _documents(read, data["documents"], "documents")
    templates = _documents(read, data["templates"], "templates")
    everything = [d.path for d in (*documents, *templates)]
    if len(set(everything)) != len(everything):
        twice = next(p for p in everything if everything.count(p) > 1)
        raise read.fail(f"it lists the document {twice} twice")

    options = read.object(data["options"], "options", ("signature", "match"))
    where = "options.signature"
    sig = read.object(
        options["signature"], where, ("language", "remove_stopwords", "length_cap", "key_size")
    )
    where_match = "options.match"
    match = read.object(options["match"], where_match, ("min_block", "short_sentences", "reworded"))
    rule_text = read.string(match, "short_sentences", where_match)
    try:
        rule = ShortSentenceRule(rule_text)
    except ValueError:
        raise read.fail(
            f'{where_match}.short_sentences "{rule_text}" is not a known rule'
        ) from None
    where_ex = "exclusions"
    ex = read.object(
        data["exclusions"],
        where_ex,
        ("quotations", "references", "template_phrase_words", "common_share"),
    )
    share = ex["common_share"]
    if share is not None and (isinstance(share, bool) or not isinstance(share, int | float)):
        raise read.fail("exclusions.common_share must be a number or null")
    try:
        signature = SignatureOptions(
            language=read.string(sig, "language", where),
            remove_stopwords=read.boolean(sig, "remove_stopwords", where),
            length_cap=read.boolean(sig, "length_cap", where),
            key_size=read.integer(sig, "key_size", where),
        )
        match_options = MatchOptions(
            min_block=read.integer(match, "min_block", where_match),
            short_sentences=rule,
            reworded=read.boolean(match, "reworded", where_match),
        )
        exclusions = ExclusionOptions(
            quotations=read.boolean(ex, "quotations", where_ex),
            references=read.boolean(ex, "references", where_ex),
            template_phrase_words=read.integer(ex, "template_phrase_words", where_ex),
            common_share=None if share is None else float(share),
        )
    except ValueError as error:  # the options' own checks ("key size must be at least 1")
        raise read.fail(f"it holds an impossible setting: {error}") from error
    if not re.fullmatch(r"auto|[a-z]{2}", signature.language):
        raise read.fail(f'options.signature.language "{signature.language}" is not a language')
    return Case(
        documents=documents,
        templates=templates,
        signature=signature,
        match=match_options,
        exclusions=exclusions,
        pair=_pair(read, data["pair"], documents),
        saved_at=saved_at,
    )


def _saved_at(read: _Reader, text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise read.fail(f'the case.saved_at "{text}" is not a date and time') from None
    if moment.tzinfo is None:
        raise read.fail(f'the case.saved_at "{text}" lacks its time zone')
    return moment


def _documents(read: _Reader, value: Any, where: str) -> tuple[CaseDocument, ...]:
    if not isinstance(value, list):
        raise read.fail(f"{where} must be a list")
    documents: list[CaseDocument] = []
    for number, item in enumerate(value, 1):
        place = f"{where}[{number}]"
        entry = read.object(item, place, ("path", "sha256"))
        path = read.absolute_path(entry["path"], f"{place}.path")
        digest = entry["sha256"]
        if digest is not None and (not isinstance(digest, str) or not _SHA256.fullmatch(digest)):
            raise read.fail(f"{place}.sha256 must be 64 lowercase hexadecimal digits or null")
        documents.append(CaseDocument(path, digest))
    return tuple(documents)


def _pair(
    read: _Reader, value: Any, documents: tuple[CaseDocument, ...]
) -> tuple[Path, Path] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2:
        raise read.fail("pair must be a list of two document paths, or null")
    a = read.absolute_path(value[0], "pair[1]")
    b = read.absolute_path(value[1], "pair[2]")
    listed = {d.path for d in documents}
    if a == b or a not in listed or b not in listed:
        raise read.fail("pair must name two different documents of the case's documents")
    return a, b


# --- re-checking --------------------------------------------------------------------------


def check_documents(
    documents: Iterable[CaseDocument],
    case_path: str | Path,
    cancelled: Callable[[], bool] | None = None,
) -> list[CheckedDocument]:
    """Where each document of a case is now, and whether it changed since the case was saved.

    A document at its saved path is unchanged or changed (its hash differs; one saved without
    a hash counts as unchanged). One that is not there is looked for next to the case file: the
    same name first, then any file there with the same hash; found, it *moved*; else it is
    missing. Files are hashed, never opened as documents."""
    folder = Path(case_path).absolute().parent
    hashes: dict[Path, str | None] = {}

    def hashed(path: Path) -> str | None:
        if path not in hashes:
            try:
                hashes[path] = file_sha256(path, cancelled)
            except OSError:
                hashes[path] = None
        return hashes[path]

    def neighbours(saved: CaseDocument) -> Iterable[Path]:
        yield folder / saved.path.name
        try:
            listed = sorted(p for p in folder.iterdir() if p.is_file())
        except OSError:
            return
        # a renamed file has to have the same kind of content: same suffix only
        yield from (p for p in listed if p.suffix.lower() == saved.path.suffix.lower())

    checked: list[CheckedDocument] = []
    for saved in documents:
        if saved.path.is_file():
            now = hashed(saved.path) if saved.sha256 is not None else None
            state = (
                DocumentState.CHANGED
                if saved.sha256 is not None and now != saved.sha256
                else DocumentState.UNCHANGED
            )
            checked.append(CheckedDocument(saved, state, saved.path))
            continue
        if saved.sha256 is None:  # its content is unknown: the same name is all there is
            same_name = folder / saved.path.name
            found = same_name if same_name.is_file() else None
        else:
            found = next(
                (p for p in neighbours(saved) if p.is_file() and hashed(p) == saved.sha256),
                None,
            )
        if found is None:
            checked.append(CheckedDocument(saved, DocumentState.MISSING, None))
        else:
            checked.append(CheckedDocument(saved, DocumentState.MOVED, found))
    return checked

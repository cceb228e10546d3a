"""What the Folder check says about an archive index, worked out without Qt: the one line that
stands for it in "Earlier years" ("Archive: 12,345 documents, 2019–2025"), why a file cannot be
used as one, and what an add did ("Added 40 submissions to the archive (1 already there)").

Reading a summary opens the index and counts its members (`ArchiveIndex.info`): a few
milliseconds for thousands of documents, more on a slow disk, so the panel reads it on a
worker (`read_summary` is that job) and shows "reading…" meanwhile."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.archive.add import AddResult
from core.archive.index import ArchiveIndex, ArchiveInfo
from core.archive.index_file import ArchiveError, Kind, identify
from core.options import SignatureOptions
from core.reports.wording import archive_summary, plural


def archive_line(info: ArchiveInfo) -> str:
    """'Archive: 12,345 documents, 2019–2025' (no years for an empty index)."""
    return archive_summary(info.documents, info.years)


@dataclass(frozen=True)
class IndexSummary:
    """An index chosen as the earlier years: what it holds (`info`), or why it cannot be used
    (`problem`, in words: which file and what is wrong with it)."""

    path: Path
    info: ArchiveInfo | None = None
    problem: str = ""

    @property
    def usable(self) -> bool:
        return self.info is not None and not self.problem

    @property
    def text(self) -> str:
        """The list's line for it."""
        if self.info is not None:
            return archive_line(self.info)
        if self.problem:
            return f"Not usable: {self.path.name}"
        return f"Archive: reading {self.path.name}…"


def read_summary(path: Path) -> IndexSummary:
    """The summary of the index at `path`; a file that is not an index (left as it was), a
    damaged one, or none there gives the reason instead of raising."""
    try:
        with ArchiveIndex(path) as index:
            return IndexSummary(path, index.info())
    except ArchiveError as error:
        return IndexSummary(path, problem=_sentence(str(error)))
    except OSError as error:  # (a backstop: ArchiveIndex says why in words)
        return IndexSummary(path, problem=_sentence(f"{path} cannot be read: {error}"))


def other_settings(index: SignatureOptions, chosen: SignatureOptions) -> str:
    """What the hint says when an index was made with other signature options than
    Comparison Settings' ("" when they are the same): a check against it reads this year's
    submissions with the index's options, since its documents were read with them."""
    differences = []
    if index.language != chosen.language:
        language = "detected per document" if index.language == "auto" else index.language
        differences.append(f"language {language}")
    if index.key_size != chosen.key_size:
        differences.append(f"key size {index.key_size}")
    if index.remove_stopwords != chosen.remove_stopwords:
        differences.append("stop words " + ("left out" if index.remove_stopwords else "kept"))
    if index.length_cap != chosen.length_cap:
        differences.append("long sentences " + ("capped" if index.length_cap else "not capped"))
    if not differences:
        return ""
    return (
        f"This archive was made with other comparison settings ({', '.join(differences)}): "
        "the check reads this year's submissions the same way, so they compare with it."
    )


def index_exists(path: Path) -> bool:
    """Whether an archive index is at `path` (by its header, without opening it)."""
    return identify(path)[0] is Kind.OURS


def added_text(result: AddResult) -> str:
    """'Added 40 submissions to the archive (1 already there).', with what changed and what
    could not be read."""
    text = f"Added {plural(result.added, 'submission')} to the archive"
    notes = []
    if result.unchanged:
        notes.append(f"{result.unchanged:,} already there")
    if result.updated:
        notes.append(f"{result.updated:,} updated: their files changed")
    if notes:
        text += f" ({'; '.join(notes)})"
    text += "."
    if result.failed:
        text += (
            f" {plural(len(result.failed), 'file')} could not be read and "
            f"{'was' if len(result.failed) == 1 else 'were'} not added."
        )
    return text


def _sentence(text: str) -> str:
    """`text` as a sentence: capital first letter, full stop."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."

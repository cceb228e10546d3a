"""What an add files for each new document besides its record, worked out where the document
is read (`core.batch.run.ReadJob.extra`: in the reading worker processes, or on a cluster's
workers), so that the add's own process, which files every chunk, has less to do.

For a document: its sentence keys (`core.archive.keys.sentence_keys`), and each sentence that
could hold a strong seed as its number and its stems' hashes, sorted and packed (the `units`
table's blob, from which its word keys are made). `ArchiveIndex.file_members` works the same
out itself for a record that comes without it (a test holds the two equal)."""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from dataclasses import dataclass

from core.archive.keys import StemHashes, eligible, sentence_keys, stem_hashes
from core.batch.result import BatchDocument


@dataclass(frozen=True, slots=True)
class Prepared:
    """A document's sentence keys (int64, packed) and its sentences that could hold a strong
    seed: `(its number, its stems' hashes sorted and packed)`."""

    sentence_keys: bytes
    units: tuple[tuple[int, bytes], ...]


def packed(stems: Iterable[int]) -> bytes:
    """A sentence's stems (hashes) as the units table keeps them: sorted, int64."""
    return array("q", sorted(stems)).tobytes()


def prepare(record: BatchDocument, hashes: StemHashes) -> Prepared:
    """What `record` files besides itself (`hashes`: stem hashes worked out so far)."""
    units = stem_hashes(record.profile, hashes) if record.profile is not None else []
    return Prepared(
        array("q", sentence_keys(record.signature).all()).tobytes(),
        tuple((n, packed(u)) for n, u in enumerate(units) if eligible(u)),
    )


#: stem hashes a reading process keeps across the documents it reads (cleared past _MOST:
#: about 15 MB)
_HASHES = StemHashes()
_MOST = 100_000


def prepared_in_worker(record: BatchDocument) -> Prepared:
    """(In a reading process, as its job's `extra`.) `prepare` with the process's hashes."""
    if len(_HASHES) > _MOST:
        _HASHES.clear()
    return prepare(record, _HASHES)

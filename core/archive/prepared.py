"""What an add files for each new document besides its record, worked out where the document
is read (`core.batch.run.ReadJob.extra`: in the reading worker processes, or on a cluster's
workers), so that the add's own process, which files every chunk, has less to do.

For a document: its sentence keys (`core.archive.keys.sentence_keys`), and its sentences that
could hold a strong seed as the units table keeps them (`core.archive.unit_stems`), from which
its word keys are made. `ArchiveIndex.file_members` works the same out itself, with the same
`prepare`, for a whole record that comes without it (one the index held already, not filed
under its keys yet: an add that was stopped); a record read for an add comes back as its
summary (`core.batch.run.ReadJob.records`), with this."""

from __future__ import annotations

from array import array
from dataclasses import dataclass

from core.archive.keys import StemHashes, sentence_keys
from core.archive.unit_stems import UnitStems
from core.batch.result import BatchDocument


@dataclass(frozen=True, slots=True)
class Prepared:
    """A document's sentence keys (int64, packed) and its sentences that could hold a strong
    seed, as its units row (`UnitStems.to_bytes`)."""

    sentence_keys: bytes
    units: bytes


def prepare(record: BatchDocument, hashes: StemHashes) -> Prepared:
    """What `record` files besides itself (`hashes`: stem hashes worked out so far)."""
    units = (
        UnitStems.of_profile(record.profile, hashes)
        if record.profile is not None
        else UnitStems.of_sets([])
    )
    return Prepared(array("q", sentence_keys(record.signature).all()).tobytes(), units.to_bytes())


#: stem hashes a reading process keeps across the documents it reads (cleared past _MOST:
#: about 15 MB)
_HASHES = StemHashes()
_MOST = 100_000


def prepared_in_worker(record: BatchDocument) -> Prepared:
    """(In a reading process, as its job's `extra`.) `prepare` with the process's hashes."""
    if len(_HASHES) > _MOST:
        _HASHES.clear()
    return prepare(record, _HASHES)

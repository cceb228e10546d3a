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

import sys
from array import array
from dataclasses import dataclass

from core.archive.keys import bigram_hashes, sentence_hashes
from core.archive.unit_stems import units_row
from core.batch.result import BatchDocument


@dataclass(frozen=True, slots=True)
class Prepared:
    """A document's sentence keys (int64, packed) and its sentences that could hold a strong
    seed, as its units row (`UnitStems.to_bytes`)."""

    sentence_keys: bytes
    units: bytes


def prepare(record: BatchDocument) -> Prepared:
    """What `record` files besides itself. (In a reading process it is the job's `extra`:
    `core.batch.run.ReadJob`.)"""
    singles = sentence_hashes(record.signature)
    keys = array("q", {*singles, *bigram_hashes(singles)})  # (`sentence_keys(…).all()`)
    if sys.byteorder == "big":  # (packed little-endian everywhere)
        keys.byteswap()
    return Prepared(keys.tobytes(), units_row(record.profile))

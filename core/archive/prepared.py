"""What an add files for each new document besides its record, worked out where the document
is read (`core.batch.run.ReadJob.extra`: in the reading worker processes, or on a cluster's
workers), so that the add's own process, which files every chunk, has less to do.

For a document: its sentence keys (`core.archive.keys.sentence_keys`), and its stems as text
with each sentence's size (`core.archive.stem_hashing.joined`), from which the filing makes
the units rows and word keys of a whole chunk at once (`core.archive.unit_stems.chunk_units`:
hashing and sorting a chunk's stems on arrays costs a fraction of doing it here one document
at a time). `ArchiveIndex.file_members` works the same out itself, with the same `prepare`,
for a whole record that comes without it (one the index held already, not filed under its
keys yet: an add that was stopped); a record read for an add comes back as its summary
(`core.batch.run.ReadJob.records`), with this."""

from __future__ import annotations

import sys
from array import array
from dataclasses import dataclass

from core.archive.keys import bigram_hashes, sentence_hashes
from core.archive.stem_hashing import joined
from core.batch.result import BatchDocument


@dataclass(frozen=True, slots=True)
class Prepared:
    """A document's sentence keys (int64, packed), its stems (`SEPARATOR` between two) and
    how many each sentence has (int32, packed): `joined`."""

    sentence_keys: bytes
    stems: str
    sizes: bytes


def prepare(record: BatchDocument) -> Prepared:
    """What `record` files besides itself. (In a reading process it is the job's `extra`:
    `core.batch.run.ReadJob`.)"""
    singles = sentence_hashes(record.signature)
    keys = array("q", {*singles, *bigram_hashes(singles)})  # (`sentence_keys(…).all()`)
    if sys.byteorder == "big":  # (packed little-endian everywhere)
        keys.byteswap()
    return Prepared(keys.tobytes(), *joined(record.profile))

"""What an add files for each new document besides its record: its sentence keys
(`core.archive.keys.sentence_keys`) and its sentences that could hold a strong seed as the
units table keeps them (`core.archive.unit_stems`), from which its word keys are made.

Made in two steps, so that neither lands on the add's filing thread (one thread, which is what
an add on many cores or a cluster waits for):

- where the document is read (`core.batch.run.ReadJob.extra`: the reading worker processes,
  or a cluster's workers), `hand_on` takes its sentence keys and its stems as text with each
  sentence's size (`core.archive.stem_hashing.joined`): 0.02 ms an essay for the stems;
- in the add's process, on a thread of its own while the reading goes on
  (`core.archive.add`), `prepare_all` makes the units rows of a few hundred documents at once
  on arrays (`core.archive.unit_stems.units_rows`): a fifth of the cost of making each
  document's row alone where it is read (docs/benchmarks.md, "The thirteenth session").

`ArchiveIndex.file_members` works the same out itself, with both, for the whole records that
come without it (one the index held already, not filed under its keys yet: an add that was
stopped); a record read for an add comes back as its summary (`core.batch.run.ReadJob.records`),
with what was handed on."""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

from core.archive.keys import bigram_hashes, sentence_hashes
from core.archive.stem_hashing import joined
from core.archive.unit_stems import units_rows
from core.batch.result import BatchDocument


@dataclass(frozen=True, slots=True)
class HandedOn:
    """What a reading process hands on for a document: its sentence keys (int64, packed), its
    stems (`SEPARATOR` between two) and how many each sentence has (int32, packed):
    `core.archive.stem_hashing.joined`."""

    sentence_keys: bytes
    stems: str
    sizes: bytes


@dataclass(frozen=True, slots=True)
class Prepared:
    """A document's sentence keys (int64, packed) and its sentences that could hold a strong
    seed, as its units row (`UnitStems.to_bytes`)."""

    sentence_keys: bytes
    units: bytes


def hand_on(record: BatchDocument) -> HandedOn:
    """What a reading process hands on for `record` (the job's `extra`:
    `core.batch.run.ReadJob`)."""
    singles = sentence_hashes(record.signature)
    keys = array("q", {*singles, *bigram_hashes(singles)})  # (`sentence_keys(…).all()`)
    if sys.byteorder == "big":  # (packed little-endian everywhere)
        keys.byteswap()
    return HandedOn(keys.tobytes(), *joined(record.profile))


def prepare_all(handed: Sequence[HandedOn]) -> list[Prepared]:
    """What each of `handed` files: its units row made with the others' at once."""
    rows = units_rows([(h.stems, h.sizes) for h in handed])
    return [Prepared(h.sentence_keys, row) for h, row in zip(handed, rows, strict=True)]

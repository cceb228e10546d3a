"""Common text in a batch: the sentences most submissions share (a pasted prompt, the same
handout paragraph), found so they can be excluded from scoring (ExclusionKind.COMMON).

Text is *common* when more than `share` of the counted documents hold it, and at least two do.
Two kinds of text are counted, both on the words `core.detection.phrases.phrase_input` gives
(every word token of a sentence, case-folded, stop words included, so the same text is found
whatever the signature options):

- a **block**: a sentence's whole word sequence ("Task 2." or a prompt sentence);
- a **phrase**: `phrase_words` consecutive words inside one sentence (never across two).

Every sentence that holds a common block or phrase is excluded whole: one ExcludedSpan of kind
COMMON from its first to its last character, detail "in 31 of 40 documents".

Scale (docs/batch.md): a document is reduced to 64-bit fingerprints (blake2b, stable across
processes and runs) of its sentences and phrases, in compact arrays, by whoever loads it (a
worker). The document frequencies are counted exactly in bounded memory, by the pigeonhole
principle: if a fingerprint is in more than share·N of N documents, then for any split of the
documents into chunks it is in more than share·n of the n documents of at least one chunk. So a
first pass counts chunk by chunk (one chunk's counter in memory at a time) and keeps only the
fingerprints over the share *in some chunk* (candidates); a second pass counts the candidates
exactly over all documents; a third finds the sentences holding common ones. Between passes
the fingerprints wait in a temporary file, not in memory. Only the documents a passage is read
from for the report (usually one) are loaded whole.
"""

from __future__ import annotations

import math
import pickle
import tempfile
from array import array
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from hashlib import blake2b
from itertools import compress
from typing import IO

from core.detection.phrases import phrase_input
from core.documents.document import Document, with_exclusions
from core.documents.excluded_spans import ExcludedSpan, ExclusionKind
from core.documents.sentences import word_spans
from core.documents.signature import Signature
from core.progress import Progress

#: the first pass closes a chunk once it has counted this many fingerprints (and at least
#: CHUNK_DOCUMENTS documents): about 25 MB of counter, whatever the size of the batch
CHUNK_FINGERPRINTS = 1 << 18
#: fewer documents per chunk would make nearly every fingerprint of a long document a candidate
CHUNK_DOCUMENTS = 32

_BLOCK = b"s\x00"  # fingerprints of whole sentences and of phrases never coincide
_PHRASE = b"p\x00"


@dataclass(frozen=True, slots=True)
class CommonPassage:
    """Text found in more than the chosen share of a batch's documents, as the report lists it:
    a run of whole common sentences, or the common words inside one sentence."""

    text: str  # from one document that holds it, whitespace collapsed ("" if unreadable)
    documents: int  # counted documents holding it (all of it or part) and left out for it
    words: int  # word tokens in `text`, stop words included


@dataclass(frozen=True)
class CommonText:
    """What `CommonTextFinder.finish` found. Document numbers are the callers' indices."""

    spans: dict[int, tuple[ExcludedSpan, ...]]  # COMMON spans (whole sentences) by document
    dropped: dict[int, tuple[int, ...]]  # the sentences those spans leave out, by document
    passages: tuple[CommonPassage, ...]  # most documents first
    counted: int  # the documents the share is of
    minimum: int  # documents a text had to be in to be common (more than share·counted, >= 2)


@dataclass(frozen=True, slots=True)
class DocumentFingerprints:
    """A document reduced to what finding common text needs: for each sentence its span, the
    fingerprint of its whole word sequence, and those of its phrases of `phrase_words` words.
    About 8 bytes per word, a pickle of a few arrays (no Python object per fingerprint)."""

    phrase_words: int
    spans: array[int]  # start, end of sentence 0, start, end of sentence 1, …
    blocks: array[int]  # one fingerprint per sentence
    shingles: array[int]  # every sentence's phrase fingerprints, in order
    offsets: array[int]  # sentence s has shingles[offsets[s]:offsets[s + 1]]

    @property
    def sentence_count(self) -> int:
        return len(self.blocks)

    def span(self, sentence: int) -> tuple[int, int]:
        return self.spans[2 * sentence], self.spans[2 * sentence + 1]

    def sentence_shingles(self, sentence: int) -> array[int]:
        return self.shingles[self.offsets[sentence] : self.offsets[sentence + 1]]

    def among(self, wanted: set[int], skip: Collection[int] = ()) -> set[int]:
        """The fingerprints in `wanted` that the sentences not in `skip` hold."""
        if not skip:
            found = wanted.intersection(self.blocks)
            found.update(wanted.intersection(self.shingles))
            return found
        return set().union(*self.sentences_holding(wanted, skip).values())

    def sentences_holding(
        self, wanted: set[int], skip: Collection[int] = ()
    ) -> dict[int, set[int]]:
        """Sentence -> the fingerprints in `wanted` it holds, for the sentences not in `skip`
        that hold any."""
        found: dict[int, set[int]] = {}
        hits = wanted.intersection(self.shingles)  # (in C: most documents have none)
        if hits:
            offsets, shingles = self.offsets, self.shingles
            for s in range(self.sentence_count):
                mine = shingles[offsets[s] : offsets[s + 1]]
                if not hits.isdisjoint(mine):
                    found[s] = hits.intersection(mine)
        if not wanted.isdisjoint(self.blocks):
            for s, f in enumerate(self.blocks):
                if f in wanted:
                    found.setdefault(s, set()).add(f)
        for s in skip:
            found.pop(s, None)
        return found

    def held(self, skip: Collection[int] = ()) -> set[int]:
        """Every fingerprint of the sentences not in `skip` (already excluded for another
        reason: a template, say), each once."""
        if not skip:
            found = set(self.blocks)
            found.update(self.shingles)
            return found
        found = set()
        for s in range(self.sentence_count):
            if s not in skip:
                found.add(self.blocks[s])
                found.update(self.sentence_shingles(s))
        return found


def _fingerprint(prefix: bytes, words: str) -> bytes:
    return blake2b(prefix + words.encode("utf-8"), digest_size=8).digest()


def fingerprint_document(doc: Document, phrase_words: int) -> DocumentFingerprints:
    """The fingerprints of `doc`'s sentences and phrases (about 1 µs a word)."""
    if phrase_words < 1:
        raise ValueError("phrase_words must be at least 1")
    text = doc.text
    spans: array[int] = array("Q")
    blocks: list[bytes] = []
    shingles: list[bytes] = []
    offsets: array[int] = array("Q", [0])
    for sentence in doc.sentences:
        # the words phrase_input gives (without building a Term for each: twice as fast)
        texts = [text[a:b].casefold() for a, b in word_spans(text, sentence.start, sentence.end)]
        spans.extend((sentence.start, sentence.end))
        joined = " ".join(texts)
        blocks.append(_fingerprint(_BLOCK, joined))
        if len(texts) >= phrase_words:
            # character offsets of each word in `joined`, so a phrase is a slice of it
            starts = [0]
            for word in texts:
                starts.append(starts[-1] + len(word) + 1)
            for k in range(len(texts) - phrase_words + 1):
                shingles.append(
                    _fingerprint(_PHRASE, joined[starts[k] : starts[k + phrase_words] - 1])
                )
        offsets.append(len(shingles))
    block_array: array[int] = array("Q")
    block_array.frombytes(b"".join(blocks))
    shingle_array: array[int] = array("Q")
    shingle_array.frombytes(b"".join(shingles))
    return DocumentFingerprints(phrase_words, spans, block_array, shingle_array, offsets)


def minimum_documents(share: float, counted: int) -> int:
    """The fewest documents that are *more than* `share` of `counted`, read as the decimal the
    user typed (0.7 of 10 is 7 exactly, so 7 documents are not more than it: 8 are needed),
    and never fewer than two: text in one document is not shared."""
    exact = Fraction(repr(share)) * counted
    return max(2, math.floor(exact) + 1)


def _over_share(share: Fraction, documents: int) -> int:
    """The fewest of `documents` that are more than `share` of them (at least 1)."""
    return math.floor(share * documents) + 1


class ChunkedCounter:
    """The first pass: candidates for 'in more than `share` of the documents added', counted
    chunk by chunk. A fingerprint over the share overall is over it in some chunk (pigeonhole),
    so `candidates()` holds every one of them (and some that are not: the second pass counts
    them exactly). Memory: one chunk's counter plus the candidates."""

    def __init__(
        self,
        share: float,
        *,
        chunk_fingerprints: int = CHUNK_FINGERPRINTS,
        chunk_documents: int = CHUNK_DOCUMENTS,
    ) -> None:
        self._share = Fraction(repr(share))
        self.chunk_fingerprints = chunk_fingerprints
        self.chunk_documents = max(1, chunk_documents)
        self._counter: Counter[int] = Counter()
        self._documents = 0  # in the open chunk
        self._fingerprints = 0  # counted in the open chunk
        self._candidates: set[int] = set()
        self.chunks = 0  # closed so far (for tests and the docs)

    def add(self, fingerprints: Collection[int]) -> None:
        """One document's distinct fingerprints."""
        self._counter.update(fingerprints)
        self._documents += 1
        self._fingerprints += len(fingerprints)
        if (
            self._documents >= self.chunk_documents
            and self._fingerprints >= self.chunk_fingerprints
        ):
            self._close_chunk()

    def _close_chunk(self) -> None:
        if self._documents:
            least = _over_share(self._share, self._documents)
            counter = self._counter  # (compress: the loop over every fingerprint runs in C)
            self._candidates.update(compress(counter.keys(), map(least.__le__, counter.values())))
            self.chunks += 1
        self._counter = Counter()
        self._documents = self._fingerprints = 0

    def candidates(self) -> set[int]:
        self._close_chunk()
        return self._candidates


def frequent_fingerprints(
    documents: Sequence[Collection[int]],
    share: float,
    *,
    chunk_fingerprints: int = CHUNK_FINGERPRINTS,
    chunk_documents: int = CHUNK_DOCUMENTS,
) -> dict[int, int]:
    """Every fingerprint in more than `share` of `documents` (and in two at least), with the
    number of documents holding it: the chunked first pass, then the exact second pass."""
    counter = ChunkedCounter(
        share, chunk_fingerprints=chunk_fingerprints, chunk_documents=chunk_documents
    )
    for held in documents:
        counter.add(held)
    candidates = counter.candidates()
    counts = dict.fromkeys(candidates, 0)
    for held in documents:
        for f in candidates.intersection(held):
            counts[f] += 1
    least = minimum_documents(share, len(documents))
    return {f: n for f, n in counts.items() if n >= least}


@dataclass
class _Unit:
    """A stretch of a representative document that becomes one listed passage."""

    start: int
    end: int
    words: int
    first_sentence: int
    last_sentence: int
    whole: bool  # whole sentences (merged with the next whole common sentence)
    fingerprints: set[int] = field(default_factory=set)


#: documents read from the spool between two `progress` calls in `finish` (a few ms of work)
CHECK_EVERY = 256


class CommonTextFinder:
    """Finds the common text of a batch in bounded memory: `add` each document's fingerprints
    as it is loaded (the first pass runs as they come), then `finish` once.

    `counted=False` documents (from an archive) are not counted towards the share, but their
    sentences holding common text are excluded too. `skip` names sentences already excluded
    whole for another reason; they neither count nor get a second span."""

    def __init__(
        self,
        share: float,
        phrase_words: int,
        *,
        chunk_fingerprints: int = CHUNK_FINGERPRINTS,
        chunk_documents: int = CHUNK_DOCUMENTS,
    ) -> None:
        if not 0 < share < 1:
            raise ValueError("the common-text share must be between 0 and 1 (exclusive)")
        self.share = share
        self.phrase_words = phrase_words
        self._counter = ChunkedCounter(
            share, chunk_fingerprints=chunk_fingerprints, chunk_documents=chunk_documents
        )
        # closed by close() / the with block
        self._spool: IO[bytes] = tempfile.TemporaryFile(prefix="doppel-common-")  # noqa: SIM115
        self._where: dict[int, int] = {}  # document -> offset of its record in the spool
        self._skips: dict[int, tuple[int, ...]] = {}
        self._discarded: set[int] = set()
        self._counted = 0
        self._progress: Progress | None = None  # set by finish
        self._read = 0  # records read by finish's passes, of about self._reads
        self._reads = 1

    def __enter__(self) -> CommonTextFinder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._spool.close()

    def add(
        self,
        index: int,
        fingerprints: DocumentFingerprints,
        *,
        skip: Collection[int] = (),
        counted: bool = True,
    ) -> None:
        """Document `index`'s fingerprints. The first pass counts them all (the sentences in
        `skip` too: it only has to find every candidate, and counting more never hides one)."""
        if fingerprints.phrase_words != self.phrase_words:
            raise ValueError("fingerprints of another phrase length")
        if counted:
            self._counter.add(fingerprints.held())
            self._counted += 1
        self._spool.seek(0, 2)
        self._where[index] = self._spool.tell()
        pickle.dump((index, counted, fingerprints), self._spool, pickle.HIGHEST_PROTOCOL)
        if skip:
            self.skip(index, skip)

    def skip(self, index: int, sentences: Collection[int]) -> None:
        """Sentences of document `index` already excluded whole for another reason (known
        later than its fingerprints, when those came from the cache)."""
        self._skips[index] = tuple(sorted(sentences))

    def discard(self, index: int) -> None:
        """Document `index` is not in the batch after all (it failed after its fingerprints
        were added): it will be neither counted nor excluded."""
        if index in self._where:
            self._discarded.add(index)

    def _records(self) -> Iterator[tuple[int, bool, tuple[int, ...], DocumentFingerprints]]:
        """(index, counted, skip, fingerprints) of every document added and not discarded;
        calls the `progress` given to `finish` every CHECK_EVERY documents (it may raise
        core.errors.Cancelled)."""
        self._spool.seek(0)
        while True:
            try:
                index, counted, record = pickle.load(self._spool)
            except EOFError:
                return
            self._read += 1
            if self._progress is not None and self._read % CHECK_EVERY == 0:
                self._progress(min(self._read / self._reads, 0.999))
            if index not in self._discarded:
                yield index, counted, self._skips.get(index, ()), record

    def _record(self, index: int) -> tuple[tuple[int, ...], DocumentFingerprints]:
        self._spool.seek(self._where[index])
        _, _, record = pickle.load(self._spool)
        return self._skips.get(index, ()), record

    def _first_pass(self) -> tuple[set[int], int]:
        """The candidates and the number of documents counted."""
        if not self._discarded:
            return self._counter.candidates(), self._counted
        counter = ChunkedCounter(
            self.share,
            chunk_fingerprints=self._counter.chunk_fingerprints,
            chunk_documents=self._counter.chunk_documents,
        )
        n = 0
        for _, counted, _, record in self._records():
            if counted:
                counter.add(record.held())
                n += 1
        return counter.candidates(), n

    def finish(
        self,
        load: Callable[[int], Document | None],
        noun: str = "documents",
        progress: Progress | None = None,
    ) -> CommonText:
        """The common text: second and third passes over the spooled fingerprints. `load`
        gives a document whole (None if it cannot be read as it was), for the passages' text;
        it is called for few documents (those the passages are read from). `progress` is
        called now and then during the passes (with the share of their reading done) and may
        raise core.errors.Cancelled."""
        self._progress = progress
        self._read = 0
        self._reads = max(1, len(self._where) * (3 if self._discarded else 2))
        candidates, total = self._first_pass()
        least = minimum_documents(self.share, total)
        empty = CommonText({}, {}, (), total, least)
        if not candidates or total < 2:
            return empty
        # second pass: exact counts of the candidates
        counts = dict.fromkeys(candidates, 0)
        first: dict[int, int] = {}  # the first document holding each
        best, best_held = -1, 0  # the document holding the most candidates
        for index, counted, skip, record in self._records():
            if not counted:
                continue
            held = record.among(candidates, skip)
            for f in held:
                counts[f] += 1
                first.setdefault(f, index)
            if len(held) > best_held:
                best, best_held = index, len(held)
        common = {f: n for f, n in counts.items() if n >= least}
        if not common:
            return empty
        common_set = set(common)
        passage_of, units, sources = self._passages(common, first, best, load)
        # third pass: the sentences holding common text, and each passage's documents
        documents = [0] * len(units)
        found: dict[int, list[tuple[int, int, int, set[int]]]] = {}
        for index, counted, skip, record in self._records():
            by_sentence = record.sentences_holding(common_set, skip)
            if not by_sentence:
                continue
            hits = [
                (s, *record.span(s), {passage_of[f] for f in held})
                for s, held in sorted(by_sentence.items())
            ]
            found[index] = hits
            if counted:
                for p in set().union(*(h[3] for h in hits)):
                    documents[p] += 1
        spans: dict[int, tuple[ExcludedSpan, ...]] = {}
        dropped: dict[int, tuple[int, ...]] = {}
        of = f" of {total} {noun}"
        for index, hits in found.items():
            spans[index] = tuple(
                ExcludedSpan(
                    start, end, ExclusionKind.COMMON, f"in {max(documents[p] for p in ps)}{of}"
                )
                for _, start, end, ps in hits
            )
            dropped[index] = tuple(h[0] for h in hits)
        passages = [
            CommonPassage(text, documents[p], words) for p, (text, words) in enumerate(sources)
        ]
        order = sorted(range(len(passages)), key=lambda p: (-passages[p].documents, p))
        return CommonText(spans, dropped, tuple(passages[p] for p in order), total, least)

    def _passages(
        self,
        common: dict[int, int],
        first: dict[int, int],
        best: int,
        load: Callable[[int], Document | None],
    ) -> tuple[dict[int, int], list[_Unit], list[tuple[str, int]]]:
        """Which passage each common fingerprint belongs to, read from a document holding it:
        the one holding the most (usually every) common text, else the first holding it."""
        best_skip, best_record = self._record(best)
        in_best = best_record.held(best_skip)
        source: dict[int, set[int]] = {}
        for f in common:
            source.setdefault(best if f in in_best else first[f], set()).add(f)
        passage_of: dict[int, int] = {}
        units: list[_Unit] = []
        texts: list[tuple[str, int]] = []
        for index in sorted(source, key=lambda i: (i != best, i)):
            wanted = source[index]
            skip, record = self._record(index)
            doc = load(index)
            located: list[_Unit] = []
            if doc is not None:
                located = _units(doc, record, wanted, set(skip))
            for unit in located:
                owned = unit.fingerprints.difference(passage_of)
                if not owned:
                    continue  # the same text again, already listed
                assert doc is not None
                for f in owned:
                    passage_of[f] = len(units)
                units.append(unit)
                texts.append((" ".join(doc.text[unit.start : unit.end].split()), unit.words))
            missing = wanted.difference(passage_of)
            if missing:  # the document could not be read as it was: its text is unknown
                for f in missing:
                    passage_of[f] = len(units)
                units.append(_Unit(0, 0, 0, -1, -1, False, missing))
                texts.append(("", 0))
        return passage_of, units, texts


def _units(
    doc: Document, record: DocumentFingerprints, wanted: set[int], skip: set[int]
) -> list[_Unit]:
    """The stretches of `doc` holding the `wanted` fingerprints: runs of consecutive whole
    sentences, and runs of words inside other sentences (phrases that overlap or touch)."""
    again = fingerprint_document(doc, record.phrase_words)
    if again != record:
        return []  # not the text that was fingerprinted
    words = phrase_input(doc).sentences
    n = record.phrase_words
    units: list[_Unit] = []
    for s in range(record.sentence_count):
        terms = words[s]
        if s in skip or not terms:
            continue
        block = record.blocks[s]
        covered = [False] * len(terms)
        held: dict[int, int] = {}  # fingerprint -> first word it covers
        if block in wanted:
            held[block] = 0
            covered = [True] * len(terms)
        for k, f in enumerate(record.sentence_shingles(s)):
            if f in wanted:
                held.setdefault(f, k)
                for w in range(k, k + n):
                    covered[w] = True
        if not held:
            continue
        if all(covered):
            last = units[-1] if units else None
            if last is not None and last.whole and last.last_sentence == s - 1:
                last.end = record.span(s)[1]
                last.words += len(terms)
                last.last_sentence = s
                last.fingerprints.update(held)
            else:
                start, end = record.span(s)  # the sentence with its punctuation
                units.append(_Unit(start, end, len(terms), s, s, True, set(held)))
            continue
        w = 0
        while w < len(terms):
            if not covered[w]:
                w += 1
                continue
            end = w
            while end + 1 < len(terms) and covered[end + 1]:
                end += 1
            prints = {f for f, k in held.items() if w <= k <= end}
            units.append(_Unit(terms[w].start, terms[end].end, end - w + 1, s, s, False, prints))
            w = end + 1
    return units


def drop_sentences(signature: Signature, dropped: Iterable[int]) -> Signature:
    """`signature` with the sentences `dropped` (indices) left out as excluded: what
    `core.documents.document.with_exclusions` gives when whole sentences are added to the
    exclusions, computed from the signature alone (the batch keeps no text in memory)."""
    gone = set(dropped)
    if not gone:
        return signature
    keep = [p for p, s in enumerate(signature.sentence_indices) if s not in gone]
    return replace(
        signature,
        symbols=tuple(signature.symbols[p] for p in keep),
        keys=tuple(signature.keys[p] for p in keep),
        sentence_indices=tuple(signature.sentence_indices[p] for p in keep),
        too_long=tuple(s for s in signature.too_long if s not in gone),
        excluded=tuple(sorted(gone.union(signature.excluded))),
    )


def find_common_text(
    documents: Sequence[Document],
    share: float,
    phrase_words: int = 6,
    *,
    counted: Sequence[bool] | None = None,
    chunk_fingerprints: int = CHUNK_FINGERPRINTS,
    chunk_documents: int = CHUNK_DOCUMENTS,
) -> CommonText:
    """The common text of documents held in memory (the batch streams instead). Sentences a
    document already excludes whole are not counted."""
    with CommonTextFinder(
        share,
        phrase_words,
        chunk_fingerprints=chunk_fingerprints,
        chunk_documents=chunk_documents,
    ) as finder:
        for i, doc in enumerate(documents):
            finder.add(
                i,
                fingerprint_document(doc, phrase_words),
                skip=doc.signature.excluded,
                counted=True if counted is None else counted[i],
            )
        return finder.finish(lambda i: documents[i])


def exclude_common_text(
    documents: Sequence[Document], share: float, phrase_words: int = 6
) -> tuple[list[Document], CommonText]:
    """The documents with their common text excluded (on top of what they already exclude;
    the documents given are not changed), and what was found."""
    found = find_common_text(documents, share, phrase_words)
    return [
        with_exclusions(doc, (*doc.excluded, *found.spans.get(i, ())))
        for i, doc in enumerate(documents)
    ], found

"""`doppel phrases`: the phrases repeated in one or more documents (paper B, docs/phrases.md).

Prints the repeated phrases, maximal ones first, with counts, documents and first occurrences;
`--json` prints one object instead. An unreadable file is one line on stderr and exit 2.

The default method, the suffix array (`core.detection.phrase_array`), keeps a few ints a word:
each document's words are taken as it is read and the document let go, and the list is written
a phrase at a time, never held whole (two 9.5 MB novels repeat 4.4 million phrases). The
paper's two methods (`--method suffix-tree|inverted-index`) keep up to --max-len entries a word,
so they refuse inputs over LEGACY_LIMIT words × --max-len, with exit 2."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TextIO

from app.gc_pause import CyclicGcPaused
from core.detection.phrase_array import SUFFIX_ARRAY, PhraseTable, PhraseWords, find_phrases
from core.detection.phrases import (
    DEFAULT_MAX_LEN,
    INVERTED_INDEX,
    SUFFIX_TREE,
    Phrase,
    phrase_input,
    repeated_phrases,
)
from core.documents.document import Document, load_document
from core.documents.language import get_language
from core.documents.sentences import word_spans
from core.errors import DocumentError
from core.options import SignatureOptions

EXIT_OK = 0
EXIT_INPUT = 2

#: the compact method first (the default), then the paper's two
CLI_METHODS = (SUFFIX_ARRAY, SUFFIX_TREE, INVERTED_INDEX)
#: the paper's methods keep up to --max-len entries for every word (the tree about 250 bytes
#: each, the index as much where most phrases repeat): words × --max-len above this is refused
#: (250,000 words at the default 8: about 550 MB for the tree)
LEGACY_LIMIT = 2_000_000


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def configure(phrases: argparse.ArgumentParser) -> None:
    """The arguments of `doppel phrases`."""
    phrases.description = (
        "List every phrase (a run of words inside one sentence) that occurs at least "
        "--min-count times in at least --min-docs documents, maximal ones first: those not "
        "inside a longer phrase with the same occurrences. Words are case-folded."
    )
    phrases.add_argument("files", nargs="+", metavar="FILE", help="documents to read")
    phrases.add_argument(
        "--max-len",
        type=_positive,
        default=DEFAULT_MAX_LEN,
        metavar="M",
        help="longest phrase considered, in words [default: %(default)s]",
    )
    phrases.add_argument(
        "--min-count",
        type=_positive,
        default=2,
        metavar="N",
        help="occurrences a phrase needs [default: %(default)s]",
    )
    phrases.add_argument(
        "--min-docs",
        type=_positive,
        default=None,
        metavar="N",
        help="different documents a phrase must occur in [default: 2 with two or more "
        "files, else 1]",
    )
    phrases.add_argument(
        "--method",
        choices=CLI_METHODS,
        default=SUFFIX_ARRAY,
        help="the compact suffix array, or the paper's word suffix tree or inverted index "
        f"(all give the same output; the paper's two refuse more than {LEGACY_LIMIT:,} "
        "words × --max-len) [default: %(default)s]",
    )
    phrases.add_argument(
        "--remove-stopwords",
        action="store_true",
        help="leave the language's stop words out before finding phrases",
    )
    phrases.add_argument("--json", action="store_true", help="print one JSON object")
    phrases.add_argument(
        "--lang",
        default=SignatureOptions().language,
        metavar="CODE",
        help="document language, e.g. en, de ('auto' detects it per document) "
        "[default: %(default)s]",
    )


@dataclass(frozen=True, slots=True)
class Row:
    """One phrase as printed: its text, words, maximal flag and every occurrence as
    (document number, start, end), by document then position."""

    text: str
    length: int
    maximal: bool
    occurrences: list[tuple[int, int, int]]

    @property
    def documents(self) -> int:
        return len({d for d, _, _ in self.occurrences})


def table_rows(table: PhraseTable) -> Iterator[Row]:
    """The phrases of a suffix-array table, one at a time, in listing order."""
    words = table.words
    starts, ends = words.starts, words.ends
    for length, positions, maximal in table.listing():
        last = length - 1
        occurrences = [(words.document_of(g), starts[g], ends[g + last]) for g in positions]
        yield Row(" ".join(words.phrase(positions[0], length)), length, maximal, occurrences)


def phrase_rows(phrases: Iterable[Phrase]) -> Iterator[Row]:
    for p in phrases:
        occurrences = [(o.document, o.start, o.end) for o in p.occurrences]
        yield Row(p.text, p.length, p.maximal, occurrences)


def write_json(rows: Iterable[Row], paths: list[str], out: TextIO) -> None:
    """One JSON object, `{"phrases": [...]}`, written a phrase at a time (the same text
    `json.dumps` gives for the whole)."""
    out.write('{"phrases": [')
    for k, row in enumerate(rows):
        item = {
            "phrase": row.text,
            "words": row.length,
            "count": len(row.occurrences),
            "documents": row.documents,
            "maximal": row.maximal,
            "occurrences": [
                {"document": paths[d], "start": start, "end": end}
                for d, start, end in row.occurrences
            ],
        }
        out.write((", " if k else "") + json.dumps(item))
    out.write("]}\n")


def write_text(
    rows: Iterable[Row],
    paths: list[str],
    totals: tuple[int, int],
    settings: tuple[int, int, int],
    out: TextIO,
) -> None:
    """The readable list: the files, a summary (`totals`: phrases, maximal ones; `settings`:
    max_len, min_count, min_docs), then one line per phrase."""
    (total, maximal), (max_len, min_count, min_docs) = totals, settings
    lines = [f"[{k + 1}] {path}" for k, path in enumerate(paths)]
    lines += [
        "",
        f"{total} repeated phrases ({maximal} maximal): up to {max_len} words, "
        f"at least {min_count} times, in at least {min_docs} document(s)",
    ]
    out.write("\n".join(lines) + "\n")
    header = f"{'count':>5} {'docs':>4}  first occurrences  phrase"
    started = shown_inside = False
    for row in rows:
        if not started:
            out.write(f"\n{header}\n")
            started = True
        if not row.maximal and not shown_inside:
            out.write(f"\nInside a longer phrase with the same occurrences:\n{header}\n")
            shown_inside = True
        first = ", ".join(f"[{d + 1}] {start}-{end}" for d, start, end in _first_per_document(row))
        out.write(f"{len(row.occurrences):>5} {row.documents:>4}  {first}  {row.text}\n")


def _first_per_document(row: Row, limit: int = 3) -> list[tuple[int, int, int]]:
    seen: dict[int, tuple[int, int, int]] = {}
    for occurrence in row.occurrences:
        seen.setdefault(occurrence[0], occurrence)
    return list(seen.values())[:limit]


def _word_count(doc: Document, remove_stopwords: bool) -> int:
    """The words the paper's methods would read in `doc`."""
    is_stopword = get_language(doc.language).is_stopword if remove_stopwords else None
    count = 0
    for sentence in doc.sentences:
        spans = word_spans(doc.text, sentence.start, sentence.end)
        if is_stopword is None:
            count += len(spans)
        else:
            count += sum(not is_stopword(doc.text[a:b].casefold()) for a, b in spans)
    return count


def run(args: argparse.Namespace) -> int:
    options = SignatureOptions(language=args.lang)
    compact = args.method == SUFFIX_ARRAY
    words = PhraseWords()
    docs: list[Document] = []  # kept for the paper's methods only
    paths: list[str] = []
    failed = False
    for path in args.files:
        try:
            doc = load_document(path, options)
        except DocumentError as error:
            print(f"doppel: {error.path}: {error.reason}", file=sys.stderr)
            failed = True
            continue
        paths.append(str(doc.path))
        if failed:
            continue  # still read the rest, to name every unreadable file
        if compact:
            words.add_document(doc, remove_stopwords=args.remove_stopwords)
        else:
            docs.append(doc)
        del doc  # (the compact method holds only its words)
    if failed:
        return EXIT_INPUT
    min_docs = args.min_docs if args.min_docs is not None else (2 if len(paths) >= 2 else 1)
    rows: Iterator[Row]
    with CyclicGcPaused():  # millions of acyclic objects: 2.5-2.9 times faster (gc_pause.py)
        if compact:
            table = find_phrases(words, args.max_len, args.min_count, min_docs)
            totals = (table.total, table.maximal_total)
            rows = table_rows(table)
        else:
            count = sum(_word_count(doc, args.remove_stopwords) for doc in docs)
            if count * args.max_len > LEGACY_LIMIT:
                print(
                    f"doppel: {', '.join(paths)}: {count:,} words; --method {args.method} "
                    f"keeps up to --max-len entries a word and is limited to "
                    f"{LEGACY_LIMIT:,} words × --max-len "
                    f"({LEGACY_LIMIT // args.max_len:,} words at --max-len {args.max_len}). "
                    f"Leave --method out: the default, {SUFFIX_ARRAY}, has no such limit.",
                    file=sys.stderr,
                )
                return EXIT_INPUT
            found = repeated_phrases(
                [phrase_input(d, remove_stopwords=args.remove_stopwords) for d in docs],
                max_len=args.max_len,
                min_count=args.min_count,
                min_docs=min_docs,
                method=args.method,
            )
            totals = (len(found), sum(p.maximal for p in found))
            rows = phrase_rows(found)
        if args.json:
            write_json(rows, paths, sys.stdout)
        else:
            write_text(rows, paths, totals, (args.max_len, args.min_count, min_docs), sys.stdout)
    return EXIT_OK

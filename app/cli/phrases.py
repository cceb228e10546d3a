"""`doppel phrases`: the phrases repeated in one or more documents (paper B, docs/phrases.md).

Prints the repeated phrases, maximal ones first, with counts, documents and first occurrences;
`--json` prints one object instead. An unreadable file is one line on stderr and exit 2."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from app.gc_pause import CyclicGcPaused
from core.detection.phrases import (
    DEFAULT_MAX_LEN,
    METHODS,
    SUFFIX_TREE,
    Occurrence,
    Phrase,
    phrase_input,
    repeated_phrases,
)
from core.documents.document import Document, load_document
from core.errors import DocumentError
from core.options import SignatureOptions

EXIT_OK = 0
EXIT_INPUT = 2


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
        choices=METHODS,
        default=SUFFIX_TREE,
        help="the paper's word suffix tree or the inverted index (same output) "
        "[default: %(default)s]",
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


def phrases_to_json(phrases: list[Phrase], docs: list[Document]) -> dict[str, Any]:
    return {
        "phrases": [
            {
                "phrase": p.text,
                "words": p.length,
                "count": p.count,
                "documents": len(p.documents),
                "maximal": p.maximal,
                "occurrences": [
                    {"document": str(docs[o.document].path), "start": o.start, "end": o.end}
                    for o in p.occurrences
                ],
            }
            for p in phrases
        ]
    }


def format_phrases(
    phrases: list[Phrase], docs: list[Document], max_len: int, min_count: int, min_docs: int
) -> str:
    lines = [f"[{k + 1}] {doc.path}" for k, doc in enumerate(docs)]
    maximal = sum(p.maximal for p in phrases)
    lines += [
        "",
        f"{len(phrases)} repeated phrases ({maximal} maximal): up to {max_len} words, "
        f"at least {min_count} times, in at least {min_docs} document(s)",
    ]
    if not phrases:
        return "\n".join(lines)
    header = f"{'count':>5} {'docs':>4}  first occurrences  phrase"
    shown_inside = False
    lines += ["", header]
    for p in phrases:
        if not p.maximal and not shown_inside:
            lines += ["", "Inside a longer phrase with the same occurrences:", header]
            shown_inside = True
        first = ", ".join(
            f"[{o.document + 1}] {o.start}-{o.end}"
            for o in _first_per_document(p)  # where to look in each document
        )
        lines.append(f"{p.count:>5} {len(p.documents):>4}  {first}  {p.text}")
    return "\n".join(lines)


def _first_per_document(p: Phrase, limit: int = 3) -> list[Occurrence]:
    seen: dict[int, Occurrence] = {}
    for o in p.occurrences:
        seen.setdefault(o.document, o)
    return list(seen.values())[:limit]


def run(args: argparse.Namespace) -> int:
    options = SignatureOptions(language=args.lang)
    docs: list[Document] = []
    failed = False
    for path in args.files:
        try:
            docs.append(load_document(path, options))
        except DocumentError as error:
            print(f"doppel: {error.path}: {error.reason}", file=sys.stderr)
            failed = True
    if failed:
        return EXIT_INPUT
    min_docs = args.min_docs if args.min_docs is not None else (2 if len(docs) >= 2 else 1)
    with CyclicGcPaused():  # millions of acyclic objects: 2.5-2.9 times faster (gc_pause.py)
        phrases = repeated_phrases(
            [phrase_input(d, remove_stopwords=args.remove_stopwords) for d in docs],
            max_len=args.max_len,
            min_count=args.min_count,
            min_docs=min_docs,
            method=args.method,
        )
    if args.json:
        print(json.dumps(phrases_to_json(phrases, docs)))
    else:
        print(format_phrases(phrases, docs, args.max_len, args.min_count, min_docs))
    return EXIT_OK

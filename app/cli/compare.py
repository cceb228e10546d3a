"""The `doppel` command line: compare two documents, list languages.

Exit codes: 0 done, 1 internal error, 2 unreadable input or bad usage, 130 interrupted.
Every document error is printed on stderr as one line naming the file and the reason."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from app import app_version
from app.cli.batch import add_batch_parser
from app.cli.batch import run as run_batch_command
from app.cli.phrases import add_phrases_parser
from app.cli.phrases import run as run_phrases_command
from core.batch.run import BatchOptions
from core.comparison import Comparison, compare_documents
from core.detection.verification import BlockState
from core.documents.document import Document, load_document
from core.documents.excluded_spans import ExclusionOptions
from core.documents.language import available_languages
from core.errors import DocumentError, LanguageError
from core.exclusions.quotations import exclusion_summary
from core.options import MatchOptions, ShortSentenceRule, SignatureOptions
from core.reports.comparison_json import comparison_to_json

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_INPUT = 2
EXIT_INTERRUPTED = 130
SHOWN_DISCARDED = 15  # discarded blocks listed in the readable summary without --all-discarded


def _add_engine_options(parser: argparse.ArgumentParser) -> None:
    defaults = SignatureOptions()
    match_defaults = MatchOptions()
    group = parser.add_argument_group("engine options (defaults are the paper's values)")
    group.add_argument(
        "--lang",
        default=defaults.language,
        metavar="CODE",
        help="document language, e.g. en, de, fr ('auto' detects it per document; "
        "'doppel languages' lists them) [default: %(default)s]",
    )
    group.add_argument(
        "--min-block",
        type=int,
        default=match_defaults.min_block,
        metavar="N",
        help="sentences a block (and a piece after splitting) needs [default: %(default)s]",
    )
    group.add_argument(
        "--key-size",
        type=int,
        default=defaults.key_size,
        metavar="K",
        help="leading terms compared to verify two sentences [default: %(default)s]",
    )
    group.add_argument(
        "--no-length-cap",
        action="store_true",
        help="use every sentence length as a symbol instead of the paper's 0-9a-z alphabet, "
        "which leaves out sentences of more than 35 terms",
    )
    group.add_argument(
        "--keep-stopwords",
        action="store_true",
        help="count every word, not only the words left after removing stop words",
    )
    group.add_argument(
        "--literal-short",
        action="store_true",
        help="let sentences with fewer terms than the key size count towards a block's length "
        "(the paper read literally; more false alarms on real prose)",
    )


def add_exclusion_options(parser: argparse.ArgumentParser) -> None:
    """--exclude-quotes, --exclude-references, --template FILE, --template-phrase-words N."""
    defaults = ExclusionOptions()
    group = parser.add_argument_group(
        "exclusions (off by default; the documents are never changed, only what is scored: "
        "see docs/exclusions.md)"
    )
    group.add_argument(
        "--exclude-quotes",
        action="store_true",
        help="leave out text in quotation marks and the block quotes of .docx, .odt, .html "
        "and .md files",
    )
    group.add_argument(
        "--exclude-references",
        action="store_true",
        help="leave out a references section at the end (References, Bibliography, Works "
        "Cited, Literaturverzeichnis, ...)",
    )
    group.add_argument(
        "--template",
        action="append",
        default=[],
        metavar="FILE",
        help="a template (the assignment prompt, a handout): sentences matching it are left "
        "out; repeat for several",
    )
    group.add_argument(
        "--template-phrase-words",
        type=int,
        default=defaults.template_phrase_words,
        metavar="N",
        help="a sentence sharing a phrase of N words with a template is left out too "
        "[default: %(default)s]",
    )


def _exclusion_options(args: argparse.Namespace) -> ExclusionOptions | None:
    """The exclusions asked for, or None when none is (the comparison then excludes nothing)."""
    options = ExclusionOptions(  # checked even when unused: a bad value is a usage error
        quotations=args.exclude_quotes,
        references=args.exclude_references,
        template_phrase_words=args.template_phrase_words,
    )
    if options.quotations or options.references or args.template:
        return options
    return None


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="doppel",
        description="Doppel finds the sentence blocks two documents share (offline).",
    )
    parser.add_argument("--version", action="version", version=f"doppel {app_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    compare = commands.add_parser(
        "compare",
        help="compare two documents",
        description="Compare two documents (.txt .md .docx .pdf .odt .rtf .html) and show "
        "the sentence blocks they share, verified by the first words of each sentence.",
    )
    compare.add_argument("a", metavar="A", help="first document")
    compare.add_argument("b", metavar="B", help="second document")
    compare.add_argument("--json", action="store_true", help="print one JSON object (docs/json.md)")
    compare.add_argument(
        "--all-discarded",
        action="store_true",
        help="list every discarded block, not only those worth reading",
    )
    _add_engine_options(compare)
    add_exclusion_options(compare)

    add_batch_parser(commands, _add_engine_options, add_exclusion_options)
    add_phrases_parser(commands)
    commands.add_parser("languages", help="list the languages Doppel can analyse")
    commands.add_parser(
        "self-test", help="check this installation on the bundled samples (also --self-test)"
    )
    gui = commands.add_parser(
        "gui",
        help="open the desktop app (doppel gui [FILE...] [--demo] [--screenshot PATH])",
        add_help=False,
    )
    gui.add_argument("gui_args", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return parser


def _options(args: argparse.Namespace) -> tuple[SignatureOptions, MatchOptions]:
    signature = SignatureOptions(
        language=args.lang,
        remove_stopwords=not args.keep_stopwords,
        length_cap=not args.no_length_cap,
        key_size=args.key_size,
    )
    rule = ShortSentenceRule.LITERAL if args.literal_short else ShortSentenceRule.FULL_KEY
    return signature, MatchOptions(min_block=args.min_block, short_sentences=rule)


def _first_words(doc: Document, position: int, words: int = 8) -> str:
    sentence = doc.sentences[doc.signature.sentence_indices[position]]
    tokens = doc.text[sentence.start : sentence.end].split()
    snippet = " ".join(tokens[:words])
    return snippet + (" …" if len(tokens) > words else "")


def _percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def _exclusions_line(c: Comparison) -> str | None:
    """What was asked to be left out, or None when nothing was."""
    if c.exclusions is None:
        return None
    kinds = []
    if c.exclusions.quotations:
        kinds.append("quotations")
    if c.exclusions.references:
        kinds.append("references sections")
    if c.templates:
        kinds.append(
            f"text matching the template{'s' if len(c.templates) > 1 else ''} "
            f"{', '.join(c.templates)} (verified blocks, and phrases of "
            f"{c.exclusions.template_phrase_words}+ words)"
        )
    return "Left out of the scores: " + ("; ".join(kinds) or "nothing")


def format_summary(c: Comparison, all_discarded: bool = False) -> str:
    lines = []
    excluding = _exclusions_line(c)
    for label, doc in (("A", c.a), ("B", c.b)):
        lines.append(
            f"{label}: {doc.path} ({doc.format}, {doc.language}, {doc.sentence_count} sentences, "
            f"{len(doc.signature.too_long)} too long to use)"
        )
        lines.extend(f"   note: {w}" for w in doc.warnings)
        if excluding is not None or doc.excluded:
            lines.extend(
                f"   excluded: {line}" for line in exclusion_summary(doc) or ["nothing found"]
            )
    if excluding is not None:
        lines.append(excluding)
    counts = c.counts
    lines += [
        "",
        f"Jaccard similarity  {_percent(c.jaccard)}   "
        f"({c.matched_sentences} matched sentences of {len(c.a.signature)} in A "
        f"and {len(c.b.signature)} in B)",
        f"A found in B        {_percent(c.coverage_a)}",
        f"B found in A        {_percent(c.coverage_b)}",
        f"Blocks              {counts.raw} with equal sentence lengths: "
        f"{counts.verified} verified, {counts.split} split, {counts.discarded} discarded",
        "",
    ]
    # the longest discarded blocks are the ones worth a look
    discarded = sorted(
        (b for b in c.blocks if b.state is BlockState.DISCARDED), key=lambda b: -b.raw.length
    )
    shown = [b for b in c.blocks if b.state is not BlockState.DISCARDED]
    limit = len(discarded) if all_discarded else SHOWN_DISCARDED
    shown += discarded[:limit]
    shown.sort(key=lambda b: (b.raw.a_start, b.raw.b_start))
    unusable = [
        doc.name
        for doc in (c.a, c.b)
        if doc.sentence_count and len(doc.signature.too_long) > 0.5 * doc.sentence_count
    ]
    if unusable:
        lines.append(
            f"Most sentences of {' and '.join(unusable)} are too long to compare "
            "(over 35 words); try --no-length-cap."
        )
    if counts.verified + counts.split == 0:
        lines.append("No verified blocks: nothing suggests copying.")
    if shown:
        lines.append(f"{'A pos':>6} {'B pos':>6} {'len':>4}  {'state':<9}  first words (A)")
    indent = " " * 30
    for block in shown:
        raw = block.raw
        lines.append(
            f"{raw.a_start:>6} {raw.b_start:>6} {raw.length:>4}  {block.state.value:<9}  "
            f"{_first_words(c.a, raw.a_start)}"
        )
        if block.state is BlockState.VERIFIED:
            continue
        lines.append(indent + block.reason)
        if block.state is BlockState.SPLIT:
            lines.extend(
                f"{indent}A {raw.a_start + k} / B {raw.b_start + k}: {c.failure_reason(block, k)}"
                for k in block.failed
            )
    hidden = counts.discarded - min(limit, len(discarded))
    if hidden > 0:
        lines.append(
            f"… and {hidden} more discarded blocks: sentence lengths that agree by chance "
            "(--all-discarded lists them)"
        )
    return "\n".join(lines)


def _compare(
    args: argparse.Namespace,
    signature_options: SignatureOptions,
    match_options: MatchOptions,
    exclusions: ExclusionOptions | None = None,
) -> int:
    docs = []
    failed = False
    for path in (args.a, args.b, *args.template):
        try:
            docs.append(load_document(path, signature_options))
        except DocumentError as error:  # the path as typed: two inputs may share a file name
            print(f"doppel: {error.path}: {error.reason}", file=sys.stderr)
            failed = True
    if failed:
        return EXIT_INPUT
    comparison = compare_documents(
        docs[0],
        docs[1],
        match_options,
        keep_all_discarded=args.all_discarded,
        exclusions=exclusions,
        templates=docs[2:],
    )
    if args.json:
        print(json.dumps(comparison_to_json(comparison)))
    else:
        print(format_summary(comparison, args.all_discarded))
    return EXIT_OK


def _languages() -> int:
    for info in available_languages():
        print(f"{info.code}  {info.name}")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    if sys.stdout is not None and hasattr(sys.stdout, "reconfigure"):  # None: a windowed app
        sys.stdout.reconfigure(errors="replace")
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] in (["--self-test"], ["self-test"]):
        from app.cli.self_test import run_self_test

        return run_self_test()
    if argv[:1] == ["gui"]:  # everything after it belongs to the window's own parser
        from app.gui.application import main as gui_main  # Qt loads only for the window

        return gui_main(argv[1:])
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command in ("compare", "batch"):
            try:
                signature_options, match_options = _options(args)
                exclusions = _exclusion_options(args) if args.command == "compare" else None
            except ValueError as error:
                parser.error(str(error))
            if args.command == "batch":
                return run_batch_command(
                    args,
                    BatchOptions(
                        signature=signature_options,
                        match=match_options,
                        student_folders=args.student_folders,
                        all_pairs=args.all_pairs,
                        workers=args.jobs,
                    ),
                )
            return _compare(args, signature_options, match_options, exclusions)
        if args.command == "phrases":
            return run_phrases_command(args)
        return _languages()
    except LanguageError as error:
        print(f"doppel: {error}", file=sys.stderr)
        return EXIT_INPUT
    except BrokenPipeError:  # `doppel compare A B | head`: the reader has gone, not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        print("doppel: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as error:  # never a raw traceback for a teacher
        print(f"doppel: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        print("Please report this, with the command you ran.", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())

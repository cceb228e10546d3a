"""The option groups several commands share: the engine's options (`compare`, `batch`) and what
to leave out of the scores (`compare`, `batch`), each defined once with its parsing."""

from __future__ import annotations

import argparse

from core.options import ExclusionOptions, MatchOptions, ShortSentenceRule, SignatureOptions


class UsageError(ValueError):
    """An option value the command cannot use: `doppel` prints the command's usage and the
    message, and exits 2."""


def add_engine_options(parser: argparse.ArgumentParser, *, reading_only: bool = False) -> None:
    """--lang, --min-block, --key-size, --no-length-cap, --keep-stopwords, --literal-short,
    --strict; with `reading_only` (an archive add: only how documents are read is kept), the
    signature's alone, the others at their defaults."""
    defaults = SignatureOptions()
    match_defaults = MatchOptions()
    if reading_only:
        parser.set_defaults(min_block=match_defaults.min_block, literal_short=False, strict=False)
    group = parser.add_argument_group(
        "how documents are read (kept with the index: a check against it reads new "
        "documents the same way)"
        if reading_only
        else "engine options (defaults are the paper's values, with Doppel's search for "
        "reworded passages on: --strict turns it off)"
    )
    group.add_argument(
        "--lang",
        default=defaults.language,
        metavar="CODE",
        help="document language, e.g. en, de, fr ('auto' detects it per document; "
        "'doppel languages' lists them) [default: %(default)s]",
    )
    if not reading_only:
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
    if reading_only:
        return
    group.add_argument(
        "--literal-short",
        action="store_true",
        help="let sentences with fewer terms than the key size count towards a block's length "
        "(the paper read literally; more false alarms on real prose)",
    )
    group.add_argument(
        "--strict",
        action="store_true",
        help="the paper's method alone: only verified blocks (word for word), no search for "
        "reworded (edited) passages; the verdict and the copied shares then count verified "
        "blocks only",
    )


def engine_options(args: argparse.Namespace) -> tuple[SignatureOptions, MatchOptions]:
    """The engine options the flags ask for (UsageError with a readable message if invalid)."""
    rule = ShortSentenceRule.LITERAL if args.literal_short else ShortSentenceRule.FULL_KEY
    try:
        signature = SignatureOptions(
            language=args.lang,
            remove_stopwords=not args.keep_stopwords,
            length_cap=not args.no_length_cap,
            key_size=args.key_size,
        )
        match = MatchOptions(
            min_block=args.min_block, short_sentences=rule, reworded=not args.strict
        )
        return signature, match
    except ValueError as error:
        raise UsageError(str(error)) from error


def add_exclusion_options(parser: argparse.ArgumentParser, *, common: bool = False) -> None:
    """--exclude-quotes, --exclude-references, --template FILE, --template-phrase-words N, and
    with `common` (a batch) --exclude-common SHARE."""
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
    if common:
        group.add_argument(
            "--exclude-common",
            type=float,
            default=None,
            metavar="SHARE",
            help="leave out sentences holding text found in more than SHARE of the "
            "submissions, a share between 0 and 1 (e.g. 0.5: more than half): a prompt or "
            "handout everyone pasted; off by default",
        )


def exclusion_options(args: argparse.Namespace) -> ExclusionOptions:
    """The exclusions the flags ask for (UsageError with a readable message if invalid)."""
    share = getattr(args, "exclude_common", None)
    if share is not None and not 0.0 < share < 1.0:
        raise UsageError("--exclude-common must be a share between 0 and 1 (e.g. 0.5)")
    if args.template_phrase_words < 2:
        raise UsageError("--template-phrase-words must be at least 2")
    return ExclusionOptions(
        quotations=args.exclude_quotes,
        references=args.exclude_references,
        template_phrase_words=args.template_phrase_words,
        common_share=share,
    )


def any_exclusion(options: ExclusionOptions, args: argparse.Namespace) -> bool:
    """Whether the flags ask to leave anything out (a comparison then says what)."""
    return bool(
        options.quotations
        or options.references
        or options.common_share is not None
        or args.template
    )


def add_cluster_option(parser: argparse.ArgumentParser) -> None:
    """--scheduler ADDRESS, for the commands that can run on a Dask cluster (`batch`, `archive
    add`, `archive check`); read it with `scheduler_address`, and print a
    `core.batch.cluster.ClusterError` as "doppel: …" with exit 2."""
    parser.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="read and compare the documents on the workers of a Dask cluster, e.g. "
        "tcp://host:8786 (the workers must see the files at the same paths; --jobs is then "
        "not used); needs the cluster extra: pip install 'doppel-check[cluster]'",
    )


def scheduler_address(args: argparse.Namespace) -> str | None:
    """--scheduler, or None (UsageError when it is given empty)."""
    address: str | None = getattr(args, "scheduler", None)
    if address is None:
        return None
    address = address.strip()
    if not address:
        raise UsageError("--scheduler needs the scheduler's address, e.g. tcp://host:8786")
    return address

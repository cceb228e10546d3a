"""Sentence-splitting artefacts on the Gutenberg novels: what each rule of `join_reason` joins.

For each novel (normalised as a document would be, split with the English model) this counts
the Punkt pieces, the pieces each rule joins back to the sentence before (count and share of
all pieces), and the splits NLTK's own Punkt makes that Doppel's tokenizer does not (the
"Mr. | Darcy?" bug, core/documents/punkt_nltk.py). It then prints examples per rule, the same
novels written all in lowercase (a writer without sentence capitals: "lowercase" must join
nothing there), and the cost: the time of `sentence_spans` over the Punkt pieces alone, as a
share of `split_sentences`. See docs/languages.md ("Sentence-splitting artefacts").

    python bench/bench_splitting.py [--examples 10] [--repeat 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections import Counter, defaultdict
from collections.abc import Callable

from corpus import novels

from core.documents.language import Language, get_language
from core.documents.normalize import normalize_text
from core.documents.punkt_nltk import stock_splitter
from core.documents.sentences import (
    join_reason,
    paragraph_spans,
    sentence_spans,
    split_sentences,
    uses_sentence_capitals,
)

RULES = ("marker", "abbreviation", "number", "lowercase after ?/!", "lowercase after .")


def pieces_of(text: str, language: Language) -> list[list[tuple[int, int]]]:
    return [
        [(start + a, start + b) for a, b in language.span_tokenize(text[start:end])]
        for start, end in paragraph_spans(text)
        if start < end
    ]


def rule_name(reason: str, text: str, piece: tuple[int, int]) -> str:
    if reason != "lowercase":
        return reason
    mark = text[piece[0] : piece[1]].rstrip("\"')]}")[-1:]
    return "lowercase after ." if mark == "." else "lowercase after ?/!"


def joins(
    text: str, language: Language
) -> tuple[int, bool, list[tuple[str, tuple[int, int], tuple[int, int]]]]:
    """Punkt's pieces, whether the text uses sentence capitals, and every join with its rule
    and the spans of the two pieces it joins."""
    pieces = [p for p in pieces_of(text, language) if p]
    capitals = uses_sentence_capitals(text, pieces)
    found = []
    for paragraph in pieces:
        for piece, following in itertools.pairwise(paragraph):
            reason = join_reason(text, piece, following, capitals)
            if reason is not None:
                found.append((rule_name(reason, text, piece), piece, following))
    return sum(len(p) for p in pieces), capitals, found


def stock_splits_removed(text: str, language: Language) -> int:
    """How many piece boundaries stock NLTK makes that Doppel's tokenizer does not."""
    stock = stock_splitter(language.info.code, language.info.name)
    removed = 0
    for start, end in paragraph_spans(text):
        paragraph = text[start:end]
        theirs = {b for _, b in stock.span_tokenize(paragraph)}
        removed += len(theirs - {b for _, b in language.span_tokenize(paragraph)})
    return removed


def best_of(repeat: int, job: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        job()
        times.append(time.perf_counter() - started)
    return min(times)


def show(text: str, piece: tuple[int, int], following: tuple[int, int]) -> str:
    before = text[max(piece[0], following[0] - 60) : following[0]].rstrip()
    after = text[following[0] : min(following[1], following[0] + 45)]
    return f"...{before} ‖ {after}...".replace("\n", " ")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    paths = novels()
    if not paths:
        print("corpus not found (../shared/corpus/gutenberg or $DOPPEL_CORPUS): skipped")
        return
    english = get_language("en")
    texts = {p.stem: normalize_text(p.read_text(encoding="utf-8")) for p in paths}

    total_pieces = total_removed = 0
    totals: Counter[str] = Counter()
    examples: dict[str, list[str]] = defaultdict(list)
    print(f"{'novel':<8} {'pieces':>7} {'stock':>6} " + " ".join(f"{r:>9.9}" for r in RULES))
    for name, text in texts.items():
        pieces, capitals, found = joins(text, english)
        removed = stock_splits_removed(text, english)
        counts = Counter(rule for rule, _, _ in found)
        for rule, piece, following in found:
            examples[rule].append(f"{name}: {show(text, piece, following)}")
        total_pieces += pieces
        total_removed += removed
        totals += counts
        flag = "" if capitals else "  (no sentence capitals!)"
        print(
            f"{name:<8} {pieces:>7} {removed:>6} "
            + " ".join(f"{counts[r]:>9}" for r in RULES)
            + flag
        )
    print(
        f"{'all':<8} {total_pieces:>7} {total_removed:>6} "
        + " ".join(f"{totals[r]:>9}" for r in RULES)
    )
    print(
        "share of pieces joined: "
        + ", ".join(f"{r} {totals[r] / total_pieces:.2%}" for r in RULES)
        + f"; all rules {sum(totals.values()) / total_pieces:.2%}"
    )
    print("(stock: boundaries stock NLTK Punkt adds that Doppel's tokenizer does not)")

    rng = random.Random(args.seed)
    for rule in RULES:
        shown = examples[rule]
        print(f"\n{rule}: {len(shown)} joins, {min(args.examples, len(shown))} at random")
        for line in sorted(rng.sample(shown, min(args.examples, len(shown)))):
            print("   ", line)

    print("\nThe same novels in lowercase (no sentence capitals):")
    for name, text in texts.items():
        lowered = text.lower()
        pieces, capitals, found = joins(lowered, english)
        counts = Counter(rule for rule, _, _ in found)
        print(
            f"{name:<8} pieces {pieces:>6}  capitals {capitals!s:<5}  joined "
            + ", ".join(f"{r} {counts[r]}" for r in RULES if counts[r])
        )

    text = "\n\n".join(texts.values())
    megabytes = len(text.encode("utf-8")) / 1e6
    punkt = best_of(args.repeat, lambda: pieces_of(text, english))
    spans = best_of(args.repeat, lambda: sentence_spans(text, english))
    whole = best_of(args.repeat, lambda: split_sentences(text, english))
    print(
        f"\ntime on {megabytes:.2f} MB: Punkt pieces {punkt:.2f} s, sentence_spans {spans:.2f} s, "
        f"split_sentences {whole:.2f} s; the joining adds {(spans - punkt) / whole:.1%} of "
        "split_sentences"
    )


if __name__ == "__main__":
    main()

"""The words every surface uses for the same thing, one copy each: the window, the command line
and the reports read them here and keep only their layout.

- `percent`: a share as a percentage, with one decimal everywhere ("30.8%"), never rounding a
  finding away ("<0.1%", ">99.9%"); "0%" and "100%" only for none and all.
- `share_text`: a share someone chose (an option, a bound), exactly as given: "50%", "2.5%";
  `share_range`: two of them as a range, "5–10%" (the heatmap's legend).
- `plural`: "1 sentence", "1,204 sentences".
- The verdict and the passages: `verdict` ("Copied text found"), `found_in` ("62.0% of A is
  found in B"), `passage_counts` ("6 passages: 4 word for word, 2 edited"), the kinds' names
  (`PASSAGE_KINDS`, `PASSAGE_KIND_TITLES`) and `word_changes_text` ("12 of 15 words the same;
  2 replaced, 1 added"); `verdict_line` puts the verdict, both shares and the passages in one
  line (the headline of a pair on the command line, in the report and in tooltips).
- Each submission's strongest partner (`MOST_FOUND_IN`, `most_found_in`: "41.0% in
  essay-b.docx") and the pasted prompt a check noticed (`common_hint_text`, `quoted`).
- What was left out of the scores: `exclusion_summary` (one document: what it leaves out and
  why), `exclusions_asked` (the exclusions asked for, in one order), and the two views built on
  them: `comparison_left_out` (two documents) and `batch_left_out` (a folder check, whose plain
  text form, for the command line's table and the window's tooltip, is `exclusion_lines`)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from core.batch.common_hint import CommonTextHint
from core.batch.result import BatchResult
from core.comparison import Comparison
from core.detection.passages import PassageKind
from core.detection.reworded import WordChanges
from core.documents.document import Document
from core.documents.excluded_spans import ExcludedSpan, ExclusionKind, SpanSet
from core.documents.sentences import word_spans
from core.exclusions.quotations import BLOCK_QUOTE
from core.options import ExclusionOptions

#: how every surface introduces what was left out of the scores
LEFT_OUT = "Left out of the scores"
#: common passages `exclusion_lines` lists (the JSON and the HTML report list them all)
SHOWN_COMMON = 10


def percent(share: float) -> str:
    """A share (0..1) as a percentage with one decimal: "30.8%". A finding is never rounded
    away: a share above none that would show as 0.0% is "<0.1%", one short of all that would
    show as 100.0% is ">99.9%"; "0%" is none and "100%" all."""
    if share <= 0:
        return "0%"
    if share >= 1:
        return "100%"
    text = f"{share * 100:.1f}"
    if text == "0.0":
        return "<0.1%"
    if text == "100.0":
        return ">99.9%"
    return f"{text}%"


def share_text(share: float) -> str:
    """A share someone chose (an option such as the common-text share, a bin's bound) as a
    percentage, exactly as given and without trailing zeros: "50%", "2.5%", "0%". A share that
    was measured is `percent`'s."""
    return f"{share * 100:g}%"


def share_range(low: float, high: float) -> str:
    """Two chosen shares as a range: "5–10%"."""
    return f"{share_text(low).removesuffix('%')}–{share_text(high)}"


def plural(count: int, word: str, words: str | None = None) -> str:
    """ "1 sentence", "2 sentences", "1,204 sentences" (`words`: an irregular plural)."""
    return f"{count:,} {word if count == 1 else (words or word + 's')}"


# --- the verdict, the shares, the passages ------------------------------------------------

#: the verdict of a pair, both ways
COPIED_TEXT_FOUND = "Copied text found"
NOTHING_FOUND = "No copied text found"
#: how each kind of passage is named
PASSAGE_KINDS = {PassageKind.VERIFIED: "word for word", PassageKind.REWORDED: "edited"}
#: the longer name, where there is room (tables' headers, legends)
PASSAGE_KIND_TITLES = {
    PassageKind.VERIFIED: "Verified block (word for word)",
    PassageKind.REWORDED: "Reworded passage (edited)",
}


def archive_summary(documents: int, years: str) -> str:
    """What an archive index holds, as every surface says it: "Archive: 12,345 documents,
    2019–2025" (`years` from its files' dates; "" when it is empty)."""
    return f"Archive: {plural(documents, 'document')}" + (f", {years}" if years else "")


def verdict(flagged: bool) -> str:
    return COPIED_TEXT_FOUND if flagged else NOTHING_FOUND


def found_in(share: float, name: str, partner: str) -> str:
    """ "62.0% of essay.docx is found in source.pdf": a document's copied share, in words."""
    return f"{percent(share)} of {name} is found in {partner}"


def passage_counts(kinds: Iterable[PassageKind]) -> str:
    """ "6 passages: 4 word for word, 2 edited"; "1 passage, edited"; "no passage"."""
    counts = Counter(kinds)
    total = sum(counts.values())
    if total == 0:
        return "no passage"
    kinds = [k for k in PassageKind if counts[k]]
    if len(kinds) == 1:
        return f"{plural(total, 'passage')}, {PASSAGE_KINDS[kinds[0]]}"
    parts = [f"{counts[k]:,} {PASSAGE_KINDS[k]}" for k in kinds]
    return f"{plural(total, 'passage')}: {', '.join(parts)}"


def passage_kinds(verified: int, reworded: int) -> list[PassageKind]:
    """The kinds of a pair's passages from their counts (a folder check's pair keeps counts):
    what `passage_counts` and `verdict_line` read."""
    return [PassageKind.VERIFIED] * verified + [PassageKind.REWORDED] * reworded


def verdict_line(
    flagged: bool,
    copied_a: float,
    copied_b: float,
    kinds: Iterable[PassageKind],
    name_a: str = "A",
    name_b: str = "B",
) -> str:
    """The headline of a pair: "Copied text found: 62.0% of A is found in B, 55.0% of B is
    found in A; 6 passages: 4 word for word, 2 edited", or "No copied text found"."""
    if not flagged:
        return verdict(False)
    shares = f"{found_in(copied_a, name_a, name_b)}, {found_in(copied_b, name_b, name_a)}"
    return f"{verdict(True)}: {shares}; {passage_counts(kinds)}"


def word_changes_text(changes: WordChanges) -> str:
    """What changed between a passage's two sides, from A's side: "12 of 15 words the same;
    2 replaced, 1 added, 3 left out" (content words: stop words are not counted)."""
    head = f"{changes.same:,} of {plural(changes.total, 'word')} the same"
    tail = [
        f"{n:,} {what}"
        for n, what in (
            (changes.replaced, "replaced"),
            (changes.added, "added"),
            (changes.left_out, "left out"),
        )
        if n
    ]
    return f"{head}; {', '.join(tail)}" if tail else head


# --- what one document leaves out -------------------------------------------------------


def exclusion_summary(doc: Document) -> list[str]:
    """What `doc` leaves out of scoring and why, one line per reason, e.g.
    "3 quotations (2 sentences left out, 14 words)",
    "references section from 'Works Cited' (12 sentences left out)",
    "template prompt.docx (5 sentences left out)". A sentence left out counts under every
    reason that covers part of it; a sentence that keeps some words is not counted (its
    excluded words are). [] when nothing is excluded."""
    if not doc.excluded:
        return []
    dropped = [doc.sentences[i] for i in doc.signature.excluded]
    groups: defaultdict[tuple[ExclusionKind, str], list[ExcludedSpan]] = defaultdict(list)
    for span in doc.excluded:
        detail = "" if span.kind in (ExclusionKind.QUOTATION, ExclusionKind.COMMON) else span.detail
        groups[(span.kind, detail)].append(span)
    order = list(ExclusionKind)
    lines: list[str] = []
    for (kind, detail), spans in sorted(
        groups.items(), key=lambda g: (order.index(g[0][0]), g[0][1])
    ):
        covered = SpanSet(spans)
        left_out = sum(1 for s in dropped if covered.overlaps(s.start, s.end))
        sentences = plural(left_out, "sentence")
        if kind is ExclusionKind.QUOTATION:
            blocks = sum(1 for s in spans if s.detail == BLOCK_QUOTE)
            marks = len(spans) - blocks
            what = " and ".join(
                part
                for part in (
                    plural(marks, "quotation") if marks else "",
                    plural(blocks, "block quote") if blocks else "",
                )
                if part
            )
            words = plural(_covered_words(doc.text, spans, covered), "word")
            lines.append(f"{what} ({sentences} left out, {words})")
        elif kind is ExclusionKind.REFERENCES:
            lines.append(f"references section from '{detail}' ({sentences} left out)")
        elif kind is ExclusionKind.TEMPLATE:
            lines.append(f"template {detail} ({sentences} left out)")
        else:
            passages = plural(len(spans), "passage")
            lines.append(
                f"{kind.label.removeprefix('excluded: ')}: {passages} ({sentences} left out)"
            )
    return lines


def _covered_words(text: str, spans: Iterable[ExcludedSpan], covered: SpanSet) -> int:
    words = {w for s in spans for w in word_spans(text, s.start, s.end) if covered.covers(*w)}
    return len(words)


# --- what was asked for ----------------------------------------------------------------------

# what each kind of span counts as, where a surface says how many were left out
_UNITS = {
    ExclusionKind.COMMON: "sentence",  # a common-text span is a whole sentence
    ExclusionKind.QUOTATION: "quotation",
    ExclusionKind.REFERENCES: "section",
    ExclusionKind.TEMPLATE: "sentence",  # so is a template span
}


def exclusions_asked(
    options: ExclusionOptions | None,
    templates: Sequence[str] = (),
    found: Mapping[ExclusionKind, int] | None = None,
) -> list[str]:
    """The exclusions asked for, one phrase each, in the order every surface lists them:
    common text, quotations, references, templates (`templates`: their names). With `found`
    (spans by kind), each phrase says how many it left out: "quotations — 7 quotations left
    out". [] when none was asked for."""
    options = options or ExclusionOptions()
    asked: list[tuple[ExclusionKind, str]] = []
    if options.common_share is not None:
        asked.append(
            (
                ExclusionKind.COMMON,
                f"text found in more than {share_text(options.common_share)} of the documents",
            )
        )
    if options.quotations:
        asked.append((ExclusionKind.QUOTATION, "quotations"))
    if options.references:
        asked.append((ExclusionKind.REFERENCES, "references sections"))
    if templates:
        asked.append(
            (
                ExclusionKind.TEMPLATE,
                f"text matching the template{'s' if len(templates) > 1 else ''} "
                f"{', '.join(templates)} (a shared block, or a shared phrase of "
                f"{options.template_phrase_words} words)",
            )
        )
    if found is None:
        return [phrase for _, phrase in asked]
    return [
        f"{phrase} — {plural(found.get(kind, 0), _UNITS[kind])} left out" for kind, phrase in asked
    ]


# --- two documents ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ComparisonLeftOut:
    """What a comparison left out of its scores, in words."""

    asked: tuple[str, ...]  # `exclusions_asked` for the comparison (may be empty)
    a: tuple[str, ...]  # `exclusion_summary` of A, or ("nothing found",)
    b: tuple[str, ...]


def comparison_left_out(comparison: Comparison) -> ComparisonLeftOut | None:
    """What `comparison` left out of its scores: what was asked for and, per document, what
    was found. None when no exclusion was asked for and neither document carries one (then
    every surface says nothing about exclusions)."""
    options = comparison.exclusions
    if options is not None and options.common_share is not None:
        options = replace(options, common_share=None)  # two documents have no common text
    asked = tuple(exclusions_asked(options, comparison.templates))
    a, b = comparison.a, comparison.b
    if not (asked or a.excluded or b.excluded):
        return None
    return ComparisonLeftOut(
        asked,
        tuple(exclusion_summary(a)) or ("nothing found",),
        tuple(exclusion_summary(b)) or ("nothing found",),
    )


# --- a folder check --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BatchLeftOut:
    """What a folder check left out of its scores, in words and numbers."""

    asked: tuple[str, ...]  # `exclusions_asked`, each saying how many it left out
    documents: int  # documents with text left out
    sentences: int  # sentences left out entirely (every word of theirs excluded)
    totals: str  # the two numbers above, in words
    # what the common-text search found: the line introducing the passages (it ends with a
    # colon), or that none was found; None when it was not asked for
    common: str | None

    @property
    def line(self) -> str:
        """`LEFT_OUT`: what was asked for. The totals."""
        return f"{LEFT_OUT}: {'; '.join(self.asked)}. {self.totals}"


def batch_left_out(result: BatchResult) -> BatchLeftOut | None:
    """What `result` left out of its scores; None when no exclusion was asked for."""
    if not result.exclusions_on:
        return None
    found = dict.fromkeys(ExclusionKind, 0)
    for doc in result.documents:
        for kind, n in doc.excluded_counts().items():
            found[kind] += n
    options = result.exclusions
    asked = exclusions_asked(options, [t.name for t in result.templates], found)
    documents = sum(1 for d in result.documents if d.excluded)
    sentences = sum(d.excluded_sentences for d in result.documents)
    totals = (
        f"{documents:,} of {plural(len(result.documents), 'document')} "
        f"{'has' if documents == 1 else 'have'} text left out; "
        f"{plural(sentences, 'sentence')} left out entirely."
    )
    common = None
    if options.common_share is not None:
        found_in = (
            f"found in more than {share_text(options.common_share)} of the "
            f"{plural(result.common_counted, 'document')}"
        )
        if result.common_text:
            common = f"Common text ({found_in}; left out wherever it appears):"
        else:
            common = f"No text was {found_in}."
    return BatchLeftOut(tuple(asked), documents, sentences, totals, common)


def exclusion_lines(result: BatchResult, shown_common: int = SHOWN_COMMON) -> list[str]:
    """What a folder check left out, as lines of plain text (the command line's table ends
    with them; the window shows them as a tooltip): the line saying what was asked for with
    the totals, then the common text found, the `shown_common` most widespread passages cut to
    100 characters. [] when no exclusion was asked for."""
    left = batch_left_out(result)
    if left is None:
        return []
    lines = [left.line]
    if left.common is not None:
        lines.append(left.common)
        counted = result.common_counted
        for passage in result.common_text[:shown_common]:
            text = passage.text or "(its text could not be read again)"
            if len(text) > 100:
                text = text[:99].rstrip() + "…"
            lines.append(f"  in {passage.documents:,} of {counted:,} documents: {text}")
        if len(result.common_text) > shown_common:
            lines.append(f"  … and {len(result.common_text) - shown_common:,} more")
    return lines


# --- a class, one submission at a time ------------------------------------------------------

#: what a submission's strongest partner is called, where it is listed (a column, a heading)
MOST_FOUND_IN = "Most found in another"
#: … and what is said of a submission nothing of which is found in another
NOTHING_FOUND_IN_ANOTHER = "nothing found in another document"


def most_found_in(share: float, partner: str | None) -> str:
    """A submission's largest share found in one other document, and that document:
    "41.0% in essay-b.docx"; `NOTHING_FOUND_IN_ANOTHER` without a partner."""
    if partner is None or share <= 0:
        return NOTHING_FOUND_IN_ANOTHER
    return f"{percent(share)} in {partner}"


def quoted(text: str, limit: int = 60) -> str:
    """`text` in single quotation marks, cut at a word to about `limit` characters ("…")."""
    text = " ".join(text.split())
    if len(text) > limit:
        cut = text[:limit].rsplit(" ", 1)[0] if " " in text[:limit] else text[:limit]
        text = cut.rstrip(" ,;:.") + "…"
    return f"'{text}'"


def common_hint_text(hint: CommonTextHint, limit: int = 60) -> str:
    """What a folder check says when most of its pairs share one passage most of the class
    holds: "Most pairs share the same passage (in 27 of 30 submissions): 'Discuss the causes
    of…' — probably a prompt everyone pasted." (`limit`: the quotation's length)."""
    passage = hint.passage
    where = f"in {passage.documents:,} of {plural(hint.counted, 'submission')}"
    text = quoted(passage.text, limit) if passage.text else "(its text could not be read again)"
    pairs = "All pairs share" if hint.pairs == hint.flagged else "Most pairs share"
    return f"{pairs} the same passage ({where}): {text} — probably a prompt everyone pasted."

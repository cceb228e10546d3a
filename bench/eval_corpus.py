"""The labelled corpus of the evaluation (docs/evaluation.md): source documents, and suspicious
documents carrying passages copied from them at known character offsets, at four levels of
disguise — verbatim, light, heavy, and none (no copied text).

Everything comes from the Gutenberg novels (bench/corpus.py) and one `random.Random(seed)`, so
the same seed writes the same files byte for byte:

- The novels are normalised (core.documents.normalize) and cut into paragraphs; paragraphs
  with fewer than four words or no lowercase letter (headings, "* * *") are dropped. The novels
  are dealt to two roles: *source* novels and *own-text* novels, so a suspicious document's own text
  never shares names or phrases with the sources.
- A source document is a run of consecutive paragraphs of one source novel, of a length drawn
  from `source_words`; a suspicious document's own text likewise from an own-text novel
  (`own_words`). Runs never overlap, so two documents share text only where it was planted.
- Each suspicious document gets one level (a quarter each). Unless "none", it carries 1–3
  passages of 3–15 consecutive sentences (80–400 words; sentences as a reader sees them,
  `reader_sentences`, not as the engine splits them, so improving the engine's splitter does
  not change the corpus) from one or two source documents, each inserted as its own paragraph
  at a paragraph boundary; for "light" and "heavy" the passage is edited first (`edit_light`,
  `edit_heavy`).
- *Hard negatives*: documents cut from the parts of the source novels no source document
  holds (same names, style and subject as the sources, no copying), of `own_words` words,
  compared with every source and reported on their own (`hard_negatives`).
- Every written text is normalised (`normalize_text(text) == text`, asserted), so the ground
  truth's character offsets index the very string the engine and every method read
  (`Document.text`).

Ground truth goes to `truth.json` beside the texts: every document (name, role, level, split,
novel) and every case (suspicious, source, level, suspicious span, source span). A pair
(suspicious, source) is positive iff it has a case. The suspicious documents are split into a
tuning part and a test part, stratified by level; the sources belong to both.

    python bench/eval_corpus.py [--seed 2026] [--out bench/results/eval-corpus]
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import json
import math
import random
import re
import shutil
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from corpus import ROOT, novels

from core.documents.normalize import normalize_text

LEVELS = ("verbatim", "light", "heavy", "none")
COPY_LEVELS = LEVELS[:3]
DEFAULT_OUT = ROOT / "bench" / "results" / "eval-corpus"
TRUTH = "truth.json"

Span = tuple[int, int]


@dataclass(frozen=True)
class CorpusConfig:
    seed: int = 2026
    # 80 × 320 = 25,600 pairs: about a minute for every method on 2 cores; 100 × 400 would
    # nearly exhaust the own-text novels (the runs of a novel are never reused)
    sources: int = 80
    suspicious: int = 320
    source_words: tuple[int, int] = (1_500, 2_500)
    own_words: tuple[int, int] = (1_000, 2_000)  # a suspicious document's own text
    passages: tuple[int, int] = (1, 3)  # copied passages per suspicious document
    passage_sentences: tuple[int, int] = (3, 15)
    passage_words: tuple[int, int] = (80, 400)
    tuning_share: float = 0.4  # of each level's suspicious documents
    # documents from the parts of the source novels no source holds (test part only)
    hard_negatives: int = 36


@dataclass(frozen=True)
class DocumentTruth:
    name: str
    role: str  # "source", "suspicious" or "hard" (a hard negative)
    level: str | None  # a suspicious document's level; None for sources and hard negatives
    split: str  # "tuning" or "test" for suspicious documents (hard negatives: "test");
    # "shared" for sources
    novel: str
    words: int


@dataclass(frozen=True)
class CaseTruth:
    suspicious: str
    source: str
    level: str
    suspicious_span: Span  # the passage as inserted (edited for light and heavy)
    source_span: Span  # the original passage
    sentences: int  # sentences of the original passage
    words: int  # words of the original passage (str.split)


@dataclass
class Truth:
    config: CorpusConfig
    novels: dict[str, list[str]]  # role -> novel file names
    documents: list[DocumentTruth] = field(default_factory=list)
    cases: list[CaseTruth] = field(default_factory=list)

    def positive_pairs(self) -> set[tuple[str, str]]:
        """(suspicious, source) names of every pair sharing copied text."""
        return {(c.suspicious, c.source) for c in self.cases}

    def to_json(self) -> str:
        data = {
            "config": asdict(self.config),
            "novels": self.novels,
            "documents": [asdict(d) for d in self.documents],
            "cases": [asdict(c) for c in self.cases],
        }
        return json.dumps(data, indent=1, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Truth:
        data = json.loads(text)
        config = CorpusConfig(
            **{k: tuple(v) if isinstance(v, list) else v for k, v in data["config"].items()}
        )
        cases = [
            CaseTruth(
                **{
                    **c,
                    "suspicious_span": tuple(c["suspicious_span"]),
                    "source_span": tuple(c["source_span"]),
                }
            )
            for c in data["cases"]
        ]
        return cls(config, data["novels"], [DocumentTruth(**d) for d in data["documents"]], cases)


def load_truth(folder: Path) -> Truth:
    return Truth.from_json((folder / TRUTH).read_text(encoding="utf-8"))


# --- the novels ----------------------------------------------------------------------------

_START = re.compile(r"^\*\*\* ?START OF (THE|THIS) PROJECT GUTENBERG.*$", re.MULTILINE)
_END = re.compile(r"^\*\*\* ?END OF (THE|THIS) PROJECT GUTENBERG.*$", re.MULTILINE)


def strip_gutenberg(text: str) -> str:
    """The text between Project Gutenberg's START and END lines, if it has them (the shared
    corpus is already stripped; a freshly downloaded file is not)."""
    start = _START.search(text)
    if start:
        text = text[start.end() :]
    end = _END.search(text)
    if end:
        text = text[: end.start()]
    return text


def novel_paragraphs(path: Path) -> list[str]:
    """The novel's paragraphs, normalised, without headings and separators."""
    text = normalize_text(strip_gutenberg(path.read_text(encoding="utf-8")))
    return [
        p
        for p in text.split("\n\n")
        if len(p.split()) >= 4 and any(c.islower() for c in p) and not p.startswith("[")
    ]


def runs(paragraphs: list[str], words: tuple[int, int], rng: random.Random) -> list[list[str]]:
    """The novel cut into consecutive runs of paragraphs, each of a length drawn from `words`
    (a run ends at the first paragraph that reaches it, or before one that would take it past
    the maximum; paragraphs longer than the maximum and the novel's tail are dropped)."""
    out: list[list[str]] = []
    target = rng.randint(*words)
    run: list[str] = []
    count = 0
    for paragraph in paragraphs:
        n = len(paragraph.split())
        if count + n > words[1] and count >= words[0]:
            out.append(run)
            run, count, target = [], 0, rng.randint(*words)
        if n > words[1]:  # a paragraph longer than a whole document: skip it
            continue
        run.append(paragraph)
        count += n
        if count >= target:
            out.append(run)
            run, count, target = [], 0, rng.randint(*words)
    return out


def deal_novels(
    paths: Sequence[Path], need: dict[str, int], rng: random.Random
) -> dict[str, list[Path]]:
    """The novels shuffled, then each given to the role whose words so far fall shortest of
    the words it needs."""
    order = sorted(paths)
    rng.shuffle(order)
    dealt: dict[str, list[Path]] = {role: [] for role in need}
    have = dict.fromkeys(need, 0)
    for path in order:
        role = min(need, key=lambda r: (have[r] / need[r], r))
        dealt[role].append(path)
        have[role] += len(path.read_text(encoding="utf-8").split())
    return dealt


Pools = list[tuple[str, list[list[str]]]]  # per novel: its name and its runs not yet taken


def draw_runs(
    paths: list[Path],
    count: int,
    words: tuple[int, int],
    rng: random.Random,
    leftover: Pools | None = None,
) -> list[tuple[str, list[str]]]:
    """`count` disjoint runs, taken from the novels in turn (each novel's runs shuffled). The
    runs not taken are appended to `leftover`, per novel."""
    pools: Pools = []
    for path in paths:
        pool = runs(novel_paragraphs(path), words, rng)
        rng.shuffle(pool)
        pools.append((path.name, pool))
    if leftover is not None:
        leftover.extend(pools)
    return take_runs(pools, count, words)


def take_runs(pools: Pools, count: int, words: tuple[int, int]) -> list[tuple[str, list[str]]]:
    """`count` runs popped from the pools, one novel after the other in turn."""
    out: list[tuple[str, list[str]]] = []
    for name, pool in itertools.cycle(pools):
        if len(out) == count:
            break
        if not any(p for _, p in pools):
            raise ValueError(
                f"the novels hold only {len(out)} runs of {words[0]}-{words[1]} words; "
                f"{count} are needed (ask for fewer documents)"
            )
        if pool:
            out.append((name, pool.pop()))
    return out


# --- vocabulary and edits ------------------------------------------------------------------

_LOWER_WORD = re.compile(r"(?<![\w'-])[a-z]+(?![\w'-])")
_ITEM = re.compile(r"^([^A-Za-z0-9]*)(.*?)([^A-Za-z0-9]*)$", re.DOTALL)


class Vocabulary:
    """The corpus's lowercase words with their counts: what a replaced or inserted word is
    drawn from (no synonym dictionary is available offline)."""

    def __init__(self, texts: Sequence[str]) -> None:
        counts: Counter[str] = Counter()
        for text in texts:
            counts.update(_LOWER_WORD.findall(text))
        self.counts = {w: c for w, c in counts.items() if c >= 2}
        self.words = sorted(self.counts)
        self.cumulative = list(itertools.accumulate(self.counts[w] for w in self.words))
        self.buckets: dict[tuple[int, int], list[str]] = {}
        for word in self.words:
            self.buckets.setdefault(self.key(word), []).append(word)

    def key(self, word: str) -> tuple[int, int]:
        """(length, ⌊log₂ count⌋): words alike in length and frequency."""
        return len(word), int(math.log2(max(self.counts.get(word, 1), 1)))

    def similar(self, word: str, rng: random.Random) -> str:
        """Another word of the same length and frequency band (length ±1, ±2 if none)."""
        length, band = self.key(word.lower())
        for spread in (0, 1, 2):
            candidates = [
                w
                for size in range(length - spread, length + spread + 1)
                for w in self.buckets.get((size, band), ())
                if w != word.lower()
            ]
            if candidates:
                return rng.choice(candidates)
        return rng.choice(self.words)

    def frequent(self, rng: random.Random) -> str:
        """A word drawn with the corpus's frequencies (mostly short function words)."""
        at = rng.random() * self.cumulative[-1]
        return self.words[bisect.bisect_right(self.cumulative, at)]


Item = list[str]  # [leading punctuation, word, trailing punctuation]


def items_of(sentence: str) -> list[Item]:
    out = []
    for token in sentence.split(" "):
        match = _ITEM.match(token)
        assert match is not None
        out.append([match.group(1), match.group(2), match.group(3)])
    return out


def text_of(items: list[Item]) -> str:
    return " ".join("".join(item) for item in items)


def _plain(item: Item) -> bool:
    return item[1].isalpha() and item[1].isascii()


def _cased_like(word: str, model: str) -> str:
    if len(model) > 1 and model.isupper():
        return word.upper()
    return word.capitalize() if model[:1].isupper() else word


def word_operation(items: list[Item], vocabulary: Vocabulary, rng: random.Random) -> str | None:
    """One of: replace a word by a similar one, insert a frequent word, delete a word. Returns
    the operation done (None if none applies). The first word is never deleted and nothing is
    inserted before it, and punctuation stays where it was, so the sentence still starts with
    a capital and ends with its stop."""
    kinds = ["replace", "insert", "delete"]
    rng.shuffle(kinds)
    n = len(items)
    for kind in kinds:
        if kind == "replace":
            at = [i for i, item in enumerate(items) if _plain(item)]
            if at:
                i = rng.choice(at)
                items[i][1] = _cased_like(vocabulary.similar(items[i][1], rng), items[i][1])
                return kind
        elif kind == "insert" and n >= 2:
            items.insert(rng.randrange(1, n), ["", vocabulary.frequent(rng), ""])
            return kind
        elif kind == "delete" and n >= 4:
            at = [i for i in range(1, n - 1) if _plain(items[i]) and not items[i][0] + items[i][2]]
            if at:
                del items[rng.choice(at)]
                return kind
    return None


def punctuation_operation(items: list[Item], rng: random.Random) -> str | None:
    """One of: add a comma after a word, remove a comma, turn ';' into ',' or ',' into ';'."""
    n = len(items)
    options = {
        "add comma": [
            i for i in range(n - 2) if _plain(items[i]) and not items[i][2] and not items[i + 1][0]
        ],
        "remove comma": [i for i in range(n - 1) if items[i][2] == ","],
        "swap , ;": [i for i in range(n - 1) if items[i][2] in (",", ";")],
    }
    kinds = [k for k, at in options.items() if at]
    if not kinds:
        return None
    kind = rng.choice(kinds)
    i = rng.choice(options[kind])
    if kind == "add comma":
        items[i][2] = ","
    elif kind == "remove comma":
        items[i][2] = ""
    else:
        items[i][2] = ";" if items[i][2] == "," else ","
    return kind


def edit_words(
    sentence: str, operations: tuple[int, int], vocabulary: Vocabulary, rng: random.Random
) -> list[Item]:
    """The sentence after a number of word operations drawn from `operations`, then, with
    probability 1/2, one punctuation operation."""
    items = items_of(sentence)
    for _ in range(rng.randint(*operations)):
        word_operation(items, vocabulary, rng)
    if rng.random() < 0.5:
        punctuation_operation(items, rng)
    return items


def edit_light(
    sentences: list[str], separators: list[str], vocabulary: Vocabulary, rng: random.Random
) -> tuple[str, int]:
    """Light: every sentence gets 1–3 word operations and, half the time, a punctuation
    change; order and paragraph breaks are kept. Returns the text and its sentence count."""
    edited = [text_of(edit_words(s, (1, 3), vocabulary, rng)) for s in sentences]
    text = edited[0] + "".join(sep + s for sep, s in zip(separators, edited[1:], strict=True))
    return text, len(edited)


def split_at_comma(items: list[Item], rng: random.Random) -> list[list[Item]]:
    """A long sentence cut in two at an inner comma (',' becomes '.', the next word takes a
    capital); both halves keep at least 4 and 3 words. Unchanged if no comma qualifies."""
    at = [
        i
        for i in range(3, len(items) - 3)
        if items[i][2] == ","
        and items[i][1].isalpha()
        and items[i][1].islower()
        and len(items[i][1]) >= 2
        and not items[i + 1][0]
        and _plain(items[i + 1])
    ]
    if not at:
        return [items]
    i = rng.choice(at)
    first, second = items[: i + 1], items[i + 1 :]
    first[-1][2] = "."
    second[0][1] = second[0][1][:1].upper() + second[0][1][1:]
    return [first, second]


def merge(a: list[Item], b: list[Item], vocabulary: Vocabulary, rng: random.Random) -> list[Item]:
    """Two sentences joined by ', and' or ';' (a's full stop goes, b's first word loses its
    capital unless it is 'I' or never written in lowercase in the corpus)."""
    a[-1][2] = a[-1][2][:-1]
    first = b[0][1]
    if first != "I" and first.lower() in vocabulary.counts:
        b[0][1] = first.lower()
    if rng.random() < 0.5:
        a[-1][2] += ","
        return [*a, ["", "and", ""], *b]
    a[-1][2] += ";"
    return [*a, *b]


def _mergeable(a: list[Item], b: list[Item]) -> bool:
    return a[-1][2].endswith(".") and not a[-1][2].endswith("..") and not b[0][0]


def edit_heavy(sentences: list[str], vocabulary: Vocabulary, rng: random.Random) -> tuple[str, int]:
    """Heavy: every sentence gets 3–6 word operations and, half the time, a punctuation change;
    then each sentence with an inner comma is split there with probability 1/2; then each
    adjacent pair (a sentence ending in '.', the next not starting with punctuation) is merged
    with probability 1/3; then the sentences are shuffled, and the passage becomes one
    paragraph. Returns the text and its sentence count."""
    edited = [edit_words(s, (3, 6), vocabulary, rng) for s in sentences]
    pieces: list[list[Item]] = []
    for items in edited:
        pieces.extend(split_at_comma(items, rng) if rng.random() < 0.5 else [items])
    merged: list[list[Item]] = []
    i = 0
    while i < len(pieces):
        if i + 1 < len(pieces) and _mergeable(pieces[i], pieces[i + 1]) and rng.random() < 1 / 3:
            merged.append(merge(pieces[i], pieces[i + 1], vocabulary, rng))
            i += 2
        else:
            merged.append(pieces[i])
            i += 1
    rng.shuffle(merged)
    return " ".join(text_of(items) for items in merged), len(merged)


# --- passages ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Passage:
    source: str
    span: Span  # in the source text
    sentences: list[str]
    separators: list[str]  # between consecutive sentences: " " or "\n\n"


#: words a full stop follows without ending the sentence (compared case-folded)
ABBREVIATIONS = frozenset(
    {
        "mr",
        "mrs",
        "ms",
        "messrs",
        "mme",
        "mlle",
        "dr",
        "st",
        "jr",
        "sr",
        "rev",
        "prof",
        "capt",
        "col",
        "gen",
        "lt",
        "sgt",
        "hon",
        "esq",
    }
)
_CLOSING = "\"')]_"
_OPENING = "\"'([_"
# a stop (. ! ? or a run of them), closing quotes or brackets, then whitespace and a capital
# letter, possibly behind opening quotes or brackets
_SENTENCE_END = re.compile(rf"[.!?]+[{re.escape(_CLOSING)}]*(?=\s+[{re.escape(_OPENING)}]*[A-Z])")
_WORD_BEFORE = re.compile(r"([A-Za-z]+)$")


def reader_sentences(text: str) -> list[Span]:
    """The sentences of `text` as a reader sees them, as [start, end) spans: a sentence ends
    at a paragraph end, or at . ! or ? (possibly several, possibly followed by closing quotes
    or brackets) followed by whitespace and a capital letter (possibly behind opening quotes
    or brackets) — but not at a full stop after a common abbreviation (Mr., Mrs., Dr., St. …,
    `ABBREVIATIONS`) or after a single capital letter other than "I" (an initial). Independent
    of the engine's sentence splitter on purpose: the corpus must not change when it does."""
    spans: list[Span] = []
    for paragraph in re.finditer(r"[^\n]+(?:\n(?!\n)[^\n]*)*", text):
        start = paragraph.start()
        while start < paragraph.end() and text[start].isspace():
            start += 1
        for end in _SENTENCE_END.finditer(text, start, paragraph.end()):
            stop = end.group()
            if stop.startswith(".") and stop.rstrip(_CLOSING) == ".":
                before = _WORD_BEFORE.search(text, start, end.start())
                word = before.group(1) if before else ""
                if word.casefold() in ABBREVIATIONS or (
                    len(word) == 1 and word.isupper() and word != "I"
                ):
                    continue
            if end.start() <= start:
                continue
            spans.append((start, end.end()))
            start = end.end()
            while start < paragraph.end() and text[start].isspace():
                start += 1
        stop_at = paragraph.end()
        while stop_at > start and text[stop_at - 1].isspace():
            stop_at -= 1
        if stop_at > start:
            spans.append((start, stop_at))
    return spans


def sentence_spans(text: str) -> list[Span]:
    """The sentences the corpus cuts and counts passages in: `reader_sentences`."""
    return reader_sentences(text)


def draw_passage(
    name: str,
    text: str,
    spans: list[Span],
    config: CorpusConfig,
    taken: list[Span],
    rng: random.Random,
) -> Passage | None:
    """A run of consecutive sentences of the source, of the configured size, not overlapping
    `taken`, with only whitespace between its sentences (no "* * *" inside)."""
    for _ in range(500):
        count = rng.randint(*config.passage_sentences)
        if count > len(spans):
            continue
        first = rng.randrange(len(spans) - count + 1)
        chosen = spans[first : first + count]
        span = (chosen[0][0], chosen[-1][1])
        words = len(text[span[0] : span[1]].split())
        if not config.passage_words[0] <= words <= config.passage_words[1]:
            continue
        if any(span[0] < b and a < span[1] for a, b in taken):
            continue
        separators = [text[a[1] : b[0]] for a, b in itertools.pairwise(chosen)]
        if any(sep not in (" ", "\n\n") for sep in separators):
            continue
        return Passage(name, span, [text[a:b] for a, b in chosen], separators)
    return None


def disguise(passage: Passage, level: str, vocabulary: Vocabulary, rng: random.Random) -> str:
    """The passage as a suspicious document carries it. For light and heavy, edits are drawn
    again (up to 10 times) until `reader_sentences` finds as many sentences as were meant, so
    a sentence end an edit made implausible does not stay."""
    original = passage.sentences[0] + "".join(
        sep + s for sep, s in zip(passage.separators, passage.sentences[1:], strict=True)
    )
    if level == "verbatim":
        return original
    text = original
    for _ in range(10):
        if level == "light":
            text, meant = edit_light(passage.sentences, passage.separators, vocabulary, rng)
        else:
            text, meant = edit_heavy(passage.sentences, vocabulary, rng)
        if text != original and len(sentence_spans(text)) == meant:
            break
    return text


# --- the corpus ----------------------------------------------------------------------------


def generate(paths: Sequence[Path], out: Path, config: CorpusConfig | None = None) -> Truth:
    """Write the corpus into `out` (emptied first) from the novels at `paths`."""
    config = config or CorpusConfig()
    rng = random.Random(config.seed)
    mean = (
        config.sources * sum(config.source_words) / 2,
        config.suspicious * sum(config.own_words) / 2,
    )
    dealt = deal_novels(paths, {"source": int(mean[0]), "own": int(mean[1])}, rng)
    truth = Truth(config, {role: [p.name for p in ps] for role, ps in dealt.items()})
    vocabulary = Vocabulary([p.read_text(encoding="utf-8") for p in sorted(paths)])

    texts: dict[str, str] = {}
    source_spans: dict[str, list[Span]] = {}
    source_names = []
    unused: Pools = []  # the runs of the source novels no source document holds
    for k, (novel, paragraphs) in enumerate(
        draw_runs(dealt["source"], config.sources, config.source_words, rng, unused)
    ):
        name = f"src{k:03d}.txt"
        texts[name] = "\n\n".join(paragraphs)
        source_spans[name] = sentence_spans(texts[name])
        source_names.append(name)
        truth.documents.append(
            DocumentTruth(name, "source", None, "shared", novel, len(texts[name].split()))
        )

    levels = [LEVELS[k % len(LEVELS)] for k in range(config.suspicious)]
    rng.shuffle(levels)
    own = draw_runs(dealt["own"], config.suspicious, config.own_words, rng)
    suspicious: list[tuple[str, str, str]] = []  # name, level, novel
    for k, ((novel, paragraphs), level) in enumerate(zip(own, levels, strict=True)):
        name = f"susp{k:03d}.txt"
        parts: list[str | tuple[Passage, str]] = list(paragraphs)
        if level != "none":
            count = rng.randint(*config.passages)
            donors = rng.sample(source_names, min(2 if count > 1 else 1, len(source_names)))
            taken: dict[str, list[Span]] = {}
            chosen = []
            for p in range(count):
                donor = donors[p % len(donors)]
                passage = draw_passage(
                    donor,
                    texts[donor],
                    source_spans[donor],
                    config,
                    taken.setdefault(donor, []),
                    rng,
                )
                if passage is None:
                    continue
                taken[donor].append(passage.span)
                chosen.append((passage, disguise(passage, level, vocabulary, rng)))
            slots = sorted(rng.sample(range(len(parts) + 1), len(chosen)), reverse=True)
            for slot, piece in zip(slots, reversed(chosen), strict=True):
                parts.insert(slot, piece)
        pieces = []
        position = 0
        for part in parts:
            piece = part if isinstance(part, str) else part[1]
            if not isinstance(part, str):
                passage = part[0]
                truth.cases.append(
                    CaseTruth(
                        name,
                        passage.source,
                        level,
                        (position, position + len(piece)),
                        passage.span,
                        len(passage.sentences),
                        sum(len(s.split()) for s in passage.sentences),
                    )
                )
            pieces.append(piece)
            position += len(piece) + 2
        texts[name] = "\n\n".join(pieces)
        suspicious.append((name, level, novel))

    tuning: set[str] = set()
    for level in LEVELS:
        names = sorted(n for n, lv, _ in suspicious if lv == level)
        rng.shuffle(names)
        tuning.update(names[: round(config.tuning_share * len(names))])
    for name, level, novel in suspicious:
        split = "tuning" if name in tuning else "test"
        truth.documents.append(
            DocumentTruth(name, "suspicious", level, split, novel, len(texts[name].split()))
        )

    for k, (novel, paragraphs) in enumerate(hard_negatives(unused, config, rng)):
        name = f"hard{k:03d}.txt"
        texts[name] = "\n\n".join(paragraphs)
        truth.documents.append(
            DocumentTruth(name, "hard", None, "test", novel, len(texts[name].split()))
        )

    check(truth, texts)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name, text in texts.items():
        (out / name).write_text(text, encoding="utf-8")
    (out / TRUTH).write_text(truth.to_json(), encoding="utf-8")
    return truth


def hard_negatives(
    unused: Pools, config: CorpusConfig, rng: random.Random
) -> list[tuple[str, list[str]]]:
    """Hard negatives: up to `config.hard_negatives` runs of the source novels that no source
    document holds, taken from the novels in turn, each cut to a length drawn from
    `own_words` (its first paragraphs, up to the first that reaches the drawn length, or before
    one that would pass the maximum). The runs are disjoint from every source's, so a hard
    negative shares the sources' names, style and subject, but no text."""
    available = sum(len(pool) for _, pool in unused)
    out = []
    for novel, paragraphs in take_runs(
        unused, min(config.hard_negatives, available), config.source_words
    ):
        target = rng.randint(*config.own_words)
        kept: list[str] = []
        count = 0
        for paragraph in paragraphs:
            n = len(paragraph.split())
            if count + n > config.own_words[1] and count >= config.own_words[0]:
                break
            kept.append(paragraph)
            count += n
            if count >= target:
                break
        out.append((novel, kept))
    return out


def check(truth: Truth, texts: dict[str, str]) -> None:
    """What the ground truth promises, asserted before anything is written."""
    for name, text in texts.items():
        assert normalize_text(text) == text, f"{name} is not normalised"
    for case in truth.cases:
        copy = texts[case.suspicious][slice(*case.suspicious_span)]
        original = texts[case.source][slice(*case.source_span)]
        assert copy and original
        assert (copy == original) == (case.level == "verbatim"), case


def read_texts(folder: Path) -> dict[str, str]:
    """The corpus's texts by file name (as written: already normalised)."""
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.txt"))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=CorpusConfig.seed)
    parser.add_argument("--sources", type=int, default=CorpusConfig.sources)
    parser.add_argument("--suspicious", type=int, default=CorpusConfig.suspicious)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    paths = novels()
    if not paths:
        print("corpus not found (../shared/corpus/gutenberg or $DOPPEL_CORPUS): skipped")
        return
    config = CorpusConfig(seed=args.seed, sources=args.sources, suspicious=args.suspicious)
    truth = generate(paths, args.out, config)
    print(
        f"{len(truth.documents)} documents, {len(truth.cases)} cases, "
        f"{len(truth.positive_pairs())} positive pairs in {args.out}"
    )


if __name__ == "__main__":
    main()

"""Builds an archive of earlier years' essays and a term of new essays with copies planted
across years, from the Gutenberg novels, so an archive check's ground truth is exact at any
archive size (bench/bench_archive.py; docs/benchmarks.md, "Archive").

    python bench/make_archive.py ARCHIVED FOLDER [--new 100] [--words 1000] [--seed 1]
    # writes FOLDER/archive/2019/a000007.txt … (the year is 2019 + index % 7),
    # FOLDER/new/n0000.txt …, and FOLDER/truth.json

Why not bench/make_collection.py's essays: with the reworded-passage detector on, one novel
sentence drawn into two essays is a passage of its own (one aligned sentence pair sharing at
least 7 stems), and the novels hold about 26,000 usable sentences, so at 1,000 essays every
sentence is drawn twice on average and chance pairs are everywhere. The serial word in front of
each sentence stops SL+ST's keys from matching, not the detector's stems.

What is exact here, and why. An archive check compares the new essays with the archive and with
each other, never archived essays with each other. So:

- The archived essays draw their sentences from the whole corpus with repetition (realistic
  vocabulary and posting lists; two archived essays may well share a sentence, which no check
  looks at).
- The new essays, and the passages planted in archived essays for new ones to copy, are built
  from *reserved* sentences, each used once in the whole collection and kept out of the
  archive's draw, chosen so that each shares at most 4 distinct stems with every other
  sentence of the corpus (MAX_SHARED). Every reworded passage holds a strong seed, a sentence
  pair sharing at least 5 stems (`RewordSettings.strong_shared`), and a verified block needs
  equal sentence keys, which the serial words make unique: so a new essay can only pair with
  the essays it was made to copy from, or that copy from it. The edits below only drop words,
  add stop words, change serial words and swap sentences, which keeps that true.

Planted copies (each archived source is copied by one new essay; the sources are spread
log-uniformly over the archive's order, so every prefix of it holds some and the same new
essays serve every archive size):

- across years: COPY_SHARE of the new essays copy a passage of 4-10 sentences from one
  archived essay, TWO_SOURCES of them from two (different years); the kinds take turns:
  `verbatim`, `edited` (every third sentence loses a word: SL+ST's blocks between) and
  `reworded` (every sentence a new serial word, a word dropped, a stop word added, two
  sentences swapped: only the reworded-passage detector finds it);
- this term: TERM_SHARE of the new essays in pairs, one copying the other;
- within the archive: WITHIN_SHARE of the archived essays in pairs across years (never
  reported by a check: archived essays are not compared with each other).

The new essay `one` (n0000) copies from two archived essays among the first 1,000 (different
years, verbatim and reworded), so its check finds the same two pairs at every archive size.

Essays are about ESSAY_WORDS = 1,000 words (a school or first-year essay; two thirds of
make_collection's 1,500, which makes a 100,000-essay archive quicker to build and add)."""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import math
import os
import random
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from make_collection import corpus_sentences

from core.detection.reworded import DEFAULT_SETTINGS, document_profile
from core.documents.document import document_from_text
from core.options import SignatureOptions

YEARS = tuple(range(2019, 2026))
ESSAY_WORDS = 1_000
NEW_ESSAYS = 100
COPY_SHARE = 0.4  # of the new essays copy from the archive
TWO_SOURCES = 0.1  # of the new essays copy from two archived essays
TERM_SHARE = 0.1  # of the new essays are in pairs copying each other
WITHIN_SHARE = 0.01  # of the archived essays are in pairs copying each other
PASSAGE = (4, 10)  # sentences in a planted passage
KINDS = ("verbatim", "edited", "reworded")
#: stems a reserved sentence may share with any other sentence: below a strong seed
MAX_SHARED = DEFAULT_SETTINGS.strong_shared - 1
#: stems a planted passage's sentences hold (so a reworded copy keeps seeds after its edits)
RICH_STEMS = 6
#: the first archived essays the sources of the essay `one` lie in (the smallest size)
ONE_WITHIN = 1_000
#: serial words: archived essay k's sentence p is S{k * 1000 + p}; new essays' from NEW_BASE;
#: sentences rewritten by a reworded copy from REWORDED_BASE
NEW_BASE = 900_000_000
REWORDED_BASE = 950_000_000
#: stop words a reworded copy adds (Doppel's English stop list: they add no stems)
FILLERS = ("then", "so", "just", "very", "too", "now", "only", "again")
ONE = "n0000.txt"


@dataclass(frozen=True, slots=True)
class Corpus:
    """The novels' sentences (make_collection's), which of them Doppel reads as one sentence
    behind a serial word, and which of those share at most MAX_SHARED stems with every other
    (`lone`), with how many stems each holds."""

    sentences: tuple[str, ...]
    readable: tuple[int, ...]
    lone: tuple[int, ...]
    sizes: dict[int, int]


@functools.cache
def load_corpus() -> Corpus:
    sentences = corpus_sentences()
    stems = sentence_stems(sentences)
    most = most_shared(stems)
    readable = tuple(k for k, s in enumerate(stems) if s is not None)
    return Corpus(
        sentences=tuple(sentences),
        readable=readable,
        lone=tuple(k for k in readable if most[k] <= MAX_SHARED),
        sizes={k: len(s) for k, s in enumerate(stems) if s is not None},
    )


def sentence_stems(sentences: Sequence[str]) -> list[frozenset[str] | None]:
    """Each sentence's stems as the detector reads them when it opens with a serial word
    (without that word); None when Doppel would not read it as exactly one sentence."""
    lines = [f"S{k} {s}" for k, s in enumerate(sentences)]
    text = "\n\n".join(lines)
    doc = document_from_text(text, "pool.txt", SignatureOptions(language="en"))
    if doc.text != text:
        raise ValueError("the corpus sentences are not normalised text")
    starts: dict[int, int] = {}
    offset = 0
    for k, line in enumerate(lines):
        starts[offset] = k
        offset += len(line) + 2
    profile = document_profile(doc)
    by_index = dict(zip(profile.sentence_indices, profile.stems, strict=True))
    stems: list[frozenset[str] | None] = [None] * len(sentences)
    for number, sentence in enumerate(doc.sentences):
        owner = starts.get(sentence.start)
        if owner is not None and text[sentence.start : sentence.end].strip() == lines[owner]:
            serial = f"s{owner}"
            stems[owner] = frozenset(w for w in by_index.get(number, ()) if w != serial)
    return stems


def most_shared(stems: Sequence[frozenset[str] | None]) -> list[int]:
    """For each sentence, the most distinct stems it shares with any other one."""
    postings: dict[str, list[int]] = defaultdict(list)
    for k, s in enumerate(stems):
        for w in s or ():
            postings[w].append(k)
    most = [0] * len(stems)
    for k, s in enumerate(stems):
        counts: Counter[int] = Counter()
        for w in s or ():
            counts.update(postings[w])
        counts.pop(k, None)
        most[k] = max(counts.values(), default=0)
    return most


def essay_body(draw: Iterator[str], serial: int, words: int) -> list[str]:
    """Sentences drawn until the essay has `words` words, the p-th with serial `serial + p`."""
    body: list[str] = []
    count = 0
    while count < words:
        sentence = f"S{serial + len(body)} {next(draw)}"
        body.append(sentence)
        count += len(sentence.split())
    return body


def edited(passage: Sequence[str], rng: random.Random) -> list[str]:
    """Every third sentence (from the second) loses a word inside it: SL+ST still finds the
    unchanged sentences between."""
    out = list(passage)
    for p in range(1, len(out), 3):
        words = out[p].split()
        if len(words) > 4:
            del words[rng.randrange(2, len(words) - 1)]
            out[p] = " ".join(words)
    return out


def reworded(passage: Sequence[str], rng: random.Random, serials: Iterator[int]) -> list[str]:
    """Each sentence with a new serial word (no key matches: SL+ST finds nothing), a word
    dropped and a stop word added; two neighbours swapped."""
    out = []
    for sentence in passage:
        words = sentence.split()[1:]
        if len(words) > 4:
            del words[rng.randrange(1, len(words) - 1)]
        words.insert(rng.randrange(1, len(words)), rng.choice(FILLERS))
        out.append(" ".join([f"S{next(serials)}", *words]))
    if len(out) > 2:
        k = rng.randrange(1, len(out) - 1)
        out[k], out[k + 1] = out[k + 1], out[k]
    return out


@dataclass
class Plan:
    """Where each planted passage goes: essay name -> [(position, sentences)]."""

    overrides: dict[str, list[tuple[int, list[str]]]] = field(
        default_factory=lambda: defaultdict(list)
    )

    def put(self, name: str, at: int, sentences: list[str]) -> None:
        self.overrides[name].append((at, sentences))

    def apply(self, name: str, body: list[str]) -> list[str]:
        for at, sentences in self.overrides.get(name, ()):
            body[at : at + len(sentences)] = sentences
        return body


def archived_name(k: int) -> str:
    return f"a{k:06d}.txt"


def new_name(m: int) -> str:
    return f"n{m:04d}.txt"


def year_of(k: int) -> int:
    return YEARS[k % len(YEARS)]


def archived_path(k: int) -> Path:
    return Path(str(year_of(k))) / archived_name(k)


class Collection:
    """The essays of one collection, each regenerable alone (archived essay k from its own
    random stream), so 100,000 of them are written one at a time."""

    def __init__(self, archived: int, new: int, seed: int, words: int) -> None:
        self.archived, self.new, self.seed, self.words = archived, new, seed, words
        self.rng = random.Random(seed)
        corpus = load_corpus()
        lone = list(corpus.lone)
        self.rng.shuffle(lone)
        passages = (new + 2) * PASSAGE[1]  # at most one source passage per new essay, two more
        rich = [k for k in lone if corpus.sizes[k] >= RICH_STEMS][:passages]
        chosen = set(rich)
        plain = [k for k in lone if k not in chosen]
        draw = iter(corpus.sentences[k] for k in plain)
        try:
            self.new_bodies = [essay_body(draw, NEW_BASE + m * 1_000, words) for m in range(new)]
        except StopIteration:
            raise ValueError(
                f"the corpus has {len(lone)} sentences sharing at most {MAX_SHARED} stems with "
                f"any other: too few for {new} new essays of {words} words"
            ) from None
        if len(rich) < passages:
            raise ValueError(f"{len(rich)} rich sentences for {passages}: fewer new essays")
        used = sum(len(body) for body in self.new_bodies)
        chosen.update(plain[:used])
        self.archive_pool = tuple(corpus.sentences[k] for k in corpus.readable if k not in chosen)
        self.rich = iter(corpus.sentences[k] for k in rich)
        self.serials = iter(range(REWORDED_BASE, REWORDED_BASE + 10_000_000))
        self.plan = Plan()

    def archived_body(self, k: int) -> list[str]:
        rng = random.Random(f"{self.seed}/{k}")
        draw = iter(lambda: rng.choice(self.archive_pool), None)
        return essay_body(draw, k * 1_000, self.words)

    def archived_essay(self, k: int) -> list[str]:
        return self.plan.apply(archived_name(k), self.archived_body(k))

    def new_essay(self, m: int) -> list[str]:
        return self.plan.apply(new_name(m), list(self.new_bodies[m]))

    def variant(self, passage: list[str], kind: str) -> list[str]:
        if kind == "edited":
            return edited(passage, self.rng)
        if kind == "reworded":
            return reworded(passage, self.rng, self.serials)
        return list(passage)

    def plant_source(self, name: str, body_length: int, length: int, serial: int) -> list[str]:
        """A passage of reserved rich sentences planted in `name` (its own serial words)."""
        at = self.rng.randrange(body_length - length)
        passage = [f"S{serial + at + p} {next(self.rich)}" for p in range(length)]
        self.plan.put(name, at, passage)
        return passage

    def plant_copy(self, name: str, body_length: int, half: int, passage: list[str]) -> None:
        """`passage` into `name`, in its first half (half 0), its second (1), or anywhere."""
        length = len(passage)
        low, high = 0, body_length - length
        if half == 0:
            high = max(1, body_length // 2 - length)
        elif half == 1:
            low = body_length // 2
        self.plan.put(name, self.rng.randrange(low, max(low + 1, high)), passage)


def _spread(rng: random.Random, count: int, taken: set[int]) -> int:
    """An archived essay not yet taken, log-uniformly over the archive's order from the 100th
    (so 1,000 to 10,000 holds as many sources as 10,000 to 100,000: every size has its share)."""
    for _ in range(10_000):
        if count <= 100:
            k = rng.randrange(count)
        else:
            k = min(count - 1, int(math.exp(rng.uniform(math.log(100), math.log(count)))))
        if k not in taken:
            taken.add(k)
            return k
    raise ValueError("no archived essay left to copy from")


def build(
    archived: int,
    folder: Path,
    new: int = NEW_ESSAYS,
    seed: int = 1,
    words: int = ESSAY_WORDS,
) -> dict[str, object]:
    """Writes the collection into `folder` and returns its ground truth (also truth.json)."""
    if archived < 4 or new < 2:
        raise ValueError("at least 4 archived essays and 2 new ones")
    c = Collection(archived, new, seed, words)
    rng = c.rng
    taken: set[int] = set()
    copies: list[dict[str, object]] = []
    turn = iter(range(1_000_000))

    def copy_from(k: int, m: int, half: int, kind: str | None = None) -> None:
        kind = kind or KINDS[next(turn) % len(KINDS)]
        body = c.archived_body(k)
        length = rng.randint(*PASSAGE)
        passage = c.plant_source(archived_name(k), len(body), length, k * 1_000)
        c.plant_copy(new_name(m), len(c.new_bodies[m]), half, c.variant(passage, kind))
        copies.append(
            {
                "new": new_name(m),
                "archived": archived_name(k),
                "index": k,
                "year": year_of(k),
                "kind": kind,
                "sentences": length,
            }
        )

    # the essay `one`: two sources among the first ONE_WITHIN, in different years
    first = rng.randrange(min(archived, ONE_WITHIN))
    second = first
    while second == first or (year_of(second) == year_of(first) and archived > len(YEARS)):
        second = rng.randrange(min(archived, ONE_WITHIN))
    taken.update((first, second))
    copy_from(first, 0, 0, "verbatim")
    copy_from(second, 0, 1, "reworded")
    others = list(range(1, new))
    rng.shuffle(others)
    copying = others[: round(COPY_SHARE * new)]
    two = set(copying[: round(TWO_SOURCES * new)])
    for m in copying:
        if m in two:
            copy_from(_spread(rng, archived, taken), m, 0)
            copy_from(_spread(rng, archived, taken), m, 1)
        else:
            copy_from(_spread(rng, archived, taken), m, -1)
    term: list[dict[str, object]] = []
    rest = others[len(copying) :]
    for k in range(0, max(2, round(TERM_SHARE * new)) - 1, 2):
        if k + 1 >= len(rest):
            break
        a, b = rest[k], rest[k + 1]
        kind = KINDS[next(turn) % len(KINDS)]
        length = rng.randint(*PASSAGE)
        passage = c.plant_source(new_name(a), len(c.new_bodies[a]), length, NEW_BASE + a * 1_000)
        c.plant_copy(new_name(b), len(c.new_bodies[b]), -1, c.variant(passage, kind))
        term.append({"a": new_name(a), "b": new_name(b), "kind": kind, "sentences": length})
    within: list[dict[str, object]] = []
    free = [k for k in range(archived) if k not in taken]
    rng.shuffle(free)
    for p in range(max(1, round(WITHIN_SHARE * archived / 2))):
        if 2 * p + 1 >= len(free):
            break
        source, copy = free[2 * p], free[2 * p + 1]
        kind = KINDS[p % 2]  # verbatim, edited: nothing here needs the reserved sentences
        body = c.archived_body(source)
        length = rng.randint(*PASSAGE)
        at = rng.randrange(len(body) - length)
        passage = c.variant(body[at : at + length], kind)
        c.plant_copy(archived_name(copy), len(c.archived_body(copy)), -1, passage)
        within.append(
            {
                "source": archived_name(source),
                "copy": archived_name(copy),
                "kind": kind,
                "sentences": length,
            }
        )
    for k in range(archived):
        write_essay(folder / "archive" / archived_path(k), c.archived_essay(k), year_of(k))
    for m in range(new):
        write_essay(folder / "new" / new_name(m), c.new_essay(m))
    truth: dict[str, object] = {
        "archived": archived,
        "new": new,
        "seed": seed,
        "words": words,
        "one": ONE,
        "copies": copies,
        "term": term,
        "within_archive": within,
    }
    (folder / "truth.json").write_text(json.dumps(truth, indent=1), encoding="utf-8")
    return truth


def write_essay(path: Path, sentences: Sequence[str], year: int | None = None) -> None:
    """Paragraphs of six sentences; dated in June of `year` when given (the archive says
    which years it holds from its files' dates)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    paragraphs = [" ".join(sentences[p : p + 6]) for p in range(0, len(sentences), 6)]
    path.write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")
    if year is not None:
        stamp = datetime.datetime(year, 6, 15, 12).timestamp()
        os.utime(path, (stamp, stamp))


def expected_pairs(
    truth: dict[str, object], size: int, new: set[str] | None = None
) -> set[frozenset[str]]:
    """The pairs (file names) a check of the `new` essays (all when None) against the first
    `size` archived essays must find: the copies of those essays, and the term's copies."""

    def wanted(name: object) -> bool:
        return new is None or name in new

    copies: list[dict[str, object]] = truth["copies"]  # type: ignore[assignment]
    term: list[dict[str, object]] = truth["term"]  # type: ignore[assignment]
    pairs = {
        frozenset((str(c["new"]), str(c["archived"])))
        for c in copies
        if int(c["index"]) < size and wanted(c["new"])  # type: ignore[call-overload]
    }
    pairs |= {
        frozenset((str(t["a"]), str(t["b"]))) for t in term if wanted(t["a"]) and wanted(t["b"])
    }
    return pairs


def archive_tree(folder: Path, size: int) -> Path:
    """A folder holding the first `size` archived essays of the collection in `folder` (by
    year), as hard links beside the full archive (made once; the full archive itself when
    `size` is all of it)."""
    truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    if size >= truth["archived"]:
        return folder / "archive"
    tree = folder / f"archive-{size}"
    done = tree / ".complete"
    if not done.exists():
        for k in range(size):
            target = tree / archived_path(k)
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                os.link(folder / "archive" / archived_path(k), target)
        done.write_text("", encoding="utf-8")
    return tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archived", type=int, help="archived essays")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--new", type=int, default=NEW_ESSAYS, help="new essays (this term)")
    parser.add_argument("--words", type=int, default=ESSAY_WORDS, help="words per essay")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    truth = build(args.archived, args.folder, args.new, args.seed, args.words)
    print(
        f"{args.archived} archived and {args.new} new essays in {args.folder}: "
        f"{len(truth['copies'])} copies across years, {len(truth['term'])} this term, "  # type: ignore[arg-type]
        f"{len(truth['within_archive'])} within the archive"  # type: ignore[arg-type]
    )


if __name__ == "__main__":
    main()

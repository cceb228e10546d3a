"""Builds a collection of essay-sized documents with copied passages planted between known
pairs, from the Gutenberg novels, so a batch run's ground truth is exact.

Each essay is about 1,500 words of sentences drawn at random from the novels. So that nothing
repeats by chance — a corpus of nine novels is smaller than 10,000 essays, and a sentence drawn
twice would link two essays — every sentence occurrence starts with its own serial word
("s1234"), which makes its key unique. A planted passage is copied with its serial words, so
only planted passages can form verified blocks. Each essay is in at most one planted pair.

With `--common-prompt`, every essay starts with the same assignment prompt (PROMPT, a
paragraph of four sentences), as when a whole class pastes it: without the common-text
exclusion every two essays then share a verified block.

    python bench/make_collection.py N FOLDER [--seed 1] [--common-prompt]
    # writes FOLDER/essay00000.txt …
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path

from corpus import novels

from core.documents.language import get_language
from core.documents.normalize import normalize_text
from core.documents.sentences import split_sentences

ESSAY_WORDS = 1_500
PLANTED_SHARE = 0.1  # a tenth of the essays copy a passage from another one
PASSAGE = (4, 12)  # sentences in a planted passage
#: the prompt `--common-prompt` puts at the start of every essay
PROMPT = (
    "Read the two chapters set for this week and answer the question below in about 1,500 "
    "words. Discuss how the writer uses the setting and the weather to build tension in the "
    "opening chapters. Refer closely to the language of the text, and quote where it helps "
    "your argument. Your essay will be marked on its argument, its use of evidence and the "
    "clarity of its writing."
)


# A sentence that ends on a plain word and a full stop: after "Mr." or "J." Punkt would not
# split, and the next drawn sentence would merge into it differently in every essay.
_CLEAN_END = re.compile(r"^[a-z]{4,}[.!?][\"')]*$")


def corpus_sentences() -> list[str]:
    """The novels' sentences as the engine splits them, so a drawn sentence is one sentence in
    an essay too (a drawn chunk of several would repeat its inner sentences between essays)."""
    english = get_language("en")
    sentences: list[str] = []
    for path in novels():
        text = normalize_text(path.read_text(encoding="utf-8"))
        for sentence in split_sentences(text, english):
            words = text[sentence.start : sentence.end].split()
            if 6 <= len(words) <= 40 and _CLEAN_END.search(words[-1]):
                sentences.append(" ".join(words))
    return sentences


def build(
    count: int, folder: Path, seed: int = 1, prompt: str | None = None
) -> list[tuple[str, str]]:
    """Write `count` essays into `folder`, each starting with the paragraph `prompt` if given;
    returns the planted (source, copy) file-name pairs."""
    rng = random.Random(seed)
    pool = corpus_sentences()
    serial = 0
    essays: list[list[str]] = []
    for _ in range(count):
        essay: list[str] = []
        words = 0
        while words < ESSAY_WORDS:
            serial += 1
            sentence = f"S{serial} {rng.choice(pool)}"
            essay.append(sentence)
            words += len(sentence.split())
        essays.append(essay)
    order = list(range(count))
    rng.shuffle(order)
    planted: list[tuple[str, str]] = []
    for k in range(0, int(count * PLANTED_SHARE) * 2 - 1, 2):
        source, copy = order[k], order[k + 1]
        length = rng.randint(*PASSAGE)
        start = rng.randrange(len(essays[source]) - length)
        at = rng.randrange(len(essays[copy]) - length)
        essays[copy][at : at + length] = essays[source][start : start + length]
        planted.append((f"essay{source:05d}.txt", f"essay{copy:05d}.txt"))
    folder.mkdir(parents=True, exist_ok=True)
    for k, essay in enumerate(essays):
        paragraphs = [" ".join(essay[p : p + 6]) for p in range(0, len(essay), 6)]
        if prompt is not None:
            paragraphs.insert(0, prompt)
        (folder / f"essay{k:05d}.txt").write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")
    (folder / "planted.json").write_text(json.dumps(planted), encoding="utf-8")
    return planted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--common-prompt", action="store_true", help="PROMPT in every essay")
    args = parser.parse_args()
    planted = build(args.count, args.folder, args.seed, PROMPT if args.common_prompt else None)
    print(f"{args.count} essays in {args.folder}, {len(planted)} planted pairs")


if __name__ == "__main__":
    main()

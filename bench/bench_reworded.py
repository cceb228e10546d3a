"""What the reworded-passage detector costs beside SL+ST, for one pair and for a folder.

**Pairs.** Documents of 10 to 300 pages (300 words a page) are runs of consecutive paragraphs
of the Gutenberg novels: A from one novel, B from another, so the pair shares nothing but the
language; then the same B with reworded copies of A planted in it (every fifth passage of ten
sentences of A, each sentence losing or gaining a word and its opening moved), so the detector
has real work. Timed, CPU seconds of this process, best of `--repeat`: SL+ST alone
(`match_signatures` on the two signatures) and the whole default comparison
(`compare_documents`: SL+ST, both word profiles, the reworded detector, the passages of both
kinds). The ratio is the second over the first, same run, same input.

**Folder.** The documents of the evaluation corpus (`bench/results/eval-corpus/`, written by
`bench/eval_corpus.py`: some 400 documents cut from the novels, many sharing their novel's
names and words): the reworded detector's candidate index (`reworded_candidates`) against
SL+ST's (`candidate_pairs`), both from records already in memory, and the candidates each lets
through; then the whole folder check (`run_batch`, one process, no cache: reading, analysis,
indexes, comparisons) by default against `--strict`, same run.

    python bench/bench_reworded.py [--pages 10 50 150 300] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from corpus import ROOT, machine, novels

from core.batch.ranking import candidate_pairs, reworded_candidates
from core.batch.run import BatchOptions, run_batch
from core.comparison import compare_documents
from core.detection.matching import match_signatures
from core.detection.reworded import document_profile
from core.documents.document import Document, document_from_text
from core.documents.normalize import normalize_text
from core.options import MatchOptions, SignatureOptions

EN = SignatureOptions(language="en")
WORDS_PER_PAGE = 300


def paragraphs(name: str) -> list[str]:
    path = next(p for p in novels() if p.name == name)
    text = normalize_text(path.read_text(encoding="utf-8", errors="replace"))
    return [p for p in text.split("\n\n") if len(p.split()) >= 4]


def run_of(paras: list[str], words: int) -> list[str]:
    out: list[str] = []
    count = 0
    for para in paras:
        if count >= words:
            break
        out.append(para)
        count += len(para.split())
    return out


def reword(sentence: str, rng: random.Random) -> str:
    """A sentence lightly edited: a word dropped or doubled, and its first word moved."""
    words = sentence.split()
    if len(words) < 6:
        return sentence
    k = rng.randrange(1, len(words) - 1)
    words = words[:k] + words[k + 1 :] if rng.random() < 0.5 else [*words[:k], words[k], *words[k:]]
    first = words.pop(0)
    words.insert(min(3, len(words)), first.lower())
    words[0] = words[0][:1].upper() + words[0][1:]
    return " ".join(words)


def with_copies(a: Document, b_text: str, rng: random.Random) -> str:
    sentences = [a.text[s.start : s.end] for s in a.sentences]
    paras = b_text.split("\n\n")
    for start in range(0, len(sentences) - 10, 50):
        copied = " ".join(reword(s, rng) for s in sentences[start : start + 10])
        paras.insert(rng.randrange(len(paras) + 1), copied)
    return "\n\n".join(paras)


def best(repeat: int, job) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.process_time()
        job()
        times.append(time.process_time() - start)
    return min(times)


def pair_rows(pages: list[int], repeat: int) -> list[dict[str, object]]:
    rng = random.Random(12)
    source, other = paragraphs("pg2701.txt"), paragraphs("pg98.txt")
    rows = []
    for size in pages:
        a = document_from_text("\n\n".join(run_of(source, size * WORDS_PER_PAGE)), "a.txt", EN)
        b_text = "\n\n".join(run_of(other, size * WORDS_PER_PAGE))
        for scenario, text in (
            ("unrelated", b_text),
            ("reworded copies", with_copies(a, b_text, rng)),
        ):
            b = document_from_text(text, "b.txt", EN)
            sl_st = best(repeat, lambda a=a, b=b: match_signatures(a.signature, b.signature))
            whole = best(repeat, lambda a=a, b=b: compare_documents(a, b))
            found = compare_documents(a, b)
            rows.append(
                {
                    "pages": size,
                    "scenario": scenario,
                    "sentences": [a.sentence_count, b.sentence_count],
                    "sl_st_s": sl_st,
                    "default_s": whole,
                    "ratio": whole / sl_st if sl_st else None,
                    "verified": len(found.result.pieces),
                    "reworded": len(found.reworded),
                }
            )
            print(rows[-1], flush=True)
    return rows


def folder_row(repeat: int) -> dict[str, Any] | None:
    folder = ROOT / "bench" / "results" / "eval-corpus"
    files = sorted(folder.glob("*.txt"))
    if not files:
        print("no evaluation corpus (run bench/eval_corpus.py): folder part skipped")
        return None
    docs = [document_from_text(f.read_text(encoding="utf-8"), f.name, EN) for f in files]
    signatures = [d.signature for d in docs]
    profiles = [document_profile(d) for d in docs]

    def anything(i: int, j: int) -> bool:
        return True

    sl_st = best(repeat, lambda: candidate_pairs(signatures, anything, MatchOptions()))
    reworded = best(repeat, lambda: reworded_candidates(profiles, anything))
    row = {
        "documents": len(docs),
        "possible_pairs": len(docs) * (len(docs) - 1) // 2,
        "sl_st_index_s": sl_st,
        "sl_st_candidates": len(candidate_pairs(signatures, anything, MatchOptions())),
        "reworded_index_s": reworded,
        "reworded_candidates": len(reworded_candidates(profiles, anything)),
        "ratio": reworded / sl_st if sl_st else None,
    }
    for name, match in (("strict", MatchOptions(reworded=False)), ("default", MatchOptions())):
        options = BatchOptions(signature=EN, match=match, workers=1)
        start = time.process_time()
        result = run_batch([folder], options=options)
        row[f"batch_{name}_s"] = time.process_time() - start
        row[f"batch_{name}_pairs"] = len(result.pairs)
        row[f"batch_{name}_compared"] = result.compared_pairs
    row["batch_ratio"] = row["batch_default_s"] / row["batch_strict_s"]
    print(row, flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, nargs="*", default=[10, 50, 150, 300])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "reworded.json")
    args = parser.parse_args()
    result = {
        "machine": machine(),
        "pairs": pair_rows(args.pages, args.repeat),
        "folder": folder_row(args.repeat),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()

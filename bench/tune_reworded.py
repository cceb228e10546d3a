"""Tuning the reworded-passage detector (docs/engine.md, "How every threshold was chosen"):
recall and false alarms of Doppel's default verdict for one set of `RewordSettings`, on data
the evaluation's test part never sees.

- **Tuning part** of the evaluation corpus (`bench/results/eval-corpus/`, written by
  `bench/eval_corpus.py`): every tuning suspicious document against every source; a pair is
  flagged when SL+ST verifies a block or the detector finds a reworded passage. Recall per
  level, false alarms among the pairs without a planted copy.
- **Same-novel negatives**: runs of ~1,500 words of the source novels sharing no run of eight
  words with any source, against the sources of their novel (same names, same style).
- **P4P** (`../shared/corpus/p4p`, research use; skipped when absent): the 856 rewrites against
  their originals (found), and a fixed random sample of 30,000 rewrites against other
  originals (false alarms).

    python bench/tune_reworded.py ['{"strong_share": 0.5}'] [--no-p4p]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from functools import cache
from multiprocessing import Pool

from corpus import ROOT, novels, p4p_dir
from eval_p4p import detokenise, overlapping_pairs

from core.detection.matching import match_signatures
from core.detection.passages import verified_sentences
from core.detection.reworded import RewordSettings, WordProfile, document_profile, find_reworded
from core.documents.document import Document, document_from_text
from core.documents.normalize import normalize_text
from core.options import SignatureOptions

CORPUS = ROOT / "bench" / "results" / "eval-corpus"
EN = SignatureOptions(language="en")
Analysed = tuple[Document, WordProfile]


def analyse(text: str, name: str) -> Analysed:
    doc = document_from_text(text, name, EN)
    return doc, document_profile(doc)


@cache
def data() -> tuple[dict[str, Analysed], list[tuple[str, str, str]]]:
    """The documents by name and the pairs to check: (A, B, label), label a level, "none"
    (no planted copy) or "same novel"."""
    truth = json.loads((CORPUS / "truth.json").read_text(encoding="utf-8"))
    docs = {
        d["name"]: analyse((CORPUS / d["name"]).read_text(encoding="utf-8"), d["name"])
        for d in truth["documents"]
        if d["role"] == "source" or d.get("split") == "tuning"
    }
    sources = [d for d in truth["documents"] if d["role"] == "source"]
    planted = {(c["suspicious"], c["source"]): c["level"] for c in truth["cases"]}
    pairs = [
        (d["name"], s["name"], planted.get((d["name"], s["name"]), "none"))
        for d in truth["documents"]
        if d.get("split") == "tuning"
        for s in sources
    ]
    runs: set[tuple[str, ...]] = set()
    for s in sources:
        words = docs[s["name"]][0].text.split()
        runs.update(tuple(words[k : k + 8]) for k in range(len(words) - 7))
    texts = {p.name: p for p in novels()}
    rng = random.Random(7)
    for novel in sorted({s["novel"] for s in sources}):
        text = normalize_text(texts[novel].read_text(encoding="utf-8", errors="replace"))
        paras = [p for p in text.split("\n\n") if len(p.split()) >= 4]
        k = made = 0
        while k < len(paras) and made < 25:
            chunk: list[str] = []
            while k < len(paras) and sum(len(p.split()) for p in chunk) < 1500:
                chunk.append(paras[k])
                k += 1
            words = "\n\n".join(chunk).split()
            if any(tuple(words[i : i + 8]) in runs for i in range(len(words) - 7)):
                continue
            if rng.random() < 0.5:
                continue
            name = f"same-{novel}-{made}"
            docs[name] = analyse("\n\n".join(chunk), name)
            pairs += [(name, s["name"], "same novel") for s in sources if s["novel"] == novel]
            made += 1
    return docs, pairs


def flagged(a: Analysed, b: Analysed, settings: RewordSettings) -> bool:
    result = match_signatures(a[0].signature, b[0].signature)
    if result.pieces:
        return True
    verified = verified_sentences(a[0].signature, b[0].signature, result.pieces)
    return bool(find_reworded(a[1], b[1], verified, settings))


def _corpus_pair(job: tuple[str, str, RewordSettings]) -> bool:
    docs, _ = data()
    return flagged(docs[job[0]], docs[job[1]], job[2])


def corpus_counts(settings: RewordSettings) -> dict[str, list[int]]:
    """label -> [pairs, flagged]."""
    _, pairs = data()
    with Pool() as pool:
        found = pool.map(_corpus_pair, [(a, b, settings) for a, b, _ in pairs], chunksize=100)
    counts: dict[str, list[int]] = {}
    for (_, _, label), hit in zip(pairs, found, strict=True):
        row = counts.setdefault(label, [0, 0])
        row[0] += 1
        row[1] += hit
    return counts


def p4p_counts(settings: RewordSettings) -> dict[str, int] | None:
    folder = p4p_dir()
    if folder is None:
        return None
    originals = [detokenise(x) for x in (folder / "p4p_reference.txt").read_text().splitlines()]
    rewrites = [detokenise(x) for x in (folder / "p4p_source.txt").read_text().splitlines()]
    a = [analyse(t, f"rewrite{k}") for k, t in enumerate(rewrites)]
    b = [analyse(t, f"original{k}") for k, t in enumerate(originals)]
    overlapping = overlapping_pairs(originals)
    rng = random.Random(1)
    sample = []
    while len(sample) < 30_000:
        i, j = rng.randrange(len(a)), rng.randrange(len(b))
        if i != j and (i, j) not in overlapping:
            sample.append((i, j))
    return {
        "found": sum(flagged(a[i], b[i], settings) for i in range(len(a))),
        "cases": len(a),
        "false_alarms": sum(flagged(a[i], b[j], settings) for i, j in sample),
        "negatives": len(sample),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("settings", nargs="?", default="{}", help="RewordSettings as JSON")
    parser.add_argument("--no-p4p", action="store_true")
    args = parser.parse_args()
    if not (CORPUS / "truth.json").is_file():
        sys.exit("no evaluation corpus: run bench/eval_corpus.py first")
    settings = RewordSettings(**json.loads(args.settings))
    print(settings)
    for label, (pairs, hits) in sorted(corpus_counts(settings).items()):
        print(f"  {label:<10} {hits:>5} of {pairs:>6} flagged")
    if not args.no_p4p:
        p4p = p4p_counts(settings)
        if p4p is not None:
            print(
                f"  P4P        {p4p['found']} of {p4p['cases']} found, "
                f"{p4p['false_alarms']} false alarms in {p4p['negatives']:,} other pairs"
            )


if __name__ == "__main__":
    main()

"""The document cache's row format: the typed JSON codec (core.batch.cache_codec) against the
pickle + zlib rows it replaced, timed in the same run.

For a typical essay (~1,500 words, bench/make_collection.py) and a novel (the corpus's largest),
each of the three kinds of row: the full Document, its BatchDocument record (what a warm folder
check reads) and its common-text fingerprints (the old rows: pickle + zlib level 3 for the first
two, a plain pickle for the fingerprints). Best of R rounds, old and new interleaved. Then a
warm folder check of N essays through a cache written with each format (the same run, the
pickle rows by swapping the codec, in this process: `workers=1`; the paper's method alone, so
the time is the cache's and the hashing's, not the reworded detector's).

    python bench/bench_cache_codec.py [--rounds 7] [--batch 1000] [--out cache-codec.json]
"""

from __future__ import annotations

import argparse
import json
import pickle
import statistics
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from corpus import ROOT, machine, novels
from make_collection import build

from core.batch import cache as cache_module
from core.batch.cache import DocumentCache, codec
from core.batch.cache_codec import Codec, CodecError
from core.batch.common_text import DocumentFingerprints, fingerprint_document
from core.batch.result import BatchDocument
from core.batch.run import BatchOptions, run_batch
from core.detection.reworded import document_profile
from core.documents.document import Document, load_document
from core.options import MatchOptions, SignatureOptions

EN = SignatureOptions(language="en")


class PickleRows:
    """The rows as they were before: pickle + zlib (level 3), or a plain pickle."""

    def __init__(self, compress: bool) -> None:
        self.compress = compress

    def encode(self, value: object) -> bytes:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        return zlib.compress(data, 3) if self.compress else data

    def decode(self, blob: bytes) -> Any:
        try:
            return pickle.loads(zlib.decompress(blob) if self.compress else blob)
        except Exception as error:
            raise CodecError(str(error)) from None


def best(action: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def compare_rows(name: str, value: Any, kind: type, rounds: int) -> dict[str, object]:
    new: Codec[Any] = codec(kind)
    old = PickleRows(compress=kind is not DocumentFingerprints)
    new_blob, old_blob = new.encode(value), old.encode(value)
    assert new.decode(new_blob) == value and old.decode(old_blob) == value
    times: dict[str, list[float]] = {k: [] for k in ("new_enc", "old_enc", "new_dec", "old_dec")}
    for _ in range(rounds):  # interleaved, so load on the machine falls on both alike
        times["new_enc"].append(best(lambda: new.encode(value), 1))
        times["old_enc"].append(best(lambda: old.encode(value), 1))
        times["new_dec"].append(best(lambda: new.decode(new_blob), 1))
        times["old_dec"].append(best(lambda: old.decode(old_blob), 1))
    t = {k: min(v) for k, v in times.items()}
    return {
        "value": name,
        "row": kind.__name__,
        "new_encode_ms": round(1000 * t["new_enc"], 3),
        "pickle_encode_ms": round(1000 * t["old_enc"], 3),
        "encode_ratio": round(t["new_enc"] / t["old_enc"], 2),
        "new_decode_ms": round(1000 * t["new_dec"], 3),
        "pickle_decode_ms": round(1000 * t["old_dec"], 3),
        "decode_ratio": round(t["new_dec"] / t["old_dec"], 2),
        "new_bytes": len(new_blob),
        "pickle_bytes": len(old_blob),
    }


def warm_batches(count: int, rounds: int) -> dict[str, object]:
    """Warm folder checks of `count` essays through a cache of each format (best of `rounds`)."""
    # the paper's method alone and no common-text hint: what is left is finding the files in
    # the cache (hashing them) and reading their records
    options = BatchOptions(
        signature=EN, match=MatchOptions(reworded=False), suggest_common=False, workers=1
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "essays"
        build(count, folder)
        caches: dict[str, DocumentCache] = {}
        real = cache_module.codec
        formats: dict[str, Callable[[type], Any]] = {
            "new": real,
            "pickle": lambda kind: PickleRows(compress=kind is not DocumentFingerprints),
        }
        results: dict[str, list[float]] = {"new": [], "pickle": []}
        try:
            for name, make in formats.items():
                cache_module.codec = make  # type: ignore[assignment]
                caches[name] = DocumentCache(Path(tmp) / f"{name}.sqlite3")
                run_batch([folder], options=options, cache=caches[name])  # cold: fills it
            for _ in range(rounds):
                for name, make in formats.items():
                    cache_module.codec = make  # type: ignore[assignment]
                    started = time.perf_counter()
                    warm = run_batch([folder], options=options, cache=caches[name])
                    results[name].append(time.perf_counter() - started)
                    assert len(warm.documents) == count
        finally:
            cache_module.codec = real
            for cache in caches.values():
                cache.close()
    new, old = min(results["new"]), min(results["pickle"])
    return {
        "n": count,
        "warm_new_s": round(new, 3),
        "warm_pickle_s": round(old, 3),
        "ratio": round(new / old, 2),
        "warm_new_median_s": round(statistics.median(results["new"]), 3),
        "warm_pickle_median_s": round(statistics.median(results["pickle"]), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument(
        "--batch", type=int, default=1000, help="essays in the warm check (0: none)"
    )
    parser.add_argument("--out", default="cache-codec.json")
    args = parser.parse_args()
    books = novels()
    if not books:
        raise SystemExit("no corpus: set DOPPEL_CORPUS (bench/corpus.py)")
    with tempfile.TemporaryDirectory() as tmp:
        build(10, Path(tmp))
        essay = load_document(Path(tmp) / "essay00000.txt", EN)
    novel_path = max(books, key=lambda p: p.stat().st_size)
    novel = load_document(novel_path, EN)
    rows = []
    for name, doc in (("essay", essay), (f"novel {novel_path.name}", novel)):
        print(f"{name}: {len(doc.text):,} characters, {len(doc.sentences):,} sentences")
        record = BatchDocument.of(doc, profile=document_profile(doc))
        for value, kind in (
            (doc, Document),
            (record, BatchDocument),
            (fingerprint_document(doc, 6), DocumentFingerprints),
        ):
            row = compare_rows(name, value, kind, args.rounds)
            print(json.dumps(row))
            rows.append(row)
    result: dict[str, object] = {"machine": machine(), "rows": rows}
    if args.batch:
        result["warm_batch"] = warm_batches(args.batch, max(3, args.rounds // 2))
        print(json.dumps(result["warm_batch"]))
    out = ROOT / "bench" / "results" / args.out
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2), encoding="utf-8")
    print(f"written {out}")


if __name__ == "__main__":
    main()

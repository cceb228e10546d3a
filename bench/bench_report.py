"""What the evidence report of one pair costs beside the comparison it reports.

Pairs of 10 to 300 pages (300 words a page) from the Gutenberg novels: A is a run of one novel,
B a run of another with the second half of A pasted into its middle, so half of A is one long
word-for-word passage (the worst case for the report: every copied sentence is a row). Timed,
CPU seconds of this process, best of `--repeat`: the comparison (`compare_documents`), then the
report's facts (`evidence_report`), its PDF (`evidence_pdf`) and its HTML page
(`evidence_html`). Each is given as a ratio to the comparison, same run, same input.

    python bench/bench_report.py [--pages 10 100 300] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial

from corpus import machine, novels

from core.comparison import compare_documents
from core.documents.document import document_from_text
from core.reports.evidence import evidence_html, evidence_report
from core.reports.evidence.pdf import evidence_pdf

WORDS_PER_PAGE = 300


def best(repeat: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, nargs="+", default=[10, 100, 300])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    books = novels()
    if len(books) < 2:
        raise SystemExit("needs the shared corpus (DOPPEL_CORPUS or ../shared/corpus/gutenberg)")
    one = books[0].read_text(encoding="utf-8").split()
    two = books[1].read_text(encoding="utf-8").split()
    print(f"machine: {machine()}")
    print("pages  compare  facts/compare  pdf/compare  html/compare  pdf pages")
    for pages in args.pages:
        words = pages * WORDS_PER_PAGE
        a_words = one[5000 : 5000 + words]
        b_words = two[5000 : 5000 + words // 2]
        b_words = (
            b_words[: len(b_words) // 2] + a_words[words // 2 :] + b_words[len(b_words) // 2 :]
        )
        a = document_from_text(" ".join(a_words), "a.txt")
        b = document_from_text(" ".join(b_words), "b.txt")
        comparison = compare_documents(a, b)
        report = evidence_report(comparison)
        pdf = evidence_pdf(report)
        compare = best(args.repeat, partial(compare_documents, a, b))
        facts = best(args.repeat, partial(evidence_report, comparison))
        drawn = best(args.repeat, partial(evidence_pdf, report))
        page = best(args.repeat, partial(evidence_html, report))
        count = pdf.count(b"/Type /Page\n") or pdf.count(b"/Type /Page")
        print(
            f"{pages:5}  {compare:6.2f}s  {facts / compare:13.2f}  {drawn / compare:11.2f}  "
            f"{page / compare:12.2f}  {count:9}"
        )


if __name__ == "__main__":
    main()

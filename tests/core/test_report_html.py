"""The HTML report of a folder check: ranked index, pair pages with both kinds of passage,
highlights, escaping, no network, the threshold on the copied share, and rewriting into a
folder that already holds a report."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from html import unescape
from html.parser import HTMLParser
from itertools import combinations
from pathlib import Path

import pytest
from markupsafe import escape

from core.batch.common_hint import CommonTextHint
from core.batch.common_text import CommonPassage, exclude_common_text
from core.batch.ranking import rank_key
from core.batch.result import BatchDocument, BatchResult, FailedDocument, PairResult
from core.batch.run import compare_pair
from core.comparison import compare_documents
from core.detection.passages import (
    PassageKind,
    build_passages,
    shared_word_spans,
    side_stems,
)
from core.detection.reworded import document_profile
from core.detection.verification import VerifiedBlock
from core.documents.document import Document, document_from_text
from core.documents.excluded_spans import ExcludedSpan, ExclusionKind
from core.errors import DocumentError
from core.options import ExclusionOptions, MatchOptions, SignatureOptions
from core.reports.heatmap import HEATMAP_BINS, bin_labels, heat_bin, heatmap
from core.reports.html import (
    MAX_HEATMAP_DOCUMENTS,
    display_names,
    failed_names,
    highlight_segments,
    pair_page_name,
    write_html_report,
)
from core.reports.wording import (
    LEFT_OUT,
    batch_left_out,
    common_hint_text,
    exclusion_summary,
    percent,
    plural,
    word_changes_text,
)
from core.resources import resource_path

OPTIONS = SignatureOptions(language="en")
SAMPLES = resource_path("samples")

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
EVIL_NAME = 'class/<b>bad" name.txt'


def paragraphs(name: str) -> list[str]:
    return (SAMPLES / name).read_text(encoding="utf-8").split("\n\n")


def evil_text() -> str:
    """Copies three paragraphs of the original essay between markup that must never run."""
    original = paragraphs("original-essay.txt")
    own = paragraphs("unrelated-essay.txt")
    return "\n\n".join(
        [SCRIPT, own[1], *original[2:5], IMG, f"Then {SCRIPT} and {IMG} mid-sentence.", own[2]]
    )


def make_documents() -> list[Document]:
    texts = [
        ("class/anna.txt", (SAMPLES / "original-essay.txt").read_text(encoding="utf-8")),
        ("class/ben.txt", (SAMPLES / "reworded-copy.txt").read_text(encoding="utf-8")),
        ("class/cara.txt", (SAMPLES / "unrelated-essay.txt").read_text(encoding="utf-8")),
        (EVIL_NAME, evil_text()),
    ]
    return [document_from_text(text, name, OPTIONS) for name, text in texts]


def batch_document(doc: Document, archive: bool = False) -> BatchDocument:
    return BatchDocument(
        path=doc.path,
        format=doc.format,
        content_hash=doc.content_hash,
        sentence_count=doc.sentence_count,
        language=doc.language,
        warnings=doc.warnings,
        signature=doc.signature,
        group=str(doc.path),
        archive=archive,
    )


def pair_result(docs: Sequence[Document], a: int, b: int) -> PairResult | None:
    first, second = (BatchDocument.of(d, profile=document_profile(d)) for d in (docs[a], docs[b]))
    return compare_pair(a, b, first, second, MatchOptions())


def make_result(docs: Sequence[Document], failed: Sequence[FailedDocument] = ()) -> BatchResult:
    pairs = [p for a, b in combinations(range(len(docs)), 2) if (p := pair_result(docs, a, b))]
    pairs.sort(key=lambda p: rank_key(p, p.a, p.b))
    possible = len(docs) * (len(docs) - 1) // 2
    return BatchResult(
        documents=tuple(batch_document(d) for d in docs),
        failed=tuple(failed),
        pairs=tuple(pairs),
        compared_pairs=possible,
        possible_pairs=possible,
    )


def loader(docs: Sequence[Document]) -> Callable[[BatchDocument], Document]:
    by_path = {d.path: d for d in docs}
    return lambda batch: by_path[batch.path]


class Page(HTMLParser):
    """Collects what the tests look at: links, pair-table rows, and highlighted text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.sources: list[str] = []
        self.rows: list[list[str]] = []
        self.texts: dict[str, str] = {}  # side -> the whole text shown
        self.marked: dict[str, dict[int, str]] = {}  # side -> passage -> highlighted text
        self.kinds: dict[str, dict[int, str]] = {}  # side -> passage -> its kind (CSS class)
        self.titles: dict[str, dict[int, str]] = {}  # side -> passage -> its marks' tooltip
        self.shared: dict[str, list[str]] = {}  # side -> the emphasised words, in order
        self._stack: list[str] = []
        self._in_table = False
        self._cell: list[str] | None = None
        self._side: str | None = None
        self._side_depth = 0
        self._mark: int | None = None
        self._emphasis = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        if attr.get("href") is not None:
            self.links.append(attr["href"] or "")
        if attr.get("src") is not None:
            self.sources.append(attr["src"] or "")
        if tag == "table" and attr.get("id") == "pair-table":
            self._in_table = True
        if self._in_table and tag == "tr":
            self.rows.append([])
        if self._in_table and tag in ("td", "th"):
            self._cell = []
        if tag == "div" and (attr.get("id") or "").startswith("text-"):
            self._side = (attr.get("id") or "")[5:]
            self.texts[self._side] = ""
            self.marked[self._side] = {}
            self.kinds[self._side] = {}
            self.titles[self._side] = {}
            self.shared[self._side] = []
            self._side_depth = 0
        elif self._side is not None and tag == "div":
            self._side_depth += 1
        if self._side is not None and tag == "mark":
            self._mark = int(attr["data-block"] or 0)
            classes = (attr.get("class") or "").split()
            kind = attr.get("data-kind") or ""
            assert kind in classes  # the kind is the mark's CSS class
            self.kinds[self._side][self._mark] = kind
            self.titles[self._side].setdefault(self._mark, attr.get("title") or "")
            self._emphasis = "shared" in classes
            if self._emphasis:
                self.shared[self._side].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._in_table = False
        if self._in_table and tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None
        if tag == "mark":
            self._mark = None
            self._emphasis = False
        if tag == "div" and self._side is not None:
            if self._side_depth == 0:
                self._side = None
            else:
                self._side_depth -= 1

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        if self._side is not None:
            self.texts[self._side] += data
            if self._mark is not None:
                marked = self.marked[self._side]
                marked[self._mark] = marked.get(self._mark, "") + data
            if self._emphasis:
                self.shared[self._side][-1] += data


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


@pytest.fixture(scope="module")
def docs() -> list[Document]:
    return make_documents()


@pytest.fixture(scope="module")
def result(docs: list[Document]) -> BatchResult:
    broken = FailedDocument(Path("class/<b>broken.pdf"), "it is <i>encrypted</i>")
    return make_result(docs, [broken])


def threshold_between(result: BatchResult) -> float:
    """A threshold (on the copied share) with at least one pair above and one below it."""
    scores = sorted({p.copied for p in result.pairs}, reverse=True)
    assert len(scores) >= 2, "the test collection needs pairs of different scores"
    return (scores[0] + scores[1]) / 2


def test_the_test_collection_has_what_the_tests_need(result: BatchResult) -> None:
    linked = {(p.a, p.b): p for p in result.pairs}
    assert (0, 1) in linked and (0, 3) in linked  # the copy and the evil document
    assert all(p.pieces for p in result.pairs)
    assert linked[(0, 1)].reworded  # the copy has passages of both kinds
    # the copy ranks first by its copied share, below the evil document by Jaccard
    copy, evil = linked[(0, 1)], linked[(0, 3)]
    assert copy.copied > evil.copied and copy.jaccard < evil.jaccard
    assert result.pairs[0] is copy


def expected_passages(docs: Sequence[Document], pair: PairResult):
    """The passages of both kinds the engine finds for the pair (what its page must show)."""
    return compare_documents(docs[pair.a], docs[pair.b]).passages


def test_index_lists_the_pairs_in_rank_order(
    docs: list[Document], result: BatchResult, tmp_path: Path
) -> None:
    index = write_html_report(result, tmp_path, threshold=0.0, load_document=loader(docs))
    assert index == tmp_path / "index.html"
    page = parse(index)
    body = page.rows[1:]  # after the heading row
    names = ["anna.txt", "ben.txt", "cara.txt", '<b>bad" name.txt']
    assert [(row[1], row[2]) for row in body] == [(names[p.a], names[p.b]) for p in result.pairs]
    assert [row[0] for row in body] == [str(n) for n in range(1, len(result.pairs) + 1)]
    # copied (the rank), A in B, B in A (the copied shares), Jaccard, blocks, edited, longest
    assert [row[3:] for row in body] == [
        [
            percent(p.copied),
            percent(p.copied_a),
            percent(p.copied_b),
            percent(p.jaccard),
            str(p.verified_blocks),
            str(p.reworded_passages),
            str(p.longest_block),
        ]
        for p in result.pairs
    ]
    html = index.read_text(encoding="utf-8")
    assert "Copied text found: 63.0% of anna.txt is found in ben.txt" in html  # the verdict


def test_pair_pages_exist_only_at_or_above_the_threshold(
    docs: list[Document], result: BatchResult, tmp_path: Path
) -> None:
    threshold = threshold_between(result)
    index = write_html_report(result, tmp_path, threshold=threshold, load_document=loader(docs))
    expected = {
        pair_page_name(rank)
        for rank, pair in enumerate(result.pairs, start=1)
        if pair.copied >= threshold
    }
    assert expected and len(expected) < len(result.pairs)
    assert {p.name for p in (tmp_path / "pairs").iterdir()} == expected
    linked = {link for link in parse(index).links if link.startswith("pairs/")}
    assert linked == {f"pairs/{name}" for name in expected}


def test_highlights_hold_exactly_the_characters_of_the_engines_passages(
    docs: list[Document], result: BatchResult, tmp_path: Path
) -> None:
    write_html_report(result, tmp_path, threshold=0.0, load_document=loader(docs))
    kinds_seen = set()
    for rank, pair in enumerate(result.pairs, start=1):
        page = parse(tmp_path / "pairs" / pair_page_name(rank))
        doc_a, doc_b = docs[pair.a], docs[pair.b]
        assert page.texts == {"a": doc_a.text, "b": doc_b.text}  # the whole text, in order
        passages = expected_passages(docs, pair)
        # the page's passages, worked out from the loaded documents and the check's records,
        # are the engine's: the sentence indices line up
        profiles = document_profile(doc_a), document_profile(doc_b)
        assert build_passages(doc_a, doc_b, *profiles, pair.pieces, pair.reworded) == passages
        assert len(passages) == pair.verified_blocks + pair.reworded_passages
        expected_a = {n: doc_a.text[slice(*p.a_chars)] for n, p in enumerate(passages, start=1)}
        expected_b = {n: doc_b.text[slice(*p.b_chars)] for n, p in enumerate(passages, start=1)}
        assert page.marked == {"a": expected_a, "b": expected_b}
        kinds = {n: p.kind.value for n, p in enumerate(passages, start=1)}
        assert page.kinds == {"a": kinds, "b": kinds}
        kinds_seen.update(kinds.values())
        # each passage's tooltip says its number, its kind and what changed
        for n, passage in enumerate(passages, start=1):
            kind = "word for word" if passage.kind is PassageKind.VERIFIED else "edited"
            title = f"Passage {n}, {kind}: {word_changes_text(passage.changes)}"
            assert page.titles["a"][n] == page.titles["b"][n] == title
        # every passage is anchored on both sides and linked from the passage list
        for number in expected_a:
            assert f"#a-block-{number}" in page.links
            assert f"#b-block-{number}" in page.links
    assert kinds_seen == {"verified", "reworded"}


def test_reworded_passages_are_drawn_apart_with_their_shared_words_emphasised(
    docs: list[Document], result: BatchResult, tmp_path: Path
) -> None:
    write_html_report(result, tmp_path, threshold=0.0, load_document=loader(docs))
    rank = next(r for r, p in enumerate(result.pairs, start=1) if (p.a, p.b) == (0, 1))
    path = tmp_path / "pairs" / pair_page_name(rank)
    html = path.read_text(encoding="utf-8")
    page = parse(path)
    doc_a, doc_b = docs[0], docs[1]
    reworded = [
        p for p in expected_passages(docs, result.pairs[rank - 1]) if p.kind.value == "reworded"
    ]
    assert len(reworded) == 2
    # a different class and style from the verified blocks, and a legend naming both
    assert '<mark class="reworded r' in html and '<mark class="verified c' in html
    assert re.search(r"mark\.reworded \{[^}]*dashed", html)  # the style, inlined
    legend = html[html.index('class="legend passage-legend"') :]
    legend = legend[: legend.index("</ul>")]
    assert "word for word</li>" in legend and "edited</li>" in legend
    # the words each side shares with the other, emphasised, in order
    want_a, want_b = [], []
    for passage in reworded:
        stems_a = side_stems(doc_a, passage.a_sentences)
        stems_b = side_stems(doc_b, passage.b_sentences)
        want_a += [
            doc_a.text[s:e] for s, e in shared_word_spans(doc_a, passage.a_sentences, stems_b)
        ]
        want_b += [
            doc_b.text[s:e] for s, e in shared_word_spans(doc_b, passage.b_sentences, stems_a)
        ]
    assert want_a and want_b
    assert page.shared == {"a": want_a, "b": want_b}
    assert "budgets" in want_a and "budgets" in want_b  # "When budgets shrink" / "Whenever …"
    # the passage table lists both kinds, with what changed
    table = html[
        html.index('id="passages-title"') : html.index(
            "</table>", html.index('id="passages-title"')
        )
    ]
    assert table.count('<tr class="reworded">') == 2 and table.count('<tr class="verified">') == 4
    assert escape(word_changes_text(reworded[0].changes)) in table


def test_document_text_and_file_names_are_always_escaped(
    docs: list[Document], result: BatchResult, tmp_path: Path
) -> None:
    write_html_report(result, tmp_path, threshold=0.0, load_document=loader(docs))
    files = sorted(tmp_path.rglob("*.html"))
    assert len(files) == 1 + len(result.pairs)
    evil_pages = [
        tmp_path / "pairs" / pair_page_name(rank)
        for rank, pair in enumerate(result.pairs, start=1)
        if 3 in (pair.a, pair.b)
    ]
    assert evil_pages
    for path in files:
        html = path.read_text(encoding="utf-8")
        for raw in ("<script>alert", "alert(1)</script>", "<img", "<b>", 'bad" name', "<i>"):
            assert raw not in html, f"{raw!r} unescaped in {path.name}"
        assert html.count("<script>") <= 1  # the report's own optional script, nothing else
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "&lt;b&gt;bad&#34; name.txt" in index
    assert "&lt;b&gt;broken.pdf" in index and "it is &lt;i&gt;encrypted&lt;/i&gt;" in index
    for path in evil_pages:
        html = path.read_text(encoding="utf-8")
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "&lt;img src=x onerror=alert(1)&gt;" in html
        assert "&lt;b&gt;bad&#34; name.txt" in html


def test_nothing_points_off_site(docs: list[Document], result: BatchResult, tmp_path: Path) -> None:
    write_html_report(result, tmp_path, threshold=0.0, load_document=loader(docs))
    for path in tmp_path.rglob("*.html"):
        html = path.read_text(encoding="utf-8")
        assert "http://" not in html and "https://" not in html
        page = parse(path)
        for reference in page.links + page.sources:
            assert "://" not in reference and not reference.startswith("//"), reference
            if not reference.startswith("#"):  # a relative link to a page the report wrote
                assert (path.parent / reference).resolve().is_file(), reference
        assert not re.search(r"<link\b|@import|url\(", html)


def test_rewriting_replaces_its_own_files_and_leaves_others_alone(
    docs: list[Document], result: BatchResult, tmp_path: Path
) -> None:
    write_html_report(result, tmp_path, threshold=0.0, load_document=loader(docs))
    assert (tmp_path / "pairs" / pair_page_name(len(result.pairs))).is_file()
    # the teacher keeps notes beside the report (a folder with no report in it is refused:
    # tests/cli/test_batch_outputs.py)
    (tmp_path / "notes.txt").write_text("the teacher's own notes", encoding="utf-8")
    (tmp_path / "pairs" / "keep-me.html").write_text("mine", encoding="utf-8")

    threshold = threshold_between(result)
    write_html_report(result, tmp_path, threshold=threshold, load_document=loader(docs))
    above = sum(1 for p in result.pairs if p.copied >= threshold)
    pages = sorted(p.name for p in (tmp_path / "pairs").glob("[0-9]*.html"))
    assert pages == [pair_page_name(rank) for rank in range(1, above + 1)]  # stale ones gone
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "the teacher's own notes"
    assert (tmp_path / "pairs" / "keep-me.html").read_text(encoding="utf-8") == "mine"
    assert not list(tmp_path.rglob("*.tmp"))
    # nothing left beside it (the new report's folder, the earlier one moved aside)
    assert not list(tmp_path.parent.glob(f".{tmp_path.name}.*"))


def test_the_threshold_is_on_the_copied_share_not_on_jaccard(
    docs: list[Document], result: BatchResult, tmp_path: Path
) -> None:
    """The copy (0, 1) has a lower Jaccard than the evil document's pair (0, 3) but a larger
    copied share: a threshold between the two shares gives the copy its page, and no other."""
    copy = next(p for p in result.pairs if (p.a, p.b) == (0, 1))
    evil = next(p for p in result.pairs if (p.a, p.b) == (0, 3))
    threshold = (copy.copied + evil.copied) / 2
    assert copy.jaccard < threshold and evil.jaccard < threshold  # Jaccard would list neither
    index = write_html_report(result, tmp_path, threshold=threshold, load_document=loader(docs))
    assert [p.name for p in (tmp_path / "pairs").iterdir()] == [pair_page_name(1)]
    assert result.pairs[0] is copy
    html = index.read_text(encoding="utf-8")
    assert "Threshold (copied share)" in html
    assert f"with a copied share at or above {threshold * 100:g}%" in html
    # the clusters and the heatmap follow the same rule
    assert "Cluster 1 · 2 documents" in html
    svg = html[html.index("<svg") : html.index("</svg>")]
    assert len(re.findall(r'text-anchor="end">', svg)) == 2


def test_markup_inside_a_reworded_passage_is_escaped(tmp_path: Path) -> None:
    original = (SAMPLES / "original-essay.txt").read_text(encoding="utf-8")
    copy = (SAMPLES / "reworded-copy.txt").read_text(encoding="utf-8")
    hostile = copy.replace("Money, unfortunately,", f"Money, {SCRIPT} unfortunately,")
    assert hostile != copy
    docs = [
        document_from_text(original, "class/anna.txt", OPTIONS),
        document_from_text(hostile, "class/ben.txt", OPTIONS),
    ]
    result = make_result(docs)
    (pair,) = result.pairs
    passages = expected_passages(docs, pair)
    inside = [p for p in passages if p.kind is PassageKind.REWORDED]
    b_text = docs[1].text
    assert any(SCRIPT in b_text[slice(*p.b_chars)] for p in inside)  # inside an edited one
    write_html_report(result, tmp_path, threshold=0.0, load_document=loader(docs))
    path = tmp_path / "pairs" / pair_page_name(1)
    html = path.read_text(encoding="utf-8")
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    page = parse(path)
    number = next(n for n, p in enumerate(passages, start=1) if SCRIPT in b_text[slice(*p.b_chars)])
    assert page.kinds["b"][number] == "reworded" and SCRIPT in page.marked["b"][number]


def test_the_index_summarises_the_run(
    docs: list[Document], result: BatchResult, tmp_path: Path
) -> None:
    index = write_html_report(result, tmp_path, threshold=0.25, load_document=loader(docs))
    html = index.read_text(encoding="utf-8")
    assert '<html lang="en">' in html and '<meta charset="utf-8">' in html
    assert 'name="viewport"' in html
    assert "25%" in html  # the threshold, as chosen
    assert f"{result.compared_pairs} <small>of {result.possible_pairs} possible" in html
    assert 'scope="col"' in html
    assert "<svg" in html and "<title>" in html  # the heatmap with its tooltips
    assert "Cluster 1" in html


def test_a_document_that_cannot_be_loaded_is_named_not_fatal(
    docs: list[Document], result: BatchResult, tmp_path: Path
) -> None:
    from core.errors import DocumentError

    def load(batch: BatchDocument) -> Document:
        if batch.path.name == "ben.txt":
            raise DocumentError(batch.path, "the file is gone")
        return loader(docs)(batch)

    write_html_report(result, tmp_path, threshold=0.0, load_document=load)
    rank = next(r for r, p in enumerate(result.pairs, start=1) if (p.a, p.b) == (0, 1))
    path = tmp_path / "pairs" / pair_page_name(rank)
    html = path.read_text(encoding="utf-8")
    assert "the file is gone" in html
    # the passages are still listed, from the check's records, and A's side is highlighted
    pair = result.pairs[rank - 1]
    passages = expected_passages(docs, pair)
    assert html.count('<tr class="reworded">') == pair.reworded_passages == 2
    assert html.count('<tr class="verified">') == pair.verified_blocks
    page = parse(path)
    assert page.marked["a"] == {
        n: docs[0].text[slice(*p.a_chars)] for n, p in enumerate(passages, start=1)
    }


@pytest.mark.parametrize("outside", [1, 2])
def test_blocks_outside_the_text_are_counted_in_words(
    docs: list[Document], result: BatchResult, tmp_path: Path, outside: int
) -> None:
    beyond = VerifiedBlock(10_000, 10_000, 2)
    first = replace(result.pairs[0], pieces=(*result.pairs[0].pieces, *[beyond] * outside))
    changed = replace(result, pairs=(first, *result.pairs[1:]))
    write_html_report(changed, tmp_path, threshold=0.0, load_document=loader(docs))
    html = (tmp_path / "pairs" / pair_page_name(1)).read_text(encoding="utf-8")
    verb = "falls outside the current text and is" if outside == 1 else "fall outside"
    assert f"{plural(outside, 'block')} {verb}" in html


def test_the_heatmap_is_capped_and_says_so(docs: list[Document], tmp_path: Path) -> None:
    count = MAX_HEATMAP_DOCUMENTS + 10
    template = batch_document(docs[0])
    documents = tuple(
        BatchDocument(
            path=Path(f"class/student{n:03d}.txt"),
            format="txt",
            content_hash=str(n),
            sentence_count=10,
            language="en",
            warnings=(),
            signature=template.signature,
            group=str(n),
            archive=False,
        )
        for n in range(count + 2)
    )
    piece = (VerifiedBlock(0, 0, 2),)

    def copied(a: int, b: int, share: float) -> PairResult:
        return PairResult(a, b, 0.1, 0.1, 0.1, 1, 2, piece, copied_a=share, copied_b=share / 2)

    pairs = (
        *(copied(n, n + 1, 0.95 - n / 10_000) for n in range(count - 1)),
        copied(count, count + 1, 0.2),  # below the threshold
    )
    result = BatchResult(documents, (), pairs, len(pairs), count * (count - 1) // 2)

    def gone(batch: BatchDocument) -> Document:
        raise DocumentError(batch.path, "moved away")

    index = write_html_report(result, tmp_path, threshold=0.9, load_document=gone)
    html = index.read_text(encoding="utf-8")
    svg = html[html.index("<svg") : html.index("</svg>")]
    row_labels = re.findall(r'text-anchor="end">([^<]*)<', svg)
    assert len(row_labels) == MAX_HEATMAP_DOCUMENTS
    assert f"the {MAX_HEATMAP_DOCUMENTS} most involved of the {count} documents" in html
    # the most similar are shown (the first pairs), and nothing below the threshold
    assert row_labels == [f"student{n:03d}.txt" for n in range(MAX_HEATMAP_DOCUMENTS)]
    assert len(list((tmp_path / "pairs").glob("*.html"))) == count - 1


def test_the_heatmap_shows_what_the_window_shows(docs: list[Document], tmp_path: Path) -> None:
    """The report's matrix is `core.reports.heatmap`'s (the window paints the same): the same
    documents in the same order, the same cells, each in its bin's colour; pairs below the
    threshold are left out."""
    result = make_result(docs)
    threshold = sorted(p.copied for p in result.pairs)[1]  # leaves the weakest pair out
    expected = heatmap(result, threshold, MAX_HEATMAP_DOCUMENTS)
    assert 0 < len(expected.cells) < 2 * len(result.pairs)
    html = write_html_report(
        result, tmp_path, threshold=threshold, load_document=loader(docs)
    ).read_text(encoding="utf-8")
    svg = html[html.index("<svg") : html.index("</svg>")]
    names = display_names(result)
    labels = re.findall(r'text-anchor="end">([^<]*)<', svg)
    assert [unescape(label) for label in labels] == [names[i] for i in expected.documents]
    cells = re.findall(
        r'<rect x="(\d+)" y="(\d+)" width="\d+" height="\d+" fill="(#\w+)"><title>', svg
    )
    assert len(cells) == len(expected.cells)
    xs = sorted({int(x) for x, _, _ in cells})
    ys = sorted({int(y) for _, y, _ in cells})
    assert [(ys.index(int(y)), xs.index(int(x)), colour) for x, y, colour in cells] == [
        (c.row, c.column, HEATMAP_BINS[c.bin][1]) for c in expected.cells
    ]
    # the legend: each bin's colour, in the words the window's legend uses
    swatch = r'<li><span class="swatch" style="background:(#\w+)"></span>([^<]*)</li>'
    assert re.findall(swatch, html)[: len(HEATMAP_BINS)] == [
        (colour, label) for (_, colour), label in zip(HEATMAP_BINS, bin_labels(), strict=True)
    ]


def test_a_heatmap_cell_is_its_pairs_copied_share(docs: list[Document]) -> None:
    """The cell's value is the larger copied share (both kinds of passage), not Jaccard; a pair
    with copied text found is always coloured, however little it shares."""
    result = make_result(docs)
    shown = heatmap(result, 0.0, MAX_HEATMAP_DOCUMENTS)
    assert len(shown.cells) == 2 * len(result.pairs)
    for cell in shown.cells:
        assert cell.bin == heat_bin(max(cell.pair.copied_a, cell.pair.copied_b))
    copy = next(c for c in shown.cells if (c.pair.a, c.pair.b) == (0, 1))
    assert copy.bin != heat_bin(copy.pair.jaccard)  # 70.8% copied, Jaccard 30.8%
    template = batch_document(docs[0])
    tiny = PairResult(0, 1, 0.0, 0.0, 0.0, 0, 0, (), copied_a=0.001, copied_b=0.0,
                      reworded=result.pairs[0].reworded)  # fmt: skip
    few = replace(result, documents=(template, template), pairs=(tiny,))
    (cell, _) = heatmap(few, 0.0, MAX_HEATMAP_DOCUMENTS).cells
    assert cell.bin == 0 and cell.colour == HEATMAP_BINS[0][1]
    assert heatmap(few, 0.01, MAX_HEATMAP_DOCUMENTS).cells == ()  # below a 1% threshold


def test_segments_split_at_block_edges_and_overlaps() -> None:
    text = "0123456789"
    segments = highlight_segments(text, [(2, 6), (4, 8), (9, 20), (5, 5)])
    assert "".join(s.text for s in segments) == text
    assert [(s.text, s.block, s.blocks, s.starts) for s in segments] == [
        ("01", None, (), ()),
        ("23", 1, (1,), (1,)),
        ("45", 1, (1, 2), (2,)),
        ("67", 2, (2,), ()),
        ("8", None, (), ()),
        ("9", 3, (3,), (3,)),
    ]


def test_segments_note_the_words_to_emphasise() -> None:
    text = "one two three four"
    segments = highlight_segments(text, [(4, 18)], shared=[(4, 7), (14, 18), (30, 40)])
    assert "".join(s.text for s in segments) == text
    assert [(s.text, s.block, s.shared) for s in segments] == [
        ("one ", None, False),
        ("two", 1, True),
        (" three ", 1, False),
        ("four", 1, True),
    ]


def test_names_are_relative_to_the_shared_folder_and_never_ambiguous(
    docs: list[Document],
) -> None:
    template = batch_document(docs[0])
    paths = [
        Path("/school/2025/anna/essay.docx"),
        Path("/school/2025/ben/essay.docx"),
        Path("/school/2024/cara.txt"),
    ]
    documents = tuple(
        BatchDocument(p, "docx", str(n), 1, "en", (), template.signature, str(n), False)
        for n, p in enumerate(paths)
    )
    failed = (FailedDocument(Path("/school/2025/dan/scan.pdf"), "no text"),)
    result = BatchResult(documents, failed, (), 0, 3)
    assert display_names(result) == ["2025/anna/essay.docx", "2025/ben/essay.docx", "2024/cara.txt"]
    assert failed_names(result) == ["2025/dan/scan.pdf"]


# --- exclusions ------------------------------------------------------------------------------

PROMPT = (
    f"Answer every question below in full sentences. Explain {SCRIPT} your reasoning for each one."
)


class Shaded(HTMLParser):
    """The text inside each kind of excluded span on a pair page, by side."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.shaded: dict[str, dict[str, str]] = {}
        self._side: str | None = None
        self._kind: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        if tag == "div" and (attr.get("id") or "").startswith("text-"):
            self._side = (attr.get("id") or "")[5:]
            self.shaded[self._side] = {}
        classes = (attr.get("class") or "").split()
        if tag == "span" and "excluded" in classes:
            self._kind = next(c[3:] for c in classes if c.startswith("ex-"))

    def handle_endtag(self, tag: str) -> None:
        if tag == "span" and self._kind is not None:
            self._kind = None
            if self._side is not None:
                shaded = self.shaded[self._side]
                shaded["/"] = shaded.get("/", "") + "|"
        if tag == "div":
            self._side = None

    def handle_data(self, data: str) -> None:
        if self._side is not None and self._kind is not None:
            shaded = self.shaded[self._side]
            shaded[self._kind] = shaded.get(self._kind, "") + data


@pytest.fixture(scope="module")
def excluded_run() -> tuple[list[Document], list[Document], BatchResult]:
    """The three samples, each starting with the same prompt (with markup in it), checked
    with common text excluded: (as loaded, as scored, the result)."""
    plain = [
        document_from_text(
            PROMPT + "\n\n" + "\n\n".join(paragraphs(name)), f"class/{name}", OPTIONS
        )
        for name in ("original-essay.txt", "reworded-copy.txt", "unrelated-essay.txt")
    ]
    # in more than 70% of 3 documents: in all three (the prompt), not in two (the copy)
    scored, found = exclude_common_text(plain, 0.7)
    base = make_result(scored)
    documents = tuple(replace(batch_document(d), excluded=d.excluded) for d in scored)
    result = replace(
        base,
        documents=documents,
        exclusions=ExclusionOptions(common_share=0.7),
        common_text=found.passages,
        common_counted=found.counted,
    )
    return plain, scored, result


def test_the_index_lists_the_excluded_common_text_escaped(excluded_run, tmp_path: Path) -> None:
    plain, _, result = excluded_run
    html = write_html_report(
        result, tmp_path, threshold=0.0, load_document=loader(plain)
    ).read_text(encoding="utf-8")
    assert f"{LEFT_OUT}</h2>" in html and 'href="#common"' in html
    assert "<li>text found in more than 70% of the documents — 6 sentences left out</li>" in html
    assert '<h2 id="common-title">Excluded common text</h2>' in html
    assert SCRIPT not in html
    assert "Explain &lt;script&gt;alert(1)&lt;/script&gt; your reasoning" in html
    assert "3 <small>of 3</small>" in html
    # the command line's and the window's words: the totals, the line before the passages
    left = batch_left_out(result)
    assert left is not None and left.common is not None
    assert "<dt>Sentences left out</dt><dd>6</dd>" in html
    assert f"<p>{escape(left.totals)}</p>" in html
    assert f"<p>{escape(left.common)}</p>" in html and left.common.startswith("Common text (")
    assert "<caption>1 passage of common text.</caption>" in html
    none = replace(result, common_text=())
    html = write_html_report(none, tmp_path, threshold=0.0, load_document=loader(plain)).read_text(
        encoding="utf-8"
    )
    assert "<p>No text was found in more than 70% of the 3 documents.</p>" in html


def test_pair_pages_shade_excluded_text_and_highlight_what_was_scored(
    excluded_run, tmp_path: Path
) -> None:
    plain, scored, result = excluded_run
    assert result.pairs
    # the loader gives the documents as the cache keeps them (without exclusions): the report
    # applies each document's exclusions again, so the pieces point at the scored sentences
    write_html_report(result, tmp_path, threshold=0.0, load_document=loader(plain))
    for rank, pair in enumerate(result.pairs, start=1):
        path = tmp_path / "pairs" / pair_page_name(rank)
        page = parse(path)
        doc_a, doc_b = scored[pair.a], scored[pair.b]
        expected = {"a": {}, "b": {}}
        for number, passage in enumerate(expected_passages(scored, pair), start=1):
            expected["a"][number] = doc_a.text[slice(*passage.a_chars)]
            expected["b"][number] = doc_b.text[slice(*passage.b_chars)]
        assert page.marked == expected
        html = path.read_text(encoding="utf-8")
        assert "excluded: common text" in html and SCRIPT not in html
        # each side says what it leaves out, in the window's words
        for doc in (doc_a, doc_b):
            said = exclusion_summary(doc)
            assert said == ["common text: 2 passages (2 sentences left out)"]
            assert escape(f"{LEFT_OUT}: {'; '.join(said)}.") in html
        shaded = Shaded()
        shaded.feed(html)
        for side in ("a", "b"):
            assert shaded.shaded[side]["common"] == PROMPT.replace(". ", ".")
            assert shaded.shaded[side]["/"] == "||"  # one span per sentence


def test_no_exclusion_no_exclusion_sections(docs, result, tmp_path: Path) -> None:
    html = write_html_report(result, tmp_path, threshold=0.0, load_document=loader(docs)).read_text(
        encoding="utf-8"
    )
    assert "Excluded" not in html
    for page in (tmp_path / "pairs").glob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert 'class="excluded' not in html and "left out of scoring" not in html
        assert LEFT_OUT not in html


def test_segments_note_excluded_spans_and_their_reasons() -> None:
    text = "0123456789"
    spans = [
        ExcludedSpan(1, 4, ExclusionKind.COMMON, "in 3 of 4 documents"),
        ExcludedSpan(3, 6, ExclusionKind.QUOTATION, '"…"'),
    ]
    segments = highlight_segments(text, [(2, 5)], spans)
    assert "".join(s.text for s in segments) == text
    assert [(s.text, s.block, s.excluded) for s in segments] == [
        ("0", None, None),
        ("1", None, ExclusionKind.COMMON),
        ("2", 1, ExclusionKind.COMMON),
        ("3", 1, ExclusionKind.QUOTATION),  # the first kind covering it
        ("4", 1, ExclusionKind.QUOTATION),
        ("5", None, ExclusionKind.QUOTATION),
        ("6789", None, None),
    ]
    both = 'excluded: quotation ("…"); excluded: common text (in 3 of 4 documents)'
    assert segments[3].why == both
    assert segments[4].why == segments[5].why == 'excluded: quotation ("…")'


# -- submissions and the pasted prompt ------------------------------------------------------


class Rows(HTMLParser):
    """The cells of the table with the given id, row by row, and each row's links."""

    def __init__(self, table: str) -> None:
        super().__init__()
        self.table, self.inside, self.rows, self.links = table, False, [], []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        if tag == "table":
            self.inside = attr.get("id") == self.table
        elif self.inside and tag == "tr":
            self.rows.append([])
            self.links.append([])
        elif self.inside and tag in ("td", "th") and self.rows:
            self._cell = []
        elif self.inside and tag == "a" and self.links:
            self.links[-1].append(attr.get("href"))

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = False
        elif tag in ("td", "th") and self._cell is not None and self.rows:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def test_the_index_lists_each_submission_with_the_most_of_it_found_in_another(
    docs: list[Document], result: BatchResult, tmp_path: Path
) -> None:
    index = write_html_report(result, tmp_path, threshold=0.0, load_document=loader(docs))
    table = Rows("submission-table")
    table.feed(index.read_text(encoding="utf-8"))
    header, *rows = table.rows
    assert header == ["Submission", "Most found in another", "Found in", "Pairs"]
    names = display_names(result)
    best: dict[int, tuple[float, int]] = {}
    for pair in result.pairs:
        for d, other, share in ((pair.a, pair.b, pair.copied_a), (pair.b, pair.a, pair.copied_b)):
            if share > best.get(d, (0.0, -1))[0]:
                best[d] = (share, other)
    expected = sorted(range(len(docs)), key=lambda d: (-best.get(d, (0.0,))[0], d))
    assert [row[0] for row in rows] == [names[d] for d in expected]
    for row, links, d in zip(rows, table.links[1:], expected, strict=True):
        share, partner = best[d]
        assert row[1:3] == [percent(share), names[partner]]
        pair = next(p for p in result.pairs if {p.a, p.b} == {d, partner})
        assert links == [f"pairs/{pair_page_name(result.pairs.index(pair) + 1)}"]


def test_two_documents_have_no_submissions_table(docs: list[Document], tmp_path: Path) -> None:
    two = make_result(docs[:2])
    html = write_html_report(two, tmp_path, threshold=0.0, load_document=loader(docs))
    assert 'id="submissions"' not in html.read_text(encoding="utf-8")


def test_the_index_points_out_a_pasted_prompt_escaped(
    docs: list[Document], result: BatchResult, tmp_path: Path
) -> None:
    passage = CommonPassage(f"Answer every question. {SCRIPT}", 3, 5)
    hinted = replace(result, common_hint=CommonTextHint(0.5, (passage,), 4, 3, 4))
    html = write_html_report(hinted, tmp_path, threshold=0.0, load_document=loader(docs))
    text = html.read_text(encoding="utf-8")
    assert escape(common_hint_text(hinted.common_hint)) in text  # type: ignore[arg-type]
    assert "<code>--exclude-common 0.5</code>" in text
    assert f"Answer every question. {escape(SCRIPT)}</blockquote>" in text
    assert "<script>alert" not in text
    plain = write_html_report(result, tmp_path / "plain", threshold=0.0, load_document=loader(docs))
    assert 'class="note hint"' not in plain.read_text(encoding="utf-8")

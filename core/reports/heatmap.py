"""The similarity heatmap of a folder check, decided once for the window and the HTML report:
which documents it shows and in what order, which cells are coloured, and in which colour.

- Cells: the pairs at or above the threshold (`core.batch.clusters.reaches`: copied text found,
  with a copied share at or above it), each twice (either side of the diagonal).
- Documents: those in such a pair; when there are more than a surface can draw (`limit`), the
  most involved (highest copied share, then most pairs, then the documents' order). They are
  ordered cluster by cluster (`core.batch.clusters` at the same threshold), so each group of
  linked documents is a block along the diagonal; documents in no cluster follow in order.
- Colours: a cell's value is its pair's copied share (`PairResult.copied`, the larger of the
  two: how much of one document is found in the other, passages of both kinds), in bins (lower
  bounds) of Tol's sequential YlOrBr, which stays ordered for colour-blind readers and in
  greyscale print; `bin_labels` words each bin for a legend. A pair with copied text found is
  always coloured (its share is above none), never shown as the empty background.

Each surface keeps its own geometry (how many documents fit: `limit`) and painting."""

from __future__ import annotations

from dataclasses import dataclass

from core.batch.clusters import clusters, reaches
from core.batch.result import BatchResult, PairResult
from core.reports.wording import share_range

#: the bins: (lower bound of the copied share, colour as #RRGGBB), in increasing order
HEATMAP_BINS: tuple[tuple[float, str], ...] = (
    (0.0, "#FFF7BC"),
    (0.05, "#FEE391"),
    (0.10, "#FEC44F"),
    (0.20, "#FB9A29"),
    (0.30, "#EC7014"),
    (0.50, "#CC4C02"),
    (0.70, "#993404"),
    (0.90, "#662506"),
)


def heat_bin(share: float) -> int:
    """The index in HEATMAP_BINS of the bin the copied `share` falls in (the last whose bound
    it reaches; the first below every bound)."""
    found = 0
    for k, (bound, _) in enumerate(HEATMAP_BINS):
        if share >= bound:
            found = k
    return found


def bin_labels() -> tuple[str, ...]:
    """Each bin's range of copied shares, in HEATMAP_BINS's order, as every legend says it:
    "0–5%", "5–10%", …, "90–100%"."""
    uppers = [bound for bound, _ in HEATMAP_BINS[1:]] + [1.0]
    return tuple(
        share_range(bound, upper) for (bound, _), upper in zip(HEATMAP_BINS, uppers, strict=True)
    )


@dataclass(frozen=True, slots=True)
class HeatCell:
    """A coloured cell: `pair` at (`row`, `column`), positions in the shown order."""

    row: int
    column: int
    pair: PairResult
    index: int  # of the pair in BatchResult.pairs (its rank, from 0)
    bin: int  # of its copied share in HEATMAP_BINS

    @property
    def colour(self) -> str:
        return HEATMAP_BINS[self.bin][1]


@dataclass(frozen=True, slots=True)
class Heatmap:
    """What a heatmap shows (empty when no pair reaches the threshold)."""

    documents: tuple[int, ...]  # indices into BatchResult.documents, in display order
    cells: tuple[HeatCell, ...]  # each pair twice, in ranked order
    groups: tuple[tuple[int, int], ...]  # each cluster's shown members: (first position, count)
    involved: int  # documents in a pair at the threshold, shown or not

    @property
    def capped(self) -> bool:
        """Whether some documents in a pair at the threshold are not shown."""
        return self.involved > len(self.documents)


def heatmap(result: BatchResult, threshold: float, limit: int) -> Heatmap:
    """The heatmap of `result` at `threshold`, showing at most `limit` documents."""
    best: dict[int, float] = {}
    count: dict[int, int] = {}
    for pair in result.pairs:
        if reaches(pair, threshold):
            for index in (pair.a, pair.b):
                best[index] = max(best.get(index, 0.0), pair.copied)
                count[index] = count.get(index, 0) + 1
    chosen = set(sorted(best, key=lambda i: (-best[i], -count[i], i))[:limit])
    groups = clusters(result.pairs, threshold)
    order: list[int] = []
    for group in groups:
        order.extend(i for i in group if i in chosen)
    order.extend(sorted(chosen.difference(order)))
    position = {index: k for k, index in enumerate(order)}
    cells: list[HeatCell] = []
    for k, pair in enumerate(result.pairs):
        if not reaches(pair, threshold) or pair.a not in position or pair.b not in position:
            continue
        i, j, shade = position[pair.a], position[pair.b], heat_bin(pair.copied)
        cells += [HeatCell(i, j, pair, k, shade), HeatCell(j, i, pair, k, shade)]
    boxes: list[tuple[int, int]] = []
    for group in groups:
        spots = sorted(position[i] for i in group if i in position)
        if len(spots) >= 2:  # a group's shown members are next to one another in `order`
            boxes.append((spots[0], len(spots)))
    return Heatmap(tuple(order), tuple(cells), tuple(boxes), len(best))

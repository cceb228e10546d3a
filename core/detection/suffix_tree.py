"""Maximal common blocks of two signatures with a generalised suffix tree (spec §2).

The tree of `A + $1 + B + $2` is built with Ukkonen's algorithm in linear time. Maximal pairs
are then reported bottom-up in the manner of Gusfield (Algorithms on Strings, Trees and
Sequences, §7.12.1): every internal node of string depth L keeps, per side (A or B), its leaves
grouped by their left character; when a child's groups are merged into the node's, every A leaf
of one against every B leaf of the other with a *different* left character is a pair that can be
extended neither left (different left characters, or a string start) nor right (different
children). So each pair is reported exactly once, at the node spelling it, and the work is
linear in m + n plus the number of pairs (plus a small-into-large merge of the groups).

Symbols are non-negative integers (sentence lengths); the separators and the left-of-start
markers are negative so they never equal a symbol or each other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from core.progress import Progress

_SEP_A = -1
_SEP_B = -2
_START_A = -3  # left character of A's first suffix: differs from everything
_START_B = -4
_CHECK_EVERY = 1 << 14


@dataclass(frozen=True, slots=True, order=True)
class RawBlock:
    """A[a_start : a_start+length] == B[b_start : b_start+length], maximal both ways."""

    a_start: int
    b_start: int
    length: int


#: called with (A starts, B starts, length): every A start pairs with every B start
PairGroupSink = Callable[[list[int], list[int], int], None]


class GeneralizedSuffixTree:
    """Ukkonen's suffix tree of `a + [$1] + b + [$2]`, stored in flat lists."""

    def __init__(
        self,
        a: Sequence[int],
        b: Sequence[int],
        progress: Progress | None = None,
    ) -> None:
        if any(s < 0 for s in a) or any(s < 0 for s in b):
            raise ValueError("signature symbols must be non-negative integers")
        self.len_a = len(a)
        self.len_b = len(b)
        text: list[int] = [*a, _SEP_A, *b, _SEP_B]
        self.text = text
        n = len(text)
        # node 0 is the root; a leaf's edge runs to the end of the text (end = n)
        start: list[int] = [0]
        end: list[int] = [0]
        link: list[int] = [0]
        children: list[dict[int, int]] = [{}]
        active_node = 0
        active_edge = 0
        active_length = 0
        remainder = 0
        for pos in range(n):
            if progress is not None and pos % _CHECK_EVERY == 0:
                progress(pos / n)
            c = text[pos]
            remainder += 1
            last_new = -1
            while remainder > 0:
                if active_length == 0:
                    active_edge = pos
                node_children = children[active_node]
                edge_symbol = text[active_edge]
                nxt = node_children.get(edge_symbol, -1)
                if nxt == -1:
                    node_children[edge_symbol] = len(start)
                    start.append(pos)
                    end.append(n)
                    link.append(0)
                    children.append({})
                    if last_new != -1:
                        link[last_new] = active_node
                        last_new = -1
                else:
                    nxt_start = start[nxt]
                    nxt_end = end[nxt]
                    edge_length = (nxt_end if nxt_end <= pos else pos + 1) - nxt_start
                    if active_length >= edge_length:  # walk down
                        active_edge += edge_length
                        active_length -= edge_length
                        active_node = nxt
                        continue
                    if text[nxt_start + active_length] == c:  # rule 3: already present
                        if last_new != -1 and active_node != 0:
                            link[last_new] = active_node
                            last_new = -1
                        active_length += 1
                        break
                    split = len(start)
                    start.append(nxt_start)
                    end.append(nxt_start + active_length)
                    link.append(0)
                    leaf = split + 1
                    start.append(pos)
                    end.append(n)
                    link.append(0)
                    children.append({c: leaf, text[nxt_start + active_length]: nxt})
                    children.append({})
                    node_children[edge_symbol] = split
                    start[nxt] = nxt_start + active_length
                    if last_new != -1:
                        link[last_new] = split
                    last_new = split
                remainder -= 1
                if active_node == 0 and active_length > 0:
                    active_length -= 1
                    active_edge = pos - remainder + 1
                elif active_node != 0:
                    active_node = link[active_node]
        self.start = start
        self.end = end
        self.children = children

    @property
    def node_count(self) -> int:
        return len(self.start)

    def report_maximal_pairs(
        self,
        sink: PairGroupSink,
        min_length: int = 2,
        progress: Progress | None = None,
    ) -> None:
        """Calls `sink(a_starts, b_starts, length)` for every group of maximal pairs.

        The lists are only valid during the call (they are merged afterwards): consume them."""
        min_length = max(min_length, 1)
        text = self.text
        n = len(text)
        len_a = self.len_a
        b_offset = len_a + 1
        b_end = b_offset + self.len_b
        start = self.start
        end = self.end
        children = self.children
        # A frame: [node, child iterator, string depth, A groups, B groups, group size]
        # where groups map a left character to the suffix starts (in A or B coordinates).
        stack: list[list[object]] = [[0, iter(children[0].values()), 0, {}, {}, 0]]
        steps = 0
        while stack:
            frame = stack[-1]
            depth = frame[2]
            assert isinstance(depth, int)
            child = next(frame[1], -1)  # type: ignore[call-overload]
            if child == -1:
                stack.pop()
                if stack and stack[-1][2] >= min_length:  # type: ignore[operator]
                    _merge(stack[-1], frame, sink)
                continue
            steps += 1
            if progress is not None and steps % _CHECK_EVERY == 0:
                progress(steps / len(start))
            child_end = end[child]
            if child_end == n:  # a leaf: its suffix starts where its path began
                suffix = start[child] - depth
                if depth < min_length:
                    continue
                if suffix < len_a:
                    left = text[suffix - 1] if suffix > 0 else _START_A
                    _merge(frame, [0, None, 0, {left: [suffix]}, {}, 1], sink)
                elif b_offset <= suffix < b_end:
                    left = text[suffix - 1] if suffix > b_offset else _START_B
                    _merge(frame, [0, None, 0, {}, {left: [suffix - b_offset]}, 1], sink)
                continue
            stack.append(
                [child, iter(children[child].values()), depth + child_end - start[child], {}, {}, 0]
            )


def _merge(parent: list[object], child: list[object], sink: PairGroupSink) -> None:
    """Report the pairs between `child`'s groups and `parent`'s, then fold child into parent."""
    depth = parent[2]
    assert isinstance(depth, int)
    p_a: dict[int, list[int]] = parent[3]  # type: ignore[assignment]
    p_b: dict[int, list[int]] = parent[4]  # type: ignore[assignment]
    c_a: dict[int, list[int]] = child[3]  # type: ignore[assignment]
    c_b: dict[int, list[int]] = child[4]  # type: ignore[assignment]
    if p_b and c_a:
        for x, a_starts in c_a.items():
            for y, b_starts in p_b.items():
                if x != y:
                    sink(a_starts, b_starts, depth)
    if p_a and c_b:
        for x, a_starts in p_a.items():
            for y, b_starts in c_b.items():
                if x != y:
                    sink(a_starts, b_starts, depth)
    p_size: int = parent[5]  # type: ignore[assignment]
    c_size: int = child[5]  # type: ignore[assignment]
    if c_size > p_size:  # fold the smaller groups into the larger
        p_a, c_a = c_a, p_a
        p_b, c_b = c_b, p_b
        parent[3] = p_a
        parent[4] = p_b
    for groups, into in ((c_a, p_a), (c_b, p_b)):
        for x, starts in groups.items():
            existing = into.get(x)
            if existing is None:
                into[x] = starts
            else:
                existing.extend(starts)
    parent[5] = p_size + c_size


def maximal_pairs(a: Sequence[int], b: Sequence[int], min_length: int = 2) -> Iterator[RawBlock]:
    """Every raw block (spec §2) of `a` and `b` with length >= min_length, in no set order."""
    found: list[RawBlock] = []

    def sink(a_starts: list[int], b_starts: list[int], length: int) -> None:
        found.extend(RawBlock(i, j, length) for i in a_starts for j in b_starts)

    GeneralizedSuffixTree(a, b).report_maximal_pairs(sink, min_length)
    return iter(found)

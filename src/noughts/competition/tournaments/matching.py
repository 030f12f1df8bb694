"""A maximum matching of a general graph (Edmonds' blossom algorithm, O(V³)): whether a
set of players can all be paired without a rematch, and one such pairing, in
polynomial time where a search over pairings may take exponential time.

>>> maximum_matching(4, [{1, 2}, {0, 3}, {0}, {1}])
[2, 3, 0, 1]
>>> maximum_matching(3, [{1, 2}, {0, 2}, {0, 1}]).count(-1)  # a triangle: one is left
1
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

__all__ = ["maximum_matching"]


def maximum_matching(n: int, adjacent: Sequence[set[int]]) -> list[int]:
    """Vertex i's partner in a maximum matching of the graph on 0..n-1 (`adjacent[i]`
    the neighbours of i, symmetric), or -1 for a vertex left unmatched."""
    match = [-1] * n
    # A greedy start: on the dense graphs of a Swiss few augmentations remain.
    for v in range(n):
        if match[v] == -1:
            for to in sorted(adjacent[v]):
                if match[to] == -1 and to != v:
                    match[v], match[to] = to, v
                    break
    for root in range(n):
        if match[root] != -1:
            continue
        end, parent = _augmenting_path(n, adjacent, match, root)
        while end != -1:
            before = parent[end]
            after = match[before]
            match[end], match[before] = before, end
            end = after
    return match


def _augmenting_path(n: int, adjacent: Sequence[set[int]], match: list[int], root: int) -> tuple[int, list[int]]:
    """The end of an augmenting path from `root` (-1: none) and the tree's parents."""
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))
    used[root] = True
    queue = deque([root])

    def common_ancestor(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark_path(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    while queue:
        v = queue.popleft()
        for to in adjacent[v]:
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                # An odd cycle: contract it into its base (a blossom).
                current = common_ancestor(v, to)
                blossom = [False] * n
                mark_path(v, current, to, blossom)
                mark_path(to, current, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = current
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    return to, parent
                used[match[to]] = True
                queue.append(match[to])
    return -1, parent

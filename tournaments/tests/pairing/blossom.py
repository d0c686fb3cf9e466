"""An exact maximum-weight matching of our own (Edmonds' blossom algorithm, primal–dual, O(n³)),
independent of the matcher the pairing uses (rustworkx), so that the tests and
``bench/pairing_quality.py`` can check the pairing's optimum against a second implementation.

``max_weight_matching(n, edges)`` returns ``mate`` (``mate[v]`` the vertex matched to ``v``, or
-1) of a maximum-cardinality matching of maximum weight. Weights are integers of any size.

The algorithm grows alternating trees from every exposed vertex (S and T labels), shrinks odd
cycles of S vertices into blossoms, and when no tight edge leads on, changes the dual variables
by the smallest of: the slack of an edge from S to a free vertex (δ2), half the slack of an edge
between two S blossoms (δ3), the dual of a T blossom (which is then expanded, δ4). Duals are kept
doubled so that they stay integers. Stages end with an augmenting path; when no δ exists the
matching has maximum cardinality and, by complementary slackness, maximum weight.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

FREE, S, T = 0, 1, 2
Edge = tuple[int, int, int]  # (end in one child/blossom, end in the next, edge index)


class _Matcher:
    def __init__(self, n: int, edges: Sequence[tuple[int, int, int]]) -> None:
        self.n = n
        self.ends = [(i, j) for i, j, _w in edges]
        self.weight = [w for _i, _j, w in edges]
        self.incident: list[list[int]] = [[] for _ in range(n)]
        for k, (i, j) in enumerate(self.ends):
            self.incident[i].append(k)
            self.incident[j].append(k)
        size = 2 * n
        self.mate = [-1] * n  # edge index
        self.label = [FREE] * size
        self.label_edge: list[tuple[int, int] | None] = [None] * size  # (edge, far end)
        self.top = list(range(n))  # the outermost blossom of each vertex
        self.parent = [-1] * size
        self.children: list[list[int]] = [[] for _ in range(size)]
        self.cycle: list[list[Edge]] = [[] for _ in range(size)]
        self.base = list(range(n)) + [-1] * n
        self.best = [-1] * size
        self.best_list: list[list[int] | None] = [None] * size
        self.unused = list(range(size - 1, n - 1, -1))
        biggest = max(self.weight, default=0)
        self.dual = [biggest] * n + [0] * n
        self.tight = [False] * len(edges)
        self.queue: list[int] = []

    # --- small helpers ---------------------------------------------------------------------

    def other(self, k: int, v: int) -> int:
        i, j = self.ends[k]
        return j if v == i else i

    def slack(self, k: int) -> int:
        i, j = self.ends[k]
        return self.dual[i] + self.dual[j] - 2 * self.weight[k]

    def leaves(self, b: int) -> Iterator[int]:
        if b < self.n:
            yield b
            return
        for child in self.children[b]:
            yield from self.leaves(child)

    def step(self, b: int, j: int, direction: int) -> Edge:
        """The cycle edge from child ``j`` of ``b`` to child ``j + direction``, as (end in child
        j, end in the next, edge)."""
        if direction == 1:
            return self.cycle[b][j]
        x, y, k = self.cycle[b][j - 1]
        return y, x, k

    # --- labels, blossoms, augmenting ------------------------------------------------------

    def assign(self, w: int, label: int, via: tuple[int, int] | None) -> None:
        b = self.top[w]
        self.label[w] = self.label[b] = label
        self.label_edge[w] = self.label_edge[b] = via
        self.best[w] = self.best[b] = -1
        if label == S:
            self.queue.extend(self.leaves(b))
        else:
            base = self.base[b]
            self.assign(self.other(self.mate[base], base), S, (self.mate[base], base))

    def trace(self, v: int, w: int) -> int:
        """The base of the blossom closed by the edge v–w, or -1 if they lie in two trees."""
        path: list[int] = []
        base = -1
        while v != -1:
            b = self.top[v]
            if self.label[b] & 4:
                base = self.base[b]
                break
            path.append(b)
            self.label[b] = S | 4
            via = self.label_edge[b]
            if via is None:
                v = -1
            else:
                t_vertex = via[1]
                v = self.label_edge[self.top[t_vertex]][1]  # type: ignore[index]
            if w != -1:
                v, w = w, v
        for b in path:
            self.label[b] = S
        return base

    def add_blossom(self, base: int, k: int) -> None:
        v, w = self.ends[k]
        root = self.top[base]
        bv, bw = self.top[v], self.top[w]
        b = self.unused.pop()
        self.base[b], self.parent[b], self.parent[root] = base, -1, b
        children: list[int] = []
        cycle: list[Edge] = []
        while bv != root:  # from v's side down to the base, reversed afterwards
            self.parent[bv] = b
            children.append(bv)
            edge, far = self.label_edge[bv]  # type: ignore[misc]
            cycle.append((far, self.other(edge, far), edge))
            bv = self.top[far]
        children.append(root)
        children.reverse()
        cycle.reverse()
        cycle.append((v, w, k))
        while bw != root:
            self.parent[bw] = b
            children.append(bw)
            edge, far = self.label_edge[bw]  # type: ignore[misc]
            cycle.append((self.other(edge, far), far, edge))
            bw = self.top[far]
        self.children[b], self.cycle[b] = children, cycle
        self.label[b], self.label_edge[b], self.dual[b] = S, self.label_edge[root], 0
        for leaf in self.leaves(b):
            if self.label[self.top[leaf]] == T:
                self.queue.append(leaf)  # a T vertex turned S: scan it
            self.top[leaf] = b
        best_to = [-1] * (2 * self.n)
        for child in children:
            if self.best_list[child] is None:
                candidates = [k for leaf in self.leaves(child) for k in self.incident[leaf]]
            else:
                candidates = self.best_list[child]  # type: ignore[assignment]
            for edge in candidates:
                i, j = self.ends[edge]
                if self.top[j] == b:
                    i, j = j, i
                bj = self.top[j]
                if bj != b and self.label[bj] == S and (
                    best_to[bj] == -1 or self.slack(edge) < self.slack(best_to[bj])
                ):
                    best_to[bj] = edge
            self.best_list[child], self.best[child] = None, -1
        self.best_list[b] = [edge for edge in best_to if edge != -1]
        self.best[b] = min(self.best_list[b], key=self.slack, default=-1)

    def expand(self, b: int, end_of_stage: bool) -> None:
        for child in self.children[b]:
            self.parent[child] = -1
            if child < self.n:
                self.top[child] = child
            elif end_of_stage and self.dual[child] == 0:
                self.expand(child, end_of_stage)
            else:
                for leaf in self.leaves(child):
                    self.top[leaf] = child
        if not end_of_stage and self.label[b] == T:
            self._relabel_expanded(b)
        self.label[b], self.label_edge[b] = FREE, None
        self.children[b], self.cycle[b] = [], []
        self.base[b], self.best_list[b], self.best[b] = -1, None, -1
        self.unused.append(b)

    def _relabel_expanded(self, b: int) -> None:
        """An expanded T blossom: the path from the entry child to the base keeps alternating
        labels; children beside it are labelled T only if an S vertex outside reaches them."""
        via = self.label_edge[b]
        assert via is not None
        edge, far = via
        entry_child = self.top[self.other(edge, far)]
        children = self.children[b]
        j = children.index(entry_child)
        direction = -1
        if j & 1:  # go the even way round to the base
            j -= len(children)
            direction = 1
        while j != 0:
            entry = self.other(edge, far)
            x, y, matched = self.step(b, j, direction)
            self.label[entry] = self.label[y] = FREE
            self.assign(entry, T, (edge, far))
            self.tight[matched] = True
            j += direction
            x, y, edge = self.step(b, j, direction)
            far = x
            self.tight[edge] = True
            j += direction
        entry = self.other(edge, far)
        child = children[j]
        self.label[entry] = self.label[child] = T
        self.label_edge[entry] = self.label_edge[child] = (edge, far)
        self.best[child] = -1
        j += direction
        while children[j] != entry_child:
            child = children[j]
            if self.label[child] == S:
                j += direction
                continue
            reached = next((v for v in self.leaves(child) if self.label[v] != FREE), -1)
            if reached != -1:
                base = self.base[child]
                self.label[reached] = FREE
                self.label[self.other(self.mate[base], base)] = FREE
                self.assign(reached, T, self.label_edge[reached])
            j += direction

    def augment_blossom(self, b: int, v: int) -> None:
        """Swap matched and unmatched edges inside ``b`` so that ``v`` becomes its base."""
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        if t >= self.n:
            self.augment_blossom(t, v)
        children = self.children[b]
        i = j = children.index(t)
        direction = -1
        if i & 1:
            j -= len(children)
            direction = 1
        while j != 0:
            j += direction
            x, y, k = self.step(b, j, direction)
            if children[j] >= self.n:
                self.augment_blossom(children[j], x)
            j += direction
            if children[j] >= self.n:
                self.augment_blossom(children[j], y)
            self.mate[x] = self.mate[y] = k
        self.children[b] = children[i:] + children[:i]
        self.cycle[b] = self.cycle[b][i:] + self.cycle[b][:i]
        self.base[b] = self.base[self.children[b][0]]

    def augment(self, k: int) -> None:
        v, w = self.ends[k]
        for s in (v, w):
            matched_edge = k
            while True:
                bs = self.top[s]
                if bs >= self.n:
                    self.augment_blossom(bs, s)
                self.mate[s] = matched_edge
                via = self.label_edge[bs]
                if via is None:
                    break
                t_vertex = via[1]
                bt = self.top[t_vertex]
                edge, s = self.label_edge[bt]  # type: ignore[misc]
                inner = self.other(edge, s)
                if bt >= self.n:
                    self.augment_blossom(bt, inner)
                self.mate[inner] = edge
                matched_edge = edge

    # --- the stages ------------------------------------------------------------------------

    def run(self) -> list[int]:
        n = self.n
        for _stage in range(n):
            self.label = [FREE] * (2 * n)
            self.best = [-1] * (2 * n)
            self.best_list[n:] = [None] * n
            self.tight = [False] * len(self.ends)
            self.queue = []
            for v in range(n):
                if self.mate[v] == -1 and self.label[self.top[v]] == FREE:
                    self.assign(v, S, None)
            if not self._grow():
                break
            for b in range(n, 2 * n):
                if (self.parent[b] == -1 and self.base[b] >= 0 and self.label[b] == S
                        and self.dual[b] == 0):  # fmt: skip
                    self.expand(b, True)
        return [-1 if k == -1 else self.other(k, v) for v, k in enumerate(self.mate)]

    def _grow(self) -> bool:
        """One stage: True once an augmenting path was used, False when none exists."""
        while True:
            while self.queue:
                v = self.queue.pop()
                for k in self.incident[v]:
                    w = self.other(k, v)
                    if self.top[v] == self.top[w]:
                        continue
                    slack = 0
                    if not self.tight[k]:
                        slack = self.slack(k)
                        self.tight[k] = slack <= 0
                    bw = self.top[w]
                    if self.tight[k]:
                        if self.label[bw] == FREE:
                            self.assign(w, T, (k, v))
                        elif self.label[bw] == S:
                            base = self.trace(v, w)
                            if base >= 0:
                                self.add_blossom(base, k)
                            else:
                                self.augment(k)
                                return True
                        elif self.label[w] == FREE:  # inside a T blossom, now reached
                            self.label[w], self.label_edge[w] = T, (k, v)
                    elif self.label[bw] == S:
                        b = self.top[v]
                        if self.best[b] == -1 or slack < self.slack(self.best[b]):
                            self.best[b] = k
                    elif self.label[w] == FREE:
                        if self.best[w] == -1 or slack < self.slack(self.best[w]):
                            self.best[w] = k
            if not self._change_duals():
                return False

    def _change_duals(self) -> bool:
        n = self.n
        kind, delta, target = 0, 0, -1
        for v in range(n):
            if self.label[self.top[v]] == FREE and self.best[v] != -1:
                d = self.slack(self.best[v])
                if kind == 0 or d < delta:
                    kind, delta, target = 2, d, self.best[v]
        for b in range(2 * n):
            if self.parent[b] == -1 and self.label[b] == S and self.best[b] != -1:
                d = self.slack(self.best[b]) // 2
                if kind == 0 or d < delta:
                    kind, delta, target = 3, d, self.best[b]
        for b in range(n, 2 * n):
            if (self.base[b] >= 0 and self.parent[b] == -1 and self.label[b] == T
                    and (kind == 0 or self.dual[b] < delta)):  # fmt: skip
                kind, delta, target = 4, self.dual[b], b
        if kind == 0:
            return False  # the cardinality is maximum, and so is the weight
        for v in range(n):
            label = self.label[self.top[v]]
            self.dual[v] += -delta if label == S else delta if label == T else 0
        for b in range(n, 2 * n):
            if self.base[b] >= 0 and self.parent[b] == -1:
                label = self.label[b]
                self.dual[b] += delta if label == S else -delta if label == T else 0
        if kind == 4:
            self.expand(target, False)
            return True
        self.tight[target] = True
        i, j = self.ends[target]
        self.queue.append(i if self.label[self.top[i]] == S else j)
        return True


def max_weight_matching(n: int, edges: Sequence[tuple[int, int, int]]) -> list[int]:
    """``mate`` of a maximum-cardinality, maximum-weight matching (edges: (i, j, weight))."""
    for i, j, _w in edges:
        if i == j or not (0 <= i < n and 0 <= j < n):
            raise ValueError(f"bad edge {i}–{j}")
    return _Matcher(n, edges).run()

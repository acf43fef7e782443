"""The Unigram lattice: every way to cut one pre-token into vocabulary pieces.

A node is one piece spanning ``text[start:end]`` with its log-probability
``score``; a segmentation is a path of nodes from position 0 to ``len(text)``
whose score is the sum of its nodes' scores.

    >>> lat = Lattice("▁ab", [Node(0, 1, "▁", 1, -1.0), Node(1, 2, "a", 2, -2.0),
    ...                        Node(2, 3, "b", 3, -2.0), Node(1, 3, "ab", 4, -2.5)])
    >>> [n.piece for n in lat.best_path()]
    ['▁', 'ab']

Offers the Viterbi best path, the exact k best paths (k-best Viterbi: each
position keeps its k best partial paths), forward-filtering backward-sampling
(subword regularization), and the normalizer ``log Z`` with per-node
marginals. It is a small, readable, per-string structure for the explorer and
the encoder's extras; the trainer uses vectorized lattices over the whole
corpus instead (``core.models.unigram.trainer``).
"""

from __future__ import annotations

import heapq
import math
import random
from typing import NamedTuple

from core.records import frozen_record


@frozen_record
class Node(NamedTuple):
    """One piece in the lattice: ``text[start:end] == piece`` (or the unknown token)."""

    start: int
    end: int
    piece: str
    id: int
    score: float


def _logsumexp(values: list[float]) -> float:
    """``log(sum(exp(v)))`` without overflow. ``_logsumexp([0.0, 0.0]) == log(2)``."""
    if not values:
        return -math.inf
    top = max(values)
    if top == -math.inf:
        return top
    return top + math.log(sum(math.exp(v - top) for v in values))


class Lattice:
    """All nodes of one string, indexed by where they start and end."""

    def __init__(self, text: str, nodes: list[Node]):
        self.text = text
        self.nodes = list(nodes)
        self.begins: list[list[Node]] = [[] for _ in range(len(text) + 1)]
        self.ends: list[list[Node]] = [[] for _ in range(len(text) + 1)]
        for node in self.nodes:
            self.begins[node.start].append(node)
            self.ends[node.end].append(node)

    def __len__(self) -> int:
        return len(self.text)

    # --- best path -------------------------------------------------------

    def best_path(self) -> list[Node]:
        """Viterbi: the highest-scoring path; ties keep the path found first
        (earliest start of the last piece). ``[]`` for empty text or no path."""
        n = len(self.text)
        if n == 0:
            return []
        best: list[float] = [-math.inf] * (n + 1)
        back: list[Node | None] = [None] * (n + 1)
        best[0] = 0.0
        for pos in range(n):
            if best[pos] == -math.inf:
                continue
            for node in self.begins[pos]:
                score = best[pos] + node.score
                if score > best[node.end]:
                    best[node.end] = score
                    back[node.end] = node
        if back[n] is None:
            return []
        path: list[Node] = []
        pos = n
        while pos > 0:
            node = back[pos]
            path.append(node)
            pos = node.start
        path.reverse()
        return path

    @staticmethod
    def path_score(path: list[Node]) -> float:
        return sum(node.score for node in path)

    # --- k best paths ----------------------------------------------------

    def nbest(self, k: int) -> list[tuple[list[Node], float]]:
        """The ``k`` highest-scoring distinct paths, best first, with their scores.

        k-best Viterbi: each position keeps its ``k`` best partial paths as
        (score, node, rank of the partial path it extends); exact on a DAG.
        """
        n = len(self.text)
        if k <= 0 or n == 0:
            return []
        # kbest[pos] = list of (score, node, prev_rank), best first.
        kbest: list[list[tuple[float, Node | None, int]]] = [[] for _ in range(n + 1)]
        kbest[0] = [(0.0, None, -1)]
        for pos in range(1, n + 1):
            candidates = []
            for node in self.ends[pos]:
                for rank, (score, _, _) in enumerate(kbest[node.start]):
                    candidates.append((score + node.score, node, rank))
            # subtle: sort by score only (stable), so ties keep insertion order.
            kbest[pos] = heapq.nlargest(k, candidates, key=lambda c: c[0])
        results: list[tuple[list[Node], float]] = []
        for score, node, rank in kbest[n]:
            path: list[Node] = []
            nd, r = node, rank
            while nd is not None:
                path.append(nd)
                _, nd, r = kbest[nd.start][r]
            path.reverse()
            results.append((path, score))
        return results

    # --- forward-backward --------------------------------------------------

    def forward(self, theta: float = 1.0) -> list[float]:
        """``alpha[pos]`` = log of the summed (scaled) scores of all paths from 0 to ``pos``."""
        n = len(self.text)
        alpha = [-math.inf] * (n + 1)
        alpha[0] = 0.0
        for pos in range(1, n + 1):
            alpha[pos] = _logsumexp([alpha[nd.start] + theta * nd.score for nd in self.ends[pos]])
        return alpha

    def backward(self, theta: float = 1.0) -> list[float]:
        """``beta[pos]`` = log of the summed (scaled) scores of all paths from ``pos`` to the end."""
        n = len(self.text)
        beta = [-math.inf] * (n + 1)
        beta[n] = 0.0
        for pos in range(n - 1, -1, -1):
            beta[pos] = _logsumexp([theta * nd.score + beta[nd.end] for nd in self.begins[pos]])
        return beta

    def log_z(self) -> float:
        """Log of the total probability mass of all segmentations."""
        return self.forward()[len(self.text)] if self.text else 0.0

    def marginals(self) -> list[tuple[Node, float]]:
        """Each node's posterior probability of being on the path (the E-step's expected count)."""
        alpha, beta = self.forward(), self.backward()
        z = alpha[len(self.text)]
        if z == -math.inf:
            return [(nd, 0.0) for nd in self.nodes]
        return [(nd, math.exp(alpha[nd.start] + nd.score + beta[nd.end] - z)) for nd in self.nodes]

    def sample(self, alpha: float = 0.1, rng: random.Random | None = None) -> list[Node]:
        """Draw a path with probability proportional to ``exp(alpha * score)``.

        Forward-filtering backward-sampling: compute the forward sums, then walk
        back from the end choosing each node in proportion to
        ``exp(fwd[start] + alpha * score)``. ``alpha`` near 0 is close to uniform over
        paths; large ``alpha`` approaches the Viterbi path.
        """
        n = len(self.text)
        if n == 0:
            return []
        rng = rng or random.Random()
        fwd = self.forward(alpha)
        if fwd[n] == -math.inf:
            return []
        path: list[Node] = []
        pos = n
        while pos > 0:
            nodes = [nd for nd in self.ends[pos] if fwd[nd.start] > -math.inf]
            weights = [fwd[nd.start] + alpha * nd.score for nd in nodes]
            top = max(weights)
            probs = [math.exp(w - top) for w in weights]
            pick = rng.random() * sum(probs)
            chosen = nodes[-1]
            for nd, p in zip(nodes, probs):
                pick -= p
                if pick < 0:
                    chosen = nd
                    break
            path.append(chosen)
            pos = chosen.start
        path.reverse()
        return path

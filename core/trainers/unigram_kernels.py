"""Compiled sweeps over many Unigram lattices at once, for the trainer (``core.trainers.unigram``).

The lattices of many strings are laid end to end: string ``w`` owns the nodes
``starts[w] .. ends[w]`` and an edge ``e`` runs from node ``src[e]`` to node
``src[e] + lens[e]`` carrying piece ``pid[e]``. Edges are sorted by ``src``. That
order is all a sweep needs: when the forward sweep reaches the edges leaving node
``i``, every edge entering ``i`` (it starts before ``i``) is done; the backward sweep
walks the same list from the end. So each sweep is one loop over the edges, linear in
their number however long a string is, and it can stop after any edge and resume:
the trainer calls a kernel on consecutive slices ``[e0, e1)`` and reports progress in
between (a 2 MB line is one string; its sweep must not be one silent step).

    >>> import numpy as np
    >>> src, lens, pid = np.array([0, 0, 1]), np.array([1, 2, 1]), np.array([0, 2, 1])  # "ab": a, ab, b
    >>> alpha = np.full(3, -np.inf); alpha[0] = 0.0
    >>> forward_slice(src, lens, pid, np.log([0.5, 0.5, 0.25]), alpha, 0, 3)
    >>> round(float(np.exp(alpha[2])), 4)   # p(a) p(b) + p(ab) = 0.25 + 0.25
    0.5

Values are log-probabilities; ``-inf`` marks an unreachable node. Sums are
``log(exp(x) + exp(y))`` taken one edge at a time (the same sums, in a different order,
as a logsumexp over each node's edges: equal to about 1e-15).
"""

from __future__ import annotations

import math

import numpy as np

from core.jit import kernel


@kernel
def _log_add(x, y):
    """``log(exp(x) + exp(y))`` without overflow; ``-inf`` is the zero."""
    if x == -np.inf:
        return y
    if y == -np.inf:
        return x
    if x > y:
        return x + math.log1p(math.exp(y - x))
    return y + math.log1p(math.exp(x - y))


@kernel
def forward_slice(src, lens, pid, score, alpha, e0, e1):
    """Forward sums over edges ``e0 .. e1 - 1``: ``alpha[dst] (+)= alpha[src] + score[piece]``."""
    for e in range(e0, e1):
        a = alpha[src[e]]
        if a == -np.inf:
            continue
        d = src[e] + lens[e]
        alpha[d] = _log_add(alpha[d], a + score[pid[e]])


@kernel
def backward_slice(src, lens, pid, score, beta, e0, e1):
    """Backward sums over edges ``e1 - 1`` down to ``e0``: ``beta[src] (+)= beta[dst] + score[piece]``."""
    for e in range(e1 - 1, e0 - 1, -1):
        b = beta[src[e] + lens[e]]
        if b == -np.inf:
            continue
        s = src[e]
        beta[s] = _log_add(beta[s], b + score[pid[e]])


@kernel
def marginals_slice(src, lens, pid, score, alpha, beta, node_string, log_z, weights, expected, e0, e1):
    """Adds each edge's posterior probability, times its string's weight, to ``expected[piece]``."""
    for e in range(e0, e1):
        s = src[e]
        w = node_string[s]
        x = alpha[s] + score[pid[e]] + beta[s + lens[e]] - log_z[w]
        if x > -np.inf:
            expected[pid[e]] += math.exp(x) * weights[w]


@kernel
def viterbi_slice(src, lens, pid, score, best, back, e0, e1):
    """Best-path sweep over edges ``e0 .. e1 - 1``; ``back[node]`` = the edge that reaches it best.

    Ties go to the edge seen first, the one starting earliest (the longest last piece).
    """
    for e in range(e0, e1):
        a = best[src[e]]
        if a == -np.inf:
            continue
        d = src[e] + lens[e]
        v = a + score[pid[e]]
        if v > best[d]:
            best[d] = v
            back[d] = e


@kernel
def backtrack(starts, ends, back, src, pid):
    """Each string's best path, read back from its end: (string per token, piece per token).

    Tokens come string by string, each string's from its last token to its first.
    A string whose end is unreachable gives no tokens.
    """
    total = 0
    for w in range(len(starts)):
        node = ends[w]
        while node != starts[w] and back[node] >= 0:
            total += 1
            node = src[back[node]]
    owner = np.empty(total, dtype=np.int32)
    pieces = np.empty(total, dtype=np.int32)
    k = 0
    for w in range(len(starts)):
        node = ends[w]
        while node != starts[w] and back[node] >= 0:
            e = back[node]
            owner[k] = w
            pieces[k] = pid[e]
            k += 1
            node = src[e]
    return owner, pieces

"""Compiled sweeps over many Unigram lattices at once, for the trainer (``core.models.unigram.trainer``).

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

Seeding's one kernel is :func:`group_pairs`, a radix sort that names equal substrings. The
trainer reaches all of them through ``core.models.unigram.signatures.sweep_kernels()``: the
ahead-of-time build of this file when ``python -m core.build`` has made it, else numba's JIT.
"""

from __future__ import annotations

import math

import numpy as np

from core.jit import kernel

_DIGIT_BITS = 11  # group_pairs sorts keys 11 bits a pass
_DIGITS = 1 << _DIGIT_BITS


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


_CHUNK = 4096  # edges whose piece scores are gathered ahead of a sweep (fits in the L1/L2 cache)


@kernel
def _gather(score, pid, c0, c1, out):
    """``out[: c1 - c0] = score[pid[c0:c1]]``.

    subtle: a loop of its own, so the processor can have many of these scattered loads in
    flight; inside a sweep each waits behind the previous edge's arithmetic, and with
    hundreds of thousands of seed pieces (an array larger than the cache) that waiting was
    most of an E-step.
    """
    for e in range(c0, c1):
        out[e - c0] = score[pid[e]]


@kernel
def forward_slice(src, lens, pid, score, alpha, e0, e1):
    """Forward sums over edges ``e0 .. e1 - 1``: ``alpha[dst] (+)= alpha[src] + score[piece]``."""
    edge_score = np.empty(_CHUNK)
    for c0 in range(e0, e1, _CHUNK):
        c1 = min(c0 + _CHUNK, e1)
        _gather(score, pid, c0, c1, edge_score)
        for e in range(c0, c1):
            a = alpha[src[e]]
            if a == -np.inf:
                continue
            d = src[e] + lens[e]
            alpha[d] = _log_add(alpha[d], a + edge_score[e - c0])


@kernel
def backward_slice(src, lens, pid, score, beta, e0, e1):
    """Backward sums over edges ``e1 - 1`` down to ``e0``: ``beta[src] (+)= beta[dst] + score[piece]``."""
    edge_score = np.empty(_CHUNK)
    for c1 in range(e1, e0, -_CHUNK):
        c0 = max(c1 - _CHUNK, e0)
        _gather(score, pid, c0, c1, edge_score)
        for e in range(c1 - 1, c0 - 1, -1):
            b = beta[src[e] + lens[e]]
            if b == -np.inf:
                continue
            s = src[e]
            beta[s] = _log_add(beta[s], b + edge_score[e - c0])


@kernel
def marginals_slice(src, lens, pid, score, alpha, beta, starts, log_z, weights, expected, e0, e1):
    """Adds each edge's posterior probability, times its string's weight, to ``expected[piece]``.

    The string of an edge is found by walking ``starts`` along with the sorted edges.
    """
    if e0 >= e1:
        return
    w = np.searchsorted(starts, src[e0], side="right") - 1
    edge_value = np.empty(_CHUNK)
    for c0 in range(e0, e1, _CHUNK):
        c1 = min(c0 + _CHUNK, e1)
        _gather(score, pid, c0, c1, edge_value)
        for e in range(c0, c1):
            s = src[e]
            while w + 1 < len(starts) and starts[w + 1] <= s:
                w += 1
            x = alpha[s] + edge_value[e - c0] + beta[s + lens[e]] - log_z[w]
            edge_value[e - c0] = math.exp(x) * weights[w] if x > -np.inf else 0.0
        for e in range(c0, c1):  # the scattered adds apart too, in the same order
            if edge_value[e - c0] != 0.0:
                expected[pid[e]] += edge_value[e - c0]


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


@kernel
def best_path_counts(starts, ends, back, src, pid, weights, n_pieces):
    """From the best paths: (weighted uses of each piece, summed weight of the strings using it).

    The same figures as counting the tokens ``backtrack`` lists, without listing them.
    """
    freq = np.zeros(n_pieces)
    used_by = np.zeros(n_pieces)
    last_string = np.full(n_pieces, -1, dtype=np.int64)
    for w in range(len(starts)):
        node = ends[w]
        while node != starts[w] and back[node] >= 0:
            e = back[node]
            p = pid[e]
            freq[p] += weights[w]
            if last_string[p] != w:
                last_string[p] = w
                used_by[p] += weights[w]
            node = src[e]
    return freq, used_by


# -- spm_train's float arithmetic ------------------------------------------------------------
# sentencepiece's trainer keeps log-probabilities, forward/backward sums and expected counts in
# float32 (``unigram_model.cc``: ``LogSumExp``, ``PopulateMarginal``). On the long unspaced lines
# of Japanese the rounding of sums near -1,000 moves a count by a few 0.1 %, and which pieces
# tie or win at a pruning cut follows it. These kernels round as it does, in its order: values
# stay float64 arrays holding float32 numbers, so they take the same arguments as the others.


@kernel
def _f32(x):
    return np.float64(np.float32(x))


@kernel
def _log_add_f32(x, y):
    """spm's ``LogSumExp`` of two float32 numbers (0.2.x: with ``log1p``): the larger alone when 50 apart."""
    lo = min(x, y)
    hi = max(x, y)
    if hi > _f32(lo + 50.0):
        return hi
    return _f32(hi + math.log1p(math.exp(_f32(lo - hi))))


@kernel
def forward_slice_f32(src, lens, pid, score, alpha, e0, e1):
    """``forward_slice`` in spm's float32: a node's sum over its incoming edges, earliest first."""
    for e in range(e0, e1):
        a = alpha[src[e]]
        if a == -np.inf:
            continue
        d = src[e] + lens[e]
        v = _f32(score[pid[e]] + a)
        alpha[d] = v if alpha[d] == -np.inf else _log_add_f32(alpha[d], v)


@kernel
def backward_slice_f32(src, lens, pid, score, beta, unk_score, e0, e1):
    """``backward_slice`` in spm's float32: a node's sum over its outgoing edges, shortest first,
    an edge scored ``unk_score`` (an unknown node) last.

    subtle: the edges leaving one node are summed in spm's order (its trie's matches by length,
    then the unknown node it adds where no character matched), so the sweep goes back one
    node's group at a time; a group cut by a slice bound is summed in two parts."""
    e = e1 - 1
    while e >= e0:
        top = e
        while e >= e0 and src[e] == src[top]:
            e -= 1
        for late in range(2):
            for k in range(e + 1, top + 1):
                if (score[pid[k]] == unk_score) != (late == 1):
                    continue
                b = beta[src[k] + lens[k]]
                if b == -np.inf:
                    continue
                s = src[k]
                v = _f32(score[pid[k]] + b)
                beta[s] = v if beta[s] == -np.inf else _log_add_f32(beta[s], v)


@kernel
def marginals_slice_f32(src, lens, pid, score, alpha, beta, starts, log_z, weights, expected, target, e0, e1):
    """``marginals_slice`` in spm's float32 (the counts too, added edge by edge), an edge's count
    going to ``expected[target[pid]]``: spm adds an unknown node's count to piece 0 in its place
    among the others, and float32 sums depend on that order."""
    if e0 >= e1:
        return
    w = np.searchsorted(starts, src[e0], side="right") - 1
    for e in range(e0, e1):
        s = src[e]
        while w + 1 < len(starts) and starts[w + 1] <= s:
            w += 1
        x = _f32(_f32(_f32(alpha[s] + score[pid[e]]) + beta[s + lens[e]]) - log_z[w])
        if x > -np.inf:
            p = target[pid[e]]
            expected[p] = _f32(expected[p] + _f32(weights[w]) * math.exp(x))


@kernel
def viterbi_slice_f32(src, lens, pid, score, best, back, e0, e1):
    """``viterbi_slice`` with float32 path scores, as spm's ``Viterbi``."""
    for e in range(e0, e1):
        a = best[src[e]]
        if a == -np.inf:
            continue
        d = src[e] + lens[e]
        v = _f32(a + score[pid[e]])
        if v > best[d]:
            best[d] = v
            back[d] = e


@kernel
def copy_inner_edges(src, lens, pid, first_edge, rep_pos, piece_len, base, out_src, out_lens, out_pid):
    """Counts (and, given output arrays, writes) the edges inside each piece's own string.

    Piece ``j`` (``piece_len[j]`` characters) occurs at ``rep_pos[j]`` in the corpus whose
    edges are ``src, lens, pid`` (sorted by ``src``; its first edge there is
    ``first_edge[j]``); its own lattice, without the piece itself, gets nodes ``base[j] ...
    base[j] + piece_len[j]``. Called once with empty outputs to count, then to fill.
    """
    k = 0
    for j in range(len(rep_pos)):
        r = rep_pos[j]
        end = r + piece_len[j]
        e = first_edge[j]
        while e < len(src) and src[e] < end:
            if src[e] + lens[e] <= end and not (src[e] == r and lens[e] == piece_len[j]):
                if len(out_src):
                    out_src[k] = base[j] + src[e] - r
                    out_lens[k] = lens[e]
                    out_pid[k] = pid[e]
                k += 1
            e += 1
    return k


@kernel
def keep_edges(src, lens, pid, new_number):
    """Moves the edges whose piece has a ``new_number`` (not -1) to the front, in order, with
    that number as their piece; returns how many there are.

    In place, so dropping pieces never needs a second copy of the edge list.
    """
    k = 0
    for e in range(len(src)):
        p = new_number[pid[e]]
        if p >= 0:
            src[k], lens[k], pid[k] = src[e], lens[e], p
            k += 1
    return k


@kernel
def group_pairs(hi, lo, n_hi, n_lo):
    """Dense group ids of equal ``(hi[i], lo[i])`` pairs, numbered in pair order, and the first
    member of each group: ``(number of groups, first index per group, group id per index)``.

    What sorting the keys ``hi * n_lo + lo`` would give, by a radix sort of those keys, 11 bits
    a pass (linear in the positions, where a comparison sort costs n log n and, on millions of
    positions, most of the trainer's seeding). subtle: small digits, so each pass counts into
    2,048 buckets that stay in the cache and writes 2,048 sequential streams; sorting by whole
    ranks (millions of buckets) missed the cache on every position.

    >>> n, first, inv = group_pairs(np.array([1, 0, 1]), np.array([2, 5, 2]), 2, 6)
    >>> int(n), first.tolist(), inv.tolist()
    (2, [1, 0], [1, 0, 1])
    """
    n = len(hi)
    keys = np.empty(n, dtype=np.int64)
    for i in range(n):
        keys[i] = np.int64(hi[i]) * n_lo + lo[i]
    order = np.arange(n, dtype=np.int32)  # the trainer's corpus has fewer than 2**31 positions
    bits = 0
    top = np.int64(n_hi) * n_lo - 1
    while top > 0:
        bits += 1
        top >>= 1
    keys_out = np.empty_like(keys)
    order_out = np.empty_like(order)
    start = np.empty(_DIGITS + 1, dtype=np.int64)
    for shift in range(0, bits, _DIGIT_BITS):
        start[:] = 0
        for i in range(n):
            start[((keys[i] >> shift) & (_DIGITS - 1)) + 1] += 1
        for d in range(_DIGITS):
            start[d + 1] += start[d]
        for i in range(n):
            d = (keys[i] >> shift) & (_DIGITS - 1)
            keys_out[start[d]] = keys[i]
            order_out[start[d]] = order[i]
            start[d] += 1
        keys, keys_out = keys_out, keys
        order, order_out = order_out, order
    inv = np.empty(n, dtype=np.int32)
    first = np.empty(n, dtype=np.int32)
    groups = 0
    for j in range(n):
        if j == 0 or keys[j] != keys[j - 1]:
            first[groups] = order[j]
            groups += 1
        inv[order[j]] = groups - 1
    return groups, first[:groups].copy(), inv

"""Compiled merge loop of ``-a sentencepiece-bpe``: :func:`learn_pieces_reference` in
``core/models/bpe/sentencepiece_trainer.py`` is the rule (read it first); this module runs the same
rule on flat arrays so that numba (``core.jit.kernel``) can compile it.

- positions: every distinct word's symbols laid end to end, each position a record of four in
  ``pos``: its symbol, the next and the previous position (-1 at a word's ends) and the pair that
  starts there (-1: none, or not a valid piece), so that only new pairs are looked up and one
  cache line holds what a merge reads of a position. A merge keeps the left position, gives it the
  new symbol and marks the right one dead (symbol -1); ``weight`` is how often its word occurs;
- tokens: the code points of each (``tok_chars`` from ``tok_start``, ``tok_len`` long), its script
  (-1: none, a ``▁`` or an inherited mark) and flags (``BAD``, ``SPACE``, ``DIGIT``), from which a
  pair's validity follows without looking at its text (see :func:`_valid`); ``token_table`` hashes
  the learned pieces' texts (a pair whose text is a piece already is dropped);
- pairs: ids in order of first appearance, an open-addressing table ``(left, right) -> id``, the
  count, the state (``IN_FREQ``: counted; ``MADE``: seen side by side, for the count-0 pieces) and
  the positions where the pair may be, in order (checked when used): ``pair_nodes[q]`` of them from
  ``pool[pair_start[q]]``. A pair gains positions only once, when it is counted first or when the
  merge making its newer token makes it, so each pair's positions are one run of the pool, laid
  out when that step ends, and a merge reads them left to right without sorting;
- the heap: ``(pair, count, text key)`` entries, best first by spm_train's order (count, then the
  shorter piece, then the smaller text; the same text split twice: the shorter left side), the
  text key (:func:`_text_key`) sparing most comparisons a walk over the texts. Distinct pairs
  never tie, so the pop order does not depend on the heap's layout. A pair is pushed when it
  gains (only pairs holding the newest token do, once), never when it loses: an entry's count is
  the pair's or above it, and an entry found above is put back in line with the true count.

Kernels never allocate: :func:`merge_pieces` checks before each merge that every array has room
for its worst case and otherwise returns ``GROW`` (``ints[I_NEED]``: the pair's listed positions);
the caller grows the arrays and calls it again. Scalars live in ``ints`` (``I_*`` slots).
"""

from __future__ import annotations

import numpy as np

from core.jit import inlined, kernel
from core.models.bpe.sentencepiece_signatures import (
    BAD,
    CHUNK_DONE,
    DIGIT,
    GROW,
    I_CHARS,
    I_DONE,
    I_GAINS,
    I_HEAP,
    I_NEED,
    I_NODES,
    I_PAIRS,
    I_PIECES,
    I_TOKENS,
    IN_FREQ,
    MADE,
    SPACE,
    SPLIT_DIGITS,
    STOP_NO_PAIRS,
    STOP_SIZE,
    SUFFIX,
)

_HASH_MULTIPLIER = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed int64 (Fibonacci hashing)


@kernel
def number_chars(symbols, table, char_of):
    """Replace each code point of ``symbols`` by its character's id, numbered in order of first
    appearance (``table``: zeros, one slot per code point up to the largest; ``char_of``: each id's
    code point); returns how many distinct characters there are."""
    n = 0
    for i in range(symbols.shape[0]):
        c = symbols[i]
        t = table[c]
        if t == 0:
            char_of[n] = c
            n += 1
            t = table[c] = n
        symbols[i] = t - 1
    return n


@kernel
def count_chars(symbols, word_len, word_count, counts):
    """Add to ``counts[id]`` how often each character occurs, each word counted as often as it occurs."""
    start = 0
    for w in range(word_len.shape[0]):
        n = word_count[w]
        for i in range(start, start + word_len[w]):
            counts[symbols[i]] += n
        start += word_len[w]


@kernel
def renumber(symbols, new_id):
    """``symbols[i] = new_id[symbols[i]]`` (rare characters become the unknown one)."""
    for i in range(symbols.shape[0]):
        symbols[i] = new_id[symbols[i]]


@inlined
def _pair_slot(pair_table, pair_left, pair_right, left, right):
    """Slot of pair ``(left, right)`` in the table of pair ids (-1: empty), or the empty slot to take."""
    mask = pair_table.shape[0] - 1
    i = ((((np.int64(left) << 32) | right) * _HASH_MULTIPLIER) >> 29) & mask
    while True:
        p = pair_table[i]
        if p == -1 or (pair_left[p] == left and pair_right[p] == right):
            return i
        i = (i + 1) & mask


@kernel
def rehash_pairs(pair_table, pair_left, pair_right, n_pairs):
    """Fill an empty (all -1) table with pairs ``0 .. n_pairs-1`` (after growing it)."""
    for p in range(n_pairs):
        pair_table[_pair_slot(pair_table, pair_left, pair_right, pair_left[p], pair_right[p])] = p


@inlined
def _valid(a, b, tok_len, tok_script, tok_flags, max_len, options):
    """Whether ``a + b`` may be a piece (``SentencePieceSettings.is_valid_piece`` of the joined text):
    both sides are valid already, so it is enough to know their lengths, scripts and flags.

    ``▁`` only first (only last with ``SUFFIX``): the right side (left side) holds none; one script:
    the sides' scripts agree where both have one; ``split_digits``: no digit in a piece of two.
    """
    fa = tok_flags[a]
    fb = tok_flags[b]
    if (fa | fb) & BAD:
        return False
    if tok_len[a] + tok_len[b] > max_len:
        return False
    if (fa if options & SUFFIX else fb) & SPACE:
        return False
    if options & SPLIT_DIGITS and (fa | fb) & DIGIT:
        return False
    sa = tok_script[a]
    sb = tok_script[b]
    return sa < 0 or sb < 0 or sa == sb


@inlined
def _char_at(tok_chars, tok_start, tok_len, a, b, k):
    """Character ``k`` of the text ``a + b``."""
    la = tok_len[a]
    if k < la:
        return tok_chars[tok_start[a] + k]
    return tok_chars[tok_start[b] + k - la]


@inlined
def _text_key(a, b, tok_chars, tok_start, tok_len):
    """The length and first two characters of ``a + b`` in one number that orders as they do."""
    n = np.int64(tok_len[a] + tok_len[b])
    first = np.int64(_char_at(tok_chars, tok_start, tok_len, a, b, 0))
    return (n << 42) | (first << 21) | _char_at(tok_chars, tok_start, tok_len, a, b, 1)


@inlined
def _before(p, cp, kp, q, cq, kq, pair_left, pair_right, tok_chars, tok_start, tok_len):
    """Whether pair ``p`` counted ``cp`` comes before pair ``q`` counted ``cq`` (``kp``, ``kq``: their
    :func:`_text_key`): the higher count, then the shorter text, then the smaller text (code
    points), then the shorter left side."""
    if cp != cq:
        return cp > cq
    if kp != kq:
        return kp < kq
    a = pair_left[p]
    b = pair_right[p]
    c = pair_left[q]
    d = pair_right[q]
    for k in range(2, tok_len[a] + tok_len[b]):
        x = _char_at(tok_chars, tok_start, tok_len, a, b, k)
        y = _char_at(tok_chars, tok_start, tok_len, c, d, k)
        if x != y:
            return x < y
    return tok_len[a] < tok_len[c]


@inlined
def _sift_up(heap_pair, heap_count, heap_key, pos, pair_left, pair_right, tok_chars, tok_start, tok_len):
    p = heap_pair[pos]
    c = heap_count[pos]
    k = heap_key[pos]
    while pos > 0:
        up = (pos - 1) >> 1
        if not _before(p, c, k, heap_pair[up], heap_count[up], heap_key[up], pair_left, pair_right,
                       tok_chars, tok_start, tok_len):  # fmt: skip
            break
        heap_pair[pos] = heap_pair[up]
        heap_count[pos] = heap_count[up]
        heap_key[pos] = heap_key[up]
        pos = up
    heap_pair[pos] = p
    heap_count[pos] = c
    heap_key[pos] = k


@inlined
def _sift_down(heap_pair, heap_count, heap_key, pos, n, pair_left, pair_right, tok_chars, tok_start, tok_len):
    p = heap_pair[pos]
    c = heap_count[pos]
    k = heap_key[pos]
    while True:
        down = 2 * pos + 1
        if down >= n:
            break
        if down + 1 < n and _before(heap_pair[down + 1], heap_count[down + 1], heap_key[down + 1], heap_pair[down],
                                    heap_count[down], heap_key[down], pair_left, pair_right,
                                    tok_chars, tok_start, tok_len):  # fmt: skip
            down += 1
        if not _before(heap_pair[down], heap_count[down], heap_key[down], p, c, k, pair_left, pair_right,
                       tok_chars, tok_start, tok_len):  # fmt: skip
            break
        heap_pair[pos] = heap_pair[down]
        heap_count[pos] = heap_count[down]
        heap_key[pos] = heap_key[down]
        pos = down
    heap_pair[pos] = p
    heap_count[pos] = c
    heap_key[pos] = k


@inlined
def _pop(heap_pair, heap_count, heap_key, ints, pair_left, pair_right, tok_chars, tok_start, tok_len):
    n = ints[I_HEAP] - 1
    ints[I_HEAP] = n
    if n > 0:
        heap_pair[0] = heap_pair[n]
        heap_count[0] = heap_count[n]
        heap_key[0] = heap_key[n]
        _sift_down(
            heap_pair, heap_count, heap_key, 0, n, pair_left, pair_right, tok_chars, tok_start, tok_len
        )


@inlined
def _push(p, c, heap_pair, heap_count, heap_key, ints, pair_left, pair_right, tok_chars, tok_start, tok_len):
    n = ints[I_HEAP]
    heap_pair[n] = p
    heap_count[n] = c
    heap_key[n] = _text_key(pair_left[p], pair_right[p], tok_chars, tok_start, tok_len)
    ints[I_HEAP] = n + 1
    _sift_up(heap_pair, heap_count, heap_key, n, pair_left, pair_right, tok_chars, tok_start, tok_len)


@inlined
def _text_slot(token_table, tok_chars, tok_start, tok_len, a, b):
    """Slot of the learned piece whose text is ``a + b`` in ``token_table``, or the empty slot."""
    n = tok_len[a] + tok_len[b]
    h = np.int64(n)
    for k in range(n):
        h = (h ^ _char_at(tok_chars, tok_start, tok_len, a, b, k)) * _HASH_MULTIPLIER
    mask = token_table.shape[0] - 1
    i = (h >> 29) & mask
    while True:
        t = token_table[i]
        if t == -1:
            return i
        if tok_len[t] == n:
            s = tok_start[t]
            same = True
            for k in range(n):
                if tok_chars[s + k] != _char_at(tok_chars, tok_start, tok_len, a, b, k):
                    same = False
                    break
            if same:
                return i
        i = (i + 1) & mask


@inlined
def _new_pair(left, right, slot, pair_table, pair_left, pair_right, pair_count, pair_state, pair_start,
              pair_nodes, pair_mark, ints):  # fmt: skip
    q = ints[I_PAIRS]
    ints[I_PAIRS] = q + 1
    pair_table[slot] = q
    pair_left[q] = left
    pair_right[q] = right
    pair_count[q] = 0
    pair_state[q] = 0
    pair_start[q] = 0
    pair_nodes[q] = 0
    pair_mark[q] = -1
    return q


@kernel
def link_and_count(symbols, word_len, word_count, pos, weight,
                   tok_chars, tok_start, tok_len, tok_script, tok_flags, token_table,
                   pair_table, pair_left, pair_right, pair_count, pair_state, pair_start, pair_nodes, pair_mark,
                   pool, heap_pair, heap_count, heap_key, ints, max_len, options, first):  # fmt: skip
    """Link each word's positions, count every valid pair (weighted), lay out where it is, and heap them.

    Starts counting at position ``first`` (0: the words are linked first); returns the position
    to start from again when the pair arrays are full (the caller grows them and the heap, which
    is as long), or -1 when done. The pool holds at least as many items as there are positions.
    """
    start = 0
    for w in range(word_len.shape[0] if first == 0 else 0):
        length = word_len[w]
        n = word_count[w]
        for k in range(length):
            i = start + k
            weight[i] = n
            pos[4 * i] = symbols[i]
            pos[4 * i + 1] = i + 1 if k + 1 < length else -1
            pos[4 * i + 2] = i - 1 if k > 0 else -1
        start += length
    room = pair_left.shape[0]
    for i in range(first, symbols.shape[0]):
        if ints[I_PAIRS] == room:
            return i
        pos[4 * i + 3] = -1
        j = pos[4 * i + 1]
        if j == -1:
            continue
        a = symbols[i]
        b = symbols[j]
        if not _valid(a, b, tok_len, tok_script, tok_flags, max_len, options):
            continue
        slot = _pair_slot(pair_table, pair_left, pair_right, a, b)
        q = pair_table[slot]
        if q == -1:
            q = _new_pair(a, b, slot, pair_table, pair_left, pair_right, pair_count, pair_state, pair_start,
                          pair_nodes, pair_mark, ints)  # fmt: skip
            pair_state[q] = IN_FREQ | MADE
        pair_count[q] += weight[i]
        pair_nodes[q] += 1
        pos[4 * i + 3] = q
    n_pairs = ints[I_PAIRS]
    at = 0
    for q in range(n_pairs):
        pair_start[q] = at
        at += pair_nodes[q]
        pair_nodes[q] = 0
    ints[I_NODES] = at
    for i in range(symbols.shape[0]):  # (again: the positions in order, each after its pair's last)
        q = pos[4 * i + 3]
        if q != -1:
            pool[pair_start[q] + pair_nodes[q]] = i
            pair_nodes[q] += 1
    for q in range(n_pairs):
        heap_pair[q] = q
        heap_count[q] = pair_count[q]
        heap_key[q] = _text_key(pair_left[q], pair_right[q], tok_chars, tok_start, tok_len)
    ints[I_HEAP] = n_pairs
    for k in range(n_pairs // 2 - 1, -1, -1):  # heapify
        _sift_down(heap_pair, heap_count, heap_key, k, n_pairs, pair_left, pair_right,
                   tok_chars, tok_start, tok_len)  # fmt: skip
    return -1


@inlined
def _lose(q, n, merging, pair_count, pair_state):
    """The readable loop's ``add`` with a negative count: pair ``q`` (-1: no valid pair) loses ``n``.
    No push: its entry in the heap is now above it (see merge_pieces)."""
    if q != -1 and q != merging and pair_state[q] & IN_FREQ:  # (a dropped pair counts again from 0)
        pair_count[q] -= n


@inlined
def _gain(left, right, n, at, stamp, changed, n_changed, gain_pair, gain_pos,
          tok_len, tok_script, tok_flags,
          pair_table, pair_left, pair_right, pair_count, pair_state, pair_start, pair_nodes, pair_mark,
          ints, max_len, options):  # fmt: skip
    """The readable loop's ``add`` with a positive count: pair ``(left, right)`` (one side the newest
    token) gains ``n`` at position ``at``. Returns the pair (-1: not a valid one) and how many pairs
    ``changed`` lists now; each gain's pair and position go to ``gain_pair``/``gain_pos``."""
    if not _valid(left, right, tok_len, tok_script, tok_flags, max_len, options):
        return -1, n_changed
    slot = _pair_slot(pair_table, pair_left, pair_right, left, right)
    q = pair_table[slot]
    if q == -1:
        q = _new_pair(left, right, slot, pair_table, pair_left, pair_right, pair_count, pair_state,
                      pair_start, pair_nodes, pair_mark, ints)  # fmt: skip
    pair_count[q] += n
    pair_state[q] |= IN_FREQ | MADE
    pair_nodes[q] += 1
    g = ints[I_GAINS]
    gain_pair[g] = q
    gain_pos[g] = at
    ints[I_GAINS] = g + 1
    if pair_mark[q] != stamp:
        pair_mark[q] = stamp
        changed[n_changed] = q
        n_changed += 1
    return q, n_changed


@kernel
def merge_pieces(pos, weight,
                 tok_chars, tok_start, tok_len, tok_script, tok_flags, token_table,
                 pair_table, pair_left, pair_right, pair_count, pair_state, pair_start, pair_nodes, pair_mark,
                 pool, heap_pair, heap_count, heap_key, gain_pair, gain_pos, changed,
                 ints, size, steps, max_len, options, out_left, out_right, out_new, out_count):  # fmt: skip
    """Up to ``steps`` merges while fewer than ``size`` pieces are learned; each merge's left, right,
    new token and count go to ``out_*`` (``ints[I_DONE]`` says how many). Returns ``CHUNK_DONE``,
    ``STOP_SIZE``, ``STOP_NO_PAIRS`` (no pair occurs any more) or ``GROW``."""
    done = 0
    ints[I_DONE] = 0
    while done < steps:
        if ints[I_PIECES] >= size:
            return STOP_SIZE
        if ints[I_HEAP] == 0:
            return STOP_NO_PAIRS
        p = heap_pair[0]
        c = heap_count[0]
        if not pair_state[p] & IN_FREQ or pair_count[p] <= 0:
            _pop(heap_pair, heap_count, heap_key, ints, pair_left, pair_right, tok_chars, tok_start, tok_len)
            continue  # merged, dropped or no longer anywhere
        if pair_count[p] != c:  # fallen since pushed (a count that rises is pushed again): back in line
            heap_count[0] = pair_count[p]
            _sift_down(heap_pair, heap_count, heap_key, 0, ints[I_HEAP], pair_left, pair_right,
                       tok_chars, tok_start, tok_len)  # fmt: skip
            continue
        a = pair_left[p]
        b = pair_right[p]
        slot = _text_slot(token_table, tok_chars, tok_start, tok_len, a, b)
        if token_table[slot] != -1:  # a piece already, reached by another split: never merged
            _pop(heap_pair, heap_count, heap_key, ints, pair_left, pair_right, tok_chars, tok_start, tok_len)
            pair_state[p] = 0
            pair_count[p] = 0
            continue
        k = pair_nodes[p]
        la = tok_len[a]
        lb = tok_len[b]
        if (
            ints[I_PAIRS] + 2 * k > pair_left.shape[0]
            or ints[I_NODES] + 2 * k > pool.shape[0]
            or ints[I_HEAP] + 2 * k > heap_pair.shape[0]
            or 2 * k > gain_pair.shape[0]
            or 2 * k > changed.shape[0]
            or ints[I_CHARS] + la + lb > tok_chars.shape[0]
        ):
            ints[I_NEED] = k
            return GROW
        _pop(heap_pair, heap_count, heap_key, ints, pair_left, pair_right, tok_chars, tok_start, tok_len)

        # the new token: a's and b's characters, lengths, scripts and flags joined
        new = ints[I_TOKENS]
        ints[I_TOKENS] = new + 1
        s = ints[I_CHARS]
        for m in range(la + lb):
            tok_chars[s + m] = _char_at(tok_chars, tok_start, tok_len, a, b, m)
        ints[I_CHARS] = s + la + lb
        tok_start[new] = s
        tok_len[new] = la + lb
        tok_script[new] = tok_script[a] if tok_script[a] >= 0 else tok_script[b]
        tok_flags[new] = tok_flags[a] | tok_flags[b]
        token_table[slot] = new

        # where the pair may be, left to right (a position may hold another pair by now)
        first = pair_start[p]
        stamp = ints[I_PIECES]
        n_changed = 0
        ints[I_GAINS] = 0
        for m in range(first, first + k):
            i = pool[m]
            if pos[4 * i + 3] != p:
                continue  # merged away since it was listed
            j = pos[4 * i + 1]
            n = weight[i]
            left = pos[4 * i + 2]
            right = pos[4 * j + 1]
            if left != -1:
                _lose(pos[4 * left + 3], n, p, pair_count, pair_state)
            if right != -1:
                _lose(pos[4 * j + 3], n, p, pair_count, pair_state)
            pos[4 * i] = new
            pos[4 * j] = -1
            pos[4 * j + 3] = -1
            pos[4 * i + 3] = -1
            pos[4 * i + 1] = right
            if right != -1:
                pos[4 * right + 2] = i
            # subtle: as spm_train, the pairs around each merge are made then, so "abab" briefly
            # holds ab|a (it matters once the counts run out)
            if left != -1:
                pos[4 * left + 3], n_changed = _gain(pos[4 * left], new, n, left, stamp, changed, n_changed,
                                                 gain_pair, gain_pos, tok_len, tok_script, tok_flags,
                                                 pair_table, pair_left, pair_right, pair_count, pair_state,
                                                 pair_start, pair_nodes, pair_mark, ints, max_len, options)  # fmt: skip
            if right != -1:
                pos[4 * i + 3], n_changed = _gain(new, pos[4 * right], n, i, stamp, changed, n_changed,
                                              gain_pair, gain_pos, tok_len, tok_script, tok_flags,
                                              pair_table, pair_left, pair_right, pair_count, pair_state,
                                              pair_start, pair_nodes, pair_mark, ints, max_len, options)  # fmt: skip
        pair_state[p] = 0
        pair_count[p] = 0
        pair_nodes[p] = 0
        # the gains laid out, each pair's positions one run (in the order they came: left to right)
        at = ints[I_NODES]
        for m in range(n_changed):
            q = changed[m]
            pair_start[q] = at
            at += pair_nodes[q]
            pair_nodes[q] = 0
        ints[I_NODES] = at
        for g in range(ints[I_GAINS]):
            q = gain_pair[g]
            pool[pair_start[q] + pair_nodes[q]] = gain_pos[g]
            pair_nodes[q] += 1
        for m in range(n_changed):
            q = changed[m]
            if pair_count[q] > 0:
                _push(q, pair_count[q], heap_pair, heap_count, heap_key, ints, pair_left, pair_right,
                      tok_chars, tok_start, tok_len)  # fmt: skip
        out_left[done] = a
        out_right[done] = b
        out_new[done] = new
        out_count[done] = c
        done += 1
        ints[I_DONE] = done
        ints[I_PIECES] += 1
    return CHUNK_DONE

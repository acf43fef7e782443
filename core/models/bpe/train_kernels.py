"""Compiled loops of the BPE trainer (``core.models.bpe.trainer``): pair counting and the merge loop.

The algorithm is the one ``core/models/bpe/trainer.py`` describes step by step (read it first); this
module only stores it in flat numpy arrays so that numba (``core.jit.kernel``) can run it:

- words: one int32 array of symbol ids (``symbols``), each word a slice
  ``symbols[word_start[w] : word_start[w] + word_len[w]]``; a merge rewrites the slice in place
  and shortens ``word_len[w]``;
- pairs: ids handed out in order of first appearance; ``pair_left``, ``pair_right``,
  ``pair_count`` per id, and an open-addressing hash table ``(left << 32 | right) -> id``;
- heap entries (``entry_*``): ``(-count, left, right, seq)`` is the key, ``entry_start`` and
  ``entry_end`` delimit the entry's word list in ``pool``. The heap itself (``heap``) holds entry
  ids and is kept exactly as Python's ``heapq`` would keep it (same sift steps), as the
  pure Python loop this replaces did;
- tokens: the code points of every token (``token_chars``) and a hash table of them, because a
  merge may re-create a token that exists (``a + bc`` and ``ab + c``): then it reuses that id,
  as the Python loop's ``token_to_id`` lookup did.

Scalars live in ``ints`` (an int64 array indexed by the ``I_*`` constants) so a kernel can
update them in place. Kernels never allocate: before a merge, :func:`merge_chunk` checks that
every array has room for the worst case of that merge and otherwise returns ``GROW``;
the caller grows the arrays and calls it again.

:class:`core.models.bpe.merge_loop.MergeState` holds the arrays and calls these kernels; the same
source is compiled ahead of time by ``python -m core.build`` (signatures in ``signatures.EXPORTS``).
"""

from __future__ import annotations

import numpy as np

from core.jit import kernel
from core.models.bpe.signatures import (
    CHUNK_DONE,
    GROW,
    I_CHARS,
    I_ENTRIES,
    I_HEAP,
    I_NEED,
    I_NEED_CHARS,
    I_NEED_NEW,
    I_PAIRS,
    I_POOL,
    I_SEQ,
    I_STEP,
    I_TOKENS,
    STOP_MIN_FREQUENCY,
    STOP_NO_PAIRS,
    STOP_VOCAB,
)

_HASH_MULTIPLIER = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed int64 (Fibonacci hashing)
_TIE_LOOK = 64  # heap entries the tie check looks at, at most


@kernel
def _slot(table_keys, key):
    """Slot of ``key`` in an open-addressing table (size a power of two): its own, or the empty one to take."""
    mask = table_keys.shape[0] - 1
    i = ((key * _HASH_MULTIPLIER) >> 29) & mask
    while True:
        k = table_keys[i]
        if k == key or k == -1:
            return i
        i = (i + 1) & mask


@kernel
def _pair_slot(pair_table, pair_left, pair_right, left, right):
    """Slot of pair ``(left, right)`` in the open-addressing table of pair ids (-1: empty), or the empty slot."""
    mask = pair_table.shape[0] - 1
    i = ((((np.int64(left) << 32) | right) * _HASH_MULTIPLIER) >> 29) & mask
    while True:
        p = pair_table[i]
        if p == -1 or (pair_left[p] == left and pair_right[p] == right):
            return i
        i = (i + 1) & mask


@kernel
def _pair_id(pair_table, pair_left, pair_right, pair_count, ints, left, right):
    """The id of pair ``(left, right)``, added with count 0 if new (the caller checked the room)."""
    i = _pair_slot(pair_table, pair_left, pair_right, left, right)
    p = pair_table[i]
    if p != -1:
        return p
    p = ints[I_PAIRS]
    ints[I_PAIRS] = p + 1
    pair_table[i] = p
    pair_left[p] = left
    pair_right[p] = right
    pair_count[p] = 0
    return p


@kernel
def rehash_pairs(pair_table, pair_left, pair_right, n_pairs):
    """Fill an empty (all -1) table with pairs ``0 .. n_pairs-1`` (after growing it)."""
    for p in range(n_pairs):
        pair_table[_pair_slot(pair_table, pair_left, pair_right, pair_left[p], pair_right[p])] = p


@kernel
def count_pairs(symbols, word_start, word_len, word_count, first_word, pair_table,
                pair_left, pair_right, pair_count, pair_words, last_word, ints):  # fmt: skip
    """Count adjacent pairs of words ``first_word ..`` (weighted) and the words each occurs in.

    Stops early, returning the next word to count, when the pair arrays may not hold another
    word's pairs; returns the number of words when done. ``pair_words[p]`` counts each word once.
    """
    n_words = word_start.shape[0]
    room = pair_left.shape[0]
    for w in range(first_word, n_words):
        start = word_start[w]
        length = word_len[w]
        if ints[I_PAIRS] + length > room:
            return w
        n = word_count[w]
        for j in range(start, start + length - 1):
            p = _pair_id(pair_table, pair_left, pair_right, pair_count, ints, symbols[j], symbols[j + 1])
            pair_count[p] += n
            if last_word[p] != w:
                last_word[p] = w
                pair_words[p] += 1
    return n_words


# -- the heap: CPython's heapq, step for step, over entry ids --------------------------------


@kernel
def _less(x, y, entry_neg, entry_pair, pair_left, pair_right, entry_seq):
    """Heap order of two entries: ``(-count, left id, right id, seq)``, as the Python tuples compared."""
    if entry_neg[x] != entry_neg[y]:
        return entry_neg[x] < entry_neg[y]
    px = entry_pair[x]
    py = entry_pair[y]
    if pair_left[px] != pair_left[py]:
        return pair_left[px] < pair_left[py]
    if pair_right[px] != pair_right[py]:
        return pair_right[px] < pair_right[py]
    return entry_seq[x] < entry_seq[y]


@kernel
def _sift_down(heap, start, pos, entry_neg, entry_pair, pair_left, pair_right, entry_seq):
    """heapq._siftdown: move ``heap[pos]`` up towards ``start`` while it is smaller than its parent."""
    item = heap[pos]
    while pos > start:
        parent_pos = (pos - 1) >> 1
        parent = heap[parent_pos]
        if _less(item, parent, entry_neg, entry_pair, pair_left, pair_right, entry_seq):
            heap[pos] = parent
            pos = parent_pos
            continue
        break
    heap[pos] = item


@kernel
def _sift_up(heap, size, pos, entry_neg, entry_pair, pair_left, pair_right, entry_seq):
    """heapq._siftup: move the smaller child up until a leaf, put ``heap[pos]`` there, sift it back."""
    start = pos
    item = heap[pos]
    child = 2 * pos + 1
    while child < size:
        right = child + 1
        if right < size and not _less(
            heap[child], heap[right], entry_neg, entry_pair, pair_left, pair_right, entry_seq
        ):
            child = right
        heap[pos] = heap[child]
        pos = child
        child = 2 * pos + 1
    heap[pos] = item
    _sift_down(heap, start, pos, entry_neg, entry_pair, pair_left, pair_right, entry_seq)


@kernel
def _heap_pop(heap, ints, entry_neg, entry_pair, pair_left, pair_right, entry_seq):
    """heapq.heappop (the caller knows the heap is not empty)."""
    size = ints[I_HEAP] - 1
    ints[I_HEAP] = size
    last = heap[size]
    if size == 0:
        return last
    top = heap[0]
    heap[0] = last
    _sift_up(heap, size, 0, entry_neg, entry_pair, pair_left, pair_right, entry_seq)
    return top


@kernel
def _heap_push(heap, ints, entry, entry_neg, entry_pair, pair_left, pair_right, entry_seq):
    """heapq.heappush."""
    size = ints[I_HEAP]
    heap[size] = entry
    ints[I_HEAP] = size + 1
    _sift_down(heap, 0, size, entry_neg, entry_pair, pair_left, pair_right, entry_seq)


@kernel
def fill_initial_entries(symbols, word_start, word_len, pair_table, pair_left, pair_right, pair_count,
                         order, pair_words, last_word, entry_pair, entry_neg, entry_seq, entry_start,
                         entry_end, pool, heap, ints):  # fmt: skip
    """One heap entry per pair, its ``seq`` the pair's rank in ``order`` (sorted by ids); then heapify.

    Each entry lists the words its pair occurs in, in increasing order, as the Python trainer's
    first heap did. ``last_word`` must be all -1. ``pair_words`` (how many words hold each pair)
    is used up: it becomes each pair's next place in ``pool``.
    """
    n_pairs = order.shape[0]
    at = 0
    for rank in range(n_pairs):
        p = order[rank]
        entry_pair[rank] = p
        entry_neg[rank] = -pair_count[p]
        entry_seq[rank] = rank
        entry_start[rank] = at
        size = pair_words[p]
        pair_words[p] = at  # (the cursor: no array of its own, kernels never allocate)
        at += size
        entry_end[rank] = at
        heap[rank] = rank
    for w in range(word_start.shape[0]):
        start = word_start[w]
        for j in range(start, start + word_len[w] - 1):
            p = pair_table[_pair_slot(pair_table, pair_left, pair_right, symbols[j], symbols[j + 1])]
            if last_word[p] != w:
                last_word[p] = w
                pool[pair_words[p]] = w
                pair_words[p] += 1
    ints[I_ENTRIES] = n_pairs
    ints[I_SEQ] = n_pairs
    ints[I_HEAP] = n_pairs
    ints[I_POOL] = at
    for i in range(n_pairs // 2 - 1, -1, -1):  # heapq.heapify
        _sift_up(heap, n_pairs, i, entry_neg, entry_pair, pair_left, pair_right, entry_seq)


# -- tokens ------------------------------------------------------------------------------------


@kernel
def _token_hash(chars, start, length):
    """A non-negative 64-bit hash of ``chars[start : start + length]`` (FNV-1a over code points)."""
    h = np.int64(-3750763034362895579)  # FNV offset basis as a signed int64
    for i in range(start, start + length):
        h = (h ^ chars[i]) * 1099511628211
    return h & 0x7FFFFFFFFFFFFFFF


@kernel
def _token_slot(token_keys, token_ids, token_chars, token_start, token_len, h, start, length):
    """Slot of the token whose code points are ``token_chars[start : start + length]``, or the empty slot."""
    mask = token_keys.shape[0] - 1
    i = ((h * _HASH_MULTIPLIER) >> 29) & mask
    while True:
        k = token_keys[i]
        if k == -1:
            return i
        if k == h:
            t = token_ids[i]
            if token_len[t] == length:
                same = True
                s = token_start[t]
                for j in range(length):
                    if token_chars[s + j] != token_chars[start + j]:
                        same = False
                        break
                if same:
                    return i
        i = (i + 1) & mask


@kernel
def index_tokens(token_keys, token_ids, token_chars, token_start, token_len, n_tokens):
    """Put tokens ``0 .. n_tokens-1`` in the (empty) token table."""
    for t in range(n_tokens):
        h = _token_hash(token_chars, token_start[t], token_len[t])
        i = _token_slot(
            token_keys, token_ids, token_chars, token_start, token_len, h, token_start[t], token_len[t]
        )
        token_keys[i] = h
        token_ids[i] = t


@kernel
def _add_token(token_keys, token_ids, token_chars, token_start, token_len, prefix, ints, left, right):
    """Id of ``left + right`` (right without its continuing-subword ``prefix``): existing, or new."""
    at = ints[I_CHARS]
    n = 0
    for j in range(token_start[left], token_start[left] + token_len[left]):
        token_chars[at + n] = token_chars[j]
        n += 1
    skip = 0
    if prefix.shape[0] > 0 and token_len[right] >= prefix.shape[0]:
        skip = prefix.shape[0]
        for j in range(prefix.shape[0]):
            if token_chars[token_start[right] + j] != prefix[j]:
                skip = 0
                break
    for j in range(token_start[right] + skip, token_start[right] + token_len[right]):
        token_chars[at + n] = token_chars[j]
        n += 1
    h = _token_hash(token_chars, at, n)
    i = _token_slot(token_keys, token_ids, token_chars, token_start, token_len, h, at, n)
    if token_keys[i] != -1:
        return token_ids[i]
    t = ints[I_TOKENS]
    ints[I_TOKENS] = t + 1
    ints[I_CHARS] = at + n
    token_start[t] = at
    token_len[t] = n
    token_keys[i] = h
    token_ids[i] = t
    return t


# -- the merge loop ----------------------------------------------------------------------------


@kernel
def _has_tie(heap, size, count, pair, entry_neg, entry_pair, pair_count, stack):
    """Does a pair other than ``pair`` have ``count`` now? Walks the heap's entries keyed ``count``.

    Called when ``pair`` has just been popped as the best, before it is merged: every other
    pair with that count is then keyed ``count`` (keys are never below a pair's count, and
    entries keyed higher came first), so the walk finds it unless 64 entries come before it.
    ``stack`` is scratch room for the walk, ``TIE_STACK`` items.
    """
    stack[0] = 0
    depth = 1
    seen = 0
    while depth > 0 and seen < _TIE_LOOK:
        depth -= 1
        i = stack[depth]
        if i >= size or entry_neg[heap[i]] != -count:
            continue
        seen += 1
        other = entry_pair[heap[i]]
        if other != pair and pair_count[other] == count:
            return True
        stack[depth] = 2 * i + 1
        stack[depth + 1] = 2 * i + 2
        depth += 2
    return False


@kernel
def merge_chunk(symbols, word_start, word_len, word_count,
                token_keys, token_ids, token_chars, token_start, token_len, prefix,
                pair_table, pair_left, pair_right, pair_count, pair_slot,
                entry_pair, entry_neg, entry_seq, entry_start, entry_end, heap, pool,
                gained_slot, gained_word, slot_pair, slot_count, slot_last_word,
                ints, vocab_size, min_frequency, max_merges,
                out_left, out_right, out_new, out_count, out_tie, out_vocab, tie_stack):  # fmt: skip
    """Run up to ``max_merges`` merges (step 4 of core.models.bpe.trainer); ``(result, merges done)``.

    Merge ``k`` of the chunk is reported in ``out_*[k]``. The result says why the chunk ended:
    ``CHUNK_DONE`` (call again), a ``STOP_*`` reason, or ``GROW`` (an array lacks room for the
    next merge; ``ints[I_NEED]`` pairs and ``ints[I_NEED_CHARS]`` token characters are asked for).
    """
    done = 0
    while True:
        if done == max_merges:
            return CHUNK_DONE, done
        if ints[I_TOKENS] >= vocab_size:
            return STOP_VOCAB, done
        if ints[I_HEAP] == 0:
            return STOP_NO_PAIRS, done
        top = heap[0]
        p = entry_pair[top]
        count = pair_count[p]
        if -entry_neg[top] != count:  # stale: push back with the current count (lazy invalidation)
            _heap_pop(heap, ints, entry_neg, entry_pair, pair_left, pair_right, entry_seq)
            entry_neg[top] = -count
            _heap_push(heap, ints, top, entry_neg, entry_pair, pair_left, pair_right, entry_seq)
            continue
        if count < 1:
            return STOP_NO_PAIRS, done
        if count < min_frequency:
            return STOP_MIN_FREQUENCY, done
        a = pair_left[p]
        b = pair_right[p]
        first = entry_start[top]
        stop = entry_end[top]
        # Room for the worst case: each occurrence gains (word, pair) twice, and the new pairs
        # all hold the new token, so there are at most two per token. Counting the occurrences
        # first (a scan without hashing) keeps the reservation near what the merge uses.
        occurrences = 0
        for t in range(first, stop):
            w = pool[t]
            start = word_start[w]
            length = word_len[w]
            i = 0
            while i + 1 < length:
                if symbols[start + i] == a and symbols[start + i + 1] == b:
                    occurrences += 1
                    i += 2
                else:
                    i += 1
        need = 2 * occurrences + 2
        need_new = min(need, 2 * ints[I_TOKENS] + 4)
        need_chars = token_len[a] + token_len[b]
        if (
            ints[I_PAIRS] + need_new > pair_left.shape[0]
            or ints[I_ENTRIES] + need_new > entry_pair.shape[0]
            or ints[I_POOL] + need > pool.shape[0]
            or need > gained_slot.shape[0]
            or ints[I_CHARS] + need_chars > token_chars.shape[0]
        ):
            ints[I_NEED] = need
            ints[I_NEED_NEW] = need_new
            ints[I_NEED_CHARS] = need_chars
            return GROW, done
        _heap_pop(heap, ints, entry_neg, entry_pair, pair_left, pair_right, entry_seq)
        tie = _has_tie(heap, ints[I_HEAP], count, p, entry_neg, entry_pair, pair_count, tie_stack)

        # 4a. the new token (or the existing one with the same text)
        c = _add_token(token_keys, token_ids, token_chars, token_start, token_len, prefix, ints, a, b)
        step = ints[I_STEP] + 1
        ints[I_STEP] = step

        # 4b. merge in every listed word, left to right without overlaps, rewriting it in place;
        # each occurrence retires the pairs around it and creates pairs with the new token.
        n_slots = 0
        n_gained = 0
        for t in range(first, stop):
            w = pool[t]
            start = word_start[w]
            length = word_len[w]
            n = word_count[w]
            last = length - 2
            prev_end = -1
            i = 0
            out = 0
            while i < length:
                x = symbols[start + i]
                if x == a and i + 1 < length and symbols[start + i + 1] == b:
                    for side in range(2):
                        if side == 0:
                            if i == 0:
                                continue
                            # subtle: position i-1 is not yet overwritten (out <= i-1 after a merge)
                            q = c if prev_end == i else symbols[start + i - 1]
                            old = _pair_id(pair_table, pair_left, pair_right, pair_count, ints, q, a)
                            k = _pair_id(pair_table, pair_left, pair_right, pair_count, ints, q, c)
                        else:
                            if i >= last:
                                continue
                            q = symbols[start + i + 2]
                            old = _pair_id(pair_table, pair_left, pair_right, pair_count, ints, b, q)
                            k = _pair_id(pair_table, pair_left, pair_right, pair_count, ints, c, q)
                        pair_count[old] -= n
                        pair_count[k] += n
                        slot = pair_slot[k]
                        if slot == -1:  # first gain of this pair in this merge: give it a slot
                            slot = pair_slot[k] = n_slots
                            slot_pair[slot] = k
                            slot_count[slot] = 0
                            slot_last_word[slot] = -1
                            n_slots += 1
                        if slot_last_word[slot] != w:
                            slot_last_word[slot] = w
                            gained_slot[n_gained] = slot
                            gained_word[n_gained] = w
                            n_gained += 1
                            slot_count[slot] += 1
                    prev_end = i + 2
                    symbols[start + out] = c
                    i += 2
                else:
                    symbols[start + out] = x
                    i += 1
                out += 1
            word_len[w] = out

        # 4c. push every pair that gained occurrences, with its current count and its words
        at = ints[I_POOL]
        for s in range(n_slots):
            size = slot_count[s]
            slot_count[s] = at
            at += size
        for g in range(n_gained):
            s = gained_slot[g]
            pool[slot_count[s]] = gained_word[g]
            slot_count[s] += 1
        begin = ints[I_POOL]
        ints[I_POOL] = at
        for s in range(n_slots):
            k = slot_pair[s]
            pair_slot[k] = -1  # slots are per merge
            end = slot_count[s]
            if pair_count[k] > 0:
                e = ints[I_ENTRIES]
                ints[I_ENTRIES] = e + 1
                entry_pair[e] = k
                entry_neg[e] = -pair_count[k]
                entry_seq[e] = ints[I_SEQ]
                ints[I_SEQ] += 1
                entry_start[e] = begin
                entry_end[e] = end
                _heap_push(heap, ints, e, entry_neg, entry_pair, pair_left, pair_right, entry_seq)
            begin = end

        out_left[done] = a
        out_right[done] = b
        out_new[done] = c
        out_count[done] = count
        out_tie[done] = tie
        out_vocab[done] = ints[I_TOKENS]
        done += 1

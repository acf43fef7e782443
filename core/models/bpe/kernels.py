"""Compiled BPE-by-rank merging: many pieces in one call, each in O(n log n).

What every BPE-shaped file shares once its symbols are ids: a table
``(left id, right id) -> (rank, merged id)``, and the rule "merge the adjacent pair of
lowest rank, the leftmost among equals, until no adjacent pair has a rank". A merge-list
BPE ranks by list position, a tiktoken rank file by the rank of the joined bytes, a
SentencePiece BPE by the merged piece's score (equal scores share a rank, so the leftmost
wins, as in SentencePiece).

    >>> table = PairTable.build({(1, 2): (0, 3), (3, 3): (1, 4)})
    >>> merge_many([[1, 2, 1, 2], [2, 1]], table)
    [[4], [2, 1]]

The table is an open-addressing hash in two numpy arrays (key ``left << 32 | right``,
value ``rank << 32 | merged``), built once per model. Short pieces are merged by scanning
their pairs (the usual case, a handful of symbols); long ones with a binary heap of
``rank << 32 | position`` over a linked list of symbols, where an entry whose pair has
changed since it was pushed is skipped when popped.

Imported only where merging happens (numba is heavy to load; see :mod:`core.jit`).
Leaves out: the merge steps themselves (the explorer's "why" view merges in Python).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from core.jit import kernel
from core.normalizer_kernels import ids_and_back, normalize_sentences, packed, sentence_codes
from core.text import codepoints, split_flat

if TYPE_CHECKING:
    from core.normalizers_sentencepiece import CompiledRewrites

_EMPTY = -1  # a free slot of the hash table (no key is negative: ids are >= 0)
_SHORT = 24  # up to this many symbols, scan the pairs; more, keep a heap
_NONE = np.int64(1) << np.int64(62)  # the packed rank of a pair that is no merge: above every rank


@kernel
def _slot(key, mask):
    """The first slot to probe for ``key`` (Fibonacci hashing of the 64-bit key)."""
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64(h >> np.uint64(33)) & mask


@kernel
def _find(keys, values, left, right):
    """``rank << 32 | merged`` of the pair, or ``_NONE`` (always for a negative id: no symbol)."""
    if left < 0 or right < 0:
        return _NONE
    key = (np.int64(left) << np.int64(32)) | np.int64(right)
    mask = keys.shape[0] - 1
    i = _slot(key, mask)
    while True:
        k = keys[i]
        if k == key:
            return values[i]
        if k == _EMPTY:
            return _NONE
        i = (i + 1) & mask


@kernel
def _fill_table(lefts, rights, packed, keys, values):
    """Insert every pair; a pair listed twice keeps its later value (as a dict would)."""
    mask = keys.shape[0] - 1
    for n in range(lefts.shape[0]):
        key = (np.int64(lefts[n]) << np.int64(32)) | np.int64(rights[n])
        i = _slot(key, mask)
        while keys[i] != _EMPTY and keys[i] != key:
            i = (i + 1) & mask
        keys[i] = key
        values[i] = packed[n]


@kernel
def _heap_push(heap, size, item):
    i = size
    heap[i] = item
    while i > 0:
        parent = (i - 1) >> 1
        if heap[parent] <= item:
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = item
    return size + 1


@kernel
def _heap_pop(heap, size):
    """Remove the smallest item (returned); the heap has ``size - 1`` items afterwards."""
    top = heap[0]
    size -= 1
    last = heap[size]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and heap[child + 1] < heap[child]:
            child += 1
        if heap[child] >= last:
            break
        heap[i] = heap[child]
        i = child
    if size > 0:
        heap[i] = last
    return top


@kernel
def _merge_pieces(ids, bounds, keys, values, out_ids, out_first, out_bounds):
    """Merge each piece ``ids[bounds[p]:bounds[p + 1]]``; write its tokens to ``out_ids``
    from ``out_bounds[p]`` on, and in ``out_first`` the index (in the piece) of each
    token's first symbol. Returns how many tokens were written."""
    low = np.int64(0xFFFFFFFF)
    longest = 0
    for p in range(bounds.shape[0] - 1):
        longest = max(longest, bounds[p + 1] - bounds[p])
    symbol = np.empty(max(longest, 1), np.int64)
    first = np.empty(max(longest, 1), np.int64)
    pair = np.empty(max(longest, 1), np.int64)
    nxt = np.empty(max(longest, 1), np.int64)
    prv = np.empty(max(longest, 1), np.int64)
    heap = np.empty(max(3 * longest, 1), np.int64)
    written = 0
    for p in range(bounds.shape[0] - 1):
        start = bounds[p]
        n = bounds[p + 1] - start
        out_bounds[p] = written
        if n <= _SHORT:
            # scan: pair[k] is the packed rank of (symbol[k], symbol[k + 1])
            for k in range(n):
                symbol[k] = ids[start + k]
                first[k] = k
            for k in range(n - 1):
                pair[k] = _find(keys, values, symbol[k], symbol[k + 1])
            m = n
            while m > 1:
                at = 0
                best = pair[0] >> np.int64(32)  # the rank alone: equal ranks may merge into different ids
                for k in range(1, m - 1):
                    if (pair[k] >> np.int64(32)) < best:  # strict: the leftmost of equal ranks
                        best = pair[k] >> np.int64(32)
                        at = k
                if best == _NONE >> np.int64(32):
                    break
                symbol[at] = pair[at] & low
                for k in range(at + 1, m - 1):
                    symbol[k] = symbol[k + 1]
                    first[k] = first[k + 1]
                    pair[k] = pair[k + 1]
                m -= 1
                if at + 1 < m:
                    pair[at] = _find(keys, values, symbol[at], symbol[at + 1])
                if at > 0:
                    pair[at - 1] = _find(keys, values, symbol[at - 1], symbol[at])
            for k in range(m):
                out_ids[written] = symbol[k]
                out_first[written] = first[k]
                written += 1
            continue
        # heap of (rank << 32 | position) over a linked list; nxt[k] == n ends the list
        for k in range(n):
            symbol[k] = ids[start + k]
            nxt[k] = k + 1
            prv[k] = k - 1
        size = 0
        for k in range(n - 1):
            found = _find(keys, values, symbol[k], symbol[k + 1])
            if found != _NONE:
                size = _heap_push(heap, size, ((found >> np.int64(32)) << np.int64(32)) | k)
        while size > 0:
            top = _heap_pop(heap, size)
            size -= 1
            i = top & low
            right = nxt[i]
            if symbol[i] < 0 or right >= n:
                continue  # i was merged into its left neighbour, or is the last symbol now
            found = _find(keys, values, symbol[i], symbol[right])
            if found == _NONE or (found >> np.int64(32)) != (top >> np.int64(32)):
                continue  # stale: the pair at i changed since this entry was pushed
            symbol[i] = found & low
            symbol[right] = -1
            after = nxt[right]
            nxt[i] = after
            if after < n:
                prv[after] = i
                found = _find(keys, values, symbol[i], symbol[after])
                if found != _NONE:
                    size = _heap_push(heap, size, ((found >> np.int64(32)) << np.int64(32)) | i)
            before = prv[i]
            if before >= 0:
                found = _find(keys, values, symbol[before], symbol[i])
                if found != _NONE:
                    size = _heap_push(heap, size, ((found >> np.int64(32)) << np.int64(32)) | before)
        k = 0
        while k < n:
            out_ids[written] = symbol[k]
            out_first[written] = k
            written += 1
            k = nxt[k]
    out_bounds[bounds.shape[0] - 1] = written
    return written


@dataclass(frozen=True)
class PairTable:
    """``(left id, right id) -> (rank, merged id)`` as an open-addressing hash (see the module)."""

    keys: np.ndarray
    values: np.ndarray

    @classmethod
    def build(cls, ranks: dict[tuple[int, int], tuple[int, int]]) -> PairTable:
        """From the dict the Python merge uses; ranks and ids must fit in 31 bits.

        >>> PairTable.build({(5, 6): (0, 7)}).keys.shape[0] >= 2
        True
        """
        n = len(ranks)
        capacity = 1 << max(3, (2 * n).bit_length())  # at most half full: short probe runs
        keys = np.full(capacity, _EMPTY, np.int64)
        values = np.zeros(capacity, np.int64)
        if n:
            # subtle: fromiter over the flattened pairs, half the time of np.array(list(...)) of
            # tuples (~5 against ~10 ms for 32,000 merges: a model landing in the explorer)
            pairs = np.fromiter(itertools.chain.from_iterable(ranks), np.int64, 2 * n).reshape(n, 2)
            found = np.fromiter(itertools.chain.from_iterable(ranks.values()), np.int64, 2 * n).reshape(n, 2)
            packed = (found[:, 0] << 32) | found[:, 1]
            _fill_table(pairs[:, 0], pairs[:, 1], packed, keys, values)
        return cls(keys, values)

    def below(self, rank: int) -> PairTable:
        """The table of the model cut to its first ``rank`` merges: every pair of a later rank
        reads as no merge (its key stays, so the probe runs of the other keys stay whole).

        >>> bool(PairTable.build({(5, 6): (0, 7), (7, 6): (1, 8)}).below(1).values.max() == _NONE)
        True
        """
        return PairTable(self.keys, np.where((self.values >> np.int64(32)) < rank, self.values, _NONE))


def merge_flat(ids: np.ndarray, bounds: np.ndarray, table: PairTable) -> tuple[np.ndarray, ...]:
    """Merge every piece of a flat batch: ``(token ids, first symbol of each token, token bounds)``.

    ``ids`` holds the pieces' symbols one after another, piece ``p`` at
    ``ids[bounds[p]:bounds[p + 1]]``; so does the result, at ``out_bounds``.

        >>> table = PairTable.build({(1, 2): (0, 3)})
        >>> out, first, out_bounds = merge_flat(np.array([1, 2, 2, 1, 2]), np.array([0, 3, 5]), table)
        >>> out.tolist(), first.tolist(), out_bounds.tolist()
        ([3, 2, 3], [0, 2, 0], [0, 2, 3])
    """
    ids = np.ascontiguousarray(ids, dtype=np.int64)
    bounds = np.ascontiguousarray(bounds, dtype=np.int64)
    out_ids = np.empty(ids.shape[0], np.int64)
    out_first = np.empty(ids.shape[0], np.int64)
    out_bounds = np.empty(bounds.shape[0], np.int64)
    written = _merge_pieces(ids, bounds, table.keys, table.values, out_ids, out_first, out_bounds)
    return out_ids[:written], out_first[:written], out_bounds


def merge_many(pieces: list[list[int]], table: PairTable) -> list[list[int]]:
    """The merged ids of each piece (lists of symbol ids), in one kernel call."""
    if not pieces:
        return []
    lengths = np.fromiter(map(len, pieces), np.int64, len(pieces))
    bounds = np.zeros(len(pieces) + 1, np.int64)
    np.cumsum(lengths, out=bounds[1:])
    flat = np.fromiter(itertools.chain.from_iterable(pieces), np.int64, int(bounds[-1]))
    out, _, out_bounds = merge_flat(flat, bounds, table)
    return split_flat(out, out_bounds)


@kernel
def _merge_sentences(codes, bounds, char_ids, keys, values, byte_ids, unk, apart):
    """SentencePiece's BPE on whole normalized sentences (``codes[bounds[p]:bounds[p + 1]]``).

    Each character becomes its piece's id (-1: not a piece, never merged), the pieces are
    merged as :func:`_merge_pieces` merges (with ``apart``, no piece holds a ``▁`` after its
    first character, so each word from one ``▁`` to the next is merged on its own: short
    words take the pair scan, not the heap), then each character left without a piece
    becomes the pieces of its UTF-8 bytes (``byte_ids``, byte fallback) or, when ``byte_ids``
    is empty, ``unk``, a run of them one ``unk``. Returns ``(ids, sentences holding a character
    without a piece)``; ``bounds`` is overwritten with where each sentence's ids start."""
    n = codes.shape[0]
    lines = bounds.shape[0] - 1
    starts = bounds.copy()
    symbols = np.empty(n, np.int64)
    unknown = 0
    # the pieces merged: words (apart) or whole sentences; line_piece[p] is sentence p's first
    piece_bounds = np.empty(n + lines + 1, np.int64)
    line_piece = np.empty(lines + 1, np.int64)
    pieces = 0
    for p in range(lines):
        seen = False
        line_piece[p] = pieces
        for k in range(starts[p], starts[p + 1]):
            c = codes[k]
            symbols[k] = char_ids[c] if 0 <= c < char_ids.shape[0] else -1
            seen |= symbols[k] < 0
            if k == starts[p] or (apart and c == 0x2581):
                piece_bounds[pieces] = k
                pieces += 1
        unknown += seen
    line_piece[lines] = pieces
    piece_bounds[pieces] = n
    piece_bounds = piece_bounds[: pieces + 1]
    merged = np.empty(n, np.int64)
    first = np.empty(n, np.int64)
    merged_bounds = np.empty(pieces + 1, np.int64)
    written = _merge_pieces(symbols, piece_bounds, keys, values, merged, first, merged_bounds)
    if unknown == 0:
        for p in range(lines + 1):
            bounds[p] = merged_bounds[line_piece[p]]
        return merged[:written], 0
    out = np.empty(written + 3 * n, np.int64)  # a character is 4 UTF-8 bytes at most
    w = 0
    fallback = byte_ids.shape[0] == 256
    for p in range(lines):
        bounds[p] = w
        for q in range(line_piece[p], line_piece[p + 1]):
            for t in range(merged_bounds[q], merged_bounds[q + 1]):
                id = merged[t]
                if id >= 0:
                    out[w] = id
                    w += 1
                elif not fallback:
                    if w == bounds[p] or out[w - 1] != unk:  # a run of unknowns is one unk
                        out[w] = unk
                        w += 1
                else:
                    c = codes[piece_bounds[q] + first[t]]
                    if c < 0x80:
                        out[w] = byte_ids[c]
                        w += 1
                    elif c < 0x800:
                        out[w] = byte_ids[0xC0 | (c >> 6)]
                        out[w + 1] = byte_ids[0x80 | (c & 0x3F)]
                        w += 2
                    elif c < 0x10000:
                        out[w] = byte_ids[0xE0 | (c >> 12)]
                        out[w + 1] = byte_ids[0x80 | ((c >> 6) & 0x3F)]
                        out[w + 2] = byte_ids[0x80 | (c & 0x3F)]
                        w += 3
                    else:
                        out[w] = byte_ids[0xF0 | (c >> 18)]
                        out[w + 1] = byte_ids[0x80 | ((c >> 12) & 0x3F)]
                        out[w + 2] = byte_ids[0x80 | ((c >> 6) & 0x3F)]
                        out[w + 3] = byte_ids[0x80 | (c & 0x3F)]
                        w += 4
    bounds[lines] = w
    return out[:w], unknown


def merge_sentences(
    texts: list[str], char_ids: np.ndarray, table: PairTable, byte_ids: np.ndarray, unk: int, apart: bool
) -> tuple[list[list[int]], int]:
    """The ids of each normalized sentence (see :func:`_merge_sentences`; ``apart``: no piece
    holds a ``▁`` after its first character), and how many sentences held a character without
    a piece.

        >>> table = PairTable.build({(0, 1): (0, 2)})   # a + b -> ab (ids 0, 1 -> 2)
        >>> char_ids = np.array([0, 1])                 # code point 0 is a, 1 is b
        >>> merge_sentences(["\\x00\\x01\\x02", ""], char_ids, table, np.arange(256) + 10, 3, True)
        ([[2, 12], []], 1)
    """
    codes, bounds = codepoints(texts)
    ids, unknown = _merge_sentences(codes, bounds, char_ids, table.keys, table.values, byte_ids, unk, apart)
    return split_flat(ids, bounds), unknown


@kernel
def _encode_sentences(codes, bounds, kind, at, length, rewrites, follows, longest, char_ids, keys, values, byte_ids, unk, apart):  # fmt: skip
    """:func:`core.normalizer_kernels.normalize_sentences` then :func:`_merge_sentences` in one call:
    raw sentences in (no ``bounds``: one), ``(their ids and the sentences left to Python, which
    have none, as one array: core.normalizer_kernels.packed; sentences holding a character
    without a piece)`` out."""
    normalized, ends, back = normalize_sentences(codes, bounds, kind, at, length, rewrites, follows, longest)
    ids, unknown = _merge_sentences(normalized, ends, char_ids, keys, values, byte_ids, unk, apart)
    return packed(ids, ends, back), unknown


def encode_sentences(texts: list[str], rewrites: CompiledRewrites, char_ids: np.ndarray, table: PairTable, byte_ids: np.ndarray,
                     unk: int, apart: bool) -> tuple[list[list[int]], int, list[int]]:  # fmt: skip
    """The ids of raw sentences normalized and merged in one kernel call (:func:`_encode_sentences`;
    ``rewrites``: ``core.normalizers_sentencepiece.CompiledRewrites``): ``(ids, how many
    sentences held a character without a piece, the sentences Python must normalize)``.

        >>> from core.normalizers_sentencepiece import SentencePieceNormalizer
        >>> rewrites = SentencePieceNormalizer().compiled_rewrites()   # no charsmap
        >>> table = PairTable.build({(0, 1): (0, 2)})   # ▁ + a -> ▁a (ids 0, 1 -> 2)
        >>> char_ids = np.full(0x2582, -1); char_ids[[0x2581, ord("a")]] = [0, 1]
        >>> encode_sentences(["  a   a ", "", "a"], rewrites, char_ids, table, np.arange(256) + 10, 3, True)
        ([[2, 2], [], [2]], 0, [])
    """
    codes, bounds = sentence_codes(texts)
    found, unknown = _encode_sentences(
        codes, bounds, *rewrites.arrays(), char_ids, table.keys, table.values, byte_ids, unk, apart
    )
    ids, back = ids_and_back(found, len(texts))
    return ids, unknown, back


@kernel
def _merge_bytes(data, bounds, byte_ranks, keys, values):
    """:func:`_merge_pieces` on pieces of bytes (``data[bounds[p]:bounds[p + 1]]``), each byte
    first its rank (``byte_ranks``). Returns ``(ids, True)`` with ``bounds`` overwritten by where
    each piece's ids start, or ``(empty, False)`` when some byte has no rank (-1)."""
    n = data.shape[0]
    symbols = np.empty(n, np.int64)
    for k in range(n):
        symbols[k] = byte_ranks[data[k]]
        if symbols[k] < 0:
            return symbols[:0], False
    merged = np.empty(n, np.int64)
    first = np.empty(n, np.int64)
    out_bounds = np.empty(bounds.shape[0], np.int64)
    written = _merge_pieces(symbols, bounds, keys, values, merged, first, out_bounds)
    bounds[:] = out_bounds
    return merged[:written], True


@kernel
def _rank_texts(data, bounds, known, text_bounds, byte_ranks, keys, values):
    """The ids of texts cut into pieces: piece ``p`` is the bytes ``data[bounds[p]:bounds[p + 1]]``
    and is one id, ``known[p]``, when that is not negative, else the merge of its bytes by rank
    (:func:`_merge_pieces`, each byte first its rank ``byte_ranks``); text ``t`` is pieces
    ``text_bounds[t]`` to ``text_bounds[t + 1]``. Returns ``(ids, True)`` with ``text_bounds``
    overwritten by where each text's ids start, or ``(empty, False)`` when a byte to merge has
    no rank (-1)."""
    pieces = known.shape[0]
    n = 0
    todo = 0
    for p in range(pieces):
        if known[p] < 0:
            n += bounds[p + 1] - bounds[p]
            todo += 1
    symbols = np.empty(max(n, 1), np.int64)
    sub_bounds = np.empty(todo + 1, np.int64)
    m = 0
    q = 0
    for p in range(pieces):
        if known[p] < 0:
            sub_bounds[q] = m
            q += 1
            for k in range(bounds[p], bounds[p + 1]):
                r = byte_ranks[data[k]]
                if r < 0:
                    return symbols[:0], False
                symbols[m] = r
                m += 1
    sub_bounds[todo] = m
    merged = np.empty(max(m, 1), np.int64)
    first = np.empty(max(m, 1), np.int64)
    merged_bounds = np.empty(todo + 1, np.int64)
    written = _merge_pieces(symbols[:m], sub_bounds, keys, values, merged, first, merged_bounds)
    out = np.empty(written + pieces, np.int64)
    w = 0
    q = 0
    t = 0
    texts = text_bounds.shape[0] - 1
    for p in range(pieces):
        while t < texts and text_bounds[t] == p:
            text_bounds[t] = w
            t += 1
        if known[p] >= 0:
            out[w] = known[p]
            w += 1
        else:
            for j in range(merged_bounds[q], merged_bounds[q + 1]):
                out[w] = merged[j]
                w += 1
            q += 1
    while t <= texts:
        text_bounds[t] = w
        t += 1
    return out[:w], True


@kernel
def _hash_bytes(data, a, b):
    """FNV-1a of ``data[a:b]``."""
    h = np.uint64(0xCBF29CE484222325)
    for k in range(a, b):
        h = (h ^ np.uint64(data[k])) * np.uint64(0x100000001B3)
    return h


@kernel
def _fill_token_slots(blob, offsets, slots):
    """Put token ``t`` (``blob[offsets[t]:offsets[t + 1]]``) in the open-addressing table ``slots``."""
    mask = slots.shape[0] - 1
    for t in range(offsets.shape[0] - 1):
        i = np.int64(_hash_bytes(blob, offsets[t], offsets[t + 1]) >> np.uint64(33)) & mask
        while slots[i] != -1:
            i = (i + 1) & mask
        slots[i] = t


@kernel
def _token_of(data, a, b, blob, offsets, slots):
    """The token whose bytes are ``data[a:b]`` (its index in ``offsets``), or -1."""
    mask = slots.shape[0] - 1
    i = np.int64(_hash_bytes(data, a, b) >> np.uint64(33)) & mask
    while True:
        t = slots[i]
        if t == -1:
            return -1
        start = offsets[t]
        if offsets[t + 1] - start == b - a:
            same = True
            for k in range(b - a):
                if blob[start + k] != data[a + k]:
                    same = False
                    break
            if same:
                return t
        i = (i + 1) & mask


@dataclass(frozen=True)
class TokenTable:
    """A rank file for :func:`_rank_text_pieces`: byte strings -> their ranks as an
    open-addressing hash of FNV-1a hashes (``slots``: the index of a token in ``offsets``, -1
    free), the tokens' bytes back to back in ``blob``; with the byte ranks and the pair table
    all in one array, ``packed`` (its first 6 numbers say where each part starts).

    subtle: numba checks the type of every argument on every call (~0.25 µs an array); a call
    per line of ``encode_ids`` with ten arrays paid ~4 µs before doing anything."""

    blob: np.ndarray
    packed: np.ndarray

    @classmethod
    def build(cls, ranks: dict[bytes, int], byte_ranks: np.ndarray, table: PairTable) -> TokenTable:
        """From a rank file's ranks; the empty token, if any, is left out (no piece is empty).

        >>> t = TokenTable.build({b"ab": 7, b"a": 1}, np.arange(256), PairTable.build({}))
        >>> _, _, _, offsets, slots, token_ranks = _unpack(t.packed)
        >>> data = np.frombuffer(b"abx", np.uint8)
        >>> [int(token_ranks[_token_of(data, a, b, t.blob, offsets, slots)]) for a, b in ((0, 2), (0, 1))]
        [7, 1]
        >>> int(_token_of(data, 0, 3, t.blob, offsets, slots))
        -1
        """
        tokens = [token for token in ranks if token]
        blob = np.frombuffer(b"".join(tokens), np.uint8)
        offsets = np.fromiter(itertools.accumulate(map(len, tokens), initial=0), np.int64, len(tokens) + 1)
        slots = np.full(1 << max(3, (2 * len(tokens)).bit_length()), -1, np.int64)
        _fill_token_slots(blob, offsets, slots)
        token_ranks = np.fromiter(map(ranks.__getitem__, tokens), np.int64, len(tokens))
        parts = [byte_ranks.astype(np.int64), table.keys, table.values, offsets, slots, token_ranks]
        starts = list(itertools.accumulate(map(len, parts), initial=len(parts)))
        return cls(blob, np.concatenate([np.array(starts[:-1], np.int64), *parts]))


@kernel
def _unpack(packed):
    """The parts of :attr:`TokenTable.packed`: byte ranks, pair keys, pair values, token
    offsets, slots, token ranks."""
    return (
        packed[packed[0] : packed[1]],
        packed[packed[1] : packed[2]],
        packed[packed[2] : packed[3]],
        packed[packed[3] : packed[4]],
        packed[packed[4] : packed[5]],
        packed[packed[5] :],
    )


@kernel
def _rank_text_pieces(data, lengths, text_bounds, blob, packed):
    """:func:`_rank_texts` on texts' UTF-8 bytes back to back (``data``), cut into pieces of
    ``lengths`` characters each, a piece that is a token (:class:`TokenTable`) being its rank."""
    byte_ranks, keys, values, offsets, slots, token_ranks = _unpack(packed)
    pieces = lengths.shape[0]
    bounds = np.empty(pieces + 1, np.int64)
    known = np.empty(pieces, np.int64)
    at = 0
    n = data.shape[0]
    for p in range(pieces):
        bounds[p] = at
        begin = at
        for _ in range(lengths[p]):
            if at >= n:
                break
            lead = data[at]
            at += 1 if lead < 0x80 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
        known[p] = -1
        if at > begin:
            t = _token_of(data, begin, at, blob, offsets, slots)
            if t >= 0:
                known[p] = token_ranks[t]
    bounds[pieces] = at
    return _rank_texts(data, bounds, known, text_bounds, byte_ranks, keys, values)


def rank_text_pieces(texts: list[list[str]], tokens: TokenTable) -> list[list[int]] | None:
    """The ids of texts given as their pieces of raw text (no added tokens), in one kernel call:
    their UTF-8 bytes read and looked up there (:func:`_rank_text_pieces`); None when a byte
    to merge has no rank.

        >>> tokens = TokenTable.build({b"a": 97, b"b": 98, b"ab": 300, "é".encode(): 5}, np.arange(256),
        ...                           PairTable.build({(97, 98): (0, 300)}))
        >>> rank_text_pieces([["abab", "b"], ["é"]], tokens)
        [[300, 300, 98], [5]]
    """
    if len(texts) == 1:
        parts = texts[0]
        text_bounds = np.array([0, len(parts)], np.int64)
    else:
        parts = list(itertools.chain.from_iterable(texts))
        text_bounds = np.fromiter(itertools.accumulate(map(len, texts), initial=0), np.int64, len(texts) + 1)
    data = np.frombuffer("".join(parts).encode("utf-8", "surrogatepass"), np.uint8)
    lengths = np.fromiter(map(len, parts), np.int64, len(parts))
    ids, ok = _rank_text_pieces(data, lengths, text_bounds, tokens.blob, tokens.packed)
    if not ok:
        return None
    return [ids.tolist()] if len(texts) == 1 else split_flat(ids, text_bounds)


def rank_texts(
    datas: list[bytes], known: list[int], counts: list[int], byte_ranks: np.ndarray, table: PairTable
) -> list[list[int]] | None:
    """The ids of texts given as pieces of bytes (``counts[t]`` pieces for text ``t``), a piece
    whose ``known`` id is not negative being that id, the others merged, all in one kernel call
    (:func:`_rank_texts`); None when a byte to merge has no rank.

        >>> rank_texts([b"abab", b"b", b"a"], [-1, 98, 7], [2, 1], np.arange(256), PairTable.build({(97, 98): (0, 300)}))
        [[300, 300, 98], [7]]
    """
    data = np.frombuffer(b"".join(datas), np.uint8)
    bounds = np.fromiter(itertools.accumulate(map(len, datas), initial=0), np.int64, len(datas) + 1)
    known_ids = np.array(known, np.int64)
    if len(counts) == 1:
        text_bounds = np.array([0, len(datas)], np.int64)
        ids, ok = _rank_texts(data, bounds, known_ids, text_bounds, byte_ranks, table.keys, table.values)
        return [ids.tolist()] if ok else None
    text_bounds = np.fromiter(itertools.accumulate(counts, initial=0), np.int64, len(counts) + 1)
    ids, ok = _rank_texts(data, bounds, known_ids, text_bounds, byte_ranks, table.keys, table.values)
    return split_flat(ids, text_bounds) if ok else None


def merge_byte_pieces(datas: list[bytes], byte_ranks: np.ndarray, table: PairTable) -> list[list[int]] | None:
    """The merged ids of each piece of bytes in one kernel call, or None when some byte has no
    rank (``byte_ranks[b]`` is -1).

        >>> merge_byte_pieces([b"abab", b"b"], np.arange(256), PairTable.build({(97, 98): (0, 300)}))
        [[300, 300], [98]]
    """
    data = np.frombuffer(b"".join(datas), np.uint8)
    if len(datas) == 1:  # one piece (a call of encode_ids): no running sum, no cutting
        bounds = np.array([0, data.shape[0]], np.int64)
        ids, ok = _merge_bytes(data, bounds, byte_ranks, table.keys, table.values)
        return [ids.tolist()] if ok else None
    bounds = np.fromiter(itertools.accumulate(map(len, datas), initial=0), np.int64, len(datas) + 1)
    ids, ok = _merge_bytes(data, bounds, byte_ranks, table.keys, table.values)
    return split_flat(ids, bounds) if ok else None

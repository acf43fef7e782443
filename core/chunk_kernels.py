"""Compiled fragments of one line's new chunks, for ``ChunkPlan`` (``core.encode_chunks``).

``Tokenizer.encode`` on one line at a time meets a few chunks it has not seen (a fresh
tokenizer meets several per line). Each needs its pre-tokens merged and every token's span;
in plain Python that cost ~10 µs a chunk, 2-3x what the native libraries spend on the whole
line. Here the chunks of one line go through in one kernel call: the characters' ids, the
BPE merge of every pre-token (``core.models.bpe_kernels``), and each token's span in its chunk
from where its first character is.

    >>> import numpy as np
    >>> from core.models.bpe_kernels import PairTable
    >>> # "hug pug!": u+g -> ug (id 3), h+ug -> hug (id 4); "!" (id 6) is a pre-token of its own
    >>> table = PairTable.build({(1, 2): (0, 3), (0, 3): (1, 4)})
    >>> points = np.array([ord(c) for c in "!ghpu"])
    >>> point_ids, point_classes = np.array([6, 2, 0, 5, 1]), np.array([2, 1, 1, 1, 1])
    >>> out, frags = np.empty((4, 8), np.int64), np.empty((4, 2), np.int64)
    >>> codes = np.array([ord(c) for c in "hug pug!"])
    >>> lengths = np.array([1, 1, 1, 2, 3, 1, 1])
    >>> bpe_fragments(codes, points, point_ids, point_classes, table.keys, table.values, lengths, 0, out, frags)
    (4, 2)
    >>> out[:, :4].tolist()   # ids, starts, ends, pre-token: "hug" | "p", "ug", "!"
    [[4, 5, 3, 6], [0, 0, 1, 3], [3, 1, 3, 4], [0, 0, 0, 1]]
    >>> frags.tolist()   # where each chunk's tokens start, how many, how many pre-tokens, ok
    [[0, 1], [1, 3], [1, 2], [1, 1]]

Imported only when encoding meets new chunks and numba is loaded (see ``ChunkPlan._few``).
Leaves out: normalizers that move characters, unknown characters (a chunk holding one is
reported not ``ok`` and goes the general way), models with a prefix, suffix or dropout.
"""

from __future__ import annotations

import numpy as np

from core.jit import kernel
from core.models.bpe_kernels import _merge_pieces


@kernel
def bpe_fragments(codes, points, point_ids, point_classes, keys, values, token_lengths, base, out, frags):
    """The tokens of a line's new chunks: ``codes`` holds their characters, the chunks joined
    by spaces (code 32) as the line had them.

    Each character is looked up in ``points`` (sorted code points) for its id (``point_ids``)
    and its class (``point_classes``: 0 for a character the pre-tokenizer drops, else a number);
    a chunk's pre-tokens are its runs of characters of one class (``Whitespace``'s
    ``\\w+|[^\\w\\s]+``: word characters, or neither word nor space), each merged by rank
    (``keys``, ``values``: ``core.models.bpe_kernels.PairTable``).

    Writes the tokens of the ``ok`` chunks one after another into ``out`` (rows: id, start,
    end, pre-token index; spans relative to the chunk), and for the ``ok`` chunks, in order,
    into ``frags`` (rows: where its tokens will start in the store, ``base`` being the first;
    how many tokens; how many pre-tokens); row 3 of ``frags`` is 1 for each chunk (all of
    them, in order) that is ``ok``, else 0. Returns ``(tokens written, ok chunks)``. A chunk
    is not ``ok`` when one of its characters is not in ``points`` or is dropped, or a token's
    length (``token_lengths``) is not what it covers (the unknown token). ``out`` has room for
    one token per character, ``frags`` a column per chunk.
    """
    n = codes.shape[0]
    n_keys = frags.shape[1]
    last = points.shape[0] - 1
    symbols = np.empty(max(n, 1), np.int64)  # the characters' ids, without the spaces
    bounds = np.empty(n + 1, np.int64)  # where each pre-token starts in symbols
    key_pieces = np.zeros(n_keys + 1, np.int64)  # where each chunk's pre-tokens start
    key_ok = np.ones(n_keys, np.bool_)
    m = 0
    n_pieces = 0
    k = 0
    previous = -2  # the class of the character before in this chunk (-2: none yet)
    for i in range(n):
        c = np.int64(codes[i])
        if c == 32:
            k += 1
            key_pieces[k] = n_pieces
            previous = -2
            continue
        at = np.searchsorted(points, c)
        if at <= last and points[at] == c:
            symbols[m] = point_ids[at]
            kind = point_classes[at]
        else:
            symbols[m] = -1
            kind = -1  # not in the alphabet: the chunk goes the general way
        if kind <= 0:
            key_ok[k] = False
        if kind != previous:
            bounds[n_pieces] = m
            n_pieces += 1
            previous = kind
        m += 1
    key_pieces[n_keys] = n_pieces
    bounds[n_pieces] = m
    merged = np.empty(max(m, 1), np.int64)
    first = np.empty(max(m, 1), np.int64)
    merged_bounds = np.empty(n_pieces + 1, np.int64)
    _merge_pieces(symbols[:m], bounds[: n_pieces + 1], keys, values, merged, first, merged_bounds)
    written = 0
    good_keys = 0
    for k in range(n_keys):
        begin = written
        good = key_ok[k]
        chunk_start = bounds[key_pieces[k]]
        for p in range(key_pieces[k], key_pieces[k + 1]):
            if not good:
                break
            at = bounds[p] - chunk_start  # where the pre-token starts in its chunk
            length = bounds[p + 1] - bounds[p]
            a, b = merged_bounds[p], merged_bounds[p + 1]
            for t in range(a, b):
                token = merged[t]
                s = first[t]
                e = first[t + 1] if t + 1 < b else length
                if token < 0 or token_lengths[token] != e - s:
                    good = False
                    break
                out[0, written] = token
                out[1, written] = at + s
                out[2, written] = at + e
                out[3, written] = p - key_pieces[k]
                written += 1
        if good:
            frags[0, good_keys] = base + begin
            frags[1, good_keys] = written - begin
            frags[2, good_keys] = key_pieces[k + 1] - key_pieces[k]
            frags[3, k] = 1
            good_keys += 1
        else:
            frags[3, k] = 0
            written = begin
    return written, good_keys

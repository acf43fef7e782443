"""BPE's compiled way through a line's new chunks, for the chunk cache (``core.encode_chunks``).

``Tokenizer.encode`` on one line at a time meets a few chunks it has not seen (a fresh
tokenizer meets several per line). Each needs its pre-tokens cut by the model and every
token's span; in plain Python that cost ~10 µs a chunk, 2-3x what the native libraries spend
on the whole line. Here a line's new chunks go through one kernel call: :func:`bpe_fragments` (plain BPE:
characters' ids and classes, the merge of every pre-token, spans) or :func:`bytelevel_fragments`
(byte-level BPE); :func:`bpe_line` and :func:`bytelevel_line` also write them into the store
and gather the line. :func:`line_encoder` says which, under which pre-tokenizer (the model's
``BPE.line_encoder``).

    >>> import numpy as np
    >>> from core.models.bpe.kernels import PairTable
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

Imported only when encoding meets new chunks and numba is loaded (see
``ChunkPlan._few_kernels``). Leaves out: normalizers that move characters across each other,
unknown characters (a chunk holding one is reported not ``ok`` and goes the general way), BPE
with a prefix, suffix or dropout.
"""

from __future__ import annotations

import numpy as np

from core.bytelevel import bytes_to_chars
from core.chunk_kernels import close_chunk, space_parts, stored_line, without_overlaps
from core.jit import kernel
from core.line_encoders import LineKernels
from core.models.bpe.kernels import _merge_pieces


def load(model, pre_tokenizer, way: str) -> LineKernels:
    """The kernels of ``way`` (``"words"`` or ``"bytes"``, from ``BPE.line_encoder``) and the
    model's tables they take after the chunks: ``(points, point ids, point classes, pair keys,
    pair values)`` for :func:`bpe_fragments` and :func:`bpe_line`, ``(byte ids, pair keys, pair
    values)`` under ``ByteLevel`` for :func:`bytelevel_fragments` and :func:`bytelevel_line`.

    A one-character token's class is 0 when the pre-tokenizer drops it (its pattern matches
    nothing in it), else ``Whitespace``'s 1 for a word character (``\\w``) and 2 for any
    other, ``WhitespaceSplit``'s 1 for all: pre-tokens are runs of one class (a property test
    checks it against the pattern)."""
    import regex

    from core.pre_tokenizers import Whitespace

    pairs = model._compiled_table()
    if way == "bytes":
        vocab = model.vocab
        byte_ids = np.array([vocab.get(bytes_to_chars(bytes([b])), -1) for b in range(256)], np.int64)
        return LineKernels(bytelevel_line, bytelevel_fragments, None, (byte_ids, pairs.keys, pairs.values))
    points, point_ids = model._alphabet_arrays()
    word = regex.compile(r"\w").fullmatch if type(pre_tokenizer) is Whitespace else None
    matches = pre_tokenizer.word_pattern.fullmatch
    classes = np.array(
        [
            0 if c < 0 or not matches(chr(c)) else 1 if word is None or word(chr(c)) else 2
            for c in points.tolist()
        ],
        np.int64,
    )
    return LineKernels(bpe_line, bpe_fragments, None, (points, point_ids, classes, pairs.keys, pairs.values))


@kernel
def bpe_fragments(codes, points, point_ids, point_classes, keys, values, token_lengths, base, out, frags):
    """The tokens of a line's new chunks: ``codes`` holds their characters, the chunks joined
    by spaces (code 32) as the line had them.

    Each character is looked up in ``points`` (sorted code points) for its id (``point_ids``)
    and its class (``point_classes``: 0 for a character the pre-tokenizer drops, else a number);
    a chunk's pre-tokens are its runs of characters of one class (``Whitespace``'s
    ``\\w+|[^\\w\\s]+``: word characters, or neither word nor space), each merged by rank
    (``keys``, ``values``: ``core.models.bpe.kernels.PairTable``).

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
        good_keys, written = close_chunk(
            frags, k, good, good_keys, base, begin, written, key_pieces[k + 1] - key_pieces[k]
        )
    return written, good_keys


@kernel
def bytelevel_fragments(data, key_lengths, byte_ids, keys, values, token_lengths, base, out, frags):
    """:func:`bpe_fragments` for a byte-level BPE: each chunk (``key_lengths`` characters; all
    of their UTF-8 bytes one after another in ``data``) is one pre-token, its bytes the symbols
    (``byte_ids[byte]``, -1 for a byte without a token), merged by rank. A token covers the
    bytes its string holds (``token_lengths``); its span runs from the character of its first
    byte to that of its last, and a character cut into several tokens belongs to the last.
    """
    n = data.shape[0]
    n_keys = key_lengths.shape[0]
    symbols = np.empty(max(n, 1), np.int64)
    char_of = np.empty(max(n, 1), np.int64)  # each byte's character, counted in its chunk
    bounds = np.empty(n_keys + 1, np.int64)
    key_ok = np.ones(n_keys, np.bool_)
    i = 0
    for k in range(n_keys):
        bounds[k] = i
        c = -1
        chars = 0
        while chars < key_lengths[k] or (i < n and (data[i] & 0xC0) == 0x80):
            if (data[i] & 0xC0) != 0x80:  # a character's first byte
                c += 1
                chars += 1
            symbols[i] = byte_ids[data[i]]
            if symbols[i] < 0:
                key_ok[k] = False
            char_of[i] = c
            i += 1
    bounds[n_keys] = i
    merged = np.empty(max(n, 1), np.int64)
    first = np.empty(max(n, 1), np.int64)
    merged_bounds = np.empty(n_keys + 1, np.int64)
    _merge_pieces(symbols[:n], bounds, keys, values, merged, first, merged_bounds)
    written = 0
    good_keys = 0
    for k in range(n_keys):
        begin = written
        good = key_ok[k]
        a, b = merged_bounds[k], merged_bounds[k + 1]
        at = bounds[k]
        size = bounds[k + 1] - at
        for t in range(a, b):
            if not good:
                break
            token = merged[t]
            s = first[t]
            e = first[t + 1] if t + 1 < b else size
            if token_lengths[token] != e - s:
                good = False
                break
            out[0, written] = token
            out[1, written] = char_of[at + s]
            out[2, written] = char_of[at + e - 1] + 1
            out[3, written] = 0
            written += 1
        if good:
            without_overlaps(out, begin, written)
        good_keys, written = close_chunk(frags, k, good, good_keys, base, begin, written, 1)
    return written, good_keys


@kernel
def bpe_line(
    codes,
    slots,
    n_new,
    points,
    point_ids,
    point_classes,
    keys,
    values,
    token_lengths,
    n_tokens,
    n_frags,
    ids,
    starts,
    ends,
    words,
    at,
    count,
    word_count,
):
    """One line cut at its spaces (``codes``; chunk ``k`` is what ``str.split(" ")`` gives): its
    ``n_new`` new chunks made by :func:`bpe_fragments` and added to the store, and every
    chunk's tokens gathered as :func:`assemble` does, in one call (a line of a fresh tokenizer
    paid three calls, and the Python between them cost more than the calls).

    ``slots[k]`` is chunk ``k``'s fragment in the store or ``-1 - j`` for the ``j``-th new
    chunk (numbered in the order they first appear). The store's columns ``ids`` to
    ``word_count`` (``core.chunk_store.ChunkStore``) hold ``n_tokens`` tokens and ``n_frags``
    fragments, and room after them (one token per character of the line, a fragment per new
    chunk): the new chunks' rows are written there, as :meth:`core.chunk_store.ChunkStore.add_rows` would add
    them, fragment ``n_frags + j`` the ``j``-th. Returns ``(the line's rows as assemble's,
    tokens written, ok chunks)``; when a new chunk is not ``ok`` nothing is written and the
    line's rows are empty (the caller makes the line's chunks the other way).

        >>> from array import array
        >>> from core.models.bpe.kernels import PairTable
        >>> table = PairTable.build({(1, 2): (0, 3), (0, 3): (1, 4)})  # u+g -> ug, h+ug -> hug
        >>> points, point_ids, classes = np.array([103, 104, 112, 117]), np.array([2, 0, 5, 1]), np.ones(4, np.int64)
        >>> q = lambda *values: array("q", values)
        >>> # the store holds "hug" (fragment 0); room for 7 tokens and 1 fragment after it
        >>> store = [q(4, *[0] * 7), q(0, *[0] * 7), q(3, *[0] * 7), q(0, *[0] * 7), q(0, 0), q(1, 0), q(1, 0)]
        >>> codes = np.array([ord(c) for c in "hug pug"], np.uint32)
        >>> line, written, ok = bpe_line(codes, q(0, -1), 1, points, point_ids, classes,
        ...     table.keys, table.values, np.array([1, 1, 1, 2, 3, 1]), 1, 1, *store)
        >>> line.tolist(), written, ok   # ids, places in the store, starts, ends, pre-tokens
        ([[4, 5, 3], [0, 1, 2], [0, 4, 5], [3, 5, 7], [0, 1, 1]], 2, 1)
        >>> store[0][:3].tolist(), store[4].tolist(), store[5].tolist()   # "pug": p, ug from token 1
        ([4, 5, 3], [0, 1], [1, 2])
    """
    part_at, first_at = space_parts(codes, slots, n_new)
    part_lengths = part_at[1:] - part_at[:-1] - 1
    size = 0
    for j in range(n_new):
        size += part_lengths[first_at[j]] + 1
    joined = np.empty(max(size - 1, 0), np.int64)  # the new chunks joined by spaces
    m = 0
    for j in range(n_new):
        if j:
            joined[m] = 32
            m += 1
        a = part_at[first_at[j]]
        for i in range(a, a + part_lengths[first_at[j]]):
            joined[m] = codes[i]
            m += 1
    out = np.empty((4, max(m, 1)), np.int64)
    frags = np.empty((4, max(n_new, 1)), np.int64)
    written, good = bpe_fragments(
        joined, points, point_ids, point_classes, keys, values, token_lengths, n_tokens, out, frags
    )
    return stored_line(
        slots, part_at, n_new, out, frags, written, good,
        n_tokens, n_frags, ids, starts, ends, words, at, count, word_count,
    )  # fmt: skip


@kernel
def bytelevel_line(
    codes,
    part_lengths,
    slots,
    n_new,
    byte_ids,
    keys,
    values,
    token_lengths,
    n_tokens,
    n_frags,
    ids,
    starts,
    ends,
    words,
    at,
    count,
    word_count,
):
    """:func:`bpe_line` for a byte-level BPE: the line's chunks (the pre-tokenizer's regex
    matches, ``part_lengths`` characters each, back to back in ``codes``) are one pre-token
    each, their UTF-8 bytes (written here from the code points) made by
    :func:`bytelevel_fragments`.

        >>> from array import array
        >>> from core.models.bpe.kernels import PairTable
        >>> byte_ids = np.full(256, -1, np.int64)
        >>> byte_ids[[ord(c) for c in "hug "]] = [0, 1, 2, 5]
        >>> table = PairTable.build({(1, 2): (0, 3), (0, 3): (1, 4)})  # u+g -> ug, h+ug -> hug
        >>> q = lambda *values: array("q", values)
        >>> store = [q(4, *[0] * 8), q(0, *[0] * 8), q(3, *[0] * 8), q(0, *[0] * 8), q(0, 0), q(1, 0), q(1, 0)]
        >>> codes = np.array([ord(c) for c in "hug hug"], np.uint32)   # chunks "hug", " hug"
        >>> line, written, ok = bytelevel_line(codes, q(3, 4), q(0, -1), 1, byte_ids, table.keys,
        ...     table.values, np.array([1, 1, 1, 2, 3, 1]), 1, 1, *store)
        >>> line.tolist(), written, ok   # ids, places in the store, starts, ends, pre-tokens
        ([[4, 5, 4], [0, 1, 2], [0, 3, 4], [3, 4, 7], [0, 1, 1]], 2, 1)
    """
    n_parts = len(slots)
    first_at = np.full(max(n_new, 1), -1, np.int64)  # where each new chunk first is in the line
    part_at = np.empty(n_parts + 1, np.int64)
    pos = 0
    n_new_chars = 0
    for k in range(n_parts):
        part_at[k] = pos
        pos += part_lengths[k]
        j = -1 - slots[k]
        if j >= 0 and first_at[j] < 0:
            first_at[j] = k
            n_new_chars += part_lengths[k]
    part_at[n_parts] = pos
    data = np.empty(4 * n_new_chars, np.uint8)  # the new chunks' UTF-8 bytes
    key_lengths = np.empty(n_new, np.int64)
    m = 0
    for j in range(n_new):
        k = first_at[j]
        key_lengths[j] = part_lengths[k]
        for i in range(part_at[k], part_at[k] + part_lengths[k]):
            c = np.int64(codes[i])
            if c < 0x80:
                data[m] = c
                m += 1
            elif c < 0x800:
                data[m] = 0xC0 | (c >> 6)
                data[m + 1] = 0x80 | (c & 0x3F)
                m += 2
            elif c < 0x10000:
                data[m] = 0xE0 | (c >> 12)
                data[m + 1] = 0x80 | ((c >> 6) & 0x3F)
                data[m + 2] = 0x80 | (c & 0x3F)
                m += 3
            else:
                data[m] = 0xF0 | (c >> 18)
                data[m + 1] = 0x80 | ((c >> 12) & 0x3F)
                data[m + 2] = 0x80 | ((c >> 6) & 0x3F)
                data[m + 3] = 0x80 | (c & 0x3F)
                m += 4
    out = np.empty((4, max(m, 1)), np.int64)
    frags = np.empty((4, max(n_new, 1)), np.int64)
    written, good = bytelevel_fragments(
        data[:m], key_lengths, byte_ids, keys, values, token_lengths, n_tokens, out, frags
    )
    return stored_line(
        slots, part_at, n_new, out, frags, written, good,
        n_tokens, n_frags, ids, starts, ends, words, at, count, word_count,
    )  # fmt: skip

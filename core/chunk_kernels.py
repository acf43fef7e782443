"""Compiled fragments of one line's new chunks, for ``ChunkPlan`` (``core.encode_chunks``).

``Tokenizer.encode`` on one line at a time meets a few chunks it has not seen (a fresh
tokenizer meets several per line). Each needs its pre-tokens cut by the model and every
token's span; in plain Python that cost ~10 µs a chunk, 2-3x what the native libraries spend
on the whole line. Here a line's new chunks go through one kernel call: :func:`bpe_fragments`
(plain BPE: characters' ids and classes, the merge of every pre-token, spans),
:func:`bytelevel_fragments` (byte-level BPE), :func:`metaspace_fragments` (Unigram under
Metaspace) and :func:`wordpiece_fragments`; the last two, and a batch's new chunks under any
model, take their spans from the tokens' lengths in :func:`chunk_spans`.

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

from core.jit import kernel
from core.models.bpe.kernels import _merge_pieces
from core.models.unigram.kernels import _best_ids
from core.models.wordpiece.kernels import _longest_match_ids


@kernel
def _close_chunk(frags, k, good, good_keys, base, begin, written, pre_tokens):
    """Record chunk ``k``: its tokens ``begin`` to ``written`` (and its pre-tokens) in ``frags``
    if it is ``good``, else only that it is not. Returns ``(ok chunks so far, tokens kept)``: a
    chunk that is not ok gives its tokens back."""
    if good:
        frags[0, good_keys] = base + begin
        frags[1, good_keys] = written - begin
        frags[2, good_keys] = pre_tokens
        frags[3, k] = 1
        return good_keys + 1, written
    frags[3, k] = 0
    return good_keys, begin


@kernel
def _without_overlaps(out, begin, end):
    """``core.tokenizer._without_overlaps`` on the spans of tokens ``begin`` to ``end`` (rows 1
    and 2 of ``out``): a character cut into several tokens belongs to the last."""
    for t in range(begin, end - 1):
        stop = out[2, t]
        if out[1, t + 1] < stop <= out[2, t + 1]:
            out[1, t] = min(out[1, t], out[1, t + 1])
            out[2, t] = out[1, t + 1]


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
        good_keys, written = _close_chunk(
            frags, k, good, good_keys, base, begin, written, key_pieces[k + 1] - key_pieces[k]
        )
    return written, good_keys


@kernel
def chunk_spans(
    ids,
    bounds,
    known,
    token_lengths,
    prefix,
    piece_lengths,
    pieces_per_key,
    piece_at,
    back_to_back,
    per_char,
    key_lengths,
    base,
    out,
    frags,
):
    """The fragments of chunks whose pre-tokens a model has cut (``ids``; pre-token ``p``'s
    tokens at ``ids[bounds[p]:bounds[p + 1]]``; ``known[p]`` False if the model could not take
    one of its characters), each token's span from its length in characters.

    A token covers ``token_lengths[id]`` characters of its (normalized) pre-token, less
    ``prefix`` (WordPiece's ``##``) after the pre-token's first; a pre-token of
    ``piece_lengths[p]`` characters starts where the ones before it in its chunk end
    (``back_to_back``) or at ``piece_at[p]``; chunk ``k`` has ``pieces_per_key[k]`` pre-tokens.
    When ``per_char`` is not empty, each of the chunks' ``key_lengths`` characters became
    ``per_char`` normalized ones (BERT's normalizer, a character's UTF-8 bytes): spans are moved
    back to the chunk's characters, and a character cut into several tokens belongs to the
    last (``core.tokenizer._without_overlaps``). A chunk is not ``ok`` when a pre-token has
    no tokens, an unknown character, a token of no length or lengths that do not add up.

    Writes ``out`` and ``frags`` as :func:`bpe_fragments` does; returns ``(tokens written, ok chunks)``.
    """
    n_keys = pieces_per_key.shape[0]
    mapped = per_char.shape[0] > 0
    most = 1
    if mapped:
        total = 0
        for c in range(per_char.shape[0]):
            total += per_char[c]
        most = max(total, 1)
    source = np.empty(most + 1, np.int64)  # the chunk's character each normalized one came from
    written = 0
    good_keys = 0
    p = 0
    char = 0  # the chunk's first character among all of per_char
    for k in range(n_keys):
        begin = written
        good = True
        if mapped:
            m = 0
            for c in range(key_lengths[k]):
                for _ in range(per_char[char + c]):
                    source[m] = c
                    m += 1
            char += key_lengths[k]
        start_of_piece = 0
        for w in range(pieces_per_key[k]):
            at = start_of_piece if back_to_back else piece_at[p]
            a, b = bounds[p], bounds[p + 1]
            if b == a or not known[p]:
                good = False
            covered = 0
            for t in range(a, b):
                if not good:
                    break
                length = token_lengths[ids[t]]
                if prefix and t > a:
                    length -= prefix
                if length <= 0:
                    good = False
                    break
                out[0, written] = ids[t]
                out[1, written] = at + covered
                out[2, written] = at + covered + length
                out[3, written] = w
                covered += length
                written += 1
            if covered != piece_lengths[p]:
                good = False
            start_of_piece += piece_lengths[p]
            p += 1
        if good and mapped:
            for t in range(begin, written):  # back to the chunk's characters
                s, e = out[1, t], out[2, t]
                if s >= 0:  # (a Metaspace ▁ before the chunk, at -1, stays where it is)
                    out[1, t] = source[s]
                if e > 0:
                    out[2, t] = source[e - 1] + 1
            _without_overlaps(out, begin, written)
        good_keys, written = _close_chunk(frags, k, good, good_keys, base, begin, written, pieces_per_key[k])
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
            _without_overlaps(out, begin, written)
        good_keys, written = _close_chunk(frags, k, good, good_keys, base, begin, written, 1)
    return written, good_keys


@kernel
def metaspace_fragments(codes, key_lengths, outs, n_first, prepend, viterbi, token_lengths, base, out, frags):
    """A line's new Metaspace chunks for a Unigram model in one call: the first ``n_first``
    are texts' first chunks (``▁`` + text if ``prepend``, the ``▁`` spanning the first
    character; else the text), the others ``▁`` + text, the ``▁`` spanning the space before
    (-1); ``codes`` holds those pieces, normalized, one after another. ``outs`` is empty when
    the normalizer left every character as it was, else how many characters each of the chunks'
    ``key_lengths`` characters became (each on its own: NFKC's ``ㅋ`` → ``ᄏ``, ``㈜`` → ``(주)``).
    The Viterbi (``core.models.unigram.kernels._best_ids``, given ``viterbi``:
    ``Unigram.viterbi_args``), then :func:`chunk_spans`. Returns ``(tokens written, ok
    chunks)``, or ``(-1, chunk)`` when a chunk needs an unknown token the model does not have."""
    n = key_lengths.shape[0]
    piece_lengths = np.empty(n, np.int64)
    bounds = np.zeros(n + 1, np.int64)
    piece_at = np.empty(n, np.int64)
    chars = 0
    for k in range(n):
        normalized = key_lengths[k]
        if outs.shape[0] > 0:
            normalized = 0
            for c in range(chars, chars + key_lengths[k]):
                normalized += outs[c]
        piece_lengths[k] = normalized + (1 if prepend or k >= n_first else 0)
        bounds[k + 1] = bounds[k] + piece_lengths[k]
        piece_at[k] = 0 if k < n_first else -1
        chars += key_lengths[k]
    mapped = outs.shape[0] > 0 or (prepend and n_first > 0)
    per_char = np.ones(chars if mapped else 0, np.int64)
    if outs.shape[0] > 0:
        per_char[:] = outs
    if prepend:  # the prepended ▁ and a first chunk's first character come from that character
        at = 0
        for k in range(n_first):
            per_char[at] += 1
            at += key_lengths[k]
    ids, ends, failed = _best_ids(
        codes,
        bounds,
        viterbi[0],
        viterbi[1],
        viterbi[2],
        viterbi[3],
        viterbi[4],
        viterbi[5],
        viterbi[6],
        viterbi[7],
        viterbi[8],
        viterbi[9],
        viterbi[10],
    )
    if failed >= 0:
        return -1, failed
    known = np.ones(n, np.bool_)
    ones = np.ones(n, np.int64)
    return chunk_spans(
        ids,
        ends,
        known,
        token_lengths,
        0,
        piece_lengths,
        ones,
        piece_at,
        False,
        per_char,
        key_lengths,
        base,
        out,
        frags,
    )


@kernel
def wordpiece_fragments(
    codes,
    piece_lengths,
    pieces_per_key,
    piece_at,
    back_to_back,
    per_char,
    key_lengths,
    matcher,
    token_lengths,
    prefix,
    base,
    out,
    frags,
):
    """Chunks' pre-tokens (``codes``: their characters one after another, ``piece_lengths``
    long) through WordPiece's greedy match (``core.models.wordpiece.kernels._longest_match_ids``,
    given ``matcher``: ``WordPiece.matcher_args``), then :func:`chunk_spans` (the other
    arguments are its). Returns ``(tokens written, ok chunks)``."""
    n_pieces = piece_lengths.shape[0]
    bounds = np.zeros(n_pieces + 1, np.int64)
    for p in range(n_pieces):
        bounds[p + 1] = bounds[p] + piece_lengths[p]
    ids, ends = _longest_match_ids(
        codes, bounds, matcher[0], matcher[1], matcher[2], matcher[3], matcher[4], matcher[5]
    )
    known = np.ones(n_pieces, np.bool_)
    return chunk_spans(
        ids,
        ends,
        known,
        token_lengths,
        prefix,
        piece_lengths,
        pieces_per_key,
        piece_at,
        back_to_back,
        per_char,
        key_lengths,
        base,
        out,
        frags,
    )


@kernel
def assemble(frags, part_lengths, gap, start, ids, starts, ends, words, at, count, word_count):
    """One text's tokens from its chunks' fragments in the store (``ChunkPlan._assemble``):
    chunk ``k`` is fragment ``frags[k]``, ``part_lengths[k]`` characters long, ``gap``
    characters (a space, or none) before the next; the first starts at ``start``. The store's
    columns (``core.encode_chunks._Store``, read where they are: ``array.array``s) hold each
    fragment's tokens from ``at[f]``, ``count[f]`` of them, spans relative to the chunk, from
    ``word_count[f]`` pre-tokens.

    Returns rows: ids, each token's place in the store (its string's), starts, ends (shifted to
    where the chunk starts) and pre-token indexes (after the earlier chunks' pre-tokens).

        >>> from array import array
        >>> q = lambda *values: array("q", values)
        >>> # the store: fragment 0 "hug" (one token), fragment 1 "pug" ("p", "ug"), as "hug pug hug"
        >>> assemble(q(0, 1, 0), q(3, 3, 3), 1, 0, q(4, 5, 3), q(0, 0, 1), q(3, 1, 3), q(0, 0, 0),
        ...          q(0, 1), q(1, 2), q(1, 1)).tolist()
        [[4, 5, 3, 4], [0, 1, 2, 0], [0, 4, 5, 8], [3, 5, 7, 11], [0, 1, 1, 2]]
    """
    n = len(frags)
    total = 0
    for k in range(n):
        total += count[frags[k]]
    out = np.empty((5, total), np.int64)
    t = 0
    pos = start
    word = 0
    for k in range(n):
        f = frags[k]
        a = at[f]
        for i in range(a, a + count[f]):
            out[0, t] = ids[i]
            out[1, t] = i
            out[2, t] = starts[i] + pos
            out[3, t] = ends[i] + pos
            out[4, t] = words[i] + word
            t += 1
        word += word_count[f]
        pos += part_lengths[k] + gap
    return out


@kernel
def _space_parts(codes, slots, n_new):
    """A line (``codes``) cut at its ASCII spaces: where each chunk starts (and the line's end
    + 1, so chunk ``k`` is ``part_at[k]`` to ``part_at[k + 1] - 1``), and the chunk where each
    new one (``slots[k] == -1 - j``, numbered in the order they first appear) is first met.

        >>> from array import array
        >>> part_at, first_at = _space_parts(np.array([ord(c) for c in "ab c ab d"]), array("q", [-1, 0, -1, -2]), 2)
        >>> part_at.tolist(), first_at.tolist()
        ([0, 3, 5, 8, 10], [0, 3])
    """
    n_parts = len(slots)
    part_at = np.empty(n_parts + 1, np.int64)
    part_at[0] = 0
    k = 0
    for i in range(codes.shape[0]):
        if codes[i] == 32:
            k += 1
            part_at[k] = i + 1
    part_at[n_parts] = codes.shape[0] + 1
    first_at = np.full(max(n_new, 1), -1, np.int64)
    for k in range(n_parts):
        j = -1 - slots[k]
        if j >= 0 and first_at[j] < 0:
            first_at[j] = k
    return part_at, first_at


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
    ``word_count`` (``core.encode_chunks._Store``) hold ``n_tokens`` tokens and ``n_frags``
    fragments, and room after them (one token per character of the line, a fragment per new
    chunk): the new chunks' rows are written there, as :meth:`_Store.add_rows` would add
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
    part_at, first_at = _space_parts(codes, slots, n_new)
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
    if good < n_new:
        return np.empty((5, 0), np.int64), written, good
    line = _stored_line(
        slots,
        part_at,
        n_new,
        out,
        frags,
        written,
        n_tokens,
        n_frags,
        ids,
        starts,
        ends,
        words,
        at,
        count,
        word_count,
    )
    return line, written, good


# Answers of wordpiece_line before it matches anything (its ``written``): a character not yet in
# the tables (fill them, call again), a line the general path must take, too little room
# (``good`` then says how many tokens the line may need).
WP_NEED_CHARS = -1
WP_GENERAL = -2
WP_NEED_ROOM = -3


@kernel
def wordpiece_line(
    codes,
    slots,
    n_new,
    norm,
    extra,
    classes,
    matcher,
    token_lengths,
    prefix,
    room,
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
    """:func:`bpe_line` for a WordPiece model: the line (``codes``) is cut at its spaces as
    there; each new chunk (numbered in the order it first appears) is normalized and
    pre-tokenized here, character by character, then made by :func:`wordpiece_fragments`
    (``matcher``: ``WordPiece.matcher_args``; ``prefix``: the length of ``##``) and stored,
    and the line gathered by :func:`_stored_line`.

    The tables are ``core.encode_chunks._WordPieceChars``': ``norm[c]`` is what the normalizer
    makes of character ``c`` alone (empty: no normalizer; ``>= 0`` that one character; -1 not
    known yet; -2 a character it cannot take alone; ``-3 - e`` the ``extra[e]`` characters
    after ``extra[e]``: none when dropped, several when expanded); ``classes[c]`` is the
    pre-tokenizer's class of a normalized character (-1 not known yet, 0 space, 1 a pre-token
    alone, 2 and 3 runs of their own kind). A new chunk holding a space once normalized, or
    nothing, sends the line the general way, as a character the normalizer cannot take alone does.

    Returns ``(line rows, tokens written, ok chunks)``, or ``(empty, WP_NEED_CHARS, 0)``,
    ``(empty, WP_GENERAL, 0)``, ``(empty, WP_NEED_ROOM, tokens needed)`` before matching.

        >>> from array import array
        >>> from core.models.wordpiece.model import WordPiece
        >>> model = WordPiece({"[UNK]": 0, "h": 1, "##ug": 2, "hug": 3, "p": 4})
        >>> q = lambda *values: array("q", values)
        >>> store = [q(3, *[0] * 8), q(0, *[0] * 8), q(3, *[0] * 8), q(0, *[0] * 8), q(0, 0), q(1, 0), q(1, 0)]
        >>> codes = np.array([ord(c) for c in "hug pug"], np.int32)   # "hug" is fragment 0
        >>> lengths = np.array([0, 1, 4, 3, 1])   # "##" counts 2 in "##ug"
        >>> classes = np.full(128, -1, np.int8); no_norm = np.zeros(0, np.int32)
        >>> args = (model.matcher_args(), lengths, 2, 8, 1, 1, *store)
        >>> wordpiece_line(codes, q(0, -1), 1, no_norm, no_norm, classes, *args)[1]   # classes unknown
        -1
        >>> classes[[ord(c) for c in "gpu"]] = 2   # letters: runs of one kind
        >>> line, written, ok = wordpiece_line(codes, q(0, -1), 1, no_norm, no_norm, classes, *args)
        >>> line.tolist(), written, ok   # ids, places in the store, starts, ends, pre-tokens
        ([[3, 4, 2], [0, 1, 2], [0, 4, 5], [3, 5, 7], [0, 1, 1]], 2, 1)
    """
    nothing = np.empty((5, 0), np.int64)
    part_at, first_part = _space_parts(codes, slots, n_new)
    mapped = norm.shape[0] > 0
    n_chars = 0
    for j in range(n_new):
        n_chars += part_at[first_part[j] + 1] - 1 - part_at[first_part[j]]
    # how many characters each of the new chunks' characters becomes, and how many in all
    per_char = np.empty(n_chars, np.int64)
    key_lengths = np.empty(n_new, np.int64)
    odd = False
    i = 0
    n_out = 0
    for j in range(n_new):
        a, b = part_at[first_part[j]], part_at[first_part[j] + 1] - 1
        key_lengths[j] = b - a
        for x in range(a, b):
            length = 1
            if mapped:
                v = norm[codes[x]]
                if v == -1:
                    return nothing, WP_NEED_CHARS, 0
                if v == -2:
                    return nothing, WP_GENERAL, 0
                if v <= -3:
                    if -3 - v >= extra.shape[0]:  # (filled by another thread since this call began)
                        return nothing, WP_NEED_CHARS, 0
                    length = extra[-3 - v]
                    odd = True
            per_char[i] = length
            i += 1
            n_out += length
    if n_out > room:  # a token per normalized character at most
        return nothing, WP_NEED_ROOM, n_out
    piece_codes = np.empty(n_out, np.int32)
    piece_lengths = np.empty(n_out, np.int64)  # a pre-token per normalized character at most
    pieces_per_key = np.zeros(n_new, np.int64)
    n_pieces = 0
    o = 0
    for j in range(n_new):
        begin = o
        for x in range(part_at[first_part[j]], part_at[first_part[j] + 1] - 1):
            c = codes[x]
            v = norm[c] if mapped else c
            if v >= 0:
                piece_codes[o] = v
                o += 1
            else:
                e = -3 - v
                for y in range(e + 1, e + 1 + extra[e]):
                    piece_codes[o] = extra[y]
                    o += 1
        before = -1
        for y in range(begin, o):
            kind = classes[piece_codes[y]]
            if kind < 0:
                return nothing, WP_NEED_CHARS, 0
            if kind == 0:  # a space inside: its pre-tokens are not back to back
                return nothing, WP_GENERAL, 0
            if kind == 1 or kind != before:
                piece_lengths[n_pieces] = 1
                n_pieces += 1
                pieces_per_key[j] += 1
            else:
                piece_lengths[n_pieces - 1] += 1
            before = kind
        if pieces_per_key[j] == 0:  # nothing left once normalized
            return nothing, WP_GENERAL, 0
    out = np.empty((4, n_out + n_pieces + 1), np.int64)
    frags = np.empty((4, max(n_new, 1)), np.int64)
    written, good = wordpiece_fragments(
        piece_codes,
        piece_lengths[:n_pieces],
        pieces_per_key,
        np.zeros(0, np.int64),
        True,
        per_char if odd else np.zeros(0, np.int64),
        key_lengths,
        matcher,
        token_lengths,
        prefix,
        n_tokens,
        out,
        frags,
    )
    if good < n_new:
        return nothing, written, good
    line = _stored_line(
        slots,
        part_at,
        n_new,
        out,
        frags,
        written,
        n_tokens,
        n_frags,
        ids,
        starts,
        ends,
        words,
        at,
        count,
        word_count,
    )
    return line, written, good


@kernel
def _stored_line(
    slots,
    part_at,
    n_new,
    out,
    frags,
    written,
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
    """The second half of :func:`bpe_line`, :func:`bytelevel_line`, :func:`metaspace_line` and
    :func:`wordpiece_line`: the new chunks' rows
    (``out``, ``frags``, every chunk ok) written into the store's room, and the line's rows
    gathered; chunk ``k`` starts at ``part_at[k]``."""
    for t in range(written):
        ids[n_tokens + t] = out[0, t]
        starts[n_tokens + t] = out[1, t]
        ends[n_tokens + t] = out[2, t]
        words[n_tokens + t] = out[3, t]
    for j in range(n_new):
        at[n_frags + j] = frags[0, j]
        count[n_frags + j] = frags[1, j]
        word_count[n_frags + j] = frags[2, j]
    n_parts = len(slots)
    total = 0
    for k in range(n_parts):
        f = slots[k]
        total += count[f if f >= 0 else n_frags - 1 - f]
    line = np.empty((5, total), np.int64)
    t = 0
    word = 0
    for k in range(n_parts):
        f = slots[k]
        if f < 0:
            f = n_frags - 1 - f
        pos = part_at[k]
        a = at[f]
        for i in range(a, a + count[f]):
            line[0, t] = ids[i]
            line[1, t] = i
            line[2, t] = starts[i] + pos
            line[3, t] = ends[i] + pos
            line[4, t] = words[i] + word
            t += 1
        word += word_count[f]
    return line


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
    if good < n_new:
        return np.empty((5, 0), np.int64), written, good
    line = _stored_line(
        slots,
        part_at,
        n_new,
        out,
        frags,
        written,
        n_tokens,
        n_frags,
        ids,
        starts,
        ends,
        words,
        at,
        count,
        word_count,
    )
    return line, written, good


@kernel
def metaspace_line(
    codes,
    slots,
    n_first,
    n_new,
    prepend,
    replacement,
    viterbi,
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
    """:func:`bpe_line` for a Unigram model under ``Metaspace``: the line's chunks are cut at
    its spaces; its new ones made by :func:`metaspace_fragments` (each ``replacement`` + text,
    and the text's first chunk, new when ``n_first`` is 1 (then ``slots[0]`` is -1), with the
    ``replacement`` only if ``prepend``); the normalizer left the text as it was. Returns as
    :func:`bpe_line` does, or ``(empty, -1, chunk)`` when a chunk needs an unknown token the
    model does not have.

        >>> from array import array
        >>> from core.models.unigram.model import Unigram
        >>> model = Unigram([("<unk>", 0.0), ("▁", -3.0), ("h", -2.0), ("u", -2.0), ("g", -2.0), ("▁hug", -1.0)])
        >>> q = lambda *values: array("q", values)
        >>> store = [q(*[0] * 12) for _ in range(4)] + [q(0, 0), q(0, 0), q(0, 0)]   # empty, and room
        >>> codes = np.array([ord(c) for c in "hug hug"], np.uint32)
        >>> line, written, ok = metaspace_line(codes, q(-1, -2), 1, 2, True, ord("▁"),
        ...     model.viterbi_args(), np.array([5, 1, 1, 1, 1, 4]), 0, 0, *store)
        >>> line.tolist(), written, ok   # "▁hug" (the ▁ from "h") and "▁hug" (from the space)
        ([[5, 5], [0, 1], [0, 3], [3, 7], [0, 1]], 2, 2)
    """
    part_at, first_at = _space_parts(codes, slots, n_new)
    size = 0
    for j in range(n_new):
        size += part_at[first_at[j] + 1] - part_at[first_at[j]]  # its characters and a ▁
    joined = np.empty(max(size, 1), np.int64)  # the new pieces one after another
    key_lengths = np.empty(n_new, np.int64)
    m = 0
    for j in range(n_new):
        k = first_at[j]
        if j >= n_first or prepend:
            joined[m] = replacement
            m += 1
        key_lengths[j] = part_at[k + 1] - part_at[k] - 1
        for i in range(part_at[k], part_at[k] + key_lengths[j]):
            joined[m] = codes[i]
            m += 1
    out = np.empty((4, 4 * m + 1), np.int64)  # room for byte pieces: 4 per character
    frags = np.empty((4, max(n_new, 1)), np.int64)
    written, good = metaspace_fragments(
        joined[:m],
        key_lengths,
        np.zeros(0, np.int64),
        n_first,
        prepend,
        viterbi,
        token_lengths,
        n_tokens,
        out,
        frags,
    )
    if written < 0 or good < n_new:
        return np.empty((5, 0), np.int64), written, good
    line = _stored_line(
        slots,
        part_at,
        n_new,
        out,
        frags,
        written,
        n_tokens,
        n_frags,
        ids,
        starts,
        ends,
        words,
        at,
        count,
        word_count,
    )
    return line, written, good

"""Compiled kernels of the chunk cache (``core.encode_chunks``) that every model shares.

A model's own kernels for a line's new chunks live in its package
(``core/models/<algorithm>/line_kernels.py``, named by its ``line_encoder``) and build on these:
:func:`chunk_spans` gives each token of pre-tokens a model has cut its span from its length,
:func:`close_chunk` and :func:`without_overlaps` finish a chunk's rows, :func:`space_parts` and
:func:`stored_line` take a line's chunks apart and gather it from the store, and
:func:`assemble` gathers a line whose chunks are all in the store.

The rows every kernel writes: ``out`` (ids, starts, ends, pre-token index; spans relative to
the chunk) and ``frags`` (for the ``ok`` chunks, in order: where its tokens will start in the
store, how many tokens, how many pre-tokens; row 3, for every chunk: 1 if it is ``ok``).

Imported only when encoding meets new chunks and numba is loaded (see
``ChunkPlan._few_kernels``); this module imports no model.
"""

from __future__ import annotations

import numpy as np

from core.jit import kernel


@kernel
def close_chunk(frags, k, good, good_keys, base, begin, written, pre_tokens):
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
def without_overlaps(out, begin, end):
    """``core.tokenizer.without_overlaps`` on the spans of tokens ``begin`` to ``end`` (rows 1
    and 2 of ``out``): a character cut into several tokens belongs to the last."""
    for t in range(begin, end - 1):
        stop = out[2, t]
        if out[1, t + 1] < stop <= out[2, t + 1]:
            out[1, t] = min(out[1, t], out[1, t + 1])
            out[2, t] = out[1, t + 1]


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
    last (``core.tokenizer.without_overlaps``). A chunk is not ``ok`` when a pre-token has
    no tokens, an unknown character, a token of no length or lengths that do not add up.

    Writes ``out`` and ``frags`` as the module says; returns ``(tokens written, ok chunks)``.
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
            without_overlaps(out, begin, written)
        good_keys, written = close_chunk(frags, k, good, good_keys, base, begin, written, pieces_per_key[k])
    return written, good_keys


@kernel
def assemble(frags, part_lengths, gap, start, ids, starts, ends, words, at, count, word_count):
    """One text's tokens from its chunks' fragments in the store (``ChunkPlan._assemble``):
    chunk ``k`` is fragment ``frags[k]``, ``part_lengths[k]`` characters long, ``gap``
    characters (a space, or none) before the next; the first starts at ``start``. The store's
    columns (``core.chunk_store.ChunkStore``, read where they are: ``array.array``s) hold each
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
def space_parts(codes, slots, n_new):
    """A line (``codes``) cut at its ASCII spaces: where each chunk starts (and the line's end
    + 1, so chunk ``k`` is ``part_at[k]`` to ``part_at[k + 1] - 1``), and the chunk where each
    new one (``slots[k] == -1 - j``, numbered in the order they first appear) is first met.

        >>> from array import array
        >>> part_at, first_at = space_parts(np.array([ord(c) for c in "ab c ab d"]), array("q", [-1, 0, -1, -2]), 2)
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
def stored_line(
    slots,
    part_at,
    n_new,
    out,
    frags,
    written,
    good,
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
    """The second half of the models' line kernels (``core.models.bpe.line_kernels.bpe_line`` and
    the others), and their answer ``(line, written, good)``: when every new chunk is ok
    (``good == n_new``), the new chunks' rows (``out``, ``frags``) written into the store's room
    and the line's rows gathered (chunk ``k`` starts at ``part_at[k]``); else no rows, nothing
    written to the store, and the caller's ``written`` and ``good`` handed back."""
    if good < n_new:
        return np.empty((5, 0), np.int64), written, good
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
    return line, written, good

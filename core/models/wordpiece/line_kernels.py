"""WordPiece's compiled way through a line's new chunks, for the chunk cache
(``core.encode_chunks``): :func:`wordpiece_fragments` matches pre-tokens the cache has cut,
:func:`wordpiece_line` normalizes and pre-tokenizes a line's new chunks from the cache's
character tables, matches them, writes them into the store and gathers the line. The model's
``WordPiece.line_encoder`` names them.

Imported only when encoding meets new chunks and numba is loaded (see
``ChunkPlan._few_kernels``).
"""

from __future__ import annotations

import numpy as np

from core.chunk_kernels import chunk_spans, space_parts, stored_line
from core.jit import kernel
from core.line_encoders import NEED_CHARS, NEED_ROOM, TAKE_GENERAL, LineKernels
from core.models.wordpiece.kernels import _longest_match_ids


def load(model) -> LineKernels:
    """The kernels and the model's tables they take (``WordPiece.matcher_args``)."""
    return LineKernels(wordpiece_line, None, wordpiece_fragments, (model.matcher_args(),))


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
    and the line gathered by :func:`stored_line`.

    The tables are ``core.encode_chunks._WordPieceChars``': ``norm[c]`` is what the normalizer
    makes of character ``c`` alone (empty: no normalizer; ``>= 0`` that one character; -1 not
    known yet; -2 a character it cannot take alone; ``-3 - e`` the ``extra[e]`` characters
    after ``extra[e]``: none when dropped, several when expanded); ``classes[c]`` is the
    pre-tokenizer's class of a normalized character (-1 not known yet, 0 space, 1 a pre-token
    alone, 2 and 3 runs of their own kind). A new chunk holding a space once normalized, or
    nothing, sends the line the general way, as a character the normalizer cannot take alone does.

    Returns ``(line rows, tokens written, ok chunks)``, or ``(empty, NEED_CHARS, 0)``,
    ``(empty, TAKE_GENERAL, 0)``, ``(empty, NEED_ROOM, tokens needed)`` before matching.

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
    part_at, first_part = space_parts(codes, slots, n_new)
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
                    return nothing, NEED_CHARS, 0
                if v == -2:
                    return nothing, TAKE_GENERAL, 0
                if v <= -3:
                    if -3 - v >= extra.shape[0]:  # (filled by another thread since this call began)
                        return nothing, NEED_CHARS, 0
                    length = extra[-3 - v]
                    odd = True
            per_char[i] = length
            i += 1
            n_out += length
    if n_out > room:  # a token per normalized character at most
        return nothing, NEED_ROOM, n_out
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
                return nothing, NEED_CHARS, 0
            if kind == 0:  # a space inside: its pre-tokens are not back to back
                return nothing, TAKE_GENERAL, 0
            if kind == 1 or kind != before:
                piece_lengths[n_pieces] = 1
                n_pieces += 1
                pieces_per_key[j] += 1
            else:
                piece_lengths[n_pieces - 1] += 1
            before = kind
        if pieces_per_key[j] == 0:  # nothing left once normalized
            return nothing, TAKE_GENERAL, 0
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
    return stored_line(
        slots, part_at, n_new, out, frags, written, good,
        n_tokens, n_frags, ids, starts, ends, words, at, count, word_count,
    )  # fmt: skip

"""Unigram's compiled way through a line's new ``Metaspace`` chunks, for the chunk cache
(``core.encode_chunks``): :func:`metaspace_fragments` makes a set of new chunks (each ``▁`` +
its text, one pre-token) with the compiled Viterbi, :func:`metaspace_line` also writes them
into the store and gathers the line. The model's ``Unigram.line_encoder`` names them.

Imported only when encoding meets new chunks and numba is loaded (see
``ChunkPlan._few_kernels``).
"""

from __future__ import annotations

import numpy as np

from core.chunk_kernels import chunk_spans, space_parts, stored_line
from core.jit import kernel
from core.line_encoders import LineKernels
from core.models.unigram.kernels import _best_ids


def load(model) -> LineKernels:
    """The kernels and the model's tables they take (``Unigram.viterbi_args``)."""
    return LineKernels(metaspace_line, metaspace_fragments, None, (model.viterbi_args(),))


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
    part_at, first_at = space_parts(codes, slots, n_new)
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
    if written < 0:
        return np.empty((5, 0), np.int64), written, good
    return stored_line(
        slots, part_at, n_new, out, frags, written, good,
        n_tokens, n_frags, ids, starts, ends, words, at, count, word_count,
    )  # fmt: skip

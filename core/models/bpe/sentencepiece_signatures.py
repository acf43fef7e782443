"""The SentencePiece BPE trainer's compiled kernels (``core/models/bpe/sentencepiece_kernels.py``):
the slots, flags and result codes they share with the Python side (``sentencepiece_trainer.py``),
and their signatures for the ahead-of-time build.

A module of its own, without numpy or numba, so that both sides import it and neither imports the
other at load time; ``python -m core.build`` hashes it with the kernels' source.

    >>> sorted(EXPORTS)[:3]
    ['count_chars', 'link_and_count', 'merge_pieces']
"""

from __future__ import annotations

# ints[...] slots
I_TOKENS, I_CHARS, I_PAIRS, I_NODES, I_HEAP, I_PIECES, I_DONE, I_NEED, I_GAINS = range(9)
N_INTS = 9
# merge_pieces results
CHUNK_DONE, STOP_SIZE, STOP_NO_PAIRS, GROW = range(4)
# a token's flags: a character no piece holds (the unknown one, a tab, a space, NUL), the ▁,
# a decimal digit
BAD, SPACE, DIGIT = 1, 2, 4
# a pair's state: counted (in the readable loop's ``freq``), seen side by side (its ``made``)
IN_FREQ, MADE = 1, 2
# the options word: --split_digits, --treat_whitespace_as_suffix
SPLIT_DIGITS, SUFFIX = 1, 2

# The kernels' signatures for the compiled-ahead builds (numba's notation; ``[::1]`` a contiguous
# array): exactly the dtypes the trainer passes.
_I4, _I8 = "int32[::1]", "int64[::1]"
_TOKENS = f"{_I4}, {_I4}, {_I4}, {_I4}, {_I4}, {_I4}"  # chars, start, len, script, flags, table
_PAIRS = f"{_I4}, {_I4}, {_I4}, {_I8}, {_I4}, {_I4}, {_I4}, {_I4}"  # table, left, right, count, state, start, nodes, mark
EXPORTS = {
    "number_chars": f"int64({_I4}, {_I4}, {_I4})",
    "count_chars": f"void({_I4}, {_I4}, {_I8}, {_I8})",
    "renumber": f"void({_I4}, {_I4})",
    "rehash_pairs": f"void({_I4}, {_I4}, {_I4}, int64)",
    "link_and_count": (
        f"int64({_I4}, {_I4}, {_I8}, {_I4}, {_I8}, "  # symbols, words, positions, weights
        f"{_TOKENS}, {_PAIRS}, {_I4}, {_I4}, {_I8}, {_I8}, {_I8}, int64, int64, int64)"  # pool, heap, ints, options, first
    ),
    "merge_pieces": (
        f"int64({_I4}, {_I8}, "  # positions, weights
        f"{_TOKENS}, {_PAIRS}, {_I4}, {_I4}, {_I8}, {_I8}, "  # pool, heap
        f"{_I4}, {_I4}, {_I4}, {_I8}, int64, int64, int64, int64, "  # gains, changed, ints, size, steps, options
        f"{_I4}, {_I4}, {_I4}, {_I8})"  # out_left, out_right, out_new, out_count
    ),
}

"""The BPE trainer's compiled kernels (``core/models/bpe/train_kernels.py``): the slots and result
codes they share with the Python side (``merge_loop.py``), and their signatures for the
ahead-of-time build.

A module of its own, without numpy or numba, so that both sides import it and neither imports
the other at load time; ``python -m core.build`` hashes it with the kernels' source, so a changed
constant rebuilds the extension.

    >>> sorted(EXPORTS)[:2]
    ['count_pairs', 'fill_initial_entries']
"""

from __future__ import annotations

# ints[...] slots
I_TOKENS, I_CHARS, I_PAIRS, I_ENTRIES, I_SEQ, I_HEAP, I_POOL, I_STEP, I_NEED, I_NEED_NEW, I_NEED_CHARS = (
    range(11)
)
# merge_chunk results
CHUNK_DONE, STOP_VOCAB, STOP_NO_PAIRS, STOP_MIN_FREQUENCY, GROW = range(5)
# merge_chunk's scratch room for the tie walk (train_kernels' _has_tie: at most 64 entries seen)
TIE_STACK = 2 * 64 + 2

# The kernels' signatures for the compiled-ahead build (numba's notation; ``[::1]`` a contiguous
# array). They are exactly the dtypes MergeState passes: an extension, unlike the JIT, cannot
# compile another version for other dtypes, and refuses them.
_I4, _I8 = "int32[::1]", "int64[::1]"
EXPORTS = {
    "rehash_pairs": f"void({_I4}, {_I4}, {_I4}, int64)",
    "count_pairs": f"int64({_I4}, {_I8}, {_I4}, {_I8}, int64, {_I4}, {_I4}, {_I4}, {_I8}, {_I8}, {_I4}, {_I8})",
    "fill_initial_entries": (
        f"void({_I4}, {_I8}, {_I4}, {_I4}, {_I4}, {_I4}, {_I8}, {_I8}, {_I8}, {_I4}, "
        f"{_I4}, {_I8}, {_I4}, {_I4}, {_I4}, {_I4}, {_I4}, {_I8})"
    ),
    "index_tokens": f"void({_I8}, {_I4}, {_I4}, {_I8}, {_I4}, int64)",
    "merge_chunk": (
        f"UniTuple(int64, 2)({_I4}, {_I8}, {_I4}, {_I8}, "  # words
        f"{_I8}, {_I4}, {_I4}, {_I8}, {_I4}, {_I4}, "  # tokens, prefix
        f"{_I4}, {_I4}, {_I4}, {_I8}, {_I4}, "  # pairs
        f"{_I4}, {_I8}, {_I4}, {_I4}, {_I4}, {_I4}, {_I4}, "  # entries, heap, pool
        f"{_I4}, {_I4}, {_I4}, {_I8}, {_I4}, "  # gains of one merge
        f"{_I8}, int64, int64, int64, "  # ints, vocab_size, min_frequency, max_merges
        f"{_I4}, {_I4}, {_I4}, {_I8}, bool_[::1], {_I4}, {_I8})"  # out_*, tie_stack
    ),
}

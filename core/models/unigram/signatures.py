"""The Unigram trainer's compiled kernels (``core/models/unigram/train_kernels.py``): their signatures
for the ahead-of-time build, and :func:`sweep_kernels`, which gives the build or the JIT.

``python -m core.build`` (run by ``.ci/setup.sh``) compiles the kernels listed in :data:`EXPORTS`
into an extension that needs neither numba nor LLVM; a training then never loads them (about
0.5 s and, on 8 MB of reviews, ~100 MB of its peak memory, most of it at the seeding's peak).
Without the build (no compiler, sources edited since), numba's JIT of the same source runs: both
give the same results (the engine tests run on whichever is there, ``tests/engine/test_jit.py``
on both).

    >>> sorted(EXPORTS)[:3]
    ['backtrack', 'backward_slice', 'backward_slice_f32']
"""

from __future__ import annotations

from types import ModuleType

# Exactly the dtypes the trainer passes (an extension, unlike the JIT, refuses others): edges
# are int32 starts, int16 lengths, int32 pieces; lattice bounds int64; values float64.
_I2, _I4, _I8, _F8 = "int16[::1]", "int32[::1]", "int64[::1]", "float64[::1]"
_EDGES = f"{_I4}, {_I2}, {_I4}"
EXPORTS = {
    "forward_slice": f"void({_EDGES}, {_F8}, {_F8}, int64, int64)",
    "backward_slice": f"void({_EDGES}, {_F8}, {_F8}, int64, int64)",
    "marginals_slice": f"void({_EDGES}, {_F8}, {_F8}, {_F8}, {_I8}, {_F8}, {_F8}, {_F8}, int64, int64)",
    "viterbi_slice": f"void({_EDGES}, {_F8}, {_F8}, {_I4}, int64, int64)",
    "forward_slice_f32": f"void({_EDGES}, {_F8}, {_F8}, int64, int64)",
    "backward_slice_f32": f"void({_EDGES}, {_F8}, {_F8}, float64, int64, int64)",
    "marginals_slice_f32": f"void({_EDGES}, {_F8}, {_F8}, {_F8}, {_I8}, {_F8}, {_F8}, {_F8}, {_I4}, int64, int64)",
    "viterbi_slice_f32": f"void({_EDGES}, {_F8}, {_F8}, {_I4}, int64, int64)",
    "backtrack": f"UniTuple({_I4}, 2)({_I8}, {_I8}, {_I4}, {_I4}, {_I4})",
    "best_path_counts": f"UniTuple({_F8}, 2)({_I8}, {_I8}, {_I4}, {_I4}, {_I4}, {_F8}, int64)",
    "copy_inner_edges": f"int64({_EDGES}, {_I8}, {_I8}, {_I8}, {_I8}, {_EDGES})",
    "keep_edges": f"int64({_EDGES}, {_I4})",
    "group_pairs": f"Tuple((int64, {_I4}, {_I4}))({_I4}, {_I4}, int64, int64)",
}


def sweep_kernels() -> ModuleType:
    """The module whose functions the trainer calls: compiled ahead of time if built, else the JIT."""
    from core.jit import load_ahead_of_time

    ahead = load_ahead_of_time("core.models.unigram.train_kernels")
    if ahead is not None:
        return ahead
    from core.models.unigram import train_kernels  # loads numba and the cached JIT kernels

    return train_kernels

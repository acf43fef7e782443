"""The one way the engine compiles a hot loop: numba, cached on disk, without the GIL.

Why numba. The engine is Python so that a reader can follow every algorithm, but a few loops
(BPE's merge loop, the merge of a word seen for the first time, the Viterbi and forward-backward
passes of Unigram) run millions of tiny steps, and the interpreter's cost per step is what kept
us 2-10x behind the native libraries. numba (https://numba.pydata.org, maintained by Anaconda
and the community, wheels for every platform we ship on) compiles exactly those functions, written
in the same plain Python over numpy arrays, to machine code. Nothing else in the engine changes.

How a kernel is written::

    from core.jit import kernel

    @kernel
    def count_pairs(codes, starts, counts):   # numpy arrays in, numpy arrays or scalars out
        ...

- Kernels live in modules of their own (``*_kernels.py``) that the code needing them imports
  inside the function, so ``import core`` and the explorer's start stay light (numba takes about
  0.3 s and 60 MB to load).
- ``cache=True`` keeps the compiled code beside the module (or, in a read-only install, in numba's
  per-user cache), so only the very first call on a machine pays the compilation.
- ``nogil=True`` lets a kernel run while other Python threads (the explorer's event loop) go on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

F = TypeVar("F", bound=Callable[..., object])


def kernel(function: F) -> F:
    """Compile ``function`` with numba in nopython mode, cached, releasing the GIL.

    >>> import numpy as np
    >>> @kernel
    ... def total(values):
    ...     s = 0
    ...     for v in values:
    ...         s += v
    ...     return s
    >>> int(total(np.arange(5)))
    10
    """
    import numba  # imported here: only modules that define kernels pay for it

    try:
        compiled = numba.njit(cache=True, nogil=True)(function)
    except RuntimeError:
        # Defined where no cache can be kept (a notebook cell, a doctest): compile every session.
        compiled = numba.njit(nogil=True)(function)
    return cast(F, compiled)  # a numba Dispatcher, called exactly like ``function``

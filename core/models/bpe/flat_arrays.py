"""The flat arrays of BPE's compiled merge loop, held either in numpy or in the standard library.

:class:`core.models.bpe.merge_loop.MergeState` makes, grows and slices its arrays only through one of
these two, so the same state runs on either build of the kernels:

- :class:`NumpyArrays`: numpy arrays, for the extension ``python -m core.build`` compiles ahead of
  time and for numba's JIT (both take numpy arrays);
- :class:`PlainArrays`: ``array.array`` buffers, for the plain shared library
  (``core.jit.PlainKernels``), which takes addresses: a short job then never imports numpy, whose
  import alone (~0.05 s of CPU) is half of what `tokenizers` spends on a whole 0.3 MB novel.

Kinds are numba's names: ``"int32"``, ``"int64"``, ``"bool_"``.

    >>> plain = PlainArrays()
    >>> a = plain.of([3, 1, 2], "int32")
    >>> plain.grown(a, 5, -1).tolist(), plain.starts(plain.of([2, 3, 1], "int32")).tolist()
    ([3, 1, 2, -1, -1], [0, 2, 5])
    >>> plain.pair_order(plain.of([1, 0, 1], "int32"), plain.of([0, 5, 0], "int32"), 2).tolist()
    [1, 0]
"""

from __future__ import annotations

from array import array
from itertools import accumulate, islice

from core.jit import Span

# array.array's type codes for numba's kinds (int32 is "i" wherever a C int has 4 bytes)
_CODES = {"int32": "i" if array("i").itemsize == 4 else "l", "int64": "q", "bool_": "b"}


class NumpyArrays:
    """numpy arrays, as the extension's and the JIT's kernels take them."""

    def __init__(self) -> None:
        import numpy as np  # here, not at the top: only jobs on these builds pay for it

        self.np = np

    def zeros(self, n: int, kind: str):
        return self.np.zeros(n, dtype=kind)

    def full(self, n: int, value: int, kind: str):
        return self.np.full(n, value, dtype=kind)

    def of(self, values, kind: str):
        """A contiguous array of ``kind`` from an array or a list."""
        return self.np.ascontiguousarray(values, dtype=kind)

    def grown(self, values, size: int, fill: int = 0):
        """``values`` lengthened to ``size`` items, the new ones ``fill``.

        subtle: resized in place (``realloc``, which moves big blocks by remapping pages) rather
        than copied, so growing does not hold the old and the new array at once; no other
        reference to these arrays outlives a kernel call.
        """
        old = values.shape[0]
        if not values.flags.owndata:
            values = values.copy()
        values.resize(size, refcheck=False)
        values[old:] = fill
        return values

    def starts(self, lengths):
        """Where each of ``lengths`` starts when laid one after the other (int64)."""
        out = self.np.zeros(lengths.shape[0], dtype=self.np.int64)
        self.np.cumsum(lengths[:-1], out=out[1:])
        return out

    def codes(self, strings: list[str]):
        """Code points of all ``strings`` (one int32 array) and their start offsets (int64)."""
        np = self.np
        lengths = np.fromiter(map(len, strings), dtype=np.int64, count=len(strings))
        text = "".join(strings).encode("utf-32-le", "surrogatepass")
        return np.frombuffer(text, dtype=np.uint32).astype(np.int32), self.starts(lengths)

    def pair_order(self, left, right, n: int):
        """Pairs ``0 .. n-1`` sorted by ``(left, right)`` (int64 indices)."""
        return self.np.argsort((left[:n].astype(self.np.int64) << 32) | right[:n])

    def total(self, values, n: int) -> int:
        return int(values[:n].sum())

    def head(self, values, n: int):
        return values[:n]

    def tail(self, values, start: int):
        return values[start:]

    def reset(self, values, fill: int) -> None:
        values[:] = fill

    def rows(self, columns: list, n: int) -> list:
        """Row ``i`` holds item ``i`` of every column, for the first ``n`` items."""
        return self.np.stack([c[:n] for c in columns], axis=1).tolist()


class PlainArrays:
    """``array.array`` buffers, as the plain shared library takes them (by address)."""

    def zeros(self, n: int, kind: str) -> array:
        # (repeated: no zeroed bytes object to copy from, whose pages were touched twice)
        return array(_CODES[kind], (0,)) * n

    def full(self, n: int, value: int, kind: str) -> array:
        return array(_CODES[kind], [value]) * n

    def of(self, values, kind: str) -> array:
        code = _CODES[kind]
        if isinstance(values, array) and values.typecode == code:
            return values
        return array(code, values)

    def grown(self, values: array, size: int, fill: int = 0) -> array:
        if fill == 0:  # (zeroed bytes: no array of the fill value to build first)
            values.frombytes(bytes((size - len(values)) * values.itemsize))
        else:
            values.extend(array(values.typecode, [fill]) * (size - len(values)))
        return values

    def starts(self, lengths: array) -> array:
        return array("q", accumulate(islice(lengths, len(lengths) - 1), initial=0)) if lengths else array("q")

    def codes(self, strings: list[str]) -> tuple[array, array]:
        chars = array(_CODES["int32"])
        chars.frombytes("".join(strings).encode("utf-32-le", "surrogatepass"))
        return chars, self.starts(array("q", map(len, strings)))

    def pair_order(self, left: array, right: array, n: int) -> array:
        keys = [(a << 32) | b for a, b in zip(islice(left, n), islice(right, n))]
        return array("q", sorted(range(n), key=keys.__getitem__))

    def total(self, values: array, n: int) -> int:
        return sum(islice(values, n))

    def head(self, values: array, n: int) -> Span:
        return Span(values, 0, n)

    def tail(self, values: array, start: int) -> Span:
        return Span(values, start, len(values) - start)

    def reset(self, values: array, fill: int) -> None:
        values[:] = array(values.typecode, [fill]) * len(values)

    def rows(self, columns: list, n: int) -> list[tuple[int, ...]]:
        return list(zip(*(islice(c, n) for c in columns)))

"""The chunk cache's store: the tokens of every cached chunk in flat columns.

A chunk's tokens (a :data:`Fragment`) are written once, one after another, into number columns
(``array.array``) and one list of token strings; a cache (``core.encode_chunks.ChunkPlan``)
maps a chunk to its fragment's number, and a line is gathered from the columns by array
indexing (``core.chunk_kernels``) or a model's line kernel writing into them directly (see
:meth:`ChunkStore.room`).

    >>> store = ChunkStore()
    >>> store.add_fragment(((5, 6), ("hu", "g"), (0, 2), (2, 3), (0, 0), 2, 1))
    0
    >>> store.fragment(0)
    ((5, 6), ('hu', 'g'), (0, 2), (2, 3), (0, 0), 2, 1)

Leaves out: where chunks are cut and how their tokens are made (``core.encode_chunks``).
"""

from __future__ import annotations

import itertools
from array import array
from typing import Any

# A chunk's tokens: ids, token strings, starts and ends relative to the chunk, the index of
# each token's pre-token within the chunk, the number of tokens, the number of pre-tokens.
Fragment = tuple[
    tuple[int, ...], tuple[str, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int
]
EMPTY_FRAGMENT: Fragment = ((), (), (), (), (), 0, 0)

# tokens of room the store keeps after its ends for the one-call lines (ChunkStore.room): ~200 lines
ROOM_TOKENS = 4096


class ChunkStore:
    """The tokens of every cached chunk, one fragment after another in flat columns; a cache
    maps a chunk to its fragment's number. subtle: a fragment is then no object of its own (a
    cache of 100,000 chunks kept 600,000 tuples, which a batch left for the cyclic collector
    to walk), and a batch gathers its tokens with array indexing. The number columns are
    ``array.array``s, which the collector never walks (as lists, a fresh store's 1.3 million
    numbers were walked by every collection that met them: 20-30 ms on a batch of a corpus).

    Fragment ``f``'s tokens are ``ids[at[f] : at[f] + count[f]]`` (and the same of
    ``tokens``, ``starts``, ``ends``, ``words``, relative to the chunk), from
    ``word_count[f]`` pre-tokens.
    """

    def __init__(self) -> None:
        self.ids = array("q")
        self.tokens: list[str] = []
        self.starts = array("q")
        self.ends = array("q")
        self.words = array("q")
        self.at = array("q")
        self.count = array("q")
        self.word_count = array("q")
        self._arrays: dict[str, Any] = {}  # numpy copies of the number columns, grown on demand
        self._copied = (-1, -1)  # tokens and fragments already in them (none yet: not made)
        # zeros kept after the number columns' ends for the one-call kernels (see room); the
        # store's tokens are then ``len(tokens)``, not ``len(ids)``, until settle
        self.spare_tokens = 0
        self.spare_frags = 0

    def add(self, ids, tokens, starts, ends, words, counts: list[int], word_counts: list[int]) -> int:
        """Append fragments (their tokens one after another); the number of the first."""
        number = len(self.count)
        if counts:
            self.at.extend(itertools.accumulate(counts[:-1], initial=len(self.ids)))
        self.ids.extend(ids)
        self.tokens += tokens
        self.starts.extend(starts)
        self.ends.extend(ends)
        self.words.extend(words)
        self.count.extend(counts)
        self.word_count.extend(word_counts)
        return number

    def add_arrays(self, ids, tokens: list[str], starts, ends, words, counts, word_counts) -> int:
        """:meth:`add` of numpy columns (copied as they are: no Python per number)."""
        import numpy as np

        number = len(self.count)
        at = np.cumsum(counts) - counts + len(self.ids)
        for column, values in (
            (self.at, at),
            (self.ids, ids),
            (self.starts, starts),
            (self.ends, ends),
            (self.words, words),
            (self.count, counts),
            (self.word_count, word_counts),
        ):
            column.frombytes(np.ascontiguousarray(values, np.int64).view(np.uint8))  # type: ignore[arg-type]
        self.tokens += tokens
        return number

    def add_rows(self, tokens, written: int, frags, frag_count: int, names: list[str]) -> int:
        """:meth:`add` of the rows a kernel wrote (:func:`core.models.bpe.line_kernels.bpe_fragments`):
        ``tokens[0:4, :written]`` ids, starts, ends, words; ``frags[0:3, :frag_count]`` where
        each fragment's tokens start in the store, how many, how many pre-tokens (both
        C-contiguous int64).

        subtle: each row is copied from a slice of the array's bytes (a memoryview), not a numpy
        slice and its ``tobytes``: a line's new chunks are a few dozen numbers, and the seven
        numpy slices and copies cost ~3 µs of it."""
        number, before = len(self.count), len(self.ids)
        rows, step, size = memoryview(tokens).cast("B"), tokens.shape[1] * 8, written * 8
        for r, column in enumerate((self.ids, self.starts, self.ends, self.words)):
            column.frombytes(rows[r * step : r * step + size])
        self.tokens += map(names.__getitem__, self.ids[before:])
        rows, step, size = memoryview(frags).cast("B"), frags.shape[1] * 8, frag_count * 8
        for r, column in enumerate((self.at, self.count, self.word_count)):
            column.frombytes(rows[r * step : r * step + size])
        return number

    def room(self, tokens: int, frags: int) -> tuple[int, int]:
        """Make sure ``tokens`` tokens and ``frags`` fragments of zeros or leftovers follow the
        store's ends in its number columns, for a kernel to write into
        (:func:`core.models.bpe.line_kernels.bpe_line`), and return the store's ends ``(tokens,
        fragments)``; :meth:`keep` then keeps what it wrote, and the room stays for the next
        line until :meth:`settle`.

            >>> store = ChunkStore()
            >>> store.room(3, 1), len(store.ids) >= 3, store.spare_tokens == len(store.ids)
            ((0, 0), True, True)
            >>> store.ids[0] = 7; store.count[0] = 1; store.tokens.append("x")   # as a kernel writes
            >>> store.keep(1, 1); store.room(2, 1)
            (1, 1)
            >>> store.settle(); store.ids.tolist(), store.count.tolist(), store.at.tolist()
            ([7], [1], [0])

        subtle: growing and trimming the seven columns on every line (``bytes`` of zeros, seven
        ``frombytes`` and seven ``del``) cost ~3 µs of a fresh tokenizer's ~25 µs line; room
        for many lines at once costs that once. No store may be read by anyone else in
        between (``ChunkPlan._busy``), and every way but the one-call lines settles first."""
        if tokens > self.spare_tokens or frags > self.spare_frags:
            # for many lines of the usual length at once (a 10,000-character line needs its own)
            more_tokens, more_frags = max(tokens, ROOM_TOKENS), max(frags, ROOM_TOKENS // 4)
            zeros = memoryview(bytes(8 * max(more_tokens, more_frags)))
            for column in (self.ids, self.starts, self.ends, self.words):
                column.frombytes(zeros[: 8 * more_tokens])
            for column in (self.at, self.count, self.word_count):
                column.frombytes(zeros[: 8 * more_frags])
            self.spare_tokens += more_tokens
            self.spare_frags += more_frags
        return len(self.ids) - self.spare_tokens, len(self.count) - self.spare_frags

    def keep(self, tokens: int, frags: int) -> None:
        """Keep the ``tokens`` tokens and ``frags`` fragments a kernel wrote into the room
        (``tokens``, the strings, is the caller's to extend)."""
        self.spare_tokens -= tokens
        self.spare_frags -= frags

    def settle(self) -> None:
        """Drop the room after the columns' ends (see :meth:`room`): their lengths are the
        store's again, as every other way of adding to or reading the store expects."""
        if self.spare_tokens or self.spare_frags:
            tokens, frags = len(self.ids) - self.spare_tokens, len(self.count) - self.spare_frags
            for column in (self.ids, self.starts, self.ends, self.words):
                del column[tokens:]
            for column in (self.at, self.count, self.word_count):
                del column[frags:]
            self.spare_tokens = self.spare_frags = 0

    def add_fragment(self, frag: Fragment) -> int:
        f_ids, f_tokens, f_starts, f_ends, f_words, count, word_count = frag
        return self.add(f_ids, f_tokens, f_starts, f_ends, f_words, [count], [word_count])

    def fragment(self, number: int) -> Fragment:
        """Fragment ``number`` as a tuple (tests compare the two ways of making one)."""
        a, b = self.at[number], self.at[number] + self.count[number]
        return (
            tuple(self.ids[a:b]),
            tuple(self.tokens[a:b]),
            tuple(self.starts[a:b]),
            tuple(self.ends[a:b]),
            tuple(self.words[a:b]),
            self.count[number],
            self.word_count[number],
        )

    def arrays(self) -> dict[str, Any]:
        """numpy copies of ``ids``, ``starts``, ``ends``, ``words`` and ``at``, ``count``,
        ``word_count``. subtle: copies, not views: an ``array.array`` lent to numpy cannot grow."""
        import numpy as np

        if self._copied == (len(self.ids), len(self.count)):
            return self._arrays
        tokens, frags = (max(0, done) for done in self._copied)
        for name, done, size in (
            ("ids", tokens, len(self.ids)),
            ("starts", tokens, len(self.ids)),
            ("ends", tokens, len(self.ids)),
            ("words", tokens, len(self.ids)),
            ("at", frags, len(self.count)),
            ("count", frags, len(self.count)),
            ("word_count", frags, len(self.count)),
        ):
            array_ = self._arrays.get(name)
            if array_ is None or len(array_) < size:  # room for twice as many
                grown = np.empty(max(1024, 2 * size), np.int64)
                if array_ is not None:
                    grown[:done] = array_[:done]
                array_ = self._arrays[name] = grown
            if size > done:
                column = getattr(self, name)
                array_[done:size] = np.frombuffer(column, np.int64, size - done, done * column.itemsize)
        self._copied = (len(self.ids), len(self.count))
        return self._arrays

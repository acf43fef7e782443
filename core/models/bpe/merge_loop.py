"""The BPE trainer's merge state: the flat arrays of ``core/models/bpe/train_kernels.py`` and the Python
that grows them and runs chunks of merges.

The kernels themselves come from :func:`merge_kernels`: the extension ``python -m core.build``
compiles ahead of time from ``train_kernels.py`` (signatures in ``signatures.py``) when it is built
and current, else numba's JIT of the same source. The extension needs neither numba nor LLVM,
which costs a short training ~0.5 s of CPU and ~120 MB before its first merge; both give the
same merges (``tests/parity`` runs both).

    >>> from core.models.bpe.signatures import STOP_VOCAB
    >>> ab_abab = [0, 1, 0, 1, 0, 1], [2, 4], [1, 2]  # symbols, word lengths, word counts
    >>> state = MergeState.build(*ab_abab, ["a", "b"], "")
    >>> state.run(10, vocab_size=3, min_frequency=0)[0] == STOP_VOCAB
    True
    >>> [row[:4] for row in state.events()]  # left id, right id, new id, count: a + b -> ab (id 2)
    [[0, 1, 2, 5]]

The same state runs on numpy arrays (the extension, the JIT) or on ``array.array`` buffers (the
plain shared library, which spares a short job numpy's import): see ``core/models/bpe/flat_arrays.py``.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from core.errors import CorpusError
from core.models.bpe.signatures import (
    GROW,
    I_CHARS,
    I_ENTRIES,
    I_NEED,
    I_NEED_CHARS,
    I_NEED_NEW,
    I_PAIRS,
    I_POOL,
    I_TOKENS,
    TIE_STACK,
)


def merge_kernels() -> ModuleType:
    """The module whose functions run the merge loop: compiled ahead of time if built, else the JIT."""
    from core.jit import load_ahead_of_time

    ahead = load_ahead_of_time("core.models.bpe.train_kernels")
    if ahead is not None:
        return ahead
    from core.models.bpe import train_kernels  # loads numba and the cached JIT kernels

    return train_kernels


def plain_merge_kernels():
    """The merge loop's kernels from the plain shared library (``core.jit.PlainKernels``: no numpy,
    no numba), or ``None`` where it is not built (no C compiler) or the JIT is forced."""
    from core.jit import load_plain_library

    return load_plain_library("core.models.bpe.train_kernels")


# -- the Python side: arrays, growth, chunks ------------------------------------------------------


_malloc_trim: list = []  # glibc's malloc_trim once looked up, or None where there is none


def _return_freed_memory() -> None:
    """Hand the free pages of the C heap back to the system (glibc's ``malloc_trim``); else nothing.

    subtle: an array that cannot grow in place is copied, and the blocks it leaves stay in the
    process: on the Korean corpus at 32k, ~11 MB of the peak. A trim takes ~1 ms and runs only
    after the set-up and after each growth (~20 times in that training).
    """
    if not _malloc_trim:
        try:
            import ctypes

            _malloc_trim.append(ctypes.CDLL("libc.so.6").malloc_trim)
        except (OSError, AttributeError):  # not glibc (macOS, Windows, musl): nothing to do
            _malloc_trim.append(None)
    if _malloc_trim[0] is not None:
        _malloc_trim[0](0)


def _table_size(capacity: int) -> int:
    """A power of two at least 1.5 times ``capacity`` (open addressing stays at most 2/3 full)."""
    size = 16
    while size < capacity + capacity // 2:
        size *= 2
    return size


class MergeState:
    """Every array of the merge loop, and the Python that grows them and runs chunks of merges."""

    # (each a numpy array or an array.array, as ``arrays`` makes them)
    symbols: Any
    word_start: Any
    word_len: Any
    word_count: Any
    token_keys: Any
    token_ids: Any
    token_chars: Any
    token_start: Any
    token_len: Any
    prefix: Any
    pair_table: Any
    pair_left: Any
    pair_right: Any
    pair_count: Any
    pair_slot: Any
    entry_pair: Any
    entry_neg: Any
    entry_seq: Any
    entry_start: Any
    entry_end: Any
    heap: Any
    pool: Any
    gained_slot: Any
    gained_word: Any
    slot_pair: Any
    slot_count: Any
    slot_last_word: Any
    out_left: Any
    out_right: Any
    out_new: Any
    out_count: Any
    out_tie: Any
    out_vocab: Any
    done: int

    def __init__(self, kernels=None, arrays=None) -> None:
        """``kernels`` from :func:`merge_kernels` (numpy arrays) unless given; with the plain
        library's (:func:`plain_merge_kernels`) pass ``arrays=PlainArrays()``."""
        from core.models.bpe.flat_arrays import NumpyArrays

        self.arrays = arrays or NumpyArrays()
        self.ints = self.arrays.zeros(11, "int64")
        self.tie_stack = self.arrays.zeros(TIE_STACK, "int64")
        self.kernels = kernels or merge_kernels()

    @classmethod
    def build(cls, symbols, word_len, counts, tokens: list[str], prefix: str,
              vocab_size: int | None = None, kernels=None, arrays=None) -> MergeState:  # fmt: skip
        """Step 3 of the trainer: the words' arrays in, pairs counted and the first heap built.

        ``symbols`` holds every word's ids one after the other (``word_len`` says how many
        each; ``counts`` how often it occurs); ``tokens`` are the initial tokens in id order;
        ``prefix`` is the continuing-subword prefix ("" for none).
        """
        self = cls(kernels, arrays)
        xp, ints, k = self.arrays, self.ints, self.kernels
        self.symbols = xp.of(symbols, "int32")
        self.word_len = xp.of(word_len, "int32")
        n_words = len(self.word_len)
        self.word_start = xp.starts(self.word_len)
        self.word_count = xp.of(counts, "int64")
        capacity = max(len(tokens), vocab_size or 0) + 1
        chars, starts = xp.codes(tokens)
        n_chars = len(chars)
        self.token_chars = xp.grown(chars, max(2 * n_chars, 1024))
        self.token_start = xp.grown(starts, capacity)
        self.token_len = xp.grown(xp.of(list(map(len, tokens)), "int32"), capacity)
        self.token_keys = xp.full(_table_size(capacity), -1, "int64")
        self.token_ids = xp.zeros(len(self.token_keys), "int32")
        self.prefix = xp.codes([prefix])[0]
        k.index_tokens(
            self.token_keys, self.token_ids, self.token_chars, self.token_start, self.token_len, len(tokens)
        )
        ints[I_TOKENS] = len(tokens)
        ints[I_CHARS] = n_chars

        # Distinct pairs are fewer than symbols; start at a quarter and grow while counting.
        self.pair_left = xp.zeros(max(1024, len(self.symbols) // 4), "int32")
        self._grow_pairs(0)
        pair_words = xp.zeros(len(self.pair_left), "int64")
        last_word = xp.full(len(self.pair_left), -1, "int32")
        w = 0
        while True:
            w = k.count_pairs(self.symbols, self.word_start, self.word_len, self.word_count, w, self.pair_table,
                              self.pair_left, self.pair_right, self.pair_count, pair_words, last_word, ints)  # fmt: skip
            if w == n_words:
                break
            self._grow_pairs(int(self.word_len[w]))
            pair_words = xp.grown(pair_words, len(self.pair_left))
            last_word = xp.grown(last_word, len(self.pair_left), -1)
        n_pairs = int(ints[I_PAIRS])
        order = xp.pair_order(self.pair_left, self.pair_right, n_pairs)
        n_entries = n_pairs + n_pairs // 4 + 1024
        self.entry_pair = xp.zeros(n_entries, "int32")
        self.entry_neg = xp.zeros(n_entries, "int64")
        self.entry_seq = xp.zeros(n_entries, "int32")
        # subtle: int32 offsets into the pool; _grow refuses a pool past 2**31 entries.
        self.entry_start = xp.zeros(n_entries, "int32")
        self.entry_end = xp.zeros(n_entries, "int32")
        self.heap = xp.zeros(n_entries, "int32")
        total_words = xp.total(pair_words, n_pairs)
        self.pool = xp.zeros(total_words + total_words // 4 + 1024, "int32")
        xp.reset(last_word, -1)
        k.fill_initial_entries(self.symbols, self.word_start, self.word_len, self.pair_table,
                               self.pair_left, self.pair_right, self.pair_count, order, xp.head(pair_words, n_pairs),
                               last_word, self.entry_pair, self.entry_neg, self.entry_seq, self.entry_start,
                               self.entry_end, self.pool, self.heap, ints)  # fmt: skip
        del order, pair_words, last_word
        self.pair_slot = xp.full(len(self.pair_left), -1, "int32")
        self._gained(1024)
        self._events(0)
        _return_freed_memory()  # the set-up's temporaries
        return self

    def _grow_pairs(self, need: int) -> None:
        """Room for ``need`` more pairs (at least double); rebuilds the pair table."""
        xp = self.arrays
        n_pairs = int(self.ints[I_PAIRS])
        if n_pairs == 0 and not hasattr(self, "pair_right"):
            size = len(self.pair_left)
            self.pair_right = xp.zeros(size, "int32")
            self.pair_count = xp.zeros(size, "int64")
        else:
            size = max(len(self.pair_left) * 5 // 4, n_pairs + need)
            self.pair_left = xp.grown(self.pair_left, size)
            self.pair_right = xp.grown(self.pair_right, size)
            self.pair_count = xp.grown(self.pair_count, size)
            if hasattr(self, "pair_slot"):
                self.pair_slot = xp.grown(self.pair_slot, size, -1)
        self.pair_table = xp.zeros(0, "int32")  # the old table goes before the new one comes
        self.pair_table = xp.full(_table_size(size), -1, "int32")
        self.kernels.rehash_pairs(self.pair_table, self.pair_left, self.pair_right, n_pairs)

    def _gained(self, size: int) -> None:
        xp = self.arrays
        self.gained_slot = xp.zeros(size, "int32")
        self.gained_word = xp.zeros(size, "int32")
        self.slot_pair = xp.zeros(size, "int32")
        self.slot_count = xp.zeros(size, "int64")
        self.slot_last_word = xp.zeros(size, "int32")

    def _events(self, size: int) -> None:
        xp = self.arrays
        self.out_left = xp.zeros(size, "int32")
        self.out_right = xp.zeros(size, "int32")
        self.out_new = xp.zeros(size, "int32")
        self.out_count = xp.zeros(size, "int64")
        self.out_tie = xp.zeros(size, "bool_")
        self.out_vocab = xp.zeros(size, "int32")
        self.done = 0

    def _grow(self) -> None:
        """Room for the next merge's worst case (``ints[I_NEED*]``), growing by half what is short."""
        xp, ints = self.arrays, self.ints
        need, need_new, need_chars = int(ints[I_NEED]), int(ints[I_NEED_NEW]), int(ints[I_NEED_CHARS])
        if ints[I_PAIRS] + need_new > len(self.pair_left):
            self._grow_pairs(need_new)
        if ints[I_ENTRIES] + need_new > len(self.entry_pair):
            size = max(len(self.entry_pair) * 5 // 4, int(ints[I_ENTRIES]) + need_new)
            for name in ("entry_pair", "entry_neg", "entry_seq", "entry_start", "entry_end", "heap"):
                setattr(self, name, xp.grown(getattr(self, name), size))
        if ints[I_POOL] + need > len(self.pool):
            size = max(len(self.pool) * 5 // 4, int(ints[I_POOL]) + need)
            if size >= 2**31:
                raise CorpusError(
                    "too many distinct words for BPE training in one process (over 2**31 word lists)"
                )
            self.pool = xp.grown(self.pool, size)
        if need > len(self.gained_slot):
            self._gained(max(len(self.gained_slot) * 3 // 2, need))
        if ints[I_CHARS] + need_chars > len(self.token_chars):
            size = max(2 * len(self.token_chars), int(ints[I_CHARS]) + need_chars)
            self.token_chars = xp.grown(self.token_chars, size)
        _return_freed_memory()

    def run(self, max_merges: int, vocab_size: int, min_frequency: int) -> tuple[int, int]:
        """Up to ``max_merges`` merges; ``(result, merges done)``, the merges in :meth:`events`."""
        if len(self.out_left) < max_merges:
            self._events(max_merges)
        self.done = 0
        tail = self.arrays.tail
        while True:
            d = self.done
            result, done = self.kernels.merge_chunk(
                self.symbols, self.word_start, self.word_len, self.word_count,
                self.token_keys, self.token_ids, self.token_chars, self.token_start, self.token_len, self.prefix,
                self.pair_table, self.pair_left, self.pair_right, self.pair_count,
                self.pair_slot,
                self.entry_pair, self.entry_neg, self.entry_seq, self.entry_start, self.entry_end,
                self.heap, self.pool, self.gained_slot, self.gained_word, self.slot_pair, self.slot_count,
                self.slot_last_word,
                self.ints, vocab_size, min_frequency, max_merges - d,
                tail(self.out_left, d), tail(self.out_right, d), tail(self.out_new, d),
                tail(self.out_count, d), tail(self.out_tie, d), tail(self.out_vocab, d), self.tie_stack,
            )  # fmt: skip
            self.done += done
            if result != GROW:
                return result, self.done
            self._grow()

    def events(self) -> list[list[int]]:
        """The last run's merges, one row each: left id, right id, new id, count, tie, vocab size."""
        columns = [self.out_left, self.out_right, self.out_new, self.out_count, self.out_tie, self.out_vocab]
        return self.arrays.rows(columns, self.done)
